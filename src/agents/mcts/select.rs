//! How a seat picks its move at a node of the search: UCB1 over the
//! visits in which each move was available (with a guide's bonus where one
//! knows the situation), and at a simultaneous decision regret matching or
//! Smooth UCT where asked.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use crate::agents::guide;
use crate::agents::tree::Tree;
use crate::ir::Seat;

/// The share of regret matching's picks made uniformly at random: every
/// move keeps being tried, so every regret keeps being estimated.
pub(super) const EXPLORE: f64 = 0.1;

/// How a seat picks where seats choose at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Simultaneous {
    /// UCB1, each seat on its own statistics (decoupled UCT).
    Ucb,
    /// Regret matching with exploration.
    Regret,
    /// Smooth UCT: UCB1 or the average strategy.
    Smooth,
}

/// How UCB1 scores a move: its exploration constant, and where a guide
/// knows the situation, its strategy over the moves offered (in the order
/// of `keys`) and the weight of its bonus ([`guide::bonus`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Scoring<'p> {
    pub c: f64,
    pub prior: Option<&'p [f64]>,
    pub weight: f64,
}

impl Scoring<'_> {
    pub(super) fn plain(c: f64) -> Scoring<'static> {
        Scoring {
            c,
            prior: None,
            weight: 0.0,
        }
    }
}

/// Picks `seat`'s move at `node` among `keys` (the moves available now):
/// an untried one at random (in proportion to a guide's strategy, when it
/// has one here), else the best by UCB1 over availability, plus the guide's
/// bonus. Returns the arm's index in the node and the move's index in
/// `keys`. `sel` is scratch space.
fn select(
    tree: &mut Tree,
    node: usize,
    seat: Seat,
    keys: &[u64],
    sel: &mut Vec<u32>,
    scoring: Scoring<'_>,
    rng: &mut ChaCha8Rng,
) -> (usize, usize) {
    sel.clear();
    let mut hint = 0;
    for &key in keys {
        let a = tree.arm(node, seat, key, hint);
        hint = a + 1;
        sel.push(a as u32);
    }
    let arms = &mut tree.arms[tree.nodes[node].arms.range()];
    // The same move offered twice (it should not be) counts once.
    for &a in sel.iter() {
        let arm = &mut arms[a as usize];
        if !arm.counted {
            arm.counted = true;
            arm.available += 1;
        }
    }
    for &a in sel.iter() {
        arms[a as usize].counted = false;
    }
    let untried = sel.iter().filter(|&&a| arms[a as usize].visits == 0).count();
    if untried > 0
        && let Some(prior) = scoring.prior
    {
        let open: Vec<usize> = (0..sel.len()).filter(|&i| arms[sel[i] as usize].visits == 0).collect();
        let i = guide::untried_by_prior(&open, prior, rng);
        return (sel[i] as usize, i);
    }
    if untried > 0 {
        let nth = rng.random_range(0..untried);
        let i = (0..sel.len())
            .filter(|&i| arms[sel[i] as usize].visits == 0)
            .nth(nth)
            .expect("counted");
        return (sel[i] as usize, i);
    }
    let mut best = (f64::NEG_INFINITY, 0);
    // Moves offered together have mostly been available as often: one
    // logarithm serves them all.
    let mut log = (0, 0.0);
    for (i, &a) in sel.iter().enumerate() {
        let arm = &arms[a as usize];
        let n = arm.visits as f64;
        let available = arm.available.max(1);
        if log.0 != available {
            log = (available, (available as f64).ln());
        }
        let lean = scoring
            .prior
            .map_or(0.0, |p| guide::bonus(scoring.weight, p[i], arm.visits));
        let ucb = arm.reward / n + scoring.c * (log.1 / n).sqrt() + lean;
        if ucb > best.0 {
            best = (ucb, i);
        }
    }
    (sel[best.1] as usize, best.1)
}

