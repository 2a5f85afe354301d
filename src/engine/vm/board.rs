//! Boards: cells, steps and directions, a piece's space, full lines and the longest run.

use super::super::{Game, RuntimeError, State};
use super::Flow;
use crate::diagnostic::Code;
use crate::ir::{Board, GameDef, Matcher, Op};

impl State {
    /// Runs an op that reads a board: lines, a piece's space, a group of
    /// spaces, a coordinate, the longest run.
    pub(super) fn board_step(&mut self, def: &Game, op: Op) -> Result<Flow, RuntimeError> {
        match op {
            Op::Lines { board, family, matcher } => {
                let (key, owner) = self.pop_matcher(matcher);
                let full = self.full_lines(def, board, family, matcher, key, owner);
                self.stack.push(full);
            }
            Op::SpaceOf(board) => {
                let piece = self.pop_piece();
                match self.space_of(def, board, piece) {
                    Some(space) => self.stack.push(space),
                    None => return Err(self.not_on_board(def, board, piece)),
                }
            }
            Op::SpaceIn { first, len } => {
                let i = self.pop();
                if !(0..len as i64).contains(&i) {
                    return Err(self.error(
                        def,
                        Code::NoSuchSpace,
                        format!("there is no space {i} here: the spaces are 0 to {}", len as i64 - 1),
                    ));
                }
                self.stack.push(first as i64 + i);
            }
            Op::Coordinate { board, column } => {
                let space = self.pop();
                let b = &def.boards[board as usize];
                if !(0..b.spaces() as i64).contains(&space) {
                    return Err(self.off_board(def));
                }
                let (r, c) = b.coordinates(crate::ir::id_from_value(space));
                self.stack.push(if column { c } else { r });
            }
            Op::LongestRun { board, family, matcher } => {
                let (key, owner) = self.pop_matcher(matcher);
                let grid = &def.boards[board as usize];
                let run = match &def.program.run_bits[board as usize] {
                    Some(bit) => {
                        let bits = self.held_bits(def, family, matcher, key, owner, |space| {
                            bit.get(usize::from(space)).copied()
                        });
                        Board::longest_run_of_bits(bits, usize::from(grid.cols) + 1)
                    }
                    None => {
                        let family = &def.families[family as usize];
                        let zones = family.first as usize..(family.first + family.len) as usize;
                        grid.longest_run_of(
                            self.zones
                                .of_zones(zones)
                                .iter()
                                .filter(|&&p| self.matches_inlined(def, matcher, p, key, owner))
                                .map(|&p| self.piece_zone[p as usize] - family.first),
                        )
                    }
                };
                self.stack.push(run);
            }
            _ => unreachable!("`step` hands {op:?} to the wrong family"),
        }
        Ok(Flow::Continue)
    }

    /// How many lines of `board` hold a piece the matcher takes on every
    /// space, in the zones of `family`. A score counts them at the end of
    /// every playout.
    #[inline(never)]
    pub(super) fn full_lines(&self, def: &Game, board: u16, family: u16, m: Matcher, key: i64, owner: i64) -> i64 {
        let lines = &def.boards[board as usize].lines;
        let full = if def.families[family as usize].len <= 64 {
            // Each space is asked once, however many lines cross it.
            let mask = self.held_bits(def, family, m, key, owner, |space| Some(space as u8));
            lines
                .iter()
                .filter(|line| line.iter().all(|&space| mask >> space & 1 == 1))
                .count()
        } else {
            let first = def.families[family as usize].first;
            let held = |space: u16| self.count_in_zone(def, usize::from(first + space), m, key, owner) > 0;
            lines
                .iter()
                .filter(|line| line.iter().all(|&space| held(space)))
                .count()
        };
        full as i64
    }

    /// The spaces of a board's family that hold a piece the matcher takes,
    /// as bits (`bit_of` gives a space's bit, if it has one): found from the
    /// pieces on the board, not space by space, as a board is mostly empty.
    /// A loop, not an iterator: this runs once a move in a line game's
    /// search, and the iterator's closures were not inlined.
    #[inline(always)]
    pub(super) fn held_bits(
        &self,
        def: &GameDef,
        family: u16,
        m: Matcher,
        key: i64,
        owner: i64,
        bit_of: impl Fn(u16) -> Option<u8>,
    ) -> u64 {
        let family = &def.families[family as usize];
        let zones = family.first as usize..(family.first + family.len) as usize;
        let mut bits = 0u64;
        for &piece in self.zones.of_zones(zones) {
            if self.matches_inlined(def, m, piece, key, owner)
                && let Some(bit) = bit_of(self.piece_zone[piece as usize] - family.first)
            {
                bits |= 1 << bit;
            }
        }
        bits
    }
}
