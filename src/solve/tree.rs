//! The game tree a solver works on, built by playing the engine itself.
//!
//! Every decision point of the game becomes one decision node per answering
//! seat: a simultaneous decision is the seats deciding one after another,
//! each in an information set that does not hold the others' answers.
//! Chance is the engine's own: a step is run once per outcome of every draw
//! it meets (`exact::each_outcome`), and a step with more than one outcome
//! becomes a chance node.
//!
//! **Information sets** are what a seat's view lets it know, taken from the
//! engine's visibility rules and never from the true state: a seat's key
//! is a digest of every view it has had ([`View::fingerprint`]) and every
//! step as it saw it ([`StepKey`]: another seat's secret answer is one hidden
//! answer), so the seat recalls everything it has seen. Two positions share
//! an information set exactly when the seat has seen the same things in
//! both.
//!
//! **Size.** The tree is built level by level (a level is a decision point
//! of the game). A level that would take the tree past its node budget, or
//! past the depth asked for, is not built: the positions there become cut
//! nodes, which count as a draw, and the solver reports how likely play is
//! to reach them. So a game whose ties are thrown again (an unbounded tree)
//! is solved to a depth, with the mass it leaves out measured.
//!
//! [`View::fingerprint`]: crate::engine::View::fingerprint

use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{
    Chance, Choice, EngineError, Event, Game, Memory, Observation, Recall, RuntimeError, State, StepKey,
};
use crate::exact::each_outcome;
use crate::ir::{DecisionId, OptionValue, Seat};

/// What a terminal position pays each seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Payoff {
    /// The game's score (its points, as `score` sums them) when it is
    /// scored; otherwise as [`Payoff::Win`].
    Score,
    /// A win is worth 1, shared out of the losers' pockets (each loser pays
    /// 1/(seats-1)), a draw 0: zero-sum for any number of seats.
    Win,
}

/// One node of the tree.
#[derive(Clone, Copy, Debug)]
pub(super) enum Node {
    /// A seat picks one of its information set's actions; child `a` follows
    /// action `a`.
    Decision {
        seat: Seat,
        infoset: u32,
        first: u32,
        len: u32,
    },
    /// Chance picks a child with the probabilities in `Tree::odds`.
    Chance { first: u32, len: u32 },
    /// The game is over; `Tree::payoffs[at..at + seats]` is what each seat gets.
    Terminal { at: u32 },
    /// Past the depth the tree was built to: counts as a draw (0 each).
    Cut,
    /// A public position met again on the way down (see
    /// `engine::position`): play goes on as from its first meeting,
    /// `Tree::targets[target]`, an ancestor of this node.
    Repeat { target: u32 },
    /// Not expanded yet (only while building).
    Open,
}

/// A seat's information set: every position the seat cannot tell apart.
#[derive(Clone, Debug)]
pub struct InfoSet {
    /// The deciding seat.
    pub seat: Seat,
    /// The decision asked.
    pub decision: DecisionId,
    /// The actions, as the seat reads them, in a fixed order.
    pub actions: Vec<String>,
    /// What the seat knows there, in the game's words (what it holds, and
    /// what it saw happen).
    pub situation: String,
    /// Decision points before it.
    pub depth: u32,
    /// What the seat recalls there, its view included.
    pub recall: Recall,
    /// The set's key ([`Recall::infoset`]).
    pub key: u64,
    /// The actions' keys, which match the same move in every position of the set.
    pub keys: Vec<u64>,
    /// The decision nodes in the set.
    pub(super) nodes: Vec<u32>,
    /// Where its actions start in the solver's flat tables.
    pub(super) offset: usize,
}

/// A game's tree, built to a depth and a node budget.
pub struct Tree {
    pub(super) nodes: Vec<Node>,
    pub(super) children: Vec<u32>,
    /// Per child of a chance node, its probability (1 for other children).
    pub(super) odds: Vec<f64>,
    pub(super) payoffs: Vec<f64>,
    /// The information sets, in the order they were met.
    pub infosets: Vec<InfoSet>,
    /// The seats.
    pub seats: usize,
    /// The decision point at which the tree was cut, if it was.
    pub cut_at: Option<u32>,
    /// Terminal positions reached by a runtime error (they pay 0 each).
    pub stopped: u64,
    /// Whether every terminal's payoffs sum to zero.
    pub zero_sum: bool,
    /// The payoff used.
    pub payoff: Payoff,
    /// Total actions over all information sets.
    pub(super) actions: usize,
    /// Per information set, the first position met in it (kept only when
    /// asked for: a player is asked what it would do there).
    pub(super) examples: Vec<State>,
    /// The nodes that a `Repeat` goes back to, each once.
    pub(super) targets: Vec<u32>,
    /// Per node of `targets`, its index there.
    pub(super) target_index: HashMap<u32, u32>,
}

