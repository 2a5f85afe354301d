//! The house's shape, checked in `cargo test` (after rust-analyzer's `tidy`
//! tests): the rules of ARCHITECTURE.md that a machine can read.
//!
//! - no source file in `src/` is past [`MAX_FILE_LINES`] lines;
//! - at most [`MAX_LONG_FUNCTIONS`] functions in `src/` are past
//!   [`LONG_FUNCTION_LINES`] lines, and the interpreter's dispatch, one of
//!   them, is thin: each arm a call;
//! - the rooms (the modules `src/lib.rs` and the core's `src/core/lib.rs`
//!   declare) import one another
//!   without a cycle, read from every `crate::` path outside test code;
//!   and so do the files, a parent's `mod.rs` among its children;
//! - `src/` names no game of `games/`: not its title, its kinds or its piece
//!   types, nor any of its names made of several words (`num_cards`);
//! - facts about ops are kept in one table, `Op::facts`: no other pattern
//!   joins more than [`OP_LIST_LIMIT`] ops;
//! - the core crate (src/core) depends on no tool's crate: no web server,
//!   database, plots, editor protocol or command line;
//! - every `pub` item in `src/` is documented;
//! - no function below the faces (`cli`, `studio`, `lsp`) fails with plain
//!   text (`Result<_, String>`), which loses the diagnostic code, but for
//!   those still listed;
//! - ARCHITECTURE.md's code map names every room and no room that doesn't,
//!   and every file of every room;
//! - every diagnostic code is documented ([`codes`]).
//!
//! Each failure says what to do. The sources are read with `syn`, so a
//! `crate::` in a comment or a string is not an import, and a function's
//! length runs from `fn` to its closing brace.

mod common;
mod tidy {
    pub mod codes;
    pub mod errors;
    pub mod files;
    pub mod rooms;
    pub mod source;
}

use std::collections::{BTreeMap, BTreeSet};

use tidy::rooms::{Rooms, cycles};
use tidy::source::{Function, OP_LIST_LIMIT, SourceFile, sources};

/// A file past this many lines holds more than one concern.
const MAX_FILE_LINES: usize = 1_200;
/// A function past this many lines is long...
const LONG_FUNCTION_LINES: usize = 150;
/// ...and only this many may be: the interpreter's two matches (`exec`'s
/// inner loop and `step`'s slow ops) and the parser's dispatches over the
/// grammar's rules.
const MAX_LONG_FUNCTIONS: usize = 5;

#[test]
fn no_source_file_is_past_the_limit() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|file| file.lines() > MAX_FILE_LINES)
        .map(|file| {
            format!(
                "{} has {} lines: split it by concern into a folder of small modules, \
                 one owner each (see ARCHITECTURE.md, \"Code map\")",
                file.path,
                file.lines()
            )
        })
        .collect();
    assert!(
        long.is_empty(),
        "source files past {MAX_FILE_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn few_functions_are_long() {
    let mut long: Vec<(usize, String)> = sources()
        .iter()
        .flat_map(|file| {
            file.functions()
                .into_iter()
                .filter(|f| f.lines > LONG_FUNCTION_LINES)
                .map(|Function { name, line, lines }| (lines, format!("{}:{line} `{name}` ({lines} lines)", file.path)))
        })
        .collect();
    long.sort_by_key(|(lines, _)| std::cmp::Reverse(*lines));
    let list: Vec<String> = long.into_iter().map(|(_, text)| text).collect();
    assert!(
        list.len() <= MAX_LONG_FUNCTIONS,
        "{} functions in src/ are past {LONG_FUNCTION_LINES} lines; at most {MAX_LONG_FUNCTIONS} may be. \
         Split the newest by the steps it takes (a dispatch `match` may stay long if each arm is a call):\n{}",
        list.len(),
        list.join("\n")
    );
}

/// The interpreter's dispatch, which may stay long only because each arm is
/// a call into the op family that owns the instruction.
const DISPATCH: (&str, &str) = ("src/core/engine/vm/mod.rs", "exec");

