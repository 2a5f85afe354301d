//! `--html FILE` and `--csv FILE` of `simulate` and `compare`: checked before
//! the run (so a typo in a folder does not cost the run), written after it.

use std::path::Path;
use std::process::ExitCode;

use crate::sim::{self, Comparison, GameRecord, Report};

/// The files a run writes beside its report: `--html` and `--csv`.
#[derive(Clone, Copy)]
pub(crate) struct Outputs<'a> {
    /// The HTML report's file.
    pub(crate) html: Option<&'a Path>,
    /// The CSV's file.
    pub(crate) csv: Option<&'a Path>,
}

fn outputs(args: Outputs<'_>) -> impl Iterator<Item = (&'static str, &Path)> {
    [("HTML report", args.html), ("CSV", args.csv)]
        .into_iter()
        .filter_map(|(what, path)| Some((what, path?)))
}

/// Whether the run must keep a record of every game.
pub(crate) fn wanted(args: Outputs<'_>) -> bool {
    outputs(args).next().is_some()
}

/// Refuses an output whose folder does not exist, or that names a folder.
pub(crate) fn check(args: Outputs<'_>) -> Result<(), ExitCode> {
    outputs(args).try_for_each(|(what, path)| check_output(what, path))
}

/// Refuses one output file (`what`: "HTML report") whose folder does not
/// exist, or that names a folder.
pub(crate) fn check_output(what: &str, path: &Path) -> Result<(), ExitCode> {
    let shown = crate::text::printable_string(&path.display().to_string());
    let folder = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if path.is_dir() {
        eprintln!("error: cannot write the {what} to `{shown}`: it is a folder; name a file in it");
        return Err(ExitCode::from(2));
    }
    if !folder.is_dir() {
        eprintln!(
            "error: cannot write the {what} to `{shown}`: the folder `{}` does not exist",
            crate::text::printable_string(&folder.display().to_string())
        );
        return Err(ExitCode::from(2));
    }
    Ok(())
}

/// Writes one output file, or says why it could not.
pub(crate) fn write(what: &str, path: &Path, text: Result<String, String>) -> Result<(), ExitCode> {
    let shown = crate::text::printable_string(&path.display().to_string());
    let written = text.and_then(|text| std::fs::write(path, text).map_err(|e| e.to_string()));
    written.map_err(|e| {
        eprintln!("error: cannot write the {what} to `{shown}`: {e}");
        ExitCode::from(2)
    })
}

/// Writes the files of `simulate`.
pub(crate) fn write_simulate(args: Outputs<'_>, report: &Report, games: &[GameRecord]) -> Result<(), ExitCode> {
    if let Some(path) = args.html {
        write(
            "HTML report",
            path,
            sim::html::simulate_page(report, games).map_err(|e| e.to_string()),
        )?;
    }
    if let Some(path) = args.csv {
        write(
            "CSV",
            path,
            sim::csv::simulate_csv(report, games).map_err(|e| e.to_string()),
        )?;
    }
    Ok(())
}

/// Writes the files of `compare`.
pub(crate) fn write_compare(
    args: Outputs<'_>,
    comparison: &Comparison,
    base: &[GameRecord],
    variant: &[GameRecord],
) -> Result<(), ExitCode> {
    if let Some(path) = args.html {
        let page = sim::html::compare_page(comparison, base, variant).map_err(|e| e.to_string());
        write("HTML report", path, page)?;
    }
    if let Some(path) = args.csv {
        let rows = sim::csv::compare_csv(comparison, base, variant).map_err(|e| e.to_string());
        write("CSV", path, rows)?;
    }
    Ok(())
}
