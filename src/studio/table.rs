//! One game in progress in the studio: who sits at each seat (a person
//! holding a token, or an agent), the engine's state, and the screen each
//! seat is sent.
//!
//! A seat's screen is made of the engine's view for that seat (drawn by
//! [`render`](crate::render)) and the presentation model of that seat
//! ([`present`](crate::present)); nothing else of the game is sent. The
//! seed, the other seats' hidden pieces and the offers of the other seats'
//! decisions never leave this module, except in the whole transcript
//! ([`Table::transcript`]), which the routes hand only to the studio's key.
//!
//! Time travel: the state after every step is kept, so a seat can look at
//! any earlier point, again through the engine's view for that seat then.
//! A fork is a new table whose scenario is the moves so far: the shuffles
//! and rolls that happened up to that point, and the decisions taken.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::store::{KeptAnswer, KeptDecision, KeptGame, Progress};
use crate::agents::{self, Agent};
use crate::diagnostic::Diagnostic;
use crate::engine::Game;
use crate::engine::{Chance, Choice, Event, Observation, State};
use crate::ir::Seat;
use crate::load::LoadedGame;
use crate::present::{self, Input, Prompt};
use crate::scenario::{Scenario, ScriptedDecision, ShuffleSpec};
use crate::session::{self, Asked, Paused, Record, Seats, Turns};
use crate::transcript::{Header, Transcript, Viewer, describe_end, render_events};

/// Who sits at a seat: a person, an agent, or a person whose seat an
/// agent plays for now (handed over by the studio's key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Sitter {
    /// The SHA-256 of the person's token: the token itself is never kept.
    pub person: Option<[u8; 32]>,
    /// The agent that plays the seat now, if any.
    pub agent: Option<agents::AgentSpec>,
}

impl Sitter {
    /// Whether a person plays the seat now (no agent does).
    pub(crate) fn is_person(&self) -> bool {
        self.agent.is_none()
    }

    /// A person's seat, proved by the token whose hash this is.
    pub(crate) fn person(token_hash: [u8; 32]) -> Sitter {
        Sitter {
            person: Some(token_hash),
            agent: None,
        }
    }

    /// An agent's seat.
    pub(crate) fn agent(spec: agents::AgentSpec) -> Sitter {
        Sitter {
            person: None,
            agent: Some(spec),
        }
    }
}

/// The SHA-256 of a token, as a seat keeps it.
pub(crate) fn token_hash(token: &str) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(token.as_bytes()).into()
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
    /// The file played, as the studio's folder names it (a transcript's `rules`).
    rules: String,
    /// The seed: only ever written into the whole transcript.
    seed: u64,
    seats: Vec<Sitter>,
    agents: Vec<Box<dyn Agent>>,
    /// The game, its events and decisions, and the position after each
    /// step (time travel), moved by the one turn loop.
    turns: Turns,
    /// Decisions still to be played from the scenario the table started
    /// with (a fork's, or a loaded transcript's).
    script: VecDeque<ScriptedDecision>,
    /// The scenario wrote a time after a silence in a race (an old transcript).
    silence_times: bool,
    /// The scenario fixed shuffles or rolls: the seed alone does not deal them.
    shuffles_fixed: bool,
    /// How many of the first decisions came from the scenario the table
    /// started with (its agents were not asked those).
    scripted: usize,
    /// While playing a kept game again, the agents are asked their
    /// decisions past the first `ask_agents_from` too (and the kept choice
    /// is taken), so that they stand where they stood: an agent draws from
    /// its own random stream.
    ask_agents_from: usize,
    /// Counts every change a seat's page could see.
    revision: u64,
    /// The people's answers to the pending decision, per seat, until every
    /// seat asked has answered.
    answers: Vec<Option<Choice>>,
    /// How many steps were applied: a choice names the step it answers, so
    /// a late or doubled click never answers the next decision.
    turn: u64,
    /// The diagnostic that stopped the game, rendered.
    failure: Option<String>,
    /// When each seat's page was first sent the pending step's prompt
    /// (the step and the instant): the start of its race clock.
    prompted: Vec<Option<(u64, Instant)>>,
    /// When the pending step began: a seat that answers without having
    /// fetched its prompt is timed from here.
    step_began: Instant,
}

