//! Building the top-level declarations (`game`, `option`, `board`, `procedure`, ...).

use pest::iterators::Pair;

use super::Rule;
use super::build::{Ctx, named_kind, visibility};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::syntax::ast::*;

impl Ctx<'_> {
    pub(super) fn item(&self, pair: Pair<Rule>) -> Item {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        match rule {
            Rule::game_decl => Item::Game {
                name: self.string(inner.next().unwrap()),
                span,
            },
            Rule::players_decl => {
                let count = self.int(inner.next().unwrap());
                Item::Players {
                    count,
                    names: inner.map(|p| self.ident(p)).collect(),
                    span,
                }
            }
            Rule::use_decl => Item::Use {
                path: self.string(inner.next().unwrap()),
                span,
            },
            Rule::extends_decl => Item::Extends {
                path: self.string(inner.next().unwrap()),
                span,
            },
            Rule::override_decl => Item::Override {
                item: Box::new(self.item(inner.next().unwrap())),
                span,
            },
            Rule::named_override => {
                let kind = named_kind(inner.next().unwrap());
                let name = self.ident(inner.next().unwrap());
                Item::Named {
                    kind,
                    name,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::table_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Table {
                    name,
                    values: inner.map(|p| self.int(p)).collect(),
                    span,
                }
            }
            Rule::constant_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Constant {
                    name,
                    value: self.expr(inner.next().unwrap()),
                }
            }
            Rule::anytime_decl => {
                let label_pair = inner.next().unwrap();
                let label_span = self.span(&label_pair);
                let label = self.string(label_pair);
                let when = self.expr(inner.next().unwrap());
                Item::Anytime(AnytimeDecl {
                    label,
                    label_span,
                    when,
                    body: self.block(inner.next().unwrap()),
                })
            }
            Rule::display_decl => {
                let kind = self.ident(inner.next().unwrap());
                Item::Display {
                    kind,
                    text: self.string(inner.next().unwrap()),
                    span,
                }
            }
            Rule::kinds_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Kinds {
                    name,
                    values: inner.map(|p| self.ident(p)).collect(),
                }
            }
            Rule::beats_decl => Item::Beats {
                pairs: inner
                    .map(|p| {
                        let mut two = p.into_inner();
                        (self.ident(two.next().unwrap()), self.ident(two.next().unwrap()))
                    })
                    .collect(),
                span,
            },
            Rule::option_decl => Item::Option(self.option(inner)),
            Rule::var_decl => {
                let name = self.ident(inner.next().unwrap());
                let mut next = inner.next().unwrap();
                let per_player = next.as_rule() == Rule::per_player;
                if per_player {
                    next = inner.next().unwrap();
                }
                Item::Var(VarDecl {
                    name,
                    per_player,
                    init: self.expr(next),
                })
            }
            Rule::pieces_decl => Item::Pieces(inner.map(|p| self.piece_entry(p)).collect()),
            Rule::group_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Group {
                    name,
                    members: inner.map(|p| self.ident(p)).collect(),
                }
            }
            Rule::board_decl => {
                let name = self.ident(inner.next().unwrap());
                let shape_pair = inner.next().unwrap();
                let shape_span = self.span(&shape_pair);
                let kind = shape_pair.into_inner().next().unwrap();
                let mut shape = if kind.as_rule() == Rule::grid_shape {
                    let mut grid = kind.into_inner();
                    let rows = self.int(grid.next().unwrap());
                    let cols = self.int(grid.next().unwrap());
                    BoardShape::Grid { rows, cols }
                } else {
                    BoardShape::Graph(vec![])
                };
                let mut slots = vec![];
                for part in inner {
                    let part_span = self.span(&part);
                    let rule = part.as_rule();
                    let mut parts = part.into_inner();
                    let graph_part = match rule {
                        Rule::slot_decl => {
                            slots.push((self.ident(parts.next().unwrap()), visibility(parts.next().unwrap())));
                            continue;
                        }
                        Rule::ring_decl => {
                            let name = self.ident(parts.next().unwrap());
                            let count_pair = parts.next().unwrap();
                            let count_span = self.span(&count_pair);
                            GraphPart::Ring {
                                name,
                                count: self.int(count_pair),
                                count_span,
                                wraps: parts.next().is_some(),
                            }
                        }
                        Rule::space_decl => GraphPart::Space(self.ident(parts.next().unwrap())),
                        _ => {
                            let left = self.space_pattern(parts.next().unwrap());
                            let right = self.space_pattern(parts.next().unwrap());
                            GraphPart::Link(Box::new(LinkRule {
                                left,
                                right,
                                cond: parts.next().map(|p| self.expr(p)),
                                span: part_span,
                            }))
                        }
                    };
                    match &mut shape {
                        BoardShape::Graph(graph) => graph.push(graph_part),
                        BoardShape::Grid { .. } => self.misplaced.borrow_mut().push(
                            Diagnostic::error(Code::BadBoard, "a grid's spaces and links come from its size")
                                .label(part_span, "only a `graph` board declares rings, spaces and links")
                                .help("write `board NAME: graph { ... }`, or keep the grid and remove this line"),
                        ),
                    }
                }
                Item::Board(BoardDecl {
                    name,
                    shape,
                    shape_span,
                    slots,
                    span,
                })
            }
            Rule::zones_decl => Item::Zones(
                inner
                    .map(|zone| {
                        let mut parts = zone.into_inner();
                        let name = self.ident(parts.next().unwrap());
                        let mut next = parts.next().unwrap();
                        let per_player = next.as_rule() == Rule::per_player;
                        if per_player {
                            next = parts.next().unwrap();
                        }
                        ZoneDecl {
                            name,
                            per_player,
                            visibility: visibility(next),
                        }
                    })
                    .collect(),
            ),
            Rule::setup_decl => Item::Setup(self.block(inner.next().unwrap())),
            Rule::flow_decl => Item::Flow(self.block(inner.next().unwrap())),
            Rule::procedure_decl => {
                let name = self.ident(inner.next().unwrap());
                let params = inner.next().unwrap().into_inner().map(|p| self.param(p)).collect();
                let mut next = inner.next().unwrap();
                let mut returns = vec![];
                if next.as_rule() == Rule::returns {
                    returns = next.into_inner().map(|p| self.ident(p)).collect();
                    next = inner.next().unwrap();
                }
                Item::Procedure(ProcedureDecl {
                    name,
                    params,
                    returns,
                    body: self.block(next),
                })
            }
            Rule::trigger_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Trigger {
                    name,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::hook_decl => {
                let name = self.ident(inner.next().unwrap());
                let params = inner.next().unwrap().into_inner().map(|p| self.param(p)).collect();
                let returns = match inner.next().unwrap().as_str() {
                    "int" => HookType::Int,
                    _ => HookType::Bool,
                };
                let body = inner.next().unwrap();
                let body_span = self.span(&body);
                let text = body.as_str();
                // Strip the outer braces; the span keeps pointing at the text inside.
                let inside = &text[1..text.len() - 1];
                let body_span = Span {
                    file: body_span.file,
                    start: body_span.start + 1,
                    end: body_span.end - 1,
                };
                Item::Hook(HookDecl {
                    name,
                    params,
                    returns,
                    body: inside.to_string(),
                    body_span,
                })
            }
            Rule::score_decl => Item::Score {
                terms: inner
                    .map(|term| {
                        let mut parts = term.into_inner();
                        let name = self.ident(parts.next().unwrap());
                        let value = self.expr(parts.next().unwrap());
                        ScoreTerm {
                            name,
                            value,
                            when: parts.next().map(|p| self.expr(p)),
                        }
                    })
                    .collect(),
                span,
            },
            Rule::result_decl => {
                let mut keys = vec![];
                let mut otherwise = ResultElse::Draw;
                for part in inner {
                    match part.as_rule() {
                        Rule::rank_key => {
                            let mut kv = part.into_inner();
                            let most = kv.next().unwrap().as_str() == "most";
                            keys.push(RankKey {
                                most,
                                value: self.expr(kv.next().unwrap()),
                            });
                        }
                        Rule::result_else => {
                            let choice = part.into_inner().next().unwrap();
                            if choice.as_rule() == Rule::block {
                                otherwise = ResultElse::Block(self.block(choice));
                            }
                        }
                        _ => unreachable!("result_decl holds only keys and an else"),
                    }
                }
                Item::Result(ResultDecl { keys, otherwise, span })
            }
            other => unreachable!("not an item: {other:?}"),
        }
    }

    pub(super) fn option(&self, mut inner: pest::iterators::Pairs<Rule>) -> OptionDecl {
        let name = self.ident(inner.next().unwrap());
        let ty_pair = inner.next().unwrap();
        let ty_span = self.span(&ty_pair);
        let ty_inner = ty_pair.into_inner().next().unwrap();
        let ty = match ty_inner.as_rule() {
            Rule::bool_type => OptionType::Bool,
            Rule::int_type => {
                let mut bounds = ty_inner.into_inner();
                let min = bounds.next().map(|p| self.int(p));
                let max = bounds.next().map(|p| self.int(p));
                OptionType::Int { min, max }
            }
            Rule::enum_type => OptionType::Enum(ty_inner.into_inner().map(|p| self.ident(p)).collect()),
            _ => {
                let mut parts = ty_inner.into_inner();
                let mut bounds = parts.next().expect("a list has an item type").into_inner();
                let min = bounds.next().map(|p| self.int(p));
                let max = bounds.next().map(|p| self.int(p));
                let items = parts.next().map(|length| {
                    let mut counts = length.into_inner();
                    let fewest = counts.next().map_or(0, |p| self.int(p));
                    let most = counts.next().map_or(fewest, |p| self.int(p));
                    (fewest, most)
                });
                OptionType::IntList { min, max, items }
            }
        };
        let literal = inner.next().unwrap();
        let lit_span = self.span(&literal);
        let value = literal.into_inner().next().unwrap();
        let kind = match value.as_rule() {
            Rule::int => LiteralKind::Int(self.int(value)),
            Rule::bool_lit => LiteralKind::Bool(value.as_str() == "true"),
            Rule::list_lit => LiteralKind::List(value.into_inner().map(|p| self.int(p)).collect()),
            _ => LiteralKind::Name(value.as_str().to_string()),
        };
        let description = inner.next().map(|p| self.string(p));
        OptionDecl {
            name,
            ty,
            ty_span,
            default: Literal { kind, span: lit_span },
            description,
        }
    }

    pub(super) fn piece_entry(&self, pair: Pair<Rule>) -> PieceEntry {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let mut entry = PieceEntry {
            name: self.ident(inner.next().unwrap()),
            of_each: None,
            values: None,
            copies: None,
            per_player: false,
            home: Ident {
                name: String::new(),
                span,
            },
            kind_hidden: false,
            when: None,
            span,
        };
        for part in inner {
            let part_span = self.span(&part);
            match part.as_rule() {
                Rule::of_each => entry.of_each = Some(self.ident(part.into_inner().next().unwrap())),
                Rule::with_value => {
                    let mut bounds = part.into_inner();
                    let low = self.int(bounds.next().unwrap());
                    let high = bounds.next().map_or(low, |p| self.int(p));
                    entry.values = Some((low, high, part_span));
                }
                Rule::copies => entry.copies = Some((self.int(part.into_inner().next().unwrap()), part_span)),
                Rule::per_player => entry.per_player = true,
                Rule::ident => entry.home = self.ident(part),
                Rule::piece_when => entry.when = Some(self.expr(part.into_inner().next().unwrap())),
                Rule::kind_hidden => entry.kind_hidden = true,
                other => unreachable!("not part of a piece entry: {other:?}"),
            }
        }
        entry
    }

    pub(super) fn param(&self, pair: Pair<Rule>) -> Param {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        let ty = inner.next().map(|t| (t.as_str().to_string(), self.span(&t)));
        Param { name, ty }
    }

    pub(super) fn space_pattern(&self, pair: Pair<Rule>) -> SpacePattern {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        SpacePattern {
            name: self.ident(inner.next().unwrap()),
            index: inner.next().map(|p| self.expr(p)),
            span,
        }
    }
}
