//! A readable disassembly of a checked game (`rpsdsl check --dump-ir`): every
//! procedure's ops with the names behind their ids and where in the rules
//! each op came from. The IR golden tests compare it, so a compiler change
//! shows up as a small diff per construct.

use std::fmt::Write;

use super::{ChoiceKind, ChoiceValue, GameDef, MatchBy, Matcher, Op};

/// The whole program, one op per line, procedures in the order of their code.
pub fn disassemble(def: &GameDef) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "game {:?}: {} procedures, {} ops",
        def.name,
        def.procs.len(),
        def.code.len()
    );
    let mut procs: Vec<usize> = (0..def.procs.len()).collect();
    procs.sort_by_key(|&p| def.procs[p].entry);
    for (i, &p) in procs.iter().enumerate() {
        let proc = &def.procs[p];
        let end = procs
            .get(i + 1)
            .map_or(def.code.len(), |&next| def.procs[next].entry as usize);
        let _ = writeln!(
            out,
            "\nproc {} {:?}: {} params, {} locals, {} results",
            p, proc.name, proc.params, proc.locals, proc.returns
        );
        for pc in proc.entry as usize..end {
            let op = def.code[pc];
            // A matcher reads `Type(1)`, `Group(0), owner`: the note names it.
            let text = format!("{op:?}")
                .replace("Matcher { by: ", "")
                .replace(", owner: false }", "")
                .replace(", owner: true }", ", owner");
            let note = annotate(def, op, def.spans.get(pc).map(|&span| def.sources.text(span)));
            let place = def.spans.get(pc).map_or_else(String::new, |span| {
                let (line, col) = def.sources.line_col(span.file, span.start);
                // Only ops from another file (a `use`d prelude) name it.
                if span.file == 0 {
                    return format!("{line}:{col}");
                }
                let name = &def.sources.file(span.file).name;
                let file = std::path::Path::new(name)
                    .file_name()
                    .map_or(name.as_str(), |f| f.to_str().unwrap_or(name));
                format!("{file}:{line}:{col}")
            });
            let line = match note {
                Some(note) => format!("  {pc:04}  {text:<40} {note}"),
                None => format!("  {pc:04}  {text}"),
            };
            let _ = writeln!(out, "{:<64} {place}", line.trim_end());
        }
    }
    if !def.decisions.is_empty() {
        let _ = writeln!(out, "\ndecisions");
        for (d, decision) in def.decisions.iter().enumerate() {
            let mut flags = vec![];
            if decision.secret {
                flags.push("secret");
            }
            if decision.race {
                flags.push("race");
            }
            let none = decision
                .none_label
                .as_ref()
                .map(|l| format!(", or {l}"))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {d} {:?}: {}{none}{}",
                decision.name,
                choice_kind(def, &decision.kind),
                if flags.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", flags.join(", "))
                }
            );
        }
    }
    if def.pieces.iter().any(|p| p.faces.is_some()) {
        let _ = writeln!(out, "\ndice");
        let bound = |b: super::FaceBound| match b {
            super::FaceBound::Number(n) => n.to_string(),
            super::FaceBound::Option(o) => def
                .options
                .get(o as usize)
                .map_or_else(|| "?".into(), |o| o.name.clone()),
        };
        for (p, piece) in def.piece_ids().zip(&def.pieces) {
            if let Some((low, high)) = piece.faces {
                let _ = writeln!(
                    out,
                    "  {p} {}: faces {}..{}",
                    def.piece_label(p),
                    bound(low),
                    bound(high)
                );
            }
        }
    }
    if !def.tables.is_empty() {
        let _ = writeln!(out, "\ntables");
        for (t, table) in def.tables.iter().enumerate() {
            let _ = writeln!(out, "  {t} {table:?}");
        }
    }
    out
}