/// How much of a race answer's time, measured by the server from the
/// prompt sent to the answer received, is taken for the network (there
/// and back): the page's own measure is believed only within this much
/// below the server's. See docs/studio.md, "Races".
pub(crate) const NETWORK_ALLOWANCE_MS: u64 = 150;

/// Who answers the seats of a studio game at one call of
/// [`Table::advance`]: the scenario's lines first, then the people's
/// answers (a step waits until every person asked has answered), then the
/// agents, each under the studio's bound on thinking.
struct Answering<'t> {
    game: &'t LoadedGame,
    seats: &'t [Sitter],
    answers: &'t mut [Option<Choice>],
    script: &'t mut VecDeque<ScriptedDecision>,
    silence_times: bool,
    ask_agents_from: usize,
    turn: &'t mut u64,
    step_began: &'t mut Instant,
}

impl Answering<'_> {
    fn is_person(&self, seat: Seat) -> bool {
        self.seats[seat as usize].is_person()
    }

    /// The seat's agent's choice, under the studio's bound on thinking.
    fn agent(asked: &Asked<'_>, def: &crate::engine::Game, agents: &mut [Box<dyn Agent>]) -> Result<Choice, String> {
        super::host::thinking(|| {
            session::agent_choice(
                def,
                &asked.turns.state,
                asked.decision,
                asked.seat,
                asked.legal,
                agents[asked.seat as usize].as_mut(),
            )
        })
    }
}

impl Seats for Answering<'_> {
    type Stop = String;

    fn answer(&mut self, asked: &Asked<'_>, agents: &mut [Box<dyn Agent>]) -> session::Answer<String> {
        let def = &self.game.def;
        let first = asked.seat == asked.who[0];
        // A scenario cut inside a step of several seats ends before it.
        if first && self.script.len() < asked.who.len() {
            self.script.clear();
        }
        if self.script.is_empty() {
            // One choice and no clock: nothing for a person to decide, so
            // it is taken for them (as `rpsdsl play` does), and shows under
            // what happened.
            let race = def.decisions[asked.decision as usize].race;
            let pending = asked.turns.state.pending();
            let forced = |s: Seat| !race && pending.as_ref().is_some_and(|p| p.legal(s).len() == 1);
            let waits = |s: Seat| self.is_person(s) && self.answers[s as usize].is_none() && !forced(s);
            if first && asked.who.iter().any(|&s| waits(s)) {
                return session::Answer::Wait;
            }
            return match self.answers[asked.seat as usize].take() {
                Some(choice) => session::Answer::Choice(choice),
                None if self.is_person(asked.seat) && forced(asked.seat) => {
                    session::Answer::Choice(Choice::new(asked.seat, asked.legal[0]))
                }
                None => match Answering::agent(asked, def, agents) {
                    Ok(choice) => session::Answer::Choice(choice),
                    Err(why) => session::Answer::Stop(why),
                },
            };
        }
        let line = self.script.pop_front().expect("as many lines as seats asked");
        if asked.turns.decisions.len() >= self.ask_agents_from && !self.is_person(asked.seat) {
            // Asked only to draw what it drew the first time.
            if let Err(why) = Answering::agent(asked, def, agents) {
                return session::Answer::Stop(why);
            }
        }
        match session::scripted_choice(def, asked.decision, asked.seat, asked.legal, &line, self.silence_times) {
            Ok(choice) => session::Answer::Choice(choice),
            Err(d) => session::Answer::Stop(rendered(&d, self.game)),
        }
    }

    fn stepped(&mut self, _: &Turns) -> Result<(), String> {
        *self.turn += 1;
        *self.step_began = Instant::now();
        Ok(())
    }
}

/// What a seat may take back.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TakeBack {
    /// Its answer to the decision that still waits for other seats.
    Answer,
    /// Its decision at this step, the last one applied.
    Step(u64),
}

/// Why a seat may not take back its last decision (BGA's policy).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum NoTakeBack {
    /// It has decided nothing yet, or the game is over.
    Nothing,
    /// Another seat acted after it (or with it, in one step).
    OthersActed,
    /// Something was revealed since: a seat knows a piece it did not.
    Revealed,
    /// A chance outcome was drawn since: a shuffle or a roll.
    ChanceDrawn,
}