/// Limits on the tree.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Nodes at most.
    pub nodes: usize,
    /// Decision points at most (the rest is cut); `None`: as deep as the budget allows.
    pub depth: Option<u32>,
}

/// What the seats saw on the way to a position, newest first.
pub(super) struct Told {
    pub(super) before: Option<Rc<Told>>,
    /// Each answering seat's choice: its label, and whether it was secret.
    pub(super) answers: Vec<(Seat, String, bool)>,
}

/// A position waiting to be expanded.
struct Open {
    node: u32,
    state: State,
    /// Per seat, everything it has seen.
    seen: Vec<Recall>,
    told: Option<Rc<Told>>,
    /// The public positions on the way here, this one included.
    path: Option<Rc<Visit>>,
}

/// A public position on the way down, newest first.
struct Visit {
    position: u64,
    node: u32,
    before: Option<Rc<Visit>>,
}

impl Visit {
    /// The node of the earlier meeting with `position` on this path.
    fn find(mut at: Option<&Visit>, position: u64) -> Option<u32> {
        while let Some(visit) = at {
            if visit.position == position {
                return Some(visit.node);
            }
            at = visit.before.as_deref();
        }
        None
    }
}

struct Builder<'a> {
    def: &'a Game,
    limits: Limits,
    tree: Tree,
    index: HashMap<u64, u32>,
    keep_examples: bool,
    by_score: bool,
    events: Vec<Event>,
    memory: Memory,
}

impl Tree {
    /// Builds the tree of `def` with `options`.
    pub fn build(def: &Game, options: &[OptionValue], limits: Limits, payoff: Payoff) -> Result<Tree, Box<Diagnostic>> {
        Tree::build_as(def, options, limits, payoff, false, None, Memory::All)
    }

    /// Builds the tree. Whether it fits is decided by counts alone (the
    /// node budget, `limits`), never by the clock or the threads: the same
    /// command always builds the same tree or refuses it the same way. The
    /// clock only ends the command: past `deadline` (or the process's
    /// deadline) the build stops with `rpsdsl::time-budget`, and at the
    /// memory cap with `rpsdsl::memory-budget`.
    /// Its information sets keep what `memory` says.
    pub fn build_by(
        def: &Game,
        options: &[OptionValue],
        limits: Limits,
        payoff: Payoff,
        deadline: Option<Instant>,
        memory: Memory,
    ) -> Result<Tree, Box<Diagnostic>> {
        Tree::build_as(def, options, limits, payoff, false, deadline, memory)
    }

    /// Builds the tree and keeps a position of every information set, for
    /// players to be asked what they would do there; gives up as
    /// [`Tree::build_by`] does once `deadline` has passed.
    pub fn build_with_examples(
        def: &Game,
        options: &[OptionValue],
        limits: Limits,
        payoff: Payoff,
        deadline: Option<Instant>,
    ) -> Result<Tree, Box<Diagnostic>> {
        Tree::build_as(def, options, limits, payoff, true, deadline, Memory::All)
    }

