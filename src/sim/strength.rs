//! Whether a strong player is shown to be strong: the same kind of player
//! at four times its budget plays it, seats rotated, on the same deals.
//! The strong player is called strong only when the stronger one is shown
//! to do no better than it by more than [`MARGIN`] in score (its 95%
//! interval lies inside ±[`MARGIN`]); a search still far from its plateau
//! is told as such. `verdict` and `analyze` both play the check and report
//! it with [`Saturation::sentence`].
//!
//! A solved strategy is not checked so: its exploitability, measured by
//! the solver, says more, and the reports give that instead.

use serde::Serialize;

use super::stats::Interval;
use crate::agents::spec::AgentSpec;

/// How much better in score (a win 1, a draw ½, a loss 0) the player at
/// four times the budget may be, at most, for the strong player to be
/// called strong.
pub const MARGIN: f64 = 0.05;

/// How many times the strong player's budget the checking player has.
pub const SCALE: u64 = 4;

/// Why a player is not checked that has no budget to scale.
pub(crate) const NOT_SCALABLE: &str = "only a search's or a lookahead's budget can be scaled: name an `mcts`, `greedy` or `learned` player to have it checked";

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
    /// What the check found, in one line, for a report whose way to play
    /// more is `more` (`--time`, `-n`).
    pub fn sentence(&self, more: &str) -> String {
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
                         players far from their best (give more {more}, or --agents with larger searches)"
                    )
                } else {
                    format!(
                        "strong player not shown strong: {figure}, not yet shown within ±{MARGIN} (more {more} \
                         narrows it)"
                    )
                }
            }
            _ => "strong player not checked: the time ran out before a deal".to_string(),
        }
    }

    /// The check as `analyze` plays it, from the matchup of `stronger`
    /// against the strong player: its edge per deal (`[-1, 1]`, a win 1, a
    /// loss -1/(seats-1)) and that edge's 95% interval, over `deals` deals.
    /// An edge is the score over an even share times `seats / (seats - 1)`.
    pub fn from_edge(stronger: &AgentSpec, (edge, low, high): (f64, f64, f64), deals: u64, seats: usize) -> Saturation {
        let to_score = (seats as f64 - 1.0).max(1.0) / seats.max(2) as f64;
        let gain = Interval {
            estimate: edge * to_score,
            low: low * to_score,
            high: high * to_score,
        };
        Saturation {
            stronger: Some(stronger.to_text()),
            shown: deals > 0 && Saturation::within(&gain),
            gain: (deals > 0).then_some(gain),
            deals,
            skipped: None,
        }
    }

    /// The check not played, and why.
    pub fn not_played(why: &str) -> Saturation {
        Saturation {
            stronger: None,
            gain: None,
            deals: 0,
            shown: false,
            skipped: Some(why.to_string()),
        }
    }

    /// Whether `gain` says something either way: inside ±[`MARGIN`] (the
    /// player is strong), or wholly outside it (it is not).
    pub(crate) fn settled(gain: &Interval) -> bool {
        Saturation::within(gain) || gain.low > MARGIN || gain.high < -MARGIN
    }

    /// Whether `gain` lies inside ±[`MARGIN`]: the player is strong.
    pub(crate) fn within(gain: &Interval) -> bool {
        gain.low > -MARGIN && gain.high < MARGIN
    }

    /// Whether the check was played and did not show the player strong.
    pub fn doubts(&self) -> bool {
        self.skipped.is_none() && !self.shown
    }
}

/// `spec` with [`SCALE`] times its budget, for the players that have one
/// (a search's iterations or time).
pub(crate) fn scaled(spec: &AgentSpec) -> Option<AgentSpec> {
    // What each player's budget is counted in, and its default.
    let (budgets, default): (&[&str], (&str, u64)) = match spec.name.as_str() {
        "mcts" => (&["iterations", "time_ms", "throw_iterations"], ("iterations", 1000)),
        // The lookahead's worlds sampled per decision.
        "greedy" => (&["samples"], ("samples", 16)),
        // Its worlds too: the evaluation is the one trained for the game,
        // whatever the worlds (a search reading it scales its iterations).
        "learned" => (&["samples"], ("samples", 8)),
        _ => return None,
    };
    let mut scaled = spec.clone();
    let mut found = false;
    for (key, value) in &mut scaled.params {
        if budgets.contains(&key.as_str()) {
            let n: u64 = value.parse().ok()?;
            *value = (n * SCALE).to_string();
            found = true;
        }
    }
    if !found {
        scaled.params.push((default.0.into(), (default.1 * SCALE).to_string()));
    }
    Some(scaled)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> AgentSpec {
        crate::sim::verdict::one(text).unwrap()
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
        // A smaller search at a duel's throw grows with the rest.
        assert_eq!(
            scaled(&spec("mcts:iterations=320:throw_iterations=20"))
                .unwrap()
                .to_text(),
            "mcts:iterations=1280:throw_iterations=80"
        );
        assert!(scaled(&spec("random")).is_none());
        // A learnt lookahead samples four times the worlds, on the same evaluation.
        assert_eq!(
            scaled(&spec("learned:time=6")).unwrap().to_text(),
            "learned:time=6:samples=32"
        );
    }

    #[test]
    fn a_lookahead_is_checked_against_four_times_its_worlds() {
        assert_eq!(scaled(&spec("greedy")).unwrap().to_text(), "greedy:samples=64");
        assert_eq!(
            scaled(&spec("greedy:samples=5:seed=3")).unwrap().to_text(),
            "greedy:samples=20:seed=3"
        );
    }
}