/// Picks `seat`'s move at `node` among `keys` as `how` says: the arm's
/// index in the node, the move's index in `keys`, and (under regret
/// matching) the chance the pick had, else 0.
#[allow(clippy::too_many_arguments)] // a selection's inputs, whichever it is
pub(super) fn select_as(
    how: Simultaneous,
    tree: &mut Tree,
    node: usize,
    seat: Seat,
    keys: &[u64],
    sel: &mut Vec<u32>,
    scoring: Scoring<'_>,
    rng: &mut ChaCha8Rng,
) -> (usize, usize, f64) {
    match how {
        Simultaneous::Regret => select_by_regret(tree, node, seat, keys, sel, rng),
        Simultaneous::Smooth => {
            let (arm, at) = select_smooth(tree, node, seat, keys, sel, scoring, rng);
            (arm, at, 0.0)
        }
        Simultaneous::Ucb => {
            let (arm, at) = select(tree, node, seat, keys, sel, scoring, rng);
            (arm, at, 0.0)
        }
    }
}

/// Picks `seat`'s move at `node` among `keys` by regret matching: each
/// move in proportion to its positive regret (uniformly when none is
/// positive), mixed with a uniform pick ([`EXPLORE`]). Returns the arm's
/// index in the node, the move's index in `keys`, and the chance it had.
/// `sel` is left holding the arms offered.
pub(super) fn select_by_regret(
    tree: &mut Tree,
    node: usize,
    seat: Seat,
    keys: &[u64],
    sel: &mut Vec<u32>,
    rng: &mut ChaCha8Rng,
) -> (usize, usize, f64) {
    sel.clear();
    let mut hint = 0;
    for &key in keys {
        let a = tree.arm(node, seat, key, hint);
        hint = a + 1;
        sel.push(a as u32);
    }
    let arms = &mut tree.arms[tree.nodes[node].arms.range()];
    for &a in sel.iter() {
        arms[a as usize].available += 1;
    }
    let n = sel.len() as f64;
    let positive: f64 = sel.iter().map(|&a| arms[a as usize].regret.max(0.0)).sum();
    let chance = |a: u32| {
        let matched = if positive > 0.0 {
            arms[a as usize].regret.max(0.0) / positive
        } else {
            1.0 / n
        };
        (1.0 - EXPLORE) * matched + EXPLORE / n
    };
    let mut x: f64 = rng.random_range(0.0..1.0);
    for (i, &a) in sel.iter().enumerate() {
        let p = chance(a);
        if x < p || i + 1 == sel.len() {
            return (a as usize, i, p);
        }
        x -= p;
    }
    unreachable!("a decision offers at least one move")
}

/// Smooth UCT's pick (Heinrich & Silver 2015): by UCB1 with a chance that
/// falls as the node is visited (to [`SMOOTH_FLOOR`]), else from the
/// seat's average strategy there (each move in proportion to its visits).
fn select_smooth(
    tree: &mut Tree,
    node: usize,
    seat: Seat,
    keys: &[u64],
    sel: &mut Vec<u32>,
    scoring: Scoring<'_>,
    rng: &mut ChaCha8Rng,
) -> (usize, usize) {
    let visits = f64::from(tree.nodes[node].visits);
    let eta = (0.9 / (1.0 + 0.1 * visits.sqrt())).max(SMOOTH_FLOOR);
    let (arm, at) = select(tree, node, seat, keys, sel, scoring, rng);
    if rng.random_range(0.0..1.0) < eta {
        return (arm, at);
    }
    let arms = &tree.arms[tree.nodes[node].arms.range()];
    let total: u32 = sel.iter().map(|&a| arms[a as usize].visits).sum();
    if total == 0 {
        return (arm, at);
    }
    let mut x = rng.random_range(0..total);
    for (i, &a) in sel.iter().enumerate() {
        let v = arms[a as usize].visits;
        if x < v {
            return (a as usize, i);
        }
        x -= v;
    }
    (arm, at)
}

/// The least chance Smooth UCT gives UCB1.
const SMOOTH_FLOOR: f64 = 0.1;