#[test]
fn the_interpreters_dispatch_is_thin() {
    let (path, name) = DISPATCH;
    let file = sources()
        .into_iter()
        .find(|file| file.path == path)
        .unwrap_or_else(|| panic!("{path} is gone: point `DISPATCH` in tests/tidy.rs at the interpreter's dispatch"));
    let thick: Vec<String> = file
        .thick_dispatch_arms(name)
        .into_iter()
        .map(|arm| format!("{path}:{} {}", arm.line, arm.pattern))
        .collect();
    assert!(
        thick.is_empty(),
        "`{name}` may be long only as a thin dispatch, but these arms do the work themselves. \
         Move each into a `run_` method of its op family in src/engine/vm/ (see ARCHITECTURE.md, `engine`):\n{}",
        thick.join("\n")
    );
}

/// Crates the core (src/core) must not depend on: the web server, the
/// database, the plots, the editor protocol, the command line.
const NOT_IN_THE_CORE: &[&str] = &[
    "axum",
    "tokio",
    "futures-util",
    "rusqlite",
    "plotters",
    "lsp-server",
    "lsp-types",
    "clap",
    "clap_complete",
    "clap_mangen",
    "rustyline",
    "indicatif",
    "maud",
    "svg",
];

#[test]
fn the_core_depends_on_no_tool() {
    let manifest = std::fs::read_to_string("src/core/Cargo.toml").expect("the core's manifest, src/core/Cargo.toml");
    let manifest: toml::Table = manifest.parse().expect("src/core/Cargo.toml is TOML");
    let named: Vec<&str> = ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|section| manifest.get(*section).and_then(toml::Value::as_table))
        .flat_map(|deps| deps.keys().map(String::as_str))
        .filter(|name| NOT_IN_THE_CORE.contains(name))
        .collect();
    assert!(
        named.is_empty(),
        "the core (src/core/Cargo.toml) depends on {named:?}, which belong to the tools built on it; \
         keep that code in the `rpsdsl` crate (src/) and hand the core what it needs"
    );
}

/// The one file where lists of ops may stand: the table of op facts.
const OP_FACTS: &str = "src/core/ir/facts.rs";

#[test]
fn facts_about_ops_are_kept_in_one_table() {
    let lists: Vec<String> = sources()
        .iter()
        .filter(|file| file.path != OP_FACTS)
        .flat_map(|file| {
            file.op_lists()
                .into_iter()
                .map(move |list| format!("{}:{} joins {} ops", file.path, list.line, list.ops))
        })
        .collect();
    assert!(
        lists.is_empty(),
        "these patterns list more than {OP_LIST_LIMIT} ops by hand. A fact about ops (how they run, their \
         stack effect, what they read or change) belongs in the table `Op::facts` ({OP_FACTS}): add a column \
         there and read it here:\n{}",
        lists.join("\n")
    );
}

#[test]
fn files_import_one_another_without_a_cycle() {
    let sources = sources();
    let files = tidy::files::Files::read(&sources);
    let groups = tidy::files::cycles(&files);
    let report: Vec<String> = groups
        .iter()
        .map(|group| {
            let edges: Vec<String> = files
                .edges
                .iter()
                .filter(|((from, to), _)| group.contains(from) && group.contains(to))
                .map(|((from, to), at)| format!("  {from} -> {to} ({at})"))
                .collect();
            format!("{}:\n{}", group.join(", "), edges.join("\n"))
        })
        .collect();
    assert!(
        report.is_empty(),
        "files import one another in a cycle; move what both sides need into a file both may import \
         (a parent module's own types into a child of their own, as `engine::state`):\n{}",
        report.join("\n")
    );
}

