//! The human-like thrower: simultaneous throws over a `beats` cycle follow
//! how people actually throw in a three-way hand game; everything else is
//! left to another agent.
//!
//! The model (../shared/RULINGS.md, from Wang, Xu & Zhou 2014, Sci. Rep.
//! 4:5830): a first throw with its own distribution; after each duel, stay
//! with the same throw, move "up" to the throw that beats it, or "down" to
//! the throw it beats, with probabilities that depend on whether the last
//! duel was won, tied or lost; after two ties in a row with the same throw,
//! a lower chance to stay. When the last result is unknown (the opponent's
//! throw was hidden), the marginal shares are used.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::agent::{Agent, ForGame, SEED_PARAM, seat_rng};
use super::error::AgentError;
use super::spec::{AgentInfo, AgentSpec, Domain, ParamInfo, Params, parse_agent};
use crate::diagnostic::Code;
use crate::engine::Game;
use crate::engine::{Choice, Observation, Recall, Seen};
use crate::ir::{ChoiceKind, ChoiceValue, DecisionId, GameDef, KindId, Seat, id_from_value};

pub(super) const INFO: AgentInfo = AgentInfo {
    name: "human-like",
    about: "throws in simultaneous duels over a beats cycle like people do (RULINGS' model); \
            every other decision goes to its fallback agent; refused in a game with no such throw",
    params: &[
        ParamInfo {
            name: "share",
            default: ".357/.322/.321",
            about: "marginal shares of the three roles (the first kind offered / the kind that beats it / the kind it beats), used when the last result is unknown",
            domain: Domain::Shares,
        },
        ParamInfo {
            name: "first",
            default: ".58/.26/.15",
            about: "the game's first throw, over the three roles",
            domain: Domain::Shares,
        },
        ParamInfo {
            name: "win",
            default: ".527/.226/.248",
            about: "after a win: stay/up/down (up: the throw that beats the last one)",
            domain: Domain::Shares,
        },
        ParamInfo {
            name: "tie",
            default: ".433/.335/.233",
            about: "after a tie: stay/up/down",
            domain: Domain::Shares,
        },
        ParamInfo {
            name: "loss",
            default: ".360/.275/.365",
            about: "after a loss: stay/up/down",
            domain: Domain::Shares,
        },
        ParamInfo {
            name: "tie2_stay",
            default: ".46",
            about: "after two ties in a row with the same throw: the chance to stay (up/down keep the tie row's ratio)",
            domain: Domain::Number(0.0, 1.0),
        },
        ParamInfo {
            name: "fallback",
            default: "random",
            about: "the agent for every other decision, e.g. greedy or mcts(iterations=200)",
            domain: Domain::Agent,
        },
        SEED_PARAM,
    ],
};

/// The behavioural model's numbers, over three roles: in a throw set, the
/// first kind offered, the kind that beats it, and the kind it beats (the
/// study's three throws, in the order it reports them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThrowModel {
    /// Marginal shares of the three roles, used when the last result is unknown.
    pub share: [f64; 3],
    /// The game's first throw, over the three roles.
    pub first: [f64; 3],
    /// Stay / up / down after a win, a tie and a loss.
    pub after_win: [f64; 3],
    /// Stay / up / down after a tie.
    pub after_tie: [f64; 3],
    /// Stay / up / down after a loss.
    pub after_loss: [f64; 3],
    /// After two ties in a row with the same throw: the chance to stay (up and down keep the ratio of `after_tie`).
    pub two_ties_stay: f64,
}

impl Default for ThrowModel {
    fn default() -> Self {
        ThrowModel {
            share: [0.357, 0.322, 0.321],
            first: [0.58, 0.26, 0.15],
            after_win: [0.527, 0.226, 0.248],
            after_tie: [0.433, 0.335, 0.233],
            after_loss: [0.360, 0.275, 0.365],
            two_ties_stay: 0.46,
        }
    }
}

/// How the thrower's last duel went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelResult {
    /// Its throw beat the other's.
    Win,
    /// Both threw the same kind (or neither beat the other).
    Tie,
    /// The other's throw beat it.
    Loss,
}

