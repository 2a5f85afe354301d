//! Variants: a file that `extends` a base replaces named parts of it with
//! `override` and adds new rules. Merging happens on the syntax tree, so
//! every part keeps the span of the file it came from and diagnostics land
//! in the right file.

use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::syntax::ast::{Block, Item, NamedKind, Stmt, StmtKind};

/// The base's items with the variant's overrides applied and its new items
/// appended.
pub(crate) fn apply(mut base: Vec<Item>, variant: Vec<Item>, diags: &mut Vec<Diagnostic>) -> Vec<Item> {
    let mut added = vec![];
    for item in variant {
        match item {
            Item::Override { item, span } => override_part(&mut base, *item, span, diags),
            // A variant may rename the game without ceremony.
            Item::Game { .. } => {
                base.retain(|i| !matches!(i, Item::Game { .. }));
                added.push(item);
            }
            other => {
                // Redefining a base's part without `override` is almost always
                // meant as an override: say so here, where the intent is known.
                if let Some((what, name)) = part_key(&other)
                    && let Some(first) = base
                        .iter()
                        .find(|i| part_key(i).is_some_and(|(w, n)| w == what && n == name))
                {
                    diags.push(
                        Diagnostic::error(
                            Code::DuplicateDefinition,
                            format!("the base already has {} {what} `{name}`", article(what)),
                        )
                        .label(item_span(&other), format!("{what} defined again here"))
                        .label(item_span(first), "the base's definition")
                        .help(format!(
                            "to replace it, write `override {what} ...`; to add a new one, pick another name"
                        )),
                    );
                    continue;
                }
                added.push(other)
            }
        }
    }
    base.extend(added);
    base
}

