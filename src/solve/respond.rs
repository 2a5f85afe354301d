//! How strong are my players, where the tree does not fit: a best response
//! learnt by play, then measured by play ("approximate best response",
//! Timbers et al. 2020).
//!
//! Against agents that stay fixed, a seat faces a one-player problem. With
//! perfect recall its situations form a tree, and what follows a choice in
//! a situation (the next situation it meets, or the game's end) does not
//! depend on how the seat itself played before: the other agents and chance
//! decide it. So the learner plays games against the agents (trying every
//! choice now and then), counts where each choice led, and takes, from the
//! deepest situations up, the choice worth most. That is a best response to
//! what it has seen.
//!
//! Its worth is then measured on fresh deals, paired: every deal is played
//! once by the lineup and once with the learner in the seat, the agents
//! seeded alike. The gain is the mean difference, with a 95% interval. A
//! learnt response is never better than a perfect one, so the true gain is
//! at least what is measured: the figure is a lower bound, up to its interval.
//!
//! **Deterministic for any number of threads.** Games run in batches of
//! [`BATCH_GAMES`], each from a stream fixed by the seed and its number;
//! the learner's choices in a batch follow what the batches before it
//! learnt, and the batch's games are counted in order.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use serde::Serialize;

use super::tree::{payoffs, refuse_races};
use crate::agents::Agent;
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{Chance, EngineError, Game, Memory, Observation, Recall, State, mix};
use crate::ir::{OptionValue, Seat};
use crate::session::{agent_choice, tell_agents, tell_choices};

/// Builds the lineup for one game from that game's seed: one agent per seat.
pub type Lineup<'f> = &'f (dyn Fn(u64) -> Result<Vec<Box<dyn Agent>>, String> + Sync);

/// Games played at once, by however many threads: the unit whose result
/// does not depend on the threads.
pub const BATCH_GAMES: u64 = 64;

/// Under a time budget, the first batch of learning and of measuring:
/// batches double from it up to their full size, so that slow players
/// (a search of a second a move) still fit something in the time. With a
/// fixed number of games every batch is full size, as it always was.
const FIRST_TIMED_BATCH: u64 = 2;

/// The size of the batch after `done` games (or pairs), at most `full`.
fn batch_size(timed: bool, done: u64, full: u64) -> u64 {
    if timed {
        done.max(FIRST_TIMED_BATCH).min(full)
    } else {
        full
    }
}

/// How often, while learning, the learner tries a choice at random rather
/// than the best it knows, so that every choice keeps being tried.
const EXPLORE: f64 = 0.4;

/// Games per situation known, at least, between two passes that find the
/// learner's best choices.
const REFRESH: u64 = 16;

/// Games a situation must have been met in while learning for the
/// learner's choice there to count as trained ([`Learnt::trained`]).
pub const TRAINED_GAMES: u64 = 20;

/// The share of each seat's time spent measuring what was learnt.
const MEASURE_SHARE: f64 = 0.25;

/// Pairs of games measured: at most, under a time budget, and exactly,
/// when the learning is a number of games.
pub const MEASURE_MOST: u64 = 16_384;
/// See [`MEASURE_MOST`].
pub const MEASURE_FIXED: u64 = 4_096;

/// How long to learn and measure.
#[derive(Clone, Copy, Debug)]
pub struct Learning {
    /// Games the learner plays per seat, when fixed: the answer is then the
    /// same on every machine ([`MEASURE_FIXED`] pairs are measured).
    pub games: Option<u64>,
    /// Time for the whole measurement, shared by the seats, when `games`
    /// is not fixed.
    pub time: Duration,
    /// Seeds the deals, the agents and the learner's tries.
    pub seed: u64,
    /// Threads (0: one per core).
    pub jobs: usize,
    /// Decision points a game is played to before it counts as a draw.
    pub depth: u32,
}

/// What the learnt best response found in one seat.
#[derive(Clone, Debug, Serialize)]
pub struct Learnt {
    /// Games the learner played.
    pub learning_games: u64,
    /// Pairs of games measured (the lineup's, and the learner's).
    pub measured_games: u64,
    /// Situations the learner met.
    pub situations: usize,
    /// The seat's agent's mean payoff against the others.
    pub value: Mean,
    /// The learner's mean payoff in the seat.
    pub best_response: Mean,
    /// The mean gain over the paired deals.
    pub gain: Mean,
    /// The share of the learner's measured games cut at the depth limit.
    pub cut: f64,
    /// The share of the learner's measured decisions taken in situations
    /// met in at least [`TRAINED_GAMES`] games while learning: where it is
    /// low, the response is mostly guessing, and the gain says little.
    pub trained: f64,
}

