//! Hostile input at run time: hooks that sleep, loop or throw inside a
//! callback; agent specs and numeric arguments out of range; tampered
//! shard reports. Each is refused with a clear error, quickly, and nothing
//! panics.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use common::cli::{rpsdsl, stderr, stdout};
use serde_json::Value;

/// A fresh folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    common::cli::scratch(&format!("hostile_runtime/{name}"))
}

/// A game whose flow asks one hook, `probe`, with `body` as its rhai: player
/// 1 wins when it answers true.
fn hook_game(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(format!("{name}.rules"));
    let text = format!(
        "game \"Hostile Hook\"\nplayers 2: A, B\n\nflow {{\n  if probe(1) {{ win player 1 }}\n  win player 2\n}}\n\n\
         hook probe(p) -> bool rhai {{\n  {body}\n}}\n"
    );
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Runs the game of `body` and returns its output, failing if it takes long.
fn run_hook(dir: &Path, name: &str, body: &str) -> Output {
    let path = hook_game(dir, name, body);
    let started = Instant::now();
    let out = rpsdsl(&["run", &path]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "`{body}` took {:?}",
        started.elapsed()
    );
    out
}

/// The hook fails with `hook-failed` and a message containing `expected`.
fn assert_hook_fails(dir: &Path, name: &str, body: &str, expected: &str) {
    let out = run_hook(dir, name, body);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "`{body}`:\n{err}");
    assert!(err.contains("rpsdsl::hook-failed"), "`{body}`:\n{err}");
    assert!(err.contains(expected), "`{body}`: expected {expected:?} in\n{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn hooks_cannot_sleep_read_the_clock_exit_or_load_anything() {
    let dir = scratch("sandbox");
    // `sleep(1.0e300)` used to panic inside Rust's time code; `sleep(1)` blocked.
    for (i, body) in ["sleep(1.0e300); true", "sleep(1); true", "sleep(-1); true"]
        .iter()
        .enumerate()
    {
        assert_hook_fails(&dir, &format!("sleep{i}"), body, "no function `sleep");
    }
    for (name, body, what) in [
        ("timestamp", "let t = timestamp(); true", "no function `timestamp"),
        ("exit", "exit(1); true", "no function `exit"),
        ("json", "parse_json(\"{}\"); true", "no function `parse_json"),
    ] {
        assert_hook_fails(&dir, name, body, what);
    }
    // The help says what a hook may call.
    let out = run_hook(&dir, "help", "sleep(1); true");
    assert!(
        stderr(&out).contains("cannot sleep, read the clock"),
        "{}",
        stderr(&out)
    );
    // `import` and `eval` are refused when the rules are checked.
    for (name, body) in [("import", "import \"os\" as os; true"), ("eval", "eval(\"true\")")] {
        let out = rpsdsl(&["check", &hook_game(&dir, name, body)]);
        assert_eq!(out.status.code(), Some(1));
        assert!(stderr(&out).contains("rpsdsl::hook-syntax"), "{}", stderr(&out));
    }
    // `print` and `debug` go nowhere: stdout holds the transcript only.
    let out = run_hook(&dir, "print", "print(\"leak\"); debug(\"leak\"); true");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stdout(&out).contains("leak") && !stderr(&out).contains("leak"));
    assert!(stdout(&out).contains("result: A wins"), "{}", stdout(&out));
}

#[test]
fn comparers_are_held_to_the_operation_limit_and_their_errors_stop_the_hook() {
    let dir = scratch("comparers");
    // Every comparison stays under the limit, but the sort as a whole ran
    // about 20 million operations before: the limit is per hook call.
    let heavy = "let a = []; for i in 0..200 { a.push(200 - i) } \
                 a.sort(|x, y| { let n = 0; while n < 5000 { n += 1 } x - y }); true";
    assert_hook_fails(&dir, "heavy", heavy, "more than 100000 operations");
    let looping = "let a = [3, 1, 2]; a.sort(|x, y| { loop { } }); true";
    assert_hook_fails(&dir, "loop", looping, "more than 100000 operations");
    // An error in a comparer used to be read as "equal" and the sort went on.
    for (name, body) in [
        (
            "sort",
            "let a = [3, 1, 2]; a.sort(|x, y| { throw \"no order here\" }); true",
        ),
        (
            "sort_by",
            "let a = [3, 1, 2]; a.sort_by(|x, y| { throw \"no order here\" }); true",
        ),
        (
            "order",
            "let a = [3, 1, 2]; let b = a.order(|x, y| { throw \"no order here\" }); true",
        ),
        (
            "dedup",
            "let a = [1, 1, 2]; a.dedup(|x, y| { throw \"no order here\" }); true",
        ),
    ] {
        assert_hook_fails(&dir, name, body, "no order here");
    }
    assert_hook_fails(
        &dir,
        "type",
        "let a = [3, 1, 2]; a.sort(|x, y| \"later\"); true",
        "returned a string; it must return a number",
    );
    // The replacements still sort (stably), order and dedup.
    let works = "let a = [3, 1, 2, 5, 4, 4]; a.sort(|x, y| x - y); \
                 let b = a.order(|x, y| x > y); \
                 let c = [[1, 0], [0, 1], [1, 1], [0, 2]]; c.sort(|x, y| x[0] - y[0]); \
                 let d = [1, 1, 2, 2, 1]; d.dedup(); \
                 let e = [1, 2, 3, 7, 8]; e.dedup(|x, y| y - x < 3); \
                 a == [1, 2, 3, 4, 4, 5] && b == [5, 4, 4, 3, 2, 1] \
                 && c == [[0, 1], [0, 2], [1, 0], [1, 1]] && d == [1, 2, 1] && e == [1, 7]";
    let out = run_hook(&dir, "works", works);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("result: A wins"), "{}", stdout(&out));
}

