//! A seeded mutation fuzzer, run on every `cargo test`: it mutates the shipped
//! games, house files, scenarios, transcripts and command lines, runs the
//! binary on each, and fails on a crash (an exit status of 100 or more, a
//! signal, or a panic message) or a run over the time limit. A clear error
//! (exit 1 or 2) is the right answer to most mutants; exit 0 is fine too.
//!
//! The default run is a few seconds. For a long hostile run:
//!
//! ```sh
//! RPSDSL_FUZZ_CASES=5000 RPSDSL_FUZZ_SEED=9 RPSDSL_FUZZ_SUMMARY=1 \
//!   cargo test --test fuzz -- --nocapture
//! ```
//!
//! A failing case is kept under `target/tmp/fuzz-failures/` with its inputs
//! and the command that failed (run it from a copy of `games/`), so it can be
//! turned into a regression test.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Longer than any honest run of a mutant in the test profile; a run that
/// takes this long is a hang.
const TIME_LIMIT: Duration = Duration::from_secs(20);
const DEFAULT_CASES: usize = 120;
/// The most of a run's output kept to look at.
const OUTPUT_KEPT: u64 = 16 << 20;
const DEFAULT_SEED: u64 = 0x5eed;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Words and fragments the mutator splices in: the language's keywords and
/// punctuation, and values at the edges of every integer type.
const DICTIONARY: &[&str] = &[
    "game",
    "players",
    "player",
    "use",
    "kinds",
    "beats",
    "option",
    "var",
    "pieces",
    "group",
    "board",
    "zones",
    "setup",
    "flow",
    "procedure",
    "trigger",
    "hook",
    "score",
    "result",
    "let",
    "set",
    "add",
    "to",
    "if",
    "then",
    "else",
    "for",
    "in",
    "loop",
    "while",
    "repeat",
    "times",
    "break",
    "return",
    "each",
    "chooses",
    "secretly",
    "from",
    "draft",
    "shuffle",
    "deal",
    "move",
    "all",
    "of",
    "reveal",
    "win",
    "declare draw",
    "end game",
    "and",
    "or",
    "not",
    "true",
    "false",
    "table",
    "at",
    "most",
    "fewest",
    "when",
    "where",
    "per player",
    "with value",
    "rhai",
    "extends",
    "override",
    "constant",
    "phase",
    "step",
    "anytime",
    "race",
    "calls",
    "timed by",
    "hide",
    "ring",
    "link",
    "wraps",
    "graph",
    "grid 64 x 64",
    "count",
    "sum",
    "first",
    "lines of",
    "opponent of",
    "owner of",
    "kind of",
    "x",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "..",
    "--",
    "->",
    "==",
    "!=",
    "<",
    ">",
    "+",
    "-",
    "*",
    "/",
    "%",
    "|",
    ";",
    "\"",
    "#",
    "\n",
    "\t",
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "4294967296",
    "9223372036854775807",
    "99999999999999999999999",
    "\u{0}",
    "\u{1b}[31m",
    "\r",
    "é",
    "\u{200b}",
    "\u{feff}",
];

/// Numbers at the edges of the integer types a count or an id may be kept in.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "4294967296",
    "9223372036854775807",
    "99999999999999999999999",
];

/// Rhai snippets a mutated hook may carry: loops, recursion, big data.
const HOOK_BODIES: &[&str] = &[
    "loop {}",
    "let a = [3, 1, 2]; a.sort(|x, y| { loop {} }); true",
    "let a = [3, 1, 2]; a.sort(|x, y| { throw \"no\" }); true",
    "fn f(n) { f(n + 1) } f(0)",
    "let s = \"x\"; loop { s += s; }",
    "let a = []; loop { a.push(1); }",
    "sleep(1.0e300); true",
    "eval(\"1\")",
    "1 / 0",
    "9223372036854775807 + 1",
];

/// The mutable inputs: every shipped rules file, house file and scenario.
struct Corpus {
    rules: Vec<(PathBuf, String)>,
    tomls: Vec<(PathBuf, String)>,
}

impl Corpus {
    fn load() -> Corpus {
        let mut rules = vec![];
        let mut tomls = vec![];
        for dir in [
            "games",
            "games/variants",
            "games/prelude",
            "games/house",
            "docs/examples",
        ] {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.is_file())
                .collect();
            entries.sort();
            for path in entries {
                let text = std::fs::read_to_string(&path).unwrap();
                match path.extension().and_then(|e| e.to_str()) {
                    Some("rules") => rules.push((path, text)),
                    Some("toml") => tomls.push((path, text)),
                    _ => {}
                }
            }
        }
        Corpus { rules, tomls }
    }
}