impl NoTakeBack {
    /// The reason, as the page says it.
    pub(crate) fn why(&self) -> &'static str {
        match self {
            NoTakeBack::Nothing => "you have no decision to take back",
            NoTakeBack::OthersActed => "another seat has acted since",
            NoTakeBack::Revealed => "something was revealed since",
            NoTakeBack::ChanceDrawn => "a chance outcome was drawn since",
        }
    }
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
    /// Steps played so far.
    turn: u64,
    /// The step this screen shows: `turn`, or an earlier one when looking back.
    at: u64,
    svg: String,
    happened: Vec<String>,
    counters: Option<String>,
    scores: Option<String>,
    prompt: Option<PromptJson>,
    waiting_for: Vec<String>,
    over: Option<String>,
    failure: Option<String>,
    /// A file the game began with reads otherwise now: the game plays on
    /// with the rules it began with.
    pub rules_edited: bool,
    /// Whether the seat may take back its last decision, and if not, why
    /// (`None` when it has nothing to take back).
    take_back: Option<TakeBackJson>,
}

#[derive(Serialize)]
struct TakeBackJson {
    allowed: bool,
    why: Option<&'static str>,
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
    /// Sets up a game: one sitter per seat, agents from their specs; plays
    /// the scenario's decisions (a fork's, a loaded transcript's), then the
    /// agents' decisions until a person is asked. `rules` names the file
    /// from the studio's folder.
    pub(crate) fn start(
        game: Arc<LoadedGame>,
        rules: String,
        seats: Vec<Sitter>,
        seed: u64,
        scenario: &Scenario,
    ) -> Result<Table, String> {
        Table::set_up(game, rules, seats, seed, scenario, usize::MAX)
    }

    /// A kept game, played again to where it stood: its chance outcomes
    /// and decisions as kept, its agents asked as they were, then the
    /// answers that wait for other seats.
    pub(crate) fn resume(
        game: Arc<LoadedGame>,
        rules: String,
        seats: Vec<Sitter>,
        kept: &KeptGame,
    ) -> Result<Table, String> {
        let chance: KeptChance =
            serde_json::from_str(&kept.chance).map_err(|e| format!("its chance outcomes are damaged: {e}"))?;
        let scenario = Scenario {
            seed: Some(kept.seed),
            shuffles: chance
                .shuffles
                .into_iter()
                .map(|(zone, top)| ShuffleSpec {
                    zone,
                    top,
                    bottom: vec![],
                    span: None,
                })
                .collect(),
            rolls: chance.rolls.iter().map(|r| session::roll_spec(r)).collect(),
            decisions: kept
                .decisions
                .iter()
                .map(|d| ScriptedDecision {
                    text: d.choice.clone(),
                    span: None,
                })
                .collect(),
            ..Scenario::default()
        };
        let mut table = Table::set_up(game, rules, seats, kept.seed, &scenario, kept.scripted as usize)?;
        if let Some(failure) = &table.failure
            && table.turns.decisions.len() < kept.decisions.len()
        {
            return Err(failure.clone());
        }
        table.shuffles_fixed = kept.chance_fixed;
        table.scripted = kept.scripted as usize;
        for answer in &kept.answers {
            // An answer to a step that is no longer asked was overtaken.
            if let Ok(seat) = Seat::try_from(answer.seat) {
                let _ = table.choose(seat, answer.step, answer.choice as usize, answer.reaction_ms);
            }
        }
        table.revision = kept.revision;
        Ok(table)
    }

