//! Information-Set Monte Carlo Tree Search (single-observer IS-MCTS).
//!
//! Each iteration samples a world consistent with the agent's observation
//! ([`Observation::sample`]), walks the tree in that world, adds one node, plays
//! the rest of the game at random and scores the end for every seat.
//!
//! - A node is a sequence of moves as the searching seat sees them: another
//!   seat's secret answer is one hidden move, so the tree never knows what
//!   the seat could not.
//! - Moves are keyed so they match across worlds (a known piece by what it
//!   is, an unknown one by where it lies); a move is scored with UCB1 over
//!   the visits in which it was available (Cowling, Powley & Whitehouse 2012).
//! - Simultaneous decisions are decoupled: every answering seat picks its
//!   own move by its own statistics (decoupled UCT).
//! - Races: the searching seat picks the call; every answer's reaction time
//!   is drawn from the reaction model.
//! - It runs on sampled copies, never on the game itself, and is
//!   deterministic for a seed when its budget is in iterations.

use std::time::{Duration, Instant};

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::search::{rewards, rollout};
use super::spec::{AgentInfo, AgentSpec, Domain, ParamInfo, Params};
use super::{Agent, REACTION_PARAMS, Reaction, SEED_PARAM, seat_rng};
use crate::engine::{Event, Observation, Pick, mix};
use crate::game::Game;
use crate::ir::{ChoiceKind, GameDef, Seat};

pub(super) const INFO: AgentInfo = AgentInfo {
    name: "mcts",
    about: "Information-Set Monte Carlo Tree Search over worlds consistent with what it knows; \
            decoupled UCT at simultaneous decisions; races supported",
    params: &[
        ParamInfo {
            name: "iterations",
            default: "1000",
            about: "search iterations per decision (one sampled world and one playout each)",
            domain: Domain::Whole(1, 10_000_000),
        },
        ParamInfo {
            name: "time_ms",
            default: "none",
            about: "a time budget per decision instead, in ms (then not deterministic)",
            domain: Domain::Whole(1, 3_600_000),
        },
        ParamInfo {
            name: "c",
            default: "0.7",
            about: "the UCB1 exploration constant (rewards are 0 to 1)",
            domain: Domain::Number(0.0, 100.0),
        },
        ParamInfo {
            name: "mixed",
            default: "true",
            about: "at a simultaneous choice of kinds (a duel's throw, not a race), play each move in \
                    proportion to its visits (false: the most visited)",
            domain: Domain::Bool,
        },
        ParamInfo {
            name: "rollout_limit",
            default: "10000",
            about: "decisions a random playout may take before it counts as a draw",
            domain: Domain::Whole(1, 1_000_000),
        },
        SEED_PARAM,
        REACTION_PARAMS[0],
        REACTION_PARAMS[1],
    ],
};

/// Where one decision's search time went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Search iterations run (one sampled world and one playout each).
    pub iterations: u32,
    /// Nodes in the tree when the search ended.
    pub nodes: u32,
    /// Sampling worlds (including rebuilding their offers).
    pub determinize: Duration,
    /// Walking the tree: keys, selection, applying the tree's moves.
    pub tree: Duration,
    /// Random playouts to the end.
    pub rollout: Duration,
    /// Wall time of the whole search.
    pub total: Duration,
}

impl SearchStats {
    /// Adds `other`'s counts and times to these.
    pub fn add(&mut self, other: &SearchStats) {
        self.iterations += other.iterations;
        self.nodes += other.nodes;
        self.determinize += other.determinize;
        self.tree += other.tree;
        self.rollout += other.rollout;
        self.total += other.total;
    }
}

#[derive(Clone, Debug, Default)]
struct Node {
    arms: Vec<Arm>,
    /// By the searching seat's observation of the joint move.
    children: Vec<(u64, u32)>,
}

#[derive(Clone, Copy, Debug)]
struct Arm {
    seat: Seat,
    key: u64,
    visits: u32,
    reward: f64,
    /// Visits to the node in which this move was available.
    available: u32,
}

/// The observation of another seat's secret answer.
const HIDDEN: u64 = 0x4849_4444_454E;

/// The IS-MCTS agent (`mcts`; see the module documentation).
pub struct Mcts {
    seat: Seat,
    iterations: Option<u32>,
    time: Option<Duration>,
    c: f64,
    mixed: bool,
    limit: u32,
    rng: ChaCha8Rng,
    reaction: Reaction,
    spec: AgentSpec,
    events: Vec<Event>,
    /// The last decision's search.
    pub last: SearchStats,
    /// The sum over all its searches.
    pub total: SearchStats,
}

