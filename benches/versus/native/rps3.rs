//! RPS3, written by hand: the native baseline for `games/rps3.rules`, with
//! its default options. Random playouts only.
//!
//! The same game, move for move, as the rules file and
//! `/work/shared/RULINGS.md` read the rulebook:
//!
//! - The board: an outer ring of 18 spaces, an inner ring of 9 and the
//!   centre. Each ring wraps; outer space i touches inner space i / 2, inner
//!   space j touches outer 2j and 2j + 1 and the centre.
//! - Deployment: nine rounds; in round i both players at once take a pawn
//!   from their reserve (3 rock, 3 paper, 3 scissors each) and place it on
//!   outer space i (Light) or i + 9 (Dark). A player's pawns of one kind are
//!   one choice (the engine merges alike pieces in a menu), so the choices
//!   are the kinds still in the reserve.
//! - A classic duel (both throw, ties repeat) decides who moves first.
//! - Then at most 200 turns (`max_turns`), alternating: the mover moves a
//!   pawn to an adjacent empty space or challenges an adjacent enemy pawn.
//!   The winner of a challenge takes the loser; an attacker that wins moves
//!   into the defender's space; equal kinds both stay.
//! - After every action: a pawn in the centre whose owner's opponent has no
//!   pawn of the kind that beats it wins; a player with no pawns loses.
//!   After 200 turns the game is a draw.
//!
//! Every seat's answer is one decision: 18 for deployment, 2 per duel throw,
//! 1 per turn.

use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

const OUTER: usize = 18;
const INNER: usize = 9;
const CENTRE: usize = OUTER + INNER;
const SPACES: usize = CENTRE + 1;
/// Pawns of each kind per player.
const EACH: u8 = 3;
/// The rules file's `max_turns` default.
const MAX_TURNS: u32 = 200;

/// Rock, paper, scissors: 0, 1, 2. `BEATEN_BY[k]` is the kind that beats k.
const BEATEN_BY: [u8; 3] = [1, 2, 0];

fn beats(a: u8, b: u8) -> bool {
    BEATEN_BY[b as usize] == a
}

/// The spaces next to each space (at most 11, the centre's 9).
struct Board {
    next: [[u8; 9]; SPACES],
    len: [u8; SPACES],
}

impl Board {
    fn new() -> Board {
        let mut board = Board {
            next: [[0; 9]; SPACES],
            len: [0; SPACES],
        };
        let mut link = |a: usize, b: usize| {
            for (x, y) in [(a, b), (b, a)] {
                board.next[x][board.len[x] as usize] = y as u8;
                board.len[x] += 1;
            }
        };
        for i in 0..OUTER {
            link(i, (i + 1) % OUTER);
            link(i, OUTER + i / 2);
        }
        for j in 0..INNER {
            link(OUTER + j, OUTER + (j + 1) % INNER);
            link(OUTER + j, CENTRE);
        }
        board
    }

    fn next(&self, space: usize) -> &[u8] {
        &self.next[space][..self.len[space] as usize]
    }
}

/// A cell: `EMPTY`, or `1 + 3 * owner + kind`.
const EMPTY: u8 = 0;

fn pawn(owner: usize, kind: u8) -> u8 {
    1 + 3 * owner as u8 + kind
}

fn owner(cell: u8) -> usize {
    ((cell - 1) / 3) as usize
}

fn kind(cell: u8) -> u8 {
    (cell - 1) % 3
}

/// The result of one game: `Some(seat)` won (0 Light, 1 Dark), `None` a draw.
type Winner = Option<u8>;

struct Game<'b> {
    board: &'b Board,
    cells: [u8; SPACES],
    /// Pawns on the board, per player and kind.
    on_board: [[u8; 3]; 2],
}

