//! `rpsdsl simulate`: many games in parallel, one report.

pub(crate) mod files;

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use crate::engine::Game;
use crate::ir::OptionValue;
use crate::sim::sequential::{self, Goal, Stopping};
use crate::sim::{self, GameRecord, Plan, Report};

use super::setup::load_game;
use crate::load::changed_options;

/// What a simulation needs to know, shared by `simulate` and `compare`.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct RunArgs {
    /// Games to play (at least 1).
    #[arg(short = 'n', long = "games", default_value_t = 1000, value_parser = parse_games)]
    pub games: u64,
    /// One agent per seat (or one for all), e.g. `mcts:iterations=500,random`;
    /// `rpsdsl agents` lists them.
    #[arg(long, default_value = "random")]
    pub agents: String,
    /// Set an option: `--set rounds=3` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// Threads to use (0: one per core; at most 256). Results are the same for every value.
    #[arg(long, default_value_t = 0, value_parser = parse_jobs)]
    pub jobs: usize,
    /// The run's seed; game i is played with a seed derived from it and i (from i / seats when seats rotate).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the report as JSON (mergeable with `rpsdsl merge`).
    #[arg(long)]
    pub json: bool,
    /// Keep each agent in its seat. By default, when the seats' agents
    /// differ, they rotate: each agent plays each seat on the same seeds.
    #[arg(long)]
    pub no_rotate: bool,
    /// Exit 0 even when games stopped on an error (the report counts them either way).
    #[arg(long)]
    pub allow_errors: bool,
    /// Also write the report as a self-contained HTML page with charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Also write one CSV row per game (result, end, length, scores).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Stop as soon as a difference is significant (between the seats, or
    /// the agents when they differ; in `compare`, between base and variant);
    /// `-n` is then the most games to play.
    #[arg(long, conflicts_with = "precision")]
    pub until_significant: bool,
    /// Stop as soon as every win rate (in `compare`, every change in one) is
    /// known to within ±P at 95%, e.g. 0.01 for ±1 point; `-n` is then the
    /// most games to play.
    #[arg(long, value_name = "P", value_parser = parse_precision)]
    pub precision: Option<f64>,
}

impl RunArgs {
    /// The files the run writes beside its report.
    pub(crate) fn outputs(&self) -> files::Outputs<'_> {
        files::Outputs {
            html: self.html.as_deref(),
            csv: self.csv.as_deref(),
        }
    }
}

impl RunArgs {
    /// What a sequential run waits for, if one was asked for.
    pub(crate) fn goal(&self) -> Option<Goal> {
        match (self.until_significant, self.precision) {
            (true, _) => Some(Goal::Significant),
            (false, Some(p)) => Some(Goal::Precision(p)),
            (false, None) => None,
        }
    }
}

/// `--precision`: a half-width strictly between 0 and 0.5.
pub(crate) fn parse_precision(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        _ => Err(format!(
            "`{text}` is not a precision: give the half-width of a 95% interval, between 0 and 0.5 \
             (0.01 for ±1 point)"
        )),
    }
}

/// `-n`: a whole number of games, at least 1.
fn parse_games(text: &str) -> Result<u64, String> {
    match text.trim().replace('_', "").parse::<u64>() {
        Ok(0) => Err("a run plays at least 1 game: give a whole number from 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{text}` is not a whole number of games (1 or more)")),
    }
}

/// `--jobs`: 0 (one thread per core) to [`sim::MAX_JOBS`].
pub(crate) fn parse_jobs(text: &str) -> Result<usize, String> {
    let range = format!("0 (one per core) to {}", sim::MAX_JOBS);
    match text.trim().parse::<usize>() {
        Ok(n) if n <= sim::MAX_JOBS => Ok(n),
        Ok(n) => Err(format!("{n} threads is too many; give {range}")),
        Err(_) => Err(format!("`{text}` is not a number of threads; give {range}")),
    }
}

/// A game ready to simulate: its definition, its option values, and the
/// name to show.
pub(crate) struct GameInput {
    pub def: Game,
    pub options: Vec<OptionValue>,
    pub label: String,
}

/// Loads the game a user named: a `.rules` file, a variant that extends
/// one, or a house-rules `.toml` file, with `--set` settings on top.
/// Diagnostics are printed; the error is the exit code to use.
pub(crate) fn load_game_input(path: &Path, settings: &[String]) -> Result<GameInput, ExitCode> {
    let (game, _) = load_game(path, settings, None)?;
    Ok(GameInput {
        def: game.def,
        options: game.options,
        label: crate::text::printable_string(&path.display().to_string()),
    })
}

/// Runs a plan with a progress bar on stderr when stderr is a terminal;
/// with `keep_games`, also returns a record of every game.
pub(crate) fn run_plan(
    input: &GameInput,
    plan: &Plan,
    jobs: usize,
    what: &str,
    keep_games: bool,
) -> Result<(Report, Vec<GameRecord>), ExitCode> {
    let games = plan.range.1 - plan.range.0;
    with_progress(games, what, |tick| {
        let run = if keep_games {
            sim::simulate_games(&input.def, &input.options, plan, jobs, tick)
        } else {
            sim::simulate(&input.def, &input.options, plan, jobs, tick).map(|report| (report, vec![]))
        };
        run.map(|run| (run, games))
    })
}

