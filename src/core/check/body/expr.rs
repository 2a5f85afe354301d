//! Expressions: literals, operators, counts, tables, `if ... then ... else`,
//! and the filters that pick out pieces.

use super::Compiler;
use super::writer::JumpKind;
use crate::check::ids::Table;
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::ir::{FamilyIndex, MatchBy, Matcher, Op, OptionType};
use crate::syntax::ast::{self, BinOp, Expr, ExprKind, Quantifier, UnOp};

impl Compiler {
    pub(super) fn expect(&mut self, e: &Expr, wanted: &Ty) {
        let ty = self.expr(e);
        self.mismatch(e, &ty, wanted);
    }

    /// Reports `e`, of type `ty`, where `wanted` is expected (if it does not fit).
    pub(super) fn mismatch(&mut self, e: &Expr, ty: &Ty, wanted: &Ty) {
        let ty = ty.clone();
        if !ty.fits(wanted) {
            let text = self.def.sources.text(e.span).to_string();
            // Two spaces of different boards are told apart by their boards' names.
            let (wanted_is, ty_is) = match (wanted, &ty) {
                (Ty::Space(a), Ty::Space(b)) => {
                    let of = |board: &u16| format!("a space of `{}`", self.def.boards[*board as usize].name);
                    (of(a), of(b))
                }
                _ => (wanted.describe(), ty.describe()),
            };
            let mut diag = Diagnostic::error(
                Code::TypeMismatch,
                format!("expected {wanted_is}, but `{text}` is {ty_is}"),
            )
            .label(e.span, format!("this is {ty_is}"));
            if *wanted == Ty::Seat && ty != Ty::Seat {
                diag = diag.help("name a player: `player 1`, a seat name, or a name such as `winner`");
            } else if *wanted == Ty::Piece && ty == Ty::Zone {
                diag = diag.help(format!("take a piece from the zone: `top of {text}`"));
            } else if *wanted == Ty::Zone && ty == Ty::Piece {
                diag = diag.help("name a zone, such as `hand of player`");
            }
            self.error(diag);
        }
    }

    pub(super) fn expr(&mut self, e: &Expr) -> Ty {
        crate::syntax::deeper(|| self.expr_node(e))
    }

