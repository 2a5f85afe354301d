//! Every ```` ```rules ```` block in `docs/*.md` and `README.md` is checked,
//! so the pages stay true as the language changes.
//!
//! The words after `rules` in a block's info string say what the block is.
//! GitHub colours the block by the first word only, so the rest does not
//! show on the page:
//!
//! | info string                                   | the block is                                   | the test                                         |
//! |-----------------------------------------------|------------------------------------------------|--------------------------------------------------|
//! | `rules`                                       | a whole game                                   | checks, and plays to the end on 5 seeds          |
//! | `rules path=games/variants/x.rules`           | a whole game kept at that path                 | the same; its `use` and `extends` resolve there, and a shipped file there must be the block, byte for byte |
//! | `rules path=x.rules broken`                   | a whole game with a mistake a page shows (a tutorial's) | does not check                       |
//! | `rules context=games/g.rules`                 | declarations for that shipped game             | checks with them in place of the game's own      |
//! | `rules flow context=games/g.rules`            | statements                                     | checks as the `flow` of that game                |
//! | `rules flow context=games/g.rules given=p:player,...` | statements that use names from around them | checks as a procedure with those parameters, added to that game |
//! | `rules fragment`                              | declarations no one shipped game can hold (parts of several games, or constructs still planned) | parses |
//! | `rules flow fragment`                         | statements likewise, or that need more around them than parameters | parses inside a `flow { }` |
//! | `rules sketch`                                | a language that is not built yet               | nothing; an HTML comment on the line above says why |
//!
//! With `context=`, a declaration of the block takes the place of the
//! game's declaration (or its prelude's) of the same kind and name (`kinds
//! Hand`, `option best_of`, `flow`...), and a `score per player` or
//! `pieces` block replaces only the entries it names, as `override` does;
//! the rest of the block is added to the game.
//!
//! Give a block the strongest kind that holds: a `fragment` is only parsed.
//! A block whose info string has an unknown word fails the test, and so
//! does a `sketch` without its reason.

mod common;

use std::path::Path;

use rpsdsl::check::{FsLoader, check_source};
use rpsdsl::diagnostic::Sources;

/// What a block's info string asks of it.
#[derive(Debug)]
enum Kind {
    Game { path: Option<String> },
    Broken { path: String },
    Declarations { context: String },
    Statements { context: String, given: Option<String> },
    Fragment,
    StatementFragment,
    Sketch,
}

/// A ```` ```rules ```` block of a page.
struct Block {
    /// `docs/page.md:line`, for messages.
    place: String,
    info: String,
    text: String,
    /// The line above the fence, where a sketch says why.
    line_above: String,
}

fn blocks(page: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(page).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = vec![];
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].strip_prefix("```rules") else {
            i += 1;
            continue;
        };
        let start = i;
        let mut body = String::new();
        i += 1;
        while !lines[i].starts_with("```") {
            body.push_str(lines[i]);
            body.push('\n');
            i += 1;
        }
        blocks.push(Block {
            place: format!("{}:{}", page.display(), start + 1),
            info: info.trim().to_string(),
            text: body,
            line_above: if start > 0 {
                lines[start - 1].to_string()
            } else {
                String::new()
            },
        });
        i += 1;
    }
    blocks
}

fn kind(block: &Block) -> Result<Kind, String> {
    let mut flow = false;
    let mut kind = None;
    let mut path = None;
    let mut given = None;
    let mut broken = false;
    for word in block.info.split_whitespace() {
        match word.split_once('=') {
            None if word == "flow" => flow = true,
            None if word == "broken" => broken = true,
            None if word == "fragment" => kind = Some(Kind::Fragment),
            None if word == "sketch" => kind = Some(Kind::Sketch),
            Some(("context", game)) => kind = Some(Kind::Declarations { context: game.into() }),
            Some(("path", file)) => path = Some(file.to_string()),
            Some(("given", names)) => given = Some(names.replace(',', ", ")),
            _ => {
                return Err(format!(
                    "unknown word `{word}` in the info string `rules {}`",
                    block.info
                ));
            }
        }
    }
    Ok(match (flow, kind) {
        (false, None) if broken => match path {
            Some(path) => Kind::Broken { path },
            None => return Err("a `broken` block names the file it stands for: `path=x.rules`".into()),
        },
        _ if broken => return Err(format!("the info string `rules {}` mixes kinds", block.info)),
        (false, None) => Kind::Game { path },
        (true, Some(Kind::Declarations { context })) => Kind::Statements { context, given },
        (true, Some(Kind::Fragment)) if given.is_none() => Kind::StatementFragment,
        (false, Some(kind)) if path.is_none() && given.is_none() => kind,
        _ => return Err(format!("the info string `rules {}` mixes kinds", block.info)),
    })
}

