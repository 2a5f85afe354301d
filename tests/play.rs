//! `rpsdsl play` end to end: the built binary, driven through its stdin.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::cli::{stderr, stdout};

/// The scratch directory of this test run: games are played there, so a
/// transcript saved by mistake lands there too.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpsdsl-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An argument with the shipped games' paths made absolute, so they work
/// from the scratch directory.
fn resolve(arg: &str) -> String {
    match arg.starts_with("games/") {
        true => format!("{}/{arg}", env!("CARGO_MANIFEST_DIR")),
        false => arg.to_string(),
    }
}

/// Runs `rpsdsl args...` in the scratch directory with `input` on stdin.
fn play(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let args: Vec<String> = args.iter().map(|a| resolve(a)).collect();
    common::cli::rpsdsl_in(&scratch(), &args, input.as_ref())
}

/// A fresh path in the scratch directory.
fn temp_path(name: &str) -> PathBuf {
    let path = scratch().join(name);
    let _ = std::fs::remove_file(&path);
    path
}

const RPS: [&str; 8] = [
    "play",
    "games/rps.rules",
    "--seat",
    "Left",
    "--seed",
    "11",
    "--agents",
    "random",
];

/// Answers to throw by name (any case), by kind name and by number, in turn.
const THROWS: [&str; 4] = ["rock", "2", "SCISSORS", "1"];

#[test]
fn a_game_played_to_the_end_is_saved_and_replays() {
    let args: Vec<&str> = RPS.iter().copied().chain(["--set", "best_of=3"]).collect();
    // First, how many throws this deal takes: the agents and the deal are
    // fixed by the seed, so the same answers give the same game again.
    let answers: Vec<&str> = THROWS.iter().copied().cycle().take(200).collect();
    let probe = play(&args, format!("lizard\n{}\n", answers.join("\n")));
    let text = stdout(&probe);
    let throws = text.matches("You choose throw: ").count();
    assert!(text.contains("Game over: "), "{text}");
    assert!(throws >= 2, "{text}");

    let path = temp_path("rps.json");
    let mut input = String::from("lizard\n");
    for answer in answers.iter().take(throws) {
        input.push_str(answer);
        input.push('\n');
    }
    input.push_str(&format!("{}\n", path.display()));
    let out = play(&args, input);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));

    // The bad entry is refused with the reason and the choices asked again;
    // the next answer is still the first throw, so nothing was lost.
    assert!(
        text.contains("`lizard` is not one of the choices. Type 1-3 or a name"),
        "{text}"
    );
    let first_prompt = text.find("> lizard").unwrap();
    let after = &text[first_prompt..];
    assert!(
        after.starts_with("> lizard\n`lizard` is not one of the choices"),
        "{after}"
    );
    assert!(after.contains("\n> rock\n"), "{after}");
    assert!(text.contains("You choose throw: rock"), "{text}");
    assert!(text.contains("You choose throw: paper"), "by number: {text}");
    assert_eq!(text.matches("You choose throw: ").count(), throws);
    // Every throw is followed by who beat whom, or the tie.
    assert_eq!(text.matches("\n    => ").count(), throws, "{text}");

    // The screen: the match's counters, the prompt with numbered choices.
    assert!(text.contains("Counters: wins: Left 0, Right 0"), "{text}");
    assert!(text.contains("Left (you), choose throw:\n"), "{text}");
    assert!(text.contains("   1) rock\n   2) paper\n   3) scissors\n"), "{text}");

    assert!(text.contains("Game over: "), "{text}");
    assert!(text.contains(&format!("Saved {}", path.display())), "{text}");
    let replay = common::cli::command()
        .args(["replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    assert!(stdout(&replay).starts_with("replay matches"), "{}", stdout(&replay));
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["agents"], serde_json::json!(["human", "random"]));
    assert_eq!(saved["seed"], 11);
}

