//! Boards: a grid's or a graph's spaces, adjacency, lines and `forward`
//! directions, built from a `board` declaration, with the small constant
//! evaluator that graph `link` rules use.

use super::Declarer;
use crate::check::ids;
use crate::diagnostic::{Code, Diagnostic, nearest};
use crate::ir::{self, grid};
use crate::syntax::ast;

/// How far from the middle `at (x, y)` may place a space: ten times the
/// largest ring's radius.
const MAX_POSITION: i64 = 1000;

impl Declarer {
    /// The value of a size (`what` names it in diagnostics: "a grid's
    /// size"), or `None` after a diagnostic.
    pub(super) fn size(&mut self, expr: &ast::Expr, what: &str) -> Option<i64> {
        self.shape
            .value(expr)
            .map_err(|not| self.diags.push(not.diagnostic(what)))
            .ok()
    }

    /// The picture position of `space NAME at (x, y)`, or a diagnostic when
    /// it lies too far out to draw.
    fn space_position(&mut self, at: &ast::SpaceAt) -> Option<(i16, i16)> {
        let range = -MAX_POSITION..=MAX_POSITION;
        if range.contains(&at.x)
            && range.contains(&at.y)
            && let (Ok(x), Ok(y)) = (i16::try_from(at.x), i16::try_from(at.y))
        {
            return Some((x, y));
        }
        self.diags.push(
            Diagnostic::error(Code::BadBoard, "this position is too far out to draw")
                .label(at.span, "here")
                .help(format!(
                    "positions run from -{MAX_POSITION} to {MAX_POSITION} on each axis, where 100 is the radius of the largest ring"
                )),
        );
        None
    }

    /// Builds a board's spaces and adjacency, or reports why it cannot be built.
    pub(super) fn board(&mut self, board: &ast::BoardDecl) -> Option<ir::Board> {
        match &board.shape {
            ast::BoardShape::Grid { rows, cols, hex } => {
                let (rows, cols) = (self.size(rows, "a grid's size"), self.size(cols, "a grid's size"));
                // A grid that cannot be built is still declared, one space
                // large, so that its names do not show up as unknown too.
                let (rows, cols) = match (rows, cols) {
                    (Some(rows), Some(cols)) if (1..=64).contains(&rows) && (1..=64).contains(&cols) => (rows, cols),
                    (Some(rows), Some(cols)) => {
                        let diagnostic =
                            Diagnostic::error(Code::BadBoard, format!("a {rows} x {cols} grid is not supported"))
                                .label(board.shape_span, "here")
                                .help(
                                    "grids have 1 to 64 rows and columns; give a size option a range that keeps it so",
                                );
                        let diagnostic = self.shape.label_options(diagnostic);
                        self.diags.push(diagnostic);
                        (1, 1)
                    }
                    _ => (1, 1),
                };
                let (rows, cols) = (ids::index(rows), ids::index(cols));
                Some(ir::Board {
                    name: board.name.name.clone(),
                    rows,
                    cols,
                    hex: *hex,
                    lines: grid_lines(rows, cols, *hex),
                    groups: vec![ir::SpaceGroup {
                        at: None,
                        along: None,
                        name: board.name.name.clone(),
                        first: 0,
                        len: rows * cols,
                        numbered: true,
                    }],
                    adjacent: grid::grid_adjacency(rows, cols, *hex),
                    slots: vec![],
                    forward: self.forward(board),
                })
            }
            ast::BoardShape::Graph(parts) => self.graph(board, parts),
        }
    }

