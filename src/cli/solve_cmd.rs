//! `rpsdsl solve`: an approximate equilibrium of a game, its value and its
//! exploitability, with the strategy told situation by situation.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::setup::load_game;
use crate::diagnostic::{Code, Diagnostic};
use crate::load::changed_options;
use crate::solve::{self, Limits, Payoff, Settings, Solution};

/// How much of play may lie past the cut before an answer is refused
/// (unless the depth was asked for).
const CUT_TOLERANCE: f64 = 0.01;

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
    /// Stop after this many CFR+ iterations.
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this many seconds of iterating.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, value_parser = parse_seconds)]
    pub time: f64,
    /// Nodes the game tree may have.
    #[arg(long, default_value_t = solve::DEFAULT_NODES)]
    pub budget: usize,
    /// Decision points to build the tree to (past them, a game counts as a draw).
    #[arg(long)]
    pub depth: Option<u32>,
    /// What an ending pays: `score` (the game's points when it is scored, else a win) or `win`.
    #[arg(long, value_enum, default_value = "score")]
    pub payoff: PayoffArg,
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

fn parse_seconds(text: &str) -> Result<f64, String> {
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

/// Situations shown per seat unless `--all`.
const SHOWN: usize = 12;

pub(crate) fn solve(args: &SolveArgs) -> ExitCode {
    let (game, _) = match load_game(&args.file, &args.settings, None) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let settings = Settings {
        limits: Limits {
            nodes: args.budget,
            depth: args.depth,
        },
        payoff: match args.payoff {
            PayoffArg::Score => Payoff::Score,
            PayoffArg::Win => Payoff::Win,
        },
        iterations: args.iterations,
        time: Some(Duration::from_secs_f64(args.time)),
        target: Some(args.target_exploitability),
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
            bar.set_message(format!(
                "{} iterations, {:.1} s of {:.0} s, exploitability {:.6} (target {})",
                p.iterations,
                p.elapsed.as_secs_f64(),
                args.time,
                p.exploitability,
                args.target_exploitability
            ));
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
    if let Some(cut_at) = solution.tree.cut_at
        && args.depth.is_none()
        && solution.cut_mass > CUT_TOLERANCE
    {
        let d = Diagnostic::error(
            Code::SolveBudget,
            format!(
                "the game is too large to solve whole: its tree passes {} nodes by decision point {}, and play \
                 goes past that point {:.1}% of the time",
                args.budget,
                cut_at + 1,
                100.0 * solution.cut_mass
            ),
        )
        .help(format!(
            "raise the budget (`--budget {}`), make the game smaller with `--set`, or ask for a depth-limited \
             answer with `--depth {cut_at}` (games longer than that count as draws)",
            args.budget.saturating_mul(10)
        ));
        super::report(&[d], &game.def.sources);
        return ExitCode::from(1);
    }
    let rules = crate::text::printable_string(&args.file.display().to_string());
    let options = changed_options(&game.def, &game.options);
    if args.json {
        let value = serde_json::json!({
            "game": game.def.name,
            "rules": rules,
            "options": options,
            "solution": solution,
        });
        say!(
            "{}",
            serde_json::to_string_pretty(&value).expect("plain data serializes")
        );
    } else {
        say!(
            "{}",
            to_text(&game.def.name, &rules, &options, &solution, args.all).trim_end()
        );
    }
    ExitCode::SUCCESS
}

fn to_text(name: &str, rules: &str, options: &[(String, String)], s: &Solution, all: bool) -> String {
    let options = if options.is_empty() {
        "default options".to_string()
    } else {
        let set: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("options {}", set.join(" "))
    };
    let mut out = format!("{name}: an equilibrium of {rules}, {options}\n");
    let sets: Vec<String> = s
        .seats
        .iter()
        .zip(&s.tree.infosets)
        .map(|(seat, n)| format!("{seat} {n}"))
        .collect();
    out.push_str(&format!(
        "tree: {} nodes, {} endings; information sets: {}\n",
        s.tree.nodes,
        s.tree.terminals,
        sets.join(", ")
    ));
    if let Some(cut) = s.tree.cut_at {
        out.push_str(&format!(
            "  cut at decision point {}: {} positions there count as a draw; play reaches them with probability {:.2e}\n",
            cut + 1,
            s.tree.cut_nodes,
            s.cut_mass
        ));
    }
    if s.tree.stopped > 0 {
        out.push_str(&format!(
            "  {} endings stopped on an error in the rules; they count as a draw\n",
            s.tree.stopped
        ));
    }
    let why = match s.stopped_by.as_str() {
        "target" => "reached the target exploitability",
        "iterations" => "ran the iterations asked for",
        _ => "ran out of time",
    };
    out.push_str(&format!(
        "CFR+: {} iterations in {:.2} s ({why})\n",
        s.iterations, s.solve_seconds
    ));
    let payoff = match s.payoff {
        Payoff::Score => "the game's score, or 1 for a win when it has none",
        Payoff::Win => "1 for a win, shared out of the losers'",
    };
    out.push_str(&format!("payoff: {payoff}\n\n"));
    out.push_str("Value per game, when every seat plays the strategy below\n");
    for (seat, &v) in s.seats.iter().zip(&s.values) {
        // What rounds to zero shows as +0.0000, never -0.0000.
        let v = if v.abs() < 5e-5 { 0.0 } else { v };
        out.push_str(&format!("  {seat:<20} {v:+.4}\n"));
    }
    out.push_str(&format!(
        "exploitability {:.6} (NashConv {:.6}): what a best response gains per game, averaged over the seats\n",
        s.exploitability, s.nash_conv
    ));
    if s.seats.len() == 2 && s.zero_sum {
        out.push_str("  two seats, zero-sum: this is an approximate Nash equilibrium, and the values are the game's\n");
    } else {
        out.push_str(
            "  caveat: with more than two seats, or payoffs that do not sum to zero, CFR+ promises no Nash \
             equilibrium; the strategy is the average of regret minimisation, and the exploitability says how \
             much each seat could still gain alone\n",
        );
    }
    out.push_str("\nStrategy, by situation (the likeliest first)\n");
    for seat in &s.seats {
        let mut rows: Vec<_> = s.strategy.iter().filter(|r| &r.seat == seat).collect();
        rows.sort_by(|a, b| b.reach.total_cmp(&a.reach).then(a.depth.cmp(&b.depth)));
        let total = rows.len();
        if !all {
            rows.retain(|r| r.reach > 1e-9);
            rows.truncate(SHOWN);
        }
        out.push_str(&format!("{seat} ({total} situations)\n"));
        for r in &rows {
            let mut actions = r.actions.clone();
            actions.sort_by(|a, b| b.1.total_cmp(&a.1));
            let said: Vec<String> = actions
                .iter()
                .filter(|(_, p)| *p >= 0.0005)
                .map(|(a, p)| format!("{a} {:.1}%", 100.0 * p))
                .collect();
            out.push_str(&format!(
                "  {} ({}, reached {:.1}%)\n      {}\n",
                r.situation,
                r.decision,
                100.0 * r.reach,
                said.join(", ")
            ));
        }
        if rows.len() < total {
            out.push_str(&format!(
                "  ... {} more (`--all` shows every one, `--json` gives them all)\n",
                total - rows.len()
            ));
        }
    }
    out
}
