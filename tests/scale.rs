//! One study spread over processes the way docs/scale.md spreads it over
//! machines: GNU parallel starts 4 `rpsdsl simulate --shard i/4 --json`
//! processes, `rpsdsl merge` combines their reports, and the merge must be
//! the report of the same run made in one process, byte for byte.
//!
//! GNU parallel (Debian package `parallel`) must be installed. Without it
//! the test fails under `CI=true` (`.ci/run` installs it) and is skipped,
//! loudly, anywhere else.

mod common;

use std::process::Command;

use common::cli::{rpsdsl, scratch, stderr, stdout};

/// The run every process plays a part of: small enough for a few seconds
/// in a test build, long enough that each shard plays many games.
const GAME: &str = "games/rps3.rules";
const RUN: [&str; 5] = ["-n", "400", "--seed", "3", "--json"];
const SHARDS: usize = 4;

/// Whether `parallel` on PATH is GNU parallel (moreutils has a `parallel`
/// too, with other options).
fn gnu_parallel() -> bool {
    Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success() && stdout(&out).starts_with("GNU parallel"))
}

#[test]
fn four_shards_run_by_gnu_parallel_merge_into_the_single_run() {
    if !gnu_parallel() {
        let why = "GNU parallel is not installed (or `parallel` on PATH is not GNU parallel); \
                   install GNU parallel: apt-get install parallel";
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{why}");
        }
        eprintln!("\n*** skipped: GNU parallel not installed ***\n*** {why} ***\n");
        return;
    }
    let dir = scratch("scale/four_shards");
    let log = dir.join("jobs.tsv");

    // The command docs/scale.md shows, with the built binary and the
    // output folder passed through the environment so that no path needs
    // quoting for the shell parallel starts each job in. Run from the
    // crate root, so every report names the game as the single run does.
    let shards = Command::new("parallel")
        .args(["-j", "4", "--halt", "now,fail=1", "--joblog"])
        .arg(&log)
        .arg(format!(
            "\"$RPSDSL\" simulate {GAME} {} --jobs 1 --shard {{}}/{SHARDS} > \"$OUT\"/shard-{{}}.json",
            RUN.join(" ")
        ))
        .arg(":::")
        .args((1..=SHARDS).map(|i| i.to_string()))
        .env("RPSDSL", env!("CARGO_BIN_EXE_rpsdsl"))
        .env("OUT", &dir)
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        shards.status.success(),
        "parallel failed ({}):\n{}{}",
        shards.status,
        stdout(&shards),
        stderr(&shards)
    );

    // Four jobs, each its own process, each a success.
    let log = std::fs::read_to_string(&log).unwrap();
    let jobs: Vec<&str> = log.lines().skip(1).collect();
    assert_eq!(jobs.len(), SHARDS, "one job per shard:\n{log}");
    for job in &jobs {
        let exit = job.split('\t').nth(6);
        assert_eq!(exit, Some("0"), "a job failed:\n{log}");
    }

    // Each shard holds its quarter of the games, and only that.
    let files: Vec<String> = (1..=SHARDS)
        .map(|i| dir.join(format!("shard-{i}.json")).display().to_string())
        .collect();
    for (i, file) in files.iter().enumerate() {
        let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let range = serde_json::json!([[i * 100, (i + 1) * 100]]);
        assert_eq!(report["ranges"], range, "{file}");
        assert_eq!(report["games"], 100, "{file}");
        assert_eq!(report["planned"], 400, "{file}");
    }

    // Their merge, named in any order, is the single run: the same bytes,
    // so nothing differs, not even the ranges or the summary.
    let mut merge_args = vec!["merge", "--json"];
    merge_args.extend(files.iter().rev().map(String::as_str));
    let merged = rpsdsl(&merge_args);
    assert_eq!(merged.status.code(), Some(0), "{}", stderr(&merged));
    assert!(
        !stderr(&merged).contains("warning"),
        "the shards cover the run: {}",
        stderr(&merged)
    );
    let mut single_args = vec!["simulate", GAME];
    single_args.extend(RUN);
    let single = rpsdsl(&single_args);
    assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
    let (merged, single) = (stdout(&merged), stdout(&single));
    if merged != single {
        // The first line that differs, or the end of the shorter one.
        let line = (merged.lines().zip(single.lines()).position(|(m, s)| m != s))
            .unwrap_or_else(|| merged.lines().count().min(single.lines().count()));
        panic!(
            "the merged report differs from the single run, first at line {}:\n  merged: {:?}\n  single: {:?}",
            line + 1,
            merged.lines().nth(line),
            single.lines().nth(line),
        );
    }
}
