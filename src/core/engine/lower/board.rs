//! Boards, as the lowering tables them: where a step from each space
//! leads.

use crate::ir::Board;
use crate::ir::grid::{DIRECTIONS, NO_SPACE};

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
