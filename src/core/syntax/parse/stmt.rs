//! Building blocks and statements.

use pest::iterators::Pair;

use super::build::{Children, Ctx, named_kind};
use super::grammar::Rule;
use crate::syntax::ast::*;

impl Ctx<'_> {
    pub(super) fn block(&self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        let at = || self.head(&pair);
        // Each part of a block is a statement; `stmt` tells the kinds apart.
        let stmts = self.nested(1, at, || pair.clone().into_inner().map(|p| self.stmt(p)).collect());
        Block {
            // Nested too deeply: reported, and the block is left empty.
            stmts: stmts.unwrap_or_default(),
            span,
        }
    }

    fn lvalue(&self, pair: Pair<Rule>) -> LValue {
        let span = self.span(&pair);
        let mut inner = Children::of(pair);
        let name = self.ident(inner.take(Rule::ident));
        LValue {
            name,
            index: inner.take_opt(Rule::of_expr).map(|p| self.expr(p)),
            span,
        }
    }

    fn stmt(&self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = Children::of(pair);
        let kind = match rule {
            Rule::let_stmt => {
                let names = inner.take_many(Rule::ident).map(|p| self.ident(p)).collect();
                StmtKind::Let {
                    names,
                    value: self.expr(inner.take(Rule::expr)),
                }
            }
            Rule::set_stmt => {
                let target = self.lvalue(inner.take(Rule::lvalue));
                StmtKind::Set {
                    target,
                    value: self.expr(inner.take(Rule::expr)),
                }
            }
            Rule::add_stmt => {
                let amount = self.expr(inner.take(Rule::expr));
                StmtKind::Add {
                    amount,
                    target: self.lvalue(inner.take(Rule::lvalue)),
                }
            }
            Rule::if_stmt => {
                let cond = self.expr(inner.take(Rule::expr));
                let then = self.block(inner.take(Rule::block));
                let otherwise = match inner.take_opt(Rule::if_stmt) {
                    Some(p) => {
                        // `else if`: one level deeper, like a block.
                        let span = self.span(&p);
                        let nested = self.nested(1, || self.head(&p), || self.stmt(p.clone()));
                        Some(Block {
                            span,
                            stmts: nested.into_iter().collect(),
                        })
                    }
                    None => inner.take_opt(Rule::block).map(|p| self.block(p)),
                };
                StmtKind::If { cond, then, otherwise }
            }
            Rule::for_stmt => {
                let var = self.ident(inner.take(Rule::ident));
                let domain = self.domain(inner.take(Rule::domain));
                StmtKind::For {
                    var,
                    domain,
                    body: self.block(inner.take(Rule::block)),
                }
            }
            Rule::loop_stmt => StmtKind::Loop(self.block(inner.take(Rule::block))),
            Rule::while_stmt => {
                let cond = self.expr(inner.take(Rule::expr));
                StmtKind::While {
                    cond,
                    body: self.block(inner.take(Rule::block)),
                }
            }
            Rule::repeat_stmt => {
                let times = self.expr(inner.take(Rule::expr));
                StmtKind::Repeat {
                    times,
                    body: self.block(inner.take(Rule::block)),
                }
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::named_stmt => {
                let kind = named_kind(inner.take(Rule::named_kind));
                let name = self.ident(inner.take(Rule::ident));
                StmtKind::Named {
                    kind,
                    name,
                    body: self.block(inner.take(Rule::block)),
                }
            }
            Rule::return_stmt => StmtKind::Return(inner.take_many(Rule::expr).map(|p| self.expr(p)).collect()),
            Rule::choose_each_stmt => {
                let secret = inner.take_opt(Rule::secretly).is_some();
                let var = self.ident(inner.take(Rule::ident));
                StmtKind::ChooseEach {
                    var,
                    domain: self.domain(inner.take(Rule::domain)),
                    secret,
                }
            }
            Rule::choose_stmt => {
                let who = self.expr(inner.take(Rule::of_expr));
                let secret = inner.take_opt(Rule::secretly).is_some();
                let var = self.ident(inner.take(Rule::ident));
                let domain = self.domain(inner.take(Rule::domain));
                let otherwise = inner.take_opt(Rule::block).map(|b| self.block(b));
                StmtKind::Choose {
                    who,
                    var,
                    domain,
                    secret,
                    otherwise,
                }
            }
            Rule::race_stmt => {
                let var = self.ident(inner.take(Rule::ident));
                let domain = self.domain(inner.take(Rule::domain));
                StmtKind::Race {
                    var,
                    domain,
                    time: self.ident(inner.take(Rule::ident)),
                }
            }
            Rule::draft_stmt => {
                let choosers = inner.take_many(Rule::expr).map(|p| self.expr(p)).collect();
                let entries = inner
                    .take_many(Rule::draft_entry)
                    .map(|entry| {
                        let mut parts = Children::of(entry);
                        let label_pair = parts.take(Rule::string);
                        let label_span = self.span(&label_pair);
                        let label = self.string(label_pair);
                        let when = parts.take_opt(Rule::expr).map(|p| self.expr(p));
                        DraftEntry {
                            label,
                            label_span,
                            when,
                            body: self.block(parts.take(Rule::block)),
                        }
                    })
                    .collect();
                StmtKind::Draft { choosers, entries }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(inner.take(Rule::expr))),
            Rule::deal_stmt => {
                let count = self.expr(inner.take(Rule::expr));
                let from = self.expr(inner.take(Rule::expr));
                StmtKind::Deal {
                    count,
                    from,
                    to: self.expr(inner.take(Rule::expr)),
                }
            }
            Rule::move_stmt => {
                let what = inner.take_one_of(&[Rule::move_all, Rule::expr]);
                let to = self.expr(inner.take(Rule::expr));
                if what.as_rule() == Rule::move_all {
                    StmtKind::MoveAll {
                        from: self.expr(Children::of(what).take(Rule::of_expr)),
                        to,
                    }
                } else {
                    StmtKind::Move {
                        what: self.expr(what),
                        to,
                    }
                }
            }
            Rule::reveal_stmt => {
                let pieces = inner.take_many(Rule::expr).map(|p| self.expr(p)).collect();
                let whom = inner
                    .take_opt(Rule::reveal_to)
                    .map(|part| Children::of(part).take_one_of(&[Rule::to_all, Rule::expr]));
                let to = whom
                    .filter(|whom| whom.as_rule() != Rule::to_all)
                    .map(|whom| self.expr(whom));
                StmtKind::Reveal { pieces, to }
            }
            Rule::swap_stmt => {
                inner.take(Rule::swap_word);
                let a = self.expr(inner.take(Rule::expr));
                let b = self.expr(inner.take(Rule::expr));
                StmtKind::Swap(a, b)
            }
            Rule::say_stmt => {
                inner.take(Rule::say_word);
                let text = inner.take(Rule::string);
                let text_span = self.span(&text);
                let to = inner.take_opt(Rule::expr).map(|p| self.expr(p));
                StmtKind::Say {
                    text: self.string(text),
                    text_span,
                    to,
                }
            }
            Rule::roll_stmt => {
                let what = inner.take_one_of(&[Rule::roll_all, Rule::expr]);
                if what.as_rule() == Rule::roll_all {
                    StmtKind::RollAll(self.expr(Children::of(what).take(Rule::of_expr)))
                } else {
                    StmtKind::Roll(self.expr(what))
                }
            }
            Rule::hide_stmt => StmtKind::Hide(inner.take_many(Rule::expr).map(|p| self.expr(p)).collect()),
            Rule::choose_actions_stmt => {
                let who = self.expr(inner.take(Rule::of_expr));
                let actions = inner
                    .take_many(Rule::action_entry)
                    .map(|entry| self.action_entry(entry))
                    .collect();
                let otherwise = inner.take_opt(Rule::block).map(|b| self.block(b));
                StmtKind::ChooseActions {
                    who,
                    actions,
                    otherwise,
                }
            }
            Rule::win_stmt => StmtKind::Win(
                self.expr(inner.take(Rule::expr)),
                inner.take_opt(Rule::string).map(|p| self.string(p)),
            ),
            Rule::draw_stmt => StmtKind::DeclareDraw(inner.take_opt(Rule::string).map(|p| self.string(p))),
            Rule::end_stmt => StmtKind::EndGame,
            Rule::call_stmt => {
                let (name, args) = self.call(inner.take(Rule::call));
                StmtKind::Call { name, args }
            }
            other => unreachable!("not a statement: {other:?}"),
        };
        Stmt { kind, span }
    }

    fn action_entry(&self, pair: Pair<Rule>) -> ActionEntry {
        let mut parts = Children::of(pair);
        let label_pair = parts.take(Rule::string);
        let label_span = self.span(&label_pair);
        let label = self.string(label_pair);
        let params = parts.take_opt(Rule::action_params).map_or_else(Vec::new, |params| {
            Children::of(params)
                .take_many(Rule::action_param)
                .map(|param| {
                    let mut two = Children::of(param);
                    let name = self.ident(two.take(Rule::ident));
                    let source = two.take_one_of(&[Rule::domain, Rule::expr]);
                    let source = if source.as_rule() == Rule::domain {
                        ParamSource::In(Box::new(self.domain(source)))
                    } else {
                        ParamSource::Is(self.expr(source))
                    };
                    (name, source)
                })
                .collect()
        });
        let when = parts
            .take_opt(Rule::action_when)
            .map(|part| self.expr(Children::of(part).take(Rule::expr)));
        ActionEntry {
            label,
            label_span,
            params,
            when,
            body: self.block(parts.take(Rule::block)),
        }
    }
}
