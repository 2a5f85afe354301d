//! One meaning, two back ends: every game in `games/` (the five, the
//! classics, the variants, the house rules, and the test games of
//! `tests/games/`) played under the interpreter and under the compiled tier,
//! over many seeds, must give the same offers, the same events (every chance
//! draw, move and reveal), the same outcome and the same errors, step by step.
//! Searching players (whose copies and sampled worlds run the flow many
//! times) must choose the same, and every game's `simulate` report must be
//! byte-identical, in-process and from the command line.

mod common;

use std::path::Path;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rpsdsl::agents;
use rpsdsl::check::FsLoader;
use rpsdsl::engine::{Choice, Engine, Event, Game, State};
use rpsdsl::ir::OptionValue;
use rpsdsl::session;
use rpsdsl::sim::{self, Plan};

/// Random games per file and back end.
const RANDOM_SEEDS: u64 = 16;
/// Games between searching players per file.
const SEARCH_SEEDS: u64 = 1;
/// Games in each report compared.
const REPORT_GAMES: u64 = 40;

/// Every game file the project ships, with its house rules, and the test
/// games.
fn every_game() -> Vec<String> {
    let mut files = common::shipped_games();
    for dir in ["games/variants", "games/house", "tests/games"] {
        let mut more: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rules" || e == "toml"))
            .map(|p| p.display().to_string())
            .collect();
        more.sort();
        files.extend(more);
    }
    files
}

/// The game at `path` on `engine`, with its options; `None` for a file
/// that does not load (a test game that is meant to fail checking).
fn load(path: &str, engine: Engine) -> Option<(Game, Vec<OptionValue>)> {
    let mut loaded = rpsdsl::load::load_game(Path::new(path), &FsLoader, |_| Ok(vec![])).ok()?;
    loaded.def.use_engine(engine);
    Some((loaded.def, loaded.options))
}

/// Everything a game shows, step by step, as text: the offers at each
/// decision, the events after each answer, and how it ended.
fn random_game(def: &Game, options: &[OptionValue], seed: u64) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xd1ff);
    let mut events: Vec<Event> = vec![];
    let mut log = vec![];
    let mut state = match State::start(def, options, seed, vec![], &mut events) {
        Ok(state) => state,
        Err(e) => return vec![format!("{events:?}"), format!("failed to start: {}", e.message)],
    };
    log.push(format!("{events:?}"));
    for _ in 0..2_000 {
        let Some(pending) = state.pending() else { break };
        // A public position's digest, which keys what search and solving
        // learn: the compiled tier's inlined code must not change it.
        log.push(format!("position {:?}", state.public_position(def)));
        let mut choices = vec![];
        for &seat in pending.who() {
            let legal = pending.legal(seat);
            log.push(format!("decision {} seat {seat}: {legal:?}", pending.decision()));
            choices.push(Choice::new(seat, legal[rng.random_range(0..legal.len())]));
        }
        events.clear();
        let applied = state.apply(def, &choices, &mut events);
        log.push(format!("{events:?}"));
        if let Err(e) = applied {
            log.push(format!("failed: {e}"));
            return log;
        }
    }
    log.push(format!("{:?}", state.outcome()));
    log
}

/// A game between two searching players, as the answers they chose.
fn searched_game(def: &Game, options: &[OptionValue], seed: u64) -> Vec<String> {
    let mut players = agents::from_spec("mcts:iterations=24", def.players(), seed).expect("mcts exists");
    let mut events = vec![];
    let mut log = vec![];
    let Ok(mut state) = State::start(def, options, seed, vec![], &mut events) else {
        return vec!["failed to start".into()];
    };
    session::tell_agents(def, &events, &mut players);
    for _ in 0..200 {
        let Some(pending) = state.pending() else { break };
        let decision = pending.decision();
        let choices: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                session::agent_choice(def, &state, decision, seat, legal, players[seat as usize].as_mut())
            })
            .collect();
        log.push(format!("{choices:?}"));
        events.clear();
        if let Err(e) = state.apply(def, &choices, &mut events) {
            log.push(format!("failed: {e}"));
            break;
        }
        session::tell_agents(def, &events, &mut players);
    }
    log.push(format!("{:?}", state.outcome()));
    log
}

fn first_difference(a: &[String], b: &[String]) -> String {
    let at = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    format!(
        "step {at}:\n  interpreter: {}\n  compiled:    {}",
        a.get(at).map_or("(ended)", String::as_str),
        b.get(at).map_or("(ended)", String::as_str)
    )
}