/// One deal measured both ways.
struct Pair {
    /// The seat's payoff with its own agent.
    theirs: f64,
    /// The seat's payoff with the learner in it.
    mine: f64,
    cut: bool,
    /// The learner's decisions, and those in trained situations.
    decisions: usize,
    trained: usize,
}

/// Learns a best response in every seat in turn, against the other seats'
/// agents, and measures it.
pub fn learn_best_responses(
    def: &Game,
    options: &[OptionValue],
    by_score: bool,
    lineup: Lineup<'_>,
    learning: &Learning,
) -> Result<Vec<Learnt>, Box<Diagnostic>> {
    refuse_races(def)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(learning.jobs)
        .build()
        .map_err(|e| {
            Box::new(Diagnostic::error(
                Code::SolveBudget,
                format!("cannot start threads: {e}"),
            ))
        })?;
    let seats = def.players();
    let begun = Instant::now();
    let mut learnt = vec![];
    for seat in 0..seats {
        let started = Instant::now();
        // What is left, shared by the seats still to learn: a seat that ran
        // over (its first batch may) takes from those after it, not more.
        let share = learning
            .time
            .saturating_sub(begun.elapsed())
            .div_f64((seats - seat) as f64);
        let play = Play {
            def,
            options,
            by_score,
            lineup,
            depth: learning.depth,
        };
        let mut model = Model {
            seat,
            index: HashMap::new(),
            situations: vec![],
        };
        let learn_until = started + share.mul_f64(1.0 - MEASURE_SHARE);
        let learn_seed = mix(learning.seed ^ 0x4c45_4152, seat as u64);
        let mut games = 0;
        let mut policy = HashMap::new();
        let mut refreshed = 0;
        loop {
            let done = match learning.games {
                Some(most) => games >= most,
                // At least one batch, however late.
                None => games > 0 && Instant::now() > learn_until,
            };
            if done {
                break;
            }
            // Finding the best choices takes a pass over every situation:
            // it is redone once the games since make up for it.
            if (games - refreshed) * REFRESH >= model.situations.len() as u64 {
                policy = model.best_choices();
                refreshed = games;
            }
            let learner = Learner {
                seat: seat as Seat,
                choices: &policy,
                explore: EXPLORE,
            };
            let batch = batch_size(learning.games.is_none(), games, BATCH_GAMES);
            // A batch may not run into the measuring's time, but the first
            // has only the process's deadline: without it nothing is learnt.
            let until = (learning.games.is_none() && games > 0).then_some(learn_until);
            let paths: Vec<Result<Path, Box<Diagnostic>>> = pool.install(|| {
                (games..games + batch)
                    .into_par_iter()
                    .map(|g| play.game(mix(learn_seed, g), Some(&learner), until))
                    .collect()
            });
            // A batch the deadline cut short is not counted: learning ends
            // with what the batches before it taught.
            if paths
                .iter()
                .any(|p| p.as_ref().is_err_and(|d| d.code == Code::TimeBudget))
                && games > 0
            {
                break;
            }
            for path in paths {
                model.count(&path?);
            }
            games += batch;
        }
        let policy = model.best_choices();
        let learner = Learner {
            seat: seat as Seat,
            choices: &policy,
            explore: 0.0,
        };
        let measure_until = started + share;
        let measure_seed = mix(learning.seed ^ 0x4d45_4153, seat as u64);
        let most = if learning.games.is_some() {
            MEASURE_FIXED
        } else {
            MEASURE_MOST
        };
        let mut pairs: Vec<Pair> = vec![];
        while (pairs.len() as u64) < most
            && (pairs.is_empty() || learning.games.is_some() || Instant::now() <= measure_until)
        {
            let from = pairs.len() as u64;
            let to = (from + batch_size(learning.games.is_none(), from, 4 * BATCH_GAMES)).min(most);
            // Nor into the next seat's time, but for the first.
            let until = (learning.games.is_none() && from > 0).then_some(measure_until);
            let measured: Vec<Result<Pair, Box<Diagnostic>>> = pool.install(|| {
                (from..to)
                    .into_par_iter()
                    .map(|g| {
                        let stream = mix(measure_seed, g);
                        let theirs = play.game(stream, None, until)?;
                        let mine = play.game(stream, Some(&learner), until)?;
                        let trained = mine
                            .steps
                            .iter()
                            .filter(|(key, _)| model.games_in(*key) >= TRAINED_GAMES)
                            .count();
                        Ok(Pair {
                            theirs: theirs.payoffs[seat],
                            mine: mine.payoffs[seat],
                            cut: mine.cut,
                            decisions: mine.steps.len(),
                            trained,
                        })
                    })
                    .collect()
            });
            if !pairs.is_empty()
                && measured
                    .iter()
                    .any(|p| p.as_ref().is_err_and(|d| d.code == Code::TimeBudget))
            {
                break;
            }
            for pair in measured {
                pairs.push(pair?);
            }
        }
        learnt.push(Learnt::measured(games, model.situations.len(), &pairs));
    }
    Ok(learnt)
}

