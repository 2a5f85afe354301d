//! The command line as a designer uses it: exit codes, transcripts, replay.

mod common;

use common::cli::{rpsdsl, stderr, stdout};

#[test]
fn check_exits_0_when_clean_1_on_errors_2_on_usage() {
    let clean = rpsdsl(&["check", "games/rps.rules", "games/rubber_paper_scissors.rules"]);
    assert_eq!(clean.status.code(), Some(0), "{}", stderr(&clean));
    let broken = rpsdsl(&["check", "tests/fixtures/unknown_name_typo.rules"]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("did you mean `winner`?"));
    let usage = rpsdsl(&["check", "--no-such-flag", "games/rps.rules"]);
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn check_json_lists_codes_and_positions() {
    let out = rpsdsl(&["check", "--json", "tests/fixtures/type_win_number.rules"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let diagnostic = &json[0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "rpsdsl::type-mismatch");
    assert_eq!(diagnostic["labels"][0]["line"], 14);
    assert_eq!(diagnostic["labels"][0]["column"], 34);
}

#[test]
fn run_prints_a_full_game_and_json_replays() {
    let text = rpsdsl(&["run", "games/rubber_paper_scissors.rules", "--seed", "7"]);
    assert_eq!(text.status.code(), Some(0), "{}", stderr(&text));
    assert!(stdout(&text).contains("result: "));
    let json = rpsdsl(&["run", "games/rubber_paper_scissors.rules", "--seed", "7", "--json"]);
    let dir = std::env::temp_dir().join(format!("rpsdsl-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.json");
    std::fs::write(&path, json.stdout).unwrap();
    let replay = rpsdsl(&["replay", path.to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    assert!(stdout(&replay).starts_with("replay matches"));

    // Tamper with one decision: replay names the first line that differs.
    let mut transcript: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let decisions = transcript["replay"]["decisions"].as_array_mut().unwrap();
    let first = decisions[0].as_str().unwrap().to_string();
    let other = if first.ends_with("paper") {
        "Orange: scissors"
    } else {
        "Orange: paper"
    };
    decisions[0] = serde_json::Value::String(other.into());
    std::fs::write(&path, serde_json::to_string(&transcript).unwrap()).unwrap();
    let diverged = rpsdsl(&["replay", path.to_str().unwrap()]);
    assert_eq!(diverged.status.code(), Some(1));
    assert!(stderr(&diverged).contains("replay diverged"), "{}", stderr(&diverged));
}

#[test]
fn a_bad_option_value_points_at_the_command_line() {
    let out = rpsdsl(&["run", "games/rps.rules", "--set", "best_of=0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("outside 1..99"), "{}", stderr(&out));
    let typo = rpsdsl(&["run", "games/rps.rules", "--set", "bestof=3"]);
    assert!(stderr(&typo).contains("did you mean `best_of`?"), "{}", stderr(&typo));
    // A setting without `=`, second on the line: underlined where it was typed.
    let shapeless = rpsdsl(&["run", "games/rps.rules", "--set", "best_of=3", "--set", "fast"]);
    assert_eq!(shapeless.status.code(), Some(2));
    let text = common::cli::stderr_unwrapped(&shapeless);
    assert!(text.contains("`fast` is not NAME=VALUE"), "{text}");
    assert!(text.contains("[command line:2:7]"), "{text}");
    assert!(text.contains("write e.g. `--set rounds=3`"), "{text}");
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let a = rpsdsl(&["run", "games/rubber_paper_scissors.rules", "--seed", "42", "--json"]);
    let b = rpsdsl(&["run", "games/rubber_paper_scissors.rules", "--seed", "42", "--json"]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn rps3_plays_to_a_result_and_a_seat_view_hides_enemy_pawns() {
    let all = rpsdsl(&["run", "games/rps3.rules", "--seed", "3"]);
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    let text = stdout(&all);
    assert!(text.lines().last().unwrap().starts_with("result: "), "{text}");
    let light = rpsdsl(&["run", "games/rps3.rules", "--seed", "3", "--view", "1"]);
    assert_eq!(light.status.code(), Some(0));
    let text = stdout(&light);
    assert!(text.contains("view Light"));
    assert!(text.contains("Dark chooses pawn: (secret)\n"));
    assert!(text.contains("  Pawn of Dark (hidden): reserve of Dark -> spot of outer 10\n"));
    let diff = rpsdsl(&[
        "check",
        "--explain-diff",
        "games/rps3.rules",
        "games/variants/rps3_small.rules",
    ]);
    assert_eq!(diff.status.code(), Some(0), "{}", stderr(&diff));
    assert!(stdout(&diff).contains("setup: Pawn pieces 18 -> 12"));
}

#[test]
fn replay_finds_the_rules_beside_the_transcript_or_where_it_is_told() {
    // A transcript kept in a folder with a copy of its game, replayed from
    // elsewhere: its `rules` (games/rps.rules) is found from its folder.
    let dir = std::env::temp_dir().join(format!("rpsdsl-replay-{}", std::process::id()));
    let games = dir.join("kept/games");
    std::fs::create_dir_all(games.join("prelude")).unwrap();
    std::fs::copy("games/rps.rules", games.join("rps.rules")).unwrap();
    std::fs::copy("games/prelude/rps.rules", games.join("prelude/rps.rules")).unwrap();
    let json = rpsdsl(&["run", "games/rps.rules", "--seed", "3", "--json"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let transcript = dir.join("kept/game.json");
    std::fs::write(&transcript, json.stdout).unwrap();
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let found = common::cli::rpsdsl_in(&elsewhere, &["replay", transcript.to_str().unwrap()], b"");
    assert_eq!(found.status.code(), Some(0), "{}", stderr(&found));
    assert!(stdout(&found).starts_with("replay matches"), "{}", stdout(&found));

    // Moved away from its game, it is not found, and the error names the
    // file; `--rules` points at it.
    let alone = elsewhere.join("game.json");
    std::fs::copy(&transcript, &alone).unwrap();
    let lost = common::cli::rpsdsl_in(&elsewhere, &["replay", "game.json"], b"");
    assert_eq!(lost.status.code(), Some(1), "{}", stderr(&lost));
    assert!(stderr(&lost).contains("games/rps.rules"), "{}", stderr(&lost));
    let rules = games.join("rps.rules");
    let told = common::cli::rpsdsl_in(
        &elsewhere,
        &["replay", "game.json", "--rules", rules.to_str().unwrap()],
        b"",
    );
    assert_eq!(told.status.code(), Some(0), "{}", stderr(&told));
    assert!(stdout(&told).starts_with("replay matches"), "{}", stdout(&told));
    std::fs::remove_dir_all(&dir).unwrap();
}
