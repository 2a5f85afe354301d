//! `rpsdsl verdict`: did the variant make the game fairer, shorter, more
//! decisive, more skill-driven or more tense, with players who play well?
//! One line per question first, then the figures behind each.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::simulate_cmd::{load_game_input, parse_jobs};
use super::solve_cmd::parse_seconds;
use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::sim::analyze::Stops;
use crate::sim::verdict::{self, Config, Side};

#[derive(clap::Args, Debug)]
pub(crate) struct VerdictArgs {
    /// The base game: a `.rules` file, or a house-rules `.toml` file.
    pub base: PathBuf,
    /// The variant: a `.rules` file, a variant that extends the base, or a house-rules `.toml` file.
    pub variant: PathBuf,
    /// The strong and the weak player, e.g. `mcts:iterations=200,mcts:iterations=50`; by default the strongest MCTS whose games fit the time, and a quarter of it.
    #[arg(long)]
    pub agents: Option<String>,
    /// Seconds the verdict may take, all told.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub time: f64,
    /// The most deals to play (each is played in both games, in every matchup).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub deals: u64,
    /// Set an option in both games: `--set rounds=3` (repeatable).
    #[arg(long = "set", alias = "option", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// The seed the deals derive from; both games play the same deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_jobs)]
    pub jobs: usize,
    /// Judge even games that do not share seats and outcomes.
    #[arg(long)]
    pub force: bool,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 0 even when games stopped on an error (the verdict counts them either way).
    #[arg(long)]
    pub allow_errors: bool,
    /// Also write the verdict as a self-contained HTML page with charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

pub(crate) fn verdict(args: &VerdictArgs) -> ExitCode {
    let mut inputs = vec![];
    for path in [&args.base, &args.variant] {
        match load_game_input(path, &args.settings) {
            Ok(input) => inputs.push(input),
            Err(code) => return code,
        }
    }
    if !args.force
        && let Some(why) = crate::sim::unrelated(&inputs[0].def, &inputs[1].def)
    {
        let diagnostic = Diagnostic::error(
            Code::UnrelatedGames,
            format!(
                "`{}` and `{}` are not two versions of one game: {why}",
                inputs[0].label, inputs[1].label
            ),
        )
        .help("judge a game against a variant or house rules of it (the same seats and outcomes); pass --force to judge them anyway");
        super::report(&[diagnostic], &Sources::default());
        return ExitCode::from(2);
    }
    let players = match strong_and_weak(args.agents.as_deref()) {
        Ok(players) => players,
        Err(code) => return code,
    };
    // No game, however its players stall, may outlast the budget.
    crate::budget::set_deadline(std::time::Instant::now() + Duration::from_secs_f64(args.time));
    let config = Config {
        players,
        time: Duration::from_secs_f64(args.time),
        most_deals: args.deals,
        seed: args.seed,
        jobs: args.jobs,
        halt: None,
    };
    let sides: Vec<Side<'_>> = inputs
        .iter()
        .map(|input| Side {
            def: &input.def,
            options: &input.options,
            label: input.label.clone(),
        })
        .collect();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("verdict {spinner} {elapsed} of {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(format!("{:.0} s: choosing the players", args.time));
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let budget = args.time;
    let result = verdict::verdict(&sides[0], &sides[1], &config, &|deals, open| {
        if let Some(bar) = &bar {
            bar.set_message(format!("{budget:.0} s: {deals} deals, open: {}", open.join(", ")));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let verdict = match result {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let text = verdict.to_text();
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&verdict).expect("plain data serializes")
        );
    } else {
        say!("{}", text.trim_end());
    }
    if let Some(path) = &args.html {
        let page = crate::sim::html::verdict_page(&verdict, &text).map_err(|e| e.to_string());
        if let Err(code) = super::simulate_cmd::files::write("HTML report", path, page) {
            return code;
        }
    }
    stopped_status(&verdict.stops, args.allow_errors)
}

/// The exit status after a verdict or a sweep: 1 when any game stopped on
/// an error (the report, which says so, is printed first), unless
/// `--allow-errors`, as `simulate` does.
pub(crate) fn stopped_status(stops: &[Stops], allow_errors: bool) -> ExitCode {
    let stopped: u64 = stops.iter().map(|s| s.stopped).sum();
    if stopped == 0 || allow_errors {
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "error: {stopped} game{} stopped on an error (the report's cautions say which); pass --allow-errors to \
         exit 0 anyway.",
        if stopped == 1 { "" } else { "s" }
    );
    ExitCode::from(1)
}

/// `--agents STRONG,WEAK` as the two specs (`None`: chosen to fit the
/// time); anything else is refused with the form it takes.
pub(crate) fn strong_and_weak(agents: Option<&str>) -> Result<Option<(String, String)>, ExitCode> {
    match agents.map(|spec| spec.split_once(',')) {
        None => Ok(None),
        Some(Some((strong, weak))) if !weak.contains(',') => Ok(Some((strong.to_string(), weak.to_string()))),
        Some(_) => {
            eprintln!(
                "error: --agents: give the strong and the weak player, e.g. `mcts:iterations=200,mcts:iterations=50`"
            );
            Err(ExitCode::from(2))
        }
    }
}
