//! Hardening: every failure is said, nothing is reported as a success that
//! was not one, and no input the command line is given can make it read
//! forever or write where it should not. One test per finding of the
//! hostile run (issue 48), each failing on the code before its fix.

mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::cli::{command, rpsdsl, rpsdsl_in, rpsdsl_within, scratch, stderr, stderr_unwrapped, stdout};

/// Runs `rpsdsl args...` with its standard output on `/dev/full`, where
/// every write fails with "no space left on device".
#[cfg(target_os = "linux")]
fn onto_a_full_disk(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_a_failure_said_on_stderr_for_every_command_that_prints() {
    let dir = scratch("hardening/full_disk");
    let rules = dir.join("unformatted.rules");
    std::fs::write(&rules, std::fs::read_to_string("games/rps.rules").unwrap()).unwrap();
    let commands: &[&[&str]] = &[
        &["run", "games/rps.rules", "--seed", "3", "--json"],
        &["simulate", "games/rps.rules", "-n", "20", "--json"],
        &["check", "games/rps.rules"],
        &["exact", "games/classic/kuhn_poker.rules"],
        &["solve", "games/classic/kuhn_poker.rules", "--time", "1"],
        &[
            "compare",
            "games/rps3.rules",
            "games/variants/rps3_small.rules",
            "-n",
            "20",
        ],
        &["render", "games/rps.rules", "--seed", "3"],
        &["agents"],
    ];
    for args in commands {
        let out = onto_a_full_disk(args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "`rpsdsl {}` on a full disk: {}",
            args.join(" "),
            stderr(&out)
        );
        assert!(
            stderr(&out).contains("cannot write to standard output"),
            "`rpsdsl {}`: {}",
            args.join(" "),
            stderr(&out)
        );
    }
    // `fmt -` reads standard input and writes standard output.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = command()
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(std::fs::read_to_string("games/rps.rules").unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1), "fmt -: {}", stderr(&out));
}

