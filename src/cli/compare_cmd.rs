//! `rpsdsl compare`: a base game and a variant on the same seeds, side by side.

use std::path::Path;
use std::process::ExitCode;

use crate::sim::Comparison;

use super::simulate_cmd::{RunArgs, files, load_game_input, plan, run_plan};

pub(crate) fn compare(base: &Path, variant: &Path, args: &RunArgs) -> ExitCode {
    if let Err(code) = files::check(args) {
        return code;
    }
    let mut reports = vec![];
    for (path, what) in [(base, "base"), (variant, "variant")] {
        let input = match load_game_input(path, &args.settings) {
            Ok(input) => input,
            Err(code) => return code,
        };
        // The same seed and game indices for both: common random numbers.
        let plan = plan(&input, args, (0, args.games));
        match run_plan(&input, &plan, args.jobs, what, files::wanted(args)) {
            Ok(r) => reports.push(r),
            Err(code) => return code,
        }
    }
    let (variant, variant_games) = reports.pop().expect("two reports");
    let (base, base_games) = reports.pop().expect("two reports");
    let comparison = Comparison::new(base, variant);
    if args.json {
        say!("{}", comparison.to_json().trim_end());
    } else {
        say!("{}", comparison.to_text().trim_end());
    }
    if let Err(code) = files::write_compare(args, &comparison, &base_games, &variant_games) {
        return code;
    }
    ExitCode::SUCCESS
}
