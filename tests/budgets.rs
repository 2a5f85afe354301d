//! `--time` is kept: every command that takes it ends within the budget
//! plus 10% or 2 s, whichever is more (docs/budgets.md), on every shipped
//! game and on a game whose players never end it, with one thread and with
//! one per core. Each run is given 1 s (2 s for the verdict), so the test
//! stays short; the bound is on the wall time, so it holds in a debug
//! build too. The runs go one at a time: two at once on a small machine
//! would measure each other.

mod common;

use std::process::{Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::cli::{command, stderr, stdout};

/// A game whose players never end it: every game stops at the decision limit.
const STALLING: &str = "tests/games/always_endless.rules";

/// One run at a time across this file's tests.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The most a run given `budget` may take.
fn allowed(budget: Duration) -> Duration {
    budget + budget.mul_f64(0.1).max(Duration::from_secs(2))
}

/// Runs `rpsdsl args...`, with the wall time it took.
fn timed(args: &[&str]) -> (Output, Duration) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let started = Instant::now();
    let out = command().args(args).stdin(Stdio::null()).output().unwrap();
    (out, started.elapsed())
}

/// Asserts that `rpsdsl args...` kept `budget`.
fn keeps(args: &[&str], budget: Duration) -> Output {
    let (out, took) = timed(args);
    assert!(
        took <= allowed(budget),
        "`rpsdsl {}` took {took:?} for a budget of {budget:?}\n{}",
        args.join(" "),
        stderr(&out)
    );
    // A budget reached is said, never a crash.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "`rpsdsl {}`: {}",
        args.join(" "),
        stderr(&out)
    );
    out
}

fn every_game() -> Vec<String> {
    let mut games = common::shipped_games();
    games.push(STALLING.to_string());
    games
}

#[test]
fn solve_keeps_its_time_on_every_game_with_one_thread_and_with_every_core() {
    for game in every_game() {
        for jobs in ["1", "0"] {
            keeps(&["solve", &game, "--time", "1", "--jobs", jobs], Duration::from_secs(1));
        }
    }
}

#[test]
fn exploit_keeps_its_time_on_every_game() {
    for (i, game) in every_game().iter().enumerate() {
        let jobs = if i % 2 == 0 { "1" } else { "0" };
        keeps(
            &[
                "exploit",
                game,
                "--agents",
                "mcts:iterations=20",
                "--time",
                "1",
                "--jobs",
                jobs,
            ],
            Duration::from_secs(1),
        );
    }
}

/// Slow players still leave a measured answer: batches start small and
/// double, and a batch may not run into the next phase's time. (A learning
/// batch of 64 games once ran past its share, and `exploit` ended with no
/// pair measured at all.)
#[test]
fn exploit_with_slow_players_keeps_what_it_measured() {
    let out = keeps(
        &[
            "exploit",
            "games/rubber_paper_scissors.rules",
            "--agents",
            "mcts:iterations=10",
            "--method",
            "sampled",
            "--time",
            "4",
        ],
        Duration::from_secs(4),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(report.contains("measured on fresh deals"), "{report}");
}

#[test]
fn a_verdict_whose_players_stall_ends_in_its_time_and_says_so() {
    for jobs in ["1", "0"] {
        let out = keeps(
            &["verdict", STALLING, STALLING, "--force", "--time", "2", "--jobs", jobs],
            Duration::from_secs(2),
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let report = stdout(&out);
        assert!(report.contains("the time ran out"), "{report}");
    }
}

#[test]
fn the_solve_player_trains_within_its_time() {
    let out = keeps(
        &[
            "run",
            "games/rps.rules",
            "--seed",
            "1",
            "--agents",
            "solve:time=1,random",
        ],
        Duration::from_secs(1),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_seed_games_policy_file_stays_small_and_plays() {
    let dir = common::cli::scratch("budgets/policy_files");
    for game in [
        "games/rps.rules",
        "games/rps3.rules",
        "games/rubber_paper_scissors.rules",
        "games/janken_deck.rules",
        "games/rps_poker.rules",
    ] {
        let file = dir.join("policy.json");
        let file = file.to_str().unwrap();
        let out = keeps(&["solve", game, "--time", "2", "--save", file], Duration::from_secs(2));
        assert_eq!(out.status.code(), Some(0), "{game}: {}", stderr(&out));
        let size = std::fs::metadata(file).unwrap().len();
        assert!(size <= 50 << 20, "{game}: a policy file of {size} bytes");
        let spec = format!("policy:{file},random");
        let (played, _) = timed(&["run", game, "--seed", "2", "--agents", &spec]);
        assert_eq!(played.status.code(), Some(0), "{game}: {}", stderr(&played));
    }
}

#[test]
fn a_run_at_the_memory_cap_stops_says_so_and_keeps_what_it_has() {
    let out = keeps(
        &["solve", "games/rps3.rules", "--memory", "256M", "--time", "10"],
        Duration::from_secs(10),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = stdout(&out);
    assert!(
        report.contains("stopped at the memory cap; set another with --memory"),
        "{report}"
    );
    // What it learnt is kept: the strategy is printed.
    assert!(report.contains("Strategy, by situation"), "{report}");
    let refused = common::cli::rpsdsl(&["solve", "games/rps.rules", "--memory", "1M"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains("at least 256M"), "{}", stderr(&refused));
}

/// The cap holds for the whole process, answer included: a sampled
/// solve's situations, every one of them written out (`--all`, `--json`:
/// a hundred megabytes and more of text), stay under it.
#[cfg(target_os = "linux")]
#[test]
fn a_sampled_answer_written_whole_stays_under_the_memory_cap() {
    const CAP: u64 = 256 << 20;
    let dir = common::cli::scratch("budgets/whole_answer");
    for how in ["--all", "--json"] {
        let file = dir.join("answer");
        let (status, peak) = peak_resident(
            &["solve", "games/rps3.rules", "--memory", "256M", "--time", "10", how],
            &file,
        );
        assert_eq!(status.code(), Some(0), "{how}");
        let answer = std::fs::read_to_string(&file).unwrap();
        assert!(answer.contains("memory"), "{how}: the answer says why it stopped");
        assert!(
            peak <= CAP,
            "{how}: {} MiB resident at the most, over the 256M cap",
            peak >> 20
        );
    }
}

/// Runs `rpsdsl args...` with its output to `file`: how it ended, and the
/// most memory it held resident (its high-water mark, read as it runs).
#[cfg(target_os = "linux")]
fn peak_resident(args: &[&str], file: &std::path::Path) -> (std::process::ExitStatus, u64) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut child = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(file).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        // The mark only grows, so the last reading before the end is
        // within a few milliseconds of the peak.
        if let Some(kib) = std::fs::read_to_string(&status).ok().and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        }) {
            peak = peak.max(kib << 10);
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