impl Mcts {
    /// The agent for `seat`, its randomness from `seed`, with the default parameters (1000 iterations a decision).
    pub fn new(seat: Seat, seed: u64) -> Self {
        Mcts {
            seat,
            iterations: Some(1000),
            time: None,
            c: 0.7,
            mixed: true,
            limit: 10_000,
            rng: seat_rng(seed ^ 0x4D43_5453, seat),
            reaction: Reaction::default(),
            spec: AgentSpec {
                name: "mcts".into(),
                params: vec![],
            },
            events: Vec::with_capacity(256),
            last: SearchStats::default(),
            total: SearchStats::default(),
        }
    }

    pub(super) fn from_params(p: &Params<'_>, seat: Seat, seed: u64) -> Result<Self, String> {
        let mut m = Mcts::new(seat, seed);
        let iterations = p.u64("iterations")?;
        m.time = p.u64("time_ms")?.map(Duration::from_millis);
        m.iterations = match (iterations, m.time) {
            (Some(n), _) => Some(n as u32),
            (None, Some(_)) => None,
            (None, None) => m.iterations,
        };
        m.c = p.f64("c")?.unwrap_or(m.c);
        m.mixed = p.bool("mixed")?.unwrap_or(m.mixed);
        m.limit = p.u64("rollout_limit")?.map_or(m.limit, |v| v as u32);
        m.reaction = Reaction::from_params(p)?;
        m.spec.params = [
            "iterations",
            "time_ms",
            "c",
            "mixed",
            "rollout_limit",
            "reaction_floor",
            "reaction_mean",
        ]
        .iter()
        .filter_map(|k| p.raw(k).map(|v| (k.to_string(), v.to_string())))
        .collect();
        Ok(m)
    }

    /// Searches `iterations` per decision (and drops any time budget).
    pub fn set_iterations(&mut self, iterations: u32) {
        self.iterations = Some(iterations.max(1));
        self.time = None;
    }

    /// Searches from the observation; returns, per legal choice of the seat,
    /// its visits and mean reward (`None` when no world could be sampled).
    pub(crate) fn search(&mut self, def: &Game, obs: &Observation<'_>) -> Option<Vec<(u32, f64)>> {
        let started = Instant::now();
        let mut stats = SearchStats::default();
        let me = self.seat;
        let root_keys: Vec<u64> = (0..obs.legal_len()).map(|i| obs.key(i)).collect();
        let mut nodes = vec![Node::default()];
        let mut sampled_any = false;
        let mut picks: Vec<Pick> = Vec::with_capacity(4);
        let mut keys: Vec<u64> = Vec::with_capacity(16);
        let mut path: Vec<(u32, Vec<usize>)> = Vec::with_capacity(32);
        loop {
            if self.iterations.is_some_and(|n| stats.iterations >= n)
                || self.time.is_some_and(|t| started.elapsed() >= t)
            {
                break;
            }
            let t0 = Instant::now();
            let sampled = obs.sample(&mut self.rng);
            let t1 = Instant::now();
            stats.determinize += t1 - t0;
            stats.iterations += 1;
            let Some(mut world) = sampled else {
                if !sampled_any && stats.iterations > 20 {
                    return None;
                }
                continue;
            };
            sampled_any = true;
            // Selection and expansion.
            path.clear();
            let mut node = 0usize;
            let mut ok = true;
            let mut expanded = false;
            while let Some((decision, who)) = world.pending() {
                let who = who.to_vec();
                let kind = &def.decisions[decision as usize];
                let mut observed = mix(0, decision as u64);
                picks.clear();
                let mut picked = Vec::with_capacity(who.len());
                for &seat in &who {
                    keys.clear();
                    keys.extend((0..world.legal_len(seat)).map(|i| world.key(def, seat, i)));
                    let (arm, at) = select(&mut nodes[node], seat, &keys, self.c, &mut self.rng);
                    picks.push(Pick {
                        seat,
                        index: at,
                        reaction_ms: if kind.race {
                            self.reaction.sample(&mut self.rng)
                        } else {
                            0
                        },
                    });
                    picked.push(arm);
                    let seen = world.sees_choice(def, seat, at);
                    observed = mix(observed, if seen { keys[at] } else { HIDDEN });
                }
                path.push((node as u32, picked));
                self.events.clear();
                if world.apply(def, &picks, &mut self.events).is_err() {
                    ok = false;
                    break;
                }
                match nodes[node].children.iter().find(|(k, _)| *k == observed) {
                    Some(&(_, child)) => node = child as usize,
                    None => {
                        let child = nodes.len() as u32;
                        nodes.push(Node::default());
                        nodes[node].children.push((observed, child));
                        expanded = true;
                        break;
                    }
                }
            }
            let t2 = Instant::now();
            stats.tree += t2 - t1;
            // Playout.
            if ok && expanded {
                ok = rollout(
                    def,
                    &mut world,
                    &mut self.rng,
                    &self.reaction,
                    self.limit,
                    &mut self.events,
                );
            }
            stats.rollout += t2.elapsed();
            let paid = if ok && world.is_over() {
                rewards(def, &world)
            } else {
                vec![1.0 / def.players() as f64; def.players()]
            };
            // Backpropagation.
            for (n, arms) in &path {
                let node = &mut nodes[*n as usize];
                for &a in arms {
                    let arm = &mut node.arms[a];
                    arm.visits += 1;
                    arm.reward += paid[arm.seat as usize];
                }
            }
        }
        stats.nodes = nodes.len() as u32;
        stats.total = started.elapsed();
        self.last = stats;
        self.total.add(&stats);
        if !sampled_any {
            return None;
        }
        let root = &nodes[0];
        Some(
            root_keys
                .iter()
                .map(|&k| {
                    root.arms
                        .iter()
                        .find(|a| a.seat == me && a.key == k)
                        .map_or((0, 0.0), |a| (a.visits, a.reward / a.visits.max(1) as f64))
                })
                .collect(),
        )
    }
}

