//! Strategy profiles on a tree, and what they are worth: each seat's
//! expected payoff, a best response's, and NashConv (how much all seats
//! together would gain by each switching alone to its best response).
//!
//! A tree with repeated positions (`Node::Repeat`) is a graph with loops:
//! reaching a repeat is reaching its first meeting again. There, "reach" is
//! how many times play is expected to pass a node, and values are found by
//! going round until nothing changes (each round multiplies what is still
//! moving by the chance of going round again, so the error falls
//! geometrically). Play that never leaves a loop never ends: the engine
//! would stop it, and it pays nothing, as here.

use super::tree::{Node, Tree};

/// A strategy for every seat: per information set, a probability per
/// action (flat, in the tree's order of sets and actions).
#[derive(Clone, Debug)]
pub struct Profile {
    pub(super) probs: Vec<f64>,
}

/// Regret matching: each action in proportion to its positive regret,
/// uniform when none is positive.
pub(super) fn regret_matched(regrets: &[f64], out: &mut [f64]) {
    let total: f64 = regrets.iter().map(|r| r.max(0.0)).sum();
    let n = out.len() as f64;
    for (p, &r) in out.iter_mut().zip(regrets) {
        *p = if total > 0.0 { r.max(0.0) / total } else { 1.0 / n };
    }
}

impl Profile {
    /// The average strategy of per-action `sums` of the strategies played:
    /// each set's sums scaled to 1, uniform where they are all 0.
    pub(super) fn from_sums(tree: &Tree, sums: &[f64]) -> Profile {
        let mut probs = vec![0.0; tree.actions];
        for set in &tree.infosets {
            let range = set.offset..set.offset + set.actions.len();
            let total: f64 = sums[range.clone()].iter().sum();
            let n = set.actions.len() as f64;
            for (p, &s) in probs[range.clone()].iter_mut().zip(&sums[range]) {
                *p = if total > 0.0 { s / total } else { 1.0 / n };
            }
        }
        Profile { probs }
    }

    /// The probabilities of information set `set`'s actions.
    pub fn at(&self, tree: &Tree, set: usize) -> &[f64] {
        let s = &tree.infosets[set];
        &self.probs[s.offset..s.offset + s.actions.len()]
    }
}

/// Rounds of a loop at most, and nodes walked by them at most: past either,
/// the figures stand as they are (play that rarely leaves a loop).
const MAX_ROUNDS: usize = 20_000;
const MAX_ROUND_WORK: usize = 50_000_000;

/// When a loop's figures have stopped changing.
const SETTLED: f64 = 1e-13;

/// How likely play under a profile reaches each node, and what it is worth.
pub struct Reach {
    /// Per node, the probability of reaching it.
    pub(super) reach: Vec<f64>,
}

impl Tree {
    /// Every seat picking uniformly among its actions.
    pub fn uniform(&self) -> Profile {
        let mut probs = vec![0.0; self.actions];
        for set in &self.infosets {
            let n = set.actions.len();
            probs[set.offset..set.offset + n].fill(1.0 / n as f64);
        }
        Profile { probs }
    }

    /// The probability of reaching every node when every seat plays
    /// `profile` (where positions repeat, the number of times play is
    /// expected to pass it), or (with `except`) when that seat's own
    /// choices count as certain: its counterfactual reach, on the way
    /// down only. (Going round a loop scales every node below the position
    /// it repeats alike, so a best response weighing the nodes of one set
    /// against each other needs no more; and with every own choice counted
    /// as certain, the mass going round would never fall.)
    pub(super) fn reach(&self, profile: &Profile, except: Option<usize>) -> Reach {
        let mut again = vec![0.0; self.targets.len()];
        let mut rounds = Rounds::default();
        loop {
            let reach = self.reach_once(profile, except, &again);
            if except.is_some() {
                return Reach { reach };
            }
            let mut next = vec![0.0; self.targets.len()];
            for (node, &r) in self.nodes.iter().zip(&reach) {
                if let Node::Repeat { target } = *node {
                    next[target as usize] += r;
                }
            }
            if !rounds.another(self, &again, &next) {
                return Reach { reach };
            }
            again = next;
        }
    }

