//! Go to definition, find references, highlight and rename.
//!
//! A name declared in one file is used by every game that reads the file
//! (`use`, `extends`), so references and rename look through the games of
//! the workspace too: each `.rules` file under the editor's folders (or
//! beside the document when the editor names none) that reads the file of
//! the declaration.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};

use lsp_types::{
    DocumentHighlight, DocumentHighlightParams, GotoDefinitionParams, GotoDefinitionResponse, Location,
    PrepareRenameResponse, ReferenceParams, RenameParams, TextDocumentPositionParams, TextEdit, WorkspaceEdit,
};

use super::index::{FORM_WORDS, GameIndex, Meaning};
use super::position;
use super::server::{Analysis, Server, uri_of};
use crate::syntax::tokens::{RESERVED, TokenKind};

/// The uses of a name by file (canonical path): the file's text and the
/// byte ranges, in order.
type UsesByFile = BTreeMap<PathBuf, (String, Vec<Range<usize>>)>;

/// The most `.rules` files looked through for the games that read a file.
const WORKSPACE_FILES: usize = 2000;

/// The word under the cursor and what it means.
pub(super) fn under_cursor<'a>(
    server: &'a Server,
    at: &TextDocumentPositionParams,
) -> Option<(&'a Analysis, Range<usize>, Meaning)> {
    let (text, analysis) = server.document(&at.text_document.uri)?;
    let offset = position::offset(text, at.position);
    let token = analysis.index.token_at(analysis.file, offset)?;
    let meaning = analysis.index.meaning(analysis.file, token);
    Some((analysis, token.start..token.end, meaning))
}

/// A range of a file of the index, as a location.
pub(super) fn location(index: &GameIndex, file: usize, range: &Range<usize>) -> Option<Location> {
    let f = &index.files[file];
    Some(Location {
        uri: uri_of(&f.path)?,
        range: position::range(&f.text, range.start, range.end),
    })
}

pub(super) fn definition(server: &Server, params: GotoDefinitionParams) -> Option<GotoDefinitionResponse> {
    let (analysis, _, meaning) = under_cursor(server, &params.text_document_position_params)?;
    let index = &analysis.index;
    let places: Vec<Location> = match &meaning {
        Meaning::Local(_, n) => location(index, analysis.file, &index.files[analysis.file].binders[*n].at)
            .into_iter()
            .collect(),
        Meaning::Global(name) => index.globals[name]
            .iter()
            .filter_map(|d| location(index, d.at.file, &d.at.range))
            .collect(),
        Meaning::Keyword | Meaning::Nothing => return None,
    };
    Some(GotoDefinitionResponse::Array(places))
}

pub(super) fn references(server: &Server, params: ReferenceParams) -> Option<Vec<Location>> {
    let (analysis, _, meaning) = under_cursor(server, &params.text_document_position)?;
    let uses = uses_everywhere(server, analysis, &meaning)?;
    let mut found = vec![];
    for (path, (text, ranges)) in &uses {
        let Some(uri) = uri_of(path) else { continue };
        for range in ranges {
            found.push(Location {
                uri: uri.clone(),
                range: position::range(text, range.start, range.end),
            });
        }
    }
    Some(found)
}

pub(super) fn highlight(server: &Server, params: DocumentHighlightParams) -> Option<Vec<DocumentHighlight>> {
    let (analysis, _, meaning) = under_cursor(server, &params.text_document_position_params)?;
    if matches!(meaning, Meaning::Keyword | Meaning::Nothing) {
        return None;
    }
    let text = &analysis.index.files[analysis.file].text;
    Some(
        analysis
            .index
            .uses(&meaning, Some(analysis.file))
            .into_iter()
            .map(|(_, range)| DocumentHighlight {
                range: position::range(text, range.start, range.end),
                kind: None,
            })
            .collect(),
    )
}

