//! Building expressions, the precedence layers and the domains a choice or a
//! loop ranges over.

use pest::iterators::Pair;

use super::build::Ctx;
use super::{MAX_NESTING, RED_ZONE, Rule, STACK_STEP};
use crate::diagnostic::Span;
use crate::syntax::ast::*;

impl Ctx<'_> {
    pub(super) fn call(&self, pair: Pair<Rule>) -> (Ident, Vec<Expr>) {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        (name, inner.map(|p| self.expr(p)).collect())
    }

    pub(super) fn domain(&self, pair: Pair<Rule>) -> Domain {
        let mut parts = pair.into_inner();
        let inner = parts.next().unwrap();
        let mut domain = self.domain_core(inner);
        for part in parts {
            domain = if part.as_rule() == Rule::domain_or {
                Domain::OrNone(Box::new(domain), self.ident(part.into_inner().next().unwrap()))
            } else {
                Domain::Where(Box::new(domain), self.expr(part))
            };
        }
        domain
    }

    pub(super) fn domain_core(&self, inner: Pair<Rule>) -> Domain {
        match inner.as_rule() {
            Rule::range => {
                let mut bounds = inner.into_inner();
                let low = self.expr(bounds.next().unwrap());
                Domain::Range(low, self.expr(bounds.next().unwrap()))
            }
            Rule::pieces_domain => {
                let mut parts = inner.into_inner();
                let filter = self.filter(parts.next().unwrap());
                let where_ = parts.next().unwrap();
                let place = if where_.as_rule() == Rule::on_board {
                    PiecePlace::Board(self.ident(where_.into_inner().next().unwrap()))
                } else {
                    PiecePlace::Zone(self.expr(where_))
                };
                let mut wild = None;
                let mut cond = None;
                for part in parts {
                    if part.as_rule() == Rule::wild_kinds {
                        let mut w = part.into_inner();
                        let filter = self.filter(w.next().unwrap());
                        wild = Some((filter, self.ident(w.next().unwrap())));
                    } else {
                        cond = Some(self.expr(part));
                    }
                }
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

    pub(super) fn filter(&self, pair: Pair<Rule>) -> Filter {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        Filter {
            name,
            owner: inner.next().map(|p| Box::new(self.expr(p))),
            span,
        }
    }

    /// Any expression-level pair, including the precedence layers.
    pub(super) fn expr(&self, pair: Pair<Rule>) -> Expr {
        stacker::maybe_grow(RED_ZONE, STACK_STEP, || self.expr_layer(pair))
    }

    pub(super) fn expr_layer(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        // What a construct nested too deeply leaves in the tree (the file
        // has an error, so nothing reads it).
        let stub = || Expr {
            kind: ExprKind::Int(0),
            span,
        };
        let rule = pair.as_rule();
        match rule {
            Rule::expr | Rule::of_expr => self.expr(pair.into_inner().next().unwrap()),
            Rule::paren => self
                .nested(
                    1,
                    || self.head(&pair),
                    || self.expr(pair.clone().into_inner().next().unwrap()),
                )
                .unwrap_or_else(stub),
            Rule::or_expr | Rule::and_expr | Rule::sum_expr | Rule::prod_expr | Rule::cmp_expr => {
                // A chain `a + b + c` is a tree one level deeper per operator.
                let ops: Vec<Pair<Rule>> = pair.clone().into_inner().skip(1).step_by(2).collect();
                let depth = self.depth.get();
                let at = || self.span(&ops[MAX_NESTING.saturating_sub(depth).min(ops.len() - 1)]);
                self.nested(ops.len(), at, || self.chain(pair.clone()))
                    .unwrap_or_else(stub)
            }
            Rule::not_expr | Rule::unary => {
                let parts: Vec<Pair<Rule>> = pair.clone().into_inner().collect();
                let ops = parts.len() - 1;
                let depth = self.depth.get();
                let at = || self.span(&parts[MAX_NESTING.saturating_sub(depth).min(ops.saturating_sub(1))]);
                self.nested(ops, at, || self.prefixed(parts.clone(), span))
                    .unwrap_or_else(stub)
            }
            _ => self
                .nested(1, || self.head(&pair), || self.expr_node(pair.clone()))
                .unwrap_or_else(stub),
        }
    }

    pub(super) fn chain(&self, pair: Pair<Rule>) -> Expr {
        let mut inner = pair.into_inner();
        let mut lhs = self.expr(inner.next().unwrap());
        while let Some(op) = inner.next() {
            let rhs = self.expr(inner.next().unwrap());
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

    pub(super) fn prefixed(&self, parts: Vec<Pair<Rule>>, span: Span) -> Expr {
        let (operand, ops) = parts.split_last().unwrap();
        let mut e = self.expr(operand.clone());
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
    pub(super) fn expr_node(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        match rule {
            Rule::of_chain => {
                let mut inner = pair.into_inner();
                let name = self.ident(inner.next().unwrap());
                Expr {
                    kind: ExprKind::Of {
                        name,
                        arg: Box::new(self.expr(inner.next().unwrap())),
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
                let mut inner = pair.into_inner();
                let group = self.ident(inner.next().unwrap());
                Expr {
                    kind: ExprKind::SpaceAt {
                        group,
                        index: Box::new(self.expr(inner.next().unwrap())),
                    },
                    span,
                }
            }
            Rule::seat_expr => Expr {
                kind: ExprKind::Seat(self.int(pair.into_inner().next().unwrap())),
                span,
            },
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
                let mut inner = pair.into_inner();
                let filter = self.filter(inner.next().unwrap());
                let where_ = inner.next().unwrap();
                if where_.as_rule() == Rule::on_board {
                    let board = self.ident(where_.into_inner().next().unwrap());
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
            Rule::lines_expr => {
                let mut inner = pair.into_inner();
                let filter = self.filter(inner.next().unwrap());
                let slot = self.ident(inner.next().unwrap());
                let board = self.ident(inner.next().unwrap());
                Expr {
                    kind: ExprKind::Lines { filter, slot, board },
                    span,
                }
            }
            Rule::sum_over => {
                let mut inner = pair.into_inner();
                let var = self.ident(inner.next().unwrap());
                let domain = Box::new(self.domain(inner.next().unwrap()));
                let body = Box::new(self.expr(inner.next().unwrap()));
                Expr {
                    kind: ExprKind::Sum { var, domain, body },
                    span,
                }
            }
            Rule::table_expr => {
                let mut parts: Vec<Pair<Rule>> = pair.into_inner().collect();
                let index = Box::new(self.expr(parts.pop().unwrap()));
                let table = if parts.len() == 1 && parts[0].as_rule() == Rule::ident {
                    TableRef::Named(self.ident(parts.pop().unwrap()))
                } else {
                    TableRef::Inline(parts.into_iter().map(|p| self.int(p)).collect())
                };
                Expr {
                    kind: ExprKind::Table { table, index },
                    span,
                }
            }
            Rule::if_expr => {
                let mut parts = pair.into_inner();
                let cond = Box::new(self.expr(parts.next().unwrap()));
                let then = Box::new(self.expr(parts.next().unwrap()));
                let otherwise = Box::new(self.expr(parts.next().unwrap()));
                Expr {
                    kind: ExprKind::If { cond, then, otherwise },
                    span,
                }
            }
            other => unreachable!("not an expression: {other:?}"),
        }
    }
}
