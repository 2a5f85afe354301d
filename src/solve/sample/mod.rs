//! External-sampling Monte Carlo CFR (Lanctot et al. 2009), for games whose
//! tree does not fit.
//!
//! Nothing is built ahead: each traversal plays the engine from a fresh
//! deal. Chance is the engine's own, drawn from a stream seeded by the
//! traversal's number; the other seats' choices are sampled from their
//! current strategies; the traversing seat tries every choice it has. Its
//! regrets, and the others' average strategies, are kept per information
//! set, keyed exactly as the whole tree keys them ([`Recall`]), so a
//! strategy found either way plays the same positions. A race's reaction
//! times are chance too, drawn from the players' default model.
//!
//! At a glance ([`Memory::Glance`]) the moves that read alike are one move,
//! one of them drawn to stand for it, and a situation has three levels
//! (`engine::GlanceSituation`): every meeting teaches its coarsest level,
//! and each finer level once training met the level below it often; the
//! finest level met often plays.
//!
//! **Deterministic for any number of threads.** Traversals run in batches of
//! [`BATCH`]. Every traversal of a batch reads the strategies as they stood
//! when the batch began and writes its changes apart; the batch's changes
//! are then added in the traversals' order. Which thread ran which traversal
//! changes nothing, not even the rounding.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;

pub mod play;

use super::tree::{Payoff, Told, align, offered_differently, payoffs, situation, told_after};
use crate::agents::draw;
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{
    Chance, Choice, EngineError, Event, GLANCE_LEVELS, Game, Glanced, Memory, Observation, REFINED_VISITS, Recall,
    State, mix,
};
use crate::ir::{DecisionId, OptionValue, Seat};

/// Traversals per batch: the unit of work whose result does not depend on
/// the threads that ran it.
pub const BATCH: u64 = 128;

/// What one information set has learnt.
#[derive(Clone, Debug)]
pub struct SampledSet {
    /// The deciding seat.
    pub seat: Seat,
    /// The decision asked.
    pub decision: DecisionId,
    /// The set's key ([`Recall::infoset`]).
    pub key: u64,
    /// The actions, as the seat reads them (shared by every set that
    /// offers the same moves: most of a sampled solve's sets do).
    pub actions: Arc<[Arc<str>]>,
    /// The actions' keys, in the same order (shared likewise).
    pub keys: Arc<[u64]>,
    /// What the seat knows there, in the game's words.
    pub situation: String,
    /// How many levels coarser than the situation as memory keys it: 0,
    /// or at a glance 1 for a bare glance and 2 for the moves alone (see
    /// `engine::GlanceSituation`).
    pub coarse: u8,
    /// Decision points before it, when it was first met.
    pub depth: u32,
    /// Per action, the cumulative regret.
    regrets: Vec<f64>,
    /// Per action, the sum of the strategies played there.
    sums: Vec<f64>,
    /// Traversals that met it.
    pub visits: u64,
}

impl SampledSet {
    /// The average strategy: what converges to an equilibrium.
    pub fn average(&self) -> Vec<f64> {
        normalised(&self.sums)
    }

    /// How often the average strategy was updated here (a visit count).
    pub fn weight(&self) -> f64 {
        self.sums.iter().sum()
    }

    /// Regret matching: the strategy played now, into `out` (as
    /// [`normalised`] would give it of the positive regrets).
    fn current_into(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.regrets.iter().map(|r| r.max(0.0)));
        let total: f64 = out.iter().sum();
        let n = out.len() as f64;
        for w in out.iter_mut() {
            *w = if total > 0.0 { *w / total } else { 1.0 / n };
        }
    }
}

/// `weights` scaled to sum to 1; uniform when they sum to nothing.
fn normalised(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    let n = weights.len() as f64;
    weights
        .iter()
        .map(|&w| if total > 0.0 { w / total } else { 1.0 / n })
        .collect()
}

/// How a traversal samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Sampling {
    /// The traversing seat tries every choice; the rest is sampled.
    External,
    /// Everything is sampled: one game per traversal ([`super::outcome`]).
    Outcome,
}

/// Positions one external-sampling traversal may be expected to visit
/// before outcome sampling is used instead: past it, trying every choice
/// of a seat all the way down takes too long.
pub const EXTERNAL_LIMIT: f64 = 20_000.0;

