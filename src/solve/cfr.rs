//! CFR+ on the whole tree (Tammelin 2014): regret matching+ (regrets never
//! fall below zero), alternating updates (one seat per pass, each pass
//! seeing the passes before it), and the average strategy weighted by the
//! iteration's number. Deterministic: no sampling, the same answer every run.
//!
//! A position met again (`Node::Repeat`) is worth what its first meeting is
//! worth: the average of that node's values over the passes so far,
//! weighted as the average strategy is. In a zero-sum game, the average
//! payoff of regret-minimising play tends to the game's value, so the
//! repeat's worth tends to the value of the position it repeats, and the
//! average strategy to a stationary equilibrium: the same strategy each time
//! round, which is all a public position needs.

use super::profile::{Profile, regret_matched};
use super::tree::{Node, Tree};

/// A CFR+ run on one tree.
pub struct Cfr<'a> {
    tree: &'a Tree,
    /// Per action, the cumulative regret (never negative).
    regrets: Vec<f64>,
    /// Per action, the weighted sum of the strategies played.
    sums: Vec<f64>,
    /// The strategy this pass plays, from the regrets.
    current: Vec<f64>,
    /// Per repeated node and seat, the weighted sum of its values so far,
    /// and the sum of the weights.
    repeat_sums: Vec<f64>,
    repeat_weights: Vec<f64>,
    iterations: u64,
}

impl<'a> Cfr<'a> {
    /// A run that has not iterated yet.
    pub fn new(tree: &'a Tree) -> Self {
        Cfr {
            tree,
            regrets: vec![0.0; tree.actions],
            sums: vec![0.0; tree.actions],
            current: vec![0.0; tree.actions],
            repeat_sums: vec![0.0; tree.targets.len() * tree.seats],
            repeat_weights: vec![0.0; tree.targets.len() * tree.seats],
            iterations: 0,
        }
    }

    /// Iterations done.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// One iteration: a pass for each seat.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        let weight = self.iterations as f64;
        for seat in 0..self.tree.seats {
            self.match_regrets();
            self.walk(0, seat, 1.0, 1.0, weight);
            for set in self.tree.infosets.iter().filter(|s| s.seat as usize == seat) {
                for r in &mut self.regrets[set.offset..set.offset + set.actions.len()] {
                    *r = r.max(0.0);
                }
            }
        }
    }

    /// The average strategy: what converges to an equilibrium.
    pub fn average(&self) -> Profile {
        Profile::from_sums(self.tree, &self.sums)
    }

    /// Regret matching at every set: the strategy this pass plays.
    fn match_regrets(&mut self) {
        for set in &self.tree.infosets {
            let range = set.offset..set.offset + set.actions.len();
            regret_matched(&self.regrets[range.clone()], &mut self.current[range]);
        }
    }

    /// The value of `node` to `seat`, updating `seat`'s regrets and average
    /// strategy below it. `mine` is the probability of the seat's own
    /// choices on the way, `others` that of everyone else's and chance's.
    fn walk(&mut self, node: usize, seat: usize, mine: f64, others: f64, weight: f64) -> f64 {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.walk_here(node, seat, mine, others, weight)
        })
    }

    fn walk_here(&mut self, node: usize, seat: usize, mine: f64, others: f64, weight: f64) -> f64 {
        let t = self.tree;
        match t.nodes[node] {
            Node::Terminal { at } => t.payoffs[at as usize + seat],
            Node::Cut | Node::Open => 0.0,
            Node::Repeat { target } => {
                let at = target as usize * t.seats + seat;
                if self.repeat_weights[at] > 0.0 {
                    self.repeat_sums[at] / self.repeat_weights[at]
                } else {
                    0.0
                }
            }
            Node::Chance { first, len } => {
                let mut v = 0.0;
                for c in t.children_of(first, len) {
                    let p = t.odds[c];
                    v += p * self.walk(t.children[c] as usize, seat, mine, others * p, weight);
                }
                v
            }
            Node::Decision {
                seat: who,
                infoset,
                first,
                len,
            } => {
                let offset = t.infosets[infoset as usize].offset;
                let n = len as usize;
                if who as usize != seat {
                    let mut v = 0.0;
                    for a in 0..n {
                        let p = self.current[offset + a];
                        // Below a move the others never make, the seat's
                        // regrets do not change, but its average strategy
                        // still follows what it would play there: a best
                        // response that makes that move meets it.
                        if p > 0.0 || mine > 0.0 {
                            let child = t.children[first as usize + a] as usize;
                            v += p * self.walk(child, seat, mine, others * p, weight);
                        }
                    }
                    if mine > 0.0 || others > 0.0 {
                        self.remember_repeated(node, seat, v, weight);
                    }
                    return v;
                }
                let mut values = [0.0f64; 16];
                let mut spill = vec![];
                let values: &mut [f64] = if n <= values.len() {
                    &mut values[..n]
                } else {
                    spill.resize(n, 0.0);
                    &mut spill
                };
                let mut v = 0.0;
                for (a, value) in values.iter_mut().enumerate() {
                    let p = self.current[offset + a];
                    let child = t.children[first as usize + a] as usize;
                    if mine * p > 0.0 || others > 0.0 {
                        *value = self.walk(child, seat, mine * p, others, weight);
                    }
                    v += p * *value;
                }
                for (a, &value) in values.iter().enumerate() {
                    self.regrets[offset + a] += others * (value - v);
                    self.sums[offset + a] += weight * mine * self.current[offset + a];
                }
                if mine > 0.0 || others > 0.0 {
                    self.remember_repeated(node, seat, v, weight);
                }
                v
            }
        }
    }

    /// Keeps `v`, the value of `node` to `seat` this pass, when a repeat
    /// goes back to the node. (Only a node whose every child this pass
    /// walked is worth keeping: one that neither the seat nor the others
    /// reach is skipped below.)
    fn remember_repeated(&mut self, node: usize, seat: usize, v: f64, weight: f64) {
        if self.tree.targets.is_empty() {
            return;
        }
        if let Some(&target) = self.tree.target_index.get(&(node as u32)) {
            let at = target as usize * self.tree.seats + seat;
            self.repeat_sums[at] += weight * v;
            self.repeat_weights[at] += weight;
        }
    }
}
