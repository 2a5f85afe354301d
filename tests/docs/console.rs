//! Every ```` ```console ```` block in `docs/*.md` and `README.md` runs, and
//! what it shows must be what the commands print, so the pages cannot drift
//! from the program.
//!
//! A block is a terminal session: a line `$ command` (a line ending in `\`
//! goes on on the next) is run by `bash` with the `rpsdsl` under test first
//! on `PATH`, and the lines up to the next `$` are its output, stdout and
//! stderr together, as a terminal shows them. In the shown output,
//!
//! - `...` on a line of its own stands for any number of lines, and
//! - `[..]` for any text within a line,
//!
//! so a page may cut a long transcript short (snapbox's wildcards).
//!
//! The blocks of one page run in order in one scratch folder, so a later
//! block may read the file an earlier one wrote. It holds a copy of `games/`
//! with the files the page tells the reader to save (```` ```rules path=P ````
//! and ```` ```toml path=P ```` blocks) added, and links to the repository's
//! `docs/` and `tests/`, so paths read as on the page. A page that shows a
//! file growing (a tutorial) shows it again at the same path: each command
//! sees the file as the page last showed it above the command (or, above
//! them all, as it is first shown). `HOME` is an empty folder of the
//! scratch, as on a machine where rpsdsl has never run.
//!
//! `console ignore` marks a block that cannot run here (it needs a cluster,
//! a terminal, hours): an HTML comment on the line above says why, or the
//! test fails.
//!
//! When the program's output changes on purpose, rewrite the pages with
//! `DOCS=overwrite cargo test --test docs`: each block takes the new output,
//! keeping its `...` and `[..]` where they still match. Read the diff.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use snapbox::Data;
use snapbox::filter::NormalizeToExpected;

/// One `$ command` of a block, and the output the page shows for it.
struct Step {
    command: String,
    shown: String,
}

/// A ```` ```console ```` block: where it is and what it runs.
struct Block {
    /// 0-based line of the opening fence.
    fence: usize,
    /// 0-based line after the closing fence's last content line.
    end: usize,
    ignored: bool,
    line_above: String,
    steps: Vec<Step>,
}

fn blocks(lines: &[&str]) -> Result<Vec<Block>, String> {
    let mut blocks = vec![];
    let mut i = 0;
    while i < lines.len() {
        let Some(info) = lines[i].strip_prefix("```console") else {
            i += 1;
            continue;
        };
        let ignored = match info.trim() {
            "" => false,
            "ignore" => true,
            other => return Err(format!("line {}: unknown word `{other}` after ```console", i + 1)),
        };
        let fence = i;
        let mut steps: Vec<Step> = vec![];
        i += 1;
        while i < lines.len() && !lines[i].starts_with("```") {
            match lines[i].strip_prefix("$ ") {
                Some(first) => {
                    let mut command = first.to_string();
                    while command.ends_with('\\') && i + 1 < lines.len() {
                        i += 1;
                        command.push('\n');
                        command.push_str(lines[i]);
                    }
                    steps.push(Step {
                        command,
                        shown: String::new(),
                    });
                }
                None => match steps.last_mut() {
                    Some(step) => {
                        step.shown.push_str(lines[i]);
                        step.shown.push('\n');
                    }
                    None if ignored => {}
                    None => return Err(format!("line {}: output before any `$ command`", i + 1)),
                },
            }
            i += 1;
        }
        blocks.push(Block {
            fence,
            end: i,
            ignored,
            line_above: if fence > 0 {
                lines[fence - 1].to_string()
            } else {
                String::new()
            },
            steps,
        });
        i += 1;
    }
    Ok(blocks)
}

/// The scratch folder a page's blocks run in: a copy of `games/`, the files
/// the page asks the reader to save (its ```` ```rules path=P ```` and
/// ```` ```toml path=P ```` blocks), and links to the repository's other
/// folders the pages name.
fn scratch(page: &str, lines: &[&str]) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(page.replace('/', "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    copy_dir(&repo.join("games"), &dir.join("games"));
    for linked in ["docs", "tests", "rulebooks"] {
        std::os::unix::fs::symlink(repo.join(linked), dir.join(linked)).unwrap();
    }
    std::fs::create_dir_all(dir.join("home")).unwrap();
    // Each file as it is first shown, for commands above it.
    let saved = saved_files(lines);
    for (i, (_, path, text)) in saved.iter().enumerate() {
        if saved[..i].iter().all(|(_, earlier, _)| earlier != path) {
            save(&dir, path, text);
        }
    }
    dir
}

fn save(dir: &Path, path: &str, text: &str) {
    let file = dir.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        match entry.file_type().unwrap().is_dir() {
            true => copy_dir(&entry.path(), &to.join(entry.file_name())),
            false => drop(std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap()),
        }
    }
}

