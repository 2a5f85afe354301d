//! Jumps run by the inner loop: conditional ones, and tests fused with
//! their jump.

use super::super::lower::{Cmp, Ins};
use super::super::{Game, RuntimeError, State};

impl State {
    /// `Jump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_jump(&mut self, def: &Game, mut pc: usize, t: u32) -> Result<usize, RuntimeError> {
        // Every loop jumps back: count the rounds, not every op.
        if (t as usize) < pc {
            self.count_round(def, pc)?;
        }
        pc = t as usize;
        Ok(pc)
    }

    /// `LocalZoneSizeJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_local_zone_size_jump(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
    ) -> Result<usize, RuntimeError> {
        let size = self.local_zone_size(def, pc, locals_base, slot, family)?;
        pc = if cmp.holds(size, i64::from(value)) == when {
            target as usize
        } else {
            pc + 5
        };
        Ok(pc)
    }

    /// `LocalVarCmpJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_local_var_cmp_jump(
        &mut self,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        var: u16,
        cmp: Cmp,
        when: bool,
        target: u32,
    ) -> usize {
        let (a, b) = (self.locals[locals_base + slot as usize], self.vars[var as usize]);
        pc = if cmp.holds(a, b) == when {
            target as usize
        } else {
            pc + 3
        };
        pc
    }

    /// `CellTestJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_cell_test_jump(
        &mut self,
        def: &Game,
        _program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        at: u16,
    ) -> Result<usize, RuntimeError> {
        let test = &def.program.cell_tests[at as usize];
        // Point at the `ZoneOf`, the fourth op of the run.
        let size = self.on_board(def, pc + 3, self.cell_zone_size(def, test, locals_base))?;
        pc = if test.cmp.holds(size, test.value) == test.when {
            test.target as usize
        } else {
            pc + 7
        };
        Ok(pc)
    }

    /// `CellZoneSizeJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_cell_zone_size_jump(
        &mut self,
        def: &Game,
        mut pc: usize,
        board: u16,
        family: u16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
    ) -> Result<usize, RuntimeError> {
        let column = self.pop();
        let row = self.pop();
        let space = def.boards[board as usize].cell(row, column);
        let size = self.on_board(def, pc + 1, self.zone_size(def, family, space))?;
        pc = if cmp.holds(size, i64::from(value)) == when {
            target as usize
        } else {
            pc + 5
        };
        Ok(pc)
    }

    /// `JumpIfFalse`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_jump_if_false(&mut self, mut pc: usize, t: u32) -> usize {
        if self.pop() == 0 {
            pc = t as usize;
        }
        pc
    }

    /// `JumpIfTrue`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_jump_if_true(&mut self, mut pc: usize, t: u32) -> usize {
        if self.pop() != 0 {
            pc = t as usize;
        }
        pc
    }

    /// `CmpJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_cmp_jump(&mut self, mut pc: usize, cmp: Cmp, when: bool, target: u32) -> usize {
        let b = self.pop();
        let a = self.pop();
        pc = if cmp.holds(a, b) == when {
            target as usize
        } else {
            pc + 1
        };
        pc
    }

    /// `CmpConstJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_cmp_const_jump(&mut self, mut pc: usize, cmp: Cmp, when: bool, value: i32, target: u32) -> usize {
        let a = self.pop();
        pc = if cmp.holds(a, i64::from(value)) == when {
            target as usize
        } else {
            pc + 2
        };
        pc
    }

    /// `LocalCmpConstJump`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_local_cmp_const_jump(
        &mut self,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        cmp: Cmp,
        when: bool,
        value: i32,
        target: u32,
    ) -> usize {
        let a = self.locals[locals_base + slot as usize];
        pc = if cmp.holds(a, i64::from(value)) == when {
            target as usize
        } else {
            pc + 3
        };
        pc
    }
}
