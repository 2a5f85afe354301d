//! `rpsdsl sweep`: a game over the values of its options, with the
//! verdict's players and figures, and the best value for a target.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::simulate_cmd::{GameInput, load_game_input, parse_jobs};
use super::solve_cmd::parse_seconds;
use crate::sim::sweep::{self, Sweep, Target};
use crate::sim::verdict::{Config, Interval, Side};

/// The most values a sweep plays.
const MOST_POINTS: usize = 64;

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

/// `name=1..5` or `name=a,b,c` as the name and its values, in order.
fn values_of(vary: &str) -> Result<(String, Vec<String>), String> {
    let Some((name, values)) = vary.split_once('=') else {
        return Err(format!(
            "`{vary}` is not NAME=VALUES, such as rounds=1..5 or rounds=10,20,40"
        ));
    };
    let name = name.trim().to_string();
    if let Some((low, high)) = values.split_once("..")
        && let (Ok(low), Ok(high)) = (low.trim().parse::<i64>(), high.trim().parse::<i64>())
    {
        if low > high || high - low >= MOST_POINTS as i64 {
            return Err(format!(
                "`{vary}`: a range runs from low to high, with at most {MOST_POINTS} values"
            ));
        }
        return Ok((name, (low..=high).map(|v| v.to_string()).collect()));
    }
    // Commas inside brackets belong to a list value: `schedule=[1,2],[2,4]`.
    let mut parts = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in values.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(values[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(values[start..].trim().to_string());
    if parts.iter().any(String::is_empty) {
        return Err(format!("`{vary}` has an empty value"));
    }
    Ok((name, parts))
}

/// Every `--vary` read, refused before a single combination is built when
/// an option is named twice or the combinations would be more than
/// [`MOST_POINTS`] (counted by multiplying, with no overflow: 14 ranges of
/// three values are refused at once, not after building 4.8 million points).
fn varied(vary: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut varied: Vec<(String, Vec<String>)> = vec![];
    let mut combinations: usize = 1;
    for one in vary {
        let (name, values) = values_of(one)?;
        if varied.iter().any(|(seen, _)| *seen == name) {
            return Err(format!(
                "`{name}` is varied twice; give all its values in one --vary, such as {name}=1,2,3"
            ));
        }
        combinations = combinations.saturating_mul(values.len());
        if combinations > MOST_POINTS {
            return Err(format!(
                "more than {MOST_POINTS} combinations (at `{one}`); vary fewer options or fewer values"
            ));
        }
        varied.push((name, values));
    }
    Ok(varied)
}

pub(crate) fn sweep(args: &SweepArgs) -> ExitCode {
    let varied = match varied(&args.vary) {
        Ok(varied) => varied,
        Err(e) => {
            eprintln!("error: --vary: {e}");
            return ExitCode::from(2);
        }
    };
    // Every combination, the first --vary changing slowest.
    let mut points: Vec<Vec<(String, String)>> = vec![vec![]];
    for (name, values) in &varied {
        points = points
            .into_iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push((name.clone(), v.clone()));
                    p
                })
            })
            .collect();
    }
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
    let text = to_text(&sweep);
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

/// An edge, signed, or a count or share, not.
fn cell(i: &Interval, signed: bool) -> String {
    if signed {
        format!("{:+.3} ({:+.2} to {:+.2})", i.estimate, i.low, i.high)
    } else {
        format!("{:.3} ({:.2} to {:.2})", i.estimate, i.low, i.high)
    }
}

/// The sweep in words: a row per value, then the best.
fn to_text(s: &Sweep) -> String {
    let mut out = format!("Sweep of {}\n", s.rules);
    out.push_str(&format!(
        "players: strong {}, weak {}{}; {} deals with every value in {:.1} s of {:.0} ({})\n\n",
        s.strong,
        s.weak,
        s.players_why.as_ref().map_or(String::new(), |why| format!(" ({why})")),
        s.deals,
        s.seconds,
        s.budget_seconds,
        s.stopped
    ));
    let cautions: Vec<String> = s
        .points
        .iter()
        .filter_map(|p| p.stops.caution(&format!("`{}`", p.label)))
        .collect();
    for caution in &cautions {
        out.push_str(&format!("caution: {caution}\n"));
    }
    if !cautions.is_empty() {
        out.push('\n');
    }
    let width = s.points.iter().map(|p| p.label.len()).max().unwrap_or(5).max(5);
    let header = format!(
        "  {:<width$}  {:<26} {:<26} {:<26} {:<26}",
        "value", "fair: first seat's edge", "short: decision points", "decisive: draws", "skill: edge over random"
    );
    out.push_str(header.trim_end());
    out.push('\n');
    for p in &s.points {
        let mark = if p.separated { "" } else { "  (players not separated)" };
        let row = format!(
            "  {:<width$}  {:<26} {:<26} {:<26} {:<26}{mark}",
            p.label,
            cell(&p.fair, true),
            cell(&p.length, false),
            cell(&p.draws, false),
            cell(&p.skill, true)
        );
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str("  each: the mean per deal, and its 95% confidence sequence\n");
    if let Some(best) = &s.best {
        let (question, signed) = match best.target {
            Target::Fair => ("fair", true),
            Target::Short => ("short", false),
            Target::Decisive => ("decisive", false),
            Target::Skill => ("skill", true),
        };
        out.push_str(&format!(
            "\nbest for {question}: {} {}",
            best.label,
            cell(&best.interval, signed)
        ));
        if best.not_clearly_better_than.is_empty() {
            out.push_str(", better than every other value\n");
        } else {
            out.push_str(&format!(
                "; not clearly better than {} (their intervals overlap)\n",
                best.not_clearly_better_than.join(", ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vary(list: &[&str]) -> Result<Vec<(String, Vec<String>)>, String> {
        varied(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn too_many_combinations_are_refused_before_any_is_built() {
        // 3^14 = 4,782,969 combinations: counted, never built.
        let many: Vec<String> = (0..14).map(|i| format!("o{i}=1..3")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let refused = vary(&many).unwrap_err();
        assert!(refused.contains("more than 64 combinations"), "{refused}");
        assert!(vary(&["a=1..8", "b=1..8"]).is_ok());
        assert!(vary(&["a=1..8", "b=1..9"]).is_err());
    }

    #[test]
    fn an_option_varied_twice_is_refused() {
        let refused = vary(&["size=1..3", "size=5,7"]).unwrap_err();
        assert!(refused.contains("`size` is varied twice"), "{refused}");
    }
}
