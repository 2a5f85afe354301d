//! Arithmetic run by the inner loop: checked, fused with its loads and
//! stores, an overflow pointed at the op that failed.

use super::super::lower::Arith;
use super::super::{Game, RuntimeError, State};
use crate::ir::Op;

impl State {
    /// `Arith`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_arith(&mut self, def: &Game, pc: usize, arith: Arith) -> Result<usize, RuntimeError> {
        let b = self.pop();
        let a = self.pop();
        match arith.apply(a, b) {
            Some(v) => self.stack.push(v),
            None => {
                self.frames.last_mut().expect("frame").pc = pc as u32;
                return Err(self.arithmetic_error(def, arith.op(), a, b));
            }
        }
        Ok(pc)
    }

    /// `AddToLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_add_to_local(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        value: i32,
    ) -> Result<usize, RuntimeError> {
        let at = locals_base + slot as usize;
        let a = self.locals[at];
        match a.checked_add(i64::from(value)) {
            Some(v) => self.locals[at] = v,
            None => {
                // Point at the `Add`, the third op of the run.
                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                return Err(self.arithmetic_error(def, Op::Add, a, i64::from(value)));
            }
        }
        pc += 3;
        Ok(pc)
    }

    /// `SubFromLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_sub_from_local(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        value: i32,
    ) -> Result<usize, RuntimeError> {
        let at = locals_base + slot as usize;
        let a = self.locals[at];
        match a.checked_sub(i64::from(value)) {
            Some(v) => self.locals[at] = v,
            None => {
                // Point at the `Sub`, the third op of the run.
                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                return Err(self.arithmetic_error(def, Op::Sub, a, i64::from(value)));
            }
        }
        pc += 3;
        Ok(pc)
    }

    /// `ArithConst`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_arith_const(
        &mut self,
        def: &Game,
        mut pc: usize,
        arith: Arith,
        value: i32,
    ) -> Result<usize, RuntimeError> {
        let a = self.pop();
        match arith.apply(a, i64::from(value)) {
            Some(v) => self.stack.push(v),
            None => {
                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                return Err(self.arithmetic_error(def, arith.op(), a, i64::from(value)));
            }
        }
        pc += 1;
        Ok(pc)
    }

    /// `LoadLoadArith`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_load_load_arith(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        a: u16,
        b: u16,
        arith: Arith,
    ) -> Result<usize, RuntimeError> {
        let x = self.locals[locals_base + a as usize];
        let y = self.locals[locals_base + b as usize];
        match arith.apply(x, y) {
            Some(v) => self.stack.push(v),
            None => {
                // Point at the arithmetic, the third op of the run.
                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                return Err(self.arithmetic_error(def, arith.op(), x, y));
            }
        }
        pc += 2;
        Ok(pc)
    }

    /// `ArithConstStore`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_arith_const_store(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        arith: Arith,
        value: i32,
        slot: u16,
    ) -> Result<usize, RuntimeError> {
        let a = self.pop();
        match arith.apply(a, i64::from(value)) {
            Some(v) => self.locals[locals_base + slot as usize] = v,
            None => {
                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                return Err(self.arithmetic_error(def, arith.op(), a, i64::from(value)));
            }
        }
        pc += 2;
        Ok(pc)
    }

    /// `ArithChainStore`: `pc` points past it; returns where to go on.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // an instruction's fields, as `exec` matched them
    pub(super) fn run_arith_chain_store(
        &mut self,
        def: &Game,
        mut pc: usize,
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
            match arith.apply(v, operand) {
                Some(result) => v = result,
                None => {
                    // Point at this arithmetic: the run's third, fifth or seventh op.
                    self.frames.last_mut().expect("frame").pc = (pc + 2 + 2 * k) as u32;
                    return Err(self.arithmetic_error(def, arith.op(), v, operand));
                }
            }
        }
        self.locals[locals_base + to as usize] = v;
        pc += 7;
        Ok(pc)
    }
}
