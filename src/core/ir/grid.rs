//! Coordinates, compass directions and runs on a grid board.
//!
//! A grid's spaces are numbered in reading order from 0; designers see rows
//! and columns counted from 1, row 1 at the top. A direction is one of eight
//! compass points, numbered clockwise from north. "No space" (a step off the
//! board, or `board[r, c]` outside it) is [`NO_SPACE`]; `exists` tests for it
//! and anything that needs a real space stops with a clear error.

use super::id::{id_from_index, id_from_value};

/// The value of a space expression that fell off the board.
pub const NO_SPACE: i64 = -1;

/// The compass points, clockwise from north: name, rows down, columns right.
pub const DIRECTIONS: [(&str, i64, i64); 8] = [
    ("north", -1, 0),
    ("northeast", -1, 1),
    ("east", 0, 1),
    ("southeast", 1, 1),
    ("south", 1, 0),
    ("southwest", 1, -1),
    ("west", 0, -1),
    ("northwest", -1, -1),
];

/// The direction called `name` ("north"), if any.
pub fn direction_named(name: &str) -> Option<u8> {
    DIRECTIONS.iter().position(|(n, ..)| *n == name).map(|d| d as u8)
}

/// "north" for 0; a number for anything else.
pub fn direction_name(direction: i64) -> String {
    usize::try_from(direction)
        .ok()
        .and_then(|d| DIRECTIONS.get(d))
        .map_or_else(|| direction.to_string(), |(n, ..)| (*n).to_string())
}

/// The direction pointing the other way.
pub fn opposite(direction: u8) -> u8 {
    (direction + 4) % 8
}

impl Board {
    /// The space at `row`, `column` (from 1), or [`NO_SPACE`].
    pub fn cell(&self, row: i64, column: i64) -> i64 {
        if (1..=self.rows as i64).contains(&row) && (1..=self.cols as i64).contains(&column) {
            (row - 1) * self.cols as i64 + column - 1
        } else {
            NO_SPACE
        }
    }

    /// `(row, column)` of a space, from 1.
    pub fn coordinates(&self, space: u16) -> (i64, i64) {
        let cols = self.cols.max(1) as i64;
        (space as i64 / cols + 1, space as i64 % cols + 1)
    }

    /// One step from `space` toward `direction`, or [`NO_SPACE`] off the
    /// board (a step from no space stays nowhere).
    pub fn step(&self, space: i64, direction: i64) -> i64 {
        let Some(&(_, down, right)) = usize::try_from(direction).ok().and_then(|d| DIRECTIONS.get(d)) else {
            return NO_SPACE;
        };
        if !(0..self.spaces() as i64).contains(&space) {
            return NO_SPACE;
        }
        let (row, column) = self.coordinates(id_from_value(space));
        self.cell(row + down, column + right)
    }

    /// The most consecutive spaces, along a row, a column or a diagonal, for
    /// which `holds` is true. `holds` is asked once per space.
    ///
    /// One pass in reading order: the run ending at a space going east,
    /// southeast, south or southwest (which cover every line once) is one
    /// more than the run ending at the space before it on that line, which
    /// lies in the same row to the west or in the row above.
    pub fn longest_run(&self, holds: impl Fn(u16) -> bool) -> i64 {
        // This runs after every move of a game of lining pieces up: a board
        // that fits a machine word is read as bits, and otherwise the runs
        // of two rows live on the stack unless the board is very wide.
        const ON_STACK: usize = 64;
        let cols = self.cols as usize;
        if self.rows as usize * (cols + 1) <= 64 {
            self.longest_run_in_bits(holds)
        } else if cols <= ON_STACK {
            self.longest_run_in(holds, &mut [[0; 3]; ON_STACK][..cols], &mut [[0; 3]; ON_STACK][..cols])
        } else {
            self.longest_run_in(holds, &mut vec![[0; 3]; cols], &mut vec![[0; 3]; cols])
        }
    }