    fn set_up(
        game: Arc<LoadedGame>,
        rules: String,
        seats: Vec<Sitter>,
        seed: u64,
        scenario: &Scenario,
        ask_agents_from: usize,
    ) -> Result<Table, String> {
        let def = &game.def;
        let mut agents = vec![];
        for (s, sitter) in seats.iter().enumerate() {
            agents.push(match &sitter.agent {
                Some(spec) => {
                    super::host::thinking(|| agents::build(spec, Some((def, &game.options)), s as Seat, seed))??
                }
                None => Box::new(Person) as Box<dyn Agent>,
            });
        }
        let mut events = vec![];
        // A game that cannot even be set up is refused with its diagnostic.
        let forced = scenario.forced_shuffles(def).map_err(|d| rendered_all(&d, &game))?;
        let rolls = scenario.forced_rolls(def).map_err(|d| rendered_all(&d, &game))?;
        let mut state = State::new(def, &game.options, Chance::seeded(seed), forced);
        state.force_rolls(rolls);
        state.set_up(def, &mut events).map_err(|d| rendered(&d, &game))?;
        let seat_count = game.def.players();
        let mut table = Table {
            answers: vec![None; def.players()],
            rules,
            seed,
            seats,
            agents,
            turns: Turns::new(state, events).keeping_the_past(),
            script: scenario.decisions.iter().cloned().collect(),
            silence_times: scenario.silence_times,
            shuffles_fixed: !scenario.shuffles.is_empty() || !scenario.rolls.is_empty(),
            scripted: 0,
            ask_agents_from,
            revision: 0,
            game,
            turn: 0,
            failure: None,
            prompted: vec![None; seat_count],
            step_began: Instant::now(),
        };
        session::tell_agents(&table.game.def, &table.turns.events, &mut table.agents);
        table.advance();
        // A scenario that does not fit the rules is refused, not played:
        // the game stopped before every scripted decision was taken.
        if let Some(failure) = &table.failure
            && table.turns.decisions.len() < scenario.decisions.len()
        {
            return Err(failure.clone());
        }
        table.scripted = scenario.decisions.len().min(table.turns.decisions.len());
        Ok(table)
    }

    /// A new game whose scenario is this one's moves up to step `at`: the
    /// shuffles and rolls that happened by then, and the decisions taken;
    /// from there the new seed deals, and the new seats play on.
    pub(crate) fn fork(&self, at: u64, seats: Vec<Sitter>, seed: u64) -> Result<Table, String> {
        let def = &self.game.def;
        let at = at.min(self.turn) as usize;
        let (events, _) = self.events_at(at);
        let lines = self
            .turns
            .decided
            .get(at)
            .copied()
            .unwrap_or(self.turns.decisions.len());
        let scenario = Scenario {
            seed: Some(seed),
            shuffles: session::shuffles_of(def, events),
            rolls: session::rolls_of(def, events)
                .iter()
                .map(|r| session::roll_spec(r))
                .collect(),
            decisions: self.turns.decisions[..lines]
                .iter()
                .map(|d| ScriptedDecision {
                    text: d.clone(),
                    span: None,
                })
                .collect(),
            ..Scenario::default()
        };
        Table::start(Arc::clone(&self.game), self.rules.clone(), seats, seed, &scenario)
    }

    /// Who sits at each seat.
    pub(crate) fn sitters(&self) -> &[Sitter] {
        &self.seats
    }

    /// Who sits where, as a new game of the same seats is seated: `None`
    /// for each person's seat (even one an agent plays for now), the
    /// agent's spec for an agent's own seat.
    pub(crate) fn layout(&self) -> Vec<Option<agents::AgentSpec>> {
        self.seats
            .iter()
            .map(|s| if s.person.is_some() { None } else { s.agent.clone() })
            .collect()
    }

    /// The game played, as loaded.
    pub(crate) fn game(&self) -> &Arc<LoadedGame> {
        &self.game
    }

    /// The file played, as the studio's folder names it.
    pub(crate) fn rules(&self) -> &str {
        &self.rules
    }

    /// Steps played so far.
    pub(crate) fn turn(&self) -> u64 {
        self.turn
    }

    /// Counts every change a seat's page could see.
    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    /// Counts a change made other than by a choice (agents playing on
    /// after the game was played again).
    pub(crate) fn changed(&mut self) {
        self.revision += 1;
    }

    /// The events up to step `at` and where each of those steps began.
    fn events_at(&self, at: usize) -> (&[Event], &[usize]) {
        let end = self.turns.steps.get(at).copied().unwrap_or(self.turns.events.len());
        (
            &self.turns.events[..end],
            &self.turns.steps[..at.min(self.turns.steps.len())],
        )
    }

    /// The whole game as `rpsdsl run --json` writes it, seen by `viewer`:
    /// with [`Viewer::All`] it holds the seed and every face, and replays.
    pub(crate) fn transcript(&self, viewer: Viewer) -> Transcript {
        let def = &self.game.def;
        let record = Record {
            events: self.turns.events.clone(),
            outcome: self.turns.state.outcome().cloned(),
            scores: self.turns.state.scores().to_vec(),
            decisions: self.turns.decisions.clone(),
            shuffles: session::shuffles_of(def, &self.turns.events),
            rolls: session::rolls_of(def, &self.turns.events),
            shuffles_fixed: self.shuffles_fixed,
            warnings: vec![],
        };
        let header = Header {
            rules: &self.rules,
            about: Some(&self.game.description),
            seed: self.seed,
            options: crate::load::changed_options(def, &self.game.options),
            agents: self.agents.iter().map(|a| a.name()).collect(),
        };
        Transcript::new(def, header, &record, viewer)
    }

