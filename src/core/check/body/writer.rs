//! The code writer: emits ops into the current procedure, and jumps whose
//! target is patched once it is known.
//!
//! A forward jump is emitted before its target exists, so it returns a
//! [`PatchAddr`] that must be patched; a backward jump (to the top of a
//! loop) knows its target, taken earlier with [`Compiler::here`].

use super::Compiler;
use super::marks::PatchAddr;
use crate::diagnostic::Span;
use crate::ir::Op;

/// Which jump to emit.
#[derive(Clone, Copy)]
pub(super) enum JumpKind {
    Always,
    /// Pops a bool and jumps when it is false.
    IfFalse,
    /// Pops a bool and jumps when it is true.
    IfTrue,
}

impl JumpKind {
    fn op(self, target: u32) -> Op {
        match self {
            JumpKind::Always => Op::Jump(target),
            JumpKind::IfFalse => Op::JumpIfFalse(target),
            JumpKind::IfTrue => Op::JumpIfTrue(target),
        }
    }
}

impl Compiler {
    pub(super) fn emit(&mut self, op: Op, span: Span) {
        if matches!(op, Op::Ask(_) | Op::AskEach(..)) {
            self.proc_asks[self.f.proc as usize].get_or_insert(span);
        }
        if let Op::Call(p) = op {
            self.proc_calls[self.f.proc as usize].push((p, span));
        }
        self.f.code.push(op);
        self.f.spans.push(span);
    }

    /// Where the next op goes: the target of a jump back to it.
    pub(super) fn here(&self) -> u32 {
        self.f.code.len() as u32
    }

    /// Emits a jump forward, to a target given later with `patch_here`.
    pub(super) fn emit_jump(&mut self, kind: JumpKind, span: Span) -> PatchAddr {
        self.emit_forward(kind.op(0), span)
    }

    /// Emits a jump back to `target`, an address taken with `here`.
    pub(super) fn emit_jump_back(&mut self, kind: JumpKind, target: u32, span: Span) {
        self.emit(kind.op(target), span);
    }

    /// Emits a loop's step (`Next`, `NextPiece`...), whose exit is the end
    /// of the loop, given later with `patch_here`.
    pub(super) fn emit_loop_step(&mut self, step: Op, span: Span) -> PatchAddr {
        debug_assert!(step.target().is_some(), "a loop step has an exit to patch");
        self.emit_forward(step, span)
    }

    fn emit_forward(&mut self, op: Op, span: Span) -> PatchAddr {
        self.emit(op, span);
        PatchAddr(self.f.code.len() - 1)
    }

    /// Points `jump` at the next op to be emitted.
    pub(super) fn patch_here(&mut self, jump: PatchAddr) {
        let target = self.here();
        let at = jump.0;
        self.f.code[at] = self.f.code[at].with_target(target);
    }

    /// Points every one of `jumps` at the next op to be emitted.
    pub(super) fn patch_all_here(&mut self, jumps: impl IntoIterator<Item = PatchAddr>) {
        for jump in jumps {
            self.patch_here(jump);
        }
    }
}
