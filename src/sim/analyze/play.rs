//! Plays one game for `analyze`, keeping what the report needs: who won,
//! each seat's total after every decision point (for tension), and every
//! choice made with what was offered (for the choice table).

use crate::agents::spec::AgentSpec;
use crate::agents::{self, Agent};
use crate::engine::Game;
use crate::engine::{Choice, EndReason, EngineError, Event, State};
use crate::ir::{OptionValue, ValueKind, VarEach};
use crate::session;

/// One choice a seat made.
#[derive(Clone, Debug)]
pub(crate) struct Pick {
    pub seat: usize,
    pub decision: u16,
    /// The values it could choose.
    pub offered: Vec<i64>,
    /// The value it chose.
    pub taken: i64,
}

/// One game as `analyze` keeps it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Played {
    /// The winning seat; `None` for a draw or a game stopped by an error.
    pub winner: Option<usize>,
    /// Stopped by a runtime error (counted, never a win).
    pub stopped: bool,
    /// What stopped it, when an error did: `rpsdsl::code: message`.
    pub error: Option<String>,
    /// Each seat's total after every decision point: its score, or where
    /// the game has no score terms its first running lead
    /// ([`GameDef::leads`](crate::ir::GameDef::leads)); empty for a game
    /// with neither.
    pub standings: Vec<Vec<i64>>,
    /// Every choice, in order.
    pub picks: Vec<Pick>,
    /// Decision points played.
    pub steps: u64,
    /// Under restricted play: decisions at which the restricted seat was
    /// kept from a choice it was offered.
    pub restricted: u64,
    /// The process's deadline (`--time`) passed before the game ended: it
    /// is no game, and whoever played it discards it.
    pub cut_short: bool,
    /// Per counter of [`counters`], every seat's value at the end, summed
    /// (empty for a game that did not end).
    pub counters: Vec<i64>,
    /// Times each effect of the rules fired: each trigger (by index), then
    /// each `say` line (by index), as [`effect_labels`] names them.
    pub effects: Vec<u32>,
    /// Why the game ended, once it has.
    pub end: Option<EndReason>,
}

/// The lead a game without score terms is measured in: the first that its
/// rules decide the winner by (`GameDef::leads`), by name. `None` for a
/// game with score terms (measured in points) or with no such lead.
pub(crate) fn running_lead(def: &Game) -> Option<&(String, crate::ir::RunningLead)> {
    def.leads.first().filter(|_| def.score_terms.is_empty())
}

/// The effects [`Played::effects`] counts, named: `trigger NAME` for each
/// trigger, then `say "..."` for each `say` line.
pub(crate) fn effect_labels(def: &Game) -> Vec<String> {
    let triggers = def.triggers.iter().map(|t| format!("trigger {}", t.name));
    let says = def.says.iter().map(|line| {
        let words = line.template(|_| "{..}".into());
        match line.opens_phase {
            true => format!("phase {words}"),
            false => format!("say \"{words}\""),
        }
    });
    triggers.chain(says).collect()
}

/// Counts the effects among `events` into `effects` (see [`Played::effects`]).
fn count_effects(def: &Game, events: &[Event], effects: &mut [u32]) {
    for event in events {
        let slot = match *event {
            Event::Trigger { trigger } => usize::from(trigger),
            Event::Said { line, .. } => def.triggers.len() + usize::from(line),
            _ => continue,
        };
        if let Some(count) = effects.get_mut(slot) {
            *count += 1;
        }
    }
}

/// The game's counters: its per-player numeric variables, by name and
/// first slot. Summed over the seats at a game's end, each is a length in
/// the game's own units: the tricks taken, the tokens won, the rounds.
pub(crate) fn counters(def: &Game) -> Vec<(String, usize)> {
    counter_vars(def).map(|v| (v.name.clone(), v.slot as usize)).collect()
}

/// The variables [`counters`] names, in order.
fn counter_vars(def: &Game) -> impl Iterator<Item = &crate::ir::VarDef> {
    def.vars
        .iter()
        .filter(|v| v.each == VarEach::Player && !v.constant && v.shows == ValueKind::Number)
}

/// Restricted play: one seat may not take the choices `forbids` names
/// (by decision and value) whenever it has another.
pub(crate) struct Restriction<'r> {
    pub seat: usize,
    pub forbids: &'r (dyn Fn(u16, i64) -> bool + Sync),
}

/// Plays one game on `seed` with `specs[s]` at seat `s`.
pub(crate) fn play(def: &Game, options: &[OptionValue], seed: u64, specs: &[AgentSpec]) -> Played {
    play_restricted(def, options, seed, specs, None).expect("an unrestricted game always plays")
}

