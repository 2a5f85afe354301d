//! `check --explain-diff`: what a variant or house-rules file changes, in
//! plain words ("scoring: table set_values 1/2/5/3/8 -> 1/2/5/6/8").
//!
//! Both games are reduced to named parts (options, tables, constants, piece
//! counts, score terms, phases, steps, procedures, triggers, hooks, the
//! result) and the parts are compared by meaning, not by lines: comments
//! and layout never count as a change.

use std::collections::BTreeMap;

use crate::diagnostic::{Sources, Span};
use crate::ir::Board;
use crate::load::LoadedGame;
use crate::syntax::ast::{Block, BoardDecl, BoardShape, GraphPart, Item, NamedKind, StmtKind, Visibility};

/// One named part: the section it belongs to and how it reads.
type Parts = BTreeMap<(&'static str, String), String>;

/// Every difference between `base` and `variant`, one line each.
pub fn explain_diff(base: &LoadedGame, variant: &LoadedGame) -> Vec<String> {
    let (a, b) = (parts(base), parts(variant));
    let mut lines = vec![];
    for (key, old) in &a {
        let (section, name) = (key.0, &key.1);
        match b.get(key) {
            Some(new) if new != old => lines.push(changed(section, name, old, new)),
            Some(_) => {}
            None => lines.push(format!("{section}: {name} removed (was {})", short(old))),
        }
    }
    for (key, new) in &b {
        if !a.contains_key(key) {
            lines.push(format!("{}: {} added: {}", key.0, key.1, short(new)));
        }
    }
    if lines.is_empty() {
        lines.push("no differences in meaning".into());
    }
    lines
}

fn changed(section: &str, name: &str, old: &str, new: &str) -> String {
    format!("{section}: {name} {} -> {}", short(old), short(new))
}

/// Long texts are cut so a line stays readable.
fn short(text: &str) -> String {
    const MAX: usize = 70;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(MAX).collect::<String>())
    }
}

fn parts(game: &LoadedGame) -> Parts {
    let def = &game.def;
    let sources = &def.sources;
    let mut parts = Parts::new();
    parts.insert(("game", "name".into()), format!("\"{}\"", def.name));
    parts.insert(("game", "players".into()), def.seats.join(", "));
    for (option, value) in def.options.iter().zip(&game.options) {
        let mut text = value.render(&option.ty);
        if *value != option.default {
            text = format!("{text} (default {})", option.default.render(&option.ty));
        }
        parts.insert(("options", option.name.clone()), text);
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for piece in &def.pieces {
        *counts.entry(def.piece_types[piece.ty as usize].clone()).or_default() += 1;
    }
    for (ty, count) in counts {
        parts.insert(("setup", format!("{ty} pieces")), count.to_string());
    }
    for item in &game.items {
        match item {
            Item::Table { name, values, keys, .. } => {
                let values: Vec<String> = match keys.is_empty() {
                    true => values.iter().map(i64::to_string).collect(),
                    false => keys
                        .iter()
                        .zip(values)
                        .map(|(k, v)| format!("{} {v}", k.name))
                        .collect(),
                };
                parts.insert(("scoring", format!("table {}", name.name)), values.join("/"));
            }
            Item::Constant { name, value } => {
                parts.insert(
                    ("rules", format!("constant {}", name.name)),
                    text(sources, value.span, &[]),
                );
            }
            Item::Pieces(entries) => {
                for entry in entries {
                    if let Some(when) = &entry.when {
                        parts.insert(
                            ("setup", format!("{} pieces only when", entry.name.name)),
                            text(sources, when.span, &[]),
                        );
                    }
                }
            }
            Item::Score { terms, .. } => {
                for term in terms {
                    let mut value = text(sources, term.value.span, &[]);
                    if let Some(when) = &term.when {
                        value = format!("{value} when {}", text(sources, when.span, &[]));
                    }
                    parts.insert(("scoring", format!("term {}", term.name.name)), value);
                }
            }
            Item::Result(result) => {
                parts.insert(("result", "ranking".into()), text(sources, result.span, &[]));
            }
            Item::Setup(block) | Item::Flow(block) => {
                let section = if matches!(item, Item::Setup(_)) {
                    "setup"
                } else {
                    "flow"
                };
                named_parts(block, sources, &mut parts);
                parts.insert(
                    (section, "outline".into()),
                    text(sources, block.span, &named_bodies(block)),
                );
            }
            Item::Procedure(p) => {
                named_parts(&p.body, sources, &mut parts);
                let body = text(sources, p.body.span, &named_bodies(&p.body));
                parts.insert(("rules", format!("procedure {}", p.name.name)), body);
            }
            Item::Trigger { name, body } => {
                parts.insert(
                    ("rules", format!("trigger {}", name.name)),
                    text(sources, body.span, &[]),
                );
            }
            Item::Hook(h) => {
                parts.insert(("rules", format!("hook {}", h.name.name)), normalize(&h.body));
            }
            Item::Board(board) => {
                if let Some(built) = def.boards.iter().find(|b| b.name == board.name.name) {
                    parts.insert(("board", board.name.name.clone()), describe_board(board, built));
                }
                let slots: Vec<String> = board
                    .slots
                    .iter()
                    .map(|slot| {
                        let order = if slot.unordered.is_some() { " unordered" } else { "" };
                        format!("{} {}{order}", slot.name.name, visibility_word(slot.visibility))
                    })
                    .collect();
                parts.insert(("board", format!("{} slots", board.name.name)), slots.join(", "));
            }
            Item::Anytime(a) => {
                let body = format!(
                    "when {} {}",
                    text(sources, a.when.span, &[]),
                    text(sources, a.body.span, &[])
                );
                parts.insert(("rules", format!("anytime \"{}\"", a.label)), body);
            }
            _ => {}
        }
    }
    parts
}

/// "outer 18 wrapping, inner 9 wrapping, centre; 54 links", "grid 3 x 3"
/// or "hex grid 11 x 11".
fn describe_board(decl: &BoardDecl, board: &Board) -> String {
    let parts = match &decl.shape {
        BoardShape::Grid { hex: false, .. } => return format!("grid {} x {}", board.rows, board.cols),
        BoardShape::Grid { hex: true, .. } => return format!("hex grid {} x {}", board.rows, board.cols),
        BoardShape::Graph(parts) => parts,
    };
    let spaces: Vec<String> = parts
        .iter()
        .filter_map(|part| match part {
            GraphPart::Ring { name, wraps, .. } => {
                // The size it was built with, which may come from options.
                let count = board.groups.iter().find(|g| g.name == name.name).map_or(0, |g| g.len);
                Some(format!(
                    "{} {count}{}",
                    name.name,
                    if *wraps { " wrapping" } else { "" }
                ))
            }
            GraphPart::Space { name, .. } => Some(name.name.clone()),
            GraphPart::Link(_) => None,
        })
        .collect();
    let links = board.adjacent.iter().map(Vec::len).sum::<usize>() / 2;
    format!("{}; {links} links", spaces.join(", "))
}

fn visibility_word(v: Visibility) -> &'static str {
    match v {
        Visibility::Hidden => "hidden",
        Visibility::Public => "public",
        Visibility::Owner => "owner",
    }
}