/// A Monte Carlo CFR run on one game.
pub struct Sampler<'a> {
    pub(super) def: &'a Game,
    options: &'a [OptionValue],
    pub(super) by_score: bool,
    seed: u64,
    /// Decision points a traversal goes before the game counts as a draw.
    pub(super) depth: u32,
    sampling: Sampling,
    /// Positions an external-sampling traversal would visit, as probed.
    probed: f64,
    index: HashMap<u64, u32>,
    sets: Vec<SampledSet>,
    traversals: u64,
    /// Traversals that reached the depth limit.
    cut: u64,
    /// Traversals that ended on an error in the rules.
    stopped: u64,
    zero_sum: bool,
    /// Public positions that play was found to come round to, and per
    /// seat, the sum and count of the values traversals found there.
    repeats: HashMap<u64, Vec<(f64, u64)>>,
    /// What the seats' situations keep of the past.
    pub(super) memory: Memory,
    /// The moves offered, by decision and keys: one copy of the labels and
    /// keys for all the sets that offer them.
    offers: HashMap<u64, Offer>,
    /// A game before its set-up, which every traversal copies (into a
    /// state whose buffers it reuses) and deals with its own stream.
    start: State,
    /// The buffers of merged traversals' changes, for the next ones.
    spare_changes: std::sync::Mutex<Vec<Changes>>,
}

/// The moves one decision offers: their labels and keys, in order.
type Offer = (Arc<[Arc<str>]>, Arc<[u64]>);

/// Where the moves `keys` of `decision` are kept in `Sampler::offers`.
fn offer_key(decision: DecisionId, keys: &[u64]) -> u64 {
    keys.iter()
        .fold(mix(0x4F46_4645, u64::from(decision)), |h, &k| mix(h, k))
}

/// One traversal's changes, in the order it met the sets. Kept after the
/// merge and used again, emptied, by a later traversal.
#[derive(Default)]
pub(super) struct Changes {
    index: HashMap<u64, u32>,
    sets: Vec<Change>,
    /// Every change's regrets and then its sums, change after change (see
    /// [`Change::at`]): one buffer, not two vectors a set.
    deltas: Vec<f64>,
    pub(super) cut: u64,
    pub(super) stopped: u64,
    pub(super) zero_sum: bool,
    /// Public positions met again on the way to them (`None`), and values
    /// found at positions known to repeat, for the traversing seat.
    repeats: Vec<(u64, Option<f64>)>,
    traverser: Seat,
}

/// The changes to one set; `new` holds the set when the batch did not know it.
struct Change {
    key: u64,
    new: Option<SampledSet>,
    /// Where its regrets begin in [`Changes::deltas`]; its sums follow them.
    at: u32,
    /// How many actions the set has.
    actions: u32,
}

impl Changes {
    /// Empty, for a traversal by `traverser`.
    fn start(&mut self, traverser: Seat) {
        self.index.clear();
        self.sets.clear();
        self.deltas.clear();
        self.cut = 0;
        self.stopped = 0;
        self.zero_sum = true;
        self.repeats.clear();
        self.traverser = traverser;
    }

    /// A change to the set `key`, with `actions` actions, first met now.
    fn add(&mut self, key: u64, new: Option<SampledSet>, actions: usize) -> usize {
        let at = self.sets.len();
        self.index.insert(key, at as u32);
        self.sets.push(Change {
            key,
            new,
            at: self.deltas.len() as u32,
            actions: actions as u32,
        });
        self.deltas.resize(self.deltas.len() + 2 * actions, 0.0);
        at
    }

    /// The regrets and the sums of change `change`, to add to.
    pub(super) fn deltas(&mut self, change: usize) -> (&mut [f64], &mut [f64]) {
        let Change { at, actions, .. } = self.sets[change];
        let (at, actions) = (at as usize, actions as usize);
        self.deltas[at..at + 2 * actions].split_at_mut(actions)
    }
}

impl<'a> Sampler<'a> {
    /// A run on `def` with `options`, traversals seeded from `seed`, games
    /// cut (counted as draws) after `depth` decision points.
    /// External sampling unless a probe finds its traversals too long
    /// ([`EXTERNAL_LIMIT`]).
    pub fn new(def: &'a Game, options: &'a [OptionValue], payoff: Payoff, seed: u64, depth: u32) -> Self {
        let mut sampler = Sampler {
            def,
            options,
            by_score: payoff == Payoff::Score && !def.score_terms.is_empty(),
            seed,
            depth,
            sampling: Sampling::External,
            probed: 0.0,
            index: HashMap::new(),
            sets: vec![],
            traversals: 0,
            cut: 0,
            stopped: 0,
            zero_sum: true,
            repeats: HashMap::new(),
            memory: Memory::All,
            offers: HashMap::new(),
            start: State::new(def, options, Chance::seeded(seed), vec![]),
            spare_changes: std::sync::Mutex::default(),
        };
        sampler.probed = sampler.probe();
        if sampler.probed > EXTERNAL_LIMIT {
            sampler.sampling = Sampling::Outcome;
        }
        sampler
    }

