//! Diagnostics as data: every stage builds these; miette renders them at the edge.
//!
//! A [`Diagnostic`] names a stable code from the registry, [`Code`] (shown as
//! `rpsdsl::unknown-name`), a message, labelled spans into the sources and an
//! optional help line. It knows nothing about terminals;
//! [`Diagnostic::to_report`] turns it into a `miette::Report` with the right
//! file attached.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, MietteError, MietteSpanContents, NamedSource, SourceCode, SourceSpan, SpanContents};
use serde::Serialize;

mod code;
pub use code::Code;

/// Index of a file in [`Sources`].
pub type FileId = u16;

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    /// The file: an index into [`Sources`].
    pub file: FileId,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// A span of `file` from byte `start` to byte `end`.
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The start of `file`: where a diagnostic about a whole file (not a
    /// place in it) points.
    pub fn file_start(file: FileId) -> Self {
        Span::new(file, 0, 0)
    }

    /// The smallest span covering both (they must be in the same file).
    pub(crate) fn join(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub(crate) fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
}

/// One loaded source file.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name shown in diagnostics, as the user gave it (e.g. `games/duel.rules`).
    pub name: String,
    /// Its whole text.
    pub text: Arc<str>,
}

/// Every file that took part in a definition: the main file, the files it uses,
/// house-rule files. Spans index into this.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// Every file read, by [`FileId`].
    pub files: Vec<SourceFile>,
}

impl Sources {
    /// Adds a file, named as diagnostics show it; returns its id, for spans into it.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            text: text.into(),
        });
        (self.files.len() - 1) as FileId
    }

    /// Names every file that lies under `root` relative to it, so what is
    /// shown to someone else (a page of the studio) never names the
    /// server's own folders. Files elsewhere keep their names.
    pub fn name_from(&mut self, root: &std::path::Path) {
        for file in &mut self.files {
            if let Ok(inside) = std::path::Path::new(&file.name).strip_prefix(root) {
                file.name = inside.display().to_string();
            }
        }
    }

    /// The file `id` names.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id as usize]
    }

    /// The text `span` covers; empty when it is not a range of whole characters of the text.
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
pub(crate) enum Severity {
    Error,
    Warning,
}

/// A span of source with a note on it; the first label of a diagnostic is where it is shown.
#[derive(Clone, Debug, Serialize)]
pub struct Label {
    /// What the label points at.
    pub span: Span,
    /// The note.
    pub text: String,
}

