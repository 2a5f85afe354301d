//! Statements: blocks and what can never run after them, `let`, `set`,
//! `if`, the loops, `return`, the moves of pieces and the ends of the game.

use super::{Compiler, LoopCtx};
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::Op;
use crate::syntax::ast::{self, Expr, Stmt, StmtKind};

impl Compiler {
    pub(super) fn unreachable(&mut self, span: Span, cause: Option<&Stmt>) {
        let mut diag = Diagnostic::error(Code::Unreachable, "this can never run").label(span, "unreachable");
        if let Some(cause) = cause {
            let why = match cause.kind {
                StmtKind::Loop(_) => "this loop has no `break`, so it never ends",
                StmtKind::Return(_) => "this returns first",
                StmtKind::Break => "this leaves the loop first",
                StmtKind::Win(_) | StmtKind::DeclareDraw(_) | StmtKind::EndGame => "this ends the game first",
                _ => "every path through this ends first",
            };
            diag = diag.label(cause.span, why);
        }
        self.error(diag.help("remove it, or give what comes before it a way to finish (e.g. a `break`)"));
    }

    /// Compiles a block; returns whether it never finishes normally.
    pub(super) fn block(&mut self, block: &ast::Block) -> bool {
        let scope = self.scope();
        let mut cause: Option<&Stmt> = None;
        let mut reported = false;
        for stmt in &block.stmts {
            if cause.is_some() && !reported {
                self.unreachable(stmt.span, cause);
                reported = true;
            }
            if self.stmt(stmt) && cause.is_none() {
                cause = Some(stmt);
            }
        }
        let diverges = cause.is_some();
        self.close_scope(scope);
        diverges
    }

    fn stmt(&mut self, stmt: &Stmt) -> bool {
        crate::syntax::deeper(|| self.stmt_node(stmt))
    }