    fn build_as(
        def: &Game,
        options: &[OptionValue],
        limits: Limits,
        payoff: Payoff,
        keep_examples: bool,
        deadline: Option<Instant>,
        memory: Memory,
    ) -> Result<Tree, Box<Diagnostic>> {
        refuse_races(def)?;
        let started = Instant::now();
        let seats = def.players();
        let mut b = Builder {
            def,
            limits,
            tree: Tree {
                nodes: vec![Node::Open],
                children: vec![],
                odds: vec![],
                payoffs: vec![],
                infosets: vec![],
                seats,
                cut_at: None,
                stopped: 0,
                zero_sum: true,
                payoff,
                actions: 0,
                examples: vec![],
                targets: vec![],
                target_index: HashMap::new(),
            },
            index: HashMap::new(),
            keep_examples,
            by_score: payoff == Payoff::Score && !def.score_terms.is_empty(),
            events: vec![],
            memory,
        };
        let root = State::new(def, options, Chance::scripted(vec![]), vec![]);
        let mut frontier = vec![];
        let seen = vec![Recall::default(); seats];
        b.step(
            0,
            &root,
            &seen,
            None,
            None,
            &|state, events| state.set_up(def, events),
            &mut frontier,
        )?;
        let mut depth = 0u32;
        // The tree's size when the clock and the memory were last read.
        let mut read_at = 0;
        while !frontier.is_empty() {
            if limits.depth.is_some_and(|most| depth >= most) {
                b.cut(&frontier, depth);
                break;
            }
            let mark = b.mark();
            let mut next = vec![];
            let mut over = false;
            for (i, open) in frontier.iter().enumerate() {
                // The clock and the memory are read now and then, not at
                // every position: after every 1,024 nodes made (a position
                // of a large board may have a hundred moves, each costly).
                if i == 0 || b.tree.nodes.len() >= read_at + 1024 {
                    read_at = b.tree.nodes.len();
                    if crate::budget::expired_by(deadline) {
                        return Err(Box::new(too_slow(b.tree.nodes.len(), started)));
                    }
                    // The memory cap cuts the tree where the node budget
                    // would: the level that does not fit is undone.
                    if crate::budget::over_memory() {
                        if depth == 0 {
                            return Err(Box::new(too_big(b.tree.nodes.len())));
                        }
                        over = true;
                        break;
                    }
                }
                b.expand(open, depth, &mut next)?;
                if b.tree.nodes.len() > limits.nodes {
                    over = true;
                    break;
                }
            }
            if over {
                if depth == 0 {
                    return Err(Box::new(too_large(limits.nodes)));
                }
                b.rewind(mark);
                b.cut(&frontier, depth);
                break;
            }
            frontier = next;
            depth += 1;
        }
        let mut tree = b.tree;
        for (i, node) in tree.nodes.iter().enumerate() {
            if let Node::Decision { infoset, .. } = *node {
                tree.infosets[infoset as usize].nodes.push(i as u32);
            }
        }
        let mut offset = 0;
        for set in &mut tree.infosets {
            set.offset = offset;
            offset += set.actions.len();
        }
        tree.actions = offset;
        Ok(tree)
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no node (never: it has a root).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Terminal positions.
    pub fn terminals(&self) -> usize {
        self.nodes.iter().filter(|n| matches!(n, Node::Terminal { .. })).count()
    }

    /// Positions that are a public position met again on the way down.
    pub fn repeats(&self) -> usize {
        self.nodes.iter().filter(|n| matches!(n, Node::Repeat { .. })).count()
    }

    /// Positions cut off at the depth the tree was built to.
    pub fn cuts(&self) -> usize {
        self.nodes.iter().filter(|n| matches!(n, Node::Cut)).count()
    }

    /// Information sets per seat.
    pub fn infosets_per_seat(&self) -> Vec<usize> {
        let mut per = vec![0; self.seats];
        for set in &self.infosets {
            per[set.seat as usize] += 1;
        }
        per
    }

    pub(super) fn children_of(&self, first: u32, len: u32) -> std::ops::Range<usize> {
        first as usize..(first + len) as usize
    }
}

/// Where the tree stood before a level, to go back to.
struct Mark {
    nodes: usize,
    children: usize,
    payoffs: usize,
    infosets: usize,
    targets: usize,
    stopped: u64,
}

impl Builder<'_> {
    fn mark(&self) -> Mark {
        Mark {
            nodes: self.tree.nodes.len(),
            children: self.tree.children.len(),
            payoffs: self.tree.payoffs.len(),
            infosets: self.tree.infosets.len(),
            targets: self.tree.targets.len(),
            stopped: self.tree.stopped,
        }
    }

    /// Undoes everything built since `mark`.
    fn rewind(&mut self, mark: Mark) {
        let t = &mut self.tree;
        t.nodes.truncate(mark.nodes);
        t.children.truncate(mark.children);
        t.odds.truncate(mark.children);
        t.payoffs.truncate(mark.payoffs);
        t.infosets.truncate(mark.infosets);
        t.examples.truncate(mark.infosets);
        t.stopped = mark.stopped;
        t.targets.truncate(mark.targets);
        t.target_index.retain(|_, &mut target| (target as usize) < mark.targets);
        self.index.retain(|_, &mut set| (set as usize) < mark.infosets);
    }