    /// One pass of [`Tree::reach`]: each repeated node reached `again[k]`
    /// more times than from above.
    fn reach_once(&self, profile: &Profile, except: Option<usize>, again: &[f64]) -> Vec<f64> {
        let mut reach = vec![0.0; self.nodes.len()];
        reach[0] = 1.0;
        for (&node, &more) in self.targets.iter().zip(again) {
            reach[node as usize] += more;
        }
        // A node's children come after it, so one pass in order does it.
        for (i, node) in self.nodes.iter().enumerate() {
            let here = reach[i];
            match *node {
                Node::Decision {
                    seat,
                    infoset,
                    first,
                    len,
                } => {
                    let offset = self.infosets[infoset as usize].offset;
                    for (a, c) in self.children_of(first, len).enumerate() {
                        let p = if except == Some(seat as usize) {
                            1.0
                        } else {
                            profile.probs[offset + a]
                        };
                        reach[self.children[c] as usize] += here * p;
                    }
                }
                Node::Chance { first, len } => {
                    for c in self.children_of(first, len) {
                        reach[self.children[c] as usize] += here * self.odds[c];
                    }
                }
                Node::Terminal { .. } | Node::Cut | Node::Open | Node::Repeat { .. } => {}
            }
        }
        reach
    }

    /// Each seat's expected payoff under `profile`, and the probability that
    /// play reaches a cut node.
    pub fn values(&self, profile: &Profile) -> (Vec<f64>, f64) {
        let reach = self.reach(profile, None).reach;
        let mut values = vec![0.0; self.seats];
        let mut cut = 0.0;
        for (node, &p) in self.nodes.iter().zip(&reach) {
            match *node {
                Node::Terminal { at } => {
                    for (seat, v) in values.iter_mut().enumerate() {
                        *v += p * self.payoffs[at as usize + seat];
                    }
                }
                Node::Cut => cut += p,
                _ => {}
            }
        }
        (values, cut)
    }

    /// The probability that play under `profile` never ends: it goes round
    /// a loop of repeated positions for ever (the engine would stop such a
    /// game at its decision limit). 0 in a tree without repeats.
    pub fn endless(&self, profile: &Profile) -> f64 {
        if self.targets.is_empty() {
            return 0.0;
        }
        let reach = self.reach(profile, None).reach;
        let ended: f64 = self
            .nodes
            .iter()
            .zip(&reach)
            .filter(|(n, _)| matches!(n, Node::Terminal { .. } | Node::Cut))
            .map(|(_, &r)| r)
            .sum();
        (1.0 - ended).clamp(0.0, 1.0)
    }

    /// What `seat` gets by playing its best response to everyone else's
    /// `profile`.
    pub fn best_response_value(&self, profile: &Profile, seat: usize) -> f64 {
        let reach = self.reach(profile, Some(seat)).reach;
        let mut repeats = vec![0.0; self.targets.len()];
        let mut rounds = Rounds::default();
        loop {
            let mut br = BestResponse {
                tree: self,
                profile,
                seat,
                reach: &reach,
                repeats: &repeats,
                value: vec![f64::NAN; self.nodes.len()],
                choice: vec![u32::MAX; self.infosets.len()],
            };
            let value = br.value(0);
            let next: Vec<f64> = self.targets.iter().map(|&node| br.value(node as usize)).collect();
            if !rounds.another(self, &repeats, &next) {
                return value;
            }
            repeats = next;
        }
    }

    /// `profile`, found on `other` (the same game's tree, its information
    /// sets keyed another way: an abstraction), played on this tree's
    /// information sets. Both trees have the same nodes in the same order
    /// (how sets are keyed never changes which positions there are), so
    /// each set plays what the other tree's set of its first node plays.
    pub fn profile_from(&self, other: &Tree, profile: &Profile) -> Profile {
        let mut probs = vec![0.0; self.actions];
        for set in &self.infosets {
            let node = set.nodes[0] as usize;
            let Node::Decision { infoset, .. } = other.nodes[node] else {
                unreachable!("the two trees have the same nodes")
            };
            let theirs = &other.infosets[infoset as usize];
            let played = profile.at(other, infoset as usize);
            for (p, key) in probs[set.offset..set.offset + set.actions.len()]
                .iter_mut()
                .zip(&set.keys)
            {
                let at = theirs.keys.iter().position(|k| k == key);
                *p = at.map_or(1.0 / set.actions.len() as f64, |i| played[i]);
            }
        }
        Profile { probs }
    }

    /// NashConv: the sum over seats of what each would gain by switching
    /// alone to its best response. 0 exactly at a Nash equilibrium.
    pub fn nash_conv(&self, profile: &Profile) -> f64 {
        let (values, _) = self.values(profile);
        (0..self.seats)
            .map(|seat| self.best_response_value(profile, seat) - values[seat])
            .sum::<f64>()
            .max(0.0)
    }
}

/// A best response's value, found depth first: at each of the seat's
/// information sets, the action that is best over every position of the
/// set, weighted by how likely the others make each.
struct BestResponse<'a> {
    tree: &'a Tree,
    profile: &'a Profile,
    seat: usize,
    reach: &'a [f64],
    /// Per repeated node, its value to the seat as the last round found it.
    repeats: &'a [f64],
    /// Per node, its value to the seat (NaN: not yet known).
    value: Vec<f64>,
    /// Per information set of the seat, its best action (MAX: not yet known).
    choice: Vec<u32>,
}