    /// Keys the seats' situations as `memory` says.
    pub fn with_memory(mut self, memory: Memory) -> Self {
        self.memory = memory;
        self
    }

    /// Samples with `sampling` whatever the probe found.
    pub fn with_sampling(mut self, sampling: Sampling) -> Self {
        self.sampling = sampling;
        self
    }

    /// How traversals sample, and the positions the probe expected an
    /// external-sampling traversal to visit.
    pub fn sampling(&self) -> (Sampling, f64) {
        (self.sampling, self.probed)
    }

    /// About how many positions an external-sampling traversal visits: over
    /// a few games of uniform play, the product of each seat's numbers of
    /// choices along the game (the most for any seat, averaged over games).
    fn probe(&self) -> f64 {
        const GAMES: u64 = 8;
        let def = self.def;
        let seats = def.players();
        let mut total = 0.0;
        for g in 0..GAMES {
            let stream = mix(self.seed ^ 0x5052_4f42, g);
            let mut rng = ChaCha8Rng::seed_from_u64(stream);
            let mut state = State::new(def, self.options, Chance::seeded(stream), vec![]);
            let mut events = vec![];
            let mut product = vec![1.0f64; seats];
            let mut depth = 0;
            // A position met again ends its branch of a traversal, but not
            // the others: the probe plays on through it, which errs towards
            // outcome sampling where ties can go on and on.
            if state.set_up(def, &mut events).is_ok() {
                while let Some(pending) = state.pending() {
                    if depth >= self.depth {
                        break;
                    }
                    let picked: Vec<Choice> = pending
                        .who()
                        .iter()
                        .map(|&seat| {
                            let legal = pending.legal(seat);
                            product[seat as usize] *= legal.len() as f64;
                            Choice::new(seat, legal[rng.random_range(0..legal.len())])
                        })
                        .collect();
                    events.clear();
                    if state.apply(def, &picked, &mut events).is_err() {
                        break;
                    }
                    depth += 1;
                }
            }
            total += product.iter().copied().fold(1.0, f64::max).min(1e300);
        }
        total / GAMES as f64
    }

    /// What the public position `position`, known to repeat, was found
    /// worth to `seat` so far (0 before anything was found).
    fn repeat_worth(&self, position: u64, seat: Seat) -> f64 {
        match self.repeats.get(&position).map(|w| w[seat as usize]) {
            Some((sum, count)) if count > 0 => sum / count as f64,
            _ => 0.0,
        }
    }

    /// Traversals done (one per seat makes an iteration).
    pub fn traversals(&self) -> u64 {
        self.traversals
    }

    /// The information sets met so far, in the order they were met.
    pub fn sets(&self) -> &[SampledSet] {
        &self.sets
    }

    /// Hands over the information sets met (the run knows none after).
    pub fn take_sets(&mut self) -> Vec<SampledSet> {
        self.index.clear();
        std::mem::take(&mut self.sets)
    }

    /// The set with key `key`, if it was met.
    pub fn set(&self, key: u64) -> Option<&SampledSet> {
        self.index.get(&key).map(|&i| &self.sets[i as usize])
    }

    /// Traversals that reached the depth limit, and that stopped on an error.
    pub fn cut_and_stopped(&self) -> (u64, u64) {
        (self.cut, self.stopped)
    }

    /// Whether every ending met paid zero in all.
    pub fn zero_sum(&self) -> bool {
        self.zero_sum
    }

    /// Runs one batch of [`BATCH`] traversals on `pool`; `false` when
    /// `deadline` (or the process's deadline, or the memory cap) cut it
    /// short, and then nothing of it is kept.
    pub fn batch(&mut self, pool: &rayon::ThreadPool, deadline: Option<Instant>) -> Result<bool, Box<Diagnostic>> {
        let first = self.traversals;
        let this = &*self;
        let traversals = first..first + BATCH;
        // One thread: no hand-over to a pool's thread and back each batch.
        let changes: Vec<Result<Option<Changes>, Box<Diagnostic>>> = match pool.current_num_threads() {
            1 => traversals.map(|t| this.traverse(t, deadline)).collect(),
            _ => pool.install(|| traversals.into_par_iter().map(|t| this.traverse(t, deadline)).collect()),
        };
        let mut kept = Vec::with_capacity(changes.len());
        for changes in changes {
            match changes? {
                Some(changes) => kept.push(changes),
                None => return Ok(false),
            }
        }
        for changes in kept {
            self.merge(changes);
        }
        self.traversals += BATCH;
        Ok(true)
    }

    /// Makes `set` share the labels and keys of the sets before it that
    /// offer the same moves.
    fn share_offers(&mut self, set: &mut SampledSet) {
        let (actions, keys) = self
            .offers
            .entry(offer_key(set.decision, &set.keys))
            .or_insert_with(|| (set.actions.clone(), set.keys.clone()));
        if *keys == set.keys && *actions == set.actions {
            set.actions = actions.clone();
            set.keys = keys.clone();
        }
    }