    /// Cuts the tree at `frontier`, the positions at decision point `depth`.
    fn cut(&mut self, frontier: &[Open], depth: u32) {
        for open in frontier {
            self.tree.nodes[open.node as usize] = Node::Cut;
        }
        self.tree.cut_at = Some(depth);
    }

    /// Reserves `len` new nodes, the children of one node, side by side.
    fn reserve(&mut self, len: usize) -> u32 {
        let first = self.tree.children.len() as u32;
        for _ in 0..len {
            let node = self.tree.nodes.len() as u32;
            self.tree.nodes.push(Node::Open);
            self.tree.children.push(node);
            self.tree.odds.push(1.0);
        }
        first
    }

    /// The decision `open` waits for: a decision node per answering seat.
    fn expand(&mut self, open: &Open, depth: u32, next: &mut Vec<Open>) -> Result<(), Box<Diagnostic>> {
        let pending = open.state.pending().expect("open positions wait for a decision");
        let decision = pending.decision();
        let who: Vec<Seat> = pending.who().to_vec();
        let mut sets = Vec::with_capacity(who.len());
        for &seat in &who {
            sets.push(self.infoset(open, seat, decision, depth)?);
        }
        let mut picked = vec![];
        self.decide(open, &who, &sets, 0, open.node, &mut picked, next)
    }

    /// Seat `who[at]` decides at `node`; `picked` holds the values the
    /// seats before it chose.
    #[allow(clippy::too_many_arguments)] // one recursion's state
    fn decide(
        &mut self,
        open: &Open,
        who: &[Seat],
        sets: &[(u32, Vec<i64>)],
        at: usize,
        node: u32,
        picked: &mut Vec<Choice>,
        next: &mut Vec<Open>,
    ) -> Result<(), Box<Diagnostic>> {
        let Some(&seat) = who.get(at) else {
            return self.answer(open, node, picked, next);
        };
        let (set, values) = &sets[at];
        let first = self.reserve(values.len());
        self.tree.nodes[node as usize] = Node::Decision {
            seat,
            infoset: *set,
            first,
            len: values.len() as u32,
        };
        for (a, &value) in values.iter().enumerate() {
            let child = self.tree.children[first as usize + a];
            picked.push(Choice::new(seat, value));
            self.decide(open, who, sets, at + 1, child, picked, next)?;
            picked.pop();
        }
        Ok(())
    }

    /// Every seat has picked: the step, with its chance outcomes, from `node`.
    fn answer(
        &mut self,
        open: &Open,
        node: u32,
        picked: &[Choice],
        next: &mut Vec<Open>,
    ) -> Result<(), Box<Diagnostic>> {
        let def = self.def;
        let seats = self.tree.seats as Seat;
        let steps: Vec<Option<StepKey>> = (0..seats)
            .map(|seat| Observation::new(def, &open.state, seat).step_key(picked))
            .collect();
        let told = told_after(def, &open.state, picked, open.told.clone());
        let seen: Vec<Recall> = open
            .seen
            .iter()
            .zip(&steps)
            .map(|(r, &step)| r.after_step(step, self.memory))
            .collect();
        let choices = picked.to_vec();
        self.step(
            node,
            &open.state,
            &seen,
            told,
            open.path.clone(),
            &|state, events| {
                state.apply(def, &choices, events).map_err(|e| match e {
                    EngineError::Runtime(d) => d,
                    EngineError::Illegal(illegal) => {
                        Box::new(Diagnostic::error(Code::IllegalAction, illegal.to_string()))
                    }
                })
            },
            next,
        )
    }

