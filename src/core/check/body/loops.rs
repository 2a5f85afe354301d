//! Going through a domain: ranges, boards, rings, `adjacent of`, kinds,
//! groups, players and pieces, for `for`, `sum` and offers.

use super::writer::JumpKind;
use super::{Compiler, LoopCtx, split_domain};
use crate::check::ids::Table;
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::ir::{self, MatchBy, Op};
use crate::syntax::ast::{self, Domain, Expr, ExprKind};

impl Compiler {
    fn domain_shape(&mut self, domain: &Domain) -> Shape {
        match domain {
            Domain::Where(inner, _) | Domain::OrNone(inner, ..) => self.domain_shape(inner),
            Domain::Range(..) => Shape::Range,
            Domain::Pieces { .. } => Shape::Pieces,
            Domain::Expr(e) if self.grid_domain(e).is_some() => Shape::Grid(self.grid_domain(e).expect("just matched")),
            Domain::Expr(e) => match &e.kind {
                ExprKind::Players => Shape::Players,
                ExprKind::Name(name) if self.find_local(&name.name).is_none() => match self.globals.get(&name.name) {
                    Some(Symbol::KindSet(s)) => Shape::Kinds(s),
                    Some(Symbol::Group(g)) => Shape::Types(g),
                    Some(Symbol::Board(b)) => Shape::Spaces(b),
                    Some(Symbol::SpaceGroup(b, g)) => {
                        let group = &self.def.boards[b as usize].groups[g as usize];
                        Shape::Run(b, group.first, group.len)
                    }
                    other => {
                        self.domain_error(e, other);
                        Shape::Invalid
                    }
                },
                ExprKind::Of { name, .. }
                    if name.name == "adjacent"
                        && self.find_local(&name.name).is_none()
                        && !self.globals.names.contains_key(&name.name) =>
                {
                    Shape::Adjacent
                }
                _ => {
                    self.domain_error(e, None);
                    Shape::Invalid
                }
            },
        }
    }

    fn domain_error(&mut self, e: &Expr, symbol: Option<Symbol>) {
        let text = self.def.sources.text(e.span).to_string();
        let what = symbol.map_or("", |s| s.describe());
        let message = if what.is_empty() {
            format!("cannot go through `{text}`")
        } else {
            format!("cannot go through `{text}`: it is {what}")
        };
        let mut diag = Diagnostic::error(Code::BadDomain, message)
            .label(e.span, "expected a set of values")
            .help("go through a kind set (`Hand`), `players`, a board, a ring, `adjacent of SPACE`, a group, a range `1..6`, or pieces: `Card in hand of player`");
        if symbol.is_none()
            && let ExprKind::Name(n) = &e.kind
            && !self.globals.names.contains_key(&n.name)
        {
            diag = Diagnostic::error(Code::UnknownName, format!("unknown name `{}`", n.name))
                .label(n.span, "not declared");
            if let Some(near) = nearest(&n.name, self.globals.all_names().collect::<Vec<_>>()) {
                diag = diag.help(format!("did you mean `{near}`?"));
            }
        }
        self.error(diag);
    }

