//! Declared boards: spaces and links generated from rules, adjacency on
//! grids, and the diagnostics for link rules that do not fit.

use rpsdsl::check::{FsLoader, check_source};
use rpsdsl::ir::GameDef;

fn def(board: &str) -> rpsdsl::engine::Game {
    let text = format!("game \"T\"\nplayers 2\n{board}\nflow {{ declare draw }}\n");
    match check_source("t.rules", &text, &FsLoader) {
        Ok(checked) => checked.def,
        Err(failed) => panic!(
            "{}",
            rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
        ),
    }
}

fn errors(board: &str) -> Vec<(String, String)> {
    let text = format!("game \"T\"\nplayers 2\n{board}\nflow {{ declare draw }}\n");
    match check_source("t.rules", &text, &FsLoader) {
        Ok(_) => vec![],
        Err(failed) => failed
            .diagnostics
            .iter()
            .map(|d| (d.code.to_string(), d.message.clone()))
            .collect(),
    }
}

fn neighbours(def: &GameDef, space: &str) -> Vec<String> {
    let board = &def.boards[0];
    let s = board.space_named(space).unwrap_or_else(|| panic!("no space {space}"));
    board.adjacent[s as usize]
        .iter()
        .map(|&t| board.space_name(t))
        .collect()
}

#[test]
fn rings_and_links_generate_the_graph() {
    let def = def("board rings: graph {
        ring outer 18 wraps
        ring inner 9 wraps
        space centre
        link outer[i] -- inner[i / 2]
        link inner[j] -- centre
        spot public
    }");
    let board = &def.boards[0];
    assert_eq!(board.spaces(), 28);
    let links: usize = board.adjacent.iter().map(Vec::len).sum::<usize>() / 2;
    assert_eq!(links, 18 + 9 + 18 + 9, "two rings, outer to inner, inner to centre");
    assert_eq!(neighbours(&def, "outer 1"), ["outer 2", "outer 18", "inner 1"]);
    assert_eq!(
        neighbours(&def, "inner 1"),
        ["outer 1", "outer 2", "inner 2", "inner 9", "centre"]
    );
    assert_eq!(neighbours(&def, "centre").len(), 9);
    assert_eq!(def.zone_name(def.families[1].first + 27), "spot of centre");
}

#[test]
fn a_link_rule_can_leave_indices_out() {
    // Nine Men's Morris: three squares of 8 points, joined at the middle of each side.
    let def = def("board morris: graph {
        ring outer 8 wraps
        ring middle 8 wraps
        ring inner 8 wraps
        link outer[i] -- middle[i] where i % 2 == 1
        link middle[i] -- inner[i] where i % 2 == 1
        point public
    }");
    assert_eq!(
        neighbours(&def, "middle 2"),
        ["outer 2", "middle 1", "middle 3", "inner 2"]
    );
    assert_eq!(neighbours(&def, "middle 1"), ["middle 2", "middle 8"]);
}

#[test]
fn a_grid_touches_orthogonally() {
    let def = def("board shop: grid 3 x 3 { cell public }");
    assert_eq!(neighbours(&def, "shop 5"), ["shop 2", "shop 4", "shop 6", "shop 8"]);
    assert_eq!(neighbours(&def, "shop 1"), ["shop 2", "shop 4"]);
}

#[test]
fn bad_link_rules_are_diagnosed() {
    let cases = [
        (
            "board b: graph { ring a 4 wraps  ring c 2  link a[i] -- c[i] }",
            "bad-link",
            "`c[2]` does not exist when i = 2",
        ),
        (
            "board b: graph { ring a 4  link a[i] -- d[i] }",
            "unknown-name",
            "the board has no ring or space `d`",
        ),
        (
            "board b: graph { ring a 4  ring c 4  link a[i] -- c }",
            "bad-link",
            "`c` has 4 spaces: which one?",
        ),
        (
            "board b: graph { ring a 4  link a[i] -- a[i] }",
            "bad-link",
            "a space cannot touch itself",
        ),
        (
            "board b: graph { ring a 4  link a[i] -- a[k + 1] }",
            "bad-link",
            "a link rule only computes with numbers and its index",
        ),
        (
            "board b: grid 2 x 2 { ring a 4 }",
            "bad-board",
            "a grid's spaces and links come from its size",
        ),
    ];
    for (board, code, message) in cases {
        let found = errors(board);
        assert!(
            found.iter().any(|(c, m)| c == code && m == message),
            "{board}: expected {code} `{message}`, got {found:?}"
        );
    }
}

