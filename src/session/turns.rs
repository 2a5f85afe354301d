//! The one turn loop: a game moved step by step, each asked seat answered
//! by whoever the caller says (a scenario's line, a person, an agent), the
//! step applied, the agents told. `play_until` (scripts and agents, for
//! `run`, `simulate` and transcripts), the terminal's `play` and the
//! studio's tables all move their games through [`Turns::play`]; the fast
//! loops of `sim` and `solve` share its steps ([`agent_choice`],
//! [`tell_choices`], [`tell_agents`]).

use super::steps::{agent_choice, decision_line, tell_agents, tell_choices};
use crate::agents::Agent;
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{Choice, EngineError, Event, Game, State};
use crate::ir::Seat;

/// A game in play and everything it has done.
pub struct Turns {
    /// The position now.
    pub state: State,
    /// Every event so far, the setting up included.
    pub events: Vec<Event>,
    /// Where each step (one decision applied) began in `events`.
    pub steps: Vec<usize>,
    /// Every decision taken, `"Seat: choice"`: a scenario that replays the game.
    pub decisions: Vec<String>,
    /// The choice behind each line of `decisions`.
    pub applied: Vec<Choice>,
    /// How many of `decisions` came before each step.
    pub decided: Vec<usize>,
    /// The positions kept for time travel, when asked ([`Turns::past`]).
    past: Option<Vec<State>>,
}

/// One seat asked at one step, as [`Turns::play`] hands it to the caller.
pub struct Asked<'a> {
    /// The game so far: its position, events and decisions.
    pub turns: &'a Turns,
    /// The decision asked.
    pub decision: u16,
    /// Every seat asked at this step, in order.
    pub who: &'a [Seat],
    /// The seat answering now.
    pub seat: Seat,
    /// What it may choose.
    pub legal: &'a [i64],
}

/// Who answers the seats of a game [`Turns::play`] moves (a script, a
/// person, the agents), and what is done after each step. A closure
/// `|asked, agents| -> Answer` is one, doing nothing after a step.
pub trait Seats {
    /// Why the caller may stop the game.
    type Stop;

    /// The answer of `asked.seat` (the agents are there to ask, or to tell).
    fn answer(&mut self, asked: &Asked<'_>, agents: &mut [Box<dyn Agent>]) -> Answer<Self::Stop>;

    /// Called after each step is applied and the agents told.
    fn stepped(&mut self, _turns: &Turns) -> Result<(), Self::Stop> {
        Ok(())
    }
}

impl<E, F> Seats for F
where
    F: FnMut(&Asked<'_>, &mut [Box<dyn Agent>]) -> Answer<E>,
{
    type Stop = E;

    fn answer(&mut self, asked: &Asked<'_>, agents: &mut [Box<dyn Agent>]) -> Answer<E> {
        self(asked, agents)
    }
}

/// Where a seat's choice comes from, as the caller of [`Turns::play`] says.
pub enum Answer<E> {
    /// This choice.
    Choice(Choice),
    /// The seat's agent decides, from its seat's view.
    Agent,
    /// Not yet: the loop returns, to go on once it is there. Say it at a
    /// step's first seat, before any other seat is asked.
    Wait,
    /// The game stops here, for this reason.
    Stop(E),
}

/// Why [`Turns::play`] returned.
#[derive(Debug)]
pub enum Paused<E> {
    /// The game is over.
    Over,
    /// A seat's answer is not there yet ([`Answer::Wait`]).
    Waiting,
    /// The caller stopped the game ([`Answer::Stop`], or its `after`).
    Stopped(E),
    /// The rules failed at a step (a runtime error, or an illegal choice,
    /// which leaves the position as it was): the step is not recorded, and
    /// its choices are handed back, so that a record can say what was tried.
    Failed {
        /// What went wrong.
        diagnostic: Box<Diagnostic>,
        /// The decision asked.
        decision: u16,
        /// The choices the rules refused.
        choices: Vec<Choice>,
    },
}

impl Turns {
    /// A game set up in `state`, which produced `events`.
    pub fn new(state: State, events: Vec<Event>) -> Turns {
        Turns {
            state,
            events,
            steps: vec![],
            decisions: vec![],
            applied: vec![],
            decided: vec![],
            past: None,
        }
    }

    /// Keeps the position after every step, for time travel.
    pub fn keeping_the_past(mut self) -> Turns {
        self.past = Some(vec![]);
        self
    }

    /// The position after each step before the last (`past()[k]` after
    /// `k` steps); none unless [`Turns::keeping_the_past`].
    pub fn past(&self) -> &[State] {
        self.past.as_deref().unwrap_or_default()
    }

    /// Plays on until the game ends or `seats` waits or stops it: for each
    /// step, each seat asked is answered by `seats` (an agent where it says
    /// [`Answer::Agent`]); the step is applied and every agent told; then
    /// `seats` sees the game ([`Seats::stepped`]), and may stop it too. A
    /// step the rules refuse ends the loop ([`Paused::Failed`]), unrecorded.
    pub fn play<S: Seats>(&mut self, def: &Game, agents: &mut [Box<dyn Agent>], seats: &mut S) -> Paused<S::Stop> {
        while let Some(pending) = self.state.pending() {
            let decision = pending.decision();
            let who = pending.who();
            let mut choices = Vec::with_capacity(who.len());
            for &seat in who {
                let legal = pending.legal(seat);
                let asked = Asked {
                    turns: self,
                    decision,
                    who,
                    seat,
                    legal,
                };
                match seats.answer(&asked, agents) {
                    Answer::Choice(choice) => choices.push(choice),
                    Answer::Agent => choices.push(agent_choice(
                        def,
                        &self.state,
                        decision,
                        seat,
                        legal,
                        agents[seat as usize].as_mut(),
                    )),
                    Answer::Wait => return Paused::Waiting,
                    Answer::Stop(why) => return Paused::Stopped(why),
                }
            }
            if let Err((diagnostic, choices)) = self.apply(def, decision, choices, agents) {
                return Paused::Failed {
                    diagnostic,
                    decision,
                    choices,
                };
            }
            if let Err(why) = seats.stepped(self) {
                return Paused::Stopped(why);
            }
        }
        Paused::Over
    }

    /// Applies one step, `choices` being every asked seat's, and tells the
    /// agents; a refused step is not recorded.
    fn apply(
        &mut self,
        def: &Game,
        decision: u16,
        choices: Vec<Choice>,
        agents: &mut [Box<dyn Agent>],
    ) -> Result<(), (Box<Diagnostic>, Vec<Choice>)> {
        let before = self.events.len();
        let prior = self.past.is_some().then(|| self.state.clone());
        tell_choices(def, &self.state, &choices, agents);
        match self.state.apply(def, &choices, &mut self.events) {
            Ok(()) => {
                tell_agents(def, &self.events[before..], agents);
                if let (Some(past), Some(prior)) = (self.past.as_mut(), prior) {
                    past.push(prior);
                }
                self.steps.push(before);
                self.decided.push(self.decisions.len());
                self.decisions
                    .extend(choices.iter().map(|c| decision_line(def, decision, c)));
                self.applied.extend(choices);
                Ok(())
            }
            Err(EngineError::Runtime(d)) => Err((d, choices)),
            Err(EngineError::Illegal(illegal)) => Err((
                Box::new(Diagnostic::error(Code::IllegalAction, illegal.to_string())),
                choices,
            )),
        }
    }
}
