//! The uniform random player.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::agent::{Agent, Reaction, seat_rng};
use super::spec::AgentSpec;
use crate::engine::{Game, Observation, Recall};
use crate::ir::{GameDef, Seat};

/// Picks uniformly among the legal choices; in a race, answers after a
/// [`Reaction`] time.
pub struct RandomAgent {
    rng: ChaCha8Rng,
    pub(crate) reaction: Reaction,
}

impl RandomAgent {
    /// Each seat gets its own stream, derived from the game seed.
    pub fn new(seed: u64, seat: Seat) -> Self {
        RandomAgent {
            rng: seat_rng(seed, seat),
            reaction: Reaction::default(),
        }
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> String {
        AgentSpec {
            name: "random".into(),
            params: self.reaction.describe(),
        }
        .to_text()
    }

    fn policy(&mut self, _def: &Game, obs: &Observation<'_>, _recall: Recall) -> Option<Vec<f64>> {
        let n = obs.legal_len();
        Some(vec![1.0 / n as f64; n])
    }

    fn choose(&mut self, _def: &Game, obs: &Observation<'_>) -> usize {
        self.rng.random_range(0..obs.legal_len())
    }

    fn choose_allowed(&mut self, _def: &Game, _obs: &Observation<'_>, allowed: &[bool]) -> Option<usize> {
        let count = allowed.iter().filter(|&&a| a).count();
        let nth = self.rng.random_range(0..count.max(1));
        allowed.iter().enumerate().filter(|&(_, &a)| a).nth(nth).map(|(i, _)| i)
    }

    fn reaction_ms(&mut self, _def: &GameDef, _obs: &Observation<'_>, _index: usize) -> u32 {
        self.reaction.sample(&mut self.rng)
    }
}