/// One mutation of `text`, chosen by `rng`. Mutations work on bytes, so a
/// mutant may be invalid UTF-8 on purpose.
fn mutate_once(text: &mut Vec<u8>, corpus: &Corpus, rng: &mut ChaCha8Rng) {
    let len = text.len();
    let at = if len == 0 { 0 } else { rng.random_range(0..=len) };
    match rng.random_range(0..10u32) {
        // Replace one byte.
        0 if len > 0 => {
            let i = rng.random_range(0..len);
            text[i] = match rng.random_range(0..4u32) {
                0 => rng.random(),
                1 => b"(){}[],:;\"#\n"[rng.random_range(0..12)],
                _ => rng.random_range(b' '..=b'~'),
            };
        }
        // Delete a range.
        1 if len > 0 => {
            let end = (at + rng.random_range(1..80)).min(len);
            text.drain(at..end);
        }
        // Duplicate a range in place.
        2 if len > 0 => {
            let start = rng.random_range(0..len);
            let end = (start + rng.random_range(1..200)).min(len);
            let piece = text[start..end].to_vec();
            text.splice(at..at, piece);
        }
        // Insert a dictionary word.
        3 | 4 => {
            let word = DICTIONARY[rng.random_range(0..DICTIONARY.len())];
            let padded = format!(" {word} ");
            text.splice(at..at, padded.bytes());
        }
        // Splice a line from another shipped file.
        5 => {
            let (_, other) = &corpus.rules[rng.random_range(0..corpus.rules.len())];
            let lines: Vec<&str> = other.lines().collect();
            let line = format!("\n{}\n", lines[rng.random_range(0..lines.len())]);
            text.splice(at..at, line.bytes());
        }
        // Deep nesting: brackets, prefix operators, `of` chains, if-else.
        6 => {
            let depth = [10, 300, 1000, 5000][rng.random_range(0..4)];
            let (open, close) = match rng.random_range(0..6u32) {
                0 => ("(".repeat(depth), ")".repeat(depth)),
                1 => ("not ".repeat(depth), String::new()),
                2 => ("- ".repeat(depth), String::new()),
                3 => ("owner of ".repeat(depth), String::new()),
                4 => ("if true { ".repeat(depth), " }".repeat(depth)),
                _ => ("if true then ".repeat(depth), " else 0".repeat(depth)),
            };
            text.splice(at..at, format!("{open}1{close}").bytes());
        }
        // Repeat a line many times: size, error counts, long lines.
        7 if len > 0 => {
            let start = text[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let end = text[at..].iter().position(|&b| b == b'\n').map_or(len, |i| at + i);
            let line = text[start..end].to_vec();
            // At most a few MiB: a transcript is one long line, and 3000
            // copies of it would fill the machine's memory.
            let times = [2, 50, 3000][rng.random_range(0..3)]
                .min((4 << 20) / line.len().max(1))
                .max(1);
            let separator: &[u8] = if rng.random() { b"\n" } else { b" " };
            let mut block = vec![];
            for _ in 0..times {
                block.extend_from_slice(separator);
                block.extend_from_slice(&line);
            }
            text.splice(end..end, block);
        }
        // Replace a rhai hook body with a hostile one, or add a hook.
        8 => {
            let body = HOOK_BODIES[rng.random_range(0..HOOK_BODIES.len())];
            let hook = format!("\nhook hostile(n: number) -> bool rhai {{ {body} }}\n");
            text.splice(at..at, hook.bytes());
        }
        // Change a number.
        _ => {
            let digits: Vec<usize> = (0..len).filter(|&i| text[i].is_ascii_digit()).collect();
            if !digits.is_empty() {
                let i = digits[rng.random_range(0..digits.len())];
                let value = NUMBERS[rng.random_range(0..NUMBERS.len())];
                text.splice(i..i + 1, value.bytes());
            }
        }
    }
}

fn mutate(base: &str, corpus: &Corpus, rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut text = base.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..=4) {
        mutate_once(&mut text, corpus, rng);
    }
    text
}