#[test]
fn question_mark_shows_the_rules_and_the_options_in_force() {
    let args: Vec<&str> = RPS.iter().copied().chain(["--set", "best_of=5"]).collect();
    let out = play(&args, "?\nq\n\n");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("Classic rock-paper-scissors, played as a match of duels."),
        "{text}"
    );
    assert!(text.contains("rock beats scissors"), "{text}");
    assert!(text.contains("decision: throw"), "{text}");
    assert!(text.contains("Options in force:"), "{text}");
    assert!(text.contains("best_of = 5 (changed)"), "{text}");
    assert!(text.contains("Duels in the match"), "{text}");
    // The help costs nothing: the throw is asked again.
    assert_eq!(text.matches("Left (you), choose throw:").count(), 1, "{text}");
    assert!(text.contains("You left the game."), "{text}");
}

#[test]
fn q_quits_cleanly_and_enter_saves_nothing() {
    let out = play(&RPS, "q\n\n");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("You left the game.\nSave the transcript?"), "{text}");
    assert!(!text.contains("Saved"), "{text}");
    assert_eq!(stderr(&out), "");
}

#[test]
fn q_at_the_save_prompt_saves_nothing() {
    let out = play(&RPS, "q\nq\n");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains("Saved"), "{}", stdout(&out));
    assert!(!scratch().join("q").exists());
}

#[test]
fn bytes_that_are_not_text_are_refused_like_any_bad_entry() {
    let args: Vec<&str> = RPS.iter().copied().chain(["--set", "best_of=99"]).collect();
    let out = play(&args, b"\xff\xfe\nrock\nq\n\n");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("is not one of the choices"), "{text}");
    assert!(text.contains("You choose throw: rock"), "{text}");
}