    /// Whether the game is over and every seat saw every event as the full
    /// view tells it: then the whole transcript tells nobody anything new.
    pub(crate) fn nothing_hidden(&self) -> bool {
        let def = &self.game.def;
        let all = render_events(def, &self.turns.events, Viewer::All);
        self.turns.state.is_over()
            && (0..def.players()).all(|s| render_events(def, &self.turns.events, Viewer::Seat(s as Seat)) == all)
    }

    /// The person's seat whose token is `token`, if any (its hash
    /// compared in constant time).
    pub(crate) fn seat_of(&self, token: &str) -> Option<Seat> {
        let hash = token_hash(token);
        self.seats
            .iter()
            .position(|s| s.person.is_some_and(|mine| same(&mine, &hash)))
            .map(|s| s as Seat)
    }

    /// The game's definition.
    pub(crate) fn def(&self) -> &crate::ir::GameDef {
        &self.game.def
    }

    /// Whether a person plays `seat` now (no agent plays it for them).
    fn is_person(&self, seat: Seat) -> bool {
        self.seats[seat as usize].is_person()
    }

    /// Whether the game ended, or stopped on an error.
    pub(crate) fn is_done(&self) -> bool {
        self.failure.is_some() || self.turns.state.is_over()
    }

    /// Notes that `seat`'s page is being sent the pending prompt: a race's
    /// clock for that seat starts the first time it is.
    pub(crate) fn prompt_sent(&mut self, seat: Seat) {
        let turn = self.turn;
        if let Some(slot) = self.prompted.get_mut(seat as usize)
            && !slot.is_some_and(|(t, _)| t == turn)
        {
            *slot = Some((turn, Instant::now()));
        }
    }

    /// The reaction time of `seat`'s race answer arriving now, timed by the
    /// server: from when its page was sent the prompt (or the step began,
    /// if it never fetched it) to now. The page's `claimed` time is taken
    /// only where it lies within [`NETWORK_ALLOWANCE_MS`] below that, so a
    /// page that claims 0 ms gains at most the allowance.
    fn timed(&self, seat: Seat, claimed: u32) -> u32 {
        let since = match self.prompted.get(seat as usize).copied().flatten() {
            Some((turn, at)) if turn == self.turn => at,
            _ => self.step_began,
        };
        let elapsed = u64::try_from(since.elapsed().as_millis()).unwrap_or(u64::MAX);
        let fastest = elapsed.saturating_sub(NETWORK_ALLOWANCE_MS);
        u32::try_from(u64::from(claimed).clamp(fastest, elapsed)).unwrap_or(u32::MAX)
    }

    /// `seat` answers, over the network, the decision of step `turn` with
    /// its choice `index`; in a race its time is the server's (see [`Table::timed`]).
    pub(crate) fn choose_now(&mut self, seat: Seat, turn: u64, index: usize, claimed_ms: u32) -> Result<(), Refused> {
        let reaction_ms = self.timed(seat, claimed_ms);
        self.choose(seat, turn, index, reaction_ms)
    }

    /// `seat` answers the decision of step `turn` with its choice `index`,
    /// taking `reaction_ms` as it is (a kept answer played again).
    pub(crate) fn choose(&mut self, seat: Seat, turn: u64, index: usize, reaction_ms: u32) -> Result<(), Refused> {
        if turn != self.turn {
            return Err(Refused::Stale);
        }
        if self.failure.is_some() || !self.asks(seat) {
            return Err(Refused::NotAsked);
        }
        let pending = self.turns.state.pending().ok_or(Refused::NotAsked)?;
        let value = *pending.legal(seat).get(index).ok_or(Refused::NoSuchChoice)?;
        let race = self.game.def.decisions[pending.decision() as usize].race;
        self.answers[seat as usize] = Some(Choice {
            seat,
            value,
            reaction_ms: if race { reaction_ms } else { 0 },
        });
        self.advance();
        self.revision += 1;
        Ok(())
    }

