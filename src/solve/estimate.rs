//! How large a game's tree is, estimated by counts before it is built:
//! Knuth's estimator ("Estimating the efficiency of backtrack programs",
//! 1975) over a few seeded games of uniform play. Along one random path
//! with `b1, b2, ...` joint choices at its decision points, the tree has
//! about `1 + b1 + b1·b2 + ...` decision points; the mean over paths is an
//! unbiased estimate. The games are seeded, so the estimate (and every
//! choice made from it) is the same on every machine and thread count.
//! A path ends where it meets a public position it met before: the tree
//! goes on from there as from the first meeting (`Node::Repeat`).

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::engine::{Choice, Game, State};
use crate::ir::OptionValue;

/// Games the estimate plays.
const GAMES: u64 = 16;

/// Decision points one estimating game is played to at most.
const MOST_STEPS: u32 = 400;

/// About how many decision points the whole tree of `def` with `options`
/// has (chance outcomes apart), capped at `1e300`.
pub(super) fn tree_size(def: &Game, options: &[OptionValue]) -> f64 {
    let mut total = 0.0;
    for game in 0..GAMES {
        let seed = 0x5452_4545 ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut events = vec![];
        let Ok(mut state) = State::start(def, options, seed, vec![], &mut events) else {
            total += 1.0;
            continue;
        };
        let (mut size, mut width) = (1.0f64, 1.0f64);
        let mut steps = 0;
        let mut met = vec![];
        while let Some(pending) = state.pending() {
            if steps >= MOST_STEPS || width >= 1e300 || super::tree::met_again(&state, def, &mut met) {
                break;
            }
            let picked: Vec<Choice> = pending
                .who()
                .iter()
                .map(|&seat| {
                    let legal = pending.legal(seat);
                    width *= legal.len() as f64;
                    Choice::new(seat, legal[rng.random_range(0..legal.len())])
                })
                .collect();
            size += width.min(1e300);
            events.clear();
            if state.apply(def, &picked, &mut events).is_err() {
                break;
            }
            steps += 1;
        }
        total += size.min(1e300);
    }
    (total / GAMES as f64).min(1e300)
}