impl Learnt {
    /// A response learnt from `learning_games` games, met in `situations`
    /// situations, and measured on `pairs`.
    fn measured(learning_games: u64, situations: usize, pairs: &[Pair]) -> Learnt {
        let n = pairs.len() as u64;
        Learnt {
            learning_games,
            measured_games: n,
            situations,
            value: mean_and_margin(pairs.iter().map(|p| p.theirs)),
            best_response: mean_and_margin(pairs.iter().map(|p| p.mine)),
            gain: mean_and_margin(pairs.iter().map(|p| p.mine - p.theirs)),
            cut: pairs.iter().filter(|p| p.cut).count() as f64 / n.max(1) as f64,
            trained: pairs.iter().map(|p| p.trained).sum::<usize>() as f64
                / pairs.iter().map(|p| p.decisions).sum::<usize>().max(1) as f64,
        }
    }
}

/// The process's deadline passed while a game was being played.
fn out_of_time() -> Diagnostic {
    Diagnostic::error(
        Code::TimeBudget,
        "the time ran out before a best response could be learnt and measured by play",
    )
    .help("give more `--time`, or weaker (faster) players")
}

/// A mean measured by play.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// The half-width of its 95% interval.
    pub margin: f64,
}

/// The mean of `values`, with its 95% interval.
fn mean_and_margin(values: impl Iterator<Item = f64> + Clone) -> Mean {
    let n = values.clone().count().max(1) as f64;
    let mean = values.clone().sum::<f64>() / n;
    let variance = values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    Mean {
        mean,
        margin: 1.96 * (variance / n).sqrt(),
    }
}

/// The seat being learnt, and how it chooses.
struct Learner<'p> {
    seat: Seat,
    /// The best choice known per situation, by key.
    choices: &'p HashMap<u64, u64>,
    /// How often to choose at random instead.
    explore: f64,
}

/// One game's worth to the learner: its situations and choices in order,
/// and every seat's payoff.
struct Path {
    /// (situation key, choice key) per decision of the learner.
    steps: Vec<(u64, u64)>,
    payoffs: Vec<f64>,
    cut: bool,
}

/// Plays games of one rules file.
struct Play<'a> {
    def: &'a Game,
    options: &'a [OptionValue],
    by_score: bool,
    lineup: Lineup<'a>,
    depth: u32,
}

impl Play<'_> {
    /// One game from `stream`: every seat played by its agent, but the
    /// learner's, told as a session tells them. It fails with
    /// [`Code::TimeBudget`] once `until` or the process's deadline passes.
    fn game(
        &self,
        stream: u64,
        learner: Option<&Learner<'_>>,
        until: Option<Instant>,
    ) -> Result<Path, Box<Diagnostic>> {
        let def = self.def;
        let mut agents = (self.lineup)(stream).map_err(|e| {
            Box::new(Diagnostic::error(
                Code::RuntimeError,
                format!("the agents could not be built: {e}"),
            ))
        })?;
        let mut rng = ChaCha8Rng::seed_from_u64(stream ^ 0x5452_4945);
        let mut path = Path {
            steps: vec![],
            payoffs: vec![0.0; def.players()],
            cut: false,
        };
        let mut state = State::new(def, self.options, Chance::seeded(stream), vec![]);
        let mut events = vec![];
        if state.set_up(def, &mut events).is_err() {
            return Ok(path);
        }
        tell_agents(def, &events, &mut agents);
        let mut recall = Recall::default();
        let mut depth = 0;
        while let Some(pending) = state.pending() {
            // A game whose players stall cannot outlast the command.
            if crate::budget::expired() || crate::budget::expired_by(until) {
                return Err(Box::new(out_of_time()));
            }
            if depth >= self.depth {
                path.cut = true;
                return Ok(path);
            }
            if let Some(learner) = learner {
                // A best response remembers everything: it answers in the game itself.
                recall = state.recall_here(def, learner.seat, recall, Memory::All);
            }
            let decision = pending.decision();
            let mut choices = vec![];
            for &seat in pending.who() {
                let legal = pending.legal(seat);
                match learner {
                    Some(learner) if learner.seat == seat => {
                        let observation = Observation::new(def, &state, seat);
                        let key = recall.infoset(decision, seat);
                        let best = learner
                            .choices
                            .get(&key)
                            .and_then(|&best| (0..legal.len()).find(|&i| observation.key(i) == best));
                        let explore = learner.explore > 0.0 && rng.random::<f64>() < learner.explore;
                        let index = match best {
                            Some(i) if !explore => i,
                            _ => rng.random_range(0..legal.len()),
                        };
                        path.steps.push((key, observation.key(index)));
                        choices.push(crate::engine::Choice::new(seat, legal[index]));
                    }
                    _ => choices.push(agent_choice(
                        def,
                        &state,
                        decision,
                        seat,
                        legal,
                        agents[seat as usize].as_mut(),
                    )),
                }
            }
            tell_choices(def, &state, &choices, &mut agents);
            if let Some(learner) = learner {
                recall = recall.saw_step(Observation::new(def, &state, learner.seat).step_key(&choices));
            }
            events.clear();
            match state.apply(def, &choices, &mut events) {
                Ok(()) => {}
                // A game the rules stop counts as a draw, as in `solve`.
                Err(EngineError::Runtime(_)) => return Ok(path),
                Err(EngineError::Illegal(illegal)) => {
                    return Err(Box::new(Diagnostic::error(Code::IllegalAction, illegal.to_string())));
                }
            }
            tell_agents(def, &events, &mut agents);
            depth += 1;
        }
        path.payoffs = payoffs(def, &state, self.by_score);
        Ok(path)
    }
}

