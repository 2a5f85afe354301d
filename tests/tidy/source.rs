//! The crate's sources, read once and parsed with `syn`.

use std::path::Path;

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// One file of `src/`, its text and its syntax tree.
pub struct SourceFile {
    /// The path from the project's root, with `/`: `src/engine/vm.rs`.
    pub path: String,
    pub text: String,
    pub ast: syn::File,
}

/// A function and where it stands.
pub struct Function {
    pub name: String,
    pub line: usize,
    /// From the line of `fn` to the line of its closing brace.
    pub lines: usize,
}

/// Every `.rs` file of `src/`, parsed (a syntax tree is not `Sync`, so
/// each test reads its own).
pub fn sources() -> Vec<SourceFile> {
    let mut files = vec![];
    collect(Path::new("src"), &mut files);
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn collect(dir: &Path, files: &mut Vec<SourceFile>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let shown = path.to_string_lossy().replace('\\', "/");
            let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{shown} does not parse: {e}"));
            files.push(SourceFile { path: shown, text, ast });
        }
    }
}

impl SourceFile {
    pub fn lines(&self) -> usize {
        self.text.lines().count()
    }

    /// The room the file belongs to: the first module under `src/` or,
    /// for the core crate, `src/core/` (`engine` for
    /// `src/core/engine/vm.rs`, `sim` for `src/sim/run.rs`); `None` for
    /// the crates' root files.
    pub fn room(&self) -> Option<String> {
        let rest = self
            .path
            .strip_prefix("src/core/")
            .or_else(|| self.path.strip_prefix("src/"))?;
        let first = rest.split('/').next()?;
        let name = first.strip_suffix(".rs").unwrap_or(first);
        (!matches!(name, "lib" | "main")).then(|| name.to_string())
    }

    /// The file's module path as the `rpsdsl` crate names it: `engine::vm`
    /// for `src/core/engine/vm/mod.rs` (re-exported from the core),
    /// `sim::run` for `src/sim/run.rs`.
    pub fn module_path(&self) -> String {
        // The core crate's files (src/core/) are the rooms it re-exports.
        let rest = (self.path.strip_prefix("src/core/"))
            .or_else(|| self.path.strip_prefix("src/"))
            .unwrap_or(&self.path);
        let rest = rest.strip_suffix(".rs").unwrap_or(rest);
        let rest = rest.strip_suffix("/mod").unwrap_or(rest);
        rest.replace('/', "::")
    }

    /// Every function with a body: free, in an `impl` or a trait, tests too.
    pub fn functions(&self) -> Vec<Function> {
        let mut finder = Functions(vec![]);
        finder.visit_file(&self.ast);
        finder.0
    }

    /// The rooms this file's code (not its tests) names through `crate::`,
    /// with the line of the first mention.
    pub fn imports(&self) -> Vec<(String, usize)> {
        let mut finder = CratePaths(vec![]);
        finder.visit_file(&self.ast);
        finder.0
    }

    /// The module paths of the files this one declares as test modules
    /// (`#[cfg(test)] mod tests;`).
    pub fn test_modules(&self) -> Vec<String> {
        let here = self.module_path();
        // `src/engine/vm/mod.rs` declares `engine::vm::tests`; `src/load.rs`
        // (not a `mod.rs`) declares `load::tests` too.
        (self.ast.items.iter())
            .filter_map(|item| match item {
                syn::Item::Mod(m) if m.content.is_none() && is_test(&m.attrs) => Some(format!("{here}::{}", m.ident)),
                _ => None,
            })
            .collect()
    }

    /// Every item declared plainly `pub`, outside tests, without a doc
    /// comment: its line and a description.
    pub fn undocumented_pub_items(&self) -> Vec<(usize, String)> {
        // A file that says `#![allow(missing_docs)]` says why at its top.
        let exempt = self.ast.attrs.iter().any(|attr| {
            attr.path().is_ident("allow")
                && attr
                    .parse_args::<syn::Path>()
                    .is_ok_and(|lint| lint.is_ident("missing_docs"))
        });
        if exempt {
            return vec![];
        }
        let mut finder = Undocumented(vec![]);
        finder.visit_file(&self.ast);
        finder.0
    }
}

pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
            || attr.path().is_ident("test")
    })
}

fn is_documented(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| attr.path().is_ident("doc"))
}

struct Functions(Vec<Function>);

impl Functions {
    fn add(&mut self, name: &syn::Ident, sig: &syn::Signature, block: &syn::Block) {
        let line = sig.fn_token.span.start().line;
        let end = block.brace_token.span.close().end().line;
        self.0.push(Function {
            name: name.to_string(),
            line,
            lines: end + 1 - line,
        });
    }
}

