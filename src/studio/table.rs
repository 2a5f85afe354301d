//! One game in progress in the studio: who sits at each seat (a person
//! holding a token, or an agent), the engine's state, and the screen each
//! seat is sent.
//!
//! A seat's screen is made of the engine's view for that seat (drawn by
//! [`render`](crate::render)) and the presentation model of that seat
//! ([`present`](crate::present)); nothing else of the game is sent. The
//! seed, the other seats' hidden pieces and the offers of the other seats'
//! decisions never leave this module.

use std::sync::Arc;

use serde::Serialize;

use crate::agents::{self, Agent};
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{Choice, EngineError, Event, Observation, State};
use crate::game::Game;
use crate::ir::Seat;
use crate::load::LoadedGame;
use crate::present::{self, Prompt};
use crate::session;
use crate::transcript::describe_end;

/// Who plays a seat.
pub(crate) enum Sitter {
    /// A person, who proves it is them with this token.
    Person { token: String },
    /// An agent, played by the server.
    Agent,
}

/// Stands in a person's seat among the agents, so that agents stay indexed
/// by seat for [`session::tell_agents`]. Never asked to choose.
struct Person;

impl Agent for Person {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, _def: &Game, _obs: &Observation<'_>) -> usize {
        0
    }
}

/// A game being played.
pub(crate) struct Table {
    game: Arc<LoadedGame>,
    seats: Vec<Sitter>,
    agents: Vec<Box<dyn Agent>>,
    state: State,
    events: Vec<Event>,
    /// Where each step (one decision applied) began in `events`.
    steps: Vec<usize>,
    /// The people's answers to the pending decision, per seat, until every
    /// seat asked has answered.
    answers: Vec<Option<Choice>>,
    /// How many steps were applied: a choice names the step it answers, so
    /// a late or doubled click never answers the next decision.
    turn: u64,
    /// The diagnostic that stopped the game, rendered.
    failure: Option<String>,
}

/// Why a choice was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The seat is not asked anything now, or has answered already.
    NotAsked,
    /// The choice answers an earlier decision.
    Stale,
    /// No such choice.
    NoSuchChoice,
}

/// Everything a seat's page shows. Built from the seat's view and its
/// presentation model only.
#[derive(Serialize)]
pub(crate) struct Screen {
    game: String,
    seat: String,
    turn: u64,
    svg: String,
    happened: Vec<String>,
    counters: Option<String>,
    scores: Option<String>,
    prompt: Option<PromptJson>,
    waiting_for: Vec<String>,
    over: Option<String>,
    failure: Option<String>,
}

/// A seat's own prompt: labels and the places they point at, never the
/// engine's raw values.
#[derive(Serialize)]
struct PromptJson {
    what: String,
    note: Option<&'static str>,
    race: bool,
    numbers: bool,
    offers: Vec<OfferJson>,
}

#[derive(Serialize)]
struct OfferJson {
    label: String,
    anytime: bool,
    targets: Vec<String>,
}

impl Table {
    /// Sets up a game: one sitter per seat, agents from their specs, and
    /// plays the agents' decisions until a person is asked.
    pub(crate) fn start(
        game: Arc<LoadedGame>,
        seats: Vec<(Sitter, Option<agents::AgentSpec>)>,
        seed: u64,
    ) -> Result<Table, String> {
        let def = &game.def;
        let mut agents = vec![];
        let mut sitters = vec![];
        for (s, (sitter, spec)) in seats.into_iter().enumerate() {
            agents.push(match spec {
                Some(spec) => agents::build(&spec, s as Seat, seed)?,
                None => Box::new(Person) as Box<dyn Agent>,
            });
            sitters.push(sitter);
        }
        let mut events = vec![];
        // A game that cannot even be set up is refused with its diagnostic.
        let state = State::start(def, &game.options, seed, vec![], &mut events).map_err(|d| rendered(&d, &game))?;
        let mut table = Table {
            answers: vec![None; def.players()],
            game,
            seats: sitters,
            agents,
            state,
            events,
            steps: vec![],
            turn: 0,
            failure: None,
        };
        session::tell_agents(&table.game.def, &table.events, &mut table.agents);
        table.advance();
        Ok(table)
    }

    /// The seat holding `token`, if any (compared in constant time).
    pub(crate) fn seat_of(&self, token: &str) -> Option<Seat> {
        self.seats
            .iter()
            .position(|s| match s {
                Sitter::Person { token: mine } => same(mine.as_bytes(), token.as_bytes()),
                Sitter::Agent => false,
            })
            .map(|s| s as Seat)
    }

    fn is_person(&self, seat: Seat) -> bool {
        matches!(self.seats[seat as usize], Sitter::Person { .. })
    }

    /// Whether the game ended, or stopped on an error.
    pub(crate) fn is_done(&self) -> bool {
        self.failure.is_some() || self.state.is_over()
    }

