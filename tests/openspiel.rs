//! OpenSpiel's own random games, replayed move for move: the same number of
//! legal moves at every step and the same result. Far more sensitive than
//! outcome rates: a rule that is missing shows in the first game that
//! needs it.
//!
//! The games were recorded once from OpenSpiel's Python package and kept
//! as data (`tests/openspiel/*.jsonl`, written by
//! `tests/openspiel/record.py`); OpenSpiel is never needed to run this.

mod common;

use std::path::Path;

use rpsdsl::check::{FsLoader, OptionSetting};
use rpsdsl::engine::{Choice, ForcedRoll, State};
use rpsdsl::load::{LoadedGame, load_game};
use serde_json::Value;

/// Loads `rules` with OpenSpiel's parameters as option settings.
fn load_with(
    rules: &str,
    params: &serde_json::Map<String, Value>,
    rename: &dyn Fn(&str, &Value) -> (String, String),
) -> LoadedGame {
    let settings: Vec<(String, String)> = params.iter().map(|(name, value)| rename(name, value)).collect();
    let settings = OptionSetting::recorded(&settings);
    load_game(Path::new(rules), &FsLoader, |_| Ok(settings))
        .unwrap_or_else(|f| panic!("{}", rpsdsl::diagnostic::render(&f.diagnostics, &f.sources, false)))
}

/// How a replay reads OpenSpiel's names: its parameters as the rules'
/// options, its actions as the moves rpsdsl offers, and its chance outcomes
/// as the rolls to force.
struct Reading<'a> {
    option: &'a dyn Fn(&str, &Value) -> (String, String),
    action: &'a dyn Fn(&str) -> String,
    chance: &'a dyn Fn(&rpsdsl::engine::Game, &str) -> ForcedRoll,
    /// A move OpenSpiel asks for as a player's only move that the rules
    /// take without asking (a pass): checked to be the only move, then
    /// skipped.
    unasked: Option<&'a str>,
}

/// OpenSpiel names no chance outcome in games without chance.
fn no_chance(_: &rpsdsl::engine::Game, outcome: &str) -> ForcedRoll {
    panic!("a chance outcome `{outcome}` in a game without chance")
}

/// Replays every recorded game of `data` in `rules`, read as `reading` says.
fn replay(rules: &str, data: &str, reading: &Reading<'_>) {
    let text = std::fs::read_to_string(data).unwrap();
    let mut games = 0;
    for (line, record) in text.lines().enumerate() {
        let record: Value = serde_json::from_str(record).unwrap();
        let game = load_with(rules, record["params"].as_object().unwrap(), reading.option);
        let def = &game.def;
        let mut events = vec![];
        let mut state = State::start(def, &game.options, line as u64, vec![], &mut events).unwrap();
        let steps = record["steps"].as_array().unwrap();
        for (step, entry) in steps.iter().enumerate() {
            if entry[0] == "chance" {
                continue;
            }
            let (count, action) = (entry[0].as_u64().unwrap() as usize, entry[1].as_str().unwrap());
            if reading.unasked == Some(action) {
                assert_eq!(
                    count, 1,
                    "{data} game {line} step {step}: `{action}` is not the only move"
                );
                continue;
            }
            // The die this move rolls shows what OpenSpiel drew next.
            if let Some(next) = steps.get(step + 1)
                && next[0] == "chance"
            {
                state.force_rolls(vec![(reading.chance)(def, next[1].as_str().unwrap())]);
            }
            let pending = state
                .pending()
                .unwrap_or_else(|| panic!("{data} game {line}: over before step {step}"));
            let seat = pending.who()[0];
            let legal = pending.legal(seat);
            assert_eq!(legal.len(), count, "{data} game {line} step {step}: legal moves");
            let wanted = (reading.action)(action);
            let value = *legal
                .iter()
                .find(|&&v| def.choice_label(pending.decision(), v) == wanted)
                .unwrap_or_else(|| panic!("{data} game {line} step {step}: no move `{wanted}`"));
            let choice = Choice {
                seat,
                value,
                reaction_ms: 0,
            };
            state.apply(def, &[choice], &mut events).unwrap();
        }
        let outcome = state
            .outcome()
            .unwrap_or_else(|| panic!("{data} game {line}: not over"));
        let returns: Vec<f64> = record["returns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_f64().unwrap())
            .collect();
        let winner = returns.iter().position(|&r| r > 0.0).map(|s| s as u8);
        assert_eq!(outcome.winner, winner, "{data} game {line}: the result");
        games += 1;
    }
    assert!(games >= 200, "{data}: {games} games");
}

/// OpenSpiel's nim parameters as the rules' options: `pile_sizes` written
/// `2;4;6` becomes the list `[2, 4, 6]`.
fn nim_option(name: &str, value: &Value) -> (String, String) {
    let value = match value {
        Value::String(piles) => format!("[{}]", piles.replace(';', ", ")),
        other => other.to_string(),
    };
    (name.to_string(), value)
}

/// `pile:2, take:3;` is rpsdsl's `take 3 from pile 2`.
fn nim_move(action: &str) -> String {
    let parts: Vec<&str> = action.trim_end_matches(';').split(", ").collect();
    let pile = parts[0].trim_start_matches("pile:");
    let take = parts[1].trim_start_matches("take:");
    format!("take {take} from pile {pile}")
}

const NIM: Reading<'static> = Reading {
    option: &nim_option,
    action: &nim_move,
    chance: &no_chance,
    unasked: None,
};

