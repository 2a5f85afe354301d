//! Transcripts: one line per event, redacted for a viewer; JSON for programs.
//!
//! The same rule redacts every line: an event shows what a piece is only to
//! the seats in its `seen_by` mask. A seat's view carries nothing that
//! rebuilds what is hidden from it: no seed (from which `run --seed` would
//! deal the whole game again), no agent's seed, and a decision's number of
//! choices only where the seat could count them itself.
//!
//! Every name in a transcript is [`printable`]: a name read from input
//! cannot start a line of its own or colour the terminal.

use serde::{Deserialize, Serialize};

use crate::engine::{EndReason, Event};
use crate::ir::{ChoiceKind, ChoiceValue, GameDef, PieceId, Seat, VarDef, VarEach, ZoneId};
use crate::session::Record;
use crate::text::{printable, printable_string};

/// Who reads the transcript: everything, or one seat's knowledge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// The full view: every event, every piece named.
    All,
    /// What this seat saw.
    Seat(Seat),
    /// What every one of the game's `seats` saw: a spectator's view.
    Public {
        /// How many seats the game has.
        seats: u8,
    },
}

impl Viewer {
    /// What every seat of `def` saw.
    pub fn public(def: &GameDef) -> Viewer {
        Viewer::Public {
            seats: def.players() as u8,
        }
    }

    fn sees(self, mask: u32) -> bool {
        match self {
            Viewer::All => true,
            Viewer::Seat(s) => mask & (1 << s) != 0,
            Viewer::Public { seats } => {
                let everyone = (1u32 << seats) - 1;
                mask & everyone == everyone
            }
        }
    }

    /// The viewer as a transcript names it: "all", "public", or the seat's name.
    pub fn describe(self, def: &GameDef) -> String {
        match self {
            Viewer::All => "all".into(),
            Viewer::Seat(s) => def.seat_name(s).to_string(),
            Viewer::Public { .. } => "public".into(),
        }
    }
}

/// The `format` field of every JSON transcript this version writes.
/// Version 4 heads each time a `phase` begins with its name and count
/// (`--- round 2 ---`).
pub const FORMAT: &str = "rpsdsl-transcript/4";

/// Version 3 leaves out a variable set to the value it held (nothing
/// changed), says the reason a `win` gives (`win p "..."`), and nothing
/// for a plain `win` in the flow (it was "the flow"). It still replays.
pub const FORMAT_3: &str = "rpsdsl-transcript/3";

/// Version 2 says when a seat could not choose, shows tie-breakers apart
/// from points, names the result's tie-break, and writes silence in a race
/// without a time. It still replays: see [`Format`].
pub const FORMAT_2: &str = "rpsdsl-transcript/2";

/// The format of a transcript written before transcripts named theirs
/// (no `format` field). It still replays: see [`Format`].
pub const FORMAT_1: &str = "rpsdsl-transcript/1";

/// The transcript formats this version reads, and how they differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// No `format` field: events render as they did then (no "cannot
    /// choose" lines, tie-breakers summed into the total, a tie-break win
    /// as "the flow"), and a silence in a race was written with a time.
    V1,
    /// [`FORMAT_2`]: every `set` of a variable is shown, changed or not.
    V2,
    /// [`FORMAT_3`]: no phase headings.
    V3,
    /// [`FORMAT`].
    V4,
}

impl Format {
    /// The format named by a transcript's `format` field, if this version reads it.
    pub fn parse(name: &str) -> Option<Format> {
        match name {
            FORMAT_1 => Some(Format::V1),
            FORMAT_2 => Some(Format::V2),
            FORMAT_3 => Some(Format::V3),
            FORMAT => Some(Format::V4),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::V1 => FORMAT_1,
            Format::V2 => FORMAT_2,
            Format::V3 => FORMAT_3,
            Format::V4 => FORMAT,
        }
    }
}

fn format_1() -> String {
    FORMAT_1.into()
}