fn choice_kind(def: &GameDef, kind: &ChoiceKind) -> String {
    match kind {
        ChoiceKind::Space(board) => format!("a space of {}", def.boards[*board as usize].name),
        ChoiceKind::Menu(labels) => format!("menu {labels:?}"),
        ChoiceKind::Actions(actions) => format!("{} actions", actions.len()),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// The names behind an op's ids, for a reader; a pushed constant shows the
/// source it came from when that is a short name (`deck`, `low`, `player 1`).
fn annotate(def: &GameDef, op: Op, source: Option<&str>) -> Option<String> {
    let named = |list: &[String], i: u16| list.get(i as usize).map_or_else(|| "?".to_string(), Clone::clone);
    let var = |slot: u16| {
        def.vars
            .iter()
            .find(|v| {
                let width = def.var_width(v);
                (usize::from(v.slot)..usize::from(v.slot) + width).contains(&usize::from(slot))
            })
            .map_or_else(|| "?".to_string(), |v| v.name.clone())
    };
    let proc_name = |p: u16| {
        def.procs
            .get(p as usize)
            .map_or_else(|| "?".to_string(), |p| p.name.clone())
    };
    let decision = |d: u16| {
        def.decisions
            .get(d as usize)
            .map_or_else(|| "?".to_string(), |d| d.name.clone())
    };
    let matcher = |m: Matcher| {
        let what = match m.by {
            MatchBy::Any => "any piece".to_string(),
            MatchBy::Type(t) => named(&def.piece_types, t),
            MatchBy::Group(g) => def
                .groups
                .get(g as usize)
                .map_or_else(|| "?".into(), |g| g.name.clone()),
            MatchBy::TypeOnStack => "type on stack".into(),
            MatchBy::KindOnStack => "kind on stack".into(),
        };
        if m.owner { format!("{what} of owner") } else { what }
    };
    let text = match op {
        Op::Push(v) if ChoiceValue::from_raw(v).is_none() => "no choice".into(),
        Op::Push(v) => match source {
            Some(text)
                if text.len() <= 24
                    && text != v.to_string()
                    && text.chars().all(|c| c.is_alphanumeric() || c == '_' || c == ' ') =>
            {
                text.to_string()
            }
            _ => return None,
        },
        Op::NextPiece { filter, .. } => def
            .filters
            .get(filter as usize)
            .map_or_else(|| "?".into(), |f| matcher(f.matcher)),
        Op::NextOnBoard { board, filter, .. } => format!(
            "{} on {}",
            def.filters
                .get(filter as usize)
                .map_or_else(|| "?".into(), |f| matcher(f.matcher)),
            def.boards.get(board as usize).map_or("?", |b| b.name.as_str())
        ),
        Op::LoadVar(s) | Op::StoreVar(s) | Op::LoadVarAt(s) | Op::StoreVarAt(s) => var(s),
        Op::LoadOption(o) | Op::OptionTable(o) | Op::OptionLength(o) => def
            .options
            .get(o as usize)
            .map_or_else(|| "?".into(), |o| o.name.clone()),
        Op::Call(p) | Op::Inlined(p) => proc_name(p),
        Op::CallHook(h) => def
            .hook_calls
            .get(h as usize)
            .and_then(|c| def.hooks.get(c.hook as usize))
            .map_or_else(|| "?".into(), |h| h.name.clone()),
        Op::ZoneOf(f) => def
            .families
            .get(f as usize)
            .map_or_else(|| "?".into(), |f| f.name.clone()),
        Op::Ask(d) | Op::AskEach(d, _) | Op::ActionEntry(d) | Op::HasOffers(d) => decision(d),
        Op::ActionValue { decision: d, .. } | Op::ActionParam { decision: d, .. } => decision(d),
        Op::KindAt(k) => def
            .kind_sets
            .get(k as usize)
            .map_or_else(|| "?".into(), |k| k.name.clone()),
        Op::TypeAt(g) => def
            .groups
            .get(g as usize)
            .map_or_else(|| "?".into(), |g| g.name.clone()),
        Op::Fail(m) | Op::DeclareDraw(Some(m)) | Op::Win(Some(m)) => format!("{:?}", named(&def.messages, m)),
        Op::Say(line) => def.says.get(line as usize).map_or_else(
            || "?".into(),
            |said| {
                let words = said.template(|k| format!("{{{k}}}"));
                let to = if said.to_one { " to one" } else { "" };
                match said.opens_phase {
                    true => format!("phase {words} begins"),
                    false => format!("{words:?}{to}"),
                }
            },
        ),
        Op::Count(m) | Op::CountInGame(m) | Op::First(m) | Op::Matches(m) | Op::CountOnBoard { matcher: m, .. } => {
            matcher(m)
        }
        Op::Lines { family, matcher: m, .. }
        | Op::LongestRun { family, matcher: m, .. }
        | Op::Chain { family, matcher: m, .. } => format!(
            "{} in {}",
            matcher(m),
            def.families.get(family as usize).map_or("?", |f| f.name.as_str())
        ),
        Op::SpaceOf(b)
        | Op::NextNeighbour { board: b, .. }
        | Op::CellAt(b)
        | Op::Step(b)
        | Op::Coordinate { board: b, .. }
        | Op::Forward { board: b, .. } => def
            .boards
            .get(b as usize)
            .map_or_else(|| "?".into(), |b| b.name.clone()),
        Op::Table(t) => def
            .tables
            .get(t as usize)
            .map_or_else(|| "?".into(), |t| format!("{t:?}")),
        Op::Attr(attr) => format!("{attr:?}").to_lowercase(),
        _ => return None,
    };
    Some(format!("; {text}"))
}