    fn graph(&mut self, board: &ast::BoardDecl, parts: &[ast::GraphPart]) -> Option<ir::Board> {
        const MAX_SPACES: i64 = 4096;
        let errors_before = self.diags.len();
        let mut groups: Vec<ir::SpaceGroup> = vec![];
        let mut edges: Vec<(u16, u16)> = vec![];
        let mut total: i64 = 0;
        for part in parts {
            let (name, len, numbered) = match part {
                ast::GraphPart::Ring { name, count: expr, .. } => {
                    // A ring that cannot be built is still declared, one
                    // space long, so that its name is not unknown too.
                    let count = self.size(expr, "a ring's size").unwrap_or(1);
                    if (1..=MAX_SPACES).contains(&count) {
                        (name, count, true)
                    } else {
                        let diagnostic =
                            Diagnostic::error(Code::BadBoard, format!("a ring of {count} spaces is not supported"))
                                .label(expr.span, "here")
                                .help(format!("a ring has 1 to {MAX_SPACES} spaces"));
                        let diagnostic = self.shape.label_options(diagnostic);
                        self.diags.push(diagnostic);
                        (name, 1, true)
                    }
                }
                ast::GraphPart::Space { name, .. } => (name, 1, false),
                ast::GraphPart::Link(_) => continue,
            };
            if let Some(first) = groups.iter().find(|g| g.name == name.name) {
                self.diags.push(
                    Diagnostic::error(Code::DuplicateDefinition, format!("`{}` is declared twice", name.name))
                        .label(name.span, "again here")
                        .help(format!("board `{}` already has `{}`", board.name.name, first.name)),
                );
                continue;
            }
            total += len;
            if total > MAX_SPACES {
                self.diags.push(
                    Diagnostic::error(
                        Code::BadBoard,
                        format!("board `{}` has too many spaces", board.name.name),
                    )
                    .label(name.span, format!("{total} spaces with this one"))
                    .help(format!("a board has at most {MAX_SPACES} spaces")),
                );
                return None;
            }
            // At most MAX_SPACES spaces, far below the limit of ids.
            let (first, len) = (ids::index(total - len), ids::index(len));
            if let ast::GraphPart::Ring { wraps, .. } = part {
                edges.extend((1..len).map(|i| (first + i - 1, first + i)));
                if *wraps && len > 2 {
                    edges.push((first + len - 1, first));
                }
            }
            let at = match part {
                ast::GraphPart::Space { at: Some(at), .. } => self.space_position(at),
                _ => None,
            };
            let along = match part {
                ast::GraphPart::Ring {
                    along: Some((from, to)),
                    ..
                } => self.space_position(from).zip(self.space_position(to)),
                _ => None,
            };
            groups.push(ir::SpaceGroup {
                name: name.name.clone(),
                first,
                len,
                numbered,
                at,
                along,
            });
        }
        if groups.is_empty() {
            self.diags.push(
                Diagnostic::error(Code::BadBoard, format!("board `{}` has no spaces", board.name.name))
                    .label(board.shape_span, "a graph with nothing in it")
                    .help("declare spaces with `ring NAME COUNT` or `space NAME`, then `link` them"),
            );
            return None;
        }
        for part in parts {
            if let ast::GraphPart::Link(rule) = part {
                self.link(&groups, rule, &mut edges);
            }
        }
        if self.diags[errors_before..].iter().any(Diagnostic::is_error) {
            return None;
        }
        let mut adjacent = vec![vec![]; total as usize];
        for (a, b) in edges {
            adjacent[a as usize].push(b);
            adjacent[b as usize].push(a);
        }
        for list in &mut adjacent {
            list.sort_unstable();
            list.dedup();
        }
        Some(ir::Board {
            name: board.name.name.clone(),
            rows: 0,
            cols: 0,
            hex: false,
            lines: vec![],
            groups,
            adjacent,
            slots: vec![],
            forward: vec![],
        })
    }

