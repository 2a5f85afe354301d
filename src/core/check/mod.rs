//! Check: resolve every name, type every expression, collect every error, and
//! compile the flow into an [`ir::GameDef`](crate::ir::GameDef) and the hooks
//! beside it into a [`Script`](crate::script::Script): a [`Game`].
//!
//! Errors are gathered, never thrown: one run reports all of them.

mod body;
mod declare;
mod ids;
mod options;
mod types;
mod variant;

use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic, Sources, Span};
use crate::engine::Game;
use crate::ir::GameDef;
use crate::script::Script;
use crate::syntax::{self, ast};

pub use declare::Shape;
pub use options::{OptionSetting, describe as describe_option_type, parse_option_value, resolve_settings};

/// Where `use "..."` finds files. The library reads nothing by itself; the
/// caller decides ([`FsLoader`] reads the file system).
pub trait SourceLoader {
    /// The text of the file at `path`, already resolved against the file that names it.
    fn load(&self, path: &Path) -> std::io::Result<String>;
}

/// Reads sources from the file system.
pub struct FsLoader;

impl SourceLoader for FsLoader {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        crate::input::read_text(path, crate::input::SOURCE_LIMIT)
    }
}

/// A checked definition, its hooks compiled, and the warnings found on the way.
#[derive(Debug)]
pub struct Checked {
    /// The checked definition with its compiled hooks.
    pub def: Game,
    /// Warnings found while checking; the definition is usable.
    pub warnings: Vec<Diagnostic>,
    /// The merged declarations (a variant's overrides applied), for
    /// explaining what differs between two definitions.
    pub(crate) items: Vec<ast::Item>,
}

/// The outcome of a failed check: every diagnostic, and the sources they point into.
#[derive(Debug)]
pub struct Failed {
    /// Every problem found: errors, and any warnings found with them.
    pub diagnostics: Vec<Diagnostic>,
    /// The files read, which the diagnostics' spans point into.
    pub sources: Sources,
}

/// Reads, parses and checks the rules file at `path` and every file it uses.
pub fn check_file(path: &Path, loader: &dyn SourceLoader) -> Result<Checked, Box<Failed>> {
    check_file_shaped(path, loader, &[])
}

/// [`check_file`], the board built for the option values `shape` gives
/// (the others at their defaults; see [`Shape`]).
pub fn check_file_shaped(path: &Path, loader: &dyn SourceLoader, shape: &Shape) -> Result<Checked, Box<Failed>> {
    match loader.load(path) {
        Ok(text) => check_source_shaped(&path.display().to_string(), &text, loader, shape),
        Err(error) => {
            let mut sources = Sources::default();
            let diagnostic = crate::input::unreadable(
                path,
                &error,
                &mut sources,
                "check the path; rules files usually live in games/",
            );
            Err(Box::new(Failed {
                diagnostics: vec![diagnostic],
                sources,
            }))
        }
    }
}

/// Checks rules given as text (the name is used in diagnostics; `use` and
/// `extends` paths resolve relative to it).
pub fn check_source(name: &str, text: &str, loader: &dyn SourceLoader) -> Result<Checked, Box<Failed>> {
    check_source_shaped(name, text, loader, &[])
}

/// [`check_source`], the board built for the option values `shape` gives.
pub fn check_source_shaped(
    name: &str,
    text: &str,
    loader: &dyn SourceLoader,
    shape: &Shape,
) -> Result<Checked, Box<Failed>> {
    crate::diagnostic::start_suggestions();
    let mut sources = Sources::default();
    let mut diagnostics = vec![];
    let id = sources.add(name, text);
    let path = PathBuf::from(name);
    let mut loading = Loading {
        loader,
        sources: &mut sources,
        diagnostics: &mut diagnostics,
        stack: vec![path.clone()],
        done: vec![],
        base: None,
        root: id,
        chain_failed: false,
        site: None,
    };
    let items = loading.items(id, &path);
    let (base, root) = (loading.base, loading.root);
    let mut result = finish(sources, items, diagnostics, shape);
    if let Ok(checked) = &mut result {
        checked.def.base = base;
        checked.def.root_file = root;
    }
    result
}