/// [`play`], with one seat's choices restricted; an error when that seat's
/// player cannot be restricted.
pub(crate) fn play_restricted(
    def: &Game,
    options: &[OptionValue],
    seed: u64,
    specs: &[AgentSpec],
    restriction: Option<&Restriction<'_>>,
) -> Result<Played, String> {
    let mut agents: Vec<Box<dyn Agent>> = specs
        .iter()
        .enumerate()
        .map(|(seat, spec)| {
            agents::build(spec, Some((def, options)), seat as u8, seed).expect("the specs were checked")
        })
        .collect();
    let mut played = Played {
        effects: vec![0; def.triggers.len() + def.says.len()],
        ..Played::default()
    };
    let mut events = vec![];
    let mut state = match State::start(def, options, seed, vec![], &mut events) {
        Ok(state) => state,
        Err(diagnostic) => {
            played.stopped = true;
            played.error = Some(format!("rpsdsl::{}: {}", diagnostic.code.as_str(), diagnostic.message));
            return Ok(played);
        }
    };
    count_effects(def, &events, &mut played.effects);
    let scored = !def.score_terms.is_empty();
    let mut choices: Vec<Choice> = vec![];
    let mut scratch = vec![];
    while let Some(pending) = state.pending() {
        // A game whose players stall (or that runs long) cannot outlast
        // the command's time.
        if crate::budget::expired() {
            played.cut_short = true;
            return Ok(played);
        }
        let decision = pending.decision();
        choices.clear();
        for &seat in pending.who() {
            let legal = pending.legal(seat);
            let agent = agents[seat as usize].as_mut();
            let allowed: Option<Vec<bool>> = restriction
                .filter(|r| r.seat == seat as usize)
                .map(|r| legal.iter().map(|&v| !(r.forbids)(decision, v)).collect())
                .filter(|allowed: &Vec<bool>| allowed.contains(&false) && allowed.contains(&true));
            let choice = match allowed {
                Some(allowed) => {
                    played.restricted += 1;
                    session::agent_choice_allowed(def, &state, (decision, seat), legal, &allowed, agent)
                        .ok_or_else(|| format!("`{}` cannot be kept from a choice", agent.name()))?
                }
                None => session::agent_choice(def, &state, decision, seat, legal, agent),
            };
            played.picks.push(Pick {
                seat: seat as usize,
                decision,
                offered: legal.to_vec(),
                taken: choice.value,
            });
            choices.push(choice);
        }
        events.clear();
        played.steps += 1;
        session::tell_choices(def, &state, &choices, &mut agents);
        let applied = state.apply(def, &choices, &mut events);
        count_effects(def, &events, &mut played.effects);
        session::tell_agents(def, &events, &mut agents);
        if let Err(error) = applied {
            played.stopped = true;
            played.error = Some(match error {
                EngineError::Runtime(diagnostic) => {
                    format!("rpsdsl::{}: {}", diagnostic.code.as_str(), diagnostic.message)
                }
                EngineError::Illegal(illegal) => format!("an agent's choice was refused: {illegal}"),
            });
            return Ok(played);
        }
        if scored {
            scratch.clear();
            // Scoring runs the score terms on a copy, so the game itself is untouched.
            match state.clone().score_now(def, &mut scratch) {
                Ok(scores) => played
                    .standings
                    .push(scores.iter().map(|terms| def.points(terms)).collect()),
                Err(_) => played.standings.clear(),
            }
        } else if let Some(&(_, lead)) = running_lead(def) {
            // Without score terms, the lead a winning condition reads.
            played.standings.push(
                (0..def.players())
                    .map(|s| state.running_lead(def, lead, s as u8))
                    .collect(),
            );
        }
    }
    played.winner = state.outcome().and_then(|o| o.winner).map(|seat| seat as usize);
    played.end = state.outcome().map(|o| o.reason.clone());
    if state.is_over() {
        let seats = def.players();
        // At every game's end: the slots only, no names.
        played.counters = counter_vars(def)
            .map(|v| (0..seats).map(|s| state.var_value(v.slot as usize + s)).sum())
            .collect();
    }
    Ok(played)
}

/// Games a study played, and those an error stopped: a verdict or a sweep
/// counts such a game as no one's win, and says so.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stops {
    /// Games played.
    pub games: u64,
    /// Of them, stopped by an error.
    pub stopped: u64,
    /// The first error met, in deal order: `rpsdsl::code: message`.
    pub first: Option<String>,
}

impl Stops {
    /// Counts one game.
    pub(crate) fn count(&mut self, played: &Played) {
        self.games += 1;
        if let Some(error) = &played.error {
            self.stopped += 1;
            self.first.get_or_insert_with(|| error.clone());
        }
    }

    /// Adds the games of `later` (played after these).
    pub(crate) fn add(&mut self, later: &Stops) {
        self.games += later.games;
        self.stopped += later.stopped;
        if self.first.is_none() {
            self.first.clone_from(&later.first);
        }
    }

    /// The sentence a report prints when any game of `what` stopped.
    pub fn caution(&self, what: &str) -> Option<String> {
        let first = self.first.as_deref().filter(|_| self.stopped > 0)?;
        Some(format!(
            "{} of {} games of {what} stopped on an error, and count as no one's win: {first} \
             (`rpsdsl simulate` with the same options shows where)",
            self.stopped, self.games
        ))
    }
}
