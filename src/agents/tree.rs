//! The IS-MCTS search tree ([`super::mcts`]): nodes, and each node's arms
//! (a seat's move there, with its statistics) and children (by the
//! searching seat's observation of the joint move), laid out in arenas.
//! With transpositions, a position reached by two paths is one node (the
//! tree is then a graph, which may loop where a position comes round).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ir::Seat;

/// The search tree. Its nodes' arms and children lie in two shared arenas,
/// each node's in one run ([`Span`]), so a search allocates only as the
/// arenas grow, never per node or per iteration.
#[derive(Debug, Default)]
pub(super) struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) arms: Vec<Arm>,
    /// By the searching seat's observation of the joint move.
    pub(super) children: Vec<(u64, u32)>,
    /// With transpositions: each node by its position as the searching
    /// seat sees it ([`crate::engine::World::searched_position`]).
    positions: HashMap<u64, u32, BuildHasherDefault<Digested>>,
}

/// The hasher of keys that are digests already: their own bits.
#[derive(Debug, Default)]
struct Digested(u64);

impl Hasher for Digested {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A sequence of moves as the searching seat sees them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Node {
    pub(super) arms: Span,
    pub(super) children: Span,
    /// Iterations whose walk reached this node.
    pub(super) visits: u32,
    /// Its position, when the tree merges transpositions (else 0).
    pub(super) position: u64,
}

/// A node's run in an arena: `len` items in use, room for `cap`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Span {
    pub(super) start: u32,
    pub(super) len: u32,
    pub(super) cap: u32,
}

impl Span {
    pub(super) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }

    /// Makes room for `extra` more items: in place when the run ends the
    /// arena, else by moving it to the end with twice the room.
    pub(super) fn reserve<T: Copy>(&mut self, arena: &mut Vec<T>, extra: u32, fill: T) {
        if self.len + extra <= self.cap {
            return;
        }
        let cap = (self.len + extra).max(2 * self.cap);
        if (self.start + self.cap) as usize == arena.len() {
            arena.resize((self.start + cap) as usize, fill);
        } else {
            let start = arena.len();
            arena.extend_from_within(self.range());
            arena.resize(start + cap as usize, fill);
            self.start = start as u32;
        }
        self.cap = cap;
    }
}

impl Tree {
    /// Back to the root alone, keeping the arenas' memory.
    pub(super) fn reset(&mut self) {
        self.nodes.clear();
        self.arms.clear();
        self.children.clear();
        self.positions.clear();
        self.nodes.push(Node::default());
    }

    /// The node of `position`, if the tree has met it.
    pub(super) fn at_position(&self, position: u64) -> Option<usize> {
        self.positions.get(&position).map(|&n| n as usize)
    }

    /// Notes that `node` is `position`, so that other paths to it merge.
    pub(super) fn place(&mut self, node: usize, position: u64) {
        self.nodes[node].position = position;
        self.positions.insert(position, node as u32);
    }

    pub(super) fn arms(&self, node: usize) -> &[Arm] {
        &self.arms[self.nodes[node].arms.range()]
    }

    /// Makes `root` the root, keeping only what lies below it; the rest of
    /// the tree is dropped. The arenas are laid out afresh, node by node
    /// (a node reached by two paths, or on a loop, once).
    pub(super) fn reroot(&mut self, root: usize) {
        if root == 0 {
            return;
        }
        let mut tree = Tree::default();
        // The old number of each kept node, in the new order, and the new
        // number of each old node met.
        let mut old = vec![root as u32];
        let mut new = vec![u32::MAX; self.nodes.len()];
        new[root] = 0;
        let mut at = 0;
        while at < old.len() {
            let node = self.nodes[old[at] as usize];
            let arms = Span {
                start: tree.arms.len() as u32,
                len: node.arms.len,
                cap: node.arms.len,
            };
            tree.arms.extend_from_slice(&self.arms[node.arms.range()]);
            let children = Span {
                start: tree.children.len() as u32,
                len: node.children.len,
                cap: node.children.len,
            };
            for &(observed, child) in &self.children[node.children.range()] {
                if new[child as usize] == u32::MAX {
                    new[child as usize] = old.len() as u32;
                    old.push(child);
                }
                tree.children.push((observed, new[child as usize]));
            }
            if self.positions.get(&node.position) == Some(&old[at]) {
                tree.positions.insert(node.position, at as u32);
            }
            tree.nodes.push(Node { arms, children, ..node });
            at += 1;
        }
        *self = tree;
    }