/// A transcript as written to disk with `--json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Transcript {
    /// Which transcript format: [`FORMAT`]; [`FORMAT_1`] when absent (older transcripts).
    #[serde(default = "format_1")]
    pub format: String,
    /// The game's name.
    pub game: String,
    /// The file played, as given (a `.rules` or house-rules `.toml` file).
    pub rules: String,
    /// What that file is, when it is more than itself: "x.rules (extends base.rules)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// The seed, in the full view only: with it, `run --seed` deals the
    /// game again, so a seat's view must not carry it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Options that differ from their defaults.
    pub options: Vec<(String, String)>,
    /// Each seat's agent spec, in seat order; a seat's view leaves out their seeds.
    pub agents: Vec<String>,
    /// Whose view: "all", or a seat's name.
    pub view: String,
    /// One line per event, redacted for the viewer.
    pub lines: Vec<String>,
    /// How the game ended: "Blue wins (trigger all_sets)", "draw (...)", or "unfinished".
    pub result: String,
    /// Present for `view: all`: the chance outcomes and decisions that replay the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<ReplayScript>,
}

/// What replays a recorded game: its chance outcomes and decisions, in order.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ReplayScript {
    pub(crate) shuffles: Vec<ReplayShuffle>,
    /// Every decision, as a scenario writes it (`"Seat: choice"`).
    pub decisions: Vec<String>,
    /// Every roll of a die, `"Die of Ann: 6"`, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<String>,
    /// A scenario fixed shuffles or rolls, so the seed does not deal them:
    /// `replay` cannot check the seed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shuffles_fixed: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub(crate) struct ReplayShuffle {
    pub zone: String,
    pub top: Vec<String>,
}

impl ReplayScript {
    /// The scenario that plays the recorded game again: every shuffle and
    /// every decision fixed.
    pub fn to_scenario(&self, seed: u64) -> crate::scenario::Scenario {
        use crate::scenario::{Scenario, ScriptedDecision, ShuffleSpec};
        Scenario {
            seed: Some(seed),
            options: vec![],
            shuffles: self
                .shuffles
                .iter()
                .map(|s| ShuffleSpec {
                    zone: s.zone.clone(),
                    top: s.top.clone(),
                    bottom: vec![],
                    span: None,
                })
                .collect(),
            decisions: self
                .decisions
                .iter()
                .map(|d| ScriptedDecision {
                    text: d.clone(),
                    span: None,
                })
                .collect(),
            rolls: self.rolls.iter().map(|r| crate::session::roll_spec(r)).collect(),
            skip_forced: false,
            silence_times: false,
        }
    }
}

/// The result of a game that stopped before its end.
pub(crate) const UNFINISHED: &str = "unfinished";

/// The header facts a transcript names.
pub struct Header<'a> {
    /// The file played, as given.
    pub rules: &'a str,
    /// What that file is, when it is more than itself (left out when it equals `rules`).
    pub about: Option<&'a str>,
    /// The game's seed (written in the full view only).
    pub seed: u64,
    /// Options that differ from their defaults, as `name = value`.
    pub options: Vec<(String, String)>,
    /// Each seat's agent spec, in seat order (with seeds; a seat's view removes them).
    pub agents: Vec<String>,
}

impl Transcript {
    /// The transcript of a played game, as `viewer` sees it.
    pub fn new(def: &GameDef, header: Header<'_>, record: &Record, viewer: Viewer) -> Transcript {
        Transcript::in_format(def, header, record, viewer, Format::V4)
    }

    /// [`Transcript::new`] written as `format` wrote it: `replay` checks an
    /// older transcript against the game rendered in the transcript's own format.
    pub fn in_format(def: &GameDef, header: Header<'_>, record: &Record, viewer: Viewer, format: Format) -> Transcript {
        let lines = render_raw(def, &record.events, 0, viewer, format)
            .into_iter()
            .map(|line| printable(&line).into_owned())
            .collect();
        let replay = (viewer == Viewer::All).then(|| ReplayScript {
            shuffles: record
                .shuffles
                .iter()
                .map(|s| ReplayShuffle {
                    zone: s.zone.clone(),
                    top: s.top.clone(),
                })
                .collect(),
            decisions: record.decisions.clone(),
            rolls: record.rolls.clone(),
            shuffles_fixed: record.shuffles_fixed,
        });
        let result = match &record.outcome {
            Some(outcome) => describe_end_in(def, outcome.winner, &outcome.reason, format),
            None => UNFINISHED.into(),
        };
        let full = viewer == Viewer::All;
        Transcript {
            format: format.name().into(),
            game: printable_string(&def.name),
            rules: printable_string(header.rules),
            about: header.about.filter(|a| *a != header.rules).map(printable_string),
            seed: full.then_some(header.seed),
            options: header
                .options
                .iter()
                .map(|(k, v)| (printable_string(k), printable_string(v)))
                .collect(),
            agents: header
                .agents
                .iter()
                .map(|a| match full {
                    true => printable_string(a),
                    false => printable_string(&without_seed(a)),
                })
                .collect(),
            view: printable_string(&viewer.describe(def)),
            lines,
            result: printable_string(&result),
            replay,
        }
    }