/// The blocks a page shows as whole files to save: ```` ```rules path=P ````
/// and ```` ```toml path=P ````, in page order: each one's fence line, its
/// path and its text.
fn saved_files<'a>(lines: &[&'a str]) -> Vec<(usize, &'a str, String)> {
    let mut files = vec![];
    let mut i = 0;
    while i < lines.len() {
        let fence = i;
        let info = lines[i]
            .strip_prefix("```rules")
            .or_else(|| lines[i].strip_prefix("```toml"));
        let path = info.and_then(|info| info.split_whitespace().find_map(|w| w.strip_prefix("path=")));
        i += 1;
        let Some(path) = path else { continue };
        let mut text = String::new();
        while i < lines.len() && !lines[i].starts_with("```") {
            text.push_str(lines[i]);
            text.push('\n');
            i += 1;
        }
        files.push((fence, path, text));
    }
    files
}

/// What `command` prints, stdout and stderr together, run as a person would
/// type it in `dir`.
fn run(command: &str, dir: &Path) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_rpsdsl")).parent().unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let output = Command::new("bash")
        .arg("-c")
        .arg(format!("{{\n{command}\n}} 2>&1"))
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("XDG_STATE_HOME")
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("RPSDSL_JOBS")
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash: {e}"));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs every console block of `page` (relative to the repository) and fails
/// with the differences, one per step; with `DOCS=overwrite`, rewrites the
/// page instead.
pub fn check_page(page: &str) {
    check(page, std::env::var("DOCS").is_ok_and(|v| v == "overwrite"));
}

/// [`check_page`], told whether to overwrite.
pub fn check(page: &str, overwrite: bool) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(repo.join(page)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let blocks = blocks(&lines).unwrap_or_else(|e| panic!("{page}: {e}"));
    let dir = scratch(page, &lines);
    let saved = saved_files(&lines);
    let mut failures = vec![];
    // With DOCS=overwrite: each block's new body, by the line of its fence.
    let mut rewritten: Vec<(usize, usize, String)> = vec![];
    for block in &blocks {
        let place = format!("{page}:{}", block.fence + 1);
        for (_, path, text) in saved.iter().filter(|(fence, ..)| *fence < block.fence) {
            save(&dir, path, text);
        }
        if block.ignored {
            if !block.line_above.trim_start().starts_with("<!--") {
                failures.push(format!(
                    "{place}: a `console ignore` block says why it cannot run in an HTML comment on the line above"
                ));
            }
            continue;
        }
        if block.steps.is_empty() {
            failures.push(format!("{place}: a console block with no `$ command`"));
        }
        let mut body = String::new();
        for step in &block.steps {
            // The blank line a diagnostic ends with is not shown on a page.
            let actual = match run(&step.command, &dir).trim_end_matches('\n') {
                "" => String::new(),
                text => format!("{text}\n"),
            };
            let expected = Data::text(step.shown.clone());
            let matched = NormalizeToExpected::new()
                .redact()
                .normalize(Data::text(actual.clone()), &expected)
                .render()
                .unwrap_or_default();
            body.push_str(&format!("$ {}\n{matched}", step.command));
            if matched != step.shown {
                failures.push(format!(
                    "{place}: `{}` printed\n{actual}\nbut the page shows\n{}",
                    step.command, step.shown
                ));
            }
        }
        rewritten.push((block.fence, block.end, body));
    }
    if overwrite && !failures.is_empty() {
        let mut out: Vec<String> = lines.iter().map(|l| format!("{l}\n")).collect();
        for (fence, end, body) in rewritten.into_iter().rev() {
            out.splice(fence + 1..end, [body]);
        }
        std::fs::write(repo.join(page), out.concat()).unwrap();
        eprintln!("{page}: rewritten with what the commands print; read the diff");
        return;
    }
    assert!(
        failures.is_empty(),
        "{} console example(s) of {page} differ from the program (after a deliberate change: \
         `DOCS=overwrite cargo test --test docs`, then read the diff):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