#[test]
fn nim_replays_openspiels_games() {
    replay("games/classic/nim.rules", "tests/openspiel/nim.jsonl", &NIM);
}

#[test]
fn nim_replays_openspiels_games_with_other_piles_and_the_normal_rule() {
    replay(
        "games/classic/nim.rules",
        "tests/openspiel/nim_2_4_6_normal.jsonl",
        &NIM,
    );
}

/// OpenSpiel's pig parameters as the rules' options.
fn pig_option(name: &str, value: &Value) -> (String, String) {
    let name = match name {
        "players" => "seats",
        "diceoutcomes" => "faces",
        other => other,
    };
    (name.to_string(), value.to_string())
}

/// `Roll 4`: the die shows 4.
fn pig_roll(def: &rpsdsl::engine::Game, outcome: &str) -> ForcedRoll {
    let die = def
        .pieces
        .iter()
        .position(|p| def.piece_types[p.ty as usize] == "Die")
        .expect("a die");
    ForcedRoll {
        die: die as u16,
        value: outcome.trim_start_matches("Roll ").parse().unwrap(),
    }
}

const PIG: Reading<'static> = Reading {
    option: &pig_option,
    action: &str::to_string,
    chance: &pig_roll,
    unasked: None,
};

#[test]
fn pig_replays_openspiels_games() {
    replay("games/classic/pig.rules", "tests/openspiel/pig.jsonl", &PIG);
}

#[test]
fn pig_replays_openspiels_games_with_three_players_to_30() {
    replay(
        "games/classic/pig.rules",
        "tests/openspiel/pig_3_players_to_30.jsonl",
        &PIG,
    );
}

/// OpenSpiel numbers the pits 0 to 13: 1 to 6 are South's houses (player
/// 0), 8 to 13 North's; rpsdsl names them by row, `south 1` to `north 6`.
fn mancala_move(action: &str) -> String {
    let pit: u32 = action.parse().unwrap();
    match pit {
        1..=6 => format!("sow south {pit}"),
        _ => format!("sow north {}", pit - 7),
    }
}

#[test]
fn mancala_replays_openspiels_games() {
    let reading = Reading {
        option: &|name, value| (name.to_string(), value.to_string()),
        action: &mancala_move,
        chance: &no_chance,
        unasked: None,
    };
    replay("games/classic/mancala.rules", "tests/openspiel/mancala.jsonl", &reading);
}

/// OpenSpiel names a square by column letter and row, `d3`; rpsdsl numbers
/// the squares row by row from the top left, `field 20`.
fn othello_move(action: &str) -> String {
    let column = u32::from(action.as_bytes()[0] - b'a') + 1;
    let row: u32 = action[1..].parse().unwrap();
    format!("field {}", (row - 1) * 8 + column)
}

#[test]
fn othello_replays_openspiels_games() {
    let reading = Reading {
        option: &|name, value| (name.to_string(), value.to_string()),
        action: &othello_move,
        chance: &no_chance,
        // OpenSpiel asks a player who cannot move to pass; the rules pass for them.
        unasked: Some("pass"),
    };
    replay("games/classic/othello.rules", "tests/openspiel/othello.jsonl", &reading);
}

