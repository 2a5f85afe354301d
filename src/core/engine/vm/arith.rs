//! Arithmetic run by the inner loop: checked, fused with its loads and
//! stores, an overflow pointed at the op that failed.

use super::super::lower::Arith;
use super::super::{Game, RuntimeError, State};

impl State {
    /// The result of a checked op, or its error with the frame's counter at
    /// `at`, the pc of the op inside its run that failed.
    #[inline(always)]
    fn checked(&mut self, def: &Game, at: usize, arith: Arith, a: i64, b: i64) -> Result<i64, RuntimeError> {
        arith.apply(a, b).ok_or_else(|| {
            self.frames.last_mut().expect("frame").pc = at as u32;
            self.arithmetic_error(def, arith.op(), a, b)
        })
    }

    /// `Arith`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_arith(&mut self, def: &Game, pc: usize, arith: Arith) -> Result<usize, RuntimeError> {
        let b = self.pop();
        let a = self.pop();
        let v = self.checked(def, pc, arith, a, b)?;
        self.stack.push(v);
        Ok(pc)
    }

    /// `AddToLocal` (`arith` is `Add`) and `SubFromLocal` (`Sub`): `pc`
    /// points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_local_step(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        slot: u16,
        value: i32,
        arith: Arith,
    ) -> Result<usize, RuntimeError> {
        let at = locals_base + slot as usize;
        // The arithmetic is the third op of the run.
        self.locals[at] = self.checked(def, pc + 2, arith, self.locals[at], i64::from(value))?;
        Ok(pc + 3)
    }

    /// `ArithConst`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_arith_const(
        &mut self,
        def: &Game,
        pc: usize,
        arith: Arith,
        value: i32,
    ) -> Result<usize, RuntimeError> {
        let a = self.pop();
        let v = self.checked(def, pc + 1, arith, a, i64::from(value))?;
        self.stack.push(v);
        Ok(pc + 1)
    }

    /// `LoadLoadArith`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_load_load_arith(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        a: u16,
        b: u16,
        arith: Arith,
    ) -> Result<usize, RuntimeError> {
        let x = self.locals[locals_base + a as usize];
        let y = self.locals[locals_base + b as usize];
        // The arithmetic is the third op of the run.
        let v = self.checked(def, pc + 2, arith, x, y)?;
        self.stack.push(v);
        Ok(pc + 2)
    }

    /// `ArithConstStore`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_arith_const_store(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        arith: Arith,
        value: i32,
        slot: u16,
    ) -> Result<usize, RuntimeError> {
        let a = self.pop();
        self.locals[locals_base + slot as usize] = self.checked(def, pc + 1, arith, a, i64::from(value))?;
        Ok(pc + 2)
    }

    /// `ArithChainStore`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_arith_chain_store(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        a: u16,
        b: u16,
        c: i16,
        d: i16,
        ops: [Arith; 3],
        to: u16,
    ) -> Result<usize, RuntimeError> {
        let mut v = self.locals[locals_base + a as usize];
        let operands = [self.locals[locals_base + b as usize], i64::from(c), i64::from(d)];
        for (k, (arith, operand)) in ops.into_iter().zip(operands).enumerate() {
            // This arithmetic is the run's third, fifth or seventh op.
            v = self.checked(def, pc + 2 + 2 * k, arith, v, operand)?;
        }
        self.locals[locals_base + to as usize] = v;
        Ok(pc + 7)
    }
}
