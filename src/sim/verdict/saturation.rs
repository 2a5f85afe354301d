//! Whether the strong player is shown to be strong: the same kind of
//! player at four times its budget plays it, seats rotated, on the same
//! deals in both games. The strong player is called strong only when the
//! stronger one is shown to do no better than it by more than
//! [`MARGIN`] in score (its 95% confidence sequence lies inside
//! ±[`MARGIN`]); a search still far from its plateau is told as such.
//!
//! A solved strategy is not checked so: its exploitability, measured by
//! the solver, says more, and the verdict reports that instead.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::{BATCH_DEALS, Interval, Side, Watch};
use crate::agents::spec::AgentSpec;
use crate::sim::analyze::play;
use crate::sim::stats::game_seed;

/// How much better in score (a win 1, a draw ½, a loss 0) the player at
/// four times the budget may be, at most, for the strong player to be
/// called strong.
pub const MARGIN: f64 = 0.05;

/// How many times the strong player's budget the checking player has.
pub const SCALE: u64 = 4;

/// What the check found.
#[derive(Clone, Debug, Serialize)]
pub struct Saturation {
    /// The checking player: the strong one at [`SCALE`] times its budget.
    pub stronger: Option<String>,
    /// Its score over its fair share (½ with two seats) against the strong
    /// player (seats rotated, both games), with its 95% confidence sequence.
    pub gain: Option<Interval>,
    /// Deals played (each in both games, once per seat).
    pub deals: u64,
    /// The gain's interval lies inside ±[`MARGIN`]: the strong player is
    /// shown to be strong.
    pub shown: bool,
    /// Why it was not checked, when it was not.
    pub skipped: Option<String>,
}

impl Saturation {
    /// What the check found, in one line: the text report's second, and
    /// the page's.
    pub fn sentence(&self) -> String {
        let signed = |i: &Interval| format!("{:+.3} ({:+.3} to {:+.3})", i.estimate, i.low, i.high);
        match (&self.skipped, &self.gain, &self.stronger) {
            (Some(why), _, _) => format!("strong player not checked against a larger search: {why}"),
            (None, Some(gain), Some(stronger)) => {
                let figure = format!(
                    "{stronger} ({SCALE}× its budget) scores {} over an even share against it, on {} deals",
                    signed(gain),
                    self.deals
                );
                if self.shown {
                    format!("strong player shown strong: {figure}, within ±{MARGIN}")
                } else if gain.low > MARGIN {
                    format!(
                        "strong player not shown strong: {figure}, more than {MARGIN} better; the answers rest on \
                         players far from their best (give more --time, or --agents with larger searches)"
                    )
                } else {
                    format!(
                        "strong player not shown strong: {figure}, not yet shown within ±{MARGIN} (more --time \
                         narrows it)"
                    )
                }
            }
            _ => "strong player not checked: the time ran out before a deal".to_string(),
        }
    }

    /// Whether the check was played and did not show the player strong.
    pub fn doubts(&self) -> bool {
        self.skipped.is_none() && !self.shown
    }

    fn skipped(why: &str) -> Saturation {
        Saturation {
            stronger: None,
            gain: None,
            deals: 0,
            shown: false,
            skipped: Some(why.to_string()),
        }
    }
}

/// `spec` with [`SCALE`] times its budget, for the players that have one
/// (a search's iterations or time).
fn scaled(spec: &AgentSpec) -> Option<AgentSpec> {
    if spec.name != "mcts" {
        return None;
    }
    let mut scaled = spec.clone();
    let mut found = false;
    for (key, value) in &mut scaled.params {
        if key == "iterations" || key == "time_ms" {
            let n: u64 = value.parse().ok()?;
            *value = (n * SCALE).to_string();
            found = true;
        }
    }
    if !found {
        // The default: 1000 iterations.
        scaled.params.push(("iterations".into(), (1000 * SCALE).to_string()));
    }
    Some(scaled)
}

/// Plays the check on `sides` until it is settled (inside ±[`MARGIN`], or
/// shown to be outside it), the deals run out, or `until` comes. A batch
/// that the deadline cut short is not counted.
pub(super) fn check(
    sides: [&Side<'_>; 2],
    strong: &AgentSpec,
    (seed, most_deals, horizon): (u64, u64, u64),
    until: Instant,
    pool: &rayon::ThreadPool,
) -> Saturation {
    let Some(stronger) = scaled(strong) else {
        return Saturation::skipped("only a search's budget can be scaled: name an `mcts` player to have it checked");
    };
    let seats = sides[0].def.players();
    // A seat's score over its fair share lies within these.
    let fair = 1.0 / seats as f64;
    let mut gain = Watch::new((-fair, 1.0 - fair), horizon.max(16));
    let mut deals = 0;
    let mut per_deal = std::time::Duration::ZERO;
    let settled = |g: &Interval| (g.low > -MARGIN && g.high < MARGIN) || g.low > MARGIN || g.high < -MARGIN;
    while deals < most_deals && !(gain.steps() > 0 && settled(&gain.interval())) {
        if deals > 0 && Instant::now() + per_deal.mul_f64(BATCH_DEALS as f64) > until {
            break;
        }
        let to = (deals + BATCH_DEALS).min(most_deals);
        let began = Instant::now();
        let played: Vec<Option<f64>> = pool.install(|| {
            (deals..to)
                .into_par_iter()
                .map(|d| {
                    // Other deals than the questions': a seed of their own.
                    let seed = game_seed(seed ^ 0x5341_5455, d);
                    let mut total = 0.0;
                    for side in sides {
                        for seat in 0..seats {
                            let specs: Vec<AgentSpec> = (0..seats)
                                .map(|s| if s == seat { stronger.clone() } else { strong.clone() })
                                .collect();
                            let game = play(side.def, side.options, seed, &specs);
                            if game.cut_short {
                                return None;
                            }
                            total += match game.winner {
                                Some(w) if w == seat => 1.0,
                                Some(_) => 0.0,
                                None => 0.5,
                            } - fair;
                        }
                    }
                    Some(total / (2 * seats) as f64)
                })
                .collect()
        });
        per_deal = began.elapsed().div_f64((to - deals) as f64);
        let Some(values) = played.into_iter().collect::<Option<Vec<f64>>>() else {
            break;
        };
        for value in values {
            gain.push(value);
        }
        deals = to;
    }
    let interval = gain.interval();
    Saturation {
        stronger: Some(stronger.to_text()),
        shown: deals > 0 && interval.low > -MARGIN && interval.high < MARGIN,
        gain: (deals > 0).then_some(interval),
        deals,
        skipped: None,
    }
}

/// A check that was not played: the strong player is a solved strategy,
/// whose exploitability is reported instead.
pub(super) fn solved() -> Saturation {
    Saturation::skipped("the strong player is the games' solved strategy: its exploitability says how strong it is")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        super::super::one(text).unwrap()
    }

    #[test]
    fn a_search_is_checked_against_four_times_its_budget() {
        assert_eq!(
            scaled(&spec("mcts:iterations=160")).unwrap().to_text(),
            "mcts:iterations=640"
        );
        assert_eq!(
            scaled(&spec("mcts:time_ms=50:c=1")).unwrap().to_text(),
            "mcts:time_ms=200:c=1"
        );
        assert_eq!(scaled(&spec("mcts")).unwrap().to_text(), "mcts:iterations=4000");
        assert!(scaled(&spec("greedy")).is_none());
    }
}
