//! What a sampled strategy is worth: measured on a tree where one fits,
//! else estimated by playing it, with how much of play it trained.

use std::collections::HashMap;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rayon::prelude::*;

use super::{SampledSet, Sampler};
use crate::agents::draw;
use crate::engine::{Chance, GLANCE_LEVELS, Memory, Observation, REFINED_VISITS, Recall, State, mix};
use crate::ir::Seat;
use crate::solve::profile::Profile;
use crate::solve::tree::{Tree, payoffs};

impl Sampler<'_> {
    /// The average strategy on `tree`'s information sets (uniform where
    /// sampling never went), to measure it there.
    pub fn profile_on(&self, tree: &Tree) -> Profile {
        let mut probs = vec![0.0; tree.actions];
        // Glances are read off each set's example position (a tree built
        // with them), where the set's actions are in the order offered.
        let averages: Vec<Vec<f64>> = match self.memory {
            Memory::Glance => self.sets.iter().map(SampledSet::average).collect(),
            _ => vec![],
        };
        for (at, set) in tree.infosets.iter().enumerate() {
            let out = &mut probs[set.offset..set.offset + set.actions.len()];
            if self.memory == Memory::Glance {
                let learnt = tree.examples.get(at).and_then(|state| {
                    let observation = Observation::new(self.def, state, set.seat);
                    let recall = state.recall_here(self.def, set.seat, Recall::default(), self.memory);
                    self.offered_strategy(&observation, recall, &averages, &mut vec![])
                });
                match learnt {
                    Some(p) => out.copy_from_slice(&p),
                    None => out.fill(1.0 / set.actions.len() as f64),
                }
                continue;
            }
            let learnt = self.set(set.key).and_then(|s| {
                let average = s.average();
                set.keys
                    .iter()
                    .map(|k| s.keys.iter().position(|x| x == k).map(|i| average[i]))
                    .collect::<Option<Vec<f64>>>()
            });
            match learnt {
                Some(p) => out.copy_from_slice(&p),
                None => out.fill(1.0 / set.actions.len() as f64),
            }
        }
        Profile { probs }
    }

    /// Plays up to `games` games with every seat on the average strategy,
    /// dealt from `seed`, in chunks of [`ESTIMATE_CHUNK`], stopping after the
    /// chunk that passes `deadline` or nears the memory cap
    /// ([`crate::budget::near_cap`]): what each seat wins (mean, and the
    /// half-width of a 95% interval), and how often each information set was met.
    pub fn play_average(&self, pool: &rayon::ThreadPool, games: u64, seed: u64, deadline: Option<Instant>) -> Estimate {
        let seats = self.def.players();
        // In the order of `self.sets`.
        let averages: Vec<Vec<f64>> = self.sets.iter().map(SampledSet::average).collect();
        let mut tally = Tally {
            sums: vec![0.0; seats],
            squares: vec![0.0; seats],
            ..Tally::default()
        };
        // At least a few games, however late; past the deadline, or near
        // the memory cap, no game starts, and the games kept are the first
        // ones in order (a game skipped ends the count, so what is kept is
        // a prefix).
        let late = |g: u64| g >= MOST_LATE_GAMES && (crate::budget::expired_by(deadline) || crate::budget::near_cap());
        'chunks: while tally.games < games {
            let from = tally.games;
            let to = (from + ESTIMATE_CHUNK).min(games);
            let chunk: Vec<Option<Played>> = pool.install(|| {
                (from..to)
                    .into_par_iter()
                    .map(|g| (!late(g)).then(|| self.play_one(&averages, mix(seed ^ 0x504c_4159, g))))
                    .collect()
            });
            // Each chunk is counted and let go: a game's situations are
            // many where most are new, and only those sampling met are kept.
            for game in chunk {
                match game {
                    Some(game) => tally.add(game, |key| self.set(key).map(|s| (s.visits, s.coarse))),
                    None => break 'chunks,
                }
            }
        }
        let Tally {
            games,
            sums,
            squares,
            visits,
            cut,
            decisions,
            trained,
            by_level,
        } = tally;
        let n = games.max(1) as f64;
        let means: Vec<f64> = sums.iter().map(|s| s / n).collect();
        let margins = squares
            .iter()
            .zip(&means)
            .map(|(sq, m)| {
                let variance = (sq / n - m * m).max(0.0) * n / (n - 1.0).max(1.0);
                1.96 * (variance / n).sqrt()
            })
            .collect();
        Estimate {
            games,
            means,
            margins,
            visits,
            cut,
            trained: trained as f64 / decisions.max(1) as f64,
            by_level: (self.memory == Memory::Glance)
                .then(|| by_level.iter().map(|&n| n as f64 / decisions.max(1) as f64).collect()),
        }
    }

    /// The average strategy (`averages`, in the order of `self.sets`) of
    /// the situation at `observation`, whose seat recalls `recall`: a
    /// probability per move offered, `None` where sampling never met it or
    /// met other moves there. The situation's key is pushed on `met`.
    fn offered_strategy(
        &self,
        observation: &Observation<'_>,
        recall: Recall,
        averages: &[Vec<f64>],
        met: &mut Vec<u64>,
    ) -> Option<Vec<f64>> {
        let (decision, seat) = (observation.decision(), observation.seat());
        let situation = (self.memory == Memory::Glance).then(|| observation.glance_situation());
        let (key, keys) = match &situation {
            // The finest level training met often, else the coarsest.
            Some(at) => {
                let often = |key: &&u64| self.set(**key).is_some_and(|s| s.visits >= REFINED_VISITS);
                let key = at.levels.iter().rev().find(often).unwrap_or(&at.levels[0]);
                (*key, at.moves.keys.clone())
            }
            None => {
                let keys: Vec<u64> = (0..observation.legal_len()).map(|i| observation.key(i)).collect();
                (recall.situation(decision, seat, &keys, self.memory), keys)
            }
        };
        met.push(key);
        let at = *self.index.get(&key)? as usize;
        let (set, average) = (&self.sets[at], &averages[at]);
        let p = keys
            .iter()
            .map(|k| set.keys.iter().position(|x| x == k).map(|j| average[j]))
            .collect::<Option<Vec<f64>>>()?;
        Some(match situation {
            Some(at) => at.moves.spread(&p),
            None => p,
        })
    }

    /// One game on the average strategy.
    fn play_one(&self, averages: &[Vec<f64>], stream: u64) -> Played {
        let def = self.def;
        let seats = def.players();
        let mut rng = ChaCha8Rng::seed_from_u64(stream);
        let mut state = State::new(def, self.options, Chance::seeded(stream), vec![]);
        let mut events = vec![];
        let mut played = Played {
            payoffs: vec![0.0; seats],
            met: vec![],
            cut: false,
        };
        if state.set_up(def, &mut events).is_err() {
            return played;
        }
        let mut seen: Vec<Recall> = vec![Recall::default(); seats];
        let mut depth = 0;
        while let Some(pending) = state.pending() {
            if depth >= self.depth {
                played.cut = true;
                return played;
            }
            for (seat, r) in seen.iter_mut().enumerate() {
                *r = state.recall_here(def, seat as Seat, *r, self.memory);
            }
            let mut picked = vec![];
            for &seat in pending.who() {
                let observation = Observation::new(def, &state, seat);
                let legal = pending.legal(seat);
                let p = self.offered_strategy(&observation, seen[seat as usize], averages, &mut played.met);
                let p = p.unwrap_or_else(|| vec![1.0 / legal.len() as f64; legal.len()]);
                let value = legal[draw(&p, &mut rng)];
                picked.push(super::answer(def, seat, value, pending.decision(), &mut rng));
            }
            for (seat, r) in seen.iter_mut().enumerate() {
                *r = r.after_step(
                    Observation::new(def, &state, seat as Seat).step_key(&picked),
                    self.memory,
                );
            }
            events.clear();
            if state.apply(def, &picked, &mut events).is_err() {
                return played;
            }
            depth += 1;
        }
        played.payoffs = payoffs(def, &state, self.by_score);
        played
    }
}

