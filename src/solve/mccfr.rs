//! Monte Carlo CFR on a built tree: external or outcome sampling (Lanctot
//! et al. 2009) for games whose tree fits, when sampling is asked for.
//!
//! The sampled solver of `sample` plays the engine from a fresh deal every
//! traversal: a state copied and a step run per position, which is what a
//! game too big for its tree needs. Where the tree fits, the positions are
//! already built, so a traversal walks the tree's flat tables instead: a
//! draw per chance and per other seat's choice, a child index, no state.
//! The formulas are the ones `sample` and `outcome` use (OpenSpiel's, with
//! no baseline), so the same sampling converges the same way, faster.
//!
//! A position met again (`Node::Repeat`) is worth what traversals found its
//! first meeting worth so far, as in `sample`.
//!
//! Deterministic: one stream seeded by the run's seed, one thread; the
//! same seed and iterations give the same strategy.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::profile::{Profile, regret_matched};
use super::sample::Sampling;
use super::tree::{Node, Tree};
use crate::agents::draw;

/// The share of uniform play mixed into the traversing seat's choices in
/// outcome sampling (as `outcome::EXPLORE`).
const EXPLORE: f64 = 0.6;

/// Actions a set may have before a visit's strategy is put on the heap.
const ON_STACK: usize = 16;

/// A Monte Carlo CFR run on one tree.
pub struct TreeMccfr<'a> {
    tree: &'a Tree,
    sampling: Sampling,
    rng: ChaCha8Rng,
    /// Per action, the cumulative regret.
    regrets: Vec<f64>,
    /// Per action, the sum of the strategies played there.
    sums: Vec<f64>,
    /// Per repeated node and seat, the sum of the values found there and
    /// how many were found.
    repeat_sums: Vec<f64>,
    repeat_counts: Vec<u64>,
    iterations: u64,
}

