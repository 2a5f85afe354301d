//! The strength ladder: each rung (random, greedy, MCTS at 50 and 200
//! iterations, the trained player, MCTS at 200 led by it, and the player
//! the verdict chooses)
//! against a reference player (`mcts:iterations=1000`), seats rotated, on
//! the five seed games, liar's dice and connect four. A rung's score is its
//! share of the points (a win 1, a draw 1/seats), with a 95% interval; 0.5
//! is as strong as the reference.
//!
//! `cargo bench --bench ladder -- [--deals N] [--reference SPEC] [--verdict-time S] [--rung SPEC]... [--no-verdict | --verdict-only] [GAME...]`
//!
//! `--rung SPEC` (repeatable) plays those rungs instead of the fixed ones;
//! `--no-verdict` leaves out the verdict's choice; `--verdict-only` plays
//! only it (on long games, where every rung costs the reference's time).
//!
//! A deal is one game per seat, the agents rotated over the same seed. The
//! games are every path below that contains one of the GAME words (all when
//! none is given). MCTS at 1000 iterations is slow on long games (an RPS3
//! game takes seconds): give those fewer deals.

use std::path::Path;
use std::time::{Duration, Instant};

use rpsdsl::check::FsLoader;
use rpsdsl::load::{LoadedGame, load_game};
use rpsdsl::sim::verdict::{Config, Side, players};
use rpsdsl::sim::{Plan, simulate};

/// Each game, and the variant the verdict compares it with (its own file
/// where the project has no variant).
const GAMES: &[(&str, &str)] = &[
    (
        "games/rubber_paper_scissors.rules",
        "games/variants/fourth_token_six.rules",
    ),
    ("games/janken_deck.rules", "games/variants/janken_three_wilds.rules"),
    ("games/rps3.rules", "games/variants/rps3_small.rules"),
    ("games/rps_poker.rules", "benches/verdict/rps_poker_blinds.toml"),
    ("games/rock.rules", "benches/verdict/rock_same_time_100.toml"),
    ("games/classic/liars_dice.rules", "games/classic/liars_dice.rules"),
    ("games/classic/connect_four.rules", "games/classic/connect_four.rules"),
];

/// The fixed rungs; the verdict's choice is added per game.
const RUNGS: &[&str] = &[
    "random",
    "greedy",
    "mcts:iterations=50",
    "mcts:iterations=200",
    // A larger search whose duels' throws take a small one: about the
    // cost of the one above where every round duels.
    "mcts:iterations=500:throw_iterations=20:settle=true",
    "solve:time=20:wins=true",
    // The search led by that strategy (trained once for both).
    "mcts(iterations=200:prior=solve(time=20:wins=true))",
];

fn load(path: &str) -> LoadedGame {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    match load_game(&full, &FsLoader, |_| Ok(vec![])) {
        Ok(game) => game,
        Err(_) => panic!("{path} does not load"),
    }
}

struct Args {
    deals: u64,
    reference: String,
    verdict_time: f64,
    rungs: Vec<String>,
    verdict: bool,
    verdict_only: bool,
    words: Vec<String>,
}

fn args() -> Args {
    let mut parsed = Args {
        deals: 100,
        reference: "mcts:iterations=1000".to_string(),
        verdict_time: 60.0,
        rungs: vec![],
        verdict: true,
        verdict_only: false,
        words: vec![],
    };
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--deals" => parsed.deals = args.next().and_then(|n| n.parse().ok()).expect("--deals N"),
            "--reference" => parsed.reference = args.next().expect("--reference SPEC"),
            "--verdict-time" => {
                parsed.verdict_time = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .expect("--verdict-time SECONDS")
            }
            "--rung" => parsed.rungs.push(args.next().expect("--rung SPEC")),
            "--verdict-only" => parsed.verdict_only = true,
            "--no-verdict" => parsed.verdict = false,
            word => parsed.words.push(word.to_string()),
        }
    }
    parsed
}

fn main() {
    let args = args();
    rpsdsl::cli::wire_solver();
    println!(
        "rpsdsl strength ladder: each rung against {}, {} deals (seats rotated), release build, all cores",
        args.reference, args.deals
    );
    println!(
        "{:<34} {:<40} {:>7} {:>17} {:>8}",
        "game", "rung", "score", "95% interval", "wall s"
    );
    for (base, variant) in GAMES {
        if !args.words.is_empty() && !args.words.iter().any(|w| base.contains(w.as_str())) {
            continue;
        }
        let game = load(base);
        let mut rungs: Vec<String> = if args.verdict_only {
            vec![]
        } else if args.rungs.is_empty() {
            RUNGS.iter().map(|r| r.to_string()).collect()
        } else {
            args.rungs.clone()
        };
        if args.verdict {
            match verdict_choice(&game, &load(variant), base, variant, args.verdict_time) {
                Ok(strong) => rungs.push(strong),
                Err(e) => println!("{base}: the verdict chose no player: {e}"),
            }
        }
        for rung in rungs {
            if rung == args.reference {
                println!(
                    "{:<34} {:<40} {:>7}",
                    base.trim_start_matches("games/"),
                    rung,
                    "(is the reference)"
                );
                continue;
            }
            let started = Instant::now();
            let line = match score(&game, base, &rung, &args.reference, args.deals) {
                Ok((mean, half)) => format!("{mean:>7.3} {:>8.3} to {:<6.3}", mean - half, mean + half),
                Err(e) => format!("error: {e}"),
            };
            println!(
                "{:<34} {:<40} {line} {:>8.1}",
                base.trim_start_matches("games/"),
                rung,
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// The strong player `verdict` chooses for `base` against `variant` in
/// `seconds`, as the command itself does on this machine.
fn verdict_choice(
    base: &LoadedGame,
    variant: &LoadedGame,
    base_path: &str,
    variant_path: &str,
    seconds: f64,
) -> Result<String, String> {
    fn side<'a>(game: &'a LoadedGame, label: &str) -> Side<'a> {
        Side {
            def: &game.def,
            options: &game.options,
            label: label.to_string(),
        }
    }
    let config = Config {
        players: None,
        time: Duration::from_secs_f64(seconds),
        most_deals: 100_000,
        seed: 1,
        jobs: 0,
        halt: None,
    };
    players(&side(base, base_path), &side(variant, variant_path), &config).map(|(strong, _)| strong)
}

/// `rung`'s share of the points against `reference` over `deals` deals,
/// seats rotated, and the half-width of its 95% interval.
fn score(game: &LoadedGame, path: &str, rung: &str, reference: &str, deals: u64) -> Result<(f64, f64), String> {
    let seats = game.def.players() as u64;
    let mut agents = vec![rung.to_string()];
    agents.extend((1..seats).map(|_| reference.to_string()));
    let games = deals * seats;
    let plan = Plan {
        rules: path.to_string(),
        seed: 1,
        agents: agents.join(","),
        options: vec![],
        games,
        range: (0, games),
        rotate_seats: true,
    };
    let report = simulate(&game.def, &game.options, &plan, 0, &|_| {})?;
    let by_agent = report.by_agent.as_ref().ok_or("no per-agent tally")?;
    let wins: u64 = by_agent.wins[0].iter().sum();
    // A draw shares the point among every seat; the rung holds one of them.
    let draw = 1.0 / seats as f64;
    let n = report.games.max(1) as f64;
    let mean = (wins as f64 + report.draws as f64 * draw) / n;
    let square = (wins as f64 + report.draws as f64 * draw * draw) / n;
    let half = 1.96 * ((square - mean * mean).max(0.0) / n).sqrt();
    Ok((mean, half))
}
