//! `simulate --agents random` against `rpsdsl exact`: the oracle the classic
//! games are tested with.

use rpsdsl::engine::Game;
use rpsdsl::exact::Exact;
use rpsdsl::ir::OptionValue;
use rpsdsl::sim::{self, Plan};

/// Plays `games` random games of `path` (seed 14) with these options, and
/// asserts that every seat's win rate and the draw rate lie within 4
/// standard errors of the exact figures.
pub fn simulate_agrees_with_exact(
    path: &str,
    def: &Game,
    options: &[OptionValue],
    settings: &[(&str, &str)],
    exact: &Exact,
    games: u64,
) {
    let plan = Plan {
        rules: path.into(),
        seed: 14,
        agents: "random".into(),
        options: settings.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
        games,
        range: (0, games),
        rotate_seats: true,
    };
    let report = sim::simulate(def, options, &plan, 0, &|_| {}).unwrap();
    let mut rates: Vec<(String, u64, f64)> = def
        .seats
        .iter()
        .enumerate()
        .map(|(seat, name)| (format!("{name} wins"), report.wins[seat], exact.wins[seat]))
        .collect();
    rates.push(("draws".into(), report.draws, exact.draws));
    for (what, observed, p) in rates {
        let se = (p * (1.0 - p) / games as f64).sqrt();
        let rate = observed as f64 / games as f64;
        assert!(
            (rate - p).abs() <= 4.0 * se + 1e-12,
            "{path}: {what} {rate:.4} in {games} games, exactly {p:.4} (sd {se:.4})"
        );
    }
}
