//! Statements: blocks and what can never run after them, `let`, `set`,
//! `if`, the loops, `return`, the moves of pieces and the ends of the game.

use super::actions::{Placeholder, placeholders};
use super::marks::ZoneUse;
use super::writer::JumpKind;
use super::{Compiler, LoopCtx};
use crate::check::ids::Table;
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{self, Op};
use crate::syntax::ast::{self, Expr, ExprKind, Stmt, StmtKind, UnOp};

impl Compiler {
    pub(super) fn unreachable(&mut self, span: Span, cause: Option<&Stmt>) {
        let mut diag = Diagnostic::error(Code::Unreachable, "this can never run").label(span, "unreachable");
        if let Some(cause) = cause {
            let why = match cause.kind {
                StmtKind::Loop(_) => "this loop has no `break`, so it never ends",
                StmtKind::Return(_) => "this returns first",
                StmtKind::Break => "this leaves the loop first",
                StmtKind::Win(..) | StmtKind::DeclareDraw(_) | StmtKind::EndGame => "this ends the game first",
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
        self.note_shuffles_after(&block.stmts);
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

    /// Compiles one statement; returns whether it never finishes normally
    /// (it returns, leaves its loop, ends the game or loops forever).
    fn stmt_node(&mut self, stmt: &Stmt) -> bool {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Named { kind, name, body } => {
                if *kind == ast::NamedKind::Phase {
                    self.phase_heading(name, span);
                }
                self.block(body)
            }
            StmtKind::Let { names, value } => {
                self.let_stmt(names, value, span);
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
            StmtKind::If { cond, then, otherwise } => self.if_stmt(cond, then, otherwise.as_ref(), span),
            StmtKind::For { var, domain, body } => {
                self.for_loop(var, domain, span, false, &mut |c: &mut Compiler| {
                    c.block(body);
                });
                false
            }
            StmtKind::Loop(body) => self.loop_stmt(body, span),
            StmtKind::While { cond, body } => {
                self.while_stmt(cond, body, span);
                false
            }
            StmtKind::Repeat { times, body } => {
                self.repeat_stmt(times, body, span);
                false
            }
            StmtKind::Break => {
                self.break_stmt(span);
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
                self.choose(who, var, domain, *secret, otherwise.as_ref(), span);
                false
            }
            StmtKind::Draft { choosers, entries } => {
                self.draft(choosers, entries, span);
                false
            }
            StmtKind::ChooseActions {
                who,
                actions,
                otherwise,
            } => {
                self.choose_actions(who, actions, otherwise.as_ref(), span);
                false
            }
            StmtKind::Shuffle(zone) => {
                self.zone_for(zone, ZoneUse::Target);
                self.emit(Op::Shuffle, span);
                false
            }
            StmtKind::Deal { count, from, to } => {
                self.deal_stmt(count, from, to, span);
                false
            }
            StmtKind::Move { what, to } => {
                self.expect(what, &Ty::Piece);
                self.zone_for(to, ZoneUse::Target);
                self.emit(Op::Move, span);
                false
            }
            StmtKind::MoveAll { from, to } => {
                self.move_all_stmt(from, to, stmt);
                false
            }
            StmtKind::Reveal { pieces, to } => {
                self.reveal_stmt(pieces, to.as_ref());
                false
            }
            StmtKind::Swap(a, b) => {
                self.swap_stmt(a, b, stmt);
                false
            }
            StmtKind::Say { text, text_span, to } => {
                self.say_stmt(text, *text_span, to.as_ref(), span);
                false
            }
            StmtKind::Hide(pieces) => {
                for piece in pieces {
                    self.expect(piece, &Ty::Piece);
                    self.emit(Op::Hide, piece.span);
                }
                false
            }
            StmtKind::Roll(die) => {
                self.expect(die, &Ty::Piece);
                self.emit(Op::Roll, span);
                false
            }
            StmtKind::RollAll(zone) => {
                self.expect(zone, &Ty::Zone);
                self.emit(Op::RollAll, span);
                false
            }
            StmtKind::Win(seat, reason) => {
                self.expect(seat, &Ty::Seat);
                let reason = reason.as_ref().map(|r| self.fail_message(r.clone(), span));
                self.emit(Op::Win(reason), span);
                true
            }
            StmtKind::DeclareDraw(reason) => {
                let reason = reason.as_ref().map(|r| self.fail_message(r.clone(), span));
                self.emit(Op::DeclareDraw(reason), span);
                true
            }
            StmtKind::EndGame => {
                self.emit(Op::EndGame, span);
                self.ends_game_to_result = true;
                true
            }
            StmtKind::Call { name, args } => {
                self.call_stmt(name, args, span);
                false
            }
        }
    }

    /// `deal N from Z to W`.
    fn deal_stmt(&mut self, count: &Expr, from: &Expr, to: &Expr, span: Span) {
        self.reads_order(from, span);
        self.expect_count(count, "deal");
        let into = self.family_named(to);
        self.zone_for(from, ZoneUse::Source(into));
        self.zone_for(to, ZoneUse::Target);
        // From `deal` to the last zone: a runtime error underlines the
        // statement, not the blank lines after it.
        self.emit(
            Op::Deal,
            Span {
                end: to.span.end,
                ..span
            },
        );
    }

    /// `let x = value`, or `let (a, b) = proc(...)` for a procedure's results.
    fn let_stmt(&mut self, names: &[ast::Ident], value: &Expr, span: Span) {
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
    }

    /// Returns whether both branches never finish (without `else`, the
    /// statement can always finish).
    fn if_stmt(&mut self, cond: &Expr, then: &ast::Block, otherwise: Option<&ast::Block>, span: Span) -> bool {
        let cond_at = self.here() as usize;
        self.expect(cond, &Ty::Bool);
        let cond_end = self.here() as usize;
        let to_else = self.emit_jump(JumpKind::IfFalse, cond.span);
        let then_diverges = self.block(then);
        let diverges = match otherwise {
            None => {
                self.patch_here(to_else);
                false
            }
            Some(other) => {
                let to_end = self.emit_jump(JumpKind::Always, span);
                self.patch_here(to_else);
                let else_diverges = self.block(other);
                self.patch_here(to_end);
                then_diverges && else_diverges
            }
        };
        self.note_leads(cond_at..cond_end);
        diverges
    }

    /// `loop { ... }`: returns whether it never ends (nothing breaks out).
    fn loop_stmt(&mut self, body: &ast::Block, span: Span) -> bool {
        let start = self.here();
        self.f.loops.push(LoopCtx { breaks: vec![] });
        self.block(body);
        self.emit_jump_back(JumpKind::Always, start, span);
        let broke = self.close_loop();
        !broke
    }

    fn while_stmt(&mut self, cond: &Expr, body: &ast::Block, span: Span) {
        let start = self.here();
        self.expect(cond, &Ty::Bool);
        let exit = self.emit_jump(JumpKind::IfFalse, cond.span);
        self.f.loops.push(LoopCtx { breaks: vec![exit] });
        self.block(body);
        self.emit_jump_back(JumpKind::Always, start, span);
        self.close_loop();
    }

    /// `repeat N times { ... }`: counts down a hidden local.
    fn repeat_stmt(&mut self, times: &Expr, body: &ast::Block, span: Span) {
        let scope = self.scope();
        let count = self.temp();
        self.expect_count(times, "repeat");
        self.emit(Op::Store(count), times.span);
        let start = self.here();
        self.emit(Op::Load(count), span);
        self.emit(Op::Push(0), span);
        self.emit(Op::Gt, span);
        let exit = self.emit_jump(JumpKind::IfFalse, span);
        self.emit(Op::Load(count), span);
        self.emit(Op::Push(1), span);
        self.emit(Op::Sub, span);
        self.emit(Op::Store(count), span);
        self.f.loops.push(LoopCtx { breaks: vec![exit] });
        self.block(body);
        self.emit_jump_back(JumpKind::Always, start, span);
        self.close_loop();
        self.close_scope(scope);
    }

    /// A count of `deal` or `repeat`: a number, and not one written below
    /// zero (a negative count would silently do nothing). A count computed
    /// while the game runs is checked then, by the engine.
    fn expect_count(&mut self, count: &Expr, what: &str) {
        self.expect(count, &Ty::Int);
        let written = match &count.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Unary { op: UnOp::Neg, operand } => match operand.kind {
                ExprKind::Int(n) => Some(-n),
                _ => None,
            },
            _ => None,
        };
        if let Some(n) = written.filter(|n| *n < 0) {
            self.error(
                Diagnostic::error(
                    Code::NegativeCount,
                    format!("`{what} {n}`: a count cannot be below zero"),
                )
                .label(count.span, "below zero")
                .help(format!(
                    "give a count of 0 or more, such as `{what} {}{}`",
                    -n,
                    if what == "repeat" { " times" } else { "" }
                )),
            );
        }
    }

    fn break_stmt(&mut self, span: Span) {
        if self.f.loops.is_empty() {
            self.error(
                Diagnostic::error(Code::MisplacedBreak, "`break` outside a loop")
                    .label(span, "there is no loop to leave here"),
            );
        } else {
            let out = self.emit_jump(JumpKind::Always, span);
            self.f.loops.last_mut().unwrap().breaks.push(out);
        }
    }

    fn reveal_stmt(&mut self, pieces: &[Expr], to: Option<&Expr>) {
        for piece in pieces {
            self.expect(piece, &Ty::Piece);
            if let Some(to) = to {
                self.expect(to, &Ty::Seat);
            }
            self.emit(Op::Reveal { to_one: to.is_some() }, piece.span);
        }
    }

    /// `move all of from to to`.
    fn move_all_stmt(&mut self, from: &Expr, to: &Expr, stmt: &Stmt) {
        self.carries_order(from, to, stmt);
        let into = self.family_named(to);
        self.zone_for(from, ZoneUse::Source(into));
        self.zone_for(to, ZoneUse::Target);
        self.emit(Op::MoveAll, stmt.span);
    }

    /// `swap a with b`: the pieces go both ways, each keeping its order, so
    /// each zone is read where the other is.
    fn swap_stmt(&mut self, a: &Expr, b: &Expr, stmt: &Stmt) {
        self.carries_order(a, b, stmt);
        self.carries_order(b, a, stmt);
        let (into_a, into_b) = (self.family_named(a), self.family_named(b));
        self.zone_for(a, ZoneUse::Source(into_b));
        self.zone_for(b, ZoneUse::Source(into_a));
        self.emit(Op::SwapZones, stmt.span);
    }

    /// `say "..." [to p]`: each `{name}` in the text is a name in scope (a
    /// `let`, a parameter, a loop's name, a variable), whose value the line
    /// shows, as a transcript shows that kind of value.
    fn say_stmt(&mut self, text: &str, text_span: Span, to: Option<&Expr>, span: Span) {
        let Ok(pieces) = placeholders(text) else {
            self.error(
                Diagnostic::error(Code::BadLabel, "a `{` in this line is never closed")
                    .label(text_span, "here")
                    .help("write `{name}` to show the value of a name, `{winner}`"),
            );
            return;
        };
        let mut parts = vec![];
        let mut values = vec![];
        // The text starts after the opening quote.
        let inside = text_span.start as usize + 1;
        for piece in pieces {
            match piece {
                Placeholder::Text(words) => parts.push(ir::LabelPart::Text(words.to_string())),
                Placeholder::Name(range) => {
                    let name = text[range.clone()].trim();
                    let at =
                        inside + range.start + (text[range.clone()].len() - text[range.clone()].trim_start().len());
                    let name_span = Span::new(text_span.file, at, at + name.len());
                    let value = Expr {
                        kind: ast::ExprKind::Name(ast::Ident {
                            name: name.to_string(),
                            span: name_span,
                        }),
                        span: name_span,
                    };
                    let ty = self.expr(&value);
                    let shown = match ty {
                        // A truth value reads as a word, as a menu of two.
                        Ty::Bool => ir::ChoiceKind::Menu(vec!["false".into(), "true".into()]),
                        Ty::Seat | Ty::Kind | Ty::Int | Ty::Piece | Ty::PieceType | Ty::Space(_) | Ty::Error => {
                            super::choice_kind_of(&ty)
                        }
                        other => {
                            self.error(
                                Diagnostic::error(
                                    Code::TypeMismatch,
                                    format!("a line cannot show `{{{name}}}`, which is {}", other.describe()),
                                )
                                .label(name_span, "shown here")
                                .help(
                                    "a `say` line shows players, numbers, truth values, kinds, pieces, piece types \
                                     and spaces; show what the zone holds instead, e.g. `size of` it in a `let`",
                                ),
                            );
                            ir::ChoiceKind::Number
                        }
                    };
                    parts.push(ir::LabelPart::Param(values.len().min(u8::MAX as usize) as u8));
                    values.push(shown);
                }
            }
        }
        if let Some(to) = to {
            self.expect(to, &Ty::Seat);
        }
        let line = self.next_id(self.def.says.len(), Table::SaidLines, span);
        self.def.says.push(ir::SayLine {
            parts,
            values,
            to_one: to.is_some(),
            opens_phase: false,
        });
        self.emit(Op::Say(line), span);
    }

    /// A `phase` begins: an event a transcript reads as the phase's
    /// heading ("--- round 2 ---"), so a reader sees where each round
    /// starts. A line said to everyone, for it is the flow's own.
    fn phase_heading(&mut self, name: &ast::Ident, span: Span) {
        let line = self.next_id(self.def.says.len(), Table::SaidLines, span);
        self.def.says.push(ir::SayLine {
            parts: vec![ir::LabelPart::Text(name.name.clone())],
            values: vec![],
            to_one: false,
            opens_phase: true,
        });
        self.emit(Op::Say(line), name.span);
    }

    /// A procedure called for what it does; its results are dropped.
    fn call_stmt(&mut self, name: &ast::Ident, args: &[Expr], span: Span) {
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
    }

    /// Ends the innermost loop here: every jump out of it lands after it.
    /// Returns whether anything jumped out.
    pub(super) fn close_loop(&mut self) -> bool {
        let ctx = self.f.loops.pop().expect("a loop is open");
        let jumped_out = !ctx.breaks.is_empty();
        self.patch_all_here(ctx.breaks);
        jumped_out
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
            Some(Symbol::Var(var)) if self.globals.reported_vars.contains(&var) => {
                // Its declaration was reported: check what is written, store nothing.
                if let Some(index) = &target.index {
                    self.expr(index);
                    self.emit(Op::Pop, span);
                }
                self.expr(value);
                self.emit(Op::Pop, span);
            }
            Some(Symbol::Var(var)) => {
                let def = self.def.vars[var as usize].clone();
                let ty = if add {
                    Ty::Int
                } else {
                    self.var_types[var as usize].clone()
                };
                match (&target.index, super::names::var_index_type(def.each)) {
                    (None, None) => {
                        if add {
                            self.emit(Op::LoadVar(def.slot), span);
                        }
                        self.expect(value, &ty);
                        if add {
                            self.emit(Op::Add, span);
                        }
                        self.emit(Op::StoreVar(def.slot), span);
                    }
                    (Some(index), Some(index_ty)) => {
                        // The player (space, piece) is computed once, even when it is read and written.
                        let scope = self.scope();
                        let seat = self.temp();
                        self.expect(index, &index_ty);
                        self.piece_alone(def.each, index.span);
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
                    (None, Some(_)) => self.error(self.var_without_index(&name.name, def.each, name.span)),
                    (Some(index), None) => self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is one value, not one per player, space or piece", name.name),
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
