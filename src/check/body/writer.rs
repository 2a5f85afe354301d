//! The code writer: emits ops into the current procedure, and jumps whose
//! target is patched once it is known.

use super::Compiler;
use crate::diagnostic::Span;
use crate::ir::Op;

impl Compiler {
    pub(super) fn emit(&mut self, op: Op, span: Span) -> usize {
        if matches!(op, Op::Ask(_) | Op::AskEach(..)) {
            self.proc_asks[self.f.proc as usize].get_or_insert(span);
        }
        if let Op::Call(p) = op {
            self.proc_calls[self.f.proc as usize].push((p, span));
        }
        self.f.code.push(op);
        self.f.spans.push(span);
        self.f.code.len() - 1
    }

    pub(super) fn here(&self) -> u32 {
        self.f.code.len() as u32
    }

    pub(super) fn patch(&mut self, at: usize, target: u32) {
        self.f.code[at] = self.f.code[at].with_target(target);
    }
}
