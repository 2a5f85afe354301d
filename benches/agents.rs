//! The search players, measured: IS-MCTS iterations per second per game and
//! where the time goes (sampling worlds, walking the tree, playouts and
//! backing up their scores).
//!
//! `cargo bench --bench agents -- [--reuse] [ITERATIONS [GAME...]]`
//!
//! With `--reuse` the searcher keeps its tree (`mcts:reuse=true`), and the
//! line says how much of the budget the kept trees held.
//!
//! Win rates with confidence intervals come from the product itself:
//! `rpsdsl simulate games/rps3.rules -n 200 --agents mcts:iterations=500,random`.

use std::path::Path;
use std::time::{Duration, Instant};

use rpsdsl::agents::{self, Agent, Mcts, SearchStats};
use rpsdsl::check::{self, FsLoader};
use rpsdsl::engine::{Engine, Observation, State};
use rpsdsl::session;

const GAMES: &[&str] = &[
    "games/rps.rules",
    "games/rubber_paper_scissors.rules",
    "games/rps3.rules",
    "games/rock.rules",
    "games/janken_deck.rules",
    "games/rps_poker.rules",
];

/// The game at `path`, on the compiled tier, as the commands play it.
fn load(path: &str) -> rpsdsl::engine::Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    match check::check_file(&path, &FsLoader) {
        Ok(mut c) => {
            c.def.use_engine(Engine::Compiled);
            c.def
        }
        Err(_) => panic!("{} does not check", path.display()),
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let reuse = args.iter().any(|a| a == "--reuse");
    args.retain(|a| a != "--reuse");
    let iterations: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(500);
    let games: Vec<&str> = if args.len() > 1 {
        args[1..].iter().map(String::as_str).collect()
    } else {
        GAMES.to_vec()
    };
    let kept = if reuse { ", the tree kept" } else { "" };
    println!(
        "IS-MCTS ({iterations} iterations a decision{kept}) against random, release build, compiled tier, one thread"
    );
    for game in games {
        speed(game, iterations, reuse, Duration::from_secs(5));
    }
}

/// Plays mcts (the first seat) against random until `budget` has passed, and
/// reports iterations per second and the time split.
fn speed(game: &str, iterations: u32, reuse: bool, budget: Duration) {
    let def = load(game);
    let options = def.default_options();
    let started = Instant::now();
    let mut total = SearchStats::default();
    let (mut games, mut seed) = (0, 0);
    while started.elapsed() < budget {
        let mut mcts = Mcts::new(0, seed);
        mcts.set_iterations(iterations);
        mcts.set_reuse(reuse);
        mcts.set_timing(true);
        let mut players: Vec<Box<dyn Agent>> = agents::from_spec("random", def.players(), seed).unwrap();
        let mut events = vec![];
        let mut state = State::start(&def, &options, seed, vec![], &mut events).unwrap();
        while let Some(pending) = state.pending() {
            let decision = pending.decision();
            let choices: Vec<_> = pending
                .who()
                .iter()
                .map(|&s| {
                    let legal = pending.legal(s);
                    if s == 0 {
                        session::agent_choice(&def, &state, decision, s, legal, &mut mcts)
                    } else {
                        session::agent_choice(&def, &state, decision, s, legal, players[s as usize].as_mut())
                    }
                })
                .collect();
            events.clear();
            let obs = Observation::new(&def, &state, 0);
            mcts.before_step(&def, &obs, &choices);
            if state.apply(&def, &choices, &mut events).is_err() {
                break;
            }
            session::tell_agents(&def, &events, &mut players);
        }
        total.add(&mcts.total);
        games += 1;
        seed += 1;
    }
    let secs = total.total.as_secs_f64().max(1e-9);
    let pct = |d: Duration| 100.0 * d.as_secs_f64() / secs;
    let searches = total.iterations + total.reused;
    let kept = if reuse {
        format!(
            "; kept trees held {:.0}% of the budget",
            100.0 * total.reused as f64 / searches.max(1) as f64
        )
    } else {
        String::new()
    };
    println!(
        "{game}: {:.0} iterations/s ({} iterations in {games} games); sampling worlds {:.0}%, tree {:.0}%, playouts {:.0}%{kept}",
        total.iterations as f64 / secs,
        total.iterations,
        pct(total.determinize),
        pct(total.tree),
        pct(total.rollout),
    );
}