    /// What `seat` may take back now, or why it may not. Only its own
    /// last decision, and only while no other seat has acted since,
    /// nothing was revealed since and no chance outcome was drawn since.
    pub(crate) fn may_take_back(&self, seat: Seat) -> Result<TakeBack, NoTakeBack> {
        if self.is_done() || !self.is_person(seat) {
            return Err(NoTakeBack::Nothing);
        }
        if self.answers[seat as usize].is_some() {
            // Nobody has seen what it answered: the step waits.
            return Ok(TakeBack::Answer);
        }
        let step_of = |i: usize| self.turns.decided.partition_point(|&start| start <= i) - 1;
        let Some(mine) = self.turns.applied.iter().rposition(|c| c.seat == seat) else {
            return Err(NoTakeBack::Nothing);
        };
        let step = step_of(mine);
        let others_since = self.turns.applied[self.turns.decided[step]..]
            .iter()
            .any(|c| c.seat != seat)
            || self.answers.iter().flatten().any(|c| c.seat != seat);
        if others_since {
            return Err(NoTakeBack::OthersActed);
        }
        // Its own later decisions come first: only the last one goes back.
        if step + 1 != self.turn as usize {
            return Err(NoTakeBack::Nothing);
        }
        let (from, to) = (self.turns.steps[step], self.turns.events.len());
        if self.turns.events[from..to]
            .iter()
            .any(|e| matches!(e, Event::Shuffle { .. } | Event::Roll { .. }))
        {
            return Err(NoTakeBack::ChanceDrawn);
        }
        if self.turns.state.learned_since(&self.turns.past()[step]) {
            return Err(NoTakeBack::Revealed);
        }
        Ok(TakeBack::Step(step as u64))
    }

    /// Takes back `seat`'s answer to the decision that waits for other
    /// seats. A step already applied is taken back by playing the kept
    /// game again without it (see `keep::take_back`).
    pub(crate) fn take_back_answer(&mut self, seat: Seat) {
        self.answers[seat as usize] = None;
        self.revision += 1;
    }

    /// The kept change that takes back the steps from `step` on: no
    /// decision from there, no waiting answer, a new revision.
    pub(crate) fn progress_without(&self, step: u64, now: i64) -> Progress {
        Progress {
            from_step: step,
            decisions: vec![],
            answers: vec![],
            chance: self.kept_chance(),
            revision: self.revision + 1,
            updated: now,
            finished: false,
        }
    }

    /// Whether `seat` is asked now and has not answered yet.
    fn asks(&self, seat: Seat) -> bool {
        self.turns
            .state
            .pending()
            .is_some_and(|p| p.who().contains(&seat) && self.answers[seat as usize].is_none())
    }

    /// Plays on: the scenario's decisions first, then the agents answer,
    /// and every step whose people have all answered is applied, until a
    /// person must be asked or the game ends (through the one turn loop,
    /// [`Turns::play`]).
    fn advance(&mut self) {
        if self.failure.is_some() {
            return;
        }
        let game = Arc::clone(&self.game);
        let mut answering = Answering {
            game: &game,
            seats: &self.seats,
            answers: &mut self.answers,
            script: &mut self.script,
            silence_times: self.silence_times,
            ask_agents_from: self.ask_agents_from,
            turn: &mut self.turn,
            step_began: &mut self.step_began,
        };
        match self.turns.play(&game.def, &mut self.agents, &mut answering) {
            Paused::Over | Paused::Waiting => {}
            Paused::Stopped(why) => self.failure = Some(why),
            Paused::Failed { diagnostic, .. } => self.failure = Some(rendered(&diagnostic, &game)),
        }
    }

    /// The seats the pending decision still waits for, by name.
    pub(crate) fn waiting_for(&self) -> Vec<String> {
        let def = &self.game.def;
        match self.turns.state.pending() {
            Some(p) if self.failure.is_none() => p
                .who()
                .iter()
                .filter(|&&s| self.answers[s as usize].is_none())
                .map(|&s| def.seat_name(s).to_string())
                .collect(),
            _ => vec![],
        }
    }

    /// How the game ended, as every seat may read it; `None` while it goes on.
    pub(crate) fn ending(&self) -> Option<String> {
        let def = &self.game.def;
        self.turns
            .state
            .outcome()
            .map(|o| describe_end(def, o.winner, &o.reason))
    }

