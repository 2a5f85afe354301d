//! Boards, for the inner loop: full lines, and the spaces a matcher holds
//! as one mask (lines and the longest run alike).

use super::super::lower::Ins;
use super::super::{Game, RuntimeError, State};
use crate::ir::grid::NO_SPACE;
use crate::ir::{ChoiceValue, GameDef, Matcher};

impl State {
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

    /// `Chain`: whether the spaces of `board` holding a piece that matches
    /// in the family's zone link the two `edges`. A space is read only
    /// when the flood reaches it: early in a game most are never read.
    #[allow(clippy::too_many_arguments)] // an op's fields and its matcher's values
    pub(super) fn chain_joins(
        &self,
        def: &GameDef,
        board: u16,
        family: u16,
        m: Matcher,
        key: i64,
        owner: i64,
        (from, to): (u8, u8),
    ) -> bool {
        let first = usize::from(def.families[family as usize].first);
        let holds = |space: u16| {
            self.zones[first + usize::from(space)]
                .iter()
                .any(|&piece| self.matches_inlined(def, m, piece, key, owner))
        };
        def.boards[board as usize].joins(holds, from, to)
    }

    /// `CellAt`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_cell_at(&mut self, def: &Game, pc: usize, board: u16) -> usize {
        let column = self.pop();
        let row = self.pop();
        self.stack.push(def.boards[board as usize].cell(row, column));
        pc
    }

    /// `Step`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_step(&mut self, def: &Game, pc: usize, board: u16) -> usize {
        let direction = self.pop();
        let space = self.pop();
        self.stack
            .push(def.program.steps[board as usize].step(space, direction));
        pc
    }

    /// `Forward`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_forward(&mut self, def: &Game, pc: usize, board: u16, backward: bool) -> usize {
        let seat = self.pop();
        let ahead = def.boards[board as usize].forward[seat as usize];
        let d = if backward {
            crate::ir::grid::opposite(ahead)
        } else {
            ahead
        };
        self.stack.push(d as i64);
        pc
    }

    /// `StepLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_step_local(
        &mut self,
        def: &Game,
        _program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        board: u16,
        space: u16,
        direction: u16,
        to: u16,
    ) -> usize {
        let space = self.locals[locals_base + space as usize];
        let direction = self.locals[locals_base + direction as usize];
        self.locals[locals_base + to as usize] = def.program.steps[board as usize].step(space, direction);
        pc += 3;
        pc
    }

    /// `StepLocalJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_step_local_jump(
        &mut self,
        def: &Game,
        _program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        board: u16,
        space: u16,
        direction: u16,
        to: u16,
        off_board: u32,
    ) -> usize {
        let space = self.locals[locals_base + space as usize];
        let direction = self.locals[locals_base + direction as usize];
        let there = def.program.steps[board as usize].step(space, direction);
        self.locals[locals_base + to as usize] = there;
        pc = if there == NO_SPACE { off_board as usize } else { pc + 7 };
        pc
    }

    /// `SpaceOfLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_space_of_local(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        board: u16,
        piece: u16,
        to: u16,
    ) -> Result<usize, RuntimeError> {
        let piece = ChoiceValue::from_raw(self.locals[locals_base + piece as usize]).piece_id();
        match self.space_of(def, board, piece) {
            Some(space) => self.locals[locals_base + to as usize] = space,
            None => {
                // Point at the `SpaceOf`, the second op of the run.
                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                return Err(self.not_on_board(def, board, piece));
            }
        }
        pc += 2;
        Ok(pc)
    }
}