pub(super) fn prepare_rename(
    server: &Server,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>, String> {
    let Some((analysis, range, meaning)) = under_cursor(server, &params) else {
        return Ok(None);
    };
    match meaning {
        Meaning::Local(..) | Meaning::Global(_) => {
            let text = &analysis.index.files[analysis.file].text;
            Ok(Some(PrepareRenameResponse::Range(position::range(
                text,
                range.start,
                range.end,
            ))))
        }
        Meaning::Keyword => Err("a word of the language cannot be renamed".into()),
        Meaning::Nothing => Err("nothing is declared by that name".into()),
    }
}

pub(super) fn rename(server: &Server, params: RenameParams) -> Result<Option<WorkspaceEdit>, String> {
    let Some((analysis, range, meaning)) = under_cursor(server, &params.text_document_position) else {
        return Ok(None);
    };
    let old = analysis.index.files[analysis.file].text[range].to_string();
    let new = params.new_name.trim().to_string();
    refuse_bad_name(&new)?;
    if new == old {
        return Ok(None);
    }
    let uses = uses_everywhere(server, analysis, &meaning).ok_or("nothing is declared by that name")?;
    refuse_collisions(server, analysis, &meaning, &new, &uses)?;
    // `WorkspaceEdit::changes` is keyed by `Uri`, whose parse cache clippy
    // counts as mutable; the map is only built and handed over.
    #[allow(clippy::mutable_key_type)]
    let mut changes: HashMap<lsp_types::Uri, Vec<TextEdit>> = HashMap::new();
    for (path, (text, ranges)) in &uses {
        let Some(uri) = uri_of(path) else { continue };
        let edits = changes.entry(uri).or_default();
        for range in ranges {
            edits.push(TextEdit {
                range: position::range(text, range.start, range.end),
                new_text: new.clone(),
            });
        }
    }
    // An action's label names its parameters: `"put {what} on {spot}"`.
    if let Meaning::Local(_, n) = meaning {
        let file = &analysis.index.files[analysis.file];
        if let (Some(label), Some(uri)) = (&file.binders[n].label, uri_of(&file.path)) {
            let placeholder = format!("{{{old}}}");
            for (at, _) in file.text[label.clone()].match_indices(&placeholder) {
                let start = label.start + at + 1;
                changes.entry(uri.clone()).or_default().push(TextEdit {
                    range: position::range(&file.text, start, start + old.len()),
                    new_text: new.clone(),
                });
            }
        }
    }
    Ok(Some(WorkspaceEdit {
        changes: Some(changes),
        ..WorkspaceEdit::default()
    }))
}

/// A name the grammar takes as a name, and that means nothing else.
fn refuse_bad_name(new: &str) -> Result<(), String> {
    let mut bytes = new.bytes();
    let well_formed = bytes.next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(crate::syntax::tokens::is_name_byte);
    if !well_formed {
        return Err(format!(
            "`{new}` is not a name: a name is letters, digits and `_`, not starting with a digit"
        ));
    }
    if RESERVED.contains(&new) || FORM_WORDS.contains(&new) {
        return Err(format!("`{new}` is a word of the language; choose another name"));
    }
    Ok(())
}

/// Refuses a rename whose new name is taken where the name is used.
fn refuse_collisions(
    server: &Server,
    analysis: &Analysis,
    meaning: &Meaning,
    new: &str,
    uses: &UsesByFile,
) -> Result<(), String> {
    let taken = |index: &GameIndex| {
        index.globals.get(new).and_then(|declared| declared.first()).map(|d| {
            let f = &index.files[d.at.file];
            let line = f.text[..d.at.range.start].matches('\n').count() + 1;
            format!(
                "`{new}` is already the name of a {} ({}:{line}); choose another name",
                d.kind.describe(),
                f.path.display()
            )
        })
    };
    match meaning {
        Meaning::Global(_) => {
            let others = games_reading(server, analysis, meaning);
            for index in std::iter::once(&analysis.index).chain(others.iter().map(|a| &a.index)) {
                if let Some(why) = taken(index) {
                    return Err(why);
                }
                // A local of the new name would capture the uses in its scope.
                for (path, (_, ranges)) in uses {
                    let Some(f) = index.files.iter().find(|f| same_file(&f.path, path)) else {
                        continue;
                    };
                    if let Some(b) = f
                        .binders
                        .iter()
                        .find(|b| b.name == new && ranges.iter().any(|r| b.scope.contains(&r.start)))
                    {
                        let line = f.text[..b.at.start].matches('\n').count() + 1;
                        return Err(format!(
                            "the {} `{new}` at {}:{line} would hide the renamed name; choose another name",
                            b.kind.describe(),
                            f.path.display()
                        ));
                    }
                }
            }
        }
        Meaning::Local(_, n) => {
            let file = &analysis.index.files[analysis.file];
            let scope = file.binders[*n].scope.clone();
            // Any word of the new name in the local's reach: a name it would
            // hide, or a local that would hide it.
            if let Some(t) = file
                .tokens
                .iter()
                .find(|t| t.kind == TokenKind::Word && scope.contains(&t.start) && t.text(&file.text) == new)
            {
                let line = file.text[..t.start].matches('\n').count() + 1;
                return Err(format!(
                    "`{new}` is already used on line {line}, where the renamed name is in scope; choose another name"
                ));
            }
            if let Some(why) = taken(&analysis.index) {
                return Err(why);
            }
        }
        Meaning::Keyword | Meaning::Nothing => {}
    }
    Ok(())
}

/// Every use of `meaning` by file: in the document's game, and, for a
/// declared name, in every game of the workspace that reads its file.
fn uses_everywhere(server: &Server, analysis: &Analysis, meaning: &Meaning) -> Option<UsesByFile> {
    if matches!(meaning, Meaning::Keyword | Meaning::Nothing) {
        return None;
    }
    let mut found = UsesByFile::new();
    let mut add = |index: &GameIndex, uses: Vec<(usize, Range<usize>)>| {
        for (file, range) in uses {
            let f = &index.files[file];
            let key = canonical(&f.path);
            let entry = found.entry(key).or_insert_with(|| (f.text.to_string(), vec![]));
            if !entry.1.contains(&range) {
                entry.1.push(range);
            }
        }
    };
    add(&analysis.index, analysis.index.uses(meaning, None));
    if matches!(meaning, Meaning::Global(_)) {
        for other in games_reading(server, analysis, meaning) {
            let uses = other.index.uses(meaning, None);
            add(&other.index, uses);
        }
    }
    for (_, ranges) in found.values_mut() {
        ranges.sort_by_key(|r| r.start);
    }
    Some(found)
}

/// The other games of the workspace that read a file declaring `meaning`.
fn games_reading(server: &Server, analysis: &Analysis, meaning: &Meaning) -> Vec<Analysis> {
    let Meaning::Global(name) = meaning else { return vec![] };
    let declaring: HashSet<PathBuf> = analysis.index.globals[name]
        .iter()
        .map(|d| canonical(&analysis.index.files[d.at.file].path))
        .collect();
    let document = canonical(&analysis.index.files[analysis.file].path);
    let mut games = vec![];
    for path in workspace_files(server, &analysis.index.files[analysis.file].path, "rules") {
        if canonical(&path) == document {
            continue;
        }
        let other = server.analyze(&path);
        if other
            .index
            .files
            .iter()
            .any(|f| declaring.contains(&canonical(&f.path)))
        {
            games.push(other);
        }
    }
    games
}

/// The files of the workspace with the extension `extension` (`rules`,
/// `toml`), and the open ones.
pub(super) fn workspace_files(server: &Server, document: &Path, extension: &str) -> Vec<PathBuf> {
    let mut roots = server.roots.clone();
    if roots.is_empty() {
        // No folder named: the document's folder and the one above it,
        // where a game and its `prelude/` usually sit.
        if let Some(parent) = document.parent() {
            roots.push(
                parent
                    .parent()
                    .filter(|p| !p.as_os_str().is_empty())
                    .unwrap_or(parent)
                    .to_path_buf(),
            );
        }
    }
    let mut found: Vec<PathBuf> = server
        .open
        .keys()
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .cloned()
        .collect();
    let mut folders = roots;
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else { continue };
            // Hidden folders, build output and packages hold no game of the designer's.
            let hidden = path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.') || n == "target" || n == "node_modules");
            if kind.is_dir() && !hidden {
                folders.push(path);
            } else if kind.is_file() && path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
            if found.len() >= WORKSPACE_FILES {
                return found;
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The path the disk knows `path` by (itself when it does not exist).
pub(super) fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn same_file(a: &Path, b: &Path) -> bool {
    canonical(a) == canonical(b)
}
