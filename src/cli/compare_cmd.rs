//! `rpsdsl compare`: a base game and a variant on the same seeds, side by side.

use std::path::Path;
use std::process::ExitCode;

use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::sim::{self, Comparison};

use super::simulate_cmd::{RunArgs, errors_status, load_game_input, plan, run_plan, tell_notes};

/// `compare`'s options: a run's, and `--force`.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct CompareArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Compare even games that do not share seats and outcomes.
    #[arg(long)]
    pub force: bool,
}

pub(crate) fn compare(base: &Path, variant: &Path, args: &CompareArgs) -> ExitCode {
    let run = &args.run;
    let mut inputs = vec![];
    for path in [base, variant] {
        match load_game_input(path, &run.settings) {
            Ok(input) => inputs.push(input),
            Err(code) => return code,
        }
    }
    if !args.force
        && let Some(why) = sim::unrelated(&inputs[0].def, &inputs[1].def)
    {
        let diagnostic = Diagnostic::error(
            Code::UnrelatedGames,
            format!(
                "`{}` and `{}` are not two versions of one game: {why}",
                inputs[0].label, inputs[1].label
            ),
        )
        .help(
            "compare a game with a variant or house rules of it (the same seats and outcomes); \
             pass --force to compare them anyway",
        );
        super::report(&[diagnostic], &Sources::default());
        return ExitCode::from(2);
    }
    let mut reports = vec![];
    for (input, what) in inputs.iter().zip(["base", "variant"]) {
        // The same seed and game indices for both: common random numbers.
        let plan = plan(input, run, (0, run.games));
        match run_plan(input, &plan, run.jobs, what) {
            Ok(r) => reports.push(r),
            Err(code) => return code,
        }
    }
    tell_notes(&reports);
    let status = errors_status(&reports, run);
    let variant = reports.pop().expect("two reports");
    let base = reports.pop().expect("two reports");
    let comparison = Comparison::new(base, variant);
    if run.json {
        say!("{}", comparison.to_json().trim_end());
    } else {
        say!("{}", comparison.to_text().trim_end());
    }
    status
}