#[test]
fn rooms_import_one_another_without_a_cycle() {
    let rooms = Rooms::read();
    let found = cycles(&rooms);
    let report: Vec<String> = found
        .iter()
        .map(|cycle| {
            let edges: Vec<String> = cycle
                .iter()
                .map(|(from, to)| {
                    let at = &rooms.edges[&(from.clone(), to.clone())];
                    format!("  {from} -> {to} (first at {at})")
                })
                .collect();
            format!(
                "{}\n{}",
                cycle
                    .iter()
                    .map(|(from, _)| from.as_str())
                    .collect::<Vec<_>>()
                    .join(" -> "),
                edges.join("\n")
            )
        })
        .collect();
    assert!(
        found.is_empty(),
        "rooms import one another in a cycle; move what both need into a room below them \
         (ARCHITECTURE.md lists what each room may import):\n{}",
        report.join("\n")
    );
}

/// What ARCHITECTURE.md's code map says each room may import: the rooms
/// its "May import:" paragraph names, those every room may import ("Every
/// room may import it"), and for "every room above it" the rooms whose
/// headings come before its own.
fn may_import(rooms: &BTreeSet<String>) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md is at the root");
    let map = text.split("\n## Code map\n").nth(1).expect("a `## Code map` section");
    let map = map.split("\n## ").next().unwrap_or(map);
    let mut order: Vec<String> = vec![];
    let mut said: BTreeMap<String, String> = BTreeMap::new();
    for section in map.split("\n### `").skip(1) {
        let Some((room, body)) = section.split_once('`') else {
            continue;
        };
        let paragraph = body
            .split("\n\n")
            .find(|p| p.trim_start().starts_with("May import:"))
            .unwrap_or_else(|| panic!("ARCHITECTURE.md: `{room}` has no \"May import:\" paragraph"));
        order.push(room.to_string());
        said.insert(room.to_string(), paragraph.replace('\n', " "));
    }
    let named = |text: &str| -> BTreeSet<String> {
        text.split('`')
            .skip(1)
            .step_by(2)
            .filter(|w| rooms.contains(*w))
            .map(str::to_string)
            .collect()
    };
    let everyones: BTreeSet<String> = said
        .iter()
        .filter(|(_, p)| p.contains("Every room may import it"))
        .map(|(room, _)| room.clone())
        .collect();
    let mut allowed = BTreeMap::new();
    for (at, room) in order.iter().enumerate() {
        let paragraph = &said[room];
        let mut may: BTreeSet<String> = if paragraph.contains("every room above it") {
            let except = paragraph.split("except").nth(1).map(named).unwrap_or_default();
            order[..at].iter().filter(|r| !except.contains(*r)).cloned().collect()
        } else if paragraph.contains("May import: every room") {
            rooms.clone()
        } else {
            named(paragraph)
        };
        may.extend(everyones.iter().cloned());
        allowed.insert(room.clone(), may);
    }
    allowed
}

#[test]
fn rooms_import_only_what_the_architecture_allows() {
    let rooms = Rooms::read();
    let allowed = may_import(&rooms.names);
    let broken: Vec<String> = rooms
        .edges
        .iter()
        .filter(|((from, to), _)| allowed.get(from).is_some_and(|may| !may.contains(to)))
        .map(|((from, to), at)| format!("{from} imports {to} ({at})"))
        .collect();
    assert!(
        broken.is_empty(),
        "these imports break ARCHITECTURE.md's \"May import:\" lists. Move the code to a room that may \
         import what it needs, or, if the design changed, change the list in the same commit:\n{}",
        broken.join("\n")
    );
}

/// Words a game of `games/` declares that are the language's own
/// vocabulary too, or plain English the engine uses for its own things: a
/// match on one of them says nothing about a game leaking into `src/`.
#[rustfmt::skip]
const SHARED_WORDS: &[&str] = &[
    // A poker decision, and `rpsdsl check`.
    "check",
    // A piece type of a card game, and the language's `with Wild as each`.
    "wild",
    // A piece of a grid game, and the shape a piece is drawn as.
    "disc",
    // A piece of a grid game, and a piece in the checker's examples.
    "stone",
    // Plain English for an extra score term.
    "bonus",
    // Plain words the engine uses for its own things.
    "bet", "bid", "call", "card", "die", "fold", "mark", "pass", "raise", "token",
];

