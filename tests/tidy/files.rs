//! Who imports whom, file by file: every path a file's code (not its
//! tests) names through `crate::`, `super::`, `self::` or a child module,
//! resolved to the deepest file it reaches.

use std::collections::{BTreeMap, BTreeSet};

use syn::spanned::Spanned;
use syn::visit::{self, Visit};

use super::source::{SourceFile, is_test};

/// The files of `src/` as modules (`engine::vm` for `src/engine/vm/mod.rs`,
/// the root as ``), and the imports between them.
pub struct Files {
    pub modules: BTreeSet<String>,
    /// What each module re-exports (`pub use`): `(module, name)` to the
    /// path it names, read from that module (`*` for a glob).
    reexports: BTreeMap<(String, String), Vec<String>>,
    /// `(from, to)` to the place of the first import that makes the edge.
    pub edges: BTreeMap<(String, String), String>,
}

impl Files {
    pub fn read(sources: &[SourceFile]) -> Files {
        let modules: BTreeSet<String> = sources.iter().map(root_relative).collect();
        let test_modules: BTreeSet<String> = sources.iter().flat_map(|f| f.test_modules()).collect();
        let mut reexports = BTreeMap::new();
        for file in sources {
            for item in &file.ast.items {
                if let syn::Item::Use(u) = item
                    && !matches!(u.vis, syn::Visibility::Inherited)
                {
                    let mut paths = Paths::default();
                    paths.use_tree(&mut vec![], &u.tree);
                    for ((segments, _), name) in paths.found.into_iter().zip(paths.bound) {
                        reexports.insert((root_relative(file), name), segments);
                    }
                }
            }
        }
        let mut files = Files {
            modules,
            reexports,
            edges: BTreeMap::new(),
        };
        for file in sources {
            let from = root_relative(file);
            if file.path == "src/main.rs" || test_modules.contains(&from) {
                continue;
            }
            let mut paths = Paths::default();
            paths.visit_file(&file.ast);
            for (segments, line) in paths.found {
                let Some(to) = files.resolve(&from, &segments, 8) else {
                    continue;
                };
                if to != from {
                    files
                        .edges
                        .entry((from.clone(), to))
                        .or_insert_with(|| format!("{}:{line}", file.path));
                }
            }
        }
        files
    }

    /// The file `segments` comes from, read from the file `from`: the
    /// deepest file module it reaches, or, where that module re-exports
    /// the next name, the file it re-exports it from. `None` when the path
    /// is not the crate's.
    fn resolve(&self, from: &str, segments: &[String], hops: usize) -> Option<String> {
        let (mut at, mut rest) = start(&self.modules, from, segments)?;
        while let Some(segment) = rest.first() {
            let deeper = join(&at, segment);
            if self.modules.contains(&deeper) {
                at = deeper;
                rest = &rest[1..];
                continue;
            }
            let named = self.reexports.get(&(at.clone(), segment.clone()));
            let glob = self.reexports.get(&(at.clone(), "*".to_string()));
            if hops > 0
                && let Some(path) = named.or(glob)
            {
                let mut path = path.clone();
                if named.is_none() {
                    // A glob: the name is looked for where the glob points.
                    path.pop();
                    path.push(segment.clone());
                }
                path.extend(rest[1..].iter().cloned());
                if let Some(origin) = self.resolve(&at, &path, hops - 1) {
                    return Some(origin);
                }
            }
            break;
        }
        Some(at)
    }
}

/// The file's module path, with the crate's root (`src/lib.rs`) as ``.
fn root_relative(file: &SourceFile) -> String {
    let path = file.module_path();
    if path == "lib" { String::new() } else { path }
}

fn join(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_string()
    } else {
        format!("{base}::{name}")
    }
}

fn parent(module: &str) -> String {
    module.rsplit_once("::").map(|(p, _)| p.to_string()).unwrap_or_default()
}

/// Where a path read in the file `from` starts (a module), and the rest of
/// it; `None` when the path is not the crate's.
fn start<'a>(modules: &BTreeSet<String>, from: &str, segments: &'a [String]) -> Option<(String, &'a [String])> {
    Some(match segments.first()?.as_str() {
        "crate" => (String::new(), &segments[1..]),
        "self" => (from.to_string(), &segments[1..]),
        "super" => {
            let mut at = parent(from);
            let mut rest = &segments[1..];
            while rest.first().is_some_and(|s| s == "super") {
                at = parent(&at);
                rest = &rest[1..];
            }
            (at, rest)
        }
        first if modules.contains(&join(from, first)) => (from.to_string(), segments),
        _ => return None,
    })
}