    /// The labels and keys of `decision` offering the moves `keys`, where
    /// a set before the batch offered them: a new set takes them without
    /// allocating its own. (A move's key names it as the seat sees it, and
    /// so does its label: the same keys read the same.)
    fn known_offer(&self, decision: DecisionId, keys: &[u64]) -> Option<Offer> {
        let (actions, known) = self.offers.get(&offer_key(decision, keys))?;
        (**known == *keys).then(|| (actions.clone(), known.clone()))
    }

    /// Adds one traversal's changes, and keeps their buffers for another.
    fn merge(&mut self, mut changes: Changes) {
        self.cut += changes.cut;
        self.stopped += changes.stopped;
        self.zero_sum &= changes.zero_sum;
        let seats = self.def.players();
        for &(position, found) in &changes.repeats {
            let worth = self.repeats.entry(position).or_insert_with(|| vec![(0.0, 0); seats]);
            if let Some(v) = found {
                let (sum, count) = &mut worth[changes.traverser as usize];
                *sum += v;
                *count += 1;
            }
        }
        for change in &mut changes.sets {
            let at = match self.index.get(&change.key) {
                Some(&at) => at as usize,
                None => {
                    let mut set = change
                        .new
                        .take()
                        .expect("a set the batch did not know comes with its description");
                    self.share_offers(&mut set);
                    self.index.insert(change.key, self.sets.len() as u32);
                    self.sets.push(set);
                    self.sets.len() - 1
                }
            };
            let set = &mut self.sets[at];
            set.visits += 1;
            let (from, actions) = (change.at as usize, change.actions as usize);
            let (regrets, sums) = changes.deltas[from..from + 2 * actions].split_at(actions);
            for (r, d) in set.regrets.iter_mut().zip(regrets) {
                *r += d;
            }
            for (s, d) in set.sums.iter_mut().zip(sums) {
                *s += d;
            }
        }
        self.spare_changes
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .push(changes);
    }

    /// Traversal number `t`: seat `t % seats` traverses a game dealt by the
    /// stream of `t`.
    fn traverse(&self, t: u64, deadline: Option<Instant>) -> Result<Option<Changes>, Box<Diagnostic>> {
        let def = self.def;
        let seats = def.players();
        let stream = mix(self.seed, t);
        let traverser = (t % seats as u64) as Seat;
        let mut changes = self
            .spare_changes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default();
        changes.start(traverser);
        let mut walk = Walk {
            run: self,
            traverser,
            rng: ChaCha8Rng::seed_from_u64(stream),
            changes,
            buffers: BUFFERS.take(),
            deadline,
            cut_short: false,
            steps: 0,
        };
        let walked = walk.deal_and_walk(stream);
        let Walk {
            changes,
            mut buffers,
            cut_short,
            ..
        } = walk;
        // A traversal cut short may leave its path.
        buffers.path.clear();
        BUFFERS.set(buffers);
        walked?;
        Ok((!cut_short).then_some(changes))
    }
}

/// What a traversal borrows from its thread and gives back: the states it
/// steps into and the buffers of its steps, so that a warm traversal
/// allocates little. What a traversal finds never depends on them.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) spares: Vec<State>,
    events: Vec<Event>,
    path: Vec<u64>,
    pub(super) floats: Vec<Vec<f64>>,
    pub(super) values: Vec<Vec<i64>>,
    recalls: Vec<Vec<Recall>>,
    pub(super) choices: Vec<Vec<Choice>>,
    keys: Vec<u64>,
}

thread_local! {
    /// The buffers of the traversals this thread runs.
    static BUFFERS: std::cell::Cell<Buffers> = std::cell::Cell::new(Buffers::default());
}

/// An empty vector, one given back to `pool` if there is one.
fn reused<T>(pool: &mut Vec<Vec<T>>) -> Vec<T> {
    let mut v = pool.pop().unwrap_or_default();
    v.clear();
    v
}

impl Buffers {
    /// An empty vector of numbers, reusing one given back.
    pub(super) fn floats(&mut self) -> Vec<f64> {
        reused(&mut self.floats)
    }

    /// An empty vector of values, reusing one given back.
    pub(super) fn values(&mut self) -> Vec<i64> {
        reused(&mut self.values)
    }

    /// A copy of `seen`, reusing a vector given back.
    pub(super) fn recalls(&mut self, seen: &[Recall]) -> Vec<Recall> {
        let mut v = reused(&mut self.recalls);
        v.extend_from_slice(seen);
        v
    }

