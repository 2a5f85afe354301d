//! Boards, as the lowering tables them: how a board's pieces are
//! counted, and where a step from each space leads.

use crate::ir::grid::{DIRECTIONS, NO_SPACE};
use crate::ir::{Board, GameDef};

/// How [`Op::CountOnBoard`] counts the pieces on a board: zone by zone, or,
/// when the game has fewer pieces than the board has zones, piece by piece
/// (every piece is in exactly one zone, so both give the same number).
#[derive(Debug)]
pub(crate) enum BoardCount {
    /// Go through the board's slot zones.
    ByZones,
    /// Go through the pieces; the flag per zone of the game says whether
    /// it is one of the board's slots.
    ByPieces(Vec<bool>),
}

impl BoardCount {
    pub(super) fn of(def: &GameDef, board: &Board) -> BoardCount {
        let mut on_board = vec![false; def.zones.len()];
        let mut zones = 0;
        for &family in &board.slots {
            let f = &def.families[family as usize];
            for zone in f.first..f.first + f.len {
                // A zone listed twice is counted twice zone by zone.
                if std::mem::replace(&mut on_board[zone as usize], true) {
                    return BoardCount::ByZones;
                }
                zones += 1;
            }
        }
        if def.pieces.len() < zones {
            BoardCount::ByPieces(on_board)
        } else {
            BoardCount::ByZones
        }
    }
}

/// A grid board's steps, looked up rather than worked out from rows and
/// columns at every step of a move generator.
#[derive(Debug)]
pub(crate) struct Steps {
    /// Per space, the space one step away in each compass direction, or
    /// [`NO_SPACE`].
    to: Vec<[i16; DIRECTIONS.len()]>,
}

impl Steps {
    pub(super) fn of(board: &Board) -> Steps {
        let to = (0..board.spaces())
            .map(|space| {
                std::array::from_fn(|direction| {
                    // A board has at most 4096 spaces (see `Board::spaces`).
                    board.step(i64::from(space), direction as i64) as i16
                })
            })
            .collect();
        Steps { to }
    }

    /// The same as [`Board::step`]: one step from `space` toward
    /// `direction`, or [`NO_SPACE`].
    #[inline(always)]
    pub(crate) fn step(&self, space: i64, direction: i64) -> i64 {
        let (Ok(space), Ok(direction)) = (usize::try_from(space), usize::try_from(direction)) else {
            return NO_SPACE;
        };
        match self.to.get(space).and_then(|to| to.get(direction)) {
            Some(&to) => i64::from(to),
            None => NO_SPACE,
        }
    }
}
