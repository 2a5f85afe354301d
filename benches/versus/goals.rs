//! The engine's speed goals (issue 51), checked against what one run of the
//! bench measured: each goal with the figure behind it, and whether it is
//! met. A goal whose games were not run this time says so.

use crate::Row;

/// Random playouts: at least this ratio to OpenSpiel on every game.
const RANDOM_EACH: f64 = 1.0;
/// Random playouts: at least this ratio in geometric mean.
const RANDOM_MEAN: f64 = 2.0;
/// Random games a second on one thread, per game named.
const RATES: [(&str, f64); 2] = [("connect_four", 1_000_000.0), ("breakthrough", 40_000.0)];
/// At least this ratio to the hand-written Rust.
const NATIVE: f64 = 0.3;
/// MCTS iterations a second: at least this ratio to OpenSpiel's bot on every game.
const MCTS_EACH: f64 = 1.5;

/// Prints each goal, its figure and whether this run met it.
pub fn print_goals(random: &[Row], mcts: &[Row]) {
    if random.is_empty() && mcts.is_empty() {
        return;
    }
    println!();
    println!("the engine's goals (issue 51), as this run measured them:");
    let to_openspiel = |rows: &[Row]| -> Vec<(&'static str, f64)> {
        rows.iter()
            .filter_map(|row| Some((row.name, row.rpsdsl.median()? / row.openspiel.median()?)))
            .collect()
    };
    let random_ratios = to_openspiel(random);
    each_at_least(
        &format!("random playouts at least {RANDOM_EACH}x OpenSpiel on every game"),
        &random_ratios,
        RANDOM_EACH,
    );
    if !random_ratios.is_empty() {
        let mean = geometric_mean(random_ratios.iter().map(|&(_, r)| r));
        let figure = format!("{mean:.2}x over {} games", random_ratios.len());
        report_goal(
            &format!("random playouts at least {RANDOM_MEAN}x OpenSpiel in geometric mean"),
            mean >= RANDOM_MEAN,
            &figure,
        );
    }
    for (name, goal) in RATES {
        let what = format!("{name} at least {goal:.0} random games/s");
        match random
            .iter()
            .find(|row| row.name == name)
            .and_then(|row| row.rpsdsl.median())
        {
            Some(rate) => report_goal(&what, rate >= goal, &format!("{rate:.0}")),
            None => println!("  {what}: not measured in this run"),
        }
    }
    let native: Vec<(&'static str, f64)> = random
        .iter()
        .filter_map(|row| Some((row.name, row.rpsdsl.median()? / row.native.median()?)))
        .collect();
    each_at_least(&format!("at least {NATIVE}x the hand-written Rust"), &native, NATIVE);
    each_at_least(
        &format!("MCTS iterations at least {MCTS_EACH}x OpenSpiel's bot on every game"),
        &to_openspiel(mcts),
        MCTS_EACH,
    );
}

/// A goal that every game's ratio be at least `goal`: met, or the games
/// short of it.
fn each_at_least(goal: &str, ratios: &[(&'static str, f64)], at_least: f64) {
    if ratios.is_empty() {
        println!("  {goal}: not measured in this run");
        return;
    }
    let short: Vec<String> = ratios
        .iter()
        .filter(|&&(_, r)| r < at_least)
        .map(|&(name, r)| format!("{name} {r:.2}x"))
        .collect();
    let lowest = ratios.iter().map(|&(_, r)| r).fold(f64::INFINITY, f64::min);
    let figure = if short.is_empty() {
        format!("all {} games, the lowest {lowest:.2}x", ratios.len())
    } else {
        format!("{} of {} games short: {}", short.len(), ratios.len(), short.join(", "))
    };
    report_goal(goal, short.is_empty(), &figure);
}

fn report_goal(goal: &str, met: bool, figure: &str) {
    let word = if met { "met" } else { "NOT MET" };
    println!("  {goal}: {word} ({figure})");
}

fn geometric_mean(ratios: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = ratios.fold((0.0, 0usize), |(sum, n), r| (sum + r.ln(), n + 1));
    (sum / n.max(1) as f64).exp()
}
