//! `rpsdsl solve`: equilibrium strategies and exploitability, straight from
//! the rules.
//!
//! The engine plays out every decision and every chance outcome into a tree
//! ([`Tree`]), whose information sets come from what each seat's view lets
//! it know. CFR+ ([`Cfr`]) runs on the whole tree; its average strategy
//! converges to a Nash equilibrium in a two-seat zero-sum game, and a best
//! response ([`Tree::best_response_value`]) measures how far it still is:
//! NashConv, and exploitability (NashConv over the seats).
//!
//! [`exploit`] measures players instead: the best response to any lineup
//! of agents, and what each seat's agent leaves on the table.
//!
//! For more seats, or a game that is not zero-sum, CFR+'s average strategy
//! is a coarse correlated equilibrium at best; the answer says so.

mod cfr;
mod exploit;
mod profile;
mod tree;

use std::time::{Duration, Instant};

use serde::Serialize;

pub use cfr::Cfr;
pub use exploit::{Exploit, exploit};
pub use profile::Profile;
pub use tree::{InfoSet, Limits, Payoff, Tree};

use crate::diagnostic::Diagnostic;
use crate::engine::Game;
use crate::ir::OptionValue;

/// Nodes a tree may have unless told otherwise.
pub const DEFAULT_NODES: usize = 2_000_000;

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
}

/// Where a solve stands, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Iterations done.
    pub iterations: u64,
    /// Time spent iterating.
    pub elapsed: Duration,
    /// The exploitability at the last check.
    pub exploitability: f64,
}

/// What solving a game found.
#[derive(Clone, Debug, Serialize)]
pub struct Solution {
    /// The seats, in order.
    pub seats: Vec<String>,
    /// What the payoffs are.
    pub payoff: Payoff,
    /// Whether every ending's payoffs sum to zero.
    pub zero_sum: bool,
    /// The tree: its size, and where it was cut.
    pub tree: TreeSize,
    /// Iterations of CFR+ run.
    pub iterations: u64,
    /// Seconds spent building the tree.
    pub build_seconds: f64,
    /// Seconds spent iterating (and checking).
    pub solve_seconds: f64,
    /// Each seat's expected payoff when all play the strategy found.
    pub values: Vec<f64>,
    /// NashConv: what all seats together would gain by each switching alone
    /// to a best response.
    pub nash_conv: f64,
    /// NashConv over the number of seats.
    pub exploitability: f64,
    /// The probability that play under the strategy reaches the cut.
    pub cut_mass: f64,
    /// Exploitability as the iterations went.
    pub convergence: Vec<Checkpoint>,
    /// The strategy, per information set.
    pub strategy: Vec<Situation>,
    /// Why the stop came: `target`, `iterations` or `time`.
    pub stopped_by: String,
}

/// The tree's size.
#[derive(Clone, Debug, Serialize)]
pub struct TreeSize {
    /// Nodes.
    pub nodes: usize,
    /// Terminal positions.
    pub terminals: usize,
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
    /// The exploitability then.
    pub exploitability: f64,
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
    /// How likely play under the strategy gets here.
    pub reach: f64,
    /// Each action and its probability.
    pub actions: Vec<(String, f64)>,
}

/// Builds the tree of `def` and runs CFR+ on it until `settings` says stop.
pub fn solve(
    def: &Game,
    options: &[OptionValue],
    settings: &Settings,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, Box<Diagnostic>> {
    let started = Instant::now();
    let tree = Tree::build(def, options, settings.limits, settings.payoff)?;
    let build_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut cfr = Cfr::new(&tree);
    let mut convergence = vec![];
    let mut next_check = 1;
    let stopped_by = loop {
        cfr.iterate();
        let done = cfr.iterations();
        let out_of_iterations = settings.iterations.is_some_and(|most| done >= most);
        let out_of_time = settings.time.is_some_and(|most| started.elapsed() >= most);
        // Checks cost about as much as an iteration or two: at powers of
        // two, and at the end.
        if done >= next_check || out_of_iterations || out_of_time {
            next_check = (done * 2).max(next_check);
            let exploitability = tree.nash_conv(&cfr.average()) / tree.seats as f64;
            let elapsed = started.elapsed();
            convergence.push(Checkpoint {
                iterations: done,
                seconds: elapsed.as_secs_f64(),
                exploitability,
            });
            progress(&Progress {
                iterations: done,
                elapsed,
                exploitability,
            });
            if settings.target.is_some_and(|target| exploitability <= target) {
                break "target";
            }
        }
        if out_of_iterations {
            break "iterations";
        }
        if out_of_time {
            break "time";
        }
    };
    let average = cfr.average();
    let (values, cut_mass) = tree.values(&average);
    let nash_conv = tree.nash_conv(&average);
    let reach = tree.reach(&average, None).reach;
    let strategy = tree
        .infosets
        .iter()
        .enumerate()
        .map(|(i, set)| Situation {
            seat: def.seats[set.seat as usize].clone(),
            decision: def.decisions[set.decision as usize].name.clone(),
            situation: set.situation.clone(),
            depth: set.depth,
            reach: set.nodes.iter().map(|&n| reach[n as usize]).sum(),
            actions: set
                .actions
                .iter()
                .cloned()
                .zip(average.at(&tree, i).iter().copied())
                .collect(),
        })
        .collect();
    Ok(Solution {
        seats: def.seats.clone(),
        payoff: tree.payoff,
        zero_sum: tree.zero_sum,
        tree: TreeSize {
            nodes: tree.len(),
            terminals: tree.terminals(),
            infosets: tree.infosets_per_seat(),
            cut_at: tree.cut_at,
            cut_nodes: tree.cuts(),
            stopped: tree.stopped,
        },
        iterations: cfr.iterations(),
        build_seconds,
        solve_seconds: started.elapsed().as_secs_f64(),
        values,
        nash_conv,
        exploitability: nash_conv / tree.seats as f64,
        cut_mass,
        convergence,
        strategy,
        stopped_by: stopped_by.to_string(),
    })
}
