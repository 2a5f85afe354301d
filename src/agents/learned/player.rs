//! The `learned` player: one step (or a few) of lookahead on the
//! evaluation training fitted, in worlds sampled from what it sees, and a
//! mixed strategy where two seats answer at once.

use std::sync::Arc;

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::net::Net;
use crate::agents::agent::{Agent, Reaction};
use crate::agents::search::each_choice_in_worlds;
use crate::engine::{Event, FeatureLayout, Game, Observation, Pick, World};
use crate::ir::Seat;

/// What training found: the layout of the features and the evaluation.
pub(super) struct Model {
    pub layout: FeatureLayout,
    pub net: Net,
}

/// The player.
pub(crate) struct Learned {
    seat: Seat,
    samples: u32,
    depth: u32,
    rng: ChaCha8Rng,
    model: Arc<Model>,
    name: String,
    scratch: Scratch,
    /// What trying a choice records (the evaluation has its own).
    events: Vec<Event>,
}

/// What evaluating reuses between calls, so that it allocates little.
#[derive(Default)]
struct Scratch {
    events: Vec<Event>,
    features: Vec<f32>,
    hidden: Vec<f32>,
    /// The world the score terms are run in (see [`World::score_now_in`]).
    spare: Option<World>,
}

impl Scratch {
    /// `seat`'s share of the points in `world`: as it ended, or as the
    /// evaluation expects.
    fn rate(&mut self, def: &Game, model: &Model, world: &World, seat: Seat) -> f64 {
        let scores = self.scores(def, world);
        self.rate_scored(def, model, world, seat, scores.as_deref())
    }

    /// [`Scratch::rate`] for every seat, into `out`: the score terms,
    /// which are the same whoever reads them, are run once.
    fn rate_all(&mut self, def: &Game, model: &Model, world: &World, out: &mut Vec<f64>) {
        out.clear();
        let scores = self.scores(def, world);
        for seat in 0..def.players() {
            out.push(self.rate_scored(def, model, world, seat as Seat, scores.as_deref()));
        }
    }

    /// The score terms of `world` now, for a game with some that has not ended.
    fn scores(&mut self, def: &Game, world: &World) -> Option<Vec<Vec<i64>>> {
        if def.score_terms.is_empty() || world.outcome().is_some() {
            return None;
        }
        self.events.clear();
        world.score_now_in(def, &mut self.spare, &mut self.events).ok()
    }

    fn rate_scored(
        &mut self,
        def: &Game,
        model: &Model,
        world: &World,
        seat: Seat,
        scores: Option<&[Vec<i64>]>,
    ) -> f64 {
        if let Some(outcome) = world.outcome() {
            return match outcome.winner {
                Some(w) if w == seat => 1.0,
                Some(_) => 0.0,
                None => 1.0 / def.players() as f64,
            };
        }
        read_scored_position(def, &model.layout, world, seat, scores, &mut self.features);
        f64::from(model.net.value(&self.features, &mut self.hidden))
    }