    /// The child of `node` reached by the observation `observed`.
    pub(super) fn child(&self, node: usize, observed: u64) -> Option<usize> {
        self.children[self.nodes[node].children.range()]
            .iter()
            .find(|(k, _)| *k == observed)
            .map(|&(_, c)| c as usize)
    }

    /// Adds a child to `node`, reached by `observed`, and returns it.
    pub(super) fn add_child(&mut self, node: usize, observed: u64) -> usize {
        let child = self.nodes.len();
        // Reached by the iteration that adds it.
        self.nodes.push(Node {
            visits: 1,
            ..Node::default()
        });
        self.link(node, observed, child);
        child
    }

    /// Makes `child` (new, or met by another path) the child of `node`
    /// reached by `observed`.
    pub(super) fn link(&mut self, node: usize, observed: u64, child: usize) {
        let span = &mut self.nodes[node].children;
        span.reserve(&mut self.children, 1, (0, 0));
        self.children[(span.start + span.len) as usize] = (observed, child as u32);
        span.len += 1;
    }

    /// `seat`'s arm for `key` at `node` (its index among the node's arms),
    /// added if it is new. Looks first at `hint`, where it usually is.
    pub(super) fn arm(&mut self, node: usize, seat: Seat, key: u64, hint: usize) -> usize {
        let span = &mut self.nodes[node].arms;
        let arms = &self.arms[span.range()];
        let is = |a: &Arm| a.seat == seat && a.key == key;
        if arms.get(hint).is_some_and(is) {
            return hint;
        }
        if let Some(a) = arms.iter().position(is) {
            return a;
        }
        span.reserve(&mut self.arms, 1, Arm::new(0, 0));
        self.arms[(span.start + span.len) as usize] = Arm::new(seat, key);
        span.len += 1;
        span.len as usize - 1
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Arm {
    pub(super) seat: Seat,
    /// Counted as available in the selection under way (see [`select`]).
    pub(super) counted: bool,
    pub(super) key: u64,
    pub(super) visits: u32,
    pub(super) reward: f64,
    /// Visits to the node in which this move was available.
    pub(super) available: u32,
    /// Where seats choose at once, under regret matching: how much better
    /// this move would have done than the seat's picks, summed.
    pub(super) regret: f64,
}

impl Arm {
    pub(super) fn new(seat: Seat, key: u64) -> Self {
        Arm {
            seat,
            counted: false,
            key,
            visits: 0,
            reward: 0.0,
            available: 0,
            regret: 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_graph_rerooted_keeps_each_node_below_once_and_their_positions() {
        // 0 -a-> 1 -c-> 3, 0 -b-> 2 -d-> 3 (a transposition), 3 -e-> 1 (a loop).
        let mut tree = Tree::default();
        tree.reset();
        let one = tree.add_child(0, 10);
        let two = tree.add_child(0, 20);
        let three = tree.add_child(one, 30);
        tree.link(two, 40, three);
        tree.link(three, 50, one);
        for (node, position) in [(one, 101), (two, 102), (three, 103)] {
            tree.place(node, position);
        }
        tree.nodes[three].visits = 7;
        tree.reroot(one);
        // Kept: 1 (now the root) and 3; 0 and 2 are gone.
        assert_eq!(tree.nodes.len(), 2);
        let below = tree.child(0, 30).expect("the root's child");
        assert_eq!(tree.nodes[below].visits, 7);
        assert_eq!(tree.child(below, 50), Some(0), "the loop comes back to the root");
        assert_eq!(tree.at_position(101), Some(0));
        assert_eq!(tree.at_position(103), Some(below));
        assert_eq!(tree.at_position(102), None, "a dropped node is no longer met");
    }
}