    /// [`Board::longest_run`] for the spaces in `held` (in any order, a
    /// space may come more than once): what a game asks after a move, with
    /// the spaces its pieces stand on.
    pub fn longest_run_of(&self, held: impl IntoIterator<Item = u16>) -> i64 {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        if rows * (cols + 1) <= 64 {
            let bits = held
                .into_iter()
                .map(|space| space as usize)
                .filter(|&space| space < rows * cols)
                .fold(0u64, |bits, space| {
                    bits | 1 << (space / cols * (cols + 1) + space % cols)
                });
            return Self::longest_run_of_bits(bits, cols + 1);
        }
        let mut holds = vec![false; rows * cols];
        for space in held {
            if let Some(h) = holds.get_mut(space as usize) {
                *h = true;
            }
        }
        self.longest_run(|space| holds[space as usize])
    }

    /// [`Board::longest_run`] on a board whose rows, each with one more
    /// column as a guard, fit in 64 bits: space (row, column) is bit
    /// `row * (cols + 1) + column`. A line is a shift: east 1, south
    /// `cols + 1`, southeast one more and southwest one less, and the guard
    /// column, never held, ends every line at the edge. `held &= held >>
    /// shift` keeps the spaces that start a run one longer along that line,
    /// so the rounds until nothing is left are the longest run.
    fn longest_run_in_bits(&self, holds: impl Fn(u16) -> bool) -> i64 {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        let width = cols + 1;
        let mut held = 0u64;
        for row in 0..rows {
            for column in 0..cols {
                if holds(id_from_index(row * cols + column)) {
                    held |= 1 << (row * width + column);
                }
            }
        }
        Self::longest_run_of_bits(held, width)
    }

    /// Per space, its bit in the layout of [`Board::longest_run_in_bits`],
    /// when the board fits in it: worked out once, as a game asks for the
    /// longest run after every move.
    pub(crate) fn run_bits(&self) -> Option<Vec<u8>> {
        let (rows, cols) = (self.rows as usize, self.cols as usize);
        (rows * (cols + 1) <= 64).then(|| {
            (0..rows * cols)
                .map(|space| (space / cols * (cols + 1) + space % cols) as u8)
                .collect()
        })
    }

    /// The longest run of set bits in `held`, a board laid out as in
    /// [`Board::longest_run_in_bits`] with rows `width` bits apart.
    pub(crate) fn longest_run_of_bits(held: u64, width: usize) -> i64 {
        [1, width, width + 1, width - 1]
            .into_iter()
            .map(|shift| {
                let (mut starts, mut run) = (held, 0);
                while starts != 0 {
                    starts &= starts >> shift;
                    run += 1;
                }
                run
            })
            .max()
            .unwrap_or(0)
    }

    /// [`Board::longest_run`], with a row's worth of room for the runs ending
    /// in each column going southeast, south and southwest: in the row
    /// above, and in this row.
    fn longest_run_in<'a>(
        &self,
        holds: impl Fn(u16) -> bool,
        mut above: &'a mut [[u16; 3]],
        mut row_runs: &'a mut [[u16; 3]],
    ) -> i64 {
        let cols = self.cols as usize;
        let mut best = 0;
        for row in 0..self.rows as usize {
            let mut east = 0;
            for column in 0..cols {
                let space = id_from_index(row * cols + column);
                if !holds(space) {
                    east = 0;
                    row_runs[column] = [0; 3];
                    continue;
                }
                east += 1;
                let southeast = 1 + column.checked_sub(1).map_or(0, |c| above[c][0]);
                let south = 1 + above[column][1];
                let southwest = 1 + above.get(column + 1).map_or(0, |runs| runs[2]);
                row_runs[column] = [southeast, south, southwest];
                best = best.max(east).max(southeast).max(south).max(southwest);
            }
            std::mem::swap(&mut above, &mut row_runs);
        }
        i64::from(best)
    }
}

/// The six neighbours of a space on a hex grid, as compass steps: each row
/// sits half a space right of the one above, so the space up and to the
/// right (northeast) and the one down and to the left (southwest) touch it,
/// and northwest and southeast do not.
pub const HEX_NEIGHBOURS: [u8; 6] = [0, 1, 2, 4, 5, 6];

/// Whether `direction` is one of the four edges of a grid: north, east,
/// south or west.
pub fn is_edge(direction: u8) -> bool {
    direction.is_multiple_of(2) && direction < 8
}

