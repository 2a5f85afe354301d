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
//!   own move by its own statistics, by UCB1 (decoupled UCT). UCB1 is not
//!   known to converge where two seats choose at once, so two selections
//!   that are can be asked for: regret matching with exploration
//!   (`simultaneous=rm`; Lanctot, Lisý & Winands 2013) and Smooth UCT
//!   (`simultaneous=smooth`; Heinrich & Silver 2015). Measured within the
//!   iterations a study affords (docs/agents.md), decoupled UCT plays
//!   stronger, so it stays the default.
//! - Races: the searching seat picks the call; every answer's reaction time
//!   is drawn from the reaction model.
//! - It runs on sampled copies, never on the game itself, and is
//!   deterministic for a seed when its budget is in iterations.
//! - With `reuse`, the tree outlives the decision: every step of the game
//!   is keyed as the tree keys its children ([`StepKey`]), the kept root
//!   follows it down, and the next search starts from the node the game
//!   reached, whose visits count toward its budget.
//! - With `transpose`, a step to a position the search has met by another
//!   path (as the seat sees it: [`World::searched_position`]) goes to that
//!   node, so the tree is a graph; a walk that comes round to a node it
//!   passed plays out from there.
//! - Budgets: `throw_iterations` searches less at a duel's throw, where
//!   more finds little; `settle` stops once the move it will play is
//!   settled (no iteration left could change it).

mod select;

use std::time::{Duration, Instant};

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::agent::{Agent, REACTION_PARAMS, Reaction, SEED_PARAM, seat_rng};
use super::error::AgentError;
use super::guide::{Guide, Lost};
use super::search::{rewards_into, rollout};
use super::spec::{AgentInfo, AgentSpec, Domain, ParamInfo, Params};
use super::tree::{Arm, Tree};
use crate::diagnostic::Code;
use crate::engine::Game;
use crate::engine::{Choice, Event, Memory, Observation, Pick, Recall, StepKey, World};
use crate::ir::{ChoiceKind, GameDef, Seat};
use select::{EXPLORE, Scoring, Simultaneous, select_as};

pub(super) const INFO: AgentInfo = AgentInfo {
    name: "mcts",
    about: "Information-Set Monte Carlo Tree Search over worlds consistent with what it knows; \
            decoupled UCT at simultaneous decisions (or regret matching, or Smooth UCT); races supported",
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
            name: "simultaneous",
            default: "ucb",
            about: "how each seat picks where seats choose at once: `ucb` (decoupled UCT), `rm` (regret \
                    matching with exploration) or `smooth` (Smooth UCT); the last two converge to an \
                    equilibrium, but play weaker within a study's iterations",
            domain: Domain::OneOf(&["ucb", "rm", "smooth"]),
        },
        ParamInfo {
            name: "rollout_limit",
            default: "10000",
            about: "decisions a random playout may take before it counts as a draw",
            domain: Domain::Whole(1, 1_000_000),
        },
        ParamInfo {
            name: "reuse",
            default: "false",
            about: "keep the part of the tree the game went into: the next search starts there, and \
                    its visits count toward `iterations`",
            domain: Domain::Bool,
        },
        ParamInfo {
            name: "throw_iterations",
            default: "iterations",
            about: "iterations at a duel's throw (seats choosing kinds at once, played mixed): a \
                    search there mostly learns that the throws are even, so a smaller one leaves \
                    the budget to the decisions that need it",
            domain: Domain::Whole(1, 10_000_000),
        },
        ParamInfo {
            name: "settle",
            default: "false",
            about: "stop a search once its most visited move can no longer be overtaken within the \
                    budget (not where it plays mixed): the same move, sooner",
            domain: Domain::Bool,
        },
        ParamInfo {
            name: "transpose",
            default: "false",
            about: "merge positions the search meets by more than one path (as the seat sees them \
                    now: its view and where the flow stands), so their statistics are shared; a \
                    tied throw thrown again comes back to the same node",
            domain: Domain::Bool,
        },
        ParamInfo {
            name: "prior",
            default: "none",
            about: "a trained strategy to lean on, `policy(file=P)` or `solve(time=10)`: the tree favours \
                    the moves it favours, and playouts follow it where it knows the situation",
            domain: Domain::Agent,
        },
        ParamInfo {
            name: "prior_weight",
            default: "1",
            about: "how strongly the tree favours the prior's moves: a bonus of weight × its chance ÷ \
                    (1 + tries), beside UCB1's",
            domain: Domain::Number(0.0, 1000.0),
        },
        ParamInfo {
            name: "value",
            default: "none",
            about: "an evaluation of positions to read where a playout would begin, `learned(games=2000)`: \
                    no playouts are played",
            domain: Domain::Agent,
        },
        SEED_PARAM,
        REACTION_PARAMS[0],
        REACTION_PARAMS[1],
    ],
};