impl BestResponse<'_> {
    fn value(&mut self, node: usize) -> f64 {
        if !self.value[node].is_nan() {
            return self.value[node];
        }
        let t = self.tree;
        let v = stacker::maybe_grow(64 * 1024, 1024 * 1024, || match t.nodes[node] {
            Node::Terminal { at } => t.payoffs[at as usize + self.seat],
            Node::Cut | Node::Open => 0.0,
            Node::Repeat { target } => self.repeats[target as usize],
            Node::Chance { first, len } => t
                .children_of(first, len)
                .map(|c| t.odds[c] * self.value(t.children[c] as usize))
                .sum(),
            Node::Decision {
                seat,
                infoset,
                first,
                len,
            } => {
                if seat as usize == self.seat {
                    let a = self.choose(infoset as usize);
                    self.value(t.children[first as usize + a] as usize)
                } else {
                    let offset = t.infosets[infoset as usize].offset;
                    t.children_of(first, len)
                        .enumerate()
                        .map(|(a, c)| {
                            let p = self.profile.probs[offset + a];
                            if p == 0.0 {
                                0.0
                            } else {
                                p * self.value(t.children[c] as usize)
                            }
                        })
                        .sum()
                }
            }
        });
        self.value[node] = v;
        v
    }

    /// The best action at `set`, over all of its positions.
    fn choose(&mut self, set: usize) -> usize {
        if self.choice[set] != u32::MAX {
            return self.choice[set] as usize;
        }
        let t = self.tree;
        let n = t.infosets[set].actions.len();
        let mut worth = vec![0.0; n];
        for k in 0..t.infosets[set].nodes.len() {
            let node = t.infosets[set].nodes[k] as usize;
            let w = self.reach[node];
            if w == 0.0 {
                continue;
            }
            let Node::Decision { first, .. } = t.nodes[node] else {
                unreachable!("an information set holds decision nodes")
            };
            for (a, q) in worth.iter_mut().enumerate() {
                *q += w * self.value(t.children[first as usize + a] as usize);
            }
        }
        let best = (0..n).fold(0, |best, a| if worth[a] > worth[best] + 1e-12 { a } else { best });
        self.choice[set] = best as u32;
        best
    }
}

/// Going round a tree's loops until their figures settle.
#[derive(Default)]
struct Rounds {
    done: usize,
    /// The largest change of the last round.
    last_change: Option<f64>,
}

impl Rounds {
    /// Whether to go round again after a round took the figures from
    /// `before` to `after`: not once they moved less than [`SETTLED`], nor
    /// once they stop shrinking (play that never leaves a loop: what goes
    /// round stays), nor past [`MAX_ROUNDS`] or [`MAX_ROUND_WORK`].
    fn another(&mut self, tree: &Tree, before: &[f64], after: &[f64]) -> bool {
        self.done += 1;
        let change = before
            .iter()
            .zip(after)
            .map(|(a, b)| (a - b).abs() / a.abs().max(b.abs()).max(1.0))
            .fold(0.0, f64::max);
        let shrinking = self.last_change.is_none_or(|last| change < last * (1.0 - 1e-9));
        self.last_change = Some(change);
        change > SETTLED
            && shrinking
            && self.done < MAX_ROUNDS
            && self.done.saturating_mul(tree.nodes.len()) < MAX_ROUND_WORK
    }
}

impl Tree {
    /// Checks perfect recall: every position of an information set was
    /// reached through the same decisions of its seat (the same sets, the
    /// same actions). Returns the first set that breaks it.
    pub fn recall_breaks(&self) -> Option<usize> {
        let mut parent = vec![(u32::MAX, 0u32); self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            if let Node::Decision { first, len, .. } | Node::Chance { first, len } = *node {
                for (a, c) in self.children_of(first, len).enumerate() {
                    parent[self.children[c] as usize] = (i as u32, a as u32);
                }
            }
        }
        let mut seen: Vec<Option<Vec<(u32, u32)>>> = vec![None; self.infosets.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            let Node::Decision { seat, infoset, .. } = *node else {
                continue;
            };
            let mut path = vec![];
            let mut at = i as u32;
            while parent[at as usize].0 != u32::MAX {
                let (up, a) = parent[at as usize];
                if let Node::Decision {
                    seat: s, infoset: set, ..
                } = self.nodes[up as usize]
                    && s == seat
                {
                    path.push((set, a));
                }
                at = up;
            }
            match &seen[infoset as usize] {
                None => seen[infoset as usize] = Some(path),
                Some(known) if *known != path => return Some(infoset as usize),
                Some(_) => {}
            }
        }
        None
    }
}
