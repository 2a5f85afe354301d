//! Building blocks and statements.

use pest::iterators::Pair;

use super::Rule;
use super::build::{Ctx, named_kind};
use crate::syntax::ast::*;

impl Ctx<'_> {
    pub(super) fn block(&self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        let at = || self.head(&pair);
        let stmts = self.nested(1, at, || pair.clone().into_inner().map(|p| self.stmt(p)).collect());
        Block {
            stmts: stmts.unwrap_or_default(),
            span,
        }
    }

    pub(super) fn lvalue(&self, pair: Pair<Rule>) -> LValue {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        LValue {
            name,
            index: inner.next().map(|p| self.expr(p)),
            span,
        }
    }

    pub(super) fn stmt(&self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let mut parts: Vec<Pair<Rule>> = inner.collect();
                let value = self.expr(parts.pop().unwrap());
                StmtKind::Let {
                    names: parts.into_iter().map(|p| self.ident(p)).collect(),
                    value,
                }
            }
            Rule::set_stmt => {
                let target = self.lvalue(inner.next().unwrap());
                StmtKind::Set {
                    target,
                    value: self.expr(inner.next().unwrap()),
                }
            }
            Rule::add_stmt => {
                let amount = self.expr(inner.next().unwrap());
                StmtKind::Add {
                    amount,
                    target: self.lvalue(inner.next().unwrap()),
                }
            }
            Rule::if_stmt => {
                let cond = self.expr(inner.next().unwrap());
                let then = self.block(inner.next().unwrap());
                let otherwise = inner.next().map(|p| {
                    if p.as_rule() == Rule::if_stmt {
                        // `else if`: one level deeper, like a block.
                        let span = self.span(&p);
                        let nested = self.nested(1, || self.head(&p), || self.stmt(p.clone()));
                        Block {
                            span,
                            stmts: nested.into_iter().collect(),
                        }
                    } else {
                        self.block(p)
                    }
                });
                StmtKind::If { cond, then, otherwise }
            }
            Rule::for_stmt => {
                let var = self.ident(inner.next().unwrap());
                let domain = self.domain(inner.next().unwrap());
                StmtKind::For {
                    var,
                    domain,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::loop_stmt => StmtKind::Loop(self.block(inner.next().unwrap())),
            Rule::while_stmt => {
                let cond = self.expr(inner.next().unwrap());
                StmtKind::While {
                    cond,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::repeat_stmt => {
                let times = self.expr(inner.next().unwrap());
                StmtKind::Repeat {
                    times,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::named_stmt => {
                let kind = named_kind(inner.next().unwrap());
                let name = self.ident(inner.next().unwrap());
                StmtKind::Named {
                    kind,
                    name,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::return_stmt => StmtKind::Return(inner.map(|p| self.expr(p)).collect()),
            Rule::choose_each_stmt => {
                let mut next = inner.next().unwrap();
                let secret = next.as_rule() == Rule::secretly;
                if secret {
                    next = inner.next().unwrap();
                }
                let var = self.ident(next);
                StmtKind::ChooseEach {
                    var,
                    domain: self.domain(inner.next().unwrap()),
                    secret,
                }
            }
            Rule::choose_stmt => {
                let who = self.expr(inner.next().unwrap());
                let mut next = inner.next().unwrap();
                let secret = next.as_rule() == Rule::secretly;
                if secret {
                    next = inner.next().unwrap();
                }
                let var = self.ident(next);
                let domain = self.domain(inner.next().unwrap());
                let otherwise = inner.next().map(|b| self.block(b));
                StmtKind::Choose {
                    who,
                    var,
                    domain,
                    secret,
                    otherwise,
                }
            }
            Rule::race_stmt => {
                let var = self.ident(inner.next().unwrap());
                let domain = self.domain(inner.next().unwrap());
                StmtKind::Race {
                    var,
                    domain,
                    time: self.ident(inner.next().unwrap()),
                }
            }
            Rule::draft_stmt => {
                let mut choosers = vec![];
                let mut entries = vec![];
                for part in inner {
                    if part.as_rule() == Rule::draft_entry {
                        let mut parts = part.into_inner();
                        let label_pair = parts.next().unwrap();
                        let label_span = self.span(&label_pair);
                        let label = self.string(label_pair);
                        let mut next = parts.next().unwrap();
                        let mut when = None;
                        if next.as_rule() == Rule::expr {
                            when = Some(self.expr(next));
                            next = parts.next().unwrap();
                        }
                        entries.push(DraftEntry {
                            label,
                            label_span,
                            when,
                            body: self.block(next),
                        });
                    } else {
                        choosers.push(self.expr(part));
                    }
                }
                StmtKind::Draft { choosers, entries }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(inner.next().unwrap())),
            Rule::deal_stmt => {
                let count = self.expr(inner.next().unwrap());
                let from = self.expr(inner.next().unwrap());
                StmtKind::Deal {
                    count,
                    from,
                    to: self.expr(inner.next().unwrap()),
                }
            }
            Rule::move_stmt => {
                let what = inner.next().unwrap();
                let to = self.expr(inner.next().unwrap());
                if what.as_rule() == Rule::move_all {
                    StmtKind::MoveAll {
                        from: self.expr(what.into_inner().next().unwrap()),
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
                let mut pieces = vec![];
                let mut to = None;
                for part in inner {
                    if part.as_rule() == Rule::reveal_to {
                        let whom = part.into_inner().next().unwrap();
                        if whom.as_rule() != Rule::to_all {
                            to = Some(self.expr(whom));
                        }
                    } else {
                        pieces.push(self.expr(part));
                    }
                }
                StmtKind::Reveal { pieces, to }
            }
            Rule::hide_stmt => StmtKind::Hide(inner.map(|p| self.expr(p)).collect()),
            Rule::choose_actions_stmt => {
                let who = self.expr(inner.next().unwrap());
                let actions = inner.map(|entry| self.action_entry(entry)).collect();
                StmtKind::ChooseActions { who, actions }
            }
            Rule::win_stmt => StmtKind::Win(self.expr(inner.next().unwrap())),
            Rule::draw_stmt => StmtKind::DeclareDraw(inner.next().map(|p| self.string(p))),
            Rule::end_stmt => StmtKind::EndGame,
            Rule::call_stmt => {
                let (name, args) = self.call(inner.next().unwrap());
                StmtKind::Call { name, args }
            }
            other => unreachable!("not a statement: {other:?}"),
        };
        Stmt { kind, span }
    }

    pub(super) fn action_entry(&self, pair: Pair<Rule>) -> ActionEntry {
        let mut parts = pair.into_inner();
        let label_pair = parts.next().unwrap();
        let label_span = self.span(&label_pair);
        let label = self.string(label_pair);
        let mut params = vec![];
        let mut when = None;
        let mut body = None;
        for part in parts {
            match part.as_rule() {
                Rule::action_params => {
                    for param in part.into_inner() {
                        let mut two = param.into_inner();
                        let name = self.ident(two.next().unwrap());
                        let source = two.next().unwrap();
                        let source = if source.as_rule() == Rule::domain {
                            ParamSource::In(Box::new(self.domain(source)))
                        } else {
                            ParamSource::Is(self.expr(source))
                        };
                        params.push((name, source));
                    }
                }
                Rule::action_when => when = Some(self.expr(part.into_inner().next().unwrap())),
                _ => body = Some(self.block(part)),
            }
        }
        ActionEntry {
            label,
            label_span,
            params,
            when,
            body: body.expect("the grammar requires a block"),
        }
    }
}
