//! Procedures and their frames: starting and finishing a procedure, its
//! locals, scopes and messages.

use super::{Compiler, Frame, Local, ProcState};
use crate::check::ids::{self, Table};
use crate::check::types::Ty;
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{self, ProcId};

impl Compiler {
    pub(super) fn new_proc(&mut self, name: &str, span: Span) -> ProcId {
        let id = self.next_id(self.def.procs.len(), Table::Procedures, span);
        self.def.procs.push(ir::Proc {
            name: name.to_string(),
            entry: 0,
            params: 0,
            locals: 0,
            returns: 0,
            span,
        });
        self.proc_state.push(ProcState::NotStarted);
        self.proc_params.push(vec![]);
        self.proc_returns.push(vec![]);
        self.proc_asks.push(None);
        self.proc_calls.push(vec![]);
        id
    }

    /// Starts compiling `proc`; the previous frame is returned to be restored.
    pub(super) fn begin(&mut self, proc: ProcId, params: &[(String, Ty)]) -> Frame {
        let mut frame = Frame {
            proc,
            ..Frame::default()
        };
        for (name, ty) in params {
            frame.locals.push(Local {
                name: name.clone(),
                slot: frame.next_slot,
                ty: ty.clone(),
                fixed: false,
            });
            // Saturates: a procedure cannot have 65,535 parameters in a
            // file that parses, and `local` reports running out.
            frame.next_slot = frame.next_slot.saturating_add(1);
        }
        frame.max_slot = frame.next_slot;
        self.proc_state[proc as usize] = ProcState::InProgress;
        self.proc_params[proc as usize] = params.iter().map(|(_, t)| t.clone()).collect();
        // The declaration pass refused procedures with too many parameters.
        self.def.procs[proc as usize].params = ids::index(params.len());
        std::mem::replace(&mut self.f, frame)
    }

    /// Finishes the current procedure: relocates its jumps and appends it.
    pub(super) fn end(&mut self, saved: Frame) {
        let frame = std::mem::replace(&mut self.f, saved);
        let entry = self.def.code.len() as u32;
        for op in frame.code {
            self.def.code.push(match op.target() {
                Some(t) => op.with_target(t + entry),
                None => op,
            });
        }
        self.def.spans.extend(frame.spans);
        let proc = &mut self.def.procs[frame.proc as usize];
        proc.entry = entry;
        proc.locals = frame.max_slot;
        self.proc_state[frame.proc as usize] = ProcState::Done;
        if let Some(returns) = frame.returns {
            let types: Vec<Ty> = returns.into_iter().map(|t| t.unwrap_or(Ty::Error)).collect();
            // The declaration pass refused procedures with too many results.
            self.def.procs[frame.proc as usize].returns = ids::index(types.len());
            self.proc_returns[frame.proc as usize] = types;
        }
    }

    pub(super) fn local(&mut self, name: &str, ty: Ty, width: u16) -> u16 {
        let slot = self.f.next_slot;
        let Some(next) = slot.checked_add(width) else {
            // The procedure needs more values than a frame holds; say so once.
            if !self.f.too_many_locals {
                self.f.too_many_locals = true;
                let span = self.f.spans.last().copied().unwrap_or_default();
                self.error(
                    Diagnostic::error(Code::TooManyDeclarations, "this procedure names too many values")
                        .label(span, format!("more than {} local values by here", u16::MAX))
                        .help("split the procedure or the flow into procedures"),
                );
            }
            return slot;
        };
        self.f.next_slot = next;
        self.f.max_slot = self.f.max_slot.max(self.f.next_slot);
        self.f.locals.push(Local {
            name: name.to_string(),
            slot,
            ty,
            fixed: false,
        });
        slot
    }

    /// Names `slot`, a loop's value, as `name` for the loop's body.
    pub(super) fn loop_value(&mut self, name: &str, slot: u16, ty: Ty) {
        self.f.locals.push(Local {
            name: name.to_string(),
            slot,
            ty,
            fixed: true,
        });
    }

    pub(super) fn temp(&mut self) -> u16 {
        self.local("", Ty::Int, 1)
    }

    pub(super) fn scope(&self) -> (usize, u16) {
        (self.f.locals.len(), self.f.next_slot)
    }

    pub(super) fn close_scope(&mut self, (locals, slot): (usize, u16)) {
        self.f.locals.truncate(locals);
        self.f.next_slot = slot;
    }

    pub(super) fn find_local(&self, name: &str) -> Option<(u16, Ty)> {
        self.f
            .locals
            .iter()
            .rev()
            .find(|l| l.name == name)
            .map(|l| (l.slot, l.ty.clone()))
    }

    /// Keeps a message the game shows when it ends (`declare draw "..."`,
    /// a procedure that fails); returns its id.
    pub(super) fn fail_message(&mut self, message: String, span: Span) -> u16 {
        let id = self.next_id(self.def.messages.len(), Table::Messages, span);
        self.def.messages.push(message);
        id
    }
}