/// The players whose evaluation a search may read instead of playouts
/// (`value`), and whose strategy it may lean on (`prior`), with the fix
/// for another.
const VALUE_PLAYERS: [&str; 1] = ["learned"];
const VALUE_HELP: &str = "give `learned(games=2000)`";
const PRIOR_PLAYERS: [&str; 2] = ["policy", "solve"];
const PRIOR_HELP: &str = "give `policy(file=P)` (a strategy `rpsdsl solve --save P` wrote) or `solve(time=10)`";

/// The player parameter `key` names, built, where it is one of `allowed`;
/// another is refused: "`key` takes {what}", its name in place of `{}`.
fn named_player(
    p: &Params<'_>,
    key: &str,
    (allowed, what, help): (&[&str], &str, &str),
    build: &mut impl FnMut(&AgentSpec) -> Result<Box<dyn Agent>, AgentError>,
) -> Result<Option<Box<dyn Agent>>, AgentError> {
    let Some(text) = p.raw(key) else {
        return Ok(None);
    };
    let spec = super::spec::parse_agent(text)?;
    if !allowed.contains(&spec.name.as_str()) {
        let why = format!("`{key}` takes {}", what.replace("{}", &spec.name));
        return Err(AgentError::new(Code::BadAgentParameter, why, text).help(help));
    }
    build(&spec).map(Some)
}

/// The weight of a prior's bonus unless told otherwise.
const DEFAULT_PRIOR_WEIGHT: f64 = 1.0;

/// Where one decision's search time went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Search iterations run (one sampled world and one playout each).
    pub iterations: u32,
    /// Nodes in the tree when the search ended.
    pub nodes: u32,
    /// Visits of the root kept from the search before (`reuse`): iterations
    /// this search did not have to run.
    pub reused: u32,
    /// Sampling worlds (including rebuilding their offers). This and the
    /// next two are measured only when asked for ([`Mcts::set_timing`]):
    /// the clock costs a few percent of a small game's search.
    pub determinize: Duration,
    /// Walking the tree: keys, selection, applying the tree's moves.
    pub tree: Duration,
    /// Random playouts to the end, scoring them and backing the score up
    /// the tree.
    pub rollout: Duration,
    /// Wall time of the whole search.
    pub total: Duration,
    /// Searches that stopped early, their move settled (`settle`).
    pub settled: u32,
}

impl SearchStats {
    /// Adds `other`'s counts and times to these.
    pub fn add(&mut self, other: &SearchStats) {
        self.iterations += other.iterations;
        self.nodes += other.nodes;
        self.reused += other.reused;
        self.determinize += other.determinize;
        self.tree += other.tree;
        self.rollout += other.rollout;
        self.total += other.total;
        self.settled += other.settled;
    }
}

/// One seat's pick on an iteration's path.
#[derive(Clone, Copy, Debug)]
struct Step {
    node: u32,
    arm: u32,
    /// Under regret matching, the chance the pick had, and the moves
    /// offered (`Scratch::offered[from..to]`); 0 for a pick by UCB1.
    chance: f64,
    from: u32,
    to: u32,
}

impl Step {
    /// The pick of `arm` at `node`; under regret matching (`chance` above
    /// 0) the arms offered, `sel`, are kept in `offered` for its update.
    fn taken(node: usize, arm: usize, chance: f64, sel: &[u32], offered: &mut Vec<u32>) -> Step {
        let from = offered.len() as u32;
        if chance > 0.0 {
            offered.extend_from_slice(sel);
        }
        Step {
            node: node as u32,
            arm: arm as u32,
            chance,
            from,
            to: offered.len() as u32,
        }
    }
}