/// Games played at a time when estimating a strategy's values.
pub const ESTIMATE_CHUNK: u64 = 1_024;

/// Games an estimate plays even when its time has run out.
const MOST_LATE_GAMES: u64 = 64;

/// What games played with a strategy found.
pub struct Estimate {
    /// Games played.
    pub games: u64,
    /// Each seat's mean payoff.
    pub means: Vec<f64>,
    /// Per seat, the half-width of the mean's 95% interval.
    pub margins: Vec<f64>,
    /// Per information set sampling met, by key, the games that met it.
    pub visits: HashMap<u64, u64>,
    /// Games cut at the depth limit (counted as draws).
    pub cut: u64,
    /// The share of the games' decisions made in situations sampling met
    /// at least [`TRAINED_VISITS`] times.
    pub trained: f64,
    /// At a glance, the share of the decisions played at each level of
    /// their situation, finest first (see `engine::GlanceSituation`).
    pub by_level: Option<Vec<f64>>,
}

/// Traversals that must meet a situation before its strategy counts as
/// trained, for [`Estimate::trained`].
pub const TRAINED_VISITS: u64 = 100;

/// What the games played with a strategy add up to, one game at a time.
#[derive(Default)]
struct Tally {
    games: u64,
    /// Per seat, the payoffs and their squares.
    sums: Vec<f64>,
    squares: Vec<f64>,
    /// Per situation sampling met, the games that met it.
    visits: HashMap<u64, u64>,
    cut: u64,
    /// Decisions taken, and those in trained situations.
    decisions: u64,
    trained: u64,
    /// Decisions taken in situations sampling met, by how many levels
    /// coarser than the situation they were played (see
    /// [`SampledSet::coarse`]).
    by_level: [u64; GLANCE_LEVELS],
}

impl Tally {
    /// Counts `game`; `met_set` says how often sampling met a situation
    /// and how coarse its set is, `None` where it never met it.
    fn add(&mut self, game: Played, met_set: impl Fn(u64) -> Option<(u64, u8)>) {
        self.games += 1;
        for key in game.met {
            self.decisions += 1;
            if let Some((visits, coarse)) = met_set(key) {
                self.trained += u64::from(visits >= TRAINED_VISITS);
                self.by_level[usize::from(coarse).min(GLANCE_LEVELS - 1)] += 1;
                *self.visits.entry(key).or_default() += 1;
            }
        }
        for (seat, v) in game.payoffs.iter().enumerate() {
            self.sums[seat] += v;
            self.squares[seat] += v * v;
        }
        self.cut += u64::from(game.cut);
    }
}

/// One game played with a strategy.
struct Played {
    payoffs: Vec<f64>,
    /// The information sets met, by key (with repeats).
    met: Vec<u64>,
    cut: bool,
}