    /// `forward of SEAT is DIRECTION` lines: one direction per seat. A seat
    /// not named faces the opposite way of the first seat named.
    fn forward(&mut self, board: &ast::BoardDecl) -> Vec<u8> {
        let mut named: Vec<Option<u8>> = vec![None; self.def.seats.len()];
        let mut first = None;
        for decl in &board.forward {
            let seat = match &decl.seat.kind {
                ast::ExprKind::Seat(n) => usize::try_from(*n - 1).ok().filter(|&s| s < named.len()),
                ast::ExprKind::Name(name) => self.def.seats.iter().position(|s| *s == name.name),
                _ => None,
            };
            let Some(seat) = seat else {
                self.diags.push(
                    Diagnostic::error(Code::NoSuchPlayer, "`forward of` names a player the game does not have")
                        .label(decl.seat.span, "not a player")
                        .help("name a seat: `forward of player 1 is south`"),
                );
                continue;
            };
            let Some(direction) = grid::direction_named(&decl.direction.name) else {
                self.diags.push(
                    Diagnostic::error(Code::BadBoard, format!("`{}` is not a direction", decl.direction.name))
                        .label(decl.direction.span, "expected a compass direction")
                        .help("write north, south, east, west, northeast, northwest, southeast or southwest"),
                );
                continue;
            };
            named[seat] = Some(direction);
            first.get_or_insert(direction);
        }
        match first {
            Some(first) => named.iter().map(|d| d.unwrap_or(grid::opposite(first))).collect(),
            None => vec![],
        }
    }

    /// Adds the links one `link` rule makes. The index written as a bare
    /// name on the left (or else on the right) runs over that side's spaces.
    fn link(&mut self, groups: &[ir::SpaceGroup], rule: &ast::LinkRule, edges: &mut Vec<(u16, u16)>) {
        let (left, right, cond, span) = (&rule.left, &rule.right, rule.cond.as_ref(), rule.span);
        let mut sides = vec![];
        for side in [left, right] {
            match groups.iter().find(|g| g.name == side.name.name) {
                Some(g) => sides.push(g.clone()),
                None => {
                    let mut diag = Diagnostic::error(
                        Code::UnknownName,
                        format!("the board has no ring or space `{}`", side.name.name),
                    )
                    .label(side.name.span, "not declared in this board");
                    if let Some(near) = nearest(&side.name.name, groups.iter().map(|g| g.name.as_str())) {
                        diag = diag.help(format!("did you mean `{near}`?"));
                    }
                    self.diags.push(diag);
                    return;
                }
            }
        }
        let bare = |p: &ast::SpacePattern| match p.index.as_ref().map(|e| &e.kind) {
            Some(ast::ExprKind::Name(n)) => Some(n.name.clone()),
            _ => None,
        };
        let (var, range) = match (bare(left), bare(right)) {
            (Some(v), _) => (Some(v), 0..sides[0].len as i64),
            (None, Some(v)) => (Some(v), 0..sides[1].len as i64),
            (None, None) => (None, 0..1),
        };
        for i in range {
            let bound = var.as_deref().map(|v| (v, i));
            if let Some(cond) = cond {
                match const_eval(cond, bound) {
                    Ok(0) => continue,
                    Ok(_) => {}
                    Err(diag) => {
                        self.diags.push(diag);
                        return;
                    }
                }
            }
            let mut ends = [0u16; 2];
            for (k, (side, group)) in [left, right].iter().zip(&sides).enumerate() {
                let index = match &side.index {
                    None if group.len == 1 => 0,
                    None => {
                        self.diags.push(
                            Diagnostic::error(
                                Code::BadLink,
                                format!("`{}` has {} spaces: which one?", group.name, group.len),
                            )
                            .label(side.span, "name one space")
                            .help(format!(
                                "write `{}[i]` to link each of them, counting from 0",
                                group.name
                            )),
                        );
                        return;
                    }
                    Some(e) => match const_eval(e, bound) {
                        Ok(v) => v,
                        Err(diag) => {
                            self.diags.push(diag);
                            return;
                        }
                    },
                };
                if !(0..group.len as i64).contains(&index) {
                    let at = bound.map_or(String::new(), |(v, i)| format!(" when {v} = {i}"));
                    self.diags.push(
                        Diagnostic::error(Code::BadLink, format!("`{}[{index}]` does not exist{at}", group.name))
                            .label(side.span, format!("`{}` has spaces 0 to {}", group.name, group.len - 1))
                            .label(span, "in this link")
                            .help("use `%` to wrap around, or add `where` to leave out the indices that fall outside"),
                    );
                    return;
                }
                ends[k] = group.first + ids::index(index);
            }
            if ends[0] == ends[1] {
                self.diags.push(
                    Diagnostic::error(Code::BadLink, "a space cannot touch itself")
                        .label(span, format!("links `{}` to itself", space_label(groups, ends[0])))
                        .help("add `where` to leave that index out"),
                );
                return;
            }
            edges.push((ends[0], ends[1]));
        }
    }
}