/// What one search works in, kept from decision to decision so that the
/// iterations allocate nothing once it has grown.
#[derive(Debug, Default)]
struct Scratch {
    tree: Tree,
    /// The sampled world, played on in place.
    world: Option<World>,
    /// The answering seats at the decision under way.
    who: Vec<Seat>,
    /// Their keys, one run after another, and where each seat's run ends.
    keys: Vec<u64>,
    ends: Vec<usize>,
    /// Per move offered, its arm (see [`select`]).
    sel: Vec<u32>,
    picks: Vec<Pick>,
    /// The arms chosen this iteration.
    path: Vec<Step>,
    /// The arms offered at regret-matching picks on the path.
    offered: Vec<u32>,
    /// What each seat scored.
    paid: Vec<f64>,
    /// A guide's strategy over the moves offered to one seat.
    probs: Vec<f64>,
}

/// Laps of one search's clock, when its time split is measured (else
/// every lap is zero and the clock is never read).
struct Laps {
    on: bool,
    last: Instant,
}

impl Laps {
    /// The time since the last lap.
    fn lap(&mut self) -> Duration {
        if !self.on {
            return Duration::ZERO;
        }
        let now = Instant::now();
        let lap = now - self.last;
        self.last = now;
        lap
    }
}

/// A tree kept for the next decision (`reuse`): the node the game has
/// reached in it, and the decisions taken in the game then.
#[derive(Clone, Copy, Debug)]
struct Kept {
    node: u32,
    at: u32,
}