    /// An empty vector of choices, reusing one given back.
    pub(super) fn choices(&mut self) -> Vec<Choice> {
        reused(&mut self.choices)
    }

    /// Gives a seat's asked values and strategy back.
    pub(super) fn give_asked(&mut self, asked: Asked) {
        self.values.push(asked.values);
        self.floats.push(asked.strategy);
    }
}

/// One traversal in progress.
pub(super) struct Walk<'r, 'a> {
    pub(super) run: &'r Sampler<'a>,
    pub(super) traverser: Seat,
    pub(super) rng: ChaCha8Rng,
    pub(super) changes: Changes,
    /// Its thread's buffers, for the traversal's time.
    pub(super) buffers: Buffers,
    /// When the traversal must give up (besides the process's deadline).
    pub(super) deadline: Option<Instant>,
    /// A budget ran out: every position from then on is left at once, and
    /// the traversal's changes are thrown away.
    pub(super) cut_short: bool,
    /// Positions visited, so the budgets are read every few of them.
    pub(super) steps: u64,
}

/// What a seat is offered at a decision: its view, the legal values, and
/// their keys as it sees them.
struct Offered<'o, 'a> {
    observation: &'o Observation<'a>,
    legal: &'o [i64],
    keys: &'o [u64],
    /// At a glance, the moves offered as it reads them and, per value in
    /// `legal`, its index among them (`None`: `legal` is every move offered).
    picks: Option<(&'o Glanced, &'o [usize])>,
}

/// A seat at a decision: its set's change, the legal values in the set's
/// order, and the strategy it plays.
pub(super) struct Asked {
    pub(super) change: usize,
    /// At a glance, the changes to the situation's other levels that
    /// learn, which learn alike (see `engine::GlanceSituation`).
    pub(super) also: [Option<usize>; GLANCE_LEVELS - 1],
    pub(super) values: Vec<i64>,
    pub(super) strategy: Vec<f64>,
}

impl Asked {
    /// The changes the situation's learning goes to: its set's, and at a
    /// glance its other level's.
    pub(super) fn changes(&self) -> impl Iterator<Item = usize> + use<> {
        std::iter::once(self.change).chain(self.also.into_iter().flatten())
    }
}

impl Walk<'_, '_> {
    /// Deals a game from the stream `stream` and traverses it.
    fn deal_and_walk(&mut self, stream: u64) -> Result<(), Box<Diagnostic>> {
        let (run, def) = (self.run, self.run.def);
        let mut state = self.buffers.spares.pop().unwrap_or_else(|| run.start.clone());
        state.copy_from(&run.start);
        state.set_chance(Chance::seeded(stream));
        let mut events = std::mem::take(&mut self.buffers.events);
        events.clear();
        let set_up = state.set_up(def, &mut events);
        self.buffers.events = events;
        if set_up.is_err() {
            self.changes.stopped += 1;
            self.buffers.spares.push(state);
            return Ok(());
        }
        let position = state.public_position(def);
        let mut seen = reused(&mut self.buffers.recalls);
        seen.extend(
            (0..def.players())
                .map(|seat| recall_at(&state, seat as Seat, Recall::default(), position, def, run.memory)),
        );
        match run.sampling {
            Sampling::External => {
                let walked = self.walk(&state, &seen, None, 0, position);
                self.buffers.spares.push(state);
                self.buffers.recalls.push(seen);
                walked.map(|_| ())
            }
            Sampling::Outcome => self.outcome_from_start(state, seen).map(|_| ()),
        }
    }

    /// `seat`'s answer `value` at `decision`: in a race, with a reaction
    /// time drawn from the players' default model (see `solve::run`).
    pub(super) fn answer(&mut self, seat: Seat, value: i64, decision: DecisionId) -> Choice {
        answer(self.run.def, seat, value, decision, &mut self.rng)
    }

    /// Whether the traversal must stop now: a budget ran out (read every
    /// 64 positions; once out, it stays out).
    pub(super) fn out_of_budget(&mut self) -> bool {
        self.steps += 1;
        if !self.cut_short && self.steps.is_multiple_of(64) {
            self.cut_short = crate::budget::expired_by(self.deadline) || crate::budget::over_memory();
        }
        self.cut_short
    }