    /// `for var in domain { body }`; returns what `var` holds. Pieces can
    /// only be gone through where nothing moves while the loop runs
    /// (`pieces_ok`: sums, offers, action parameters).
    pub(super) fn for_loop(
        &mut self,
        var: &ast::Ident,
        domain: &Domain,
        span: Span,
        pieces_ok: bool,
        body: &mut dyn FnMut(&mut Compiler),
    ) -> Ty {
        let (domain, cond, none) = split_domain(domain);
        if let Some(none) = none {
            self.error(
                Diagnostic::error(
                    Code::BadDomain,
                    format!("`, or {}` only makes sense in a choice", none.name),
                )
                .label(none.span, "a loop goes through every value")
                .help("remove it, or let a player choose: `P chooses x from ..., or none`"),
            );
        }
        // With `where`, the body runs only for the values that pass.
        let mut body = |c: &mut Compiler| match cond {
            None => body(c),
            Some(cond) => {
                c.expect(cond, &Ty::Bool);
                let skip = c.emit_jump(JumpKind::IfFalse, cond.span);
                body(c);
                c.patch_here(skip);
            }
        };
        let body = &mut body;
        let shape = self.domain_shape(domain);
        let scope = self.scope();
        let ty = match shape {
            Shape::Invalid => {
                // Still check the body, so its own mistakes are reported too.
                self.local(&var.name, Ty::Error, 1);
                body(self);
                Ty::Error
            }
            Shape::Pieces if !pieces_ok => {
                self.error(
                    Diagnostic::error(Code::BadDomain, "a `for` loop cannot go through pieces yet")
                        .label(span, "pieces may move while the loop runs")
                        .help("count them with `count ... in ...`, or let a player choose one"),
                );
                self.local(&var.name, Ty::Error, 1);
                body(self);
                Ty::Error
            }
            Shape::Pieces => {
                self.pieces_loop(var, domain, span, body);
                Ty::Piece
            }
            Shape::Spaces(_) | Shape::Range | Shape::Run(..) | Shape::Adjacent => {
                self.f.loops.push(LoopCtx { breaks: vec![] });
                let ty = self.index_loop(domain, &shape, span, &mut |c: &mut Compiler, value: u16, ty: &Ty| {
                    let inner = c.scope();
                    c.loop_value(&var.name, value, ty.clone());
                    body(c);
                    c.close_scope(inner);
                });
                self.close_loop();
                ty
            }
            Shape::Grid(grid) => {
                let Domain::Expr(e) = domain else {
                    unreachable!("grid domains are expressions")
                };
                self.grid_loop(grid, e, span, &mut |c: &mut Compiler, value: u16, ty: &Ty| {
                    let inner = c.scope();
                    c.loop_value(&var.name, value, ty.clone());
                    body(c);
                    c.close_scope(inner);
                })
            }
            Shape::Kinds(_) | Shape::Types(_) | Shape::Players => {
                let (count, map, ty) = match shape {
                    Shape::Kinds(s) => (
                        self.def.kind_sets[s as usize].members.len(),
                        Some(Op::KindAt(s)),
                        Ty::Kind,
                    ),
                    Shape::Types(g) => (
                        self.def.groups[g as usize].types.len(),
                        Some(Op::TypeAt(g)),
                        Ty::PieceType,
                    ),
                    _ => (self.def.players(), None, Ty::Seat),
                };
                let index = self.temp();
                self.emit(Op::Push(0), span);
                self.emit(Op::Store(index), span);
                let top = self.here();
                self.emit(Op::Load(index), span);
                self.emit(Op::Push(count as i64), span);
                self.emit(Op::Lt, span);
                let exit = self.emit_jump(JumpKind::IfFalse, span);
                let slot = self.local(&var.name, ty.clone(), 1);
                self.emit(Op::Load(index), span);
                if let Some(map) = map {
                    self.emit(map, span);
                }
                self.emit(Op::Store(slot), span);
                self.f.loops.push(LoopCtx { breaks: vec![exit] });
                body(self);
                self.emit(Op::Load(index), span);
                self.emit(Op::Push(1), span);
                self.emit(Op::Add, span);
                self.emit(Op::Store(index), span);
                self.emit_jump_back(JumpKind::Always, top, span);
                self.close_loop();
                ty
            }
        };
        self.close_scope(scope);
        ty
    }

    /// A loop over a range, a board's spaces, a run of spaces or the spaces
    /// next to one; `body` gets the local holding the current value and its
    /// type, which is also returned.
    fn index_loop(
        &mut self,
        domain: &Domain,
        shape: &Shape,
        span: Span,
        body: &mut dyn FnMut(&mut Compiler, u16, &Ty),
    ) -> Ty {
        let scope = self.scope();
        let value = self.temp();
        let ty = match (shape, domain) {
            (
                Shape::Adjacent,
                Domain::Expr(Expr {
                    kind: ExprKind::Of { arg, .. },
                    ..
                }),
            ) => {
                let ty = self.adjacent_loop(arg, value, span, body);
                self.close_scope(scope);
                return ty;
            }
            (Shape::Range, Domain::Range(low, high)) => {
                let last = self.temp();
                self.expect(low, &Ty::Int);
                self.emit(Op::Push(1), low.span);
                self.emit(Op::Sub, low.span);
                self.emit(Op::Store(value), low.span);
                self.expect(high, &Ty::Int);
                self.emit(Op::Store(last), high.span);
                (Ty::Int, last)
            }
            (Shape::Spaces(b), _) => {
                let spaces = self.def.boards[*b as usize].spaces();
                (Ty::Space(*b), self.space_bounds(value, 0, spaces, span))
            }
            (Shape::Run(b, first, len), _) => (Ty::Space(*b), self.space_bounds(value, *first, *len, span)),
            _ => unreachable!("index loops run over ranges and spaces"),
        };
        let (ty, last) = ty;
        let top = self.here();
        let exit = self.emit_loop_step(Op::Next { value, last, exit: 0 }, span);
        body(self, value, &ty);
        self.emit_jump_back(JumpKind::Always, top, span);
        self.patch_here(exit);
        self.close_scope(scope);
        ty
    }

    /// Starts `value` before `first` and returns the local holding the last space.
    fn space_bounds(&mut self, value: u16, first: u16, len: u16, span: Span) -> u16 {
        let last = self.temp();
        self.emit(Op::Push(first as i64 - 1), span);
        self.emit(Op::Store(value), span);
        self.emit(Op::Push(first as i64 + len as i64 - 1), span);
        self.emit(Op::Store(last), span);
        last
    }

