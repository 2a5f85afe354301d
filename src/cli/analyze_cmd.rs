//! `rpsdsl analyze`: skill, choices and tension, for a designer.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::sim::analyze::{self, Config};
use crate::sim::sequential::Goal;

use super::simulate_cmd::files::{check_output, write};
use super::simulate_cmd::{load_game_input, parse_precision, with_progress};

/// `analyze`'s options.
#[derive(clap::Args, Clone, Debug)]
pub(crate) struct AnalyzeArgs {
    /// The strong and the weak player, e.g. `mcts:iterations=80,mcts:iterations=20`
    /// (each is also played against random).
    #[arg(long, default_value = "mcts:iterations=80,mcts:iterations=20")]
    pub agents: String,
    /// Games per matchup (three matchups: strong and weak against random, strong against weak);
    /// with --until-significant or --precision, the most. Without -n, each matchup stops as soon
    /// as its edge is significant, after at most 400 games, fewer for a long game (at least 64).
    #[arg(short = 'n', long = "games")]
    pub games: Option<u64>,
    /// Stop each matchup as soon as its edge's 95% interval leaves out 0 (the default without -n);
    /// -n is then the most games per matchup.
    #[arg(long, conflicts_with = "precision")]
    pub until_significant: bool,
    /// Stop each matchup as soon as its edge is known within ±P at 95%, e.g. 0.1;
    /// -n is then the most games per matchup.
    #[arg(long, value_name = "P", value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// Set an option: `--set rounds=3` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// The seed the deals derive from; every matchup plays the same deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads to use (0: one per core). Results are the same for every value.
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Print the analysis as JSON.
    #[arg(long)]
    pub json: bool,
    /// Also write the analysis as a self-contained HTML page with charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

pub(crate) fn analyze(file: &Path, args: &AnalyzeArgs) -> ExitCode {
    let agents = match crate::agents::spec::parse_spec(&args.agents) {
        Ok(agents) => agents,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let [strong, weak] = agents.as_slice() else {
        eprintln!(
            "error: `--agents {}`: give the strong and the weak player, e.g. `--agents mcts:iterations=80,random`",
            crate::text::printable_string(&args.agents)
        );
        return ExitCode::from(2);
    };
    if args.games == Some(0) {
        eprintln!("error: -n 0: each matchup plays at least 1 game");
        return ExitCode::from(2);
    }
    if let Some(Err(code)) = args.html.as_deref().map(|path| check_output("HTML report", path)) {
        return code;
    }
    let input = match load_game_input(file, &args.settings) {
        Ok(input) => input,
        Err(code) => return code,
    };
    let (games, chosen_for) = match args.games {
        Some(games) => (games, None),
        None => {
            let (games, length) = analyze::default_games(&input.def, &input.options, args.seed);
            (games, Some(length))
        }
    };
    // Without -n nobody asked for a number of games, only for answers:
    // each matchup stops when its edge is significant.
    let goal = match (args.until_significant, args.precision, args.games) {
        (true, _, _) | (false, None, None) => Some(Goal::Significant),
        (false, Some(p), _) => Some(Goal::Precision(p)),
        (false, None, Some(_)) => None,
    };
    let config = Config {
        strong: strong.to_text(),
        weak: weak.to_text(),
        games,
        seed: args.seed,
        jobs: args.jobs,
        chosen_for,
        goal,
    };
    let analysis = with_progress(3 * games, "analyze", |tick| {
        let analysis = analyze::analyze(&input.def, &input.options, &input.label, &config, tick)?;
        let played = analysis.matchups.iter().map(|m| m.games).sum();
        Ok((analysis, played))
    });
    let analysis = match analysis {
        Ok(a) => a,
        Err(code) => return code,
    };
    if args.json {
        say!("{}", analysis.to_json().trim_end());
    } else {
        say!("{}", analysis.to_text().trim_end());
    }
    if let Some(path) = &args.html {
        let page = crate::sim::html::analyze_page(&analysis).map_err(|e| e.to_string());
        if let Err(code) = write("HTML report", path, page) {
            return code;
        }
    }
    ExitCode::SUCCESS
}

/// The path given as FILE or `--house`.
pub(crate) fn file(file: Option<PathBuf>, house: Option<PathBuf>) -> PathBuf {
    house.or(file).expect("clap requires a file or --house")
}