fn space_label(groups: &[ir::SpaceGroup], space: u16) -> String {
    groups
        .iter()
        .find(|g| (g.first..g.first + g.len).contains(&space))
        .map_or_else(String::new, |g| {
            if g.numbered {
                format!("{}[{}]", g.name, space - g.first)
            } else {
                g.name.clone()
            }
        })
}

/// Evaluates a board rule's index or condition: numbers, the index name,
/// arithmetic, comparisons, `and`, `or`, `not`. True is 1, false 0.
fn const_eval(e: &ast::Expr, var: Option<(&str, i64)>) -> Result<i64, Diagnostic> {
    crate::syntax::deeper(|| const_eval_node(e, var))
}

fn const_eval_node(e: &ast::Expr, var: Option<(&str, i64)>) -> Result<i64, Diagnostic> {
    use ast::{BinOp, ExprKind, UnOp};
    let fail = |label: &str| {
        Diagnostic::error(Code::BadLink, "a link rule only computes with numbers and its index")
            .label(e.span, label.to_string())
            .help("write e.g. `link outer[i] -- inner[i / 2]`, or `where i % 2 == 0`")
    };
    Ok(match &e.kind {
        ExprKind::Int(n) => *n,
        ExprKind::Bool(b) => i64::from(*b),
        ExprKind::Name(n) => match var {
            Some((v, i)) if v == n.name => i,
            _ => return Err(fail(&format!("`{}` is not the index of this link", n.name))),
        },
        ExprKind::Unary { op, operand } => {
            let v = const_eval(operand, var)?;
            match op {
                UnOp::Not => i64::from(v == 0),
                UnOp::Neg => -v,
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (const_eval(lhs, var)?, const_eval(rhs, var)?);
            match op {
                BinOp::Add => a.saturating_add(b),
                BinOp::Sub => a.saturating_sub(b),
                BinOp::Mul => a.saturating_mul(b),
                BinOp::Div | BinOp::Rem if b == 0 => return Err(fail("divides by zero")),
                BinOp::Div => a.div_euclid(b),
                BinOp::Rem => a.rem_euclid(b),
                BinOp::Eq => i64::from(a == b),
                BinOp::Ne => i64::from(a != b),
                BinOp::Lt => i64::from(a < b),
                BinOp::Le => i64::from(a <= b),
                BinOp::Gt => i64::from(a > b),
                BinOp::Ge => i64::from(a >= b),
                BinOp::And => i64::from(a != 0 && b != 0),
                BinOp::Or => i64::from(a != 0 || b != 0),
                BinOp::Beats => return Err(fail("`beats` compares kinds")),
            }
        }
        _ => return Err(fail("not a number")),
    })
}

/// Rows, columns and, on a square grid, both diagonals; on a square hex
/// grid only the long diagonal from the top right corner is a line of
/// touching spaces.
fn grid_lines(rows: u16, cols: u16, hex: bool) -> Vec<Vec<u16>> {
    let mut lines = vec![];
    for r in 0..rows {
        lines.push((0..cols).map(|c| r * cols + c).collect());
    }
    for c in 0..cols {
        lines.push((0..rows).map(|r| r * cols + c).collect());
    }
    if rows == cols && rows > 1 {
        if !hex {
            lines.push((0..rows).map(|i| i * cols + i).collect());
        }
        lines.push((0..rows).map(|i| i * cols + (cols - 1 - i)).collect());
    }
    lines
}
