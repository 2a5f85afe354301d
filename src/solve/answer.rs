//! What a solve is asked and what it answers: the settings, the progress
//! it reports, and the solution with the tree or the sampled run behind it.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use super::sample::Sampling;
use super::tree::{Limits, Payoff};
use crate::engine::Memory;

/// Nodes a tree may have unless told otherwise.
pub const DEFAULT_NODES: usize = 2_000_000;

/// Nodes of tree allowed per second of a time budget, when no node budget
/// is given: about half of what this project's reference machine builds in
/// a second on the seed games, so the tree leaves time to solve it.
pub const NODES_PER_SECOND: f64 = 150_000.0;

/// The node budget for a run given `time` and no `--budget`: a count
/// derived from the budget, never from the clock, so the same command makes
/// the same choice between the whole tree and sampling on any machine and
/// with any number of threads. At most [`DEFAULT_NODES`], at least 10,000.
pub fn nodes_for(time: Option<std::time::Duration>) -> usize {
    match time {
        Some(time) => ((time.as_secs_f64() * NODES_PER_SECOND) as usize).clamp(10_000, DEFAULT_NODES),
        None => DEFAULT_NODES,
    }
}

/// Decision points a sampled game is played to, unless told otherwise,
/// before it counts as a draw (a game whose ties are thrown again has no
/// bound of its own).
pub const SAMPLED_DEPTH: u32 = 1_000;

/// How much of play may lie past the cut of a whole tree before the tree is
/// not enough (unless the depth was asked for): `auto` samples instead.
pub const CUT_TOLERANCE: f64 = 0.01;

/// Which algorithm solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// CFR+ on the whole tree when it fits, else external-sampling MCCFR.
    Auto,
    /// CFR+ on the whole tree, or an error saying why it does not fit.
    Whole,
    /// External-sampling MCCFR, even when the tree fits (its
    /// exploitability is then measured on the tree).
    Sampled,
}

/// How long and how far to solve.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The tree's limits.
    pub limits: Limits,
    /// What a terminal position pays.
    pub payoff: Payoff,
    /// Stop after this many iterations.
    pub iterations: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// Stop once the exploitability is at most this.
    pub target: Option<f64>,
    /// Which algorithm.
    pub method: Method,
    /// The seed of sampling's deals and choices.
    pub seed: u64,
    /// Threads for sampling (0: one per core); the answer is the same for any.
    pub jobs: usize,
    /// How to sample (`None`: external sampling unless its traversals
    /// would be too long, see [`EXTERNAL_LIMIT`]).
    pub sampling: Option<Sampling>,
    /// What the seats' situations keep of the past (`Now`: an abstraction,
    /// measured in the game itself where the tree fits).
    pub memory: Memory,
}

/// Where a solve stands, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Iterations done.
    pub iterations: u64,
    /// Time spent iterating.
    pub elapsed: Duration,
    /// The exploitability at the last check, when it can be measured.
    pub exploitability: Option<f64>,
    /// Information sets met so far.
    pub infosets: usize,
    /// About how long until the target or the time budget, whichever
    /// comes first (from how fast the exploitability has been falling).
    pub left: Option<Duration>,
}

