//! `rpsdsl compare`: a base game and a variant on the same seeds, side by side.

use std::path::Path;
use std::process::ExitCode;

use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::sim::sequential;
use crate::sim::{self, Comparison};

use super::simulate_cmd::{
    RunArgs, errors_status, files, load_game_input, plan, run_plan, with_progress, with_stopping,
};

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
    if let Err(code) = files::check(run.outputs()) {
        return code;
    }
    let mut inputs = vec![];
    for path in [base, variant] {
        match load_game_input(path, &run.settings) {
            Ok(input) => inputs.push(input),
            Err(code) => return code,
        }
    }
    for input in &inputs {
        if let Err(error) = crate::agents::for_game(&run.agents, &input.def, &input.options, 0) {
            return super::output::agents_refused(&run.agents, &error);
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
    let (reports, mut games, stopping) = match run.goal() {
        None => {
            let mut reports = vec![];
            for (input, what) in inputs.iter().zip(["base", "variant"]) {
                // The same seed and game indices for both: common random numbers.
                let plan = plan(input, run, (0, run.games));
                match run_plan(input, &plan, run.jobs, what, files::wanted(run.outputs())) {
                    Ok(r) => reports.push(r),
                    Err(code) => return code,
                }
            }
            let (reports, games): (Vec<_>, Vec<_>) = reports.into_iter().unzip();
            (reports, games, None)
        }
        Some(goal) => {
            let plans: Vec<_> = inputs.iter().map(|input| plan(input, run, (0, run.games))).collect();
            let arms = with_progress(2 * run.games, "compare", |tick| {
                let (base, variant, stopping) = sequential::compare_until(
                    (&inputs[0].def, &inputs[0].options, &plans[0]),
                    (&inputs[1].def, &inputs[1].options, &plans[1]),
                    goal,
                    run.jobs,
                    tick,
                )?;
                let played = 2 * stopping.games;
                Ok(((base, variant, stopping), played))
            });
            match arms {
                Ok((base, variant, stopping)) => {
                    let ((b, bg), (v, vg)) = (base, variant);
                    (vec![b, v], vec![bg, vg], Some(stopping))
                }
                Err(code) => return code,
            }
        }
    };
    let status = errors_status(&reports, run);
    let mut reports = reports;
    let variant = reports.pop().expect("two reports");
    let base = reports.pop().expect("two reports");
    let comparison = Comparison::new(base, variant);
    if run.json {
        say!("{}", with_stopping(comparison.to_json(), stopping.as_ref()).trim_end());
    } else {
        let mut text = comparison.to_text().trim_end().to_string();
        if let Some(stopping) = &stopping {
            text = format!("{text}\n\n{}", stopping.to_text());
        }
        say!("{}", text.trim_end());
    }
    let (variant_games, base_games) = (games.pop().unwrap_or_default(), games.pop().unwrap_or_default());
    if let Err(code) = files::write_compare(run.outputs(), &comparison, &base_games, &variant_games) {
        return code;
    }
    status
}