    /// What a spectator's page shows: only what every seat may see (the
    /// public view), never a hidden piece and never the seed; it asks
    /// nothing and shows no score estimate.
    pub(crate) fn public_screen(&self) -> Screen {
        let def = &self.game.def;
        let view = self.turns.state.public_view(def);
        let decisions = match self.turns.state.decisions() {
            1 => "1 decision".to_string(),
            n => format!("{n} decisions"),
        };
        let caption = vec![format!("As every player sees it · after {decisions}")];
        let frame = crate::render::Frame {
            viewer: None,
            caption: &caption,
        };
        Screen {
            game: def.name.clone(),
            seat: "spectator".into(),
            turn: self.turn,
            at: self.turn,
            svg: crate::render::svg(def, &view, &frame),
            happened: render_events(def, &self.turns.events, Viewer::public(def)),
            counters: present::variables(def, &view),
            scores: None,
            prompt: None,
            waiting_for: self.waiting_for(),
            over: self.ending(),
            failure: self.failure.clone(),
            rules_edited: false,
            take_back: None,
        }
    }

    /// Hands `seat` to `agent`, or back to its person (`None`); refused for
    /// a seat no person holds. The kept game is then played again with
    /// the new seating (see `keep::reseat`).
    pub(crate) fn reseated(&self, seat: Seat, agent: Option<agents::AgentSpec>) -> Result<Vec<Sitter>, String> {
        let mut seats = self.seats.clone();
        let Some(sitter) = seats.get_mut(seat as usize) else {
            return Err(format!("this game has no seat {}", seat + 1));
        };
        if sitter.person.is_none() {
            return Err("an agent's seat has no person to hand it back to".into());
        }
        if let Some(spec) = &agent {
            agents::build(spec, Some((&self.game.def, &self.game.options)), seat, self.seed)?;
        }
        sitter.agent = agent;
        Ok(seats)
    }

    /// What `seat`'s page shows now.
    pub(crate) fn screen(&self, seat: Seat) -> Screen {
        self.screen_at(seat, self.turn)
    }