/// `phase` and `step` blocks, each a part of its own.
fn named_parts(block: &Block, sources: &Sources, parts: &mut Parts) {
    for stmt in &block.stmts {
        if let StmtKind::Named { kind, name, body } = &stmt.kind {
            let section = if *kind == NamedKind::Phase { "flow" } else { "setup" };
            parts.insert(
                (section, format!("{} {}", kind.word(), name.name)),
                text(sources, body.span, &[]),
            );
        }
        for nested in nested(&stmt.kind) {
            crate::syntax::deeper(|| named_parts(nested, sources, parts));
        }
    }
}

/// The `phase`/`step` statements inside a block, left out of the block's own
/// outline so a changed phase is reported once. (A variant replaces only the
/// body, so the statement's span still lies in the base file.)
fn named_bodies(block: &Block) -> Vec<Span> {
    let mut spans = vec![];
    for stmt in &block.stmts {
        if let StmtKind::Named { .. } = &stmt.kind {
            spans.push(stmt.span);
        } else {
            for nested in nested(&stmt.kind) {
                spans.extend(crate::syntax::deeper(|| named_bodies(nested)));
            }
        }
    }
    spans
}

fn nested(kind: &StmtKind) -> Vec<&Block> {
    match kind {
        StmtKind::If { then, otherwise, .. } => std::iter::once(then).chain(otherwise).collect(),
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::Repeat { body, .. }
        | StmtKind::Named { body, .. }
        | StmtKind::Loop(body) => vec![body],
        StmtKind::Draft { entries, .. } => entries.iter().map(|e| &e.body).collect(),
        _ => vec![],
    }
}

/// The source of `span` without the `skip` ranges, normalized.
fn text(sources: &Sources, span: Span, skip: &[Span]) -> String {
    let file = &sources.file(span.file).text;
    let mut out = String::new();
    let mut at = span.start as usize;
    let mut skips: Vec<&Span> = skip.iter().filter(|s| s.file == span.file).collect();
    skips.sort_by_key(|s| s.start);
    for s in skips {
        if (s.start as usize) >= at && s.end <= span.end {
            out.push_str(&file[at..s.start as usize]);
            out.push_str("{…}");
            at = s.end as usize;
        }
    }
    out.push_str(&file[at..span.end as usize]);
    normalize(&out)
}

/// Comments dropped, whitespace collapsed.
fn normalize(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let code = strip_comment(line);
        for word in code.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}

fn strip_comment(line: &str) -> &str {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return &line[..i],
            _ => {}
        }
    }
    line
}
