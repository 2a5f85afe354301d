//! `?`: the rules in brief, read from the definition alone, and the options
//! in force.

use crate::ir::{ChoiceKind, FamilyIndex, GameDef, LabelPart, OptionValue, Seat, Visibility};

use super::layout::wrap;

/// The opening comment of the game's own file (its first `.rules` source),
/// which by the convention of `games/` says what the game is.
fn description(def: &GameDef) -> Option<String> {
    let file = def.sources.files.iter().find(|f| f.name.ends_with(".rules"))?;
    let lines: Vec<&str> = file
        .text
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect();
    let text = lines.join(" ");
    (!text.trim().is_empty()).then(|| text.trim().to_string())
}

/// What a decision asks for, in words.
fn asks(def: &GameDef, kind: &ChoiceKind) -> String {
    match kind {
        ChoiceKind::Kind => "a kind".into(),
        ChoiceKind::Player => "a player".into(),
        ChoiceKind::Number => "a number".into(),
        ChoiceKind::Direction => "a direction".into(),
        ChoiceKind::Space(b) => format!("a space of {}", def.boards[*b as usize].name),
        ChoiceKind::PieceType => "a type of piece".into(),
        ChoiceKind::Piece => "a piece".into(),
        ChoiceKind::Menu(labels) => format!("one of: {}", labels.join("; ")),
        ChoiceKind::Actions(actions) => {
            let labels: Vec<String> = actions
                .iter()
                .map(|a| {
                    a.label
                        .iter()
                        .map(|part| match part {
                            LabelPart::Text(t) => t.clone(),
                            LabelPart::Param(k) => match a.params.get(*k as usize) {
                                Some((kind, _)) => format!("<{}>", asks(def, kind).trim_start_matches("a ")),
                                None => "<?>".into(),
                            },
                        })
                        .collect()
                })
                .collect();
            format!("one of: {}", labels.join("; "))
        }
    }
}

/// `?`: the rules in brief, from the definition alone, and the options in
/// force.
pub(crate) fn rules_summary(def: &GameDef, options: &[OptionValue], rules: &str, you: Seat) -> String {
    let mut out = format!("{} ({rules})\n", def.name);
    if let Some(text) = description(def) {
        out.push_str(&wrap(&text, "  "));
    }
    let mut facts: Vec<(&str, String)> = vec![(
        "players",
        format!("{} (you are {})", def.seats.join(", "), def.seat_name(you)),
    )];
    facts.extend(kind_facts(def));
    facts.push(("pieces", pieces_fact(def)));
    facts.extend(board_facts(def));
    facts.push(("zones", zones_fact(def)));
    facts.extend(decision_facts(def));
    facts.extend(flow_facts(def));
    let width = facts.iter().map(|(k, _)| k.len()).max().unwrap_or(0) + 1;
    for (key, text) in facts {
        let head = format!("  {:width$} ", format!("{key}:"));
        let body = wrap(&text, &" ".repeat(head.chars().count()));
        out.push_str(&head);
        out.push_str(body.trim_start());
    }
    out.push_str(&options_in_force(def, options));
    out.push_str(KEYS);
    out
}

/// Each kind set with what beats what: "Hand: a, b, c; a beats b, ...".
fn kind_facts(def: &GameDef) -> Vec<(&'static str, String)> {
    let mut facts = vec![];
    for set in &def.kind_sets {
        let names: Vec<&str> = set
            .members
            .iter()
            .map(|&k| def.kinds[k as usize].display.as_str())
            .collect();
        let mut line = names.join(", ");
        let beats: Vec<String> = set
            .members
            .iter()
            .flat_map(|&a| set.members.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| def.beats(a, b))
            .map(|(a, b)| {
                format!(
                    "{} beats {}",
                    def.kinds[a as usize].display, def.kinds[b as usize].display
                )
            })
            .collect();
        if !beats.is_empty() {
            line.push_str(&format!("; {}", beats.join(", ")));
        }
        facts.push(("kinds", format!("{}: {line}", set.name)));
    }
    facts
}

/// The pieces by type with their counts, starred when an option decides
/// whether they play.
fn pieces_fact(def: &GameDef) -> String {
    let mut pieces: Vec<(&str, usize, bool)> = vec![];
    for p in &def.pieces {
        let name = def.piece_types[p.ty as usize].as_str();
        match pieces.iter_mut().find(|(n, _, _)| *n == name) {
            Some(entry) => entry.1 += 1,
            None => pieces.push((name, 1, p.when.is_some())),
        }
    }
    let optional = pieces.iter().any(|p| p.2);
    let line: Vec<String> = pieces
        .iter()
        .map(|(n, c, when)| format!("{n} x{c}{}", if *when { "*" } else { "" }))
        .collect();
    let mut line = line.join(", ");
    if optional {
        line.push_str(" (* only with some options)");
    }
    line
}