/// What solving a game found.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// The seats, in order.
    pub seats: Vec<String>,
    /// What the seats' situations keep of the past.
    pub memory: Memory,
    /// What the payoffs are.
    pub payoff: Payoff,
    /// Whether every ending's payoffs sum to zero (every ending met, when
    /// sampled).
    pub zero_sum: bool,
    /// `cfr+` on the whole tree, or `mccfr` (external sampling).
    pub method: String,
    /// Information sets per seat (met, when sampled).
    pub infosets: Vec<usize>,
    /// The whole tree, when it was built: its size, and where it was cut.
    pub tree: Option<TreeSize>,
    /// The sampling, when the game was sampled.
    pub sampled: Option<SampledRun>,
    /// Iterations run (sampled: one traversal per seat each).
    pub iterations: u64,
    /// Seconds spent building the tree.
    pub build_seconds: f64,
    /// Seconds spent iterating (and checking).
    pub solve_seconds: f64,
    /// Each seat's expected payoff when all play the strategy found: exact
    /// on the whole tree, else estimated by play.
    pub values: Vec<f64>,
    /// When the values were estimated by play: per seat, the half-width of
    /// their 95% interval.
    pub value_margins: Option<Vec<f64>>,
    /// NashConv: what all seats together would gain by each switching alone
    /// to a best response (measured on the whole tree only).
    pub nash_conv: Option<f64>,
    /// NashConv over the number of seats.
    pub exploitability: Option<f64>,
    /// The probability that play under the strategy reaches the cut.
    pub cut_mass: f64,
    /// The probability that play under the strategy never ends (a loop of
    /// repeated positions it never leaves).
    pub endless_mass: f64,
    /// Exploitability as the iterations went.
    pub convergence: Vec<Checkpoint>,
    /// The strategy, per information set.
    pub strategy: Vec<Situation>,
    /// Why the stop came: `target`, `iterations`, `time`, or `budget` (the
    /// information sets met filled the budget).
    pub stopped_by: String,
}

/// The tree's size.
#[derive(Clone, Debug, Serialize)]
pub struct TreeSize {
    /// Nodes.
    pub nodes: usize,
    /// Terminal positions.
    pub terminals: usize,
    /// Positions that repeat a public position met on the way to them
    /// (play goes on as from the first meeting).
    pub repeats: usize,
    /// Information sets per seat.
    pub infosets: Vec<usize>,
    /// The decision point the tree was cut at, if it was.
    pub cut_at: Option<u32>,
    /// Positions at the cut.
    pub cut_nodes: usize,
    /// Positions where the rules stopped on an error (they pay 0 each).
    pub stopped: u64,
}

/// The exploitability after some iterations.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Checkpoint {
    /// Iterations done.
    pub iterations: u64,
    /// Seconds spent.
    pub seconds: f64,
    /// The exploitability then, when it can be measured.
    pub exploitability: Option<f64>,
}

/// How a game was sampled.
#[derive(Clone, Debug, Serialize)]
pub struct SampledRun {
    /// Why the whole tree was not used.
    pub why: String,
    /// `external` (the traversing seat tries every choice) or `outcome`
    /// (one game per traversal).
    pub sampling: Sampling,
    /// Positions an external-sampling traversal was expected to visit.
    pub positions_per_traversal: f64,
    /// Traversals of the game.
    pub traversals: u64,
    /// The seed of the deals and the sampled choices.
    pub seed: u64,
    /// Decision points a traversal went before the game counted as a draw.
    pub depth: u32,
    /// Branches cut at that depth.
    pub cut: u64,
    /// Branches that stopped on an error in the rules (they count as a draw).
    pub stopped: u64,
    /// Games played with the strategy found, to estimate its values.
    pub estimate_games: u64,
    /// The share of those games' decisions made in situations sampling met
    /// at least [`TRAINED_VISITS`] times (`None`: no games were played,
    /// the whole tree measured the strategy).
    pub trained: Option<f64>,
    /// At a glance (`--recall glance`), the share of those decisions played
    /// at each level of their situation: the glance, a bare glance, the
    /// moves alone.
    pub by_level: Option<Vec<f64>>,
}

/// One information set's strategy.
#[derive(Clone, Debug, Serialize)]
pub struct Situation {
    /// The deciding seat.
    pub seat: String,
    /// The decision's name.
    pub decision: String,
    /// What the seat knows there.
    pub situation: String,
    /// Decision points before it.
    pub depth: u32,
    /// How likely play under the strategy gets here (when sampled: how
    /// often the games played with it did).
    pub reach: f64,
    /// The information set's key, as a policy file writes it.
    #[serde(skip)]
    pub key: u64,
    /// The actions' keys.
    #[serde(skip)]
    pub keys: Arc<[u64]>,
    /// Each action and its probability (the labels shared with every
    /// situation that offers the same moves: a sampled solve has millions).
    pub actions: Vec<(Arc<str>, f64)>,
}
