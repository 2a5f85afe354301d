//! `rpsdsl merge`: shard reports combined into the report of one run.

use std::path::PathBuf;
use std::process::ExitCode;

use rpsdsl::sim::Report;

pub fn merge(files: &[PathBuf], json: bool) -> ExitCode {
    let mut reports = vec![];
    for file in files {
        let text = match super::read_record(
            file,
            "not-a-report",
            "a report",
            "`rpsdsl simulate --json --shard I/N` writes one",
        ) {
            Ok(t) => t,
            Err(code) => return code,
        };
        match Report::from_json(&text) {
            Ok(r) => reports.push((file, r)),
            Err(e) => {
                eprintln!(
                    "error: `{}` is not a report from `rpsdsl simulate --json`: {e}",
                    file.display()
                );
                return ExitCode::from(1);
            }
        }
    }
    // Game order, so the first stopped game of each kind is found the same
    // way whatever order the files were named in.
    reports.sort_by_key(|(_, r)| r.ranges.first().copied());
    let mut reports = reports.into_iter();
    let Some((_, mut total)) = reports.next() else {
        eprintln!("error: no reports to merge");
        return ExitCode::from(2);
    };
    for (file, report) in reports {
        if let Err(e) = total.merge(&report) {
            eprintln!("error: cannot merge `{}`: {e}", file.display());
            return ExitCode::from(1);
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
    ExitCode::SUCCESS
}
