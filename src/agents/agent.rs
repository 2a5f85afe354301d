//! What every player is: the [`Agent`] trait, a seat's own random stream,
//! reaction times in a race, and the parameters every agent shares.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::error::AgentError;
use super::spec::{Domain, ParamInfo, Params};
use crate::engine::{Choice, Game, Observation, Recall, Seen, World};
use crate::ir::{GameDef, OptionValue, Seat};

/// A player.
pub trait Agent: Send {
    /// The spec that builds this agent again, e.g. `mcts:iterations=500`.
    fn name(&self) -> String;

    /// Picks one of the seat's `obs.legal_len()` choices, by index. Called
    /// only when the seat must decide, so there is at least one choice.
    fn choose(&mut self, def: &Game, obs: &Observation<'_>) -> usize;

    /// Restricted play (Jaffe et al. 2012): picks as [`Agent::choose`]
    /// would, but only among the choices `allowed` marks (at least one is),
    /// so a study can measure what a choice is worth by forbidding it.
    /// `None`: this player cannot be restricted.
    fn choose_allowed(&mut self, _def: &Game, _obs: &Observation<'_>, _allowed: &[bool]) -> Option<usize> {
        None
    }

    /// The probability with which this player picks each of the seat's
    /// choices here, when it knows it exactly (`None`: it does not say, and
    /// whoever needs it samples [`Agent::choose`]). `recall` is everything
    /// the seat has seen up to here, its view here included: the player is
    /// asked out of the order of play, so it cannot have followed the game.
    /// `rpsdsl exploit` uses it.
    fn policy(&mut self, _def: &Game, _obs: &Observation<'_>, _recall: Recall) -> Option<Vec<f64>> {
        None
    }

    /// What the seat recalls at the decision it is about to be asked, its
    /// view there included, told to a player asked out of the order of
    /// play (`rpsdsl exploit` asks every situation of a tree): a player that
    /// keys situations by what its seat recalls (a search led by a trained
    /// strategy) cannot have followed the game there.
    fn recall_here(&mut self, _recall: Recall) {}

    /// Rates `world` for every seat (the share of the points each can
    /// expect), into `out`, when this player has an evaluation of
    /// positions (`learned`); `false` otherwise. A search reads it where
    /// it would play a game out (`mcts:value=...`).
    fn rate(&mut self, _def: &Game, _world: &World, _out: &mut Vec<f64>) -> bool {
        false
    }

    /// What this player's strategy concedes to a best response, when known
    /// (a solved strategy whose exploitability the solver measured).
    fn exploitability(&self) -> Option<f64> {
        None
    }

    /// In a race, how long this player takes to give choice `index`, in
    /// milliseconds.
    fn reaction_ms(&mut self, _def: &GameDef, _obs: &Observation<'_>, _index: usize) -> u32 {
        Reaction::default().mean()
    }

    /// What this seat saw happen in the last step: the decisions it may see
    /// (others' secret answers hidden).
    fn observe(&mut self, _def: &GameDef, _seen: &Seen<'_>) {}

    /// The step about to be taken: every answering seat's choice at the
    /// pending decision of `obs`, this seat's observation of the game before
    /// the step (the seat need not be answering). Told before the step is
    /// applied, at every step, by every command that plays agents; a search
    /// that keeps its tree follows the game down it (see
    /// [`StepKey`](crate::engine::StepKey)).
    fn before_step(&mut self, _def: &Game, _obs: &Observation<'_>, _choices: &[Choice]) {}
}

/// How long a player takes to answer in a race.
///
/// A shifted exponential: a floor (no one reacts faster) plus an
/// exponentially distributed delay with the given mean, capped at ten times
/// the mean. Defaults: 250 ms + Exp(mean 250 ms), so a mean of 500 ms and a
/// median of about 423 ms, the range of simple visual choice-reaction times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reaction {
    pub floor_ms: u32,
    pub mean_extra_ms: u32,
}

impl Default for Reaction {
    fn default() -> Self {
        Reaction {
            floor_ms: 250,
            mean_extra_ms: 250,
        }
    }
}

impl Reaction {
    pub(crate) fn sample(&self, rng: &mut ChaCha8Rng) -> u32 {
        let mean = self.mean_extra_ms as f64;
        let u: f64 = rng.random_range(f64::EPSILON..1.0);
        let extra = (-u.ln() * mean).min(10.0 * mean);
        self.floor_ms + extra.round() as u32
    }

    pub(crate) fn mean(&self) -> u32 {
        self.floor_ms + self.mean_extra_ms
    }

    pub(super) fn from_params(p: &Params<'_>) -> Result<Self, AgentError> {
        let d = Reaction::default();
        Ok(Reaction {
            floor_ms: p.u64("reaction_floor")?.map_or(d.floor_ms, |v| v as u32),
            mean_extra_ms: p.u64("reaction_mean")?.map_or(d.mean_extra_ms, |v| v as u32),
        })
    }

    pub(super) fn describe(&self) -> Vec<(String, String)> {
        let d = Reaction::default();
        let mut out = vec![];
        if self.floor_ms != d.floor_ms {
            out.push(("reaction_floor".into(), self.floor_ms.to_string()));
        }
        if self.mean_extra_ms != d.mean_extra_ms {
            out.push(("reaction_mean".into(), self.mean_extra_ms.to_string()));
        }
        out
    }
}

pub(super) const REACTION_PARAMS: [ParamInfo; 2] = [
    ParamInfo {
        name: "reaction_floor",
        default: "250",
        about: "in a race: the fastest possible answer, in ms",
        domain: Domain::Whole(0, 60_000),
    },
    ParamInfo {
        name: "reaction_mean",
        default: "250",
        about: "in a race: the mean of the exponential delay added to the floor, in ms",
        domain: Domain::Whole(0, 60_000),
    },
];

pub(crate) const SEED_PARAM: ParamInfo = ParamInfo {
    name: "seed",
    default: "the game's seed",
    about: "the agent's own random stream (mixed with its seat)",
    domain: Domain::Whole(0, u64::MAX),
};

/// An index drawn with the probabilities `p` (which sum to 1): one draw of
/// `rng`, whatever `p` holds.
pub fn draw(p: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let mut u: f64 = rng.random::<f64>();
    for (i, &q) in p.iter().enumerate() {
        if u < q {
            return i;
        }
        u -= q;
    }
    // Rounding left a sliver past the last: the last choice with any weight.
    p.iter().rposition(|&q| q > 0.0).unwrap_or(0)
}

/// A seat's random stream, from a seed: seats never share one, and agents
/// never disturb the game's chance outcomes.
pub(crate) fn seat_rng(seed: u64, seat: Seat) -> ChaCha8Rng {
    let stream = seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(seat as u64 + 1);
    ChaCha8Rng::seed_from_u64(stream)
}

/// The game an agent is built for, and its option values: a saved
/// strategy (`policy`) plays one game only.
pub type ForGame<'a> = Option<(&'a Game, &'a [OptionValue])>;