// ---------------------------------------------------------------- spaces and actions in the flow

const TINY: &str = "game \"T\"
players 2: A, B
kinds K = x | y
board b: graph {
  ring r 4 wraps
  space c
  link r[i] -- c
  spot public
}
pieces { Token of each K per player in supply kind hidden }
zones { supply per player public }
";

fn tiny(flow: &str) -> Result<rpsdsl::engine::Game, Vec<(String, String)>> {
    let text = format!("{TINY}{flow}\n");
    check_source("t.rules", &text, &FsLoader)
        .map(|c| c.def)
        .map_err(|failed| {
            failed
                .diagnostics
                .iter()
                .map(|d| (d.code.to_string(), d.message.clone()))
                .collect()
        })
}

#[test]
fn action_labels_show_their_parameters() {
    let def = tiny(
        "flow {
          A chooses {
            \"bid {n} on {k}\" for n in 1..2, k in K where n > 1 or k == x { win A }
            \"place {t} on {s}\" for t in Token of A in supply of A, s in adjacent of c where s != r[1] {
              move t to spot of s
            }
          }
        }",
    )
    .unwrap();
    let mut events = vec![];
    let state = rpsdsl::engine::State::start(&def, &def.default_options(), 1, vec![], &mut events).unwrap();
    let pending = state.pending().unwrap();
    let labels: Vec<String> = pending
        .legal(0)
        .iter()
        .map(|&v| def.choice_label(pending.decision(), v))
        .collect();
    assert_eq!(
        labels,
        [
            "bid 1 on x",
            "bid 2 on x",
            "bid 2 on y",
            "place Token y of A on r 1",
            "place Token y of A on r 3",
            "place Token y of A on r 4",
            "place Token x of A on r 1",
            "place Token x of A on r 3",
            "place Token x of A on r 4",
        ]
    );
}

#[test]
fn mistakes_with_spaces_and_actions_are_diagnosed() {
    let cases = [
        (
            "flow { A chooses { \"go {there}\" for here in b { } } }",
            "unknown-name",
            "the label shows `{there}`, which is not a parameter of this action",
        ),
        (
            "flow { for s in r { set s = c } }",
            "read-only",
            "`s` is the value a loop goes through",
        ),
        (
            "flow { let s = r }",
            "missing-index",
            "`r` is a ring of 4 spaces, not one space",
        ),
        (
            "flow { for s in adjacent of A { } }",
            "type-mismatch",
            "`adjacent of` needs a space, but `A` is a player",
        ),
        (
            "flow { A chooses { \"yes {v}\" for v = true { } } }",
            "type-mismatch",
            "an action's parameter cannot be true or false",
        ),
        (
            "flow { A chooses { \"go\" { }  \"go\" { } } }",
            "duplicate-definition",
            "two actions are called \"go\"",
        ),
        (
            "flow { let n = count Token on c }",
            "type-mismatch",
            "`c` is a ring or space of a board, not a board",
        ),
    ];
    for (flow, code, message) in cases {
        let found = tiny(flow).err().unwrap_or_default();
        assert!(
            found.iter().any(|(c, m)| c == code && m == message),
            "{flow}: expected {code} `{message}`, got {found:?}"
        );
    }
}

#[test]
fn a_ring_index_out_of_range_stops_the_game_with_a_clear_error() {
    let def = tiny("flow { let s = r[4] }").unwrap();
    let mut events = vec![];
    let error = rpsdsl::engine::State::start(&def, &def.default_options(), 1, vec![], &mut events).unwrap_err();
    assert_eq!(error.code.as_str(), "no-such-space");
    assert_eq!(error.message, "there is no space 4 here: the spaces are 0 to 3");
}