/// Every path named outside test code, as segments, with its line.
#[derive(Default)]
struct Paths {
    found: Vec<(Vec<String>, usize)>,
    /// For the paths of `use` trees, the name each brings in (its rename if
    /// it has one, `*` for a glob), in the same order.
    bound: Vec<String>,
}

impl Paths {
    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.bring(prefix, &n.ident, &n.ident, n.ident.span().start().line),
            syn::UseTree::Rename(r) => self.bring(prefix, &r.ident, &r.rename, r.ident.span().start().line),
            syn::UseTree::Glob(g) => {
                let mut segments = prefix.to_vec();
                segments.push("*".to_string());
                self.found.push((segments, g.star_token.span().start().line));
                self.bound.push("*".to_string());
            }
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    /// A `use` of `prefix::name`, bringing it in as `bound`.
    fn bring(&mut self, prefix: &[String], name: &syn::Ident, bound: &syn::Ident, line: usize) {
        let mut segments = prefix.to_vec();
        segments.push(name.to_string());
        self.found.push((segments, line));
        self.bound.push(bound.to_string());
    }

    /// Paths inside a macro's tokens: `ident :: ident ...` runs.
    fn scan_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let tokens: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        let mut at = 0;
        while at < tokens.len() {
            match &tokens[at] {
                proc_macro2::TokenTree::Group(group) => self.scan_tokens(group.stream()),
                proc_macro2::TokenTree::Ident(first) => {
                    let line = first.span().start().line;
                    let mut segments = vec![first.to_string()];
                    while let (
                        Some(proc_macro2::TokenTree::Punct(a)),
                        Some(proc_macro2::TokenTree::Punct(b)),
                        Some(proc_macro2::TokenTree::Ident(next)),
                    ) = (tokens.get(at + 1), tokens.get(at + 2), tokens.get(at + 3))
                        && a.as_char() == ':'
                        && b.as_char() == ':'
                    {
                        segments.push(next.to_string());
                        at += 3;
                    }
                    if segments.len() > 1 {
                        self.found.push((segments, line));
                    }
                }
                _ => {}
            }
            at += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Paths {
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

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut vec![], &item.tree);
    }

    /// `pub(in crate::engine)` says who may see an item; it imports nothing.
    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() > 1 {
            let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
            self.found.push((segments, path.span().start().line));
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.scan_tokens(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }
}

/// The groups of files that import one another in a cycle (strongly
/// connected, more than one file), each in name order.
pub fn cycles(files: &Files) -> Vec<Vec<String>> {
    let mut after: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in files.edges.keys() {
        after.entry(from.as_str()).or_default().push(to.as_str());
    }
    // Tarjan's strongly connected components, iteratively.
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    let mut low: BTreeMap<&str, usize> = BTreeMap::new();
    let mut on_stack: BTreeSet<&str> = BTreeSet::new();
    let mut stack: Vec<&str> = vec![];
    let mut groups = vec![];
    for start in &files.modules {
        if index.contains_key(start.as_str()) {
            continue;
        }
        let mut work: Vec<(&str, usize)> = vec![(start.as_str(), 0)];
        while let Some((node, child)) = work.pop() {
            if child == 0 {
                let n = index.len();
                index.insert(node, n);
                low.insert(node, n);
                stack.push(node);
                on_stack.insert(node);
            }
            let nexts = after.get(node).map(Vec::as_slice).unwrap_or_default();
            if let Some(&next) = nexts.get(child) {
                work.push((node, child + 1));
                if !index.contains_key(next) {
                    work.push((next, 0));
                } else if on_stack.contains(next) {
                    let l = low[node].min(index[next]);
                    low.insert(node, l);
                }
                continue;
            }
            if low[node] == index[node] {
                let mut group = vec![];
                while let Some(top) = stack.pop() {
                    on_stack.remove(top);
                    group.push(top.to_string());
                    if top == node {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    groups.push(group);
                }
            }
            if let Some(&(parent, _)) = work.last() {
                let l = low[parent].min(low[node]);
                low.insert(parent, l);
            }
        }
    }
    groups
}
