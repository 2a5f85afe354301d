//! Drives one game: asks the scenario first, then the agents, and records
//! everything needed to write and replay a transcript.

mod steps;
mod turns;

pub(crate) use steps::decision_line;
pub use steps::{agent_choice, agent_choice_allowed, tell_agents, tell_choices};
pub use turns::{Answer, Asked, Paused, Seats, Turns};

use crate::agents::Agent;
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{Chance, Choice, Event, Game, Outcome, State};
use crate::ir::{ChoiceValue, GameDef, OptionValue, Seat};
use crate::scenario::{RollSpec, Scenario, ScriptedDecision, ShuffleSpec};

/// Everything that happened in one game.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// Every event, in order (the full view; transcripts redact it per viewer).
    pub events: Vec<Event>,
    /// How the game ended; `None` when it did not.
    pub outcome: Option<Outcome>,
    /// Final points per seat and score term, in [`GameDef::score_terms`] order (empty when the game was not scored).
    pub scores: Vec<Vec<i64>>,
    /// Every decision as `"Seat: choice"`, in order: a scenario that replays the game.
    pub decisions: Vec<String>,
    /// Every shuffle's full outcome, top first.
    pub shuffles: Vec<ShuffleSpec>,
    /// Every roll of a die, as `"Die of Ann: 6"`.
    pub rolls: Vec<String>,
    /// A scenario fixed some shuffles or rolls: the seed alone does not deal them.
    pub shuffles_fixed: bool,
    /// What the caller should tell the user about the scenario, such as
    /// decisions left over when the game ended.
    pub warnings: Vec<Diagnostic>,
}

/// A game that could not finish; what happened up to the failure is kept.
#[derive(Debug)]
pub struct Failure {
    /// What stopped the game.
    pub diagnostic: Diagnostic,
    /// What happened up to then.
    pub record: Record,
}

/// Plays one game to the end.
pub fn play(
    def: &Game,
    options: &[OptionValue],
    seed: u64,
    scenario: &Scenario,
    agents: &mut [Box<dyn Agent>],
) -> Result<Record, Box<Failure>> {
    play_until(def, options, seed, scenario, agents, Until::End).map(|(record, _)| record)
}

/// Where [`play_until`] stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// At the end of the game.
    End,
    /// Once this many decisions are taken ([`State::decisions`]), or at the end.
    Decisions(u32),
    /// When the scenario has no more decisions to give, or at the end.
    ScriptEnds,
}

/// Plays one game as [`play`] does, but stops where `until` says, and
/// hands back the position reached beside the record.
pub fn play_until(
    def: &Game,
    options: &[OptionValue],
    seed: u64,
    scenario: &Scenario,
    agents: &mut [Box<dyn Agent>],
    until: Until,
) -> Result<(Record, State), Box<Failure>> {
    let mut record = Record {
        shuffles_fixed: !scenario.shuffles.is_empty() || !scenario.rolls.is_empty(),
        ..Record::default()
    };
    // What happened before a failure is kept, shuffles included, so the
    // transcript of a failed game still replays up to the failure.
    let fail = |diagnostic: Diagnostic, mut record: Record, events: Vec<Event>| {
        record.shuffles = shuffles_of(def, &events);
        record.rolls = rolls_of(def, &events);
        record.events.extend(events);
        Box::new(Failure { diagnostic, record })
    };
    let forced = match scenario.forced_shuffles(def) {
        Ok(f) => f,
        Err(mut errors) => return Err(fail(errors.remove(0), record, vec![])),
    };
    let rolls = match scenario.forced_rolls(def) {
        Ok(r) => r,
        Err(mut errors) => return Err(fail(errors.remove(0), record, vec![])),
    };
    let mut events = vec![];
    let mut state = State::new(def, options, Chance::seeded(seed), forced);
    state.force_rolls(rolls);
    if let Err(e) = state.set_up(def, &mut events) {
        return Err(fail(*e, record, events));
    }
    let mut script = scenario.decisions.iter().peekable();
    tell_agents(def, &events, agents);
    let mut turns = Turns::new(state, events);
    let paused = turns.play(def, agents, &mut |asked: &Asked<'_>, _: &mut [Box<dyn Agent>]| {
        let stop_here = asked.seat == asked.who[0]
            && match until {
                Until::Decisions(stop) => asked.turns.state.decisions() >= stop,
                Until::ScriptEnds => script.len() == 0,
                Until::End => false,
            };
        if stop_here {
            return Answer::Stop(None);
        }
        // `skip_forced`: a choice the game leaves no way around is not
        // scripted, while the script lasts (then the agents decide).
        let legal = asked.legal;
        let forced = scenario.skip_forced
            && legal.len() == 1
            && (!def.decisions[asked.decision as usize].race || ChoiceValue::from_raw(legal[0]).is_none())
            && script.len() > 0;
        match script.next_if(|_| !forced) {
            None if forced => Answer::Choice(Choice {
                seat: asked.seat,
                value: legal[0],
                reaction_ms: 0,
            }),
            Some(scripted) => {
                match scripted_choice(def, asked.decision, asked.seat, legal, scripted, scenario.silence_times) {
                    Ok(choice) => Answer::Choice(choice),
                    Err(d) => Answer::Stop(Some(d)),
                }
            }
            None => Answer::Agent,
        }
    });
    let Turns {
        state,
        events,
        decisions,
        ..
    } = turns;
    record.decisions = decisions;
    match paused {
        Paused::Over | Paused::Waiting | Paused::Stopped(None) => {}
        Paused::Stopped(Some(d)) => return Err(fail(*d, record, events)),
        Paused::Failed {
            diagnostic,
            decision,
            choices,
        } => {
            // The step the rules refused is recorded too: the record replays
            // up to the failure.
            (record.decisions).extend(choices.iter().map(|c| decision_line(def, decision, c)));
            return Err(fail(*diagnostic, record, events));
        }
    }
    if let Some(first) = script.next() {
        record.warnings.push(leftover_warning(first, 1 + script.count()));
    }
    record.shuffles = shuffles_of(def, &events);
    record.rolls = rolls_of(def, &events);
    record.events = events;
    record.outcome = state.outcome().cloned();
    record.scores = state.scores().to_vec();
    Ok((record, state))
}