    /// The text form: a header, then one line per event.
    pub fn to_text(&self) -> String {
        // Every field is printed through `printable`: a transcript read from
        // a file was not necessarily written by `Transcript::new`.
        let p = |s: &str| printable(s).into_owned();
        let mut out = format!(
            "# {} ({})\n",
            p(&self.game),
            p(self.about.as_deref().unwrap_or(&self.rules))
        );
        let seed = self.seed.map(|s| format!("seed {s}, ")).unwrap_or_default();
        let agents: Vec<String> = self.agents.iter().map(|a| p(a)).collect();
        out.push_str(&format!(
            "# {seed}agents {}, view {}\n",
            agents.join(","),
            p(&self.view)
        ));
        if !self.options.is_empty() {
            let set: Vec<String> = self.options.iter().map(|(k, v)| format!("{}={}", p(k), p(v))).collect();
            out.push_str(&format!("# options {}\n", set.join(" ")));
        }
        for line in &self.lines {
            out.push_str(&printable(line));
            out.push('\n');
        }
        out
    }
}

/// An agent's name without its `seed` parameters, however deep
/// (`human-like:fallback=mcts(iterations=8:seed=3)` reads
/// `human-like:fallback=mcts(iterations=8)`): an agent's seed predicts its
/// choices. A name that is not an agent spec is kept as it is.
pub fn without_seed(agent: &str) -> String {
    fn strip(spec: &crate::agents::spec::AgentSpec, parens: bool) -> String {
        let params: Vec<String> = spec
            .params
            .iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("seed"))
            .map(|(k, v)| match crate::agents::spec::parse_agent(v) {
                Ok(inner) if v.ends_with(')') => format!("{k}={}", strip(&inner, true)),
                _ => format!("{k}={v}"),
            })
            .collect();
        match (params.is_empty(), parens) {
            (true, _) => spec.name.clone(),
            (false, true) => format!("{}({})", spec.name, params.join(":")),
            (false, false) => format!("{}:{}", spec.name, params.join(":")),
        }
    }
    match crate::agents::spec::parse_agent(agent) {
        Ok(spec) => strip(&spec, false),
        Err(_) => agent.to_string(),
    }
}

fn piece(def: &GameDef, piece: u16, mask: u32, viewer: Viewer) -> String {
    if viewer.sees(mask) {
        def.piece_label(piece)
    } else {
        "a hidden piece".into()
    }
}

/// Whose or which value of a variable changed, as `viewer` may name it: a
/// piece the viewer does not know by its back ("Stone of Ann (hidden)").
fn var_owner(def: &GameDef, var: &VarDef, index: u32, seen_by: u32, viewer: Viewer) -> String {
    match var.each {
        VarEach::Piece if !viewer.sees(seen_by) => def.piece_back_label(index as PieceId),
        _ => def.var_owner_name(var, index),
    }
}

/// A piece where the viewer may see its back: "Marker of Orange (hidden)".
fn piece_in(def: &GameDef, p: u16, mask: u32, viewer: Viewer, zones: &[ZoneId]) -> String {
    let sees_back = def.pieces[p as usize].kind_hidden && zones.iter().any(|&z| viewer.sees(def.zone_viewers(z)));
    if !viewer.sees(mask) && sees_back {
        def.piece_back_label(p)
    } else {
        piece(def, p, mask, viewer)
    }
}

/// Renders events for `viewer`, grouping each player's score terms on one line.
/// Every line is [`printable`].
pub fn render_events(def: &GameDef, events: &[Event], viewer: Viewer) -> Vec<String> {
    render_events_from(def, events, 0, viewer)
}