/// Game titles that are the language's own words too.
const SHARED_TITLES: &[&str] = &[
    // A game of connection, and the language's `hex grid` (and hex digits).
    "hex",
];

#[test]
fn src_names_no_game() {
    let (titles, names) = game_names();
    let mut hits = vec![];
    for file in sources() {
        for (number, line) in file.text.lines().enumerate() {
            let lower = line.to_lowercase();
            let words = lower.split(|c: char| !(c.is_alphanumeric() || c == '_'));
            let found = words
                .filter(|word| names.contains(*word))
                .map(str::to_string)
                .chain(titles.iter().filter(|title| lower.contains(title.as_str())).cloned());
            for name in found {
                hits.push(format!("{}:{}: `{name}`: {}", file.path, number + 1, line.trim()));
            }
        }
    }
    assert!(
        hits.is_empty(),
        "src/ names a game of games/; the engine is generic, so say it in the language's terms \
         (a piece, a kind, an option), or take an example from no game we ship:\n{}",
        hits.join("\n")
    );
}

/// The games of `games/`: their titles, and the names that are theirs
/// (see below), lowercase, less [`SHARED_TITLES`] and [`SHARED_WORDS`].
fn game_names() -> (BTreeSet<String>, BTreeSet<String>) {
    let mut titles = BTreeSet::new();
    let mut names: Vec<String> = vec![];
    for path in rules_files(std::path::Path::new("games")) {
        let game = common::load(&path);
        titles.insert(game.name.to_lowercase());
        // A game's pieces and kinds are its own words ("rock", "Goggles");
        // its other names count when they are its coinage, several words
        // joined (`num_cards`), not a plain word such as `hand` or `answer`.
        names.extend(game.kinds.iter().map(|k| k.name.clone()));
        names.extend(game.piece_types.iter().cloned());
        let coined = (game.seats.iter().cloned())
            .chain(game.families.iter().map(|f| f.name.clone()))
            .chain(game.boards.iter().map(|b| b.name.clone()))
            .chain(game.options.iter().map(|o| o.name.clone()))
            .chain(game.vars.iter().map(|v| v.name.clone()))
            .chain(game.decisions.iter().map(|d| d.name.clone()));
        names.extend(coined.filter(|name| name.contains('_')));
    }
    let unused_titles: Vec<&&str> = SHARED_TITLES.iter().filter(|t| !titles.contains(**t)).collect();
    assert!(
        unused_titles.is_empty(),
        "SHARED_TITLES in tests/tidy.rs lists titles no game has; remove them: {unused_titles:?}"
    );
    titles.retain(|title| !SHARED_TITLES.contains(&title.as_str()));
    let declared: BTreeSet<String> = names.into_iter().map(|name| name.to_lowercase()).collect();
    // A shared word no game declares any more only hides a future leak.
    let unused: Vec<&&str> = SHARED_WORDS.iter().filter(|w| !declared.contains(**w)).collect();
    assert!(
        unused.is_empty(),
        "SHARED_WORDS in tests/tidy.rs lists words no game declares; remove them: {unused:?}"
    );
    let names = declared
        .into_iter()
        .filter(|name| !SHARED_WORDS.contains(&name.as_str()))
        .collect();
    (titles, names)
}

