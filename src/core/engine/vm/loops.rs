//! Loops, for the interpreter: the next number, piece, space or neighbour
//! of a loop, a tested loop's test, and the count of rounds that stops an
//! endless flow.

use super::super::lower::{CellTest, Cmp, Ins, Operand};
use super::super::state::MAX_STEPS_BETWEEN_DECISIONS;
use super::super::{Game, RuntimeError, State};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{Board, GameDef, Op, PieceFilter, PieceId};

impl State {
    /// Counts one round of a loop whose jump back is the op before `pc`:
    /// the frame's counter is written back only when the flow is stuck,
    /// for the error to point at the jump.
    #[inline(always)]
    pub(super) fn count_round(&mut self, def: &GameDef, pc: usize) -> Result<(), RuntimeError> {
        if self.steps < MAX_STEPS_BETWEEN_DECISIONS {
            self.steps += 1;
            return Ok(());
        }
        self.frames.last_mut().expect("frame").pc = pc as u32;
        self.count_step(def)
    }

    /// Counts one loop round or call; a flow that makes too many of them
    /// without asking anyone is stuck.
    pub(super) fn count_step(&mut self, def: &GameDef) -> Result<(), RuntimeError> {
        self.steps += 1;
        if self.steps > MAX_STEPS_BETWEEN_DECISIONS {
            return Err(Box::new(
                Diagnostic::error(
                    Code::EndlessFlow,
                    format!(
                        "the flow went round its loops {MAX_STEPS_BETWEEN_DECISIONS} times without asking for a decision"
                    ),
                )
                .label(self.span(def), "still running here")
                .help("a loop that never asks anyone and never ends? give it a way out"),
            ));
        }
        Ok(())
    }