impl<'a> TreeMccfr<'a> {
    /// A run on `tree` sampling as `sampling` says, seeded by `seed`.
    pub fn new(tree: &'a Tree, sampling: Sampling, seed: u64) -> Self {
        TreeMccfr {
            tree,
            sampling,
            rng: ChaCha8Rng::seed_from_u64(seed),
            regrets: vec![0.0; tree.actions],
            sums: vec![0.0; tree.actions],
            repeat_sums: vec![0.0; tree.targets.len() * tree.seats],
            repeat_counts: vec![0; tree.targets.len() * tree.seats],
            iterations: 0,
        }
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The nodes of the tree it walks.
    pub fn tree_len(&self) -> usize {
        self.tree.len()
    }

    /// One iteration: a traversal for each seat.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        for seat in 0..self.tree.seats {
            match self.sampling {
                Sampling::External => self.external(0, seat),
                Sampling::Outcome => self.outcome(0, seat, 1.0, 1.0, 1.0),
            };
        }
    }

    /// The average strategy: what converges to an equilibrium.
    pub fn average(&self) -> Profile {
        Profile::from_sums(self.tree, &self.sums)
    }

    /// Regret matching at the set whose actions start at `offset`.
    fn current(&self, offset: usize, out: &mut [f64]) {
        regret_matched(&self.regrets[offset..offset + out.len()], out);
    }

    /// What a repeat of `target` is worth to `seat`: the mean of what was
    /// found at its first meeting (0 before anything was).
    fn repeat_worth(&self, target: u32, seat: usize) -> f64 {
        let at = target as usize * self.tree.seats + seat;
        match self.repeat_counts[at] {
            0 => 0.0,
            count => self.repeat_sums[at] / count as f64,
        }
    }

    /// Keeps `v`, found at `node` for `seat`, where a repeat goes back to it.
    fn remember_repeated(&mut self, node: usize, seat: usize, v: f64) {
        if self.tree.targets.is_empty() {
            return;
        }
        if let Some(&target) = self.tree.target_index.get(&(node as u32)) {
            let at = target as usize * self.tree.seats + seat;
            self.repeat_sums[at] += v;
            self.repeat_counts[at] += 1;
        }
    }

    /// A child of the chance node whose children start at `first`, drawn by its odds.
    fn chance_child(&mut self, first: u32, len: u32) -> usize {
        let t = self.tree;
        let range = t.children_of(first, len);
        let c = draw(&t.odds[range.clone()], &mut self.rng);
        t.children[range.start + c] as usize
    }

    /// External sampling: the value of `node` to `seat`, which tries every
    /// action it has; chance and the others are sampled, and the others'
    /// average strategies take the strategy they played.
    fn external(&mut self, node: usize, seat: usize) -> f64 {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.external_here(node, seat))
    }

    fn external_here(&mut self, node: usize, seat: usize) -> f64 {
        let t = self.tree;
        match t.nodes[node] {
            Node::Terminal { at } => t.payoffs[at as usize + seat],
            Node::Cut | Node::Open => 0.0,
            Node::Repeat { target } => self.repeat_worth(target, seat),
            Node::Chance { first, len } => {
                let child = self.chance_child(first, len);
                self.external(child, seat)
            }
            Node::Decision {
                seat: who,
                infoset,
                first,
                len,
            } => {
                let offset = t.infosets[infoset as usize].offset;
                let n = len as usize;
                let (mut on_stack, mut spilled) = ([0.0f64; 2 * ON_STACK], vec![]);
                let (strategy, values) = two_rows(n, &mut on_stack, &mut spilled);
                self.current(offset, strategy);
                let v = if who as usize != seat {
                    let a = draw(strategy, &mut self.rng);
                    for (s, p) in self.sums[offset..offset + n].iter_mut().zip(strategy.iter()) {
                        *s += p;
                    }
                    self.external(t.children[first as usize + a] as usize, seat)
                } else {
                    for (a, value) in values.iter_mut().enumerate() {
                        *value = self.external(t.children[first as usize + a] as usize, seat);
                    }
                    let v: f64 = values.iter().zip(strategy.iter()).map(|(v, p)| v * p).sum();
                    for (r, value) in self.regrets[offset..offset + n].iter_mut().zip(values.iter()) {
                        *r += value - v;
                    }
                    v
                };
                self.remember_repeated(node, seat, v);
                v
            }
        }
    }

    /// Outcome sampling: one game from `node`, the traversing `seat`
    /// exploring; its value to the seat over how likely the sampling was.
    /// `mine`, `others` and `sampled` are how likely the play to `node`
    /// was under the seat's strategy, the others', and the sampling
    /// (chance is left out of all three: it cancels).
    fn outcome(&mut self, node: usize, seat: usize, mine: f64, others: f64, sampled: f64) -> f64 {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.outcome_here(node, seat, mine, others, sampled)
        })
    }

    fn outcome_here(&mut self, node: usize, seat: usize, mine: f64, others: f64, sampled: f64) -> f64 {
        let t = self.tree;
        match t.nodes[node] {
            Node::Terminal { at } => t.payoffs[at as usize + seat],
            Node::Cut | Node::Open => 0.0,
            Node::Repeat { target } => self.repeat_worth(target, seat),
            Node::Chance { first, len } => {
                let child = self.chance_child(first, len);
                self.outcome(child, seat, mine, others, sampled)
            }
            Node::Decision {
                seat: who,
                infoset,
                first,
                len,
            } => {
                let offset = t.infosets[infoset as usize].offset;
                let n = len as usize;
                let (mut on_stack, mut spilled) = ([0.0f64; 2 * ON_STACK], vec![]);
                let (strategy, sampling) = two_rows(n, &mut on_stack, &mut spilled);
                self.current(offset, strategy);
                let v = if who as usize != seat {
                    // The others play their strategies: the estimate passes through.
                    let a = draw(strategy, &mut self.rng);
                    let p = strategy[a];
                    self.outcome(
                        t.children[first as usize + a] as usize,
                        seat,
                        mine,
                        others * p,
                        sampled * p,
                    )
                } else {
                    for (q, p) in sampling.iter_mut().zip(strategy.iter()) {
                        *q = EXPLORE / n as f64 + (1.0 - EXPLORE) * p;
                    }
                    let a = draw(sampling, &mut self.rng);
                    let (p, q) = (strategy[a], sampling[a]);
                    let child = t.children[first as usize + a] as usize;
                    let below = self.outcome(child, seat, mine * p, others, sampled * q);
                    // The picked action's value over its sampling probability;
                    // the others' estimates are 0 (no baseline).
                    let picked_value = below / q;
                    let value = p * picked_value;
                    let (weight, own) = (others / sampled, mine / sampled);
                    for (i, r) in self.regrets[offset..offset + n].iter_mut().enumerate() {
                        let action_value = if i == a { picked_value } else { 0.0 };
                        *r += weight * (action_value - value);
                    }
                    for (s, p) in self.sums[offset..offset + n].iter_mut().zip(strategy.iter()) {
                        *s += own * p;
                    }
                    value
                };
                self.remember_repeated(node, seat, v);
                v
            }
        }
    }
}

/// Two rows of `n` numbers for one visit: on the stack, or on the heap for
/// a set with more than [`ON_STACK`] actions.
fn two_rows<'b>(
    n: usize,
    on_stack: &'b mut [f64; 2 * ON_STACK],
    spilled: &'b mut Vec<f64>,
) -> (&'b mut [f64], &'b mut [f64]) {
    match n <= ON_STACK {
        true => on_stack[..2 * n].split_at_mut(n),
        false => {
            spilled.resize(2 * n, 0.0);
            spilled.split_at_mut(n)
        }
    }
}

impl Tree {
    /// About how many positions an external-sampling traversal of this tree
    /// visits, the most for any seat: the seat's own actions all tried,
    /// the others' and chance's drawn (the others uniformly).
    pub fn external_positions(&self) -> f64 {
        (0..self.seats)
            .map(|seat| self.positions_below(0, seat))
            .fold(0.0, f64::max)
    }

    fn positions_below(&self, node: usize, seat: usize) -> f64 {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            1.0 + match self.nodes[node] {
                Node::Terminal { .. } | Node::Cut | Node::Open | Node::Repeat { .. } => 0.0,
                Node::Chance { first, len } => self
                    .children_of(first, len)
                    .map(|c| self.odds[c] * self.positions_below(self.children[c] as usize, seat))
                    .sum(),
                Node::Decision {
                    seat: who, first, len, ..
                } => {
                    let below = self
                        .children_of(first, len)
                        .map(|c| self.positions_below(self.children[c] as usize, seat));
                    match who as usize == seat {
                        true => below.sum(),
                        false => below.sum::<f64>() / f64::from(len),
                    }
                }
            }
        })
    }
}