/// The IS-MCTS agent (`mcts`; see the module documentation).
pub struct Mcts {
    seat: Seat,
    iterations: Option<u32>,
    time: Option<Duration>,
    c: f64,
    mixed: bool,
    simultaneous: Simultaneous,
    limit: u32,
    reuse: bool,
    /// Merge transpositions (`transpose`).
    transpose: bool,
    /// Iterations at a duel's throw, when not `iterations` (`throw_iterations`).
    throw_iterations: Option<u32>,
    /// Stop once the most visited move is settled (`settle`).
    settle: bool,
    /// Whether the search under way plays its most visited move, so that
    /// it may stop once that is settled.
    plays_most_visited: bool,
    /// Measure where each search's time goes (see [`SearchStats`]).
    timing: bool,
    /// With `reuse`, where the game is in the last search's tree.
    kept: Option<Kept>,
    /// A trained strategy leading the search (`prior`), if any.
    guide: Option<Guide>,
    /// An evaluation of positions read instead of playouts (`value`), if any.
    value: Option<Box<dyn Agent>>,
    rng: ChaCha8Rng,
    reaction: Reaction,
    spec: AgentSpec,
    events: Vec<Event>,
    scratch: Scratch,
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
            simultaneous: Simultaneous::Ucb,
            limit: 10_000,
            reuse: false,
            transpose: false,
            throw_iterations: None,
            settle: false,
            plays_most_visited: false,
            timing: false,
            kept: None,
            guide: None,
            value: None,
            rng: seat_rng(seed ^ 0x4D43_5453, seat),
            reaction: Reaction::default(),
            spec: AgentSpec {
                name: "mcts".into(),
                params: vec![],
            },
            events: Vec::with_capacity(256),
            scratch: Scratch::default(),
            last: SearchStats::default(),
            total: SearchStats::default(),
        }
    }

    /// The search from its parameters; `build_prior` builds the player of
    /// the strategy that guides it (given by the agents' registry).
    pub(super) fn from_params(
        p: &Params<'_>,
        seat: Seat,
        seed: u64,
        mut build: impl FnMut(&AgentSpec) -> Result<Box<dyn Agent>, AgentError>,
    ) -> Result<Self, AgentError> {
        let mut m = Mcts::new(seat, seed);
        let prior = (
            &PRIOR_PLAYERS[..],
            "a trained strategy, and `{}` is not one",
            PRIOR_HELP,
        );
        if let Some(player) = named_player(p, "prior", prior, &mut build)? {
            let weight = p.f64("prior_weight")?.unwrap_or(DEFAULT_PRIOR_WEIGHT);
            m.guide = Some(Guide::new(player, weight));
        }
        let value = (
            &VALUE_PLAYERS[..],
            "an evaluation of positions, and `{}` has none",
            VALUE_HELP,
        );
        m.value = named_player(p, "value", value, &mut build)?;
        let iterations = p.u64("iterations")?;
        m.time = p.u64("time_ms")?.map(Duration::from_millis);
        m.iterations = match (iterations, m.time) {
            (Some(n), _) => Some(n as u32),
            (None, Some(_)) => None,
            (None, None) => m.iterations,
        };
        m.c = p.f64("c")?.unwrap_or(m.c);
        m.mixed = p.bool("mixed")?.unwrap_or(m.mixed);
        m.simultaneous = match p.word("simultaneous")? {
            Some("rm") => Simultaneous::Regret,
            Some("smooth") => Simultaneous::Smooth,
            _ => Simultaneous::Ucb,
        };
        m.limit = p.u64("rollout_limit")?.map_or(m.limit, |v| v as u32);
        m.reuse = p.bool("reuse")?.unwrap_or(m.reuse);
        m.transpose = p.bool("transpose")?.unwrap_or(m.transpose);
        m.throw_iterations = p.u64("throw_iterations")?.map(|n| n as u32);
        m.settle = p.bool("settle")?.unwrap_or(m.settle);
        m.reaction = Reaction::from_params(p)?;
        m.spec.params = [
            "iterations",
            "time_ms",
            "c",
            "mixed",
            "simultaneous",
            "rollout_limit",
            "reuse",
            "transpose",
            "throw_iterations",
            "settle",
            "prior",
            "prior_weight",
            "value",
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

    /// Measures where each search's time goes: sampling, tree, playouts.
    pub fn set_timing(&mut self, timing: bool) {
        self.timing = timing;
    }

    /// Searches `iterations` at a duel's throw instead of the usual budget
    /// (the `throw_iterations` parameter; `None`: the usual budget).
    pub fn set_throw_iterations(&mut self, iterations: Option<u32>) {
        self.throw_iterations = iterations.map(|n| n.max(1));
    }

    /// Stops a search once its move is settled (the `settle` parameter).
    pub fn set_settle(&mut self, settle: bool) {
        self.settle = settle;
    }

    /// Merges positions met by more than one path (the `transpose` parameter).
    pub fn set_transpose(&mut self, transpose: bool) {
        self.transpose = transpose;
    }

    /// Keeps the tree from decision to decision (the `reuse` parameter).
    pub fn set_reuse(&mut self, reuse: bool) {
        self.reuse = reuse;
        self.kept = None;
    }

    /// Searches from the observation; returns, per legal choice of the seat,
    /// its visits and mean reward (`None` when no world could be sampled).
    pub(crate) fn search(&mut self, def: &Game, obs: &Observation<'_>) -> Option<Vec<(u32, f64)>> {
        let started = Instant::now();
        let mut stats = SearchStats::default();
        let me = self.seat;
        let root_keys: Vec<u64> = (0..obs.legal_len()).map(|i| obs.key(i)).collect();
        // The kept tree, if the game went on from its root as told.
        let tree = &mut self.scratch.tree;
        match self.kept.take().filter(|k| self.reuse && k.at == obs.decisions_taken()) {
            Some(kept) => tree.reroot(kept.node as usize),
            None => tree.reset(),
        }
        stats.reused = tree.nodes[0].visits;
        // With `reuse`, the root's visits count toward the budget, and at
        // least one iteration adds what the moves offered now need.
        let budget = self.iterations.map(|n| n.saturating_sub(stats.reused).max(1));
        let mut sampled_any = false;
        // Where the last phase of an iteration ended (when timing).
        let mut laps = Laps {
            on: self.timing,
            last: started,
        };
        loop {
            if budget.is_some_and(|n| stats.iterations >= n) || self.time.is_some_and(|t| started.elapsed() >= t) {
                break;
            }
            // Past the deadline (the command's, or the server's for one
            // agent's thinking) or near the memory cap: answer with what the
            // search has.
            if stats.iterations % 64 == 63 && (crate::budget::expired() || crate::budget::over_memory()) {
                break;
            }
            if self.settle
                && self.plays_most_visited
                && stats.iterations % SETTLE_EVERY == 0
                && let Some(n) = budget
                && settled(&self.scratch.tree, me, n - stats.iterations)
            {
                stats.settled = 1;
                break;
            }
            let sampled = obs.sample_into(&mut self.rng, &mut self.scratch.world, &mut self.scratch.keys);
            stats.determinize += laps.lap();
            stats.iterations += 1;
            if !sampled {
                if !sampled_any && stats.iterations > 20 {
                    return None;
                }
                continue;
            }
            sampled_any = true;
            let Walked {
                mut ok,
                expanded,
                mine,
                mut lost,
            } = self.walk_tree(def, &root_keys);
            let Scratch {
                tree,
                world: slot,
                picks,
                path,
                offered,
                paid,
                probs,
                ..
            } = &mut self.scratch;
            let Some(world) = slot.as_mut() else {
                continue;
            };
            stats.tree += laps.lap();
            // Playout, or the evaluation where there is one.
            let mut rated = false;
            if ok
                && expanded
                && !world.is_over()
                && let Some(value) = self.value.as_mut()
            {
                rated = value.rate(def, world, paid);
            }
            if ok && expanded && !rated {
                ok = match self.guide.as_mut() {
                    // What `me` recalls is read only while the guide knows it.
                    Some(guide) => guide.rollout(
                        def,
                        world,
                        me,
                        mine.unwrap_or_default(),
                        &mut lost,
                        &mut self.rng,
                        &self.reaction,
                        self.limit,
                        picks,
                        &mut self.events,
                        probs,
                    ),
                    _ => rollout(
                        def,
                        world,
                        &mut self.rng,
                        &self.reaction,
                        self.limit,
                        picks,
                        &mut self.events,
                    ),
                };
            }
            if rated {
                // `paid` holds the evaluation.
            } else if ok && world.is_over() {
                rewards_into(def, world, paid);
            } else {
                paid.clear();
                paid.resize(def.players(), 1.0 / def.players() as f64);
            }
            backpropagate(tree, path, offered, paid);
            stats.rollout += laps.lap();
        }
        stats.nodes = self.scratch.tree.nodes.len() as u32;
        stats.total = started.elapsed();
        if self.reuse {
            self.kept = Some(Kept {
                node: 0,
                at: obs.decisions_taken(),
            });
        }
        self.last = stats;
        self.total.add(&stats);
        if !sampled_any {
            return None;
        }
        Some(root_answer(&self.scratch.tree, &root_keys, me))
    }

    /// One iteration's selection and expansion in the world just sampled:
    /// from the root, every answering seat picks by its selection (and the
    /// guide's strategy, where it has one), down to the first step the tree
    /// has not met, which it adds. The path is left in the scratch space.
    fn walk_tree(&mut self, def: &Game, root_keys: &[u64]) -> Walked {
        let me = self.seat;
        let Scratch {
            tree,
            world: slot,
            who,
            keys,
            ends,
            sel,
            picks,
            path,
            offered,
            probs,
            ..
        } = &mut self.scratch;
        let Some(world) = slot.as_mut() else {
            return Walked::default();
        };
        // Selection and expansion.
        path.clear();
        offered.clear();
        let mut node = 0usize;
        let mut ok = true;
        let mut expanded = false;
        // With a guide, what the searching seat recalls up to the last
        // step of the world (`None` at the search's own decision).
        let mut mine: Option<Recall> = None;
        let mut lost = Lost::default();
        if self.transpose && node == 0 && tree.nodes[0].position == 0 {
            tree.place(0, world.searched_position(def));
        }
        while let Some((decision, answering)) = world.pending() {
            // A position met again on this walk (a loop in the graph) ends
            // the walk there: the playout goes on from it.
            if self.transpose && !path.is_empty() && path.iter().any(|step| step.node as usize == node) {
                expanded = true;
                break;
            }
            tree.nodes[node].visits += 1;
            who.clear();
            who.extend_from_slice(answering);
            let race = def.decisions[decision as usize].race;
            let root = (node == 0).then_some((me, root_keys));
            gather_keys(def, world, who, root, keys, ends);
            if tree.nodes[node].arms.len == 0 {
                let span = &mut tree.nodes[node].arms;
                span.reserve(&mut tree.arms, keys.len() as u32, Arm::new(0, 0));
            }
            let mut observed = StepKey::new(decision);
            picks.clear();
            let mut begin = 0;
            // Where seats choose at once, the selection asked for (a
            // race's calls are about timing, and keep UCB1).
            let how = match who.len() > 1 && !race {
                true => self.simultaneous,
                false => Simultaneous::Ucb,
            };
            let here = match self.guide.as_ref() {
                Some(guide) if lost.knows(me) => Some(guide.here(def, world, me, mine)),
                _ => None,
            };
            for (&seat, &end) in who.iter().zip(ends.iter()) {
                let keys = &keys[begin..end];
                begin = end;
                let mut scoring = Scoring::plain(self.c);
                if let Some(guide) = self.guide.as_mut()
                    && guide.ask(def, world, seat, me, here, &mut lost, probs)
                {
                    scoring.prior = Some(probs.as_slice());
                    scoring.weight = guide.weight;
                }
                let (arm, at, chance) = select_as(how, tree, node, seat, keys, sel, scoring, &mut self.rng);
                picks.push(Pick {
                    seat,
                    index: at,
                    reaction_ms: if race { self.reaction.sample(&mut self.rng) } else { 0 },
                });
                path.push(Step::taken(node, arm, chance, sel, offered));
                let seen = world.sees_choice(def, seat, at);
                observed = observed.then(seen.then_some(keys[at]));
            }
            mine = here.map(|here| here.after_step(Some(observed), Memory::All));
            self.events.clear();
            if world.apply(def, picks, &mut self.events).is_err() {
                ok = false;
                break;
            }
            if let Some(child) = tree.child(node, observed.0) {
                node = child;
                continue;
            }
            // A new step: to a position met by another path, or a new node.
            let position = self.transpose.then(|| world.searched_position(def));
            if let Some(met) = position.and_then(|p| tree.at_position(p)) {
                tree.link(node, observed.0, met);
                node = met;
                continue;
            }
            let child = tree.add_child(node, observed.0);
            if let Some(position) = position {
                tree.place(child, position);
            }
            expanded = true;
            break;
        }
        Walked {
            ok,
            expanded,
            mine,
            lost,
        }
    }
}

/// Where an iteration's walk down the tree left off ([`Mcts::walk_tree`]).
#[derive(Debug, Default)]
struct Walked {
    /// False when a step failed in the world.
    ok: bool,
    /// Whether it added a node (else it reached the game's end in the tree).
    expanded: bool,
    /// With a guide, what the searching seat recalls after the last step.
    mine: Option<Recall>,
    /// The seats the guide lost on the way.
    lost: Lost,
}

/// Each arm on the path gets the visit and the reward of its seat. Under
/// regret matching, every move offered there gets its regret: what it is
/// estimated to have earned (the reward over the pick's chance for the
/// move picked, nothing for the others: unbiased) less what the pick earned.
#[inline]
fn backpropagate(tree: &mut Tree, path: &[Step], offered: &[u32], paid: &[f64]) {
    for step in path {
        let start = tree.nodes[step.node as usize].arms.start as usize;
        let arm = &mut tree.arms[start + step.arm as usize];
        let reward = paid[arm.seat as usize];
        arm.visits += 1;
        arm.reward += reward;
        if step.chance > 0.0 {
            arm.regret += reward / step.chance;
            for &other in &offered[step.from as usize..step.to as usize] {
                tree.arms[start + other as usize].regret -= reward;
            }
        }
    }
}

/// How often (in iterations) a search that may settle looks whether it has.
const SETTLE_EVERY: u32 = 8;

/// Whether `me`'s most visited move at the root leads the next by more
/// than the `remaining` iterations could close: the search would play it
/// whatever they found.
fn settled(tree: &Tree, me: Seat, remaining: u32) -> bool {
    let (mut first, mut second) = (0, 0);
    for arm in tree.arms(0).iter().filter(|a| a.seat == me) {
        if arm.visits > first {
            second = first;
            first = arm.visits;
        } else if arm.visits > second {
            second = arm.visits;
        }
    }
    first > second + remaining
}

/// Per legal choice of the searching seat at the root (by its key), its
/// visits and mean reward; `(0, 0.0)` for a choice the search never tried.
fn root_answer(tree: &Tree, root_keys: &[u64], me: Seat) -> Vec<(u32, f64)> {
    let root = tree.arms(0);
    root_keys
        .iter()
        .map(|&k| {
            root.iter()
                .find(|a| a.seat == me && a.key == k)
                .map_or((0, 0.0), |a| (a.visits, a.reward / a.visits.max(1) as f64))
        })
        .collect()
}

/// Every answering seat's keys, one run after another in `keys`, and
/// where each seat's run ends in `ends`. At the root (`root`) the searching
/// seat's are the observation's: the world was sampled so.
fn gather_keys(
    def: &Game,
    world: &World,
    who: &[Seat],
    root: Option<(Seat, &[u64])>,
    keys: &mut Vec<u64>,
    ends: &mut Vec<usize>,
) {
    keys.clear();
    ends.clear();
    for &seat in who {
        match root {
            Some((me, root_keys)) if seat == me => keys.extend_from_slice(root_keys),
            _ => world.extend_keys(def, seat, keys),
        }
        ends.push(keys.len());
    }
}

impl Mcts {
    /// The search's pick among the choices `allowed` marks (all when
    /// `None`): the most visited, or in a duel's throw one drawn by visits.
    /// The search itself still looks at every choice, as the opponents may.
    fn choose_among(&mut self, def: &Game, obs: &Observation<'_>, allowed: Option<&[bool]>) -> usize {
        let n = obs.legal_len();
        let ok = |i: usize| allowed.is_none_or(|a| a.get(i).copied().unwrap_or(false));
        let first = (0..n).find(|&i| ok(i)).unwrap_or(0);
        if (0..n).filter(|&i| ok(i)).count() <= 1 {
            return first;
        }
        // Mixed play suits a duel's throw (a predictable throw can be
        // exploited); elsewhere, a race's call or a secret card, the best
        // move is simply the best move.
        let d = &def.decisions[obs.decision() as usize];
        let throw = self.mixed && obs.is_simultaneous() && !d.race && d.kind == ChoiceKind::Kind;
        let budget = self.iterations;
        if throw && let Some(n) = self.throw_iterations {
            self.iterations = Some(n);
        }
        self.plays_most_visited = !throw && allowed.is_none();
        let searched = self.search(def, obs);
        self.plays_most_visited = false;
        self.iterations = budget;
        let Some(scores) = searched else {
            let open: Vec<usize> = (0..n).filter(|&i| ok(i)).collect();
            return open[self.rng.random_range(0..open.len())];
        };
        if throw {
            // Under regret matching a move's visits are its share of the
            // seat's strategy plus the uniform exploration; the strategy
            // alone is what is played.
            let explored = match self.simultaneous {
                Simultaneous::Regret => EXPLORE * f64::from(scores.iter().map(|s| s.0).sum::<u32>()) / n as f64,
                Simultaneous::Ucb | Simultaneous::Smooth => 0.0,
            };
            let weight = |i: usize| match ok(i) {
                true => (f64::from(scores[i].0) - explored).max(0.0).floor() as u32,
                false => 0,
            };
            let total: u32 = (0..n).map(weight).sum();
            if total > 0 {
                let mut x = self.rng.random_range(0..total);
                for i in 0..n {
                    let w = weight(i);
                    if x < w {
                        return i;
                    }
                    x -= w;
                }
            }
        }
        let mut best = first;
        for i in (first + 1..n).filter(|&i| ok(i)) {
            let (a, b) = (scores[i], scores[best]);
            if a.0 > b.0 || (a.0 == b.0 && a.1 > b.1) {
                best = i;
            }
        }
        best
    }
}

impl Agent for Mcts {
    fn name(&self) -> String {
        self.spec.to_text()
    }

    fn choose(&mut self, def: &Game, obs: &Observation<'_>) -> usize {
        self.choose_among(def, obs, None)
    }

    fn choose_allowed(&mut self, def: &Game, obs: &Observation<'_>, allowed: &[bool]) -> Option<usize> {
        Some(self.choose_among(def, obs, Some(allowed)))
    }

    fn reaction_ms(&mut self, _def: &GameDef, _obs: &Observation<'_>, _index: usize) -> u32 {
        self.reaction.sample(&mut self.rng)
    }

    fn recall_here(&mut self, recall: Recall) {
        if let Some(guide) = self.guide.as_mut() {
            guide.pin(recall);
        }
    }

    /// Follows the kept tree down the step, or lets it go when the step
    /// leads nowhere it has been (or a step went untold).
    fn before_step(&mut self, _def: &Game, obs: &Observation<'_>, choices: &[Choice]) {
        if let Some(guide) = self.guide.as_mut() {
            guide.follow(obs, choices);
        }
        let Some(kept) = self.kept.take() else {
            return;
        };
        let child = (kept.at == obs.decisions_taken())
            .then(|| obs.step_key(choices))
            .flatten()
            .and_then(|step| self.scratch.tree.child(kept.node as usize, step.0));
        self.kept = child.map(|node| Kept {
            node: node as u32,
            at: kept.at + 1,
        });
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::select::select_by_regret;
    use super::*;

    /// One seat at a node of three moves, one of which always wins: the
    /// selection is played `rounds` times, each pick paid 1 when it is the
    /// winning move, and backed up. Returns how often the winner was picked
    /// over the last quarter of the rounds.
    fn winner_share(how: Simultaneous, rounds: u32) -> f64 {
        let mut tree = Tree::default();
        tree.reset();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut sel, mut offered, mut path) = (vec![], vec![], vec![]);
        let keys = [10, 20, 30];
        let mut picked_winner = 0;
        for round in 0..rounds {
            tree.nodes[0].visits += 1;
            offered.clear();
            path.clear();
            let (arm, at, chance) = select_as(how, &mut tree, 0, 0, &keys, &mut sel, Scoring::plain(0.7), &mut rng);
            path.push(Step::taken(0, arm, chance, &sel, &mut offered));
            let paid = [if keys[at] == 20 { 1.0 } else { 0.0 }];
            if round >= rounds * 3 / 4 && keys[at] == 20 {
                picked_winner += 1;
            }
            backpropagate(&mut tree, &path, &offered, &paid);
        }
        f64::from(picked_winner) / f64::from(rounds / 4)
    }

    /// Every selection learns a move that always wins. Regret matching
    /// picks it all but its exploration: (1 - 0.1) + 0.1 / 3.
    #[test]
    fn every_selection_finds_a_move_that_always_wins() {
        let rm = winner_share(Simultaneous::Regret, 4000);
        assert!(
            (rm - (1.0 - EXPLORE + EXPLORE / 3.0)).abs() < 0.03,
            "regret matching {rm}"
        );
        let smooth = winner_share(Simultaneous::Smooth, 4000);
        assert!(smooth > 0.9, "smooth UCT {smooth}");
        let ucb = winner_share(Simultaneous::Ucb, 4000);
        assert!(ucb > 0.9, "UCB1 {ucb}");
    }

    /// Regret matching's regrets are estimated without bias: a move never
    /// picked earns no regret of its own, and every move offered pays for
    /// what the pick earned.
    #[test]
    fn regrets_follow_the_pick_over_its_chance() {
        let mut tree = Tree::default();
        tree.reset();
        let mut sel = vec![];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (arm, _, chance) = select_by_regret(&mut tree, 0, 0, &[1, 2], &mut sel, &mut rng);
        assert!((chance - 0.5).abs() < 1e-12, "no regret yet: uniform");
        let offered = sel.clone();
        let path = [Step {
            node: 0,
            arm: arm as u32,
            chance,
            from: 0,
            to: 2,
        }];
        backpropagate(&mut tree, &path, &offered, &[0.8]);
        let arms = tree.arms(0);
        let other = 1 - arm;
        assert!((arms[arm].regret - (0.8 / 0.5 - 0.8)).abs() < 1e-12);
        assert!((arms[other].regret + 0.8).abs() < 1e-12);
    }
}