fn finish(
    sources: Sources,
    items: Vec<ast::Item>,
    mut diagnostics: Vec<Diagnostic>,
    shape: &Shape,
) -> Result<Checked, Box<Failed>> {
    if diagnostics.iter().any(Diagnostic::is_error) {
        // A part that failed to parse (or a variant that does not fit its
        // base) would show up as missing or unused everywhere else; report
        // those errors alone.
        diagnostics.retain(Diagnostic::is_error);
        crate::diagnostic::cap(&mut diagnostics);
        return Err(Box::new(Failed { diagnostics, sources }));
    }
    let (def, mut found) = declare::build(sources, items.clone(), shape);
    diagnostics.append(&mut found);
    let script = compile_hooks(&def, &items, &mut diagnostics);
    if diagnostics.iter().any(Diagnostic::is_error) {
        // A mistake makes its names look unused; those warnings would only be noise.
        diagnostics.retain(|d| d.is_error() || d.code != Code::Unused);
        diagnostics.sort_by_key(|d| (!d.is_error(), d.labels.first().map(|l| (l.span.file, l.span.start))));
        crate::diagnostic::cap(&mut diagnostics);
        return Err(Box::new(Failed {
            diagnostics,
            sources: def.sources,
        }));
    }
    crate::diagnostic::cap(&mut diagnostics);
    Ok(Checked {
        def: Game::new(def, script),
        warnings: diagnostics,
        items,
    })
}

/// Compiles the hooks of the rules, if any, against the finished
/// definition; a hook that is not valid rhai adds its errors.
fn compile_hooks(def: &GameDef, items: &[ast::Item], diagnostics: &mut Vec<Diagnostic>) -> Option<Script> {
    let hooks: Vec<&ast::HookDecl> = items
        .iter()
        .filter_map(|i| match i {
            ast::Item::Hook(h) => Some(h),
            _ => None,
        })
        .collect();
    if hooks.is_empty() {
        return None;
    }
    match Script::compile(def, &hooks) {
        Ok(script) => Some(script),
        Err(mut errors) => {
            diagnostics.append(&mut errors);
            None
        }
    }
}

/// Parses files and the files they use or extend.
struct Loading<'a> {
    loader: &'a dyn SourceLoader,
    sources: &'a mut Sources,
    diagnostics: &'a mut Vec<Diagnostic>,
    /// Files being loaded, outermost first: a file met again here is a cycle.
    stack: Vec<PathBuf>,
    /// Files already loaded: `use`d twice (say by a base and its variant), a
    /// file still counts once.
    done: Vec<PathBuf>,
    /// The file the top-level file extends, if it is a variant.
    base: Option<String>,
    /// The last file of the `extends` chain: the game every variant of the
    /// chain changes (the top-level file itself when it extends nothing).
    root: u16,
    /// Some base along the `extends` chain could not be loaded.
    chain_failed: bool,
    /// The `use` or `extends` that named the file about to be parsed.
    site: Option<Span>,
}