/// Picks `seat`'s move at `node` among `keys` (the moves available now):
/// an untried one at random, else the best by UCB1 over availability.
/// Returns the arm's index in the node and the move's index in `keys`.
fn select(node: &mut Node, seat: Seat, keys: &[u64], c: f64, rng: &mut ChaCha8Rng) -> (usize, usize) {
    let mut arms = Vec::with_capacity(keys.len());
    for &key in keys {
        let a = match node.arms.iter().position(|a| a.seat == seat && a.key == key) {
            Some(a) => a,
            None => {
                node.arms.push(Arm {
                    seat,
                    key,
                    visits: 0,
                    reward: 0.0,
                    available: 0,
                });
                node.arms.len() - 1
            }
        };
        // The same move offered twice (it should not be) counts once.
        if !arms.contains(&a) {
            node.arms[a].available += 1;
        }
        arms.push(a);
    }
    let untried: Vec<usize> = (0..keys.len()).filter(|&i| node.arms[arms[i]].visits == 0).collect();
    if !untried.is_empty() {
        let i = untried[rng.random_range(0..untried.len())];
        return (arms[i], i);
    }
    let mut best = (f64::NEG_INFINITY, 0);
    for (i, &a) in arms.iter().enumerate() {
        let arm = &node.arms[a];
        let n = arm.visits as f64;
        let ucb = arm.reward / n + c * ((arm.available.max(1) as f64).ln() / n).sqrt();
        if ucb > best.0 {
            best = (ucb, i);
        }
    }
    (arms[best.1], best.1)
}

impl Agent for Mcts {
    fn name(&self) -> String {
        self.spec.to_text()
    }

    fn choose(&mut self, def: &Game, obs: &Observation<'_>) -> usize {
        let n = obs.legal_len();
        if n <= 1 {
            return 0;
        }
        let Some(scores) = self.search(def, obs) else {
            return self.rng.random_range(0..n);
        };
        // Mixed play suits a duel's throw (a predictable throw can be
        // exploited); elsewhere, a race's call or a secret card, the best
        // move is simply the best move.
        let d = &def.decisions[obs.decision() as usize];
        let duel = !d.race && d.kind == ChoiceKind::Kind;
        if self.mixed && obs.is_simultaneous() && duel {
            let total: u32 = scores.iter().map(|s| s.0).sum();
            if total > 0 {
                let mut x = self.rng.random_range(0..total);
                for (i, s) in scores.iter().enumerate() {
                    if x < s.0 {
                        return i;
                    }
                    x -= s.0;
                }
            }
        }
        let mut best = 0;
        for i in 1..n {
            let (a, b) = (scores[i], scores[best]);
            if a.0 > b.0 || (a.0 == b.0 && a.1 > b.1) {
                best = i;
            }
        }
        best
    }

    fn reaction_ms(&mut self, _def: &GameDef, _obs: &Observation<'_>, _index: usize) -> u32 {
        self.reaction.sample(&mut self.rng)
    }
}
