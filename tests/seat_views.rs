//! No secret in a seat's view, and no forged line in any output: the seed
//! stays out of a seat's view, another seat's number of choices shows only
//! where nothing hidden could change it, a peek names its piece only to the
//! peeker, `replay` checks every header field it trusts, and names read
//! from input are printed escaped.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::cli::{rpsdsl, rpsdsl_in, stderr as err, stdout as out};
use rpsdsl::transcript::{Viewer, render_events, without_seed};

const RPS_ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpsdsl-seat-views-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_seat_s_view_has_no_seed_and_the_full_view_keeps_it() {
    for view in ["1", "Blue"] {
        let text = out(&rpsdsl(&[
            "run",
            "games/rubber_paper_scissors.rules",
            "--seed",
            "4242",
            "--view",
            view,
        ]));
        assert!(!text.contains("4242"), "{text}");
        assert!(!text.contains("seed"), "{text}");
        let json = out(&rpsdsl(&[
            "run",
            "games/rubber_paper_scissors.rules",
            "--seed",
            "4242",
            "--view",
            view,
            "--json",
        ]));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert!(value.get("seed").is_none(), "{json}");
        assert!(!json.contains("4242"), "{json}");
    }
    let all = out(&rpsdsl(&["run", "games/rubber_paper_scissors.rules", "--seed", "4242"]));
    assert!(all.contains("# seed 4242, agents random,random, view all"), "{all}");
}

#[test]
fn an_agent_s_seed_stays_out_of_a_seat_s_view() {
    assert_eq!(without_seed("mcts:iterations=5:seed=99"), "mcts:iterations=5");
    assert_eq!(
        without_seed("human-like:fallback=mcts(iterations=8:seed=3):seed=4"),
        "human-like:fallback=mcts(iterations=8)"
    );
    assert_eq!(without_seed("random"), "random");
    let args = [
        "run",
        "games/rps.rules",
        "--seed",
        "5",
        "--agents",
        "greedy:samples=2:seed=31337,random",
    ];
    let seat = out(&rpsdsl(&[&args[..], &["--view", "2"]].concat()));
    assert!(seat.contains("# agents greedy:samples=2,random, view Right"), "{seat}");
    assert!(!seat.contains("31337"), "{seat}");
}

#[test]
fn without_a_seed_run_and_play_draw_one_the_seat_cannot_guess() {
    let seed = |o: &Output| -> u64 {
        let v: serde_json::Value = serde_json::from_str(&out(o)).unwrap();
        v["seed"].as_u64().unwrap()
    };
    let a = seed(&rpsdsl(&["run", "games/rps.rules", "--json"]));
    let b = seed(&rpsdsl(&["run", "games/rps.rules", "--json"]));
    assert_ne!(a, b, "two runs without --seed drew the same seed");
    // Not the old defaults: 1 for run, a clock number below a million for play.
    assert!(a > 1_000_000 || b > 1_000_000);
    // The play screen never shows the seed, given or drawn; saving writes
    // the full record (with its seed) under a name that does not show it.
    let dir = scratch();
    let rules = format!("{RPS_ROOT}/games/rps.rules");
    let shown = rpsdsl_in(
        &dir,
        &["play", &rules, "--agents", "random", "--seed", "987654"],
        b"q\ny\n",
    );
    let screen = out(&shown);
    assert!(!screen.contains("987654"), "{screen}");
    assert!(!screen.to_lowercase().contains("seed"), "{screen}");
    let saved = screen
        .split_whitespace()
        .find(|w| w.starts_with("play-") && w.ends_with(".json;"))
        .unwrap_or_else(|| panic!("{screen}"))
        .trim_end_matches(';')
        .to_string();
    assert!(!saved.contains("987654"), "{saved}");
    let record = std::fs::read_to_string(dir.join(&saved)).unwrap();
    assert!(
        record.contains("\"seed\": 987654"),
        "the saved full view keeps its seed"
    );
}

