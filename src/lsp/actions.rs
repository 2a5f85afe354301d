//! Quick fixes from a diagnostic's own suggestion, and formatting.
//!
//! A fix is read from the diagnostic the editor sends back: "did you mean
//! `points`?" replaces the word it points at; "add the missing `}`" adds
//! one; an option value that is not one of the allowed ones, or out of
//! range, offers each allowed value or the nearest bound.

use std::collections::HashMap;

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, DocumentFormattingParams, Position, Range,
    TextEdit, WorkspaceEdit,
};

use super::position;
use super::server::Server;
use crate::formatter::format;

pub(super) fn code_actions(server: &Server, params: CodeActionParams) -> Option<Vec<CodeActionOrCommand>> {
    let (text, _) = server.document(&params.text_document.uri)?;
    let mut actions = vec![];
    for diagnostic in &params.context.diagnostics {
        if diagnostic.source.as_deref() != Some("rpsdsl") {
            continue;
        }
        for (title, edit) in fixes(text, diagnostic) {
            actions.push(CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![diagnostic.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(params.text_document.uri.clone(), vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(true),
                ..CodeAction::default()
            }));
        }
    }
    Some(actions)
}

/// The fixes a diagnostic suggests, each a title and an edit.
fn fixes(text: &str, diagnostic: &lsp_types::Diagnostic) -> Vec<(String, TextEdit)> {
    let message = &diagnostic.message;
    let mut found = vec![];
    let replace = |by: &str| TextEdit {
        range: diagnostic.range,
        new_text: by.to_string(),
    };
    if let Some(suggested) = between(message, "did you mean `", "`?") {
        found.push((format!("Replace with `{suggested}`"), replace(suggested)));
    }
    if message.contains("add the missing `}`") {
        found.push(("Add the missing `}`".to_string(), missing_brace(text, diagnostic)));
    }
    // "`mode` is `fst`, not one of fast, slow"
    if let Some(allowed) = message.split("not one of ").nth(1) {
        // The list ends the sentence: at the line's end, or where the
        // label's words (": expected ...") begin.
        let allowed = allowed.lines().next().unwrap_or("");
        let allowed = allowed.split(':').next().unwrap_or("");
        let quoted = written(text, diagnostic.range).starts_with('"');
        for value in allowed.split(", ").map(str::trim).filter(|v| !v.is_empty()) {
            let value = if quoted {
                format!("\"{value}\"")
            } else {
                value.to_string()
            };
            found.push((format!("Use {value}"), replace(&value)));
        }
    }
    // "`rounds` is 0, outside 1..10": the nearest bound.
    if let Some((given, range)) = between(message, "` is ", ", outside ").zip(message.split(", outside ").nth(1))
        && let (Ok(given), Some((low, high))) = (
            given.parse::<i64>(),
            range.split_whitespace().next().and_then(|r| r.split_once("..")),
        )
        && let (Ok(low), Ok(high)) = (
            low.parse::<i64>(),
            high.trim_end_matches(|c: char| !c.is_ascii_digit()).parse::<i64>(),
        )
    {
        let nearest = given.clamp(low, high);
        found.push((format!("Use {nearest}"), replace(&nearest.to_string())));
    }
    found
}

/// The text between the first `open` and the next `close` after it.
fn between<'a>(message: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = message.find(open)? + open.len();
    let end = message[start..].find(close)?;
    Some(&message[start..start + end])
}

fn written(text: &str, range: Range) -> &str {
    let (start, end) = (position::offset(text, range.start), position::offset(text, range.end));
    &text[start..end.max(start)]
}

/// A `}` on a line of its own: before the `}` the diagnostic says closes the
/// wrong block, or else at the end of the file.
fn missing_brace(text: &str, diagnostic: &lsp_types::Diagnostic) -> TextEdit {
    let misplaced = diagnostic
        .related_information
        .iter()
        .flatten()
        .find(|r| r.message.contains("as this `}` closes it"))
        .map(|r| r.location.range.start);
    let at = match misplaced {
        Some(close) => Position::new(close.line, 0),
        None => position::position(text, text.len()),
    };
    let line_start = position::offset(text, Position::new(at.line, 0));
    let indent: String = text[line_start..].chars().take_while(|c| *c == ' ').collect();
    let new_text = match misplaced {
        // One level in from the `}` it goes before.
        Some(_) => format!("{indent}  }}\n"),
        None if text.ends_with('\n') || text.is_empty() => "}\n".to_string(),
        None => "\n}\n".to_string(),
    };
    TextEdit {
        range: Range::new(at, at),
        new_text,
    }
}

/// The whole document laid out by `rpsdsl fmt`, as one edit; nothing when
/// it is formatted already or does not parse.
pub(super) fn formatting(server: &Server, params: DocumentFormattingParams) -> Option<Vec<TextEdit>> {
    let (text, analysis) = server.document(&params.text_document.uri)?;
    if analysis.index.files[analysis.file]
        .path
        .extension()
        .is_some_and(|e| e == "toml")
    {
        return None;
    }
    let laid_out = format(0, text).ok()?;
    if laid_out == text {
        return Some(vec![]);
    }
    Some(vec![TextEdit {
        range: position::range(text, 0, text.len()),
        new_text: laid_out,
    }])
}
