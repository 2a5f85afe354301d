//! `rpsdsl solve`: an approximate equilibrium of a game, its value and its
//! exploitability, with the strategy told situation by situation; saved as
//! a policy file, or drawn as a page.

use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::setup::load_game;
use super::simulate_cmd::parse_jobs;
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::Memory;
use crate::load::changed_options;
use crate::solve::{self, CUT_TOLERANCE, Limits, Method, Payoff, Progress, Sampling, Settings, Solution};

#[derive(clap::Args, Debug)]
pub(crate) struct SolveArgs {
    /// A `.rules` file, or a house-rules `.toml` file.
    pub file: PathBuf,
    /// Set an option: `--set rounds=3` (repeatable).
    #[arg(long = "set", alias = "option", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// Stop once the exploitability is at most this (in payoff units).
    #[arg(long, value_name = "E", default_value_t = 0.0005, value_parser = parse_target)]
    pub target_exploitability: f64,
    /// Stop after this many iterations.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this many seconds of iterating.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds)]
    pub time: f64,
    /// `auto`: CFR+ on the whole tree when it fits, else sampling; `cfr+`: the whole tree or an error; `mccfr`: sampling.
    #[arg(long, value_enum, default_value = "auto")]
    pub method: MethodArg,
    /// When sampling: `external` (a seat tries every choice), `outcome` (one game per traversal), or `auto` (external unless a traversal would be too long).
    #[arg(long, value_enum, default_value = "auto")]
    pub sampling: SamplingArg,
    /// What a seat's situations keep of the past: `all` (everything it has seen: the game's own information sets) `now` (only what it sees now: an abstraction with far fewer situations, its cost measured in the game itself where the tree fits) or `glance` (what it sees at a glance: numbers and zone sizes by order of magnitude, moves by what they move; coarser still, always sampled).
    #[arg(long, value_enum, default_value = "all")]
    pub recall: RecallArg,
    /// Nodes the game tree may have; when sampling, information sets. By
    /// default 150,000 per second of `--time`, at most 2,000,000: a count,
    /// so whether the whole tree is solved never depends on the machine.
    #[arg(long)]
    pub budget: Option<usize>,
    /// Decision points to solve to (past them, a game counts as a draw).
    #[arg(long)]
    pub depth: Option<u32>,
    /// What an ending pays: `score` (the game's points when it is scored, else a win) or `win`.
    #[arg(long, value_enum, default_value = "score")]
    pub payoff: PayoffArg,
    /// Seeds sampling's deals and choices (the whole tree needs none).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads for sampling (0: one per core; at most 256). The answer is the same for every value.
    #[arg(long, default_value_t = 0, value_parser = parse_jobs)]
    pub jobs: usize,
    /// Save the strategy as a policy file, which `--agents policy:FILE` plays.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Write the solution as a web page, with its charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Show every situation, not only the likeliest per seat.
    #[arg(long)]
    pub all: bool,
    /// Print the solution as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum PayoffArg {
    Score,
    Win,
}