    /// `seat` answers the decision of step `turn` with its choice `index`.
    pub(crate) fn choose(&mut self, seat: Seat, turn: u64, index: usize, reaction_ms: u32) -> Result<(), Refused> {
        if turn != self.turn {
            return Err(Refused::Stale);
        }
        if self.failure.is_some() || !self.asks(seat) {
            return Err(Refused::NotAsked);
        }
        let pending = self.state.pending().ok_or(Refused::NotAsked)?;
        let value = *pending.legal(seat).get(index).ok_or(Refused::NoSuchChoice)?;
        let race = self.game.def.decisions[pending.decision() as usize].race;
        self.answers[seat as usize] = Some(Choice {
            seat,
            value,
            reaction_ms: if race { reaction_ms } else { 0 },
        });
        self.advance();
        Ok(())
    }

    /// Whether `seat` is asked now and has not answered yet.
    fn asks(&self, seat: Seat) -> bool {
        self.state
            .pending()
            .is_some_and(|p| p.who().contains(&seat) && self.answers[seat as usize].is_none())
    }

    /// Plays on: the agents answer, and every step whose people have all
    /// answered is applied, until a person must be asked or the game ends.
    fn advance(&mut self) {
        let game = Arc::clone(&self.game);
        let def = &game.def;
        while self.failure.is_none()
            && let Some(pending) = self.state.pending()
        {
            let who = pending.who();
            if who
                .iter()
                .any(|&s| self.is_person(s) && self.answers[s as usize].is_none())
            {
                return;
            }
            let decision = pending.decision();
            let choices: Vec<Choice> = who
                .iter()
                .map(|&seat| match self.answers[seat as usize].take() {
                    Some(choice) => choice,
                    None => session::agent_choice(
                        def,
                        &self.state,
                        decision,
                        seat,
                        pending.legal(seat),
                        self.agents[seat as usize].as_mut(),
                    ),
                })
                .collect();
            let before = self.events.len();
            match self.state.apply(def, &choices, &mut self.events) {
                Ok(()) => {
                    session::tell_agents(def, &self.events[before..], &mut self.agents);
                    self.steps.push(before);
                    self.turn += 1;
                }
                Err(e) => {
                    let d = match e {
                        EngineError::Runtime(d) => *d,
                        EngineError::Illegal(i) => Diagnostic::error(Code::IllegalAction, i.to_string()),
                    };
                    self.failure = Some(rendered(&d, &game));
                }
            }
        }
    }

    /// What `seat`'s page shows now.
    pub(crate) fn screen(&self, seat: Seat) -> Screen {
        let def = &self.game.def;
        let state = &self.state;
        let view = state.view(def, seat);
        let over = state.outcome().map(|o| match o.winner {
            Some(w) if w == seat => format!("you win! ({})", describe_end(def, o.winner, &o.reason)),
            None => describe_end(def, o.winner, &o.reason),
            Some(_) => format!("you lose: {}", describe_end(def, o.winner, &o.reason)),
        });
        let decisions = match state.decisions() {
            1 => "1 decision".to_string(),
            n => format!("{n} decisions"),
        };
        let caption = vec![format!("As {} sees it · after {decisions}", def.seat_name(seat))];
        let frame = crate::render::Frame {
            viewer: Some(seat),
            caption: &caption,
        };
        let svg = crate::render::clickable_svg(def, &view, &frame);
        let asked = self.failure.is_none() && self.asks(seat);
        let prompt = asked.then(|| {
            let p = Prompt::new(def, state, seat);
            PromptJson {
                what: p.what,
                note: p.note,
                race: p.race,
                numbers: p.numbers,
                offers: p
                    .offers
                    .into_iter()
                    .map(|o| OfferJson {
                        label: o.label,
                        anytime: o.anytime,
                        targets: o.places.iter().map(|p| p.target()).collect(),
                    })
                    .collect(),
            }
        });
        // The score so far, as the seat can know it, at its own decisions
        // (it samples worlds from the seat's observation).
        let scores = asked
            .then(|| present::scores_now(def, &Observation::new(def, state, seat)))
            .flatten();
        let waiting_for = match state.pending() {
            Some(p) if self.failure.is_none() => p
                .who()
                .iter()
                .filter(|&&s| self.answers[s as usize].is_none())
                .map(|&s| def.seat_name(s).to_string())
                .collect(),
            _ => vec![],
        };
        Screen {
            game: def.name.clone(),
            seat: def.seat_name(seat).to_string(),
            turn: self.turn,
            svg,
            happened: present::seen_lines(def, &self.events, &self.steps, 0, seat),
            counters: present::variables(def, &view),
            scores,
            prompt,
            waiting_for,
            over,
            failure: self.failure.clone(),
        }
    }
}

/// A diagnostic as the terminal prints it, without colour.
fn rendered(d: &Diagnostic, game: &LoadedGame) -> String {
    crate::diagnostic::render(std::slice::from_ref(d), &game.def.sources, false)
}

/// Whether two tokens are equal, in time that does not depend on where
/// they differ.
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
