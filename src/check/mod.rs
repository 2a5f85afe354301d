//! Check: resolve every name, type every expression, collect every error, and
//! compile the flow into an [`ir::GameDef`](crate::ir::GameDef).
//!
//! Errors are gathered, never thrown: one run reports all of them.

mod body;
mod declare;
mod options;
mod types;

use std::path::{Path, PathBuf};

use crate::diagnostic::{Diagnostic, Sources, Span};
use crate::ir::GameDef;
use crate::syntax::{self, ast};

pub use options::{OptionSetting, describe as describe_option_type, parse_option_value, resolve_settings};

/// Where `use "..."` finds files. The library reads nothing by itself; the
/// caller decides ([`FsLoader`] reads the file system).
pub trait SourceLoader {
    fn load(&self, path: &Path) -> std::io::Result<String>;
}

/// Reads sources from the file system.
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        std::fs::read_to_string(path)
    }
}

/// A checked definition and the warnings found on the way.
#[derive(Debug)]
pub struct Checked {
    pub def: GameDef,
    pub warnings: Vec<Diagnostic>,
}

/// The outcome of a failed check: every diagnostic, and the sources they point into.
#[derive(Debug)]
pub struct Failed {
    pub diagnostics: Vec<Diagnostic>,
    pub sources: Sources,
}

/// Reads, parses and checks the rules file at `path` and every file it uses.
pub fn check_file(path: &Path, loader: &dyn SourceLoader) -> Result<Checked, Box<Failed>> {
    let mut sources = Sources::default();
    let mut diagnostics = vec![];
    let mut items = vec![];
    match loader.load(path) {
        Ok(text) => {
            let id = sources.add(path.display().to_string(), text);
            load_items(
                id,
                path,
                loader,
                &mut sources,
                &mut items,
                &mut diagnostics,
                &mut vec![path.to_path_buf()],
            );
        }
        Err(error) => {
            diagnostics.push(
                Diagnostic::error("unreadable-file", format!("cannot read `{}`: {error}", path.display()))
                    .help("check the path; rules files usually live in games/"),
            );
            return Err(Box::new(Failed { diagnostics, sources }));
        }
    }
    finish(sources, items, diagnostics)
}

/// Checks rules given as text (the name is used in diagnostics; `use` paths
/// resolve relative to it).
pub fn check_source(name: &str, text: &str, loader: &dyn SourceLoader) -> Result<Checked, Box<Failed>> {
    let mut sources = Sources::default();
    let mut diagnostics = vec![];
    let mut items = vec![];
    let id = sources.add(name, text);
    let path = PathBuf::from(name);
    load_items(
        id,
        &path,
        loader,
        &mut sources,
        &mut items,
        &mut diagnostics,
        &mut vec![path.clone()],
    );
    finish(sources, items, diagnostics)
}

fn finish(sources: Sources, items: Vec<ast::Item>, mut diagnostics: Vec<Diagnostic>) -> Result<Checked, Box<Failed>> {
    if diagnostics.iter().any(Diagnostic::is_error) {
        // A part that failed to parse would show up as missing or unused
        // everywhere else; report the syntax errors alone.
        diagnostics.retain(Diagnostic::is_error);
        return Err(Box::new(Failed { diagnostics, sources }));
    }
    let syntax_failed = false;
    let (def, mut found) = declare::build(sources, items);
    diagnostics.append(&mut found);
    if syntax_failed || diagnostics.iter().any(Diagnostic::is_error) {
        // A mistake makes its names look unused; those warnings would only be noise.
        diagnostics.retain(|d| d.is_error() || d.code != "unused");
        diagnostics.sort_by_key(|d| (!d.is_error(), d.labels.first().map(|l| (l.span.file, l.span.start))));
        return Err(Box::new(Failed {
            diagnostics,
            sources: def.sources,
        }));
    }
    Ok(Checked {
        def,
        warnings: diagnostics,
    })
}

/// Parses one file and, depth first, the files it uses; items of used files
/// come first so a game can refine what a prelude declares.
fn load_items(
    file: u16,
    path: &Path,
    loader: &dyn SourceLoader,
    sources: &mut Sources,
    items: &mut Vec<ast::Item>,
    diagnostics: &mut Vec<Diagnostic>,
    stack: &mut Vec<PathBuf>,
) {
    let text = sources.file(file).text.clone();
    let (parsed, mut errors) = syntax::parse_file(file, &text);
    diagnostics.append(&mut errors);
    let mut own = vec![];
    for item in parsed.items {
        if let ast::Item::Use { path: used, span } = &item {
            let used_path = path.parent().unwrap_or(Path::new("")).join(used);
            if stack.contains(&used_path) {
                diagnostics.push(
                    Diagnostic::error(
                        "use-cycle",
                        format!("`{used}` is already being used, so this would loop"),
                    )
                    .label(*span, "used again here"),
                );
                continue;
            }
            match loader.load(&used_path) {
                Ok(used_text) => {
                    let id = sources.add(used_path.display().to_string(), used_text);
                    stack.push(used_path.clone());
                    load_items(id, &used_path, loader, sources, items, diagnostics, stack);
                    stack.pop();
                }
                Err(error) => diagnostics.push(
                    Diagnostic::error(
                        "unreadable-file",
                        format!("cannot read `{}`: {error}", used_path.display()),
                    )
                    .label(*span, "used here")
                    .help("paths in `use` are relative to the file that uses them"),
                ),
            }
        }
        own.push(item);
    }
    items.extend(own);
}

/// A span for diagnostics that concern a whole file rather than a place in it.
pub(crate) fn file_start(file: u16) -> Span {
    Span::new(file, 0, 0)
}
