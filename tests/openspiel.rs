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