/// The key a top-level declaration is replaced by: its keyword and name
/// (`kinds Hand`, `option best_of`), or the keyword alone for the sections a
/// game has once (`flow`, `setup`, `score per player`).
fn key(first_line: &str) -> String {
    let head = first_line.split(['{', '=', '(', ':', '"']).next().unwrap_or("");
    let words: Vec<&str> = head.split_whitespace().collect();
    match words.first() {
        Some(&("game" | "players" | "flow" | "setup" | "result" | "zones" | "pieces" | "score")) => {
            words[0].to_string()
        }
        _ => words.iter().take(2).copied().collect::<Vec<_>>().join(" "),
    }
}

/// The top-level declarations of a rules text: each one's key and text
/// (with the comments right above it).
fn declarations(text: &str) -> Vec<(String, String)> {
    let mut items: Vec<(String, String)> = vec![];
    // Comments and blank lines at the top level, kept for the next item.
    let mut loose = String::new();
    for line in text.lines() {
        let line = format!("{line}\n");
        if line.starts_with(|c: char| !c.is_whitespace() && !"#})]".contains(c)) {
            items.push((key(&line), format!("{}{line}", std::mem::take(&mut loose))));
        } else if line.starts_with('#') || line.trim().is_empty() || items.is_empty() {
            loose.push_str(&line);
        } else {
            let (_, text) = items.last_mut().unwrap();
            text.push_str(&std::mem::take(&mut loose));
            text.push_str(&line);
        }
    }
    match items.last_mut() {
        Some((_, text)) => text.push_str(&loose),
        None => items.push((String::new(), loose)),
    }
    items
}

/// The shipped game `context` with the declarations of `block` in place of
/// its own of the same key.
fn merged(context: &str, block: &str) -> String {
    let added = declarations(block);
    // A block that shows `use` itself replaces the game's `use`s; any other
    // block may replace a declaration of a prelude the game uses.
    let game = match added.iter().any(|(key, _)| key == "use") {
        true => declarations(&std::fs::read_to_string(context).unwrap()),
        false => with_uses_inlined(Path::new(context)),
    };
    let mut text = String::new();
    for (key, item) in game {
        match added.iter().find(|(k, _)| *k == key) {
            // As `override` does, a score or piece list shown in part
            // replaces only the entries it names: the rest still count.
            Some((_, shown)) if LISTS.contains(&key.as_str()) => text.push_str(&with_entries_of(&item, shown)),
            Some(_) => {}
            None => text.push_str(&item),
        }
    }
    text.push('\n');
    for (key, item) in added {
        if !LISTS.contains(&key.as_str()) || !text.contains(&format!("\n{key}")) {
            text.push_str(&item);
        }
    }
    text
}

/// The declarations made of named entries, one a line: `score per player`
/// (`name: formula`) and `pieces` (`Type x3 in zone`).
const LISTS: [&str; 2] = ["score", "pieces"];

/// The entries of a list declaration by name, each with the lines that
/// continue it (indented deeper).
fn entries(list: &str) -> Vec<(String, String)> {
    let mut terms: Vec<(String, String)> = vec![];
    for line in list.lines() {
        let entry = line.strip_prefix("  ").filter(|rest| !rest.starts_with([' ', '#']));
        match entry.and_then(|rest| rest.split([':', ' ']).next()) {
            Some(name) => terms.push((name.to_string(), format!("{line}\n"))),
            None if line.starts_with("    ") && !terms.is_empty() => {
                terms.last_mut().unwrap().1.push_str(&format!("{line}\n"));
            }
            None => {}
        }
    }
    terms
}