impl Game<'_> {
    /// The checks after every action during the turns (during deployment
    /// and the duel the centre is empty and everyone has pawns).
    fn winner(&self) -> Option<usize> {
        let holder = self.cells[CENTRE];
        if holder != EMPTY {
            let (me, rival) = (owner(holder), 1 - owner(holder));
            if self.on_board[rival][BEATEN_BY[kind(holder) as usize] as usize] == 0 {
                return Some(me);
            }
        }
        (0..2)
            .find(|&p| self.on_board[p].iter().all(|&n| n == 0))
            .map(|p| 1 - p)
    }
}

/// An action: from one space to an adjacent one (a move when it is empty,
/// a challenge when an enemy pawn is there).
#[derive(Clone, Copy)]
struct Action {
    from: u8,
    to: u8,
}

/// One game with uniformly random answers; returns the winner and the decisions made.
fn random_game(board: &Board, rng: &mut ChaCha8Rng, actions: &mut Vec<Action>) -> (Winner, u32) {
    let mut game = Game {
        board,
        cells: [EMPTY; SPACES],
        on_board: [[0; 3]; 2],
    };
    let mut decisions = 0u32;
    // Deployment: both at once, each among the kinds left in its reserve.
    let mut reserve = [[EACH; 3]; 2];
    for i in 0..OUTER / 2 {
        for (player, space) in [(0, i), (1, i + OUTER / 2)] {
            let mut kinds = [0u8; 3];
            let mut n = 0;
            for k in 0..3u8 {
                if reserve[player][k as usize] > 0 {
                    kinds[n] = k;
                    n += 1;
                }
            }
            let k = kinds[rng.random_range(0..n)];
            reserve[player][k as usize] -= 1;
            game.on_board[player][k as usize] += 1;
            game.cells[space] = pawn(player, k);
        }
        decisions += 2;
    }
    // The duel for the first turn.
    let mut mover = loop {
        let (a, b) = (rng.random_range(0..3u8), rng.random_range(0..3u8));
        decisions += 2;
        if beats(a, b) {
            break 0;
        }
        if beats(b, a) {
            break 1;
        }
    };
    for _ in 0..MAX_TURNS {
        actions.clear();
        for from in 0..SPACES {
            let cell = game.cells[from];
            if cell == EMPTY || owner(cell) != mover {
                continue;
            }
            for &to in game.board.next(from) {
                let there = game.cells[to as usize];
                if there == EMPTY || owner(there) != mover {
                    actions.push(Action { from: from as u8, to });
                }
            }
        }
        let Action { from, to } = actions[rng.random_range(0..actions.len())];
        decisions += 1;
        let (from, to) = (from as usize, to as usize);
        let (attacker, defender) = (game.cells[from], game.cells[to]);
        if defender == EMPTY {
            game.cells[to] = attacker;
            game.cells[from] = EMPTY;
        } else if beats(kind(attacker), kind(defender)) {
            game.on_board[1 - mover][kind(defender) as usize] -= 1;
            game.cells[to] = attacker;
            game.cells[from] = EMPTY;
        } else if beats(kind(defender), kind(attacker)) {
            game.on_board[mover][kind(attacker) as usize] -= 1;
            game.cells[from] = EMPTY;
        }
        if let Some(w) = game.winner() {
            return (Some(w as u8), decisions);
        }
        mover = 1 - mover;
    }
    (None, decisions)
}

/// Random games until `budget` has passed: (games, decisions, wall time,
/// [first seat's wins, second seat's wins, draws]).
pub fn random_playouts(budget: Duration, seed: u64) -> (u64, u64, Duration, [u64; 3]) {
    let board = Board::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut actions = Vec::with_capacity(64);
    let (mut games, mut decisions) = (0u64, 0u64);
    let mut results = [0u64; 3];
    let started = Instant::now();
    loop {
        let (winner, length) = random_game(&board, &mut rng, &mut actions);
        results[winner.map_or(2, usize::from)] += 1;
        games += 1;
        decisions += u64::from(length);
        if started.elapsed() >= budget {
            return (games, decisions, started.elapsed(), results);
        }
    }
}
