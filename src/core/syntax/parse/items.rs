//! Building the top-level declarations (`game`, `option`, `board`, `procedure`, ...).

use pest::iterators::Pair;

use super::build::{Children, Ctx, named_kind, visibility};
use super::grammar::Rule;
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::syntax::ast::*;

impl Ctx<'_> {
    pub(super) fn item(&self, pair: Pair<Rule>) -> Item {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = Children::of(pair);
        match rule {
            Rule::game_decl => Item::Game {
                name: self.string(inner.take(Rule::string)),
                span,
            },
            Rule::players_decl => {
                let count = self.piece_count(inner.take(Rule::piece_count));
                Item::Players {
                    count,
                    names: inner.take_many(Rule::ident).map(|p| self.ident(p)).collect(),
                    span,
                }
            }
            Rule::use_decl => Item::Use {
                path: self.string(inner.take(Rule::string)),
                span,
            },
            Rule::extends_decl => Item::Extends {
                path: self.string(inner.take(Rule::string)),
                span,
            },
            // The declaration replaced: `item` below tells the kinds apart.
            Rule::override_decl => Item::Override {
                item: Box::new(self.item(inner.take_any())),
                span,
            },
            Rule::named_override => {
                let kind = named_kind(inner.take(Rule::named_kind));
                let name = self.ident(inner.take(Rule::ident));
                Item::Named {
                    kind,
                    name,
                    body: self.block(inner.take(Rule::block)),
                }
            }
            Rule::table_decl => {
                let name = self.ident(inner.take(Rule::ident));
                let mut values: Vec<i64> = inner.take_many(Rule::int).map(|p| self.int(p)).collect();
                let mut keys = vec![];
                for entry in inner.take_many(Rule::keyed_entry) {
                    let mut parts = Children::of(entry);
                    keys.push(self.ident(parts.take(Rule::ident)));
                    values.push(self.int(parts.take(Rule::int)));
                }
                Item::Table {
                    name,
                    values,
                    keys,
                    span,
                }
            }
            Rule::constant_decl => {
                let name = self.ident(inner.take(Rule::ident));
                Item::Constant {
                    name,
                    value: self.expr(inner.take(Rule::expr)),
                }
            }
            Rule::anytime_decl => {
                let label_pair = inner.take(Rule::string);
                let label_span = self.span(&label_pair);
                let label = self.string(label_pair);
                let when = self.expr(inner.take(Rule::expr));
                Item::Anytime(AnytimeDecl {
                    label,
                    label_span,
                    when,
                    body: self.block(inner.take(Rule::block)),
                })
            }
            Rule::display_decl => {
                let kind = self.ident(inner.take(Rule::ident));
                if let Some(text) = inner.take_opt(Rule::piece_text) {
                    return Item::Text {
                        name: kind,
                        text: self.string(Children::of(text).take(Rule::string)),
                    };
                }
                if let Some(shape) = inner.take_opt(Rule::piece_shape) {
                    let mut parts = Children::of(shape);
                    parts.take(Rule::shape_word);
                    return Item::Shape {
                        name: kind,
                        shape: self.ident(parts.take(Rule::ident)),
                    };
                }
                if let Some(picture) = inner.take_opt(Rule::piece_picture) {
                    let mut parts = Children::of(picture);
                    parts.take(Rule::picture_word);
                    let string = parts.take(Rule::string);
                    return Item::Picture {
                        name: kind,
                        path_span: self.span(&string),
                        path: self.string(string),
                        svg: None,
                    };
                }
                if let Some(layout) = inner.take_opt(Rule::zone_layout) {
                    let fanned = layout.into_inner().any(|p| p.as_rule() == Rule::layout_fanned);
                    return Item::ZoneLayout { zone: kind, fanned };
                }
                match inner.take_opt(Rule::seat_colour) {
                    Some(hint) => {
                        let string = Children::of(hint).take(Rule::string);
                        Item::SeatColour {
                            seat: kind,
                            colour_span: self.span(&string),
                            colour: self.string(string),
                        }
                    }
                    None => Item::Display {
                        kind,
                        text: self.string(inner.take(Rule::string)),
                        span,
                    },
                }
            }
            Rule::kinds_decl => {
                let name = self.ident(inner.take(Rule::ident));
                Item::Kinds {
                    name,
                    values: inner.take_many(Rule::ident).map(|p| self.ident(p)).collect(),
                }
            }
            Rule::beats_decl => {
                let (mut pairs, mut ties) = (vec![], vec![]);
                for pair in inner.take_many(Rule::beats_pair) {
                    let mut two = Children::of(pair);
                    let a = self.ident(two.take(Rule::ident));
                    let tie = two.take(Rule::beats_op).as_str() == "=";
                    let b = self.ident(two.take(Rule::ident));
                    if tie { ties.push((a, b)) } else { pairs.push((a, b)) }
                }
                Item::Beats { pairs, span, ties }
            }
            Rule::option_decl => Item::Option(self.option(inner)),
            Rule::var_decl => {
                let name = self.ident(inner.take(Rule::ident));
                let each = if inner.take_opt(Rule::per_player).is_some() {
                    VarEach::Player
                } else if let Some(space) = inner.take_opt(Rule::per_space) {
                    VarEach::Space(self.ident(Children::of(space).take(Rule::ident)))
                } else if inner.take_opt(Rule::per_piece).is_some() {
                    VarEach::Piece
                } else {
                    VarEach::Game
                };
                Item::Var(VarDecl {
                    name,
                    each,
                    init: self.expr(inner.take(Rule::expr)),
                })
            }
            Rule::pieces_decl => Item::Pieces(
                inner
                    .take_many(Rule::piece_entry)
                    .map(|p| self.piece_entry(p))
                    .collect(),
            ),
            Rule::group_decl => {
                let name = self.ident(inner.take(Rule::ident));
                Item::Group {
                    name,
                    members: inner.take_many(Rule::ident).map(|p| self.ident(p)).collect(),
                }
            }
            Rule::board_decl => Item::Board(self.board(inner, span)),
            Rule::zones_decl => Item::Zones(
                inner
                    .take_many(Rule::zone_decl)
                    .map(|zone| {
                        let mut parts = Children::of(zone);
                        ZoneDecl {
                            name: self.ident(parts.take(Rule::ident)),
                            per_player: parts.take_opt(Rule::per_player).is_some(),
                            visibility: visibility(parts.take(Rule::visibility)),
                            unordered: parts.take_opt(Rule::unordered).map(|word| self.span(&word)),
                        }
                    })
                    .collect(),
            ),
            Rule::setup_decl => Item::Setup(self.block(inner.take(Rule::block))),
            Rule::flow_decl => Item::Flow(self.block(inner.take(Rule::block))),
            Rule::procedure_decl => {
                let name = self.ident(inner.take(Rule::ident));
                let params = self.params(inner.take(Rule::params));
                let returns = inner.take_opt(Rule::returns).map_or_else(Vec::new, |returns| {
                    Children::of(returns)
                        .take_many(Rule::ident)
                        .map(|p| self.ident(p))
                        .collect()
                });
                Item::Procedure(ProcedureDecl {
                    name,
                    params,
                    returns,
                    body: self.block(inner.take(Rule::block)),
                })
            }
            Rule::trigger_decl => {
                let name = self.ident(inner.take(Rule::ident));
                Item::Trigger {
                    name,
                    body: self.block(inner.take(Rule::block)),
                }
            }
            Rule::hook_decl => {
                let name = self.ident(inner.take(Rule::ident));
                let params = self.params(inner.take(Rule::params));
                let returns = match inner.take(Rule::hook_type).as_str() {
                    "int" => HookType::Int,
                    _ => HookType::Bool,
                };
                let body = inner.take(Rule::rhai_body);
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
                    .take_many(Rule::score_term)
                    .map(|term| {
                        let mut parts = Children::of(term);
                        let tie_breaker = parts.take_opt(Rule::tie_breaker).is_some();
                        let name = self.ident(parts.take(Rule::ident));
                        let value = self.expr(parts.take(Rule::expr));
                        ScoreTerm {
                            name,
                            value,
                            when: parts.take_opt(Rule::expr).map(|p| self.expr(p)),
                            tie_breaker,
                        }
                    })
                    .collect(),
                span,
            },
            Rule::result_decl => {
                let keys = inner
                    .take_many(Rule::rank_key)
                    .map(|key| {
                        let mut parts = Children::of(key);
                        let most = parts.take(Rule::rank_dir).as_str() == "most";
                        RankKey {
                            most,
                            value: self.expr(parts.take(Rule::expr)),
                        }
                    })
                    .collect();
                let choice = inner
                    .take_opt(Rule::result_else)
                    .map(|part| Children::of(part).take_one_of(&[Rule::else_draw, Rule::block]));
                let otherwise = match choice {
                    Some(block) if block.as_rule() == Rule::block => ResultElse::Block(self.block(block)),
                    _ => ResultElse::Draw,
                };
                Item::Result(ResultDecl { keys, otherwise, span })
            }
            other => unreachable!("not an item: {other:?}"),
        }
    }

    fn option(&self, mut inner: Children<'_>) -> OptionDecl {
        let name = self.ident(inner.take(Rule::ident));
        let ty_pair = inner.take(Rule::option_type);
        let ty_span = self.span(&ty_pair);
        let ty_inner =
            Children::of(ty_pair).take_one_of(&[Rule::bool_type, Rule::int_type, Rule::enum_type, Rule::list_type]);
        let ty = match ty_inner.as_rule() {
            Rule::bool_type => OptionType::Bool,
            Rule::int_type => {
                let (min, max) = self.int_bounds(ty_inner);
                OptionType::Int { min, max }
            }
            Rule::enum_type => OptionType::Enum(
                Children::of(ty_inner)
                    .take_many(Rule::ident)
                    .map(|p| self.ident(p))
                    .collect(),
            ),
            _ => {
                let mut parts = Children::of(ty_inner);
                let (min, max) = self.int_bounds(parts.take(Rule::int_type));
                let items = parts.take_opt(Rule::list_length).map(|length| {
                    let mut counts = Children::of(length);
                    let fewest = self.int(counts.take(Rule::int));
                    let most = self.int(counts.take(Rule::int));
                    (fewest, most)
                });
                OptionType::IntList { min, max, items }
            }
        };
        let literal = inner.take(Rule::literal);
        let lit_span = self.span(&literal);
        let value = Children::of(literal).take_one_of(&[Rule::int, Rule::bool_lit, Rule::list_lit, Rule::ident]);
        let kind = match value.as_rule() {
            Rule::int => LiteralKind::Int(self.int(value)),
            Rule::bool_lit => LiteralKind::Bool(value.as_str() == "true"),
            Rule::list_lit => {
                LiteralKind::List(Children::of(value).take_many(Rule::int).map(|p| self.int(p)).collect())
            }
            _ => LiteralKind::Name(value.as_str().to_string()),
        };
        let description = inner.take_opt(Rule::string).map(|p| self.string(p));
        OptionDecl {
            name,
            ty,
            ty_span,
            default: Literal { kind, span: lit_span },
            description,
        }
    }

    /// The `in MIN..MAX` of an `int` option type, when it has one.
    fn int_bounds(&self, int_type: Pair<Rule>) -> (Option<i64>, Option<i64>) {
        let mut bounds = Children::of(int_type);
        let min = bounds.take_opt(Rule::int).map(|p| self.int(p));
        let max = bounds.take_opt(Rule::int).map(|p| self.int(p));
        (min, max)
    }

    fn piece_entry(&self, pair: Pair<Rule>) -> PieceEntry {
        let span = self.span(&pair);
        let mut inner = Children::of(pair);
        let name = self.ident(inner.take(Rule::ident));
        let of_each = inner
            .take_opt(Rule::of_each)
            .map(|part| self.ident(Children::of(part).take(Rule::ident)));
        let values = inner.take_opt(Rule::with_value).map(|part| {
            let part_span = self.span(&part);
            let mut bounds = Children::of(part);
            let low = self.piece_count(bounds.take(Rule::piece_count));
            let high = bounds
                .take_opt(Rule::piece_count)
                .map_or_else(|| low.clone(), |p| self.piece_count(p));
            (low, high, part_span)
        });
        let faces = inner.take_opt(Rule::with_faces).map(|part| {
            let part_span = self.span(&part);
            let mut bounds = Children::of(part);
            let mut bound = || {
                let b = Children::of(bounds.take(Rule::face_bound)).take_one_of(&[Rule::int, Rule::ident]);
                if b.as_rule() == Rule::int {
                    FaceBound::Number(self.int(b))
                } else {
                    FaceBound::Name(self.ident(b))
                }
            };
            let low = bound();
            (low, bound(), part_span)
        });
        let copies = inner.take_opt(Rule::copies).map(|part| {
            let part_span = self.span(&part);
            let form = Children::of(part).take_any();
            let count = match form.as_rule() {
                Rule::copies_fixed => self.expr(Children::of(form).take(Rule::int)),
                _ => {
                    let mut parts = Children::of(form);
                    parts.take(Rule::copies_x);
                    self.expr(parts.take_any())
                }
            };
            (count, part_span)
        });
        let per_player = inner.take_opt(Rule::per_player).is_some();
        let home = self.ident(inner.take(Rule::ident));
        let kind_hidden = inner.take_opt(Rule::kind_hidden).is_some();
        let when = inner
            .take_opt(Rule::piece_when)
            .map(|part| self.expr(Children::of(part).take(Rule::expr)));
        PieceEntry {
            name,
            of_each,
            values,
            copies,
            faces,
            per_player,
            home,
            kind_hidden,
            when,
            span,
        }
    }

    /// A number, name or `( ... )` where a piece count or value is wanted.
    fn piece_count(&self, pair: Pair<Rule>) -> Expr {
        self.expr(Children::of(pair).take_any())
    }

    fn params(&self, pair: Pair<Rule>) -> Vec<Param> {
        Children::of(pair)
            .take_many(Rule::param)
            .map(|param| {
                let mut inner = Children::of(param);
                let name = self.ident(inner.take(Rule::ident));
                let ty = inner
                    .take_opt(Rule::type_name)
                    .map(|t| (t.as_str().to_string(), self.span(&t)));
                Param { name, ty }
            })
            .collect()
    }

    fn board(&self, mut inner: Children, span: Span) -> BoardDecl {
        let name = self.ident(inner.take(Rule::ident));
        let shape_pair = inner.take(Rule::board_shape);
        let shape_span = self.span(&shape_pair);
        let kind = Children::of(shape_pair).take_one_of(&[Rule::grid_shape, Rule::graph_shape]);
        let mut shape = if kind.as_rule() == Rule::grid_shape {
            let mut grid = Children::of(kind);
            let hex = grid.take_opt(Rule::hex_layout).is_some();
            let rows = self.piece_count(grid.take(Rule::piece_count));
            let cols = self.piece_count(grid.take(Rule::piece_count));
            BoardShape::Grid {
                rows: Box::new(rows),
                cols: Box::new(cols),
                hex,
            }
        } else {
            BoardShape::Graph(vec![])
        };
        let mut slots = vec![];
        let mut forward = vec![];
        // A board's parts come in any order.
        for part in inner.rest() {
            let part_span = self.span(&part);
            let rule = part.as_rule();
            let mut parts = Children::of(part);
            let graph_part = match rule {
                Rule::slot_decl => {
                    slots.push(SlotDecl {
                        name: self.ident(parts.take(Rule::ident)),
                        visibility: visibility(parts.take(Rule::visibility)),
                        unordered: parts.take_opt(Rule::unordered).map(|word| self.span(&word)),
                    });
                    continue;
                }
                Rule::ring_decl => {
                    let name = self.ident(parts.take(Rule::ident));
                    let count = self.piece_count(parts.take(Rule::piece_count));
                    GraphPart::Ring {
                        name,
                        count: Box::new(count),
                        wraps: parts.take_opt(Rule::wraps).is_some(),
                        along: parts.take_opt(Rule::laid_along).map(|along| {
                            let mut ends = Children::of(along);
                            let from = self.placed(ends.take(Rule::placed));
                            let to = self.placed(ends.take(Rule::placed));
                            (from, to)
                        }),
                    }
                }
                Rule::forward_decl => {
                    let seat = parts.take_one_of(&[Rule::seat_expr, Rule::ident]);
                    let seat = if seat.as_rule() == Rule::ident {
                        let name = self.ident(seat);
                        Expr {
                            span: name.span,
                            kind: ExprKind::Name(name),
                        }
                    } else {
                        self.expr(seat)
                    };
                    forward.push(ForwardDecl {
                        seat,
                        direction: self.ident(parts.take(Rule::ident)),
                        span: part_span,
                    });
                    continue;
                }
                Rule::space_decl => GraphPart::Space {
                    name: self.ident(parts.take(Rule::ident)),
                    at: parts.take_opt(Rule::placed_at).map(|at| self.placed_at(at)),
                },
                Rule::link_decl => {
                    let left = self.space_pattern(parts.take(Rule::space_pattern));
                    let right = self.space_pattern(parts.take(Rule::space_pattern));
                    GraphPart::Link(Box::new(LinkRule {
                        left,
                        right,
                        cond: parts.take_opt(Rule::expr).map(|p| self.expr(p)),
                        span: part_span,
                    }))
                }
                other => unreachable!("not part of a board: {other:?}"),
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
        BoardDecl {
            name,
            shape,
            shape_span,
            slots,
            span,
            forward,
        }
    }

    fn placed_at(&self, pair: Pair<Rule>) -> SpaceAt {
        self.placed(pair)
    }

    /// `(x, y)`, alone or after `at`: a picture's position.
    fn placed(&self, pair: Pair<Rule>) -> SpaceAt {
        let span = self.span(&pair);
        let mut inner = Children::of(pair);
        let mut coordinate = || {
            let text = inner.take(Rule::coordinate).as_str();
            text.parse::<i64>()
                .unwrap_or(if text.starts_with('-') { i64::MIN } else { i64::MAX })
        };
        let x = coordinate();
        let y = coordinate();
        SpaceAt { x, y, span }
    }

    fn space_pattern(&self, pair: Pair<Rule>) -> SpacePattern {
        let span = self.span(&pair);
        let mut inner = Children::of(pair);
        SpacePattern {
            name: self.ident(inner.take(Rule::ident)),
            index: inner.take_opt(Rule::expr).map(|p| self.expr(p)),
            span,
        }
    }
}