/// The game's list declaration with the entries of `shown` in place of its
/// own of the same name; new ones go first.
fn with_entries_of(list: &str, shown: &str) -> String {
    let mut text = list.to_string();
    for (name, entry) in entries(shown) {
        match entries(list).into_iter().find(|(n, _)| *n == name) {
            Some((_, own)) => text = text.replacen(&own, &entry, 1),
            None => {
                let opening = text.find("{\n").expect("a list declaration opens a block") + 2;
                text.insert_str(opening, &entry);
            }
        }
    }
    text
}

/// The declarations of a rules file, with those of the files it `use`s in
/// place of the `use`, so that a block can take the place of a prelude's
/// declaration too.
fn with_uses_inlined(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("context {}: {e}", path.display()));
    let mut inlined = vec![];
    for (key, item) in declarations(&text) {
        match key == "use" {
            true => {
                let used = item.lines().find_map(|l| l.strip_prefix("use \"")).unwrap();
                let used = used.split('"').next().unwrap();
                inlined.extend(with_uses_inlined(&path.parent().unwrap().join(used)));
            }
            false => inlined.push((key, item)),
        }
    }
    inlined
}

fn check(name: &str, text: &str) -> Result<rpsdsl::engine::Game, String> {
    check_source(name, text, &FsLoader)
        .map(|checked| checked.def)
        .map_err(|failed| rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false))
}

fn parses(text: &str) -> Result<(), String> {
    let mut sources = Sources::default();
    let file = sources.add("block.rules", text);
    let (_, diagnostics) = rpsdsl::syntax::parse_file(file, text);
    match diagnostics.is_empty() {
        true => Ok(()),
        false => Err(rpsdsl::diagnostic::render(&diagnostics, &sources, false)),
    }
}

fn plays(def: &rpsdsl::engine::Game) -> Result<(), String> {
    for seed in 0..5 {
        let record = common::play(def, seed, &rpsdsl::scenario::Scenario::default())
            .map_err(|f| format!("seed {seed}: {}", f.diagnostic.message))?;
        if record.outcome.is_none() {
            return Err(format!("seed {seed}: the game did not end"));
        }
    }
    Ok(())
}

/// What is wrong with a block, if anything.
fn verdict(block: &Block, n: usize, page: &str) -> Result<(), String> {
    match kind(block)? {
        Kind::Game { path } => {
            let name = path.unwrap_or_else(|| format!("docs/{page}-example-{n}.rules"));
            // A page that shows "the whole of" a shipped file must show it as it is.
            if let Ok(shipped) = std::fs::read_to_string(&name)
                && shipped != block.text
            {
                return Err(format!("the block is not the shipped {name}, as it is today"));
            }
            plays(&check(&name, &block.text)?)
        }
        // A mistake shown on purpose must stay a mistake, or the page's
        // diagnostic is not what the reader will see.
        Kind::Broken { path } => match check(&path, &block.text) {
            Ok(_) => Err(format!("the block shows a mistake, but {path} checks")),
            Err(_) => Ok(()),
        },
        Kind::Declarations { context } => check(&context, &merged(&context, &block.text)).map(drop),
        Kind::Statements { context, given: None } => {
            let flow = format!("flow {{\n{}}}\n", block.text);
            check(&context, &merged(&context, &flow)).map(drop)
        }
        Kind::Statements {
            context,
            given: Some(given),
        } => {
            let procedure = format!("procedure docs_example({given}) {{\n{}}}\n", block.text);
            check(&context, &merged(&context, &procedure)).map(drop)
        }
        Kind::Fragment => parses(&block.text),
        Kind::StatementFragment => parses(&format!("game \"g\"\nflow {{\n{}}}\n", block.text)),
        Kind::Sketch => match block.line_above.trim_start().starts_with("<!--") {
            true => Ok(()),
            false => Err("a sketch says why it cannot be checked in an HTML comment on the line above".into()),
        },
    }
}