#[test]
fn every_pub_item_is_documented() {
    let missing: Vec<String> = sources()
        .iter()
        .flat_map(|file| {
            file.undocumented_pub_items()
                .into_iter()
                .map(|(line, what)| format!("{}:{line}: {what}", file.path))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "`pub` items without a doc comment; say what each is for in a `///` line \
         (or make it `pub(crate)` if only the crate uses it):\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_architecture_names_every_room_and_no_other() {
    let text = std::fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md is at the root");
    let map = text
        .split("\n## Code map\n")
        .nth(1)
        .expect("ARCHITECTURE.md has a `## Code map` section");
    let map = map.split("\n## ").next().unwrap_or(map);
    let named: BTreeSet<String> = map
        .lines()
        .filter_map(|line| line.strip_prefix("### `")?.split('`').next().map(str::to_string))
        .collect();
    let rooms: BTreeSet<String> = Rooms::read().names;
    let missing: Vec<&String> = rooms.difference(&named).collect();
    let gone: Vec<&String> = named.difference(&rooms).collect();
    assert!(
        missing.is_empty() && gone.is_empty(),
        "ARCHITECTURE.md's code map has a `### `room`` heading per module of src/lib.rs and src/core/lib.rs.\n\
         rooms it does not name (add a paragraph: what it owns, what it may import, its invariants): {missing:?}\n\
         headings for rooms that do not exist (remove or rename them): {gone:?}"
    );
}

/// The paths a text names in backticks that are not there: files and
/// folders of the project (`src/engine/vm/mod.rs`, `tests/`), and modules
/// or items of the crate (`engine::observe`, `sim::game_seed`,
/// `agents::Agent`). Placeholders in capitals (`tests/ir/NAME.rules`) are
/// not paths.
fn missing_paths(text: &str, rooms: &BTreeSet<String>, files: &[SourceFile]) -> BTreeSet<String> {
    let modules: BTreeMap<String, &SourceFile> = files.iter().map(|f| (f.module_path(), f)).collect();
    let names_item = |path: &str| {
        let (parent, item) = path.rsplit_once("::").unwrap_or(("", path));
        // Declared there, or brought in by a `use`: not just any word.
        let declared = ["fn", "struct", "enum", "const", "static", "type", "trait", "mod"]
            .map(|keyword| format!("{keyword} {item}"));
        modules.get(parent).is_some_and(|file| {
            file.text.lines().any(|line| {
                let line = line.trim_start();
                let words = || line.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                declared
                    .iter()
                    .any(|d| line.contains(d.as_str()) && words().any(|w| w == item))
                    || (line.starts_with("pub use") || line.starts_with("pub(crate) use")) && words().any(|w| w == item)
            })
        })
    };
    let project = [
        "src/",
        "tests/",
        "benches/",
        "docs/",
        "games/",
        "grammar/",
        "snapshots/",
        ".ci/",
        "examples/",
    ];
    let mut missing = BTreeSet::new();
    for path in text.split('`').skip(1).step_by(2) {
        if project.iter().any(|p| path.starts_with(p)) {
            let placeholder = path.chars().any(|c| c.is_ascii_uppercase()) || path.contains([' ', '*']);
            if !placeholder && !std::path::Path::new(path).exists() {
                missing.insert(path.to_string());
            }
            continue;
        }
        let segments: Vec<&str> = path.split("::").collect();
        let is_path = segments.len() > 1
            && rooms.contains(segments[0])
            && segments.iter().all(|part| !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_'))
            // Every segment but the last is a module.
            && segments[..segments.len() - 1].iter().all(|part| part.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        if is_path && !modules.contains_key(path) && !names_item(path) {
            missing.insert(path.to_string());
        }
    }
    missing
}

#[test]
fn the_architecture_names_every_file() {
    let text = std::fs::read_to_string("ARCHITECTURE.md").expect("ARCHITECTURE.md is at the root");
    let named: BTreeSet<&str> = text.split('`').skip(1).step_by(2).collect();
    // A file is named by its module path, alone or as the start of an
    // item's path (`sim::game_seed` names `sim`).
    let is_named = |module: &str| {
        named
            .iter()
            .any(|n| *n == module || n.starts_with(&format!("{module}::")))
    };
    let unnamed: Vec<String> = sources()
        .iter()
        .filter(|file| file.room().is_some() && !file.path.ends_with("/tests.rs"))
        .map(|file| file.module_path())
        .filter(|module| !is_named(module))
        .collect();
    assert!(
        unnamed.is_empty(),
        "ARCHITECTURE.md names no file of these modules; say in a few words what each owns, in its room's \
         section: {unnamed:?}"
    );
}

#[test]
fn every_path_the_architecture_and_contributing_name_exists() {
    let rooms = Rooms::read().names;
    let files = sources();
    for doc in ["ARCHITECTURE.md", "CONTRIBUTING.md"] {
        let text = std::fs::read_to_string(doc).unwrap_or_else(|e| panic!("{doc} is at the root: {e}"));
        let missing = missing_paths(&text, &rooms, &files);
        assert!(
            missing.is_empty(),
            "{doc} names files, modules or items that do not exist; point it at what is there now: {missing:?}"
        );
    }
}

/// Every `.rules` file under `dir`, in a stable order.
fn rules_files(dir: &std::path::Path) -> Vec<String> {
    let mut found = vec![];
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("games/ is readable")
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        // A prelude is a library for `use`, not a game: its names reach
        // the games that use it.
        if path.is_dir() && !path.ends_with("prelude") {
            found.extend(rules_files(&path));
        } else if path.extension().is_some_and(|e| e == "rules") {
            found.push(path.to_string_lossy().into_owned());
        }
    }
    found
}

/// The rooms that may fail with plain text: the faces, whose errors are a
/// protocol's (an HTTP reply, an LSP error, a clap value parser's message).
const FACES: &[&str] = &["src/cli/", "src/studio/", "src/lsp/"];

/// Functions below the faces that still fail with plain text, and why. The
/// list only shrinks: a function that now fails with a code must leave it.
#[rustfmt::skip]
const PLAIN_ERRORS_LEFT: &[(&str, &str)] = &[
    // Why a region stays with the interpreter: a note the command line says once, not an error.
    ("src/core/native/emit/mod.rs", "region"), ("src/core/native/emit/mod.rs", "check_slots"),
    ("src/core/native/mod.rs", "compile"),
    // A clap value parser (`--memory`), whose message clap shows with the flag.
    ("src/core/budget.rs", "parse_memory"),
    // Wrapped by each caller into its own error with a code.
    ("src/core/input.rs", "inside_folder"),
    ("src/core/check/options.rs", "literal_value"), ("src/core/check/options.rs", "parse_option_value"),
    ("src/agents/policy.rs", "parse_key"),
];

/// Rooms below the faces whose functions still fail with plain text, left
/// for later: `sim`'s runs (simulate, compare, verdict, sweep, analyze),
/// whose messages the command line prints as `error: ...`. The list only
/// shrinks.
const ROOMS_WITH_PLAIN_ERRORS: &[&str] = &["src/sim/"];

#[test]
fn rooms_below_the_faces_fail_with_a_code() {
    let found = tidy::errors::plain_errors(&sources());
    let new: Vec<String> = found
        .iter()
        .filter(|e| {
            !FACES
                .iter()
                .chain(ROOMS_WITH_PLAIN_ERRORS)
                .any(|room| e.file.starts_with(room))
        })
        .filter(|e| !PLAIN_ERRORS_LEFT.contains(&(e.file.as_str(), e.function.as_str())))
        .map(|e| format!("  {} `{}`", e.file, e.function))
        .collect();
    assert!(
        new.is_empty(),
        "these functions fail with plain text (`Result<_, String>`), which loses the diagnostic code; \
         return a `Diagnostic`, or an error that carries a code as `agents::AgentError` does:\n{}",
        new.join("\n")
    );
    let mended: Vec<String> = PLAIN_ERRORS_LEFT
        .iter()
        .filter(|(file, function)| !found.iter().any(|e| e.file == *file && e.function == *function))
        .map(|(file, function)| format!("  {file} `{function}`"))
        .chain(
            ROOMS_WITH_PLAIN_ERRORS
                .iter()
                .filter(|room| !found.iter().any(|e| e.file.starts_with(*room)))
                .map(|room| format!("  {room}")),
        )
        .collect();
    assert!(
        mended.is_empty(),
        "these functions or rooms no longer fail with plain text: remove them from \
         `PLAIN_ERRORS_LEFT` or `ROOMS_WITH_PLAIN_ERRORS` in tests/tidy.rs so that it stays so:\n{}",
        mended.join("\n")
    );
}