    /// `seat`'s share of the points in `world`, looking `depth` decisions
    /// further where one seat decides alone: the seat's best choice for
    /// itself, another seat's worst for it. A decision several seats answer
    /// at once is rated as it stands.
    fn look(&mut self, def: &Game, model: &Model, world: &World, seat: Seat, depth: u32) -> f64 {
        let Some((_, who)) = world.pending() else {
            return self.rate(def, model, world, seat);
        };
        if depth == 0 || who.len() != 1 {
            return self.rate(def, model, world, seat);
        }
        let decider = who[0];
        let mut best: Option<f64> = None;
        for i in 0..world.legal_len(decider) {
            let mut w = world.clone();
            let pick = [Pick {
                seat: decider,
                index: i,
                reaction_ms: 0,
            }];
            self.events.clear();
            if w.apply(def, &pick, &mut self.events).is_err() {
                continue;
            }
            let v = self.look(def, model, &w, seat, depth - 1);
            best = Some(match best {
                None => v,
                Some(b) if decider == seat => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.unwrap_or_else(|| self.rate(def, model, world, seat))
    }
}

/// How many figures [`read_scored_position`] gives for `def`.
pub(super) fn position_len(def: &Game, layout: &FeatureLayout) -> usize {
    layout.len() + def.players() * def.score_terms.len()
}

/// `world` as `seat` reads it, into `out`: its features, then every
/// seat's score terms as they stand (numbered from `seat` on), which the
/// game's own scoring computes however it likes (lines, sets, tables).
/// `scores` holds those terms per seat and term, run once for every seat
/// that reads the world (`None` where they could not be: they read 0).
pub(super) fn read_scored_position(
    def: &Game,
    layout: &FeatureLayout,
    world: &World,
    seat: Seat,
    scores: Option<&[Vec<i64>]>,
    out: &mut Vec<f32>,
) {
    world.features(def, layout, seat, out);
    if def.score_terms.is_empty() {
        return;
    }
    let players = def.players();
    let start = out.len();
    out.resize(start + players * def.score_terms.len(), 0.0);
    if let Some(scores) = scores {
        for (s, row) in scores.iter().enumerate() {
            let from_seat = (s + players - usize::from(seat)) % players;
            for (t, &v) in row.iter().enumerate() {
                out[start + from_seat * row.len() + t] = v as f32;
            }
        }
    }
}

impl Learned {
    /// This player under the name its spec gives it.
    pub(super) fn named(mut self, name: String) -> Learned {
        self.name = name;
        self
    }

    /// A player of `model` for `seat`, drawing from `rng` (training plays
    /// its later generations with it).
    pub(super) fn with_model(model: Arc<Model>, seat: Seat, samples: u32, depth: u32, rng: ChaCha8Rng) -> Learned {
        Learned {
            seat,
            samples,
            depth,
            rng,
            model,
            name: String::new(),
            scratch: Scratch::default(),
            events: vec![],
        }
    }

    fn pick(&mut self, def: &Game, obs: &Observation<'_>, allowed: Option<&[bool]>) -> usize {
        let n = obs.legal_len();
        let ok = |i: usize| allowed.is_none_or(|a| a.get(i) == Some(&true));
        let open: Vec<usize> = (0..n).filter(|&i| ok(i)).collect();
        if open.len() <= 1 {
            return open.first().copied().unwrap_or(0);
        }
        if obs.is_simultaneous()
            && obs.who().len() == 2
            && allowed.is_none()
            && let Some(i) = self.mixed(def, obs)
        {
            return i;
        }
        let mut sums = vec![0.0; n];
        let (seat, depth) = (self.seat, self.depth);
        let (model, scratch) = (&self.model, &mut self.scratch);
        let worlds = each_choice_in_worlds(
            def,
            obs,
            (seat, self.samples, &Reaction::default()),
            &mut self.rng,
            &open,
            &mut self.events,
            |i, world, _| {
                sums[i] += match world {
                    Some(w) => scratch.look(def, model, w, seat, depth - 1),
                    None => -1.0,
                };
            },
        );
        let worlds = worlds.unwrap_or(0);
        if worlds == 0 {
            return open[self.rng.random_range(0..open.len())];
        }
        let best = open.iter().map(|&i| sums[i]).fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<usize> = open
            .into_iter()
            .filter(|&i| sums[i] >= best - 1e-9 * worlds as f64)
            .collect();
        ties[self.rng.random_range(0..ties.len())]
    }

    /// At a decision two seats answer at once: the table of every pair of
    /// answers, rated over sampled worlds, and a draw from the mixed
    /// strategy regret matching finds for it.
    fn mixed(&mut self, def: &Game, obs: &Observation<'_>) -> Option<usize> {
        let mine = obs.legal_len();
        let mut table: Vec<f64> = vec![];
        let mut theirs = 0;
        let mut worlds = 0;
        // Buffers reused from world to world and pair to pair.
        let (mut sampled, mut tried, mut keys) = (None, None, vec![]);
        for _ in 0..self.samples {
            if !obs.sample_into(&mut self.rng, &mut sampled, &mut keys) {
                continue;
            }
            let world = sampled.as_ref().expect("sampled");
            let (_, who) = world.pending()?;
            let other = *who.iter().find(|&&s| s != self.seat)?;
            let their_len = world.legal_len(other);
            if worlds == 0 {
                theirs = their_len;
                table = vec![0.0; mine * theirs];
            } else if their_len != theirs {
                return None;
            }
            worlds += 1;
            let me_first = self.seat < other;
            for i in 0..mine {
                for j in 0..theirs {
                    let (a, b) = if me_first { (i, j) } else { (j, i) };
                    let (sa, sb) = if me_first {
                        (self.seat, other)
                    } else {
                        (other, self.seat)
                    };
                    let picks = [
                        Pick {
                            seat: sa,
                            index: a,
                            reaction_ms: 0,
                        },
                        Pick {
                            seat: sb,
                            index: b,
                            reaction_ms: 0,
                        },
                    ];
                    let w = world.copy_into(&mut tried);
                    self.scratch.events.clear();
                    table[i * theirs + j] += match w.apply(def, &picks, &mut self.scratch.events) {
                        Ok(()) => self.scratch.rate(def, &self.model, w, self.seat),
                        Err(_) => 0.0,
                    };
                }
            }
        }
        if worlds == 0 {
            return None;
        }
        let strategy = regret_matching(&table, mine, theirs, 400);
        Some(crate::agents::agent::draw(&strategy, &mut self.rng))
    }
}

/// The row player's average strategy after `rounds` of regret matching+
/// in the zero-sum game `table` (the row player's payoffs, `rows` x
/// `columns`, row major).
fn regret_matching(table: &[f64], rows: usize, columns: usize, rounds: usize) -> Vec<f64> {
    let mut regret = [vec![0.0; rows], vec![0.0; columns]];
    let mut total = vec![0.0; rows];
    let current = |r: &[f64]| -> Vec<f64> {
        let sum: f64 = r.iter().map(|x| x.max(0.0)).sum();
        if sum > 0.0 {
            r.iter().map(|x| x.max(0.0) / sum).collect()
        } else {
            vec![1.0 / r.len() as f64; r.len()]
        }
    };
    for round in 0..rounds {
        let (row, column) = (current(&regret[0]), current(&regret[1]));
        let row_values: Vec<f64> = (0..rows)
            .map(|i| (0..columns).map(|j| column[j] * table[i * columns + j]).sum())
            .collect();
        let column_values: Vec<f64> = (0..columns)
            .map(|j| (0..rows).map(|i| -row[i] * table[i * columns + j]).sum())
            .collect();
        let row_mean: f64 = row.iter().zip(&row_values).map(|(p, v)| p * v).sum();
        let column_mean: f64 = column.iter().zip(&column_values).map(|(p, v)| p * v).sum();
        for i in 0..rows {
            regret[0][i] = (regret[0][i] + row_values[i] - row_mean).max(0.0);
            // Later rounds weigh more (linear averaging), as in CFR+.
            total[i] += (round + 1) as f64 * row[i];
        }
        for j in 0..columns {
            regret[1][j] = (regret[1][j] + column_values[j] - column_mean).max(0.0);
        }
    }
    let sum: f64 = total.iter().sum();
    total.iter().map(|t| t / sum).collect()
}

impl Agent for Learned {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, def: &Game, obs: &Observation<'_>) -> usize {
        self.pick(def, obs, None)
    }

    fn choose_allowed(&mut self, def: &Game, obs: &Observation<'_>, allowed: &[bool]) -> Option<usize> {
        Some(self.pick(def, obs, Some(allowed)))
    }

    fn rate(&mut self, def: &Game, world: &World, out: &mut Vec<f64>) -> bool {
        self.scratch.rate_all(def, &self.model, world, out);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::regret_matching;

    #[test]
    fn regret_matching_mixes_where_it_must_and_not_where_it_need_not() {
        // A cycle of three answers, in shares of the point (a tie shares it):
        // the only equilibrium throws each a third of the time.
        let rps = [0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5];
        for p in regret_matching(&rps, 3, 3, 400) {
            assert!((p - 1.0 / 3.0).abs() < 0.05, "{p}");
        }
        // A row that wins whatever the column is played always.
        let dominated = [1.0, 0.8, 0.3, 0.2];
        let strategy = regret_matching(&dominated, 2, 2, 400);
        assert!(strategy[0] > 0.95, "{strategy:?}");
    }
}