    /// Runs `step` from `from` into `node`: a chance node when it meets a
    /// draw, and each position reached placed below it.
    #[allow(clippy::too_many_arguments)] // a step and where it goes
    fn step(
        &mut self,
        node: u32,
        from: &State,
        seen: &[Recall],
        told: Option<Rc<Told>>,
        path: Option<Rc<Visit>>,
        step: &crate::exact::Step<'_>,
        next: &mut Vec<Open>,
    ) -> Result<(), Box<Diagnostic>> {
        let mut reached: Vec<(State, f64, Result<(), RuntimeError>)> = vec![];
        let mut events = std::mem::take(&mut self.events);
        // A draw with more outcomes than the whole budget is refused before
        // it is walked; a smaller one that only overfills the budget is the
        // level loop's to cut.
        let room = self.limits.nodes as u64;
        let walked = each_outcome(
            &mut reached,
            from,
            &mut events,
            step,
            |reached, count| {
                if count.saturating_mul(reached.len().max(1) as u64) > room {
                    return Err(Box::new(too_large_a_draw(count, self.limits.nodes)));
                }
                Ok(())
            },
            |reached, state, chance, result, _| {
                reached.push((state, chance, result));
                if reached.len() as u64 > room {
                    return Err(Box::new(too_large_a_draw(reached.len() as u64, self.limits.nodes)));
                }
                Ok(())
            },
        );
        self.events = events;
        walked?;
        let targets: Vec<u32> = if reached.len() == 1 {
            vec![node]
        } else {
            let first = self.reserve(reached.len());
            self.tree.nodes[node as usize] = Node::Chance {
                first,
                len: reached.len() as u32,
            };
            for (i, (_, chance, _)) in reached.iter().enumerate() {
                self.tree.odds[first as usize + i] = *chance;
            }
            (0..reached.len())
                .map(|i| self.tree.children[first as usize + i])
                .collect()
        };
        for ((state, _, result), target) in reached.into_iter().zip(targets) {
            self.place(target, state, result, seen, told.clone(), path.clone(), next);
        }
        Ok(())
    }

    /// A position reached: over, a public position met again on the way
    /// here, or open to expand at the next level.
    #[allow(clippy::too_many_arguments)] // a position and how it was reached
    fn place(
        &mut self,
        node: u32,
        state: State,
        result: Result<(), RuntimeError>,
        seen: &[Recall],
        told: Option<Rc<Told>>,
        path: Option<Rc<Visit>>,
        next: &mut Vec<Open>,
    ) {
        if result.is_err() || state.pending().is_none() {
            let at = self.tree.payoffs.len() as u32;
            let payoffs = if result.is_err() {
                self.tree.stopped += 1;
                vec![0.0; self.tree.seats]
            } else {
                payoffs(self.def, &state, self.by_score)
            };
            if payoffs.iter().sum::<f64>().abs() > 1e-9 {
                self.tree.zero_sum = false;
            }
            self.tree.payoffs.extend(payoffs);
            self.tree.nodes[node as usize] = Node::Terminal { at };
            return;
        }
        let def = self.def;
        let position = state.public_position(def);
        let path = match position {
            Some(position) => {
                if let Some(first) = Visit::find(path.as_deref(), position) {
                    let targets = &mut self.tree.targets;
                    let target = *self.tree.target_index.entry(first).or_insert_with(|| {
                        targets.push(first);
                        targets.len() as u32 - 1
                    });
                    self.tree.nodes[node as usize] = Node::Repeat { target };
                    return;
                }
                Some(Rc::new(Visit {
                    position,
                    node,
                    before: path,
                }))
            }
            None => path,
        };
        let seen = seen
            .iter()
            .enumerate()
            .map(|(seat, r)| state.recall_here(def, seat as Seat, *r, self.memory))
            .collect();
        next.push(Open {
            node,
            state,
            seen,
            told,
            path,
        });
    }

    /// `seat`'s information set at `open`, made on first meeting, and its
    /// legal values in the set's order of actions.
    fn infoset(
        &mut self,
        open: &Open,
        seat: Seat,
        decision: DecisionId,
        depth: u32,
    ) -> Result<(u32, Vec<i64>), Box<Diagnostic>> {
        let def = self.def;
        let observation = Observation::new(def, &open.state, seat);
        let legal = open.state.pending().expect("waiting").legal(seat);
        let keys: Vec<u64> = (0..legal.len()).map(|i| observation.key(i)).collect();
        let key = open.seen[seat as usize].situation(decision, seat, &keys, self.memory);
        if let Some(&set) = self.index.get(&key) {
            let known = &self.tree.infosets[set as usize].keys;
            if *known == keys {
                return Ok((set, legal.to_vec()));
            }
            return match align(known, &keys, legal) {
                Some(values) => Ok((set, values)),
                None => Err(Box::new(offered_differently(def, seat, decision))),
            };
        }
        let set = self.tree.infosets.len() as u32;
        self.index.insert(key, set);
        if self.keep_examples {
            self.tree.examples.push(open.state.clone());
        }
        self.tree.infosets.push(InfoSet {
            seat,
            decision,
            actions: (0..legal.len()).map(|i| observation.label(i)).collect(),
            situation: situation(def, &open.state, seat, open.told.as_deref()),
            depth,
            recall: open.seen[seat as usize],
            key,
            keys,
            nodes: vec![],
            offset: 0,
        });
        Ok((set, legal.to_vec()))
    }
}