#[test]
fn a_closed_pipe_still_ends_quietly() {
    let mut child = command()
        .args(["simulate", "games/rps.rules", "-n", "50"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).is_empty() || !stderr(&out).contains("error"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn play_svg_writes_through_a_symlink_and_never_replaces_it() {
    let dir = scratch("hardening/svg_symlink");
    let target = dir.join("picture.svg");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    // Played in the scratch folder: the throws left over when the game ends
    // answer the save prompt, and must not save a transcript in the project.
    const RPS_RULES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/games/rps.rules");
    let out = rpsdsl_in(
        &dir,
        &[
            "play",
            RPS_RULES,
            "--seat",
            "1",
            "--seed",
            "7",
            "--agents",
            "random",
            "--svg",
            link.to_str().unwrap(),
        ],
        b"rock\nrock\nrock\nrock\nrock\nrock\nrock\nrock\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link was replaced by a regular file");
    let drawn = std::fs::read_to_string(&target).unwrap();
    assert!(drawn.starts_with("<svg") || drawn.contains("<svg"), "{drawn}");
    // A device is written to, not replaced.
    let out = rpsdsl_in(
        &dir,
        &[
            "play",
            RPS_RULES,
            "--seat",
            "1",
            "--seed",
            "7",
            "--agents",
            "random",
            "--svg",
            "/dev/null",
        ],
        b"rock\nrock\nrock\nrock\nrock\nrock\nrock\nrock\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let null = std::fs::metadata("/dev/null").unwrap();
    assert!(!null.is_file(), "/dev/null became a regular file");
    assert!(!Path::new("/dev/null.partial").exists());
}

#[cfg(unix)]
#[test]
fn a_policy_file_is_read_with_care() {
    // A device would be read forever; refused before it is opened.
    let out = rpsdsl_within(
        &[
            "run",
            "games/rps.rules",
            "--seed",
            "1",
            "--agents",
            "policy:/dev/zero,random",
        ],
        Duration::from_secs(20),
    );
    assert_ne!(out.status.code(), Some(0));
    assert!(
        stderr_unwrapped(&out).contains("a device, not a regular file"),
        "{}",
        stderr(&out)
    );
    // A named pipe would block forever waiting for a writer.
    let dir = scratch("hardening/policy_fifo");
    let fifo = dir.join("policy.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let spec = format!("policy:{},random", fifo.display());
        let out = rpsdsl_within(
            &["run", "games/rps.rules", "--seed", "1", "--agents", &spec],
            Duration::from_secs(20),
        );
        assert_ne!(out.status.code(), Some(0));
        assert!(stderr_unwrapped(&out).contains("a named pipe"), "{}", stderr(&out));
    }
}

#[test]
fn compare_names_a_shared_ending_alike_however_each_file_was_reached() {
    // The variant lives elsewhere and reaches the base by an absolute path;
    // the base is named relative to the crate. Both end by the base's `win`.
    let dir = scratch("hardening/compare_paths");
    let base = std::fs::canonicalize("games/rps.rules").unwrap();
    let variant = dir.join("variants/same_rps.rules");
    std::fs::create_dir_all(variant.parent().unwrap()).unwrap();
    std::fs::write(&variant, format!("extends \"{}\"\n", base.display())).unwrap();
    let out = rpsdsl(&["compare", "games/rps.rules", variant.to_str().unwrap(), "-n", "200"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let ends: Vec<&str> = text
        .split("How games end")
        .nth(1)
        .unwrap()
        .lines()
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(ends.len(), 1, "one ending, named alike: {ends:#?}");
    assert!(ends[0].contains("win in the flow (rps.rules:"), "{}", ends[0]);
    assert_eq!(ends[0].matches("100.0%").count(), 2, "{}", ends[0]);
}

#[test]
fn replay_refuses_decisions_recorded_after_the_end() {
    let dir = scratch("hardening/replay_after_end");
    let json = rpsdsl(&["run", "games/rubber_paper_scissors.rules", "--seed", "7", "--json"]);
    assert_eq!(json.status.code(), Some(0), "{}", stderr(&json));
    let mut transcript: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let decisions = transcript["replay"]["decisions"].as_array_mut().unwrap();
    let last = decisions.last().unwrap().clone();
    decisions.push(last);
    let path = dir.join("game.json");
    std::fs::write(&path, serde_json::to_string(&transcript).unwrap()).unwrap();
    let out = rpsdsl(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stderr(&out).contains("replay diverged"), "{}", stderr(&out));
    assert!(stderr(&out).contains("the game ended after"), "{}", stderr(&out));
}

#[test]
fn a_seat_reads_its_own_card_by_name_when_it_is_shown_to_another() {
    let dir = scratch("hardening/reveal_own");
    let rules = dir.join("show.rules");
    std::fs::write(
        &rules,
        r#"game "Show and tell"
players 2: Ann, Ben

pieces {
  Fire x1 in deck
  Ice x1 in deck
}

zones {
  deck hidden
  hand per player owner
}

flow {
  shuffle deck
  deal 1 from deck to hand of Ann
  deal 1 from deck to hand of Ben
  reveal top of hand of Ann to Ben
  Ann chooses pass from 1..1
  declare draw
}
"#,
    )
    .unwrap();
    let rules = rules.to_str().unwrap();
    for seed in ["1", "2"] {
        let all = stdout(&rpsdsl(&["run", rules, "--seed", seed, "--view", "all"]));
        let shown = all
            .lines()
            .find_map(|l| l.trim().strip_prefix("reveal "))
            .and_then(|l| l.strip_suffix(" to Ben"))
            .unwrap()
            .to_string();
        let own = format!("reveal {shown} to Ben");
        for seat in ["Ann", "Ben"] {
            let view = stdout(&rpsdsl(&["run", rules, "--seed", seed, "--view", seat]));
            assert!(view.contains(&own), "{seat}'s view: {view}");
        }
    }
}

#[test]
fn a_negative_count_is_refused_where_it_is_written() {
    let out = rpsdsl(&["check", "tests/fixtures/negative_count_written.rules"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stderr(&out);
    assert!(text.contains("rpsdsl::negative-count"), "{text}");
    assert!(text.contains("`deal -1`"), "{text}");
    assert!(text.contains("`repeat -2`"), "{text}");
}

#[test]
fn a_house_file_of_many_unknown_options_shows_the_first_hundred_and_a_count() {
    let dir = scratch("hardening/house_many");
    let rules = std::fs::canonicalize("games/rps3.rules").unwrap();
    let mut text = format!("rules = \"{}\"\n\n[options]\n", rules.display());
    for i in 0..500 {
        text.push_str(&format!("unknown{i} = {i}\n"));
    }
    let house = dir.join("house.toml");
    std::fs::write(&house, text).unwrap();
    let out = rpsdsl(&["check", house.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let shown = stderr(&out);
    assert_eq!(shown.matches("rpsdsl::unknown-option").count(), 100, "{shown}");
    assert!(shown.contains("400 more errors, not shown"), "{shown}");
    // In the order of the file: the first hundred names.
    assert!(shown.contains("no option `unknown0`"), "{shown}");
    assert!(shown.contains("no option `unknown99`"), "{shown}");
    assert!(!shown.contains("no option `unknown100`"), "{shown}");
}

#[test]
fn a_one_seat_game_is_read_by_its_score_not_as_a_win() {
    let dir = scratch("hardening/one_seat");
    let rules = dir.join("solo.rules");
    std::fs::write(
        &rules,
        r#"game "Solo bet"
players 1: Punter

var money per player = 0

flow {
  Punter chooses bet from 1..4
  if bet == 1 { add 1 to money of Punter } else { add -1 to money of Punter }
}

score per player {
  money: money of player
}

result {
  most score
  else draw
}
"#,
    )
    .unwrap();
    let out = rpsdsl(&["simulate", rules.to_str().unwrap(), "-n", "400"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stdout(&out);
    // Three bets in four lose: no advantage of +100 points, and the note
    // sends the reader to the (negative) score.
    assert!(
        report.contains("balance n/a; first-player advantage n/a (one seat)"),
        "{report}"
    );
    assert!(report.contains("its result is its score (mean -0."), "{report}");
    // The page's summary says it too, not only the text at its foot.
    let page = dir.join("solo.html");
    let out = rpsdsl(&[
        "simulate",
        rules.to_str().unwrap(),
        "-n",
        "400",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    let summary = html.split("Who wins").next().unwrap();
    assert!(summary.contains("One seat: a ranking puts it first"), "{summary}");
}
