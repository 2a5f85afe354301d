//! Diagnostics as data: every stage builds these; miette renders them at the edge.
//!
//! A [`Diagnostic`] names a stable kebab-case code (`rpsdsl::unknown-name`), a
//! message, labelled spans into the sources and an optional help line. It knows
//! nothing about terminals; [`Diagnostic::to_report`] turns it into a
//! `miette::Report` with the right file attached.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, NamedSource, SourceSpan};
use serde::Serialize;

/// Index of a file in [`Sources`].
pub type FileId = u16;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both (they must be in the same file).
    pub fn join(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in diagnostics, as the user gave it (e.g. `games/rps.rules`).
    pub name: String,
    pub text: Arc<str>,
}

/// Every file that took part in a definition: the main file, the files it uses,
/// house-rule files. Spans index into this.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    pub files: Vec<SourceFile>,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as FileId
    }

    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    pub fn text(&self, span: Span) -> &str {
        let text = &self.file(span.file).text;
        text.get(span.start as usize..span.end as usize).unwrap_or("")
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let text = &self.file(file).text;
        let offset = (offset as usize).min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, Serialize)]
pub struct Label {
    pub span: Span,
    pub text: String,
}

/// A problem found in some input, with where it is and what to do about it.
#[derive(Clone, Debug, Serialize)]
pub struct Diagnostic {
    /// Stable kebab-case code, without the `rpsdsl::` prefix.
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub labels: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: vec![],
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Warning,
            message: message.into(),
            labels: vec![],
            help: None,
        }
    }

    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// A miette report carrying the file of the first label.
    pub fn to_report(&self, sources: &Sources) -> miette::Report {
        miette::Report::new(Rendered::new(self, sources))
    }

    /// A machine-readable form with file names and 1-based line/column.
    pub fn to_json(&self, sources: &Sources) -> serde_json::Value {
        let labels: Vec<_> = self
            .labels
            .iter()
            .map(|l| {
                let (line, column) = sources.line_col(l.span.file, l.span.start);
                serde_json::json!({
                    "file": sources.file(l.span.file).name,
                    "start": l.span.start,
                    "end": l.span.end,
                    "line": line,
                    "column": column,
                    "text": l.text,
                })
            })
            .collect();
        serde_json::json!({
            "code": format!("rpsdsl::{}", self.code),
            "severity": self.severity,
            "message": self.message,
            "labels": labels,
            "help": self.help,
        })
    }
}

/// The miette view of a [`Diagnostic`]: the data plus the one file its labels
/// point into. Labels in other files become related diagnostics.
#[derive(Debug)]
struct Rendered {
    code: String,
    severity: miette::Severity,
    message: String,
    help: Option<String>,
    source: Option<NamedSource<String>>,
    labels: Vec<LabeledSpan>,
    related: Vec<Rendered>,
}

impl Rendered {
    fn new(diag: &Diagnostic, sources: &Sources) -> Self {
        let severity = match diag.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        };
        Self::with_severity(diag, sources, severity)
    }

    fn with_severity(diag: &Diagnostic, sources: &Sources, severity: miette::Severity) -> Self {
        let file = diag.labels.first().map(|l| l.span.file);
        let mut labels = vec![];
        let mut related = vec![];
        for label in &diag.labels {
            if Some(label.span.file) == file {
                labels.push(LabeledSpan::new_with_span(
                    Some(label.text.clone()),
                    SourceSpan::new((label.span.start as usize).into(), label.span.len()),
                ));
            } else {
                // A label in another file (a prelude) is context, not a second problem.
                related.push(Rendered::with_severity(
                    &Diagnostic {
                        code: diag.code,
                        severity: diag.severity,
                        message: label.text.clone(),
                        labels: vec![label.clone()],
                        help: None,
                    },
                    sources,
                    miette::Severity::Advice,
                ));
            }
        }
        let source = file.map(|f| {
            let f = sources.file(f);
            NamedSource::new(f.name.clone(), f.text.to_string())
        });
        Rendered {
            code: format!("rpsdsl::{}", diag.code),
            severity,
            message: diag.message.clone(),
            help: diag.help.clone(),
            source,
            labels,
            related,
        }
    }
}

impl fmt::Display for Rendered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Rendered {}

impl miette::Diagnostic for Rendered {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            None
        } else {
            Some(Box::new(self.labels.iter().cloned()))
        }
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(self.related.iter().map(|r| r as &dyn miette::Diagnostic)))
        }
    }
}

/// The nearest name to `wanted` among `candidates`, if one is close enough to
/// be a likely typo.
pub fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = strsim::levenshtein(&wanted.to_lowercase(), &candidate.to_lowercase());
        let limit = (wanted.chars().count().max(3)) / 3 + 1;
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Renders diagnostics as miette draws them, without colour when `color` is
/// false (for files, pipes and snapshots).
pub fn render(diagnostics: &[Diagnostic], sources: &Sources, color: bool) -> String {
    let theme = if color {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    for diagnostic in diagnostics {
        let report = diagnostic.to_report(sources);
        if handler.render_report(&mut out, report.as_ref()).is_err() {
            out.push_str(&diagnostic.message);
        }
        out.push('\n');
    }
    out
}
