//! State kept per space and per piece (`var ... per space of B`, `var ...
//! per piece`), and a menu's `else` when no action is on offer, played with
//! scripted moves in tests/games/scorched_field.rules.

mod common;

use common::{lines, load, play, scenario};
use rpsdsl::check::{FsLoader, check_source};

/// The moves of one game: both players enter both stones, then walk them
/// until Ben has nothing left to do.
const GAME: [&str; 9] = [
    "Ann: enter at field 1",
    "Ben: enter at field 9",
    "Ann: enter at field 2",
    "Ben: enter at field 8",
    "Ann: field 1 to field 4",
    "Ben: field 9 to field 6",
    "Ann: field 4 to field 7",
    "Ben: field 6 to field 5",
    "Ann: field 2 to field 3",
];

fn played(moves: &[&str]) -> Vec<String> {
    let def = load("tests/games/scorched_field.rules");
    let record = play(&def, 1, &scenario(&[], moves)).unwrap();
    lines(&def, &record)
}

/// A square a stone leaves is scorched for good, a stone counts its own
/// steps, and each is said once, by name, when it changes.
#[test]
fn a_space_and_a_piece_keep_their_own_values() {
    let lines = played(&GAME);
    let said: Vec<&str> = lines.iter().map(|l| l.trim()).filter(|l| l.contains(" = ")).collect();
    assert_eq!(
        said,
        [
            "scorched of field 1 = true",
            "steps of Stone of Ann = 1",
            "scorched of field 9 = true",
            "steps of Stone of Ben = 1",
            "scorched of field 4 = true",
            "steps of Stone of Ann = 2",
            "scorched of field 6 = true",
            "steps of Stone of Ben = 2",
            "scorched of field 2 = true",
            // Ann's other stone: its own count, from 0.
            "steps of Stone of Ann = 1",
        ]
    );
    // Scorched squares are never offered again: after four scorched squares
    // Ann's last move is her only one (her first stone is tired, and three of
    // the squares next to the other are scorched).
    assert!(
        lines.iter().any(|l| l == "Ann chooses: field 2 to field 3  [of 1]"),
        "{lines:#?}"
    );
}

/// With no action on offer (Ben's stones are tired or hemmed in by scorched
/// squares, and his supply is empty), the menu's `else` runs: Ben loses.
#[test]
fn a_menu_with_nothing_on_offer_runs_its_else() {
    let lines = played(&GAME);
    let end: Vec<&String> = lines.iter().rev().take(2).collect();
    assert_eq!(end, ["result: Ann wins", "Ben has no legal choice for action"]);
}

/// A move onto a scorched square is refused like any move not on offer.
#[test]
fn a_scorched_square_is_not_on_offer() {
    let def = load("tests/games/scorched_field.rules");
    let mut moves = GAME[..5].to_vec();
    moves.push("Ben: field 9 to field 4");
    let refused = play(&def, 1, &scenario(&[], &moves)).unwrap_err();
    let text = format!("{:?}", refused.diagnostic);
    assert_eq!(refused.diagnostic.code.to_string(), "illegal-action", "{text}");
    assert!(text.contains("field 9 to field 4"), "{text}");
}

/// A menu's `else` may finish and let the flow go on: a player who cannot
/// enter passes, and the game goes on to its end.
#[test]
fn a_menus_else_may_let_the_flow_go_on() {
    let text = r#"
game "Pass"
players 2: Ann, Ben
zones {
  supply per player public
  table public
}
pieces {
  Stone x 1 per player in supply
}
var passes = 0
flow {
  repeat 2 times {
    for p in players {
      p chooses {
        "enter" for stone in Stone in supply of p { move stone to table }
      } else {
        add 1 to passes
      }
    }
  }
  if passes == 2 { win Ben }
}
"#;
    let def = match check_source("pass.rules", text, &FsLoader) {
        Ok(checked) => checked.def,
        Err(failed) => panic!(
            "{}",
            rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
        ),
    };
    let record = play(&def, 1, &scenario(&[], &[])).unwrap();
    let lines = lines(&def, &record);
    assert_eq!(
        lines.iter().filter(|l| l.contains("has no legal choice")).count(),
        2,
        "{lines:#?}"
    );
    assert_eq!(lines.last().unwrap(), "result: Ben wins");
}

/// A name that holds no piece (`, or pass` was chosen) has no value kept
/// per piece: reading or setting one is an error of the game, on both back
/// ends, never a crash.
#[test]
fn a_value_kept_per_piece_of_no_piece_is_an_error() {
    let text = r#"
game "Pass a Stone"
players 2: Ann, Ben
zones {
  hand per player public
}
pieces {
  Stone x 1 per player in hand
}
var steps per piece = 0
flow {
  Ann chooses c from Stone in hand of Ann, or pass
  add 1 to steps of c
  win Ann
}
"#;
    for engine in [rpsdsl::engine::Engine::Compiled, rpsdsl::engine::Engine::Interpreter] {
        let mut def = match check_source("pass_a_stone.rules", text, &FsLoader) {
            Ok(checked) => checked.def,
            Err(failed) => panic!(
                "{}",
                rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
            ),
        };
        def.use_engine(engine);
        let failed = play(&def, 1, &scenario(&[], &["Ann: pass"])).unwrap_err();
        assert_eq!(failed.diagnostic.code.to_string(), "missing-attribute");
        assert!(
            failed
                .diagnostic
                .message
                .contains("`steps` is kept per piece, and this names no piece"),
            "{}",
            failed.diagnostic.message
        );
        let chose = play(&def, 1, &scenario(&[], &["Ann: Stone of Ann"])).unwrap();
        assert!(lines(&def, &chose).contains(&"  steps of Stone of Ann = 1".to_string()));
    }
}
