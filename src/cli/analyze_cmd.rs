//! `rpsdsl analyze`: skill, choices and tension, for a designer.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::engine::Game;
use crate::ir::OptionValue;
use crate::sim::analyze::{self, Config, Strength};
use crate::sim::sequential::Goal;
use crate::solve;

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
    let mut analysis = match analysis {
        Ok(a) => a,
        Err(code) => return code,
    };
    // Each player once: the weak one may be random itself.
    let mut players = vec![config.strong.as_str(), config.weak.as_str(), "random"];
    players.dedup();
    match strength(&input.def, &input.options, &players, args.seed) {
        Ok(strength) => analysis.strength = Some(strength),
        Err(note) => analysis.strength_note = Some(note),
    }
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

/// Nodes of the tree the players' exploitability is measured on: enough
/// for the classic card games, small enough to stay a fraction of the
/// analysis' time.
const STRENGTH_NODES: usize = 200_000;

/// Answers asked of a player per situation when it does not tell its
/// probabilities.
const STRENGTH_SAMPLES: u32 = 16;

/// Each player's exploitability, every seat playing it (`rpsdsl exploit`),
/// or why it cannot be measured.
fn strength(def: &Game, options: &[OptionValue], players: &[&str], seed: u64) -> Result<Strength, String> {
    let limits = solve::Limits {
        nodes: STRENGTH_NODES,
        depth: None,
    };
    let mut measured = vec![];
    for &spec in players {
        crate::agents::for_game(spec, def, options, seed)?;
        let lineup = |seed: u64| crate::agents::for_game(spec, def, options, seed).map_err(String::from);
        let settings = solve::ExploitSettings {
            limits,
            payoff: solve::Payoff::Score,
            samples: STRENGTH_SAMPLES,
            method: solve::ExploitMethod::Tree,
            learning: solve::Learning {
                games: None,
                time: std::time::Duration::from_secs(20),
                seed,
                jobs: 0,
                depth: solve::SAMPLED_DEPTH,
            },
        };
        let e = solve::exploit(def, options, &settings, &lineup)
            .map_err(|d| format!("{} (`rpsdsl exploit` needs the whole tree)", d.message))?;
        if e.cut_at.is_some() && e.cut_mass > solve::CUT_TOLERANCE {
            return Err(format!(
                "the game's tree passes {STRENGTH_NODES} nodes, and play goes past that point {:.0}% of the time",
                100.0 * e.cut_mass
            ));
        }
        let exploitability = e.gains.iter().sum::<f64>() / e.gains.len() as f64;
        measured.push((spec.to_string(), exploitability, e.exact.iter().all(|&x| x)));
    }
    Ok(Strength { players: measured })
}

/// The path given as FILE or `--house`.
pub(crate) fn file(file: Option<PathBuf>, house: Option<PathBuf>) -> PathBuf {
    house.or(file).expect("clap requires a file or --house")
}