    /// `NextNeighbour`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_next_neighbour(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        board: u16,
        from: u16,
        value: u16,
        exit: u32,
    ) -> Result<usize, RuntimeError> {
        match self.next_neighbour(def, locals_base, board, from, value) {
            Some(true) => Ok(pc),
            Some(false) => Ok(exit as usize),
            None => {
                self.frames.last_mut().expect("frame").pc = pc as u32;
                Err(self.off_board(def))
            }
        }
    }

    /// [`Op::NextNeighbour`]: moves the loop to the next space the `from`
    /// space touches; false when none is left, `None` when `from` is off
    /// the board.
    pub(super) fn next_neighbour(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        board: u16,
        from: u16,
        value: u16,
    ) -> Option<bool> {
        let from = self.locals[locals_base + from as usize];
        let slot = locals_base + value as usize;
        let after = self.locals[slot];
        let near = def.boards[board as usize].adjacent.get(usize::try_from(from).ok()?)?;
        Some(match near.iter().find(|&&t| t as i64 > after) {
            Some(&t) => {
                self.locals[slot] = t as i64;
                true
            }
            None => false,
        })
    }

    /// [`Op::NextPiece`]: moves the loop to the next piece of the zone that
    /// passes the filter; false when none is left.
    #[inline(always)]
    pub(super) fn next_piece(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
    ) -> bool {
        let filter = def.filters[filter as usize];
        let pieces = &self.zones[self.locals[locals_base + zone as usize] as usize];
        let start = (self.locals[locals_base + index as usize] + 1) as usize;
        let found = (start..pieces.len())
            .map(|i| (i, pieces[pieces.len() - 1 - i]))
            .find(|&(_, p)| self.passes(def, filter, locals_base, p));
        match found {
            Some((i, piece)) => {
                self.locals[locals_base + index as usize] = i as i64;
                self.locals[locals_base + value as usize] = piece as i64;
                true
            }
            None => false,
        }
    }

    /// [`Op::NextOnBoard`]: moves the loop to the next piece on the board
    /// that passes the filter; false when none is left. The cursor is
    /// (zone number on the board) << 16 | (place in the zone).
    #[inline(always)]
    pub(super) fn next_on_board(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
    ) -> bool {
        let filter = def.filters[filter as usize];
        let board = &def.boards[board as usize];
        let slots = board.slots.len() as i64;
        let zones = board.spaces() as i64 * slots;
        let mut at = self.locals[locals_base + cursor as usize] + 1;
        if slots == 1 {
            return self.next_on_one_slot(def, locals_base, board, filter, (cursor, value), at);
        }
        loop {
            let (k, i) = (at >> 16, (at & 0xFFFF) as usize);
            if k >= zones {
                return false;
            }
            let (space, slot) = (k / slots, k % slots);
            let family = &def.families[board.slots[slot as usize] as usize];
            let pieces = &self.zones[(family.first as i64 + space) as usize];
            if i >= pieces.len() {
                at = (k + 1) << 16;
                continue;
            }
            let piece = pieces[pieces.len() - 1 - i];
            if self.take_if_passes(def, filter, locals_base, (cursor, value), piece, at) {
                return true;
            }
            at += 1;
        }
    }

    /// Where `piece` passes a board loop's filter, it becomes the loop's
    /// value and `at` its cursor.
    #[inline(always)]
    fn take_if_passes(
        &mut self,
        def: &GameDef,
        filter: PieceFilter,
        locals_base: usize,
        (cursor, value): (u16, u16),
        piece: PieceId,
        at: i64,
    ) -> bool {
        let passes = self.passes(def, filter, locals_base, piece);
        if passes {
            self.locals[locals_base + value as usize] = piece as i64;
            self.locals[locals_base + cursor as usize] = at;
        }
        passes
    }

    /// [`State::next_on_board`] on a board with one slot a space, the
    /// common case, from the cursor `at`: the same pieces in the same
    /// order, but an emptied space is left at once for the next space that
    /// holds a piece (the slot's zones lie in order in one buffer), so a
    /// sparse board costs its pieces, not its spaces.
    #[inline(always)]
    fn next_on_one_slot(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        board: &Board,
        filter: PieceFilter,
        (cursor, value): (u16, u16),
        mut at: i64,
    ) -> bool {
        let first = def.families[board.slots[0] as usize].first as usize;
        let end = first + board.spaces() as usize;
        loop {
            let (k, i) = ((at >> 16) as usize, (at & 0xFFFF) as usize);
            let zone = first + k;
            if zone >= end {
                return false;
            }
            let pieces = &self.zones[zone];
            if i >= pieces.len() {
                // The next space holding a piece, past every empty one.
                let Some(next) = self.zones.first_holding(zone + 1, end, &self.piece_zone) else {
                    return false;
                };
                at = ((next - first) as i64) << 16;
                continue;
            }
            let piece = pieces[pieces.len() - 1 - i];
            if self.take_if_passes(def, filter, locals_base, (cursor, value), piece, at) {
                return true;
            }
            at += 1;
        }
    }

    /// A loop's jump back to its [`Op::NextNeighbour`] at `head`: the next
    /// space, or false when none is left; an error pointing at the loop
    /// when the space it goes round is off the board.
    #[inline(always)]
    pub(super) fn step_neighbour(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        board: u16,
        from: u16,
        value: u16,
        head: u32,
    ) -> Result<bool, RuntimeError> {
        self.next_neighbour(def, locals_base, board, from, value)
            .ok_or_else(|| {
                self.frames.last_mut().expect("frame").pc = head + 1;
                self.off_board(def)
            })
    }

    /// After a tested loop's step (see [`Ins::JumpNextTested`]): where
    /// the round goes on, or `None` when its test at `head + 1` sends it
    /// back for the next step. Past the test when it passes; the test itself
    /// when its space is off the board, for the test to say so.
    #[inline(always)]
    pub(super) fn after_loop_test(
        &self,
        def: &Game,
        program: &[Ins],
        head: usize,
        locals_base: usize,
    ) -> Option<usize> {
        let test = head + 1;
        let (size, cmp, when, value) = match program[test] {
            Ins::LocalZoneSizeJump {
                slot,
                family,
                cmp,
                when,
                value,
                ..
            } => (
                self.zone_size(def, family, self.locals[locals_base + slot as usize]),
                cmp,
                when,
                i64::from(value),
            ),
            Ins::CellTestJump(at) => {
                let cell = &def.program.cell_tests[at as usize];
                (
                    self.cell_zone_size(def, cell, locals_base),
                    cell.cmp,
                    cell.when,
                    cell.value,
                )
            }
            Ins::LocalVarCmpJump {
                slot, var, cmp, when, ..
            } => (
                Some(self.locals[locals_base + slot as usize]),
                cmp,
                when,
                self.vars[var as usize],
            ),
            _ => unreachable!("a tested loop opens with its test (see `thread_back_jump`)"),
        };
        let Some(size) = size else {
            return Some(test);
        };
        (cmp.holds(size, value) != when).then_some(test + program[test].len())
    }

    /// How many pieces the zone of a [`CellTest`]'s cell holds, or `None`
    /// when the row and column are off the board.
    #[inline(always)]
    pub(super) fn cell_zone_size(&self, def: &GameDef, test: &CellTest, locals_base: usize) -> Option<i64> {
        let value = |operand| match operand {
            Operand::Number(v) => v,
            Operand::Local(slot) => self.locals[locals_base + slot as usize],
        };
        let space = def.boards[test.board as usize].cell(value(test.row), value(test.column));
        self.zone_size(def, test.family, space)
    }

    /// `JumpNext`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_next(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        value: u16,
        last: u16,
        exit: u32,
        head: u32,
    ) -> Result<usize, RuntimeError> {
        self.count_round(def, pc)?;
        let v = &mut self.locals[locals_base + value as usize];
        *v += 1;
        pc = if *v > self.locals[locals_base + last as usize] {
            exit as usize
        } else {
            head as usize + 1
        };
        Ok(pc)
    }

    /// `JumpNextNeighbour`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_next_neighbour(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        board: u16,
        from: u16,
        value: u16,
        exit_after: u16,
        head: u32,
    ) -> Result<usize, RuntimeError> {
        self.count_round(def, pc)?;
        pc = match self.step_neighbour(def, locals_base, board, from, value, head)? {
            true => head as usize + 1,
            false => head as usize + exit_after as usize,
        };
        Ok(pc)
    }

    /// `JumpNextTested`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_next_tested(
        &mut self,
        def: &Game,
        program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        value: u16,
        last: u16,
        exit: u32,
        head: u32,
    ) -> Result<usize, RuntimeError> {
        let head = head as usize;
        pc = loop {
            self.count_round(def, pc)?;
            let v = &mut self.locals[locals_base + value as usize];
            *v += 1;
            if *v > self.locals[locals_base + last as usize] {
                break exit as usize;
            }
            if let Some(next) = self.after_loop_test(def, program, head, locals_base) {
                break next;
            }
        };
        Ok(pc)
    }

    /// `JumpNextNeighbourTested`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_next_neighbour_tested(
        &mut self,
        def: &Game,
        program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        board: u16,
        from: u16,
        value: u16,
        exit_after: u16,
        head: u32,
    ) -> Result<usize, RuntimeError> {
        let head = head as usize;
        pc = loop {
            self.count_round(def, pc)?;
            if !self.step_neighbour(def, locals_base, board, from, value, head as u32)? {
                break head + exit_after as usize;
            }
            if let Some(next) = self.after_loop_test(def, program, head, locals_base) {
                break next;
            }
        };
        Ok(pc)
    }

    /// `Next`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_next(&mut self, mut pc: usize, locals_base: usize, value: u16, last: u16, exit: u32) -> usize {
        let v = &mut self.locals[locals_base + value as usize];
        *v += 1;
        if *v > self.locals[locals_base + last as usize] {
            pc = exit as usize;
        }
        pc
    }

    /// `NextPiece`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_next_piece(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        exit: u32,
    ) -> usize {
        if !self.next_piece(def, locals_base, zone, index, value, filter) {
            pc = exit as usize;
        }
        pc
    }

    /// `NextOnBoard`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_next_on_board(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
        exit: u32,
    ) -> usize {
        if !self.next_on_board(def, locals_base, board, cursor, value, filter) {
            pc = exit as usize;
        }
        pc
    }

    /// `AddJumpLocalCmp`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_add_jump_local_cmp(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        add: i16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
        back: u16,
    ) -> Result<usize, RuntimeError> {
        let at = locals_base + slot as usize;
        let a = self.locals[at];
        let Some(v) = a.checked_add(i64::from(add)) else {
            // Point at the `Add`, the third op of the run.
            self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
            return Err(self.arithmetic_error(def, Op::Add, a, i64::from(add)));
        };
        self.locals[at] = v;
        // Then the jump back, four ops on, as `JumpLocalCmp` runs it.
        let jumped = pc + 4;
        self.count_round(def, jumped)?;
        pc = if cmp.holds(v, i64::from(value)) == when {
            target as usize
        } else {
            jumped - 1 - back as usize + 4
        };
        Ok(pc)
    }

    /// `EnterPieces`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_enter_pieces(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        exit_after: u16,
    ) -> Result<usize, RuntimeError> {
        let space = self.locals[locals_base + slot as usize];
        // Point at the `ZoneOf`, the second op of the run.
        let kept = self.on_board(def, pc + 1, self.zone_of(def, family, space))?;
        self.locals[locals_base + zone as usize] = kept as i64;
        self.locals[locals_base + index as usize] = -1;
        // The step is the sixth op, at `pc + 4`; its body follows it.
        pc = if self.next_piece(def, locals_base, zone, index, value, filter) {
            pc + 5
        } else {
            pc + 4 + exit_after as usize
        };
        Ok(pc)
    }

    /// `JumpCellTest`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_jump_cell_test(
        &mut self,
        def: &Game,
        _program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        test: u16,
        back: u16,
    ) -> Result<usize, RuntimeError> {
        self.count_round(def, pc)?;
        let head = pc - 1 - back as usize;
        let cell = &def.program.cell_tests[test as usize];
        pc = match self.cell_zone_size(def, cell, locals_base) {
            Some(size) if cell.cmp.holds(size, cell.value) == cell.when => cell.target as usize,
            Some(_) => head + 8,
            // Off the board: the test itself says so.
            None => head,
        };
        Ok(pc)
    }

    /// `JumpNextPiece`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_next_piece(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        back: u16,
        exit: u32,
    ) -> Result<usize, RuntimeError> {
        self.count_round(def, pc)?;
        pc = if self.next_piece(def, locals_base, zone, index, value, filter) {
            pc - back as usize
        } else {
            exit as usize
        };
        Ok(pc)
    }

    /// `JumpNextOnBoard`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_next_on_board(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
        back: u16,
        exit: u32,
    ) -> Result<usize, RuntimeError> {
        self.count_round(def, pc)?;
        pc = if self.next_on_board(def, locals_base, board, cursor, value, filter) {
            pc - back as usize
        } else {
            exit as usize
        };
        Ok(pc)
    }

    /// `JumpLocalCmp`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_jump_local_cmp(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
        back: u16,
    ) -> Result<usize, RuntimeError> {
        self.count_round(def, pc)?;
        let a = self.locals[locals_base + slot as usize];
        // The test is four ops long, from `back` ops before the jump.
        pc = if cmp.holds(a, i64::from(value)) == when {
            target as usize
        } else {
            pc - 1 - back as usize + 4
        };
        Ok(pc)
    }
}