impl ThrowModel {
    /// Stay / up / down after `result`, `ties` being how many ties in a row
    /// (the last included) the player threw the same.
    pub fn moves(&self, result: DuelResult, ties: u32) -> [f64; 3] {
        match result {
            DuelResult::Win => self.after_win,
            DuelResult::Loss => self.after_loss,
            DuelResult::Tie if ties >= 2 => {
                let [_, up, down] = self.after_tie;
                let rest = 1.0 - self.two_ties_stay;
                let moved = (up + down).max(f64::EPSILON);
                [self.two_ties_stay, rest * up / moved, rest * down / moved]
            }
            DuelResult::Tie => self.after_tie,
        }
    }
}

/// What the thrower remembers of the duels so far.
#[derive(Clone, Debug, Default)]
struct Memory {
    thrown: bool,
    /// The last throw and its result, when both throws were seen.
    last: Option<(KindId, DuelResult)>,
    /// Ties in a row with the same throw, the last included.
    ties_same: u32,
    /// Decisions found to be throws, and the answers seen for the current one.
    throws: Vec<DecisionId>,
    seen: Vec<Option<KindId>>,
}

/// The human-like agent (`human-like`): throws in simultaneous duels by [`ThrowModel`], leaves every other decision to its fallback agent.
pub struct HumanLike {
    seat: Seat,
    /// The numbers it throws by; [`HumanLike::new`] starts with the study's.
    pub model: ThrowModel,
    rng: ChaCha8Rng,
    fallback: Box<dyn Agent>,
    spec: AgentSpec,
    memory: Memory,
}

/// The three kinds of a duel's throw set in the model's roles (the first
/// kind offered, the kind that beats it, the kind it beats),
/// if the decision is a simultaneous throw between two players over a
/// `beats` cycle of three kinds.
pub fn throw_roles(def: &GameDef, obs: &Observation<'_>) -> Option<[KindId; 3]> {
    let decision = &def.decisions[obs.decision() as usize];
    if def.players() != 2 || obs.who().len() != 2 || decision.kind != ChoiceKind::Kind || decision.race {
        return None;
    }
    // `anytime` actions offered beside the throw are not throws.
    let kinds: Vec<KindId> = (0..obs.legal_len())
        .filter(|&i| !obs.is_anytime(i))
        .map(|i| obs.kind(i))
        .collect::<Option<_>>()?;
    if kinds.len() != 3 {
        return None;
    }
    let lead = kinds[0];
    let beaten_by = |k: KindId| kinds.iter().copied().filter(|&o| def.beats(o, k)).collect::<Vec<_>>();
    let beats = |k: KindId| kinds.iter().copied().filter(|&o| def.beats(k, o)).collect::<Vec<_>>();
    for &k in &kinds {
        if beaten_by(k).len() != 1 || beats(k).len() != 1 {
            return None;
        }
    }
    let beats_lead = beaten_by(lead)[0];
    let beaten_by_lead = beats(lead)[0];
    Some([lead, beats_lead, beaten_by_lead])
}

/// Whether a game has a throw [`throw_roles`] accepts: two players, a
/// decision over kinds that every player answers at once (`each player
/// chooses`) and that is not a race, and a set of three kinds that beat each
/// other in a cycle. A game without one (turns taken one at a time, five
/// kinds, a race, cards instead of kinds) never lets `human-like` throw by
/// its model.
pub(crate) fn can_throw(def: &GameDef) -> bool {
    let cycle = |set: &[KindId]| {
        set.len() == 3
            && set.iter().all(|&k| {
                set.iter().filter(|&&o| def.beats(k, o)).count() == 1
                    && set.iter().filter(|&&o| def.beats(o, k)).count() == 1
            })
    };
    // A `use`d library's throw the game never asks is no throw of this game.
    let asked_of_each = crate::ir::reach::reach(def).asked_of_each;
    let throws_at_once = def
        .decisions
        .iter()
        .zip(asked_of_each)
        .any(|(decision, each)| each && decision.kind == ChoiceKind::Kind && !decision.race);
    def.players() == 2 && throws_at_once && def.kind_sets.iter().any(|s| cycle(&s.members))
}