impl Loading<'_> {
    /// Reads `path` for an `extends` or `use` at `span`.
    fn read(&mut self, path: &Path, span: Span, how: &str) -> Option<u16> {
        match self.loader.load(path) {
            Ok(text) => Some(self.sources.add(path.display().to_string(), text)),
            Err(error) => {
                let help = format!("paths in `{how}` are relative to the file that names them");
                let diagnostic = crate::input::unreadable(path, &error, self.sources, &help);
                self.diagnostics.push(diagnostic.label(span, format!("{how} here")));
                None
            }
        }
    }

    /// A `display ... with picture "file.svg"` with the file read (its
    /// path relative to the file that names it), or as it was, with an
    /// error said, when the file can't be read or is not an SVG picture.
    fn picture(&mut self, dir: &Path, item: ast::Item) -> ast::Item {
        let ast::Item::Picture {
            name, path, path_span, ..
        } = item
        else {
            return item;
        };
        let target = crate::input::tidy_path(&dir.join(&path));
        let svg = match self.loader.load(&target) {
            Ok(text) => match picture_fault(&text) {
                None => Some(std::sync::Arc::from(text)),
                Some(fault) => {
                    self.diagnostics.push(
                        Diagnostic::error(Code::NotAPicture, format!("`{path}` {fault}"))
                            .label(path_span, "the picture named here")
                            .help(format!(
                                "a picture is an SVG file of at most {} KiB (`<svg ...>...</svg>`), as any vector \
                                 editor saves it; or give the pieces a shape: `display {} with shape circle`",
                                PICTURE_LIMIT / 1024,
                                name.name
                            )),
                    );
                    None
                }
            },
            Err(error) => {
                let help = "a picture's path is relative to the rules file that names it";
                let diagnostic = crate::input::unreadable(&target, &error, self.sources, help);
                self.diagnostics
                    .push(diagnostic.label(path_span, "the picture named here"));
                None
            }
        };
        ast::Item::Picture {
            name,
            path,
            path_span,
            svg,
        }
    }

    /// The items of one file: used files first, then (for a variant) its
    /// base with the variant's overrides applied.
    fn items(&mut self, file: u16, path: &Path) -> Vec<ast::Item> {
        let text = self.sources.file(file).text.clone();
        let site = self.site.take();
        let (parsed, mut errors) = syntax::parse_file(file, &text);
        if !errors.is_empty() && !is_rules_file(path, &text) {
            // Not a rules file (`/etc/passwd`): name it, and show none of it.
            self.sources.files[file as usize].text = "".into();
            let mut diagnostic =
                Diagnostic::error(Code::NotARulesFile, format!("`{}` is not a rules file", path.display()))
                    .help("a rules file is a `.rules` file of declarations such as `game \"Name\"` and `players 2`");
            if let Some(site) = site {
                diagnostic = diagnostic.label(site, "named here");
            }
            self.diagnostics.push(diagnostic);
            return vec![];
        }
        self.diagnostics.append(&mut errors);
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut used = vec![];
        let mut base: Option<Vec<ast::Item>> = None;
        // When the base could not be loaded, its error is the one to read;
        // the overrides are not checked against nothing.
        let mut base_failed = false;
        let mut own = vec![];
        for (index, item) in parsed.items.into_iter().enumerate() {
            match &item {
                ast::Item::Use { path: name, span } | ast::Item::Extends { path: name, span } => {
                    let extends = matches!(item, ast::Item::Extends { .. });
                    let how = if extends { "extends" } else { "use" };
                    if extends && index != 0 {
                        self.diagnostics.push(
                            Diagnostic::error(Code::MisplacedExtends, "`extends` must come first in a file")
                                .label(*span, "move this to the top")
                                .help("a variant starts with `extends \"base.rules\"` and then changes it"),
                        );
                        continue;
                    }
                    let target = crate::input::tidy_path(&dir.join(name));
                    if self.stack.contains(&target) {
                        base_failed |= extends;
                        let code = if extends { Code::ExtendsCycle } else { Code::UseCycle };
                        let chain: Vec<String> = self.stack.iter().map(|p| p.display().to_string()).collect();
                        self.diagnostics.push(
                            Diagnostic::error(code, format!("`{name}` is already being loaded, so this would loop"))
                                .label(*span, format!("{how} again here"))
                                .help(format!("the chain is {} -> {}", chain.join(" -> "), target.display())),
                        );
                        continue;
                    }
                    if !extends && self.done.contains(&target) {
                        continue;
                    }
                    let Some(id) = self.read(&target, *span, how) else {
                        base_failed |= extends;
                        continue;
                    };
                    if extends && file == self.root {
                        self.root = id;
                    }
                    self.stack.push(target.clone());
                    self.site = Some(*span);
                    let items = self.items(id, &target);
                    self.stack.pop();
                    self.done.push(target.clone());
                    if extends {
                        base_failed |= self.chain_failed;
                        if self.stack.len() == 1 {
                            self.base = Some(target.display().to_string());
                        }
                        base = Some(items);
                    } else {
                        used.extend(items);
                    }
                }
                ast::Item::Picture { .. } => own.push(self.picture(&dir, item)),
                _ => own.push(item),
            }
        }
        self.chain_failed |= base_failed;
        let mut items = used;
        match base {
            Some(base) if !base_failed => items.extend(variant::apply(base, own, self.diagnostics)),
            Some(base) => {
                items.extend(base);
                items.extend(own.into_iter().filter(|i| !matches!(i, ast::Item::Override { .. })));
            }
            None => {
                for item in own.iter().filter(|_| !base_failed) {
                    if let ast::Item::Override { span, .. } = item {
                        self.diagnostics.push(
                            Diagnostic::error(Code::OverrideWithoutBase, "`override` in a file that extends nothing")
                                .label(*span, "there is nothing to override")
                                .help("start the file with `extends \"base.rules\"`, or remove `override`"),
                        );
                    }
                }
                items.extend(own.into_iter().filter(|i| !matches!(i, ast::Item::Override { .. })));
            }
        }
        items
    }
}

/// The most a picture may weigh: it is drawn, whole, on every piece that
/// shows it.
const PICTURE_LIMIT: usize = 256 * 1024;

/// What is wrong with `text` as a picture, if anything.
fn picture_fault(text: &str) -> Option<String> {
    if text.len() > PICTURE_LIMIT {
        return Some(format!("is larger than {} KiB", PICTURE_LIMIT / 1024));
    }
    let body = text.trim();
    match body.contains("<svg") && body.ends_with('>') {
        true => None,
        false => Some("is not an SVG picture: it has no `<svg` element".into()),
    }
}

/// Whether a file that has syntax errors is still taken for a rules file,
/// so its errors are shown with the lines they are on. It is not when its
/// very first declaration fails and either its name does not end in
/// `.rules` or no line of it starts like a declaration: then the file is
/// named, and none of it is shown (it may be `/etc/passwd`).
fn is_rules_file(path: &Path, text: &str) -> bool {
    syntax::first_item_parses(text)
        || (path.extension().is_some_and(|e| e == "rules") && syntax::looks_like_rules(text))
}