/// Per space of a grid in reading order, the spaces it touches, ascending:
/// above, below, left and right; on a hex grid also up-right and
/// down-left ([`HEX_NEIGHBOURS`]).
pub fn grid_adjacency(rows: u16, cols: u16, hex: bool) -> Vec<Vec<u16>> {
    let around: &[u8] = if hex { &HEX_NEIGHBOURS } else { &[0, 2, 4, 6] };
    let (rows, cols) = (i64::from(rows), i64::from(cols));
    (0..rows * cols)
        .map(|space| {
            let (row, column) = (space / cols, space % cols);
            let mut near: Vec<u16> = around
                .iter()
                .map(|&d| DIRECTIONS[usize::from(d)])
                .map(|(_, down, right)| (row + down, column + right))
                .filter(|&(r, c)| (0..rows).contains(&r) && (0..cols).contains(&c))
                .map(|(r, c)| id_from_value(r * cols + c))
                .collect();
            near.sort_unstable();
            near
        })
        .collect()
}

impl Board {
    /// Whether spaces for which `holds` is true, each touching the next
    /// (as the board's `adjacent` says), link a space on the `from` edge
    /// to one on the `to` edge. An edge is named by a direction: the
    /// spaces with no space beyond them that way (`north`: the top row).
    pub fn joins(&self, holds: impl Fn(u16) -> bool, from: u8, to: u8) -> bool {
        // Asked after every move of a connection game: the work space
        // lives on the stack, sized to the board, unless it is very large.
        let spaces = usize::from(self.spaces());
        if spaces <= 128 {
            self.joins_with(holds, from, to, &mut [0; 2], &mut [0; 128])
        } else if spaces <= 1024 {
            self.joins_with(holds, from, to, &mut [0; 16], &mut [0; 1024])
        } else {
            self.joins_with(holds, from, to, &mut vec![0; spaces.div_ceil(64)], &mut vec![0; spaces])
        }
    }

    /// Whether `space` lies on the grid's `edge` (north: the top row).
    fn on_edge(&self, space: u16, edge: u8) -> bool {
        let (rows, cols) = (self.rows, self.cols.max(1));
        match edge {
            0 => space < cols,
            2 => space % cols == cols - 1,
            4 => space >= (rows.max(1) - 1) * cols,
            6 => space.is_multiple_of(cols),
            _ => self.step(i64::from(space), i64::from(edge)) == NO_SPACE,
        }
    }

    /// The spaces along the grid's `edge`, in reading order.
    fn edge_spaces(&self, edge: u8) -> impl Iterator<Item = u16> {
        let (rows, cols) = (self.rows, self.cols);
        let (first, stride, len) = match edge {
            0 => (0, 1, cols),
            2 => (cols.saturating_sub(1), cols, rows),
            4 => (rows.saturating_sub(1) * cols, 1, cols),
            _ => (0, cols, rows),
        };
        (0..len).map(move |i| first + i * stride)
    }