/// The game ended with `count` scripted decisions unused, the first `first`.
fn leftover_warning(first: &ScriptedDecision, count: usize) -> Diagnostic {
    let lines = if count == 1 {
        "1 scripted decision was".to_string()
    } else {
        format!("{count} scripted decisions were")
    };
    let d = Diagnostic::warning(
        Code::ScenarioMismatch,
        format!("the game ended before the scenario did: {lines} never asked"),
    )
    .help("remove the decisions after the end of the game, or check that the lines before them play as you meant");
    match first.span {
        Some(span) => d.label(span, "the first decision never asked"),
        None => d,
    }
}

/// Every shuffle's full outcome, top first, as a scenario states it.
pub(crate) fn shuffles_of(def: &GameDef, events: &[Event]) -> Vec<ShuffleSpec> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Shuffle { zone, order, .. } => Some(ShuffleSpec {
                zone: def.zone_name(*zone),
                top: order.iter().map(|&p| def.piece_label(p)).collect(),
                bottom: vec![],
                span: None,
            }),
            _ => None,
        })
        .collect()
}

/// Every roll, as a scenario states it: `"Die of Ann: 6"`.
pub fn rolls_of(def: &GameDef, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Roll { piece, value, .. } => Some(format!("{}: {value}", def.piece_label(*piece))),
            _ => None,
        })
        .collect()
}

/// A roll line of a record as a scenario's roll.
pub fn roll_spec(text: &str) -> RollSpec {
    RollSpec {
        text: text.to_string(),
        span: None,
    }
}

/// Resolves `"Seat: choice"` (in a race `"Seat: choice @ 420ms"`) against
/// what `seat` may choose now.
pub(crate) fn scripted_choice(
    def: &GameDef,
    decision: u16,
    seat: Seat,
    legal: &[i64],
    scripted: &ScriptedDecision,
    silence_times: bool,
) -> Result<Choice, Box<Diagnostic>> {
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
            Diagnostic::error(Code::BadScenario, format!("`{}` is not `Seat: choice`", scripted.text)).help(format!(
                "{seat_name} decides here; write e.g. `{seat_name}: {}`",
                def.choice_label(decision, legal[0])
            )),
        ));
    };
    if !who.trim().eq_ignore_ascii_case(seat_name) {
        return Err(here(
            Diagnostic::error(
                Code::BadScenario,
                format!(
                    "the game asks {seat_name} here, but the scenario answers for {}",
                    who.trim()
                ),
            )
            .help(format!("{seat_name} may choose {}", legal_labels())),
        ));
    }
    let race = def.decisions[decision as usize].race;
    let none_label = def.decisions[decision as usize].none_label.as_deref();
    let (choice, reaction_ms) = match choice.rsplit_once('@') {
        // A transcript of format 1 wrote a time after silence: dropped.
        Some((said, _)) if race && silence_times && none_label.is_some_and(|n| n.eq_ignore_ascii_case(said.trim())) => {
            (said.trim(), 0)
        }
        // Silence is no call: a time there would be ignored, so refuse it.
        Some((said, time)) if race && none_label.is_some_and(|n| n.eq_ignore_ascii_case(said.trim())) => {
            return Err(here(
                Diagnostic::error(
                    Code::BadScenario,
                    format!("`{}` is no call, so it has no reaction time", said.trim()),
                )
                .help(format!(
                    "write `{seat_name}: {}` without `@ {}`",
                    said.trim(),
                    time.trim()
                )),
            ));
        }
        Some((choice, time)) if race => {
            let digits = time.trim().trim_end_matches("ms").trim();
            match digits.parse::<u32>() {
                Ok(ms) => (choice.trim(), ms),
                Err(_) => {
                    return Err(here(
                        Diagnostic::error(Code::BadScenario, format!("`{}` is not a reaction time", time.trim()))
                            .help("write the time in milliseconds, e.g. `North: fire @ 420ms`"),
                    ));
                }
            }
        }
        // The named "no choice" (silence) needs no time.
        _ if race
            && def.decisions[decision as usize]
                .none_label
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(choice.trim())) =>
        {
            (choice.trim(), 0)
        }
        _ if race => {
            return Err(here(
                Diagnostic::error(
                    Code::BadScenario,
                    format!("{seat_name} is racing here, so the call needs a time"),
                )
                .help(format!(
                    "write e.g. `{seat_name}: {} @ 420ms`",
                    def.choice_label(decision, legal[0])
                )),
            ));
        }
        _ => (choice.trim(), 0),
    };
    let value = legal
        .iter()
        .copied()
        .find(|&v| {
            def.choice_aliases(decision, v)
                .iter()
                .any(|a| a.eq_ignore_ascii_case(choice))
        })
        .ok_or_else(|| {
            let mut d = Diagnostic::error(
                Code::IllegalAction,
                format!("{seat_name} cannot choose `{choice}` here"),
            );
            d = match &def.decisions[decision as usize].condition {
                Some(cond) => d.help(format!(
                    "a choice here must satisfy `{cond}`; the legal choices are {}",
                    legal_labels()
                )),
                None => d.help(format!("the legal choices are {}", legal_labels())),
            };
            here(d)
        })?;
    Ok(Choice {
        seat,
        value,
        reaction_ms,
    })
}