/// The computer opponent `play` and the studio seat when none is named: a
/// person's throws where the game has them, a short search for everything
/// else, quick enough not to keep anyone waiting.
pub fn default_opponent(def: &GameDef) -> &'static str {
    if can_throw(def) {
        "human-like:fallback=mcts(iterations=300)"
    } else {
        "mcts:iterations=300"
    }
}

/// Why `human-like` is refused in `def`: a game where it could never throw
/// by its model would play exactly as its fallback, so a report naming it
/// would name a player that is not there.
fn refusal(def: &GameDef, fallback: &str) -> Option<AgentError> {
    (!can_throw(def)).then(|| {
        AgentError::new(
            Code::AgentRefused,
            "`human-like` adds nothing in this game: it throws by its model only when two players \
             throw at once (`each player chooses`) among three kinds that beat each other in a \
             cycle, and this game has no such throw, so it would play exactly as its fallback",
            "human-like",
        )
        .help(format!("use `{fallback}` itself"))
    })
}

impl HumanLike {
    /// The thrower for `seat`, its randomness from `seed`, with the study's numbers and `fallback` for every other decision.
    pub fn new(seat: Seat, seed: u64, fallback: Box<dyn Agent>) -> Self {
        HumanLike {
            seat,
            model: ThrowModel::default(),
            rng: seat_rng(seed ^ 0x4855_4D41_4E4C_494B, seat),
            fallback,
            spec: AgentSpec {
                name: "human-like".into(),
                params: vec![],
            },
            memory: Memory::default(),
        }
    }

    /// A human-like thrower from its parameters; `build_fallback` builds the
    /// agent it hands decisions other than a throw to (given by the agents'
    /// registry, which builds this one too).
    pub(super) fn from_params(
        p: &Params<'_>,
        game: ForGame<'_>,
        seat: Seat,
        seed: u64,
        build_fallback: impl FnOnce(&AgentSpec) -> Result<Box<dyn Agent>, AgentError>,
    ) -> Result<Self, AgentError> {
        let fallback_text = p.raw("fallback").unwrap_or("random");
        if let Some(why) = game.and_then(|(def, _)| refusal(def, fallback_text)) {
            return Err(why);
        }
        let fallback_spec = parse_agent(fallback_text)?;
        let fallback = build_fallback(&fallback_spec)?;
        let mut h = HumanLike::new(seat, seed, fallback);
        let m = &mut h.model;
        m.share = p.triple("share")?.unwrap_or(m.share);
        m.first = p.triple("first")?.unwrap_or(m.first);
        m.after_win = p.triple("win")?.unwrap_or(m.after_win);
        m.after_tie = p.triple("tie")?.unwrap_or(m.after_tie);
        m.after_loss = p.triple("loss")?.unwrap_or(m.after_loss);
        m.two_ties_stay = p.f64("tie2_stay")?.unwrap_or(m.two_ties_stay);
        h.spec.params = ["share", "first", "win", "tie", "loss", "tie2_stay", "fallback"]
            .iter()
            .filter_map(|k| p.raw(k).map(|v| (k.to_string(), v.to_string())))
            .collect();
        Ok(h)
    }

    /// The probabilities of the next throw over the three roles.
    pub(crate) fn next_throw(&self, roles: [KindId; 3]) -> [f64; 3] {
        let m = &self.memory;
        if !m.thrown {
            return self.model.first;
        }
        let Some((last, result)) = m.last else {
            return self.model.share;
        };
        let Some(at) = roles.iter().position(|&k| k == last) else {
            return self.model.share;
        };
        // Up: the role that beats the last throw (each role is beaten by the next, cyclically).
        let [stay, up, down] = self.model.moves(result, m.ties_same);
        let mut p = [0.0; 3];
        p[at] = stay;
        p[(at + 1) % 3] = up;
        p[(at + 2) % 3] = down;
        p
    }
}

