//! Drives one game: asks the scenario first, then the agents, and records
//! everything needed to write and replay a transcript.

use crate::agents::Agent;
use crate::diagnostic::Diagnostic;
use crate::engine::{Choice, EngineError, Event, Outcome, State, View};
use crate::ir::{GameDef, OptionValue, Seat};
use crate::scenario::{Scenario, ScriptedDecision, ShuffleSpec};

/// Everything that happened in one game.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub events: Vec<Event>,
    pub outcome: Option<Outcome>,
    pub scores: Vec<Vec<i64>>,
    /// Every decision as `"Seat: choice"`, in order: a scenario that replays the game.
    pub decisions: Vec<String>,
    /// Every shuffle's full outcome, top first.
    pub shuffles: Vec<ShuffleSpec>,
}

/// A game that could not finish; what happened up to the failure is kept.
#[derive(Debug)]
pub struct Failure {
    pub diagnostic: Diagnostic,
    pub record: Record,
}

/// Plays one game to the end.
pub fn play(
    def: &GameDef,
    options: &[OptionValue],
    seed: u64,
    scenario: &Scenario,
    agents: &mut [Box<dyn Agent>],
) -> Result<Record, Box<Failure>> {
    let mut record = Record::default();
    let fail = |diagnostic: Diagnostic, mut record: Record, events: Vec<Event>| {
        record.events.extend(events);
        Box::new(Failure { diagnostic, record })
    };
    let forced = match scenario.forced_shuffles(def) {
        Ok(f) => f,
        Err(mut errors) => return Err(fail(errors.remove(0), record, vec![])),
    };
    let mut events = vec![];
    let mut state = match State::start(def, options, seed, forced, &mut events) {
        Ok(s) => s,
        Err(e) => return Err(fail(*e, record, events)),
    };
    let mut script = scenario.decisions.iter();
    while let Some(pending) = state.pending() {
        let decision = pending.decision();
        let mut choices = vec![];
        for &seat in pending.who() {
            let legal = pending.legal(seat);
            let value = match script.next() {
                Some(scripted) => match scripted_choice(def, decision, seat, legal, scripted) {
                    Ok(v) => v,
                    Err(d) => return Err(fail(*d, record, events)),
                },
                None => {
                    let agent = &mut agents[seat as usize];
                    let view = if agent.looks() {
                        state.view(def, seat)
                    } else {
                        View {
                            seat,
                            zones: vec![],
                            vars: vec![],
                            options: vec![],
                        }
                    };
                    let index = agent.choose(def, &view, decision, legal);
                    legal[index.min(legal.len() - 1)]
                }
            };
            choices.push(Choice { seat, value });
        }
        for c in &choices {
            record.decisions.push(format!(
                "{}: {}",
                def.seat_name(c.seat),
                def.choice_label(decision, c.value)
            ));
        }
        match state.apply(def, &choices, &mut events) {
            Ok(()) => {}
            Err(EngineError::Runtime(d)) => return Err(fail(*d, record, events)),
            Err(EngineError::Illegal(illegal)) => {
                return Err(fail(
                    Diagnostic::error("illegal-action", illegal.to_string()),
                    record,
                    events,
                ));
            }
        }
    }
    for event in &events {
        if let Event::Shuffle { zone, order, .. } = event {
            record.shuffles.push(ShuffleSpec {
                zone: def.zone_name(*zone),
                top: order.iter().map(|&p| def.piece_label(p)).collect(),
                span: None,
            });
        }
    }
    record.events = events;
    record.outcome = state.outcome().cloned();
    record.scores = state.scores().to_vec();
    Ok(record)
}

/// Resolves `"Seat: choice"` against what `seat` may choose now.
fn scripted_choice(
    def: &GameDef,
    decision: u16,
    seat: Seat,
    legal: &[i64],
    scripted: &ScriptedDecision,
) -> Result<i64, Box<Diagnostic>> {
    let here = |d: Diagnostic| match scripted.span {
        Some(span) => Box::new(d.label(span, "this scripted decision")),
        None => Box::new(d),
    };
    let seat_name = def.seat_name(seat);
    let legal_labels = || {
        legal
            .iter()
            .map(|&v| def.choice_label(decision, v))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some((who, choice)) = scripted.text.split_once(':') else {
        return Err(here(
            Diagnostic::error("bad-scenario", format!("`{}` is not `Seat: choice`", scripted.text)).help(format!(
                "{seat_name} decides here; write e.g. `{seat_name}: {}`",
                def.choice_label(decision, legal[0])
            )),
        ));
    };
    if !who.trim().eq_ignore_ascii_case(seat_name) {
        return Err(here(
            Diagnostic::error(
                "bad-scenario",
                format!(
                    "the game asks {seat_name} here, but the scenario answers for {}",
                    who.trim()
                ),
            )
            .help(format!("{seat_name} may choose {}", legal_labels())),
        ));
    }
    let choice = choice.trim();
    legal
        .iter()
        .copied()
        .find(|&v| {
            def.choice_aliases(decision, v)
                .iter()
                .any(|a| a.eq_ignore_ascii_case(choice))
        })
        .ok_or_else(|| {
            here(
                Diagnostic::error("illegal-action", format!("{seat_name} cannot choose `{choice}` here"))
                    .help(format!("the legal choices are {}", legal_labels())),
            )
        })
}
