//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod agree;
pub mod cli;
pub mod runs;
pub mod snap;
pub mod studio;
pub mod walk;

use std::path::Path;

use rpsdsl::check::{FsLoader, check_file};
use rpsdsl::engine::Game;
use rpsdsl::ir::GameDef;
use rpsdsl::scenario::{Scenario, ScriptedDecision, ShuffleSpec};
use rpsdsl::session::{self, Failure, Record};

pub fn load(path: &str) -> Game {
    match check_file(Path::new(path), &FsLoader) {
        Ok(checked) => checked.def,
        Err(failed) => panic!(
            "{}",
            rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
        ),
    }
}

/// Every shipped game: `games/*.rules`, then `games/classic/*.rules`.
pub fn shipped_games() -> Vec<String> {
    let mut games = games();
    games.extend(rules_in("games/classic"));
    games
}

/// The `.rules` files of `games/`, in order.
pub fn games() -> Vec<String> {
    rules_in("games")
}

/// The `.rules` files directly in `dir`, in order.
fn rules_in(dir: &str) -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .map(|p| p.display().to_string())
        .collect();
    games.sort();
    games
}

/// A scenario from decisions and shuffles written inline.
pub fn scenario(shuffles: &[(&str, &[&str])], decisions: &[&str]) -> Scenario {
    Scenario {
        seed: None,
        options: vec![],
        shuffles: shuffles
            .iter()
            .map(|(zone, top)| ShuffleSpec {
                zone: zone.to_string(),
                top: top.iter().map(|s| s.to_string()).collect(),
                bottom: vec![],
                span: None,
            })
            .collect(),
        decisions: decisions
            .iter()
            .map(|d| ScriptedDecision {
                text: d.to_string(),
                span: None,
            })
            .collect(),
        rolls: vec![],
        skip_forced: false,
        silence_times: false,
    }
}

pub fn play(def: &Game, seed: u64, scenario: &Scenario) -> Result<Record, Box<Failure>> {
    let mut agents = rpsdsl::agents::from_spec("random", def.players(), seed).unwrap();
    session::play(def, &def.default_options(), seed, scenario, &mut agents)
}

pub fn lines(def: &GameDef, record: &Record) -> Vec<String> {
    rpsdsl::transcript::render_events(def, &record.events, rpsdsl::transcript::Viewer::All)
}

/// A Rubber Paper Scissors round where `winner` wins the duel at once, places
/// a Squad Member, the loser claims the face-down token and the winner the
/// face-up one.
pub fn rps_round(winner: &str) -> Vec<String> {
    let (o, b) = if winner == "Orange" {
        ("rock", "scissors")
    } else {
        ("scissors", "rock")
    };
    let loser = if winner == "Orange" { "Blue" } else { "Orange" };
    vec![
        format!("Orange: {o}"),
        format!("Blue: {b}"),
        format!("{winner}: place a Squad Member"),
        format!("{loser}: claim the face-down token"),
        format!("{winner}: claim the face-up token"),
    ]
}