/// Runs `work` with a progress bar of up to `games` games on stderr when
/// stderr is a terminal, then says how many games it played and how fast.
/// `work` is given the bar's tick, and returns its result and the games it played.
pub(crate) fn with_progress<T>(
    games: u64,
    what: &str,
    work: impl FnOnce(&(dyn Fn(u64) + Sync)) -> Result<(T, u64), String>,
) -> Result<T, ExitCode> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(games);
        let style = ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, {rate} games/s, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}", state.per_sec());
            })
            .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(what.to_string());
        bar
    });
    let started = Instant::now();
    let tick = |n: u64| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    };
    let result = work(&tick);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result {
        Ok((run, played)) => {
            let seconds = started.elapsed().as_secs_f64();
            eprintln!(
                "{what}: {played} games in {seconds:.2} s ({:.0} games/s)",
                played as f64 / seconds.max(1e-9)
            );
            Ok(run)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// Parses `--shard i/n` into its game range.
fn shard(spec: &str, games: u64) -> Result<(u64, u64), String> {
    let bad = || format!("`--shard {spec}`: expected i/n with 1 <= i <= n, e.g. `--shard 2/4`");
    let (i, n) = spec.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    if n > games {
        return Err(format!(
            "`--shard {spec}`: a run of {games} games splits into at most {games} shards, so some would be empty; \
             use fewer shards or more games"
        ));
    }
    Ok(sim::shard_range(games, i, n))
}

pub(crate) fn plan(input: &GameInput, args: &RunArgs, range: (u64, u64)) -> Plan {
    Plan {
        rules: input.label.clone(),
        seed: args.seed,
        agents: crate::text::printable_string(&args.agents),
        options: changed_options(&input.def, &input.options),
        games: args.games,
        range,
        rotate_seats: !args.no_rotate,
    }
}

/// The exit status after a run: 1 when a game stopped on an error (the
/// report is printed first), unless `--allow-errors`.
pub(crate) fn errors_status<'a>(reports: impl IntoIterator<Item = &'a Report>, args: &RunArgs) -> ExitCode {
    stopped_status(reports, args.allow_errors)
}

/// [`errors_status`] for any command that prints reports (`merge` too).
pub(crate) fn stopped_status<'a>(reports: impl IntoIterator<Item = &'a Report>, allow_errors: bool) -> ExitCode {
    let mut stopped = 0;
    let mut codes: Vec<&str> = vec![];
    for report in reports {
        stopped += report.stopped_games();
        codes.extend(report.stopped.keys().map(String::as_str));
    }
    if stopped == 0 || allow_errors {
        return ExitCode::SUCCESS;
    }
    codes.sort_unstable();
    codes.dedup();
    eprintln!(
        "error: {stopped} game{} stopped on an error ({}); see \"Stopped games\" in the report. \
         Pass --allow-errors to exit 0 anyway.",
        if stopped == 1 { "" } else { "s" },
        codes.join(", ")
    );
    ExitCode::from(1)
}

/// `rpsdsl simulate`: plays the games (or one shard of them), prints the
/// report, and says through the exit code whether any game failed.
pub fn simulate(file: &Path, args: &RunArgs, shard_spec: Option<&str>) -> ExitCode {
    if let (Some(goal), Some(_)) = (args.goal(), shard_spec) {
        eprintln!(
            "error: {} cannot be used with --shard: a run that stops when it is sure decides its length as it goes, \
             so it cannot be split in advance",
            goal.flag()
        );
        return ExitCode::from(2);
    }
    let range = match shard_spec.map(|s| shard(s, args.games)) {
        None => (0, args.games),
        Some(Ok(range)) => range,
        Some(Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(code) = files::check(args.outputs()) {
        return code;
    }
    let input = match load_game_input(file, &args.settings) {
        Ok(input) => input,
        Err(code) => return code,
    };
    if let Err(error) = crate::agents::for_game(&args.agents, &input.def, &input.options, 0) {
        return super::output::agents_refused(&args.agents, &error);
    }
    let plan = plan(&input, args, range);
    let run = match args.goal() {
        None => {
            run_plan(&input, &plan, args.jobs, "simulate", files::wanted(args.outputs())).map(|(r, g)| (r, g, None))
        }
        Some(goal) => with_progress(args.games, "simulate", |tick| {
            let (report, games, stopping) =
                sequential::simulate_until(&input.def, &input.options, &plan, goal, args.jobs, tick)?;
            let played = stopping.games;
            Ok(((report, games, Some(stopping)), played))
        }),
    };
    let (report, games, stopping) = match run {
        Ok(r) => r,
        Err(code) => return code,
    };
    if args.json {
        say!("{}", with_stopping(report.to_json(), stopping.as_ref()).trim_end());
    } else {
        let mut text = report.to_text().trim_end().to_string();
        if let Some(stopping) = &stopping {
            text = format!("{text}\n\n{}", stopping.to_text());
        }
        say!("{}", text.trim_end());
    }
    if let Err(code) = files::write_simulate(args.outputs(), &report, &games) {
        return code;
    }
    errors_status([&report], args)
}

/// A JSON report (of `simulate` or `compare`) with the `stopping` of a
/// sequential run added as its last field, the other fields kept in their
/// order (`rpsdsl merge` ignores it; the counts are those of a run of as
/// many games as were played).
pub(crate) fn with_stopping(json: String, stopping: Option<&Stopping>) -> String {
    let Some(stopping) = stopping else {
        return json;
    };
    let body = json
        .trim_end()
        .strip_suffix('}')
        .expect("a report is a JSON object")
        .trim_end();
    let stopping = serde_json::to_string_pretty(stopping).expect("stopping serialises");
    format!("{body},\n  \"stopping\": {}\n}}\n", stopping.replace('\n', "\n  "))
}