/// Who sees what is in a zone, in words.
fn seen(v: Visibility) -> &'static str {
    match v {
        Visibility::Public => "open",
        Visibility::Hidden => "hidden",
        Visibility::Owner => "seen by its owner",
    }
}

/// Each board: its shape and what each space holds.
fn board_facts(def: &GameDef) -> Vec<(&'static str, String)> {
    let mut facts = vec![];
    for (b, board) in def.board_ids().zip(&def.boards) {
        let slots: Vec<String> = def
            .families
            .iter()
            .filter(|f| f.by == FamilyIndex::PerSpace(b))
            .map(|f| format!("{} ({})", f.name, seen(f.visibility)))
            .collect();
        let shape = if board.rows > 0 {
            format!("a {} x {} grid", board.rows, board.cols)
        } else {
            format!("{} linked spaces", board.spaces())
        };
        facts.push((
            "board",
            format!("{}, {shape}; each space holds {}", board.name, slots.join(", ")),
        ));
    }
    facts
}

/// The zones off the boards, per player or shared, with who sees them.
fn zones_fact(def: &GameDef) -> String {
    let zones: Vec<String> = def
        .families
        .iter()
        .skip(1)
        .filter(|f| !matches!(f.by, FamilyIndex::PerSpace(_)))
        .map(|f| {
            let each = if f.by == FamilyIndex::PerPlayer {
                " per player"
            } else {
                ""
            };
            format!("{}{each} ({})", f.name, seen(f.visibility))
        })
        .collect();
    zones.join(", ")
}

/// Each decision once, with what it asks and how.
fn decision_facts(def: &GameDef) -> Vec<(&'static str, String)> {
    let mut facts = vec![];
    let mut named: Vec<&str> = vec![];
    for d in &def.decisions {
        // A procedure asked in several places declares its decision once each.
        if named.contains(&d.name.as_str()) {
            continue;
        }
        named.push(&d.name);
        let mut line = format!("{}: {}", d.name, asks(def, &d.kind));
        if let Some(none) = &d.none_label {
            line.push_str(&format!(", or {none}"));
        }
        if d.secret {
            line.push_str(" (secret: only the chooser sees it)");
        }
        if d.race {
            line.push_str(" (a race: the fastest answer counts)");
        }
        facts.push(("decision", line));
    }
    facts
}

/// The `anytime` actions, the triggers, the scoring and the result.
fn flow_facts(def: &GameDef) -> Vec<(&'static str, String)> {
    let mut facts = vec![];
    for a in &def.anytime {
        facts.push((
            "anytime",
            format!("{} (offered beside your decisions when allowed)", a.label),
        ));
    }
    for t in &def.triggers {
        facts.push(("trigger", format!("{} (checked after every action)", t.name)));
    }
    if !def.score_terms.is_empty() {
        let terms: Vec<&str> = def.score_terms.iter().map(|t| t.name.as_str()).collect();
        facts.push(("scoring", terms.join(" + ")));
    }
    if !def.rank_keys.is_empty() {
        let keys: Vec<String> = def
            .rank_keys
            .iter()
            .map(|k| format!("{} {}", if k.most { "most" } else { "fewest" }, k.label))
            .collect();
        facts.push(("result", keys.join(", then ")));
    }
    facts
}

/// Every option with its value, the changed ones marked, each with its
/// description.
fn options_in_force(def: &GameDef, options: &[OptionValue]) -> String {
    if def.options.is_empty() {
        return "Options: none\n".into();
    }
    let mut out = String::from("Options in force:\n");
    let width = def.options.iter().map(|o| o.name.len()).max().unwrap_or(0);
    for (o, v) in def.options.iter().zip(options) {
        let changed = if *v == o.default { "" } else { " (changed)" };
        let head = format!("  {:width$} = {}{changed}", o.name, v.render(&o.ty));
        out.push_str(&format!("{head}\n"));
        out.push_str(&wrap(&o.description, "      "));
    }
    out
}

/// The keys, for the help and the docs.
const KEYS: &str = "Keys: a number or a name picks a choice (a unique start of a name will do);\n      \
                        ? this help; log the whole game so far as you saw it; q quits.\n";