/// A copy of `games/` in a scratch folder, so mutants sit beside the
/// preludes and bases they `use` and `extend`.
fn scratch(case: usize) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fuzz-{}-{case}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["games", "games/variants", "games/prelude", "games/house"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for entry in std::fs::read_dir(sub).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(&path, dir.join(sub).join(path.file_name().unwrap())).unwrap();
            }
        }
    }
    dir
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    Accepted,
    Refused,
    Crashed,
    Hung,
}

struct Run {
    verdict: Verdict,
    status: String,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs the binary in `dir`, with `stdin` piped in, killing it at the limit.
fn run(dir: &Path, args: &[String], stdin: &[u8]) -> Run {
    let mut child = common::cli::spawn_in(dir, args, Stdio::piped());
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // Write on a thread: the child may never read, or read only part.
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = input.write_all(&stdin);
    });
    let out_pipe = child.stdout.take().unwrap();
    let err_pipe = child.stderr.take().unwrap();
    // A mutant may print without end until it is killed: keep the first
    // part of what it prints, and read the rest only to drain the pipe.
    let reader = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = vec![];
            let _ = std::io::Read::read_to_end(&mut std::io::Read::take(&mut pipe, OUTPUT_KEPT), &mut bytes);
            let _ = std::io::copy(&mut pipe, &mut std::io::sink());
            bytes
        })
    };
    let out_reader = reader(Box::new(out_pipe));
    let err_reader = reader(Box::new(err_pipe));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    let stdout = out_reader.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned();
    let (verdict, status) = match status {
        None => (Verdict::Hung, format!("killed after {TIME_LIMIT:?}")),
        Some(status) => {
            let text = format!("{status}");
            match status.code() {
                Some(0) if !stderr.contains("panicked") => (Verdict::Accepted, text),
                Some(1 | 2) if !stderr.contains("panicked") => (Verdict::Refused, text),
                _ => (Verdict::Crashed, text),
            }
        }
    };
    Run {
        verdict,
        status,
        stdout,
        stderr,
    }
}

/// What one case tried, and how each run ended.
struct CaseResult {
    runs: Vec<(String, Verdict)>,
    failure: Option<String>,
}

/// Agent specs and option settings, sometimes mangled.
fn command_line_extras(rng: &mut ChaCha8Rng) -> Vec<String> {
    let mut args = vec![];
    let specs = [
        "random",
        "greedy",
        "greedy:samples=0",
        "mcts:iterations=20",
        "mcts:iterations=0",
        "mcts:time_ms=0",
        "human-like",
        "human-like:fallback=mcts(iterations=10)",
        "nobody",
        "mcts:iterations=-1",
        "mcts:iterations=99999999999999999999",
    ];
    if rng.random_range(0..3u32) == 0 {
        let spec = if rng.random_range(0..8u32) == 0 {
            let depth = rng.random_range(1..3000);
            format!(
                "human-like:fallback={}random{}",
                "human-like(fallback=".repeat(depth),
                ")".repeat(depth)
            )
        } else {
            let mut spec = specs[rng.random_range(0..specs.len())].as_bytes().to_vec();
            // Byte edits only: a mutated number could ask a search player
            // for a legitimately long think, which is not a hang.
            if rng.random() && !spec.is_empty() {
                let i = rng.random_range(0..spec.len());
                match rng.random_range(0..3u32) {
                    0 => spec[i] = rng.random_range(b' '..=b'~'),
                    1 => {
                        spec.remove(i);
                    }
                    _ => spec.insert(i, b",:=()"[rng.random_range(0..5)]),
                }
            }
            String::from_utf8_lossy(&spec).into_owned()
        };
        args.push("--agents".into());
        args.push(spec);
    }
    if rng.random_range(0..3u32) == 0 {
        let names = [
            "best_of",
            "goggles",
            "equipment_bonus",
            "blind_schedule",
            "no_such",
            "starting_chips",
        ];
        let values = [
            "3",
            "0",
            "-1",
            "true",
            "[]",
            "[-50]",
            "[1,2,3]",
            "99999999999999999999",
            "x",
            "",
        ];
        args.push("--set".into());
        args.push(format!(
            "{}={}",
            names[rng.random_range(0..names.len())],
            values[rng.random_range(0..values.len())]
        ));
    }
    args
}

fn numeric_flag(rng: &mut ChaCha8Rng) -> String {
    ["0", "1", "3", "-1", "18446744073709551616", "x"][rng.random_range(0..6)].to_string()
}