#[test]
fn another_seat_s_count_shows_only_when_nothing_is_hidden_from_the_viewer() {
    // RPS Poker: the hands are hidden, so how many cards Ann could play
    // would tell Ben about her hand.
    let def = common::load("games/rps_poker.rules");
    let record = common::play(&def, 3, &rpsdsl::scenario::Scenario::default()).unwrap();
    let ben = render_events(&def, &record.events, Viewer::Seat(1));
    let all = render_events(&def, &record.events, Viewer::All);
    assert!(
        ben.iter().any(|l| l.starts_with("Ben chooses") && l.contains("  [of ")),
        "{ben:#?}"
    );
    assert!(
        ben.iter()
            .filter(|l| l.starts_with("Ann "))
            .all(|l| !l.contains("[of ")),
        "{ben:#?}"
    );
    assert!(
        all.iter().any(|l| l.starts_with("Ann chooses") && l.contains("  [of ")),
        "{all:#?}"
    );
    // Rock Paper Scissors hides nothing: every count shows to everyone.
    let def = common::load("games/rps.rules");
    let record = common::play(&def, 3, &rpsdsl::scenario::Scenario::default()).unwrap();
    let right = render_events(&def, &record.events, Viewer::Seat(1));
    assert!(
        right
            .iter()
            .filter(|l| l.starts_with("Left chooses"))
            .all(|l| l.ends_with("  [of 3]")),
        "{right:#?}"
    );
}

#[test]
fn a_peek_is_named_only_to_the_seats_that_know_the_piece() {
    // Orange peeks at the Crown on shop 5; then Blue peeks at the same
    // token. Blue's view of Orange's peek does not name it (Blue did not
    // know it then); Orange's view of Blue's peek does, since Orange knew
    // it already and learns nothing new (issue 48: a seat reads its own
    // card by name when it is shown to another).
    let path = Path::new("games/rubber_paper_scissors.rules");
    let setting = rpsdsl::check::OptionSetting {
        name: "goggles".into(),
        value: "true".into(),
        name_span: Default::default(),
        value_span: Default::default(),
    };
    let game = rpsdsl::load::load_game(path, &rpsdsl::check::FsLoader, |_| Ok(vec![setting])).unwrap();
    let scenario = common::scenario(
        &[("bag", &["Tape", "Tape", "Tape", "Tape", "Crown"])],
        &[
            "Orange: spend Goggles",
            "Blue: scissors",
            "Orange: shop 5",
            "Orange: rock",
            "Blue: spend Goggles",
            "Blue: shop 5",
            "Orange: rock",
            "Blue: scissors",
        ],
    );
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    let record = rpsdsl::session::play(&game.def, &game.options, 1, &scenario, &mut agents).unwrap();
    let orange = render_events(&game.def, &record.events, Viewer::Seat(0));
    let blue = render_events(&game.def, &record.events, Viewer::Seat(1));
    assert!(orange.contains(&"  reveal Crown to Orange".to_string()), "{orange:#?}");
    assert!(orange.contains(&"  reveal Crown to Blue".to_string()), "{orange:#?}");
    assert!(
        blue.contains(&"  reveal a hidden piece to Orange".to_string()),
        "{blue:#?}"
    );
    assert!(blue.contains(&"  reveal Crown to Blue".to_string()), "{blue:#?}");
}

/// A `--view all` transcript of RPS Poker (shuffles, hidden hands), with
/// one edit applied, replayed.
fn replay_edited(name: &str, edit: impl Fn(&mut serde_json::Value)) -> Output {
    let json = out(&rpsdsl(&["run", "games/rps_poker.rules", "--seed", "11", "--json"]));
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    edit(&mut value);
    let path = scratch().join(name);
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    rpsdsl(&["replay", path.to_str().unwrap()])
}

type Edit = Box<dyn Fn(&mut serde_json::Value)>;

#[test]
fn replay_refuses_a_transcript_whose_header_was_edited() {
    let intact = replay_edited("intact.json", |_| {});
    assert_eq!(intact.status.code(), Some(0), "{}", err(&intact));
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "view",
            Box::new(|v| v["view"] = "Ann".into()),
            "a seat's view cannot be replayed",
        ),
        (
            "game",
            Box::new(|v| v["game"] = "Chess".into()),
            "the transcript's `game` is `Chess`",
        ),
        (
            "agents",
            Box::new(|v| v["agents"] = serde_json::json!(["random"])),
            "names 1 agents",
        ),
        (
            "agents",
            Box::new(|v| v["agents"][1] = "oracle".into()),
            "`oracle`, which is not an agent",
        ),
        (
            "options",
            Box::new(|v| v["options"] = serde_json::json!([["starting_chips", "100"]])),
            "are not the options that differ",
        ),
        (
            "options",
            Box::new(|v| v["options"] = serde_json::json!([["no_such", "2"]])),
            "the transcript's `options` do not fit the rules",
        ),
        (
            "seed",
            Box::new(|v| v["seed"] = 12.into()),
            "the seed 12 does not deal the recorded shuffles",
        ),
        (
            "seed",
            Box::new(|v| v.as_object_mut().unwrap().remove("seed").map(drop).unwrap()),
            "has no `seed`",
        ),
        (
            "rules",
            Box::new(|v| v["rules"] = "/etc/passwd".into()),
            "is not a `.rules` or house-rules `.toml` file",
        ),
    ];
    for (i, (field, edit, message)) in cases.into_iter().enumerate() {
        let o = replay_edited(&format!("edited-{i}.json"), edit);
        let e = err(&o);
        assert_eq!(o.status.code(), Some(1), "{field}: {e}");
        assert!(e.contains("rpsdsl::bad-transcript"), "{field}: {e}");
        assert!(e.contains(message), "{field}: {e}");
        assert!(!out(&o).contains("replay matches"), "{field}");
    }
}

