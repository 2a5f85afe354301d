//! `rpsdsl check`: every diagnostic of every file, plus quick playtests.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::check::FsLoader;
use crate::diagnostic::Diagnostic;

use super::report;

/// Quick random games `check` plays to catch runtime errors.
const PLAYTEST_GAMES: u64 = 20;

pub(crate) fn check_files(files: &[PathBuf], json: bool) -> ExitCode {
    let mut failed = false;
    let mut all_json = vec![];
    for file in files {
        let (diagnostics, sources) = crate::playtest::check_and_playtest(file, &FsLoader, PLAYTEST_GAMES);
        failed |= diagnostics.iter().any(Diagnostic::is_error);
        if json {
            all_json.push(serde_json::json!({
                "file": file.display().to_string(),
                "diagnostics": diagnostics.iter().map(|d| d.to_json(&sources)).collect::<Vec<_>>(),
            }));
        } else {
            report(&diagnostics, &sources);
            if !diagnostics.iter().any(Diagnostic::is_error) {
                say!("{}: ok", file.display());
            }
        }
    }
    if json {
        say!("{}", serde_json::to_string_pretty(&all_json).unwrap_or_default());
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// `check --explain-diff BASE VARIANT`: both are checked, then compared.
pub(crate) fn explain_diff(base: &Path, variant: &Path) -> ExitCode {
    let load = |path: &Path| match crate::load::load_game(path, &FsLoader, |_| Ok(vec![])) {
        Ok(game) => Some(game),
        Err(failed) => {
            report(&failed.diagnostics, &failed.sources);
            None
        }
    };
    let (Some(base_game), Some(variant_game)) = (load(base), load(variant)) else {
        return ExitCode::from(1);
    };
    say!("{} -> {}", base.display(), variant.display());
    for line in crate::explain::explain_diff(&base_game, &variant_game) {
        say!("  {line}");
    }
    ExitCode::SUCCESS
}

/// `check --dump-ir FILES`: the compiled program of each file, or its errors.
pub(crate) fn dump_ir(files: &[PathBuf]) -> ExitCode {
    let mut failed = false;
    for file in files {
        match crate::load::load_game(file, &FsLoader, |_| Ok(vec![])) {
            Ok(game) => say!("{}", crate::ir::disassemble(&game.def)),
            Err(failed_check) => {
                report(&failed_check.diagnostics, &failed_check.sources);
                failed = true;
            }
        }
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