    /// [`Board::joins`] with its work space: a bit per space met, and a
    /// stack as long as the board has spaces. A flood from every held space
    /// on the first edge; each space is pushed once.
    fn joins_with(&self, holds: impl Fn(u16) -> bool, from: u8, to: u8, seen: &mut [u64], stack: &mut [u16]) -> bool {
        let mut top = 0;
        for space in self.edge_spaces(from) {
            if holds(space) {
                seen[usize::from(space) / 64] |= 1 << (space % 64);
                stack[top] = space;
                top += 1;
            }
        }
        while top > 0 {
            top -= 1;
            let space = stack[top];
            if self.on_edge(space, to) {
                return true;
            }
            for &next in &self.adjacent[usize::from(space)] {
                let (word, bit) = (usize::from(next) / 64, 1u64 << (next % 64));
                if seen[word] & bit == 0 && holds(next) {
                    seen[word] |= bit;
                    stack[top] = next;
                    top += 1;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joins_on(rows: u16, cols: u16, hex: bool, held: &[u16], from: &str, to: &str) -> bool {
        let mut b = grid(rows, cols);
        b.hex = hex;
        b.adjacent = grid_adjacency(rows, cols, hex);
        let edge = |name| direction_named(name).expect("a direction");
        b.joins(|s| held.contains(&s), edge(from), edge(to))
    }

    #[test]
    fn a_chain_joins_two_edges_through_touching_spaces() {
        // 3 x 3, reading order:  0 1 2 / 3 4 5 / 6 7 8.
        let column = [1, 4, 7];
        assert!(joins_on(3, 3, false, &column, "north", "south"));
        assert!(!joins_on(3, 3, false, &column, "west", "east"));
        // Up-right to down-left touches on a hex grid, not on a square one.
        let slant = [2, 4, 6];
        assert!(joins_on(3, 3, true, &slant, "north", "south"));
        assert!(joins_on(3, 3, true, &slant, "west", "east"));
        assert!(!joins_on(3, 3, false, &slant, "north", "south"));
        // The other diagonal touches on neither.
        assert!(!joins_on(3, 3, true, &[0, 4, 8], "north", "south"));
        // A chain that turns back still counts; a gap does not.
        assert!(joins_on(3, 3, false, &[0, 3, 4, 5, 8], "north", "south"));
        assert!(!joins_on(3, 3, false, &[0, 3, 5, 8], "north", "south"));
        // A space on both edges joins them alone; nothing joins nothing.
        assert!(joins_on(1, 3, false, &[1], "north", "south"));
        assert!(!joins_on(3, 3, true, &[], "north", "south"));
        // Boards of every size of work space give the same answers.
        let column: Vec<u16> = (0..20).map(|r| r * 20 + 3).collect();
        assert!(joins_on(20, 20, false, &column, "south", "north"));
        assert!(!joins_on(20, 20, false, &column, "east", "west"));
        let long: Vec<u16> = (0..50).map(|r| r * 40 + 7).collect();
        assert!(joins_on(50, 40, true, &long, "north", "south"));
        assert!(!joins_on(50, 40, true, &long[1..], "north", "south"));
    }

    #[test]
    fn a_hex_space_touches_six() {
        let near = grid_adjacency(3, 3, true);
        assert_eq!(near[4], vec![1, 2, 3, 5, 6, 7]);
        assert_eq!(near[0], vec![1, 3]);
        assert_eq!(near[2], vec![1, 4, 5]);
        assert_eq!(grid_adjacency(3, 3, false)[4], vec![1, 3, 5, 7]);
    }

    fn grid(rows: u16, cols: u16) -> Board {
        Board {
            name: "b".into(),
            rows,
            cols,
            hex: false,
            lines: vec![],
            groups: vec![],
            adjacent: vec![vec![]; (rows * cols) as usize],
            slots: vec![],
            forward: vec![],
        }
    }

    #[test]
    fn steps_stay_on_the_board() {
        let b = grid(6, 7);
        assert_eq!(b.cell(1, 1), 0);
        assert_eq!(b.cell(6, 7), 41);
        assert_eq!(b.cell(0, 1), NO_SPACE);
        assert_eq!(b.coordinates(8), (2, 2));
        let south = direction_named("south").unwrap() as i64;
        assert_eq!(b.step(0, south), 7);
        assert_eq!(b.step(41, south), NO_SPACE);
        assert_eq!(b.step(NO_SPACE, south), NO_SPACE);
        // West of the first column is off the board, not the row above.
        assert_eq!(b.step(7, direction_named("west").unwrap() as i64), NO_SPACE);
    }

    #[test]
    fn runs_follow_every_line() {
        let b = grid(6, 7);
        let diagonal = [b.cell(3, 1), b.cell(4, 2), b.cell(5, 3), b.cell(6, 4)];
        assert_eq!(b.longest_run(|s| diagonal.contains(&(s as i64))), 4);
        let anti = [b.cell(1, 7), b.cell(2, 6), b.cell(3, 5)];
        assert_eq!(b.longest_run(|s| anti.contains(&(s as i64))), 3);
        assert_eq!(b.longest_run(|_| false), 0);
        assert_eq!(b.longest_run(|_| true), 7);
    }

    /// The longest run found by walking every line from every space.
    fn walked_run(b: &Board, holds: &dyn Fn(u16) -> bool) -> i64 {
        let mut best = 0;
        for space in 0..b.rows * b.cols {
            for direction in 0..8 {
                let mut length = 0;
                let mut here = space as i64;
                while here != NO_SPACE && holds(here as u16) {
                    length += 1;
                    here = b.step(here, direction);
                }
                best = best.max(length);
            }
        }
        best
    }

    #[test]
    fn runs_match_a_walk_along_every_line() {
        // Pseudo-random fillings of boards of several shapes, denser and sparser.
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for (rows, cols) in [(1, 1), (1, 5), (5, 1), (3, 3), (6, 7), (8, 7), (8, 8), (4, 9), (3, 70)] {
            let b = grid(rows, cols);
            for density in [2, 3, 5] {
                for _ in 0..20 {
                    let filled: Vec<bool> = (0..rows * cols)
                        .map(|_| {
                            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                            !(seed >> 33).is_multiple_of(density)
                        })
                        .collect();
                    let holds = |s: u16| filled[s as usize];
                    let walked = walked_run(&b, &holds);
                    assert_eq!(b.longest_run(holds), walked, "{rows} x {cols}: {filled:?}");
                    // The held spaces listed backwards, each twice.
                    let held = (0..rows * cols).rev().filter(|&s| filled[s as usize]);
                    assert_eq!(
                        b.longest_run_of(held.flat_map(|s| [s, s])),
                        walked,
                        "{rows} x {cols}: {filled:?}"
                    );
                }
            }
        }
    }
}

/// A board: spaces, which spaces touch, and the slots every space has.
#[derive(Debug, Clone)]
pub struct Board {
    /// The name in the definition.
    pub name: String,
    /// A grid's size; 0 x 0 for a graph board.
    pub rows: u16,
    /// A grid's columns; 0 for a graph board.
    pub cols: u16,
    /// A hex grid (`hex grid R x C`): a rhombus of hexagons, each row set
    /// half a space right of the one above, so that a space touches six:
    /// north, northeast, east, south, southwest and west.
    pub hex: bool,
    /// Rows, columns and both diagonals of a grid, as lists of spaces.
    pub lines: Vec<Vec<u16>>,
    /// Named runs of spaces, in space order: a grid is one run named after
    /// the board; a graph has its rings and single spaces.
    pub groups: Vec<SpaceGroup>,
    /// Per space, the spaces it touches, ascending.
    pub adjacent: Vec<Vec<u16>>,
    /// The zone families that hold one zone per space of this board.
    pub slots: Vec<u16>,
    /// Per seat, the direction its pieces move forward on a grid (see
    /// [this module](self)); empty when the board declares none.
    pub forward: Vec<u8>,
}

/// `ring outer 18` (spaces "outer 1" to "outer 18") or `space centre`.
#[derive(Debug, Clone)]
pub struct SpaceGroup {
    /// Its name.
    pub name: String,
    /// Its first space.
    pub first: u16,
    /// How many spaces it has.
    pub len: u16,
    /// Spaces are named "outer 3"; a single `space` is named alone.
    pub numbered: bool,
    /// `space centre at (x, y)`: where pictures draw a single space, in
    /// units where the largest ring's radius is 100, from the board's
    /// middle, x to the right and y down. Play never reads it.
    pub at: Option<(i16, i16)>,
    /// `ring south 6 from (x, y) to (x, y)`: where pictures draw a ring's
    /// first and last spaces, the rest evenly between, in the units of `at`.
    pub along: Option<((i16, i16), (i16, i16))>,
}

impl Board {
    /// Number of spaces.
    pub fn spaces(&self) -> u16 {
        // `check` builds at most 4096 spaces per board.
        u16::try_from(self.adjacent.len()).expect("a board has at most 4096 spaces")
    }

    /// "shop 5", "outer 3", "centre".
    pub fn space_name(&self, space: u16) -> String {
        match self.groups.iter().find(|g| (g.first..g.first + g.len).contains(&space)) {
            Some(g) if g.numbered => format!("{} {}", g.name, space - g.first + 1),
            Some(g) => g.name.clone(),
            None => format!("{} {}", self.name, space + 1),
        }
    }

    /// The space called `name` ("outer 3"), if any.
    pub fn space_named(&self, name: &str) -> Option<u16> {
        (0..self.spaces()).find(|&s| self.space_name(s).eq_ignore_ascii_case(name.trim()))
    }
}
