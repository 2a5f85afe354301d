//! Grid expressions: `board[r, c]`, `row of` and `column of` a space,
//! compass directions and `forward of` a seat, steps (`s + north`),
//! `exists`, `longest run of`, and the domains `directions`, `forwards of P`
//! and a single space.

use super::writer::JumpKind;
use super::{Compiler, LoopCtx};
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{Op, grid};
use crate::syntax::ast::{self, Expr, ExprKind};

/// The names `X of Y` understands for grids, unless the game declares them.
const GRID_BUILTINS: &[&str] = &["row", "column", "forward", "backward", "forwards"];

/// A domain of directions or of one space; see [`Compiler::grid_domain`].
#[derive(Clone, Copy)]
pub(super) enum GridDomain {
    /// `directions`: the eight compass points, clockwise from north;
    /// `orthogonals` and `diagonals`: four of them.
    Directions(Compass),
    /// `forwards of P`: forward and its two diagonals.
    Forwards,
    /// `here + north` or `board[r, c]`: that space, or nothing off the board.
    OneSpace,
}

/// Which compass points a direction domain holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Compass {
    /// All eight, clockwise from north (`directions`).
    All,
    /// North, east, south and west (`orthogonals`).
    Orthogonal,
    /// Northeast, southeast, southwest and northwest (`diagonals`).
    Diagonal,
}

impl Compass {
    /// The domain a name stands for: `directions`, `orthogonals`, `diagonals`.
    fn named(name: &str) -> Option<Compass> {
        match name {
            "directions" => Some(Compass::All),
            "orthogonals" => Some(Compass::Orthogonal),
            "diagonals" => Some(Compass::Diagonal),
            _ => None,
        }
    }
}

impl Compiler {
    fn is_declared(&self, name: &str) -> bool {
        self.find_local(name).is_some() || self.globals.names.contains_key(name)
    }

    /// Reports a board that is not a grid; true when it is one.
    fn grid_board(&mut self, board: u16, span: Span, what: &str) -> bool {
        let b = &self.def.boards[board as usize];
        if b.rows > 0 {
            return true;
        }
        let name = b.name.clone();
        self.error(
            Diagnostic::error(
                Code::NotAGrid,
                format!("{what} needs a grid, and `{name}` is a graph board"),
            )
            .label(span, "here")
            .help("rows, columns and directions belong to `board NAME: grid R x C { ... }`"),
        );
        false
    }

    /// A compass direction named alone (`north`), when nothing else has the name.
    pub(super) fn direction_value(&mut self, name: &ast::Ident) -> Option<Ty> {
        if self.is_declared(&name.name) {
            return None;
        }
        if Compass::named(&name.name).is_some() {
            let set = &name.name;
            self.error(
                Diagnostic::error(Code::TypeMismatch, format!("`{set}` is a set, not a value")).label(
                    name.span,
                    format!("use it in `for d in {set}` or `chooses d from {set}`"),
                ),
            );
            return Some(Ty::Error);
        }
        let direction = grid::direction_named(&name.name)?;
        self.emit(Op::Push(direction as i64), name.span);
        Some(Ty::Direction)
    }