#[test]
fn a_game_left_early_can_be_saved_and_replays_as_far_as_it_went() {
    let path = temp_path("left.json");
    // A long match, so one throw does not end it.
    let args: Vec<&str> = RPS.iter().copied().chain(["--set", "best_of=99"]).collect();
    let out = play(&args, format!("rock\nq\n{}\n", path.display()));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("unfinished"), "{text}");
    let replay = common::cli::command()
        .args(["replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
    assert!(stdout(&replay).contains("unfinished"), "{}", stdout(&replay));
}

#[test]
fn end_of_input_ends_the_game_without_saving() {
    let args: Vec<&str> = RPS.iter().copied().chain(["--set", "best_of=99"]).collect();
    for input in ["", "rock\n", "lizard"] {
        let out = play(&args, input);
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{input:?}: {text}{}", stderr(&out));
        assert!(
            text.contains("Input ended; you left the game without saving."),
            "{text}"
        );
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
    // At the save prompt too.
    let out = play(&RPS, "q\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(!stdout(&out).contains("Saved"));
}

#[test]
fn a_race_is_timed_by_the_person_and_replays() {
    // Every round of this game is a race with four calls, so 30 answers
    // play it to the end.
    let calls = ["paper", "silence", "3", "Rock"];
    let path = temp_path("race.json");
    let mut input: String = calls.iter().cycle().take(30).map(|c| format!("{c}\n")).collect();
    input.push_str(&format!("{}\n", path.display()));
    let out = play(
        &[
            "play",
            "games/rock.rules",
            "--seat",
            "2",
            "--seed",
            "5",
            "--agents",
            "random",
        ],
        &input,
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("South (you), call shout!"), "{text}");
    assert!(text.contains("(a race: the clock runs from this prompt until you press Enter)"));
    assert!(text.contains("You call shout: paper after "), "{text}");
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("\"South: paper @ "), "{saved}");
    let replay = common::cli::command()
        .args(["replay", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(replay.status.code(), Some(0), "{}", stderr(&replay));
}

#[test]
fn the_screen_shows_the_seats_view_only() {
    let out = play(
        &[
            "play",
            "games/rubber_paper_scissors.rules",
            "--seat",
            "1",
            "--seed",
            "7",
            "--agents",
            "random",
        ],
        "q\n\n",
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(text.contains("Board shop:"), "{text}");
    // Nine face-down tokens, none named; the face-up ones are.
    assert_eq!(text.matches("face_down: hidden").count(), 9, "{text}");
    assert!(text.contains("face_up: Ruler"), "{text}");
    assert!(text.contains("shuffle bag (22 pieces, unseen)"), "{text}");
    assert!(
        text.contains("Orange (you):\n  squad_supply  Squad of Orange x9"),
        "{text}"
    );
    assert!(
        text.contains("Score if the game ended now: Orange 0 · Blue 0"),
        "{text}"
    );
}

#[test]
fn seats_by_number_or_name_and_bad_seats_exit_2() {
    let named = play(
        &["play", "games/rps.rules", "--seat", "right", "--agents", "random"],
        "q\n\n",
    );
    assert_eq!(named.status.code(), Some(0));
    assert!(stdout(&named).contains("You play Right (seat 2) against Left (random)."));
    // The seed is never shown: it would deal the whole game again.
    assert!(!stdout(&named).contains("seed"), "{}", stdout(&named));
    for seat in ["3", "0", "Middle"] {
        let out = play(&["play", "games/rps.rules", "--seat", seat], "");
        assert_eq!(out.status.code(), Some(2), "--seat {seat}");
        assert!(
            stderr(&out).contains("expected a seat number from 1 to 2, or a seat name (Left, Right)"),
            "{}",
            stderr(&out)
        );
        assert_eq!(stdout(&out), "");
    }
}

#[test]
fn agents_one_for_all_or_one_per_seat_with_human_at_yours() {
    let ok = play(
        &["play", "games/rps.rules", "--seat", "2", "--agents", "random,human"],
        "q\n\n",
    );
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    for (spec, says) in [
        ("human", "you are the person here"),
        ("random,random", "write `human` for your own seat"),
        ("human,human", "only one person plays"),
        ("random,random,random", "3 agents for 2 seats"),
        ("nobody", "unknown agent `nobody`"),
    ] {
        let out = play(&["play", "games/rps.rules", "--seat", "2", "--agents", spec], "");
        assert_eq!(out.status.code(), Some(2), "--agents {spec}");
        assert!(stderr(&out).contains(says), "--agents {spec}: {}", stderr(&out));
    }
}

#[test]
fn the_default_agents_play() {
    let out = play(&["play", "games/rps.rules", "--seed", "3"], "rock\nq\n\n");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("against Right (human-like:fallback=mcts(iterations=300))"),
        "{text}"
    );
    assert!(text.contains("Right chooses throw: "), "{text}");
}

/// The screen's counters read a truth value as "yes" or "no", and list the
/// spaces where a variable kept per space holds.
#[test]
fn counters_read_truth_values_in_words() {
    let path = temp_path("ready.rules");
    std::fs::write(
        &path,
        r#"game "Ready"
players 2: Ann, Ben
kinds Answer = go | wait
board field: grid 1 x 3 {
  square public
}
var ready per player = false
var marked per space of field = false
flow {
  Ann chooses first from Answer
  set ready of Ann = true
  set marked of field[1] = true
  Ann chooses second from Answer
  win Ann
}
"#,
    )
    .unwrap();
    let out = play(&["play", path.to_str().unwrap(), "--seed", "1"], "1\n1\n");
    let text = stdout(&out);
    assert!(
        text.contains("Counters: ready: Ann no, Ben no · marked: none"),
        "{text}"
    );
    assert!(
        text.contains("Counters: ready: Ann yes, Ben no · marked: field 2"),
        "{text}"
    );
}

#[test]
fn each_phase_begun_is_headed_with_its_count_on_the_screen() {
    let path = temp_path("rounds.rules");
    std::fs::write(
        &path,
        r#"game "Rounds"
players 2: Ann, Ben
kinds Answer = go | wait
flow {
  repeat 3 times {
    phase the_round {
      Ann chooses pick from Answer
    }
  }
  win Ann
}
"#,
    )
    .unwrap();
    let out = play(&["play", path.to_str().unwrap(), "--seed", "1"], "1\n2\n1\n");
    let text = stdout(&out);
    // The screen shows what happened since the person's last choice, and
    // numbers each round from the start of the game, not of the screen.
    let headings: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("--- the round"))
        .collect();
    assert_eq!(
        headings,
        ["--- the round 1 ---", "--- the round 2 ---", "--- the round 3 ---"],
        "{text}"
    );
}
