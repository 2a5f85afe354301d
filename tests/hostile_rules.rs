//! Hostile rules files: the front end neither crashes, nor hangs, nor runs
//! out of memory on them. Each input is generated here, written to a temp
//! dir and checked by the binary (or the library, on a small thread stack).

mod common;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use rpsdsl::check::{FsLoader, check_source};
use rpsdsl::syntax::MAX_NESTING;

/// A small game whose flow sets `x` to `expr` (or runs `body`) and ends.
fn game(body: &str) -> String {
    format!("game \"Deep\"\nplayers 2\nvar x = 0\nflow {{\n{body}\n  win player 1\n}}\n")
}

fn set_x(expr: &str) -> String {
    game(&format!("  set x = {expr}"))
}

/// One hostile construct nested `n` levels deep.
fn nested(kind: &str, n: usize) -> String {
    match kind {
        "parens" => set_x(&format!("{}1{}", "(".repeat(n), ")".repeat(n))),
        "not" => set_x(&format!("if {}true then 1 else 0", "not ".repeat(n))),
        "minus" => set_x(&format!("{}1", "- ".repeat(n))),
        "plus" => set_x(&vec!["x"; n + 1].join(" + ")),
        "of" => set_x(&format!(
            "if {}player 1 == player 1 then 1 else 0",
            "opponent of ".repeat(n)
        )),
        "if-then-else" => set_x(&format!("{}1{}", "if true then ".repeat(n), " else 0".repeat(n))),
        "if-block" => game(&format!("  {}set x = 1{}", "if true { ".repeat(n), " }".repeat(n))),
        _ => unreachable!(),
    }
}

