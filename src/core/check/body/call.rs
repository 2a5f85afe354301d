//! Calls: procedures (compiled on demand to learn their result types) and
//! hooks.

use super::{Compiler, ProcState};
use crate::check::ids::Table;
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{self, HookArg, Op, ProcId};
use crate::syntax::ast::{self, Expr, ExprKind};

impl Compiler {
    fn param_names(&self, proc: ProcId) -> String {
        self.user_procs.get(&proc).map_or(String::new(), |d| {
            d.params
                .iter()
                .map(|p| p.name.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
    }

    /// `let (a, b) = proc(...)`: compiles the call and returns the result types.
    pub(super) fn multi_call(&mut self, value: &Expr, count: usize) -> Vec<Ty> {
        if let ExprKind::Call { name, args } = &value.kind
            && let Some(Symbol::Proc(p)) = self.globals.get(&name.name)
        {
            let returns = self.call_proc(p, name, args, value.span);
            if returns.len() == count {
                return returns;
            }
            let names = self.user_procs.get(&p).map_or(String::new(), |d| {
                d.returns.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
            });
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!(
                        "`{}` returns {} values, but {count} names receive them",
                        name.name,
                        returns.len()
                    ),
                )
                .label(value.span, format!("returns {}", returns.len()))
                .help(format!(
                    "`{}` returns ({names}); receive them as `let ({names}) = {}()`",
                    name.name, name.name
                )),
            );
            return vec![Ty::Error; count];
        }
        self.error(
            Diagnostic::error(
                Code::WrongArity,
                format!("{count} names need a procedure that returns {count} values"),
            )
            .label(value.span, "this is a single value"),
        );
        vec![Ty::Error; count]
    }

    pub(super) fn call_proc(&mut self, proc: ProcId, name: &ast::Ident, args: &[Expr], span: Span) -> Vec<Ty> {
        match self.proc_state[proc as usize] {
            ProcState::NotStarted => {
                // Compile the callee first: its result types come from its returns.
                let saved_loops = std::mem::take(&mut self.f.loops);
                self.compile_user_proc(proc);
                self.f.loops = saved_loops;
            }
            ProcState::InProgress => {}
            ProcState::Done => {}
        }
        let params = self.proc_params[proc as usize].clone();
        if params.len() != args.len() {
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!("`{}` takes {} arguments, not {}", name.name, params.len(), args.len()),
                )
                .label(span, format!("{} given", args.len()))
                .label(self.def.procs[proc as usize].span, "declared here")
                .help(format!("call it as `{}({})`", name.name, self.param_names(proc))),
            );
        }
        for (arg, ty) in args.iter().zip(params.iter()) {
            self.expect(arg, ty);
        }
        self.emit(Op::Call(proc), span);
        if self.proc_state[proc as usize] == ProcState::InProgress {
            // Recursion: the result types are not known yet.
            let n = self.user_procs.get(&proc).map_or(0, |d| d.returns.len());
            return vec![Ty::Error; n];
        }
        self.proc_returns[proc as usize].clone()
    }

    /// A call used as a value: a hook, or a procedure with one result.
    pub(super) fn call_value(&mut self, name: &ast::Ident, args: &[Expr], span: Span) -> Ty {
        match self.globals.get(&name.name) {
            Some(Symbol::Hook(h)) => self.hook_call(h, name, args, span),
            Some(Symbol::Proc(p)) => {
                let returns = self.call_proc(p, name, args, span);
                if returns.len() == 1 {
                    returns[0].clone()
                } else {
                    self.error(
                        Diagnostic::error(
                            Code::WrongArity,
                            format!("`{}` returns {} values, not one", name.name, returns.len()),
                        )
                        .label(span, "used as a single value")
                        .help("receive them with `let (a, b) = ...`"),
                    );
                    Ty::Error
                }
            }
            other => {
                self.unknown_or_wrong(
                    &name.name,
                    name.span,
                    other,
                    "a hook or procedure",
                    "hooks or procedures",
                );
                Ty::Error
            }
        }
    }

    fn hook_call(&mut self, hook: u16, name: &ast::Ident, args: &[Expr], span: Span) -> Ty {
        let def = self.def.hooks[hook as usize].clone();
        if def.params.len() != args.len() {
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!(
                        "hook `{}` takes {} arguments, not {}",
                        name.name,
                        def.params.len(),
                        args.len()
                    ),
                )
                .label(span, format!("{} given", args.len()))
                .label(def.span, "declared here"),
            );
        }
        let mut kinds = vec![];
        for arg in args {
            let ty = self.expr(arg);
            kinds.push(match ty {
                Ty::Int | Ty::Error | Ty::Enum(_) => HookArg::Int,
                Ty::Bool => HookArg::Bool,
                Ty::Seat => HookArg::Player,
                Ty::Kind => HookArg::Kind,
                Ty::PieceType => HookArg::PieceType,
                Ty::Piece => HookArg::Piece,
                other => {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("{} cannot be passed to a hook", other.describe()),
                        )
                        .label(
                            arg.span,
                            "hooks take numbers, true/false, players, kinds, piece types and pieces",
                        ),
                    );
                    HookArg::Int
                }
            });
        }
        let id = self.next_id(self.def.hook_calls.len(), Table::HookCalls, span);
        self.def.hook_calls.push(ir::HookCall {
            hook,
            args: kinds,
            span,
        });
        self.emit(Op::CallHook(id), span);
        if def.returns_bool { Ty::Bool } else { Ty::Int }
    }
}