    /// The value of `state` to the traverser, sampling the others' choices
    /// and chance, and recording the traverser's regrets below it.
    /// `position` is the state's digest where it is public: a public
    /// position met again on the way here is worth what traversals found
    /// it worth so far (see `cfr`, where a whole tree does the same).
    fn walk(
        &mut self,
        state: &State,
        seen: &[Recall],
        told: Option<&Rc<Told>>,
        depth: u32,
        position: Option<u64>,
    ) -> Result<f64, Box<Diagnostic>> {
        let Some(position) = position else {
            return stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.walk_here(state, seen, told, depth));
        };
        if self.buffers.path.contains(&position) {
            self.changes.repeats.push((position, None));
            return Ok(self.run.repeat_worth(position, self.traverser));
        }
        self.buffers.path.push(position);
        let v = stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.walk_here(state, seen, told, depth));
        self.buffers.path.pop();
        if let Ok(v) = v
            && self.run.repeats.contains_key(&position)
        {
            self.changes.repeats.push((position, Some(v)));
        }
        v
    }

    fn walk_here(
        &mut self,
        state: &State,
        seen: &[Recall],
        told: Option<&Rc<Told>>,
        depth: u32,
    ) -> Result<f64, Box<Diagnostic>> {
        if self.out_of_budget() {
            return Ok(0.0);
        }
        if let Some(value) = self.value_at_end(state, depth) {
            return Ok(value);
        }
        let pending = state.pending().expect("a game that goes on waits");
        let decision = pending.decision();
        let mut picked = self.buffers.choices();
        let mut mine = None;
        for &seat in pending.who() {
            let asked = self.ask(state, seen, told, seat, decision, depth)?;
            if seat == self.traverser {
                picked.push(self.answer(seat, asked.values[0], decision));
                mine = Some((picked.len() - 1, asked));
            } else {
                let a = draw(&asked.strategy, &mut self.rng);
                for change in asked.changes() {
                    let (_, sums) = self.changes.deltas(change);
                    for (s, p) in sums.iter_mut().zip(&asked.strategy) {
                        *s += p;
                    }
                }
                picked.push(self.answer(seat, asked.values[a], decision));
                self.buffers.give_asked(asked);
            }
        }
        let Some((at, asked)) = mine else {
            let v = self.step(state, seen, told, &picked, depth);
            self.buffers.choices.push(picked);
            return v;
        };
        let mut values = self.buffers.floats();
        for &value in &asked.values {
            // Each choice tried is answered as fast: chance is the same.
            picked[at].value = value;
            values.push(self.step(state, seen, told, &picked, depth)?);
        }
        let v: f64 = values.iter().zip(&asked.strategy).map(|(v, p)| v * p).sum();
        for change in asked.changes() {
            let (regrets, _) = self.changes.deltas(change);
            for (r, value) in regrets.iter_mut().zip(&values) {
                *r += value - v;
            }
        }
        self.buffers.floats.push(values);
        self.buffers.choices.push(picked);
        self.buffers.give_asked(asked);
        Ok(v)
    }

    /// Every seat has picked: the step from `state`, and the game below it.
    fn step(
        &mut self,
        state: &State,
        seen: &[Recall],
        told: Option<&Rc<Told>>,
        picked: &[Choice],
        depth: u32,
    ) -> Result<f64, Box<Diagnostic>> {
        let def = self.run.def;
        let mut seen = self.buffers.recalls(seen);
        self.see_step(state, &mut seen, picked);
        let told = told_after(def, state, picked, told.cloned());
        let mut next = match self.buffers.spares.pop() {
            Some(mut spare) => {
                spare.copy_from(state);
                spare
            }
            None => state.clone(),
        };
        let walked = self.step_into(&mut next, &seen, told, picked, depth);
        self.buffers.spares.push(next);
        self.buffers.recalls.push(seen);
        walked
    }

    /// [`Walk::step`] from `next`, the state before the step.
    fn step_into(
        &mut self,
        next: &mut State,
        seen: &[Recall],
        told: Option<Rc<Told>>,
        picked: &[Choice],
        depth: u32,
    ) -> Result<f64, Box<Diagnostic>> {
        let def = self.run.def;
        if !self.apply_picked(next, picked)? {
            return Ok(0.0);
        }
        if next.pending().is_none() {
            return self.walk(next, seen, told.as_ref(), depth + 1, None);
        }
        let position = next.public_position(def);
        let mut recalled = self.buffers.recalls(seen);
        for (seat, r) in recalled.iter_mut().enumerate() {
            *r = recall_at(next, seat as Seat, *r, position, def, self.run.memory);
        }
        let walked = self.walk(next, &recalled, told.as_ref(), depth + 1, position);
        self.buffers.recalls.push(recalled);
        walked
    }

    /// What `state` is worth to the traverser where the traversal ends
    /// there: a game over is worth its payoff, a game past the depth 0
    /// (counted as cut). `None` where the game goes on.
    pub(super) fn value_at_end(&mut self, state: &State, depth: u32) -> Option<f64> {
        if state.pending().is_none() {
            let pays = payoffs(self.run.def, state, self.run.by_score);
            if pays.iter().sum::<f64>().abs() > 1e-9 {
                self.changes.zero_sum = false;
            }
            return Some(pays[self.traverser as usize]);
        }
        if depth >= self.run.depth {
            self.changes.cut += 1;
            return Some(0.0);
        }
        None
    }

    /// Every seat's recall after seeing the step `picked` from `state`.
    pub(super) fn see_step(&self, state: &State, seen: &mut [Recall], picked: &[Choice]) {
        let def = self.run.def;
        for (seat, recall) in seen.iter_mut().enumerate() {
            *recall = recall.after_step(
                Observation::new(def, state, seat as Seat).step_key(picked),
                self.run.memory,
            );
        }
    }

    /// Plays the step `picked` on `next`. `false` where the game failed
    /// there: it is counted as stopped, and worth 0. A choice that was not
    /// offered is an error of the solver's, said as one.
    pub(super) fn apply_picked(&mut self, next: &mut State, picked: &[Choice]) -> Result<bool, Box<Diagnostic>> {
        let mut events = std::mem::take(&mut self.buffers.events);
        events.clear();
        let applied = next.apply(self.run.def, picked, &mut events);
        self.buffers.events = events;
        match applied {
            Ok(()) => Ok(true),
            Err(EngineError::Runtime(_)) => {
                self.changes.stopped += 1;
                Ok(false)
            }
            Err(EngineError::Illegal(illegal)) => {
                Err(Box::new(Diagnostic::error(Code::IllegalAction, illegal.to_string())))
            }
        }
    }

    /// `seat`'s information set at `state`: its change (made on first
    /// meeting), its legal values in the set's order, and its strategy.
    pub(super) fn ask(
        &mut self,
        state: &State,
        seen: &[Recall],
        told: Option<&Rc<Told>>,
        seat: Seat,
        decision: DecisionId,
        depth: u32,
    ) -> Result<Asked, Box<Diagnostic>> {
        let def = self.run.def;
        let observation = Observation::new(def, state, seat);
        let legal = state.pending().expect("waiting").legal(seat);
        if self.run.memory == Memory::Glance {
            // One move per glance, drawn among the moves that read alike.
            let situation = observation.glance_situation();
            let glanced = &situation.moves;
            let picks = glanced.pick(&mut self.rng);
            let values: Vec<i64> = picks.iter().map(|&i| legal[i]).collect();
            let offered = Offered {
                observation: &observation,
                legal: &values,
                keys: &glanced.keys,
                picks: Some((glanced, &picks)),
            };
            let levels = Levels::Glance(situation.levels);
            return self.ask_with(state, told, seat, decision, depth, levels, offered);
        }
        let mut keys = std::mem::take(&mut self.buffers.keys);
        keys.clear();
        keys.extend((0..legal.len()).map(|i| observation.key(i)));
        let levels = Levels::One(seen[seat as usize].situation(decision, seat, &keys, self.run.memory));
        let offered = Offered {
            observation: &observation,
            legal,
            keys: &keys,
            picks: None,
        };
        let asked = self.ask_with(state, told, seat, decision, depth, levels, offered);
        self.buffers.keys = keys;
        asked
    }

    /// [`Walk::ask`] with what `seat` is offered, in the situation `levels`.
    #[allow(clippy::too_many_arguments)]
    fn ask_with(
        &mut self,
        state: &State,
        told: Option<&Rc<Told>>,
        seat: Seat,
        decision: DecisionId,
        depth: u32,
        levels: Levels,
        offered: Offered<'_, '_>,
    ) -> Result<Asked, Box<Diagnostic>> {
        let def = self.run.def;
        let met = Met {
            state,
            told,
            seat,
            decision,
            depth,
        };
        let (change, also, known_keys) = match levels {
            Levels::One(key) => {
                let (change, known_keys) = self.meet(key, 0, &met, &offered);
                (change, [None; GLANCE_LEVELS - 1], known_keys)
            }
            // At a glance, a situation learns at its coarsest level; each
            // finer level learns too, from every meeting, once training met
            // the level below it often, and the finest level met often plays.
            Levels::Glance(keys) => {
                let often = |key: u64| self.run.set(key).is_some_and(|s| s.visits >= REFINED_VISITS);
                let (mut playing, known_keys) = self.meet(keys[0], GLANCE_LEVELS - 1, &met, &offered);
                let mut also = [None; GLANCE_LEVELS - 1];
                for level in 1..GLANCE_LEVELS {
                    if !often(keys[level - 1]) {
                        break;
                    }
                    let (change, _) = self.meet(keys[level], GLANCE_LEVELS - 1 - level, &met, &offered);
                    also[level - 1] = Some(change);
                    if often(keys[level]) {
                        also[level - 1] = Some(playing);
                        playing = change;
                    }
                }
                (playing, also, known_keys)
            }
        };
        let mut strategy = self.buffers.floats();
        let playing = &self.changes.sets[change];
        match (&playing.new, self.run.set(playing.key)) {
            (None, Some(set)) => set.current_into(&mut strategy),
            _ => uniform_into(offered.keys.len(), &mut strategy),
        }
        let (keys, legal) = (offered.keys, offered.legal);
        let values = if *known_keys == *keys {
            let mut values = self.buffers.values();
            values.extend_from_slice(legal);
            values
        } else {
            align(&known_keys, keys, legal).ok_or_else(|| Box::new(offered_differently(def, seat, decision)))?
        };
        Ok(Asked {
            change,
            also,
            values,
            strategy,
        })
    }

    /// The change to the set `key` (`coarse`: how many levels coarser than
    /// the situation itself, see [`SampledSet::coarse`]), made on the
    /// traversal's first meeting with it, and the set's moves.
    fn meet(&mut self, key: u64, coarse: usize, met: &Met<'_>, offered: &Offered<'_, '_>) -> (usize, Arc<[u64]>) {
        if let Some(&at) = self.changes.index.get(&key) {
            let change = &self.changes.sets[at as usize];
            let set = change
                .new
                .as_ref()
                .or_else(|| self.run.set(key))
                .expect("a set met is known");
            return (at as usize, set.keys.clone());
        }
        let (new, known_keys) = match self.run.set(key) {
            Some(set) => (None, set.keys.clone()),
            None => {
                let Offered {
                    observation,
                    legal,
                    keys,
                    picks,
                } = *offered;
                let (actions, shared) = self.run.known_offer(met.decision, keys).unwrap_or_else(|| {
                    let labels = match picks {
                        Some((glanced, picks)) => {
                            picks.iter().map(|&i| glance_label(observation, glanced, i)).collect()
                        }
                        None => (0..legal.len()).map(|i| observation.label(i).into()).collect(),
                    };
                    (labels, keys.into())
                });
                let words = situation(self.run.def, met.state, met.seat, met.told.map(|t| &**t));
                let set = SampledSet {
                    seat: met.seat,
                    decision: met.decision,
                    key,
                    actions,
                    keys: shared.clone(),
                    situation: match coarse {
                        0 => words,
                        1 => format!("at a bare glance, first met as: {words}"),
                        _ => format!("by its moves alone, first met as: {words}"),
                    },
                    coarse: coarse as u8,
                    depth: met.depth,
                    regrets: vec![0.0; legal.len()],
                    sums: vec![0.0; legal.len()],
                    visits: 0,
                };
                (Some(set), shared)
            }
        };
        (self.changes.add(key, new, known_keys.len()), known_keys)
    }
}

