//! Identical choices are offered once: alike public pieces, as a piece
//! choice or as the piece parameter of an action, are one choice when they
//! sit in the same zone, and stay apart in different zones. A random agent
//! picks among the merged choices, and `rpsdsl exact` enumerates the same.

mod common;

use common::cli::{rpsdsl, scratch};
use rpsdsl::exact::{self, DEFAULT_BUDGET};

const PLACE_TOKEN: &str = "tests/games/place_token.rules";

/// Two alike Marks and a Star on two cells: 4 choices, not 6.
#[test]
fn alike_pieces_of_an_action_are_one_choice() {
    let out = rpsdsl(&["run", PLACE_TOKEN, "--seed", "3"]);
    let transcript = String::from_utf8(out.stdout).unwrap();
    assert!(transcript.contains("[of 4]"), "{transcript}");
}

/// The Star is half of the merged choices, so x wins half of the games,
/// exactly and in simulation (within 4 standard errors).
#[test]
fn exact_and_simulate_pick_among_merged_choices() {
    let def = common::load(PLACE_TOKEN);
    let exact = exact::enumerate(&def, &def.default_options(), DEFAULT_BUDGET).unwrap();
    assert!((exact.wins[0] - 0.5).abs() < 1e-12, "{:?}", exact.wins);
    assert_eq!(exact.games, 4);
    common::agree::simulate_agrees_with_exact(PLACE_TOKEN, &def, &def.default_options(), &[], &exact, 2000);
}

/// Alike Marks on two different cells are two choices: picking one or the
/// other is a different move.
#[test]
fn alike_pieces_in_different_zones_stay_apart() {
    let dir = scratch("choice-merge-zones");
    let rules = dir.join("pick.rules");
    std::fs::write(
        &rules,
        "game \"Pick\"\nplayers 2: x, o\nboard cells: grid 2 x 2 {\n  mark public\n}\n\
         zones {\n  supply per player public\n}\npieces {\n  Mark x3 per player in supply\n}\n\
         flow {\n  move first Mark in supply of x to mark of cells[0]\n  \
         move first Mark in supply of x to mark of cells[1]\n  \
         x chooses m from Mark of x on cells\n  x chooses n from Mark in supply of o\n  win x\n}\n",
    )
    .unwrap();
    let out = rpsdsl(&["run", rules.to_str().unwrap(), "--seed", "1"]);
    let transcript = String::from_utf8(out.stdout).unwrap();
    assert!(transcript.contains("x chooses m: Mark of x  [of 2]"), "{transcript}");
    assert!(transcript.contains("x chooses n: Mark of o  [of 1]"), "{transcript}");
}
