//! Hover: what a name is, with its declaration; what a word of the
//! language means, from `docs/language.md`.

use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};

use super::index::{Meaning, line_of};
use super::navigate::under_cursor;
use super::server::Server;
use super::{docs, position};

pub(super) fn hover(server: &Server, params: HoverParams) -> Option<Hover> {
    let (analysis, range, meaning) = under_cursor(server, &params.text_document_position_params)?;
    let index = &analysis.index;
    let file = &index.files[analysis.file];
    let word = &file.text[range.clone()];
    let text = match meaning {
        Meaning::Keyword => docs::explain(word)?,
        Meaning::Nothing => return None,
        Meaning::Local(_, n) => {
            let binder = &file.binders[n];
            let mut shown = format!(
                "**{}** `{word}`\n\n```rules\n{}\n```",
                binder.kind.describe(),
                file.text[line_of(&file.text, binder.at.start)].trim()
            );
            if binder.label.is_some() {
                shown.push_str(&format!(
                    "\n\nAn action's parameter: `{{{word}}}` in the label shows its value."
                ));
            }
            shown
        }
        Meaning::Global(name) => {
            let mut shown = vec![];
            for declared in &index.globals[&name] {
                let f = &index.files[declared.at.file];
                let line = f.text[..declared.at.range.start].matches('\n').count() + 1;
                let mut one = format!(
                    "**{}** `{name}`\n\n```rules\n{}\n```\n\n{}, line {line}",
                    declared.kind.describe(),
                    f.text[line_of(&f.text, declared.at.range.start)].trim(),
                    f.path
                        .file_name()
                        .map_or_else(|| f.path.display().to_string(), |n| n.to_string_lossy().into_owned()),
                );
                if let Some(note) = &declared.note {
                    one.push_str(&format!(" · {note}"));
                }
                shown.push(one);
            }
            let mut shown = shown.join("\n\n---\n\n");
            if let Some(said) = index.texts.get(&name) {
                shown.push_str(&format!("\n\n---\n\nWhat players read: {said}"));
            }
            if let Some(path) = index.pictures.get(&name) {
                shown.push_str(&picture_markdown(&name, path));
            }
            shown
        }
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(position::range(&file.text, range.start, range.end)),
    })
}

/// The picture the rules draw on a piece type or a kind, shown in the
/// hover (an editor draws a markdown image of a file URL) and named.
fn picture_markdown(name: &str, path: &std::path::Path) -> String {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let shown = path
        .file_name()
        .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    match url::Url::from_file_path(&absolute) {
        Ok(url) => format!("\n\n---\n\nIts picture, `{shown}`:\n\n![{name}]({url})"),
        Err(()) => format!("\n\n---\n\nIts picture: `{shown}`"),
    }
}