    /// What `seat`'s page showed after step `at` (now, for `at` past the
    /// last step): the engine's view for that seat then, and what it had
    /// seen by then. Looking back asks nothing and shows no score.
    pub(crate) fn screen_at(&self, seat: Seat, at: u64) -> Screen {
        let def = &self.game.def;
        let at = at.min(self.turn);
        let now = at == self.turn;
        let state = if now {
            &self.turns.state
        } else {
            &self.turns.past()[at as usize]
        };
        let (events, steps) = self.events_at(at as usize);
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
        let asked = now && self.failure.is_none() && self.asks(seat);
        let prompt = asked.then(|| {
            let p = Prompt::new(def, state, seat);
            PromptJson {
                what: p.what,
                note: p.note.map(|n| n.text(Input::Pointer)),
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
            Some(p) if now && self.failure.is_none() => p
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
            at,
            svg,
            happened: present::seen_lines(def, events, steps, 0, seat),
            counters: present::variables(def, &view),
            scores,
            prompt,
            waiting_for,
            over,
            failure: if now { self.failure.clone() } else { None },
            rules_edited: false,
            take_back: match self.may_take_back(seat) {
                _ if !now => None,
                Ok(_) => Some(TakeBackJson {
                    allowed: true,
                    why: None,
                }),
                Err(NoTakeBack::Nothing) => None,
                Err(no) => Some(TakeBackJson {
                    allowed: false,
                    why: Some(no.why()),
                }),
            },
        }
    }
}

/// A game's chance outcomes so far, as kept: what a scenario fixes.
#[derive(Serialize, Deserialize)]
struct KeptChance {
    /// Each shuffle: the zone, and its pieces top first.
    shuffles: Vec<(String, Vec<String>)>,
    /// Each roll: `"Die of Ann: 6"`.
    rolls: Vec<String>,
}

/// One seat as kept: the hash of its person's token (hex), and the agent
/// that plays it now.
#[derive(Serialize, Deserialize)]
struct KeptSeat {
    person: Option<String>,
    agent: Option<String>,
}

/// The seats as kept (JSON).
pub(crate) fn kept_seats(seats: &[Sitter]) -> String {
    let kept: Vec<KeptSeat> = seats
        .iter()
        .map(|s| KeptSeat {
            person: s.person.map(|h| h.iter().map(|b| format!("{b:02x}")).collect()),
            agent: s.agent.as_ref().map(|a| a.to_text()),
        })
        .collect();
    serde_json::to_string(&kept).unwrap_or_default()
}

/// The seats a kept game's JSON names.
pub(crate) fn seats_kept(json: &str) -> Result<Vec<Sitter>, String> {
    let kept: Vec<KeptSeat> = serde_json::from_str(json).map_err(|e| format!("its seats are damaged: {e}"))?;
    kept.into_iter()
        .map(|k| {
            let person = match k.person {
                Some(hex) => Some(unhex(&hex).ok_or("a seat's token hash is damaged")?),
                None => None,
            };
            let agent = match k.agent {
                Some(text) => Some(
                    agents::spec::parse_spec(&text)?
                        .into_iter()
                        .next()
                        .ok_or("a seat's agent is empty")?,
                ),
                None => None,
            };
            Ok(Sitter { person, agent })
        })
        .collect()
}

fn unhex(hex: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if hex.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

impl Table {
    /// The chance outcomes so far, as kept (JSON).
    fn kept_chance(&self) -> String {
        let def = &self.game.def;
        let chance = KeptChance {
            shuffles: session::shuffles_of(def, &self.turns.events)
                .into_iter()
                .map(|s| (s.zone, s.top))
                .collect(),
            rolls: session::rolls_of(def, &self.turns.events),
        };
        serde_json::to_string(&chance).unwrap_or_default()
    }

    /// The decisions of the steps from `from` on, as kept.
    fn kept_decisions(&self, from: u64) -> Vec<KeptDecision> {
        let first = self
            .turns
            .decided
            .get(from as usize)
            .copied()
            .unwrap_or(self.turns.decisions.len());
        let mut step = from;
        (first..self.turns.decisions.len())
            .map(|i| {
                while self.turns.decided.get(step as usize + 1).is_some_and(|&next| next <= i) {
                    step += 1;
                }
                KeptDecision {
                    step,
                    seat: self.turns.applied[i].seat.into(),
                    choice: self.turns.decisions[i].clone(),
                    reaction_ms: self.turns.applied[i].reaction_ms,
                }
            })
            .collect()
    }

    /// The people's answers that wait for the other seats, as kept.
    fn kept_answers(&self) -> Vec<KeptAnswer> {
        let Some(pending) = self.turns.state.pending() else {
            return vec![];
        };
        self.answers
            .iter()
            .flatten()
            .filter_map(|choice| {
                let index = pending.legal(choice.seat).iter().position(|&v| v == choice.value)?;
                Some(KeptAnswer {
                    step: self.turn,
                    seat: choice.seat.into(),
                    choice: index as u32,
                    reaction_ms: choice.reaction_ms,
                })
            })
            .collect()
    }

    /// What changed since step `from` (the steps from it on are kept
    /// anew), at `now` (Unix seconds).
    pub(crate) fn progress_since(&self, from: u64, now: i64) -> Progress {
        Progress {
            from_step: from,
            decisions: self.kept_decisions(from),
            answers: self.kept_answers(),
            chance: self.kept_chance(),
            revision: self.revision,
            updated: now,
            finished: self.is_done(),
        }
    }

    /// The whole game as kept, under `id`; `rules` and `options` as JSON.
    pub(crate) fn kept(&self, id: &str, rules: String, options: String, now: i64) -> KeptGame {
        KeptGame {
            id: id.to_string(),
            rules_path: self.rules.clone(),
            rules,
            options,
            seed: self.seed,
            seats: kept_seats(&self.seats),
            chance: self.kept_chance(),
            chance_fixed: self.shuffles_fixed,
            scripted: self.scripted as u64,
            revision: self.revision,
            created: now,
            updated: now,
            finished: self.is_done(),
            decisions: self.kept_decisions(0),
            answers: self.kept_answers(),
        }
    }
}

/// A diagnostic as the terminal prints it, without colour.
fn rendered(d: &Diagnostic, game: &LoadedGame) -> String {
    crate::diagnostic::render(std::slice::from_ref(d), &game.def.sources, false)
}

/// Several diagnostics as the terminal prints them, without colour.
fn rendered_all(d: &[Diagnostic], game: &LoadedGame) -> String {
    crate::diagnostic::render(d, &game.def.sources, false)
}

/// Whether two tokens are equal, in time that does not depend on where
/// they differ.
pub(crate) fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
