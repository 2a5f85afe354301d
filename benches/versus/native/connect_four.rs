//! Connect four (6 rows, 7 columns, four in a row), written by hand: the
//! native baseline for `games/classic/connect_four.rules`. Random playouts
//! only, on bitboards.
//!
//! The board is one `u64` per player, column-major, seven bits a column
//! (six cells and a sentinel bit above them, so shifts never wrap from one
//! column into the next). The players take turns dropping a disc into a
//! column that is not full; four in a row in any direction wins; a full
//! board without one is a draw. Every drop is one decision.

use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const ROWS: u32 = 6;
const COLUMNS: u32 = 7;
const HEIGHT: u32 = ROWS + 1;

/// The result of one game: `Some(seat)` won, `None` a draw.
type Winner = Option<u8>;

/// Whether `discs` hold four in a row: vertically (shift 1), horizontally
/// (shift 7) and along both diagonals (shifts 6 and 8).
fn four_in_a_row(discs: u64) -> bool {
    [1, HEIGHT, HEIGHT - 1, HEIGHT + 1].iter().any(|&shift| {
        let pairs = discs & (discs >> shift);
        pairs & (pairs >> (2 * shift)) != 0
    })
}

/// One game with uniformly random drops; returns the winner and the decisions made.
fn random_game(rng: &mut ChaCha8Rng) -> (Winner, u32) {
    let mut discs = [0u64; 2];
    let mut heights = [0u32; COLUMNS as usize];
    let mut legal = [0u32; COLUMNS as usize];
    let mut mover = 0usize;
    for decision in 1..=ROWS * COLUMNS {
        let mut n = 0;
        for column in 0..COLUMNS {
            if heights[column as usize] < ROWS {
                legal[n] = column;
                n += 1;
            }
        }
        let column = legal[rng.random_range(0..n)];
        discs[mover] |= 1u64 << (column * HEIGHT + heights[column as usize]);
        heights[column as usize] += 1;
        if four_in_a_row(discs[mover]) {
            return (Some(mover as u8), decision);
        }
        mover ^= 1;
    }
    (None, ROWS * COLUMNS)
}

/// Random games until `budget` has passed: (games, decisions, wall time,
/// [first seat's wins, second seat's wins, draws]).
pub fn random_playouts(budget: Duration, seed: u64) -> (u64, u64, Duration, [u64; 3]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut games, mut decisions) = (0u64, 0u64);
    let mut results = [0u64; 3];
    let started = Instant::now();
    loop {
        let (winner, length) = random_game(&mut rng);
        results[winner.map_or(2, usize::from)] += 1;
        games += 1;
        decisions += u64::from(length);
        if started.elapsed() >= budget {
            return (games, decisions, started.elapsed(), results);
        }
    }
}