const KINDS: [&str; 7] = ["parens", "not", "minus", "plus", "of", "if-then-else", "if-block"];

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!("rpsdsl-hostile-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

struct Output {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs the binary; fails the test if it takes longer than `limit`.
fn rpsdsl(args: &[&str], path: &Path, limit: Duration) -> Output {
    let mut child = common::cli::command()
        .args(args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "`rpsdsl {}` on {} took more than {limit:?}",
                args.join(" "),
                path.display()
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        code: status.code(),
        stdout: reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    }
}

/// `check --json`: exit 1 and every diagnostic's code.
fn failing_codes(path: &Path) -> Vec<String> {
    let out = rpsdsl(&["check", "--json"], path, Duration::from_secs(60));
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    json[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn diagnostics(path: &Path) -> Vec<serde_json::Value> {
    let out = rpsdsl(&["check", "--json"], path, Duration::from_secs(60));
    assert_eq!(out.code, Some(1), "{}\n{}", out.stdout, out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    json[0]["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn deep_nesting_of_every_kind_is_refused_with_a_diagnostic() {
    let dir = Dir::new("deep");
    for kind in KINDS {
        let path = dir.write(&format!("{kind}.rules"), &nested(kind, 10_000));
        assert_eq!(failing_codes(&path), ["rpsdsl::too-deeply-nested"], "{kind}");
    }
}

#[test]
fn nesting_far_beyond_what_pest_can_parse_is_refused_too() {
    let dir = Dir::new("deeper");
    let path = dir.write("parens.rules", &nested("parens", 100_000));
    // Text mode too: the label sits past column 65,535 of a long line.
    let out = rpsdsl(&["check"], &path, Duration::from_secs(60));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let shown = format!("{}{}", out.stdout, out.stderr);
    assert!(shown.contains("rpsdsl::too-deeply-nested"), "{shown}");
    assert!(!shown.contains("panicked"), "{shown}");
}

#[test]
fn the_limit_points_where_it_is_crossed() {
    let dir = Dir::new("where");
    let path = dir.write("plus.rules", &nested("plus", 1_000));
    let found = diagnostics(&path);
    assert_eq!(found.len(), 1);
    let label = &found[0]["labels"][0];
    assert_eq!(label["line"], 5);
    // The operator that makes the chain one level too deep, not the chain's start.
    let start = label["start"].as_u64().unwrap() as usize;
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(&text[start..start + 1], "+");
    assert!(label["column"].as_u64().unwrap() > 900, "{label}");
}

#[test]
fn nesting_just_within_the_limit_checks_runs_and_simulates() {
    let dir = Dir::new("within");
    // The flow's block and the statement's own levels take a few of the 256.
    let depth = MAX_NESTING - 8;
    for kind in KINDS {
        let path = dir.write(&format!("{kind}.rules"), &nested(kind, depth));
        for args in [&["check"][..], &["run", "--seed", "1"], &["simulate", "-n", "2"]] {
            let out = rpsdsl(args, &path, Duration::from_secs(60));
            assert_eq!(out.code, Some(0), "{kind} {args:?}: {}{}", out.stdout, out.stderr);
        }
    }
}

/// The library on a 2 MiB thread (a test thread's size), in a debug build:
/// every walk over a tree as deep as the limit allows fits.
#[test]
fn the_library_checks_deep_trees_on_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            for kind in KINDS {
                let within = nested(kind, MAX_NESTING - 8);
                let checked = check_source("within.rules", &within, &FsLoader);
                assert!(checked.is_ok(), "{kind} within the limit");
                let beyond = nested(kind, 5_000);
                let failed = check_source("beyond.rules", &beyond, &FsLoader).unwrap_err();
                let codes: Vec<&str> = failed.diagnostics.iter().map(|d| d.code.as_str()).collect();
                assert_eq!(codes, ["too-deeply-nested"], "{kind} beyond the limit");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn an_error_past_column_65535_renders_in_text_mode() {
    let dir = Dir::new("wide");
    let path = dir.write("wide.rules", &set_x(&format!("1{}+ nope", " ".repeat(70_000))));
    let out = rpsdsl(&["check"], &path, Duration::from_secs(60));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let shown = format!("{}{}", out.stdout, out.stderr);
    assert!(!shown.contains("panicked"), "{shown}");
    assert!(shown.contains("rpsdsl::unknown-name"), "{shown}");
    // The true line and column, and a window of the line, not all of it.
    assert!(shown.contains("wide.rules:5:70014]"), "{shown}");
    assert!(shown.contains("nope"), "{shown}");
    assert!(shown.len() < 5_000, "the whole line was printed: {} bytes", shown.len());
}

#[test]
fn a_long_label_on_a_long_line_renders() {
    // A syntax error's label and an unclosed brace, both far right.
    let dir = Dir::new("wide-label");
    let path = dir.write(
        "wide.rules",
        &format!(
            "game \"Wide\"\nplayers 2\nflow {{{} {{ set x = = 1\n",
            " ".repeat(80_000)
        ),
    );
    let out = rpsdsl(&["check"], &path, Duration::from_secs(60));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let shown = format!("{}{}", out.stdout, out.stderr);
    assert!(!shown.contains("panicked"), "{shown}");
    assert!(shown.contains("rpsdsl::syntax"), "{shown}");
}

#[test]
fn many_unknown_names_report_the_first_hundred_and_a_count() {
    let dir = Dir::new("names");
    let body: String = (0..20_000).map(|i| format!("  set x = nope{i}\n")).collect();
    let path = dir.write("names.rules", &game(&body));
    for args in [&["check", "--json"][..], &["check"]] {
        let out = rpsdsl(args, &path, Duration::from_secs(30));
        assert_eq!(out.code, Some(1));
        let shown = format!("{}{}", out.stdout, out.stderr);
        assert!(
            shown.contains("and 19,900 more errors"),
            "{}",
            &shown[shown.len() - 2000..]
        );
    }
    let found = diagnostics(&path);
    assert_eq!(found.len(), 101);
    assert_eq!(found[99]["message"], "unknown name `nope99`");
    assert_eq!(found[100]["code"], "rpsdsl::too-many-errors");
    assert_eq!(found[100]["labels"][0]["line"], 105);
}

#[test]
fn many_syntax_errors_report_the_first_hundred_and_a_count() {
    let dir = Dir::new("syntax");
    let bad: String = (0..20_000).map(|i| format!("var v{i} = = 1\n")).collect();
    let path = dir.write("syntax.rules", &format!("{}{bad}", set_x("1")));
    let found = diagnostics(&path);
    assert_eq!(found.len(), 101);
    assert!(found[..100].iter().all(|d| d["code"] == "rpsdsl::syntax"));
    assert_eq!(found[100]["code"], "rpsdsl::too-many-errors");
    assert_eq!(found[100]["message"], "...and 19,900 more errors, not shown");
}

#[test]
fn two_hundred_thousand_kinds_are_refused() {
    let dir = Dir::new("kinds");
    let kinds: Vec<String> = (0..200_000).map(|i| format!("k{i}")).collect();
    let path = dir.write(
        "kinds.rules",
        &format!("{}kinds K = {}\n", set_x("1"), kinds.join(" | ")),
    );
    let found = diagnostics(&path);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["code"], "rpsdsl::too-many-kinds");
    let start = found[0]["labels"][0]["start"].as_u64().unwrap() as usize;
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text[start..].starts_with("k1024 "), "{}", &text[start..start + 10]);
}

#[test]
fn piece_counts_are_refused_before_the_pieces_are_made() {
    let dir = Dir::new("pieces");
    let kinds: Vec<String> = (0..1_000).map(|i| format!("k{i}")).collect();
    let rules = format!(
        "{}kinds K = {}\nzones {{ bag hidden }}\npieces {{ Chip of each K with value 1..1000 x 1000 in bag }}\n",
        set_x("1"),
        kinds.join(" | ")
    );
    let path = dir.write("pieces.rules", &rules);
    let found = diagnostics(&path);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "rpsdsl::bad-piece-count");
    assert_eq!(found[0]["labels"][0]["text"], "1000000000 pieces here");
}

#[test]
fn zone_and_variable_ids_cannot_wrap() {
    let dir = Dir::new("ids");
    // 16 slots on a board of 4,096 spaces: 65,537 zones with the box.
    let slots: String = (0..16).map(|i| format!("  s{i} hidden\n")).collect();
    let board = format!("board b: graph {{\n  ring r 4096\n{slots}}}\n");
    let path = dir.write("zones.rules", &format!("{}{board}", set_x("1")));
    let found = diagnostics(&path);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "rpsdsl::too-many-declarations");
    assert_eq!(found[0]["labels"][0]["line"], 25, "{found:?}");
    // The case of issue 13: 17 slots on a 64 x 64 grid used to pass `check`,
    // and `s17 of big[4095]` then landed in `s1` of space 4,096.
    let slots: String = (1..=17).map(|i| format!("  s{i} hidden\n")).collect();
    let board = format!("board big: grid 64 x 64 {{\n{slots}}}\n");
    let path = dir.write("grid.rules", &format!("{}{board}", set_x("1")));
    let found = diagnostics(&path);
    // 4,096 zones per slot: the 16th slot passes the limit, and the 17th.
    let lines: Vec<_> = found.iter().map(|d| d["labels"][0]["line"].clone()).collect();
    assert_eq!(lines, [24, 25], "{found:?}");
    assert!(
        found.iter().all(|d| d["code"] == "rpsdsl::too-many-declarations"),
        "{found:?}"
    );
    // 8 players x 8,192 variables per player: 65,536 values.
    let vars: String = (0..8_192).map(|i| format!("var v{i} per player = 0\n")).collect();
    let rules = format!("game \"Vars\"\nplayers 8\n{vars}flow {{\n  win player 1\n}}\n");
    let path = dir.write("vars.rules", &rules);
    let found = diagnostics(&path);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["code"], "rpsdsl::too-many-declarations");
    assert_eq!(found[0]["labels"][0]["line"], 8_194);
}

/// Found by the mutation fuzzer: error recovery looked for the next
/// declaration one byte after the error, inside a multi-byte character.
#[test]
fn a_syntax_error_at_a_multi_byte_character_is_reported() {
    let dir = Dir::new("multibyte");
    for odd in ["\u{200b}", "é", "\u{1f600}", "\u{feff}"] {
        let path = dir.write(
            "odd.rules",
            &format!("game \"x\"\nplayers 2\n{odd}flow {{ win player 1 }}\n"),
        );
        assert_eq!(failing_codes(&path), ["rpsdsl::syntax"], "{odd:?}");
    }
}
