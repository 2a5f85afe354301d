//! Simulation and analysis runs as the tests set them up: one plan, one
//! analysis configuration, so a test states only what it varies.

use rpsdsl::sim::Plan;
use rpsdsl::sim::analyze::Config;
use rpsdsl::sim::sequential::Goal;

/// A run of `games` games of `rules` from `seed`, seats rotated, default
/// options. Change a field with `Plan { rotate_seats: false, ..plan(..) }`.
pub fn plan(rules: &str, agents: &str, games: u64, seed: u64) -> Plan {
    Plan {
        rules: rules.into(),
        seed,
        agents: agents.into(),
        options: vec![],
        games,
        range: (0, games),
        rotate_seats: true,
    }
}

/// An analysis of `strong` against `weak` over `games` games a matchup,
/// seed 1, every core.
pub fn analysis(strong: &str, weak: &str, games: u64) -> Config {
    Config {
        strong: strong.into(),
        weak: weak.into(),
        games,
        seed: 1,
        jobs: 0,
        chosen_for: None,
        goal: None,
    }
}

/// The same, stopping each matchup when `goal` is met (at most `games`).
pub fn analysis_until(strong: &str, weak: &str, games: u64, goal: Goal) -> Config {
    Config {
        goal: Some(goal),
        ..analysis(strong, weak, games)
    }
}