fn pick(rng: &mut ChaCha8Rng, p: [f64; 3]) -> usize {
    let total: f64 = p.iter().sum();
    let mut x = rng.random_range(0.0..total.max(f64::MIN_POSITIVE));
    for (i, w) in p.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    2
}

impl Agent for HumanLike {
    fn name(&self) -> String {
        self.spec.to_text()
    }

    fn choose(&mut self, def: &Game, obs: &Observation<'_>) -> usize {
        let Some(roles) = throw_roles(def, obs) else {
            return self.fallback.choose(def, obs);
        };
        let decision = obs.decision();
        if !self.memory.throws.contains(&decision) {
            self.memory.throws.push(decision);
        }
        let p = self.next_throw(roles);
        let role = pick(&mut self.rng, p);
        self.memory.thrown = true;
        let kind = roles[role];
        (0..obs.legal_len())
            .position(|i| obs.kind(i) == Some(kind))
            .unwrap_or(0)
    }

    fn reaction_ms(&mut self, def: &GameDef, obs: &Observation<'_>, index: usize) -> u32 {
        self.fallback.reaction_ms(def, obs, index)
    }

    fn before_step(&mut self, def: &Game, obs: &Observation<'_>, choices: &[Choice]) {
        self.fallback.before_step(def, obs, choices);
    }

    fn recall_here(&mut self, recall: Recall) {
        self.fallback.recall_here(recall);
    }

    fn observe(&mut self, def: &GameDef, seen: &Seen<'_>) {
        self.fallback.observe(def, seen);
        let players = def.players();
        for event in seen.decisions() {
            if !self.memory.throws.contains(&event.decision) {
                continue;
            }
            let seat = &event.seat;
            let value = match event.value {
                // An `anytime` action taken instead: the throw comes later.
                Some(v) if ChoiceValue::from_raw(v).is_anytime() => continue,
                Some(v) => Some(id_from_value(v)),
                None => None,
            };
            let m = &mut self.memory;
            if m.seen.len() != players {
                m.seen = vec![None; players];
            }
            m.seen[*seat as usize] = value;
            if *seat as usize + 1 < players {
                continue;
            }
            // Every seat has answered: the duel's result, as far as it was seen.
            let me = self.seat as usize;
            let mine = m.seen[me];
            let theirs = m.seen[1 - me];
            m.seen = vec![None; players];
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                m.last = None;
                m.ties_same = 0;
                continue;
            };
            let result = if def.beats(mine, theirs) {
                DuelResult::Win
            } else if def.beats(theirs, mine) {
                DuelResult::Loss
            } else {
                DuelResult::Tie
            };
            m.ties_same = match (result, m.last) {
                (DuelResult::Tie, Some((prev, DuelResult::Tie))) if prev == mine => m.ties_same + 1,
                (DuelResult::Tie, _) => 1,
                _ => 0,
            };
            m.last = Some((mine, result));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::RandomAgent;

    fn agent() -> HumanLike {
        HumanLike::new(0, 1, Box::new(RandomAgent::new(1, 0)))
    }

    #[test]
    fn the_next_throw_follows_memory() {
        let roles = [0, 1, 2];
        let mut h = agent();
        assert_eq!(h.next_throw(roles), h.model.first);
        // Thrown before, but the last result was not seen: the marginals.
        h.memory.thrown = true;
        assert_eq!(h.next_throw(roles), h.model.share);
        // After losing with role 1: stay on 1, up to 2, down to 0.
        h.memory.last = Some((1, DuelResult::Loss));
        let [stay, up, down] = h.model.after_loss;
        assert_eq!(h.next_throw(roles), [down, stay, up]);
        // Two ties in a row with role 0: stay .46.
        h.memory.last = Some((0, DuelResult::Tie));
        h.memory.ties_same = 2;
        let p = h.next_throw(roles);
        assert!((p[0] - 0.46).abs() < 1e-12);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((p[1] / p[2] - 0.335 / 0.233).abs() < 1e-9);
    }
}
