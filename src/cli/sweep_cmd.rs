//! `rpsdsl sweep`: a game over the values of its options, with the
//! verdict's players and figures, and the best value for a target.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::simulate_cmd::{GameInput, load_game_input, parse_jobs};
use super::solve_cmd::parse_seconds;
use crate::sim::sweep::{self, Target};
use crate::sim::verdict::{Config, Side};

#[derive(clap::Args, Debug)]
pub(crate) struct SweepArgs {
    /// A `.rules` file, or a house-rules `.toml` file.
    pub file: PathBuf,
    /// An option and its values: `rounds=1..5` (whole numbers), or `rounds=10,20,40`, `open=true,false`. Several --vary play every combination.
    #[arg(long = "vary", value_name = "NAME=VALUES", required = true)]
    pub vary: Vec<String>,
    /// Name the best value for this question.
    #[arg(long, value_enum)]
    pub target: Option<TargetArg>,
    /// The strong and the weak player; by default the strongest MCTS whose games fit the time, and a quarter of it.
    #[arg(long)]
    pub agents: Option<String>,
    /// Seconds the sweep may take, all told.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub time: f64,
    /// The most deals to play with every value.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub deals: u64,
    /// Set another option, the same for every value: `--set rounds=3` (repeatable).
    #[arg(long = "set", alias = "option", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// The seed the deals derive from; every value plays the same deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_jobs)]
    pub jobs: usize,
    /// Print the sweep as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 0 even when games stopped on an error (the sweep counts them either way).
    #[arg(long)]
    pub allow_errors: bool,
    /// Also write the sweep as a self-contained HTML page with a chart per question.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum TargetArg {
    Fair,
    Short,
    Decisive,
    Skill,
}

pub(crate) fn sweep(args: &SweepArgs) -> ExitCode {
    let varied = match sweep::varied(&args.vary) {
        Ok(varied) => varied,
        Err(e) => {
            eprintln!("error: --vary: {e}");
            return ExitCode::from(2);
        }
    };
    let points = sweep::combinations(&varied);
    let mut inputs: Vec<GameInput> = vec![];
    let mut labels = vec![];
    for point in &points {
        let mut settings = args.settings.clone();
        settings.extend(point.iter().map(|(n, v)| format!("{n}={v}")));
        match load_game_input(&args.file, &settings) {
            Ok(input) => inputs.push(input),
            Err(code) => return code,
        }
        labels.push(
            point
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    let players = match super::verdict_cmd::strong_and_weak(args.agents.as_deref()) {
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
        .zip(&labels)
        .map(|(input, label)| Side {
            def: &input.def,
            options: &input.options,
            label: label.clone(),
        })
        .collect();
    let target = args.target.map(|t| match t {
        TargetArg::Fair => Target::Fair,
        TargetArg::Short => Target::Short,
        TargetArg::Decisive => Target::Decisive,
        TargetArg::Skill => Target::Skill,
    });
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("sweep {spinner} {elapsed} of {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(format!("{:.0} s: choosing the players", args.time));
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let budget = args.time;
    let rules = crate::text::printable_string(&args.file.display().to_string());
    let result = sweep::sweep(&rules, &sides, &config, target, &|deals| {
        if let Some(bar) = &bar {
            bar.set_message(format!("{budget:.0} s: {deals} deals with every value"));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let sweep = match result {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let text = sweep.to_text();
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&sweep).expect("plain data serializes")
        );
    } else {
        say!("{}", text.trim_end());
    }
    if let Some(path) = &args.html {
        let page = crate::sim::html::sweep_page(&sweep, &text).map_err(|e| e.to_string());
        if let Err(code) = super::simulate_cmd::files::write("HTML report", path, page) {
            return code;
        }
    }
    let stops: Vec<_> = sweep.points.iter().map(|p| p.stops.clone()).collect();
    super::verdict_cmd::stopped_status(&stops, args.allow_errors)
}