/// A 2 x 2 grid and a token each, for flows that fail as they start.
const GRID: &str = "game \"G\"
players 2: A, B
board g: grid 2 x 2 { cell public }
pieces { Token x1 per player in supply }
zones { supply per player public }
";

/// Starts a game of [`GRID`] with this flow, which must fail at once: its
/// error's code and the text its first label points at.
fn start_error(flow: &str) -> (String, String) {
    let text = format!("{GRID}flow {{\n{flow}\n}}\n");
    let Ok(checked) = check_source("g.rules", &text, &FsLoader) else {
        panic!("it checks");
    };
    let def = checked.def;
    let mut events = vec![];
    let Err(error) = rpsdsl::engine::State::start(&def, &def.default_options(), 1, vec![], &mut events) else {
        panic!("the game fails as it starts");
    };
    let span = error.labels[0].span;
    let at = text[span.start as usize..span.end as usize].to_string();
    (error.code.as_str().to_string(), at)
}

/// What an off-board space's error points at, and its code.
fn off_board_at(at: &str) -> (String, String) {
    ("no-such-space".into(), at.into())
}

#[test]
fn the_zone_of_a_space_off_the_board_is_an_error_at_that_zone() {
    // `cell of there`, kept for the loop over its pieces, is one fused
    // instruction in the interpreter: the error still points at the zone.
    let flow = "let there = g[1, 1] + north
A chooses t from Token in cell of there";
    assert_eq!(start_error(flow), off_board_at("cell of there"));
}

#[test]
fn counting_in_the_zone_of_a_space_off_the_board_is_an_error_at_that_zone() {
    // `count Token of A in cell of there` is one fused instruction in the
    // interpreter: the error still points at the zone.
    let flow = "let there = g[1, 1] + north
if count Token of A in cell of there > 0 { win A }";
    assert_eq!(start_error(flow), off_board_at("cell of there"));
}

#[test]
fn a_counted_loop_that_overflows_is_an_error_at_its_step() {
    // The loop's step and its jump back are one fused instruction in the
    // interpreter: an overflow still points at the step's addition.
    let flow = "let i = 9223372036854775806
while i > 0 { set i = i + 1 }";
    assert_eq!(start_error(flow), ("overflow".into(), "i + 1".into()));
}

#[test]
fn a_cell_test_off_the_board_is_an_error_at_its_zone() {
    // `size of cell of g[0, column]` is one fused instruction in the
    // interpreter, and the loop's jump back takes it along: row 0 is off the
    // board, and the error still points at the zone.
    let flow = "A chooses column from 1..2 where size of cell of g[0, column] == 0";
    assert_eq!(start_error(flow), off_board_at("cell of g[0, column]"));
}

#[test]
fn offering_the_pieces_of_a_space_off_the_board_is_an_error_at_its_zone() {
    // Entering the loop over the pieces in `cell of there` and taking its
    // first step is one fused instruction in the interpreter: the error
    // still points at the zone.
    let flow = "let there = g[1, 1] + north
A chooses {
  \"take {t}\" for t in Token of B in cell of there { win A }
}";
    assert_eq!(start_error(flow), off_board_at("cell of there"));
}

#[test]
fn a_loop_stepping_down_past_the_board_is_an_error_at_its_cell() {
    // The loop's step (`row - 1`) and its jump back to the cell test are
    // fused instructions: the third round's row 0 is off the board, and the
    // error points at the zone the test reads; a subtraction that overflows
    // points at itself.
    let flow = "let row = 2
while size of cell of g[row, 1] == 0 { set row = row - 1 }";
    assert_eq!(start_error(flow), off_board_at("cell of g[row, 1]"));
    let flow = "let i = -9223372036854775807
while i < 0 { set i = i - 1 }";
    assert_eq!(start_error(flow), ("overflow".into(), "i - 1".into()));
}
