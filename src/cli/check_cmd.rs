//! `rpsdsl check`: every diagnostic of every file, plus quick playtests.

use std::path::PathBuf;
use std::process::ExitCode;

use rpsdsl::check::FsLoader;
use rpsdsl::diagnostic::Diagnostic;

use super::report;

/// Quick random games `check` plays to catch runtime errors.
const PLAYTEST_GAMES: u64 = 20;

pub fn check_files(files: &[PathBuf], json: bool) -> ExitCode {
    let mut failed = false;
    let mut all_json = vec![];
    for file in files {
        let (diagnostics, sources) = rpsdsl::playtest::check_and_playtest(file, &FsLoader, PLAYTEST_GAMES);
        failed |= diagnostics.iter().any(Diagnostic::is_error);
        if json {
            all_json.push(serde_json::json!({
                "file": file.display().to_string(),
                "diagnostics": diagnostics.iter().map(|d| d.to_json(&sources)).collect::<Vec<_>>(),
            }));
        } else {
            report(&diagnostics, &sources);
            if !diagnostics.iter().any(Diagnostic::is_error) {
                eprintln!("{}: ok", file.display());
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all_json).unwrap_or_default());
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
