//! The designer's verdict on each seed game and a variant of it, within its
//! budget: wall time, the questions settled, whether the players were
//! shown to differ, whether the strong one was shown strong (the same
//! player at 4× its budget within ±0.05 of it), and how narrow the
//! fairness answer (per game) and the skill answer are: the goal is ±0.05
//! and ±0.10 within the budget.
//!
//! `cargo bench --bench verdict [-- SECONDS]` (default 60, the command's own).

use std::path::Path;
use std::time::{Duration, Instant};

use rpsdsl::check::FsLoader;
use rpsdsl::load::{LoadedGame, load_game};
use rpsdsl::sim::verdict::{Config, Side, verdict};

/// Each seed game and its variant or house rules.
const PAIRS: &[(&str, &str)] = &[
    (
        "games/rubber_paper_scissors.rules",
        "games/variants/fourth_token_six.rules",
    ),
    ("games/janken_deck.rules", "games/variants/janken_three_wilds.rules"),
    ("games/rps3.rules", "games/variants/rps3_small.rules"),
    ("games/rps_poker.rules", "benches/verdict/rps_poker_blinds.toml"),
    ("games/rock.rules", "benches/verdict/rock_same_time_100.toml"),
];

fn load(path: &str) -> LoadedGame {
    let full = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    match load_game(&full, &FsLoader, |_| Ok(vec![])) {
        Ok(game) => game,
        Err(_) => panic!("{path} does not load"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let seconds: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(60.0);
    // The verdict may choose a solved strategy: wire the solver in, as the command line does.
    rpsdsl::cli::wire_solver();
    println!("rpsdsl verdict, default players, a budget of {seconds} s, all cores");
    println!(
        "{:<58} {:>7} {:>7} {:<26} {:<15} {:>7} {:<22} {:<14} {:>12} {:<13} strong? (4× its budget scores, deals)",
        "pair",
        "wall s",
        "deals",
        "players",
        "fair ± (b, v)",
        "skill ±",
        "settled",
        "choices",
        "choice deals",
        "separated"
    );
    for (base, variant) in PAIRS {
        let (b, v) = (load(base), load(variant));
        let sides = [
            Side {
                def: &b.def,
                options: &b.options,
                label: base.to_string(),
            },
            Side {
                def: &v.def,
                options: &v.options,
                label: variant.to_string(),
            },
        ];
        let config = Config {
            players: None,
            time: Duration::from_secs_f64(seconds),
            most_deals: 100_000,
            seed: 1,
            jobs: 0,
            halt: None,
        };
        let started = Instant::now();
        let result = match verdict(&sides[0], &sides[1], &config, &|_, _| {}) {
            Ok(result) => result,
            Err(e) => {
                println!("{base} / {variant}: {e}");
                continue;
            }
        };
        let settled: Vec<String> = result
            .questions
            .iter()
            .filter(|q| q.direction != 0)
            .map(|q| format!("{} {}", q.question, q.answer))
            .collect();
        let name = format!(
            "{} / {}",
            base.trim_start_matches("games/"),
            variant.rsplit('/').next().unwrap_or(variant)
        );
        let shifted = result.choices.rows.iter().filter(|r| r.direction != 0).count();
        let choices = format!("{} ({shifted} shifted)", result.choices.rows.len());
        let s = &result.saturation;
        let strength = match (&s.gain, &s.skipped) {
            (Some(g), _) => format!(
                "{} ({:+.3}, {:+.3} to {:+.3}, {} deals)",
                if s.shown { "shown" } else { "not shown" },
                g.estimate,
                g.low,
                g.high,
                s.deals
            ),
            (None, Some(_)) => "not checked (solved or not a search)".to_string(),
            (None, None) => "not checked (no time)".to_string(),
        };
        let half = |i: &rpsdsl::sim::verdict::Interval| (i.high - i.low) / 2.0;
        let question = |name: &str| result.questions.iter().find(|q| q.question == name);
        let fair = question("fair").map_or("n/a".to_string(), |q| {
            format!("{:.3}, {:.3}", half(&q.base), half(&q.variant))
        });
        let skill = question("skill")
            .and_then(|q| q.difference.as_ref())
            .map_or("n/a".to_string(), |d| format!("{:.3}", half(d)));
        println!(
            "{:<58} {:>7.1} {:>7} {:<26} {:<15} {:>7} {:<22} {:<14} {:>12} {:<13} {}",
            name,
            started.elapsed().as_secs_f64(),
            result.self_play_deals,
            result.strong,
            fair,
            skill,
            if settled.is_empty() {
                "none".to_string()
            } else {
                settled.join("; ")
            },
            choices,
            result.choices.deals,
            format!("{}, {}", result.separation[0].separated, result.separation[1].separated),
            strength
        );
    }
}