    /// `row of s`, `column of s`, `forward of P`, `backward of P`; `None`
    /// for any other name, or one the game declares itself.
    pub(super) fn grid_of(&mut self, name: &ast::Ident, arg: &Expr, span: Span) -> Option<Ty> {
        if !GRID_BUILTINS.contains(&name.name.as_str()) || self.is_declared(&name.name) {
            return None;
        }
        Some(match name.name.as_str() {
            "row" | "column" => match self.expr(arg) {
                Ty::Space(board) => {
                    if self.grid_board(board, span, &format!("`{} of`", name.name)) {
                        self.emit(
                            Op::Coordinate {
                                board,
                                column: name.name == "column",
                            },
                            span,
                        );
                    }
                    Ty::Int
                }
                Ty::Error => Ty::Int,
                other => {
                    self.mismatch(arg, &other, &Ty::Space(0));
                    Ty::Int
                }
            },
            "forwards" => {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        "`forwards of` is a set of directions, not one value",
                    )
                    .label(span, "use it where directions are gone through")
                    .help("write `for d in forwards of P { ... }`, or `forward of P` for straight ahead"),
                );
                Ty::Error
            }
            _ => {
                self.expect(arg, &Ty::Seat);
                self.forward_op(name.name == "backward", span);
                Ty::Direction
            }
        })
    }

    /// `seat -> direction`: the way the seat moves on the game's one board.
    fn forward_op(&mut self, backward: bool, span: Span) {
        let Some(board) = self.only_board(span, "`forward of`") else {
            return;
        };
        if !self.grid_board(board, span, "`forward of`") {
            return;
        }
        if self.def.boards[board as usize].forward.is_empty() {
            let name = self.def.boards[board as usize].name.clone();
            self.error(
                Diagnostic::error(
                    Code::NotAGrid,
                    format!("board `{name}` does not say which way is forward"),
                )
                .label(span, "forward for whom?")
                .help(format!(
                    "declare it in the board: `board {name}: grid ... {{ forward of player 1 is south ... }}`"
                )),
            );
            return;
        }
        self.emit(Op::Forward { board, backward }, span);
    }

    /// `space + direction`: the next space that way, or no space.
    pub(super) fn step(&mut self, board: u16, rhs: &Expr, span: Span) -> Ty {
        self.expect(rhs, &Ty::Direction);
        if self.grid_board(board, span, "a step in a direction") {
            self.emit(Op::Step(board), span);
        }
        Ty::Space(board)
    }

    /// `square of here + south` is `(square of here) + south`: a zone plus
    /// something. When it is a direction, say where the brackets go.
    pub(super) fn step_from_zone(&mut self, lhs: &Expr, rhs: &Expr) -> Ty {
        let right = self.expr(rhs);
        let text = self.def.sources.text(lhs.span).to_string();
        let mut diag = Diagnostic::error(Code::TypeMismatch, format!("expected a number, but `{text}` is a zone"))
            .label(lhs.span, "this is a zone");
        if right == Ty::Direction
            && let ExprKind::Of { name, arg } = &lhs.kind
        {
            let space = self.def.sources.text(arg.span).to_string();
            let way = self.def.sources.text(rhs.span).to_string();
            diag = diag.help(format!(
                "`of` binds tighter than `+`: to step from the space, write `{} of ({space} + {way})`",
                name.name
            ));
        }
        self.error(diag);
        Ty::Error
    }

    /// `board[r, c]`, rows and columns from 1.
    pub(super) fn cell_at(&mut self, board: &ast::Ident, row: &Expr, column: &Expr, span: Span) -> Ty {
        let id = match self.globals.get(&board.name) {
            Some(Symbol::Board(b)) => Some(b),
            other => {
                self.unknown_or_wrong(&board.name, board.span, other, "a grid board", "boards");
                None
            }
        };
        self.expect(row, &Ty::Int);
        self.expect(column, &Ty::Int);
        match id {
            Some(b) if self.grid_board(b, span, "`[row, column]`") => {
                self.emit(Op::CellAt(b), span);
                Ty::Space(b)
            }
            Some(b) => Ty::Space(b),
            None => Ty::Error,
        }
    }

    /// `exists s`: whether the space is on the board.
    pub(super) fn exists(&mut self, space: &Expr, span: Span) -> Ty {
        match self.expr(space) {
            Ty::Space(_) | Ty::Error => {}
            other => self.mismatch(space, &other, &Ty::Space(0)),
        }
        self.emit(Op::Push(grid::NO_SPACE), span);
        self.emit(Op::Ne, span);
        Ty::Bool
    }

    /// `longest run of F in slot of board`.
    pub(super) fn longest_run(
        &mut self,
        filter: &ast::Filter,
        slot: &ast::Ident,
        board: &ast::Ident,
        span: Span,
    ) -> Ty {
        let Some((board_id, family)) = self.board_slot(slot, board, "a grid board") else {
            return Ty::Error;
        };
        let matcher = self.matcher(filter);
        if self.def.boards[board_id as usize].hex {
            self.error(
                Diagnostic::error(
                    Code::NotAGrid,
                    format!(
                        "`longest run of` counts along a square grid's lines, and `{}` is a hex grid",
                        board.name
                    ),
                )
                .label(span, "here")
                .help("on a hex grid, ask whether pieces link two sides with `chain of ... joins north to south`"),
            );
        } else if self.grid_board(board_id, span, "`longest run of`") {
            self.emit(
                Op::LongestRun {
                    board: board_id,
                    family,
                    matcher,
                },
                span,
            );
        }
        Ty::Int
    }

    /// `chain of F in slot of board joins EDGE to EDGE`.
    pub(super) fn chain(
        &mut self,
        filter: &ast::Filter,
        slot: &ast::Ident,
        board: &ast::Ident,
        edges: &[ast::Ident; 2],
        span: Span,
    ) -> Ty {
        let Some((board_id, family)) = self.board_slot(slot, board, "a grid board") else {
            return Ty::Error;
        };
        let matcher = self.matcher(filter);
        let from = self.edge(&edges[0]);
        let to = self.edge(&edges[1]);
        if let (Some(a), Some(b)) = (from, to)
            && a == b
        {
            self.error(
                Diagnostic::error(
                    Code::NotAnEdge,
                    format!("a chain joins two sides, and `{}` is named twice", edges[1].name),
                )
                .label(edges[1].span, "the same side again")
                .help(format!(
                    "name the other side: `joins {} to {}`",
                    edges[0].name,
                    grid::direction_name(i64::from(grid::opposite(a)))
                )),
            );
        }
        if self.grid_board(board_id, span, "`chain of`")
            && let (Some(from), Some(to)) = (from, to)
        {
            self.emit(
                Op::Chain {
                    board: board_id,
                    family,
                    matcher,
                    from,
                    to,
                },
                span,
            );
        }
        Ty::Bool
    }

    /// A side of a grid, named by the direction past it (`north`: the top row).
    fn edge(&mut self, name: &ast::Ident) -> Option<u8> {
        match grid::direction_named(&name.name) {
            Some(d) if grid::is_edge(d) => Some(d),
            found => {
                let what = match found {
                    Some(_) => format!("`{}` is a corner, not a side of the grid", name.name),
                    None => format!("`{}` is not a side of the grid", name.name),
                };
                self.error(
                    Diagnostic::error(Code::NotAnEdge, what)
                        .label(name.span, "a side here")
                        .help("a chain joins two of the sides `north`, `east`, `south` and `west`"),
                );
                None
            }
        }
    }

    /// Which grid domain an expression is, if any: `directions`,
    /// `forwards of P`, or a single space written as a step or `board[r, c]`.
    pub(super) fn grid_domain(&self, e: &Expr) -> Option<GridDomain> {
        match &e.kind {
            ExprKind::Name(n) if !self.is_declared(&n.name) => Compass::named(&n.name).map(GridDomain::Directions),
            ExprKind::Of { name, .. } if name.name == "forwards" && !self.is_declared(&name.name) => {
                Some(GridDomain::Forwards)
            }
            ExprKind::CellAt { .. }
            | ExprKind::Binary {
                op: ast::BinOp::Add, ..
            } => Some(GridDomain::OneSpace),
            _ => None,
        }
    }

    /// Goes through a grid domain: `body` gets the local holding the value
    /// and its type, which is also returned.
    pub(super) fn grid_loop(
        &mut self,
        shape: GridDomain,
        e: &Expr,
        span: Span,
        body: &mut dyn FnMut(&mut Compiler, u16, &Ty),
    ) -> Ty {
        let value = self.temp();
        match shape {
            GridDomain::OneSpace => {
                let ty = self.expr(e);
                if !matches!(ty, Ty::Space(_) | Ty::Error) {
                    self.mismatch(e, &ty, &Ty::Space(0));
                }
                self.emit(Op::Store(value), e.span);
                self.emit(Op::Load(value), span);
                self.emit(Op::Push(grid::NO_SPACE), span);
                self.emit(Op::Eq, span);
                let off_board = self.emit_jump(JumpKind::IfTrue, span);
                self.f.loops.push(LoopCtx {
                    breaks: vec![off_board],
                });
                body(self, value, &ty);
                self.close_loop();
                ty
            }
            GridDomain::Directions(compass) => self.direction_range(value, Around::Compass(compass), span, body),
            GridDomain::Forwards => {
                let ExprKind::Of { arg, .. } = &e.kind else {
                    unreachable!("`forwards of P` is an `of`")
                };
                let ahead = self.temp();
                self.expect(arg, &Ty::Seat);
                self.forward_op(false, e.span);
                self.emit(Op::Store(ahead), e.span);
                self.direction_range(value, Around::Ahead(ahead), span, body)
            }
        }
    }

    /// The directions of `around`: the compass's (0 to 7, the even ones,
    /// or the odd ones), or the three around `local[ahead]` (its left
    /// diagonal, itself, its right diagonal).
    fn direction_range(
        &mut self,
        value: u16,
        around: Around,
        span: Span,
        body: &mut dyn FnMut(&mut Compiler, u16, &Ty),
    ) -> Ty {
        let index = self.temp();
        let count = match around {
            Around::Compass(Compass::All) => 8,
            Around::Compass(_) => 4,
            Around::Ahead(_) => 3,
        };
        self.emit(Op::Push(0), span);
        self.emit(Op::Store(index), span);
        let top = self.here();
        self.emit(Op::Load(index), span);
        self.emit(Op::Push(count), span);
        self.emit(Op::Lt, span);
        let exit = self.emit_jump(JumpKind::IfFalse, span);
        self.emit(Op::Load(index), span);
        match around {
            Around::Compass(Compass::All) => {}
            // 0, 2, 4, 6 (north, east, south, west), or 1, 3, 5, 7.
            Around::Compass(compass) => {
                self.emit(Op::Push(2), span);
                self.emit(Op::Mul, span);
                if compass == Compass::Diagonal {
                    self.emit(Op::Push(1), span);
                    self.emit(Op::Add, span);
                }
            }
            Around::Ahead(ahead) => {
                // ahead - 1, ahead, ahead + 1, turning clockwise.
                self.emit(Op::Load(ahead), span);
                self.emit(Op::Add, span);
                self.emit(Op::Push(7), span);
                self.emit(Op::Add, span);
                self.emit(Op::Push(8), span);
                self.emit(Op::Rem, span);
            }
        }
        self.emit(Op::Store(value), span);
        self.f.loops.push(LoopCtx { breaks: vec![exit] });
        body(self, value, &Ty::Direction);
        self.emit(Op::Load(index), span);
        self.emit(Op::Push(1), span);
        self.emit(Op::Add, span);
        self.emit(Op::Store(index), span);
        self.emit_jump_back(JumpKind::Always, top, span);
        self.close_loop();
        Ty::Direction
    }
}

/// What a loop over directions goes round.
#[derive(Clone, Copy)]
enum Around {
    /// A set of compass points.
    Compass(Compass),
    /// The three around the direction in this local.
    Ahead(u16),
}