/// A situation's keys: its set's, or at a glance its levels', coarsest
/// first.
#[derive(Clone, Copy)]
enum Levels {
    One(u64),
    Glance([u64; GLANCE_LEVELS]),
}

/// Where a seat is asked: what a set first met there is made of.
struct Met<'m> {
    state: &'m State,
    told: Option<&'m Rc<Told>>,
    seat: Seat,
    decision: DecisionId,
    depth: u32,
}

/// `seat`'s answer `value` at `decision`: in a race, with a reaction time
/// drawn with `rng` from the players' default model (see `solve::run`).
pub(super) fn answer(def: &Game, seat: Seat, value: i64, decision: DecisionId, rng: &mut ChaCha8Rng) -> Choice {
    let reaction_ms = match def.decisions[decision as usize].race {
        true => crate::agents::Reaction::default().sample(rng),
        false => 0,
    };
    Choice {
        seat,
        value,
        reaction_ms,
    }
}

/// What `seat` recalls at `state`, after `before`, where `position` is
/// the state's public digest if it has one (found once for every seat).
fn recall_at(state: &State, seat: Seat, before: Recall, position: Option<u64>, def: &Game, memory: Memory) -> Recall {
    match (position, memory) {
        (_, Memory::Glance) => state.recall_here(def, seat, before, memory),
        (Some(position), _) => Recall::of_position(position),
        (None, _) => before.after_seeing(state.view_fingerprint(def, seat), memory),
    }
}

/// A move offered (its index `i`), named for a strategy over glances,
/// where it stands for every move that reads alike.
fn glance_label(observation: &Observation<'_>, glanced: &Glanced, i: usize) -> Arc<str> {
    let alike = glanced.class.iter().filter(|&&c| c == glanced.class[i]).count();
    match alike {
        1 => observation.label(i).into(),
        n => format!("{} (or one of {} more like it)", observation.label(i), n - 1).into(),
    }
}

/// `out` becomes the uniform strategy over `n` moves.
fn uniform_into(n: usize, out: &mut Vec<f64>) {
    out.clear();
    out.resize(n, 1.0 / n as f64);
}