/// Whether `state` is a public position already in `met` (the public
/// positions of one path of play so far); one that is not is added. A
/// probe's path ends there, as the tree's does.
pub(super) fn met_again(state: &State, def: &Game, met: &mut Vec<u64>) -> bool {
    let Some(position) = state.public_position(def) else {
        return false;
    };
    if met.contains(&position) {
        return true;
    }
    met.push(position);
    false
}

/// A game with a race has no tree: who answers first depends on reaction
/// times, drawn from a continuous distribution.
pub(super) fn refuse_races(def: &Game) -> Result<(), Box<Diagnostic>> {
    match def.decisions.iter().find(|d| d.race) {
        None => Ok(()),
        Some(race) => Err(Box::new(
            Diagnostic::error(Code::NotEnumerable, "a game with a race cannot be solved")
                .label(race.span, "each answer here comes with a reaction time")
                .help(
                    "who answers first depends on reaction times drawn from a continuous distribution, so \
                     the game has no finite tree; `rpsdsl solve` samples it (`--method auto` or `mccfr`), and \
                     `rpsdsl analyze` measures it by play",
                ),
        )),
    }
}

/// What the seats saw after `picked` was answered at `state`, after `before`.
pub(super) fn told_after(def: &Game, state: &State, picked: &[Choice], before: Option<Rc<Told>>) -> Option<Rc<Told>> {
    let pending = state.pending()?;
    let secret = def.decisions[pending.decision() as usize].secret;
    let answers = picked
        .iter()
        .map(|c| {
            let i = pending.legal(c.seat).iter().position(|&v| v == c.value).unwrap_or(0);
            (c.seat, Observation::new(def, state, c.seat).label(i), secret)
        })
        .collect();
    Some(Rc::new(Told { before, answers }))
}

/// What each seat gets at the end of `state`: its points when `by_score`
/// and the game was scored, else a win's share.
pub(super) fn payoffs(def: &Game, state: &State, by_score: bool) -> Vec<f64> {
    let seats = def.players();
    if by_score && !state.scores().is_empty() {
        return state.scores().iter().map(|terms| def.points(terms) as f64).collect();
    }
    match state.outcome().and_then(|o| o.winner) {
        Some(winner) => (0..seats)
            .map(|seat| {
                if seat == winner as usize {
                    1.0
                } else {
                    -1.0 / (seats - 1).max(1) as f64
                }
            })
            .collect(),
        None => vec![0.0; seats],
    }
}

/// The steps a situation's words name at most, the latest ones.
const SHOWN_STEPS: usize = 6;

/// What `seat` knows at `state`, in the game's words: the pieces it knows,
/// zone by zone (a zone of more than six is left out: a full hand or board
/// says too much to read), and what it saw happen, oldest first.
pub(super) fn situation(def: &Game, state: &State, seat: Seat, told: Option<&Told>) -> String {
    let mut parts = vec![];
    for zone in def.zone_ids() {
        let known: Vec<String> = state
            .zone(zone)
            .filter(|&piece| state.knows(seat, piece))
            .map(|piece| def.piece_label(state.face_of(piece)))
            .collect();
        if !known.is_empty() && known.len() <= 6 {
            parts.push(format!("{}: {}", def.zone_name(zone), known.join(", ")));
        }
    }
    // Many pasts lead to a public position, and none matters there: its
    // variables say where the seat is.
    if told.is_some() && state.public_position(def).is_some() {
        parts.push(variables(def, state));
        return parts.join("; ");
    }
    let mut steps = vec![];
    let mut at = told;
    while let Some(t) = at {
        let said: Vec<String> = t
            .answers
            .iter()
            .map(|(who, label, secret)| {
                let label = if *secret && *who != seat { "?" } else { label.as_str() };
                format!("{} {label}", def.seats[*who as usize])
            })
            .collect();
        steps.push(said.join(" & "));
        at = t.before.as_deref();
    }
    steps.reverse();
    // A long game's history would make every deep situation kilobytes
    // long (a sampled solve keeps hundreds of thousands): its last steps
    // say where the seat is, and the count says how long it has been.
    if steps.len() > SHOWN_STEPS {
        let earlier = steps.len() - SHOWN_STEPS;
        parts.push(format!(
            "after {earlier} earlier steps, then {}",
            steps[earlier..].join(", ")
        ));
    } else if !steps.is_empty() {
        parts.push(format!("after {}", steps.join(", ")));
    }
    if parts.is_empty() {
        "at the start".to_string()
    } else {
        parts.join("; ")
    }
}

