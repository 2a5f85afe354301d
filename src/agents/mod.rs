//! Players: anything that picks one of the legal choices from its own view.
//!
//! An agent receives a [`View`], never the state, so it cannot see what its
//! seat may not know.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::engine::View;
use crate::ir::{DecisionId, GameDef, Seat};

/// A player. `choose` returns an index into `legal`.
pub trait Agent {
    fn name(&self) -> String;
    fn choose(&mut self, def: &GameDef, view: &View, decision: DecisionId, legal: &[i64]) -> usize;

    /// In a race, how long this player takes to give `value`, in milliseconds.
    fn reaction_ms(&mut self, _def: &GameDef, _view: &View, _decision: DecisionId, _value: i64) -> u32 {
        RandomAgent::DEFAULT_REACTION_FLOOR_MS + RandomAgent::DEFAULT_REACTION_MEAN_EXTRA_MS
    }

    /// Whether `choose` looks at the view. An agent that does not (a random
    /// one) is handed an empty view, which saves building one per decision.
    fn looks(&self) -> bool {
        true
    }
}

/// Picks uniformly among the legal choices.
///
/// In a race, its reaction time is a shifted exponential: a floor (no one
/// reacts faster) plus an exponentially distributed delay with the given
/// mean, capped at ten times the mean. Defaults: 250 ms + Exp(mean 250 ms),
/// so a mean of 500 ms and a median of about 423 ms, the range of simple
/// visual choice-reaction times.
pub struct RandomAgent {
    rng: ChaCha8Rng,
    pub reaction_floor_ms: u32,
    pub reaction_mean_extra_ms: u32,
}

impl RandomAgent {
    /// Each seat gets its own stream, derived from the game seed, so agents
    /// never disturb the chance outcomes.
    pub fn new(seed: u64, seat: Seat) -> Self {
        let stream = seed ^ 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(seat as u64 + 1);
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(stream),
            reaction_floor_ms: Self::DEFAULT_REACTION_FLOOR_MS,
            reaction_mean_extra_ms: Self::DEFAULT_REACTION_MEAN_EXTRA_MS,
        }
    }

    pub const DEFAULT_REACTION_FLOOR_MS: u32 = 250;
    pub const DEFAULT_REACTION_MEAN_EXTRA_MS: u32 = 250;
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _def: &GameDef, _view: &View, _decision: DecisionId, legal: &[i64]) -> usize {
        self.rng.random_range(0..legal.len())
    }

    fn reaction_ms(&mut self, _def: &GameDef, _view: &View, _decision: DecisionId, _value: i64) -> u32 {
        let mean = self.reaction_mean_extra_ms as f64;
        let u: f64 = self.rng.random_range(f64::EPSILON..1.0);
        let extra = (-u.ln() * mean).min(10.0 * mean);
        self.reaction_floor_ms + extra.round() as u32
    }

    fn looks(&self) -> bool {
        false
    }
}

/// The agents `rpsdsl agents` lists.
pub const AGENT_NAMES: &[(&str, &str)] = &[("random", "picks uniformly among the legal choices")];

/// Builds agents from a spec such as `random,random` (one per seat; a single
/// name is used for every seat).
pub fn from_spec(spec: &str, players: usize, seed: u64) -> Result<Vec<Box<dyn Agent>>, String> {
    let names: Vec<&str> = spec.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if names.len() != 1 && names.len() != players {
        return Err(format!(
            "{} agents given for {players} players; give one per seat, or one for all",
            names.len()
        ));
    }
    (0..players)
        .map(|seat| {
            let name = if names.len() == 1 { names[0] } else { names[seat] };
            match name {
                "random" => Ok(Box::new(RandomAgent::new(seed, seat as Seat)) as Box<dyn Agent>),
                other => Err(format!(
                    "unknown agent `{other}`; the agents are {}",
                    AGENT_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                )),
            }
        })
        .collect()
}
