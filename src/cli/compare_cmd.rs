//! `rpsdsl compare`: a base game and a variant on the same seeds, side by side.

use std::path::Path;
use std::process::ExitCode;

use crate::sim::Comparison;

use super::simulate_cmd::{RunArgs, load_game_input, plan, run_plan};

pub(crate) fn compare(base: &Path, variant: &Path, args: &RunArgs) -> ExitCode {
    let mut reports = vec![];
    for (path, what) in [(base, "base"), (variant, "variant")] {
        let input = match load_game_input(path, &args.settings) {
            Ok(input) => input,
            Err(code) => return code,
        };
        // The same seed and game indices for both: common random numbers.
        let plan = plan(&input, args, (0, args.games));
        match run_plan(&input, &plan, args.jobs, what) {
            Ok(r) => reports.push(r),
            Err(code) => return code,
        }
    }
    let variant = reports.pop().expect("two reports");
    let base = reports.pop().expect("two reports");
    let comparison = Comparison::new(base, variant);
    if args.json {
        say!("{}", comparison.to_json().trim_end());
    } else {
        say!("{}", comparison.to_text().trim_end());
    }
    ExitCode::SUCCESS
}