/// The lines of `events[from..]`: the events before `from` only number
/// the phases begun since the game began.
pub fn render_events_from(def: &GameDef, events: &[Event], from: usize, viewer: Viewer) -> Vec<String> {
    render_raw(def, events, from, viewer, Format::V4)
        .into_iter()
        .map(|line| printable(&line).into_owned())
        .collect()
}

fn render_raw(def: &GameDef, events: &[Event], from: usize, viewer: Viewer, format: Format) -> Vec<String> {
    let mut lines = vec![];
    let mut scores: Vec<Vec<(u16, i64)>> = vec![vec![]; def.players()];
    // How many times each phase has begun, by its heading's line.
    let mut begun = vec![0u32; def.says.len()];
    for event in &events[..from.min(events.len())] {
        if let Event::Said { line, .. } = event
            && let Some(count) = begun.get_mut(usize::from(*line))
        {
            *count += 1;
        }
    }
    for event in &events[from.min(events.len())..] {
        // Scores are shown once every seat is scored: at the end, or before
        // the result's tie-break (the only events after scoring but the end).
        // (Format 1 showed them at the end.)
        let at_end = matches!(event, Event::End { .. });
        let shown_now = at_end || (format != Format::V1 && !matches!(event, Event::Score { .. } | Event::Hook { .. }));
        if shown_now && scores.iter().any(|s| !s.is_empty()) {
            lines.extend(score_lines(def, &mut scores, format));
            if !at_end {
                lines.push("tied on every result key: the result's tie-break decides".into());
            }
        }
        match event {
            Event::Shuffle { zone, order, seen_by } => {
                if viewer.sees(*seen_by) {
                    let names: Vec<String> = order.iter().map(|&p| def.piece_label(p)).collect();
                    lines.push(format!(
                        "shuffle {}: {} (top first)",
                        def.zone_name(*zone),
                        names.join(", ")
                    ));
                } else {
                    lines.push(format!(
                        "shuffle {} ({} pieces, unseen)",
                        def.zone_name(*zone),
                        order.len()
                    ));
                }
            }
            Event::Move {
                piece: p,
                from,
                to,
                seen_by,
                value,
            } => {
                let mut name = piece_in(def, *p, *seen_by, viewer, &[*from, *to]);
                // A die is named with the face it shows, to whoever sees it.
                if let Some(v) = value.filter(|_| viewer.sees(*seen_by)) {
                    name.push_str(&format!(" showing {v}"));
                }
                lines.push(format!("  {name}: {} -> {}", def.zone_name(*from), def.zone_name(*to)));
            }
            // A roll is a chance outcome, like a shuffle: its value only to
            // the seats that see the die.
            Event::Roll {
                piece: p,
                zone,
                value,
                seen_by,
            } => {
                let name = piece_in(def, *p, *seen_by, viewer, &[*zone]);
                let value = match viewer.sees(*seen_by) {
                    true => format!(": {value}"),
                    false => " (unseen)".to_string(),
                };
                lines.push(format!("roll {name} in {}{value}", def.zone_name(*zone)));
            }
            Event::Hide { piece: p, seen_by } => {
                let name = if viewer.sees(*seen_by) || !def.pieces[*p as usize].kind_hidden {
                    piece(def, *p, *seen_by, viewer)
                } else {
                    def.piece_back_label(*p)
                };
                lines.push(format!("  hide {name}"));
            }
            Event::Reveal {
                piece: p,
                to,
                value,
                seen_by,
            } => lines.push(reveal_line(def, viewer, *p, *to, *seen_by, *value)),
            Event::Decision { .. } => lines.push(decision_line(def, viewer, event)),
            // Set to what it held: nothing changed (shown before format 3).
            Event::Var { value, was, .. } if value == was && !matches!(format, Format::V1 | Format::V2) => {}
            Event::Var {
                var,
                index,
                value,
                seen_by,
                ..
            } => {
                let var = &def.vars[*var as usize];
                let (name, value) = (&var.name, def.show_value(var.shows, *value));
                match index {
                    Some(i) => lines.push(format!(
                        "  {name} of {} = {value}",
                        var_owner(def, var, *i, *seen_by, viewer)
                    )),
                    None => lines.push(format!("  {name} = {value}")),
                }
            }
            Event::Score { seat, term, points } => scores[*seat as usize].push((*term, *points)),
            Event::Trigger { trigger } => {
                lines.push(format!("trigger {} fires", def.triggers[*trigger as usize].name));
            }
            Event::Hook { .. } => {}
            Event::Said { line, .. }
                if let Some(phase) = def.says.get(usize::from(*line)).filter(|l| l.opens_phase) =>
            {
                let count = begun.get_mut(usize::from(*line)).map_or(0, |count| {
                    *count += 1;
                    *count
                });
                if format == Format::V4 {
                    // The phase's name as words: `discard_round` reads "discard round".
                    let name = phase.template(|_| String::new()).replace('_', " ");
                    lines.push(format!("--- {name} {count} ---"));
                }
            }
            Event::Said { line, values, to } => {
                if viewer.sees(*to) {
                    lines.push(def.said(*line, values, &|p, knowers| piece(def, p, knowers, viewer)));
                }
            }
            Event::NoChoice { .. } if format == Format::V1 => {}
            Event::NoChoice { seat, decision } => {
                let d = &def.decisions[*decision as usize];
                lines.push(format!("{} has no legal choice for {}", def.seat_name(*seat), d.name));
            }
            Event::End { winner, reason } => {
                lines.push(format!("result: {}", describe_end_in(def, *winner, reason, format)));
            }
        }
    }
    lines
}