/// A problem found in some input, with where it is and what to do about it.
#[derive(Clone, Debug, Serialize)]
pub struct Diagnostic {
    /// Stable code from the registry; shown as `rpsdsl::` and its text.
    pub code: Code,
    pub(crate) severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where: spans with notes, the first being the main one.
    pub labels: Vec<Label>,
    /// What to do about it, if there is something to say.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error with its code and message.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            labels: vec![],
            help: None,
        }
    }

    /// A warning with its code and message.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Warning,
            message: message.into(),
            labels: vec![],
            help: None,
        }
    }

    /// Points at `span`, saying `text` there.
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            text: text.into(),
        });
        self
    }

    /// Adds a help line: how to fix it.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error (as opposed to a warning).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// A miette report carrying the file of the first label.
    pub(crate) fn to_report(&self, sources: &Sources) -> miette::Report {
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

/// How many diagnostics one check reports; the rest are counted in one
/// `too-many-errors` summary (see [`cap`]).
pub(crate) const MAX_REPORTED: usize = 100;

/// Keeps the first [`MAX_REPORTED`] diagnostics and replaces the rest with
/// one that counts them. Reading the first hundred mistakes is all a person
/// does before fixing them, and printing twenty thousand takes a while.
pub(crate) fn cap(diagnostics: &mut Vec<Diagnostic>) {
    if diagnostics.len() <= MAX_REPORTED {
        return;
    }
    let rest = diagnostics.split_off(MAX_REPORTED);
    let errors = rest.iter().filter(|d| d.is_error()).count();
    let warnings = rest.len() - errors;
    let count = |n: usize, what: &str| format!("{} more {what}{}", thousands(n), if n == 1 { "" } else { "s" });
    let what = match (errors, warnings) {
        (e, 0) => count(e, "error"),
        (0, w) => count(w, "warning"),
        (e, w) => format!("{} and {}", count(e, "error"), count(w, "warning")),
    };
    let message = format!("...and {what}, not shown");
    let mut summary = if errors > 0 {
        Diagnostic::error(Code::TooManyErrors, message)
    } else {
        Diagnostic::warning(Code::TooManyErrors, message)
    };
    if let Some(first) = rest.iter().find_map(|d| d.labels.first()) {
        summary = summary.label(first.span, "the first one not shown is here");
    }
    diagnostics.push(summary.help(format!(
        "only the first {MAX_REPORTED} are shown: fix those and check again (one mistake often causes several)"
    )));
}

/// `19900` as `19,900`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Lines longer than this are shown as a window around the label: miette
/// cannot draw a label past column 65,535, and a screen shows far less.
const LONG_LINE: usize = 1000;
/// How much of a long line is shown on each side of a label.
const WINDOW_SIDE: usize = 60;
/// How much of a long label on a long line is underlined.
const WINDOW_LABEL: usize = 200;

/// The line around `offset`: its start and its end (before the newline).
fn line_around(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    (start, end)
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// A window of one long line, which miette reads as if it were the file: it
/// reports the true line and column of every span in it.
#[derive(Debug)]
struct Excerpt {
    name: String,
    text: String,
    /// The 0-based line the window lies on.
    line: usize,
    /// The 0-based column (in bytes, as miette counts) of the window's first
    /// byte: the true column of the text shown, less the `…` before it.
    column: usize,
}

impl Excerpt {
    /// The window of `text` around `span` (whose line is long), and where
    /// `span` falls in it.
    fn around(name: &str, text: &str, span: Span) -> (Excerpt, SourceSpan) {
        const ELLIPSIS: &str = "…";
        let start = floor_boundary(text, span.start as usize);
        let (line_start, line_end) = line_around(text, start);
        let mut end = floor_boundary(text, (span.end as usize).clamp(start, line_end));
        if end - start > WINDOW_LABEL {
            end = floor_boundary(text, start + WINDOW_LABEL);
        }
        let mut w0 = floor_boundary(text, start.saturating_sub(WINDOW_SIDE).max(line_start));
        if w0 - line_start < ELLIPSIS.len() {
            w0 = line_start;
        }
        let w1 = ceil_boundary(text, (end.max(start + 1) + WINDOW_SIDE).min(line_end)).max(end);
        let prefix = if w0 > line_start { ELLIPSIS } else { "" };
        let suffix = if w1 < line_end { ELLIPSIS } else { "" };
        let excerpt = Excerpt {
            name: name.to_string(),
            text: format!("{prefix}{}{suffix}", &text[w0..w1]),
            line: text[..line_start].matches('\n').count(),
            column: w0 - line_start - prefix.len(),
        };
        let at = SourceSpan::new((start - w0 + prefix.len()).into(), end - start);
        (excerpt, at)
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .as_str()
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            self.line + inner.line(),
            self.column + inner.column(),
            inner.line_count(),
        )))
    }
}

/// What a [`Rendered`] shows its labels in.
#[derive(Debug)]
enum Shown {
    File(NamedSource<Arc<str>>),
    Window(Excerpt),
}