/// OpenSpiel names a clobber move by its squares, column letter and row
/// counted from the bottom, `a5b5`; rpsdsl numbers the squares row by row
/// from the top left: on 5 rows of 6, `field 1 takes field 2`.
fn clobber_move(rows: u32, columns: u32, action: &str) -> String {
    let square = |at: &str| {
        let column = u32::from(at.as_bytes()[0] - b'a') + 1;
        let row = rows + 1 - at[1..].parse::<u32>().unwrap();
        (row - 1) * columns + column
    };
    let split = action[1..].find(|c: char| c.is_ascii_alphabetic()).unwrap() + 1;
    let (from, to) = action.split_at(split);
    format!("field {} takes field {}", square(from), square(to))
}

fn replay_clobber(data: &str, rows: u32, columns: u32) {
    let reading = Reading {
        option: &|name, value| (name.to_string(), value.to_string()),
        action: &|action| clobber_move(rows, columns, action),
        chance: &no_chance,
        unasked: None,
    };
    replay("games/classic/clobber.rules", data, &reading);
}

#[test]
fn clobber_replays_openspiels_games() {
    replay_clobber("tests/openspiel/clobber.jsonl", 5, 6);
}

#[test]
fn clobber_replays_openspiels_games_on_4_rows_of_3() {
    replay_clobber("tests/openspiel/clobber_4_by_3.jsonl", 4, 3);
}

/// OpenSpiel names a line by the dot it starts from, `P1(h,0,1)` across
/// from dot row 0, column 1; rpsdsl's paper has a space for every dot, line
/// and box, numbered row by row from the top left: that line is `paper 4`
/// when the paper has 5 columns (2 columns of boxes).
fn dots_and_boxes_move(box_columns: u32, action: &str) -> String {
    let inside = &action[action.find('(').unwrap() + 1..action.len() - 1];
    let parts: Vec<&str> = inside.split(',').collect();
    let (dot_row, dot_column): (u32, u32) = (parts[1].parse().unwrap(), parts[2].parse().unwrap());
    let (row, column) = match parts[0] {
        "h" => (2 * dot_row + 1, 2 * dot_column + 2),
        _ => (2 * dot_row + 2, 2 * dot_column + 1),
    };
    format!("paper {}", (row - 1) * (2 * box_columns + 1) + column)
}

fn replay_dots_and_boxes(data: &str, box_columns: u32) {
    let reading = Reading {
        option: &|name, value| (name.to_string(), value.to_string()),
        action: &|action| dots_and_boxes_move(box_columns, action),
        chance: &no_chance,
        unasked: None,
    };
    replay("games/classic/dots_and_boxes.rules", data, &reading);
}

#[test]
fn dots_and_boxes_replays_openspiels_games() {
    replay_dots_and_boxes("tests/openspiel/dots_and_boxes.jsonl", 2);
}

#[test]
fn dots_and_boxes_replays_openspiels_games_on_3_rows_of_4() {
    replay_dots_and_boxes("tests/openspiel/dots_and_boxes_3_by_4.jsonl", 4);
}

/// OpenSpiel names a cell by column letter and row, `c2`; rpsdsl numbers
/// the cells row by row from the top left, `cells 8` on a 5 x 5 board.
fn hex_move(size: u32, action: &str) -> String {
    let column = u32::from(action.as_bytes()[0] - b'a') + 1;
    let row: u32 = action[1..].parse().unwrap();
    format!("cells {}", (row - 1) * size + column)
}

fn replay_hex(data: &str, size: u32) {
    let reading = Reading {
        option: &|name, value| (name.to_string(), value.to_string()),
        action: &|action| hex_move(size, action),
        chance: &no_chance,
        unasked: None,
    };
    replay("games/classic/hex.rules", data, &reading);
}

#[test]
fn hex_replays_openspiels_games() {
    replay_hex("tests/openspiel/hex.jsonl", 11);
}

#[test]
fn hex_replays_openspiels_games_on_5_by_5() {
    replay_hex("tests/openspiel/hex_5.jsonl", 5);
}
