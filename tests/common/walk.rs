//! Random walks straight on the engine: seeded random answers for every
//! acting seat, for tests that want a state somewhere inside a game.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rpsdsl::engine::Game;
use rpsdsl::engine::{Choice, State};
use rpsdsl::ir::OptionValue;

/// Where a walk may stop.
#[derive(Clone, Copy, PartialEq)]
pub enum Stop {
    /// After `steps` steps or at the end of the game, whichever comes first.
    AfterSteps,
    /// Likewise, but never on a finished game: the last state that still
    /// waits for a decision, so that a short game is tested too.
    BeforeTheEnd,
}

/// Random answers from the start of the game for at most `steps` steps.
pub fn random_walk(def: &Game, options: &[OptionValue], seed: u64, steps: usize, stop: Stop) -> State {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut events = vec![];
    let mut state = State::start(def, options, seed, vec![], &mut events).unwrap();
    for _ in 0..steps {
        let Some(pending) = state.pending() else { break };
        let step: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                Choice {
                    seat,
                    value: legal[rng.random_range(0..legal.len())],
                    reaction_ms: rng.random_range(200..900),
                }
            })
            .collect();
        let mut next = state.clone();
        next.apply(def, &step, &mut events).unwrap();
        if stop == Stop::BeforeTheEnd && next.pending().is_none() {
            break;
        }
        state = next;
    }
    state
}