#[test]
fn game_counts_and_thread_counts_out_of_range_are_refused() {
    for args in [
        &["simulate", "games/rps.rules", "-n", "0"][..],
        &["compare", "games/rps.rules", "games/rps.rules", "-n", "0"],
        &["simulate", "games/rps.rules", "--games", "0"],
    ] {
        let out = rpsdsl(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("--games"), "{}", stderr(&out));
        assert!(stderr(&out).contains("at least 1 game"), "{}", stderr(&out));
    }
    let out = rpsdsl(&["simulate", "games/rps.rules", "-n", "10", "--jobs", "100000"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--jobs"), "{}", stderr(&out));
    assert!(stderr(&out).contains("0 (one per core) to 256"), "{}", stderr(&out));
    // The most is allowed, and a short run starts no more threads than games.
    let out = rpsdsl(&["simulate", "games/rps.rules", "-n", "3", "--jobs", "256"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // A shard with no games is refused.
    let out = rpsdsl(&["simulate", "games/rps.rules", "-n", "2", "--shard", "3/4"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("at most 2 shards"), "{}", stderr(&out));
}

#[test]
fn agent_parameters_out_of_their_domain_are_refused_with_the_range() {
    for (spec, range) in [
        (
            "mcts:iterations=0",
            "iterations must be a whole number from 1 to 10000000",
        ),
        ("mcts:time_ms=0", "time_ms must be a whole number from 1 to 3600000"),
        (
            "mcts:rollout_limit=0",
            "rollout_limit must be a whole number from 1 to 1000000",
        ),
        ("mcts:iterations=99999999999", "from 1 to 10000000"),
        ("mcts:c=-1", "c must be a number from 0 to 100"),
        ("greedy:samples=0", "samples must be a whole number from 1 to 100000"),
        (
            "random:reaction_floor=5000000000",
            "reaction_floor must be a whole number from 0 to 60000",
        ),
        ("human-like:tie2_stay=2", "tie2_stay must be a number from 0 to 1"),
        ("human-like(fallback=mcts(iterations=0))", "iterations must be"),
    ] {
        let out = rpsdsl(&["run", "games/rps.rules", "--agents", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(range),
            "{spec}: expected {range:?} in {}",
            stderr(&out)
        );
        let out = rpsdsl(&["simulate", "games/rps.rules", "-n", "2", "--agents", spec]);
        assert_eq!(out.status.code(), Some(2), "{spec}: {}", stderr(&out));
        assert!(stderr(&out).contains(range), "{spec}: {}", stderr(&out));
    }
    // `rpsdsl agents` shows every parameter's values.
    let listing = stdout(&rpsdsl(&["agents"]));
    let params: usize = rpsdsl::agents::AGENTS.iter().map(|a| a.params.len()).sum();
    assert_eq!(listing.matches("values: ").count(), params, "{listing}");
    assert!(
        listing.contains("values: a whole number from 1 to 10000000"),
        "{listing}"
    );
}

#[test]
fn deeply_nested_agents_are_refused_not_a_stack_overflow() {
    let mut spec = "random".to_string();
    for _ in 0..5000 {
        spec = format!("human-like(fallback={spec})");
    }
    let out = rpsdsl(&["run", "games/rps.rules", "--agents", &spec]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nested more than 8 deep"), "{}", stderr(&out));
    // Eight levels are still fine.
    let mut spec = "random".to_string();
    for _ in 0..8 {
        spec = format!("human-like(fallback={spec})");
    }
    let out = rpsdsl(&["run", "games/rps.rules", "--agents", &spec]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

/// Two shard reports of one small run of `games/rps.rules`.
fn shards(dir: &Path) -> [(PathBuf, Value); 2] {
    [1, 2].map(|i| {
        let shard = format!("{i}/2");
        let args = [
            "simulate",
            "games/rps.rules",
            "-n",
            "40",
            "--seed",
            "5",
            "--json",
            "--jobs",
            "1",
            "--shard",
            &shard,
        ];
        let out = rpsdsl(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let path = dir.join(format!("shard{i}.json"));
        std::fs::write(&path, &out.stdout).unwrap();
        (path, serde_json::from_slice(&out.stdout).unwrap())
    })
}

/// Merges shard 1 with shard 2 changed by `tamper`; returns stderr after
/// checking the merge failed with `code`, naming the file and `field`.
fn merge_tampered(dir: &Path, shards: &[(PathBuf, Value); 2], tamper: impl Fn(&mut Value), code: &str, field: &str) {
    let mut report = shards[1].1.clone();
    tamper(&mut report);
    let path = dir.join("tampered.json");
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    let out = rpsdsl(&["merge", shards[0].0.to_str().unwrap(), path.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{code} {field}: {err}");
    assert!(err.contains(&format!("rpsdsl::{code}")), "{code}: {err}");
    assert!(err.contains("tampered.json"), "{code}: {err}");
    assert!(err.contains(&format!("`{field}")), "{field}: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&out).is_empty(), "{}", stdout(&out));
}

#[test]
fn merge_refuses_tampered_reports_naming_the_file_and_field() {
    let dir = scratch("merge");
    let shards = shards(&dir);
    // The untouched shards merge.
    let out = rpsdsl(&["merge", shards[0].0.to_str().unwrap(), shards[1].0.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("40 games"), "{}", stdout(&out));

    // A win count far above the games: once "100026.5%".
    merge_tampered(&dir, &shards, |r| r["wins"][0] = 20_000.into(), "bad-report", "wins");
    // Counts that wrap around u64.
    merge_tampered(
        &dir,
        &shards,
        |r| {
            r["wins"][0] = u64::MAX.into();
            r["wins"][1] = 21.into();
        },
        "bad-report",
        "wins",
    );
    // No games, inverted and out-of-run ranges.
    merge_tampered(
        &dir,
        &shards,
        |r| {
            r["games"] = 0.into();
            r["ranges"] = serde_json::json!([]);
        },
        "bad-report",
        "ranges",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| r["ranges"] = serde_json::json!([[40, 20]]),
        "bad-report",
        "ranges[0]",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| r["ranges"] = serde_json::json!([[20, 60]]),
        "bad-report",
        "ranges[0]",
    );
    merge_tampered(&dir, &shards, |r| r["planned"] = 0.into(), "bad-report", "planned");
    // Overlapping shards: shard 1's games in shard 2.
    merge_tampered(&dir, &shards, |r| *r = shards[0].1.clone(), "reports-overlap", "ranges");
    // Histograms and ends that do not add up to the games.
    merge_tampered(
        &dir,
        &shards,
        |r| r["decision_points"] = serde_json::json!({"1": 3}),
        "bad-report",
        "decision_points",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| r["decisions"] = serde_json::json!({"18446744073709551615": 20}),
        "bad-report",
        "decisions",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| r["ends"] = serde_json::json!({}),
        "bad-report",
        "ends",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| r["real_choices"] = 1_000_000.into(),
        "bad-report",
        "real_choices",
    );
    // Another run: a different seed, or a report of an older version.
    merge_tampered(&dir, &shards, |r| r["seed"] = 6.into(), "reports-differ", "seed");
    merge_tampered(
        &dir,
        &shards,
        |r| r["format"] = "rpsdsl-simulate/1".into(),
        "unreadable-report",
        "format",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| r["rules_hash"] = "fnv1a64:0".into(),
        "reports-differ",
        "rules_hash",
    );
    // Edits whose counts still add up: an ending renamed, the seal removed.
    merge_tampered(
        &dir,
        &shards,
        |r| {
            let ends = r["ends"].as_object_mut().unwrap();
            let (label, count) = ends.iter().next().map(|(k, v)| (k.clone(), v.clone())).unwrap();
            ends.remove(&label);
            ends.insert(format!("{label} (edited)"), count);
        },
        "bad-report",
        "seal",
    );
    merge_tampered(
        &dir,
        &shards,
        |r| {
            r.as_object_mut().unwrap().remove("seal");
        },
        "bad-report",
        "seal",
    );
}

#[test]
fn merge_refuses_shards_of_different_rules_text() {
    let dir = scratch("rules");
    let game = "game \"Quick\"\nplayers 2: A, B\n\nflow {\n  win player 1\n}\n";
    let a = dir.join("quick.rules");
    std::fs::write(&a, game).unwrap();
    let b = dir.join("quick_edited.rules");
    std::fs::write(&b, format!("{game}# an edit that changes nothing the report counts\n")).unwrap();
    let mut files = vec![];
    for (i, rules) in [(1, &a), (2, &b)] {
        let shard = format!("{i}/2");
        let rules = rules.to_str().unwrap();
        let out = rpsdsl(&["simulate", rules, "-n", "4", "--json", "--shard", &shard]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let path = dir.join(format!("shard{i}.json"));
        std::fs::write(&path, &out.stdout).unwrap();
        files.push(path.display().to_string());
    }
    let out = rpsdsl(&["merge", &files[0], &files[1]]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("rpsdsl::reports-differ"), "{}", stderr(&out));
    assert!(stderr(&out).contains("`rules_hash`"), "{}", stderr(&out));
}