/// The game's variables at `state`, in words: "wins of Left 1, wins of
/// Right 0" (constants left out).
fn variables(def: &Game, state: &State) -> String {
    let values = state.public_view(def).vars;
    let mut said = vec![];
    for var in def.vars.iter().filter(|v| !v.constant) {
        for (whose, value) in def.var_entries(var, &values, 8, |kind, v| def.show_value(kind, v)) {
            match (whose.is_empty(), value.is_empty()) {
                (true, _) => said.push(format!("{} {value}", var.name)),
                (false, false) => said.push(format!("{} of {whose} {value}", var.name)),
                (false, true) => said.push(format!("and {whose}")),
            }
        }
    }
    if said.is_empty() {
        "a position met before".to_string()
    } else {
        said.join(", ")
    }
}

/// The legal values in the order of a set's action keys `known`, when the
/// position offers the same moves (`keys`, for `legal`) in any order.
pub(super) fn align(known: &[u64], keys: &[u64], legal: &[i64]) -> Option<Vec<i64>> {
    if keys.len() != known.len() {
        return None;
    }
    known
        .iter()
        .map(|k| keys.iter().position(|x| x == k).map(|i| legal[i]))
        .collect()
}

/// A seat offered different moves in positions it cannot tell apart.
pub(super) fn offered_differently(def: &Game, seat: Seat, decision: DecisionId) -> Diagnostic {
    Diagnostic::error(
        Code::NotEnumerable,
        format!(
            "{} is offered different choices in positions it cannot tell apart",
            def.seats[seat as usize]
        ),
    )
    .label(def.decisions[decision as usize].span, "this decision")
    .help(
        "a seat's choices here depend on something it cannot see, so no strategy can name them; solving \
         needs choices that follow from what the seat knows",
    )
}

fn too_slow(nodes: usize, started: Instant) -> Diagnostic {
    Diagnostic::error(
        Code::TimeBudget,
        format!(
            "the time ran out while the game's tree was still growing ({:.1} s, {nodes} nodes)",
            started.elapsed().as_secs_f64()
        ),
    )
    .help("give `--time` more seconds, sample instead (`--method mccfr`), or make the game smaller with `--set`")
}

fn too_big(nodes: usize) -> Diagnostic {
    Diagnostic::error(
        Code::MemoryBudget,
        format!(
            "the game's tree reached the memory cap of {} at {nodes} nodes",
            crate::budget::show_bytes(crate::budget::memory_cap())
        ),
    )
    .help("sample instead (`--method mccfr`), give more memory with `--memory`, or make the game smaller with `--set`")
}

fn too_large(nodes: usize) -> Diagnostic {
    Diagnostic::error(
        Code::SolveBudget,
        format!("the game's first decision alone takes more than {nodes} nodes"),
    )
    .help("raise the budget with `--budget N`, or make the game smaller with `--set`")
}

fn too_large_a_draw(outcomes: u64, nodes: usize) -> Diagnostic {
    let outcomes = crate::exact::outcomes_text(outcomes);
    Diagnostic::error(
        Code::SolveBudget,
        format!("a draw of the game has {outcomes} distinct outcomes, more than the tree's budget of {nodes} nodes"),
    )
    .help("a shuffle of many different cards has too many orders to solve whole; make the game smaller with `--set`, or raise the budget with `--budget N`")
}