/// What kind of part an item is and its name, for matching an override
/// with the part it replaces.
fn part_key(item: &Item) -> Option<(&'static str, String)> {
    Some(match item {
        Item::Option(o) => ("option", o.name.name.clone()),
        Item::Table { name, .. } => ("table", name.name.clone()),
        Item::Constant { name, .. } => ("constant", name.name.clone()),
        Item::Procedure(p) => ("procedure", p.name.name.clone()),
        Item::Trigger { name, .. } => ("trigger", name.name.clone()),
        Item::Hook(h) => ("hook", h.name.name.clone()),
        Item::Anytime(a) => ("anytime action", a.label.clone()),
        Item::Board(b) => ("board", b.name.name.clone()),
        _ => return None,
    })
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Where an item's name is written.
fn item_span(item: &Item) -> Span {
    match item {
        Item::Option(o) => o.name.span,
        Item::Table { name, .. } | Item::Constant { name, .. } | Item::Trigger { name, .. } => name.span,
        Item::Procedure(p) => p.name.span,
        Item::Hook(h) => h.name.span,
        Item::Anytime(a) => a.label_span,
        Item::Board(b) => b.name.span,
        _ => Span::default(),
    }
}

fn missing(diags: &mut Vec<Diagnostic>, what: &str, name: &str, span: Span, candidates: Vec<String>) {
    let mut diag = Diagnostic::error(
        Code::OverrideMissing,
        format!("the base has no {what} `{name}` to override"),
    )
    .label(span, "nothing to replace");
    diag = match nearest(name, candidates.iter().map(String::as_str)) {
        Some(near) => diag.help(format!("did you mean `{near}`?")),
        None if candidates.is_empty() => {
            diag.help(format!("the base has no {what} at all; to add one, drop `override`"))
        }
        None => diag.help(format!(
            "the base's are {}; to add a new one, drop `override`",
            candidates.join(", ")
        )),
    };
    diags.push(diag);
}

fn override_part(base: &mut [Item], item: Item, span: Span, diags: &mut Vec<Diagnostic>) {
    match item {
        Item::Score { terms, .. } => {
            for term in terms {
                let slot = base.iter_mut().find_map(|i| match i {
                    Item::Score { terms, .. } => terms.iter_mut().find(|t| t.name.name == term.name.name),
                    _ => None,
                });
                match slot {
                    Some(slot) => *slot = term,
                    None => {
                        let names = base
                            .iter()
                            .flat_map(|i| match i {
                                Item::Score { terms, .. } => terms.iter().map(|t| t.name.name.clone()).collect(),
                                _ => vec![],
                            })
                            .collect();
                        missing(diags, "score term", &term.name.name, term.name.span, names);
                    }
                }
            }
        }
        Item::Pieces(entries) => {
            // The variant's entries for a piece type replace all of the base's
            // entries for it (a type may be declared in several entries).
            let mut types: Vec<String> = vec![];
            for entry in &entries {
                if !types.contains(&entry.name.name) {
                    types.push(entry.name.name.clone());
                }
            }
            for ty in types {
                let replacements: Vec<_> = entries.iter().filter(|e| e.name.name == ty).cloned().collect();
                let mut placed = false;
                for item in base.iter_mut() {
                    if let Item::Pieces(base_entries) = item
                        && let Some(first) = base_entries.iter().position(|e| e.name.name == ty)
                    {
                        if placed {
                            base_entries.retain(|e| e.name.name != ty);
                        } else {
                            base_entries.retain(|e| e.name.name != ty);
                            let at = first.min(base_entries.len());
                            for (k, entry) in replacements.iter().enumerate() {
                                base_entries.insert(at + k, entry.clone());
                            }
                            placed = true;
                        }
                    }
                }
                if !placed {
                    let names = base
                        .iter()
                        .flat_map(|i| match i {
                            Item::Pieces(entries) => entries.iter().map(|e| e.name.name.clone()).collect(),
                            _ => vec![],
                        })
                        .collect();
                    missing(diags, "piece type", &ty, replacements[0].name.span, names);
                }
            }
        }
        Item::Named { kind, name, body } => {
            let mut replacement = Some(body);
            for item in base.iter_mut() {
                let blocks: Vec<&mut Block> = match item {
                    Item::Setup(b) | Item::Flow(b) | Item::Trigger { body: b, .. } => vec![b],
                    Item::Procedure(p) => vec![&mut p.body],
                    Item::Anytime(a) => vec![&mut a.body],
                    _ => vec![],
                };
                for block in blocks {
                    if replace_named(block, kind, &name.name, &mut replacement) {
                        return;
                    }
                }
            }
            let mut names = vec![];
            for item in base.iter() {
                if let Item::Setup(b) | Item::Flow(b) | Item::Trigger { body: b, .. } = item {
                    collect_named(b, kind, &mut names);
                }
                if let Item::Procedure(p) = item {
                    collect_named(&p.body, kind, &mut names);
                }
            }
            missing(diags, kind.word(), &name.name, name.span, names);
        }
        item => {
            let Some((what, name)) = part_key(&item) else {
                diags.push(
                    Diagnostic::error(Code::BadOverride, "this part cannot be overridden")
                        .label(span, "not a named part")
                        .help("override an option, table, constant, procedure, trigger, hook, score term, piece type, board, phase or step"),
                );
                return;
            };
            match base
                .iter_mut()
                .find(|i| part_key(i).is_some_and(|(w, n)| w == what && n == name))
            {
                Some(slot) => *slot = item,
                None => {
                    let names = base
                        .iter()
                        .filter_map(part_key)
                        .filter(|(w, _)| *w == what)
                        .map(|(_, n)| n)
                        .collect();
                    missing(diags, what, &name, span, names);
                }
            }
        }
    }
}

/// Replaces the body of the first `phase`/`step` called `name` in `block`.
fn replace_named(block: &mut Block, kind: NamedKind, name: &str, replacement: &mut Option<Block>) -> bool {
    for stmt in &mut block.stmts {
        if let StmtKind::Named { kind: k, name: n, body } = &mut stmt.kind
            && *k == kind
            && n.name == name
        {
            if let Some(new_body) = replacement.take() {
                *body = new_body;
            }
            return true;
        }
        if nested_blocks(stmt)
            .into_iter()
            .any(|b| crate::syntax::deeper(|| replace_named(b, kind, name, replacement)))
        {
            return true;
        }
    }
    false
}

fn nested_blocks(stmt: &mut Stmt) -> Vec<&mut Block> {
    match &mut stmt.kind {
        StmtKind::If { then, otherwise, .. } => {
            let mut blocks = vec![then];
            if let Some(o) = otherwise {
                blocks.push(o);
            }
            blocks
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Repeat { body, .. }
        | StmtKind::Named { body, .. }
        | StmtKind::Loop(body) => vec![body],
        StmtKind::Draft { entries, .. } => entries.iter_mut().map(|e| &mut e.body).collect(),
        _ => vec![],
    }
}

fn collect_named(block: &Block, kind: NamedKind, names: &mut Vec<String>) {
    for stmt in &block.stmts {
        let mut stmt = stmt.clone();
        if let StmtKind::Named { kind: k, name, .. } = &stmt.kind
            && *k == kind
        {
            names.push(name.name.clone());
        }
        for nested in nested_blocks(&mut stmt) {
            crate::syntax::deeper(|| collect_named(nested, kind, names));
        }
    }
}