impl<'ast> Visit<'ast> for Functions {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.add(&f.sig.ident, &f.sig, &f.block);
        visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.add(&f.sig.ident, &f.sig, &f.block);
        visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            self.add(&f.sig.ident, &f.sig, block);
        }
        visit::visit_trait_item_fn(self, f);
    }
}

/// The rooms named by `crate::room` paths: in `use` trees, in types and
/// expressions, and in the tokens of macro calls; not in comments or
/// strings, and not in items marked `#[cfg(test)]` or `#[test]`.
struct CratePaths(Vec<(String, usize)>);

impl CratePaths {
    fn scan_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let tokens: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        for (at, token) in tokens.iter().enumerate() {
            match token {
                proc_macro2::TokenTree::Group(group) => self.scan_tokens(group.stream()),
                proc_macro2::TokenTree::Ident(ident) if ident == "crate" => {
                    if let (
                        Some(proc_macro2::TokenTree::Punct(a)),
                        Some(proc_macro2::TokenTree::Punct(b)),
                        Some(proc_macro2::TokenTree::Ident(room)),
                    ) = (tokens.get(at + 1), tokens.get(at + 2), tokens.get(at + 3))
                        && a.as_char() == ':'
                        && b.as_char() == ':'
                    {
                        self.0.push((room.to_string(), ident.span().start().line));
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for CratePaths {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Const(c) => &c.attrs,
            syn::Item::Static(s) => &s.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            _ => return visit::visit_item(self, item),
        };
        if !is_test(attrs) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_test(&f.attrs) {
            visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if let [first, second, ..] = path.segments.iter().collect::<Vec<_>>()[..]
            && first.ident == "crate"
        {
            self.0.push((second.ident.to_string(), first.ident.span().start().line));
        }
        visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if let syn::UseTree::Path(path) = &item.tree
            && path.ident == "crate"
        {
            let line = path.ident.span().start().line;
            let mut rooms = vec![];
            match &*path.tree {
                syn::UseTree::Path(p) => rooms.push(p.ident.to_string()),
                syn::UseTree::Name(n) => rooms.push(n.ident.to_string()),
                syn::UseTree::Rename(r) => rooms.push(r.ident.to_string()),
                syn::UseTree::Group(g) => {
                    for tree in &g.items {
                        match tree {
                            syn::UseTree::Path(p) => rooms.push(p.ident.to_string()),
                            syn::UseTree::Name(n) => rooms.push(n.ident.to_string()),
                            syn::UseTree::Rename(r) => rooms.push(r.ident.to_string()),
                            _ => {}
                        }
                    }
                }
                syn::UseTree::Glob(_) => {}
            }
            self.0.extend(rooms.into_iter().map(|room| (room, line)));
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.scan_tokens(mac.tokens.clone());
    }
}

struct Undocumented(Vec<(usize, String)>);

impl Undocumented {
    fn check(&mut self, vis: &syn::Visibility, attrs: &[syn::Attribute], what: impl Spanned, name: String) {
        if matches!(vis, syn::Visibility::Public(_)) && !is_documented(attrs) {
            self.0.push((what.span().start().line, name));
        }
    }
}

impl<'ast> Visit<'ast> for Undocumented {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        use syn::Item;
        match item {
            Item::Fn(f) => self.check(&f.vis, &f.attrs, &f.sig.ident, format!("fn `{}`", f.sig.ident)),
            Item::Struct(s) => self.check(&s.vis, &s.attrs, &s.ident, format!("struct `{}`", s.ident)),
            Item::Enum(e) => self.check(&e.vis, &e.attrs, &e.ident, format!("enum `{}`", e.ident)),
            Item::Trait(t) => self.check(&t.vis, &t.attrs, &t.ident, format!("trait `{}`", t.ident)),
            Item::Type(t) => self.check(&t.vis, &t.attrs, &t.ident, format!("type `{}`", t.ident)),
            Item::Const(c) => self.check(&c.vis, &c.attrs, &c.ident, format!("const `{}`", c.ident)),
            Item::Static(s) => self.check(&s.vis, &s.attrs, &s.ident, format!("static `{}`", s.ident)),
            Item::Mod(m) if m.content.is_some() => self.check(&m.vis, &m.attrs, &m.ident, format!("mod `{}`", m.ident)),
            _ => {}
        }
        let attrs: &[syn::Attribute] = match item {
            Item::Mod(m) => &m.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Fn(f) => &f.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.vis, &f.attrs, &f.sig.ident, format!("fn `{}`", f.sig.ident));
    }
}

/// An arm of a dispatch `match` that does the work itself instead of
/// calling the function that does: its line and the line's text.
pub struct ThickArm {
    pub line: usize,
    pub pattern: String,
}

impl SourceFile {
    /// The arms of the `match`es inside function `name` that are not one
    /// call: an arm may call (`self.run_x(..)`, `pc = self.run_x(..)?`),
    /// and a block may hold at most [`THIN_ARM_STATEMENTS`] statements
    /// with no loop and no `match` of its own (the arms that leave the
    /// loop: `self.leave(def); break;`).
    pub fn thick_dispatch_arms(&self, name: &str) -> Vec<ThickArm> {
        let mut finder = FindFunction { name, body: None };
        finder.visit_file(&self.ast);
        let Some(body) = finder.body else {
            panic!("{} has no function `{name}`", self.path)
        };
        let mut arms = ThickArms(vec![]);
        arms.visit_block(body);
        let lines: Vec<&str> = self.text.lines().collect();
        arms.0
            .into_iter()
            .map(|line| ThickArm {
                line,
                pattern: lines[line - 1].trim().to_string(),
            })
            .collect()
    }
}

/// A block arm holding more statements than this is work, not a call.
pub const THIN_ARM_STATEMENTS: usize = 3;

struct FindFunction<'a, 'ast> {
    name: &'a str,
    body: Option<&'ast syn::Block>,
}

impl<'ast> Visit<'ast> for FindFunction<'_, 'ast> {
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if f.sig.ident == self.name {
            self.body = Some(&f.block);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if f.sig.ident == self.name {
            self.body = Some(&f.block);
        }
    }
}

/// The lines of the thick arms.
struct ThickArms(Vec<usize>);

impl<'ast> Visit<'ast> for ThickArms {
    fn visit_arm(&mut self, arm: &'ast syn::Arm) {
        if !is_thin(&arm.body) {
            self.0.push(arm.pat.span().start().line);
        }
        // The arms are checked, not the matches they call into.
    }
}

fn is_thin(body: &syn::Expr) -> bool {
    match body {
        syn::Expr::Block(block) => block.block.stmts.len() <= THIN_ARM_STATEMENTS && !has_own_control(&block.block),
        expr => !is_control(expr),
    }
}

/// Whether a block holds a loop or a `match`: work an arm should call.
fn has_own_control(block: &syn::Block) -> bool {
    struct Control(bool);
    impl<'ast> Visit<'ast> for Control {
        fn visit_expr(&mut self, expr: &'ast syn::Expr) {
            if is_control(expr) {
                self.0 = true;
            }
            visit::visit_expr(self, expr);
        }
    }
    let mut control = Control(false);
    control.visit_block(block);
    control.0
}

fn is_control(expr: &syn::Expr) -> bool {
    matches!(
        expr,
        syn::Expr::Match(_) | syn::Expr::Loop(_) | syn::Expr::While(_) | syn::Expr::ForLoop(_)
    )
}

/// A pattern that lists ops sharing a fact: its line and how many ops.
pub struct OpList {
    pub line: usize,
    pub ops: usize,
}

impl SourceFile {
    /// The or-patterns (in `match` arms and in `matches!`) that join more
    /// than [`OP_LIST_LIMIT`] ops: a fact about ops kept by hand.
    pub fn op_lists(&self) -> Vec<OpList> {
        let mut finder = OpLists(vec![]);
        finder.visit_file(&self.ast);
        finder.0
    }
}

/// More ops than this joined in one pattern are a list of a fact.
pub const OP_LIST_LIMIT: usize = 6;

struct OpLists(Vec<OpList>);

/// Whether `pat` names a variant of `Op` (`Op::Add`, `Op::Next { .. }`).
fn names_an_op(pat: &syn::Pat) -> bool {
    let path = match pat {
        syn::Pat::Path(p) => &p.path,
        syn::Pat::TupleStruct(p) => &p.path,
        syn::Pat::Struct(p) => &p.path,
        _ => return false,
    };
    path.segments.len() == 2 && path.segments[0].ident == "Op"
}

impl<'ast> Visit<'ast> for OpLists {
    fn visit_pat_or(&mut self, or: &'ast syn::PatOr) {
        let ops = or.cases.iter().filter(|case| names_an_op(case)).count();
        if ops > OP_LIST_LIMIT {
            self.0.push(OpList {
                line: or.span().start().line,
                ops,
            });
        }
        visit::visit_pat_or(self, or);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // `matches!(op, Op::A | Op::B ...)`: a macro's tokens, read as the
        // expression and the pattern it takes.
        if mac.path.is_ident("matches") {
            let parser = |input: syn::parse::ParseStream| {
                input.parse::<syn::Expr>()?;
                input.parse::<syn::Token![,]>()?;
                syn::Pat::parse_multi_with_leading_vert(input)
            };
            if let Ok(pat) = syn::parse::Parser::parse2(parser, mac.tokens.clone()) {
                self.visit_pat(&pat);
            }
        }
        visit::visit_macro(self, mac);
    }
}