    fn expr_node(&mut self, e: &Expr) -> Ty {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(i) => {
                self.emit(Op::Push(*i), span);
                Ty::Int
            }
            ExprKind::Bool(b) => {
                self.emit(Op::Push(i64::from(*b)), span);
                Ty::Bool
            }
            ExprKind::Str(_) => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "text is only used for labels")
                        .label(span, "a string is not a value in the flow")
                        .help("name things directly: `Card`, not `\"Card\"`"),
                );
                Ty::Error
            }
            ExprKind::Seat(n) => {
                let players = self.def.players() as i64;
                if *n < 1 || *n > players {
                    self.error(
                        Diagnostic::error(Code::NoSuchPlayer, format!("there is no player {n}"))
                            .label(span, format!("players are numbered 1 to {players}")),
                    );
                    return Ty::Error;
                }
                self.emit(Op::Push(n - 1), span);
                Ty::Seat
            }
            ExprKind::SeatAt(number) => {
                self.expect(number, &Ty::Int);
                // Seats are 0 to players - 1 on the stack; `player (1)` is seat 0.
                self.emit(Op::Push(1), span);
                self.emit(Op::Sub, span);
                self.round_the_table(span);
                Ty::Seat
            }
            ExprKind::CurrentPlayer => match self.f.current_player {
                Some(slot) => {
                    self.emit(Op::Load(slot), span);
                    Ty::Seat
                }
                None => {
                    self.error(
                        Diagnostic::error(
                            Code::NoCurrentPlayer,
                            "`player` alone names the player being scored or choosing",
                        )
                        .label(span, "there is no such player here")
                        .help("say which player: `player 1`, `actor`, `winner`"),
                    );
                    Ty::Error
                }
            },
            ExprKind::Players => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "`players` is a set, not a value")
                        .label(span, "use it in `for p in players` or `chooses x from players`"),
                );
                Ty::Error
            }
            ExprKind::TotalScore => self.total_score(span),
            ExprKind::Name(name) => self.name(name),
            ExprKind::Of { name, arg } => self.of(name, arg, span),
            ExprKind::Call { name, args } => self.call_value(name, args, span),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span),
            ExprKind::Unary { op, operand } => {
                let wanted = if *op == UnOp::Not { Ty::Bool } else { Ty::Int };
                self.expect(operand, &wanted);
                self.emit(if *op == UnOp::Not { Op::Not } else { Op::Neg }, span);
                wanted
            }
            ExprKind::Count { filter, zone } => {
                let matcher = self.matcher(filter);
                self.expect(zone, &Ty::Zone);
                self.emit(Op::Count(matcher), span);
                Ty::Int
            }
            ExprKind::CountOnBoard { filter, board } => self.count_on_board(filter, board, span),
            ExprKind::CountMatching { filters, place } => self.count_matching(filters, place, span),
            ExprKind::CountInGame { filter } => self.count_in_game(filter, span),
            ExprKind::SpaceAt { group, index } => self.space_at(group, index, span),
            ExprKind::First { filter, zone } => {
                self.reads_order(zone, span);
                let matcher = self.matcher(filter);
                self.expect(zone, &Ty::Zone);
                self.emit(Op::First(matcher), span);
                Ty::Piece
            }
            ExprKind::Lines { filter, slot, board } => self.lines(filter, slot, board, span),
            ExprKind::Sum { var, domain, body } => self.sum(var, domain, body, span),
            ExprKind::Quantified {
                quantifier,
                var,
                domain,
                body,
            } => self.quantified(*quantifier, var, domain, body.as_deref(), span),
            ExprKind::Table { table, index } => self.table_at(table, index, span),
            ExprKind::If { cond, then, otherwise } => self.if_expr(cond, then, otherwise, span),
            ExprKind::CellAt { board, row, column } => self.cell_at(board, row, column, span),
            ExprKind::LongestRun { filter, slot, board } => self.longest_run(filter, slot, board, span),
            ExprKind::Chain {
                filter,
                slot,
                board,
                edges,
            } => self.chain(filter, slot, board, edges, span),
            ExprKind::Exists(space) => self.exists(space, span),
        }
    }

    /// `score` in a rank key: the sum of the score terms that apply,
    /// tie-breakers left out (they are not points).
    fn total_score(&mut self, span: Span) -> Ty {
        let Some(player) = self.f.current_player.filter(|_| self.f.rank_context) else {
            self.error(
                Diagnostic::error(Code::MisplacedScore, "`score` is only known in the `result` section")
                    .label(span, "not known here"),
            );
            return Ty::Error;
        };
        self.emit(Op::Push(0), span);
        for term in self.def.score_terms.clone() {
            if term.tie_breaker {
                continue;
            }
            let skip = term.when.map(|when| {
                self.emit(Op::Call(when), span);
                self.emit_jump(JumpKind::IfFalse, span)
            });
            self.emit(Op::Load(player), span);
            self.emit(Op::Call(term.proc), span);
            self.emit(Op::Add, span);
            if let Some(at) = skip {
                self.patch_here(at);
            }
        }
        Ty::Int
    }

    fn count_on_board(&mut self, filter: &ast::Filter, board: &ast::Ident, span: Span) -> Ty {
        let board_id = match self.globals.get(&board.name) {
            Some(Symbol::Board(b)) => Some(b),
            other => {
                self.unknown_or_wrong(&board.name, board.span, other, "a board", "boards");
                None
            }
        };
        let matcher = self.matcher(filter);
        if let Some(board) = board_id {
            self.emit(Op::CountOnBoard { board, matcher }, span);
        }
        Ty::Int
    }

    /// `count Gem`: every matching piece in the game. A zone in the
    /// filter's place is most likely a count with its filter left out
    /// (`count claimed of p`), so the help says how to count a zone.
    fn count_in_game(&mut self, filter: &ast::Filter, span: Span) -> Ty {
        let name = &filter.name;
        let zone_local = self.find_local(&name.name).is_some_and(|(_, ty)| ty == Ty::Zone);
        let zone_global =
            self.find_local(&name.name).is_none() && matches!(self.globals.get(&name.name), Some(Symbol::Family(_)));
        if zone_local || zone_global {
            let whole = match &filter.owner {
                Some(owner) => format!("{} of {}", name.name, self.def.sources.text(owner.span)),
                None => name.name.clone(),
            };
            self.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    format!("`count` needs pieces to count, but `{}` is a zone", name.name),
                )
                .label(name.span, "a zone, not a piece type, a group or a kind")
                .help(format!(
                    "`count X` alone counts every X in the game; to count a zone's pieces, write \
                     `size of {whole}`, or name which ones: `count Piece in {whole}`"
                )),
            );
            return Ty::Int;
        }
        let matcher = self.matcher(filter);
        self.emit(Op::CountInGame(matcher), span);
        Ty::Int
    }

    /// `outer[i]`: space `i` (from 0) of a ring, or of a whole board.
    fn space_at(&mut self, group: &ast::Ident, index: &Expr, span: Span) -> Ty {
        let run = match self.globals.get(&group.name) {
            Some(Symbol::SpaceGroup(b, g)) => {
                let run = &self.def.boards[b as usize].groups[g as usize];
                Some((b, run.first, run.len))
            }
            Some(Symbol::Board(b)) => Some((b, 0, self.def.boards[b as usize].spaces())),
            other => {
                self.unknown_or_wrong(&group.name, group.span, other, "a ring or a board", "rings");
                None
            }
        };
        self.expect(index, &Ty::Int);
        match run {
            Some((board, first, len)) => {
                self.emit(Op::SpaceIn { first, len }, span);
                Ty::Space(board)
            }
            None => Ty::Error,
        }
    }

    /// The board named `board` and its slot named `slot`, or `None` once
    /// either is reported (`what` says what kind of board is wanted).
    pub(super) fn board_slot(&mut self, slot: &ast::Ident, board: &ast::Ident, what: &str) -> Option<(u16, u16)> {
        let board_id = match self.globals.get(&board.name) {
            Some(Symbol::Board(b)) => b,
            other => {
                self.unknown_or_wrong(&board.name, board.span, other, what, "boards");
                return None;
            }
        };
        match self.globals.get(&slot.name) {
            Some(Symbol::Family(f)) if self.def.families[f as usize].by == FamilyIndex::PerSpace(board_id) => {
                Some((board_id, f))
            }
            other => {
                self.unknown_or_wrong(
                    &slot.name,
                    slot.span,
                    other,
                    &format!("a slot of board `{}`", board.name),
                    "slots",
                );
                None
            }
        }
    }

    /// How many lines of the board the matching pieces in its slot complete.
    fn lines(&mut self, filter: &ast::Filter, slot: &ast::Ident, board: &ast::Ident, span: Span) -> Ty {
        let Some((board_id, family)) = self.board_slot(slot, board, "a board") else {
            return Ty::Error;
        };
        let matcher = self.matcher(filter);
        self.emit(
            Op::Lines {
                board: board_id,
                family,
                matcher,
            },
            span,
        );
        Ty::Int
    }

    fn sum(&mut self, var: &ast::Ident, domain: &ast::Domain, body: &Expr, span: Span) -> Ty {
        let scope = self.scope();
        let total = self.temp();
        self.emit(Op::Push(0), span);
        self.emit(Op::Store(total), span);
        self.for_loop(var, domain, span, true, &mut |c: &mut Compiler| {
            c.emit(Op::Load(total), span);
            c.expect(body, &Ty::Int);
            c.emit(Op::Add, span);
            c.emit(Op::Store(total), span);
        });
        self.emit(Op::Load(total), span);
        self.close_scope(scope);
        Ty::Int
    }

    /// `count A, B in Z`: a loop over the pieces matching `A` there,
    /// counting those that match every other filter too.
    fn count_matching(&mut self, filters: &[ast::Filter], place: &ast::PiecePlace, span: Span) -> Ty {
        let Some((first, others)) = filters.split_first() else {
            return Ty::Int;
        };
        let scope = self.scope();
        let total = self.temp();
        self.emit(Op::Push(0), span);
        self.emit(Op::Store(total), span);
        // A name no rules file can write: the loop's piece.
        let piece = ast::Ident {
            name: "(the piece counted)".into(),
            span,
        };
        let domain = ast::Domain::Pieces {
            filter: first.clone(),
            place: place.clone(),
            cond: None,
            wild: None,
        };
        self.for_loop(&piece, &domain, span, true, &mut |c: &mut Compiler| {
            let Some((slot, _)) = c.find_local(&piece.name) else {
                return;
            };
            let mut misses = vec![];
            for filter in others {
                let matcher = c.matcher(filter);
                c.emit(Op::Load(slot), filter.span);
                c.emit(Op::Matches(matcher), filter.span);
                misses.push(c.emit_jump(JumpKind::IfFalse, filter.span));
            }
            c.emit(Op::Load(total), span);
            c.emit(Op::Push(1), span);
            c.emit(Op::Add, span);
            c.emit(Op::Store(total), span);
            for miss in misses {
                c.patch_here(miss);
            }
        });
        self.emit(Op::Load(total), span);
        self.close_scope(scope);
        Ty::Int
    }

    /// `any`/`all`/`no x in D { cond }`: the members are tested in the
    /// domain's order until one decides (`any` and `no` stop at the first
    /// that holds, `all` at the first that does not); the rest are passed
    /// over untested, so a condition that would fail on a later member
    /// fails only when that member is reached.
    fn quantified(
        &mut self,
        quantifier: Quantifier,
        var: &ast::Ident,
        domain: &ast::Domain,
        body: Option<&Expr>,
        span: Span,
    ) -> Ty {
        if body.is_none() && quantifier == Quantifier::All {
            self.error(
                Diagnostic::error(Code::Syntax, "`all` needs the condition every member must meet")
                    .label(span, "every member of what?")
                    .help(format!(
                        "write the condition in braces after the domain: `all {} in ... {{ CONDITION }}` (a `where` \
                         only chooses which members are asked)",
                        var.name
                    )),
            );
            return Ty::Error;
        }
        let scope = self.scope();
        let open = self.temp();
        // `open`: whether no member has decided yet.
        self.emit(Op::Push(1), span);
        self.emit(Op::Store(open), span);
        self.for_loop(var, domain, span, true, &mut |c: &mut Compiler| {
            c.emit(Op::Load(open), span);
            let decided = c.emit_jump(JumpKind::IfFalse, span);
            match body {
                Some(body) => {
                    c.expect(body, &Ty::Bool);
                    // `any` and `no` are decided by a member that holds, `all` by one that does not.
                    if quantifier != Quantifier::All {
                        c.emit(Op::Not, span);
                    }
                }
                // No condition (`any` or `no`): a member the domain keeps decides.
                None => c.emit(Op::Push(0), span),
            }
            c.emit(Op::Store(open), span);
            c.patch_here(decided);
        });
        self.emit(Op::Load(open), span);
        // `all` and `no` hold when nothing decided; `any` when something did.
        if quantifier == Quantifier::Any {
            self.emit(Op::Not, span);
        }
        self.close_scope(scope);
        Ty::Bool
    }

    /// The number on the stack brought into the seats, 0 to players - 1,
    /// counting round the table both ways: `(n % players + players) % players`.
    fn round_the_table(&mut self, span: Span) {
        let players = self.def.players() as i64;
        self.emit(Op::Push(players), span);
        self.emit(Op::Rem, span);
        self.emit(Op::Push(players), span);
        self.emit(Op::Add, span);
        self.emit(Op::Push(players), span);
        self.emit(Op::Rem, span);
    }

    /// `table [...] at i`, a named table or a list option at an index.
    fn table_at(&mut self, table: &ast::TableRef, index: &Expr, span: Span) -> Ty {
        let op = match table {
            ast::TableRef::Inline(values) => {
                let id = self.next_id(self.def.tables.len(), Table::Tables, span);
                self.def.tables.push(values.clone());
                Some(Op::Table(id))
            }
            ast::TableRef::Named(name) => match self.globals.get(&name.name) {
                Some(Symbol::Table(t)) => Some(Op::Table(t)),
                Some(Symbol::Option(o)) if matches!(self.def.options[o as usize].ty, OptionType::IntList { .. }) => {
                    Some(Op::OptionTable(o))
                }
                other => {
                    self.unknown_or_wrong(&name.name, name.span, other, "a table or a list option", "tables");
                    None
                }
            },
        };
        match op {
            // `table worth at kind of card`: entry `kind + 1` of the values
            // the table holds for every kind, by kind id.
            Some(Op::Table(t)) if self.globals.keyed_tables.contains_key(&t) => {
                let ty = self.expr(index);
                if ty != Ty::Kind && ty != Ty::Error {
                    let set = self.globals.keyed_tables[&t];
                    let set = self.def.kind_sets[set as usize].name.clone();
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("this table is looked up by a kind of `{set}`"),
                        )
                        .label(index.span, format!("this is {}", ty.describe()))
                        .help(format!(
                            "look it up with a kind, such as `kind of card`, or a kind of `{set}` by name"
                        )),
                    );
                }
                self.emit(Op::Push(1), span);
                self.emit(Op::Add, span);
                self.emit(Op::Table(t), span);
            }
            _ => {
                self.expect(index, &Ty::Int);
                if let Some(op) = op {
                    self.emit(op, span);
                }
            }
        }
        Ty::Int
    }

    fn if_expr(&mut self, cond: &Expr, then: &Expr, otherwise: &Expr, span: Span) -> Ty {
        self.expect(cond, &Ty::Bool);
        let to_else = self.emit_jump(JumpKind::IfFalse, cond.span);
        let ty = self.expr(then);
        let to_end = self.emit_jump(JumpKind::Always, span);
        self.patch_here(to_else);
        self.expect(otherwise, &ty);
        self.patch_here(to_end);
        ty
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, span: Span) -> Ty {
        match op {
            BinOp::And | BinOp::Or => {
                self.expect(lhs, &Ty::Bool);
                self.emit(Op::Dup, span);
                // The left side alone decides when it is false for `and`,
                // true for `or`; it is then the result.
                let decided = if op == BinOp::And {
                    JumpKind::IfFalse
                } else {
                    JumpKind::IfTrue
                };
                let short = self.emit_jump(decided, span);
                self.emit(Op::Pop, span);
                self.expect(rhs, &Ty::Bool);
                self.patch_here(short);
                Ty::Bool
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                let left = self.expr(lhs);
                if let (BinOp::Add, Ty::Space(board)) = (op, &left) {
                    return self.step(*board, rhs, span);
                }
                if let (BinOp::Add, Ty::Zone) = (op, &left) {
                    return self.step_from_zone(lhs, rhs);
                }
                // `p + 1`: the player one seat after `p`, round the table.
                if let (BinOp::Add | BinOp::Sub, Ty::Seat) = (op, &left) {
                    self.expect(rhs, &Ty::Int);
                    self.emit(if op == BinOp::Add { Op::Add } else { Op::Sub }, span);
                    self.round_the_table(span);
                    return Ty::Seat;
                }
                self.mismatch(lhs, &left, &Ty::Int);
                self.expect(rhs, &Ty::Int);
                self.emit(
                    match op {
                        BinOp::Add => Op::Add,
                        BinOp::Sub => Op::Sub,
                        BinOp::Mul => Op::Mul,
                        BinOp::Div => Op::Div,
                        _ => Op::Rem,
                    },
                    span,
                );
                Ty::Int
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect(lhs, &Ty::Int);
                self.expect(rhs, &Ty::Int);
                self.emit(
                    match op {
                        BinOp::Lt => Op::Lt,
                        BinOp::Le => Op::Le,
                        BinOp::Gt => Op::Gt,
                        _ => Op::Ge,
                    },
                    span,
                );
                Ty::Bool
            }
            BinOp::Beats => {
                self.expect(lhs, &Ty::Kind);
                self.expect(rhs, &Ty::Kind);
                self.emit(Op::Beats, span);
                Ty::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                let left = self.expr(lhs);
                let right = match (&left, &rhs.kind) {
                    (Ty::Enum(o), ExprKind::Name(n)) if self.find_local(&n.name).is_none() => {
                        let OptionType::Enum(names) = &self.def.options[*o as usize].ty else {
                            unreachable!()
                        };
                        match names.iter().position(|v| *v == n.name) {
                            Some(i) => {
                                self.emit(Op::Push(i as i64), rhs.span);
                                left.clone()
                            }
                            None => {
                                let option = self.def.options[*o as usize].name.clone();
                                let mut diag = Diagnostic::error(
                                    Code::UnknownName,
                                    format!("option `{option}` has no value `{}`", n.name),
                                )
                                .label(rhs.span, format!("expected one of {}", names.join(", ")));
                                if let Some(near) = nearest(&n.name, names.iter().map(String::as_str)) {
                                    diag = diag.help(format!("did you mean `{near}`?"));
                                }
                                self.error(diag);
                                Ty::Error
                            }
                        }
                    }
                    _ => self.expr(rhs),
                };
                if !right.fits(&left) || matches!(left, Ty::PerPlayer(_)) {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("cannot compare {} with {}", left.describe(), right.describe()),
                        )
                        .label(lhs.span, left.describe())
                        .label(rhs.span, right.describe()),
                    );
                }
                self.emit(if op == BinOp::Eq { Op::Eq } else { Op::Ne }, span);
                Ty::Bool
            }
        }
    }

    /// Compiles a filter's stack arguments and returns its matcher.
    pub(super) fn matcher(&mut self, filter: &ast::Filter) -> Matcher {
        let name = &filter.name;
        let by = if let Some((slot, ty)) = self.find_local(&name.name) {
            match ty {
                Ty::PieceType => {
                    self.emit(Op::Load(slot), name.span);
                    MatchBy::TypeOnStack
                }
                Ty::Kind => {
                    self.emit(Op::Load(slot), name.span);
                    MatchBy::KindOnStack
                }
                other => {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is {}, so it cannot pick out pieces", name.name, other.describe()),
                        )
                        .label(name.span, "expected a piece type, a group or a kind"),
                    );
                    MatchBy::Any
                }
            }
        } else {
            match self.globals.get(&name.name) {
                Some(Symbol::PieceType(t)) => MatchBy::Type(t),
                Some(Symbol::Group(g)) => MatchBy::Group(g),
                Some(Symbol::Kind(k)) => {
                    self.emit(Op::Push(k as i64), name.span);
                    MatchBy::KindOnStack
                }
                other => {
                    self.unknown_or_wrong(
                        &name.name,
                        name.span,
                        other,
                        "a piece type, a group or a kind",
                        "piece types",
                    );
                    MatchBy::Any
                }
            }
        };
        let owner = match &filter.owner {
            Some(owner) => {
                self.expect(owner, &Ty::Seat);
                true
            }
            None => false,
        };
        Matcher { by, owner }
    }
}