/// The miette view of a [`Diagnostic`]: the data plus the one file its labels
/// point into. Labels in other files become related diagnostics, and so do
/// labels on a long line other than the first label's.
#[derive(Debug)]
struct Rendered {
    code: String,
    severity: miette::Severity,
    message: String,
    help: Option<String>,
    source: Option<Shown>,
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
        let text = file.map(|f| sources.file(f).text.clone());
        let long = |span: Span| {
            text.as_deref().is_some_and(|text| {
                let (start, end) = line_around(text, span.start as usize);
                end - start > LONG_LINE
            })
        };
        // The first label on a long line is shown in a window of that line;
        // the others that fit in it join it.
        let window = match (diag.labels.first(), &text) {
            (Some(first), Some(text)) if long(first.span) => {
                Some(Excerpt::around(&sources.file(first.span.file).name, text, first.span))
            }
            _ => None,
        };
        let mut labels = vec![];
        let mut related = vec![];
        for (index, label) in diag.labels.iter().enumerate() {
            let same_file = Some(label.span.file) == file;
            let shown = match &window {
                _ if !same_file => None,
                Some((_, at)) if index == 0 => Some(*at),
                Some((excerpt, first_at)) => {
                    // Another label inside the window, on the same line.
                    let first = diag.labels[0].span.start as usize;
                    let shift = first as isize - first_at.offset() as isize;
                    let start = label.span.start as isize - shift;
                    let end = start + label.span.len() as isize;
                    let inside = start >= 0
                        && end <= excerpt.text.len() as isize
                        && excerpt.text.is_char_boundary(start as usize)
                        && excerpt.text.is_char_boundary(end as usize)
                        && !excerpt.text[start as usize..end as usize].contains('\n');
                    inside.then(|| SourceSpan::new((start as usize).into(), label.span.len()))
                }
                None if long(label.span) => None,
                None => Some(SourceSpan::new((label.span.start as usize).into(), label.span.len())),
            };
            if let Some(at) = shown {
                labels.push(LabeledSpan::new_with_span(Some(label.text.clone()), at));
            } else {
                // A label on a long line elsewhere is shown by itself, in its
                // own window; a label in another file (a prelude) is context,
                // not a second problem. Either way it is a note of its own.
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
        let source = match window {
            Some((excerpt, _)) => Some(Shown::Window(excerpt)),
            None => file.map(|f| {
                let f = sources.file(f);
                Shown::File(NamedSource::new(f.name.clone(), f.text.clone()))
            }),
        };
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
        self.source.as_ref().map(|s| match s {
            Shown::File(file) => file as &dyn SourceCode,
            Shown::Window(excerpt) => excerpt as &dyn SourceCode,
        })
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

thread_local! {
    /// How many more "did you mean" searches this thread's check may make.
    static SUGGESTIONS_LEFT: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

/// Starts a check on this thread: it looks for at most twice
/// [`MAX_REPORTED`] suggestions. Only the first [`MAX_REPORTED`]
/// diagnostics are shown, and each search reads every name in scope, so
/// a file of thousands of unknown names among thousands of known ones
/// would otherwise take time quadratic in its size.
pub(crate) fn start_suggestions() {
    SUGGESTIONS_LEFT.set(2 * MAX_REPORTED);
}

/// The nearest name to `wanted` among `candidates`, if one is close enough to
/// be a likely typo (and this check has suggestions left, see
/// [`start_suggestions`]).
pub(crate) fn nearest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let left = SUGGESTIONS_LEFT.get();
    if left == 0 {
        return None;
    }
    SUGGESTIONS_LEFT.set(left - 1);
    let wanted_lower = wanted.to_lowercase();
    let length = wanted.chars().count();
    let limit = length.max(3) / 3 + 1;
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // Lengths further apart than the limit are further apart in edits.
        if candidate.chars().count().abs_diff(length) > limit {
            continue;
        }
        let distance = strsim::levenshtein(&wanted_lower, &candidate.to_lowercase());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_looks_for_a_bounded_number_of_suggestions() {
        let names = ["winner", "loser", "rounds"];
        start_suggestions();
        for _ in 0..2 * MAX_REPORTED {
            assert_eq!(nearest("winer", names), Some("winner"));
        }
        // Past the budget, the thousands of unknown names that follow cost
        // nothing: no one reads their suggestions.
        assert_eq!(nearest("winer", names), None);
        start_suggestions();
        assert_eq!(nearest("rouns", names), Some("rounds"));
        assert_eq!(nearest("zzzzzzzz", names), None);
    }
}
