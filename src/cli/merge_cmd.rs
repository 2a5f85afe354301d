//! `rpsdsl merge`: shard reports combined into the report of one run.
//!
//! A report file is input like any other: each one is checked (its counts
//! add up, its ranges are in the run), and the reports must be shards of
//! one run (the same rules text, seed, agents, options and `-n`) that
//! share no game, and each must match the seal written with it. A problem
//! is a diagnostic naming the file and the field.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::diagnostic::{Code, Diagnostic, Sources, Span};
use crate::sim::{MergeError, Report};

/// A diagnostic about report `file` (with text `text`), pointing at the
/// field the error names when the file shows it at the top level.
fn problem(file: &Path, text: Option<&str>, error: &MergeError) -> (Diagnostic, Sources) {
    let (code, help) = match error {
        MergeError::Unreadable(_) => (
            Code::UnreadableReport,
            "give the JSON reports written by `rpsdsl simulate --json --shard I/N`",
        ),
        MergeError::Format(_) => (
            Code::UnreadableReport,
            "run the shards again with this version of rpsdsl, then merge them",
        ),
        MergeError::Different { .. } => (
            Code::ReportsDiffer,
            "merge only the shards of one run: the same rules files, -n, --seed, --agents and --set",
        ),
        MergeError::Overlap(..) => (
            Code::ReportsOverlap,
            "name each shard once; shards of one run (`--shard 1/4` ... `--shard 4/4`) share no game",
        ),
        MergeError::Invalid { .. } => (
            Code::BadReport,
            "the file was changed after `rpsdsl simulate` wrote it; run that shard again",
        ),
    };
    let mut sources = Sources::default();
    let mut diagnostic = Diagnostic::error(code, format!("`{}`: {error}", file.display())).help(help);
    if let (Some(text), Some(field)) = (text, error.field()) {
        let top = field.split(['.', '[']).next().unwrap_or(field);
        let key = format!("\n  \"{top}\":");
        if let Some(at) = text.find(&key) {
            let id = sources.add(file.display().to_string(), text.to_string());
            let start = at + 3;
            diagnostic = diagnostic.label(Span::new(id, start, start + top.len() + 2), format!("`{field}`"));
        }
    }
    (diagnostic, sources)
}

fn fail(file: &Path, text: Option<&str>, error: &MergeError) -> ExitCode {
    let (diagnostic, sources) = problem(file, text, error);
    super::report(&[diagnostic], &sources);
    ExitCode::from(1)
}

/// Merges shard reports and prints the whole run's report; exits 1, as
/// `simulate` does, when a game stopped on an error, unless `allow_errors`.
pub(crate) fn merge(files: &[PathBuf], json: bool, allow_errors: bool) -> ExitCode {
    let mut reports = vec![];
    for file in files {
        let text = match super::read_record(
            file,
            Code::NotAReport,
            "a report",
            "`rpsdsl simulate --json --shard I/N` writes one",
        ) {
            Ok(t) => t,
            Err(code) => return code,
        };
        match Report::from_json(&text) {
            Ok(r) => reports.push((file, text, r)),
            Err(e) => return fail(file, Some(&text), &e),
        }
    }
    // Game order, so the first stopped game of each kind is found the same
    // way whatever order the files were named in.
    reports.sort_by_key(|(_, _, r)| r.ranges.first().copied());
    let seals: Vec<(&PathBuf, String)> = reports.iter().map(|(file, text, _)| (*file, text.clone())).collect();
    let mut reports = reports.into_iter();
    let Some((_, _, mut total)) = reports.next() else {
        eprintln!("error: no reports to merge");
        return ExitCode::from(2);
    };
    for (file, text, report) in reports {
        if let Err(e) = total.merge(&report).and_then(|()| total.check()) {
            return fail(file, Some(&text), &e);
        }
    }
    // Counts that add up can still have been edited (an ending renamed,
    // games moved between endings): the seal says so.
    for (file, text) in &seals {
        if let Err(e) = Report::check_seal(text) {
            return fail(file, Some(text), &e);
        }
    }
    if !total.is_complete() {
        eprintln!(
            "warning: the merged reports cover {} of the run's {} games",
            total.games, total.planned
        );
    }
    if json {
        say!("{}", total.to_json().trim_end());
    } else {
        say!("{}", total.to_text().trim_end());
    }
    super::simulate_cmd::stopped_status([&total], allow_errors)
}
