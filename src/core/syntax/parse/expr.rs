//! Building expressions, the precedence layers and the domains a choice or a
//! loop ranges over.

use pest::iterators::Pair;

use super::build::{Children, Ctx};
use super::grammar::{MAX_NESTING, RED_ZONE, Rule, STACK_STEP};
use crate::diagnostic::Span;
use crate::syntax::ast::*;

impl Ctx<'_> {
    pub(super) fn call(&self, pair: Pair<Rule>) -> (Ident, Vec<Expr>) {
        let mut inner = Children::of(pair);
        let name = self.ident(inner.take(Rule::ident));
        (name, inner.take_many(Rule::expr).map(|p| self.expr(p)).collect())
    }

    pub(super) fn domain(&self, pair: Pair<Rule>) -> Domain {
        let mut parts = Children::of(pair);
        let core = parts.take_one_of(&[Rule::range, Rule::pieces_domain, Rule::expr]);
        let mut domain = self.domain_core(core);
        // The named no-choice before or after the `where`; either way it
        // wraps the condition, as the checker expects.
        let or_first = parts.take_opt(Rule::domain_or);
        if let Some(cond) = parts.take_opt(Rule::expr) {
            domain = Domain::Where(Box::new(domain), self.expr(cond));
        }
        if let Some(or) = or_first.or_else(|| parts.take_opt(Rule::domain_or)) {
            let mut or = Children::of(or);
            let name = self.ident(or.take(Rule::ident));
            let when = or.take_opt(Rule::expr).map(|cond| Box::new(self.expr(cond)));
            domain = Domain::OrNone(Box::new(domain), name, when);
        }
        domain
    }

    fn domain_core(&self, inner: Pair<Rule>) -> Domain {
        match inner.as_rule() {
            Rule::range => {
                let mut bounds = Children::of(inner);
                let low = self.expr(bounds.take(Rule::sum_expr));
                Domain::Range(low, self.expr(bounds.take(Rule::sum_expr)))
            }
            Rule::pieces_domain => {
                let mut parts = Children::of(inner);
                let filter = self.filter(parts.take(Rule::filter));
                let where_ = parts.take_one_of(&[Rule::on_board, Rule::of_expr]);
                let place = if where_.as_rule() == Rule::on_board {
                    PiecePlace::Board(self.ident(Children::of(where_).take(Rule::ident)))
                } else {
                    PiecePlace::Zone(self.expr(where_))
                };
                let wild = parts.take_opt(Rule::wild_kinds).map(|part| {
                    let mut w = Children::of(part);
                    let filter = self.filter(w.take(Rule::filter));
                    (filter, self.ident(w.take(Rule::ident)))
                });
                let cond = parts.take_opt(Rule::expr).map(|p| self.expr(p));
                Domain::Pieces {
                    filter,
                    place,
                    cond,
                    wild,
                }
            }
            _ => Domain::Expr(self.expr(inner)),
        }
    }

    fn filter(&self, pair: Pair<Rule>) -> Filter {
        let span = self.span(&pair);
        let mut inner = Children::of(pair);
        let name = self.ident(inner.take(Rule::ident));
        Filter {
            name,
            owner: inner.take_opt(Rule::of_expr).map(|p| Box::new(self.expr(p))),
            span,
        }
    }

    /// Any expression-level pair, including the precedence layers.
    pub(super) fn expr(&self, pair: Pair<Rule>) -> Expr {
        stacker::maybe_grow(RED_ZONE, STACK_STEP, || self.expr_layer(pair))
    }

    fn expr_layer(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        match rule {
            Rule::expr => self.expr(Children::of(pair).take(Rule::or_expr)),
            // One of the many alternatives of `special` and `primary`, or an
            // `of` chain: `expr_node` tells them apart.
            Rule::of_expr => self.expr(Children::of(pair).take_any()),
            Rule::paren => self.nested_expr(
                span,
                1,
                || self.head(&pair),
                || self.expr(Children::of(pair.clone()).take(Rule::expr)),
            ),
            Rule::or_expr | Rule::and_expr | Rule::sum_expr | Rule::prod_expr | Rule::cmp_expr => {
                // A chain `a + b + c` is a tree one level deeper per operator.
                let ops: Vec<Pair<Rule>> = pair.clone().into_inner().skip(1).step_by(2).collect();
                let depth = self.depth.get();
                let at = || self.span(&ops[MAX_NESTING.saturating_sub(depth).min(ops.len() - 1)]);
                self.nested_expr(span, ops.len(), at, || self.chain(pair.clone()))
            }
            Rule::not_expr | Rule::unary => {
                let (operator, operand) = if rule == Rule::not_expr {
                    (Rule::not_op, Rule::cmp_expr)
                } else {
                    (Rule::neg_op, Rule::of_expr)
                };
                let mut parts = Children::of(pair);
                let ops: Vec<Pair<Rule>> = parts.take_many(operator).collect();
                let operand = parts.take(operand);
                let depth = self.depth.get();
                let at = || self.span(&ops[MAX_NESTING.saturating_sub(depth).min(ops.len() - 1)]);
                self.nested_expr(span, ops.len(), at, || self.prefixed(&ops, operand.clone(), span))
            }
            _ => self.nested_expr(span, 1, || self.head(&pair), || self.expr_node(pair.clone())),
        }
    }

    /// Builds an expression `levels` deeper than the current one (see
    /// [`Ctx::nested`]); nested too deeply, a stub stands in its place (the
    /// file has an error, so nothing reads it).
    fn nested_expr(&self, span: Span, levels: usize, at: impl FnOnce() -> Span, build: impl FnOnce() -> Expr) -> Expr {
        self.nested(levels, at, build).unwrap_or(Expr {
            kind: ExprKind::Int(0),
            span,
        })
    }

    /// `a op b op c`, left to right, in one of the precedence layers.
    fn chain(&self, pair: Pair<Rule>) -> Expr {
        let (operand, operator) = match pair.as_rule() {
            Rule::or_expr => (Rule::and_expr, Rule::or_op),
            Rule::and_expr => (Rule::not_expr, Rule::and_op),
            Rule::cmp_expr => (Rule::sum_expr, Rule::cmp_op),
            Rule::sum_expr => (Rule::prod_expr, Rule::add_op),
            Rule::prod_expr => (Rule::unary, Rule::mul_op),
            other => unreachable!("not a precedence layer: {other:?}"),
        };
        let mut inner = Children::of(pair);
        let mut lhs = self.expr(inner.take(operand));
        while let Some(op) = inner.take_opt(operator) {
            let rhs = self.expr(inner.take(operand));
            let op = match op.as_str() {
                "or" => BinOp::Or,
                "and" => BinOp::And,
                "==" => BinOp::Eq,
                "!=" => BinOp::Ne,
                "<" => BinOp::Lt,
                "<=" => BinOp::Le,
                ">" => BinOp::Gt,
                ">=" => BinOp::Ge,
                "beats" => BinOp::Beats,
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                _ => BinOp::Rem,
            };
            let span = lhs.span.join(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        lhs
    }

    /// `not not x` or `- - x`: the operators apply from the innermost out.
    fn prefixed(&self, ops: &[Pair<Rule>], operand: Pair<Rule>, span: Span) -> Expr {
        let mut e = self.expr(operand);
        for op in ops.iter().rev() {
            let op = if op.as_rule() == Rule::not_op {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            e = Expr {
                kind: ExprKind::Unary {
                    op,
                    operand: Box::new(e),
                },
                span,
            };
        }
        e
    }

    /// An expression node other than a precedence layer.
    fn expr_node(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        match rule {
            Rule::of_chain => {
                let mut inner = Children::of(pair);
                let name = self.ident(inner.take(Rule::ident));
                Expr {
                    kind: ExprKind::Of {
                        name,
                        arg: Box::new(self.expr(inner.take(Rule::of_expr))),
                    },
                    span,
                }
            }
            Rule::int => Expr {
                kind: ExprKind::Int(self.int(pair)),
                span,
            },
            Rule::bool_lit => Expr {
                kind: ExprKind::Bool(pair.as_str() == "true"),
                span,
            },
            Rule::string => Expr {
                kind: ExprKind::Str(self.string(pair)),
                span,
            },
            Rule::ident => Expr {
                kind: ExprKind::Name(self.ident(pair)),
                span,
            },
            Rule::space_at => {
                let mut inner = Children::of(pair);
                let group = self.ident(inner.take(Rule::ident));
                let index = self.expr(inner.take(Rule::expr));
                if let Some(column) = inner.take_opt(Rule::expr) {
                    return Expr {
                        kind: ExprKind::CellAt {
                            board: group,
                            row: Box::new(index),
                            column: Box::new(self.expr(column)),
                        },
                        span,
                    };
                }
                Expr {
                    kind: ExprKind::SpaceAt {
                        group,
                        index: Box::new(index),
                    },
                    span,
                }
            }
            Rule::seat_expr => {
                let mut inner = Children::of(pair);
                let kind = match inner.take_opt(Rule::int) {
                    Some(n) => ExprKind::Seat(self.int(n)),
                    None => ExprKind::SeatAt(Box::new(self.expr(inner.take(Rule::paren)))),
                };
                Expr { kind, span }
            }
            Rule::current_player => Expr {
                kind: ExprKind::CurrentPlayer,
                span,
            },
            Rule::players_expr => Expr {
                kind: ExprKind::Players,
                span,
            },
            Rule::total_score => Expr {
                kind: ExprKind::TotalScore,
                span,
            },
            Rule::call => {
                let (name, args) = self.call(pair);
                Expr {
                    kind: ExprKind::Call { name, args },
                    span,
                }
            }
            Rule::count_expr | Rule::first_expr => {
                let mut inner = Children::of(pair);
                let filter = self.filter(inner.take(Rule::filter));
                if let Some(more) = inner.take_opt(Rule::more_filters) {
                    let filters = std::iter::once(filter)
                        .chain(Children::of(more).take_many(Rule::filter).map(|f| self.filter(f)))
                        .collect();
                    let where_ = inner.take_one_of(&[Rule::on_board, Rule::of_expr]);
                    let place = match where_.as_rule() {
                        Rule::on_board => PiecePlace::Board(self.ident(Children::of(where_).take(Rule::ident))),
                        _ => PiecePlace::Zone(self.expr(where_)),
                    };
                    return Expr {
                        kind: ExprKind::CountMatching {
                            filters,
                            place: Box::new(place),
                        },
                        span,
                    };
                }
                if rule == Rule::count_expr && inner.at_end() {
                    return Expr {
                        kind: ExprKind::CountInGame { filter },
                        span,
                    };
                }
                let where_ = inner.take_one_of(&[Rule::on_board, Rule::of_expr]);
                if where_.as_rule() == Rule::on_board {
                    let board = self.ident(Children::of(where_).take(Rule::ident));
                    return Expr {
                        kind: ExprKind::CountOnBoard { filter, board },
                        span,
                    };
                }
                let zone = Box::new(self.expr(where_));
                let kind = if rule == Rule::count_expr {
                    ExprKind::Count { filter, zone }
                } else {
                    ExprKind::First { filter, zone }
                };
                Expr { kind, span }
            }
            Rule::run_expr => {
                let mut inner = Children::of(pair);
                let filter = self.filter(inner.take(Rule::filter));
                let slot = self.ident(inner.take(Rule::ident));
                let board = self.ident(inner.take(Rule::ident));
                Expr {
                    kind: ExprKind::LongestRun { filter, slot, board },
                    span,
                }
            }
            Rule::chain_expr => {
                let mut inner = Children::of(pair);
                let filter = self.filter(inner.take(Rule::filter));
                let slot = self.ident(inner.take(Rule::ident));
                let board = self.ident(inner.take(Rule::ident));
                let from = self.ident(inner.take(Rule::ident));
                let to = self.ident(inner.take(Rule::ident));
                Expr {
                    kind: ExprKind::Chain {
                        filter,
                        slot,
                        board,
                        edges: Box::new([from, to]),
                    },
                    span,
                }
            }
            Rule::exists_expr => Expr {
                kind: ExprKind::Exists(Box::new(self.expr(Children::of(pair).take(Rule::sum_expr)))),
                span,
            },
            Rule::lines_expr => {
                let mut inner = Children::of(pair);
                let filter = self.filter(inner.take(Rule::filter));
                let slot = self.ident(inner.take(Rule::ident));
                let board = self.ident(inner.take(Rule::ident));
                Expr {
                    kind: ExprKind::Lines { filter, slot, board },
                    span,
                }
            }
            Rule::sum_over => {
                let mut inner = Children::of(pair);
                let var = self.ident(inner.take(Rule::ident));
                let domain = Box::new(self.domain(inner.take(Rule::domain)));
                let body = Box::new(self.expr(inner.take(Rule::expr)));
                Expr {
                    kind: ExprKind::Sum { var, domain, body },
                    span,
                }
            }
            Rule::quantified => {
                let mut inner = Children::of(pair);
                let quantifier = match inner.take(Rule::quantifier).as_str() {
                    "any" => Quantifier::Any,
                    "all" => Quantifier::All,
                    _ => Quantifier::No,
                };
                let var = self.ident(inner.take(Rule::ident));
                let domain = Box::new(self.domain(inner.take(Rule::domain)));
                let body = inner
                    .take_opt(Rule::quantified_condition)
                    .map(|condition| Box::new(self.expr(Children::of(condition).take(Rule::expr))));
                Expr {
                    kind: ExprKind::Quantified {
                        quantifier,
                        var,
                        domain,
                        body,
                    },
                    span,
                }
            }
            Rule::table_expr => {
                // `table NAME at i` or `table [1, 2, 3] at i`.
                let mut inner = Children::of(pair);
                let table = match inner.take_opt(Rule::ident) {
                    Some(name) => TableRef::Named(self.ident(name)),
                    None => TableRef::Inline(inner.take_many(Rule::int).map(|p| self.int(p)).collect()),
                };
                let index = Box::new(self.expr(inner.take(Rule::unary)));
                Expr {
                    kind: ExprKind::Table { table, index },
                    span,
                }
            }
            Rule::if_expr => {
                let mut parts = Children::of(pair);
                let cond = Box::new(self.expr(parts.take(Rule::expr)));
                let then = Box::new(self.expr(parts.take(Rule::expr)));
                let otherwise = Box::new(self.expr(parts.take(Rule::expr)));
                Expr {
                    kind: ExprKind::If { cond, then, otherwise },
                    span,
                }
            }
            other => unreachable!("not an expression: {other:?}"),
        }
    }
}