    /// `adjacent of space`: the spaces it touches, in board order.
    fn adjacent_loop(
        &mut self,
        arg: &Expr,
        value: u16,
        span: Span,
        body: &mut dyn FnMut(&mut Compiler, u16, &Ty),
    ) -> Ty {
        let board = match self.expr(arg) {
            Ty::Space(b) => b,
            Ty::Error => {
                body(self, value, &Ty::Error);
                return Ty::Error;
            }
            other => {
                let text = self.def.sources.text(arg.span).to_string();
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`adjacent of` needs a space, but `{text}` is {}", other.describe()),
                    )
                    .label(arg.span, format!("this is {}", other.describe()))
                    .help("name a space: `adjacent of centre`, `adjacent of space of stone`"),
                );
                body(self, value, &Ty::Error);
                return Ty::Error;
            }
        };
        let from = self.temp();
        self.emit(Op::Store(from), arg.span);
        self.emit(Op::Push(-1), span);
        self.emit(Op::Store(value), span);
        let top = self.here();
        let exit = self.emit_loop_step(
            Op::NextNeighbour {
                board,
                from,
                value,
                exit: 0,
            },
            span,
        );
        let ty = Ty::Space(board);
        body(self, value, &ty);
        self.emit_jump_back(JumpKind::Always, top, span);
        self.patch_here(exit);
        ty
    }

    /// The pieces of a zone (top first) or on a board (space by space) that
    /// match a filter. The filter's player or kind is computed once, before
    /// the loop: nothing moves while such a loop runs.
    fn pieces_loop(&mut self, var: &ast::Ident, domain: &Domain, span: Span, body: &mut dyn FnMut(&mut Compiler)) {
        let Domain::Pieces {
            filter,
            place,
            cond,
            wild,
        } = domain
        else {
            unreachable!("only a pieces domain has the pieces shape")
        };
        if let Some((wild_filter, _)) = wild {
            self.error(
                Diagnostic::error(Code::BadDomain, "`with ... as each ...` only makes sense in a choice")
                    .label(wild_filter.span, "a loop goes through the pieces as they are"),
            );
        }
        let matcher = self.matcher(filter);
        let owner = self.temp();
        let key = self.temp();
        if matcher.owner {
            self.emit(Op::Store(owner), filter.span);
        }
        if matches!(matcher.by, MatchBy::TypeOnStack | MatchBy::KindOnStack) {
            self.emit(Op::Store(key), filter.span);
        }
        let filter = self.next_id(self.def.filters.len(), Table::PieceFilters, filter.span);
        self.def.filters.push(ir::PieceFilter { matcher, key, owner });
        let piece = self.temp();
        let step = match place {
            ast::PiecePlace::Zone(zone) => {
                let zone_slot = self.temp();
                let index = self.temp();
                self.expect(zone, &Ty::Zone);
                self.emit(Op::Store(zone_slot), zone.span);
                self.emit(Op::Push(-1), span);
                self.emit(Op::Store(index), span);
                Op::NextPiece {
                    zone: zone_slot,
                    index,
                    value: piece,
                    filter,
                    exit: 0,
                }
            }
            ast::PiecePlace::Board(board) => {
                let board = match self.globals.get(&board.name) {
                    Some(Symbol::Board(b)) => b,
                    other => {
                        self.unknown_or_wrong(&board.name, board.span, other, "a board", "boards");
                        0
                    }
                };
                let cursor = self.temp();
                self.emit(Op::Push(-1), span);
                self.emit(Op::Store(cursor), span);
                Op::NextOnBoard {
                    board,
                    cursor,
                    value: piece,
                    filter,
                    exit: 0,
                }
            }
        };
        let top = self.here();
        let exit = self.emit_loop_step(step, span);
        let inner = self.scope();
        self.loop_value(&var.name, piece, Ty::Piece);
        if let Some(cond) = cond {
            // A piece that fails the condition goes straight to the next one.
            self.expect(cond, &Ty::Bool);
            self.emit_jump_back(JumpKind::IfFalse, top, cond.span);
        }
        self.f.loops.push(LoopCtx { breaks: vec![exit] });
        body(self);
        self.close_scope(inner);
        self.emit_jump_back(JumpKind::Always, top, span);
        self.close_loop();
    }
}

#[derive(Clone, Copy)]
enum Shape {
    Kinds(u16),
    Types(u16),
    Players,
    /// Every space of a board.
    Spaces(u16),
    /// A ring or a single space: (board, first space, length).
    Run(u16, u16, u16),
    /// `adjacent of SPACE`
    Adjacent,
    Range,
    Pieces,
    /// `directions`, `forwards of P`, or one space (`here + north`).
    Grid(super::grid::GridDomain),
    Invalid,
}