#[test]
fn a_scenario_s_fixed_shuffles_still_replay() {
    let scenario = scratch().join("fixed.toml");
    std::fs::write(
        &scenario,
        "[[shuffle]]\nzone = \"bag\"\ntop = [\"Crown\", \"Crown\", \"Crown\"]\n",
    )
    .unwrap();
    let json = rpsdsl(&[
        "run",
        "games/rubber_paper_scissors.rules",
        "--seed",
        "2",
        "--scenario",
        scenario.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(json.status.code(), Some(0), "{}", err(&json));
    let path = scratch().join("fixed.json");
    std::fs::write(&path, out(&json)).unwrap();
    let again = rpsdsl(&["replay", path.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "{}", err(&again));
}

/// No line of `text` is forged and nothing drives the terminal.
fn assert_clean(what: &str, text: &str) {
    assert!(
        !text.contains('\x1b'),
        "{what}: an escape sequence got through:\n{text}"
    );
    assert!(!text.contains('\r'), "{what}: a carriage return got through:\n{text}");
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("result: Orange wins (forged)")),
        "{what}: a forged line:\n{text}"
    );
}

#[test]
fn a_name_from_input_cannot_forge_a_line_or_colour_the_terminal() {
    let dir = scratch();
    let house = dir.join("evil.toml");
    std::fs::write(
        &house,
        format!(
            "rules = \"{RPS_ROOT}/games/rubber_paper_scissors.rules\"\n\
             name = \"evil\\nresult: Orange wins (forged)\\r\\u001b[31mred\"\n"
        ),
    )
    .unwrap();
    let h = house.to_str().unwrap();
    let text = out(&rpsdsl(&["run", h, "--seed", "2"]));
    assert_clean("run", &text);
    assert!(
        text.starts_with("# Rubber Paper Scissors (evil\\nresult: Orange wins (forged)\\rred) ("),
        "{text}"
    );
    for view in ["1", "2"] {
        assert_clean("run --view", &out(&rpsdsl(&["run", h, "--seed", "2", "--view", view])));
    }
    let json = out(&rpsdsl(&["run", h, "--seed", "2", "--json"]));
    assert!(
        json.contains(r#""game": "Rubber Paper Scissors (evil\\nresult: Orange wins (forged)\\rred)""#),
        "{json}"
    );
    let transcript = dir.join("evil.json");
    std::fs::write(&transcript, &json).unwrap();
    let replayed = rpsdsl(&["replay", transcript.to_str().unwrap()]);
    assert_eq!(replayed.status.code(), Some(0), "{}", err(&replayed));
    let report = out(&rpsdsl(&["simulate", h, "-n", "3"]));
    assert_clean("simulate", &report);
    assert_clean(
        "compare",
        &out(&rpsdsl(&["compare", "games/rubber_paper_scissors.rules", h, "-n", "3"])),
    );
    // A report file edited by hand is refused by its seal, and the refusal
    // is printable too.
    let shard = out(&rpsdsl(&["simulate", "games/rps.rules", "-n", "3", "--json"]));
    let mut value: serde_json::Value = serde_json::from_str(&shard).unwrap();
    value["game"] = "x\nresult: Orange wins (forged)\r\u{1b}[2J".into();
    let file = dir.join("report.json");
    std::fs::write(&file, value.to_string()).unwrap();
    let merged = rpsdsl(&["merge", file.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(1), "{}", err(&merged));
    assert!(err(&merged).contains("`seal`"), "{}", err(&merged));
    assert_clean("merge", &err(&merged));
    let screen = rpsdsl_in(&dir, &["play", h, "--agents", "random"], b"?\nlog\nq\n\n");
    assert_clean("play", &out(&screen));
    assert!(out(&screen).contains("evil\\nresult"), "{}", out(&screen));
}
