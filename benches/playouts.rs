//! Random playouts of every game in `games/`: games per second, decisions per
//! second, and what it costs to clone a mid-game `State` (the copy a search
//! makes at every node).
//!
//! Run with `cargo bench --bench playouts`, or give the seconds per game:
//! `cargo bench --bench playouts -- 0.5`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rpsdsl::agents;
use rpsdsl::check::{self, FsLoader};
use rpsdsl::engine::Game;
use rpsdsl::engine::{Choice, Engine, State};
use rpsdsl::scenario::Scenario;
use rpsdsl::session;

/// Decision rounds to play before taking the "mid-game" state to clone.
const MID_GAME_ROUNDS: usize = 10;

fn main() {
    // `cargo bench` passes `--bench`; the first argument that is a number is
    // the seconds per game.
    let seconds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut games = rules_files(&root);
    games.extend(rules_files(&root.join("classic")));
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench" && a.parse::<f64>().is_err())
        .collect();
    if !only.is_empty() {
        games.retain(|g| only.iter().any(|o| g.to_string_lossy().contains(o.as_str())));
    }
    if games.is_empty() {
        eprintln!("no games/*.rules files found");
        std::process::exit(1);
    }
    println!("random playouts, {seconds} s per game, default options, compiled tier");
    let mut unchecked = 0;
    for path in &games {
        match check::check_file(path, &FsLoader) {
            Ok(mut checked) => {
                // The compiled tier, as the commands play.
                checked.def.use_engine(Engine::Compiled);
                bench_game(&display(path), &checked.def, budget)
            }
            Err(_) => {
                eprintln!("{}: does not check; run `rpsdsl check` on it", display(path));
                unchecked += 1;
            }
        }
    }
    if unchecked > 0 {
        std::process::exit(1);
    }
}

fn rules_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "rules"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn display(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    path.strip_prefix(root).unwrap_or(path).display().to_string()
}

fn bench_game(name: &str, def: &Game, budget: Duration) {
    let options = def.default_options();
    let scenario = Scenario::default();
    let mut games = 0u64;
    let mut decisions = 0u64;
    let mut failures = 0u64;
    let mut seed = 0u64;
    let started = Instant::now();
    while started.elapsed() < budget {
        let mut players = agents::from_spec("random", def.players(), seed).expect("the random agent exists");
        match session::play(def, &options, seed, &scenario, &mut players) {
            Ok(record) => {
                decisions += record.decisions.len() as u64;
                black_box(&record);
            }
            Err(failure) => {
                failures += 1;
                decisions += failure.record.decisions.len() as u64;
            }
        }
        games += 1;
        seed += 1;
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!("{name}");
    println!(
        "  {games} games in {elapsed:.2} s: {:.0} games/s, {:.0} decisions/s, {:.1} decisions/game",
        games as f64 / elapsed,
        decisions as f64 / elapsed,
        decisions as f64 / games.max(1) as f64
    );
    if failures > 0 {
        println!("  {failures} games failed with a runtime error (run `rpsdsl check` on the file)");
    }
    let (loop_games, loop_elapsed) = engine_loop(def, &options, budget);
    println!(
        "  engine loop (no agents, no records): {:.0} games/s",
        loop_games as f64 / loop_elapsed
    );
    // The deepest not-yet-over state among a few seeds (a best-of-1 duel is
    // often over after one round).
    let deepest = (0..64)
        .filter_map(|seed| mid_game(def, &options, seed))
        .max_by_key(|(_, rounds)| *rounds);
    match deepest {
        Some((state, rounds)) => {
            println!(
                "  clone a State after {rounds} decision rounds: {:.0} ns",
                clone_cost(&state)
            );
        }
        None => println!("  clone: the game could not be started"),
    }
}

/// Random playouts straight on the engine, as a search's rollout plays
/// them: uniform choices, one reused event buffer. Returns games played and
/// seconds taken.
fn engine_loop(def: &Game, options: &[rpsdsl::ir::OptionValue], budget: Duration) -> (u64, f64) {
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut events = Vec::with_capacity(256);
    let mut choices = Vec::with_capacity(4);
    let mut games = 0u64;
    let started = Instant::now();
    while started.elapsed() < budget {
        for seed in games..games + 16 {
            events.clear();
            let Ok(mut state) = State::start(def, options, seed, vec![], &mut events) else {
                continue;
            };
            while let Some(pending) = state.pending() {
                choices.clear();
                for &seat in pending.who() {
                    let legal = pending.legal(seat);
                    choices.push(Choice::new(seat, legal[rng.random_range(0..legal.len())]));
                }
                events.clear();
                if state.apply(def, &choices, &mut events).is_err() {
                    break;
                }
            }
            black_box(&state);
        }
        games += 16;
    }
    (games, started.elapsed().as_secs_f64())
}

/// A state some way into a random game: after up to `MID_GAME_ROUNDS`
/// decision rounds, but never one that is already over.
fn mid_game(def: &Game, options: &[rpsdsl::ir::OptionValue], seed: u64) -> Option<(State, usize)> {
    let mut events = vec![];
    let mut state = State::start(def, options, seed, vec![], &mut events).ok()?;
    let mut players = agents::from_spec("random", def.players(), seed).ok()?;
    let mut rounds = 0;
    while rounds < MID_GAME_ROUNDS {
        let Some(pending) = state.pending() else { break };
        let decision = pending.decision();
        // The same path `session::play` takes for an agent's answer.
        let choices: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                session::agent_choice(def, &state, decision, seat, legal, players[seat as usize].as_mut())
            })
            .collect();
        let mut next = state.clone();
        if next.apply(def, &choices, &mut events).is_err() || next.is_over() {
            break;
        }
        state = next;
        rounds += 1;
    }
    Some((state, rounds))
}

/// Mean nanoseconds of one `State::clone`, measured over at least 0.2 s.
fn clone_cost(state: &State) -> f64 {
    let mut clones = 0u64;
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(200) {
        for _ in 0..1000 {
            black_box(black_box(state).clone());
        }
        clones += 1000;
    }
    started.elapsed().as_secs_f64() * 1e9 / clones as f64
}