impl From<PayoffArg> for Payoff {
    fn from(arg: PayoffArg) -> Payoff {
        match arg {
            PayoffArg::Score => Payoff::Score,
            PayoffArg::Win => Payoff::Win,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MethodArg {
    Auto,
    #[value(name = "cfr+")]
    CfrPlus,
    Mccfr,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RecallArg {
    All,
    Now,
    Glance,
}

impl From<RecallArg> for Memory {
    fn from(arg: RecallArg) -> Memory {
        match arg {
            RecallArg::All => Memory::All,
            RecallArg::Now => Memory::Now,
            RecallArg::Glance => Memory::Glance,
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub(crate) enum SamplingArg {
    Auto,
    External,
    Outcome,
}

pub(crate) fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 1e7 => Ok(s),
        _ => Err(format!(
            "`{text}` is not a number of seconds above 0, such as 30 or 0.5"
        )),
    }
}

fn parse_target(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(e) if e >= 0.0 && e.is_finite() => Ok(e),
        _ => Err(format!("`{text}` is not an exploitability of 0 or more, such as 0.001")),
    }
}

pub(crate) fn solve(args: &SolveArgs) -> ExitCode {
    if matches!((args.method, args.recall), (MethodArg::CfrPlus, RecallArg::Glance)) {
        // A glance merges moves, which a tree's CFR+ cannot: it is sampled.
        let error = clap::Error::raw(
            clap::error::ErrorKind::ArgumentConflict,
            "`--recall glance` is solved by sampling: use `--method mccfr` or `--method auto` with it, or another \
             `--recall` with `--method cfr+`",
        );
        eprintln!("{}", error.render().ansi());
        return ExitCode::from(2);
    }
    let (game, _) = match load_game(&args.file, &args.settings, None) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let budget = args
        .budget
        .unwrap_or_else(|| solve::nodes_for(Some(Duration::from_secs_f64(args.time))));
    let settings = Settings {
        limits: Limits {
            nodes: budget,
            depth: args.depth,
        },
        payoff: args.payoff.into(),
        iterations: args.iterations,
        time: Some(Duration::from_secs_f64(args.time)),
        target: Some(args.target_exploitability),
        method: match args.method {
            MethodArg::Auto => Method::Auto,
            MethodArg::CfrPlus => Method::Whole,
            MethodArg::Mccfr => Method::Sampled,
        },
        seed: args.seed,
        jobs: args.jobs,
        sampling: match args.sampling {
            SamplingArg::Auto => None,
            SamplingArg::External => Some(Sampling::External),
            SamplingArg::Outcome => Some(Sampling::Outcome),
        },
        memory: args.recall.into(),
    };
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("solve {spinner} {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message("building the game tree");
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let result = solve::solve(&game.def, &game.options, &settings, &mut |p| {
        if let Some(bar) = &bar {
            bar.set_message(progress_line(p, args));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let solution = match result {
        Ok(solution) => solution,
        Err(diagnostic) => {
            super::report(&[*diagnostic], &game.def.sources);
            return ExitCode::from(1);
        }
    };
    eprintln!(
        "solve: {} iterations in {:.2} s (tree built in {:.2} s)",
        solution.iterations, solution.solve_seconds, solution.build_seconds
    );
    if let Some(tree) = &solution.tree
        && let Some(cut_at) = tree.cut_at
        && solution.sampled.is_none()
        && args.depth.is_none()
        && solution.cut_mass > CUT_TOLERANCE
    {
        let d = Diagnostic::error(
            Code::SolveBudget,
            format!(
                "the game is too large to solve whole: its tree passes {} nodes by decision point {}, and play \
                 goes past that point {:.1}% of the time",
                budget,
                cut_at + 1,
                100.0 * solution.cut_mass
            ),
        )
        .help(format!(
            "sample it instead (`--method mccfr`), raise the budget (`--budget {}`), make the game smaller with \
             `--set`, or ask for a depth-limited answer with `--depth {cut_at}` (games longer than that count as \
             draws)",
            budget.saturating_mul(10)
        ));
        super::report(&[d], &game.def.sources);
        return ExitCode::from(1);
    }
    let rules = crate::text::printable_string(&args.file.display().to_string());
    let options = changed_options(&game.def, &game.options);
    if let Some(path) = &args.save {
        let file = solve::policy_file(&game.def, &game.options, &solution);
        if let Err(e) = file.save(path) {
            eprintln!("error: cannot write the policy file {}: {e}", path.display());
            return ExitCode::from(1);
        }
        eprintln!(
            "solve: saved the strategy to {} ({} situations); play it with `--agents policy:{}`",
            path.display(),
            solution.strategy.len(),
            path.display()
        );
    }
    if let Some(path) = &args.html {
        let page = super::solve_report::to_html(&game.def.name, &rules, &options, &solution);
        if let Err(e) = std::fs::write(path, page) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
        eprintln!("solve: wrote {}", path.display());
    }
    // Written as it is made: a sampled answer's situations run to hundreds
    // of megabytes as text, which a string or a JSON tree would hold twice.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if args.json {
        let value = SolveJson {
            game: &game.def.name,
            options: &options,
            rules: &rules,
            solution: &solution,
        };
        serde_json::to_writer_pretty(&mut out, &value)
            .map_err(std::io::Error::from)
            .and_then(|()| writeln!(out))
    } else {
        super::solve_report::write_text(&mut out, &game.def.name, &rules, &options, &solution, args.all)
    };
    if let Err(error) = written.and_then(|()| out.flush()) {
        super::stdout_failed(&error);
    }
    ExitCode::SUCCESS
}

/// `solve --json`: the game, and what solving it found.
#[derive(serde::Serialize)]
struct SolveJson<'a> {
    game: &'a str,
    options: &'a [(String, String)],
    rules: &'a str,
    solution: &'a Solution,
}

/// The progress bar's line: iterations, time, the exploitability where it
/// is measured, and about how long is left.
fn progress_line(p: &Progress, args: &SolveArgs) -> String {
    let mut line = format!(
        "{} iterations, {} information sets, {:.1} s of {:.0} s",
        p.iterations,
        p.infosets,
        p.elapsed.as_secs_f64(),
        args.time
    );
    if let Some(e) = p.exploitability {
        line.push_str(&format!(
            ", exploitability {e:.6} (target {})",
            args.target_exploitability
        ));
    }
    if let Some(left) = p.left {
        line.push_str(&format!(", about {:.0} s left", left.as_secs_f64().ceil()));
    }
    line
}