/// `  reveal PIECE to WHOM`: the piece named only to the seats shown it.
fn reveal_line(def: &GameDef, viewer: Viewer, p: PieceId, to: u32, seen_by: u32, value: Option<i64>) -> String {
    let whom = if to == def.all_seats_mask() {
        "everyone".to_string()
    } else {
        (0..def.players() as Seat)
            .filter(|s| to & (1 << s) != 0)
            .map(|s| def.seat_name(s))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The seats shown the piece read its name here, and so do the seats
    // that knew it already (`seen_by` holds everyone who knows it now):
    // its owner reads "reveal Fire to Ben" of its own card, which it was
    // shown before. Any other seat learns that a piece was shown, not
    // what it is.
    let name = if viewer.sees(to) || viewer.sees(seen_by) {
        // A die is shown with the face it shows.
        match value {
            Some(v) => format!("{} showing {v}", def.piece_label(p)),
            None => def.piece_label(p),
        }
    } else if def.pieces[p as usize].kind_hidden {
        def.piece_back_label(p)
    } else {
        "a hidden piece".to_string()
    };
    format!("  reveal {name} to {whom}")
}

/// `SEAT chooses DECISION: CHOICE`, or `(secret)` to a seat that may not see it.
fn decision_line(def: &GameDef, viewer: Viewer, event: &Event) -> String {
    let Event::Decision {
        seat,
        decision,
        value,
        offered,
        count_seen_by,
        seen_by,
        reaction_ms,
        pieces,
    } = event
    else {
        unreachable!("called for decisions only")
    };
    let d = &def.decisions[*decision as usize];
    // A draft pick, an action and an `anytime` action are named by their label alone.
    let chosen = ChoiceValue::from_raw(*value);
    let name = if matches!(d.kind, ChoiceKind::Menu(_) | ChoiceKind::Actions(_)) || chosen.is_anytime() {
        String::new()
    } else {
        format!(" {}", d.name)
    };
    let (verb, time) = match reaction_ms {
        // Silence has no reaction time worth showing.
        Some(_) if chosen.is_none() => ("calls", String::new()),
        Some(ms) => ("calls", format!(" after {ms} ms")),
        None => ("chooses", String::new()),
    };
    let who = def.seat_name(*seat);
    if viewer.sees(*seen_by) {
        let name_piece = |p: PieceId| {
            let mask = pieces.iter().find(|(q, _)| *q == p).map_or(0, |(_, m)| *m);
            if viewer.sees(mask) || !def.pieces[p as usize].kind_hidden {
                piece(def, p, mask, viewer)
            } else {
                def.piece_back_label(p)
            }
        };
        let what = def.choice_label_with(*decision, *value, &name_piece);
        // How many choices there were, only to a seat that could
        // count them (see `Event::Decision::count_seen_by`).
        let count = match viewer.sees(*count_seen_by) {
            true => format!("  [of {offered}]"),
            false => String::new(),
        };
        format!("{who} {verb}{name}: {what}{time}{count}")
    } else {
        // How many choices there were would tell what is left.
        format!("{who} {verb}{name}: (secret)")
    }
}

/// One line per scored seat, `score Ann: tokens 2 = 2; tie-breakers:
/// discards 19`, emptying `scores`. Tie-breakers are not points: they are
/// shown after the total, which leaves them out.
fn score_lines(def: &GameDef, scores: &mut [Vec<(u16, i64)>], format: Format) -> Vec<String> {
    let named = |terms: &[(u16, i64)], between: &str| -> String {
        terms
            .iter()
            .map(|(t, p)| format!("{} {p}", def.score_terms[*t as usize].name))
            .collect::<Vec<_>>()
            .join(between)
    };
    let mut lines = vec![];
    for (seat, terms) in scores.iter_mut().enumerate() {
        if terms.is_empty() {
            continue;
        }
        // Format 1 summed every term.
        let (breakers, points): (Vec<_>, Vec<_>) = terms
            .drain(..)
            .partition(|(t, _)| format != Format::V1 && def.score_terms[*t as usize].tie_breaker);
        let total: i64 = points.iter().map(|(_, p)| p).sum();
        let mut line = format!("score {}: ", def.seat_name(seat as Seat));
        if !points.is_empty() {
            line.push_str(&format!("{} = {total}", named(&points, " + ")));
        }
        if !breakers.is_empty() {
            let sep = if points.is_empty() { "" } else { "; " };
            line.push_str(&format!("{sep}tie-breakers: {}", named(&breakers, ", ")));
        }
        lines.push(line);
    }
    lines
}

/// "Blue wins (trigger all_sets)", "draw (tied on every result key)".
pub(crate) fn describe_end(def: &GameDef, winner: Option<Seat>, reason: &EndReason) -> String {
    describe_end_in(def, winner, reason, Format::V3)
}

fn describe_end_in(def: &GameDef, winner: Option<Seat>, reason: &EndReason, format: Format) -> String {
    let old = matches!(format, Format::V1 | Format::V2);
    let why = match reason {
        EndReason::Win(..) if old => "the flow".to_string(),
        EndReason::TieBreak(..) if format == Format::V1 => "the flow".to_string(),
        EndReason::Trigger(t, _) if old => format!("trigger {}", def.triggers[*t as usize].name),
        // Since format 3: the reason the rules say, else where it ended
        // (a plain `win` in the flow needs no words).
        EndReason::Win(_, Some(m)) | EndReason::Trigger(_, Some(m)) => def.messages[*m as usize].clone(),
        EndReason::Win(_, None) => String::new(),
        EndReason::Trigger(t, None) => format!("trigger {}", def.triggers[*t as usize].name),
        EndReason::TieBreak(_, Some(m)) if !old => {
            format!("{}, after a tie on every result key", def.messages[*m as usize])
        }
        EndReason::TieBreak(..) => "tie-break, after a tie on every result key".to_string(),
        EndReason::Rank(k) => {
            let key = &def.rank_keys[*k as usize];
            format!("{} {}", if key.most { "most" } else { "fewest" }, key.label)
        }
        EndReason::Draw(_, Some(reason)) => def.messages[*reason as usize].clone(),
        EndReason::Draw(_, None) if !def.rank_keys.is_empty() => "tied on every result key".into(),
        EndReason::Draw(_, None) => "declared".into(),
    };
    match (winner, why.is_empty()) {
        (Some(s), true) => format!("{} wins", def.seat_name(s)),
        (Some(s), false) => format!("{} wins ({why})", def.seat_name(s)),
        (None, _) => format!("draw ({why})"),
    }
}

/// Where two transcripts of the same game first differ, in words.
pub fn first_divergence(recorded: &Transcript, replayed: &Transcript) -> Option<String> {
    for (i, (a, b)) in recorded.lines.iter().zip(&replayed.lines).enumerate() {
        if a != b {
            return Some(format!(
                "line {}: the transcript says\n  {a}\nbut the rules now give\n  {b}",
                i + 1
            ));
        }
    }
    if recorded.lines.len() != replayed.lines.len() {
        return Some(format!(
            "the transcript has {} lines but the replay has {}",
            recorded.lines.len(),
            replayed.lines.len()
        ));
    }
    (recorded.result != replayed.result).then(|| {
        format!(
            "the transcript's result is `{}` but the replay's is `{}`",
            recorded.result, replayed.result
        )
    })
}