    fn stmt_node(&mut self, stmt: &Stmt) -> bool {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Named { body, .. } => self.block(body),
            StmtKind::Let { names, value } => {
                if names.len() == 1 {
                    let ty = self.expr(value);
                    if matches!(ty, Ty::PerPlayer(_)) {
                        self.error(
                            Diagnostic::error(Code::TypeMismatch, "a per-player choice cannot be copied whole")
                                .label(value.span, "write `x of player 1`"),
                        );
                    }
                    let slot = self.local(&names[0].name, ty, 1);
                    self.emit(Op::Store(slot), span);
                } else {
                    let types = self.multi_call(value, names.len());
                    let slots: Vec<u16> = names
                        .iter()
                        .zip(types)
                        .map(|(n, ty)| self.local(&n.name, ty, 1))
                        .collect();
                    for slot in slots.into_iter().rev() {
                        self.emit(Op::Store(slot), span);
                    }
                }
                false
            }
            StmtKind::Set { target, value } => {
                self.assign(target, value, false, span);
                false
            }
            StmtKind::Add { amount, target } => {
                self.assign(target, amount, true, span);
                false
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expect(cond, &Ty::Bool);
                let to_else = self.emit(Op::JumpIfFalse(0), cond.span);
                let then_diverges = self.block(then);
                match otherwise {
                    None => {
                        let end = self.here();
                        self.patch(to_else, end);
                        false
                    }
                    Some(other) => {
                        let to_end = self.emit(Op::Jump(0), span);
                        let else_start = self.here();
                        self.patch(to_else, else_start);
                        let else_diverges = self.block(other);
                        let end = self.here();
                        self.patch(to_end, end);
                        then_diverges && else_diverges
                    }
                }
            }
            StmtKind::For { var, domain, body } => {
                self.for_loop(var, domain, span, false, &mut |c: &mut Compiler| {
                    c.block(body);
                });
                false
            }
            StmtKind::Loop(body) => {
                let start = self.here();
                self.f.loops.push(LoopCtx { breaks: vec![] });
                self.block(body);
                self.emit(Op::Jump(start), span);
                let ctx = self.f.loops.pop().unwrap();
                let end = self.here();
                let broke = !ctx.breaks.is_empty();
                for at in ctx.breaks {
                    self.patch(at, end);
                }
                !broke
            }
            StmtKind::While { cond, body } => {
                let start = self.here();
                self.expect(cond, &Ty::Bool);
                let exit = self.emit(Op::JumpIfFalse(0), cond.span);
                self.f.loops.push(LoopCtx { breaks: vec![exit] });
                self.block(body);
                self.emit(Op::Jump(start), span);
                self.close_loop();
                false
            }
            StmtKind::Repeat { times, body } => {
                let scope = self.scope();
                let count = self.temp();
                self.expect(times, &Ty::Int);
                self.emit(Op::Store(count), times.span);
                let start = self.here();
                self.emit(Op::Load(count), span);
                self.emit(Op::Push(0), span);
                self.emit(Op::Gt, span);
                let exit = self.emit(Op::JumpIfFalse(0), span);
                self.emit(Op::Load(count), span);
                self.emit(Op::Push(1), span);
                self.emit(Op::Sub, span);
                self.emit(Op::Store(count), span);
                self.f.loops.push(LoopCtx { breaks: vec![exit] });
                self.block(body);
                self.emit(Op::Jump(start), span);
                self.close_loop();
                self.close_scope(scope);
                false
            }
            StmtKind::Break => {
                if self.f.loops.is_empty() {
                    self.error(
                        Diagnostic::error(Code::MisplacedBreak, "`break` outside a loop")
                            .label(span, "there is no loop to leave here"),
                    );
                } else {
                    let at = self.emit(Op::Jump(0), span);
                    self.f.loops.last_mut().unwrap().breaks.push(at);
                }
                true
            }
            StmtKind::Return(values) => {
                self.return_stmt(values, span);
                true
            }
            StmtKind::ChooseEach { var, domain, secret } => {
                self.choose_each(var, domain, *secret, None, span);
                false
            }
            StmtKind::Race { var, domain, time } => {
                self.choose_each(var, domain, false, Some(time), span);
                false
            }
            StmtKind::Choose {
                who,
                var,
                domain,
                secret,
                otherwise,
            } => {
                let decision_index = self.def.decisions.len() as u16;
                let scope = self.scope();
                let seat = self.temp();
                self.expect(who, &Ty::Seat);
                self.emit(Op::Store(seat), who.span);
                self.emit(Op::ChoiceReset, span);
                let (choice_kind, elem) = self.offer(domain, seat, var, span);
                let to_else = otherwise.as_ref().map(|_| {
                    self.emit(Op::Load(seat), span);
                    self.emit(Op::HasOffers, span);
                    self.emit(Op::JumpIfFalse(0), span)
                });
                self.emit(Op::Load(seat), span);
                self.push_decision(var, choice_kind, *secret, false, domain, span);
                self.emit(Op::Ask(decision_index), span);
                self.close_scope(scope);
                let slot = self.local(&var.name, elem.clone(), 1);
                self.emit(Op::Store(slot), span);
                self.bind_none(domain, &elem, span);
                if let (Some(at), Some(block)) = (to_else, otherwise) {
                    // "The player that could not play a valid card": when
                    // nothing is on offer, the `else` block runs instead.
                    let to_end = self.emit(Op::Jump(0), span);
                    let here = self.here();
                    self.patch(at, here);
                    if !self.block(block) {
                        // After it, the chosen name would hold nothing.
                        self.error(
                            Diagnostic::error(
                                Code::ElseFallsThrough,
                                format!("`{}` has no value after this `else`", var.name),
                            )
                            .label(block.span, "this block can finish")
                            .help("end the `else` block with `break`, `return`, `win`, `declare draw` or `end game`"),
                        );
                    }
                    let end = self.here();
                    self.patch(to_end, end);
                }
                false
            }
            StmtKind::Draft { choosers, entries } => {
                self.draft(choosers, entries, span);
                false
            }
            StmtKind::Shuffle(zone) => {
                self.expect(zone, &Ty::Zone);
                self.emit(Op::Shuffle, span);
                false
            }
            StmtKind::Deal { count, from, to } => {
                self.expect(count, &Ty::Int);
                self.expect(from, &Ty::Zone);
                self.expect(to, &Ty::Zone);
                self.emit(Op::Deal, span);
                false
            }
            StmtKind::Move { what, to } => {
                self.expect(what, &Ty::Piece);
                self.expect(to, &Ty::Zone);
                self.emit(Op::Move, span);
                false
            }
            StmtKind::MoveAll { from, to } => {
                self.expect(from, &Ty::Zone);
                self.expect(to, &Ty::Zone);
                self.emit(Op::MoveAll, span);
                false
            }
            StmtKind::Reveal { pieces, to } => {
                for piece in pieces {
                    self.expect(piece, &Ty::Piece);
                    if let Some(to) = to {
                        self.expect(to, &Ty::Seat);
                    }
                    self.emit(Op::Reveal { to_one: to.is_some() }, piece.span);
                }
                false
            }
            StmtKind::Hide(pieces) => {
                for piece in pieces {
                    self.expect(piece, &Ty::Piece);
                    self.emit(Op::Hide, piece.span);
                }
                false
            }
            StmtKind::ChooseActions { who, actions } => {
                self.choose_actions(who, actions, span);
                false
            }
            StmtKind::Win(seat) => {
                self.expect(seat, &Ty::Seat);
                self.emit(Op::Win, span);
                true
            }
            StmtKind::DeclareDraw(reason) => {
                let reason = reason.as_ref().map(|r| self.fail_message(r.clone()));
                self.emit(Op::DeclareDraw(reason), span);
                true
            }
            StmtKind::EndGame => {
                self.emit(Op::EndGame, span);
                self.ends_game_to_result = true;
                true
            }
            StmtKind::Call { name, args } => {
                match self.globals.get(&name.name) {
                    Some(Symbol::Proc(p)) => {
                        let returns = self.call_proc(p, name, args, span);
                        for _ in 0..returns.len() {
                            self.emit(Op::Pop, span);
                        }
                    }
                    Some(Symbol::Hook(_)) => {
                        self.error(
                            Diagnostic::error(
                                Code::UnusedResult,
                                format!("the result of hook `{}` is thrown away", name.name),
                            )
                            .label(span, "a hook only answers a question")
                            .help("use it in a condition: `if hook(...) { ... }`"),
                        );
                    }
                    other => self.unknown_or_wrong(&name.name, name.span, other, "a procedure", "procedures"),
                }
                false
            }
        }
    }

    pub(super) fn close_loop(&mut self) {
        let ctx = self.f.loops.pop().unwrap();
        let end = self.here();
        for at in ctx.breaks {
            self.patch(at, end);
        }
    }

    fn return_stmt(&mut self, values: &[Expr], span: Span) {
        if self.f.is_main || self.f.returns.is_none() {
            self.error(
                Diagnostic::error(Code::MisplacedReturn, "`return` outside a procedure")
                    .label(span, "nothing to return to")
                    .help("to end the game use `win P`, `declare draw` or `end game`"),
            );
            return;
        }
        let expected = self.f.returns.as_ref().map_or(0, Vec::len);
        if values.len() != expected {
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!("this procedure returns {expected} values, not {}", values.len()),
                )
                .label(span, format!("{} values here", values.len())),
            );
            return;
        }
        for (i, value) in values.iter().enumerate() {
            let declared = self.f.returns.as_ref().and_then(|r| r[i].clone());
            let ty = match &declared {
                Some(t) => {
                    self.expect(value, t);
                    t.clone()
                }
                None => self.expr(value),
            };
            if let Some(returns) = self.f.returns.as_mut() {
                returns[i] = Some(ty);
            }
        }
        self.emit(Op::Return, span);
    }

    fn assign(&mut self, target: &ast::LValue, value: &Expr, add: bool, span: Span) {
        let name = &target.name;
        if target.index.is_none()
            && let Some(local) = self.f.locals.iter().rev().find(|l| l.name == name.name)
            && local.fixed
        {
            self.error(
                Diagnostic::error(
                    Code::ReadOnly,
                    format!("`{}` is the value a loop goes through", name.name),
                )
                .label(target.span, "the loop sets it; it cannot be set here")
                .help(format!("copy it first: `let mine = {}`", name.name)),
            );
            return;
        }
        if target.index.is_none()
            && let Some((slot, ty)) = self.find_local(&name.name)
        {
            if add {
                self.emit(Op::Load(slot), span);
                self.expect(value, &Ty::Int);
                self.emit(Op::Add, span);
            } else {
                self.expect(value, &ty);
            }
            self.emit(Op::Store(slot), span);
            return;
        }
        match self.globals.get(&name.name) {
            Some(Symbol::Var(var)) if self.def.vars[var as usize].constant => self.error(
                Diagnostic::error(Code::ReadOnly, format!("`{}` is a constant", name.name))
                    .label(target.span, "constants never change")
                    .help("declare it with `var` if it should change during the game"),
            ),
            Some(Symbol::Var(var)) => {
                let def = self.def.vars[var as usize].clone();
                let ty = if add {
                    Ty::Int
                } else {
                    self.var_types[var as usize].clone()
                };
                match (&target.index, def.per_player) {
                    (None, false) => {
                        if add {
                            self.emit(Op::LoadVar(def.slot), span);
                        }
                        self.expect(value, &ty);
                        if add {
                            self.emit(Op::Add, span);
                        }
                        self.emit(Op::StoreVar(def.slot), span);
                    }
                    (Some(index), true) => {
                        // The player is computed once, even when it is read and written.
                        let scope = self.scope();
                        let seat = self.temp();
                        self.expect(index, &Ty::Seat);
                        self.emit(Op::Store(seat), index.span);
                        if add {
                            self.emit(Op::Load(seat), span);
                            self.emit(Op::LoadVarAt(def.slot), span);
                        }
                        self.expect(value, &ty);
                        if add {
                            self.emit(Op::Add, span);
                        }
                        self.emit(Op::Load(seat), span);
                        self.emit(Op::StoreVarAt(def.slot), span);
                        self.close_scope(scope);
                    }
                    (None, true) => self.error(
                        Diagnostic::error(Code::MissingPlayer, format!("`{}` is kept per player", name.name))
                            .label(target.span, "whose?")
                            .help(format!("write `{} of <player>`", name.name)),
                    ),
                    (Some(index), false) => self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is one value, not one per player", name.name),
                        )
                        .label(index.span, "remove `of ...`"),
                    ),
                }
            }
            Some(Symbol::Option(_)) => self.error(
                Diagnostic::error(
                    Code::ReadOnly,
                    format!("option `{}` cannot be changed during the game", name.name),
                )
                .label(target.span, "options are fixed before the game starts")
                .help("declare a `var` to keep a value that changes"),
            ),
            other => self.unknown_or_wrong(&name.name, name.span, other, "a variable", "variables"),
        }
    }
}
