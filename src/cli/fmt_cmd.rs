//! `rpsdsl fmt`: lays `.rules` files out canonically, in place; with
//! `--check`, only says which are not and shows the difference.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::diagnostic::Sources;
use crate::formatter::{NotFormatted, format};

use super::report;

/// What `fmt` does with each file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Rewrite the file when its layout changes.
    Write,
    /// Change nothing: show a diff, and fail, when a file is not formatted.
    Check,
}

pub(crate) fn fmt(paths: &[PathBuf], mode: Mode) -> ExitCode {
    if paths.iter().any(|p| p.as_os_str() == "-") {
        return if paths.len() == 1 {
            fmt_stdin(mode)
        } else {
            eprintln!("error: `-` (standard input) cannot be given with other files");
            ExitCode::from(2)
        };
    }
    let mut files = vec![];
    for path in paths {
        if let Err(why) = rules_files(path, &mut files) {
            eprintln!("error: cannot read {}: {why}", path.display());
            return ExitCode::from(2);
        }
    }
    let (mut unformatted, mut failed) = (0, false);
    for file in &files {
        match fmt_file(file, mode) {
            Ok(true) => {}
            Ok(false) => unformatted += 1,
            Err(()) => failed = true,
        }
    }
    if mode == Mode::Check && unformatted > 0 {
        eprintln!(
            "{unformatted} of {} file{} not formatted: run `rpsdsl fmt` on {}",
            files.len(),
            if files.len() == 1 { " is" } else { "s are" },
            if unformatted == 1 { "it" } else { "them" }
        );
    }
    if failed || unformatted > 0 && mode == Mode::Check {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `path` itself, or every `.rules` file under it when it is a folder,
/// in a stable order.
fn rules_files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() || entry.extension().is_some_and(|e| e == "rules") {
            rules_files(&entry, out)?;
        }
    }
    Ok(())
}

/// Whether the file was already formatted; `Err` once its problem is reported.
fn fmt_file(file: &Path, mode: Mode) -> Result<bool, ()> {
    let text = crate::input::read_text(file, crate::input::SOURCE_LIMIT).map_err(|why| {
        eprintln!("error: cannot read {}: {why}", file.display());
    })?;
    let name = file.display().to_string();
    let laid_out = formatted(&name, &text)?;
    if laid_out == text {
        return Ok(true);
    }
    match mode {
        Mode::Check => {
            say!("{}", diff(&name, &text, &laid_out));
        }
        Mode::Write => {
            // Written beside the file, then moved over it: a file is never
            // left half written.
            let temporary = file.with_extension("rules.fmt-tmp");
            std::fs::write(&temporary, &laid_out)
                .and_then(|()| std::fs::rename(&temporary, file))
                .map_err(|why| {
                    let _ = std::fs::remove_file(&temporary);
                    eprintln!("error: cannot write {}: {why}", file.display());
                })?;
            say!("formatted {}", file.display());
        }
    }
    Ok(false)
}

/// `rpsdsl fmt -`: standard input formatted to standard output (what an
/// editor pipes through); with `--check`, the diff instead.
fn fmt_stdin(mode: Mode) -> ExitCode {
    let mut text = String::new();
    if let Err(why) = std::io::stdin()
        .take(crate::input::SOURCE_LIMIT + 1)
        .read_to_string(&mut text)
    {
        eprintln!("error: cannot read standard input: {why}");
        return ExitCode::from(2);
    }
    let Ok(laid_out) = formatted("<stdin>", &text) else {
        return ExitCode::from(1);
    };
    match mode {
        Mode::Write => super::print_bytes(laid_out.as_bytes()),
        Mode::Check if laid_out == text => ExitCode::SUCCESS,
        Mode::Check => {
            say!("{}", diff("<stdin>", &text, &laid_out));
            ExitCode::from(1)
        }
    }
}

/// The file laid out, or its problem reported.
fn formatted(name: &str, text: &str) -> Result<String, ()> {
    let mut sources = Sources::default();
    let file = sources.add(name, text);
    format(file, text).map_err(|why| match why {
        NotFormatted::Syntax(diagnostics) => {
            report(&diagnostics, &sources);
            eprintln!("{name}: not formatted: it does not parse");
        }
        NotFormatted::Unsafe(why) => {
            eprintln!("{name}: left as it was: {why}. This is a fault of rpsdsl fmt; please report it with the file.");
        }
    })
}

/// A unified diff from `before` to `after`, as `git diff` shows one.
fn diff(name: &str, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .context_radius(2)
        .header(&format!("{name} (as it is)"), &format!("{name} (formatted)"))
        .to_string()
}