/// Plays one file under both back ends; whether it loaded.
fn compare(path: &str) -> bool {
    let (Some((reference, options)), Some((compiled, _))) =
        (load(path, Engine::Interpreter), load(path, Engine::Compiled))
    else {
        return false;
    };
    assert_eq!(reference.engine(), Engine::Interpreter);
    assert_eq!(
        compiled.engine(),
        Engine::Compiled,
        "{path}: the compiled tier compiled nothing"
    );
    for seed in 0..RANDOM_SEEDS {
        let (a, b) = (
            random_game(&reference, &options, seed),
            random_game(&compiled, &options, seed),
        );
        assert!(
            a == b,
            "{path}, seed {seed}, random players: {}",
            first_difference(&a, &b)
        );
    }
    for seed in 0..SEARCH_SEEDS {
        let (a, b) = (
            searched_game(&reference, &options, seed),
            searched_game(&compiled, &options, seed),
        );
        assert!(
            a == b,
            "{path}, seed {seed}, searching players: {}",
            first_difference(&a, &b)
        );
    }
    true
}

#[test]
fn every_game_plays_the_same_on_both_back_ends() {
    let files = every_game();
    // Two threads, files dealt alternately: the big games are spread out.
    let compared: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|k| {
                let files = &files;
                scope.spawn(move || files.iter().skip(k).step_by(2).filter(|path| compare(path)).count())
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a comparison failed"))
            .sum()
    });
    assert!(compared >= 20, "only {compared} games compared");
}

/// Every game's `simulate` report, in-process: the same on both back ends,
/// to the byte of its JSON.
#[test]
fn every_games_report_is_byte_identical() {
    let files = every_game();
    std::thread::scope(|scope| {
        for k in 0..2 {
            let files = &files;
            scope.spawn(move || {
                for path in files.iter().skip(k).step_by(2) {
                    let (Some((reference, options)), Some((compiled, _))) =
                        (load(path, Engine::Interpreter), load(path, Engine::Compiled))
                    else {
                        continue;
                    };
                    let plan = Plan {
                        rules: path.clone(),
                        seed: 11,
                        agents: "random".into(),
                        options: vec![],
                        games: REPORT_GAMES,
                        range: (0, REPORT_GAMES),
                        rotate_seats: true,
                    };
                    let report = |def: &Game| {
                        sim::simulate(def, &options, &plan, 1, &|_| {})
                            .map(|r| serde_json::to_string(&r).expect("a report serializes"))
                    };
                    assert_eq!(report(&reference), report(&compiled), "{path}: the reports differ");
                }
            });
        }
    });
}

#[test]
fn simulate_reports_are_byte_identical() {
    for path in [
        "games/rps3.rules",
        "games/janken_deck.rules",
        "games/classic/breakthrough.rules",
    ] {
        let run = |engine: &str| {
            common::cli::rpsdsl(&[
                "simulate", path, "-n", "100", "--seed", "5", "--json", "--engine", engine,
            ])
        };
        let (a, b) = (run("interpreter"), run("compiled"));
        assert!(a.status.success(), "{path}: {}", String::from_utf8_lossy(&a.stderr));
        assert_eq!(
            String::from_utf8_lossy(&a.stdout),
            String::from_utf8_lossy(&b.stdout),
            "{path}: the reports differ"
        );
    }
}

/// A game whose start draws nothing by chance is set up once and copied for
/// every later game: a copied start must play exactly as one set up afresh,
/// on both back ends.
#[test]
fn a_start_kept_for_later_games_plays_as_one_set_up_afresh() {
    let mut kept_starts = vec![];
    for path in every_game() {
        for engine in [Engine::Interpreter, Engine::Compiled] {
            let Some((kept, options)) = load(&path, engine) else {
                continue;
            };
            random_game(&kept, &options, 1);
            if !kept.keeps_a_start() {
                continue;
            }
            kept_starts.push(path.clone());
            for seed in 2..4 {
                let (fresh, _) = load(&path, engine).expect("it loaded once");
                assert_eq!(
                    random_game(&kept, &options, seed),
                    random_game(&fresh, &options, seed),
                    "{path} on {engine:?}, seed {seed}: a kept start plays otherwise"
                );
            }
        }
    }
    // Starts without chance are kept; a shuffle at the start is never copied.
    for path in [
        "games/classic/nim.rules",
        "games/classic/othello.rules",
        "games/classic/connect_four.rules",
    ] {
        assert!(kept_starts.iter().any(|p| p == path), "{path}: its start is not kept");
    }
    assert!(!kept_starts.iter().any(|p| p == "games/rubber_paper_scissors.rules"));
}
