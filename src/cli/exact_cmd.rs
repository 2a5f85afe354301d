//! `rpsdsl exact`: the exact outcome rates of uniform random play, in the
//! words of `simulate`'s report.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use crate::exact::{self, Exact};

use super::setup::load_game;
use crate::load::changed_options;

pub(crate) fn exact(file: &Path, settings: &[String], budget: u64, json: bool) -> ExitCode {
    let (game, _) = match load_game(file, settings, None) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let started = Instant::now();
    let result = exact::enumerate(&game.def, &game.options, budget);
    let exact = match result {
        Ok(exact) => exact,
        Err(diagnostic) => {
            super::report(&[*diagnostic], &game.def.sources);
            return ExitCode::from(1);
        }
    };
    eprintln!(
        "exact: {} positions in {:.2} s",
        exact.positions,
        started.elapsed().as_secs_f64()
    );
    let rules = crate::text::printable_string(&file.display().to_string());
    let options = changed_options(&game.def, &game.options);
    if json {
        let value = serde_json::json!({
            "game": game.def.name,
            "rules": rules,
            "options": options,
            "agents": "random",
            "exact": exact,
        });
        say!(
            "{}",
            serde_json::to_string_pretty(&value).expect("plain data serializes")
        );
    } else {
        say!("{}", to_text(&game.def.name, &rules, &options, &exact).trim_end());
    }
    ExitCode::SUCCESS
}

fn to_text(name: &str, rules: &str, options: &[(String, String)], exact: &Exact) -> String {
    let options = crate::text::options_phrase(options);
    let mut out = format!("{name}: exact outcome rates of {rules}\n");
    out.push_str(&format!(
        "agents random (every seat picks uniformly among its legal choices), {options}\n"
    ));
    out.push_str(&format!(
        "{} positions, {} distinct games\n",
        exact.positions, exact.games
    ));
    let mut rows: Vec<(String, f64)> = exact
        .seats
        .iter()
        .zip(&exact.wins)
        .map(|(seat, &p)| (format!("{seat} wins"), p))
        .collect();
    rows.push(("draws".into(), exact.draws));
    rows.push(("stopped by a limit or error".into(), exact.stopped));
    out.push_str("\nOutcomes\n");
    out.push_str(&format!("  {:<30} {:>11} {:>8}\n", "", "probability", "rate"));
    for (label, p) in rows {
        out.push_str(&format!("  {label:<30} {p:>11.6} {:>7.2}%\n", 100.0 * p));
    }
    out.push_str("\nLength per game\n");
    out.push_str(&format!("  {:<17} {:>8}\n", "", "mean"));
    out.push_str(&format!(
        "  {:<17} {:>8.3}\n",
        "decision points", exact.mean_decision_points
    ));
    out.push_str(&format!("  {:<17} {:>8.3}\n", "decisions", exact.mean_decisions));
    if let Some(scores) = &exact.scores {
        out.push_str(&format!("\nScores ({:.2}% of games scored)\n", 100.0 * scores.scored));
        out.push_str(&format!("  {:<17} {:>8}\n", "", "mean"));
        for (seat, mean) in exact.seats.iter().zip(&scores.mean_totals) {
            out.push_str(&format!("  {:<17} {mean:>8.3}\n", format!("{seat} total")));
        }
    }
    out
}