#[test]
fn every_rules_block_in_the_docs_is_what_its_info_string_says() {
    let mut pages: Vec<_> = std::fs::read_dir("docs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.push("README.md".into());
    pages.sort();
    let mut failures = vec![];
    let mut checked = 0;
    for page in &pages {
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        for (n, block) in blocks(page).iter().enumerate() {
            checked += 1;
            if let Err(why) = verdict(block, n, &stem) {
                failures.push(format!("{} (`rules {}`):\n{why}", block.place, block.info));
            }
        }
    }
    assert!(checked > 60, "docs/ has rules blocks");
    assert!(
        failures.is_empty(),
        "{} of {checked} blocks:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[path = "docs/console.rs"]
mod console;

/// Every page with console examples has its test below, so a new page
/// cannot be left out.
#[test]
fn every_page_with_console_examples_is_run() {
    let mut pages: Vec<String> = std::fs::read_dir("docs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .filter(|p| std::fs::read_to_string(p).unwrap().contains("```console"))
        .map(|p| p.display().to_string())
        .collect();
    pages.sort();
    assert_eq!(
        pages,
        CONSOLE_PAGES
            .iter()
            .filter(|p| p.starts_with("docs/"))
            .copied()
            .collect::<Vec<_>>()
    );
}

const CONSOLE_PAGES: [&str; 12] = [
    "README.md",
    "docs/agents.md",
    "docs/house-rules.md",
    "docs/pictures.md",
    "docs/play.md",
    "docs/scale.md",
    "docs/scenarios.md",
    "docs/simulate.md",
    "docs/solve.md",
    "docs/transcripts.md",
    "docs/tutorial.md",
    "docs/verdict.md",
];

#[test]
fn readme_console_examples() {
    console::check_page("README.md");
}

#[test]
fn agents_console_examples() {
    console::check_page("docs/agents.md");
}

#[test]
fn house_rules_console_examples() {
    console::check_page("docs/house-rules.md");
}

#[test]
fn pictures_console_examples() {
    console::check_page("docs/pictures.md");
}

#[test]
fn play_console_examples() {
    console::check_page("docs/play.md");
}

#[test]
fn scale_console_examples() {
    console::check_page("docs/scale.md");
}

#[test]
fn scenarios_console_examples() {
    console::check_page("docs/scenarios.md");
}

#[test]
fn simulate_console_examples() {
    console::check_page("docs/simulate.md");
}

#[test]
fn solve_console_examples() {
    console::check_page("docs/solve.md");
}

#[test]
fn tutorial_console_examples() {
    console::check_page("docs/tutorial.md");
}

#[test]
fn verdict_console_examples() {
    console::check_page("docs/verdict.md");
}

#[test]
fn transcripts_console_examples() {
    console::check_page("docs/transcripts.md");
}

/// The console test itself: a page whose output drifted fails, as does an
/// ignored block that does not say why; `...` and `[..]` match what they stand for.
#[test]
fn console_examples_that_drift_fail() {
    let page = |name: &str, text: &str| {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let fails = |path: String| std::panic::catch_unwind(|| console::check(&path, false)).is_err();

    let good = page(
        "console-good.md",
        "```console\n$ rpsdsl options games/rps.rules\noption[..]\n...\n$ printf 'a\\nb\\nc\\n'\na\n...\n```\n",
    );
    assert!(!fails(good), "wildcards match");
    let drifted = page(
        "console-drifted.md",
        "```console\n$ rpsdsl check games/rps.rules\ngames/rps.rules: fine\n```\n",
    );
    assert!(fails(drifted), "a changed output fails");
    let unexplained = page(
        "console-unexplained.md",
        "text\n```console ignore\n$ rpsdsl play games/rps.rules\n```\n",
    );
    assert!(fails(unexplained), "an ignored block says why");
    let explained = page(
        "console-explained.md",
        "<!-- interactive -->\n```console ignore\n$ rpsdsl play games/rps.rules\n```\n",
    );
    assert!(!fails(explained));
}

/// The tutorial's finished game is kept in `docs/examples/`, where the
/// README's tour plays it: the two must not drift apart.
#[test]
fn the_tutorials_finished_game_is_the_one_the_readme_plays() {
    let page = std::fs::read_to_string("docs/tutorial.md").unwrap();
    let last = page
        .rsplit("```rules path=moonlight.rules\n")
        .next()
        .and_then(|block| block.split("```").next())
        .expect("the tutorial shows moonlight.rules");
    let kept = std::fs::read_to_string("docs/examples/moonlight.rules").unwrap();
    assert_eq!(
        last, kept,
        "docs/examples/moonlight.rules is not the tutorial's last moonlight.rules"
    );
    let trumps = std::fs::read_to_string("docs/examples/moonlight_trumps.toml").unwrap();
    assert!(
        trumps.contains("trumps = true"),
        "the README's house rule turns trumps on"
    );
}