/// What the learner has seen: per situation and choice, where it led.
struct Model {
    /// The learner's seat.
    seat: usize,
    index: HashMap<u64, u32>,
    situations: Vec<Situation>,
}

/// One situation of the learner's.
struct Situation {
    key: u64,
    /// The learner's decisions before it: its situations form a tree, so
    /// deeper ones never lead back.
    depth: u32,
    tried: Vec<Tried>,
}

/// One choice tried in a situation, and where it led.
struct Tried {
    choice: u64,
    games: u64,
    /// The payoffs of games that ended before the learner's next decision.
    ended: f64,
    /// The learner's next situation (by index), and how often.
    next: HashMap<u32, u64>,
}

impl Model {
    fn at(&mut self, key: u64, depth: u32) -> usize {
        let situations = &mut self.situations;
        *self.index.entry(key).or_insert_with(|| {
            situations.push(Situation {
                key,
                depth,
                tried: vec![],
            });
            (situations.len() - 1) as u32
        }) as usize
    }

    /// Games that met the situation `key` while learning.
    fn games_in(&self, key: u64) -> u64 {
        self.index
            .get(&key)
            .map_or(0, |&i| self.situations[i as usize].tried.iter().map(|t| t.games).sum())
    }

    /// Counts one game the learner played.
    fn count(&mut self, path: &Path) {
        let at: Vec<usize> = path
            .steps
            .iter()
            .enumerate()
            .map(|(depth, &(key, _))| self.at(key, depth as u32))
            .collect();
        for (j, &(_, choice)) in path.steps.iter().enumerate() {
            let situation = &mut self.situations[at[j]];
            let i = match situation.tried.iter().position(|t| t.choice == choice) {
                Some(i) => i,
                None => {
                    situation.tried.push(Tried {
                        choice,
                        games: 0,
                        ended: 0.0,
                        next: HashMap::new(),
                    });
                    situation.tried.len() - 1
                }
            };
            let tried = &mut situation.tried[i];
            tried.games += 1;
            match at.get(j + 1) {
                Some(&next) => *tried.next.entry(next as u32).or_default() += 1,
                None => tried.ended += path.payoffs[self.seat],
            }
        }
    }

    /// The choice worth most in every situation met, from the deepest up:
    /// a choice is worth the mean of what it led to, a situation its best
    /// choice's worth. Ties go to the choice tried first.
    fn best_choices(&self) -> HashMap<u64, u64> {
        let mut order: Vec<usize> = (0..self.situations.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.situations[i].depth));
        let mut worth = vec![0.0; self.situations.len()];
        let mut best = HashMap::with_capacity(self.situations.len());
        for i in order {
            let situation = &self.situations[i];
            let mut top: Option<(f64, u64)> = None;
            for tried in &situation.tried {
                let later: f64 = tried.next.iter().map(|(&n, &c)| c as f64 * worth[n as usize]).sum();
                let q = (tried.ended + later) / tried.games as f64;
                if top.is_none_or(|(t, _)| q > t) {
                    top = Some((q, tried.choice));
                }
            }
            if let Some((q, choice)) = top {
                worth[i] = q;
                best.insert(situation.key, choice);
            }
        }
        best
    }
}