/// One fuzz case: a mutant of one kind of input, run through the commands
/// that read it.
fn case(index: usize, seed: u64, corpus: &Corpus) -> CaseResult {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let dir = scratch(index);
    let mut commands: Vec<(Vec<String>, Vec<u8>)> = vec![];
    let mut keep: Vec<(PathBuf, Vec<u8>)> = vec![];
    let s = |v: &str| v.to_string();
    // A rules mutant is also played on both back ends, which must agree.
    let mut both_engines: Option<Vec<String>> = None;
    match rng.random_range(0..10u32) {
        // Rules files: the main surface.
        0..=5 => {
            let (path, text) = &corpus.rules[rng.random_range(0..corpus.rules.len())];
            let mutant = mutate(text, corpus, &mut rng);
            // Beside its original, so that its `use` and `extends` resolve.
            let relative = path.parent().unwrap().to_path_buf();
            let file = relative.join("mutant.rules");
            keep.push((file.clone(), mutant));
            let file = file.display().to_string();
            commands.push((vec![s("check"), file.clone()], vec![]));
            commands.push((vec![s("check"), s("--json"), file.clone()], vec![]));
            let mut run_args = vec![s("run"), file.clone(), s("--seed"), rng.random::<u32>().to_string()];
            run_args.extend(command_line_extras(&mut rng));
            commands.push((run_args, vec![]));
            commands.push((
                vec![s("simulate"), file.clone(), s("-n"), s("4"), s("--jobs"), s("1")],
                vec![],
            ));
            both_engines = Some(vec![
                s("simulate"),
                file.clone(),
                s("-n"),
                s("6"),
                s("--jobs"),
                s("1"),
                s("--json"),
                s("--seed"),
                rng.random::<u32>().to_string(),
            ]);
            commands.push((vec![s("options"), file], vec![]));
        }
        // House files and scenarios.
        6 => {
            let (path, text) = &corpus.tomls[rng.random_range(0..corpus.tomls.len())];
            let mutant = mutate(text, corpus, &mut rng);
            let is_house = path.starts_with("games/house");
            let file = if is_house {
                "games/house/mutant.toml"
            } else {
                "games/mutant_scenario.toml"
            };
            keep.push((PathBuf::from(file), mutant));
            if is_house {
                commands.push((vec![s("run"), s("--house"), s(file)], vec![]));
                commands.push((vec![s("simulate"), s(file), s("-n"), s("3")], vec![]));
            } else {
                commands.push((
                    vec![
                        s("run"),
                        s("games/rubber_paper_scissors.rules"),
                        s("--scenario"),
                        s(file),
                    ],
                    vec![],
                ));
            }
        }
        // Transcripts: record one, mangle it, replay it.
        7 => {
            let game = [
                "games/rps.rules",
                "games/rps3.rules",
                "games/janken_deck.rules",
                "games/rock.rules",
            ][rng.random_range(0..4)];
            let view = if rng.random_range(0..4u32) == 0 { "1" } else { "all" };
            let recorded = run(&dir, &[s("run"), s(game), s("--json"), s("--view"), s(view)], &[]);
            let text = String::from_utf8_lossy(&recorded.stdout).into_owned();
            let mutant = mutate(&text, corpus, &mut rng);
            keep.push((PathBuf::from("mutant.json"), mutant));
            commands.push((vec![s("replay"), s("mutant.json")], vec![]));
        }
        // Command lines, and play from a piped stdin.
        8 => {
            let game = corpus.rules[rng.random_range(0..corpus.rules.len())]
                .0
                .display()
                .to_string();
            let mut args = match rng.random_range(0..4u32) {
                0 => vec![
                    s("simulate"),
                    game,
                    s("-n"),
                    numeric_flag(&mut rng),
                    s("--jobs"),
                    numeric_flag(&mut rng),
                ],
                1 => vec![
                    s("run"),
                    game,
                    s("--seed"),
                    numeric_flag(&mut rng),
                    s("--view"),
                    numeric_flag(&mut rng),
                ],
                2 => vec![s("compare"), game.clone(), game, s("-n"), numeric_flag(&mut rng)],
                _ => vec![s("run"), game],
            };
            args.extend(command_line_extras(&mut rng));
            commands.push((args, vec![]));
        }
        _ => {
            let game = [
                "games/rps.rules",
                "games/rps3.rules",
                "games/janken_deck.rules",
                "games/rock.rules",
            ][rng.random_range(0..4)];
            let mut typed = b"1\nrock\n?\nhelp\n2\nsave\n\n".to_vec();
            mutate_once(&mut typed, corpus, &mut rng);
            commands.push((
                vec![
                    s("play"),
                    s(game),
                    s("--seat"),
                    s("1"),
                    s("--seed"),
                    s("3"),
                    s("--agents"),
                    s("random"),
                ],
                typed,
            ));
        }
    }
    for (file, bytes) in &keep {
        std::fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
        std::fs::write(dir.join(file), bytes).unwrap();
    }
    let mut result = CaseResult {
        runs: vec![],
        failure: None,
    };
    for (args, stdin) in commands {
        let outcome = run(&dir, &args, &stdin);
        result.runs.push((args[0].clone(), outcome.verdict));
        if outcome.verdict >= Verdict::Crashed {
            let saved = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("fuzz-failures")
                .join(format!("case-{seed}-{index}"));
            let _ = std::fs::remove_dir_all(&saved);
            std::fs::create_dir_all(&saved).unwrap();
            for (file, bytes) in &keep {
                let name = file.file_name().unwrap();
                std::fs::write(saved.join(name), bytes).unwrap();
            }
            std::fs::write(saved.join("stdin"), &stdin).unwrap();
            std::fs::write(saved.join("command"), format!("rpsdsl {}\n", args.join(" "))).unwrap();
            let tail: String = outcome
                .stderr
                .chars()
                .rev()
                .take(1500)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            result.failure = Some(format!(
                "case {index} (seed {seed}): `rpsdsl {}` {:?}: {}\n  inputs kept in {}\n  stderr ends: {tail}",
                args.join(" ").chars().take(300).collect::<String>(),
                outcome.verdict,
                outcome.status,
                saved.display(),
            ));
            break;
        }
    }
    if let (Some(args), None) = (both_engines, &result.failure) {
        let on = |engine: &str| {
            let mut args = args.clone();
            args.extend([s("--engine"), s(engine)]);
            run(&dir, &args, &[])
        };
        let (reference, compiled) = (on("interpreter"), on("compiled"));
        if reference.verdict != Verdict::Hung
            && (reference.status != compiled.status || reference.stdout != compiled.stdout)
        {
            let saved = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("fuzz-failures")
                .join(format!("case-{seed}-{index}"));
            let _ = std::fs::remove_dir_all(&saved);
            std::fs::create_dir_all(&saved).unwrap();
            for (file, bytes) in &keep {
                std::fs::write(saved.join(file.file_name().unwrap()), bytes).unwrap();
            }
            result.failure = Some(format!(
                "case {index} (seed {seed}): `rpsdsl {}` differs between --engine interpreter ({}) and compiled ({})\n  inputs kept in {}",
                args.join(" "),
                reference.status,
                compiled.status,
                saved.display(),
            ));
        }
        result.runs.push(("simulate --engine".into(), compiled.verdict));
    }
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[test]
fn mutants_never_crash_or_hang() {
    let cases = env_number("RPSDSL_FUZZ_CASES", DEFAULT_CASES as u64) as usize;
    let seed = env_number("RPSDSL_FUZZ_SEED", DEFAULT_SEED);
    let corpus = Corpus::load();
    let next = Mutex::new(0usize);
    let failures = Mutex::new(vec![]);
    let tally: Mutex<BTreeMap<(String, Verdict), usize>> = Mutex::new(BTreeMap::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(4);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let index = {
                        let mut next = next.lock().unwrap();
                        *next += 1;
                        *next - 1
                    };
                    if index >= cases {
                        break;
                    }
                    let result = case(index, seed, &corpus);
                    let mut tally = tally.lock().unwrap();
                    for run in result.runs {
                        *tally.entry(run).or_default() += 1;
                    }
                    if let Some(failure) = result.failure {
                        failures.lock().unwrap().push(failure);
                    }
                }
            });
        }
    });
    let tally = tally.into_inner().unwrap();
    if std::env::var_os("RPSDSL_FUZZ_SUMMARY").is_some() {
        println!("{cases} cases, seed {seed}");
        for ((command, verdict), count) in &tally {
            println!("  {command:<9} {verdict:?}: {count}");
        }
    }
    let total: usize = tally.values().sum();
    assert!(total >= cases, "every case runs at least one command");
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {cases} cases crashed or hung:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
