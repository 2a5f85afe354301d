//! What the verdict's parts share: a game to judge ([`Side`]), how to
//! judge ([`Config`]), a watched figure ([`Watch`]), and how a deal's games
//! are scored and counted.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::agents::spec::{AgentSpec, parse_spec};
use crate::engine::Game;
use crate::ir::OptionValue;
use crate::sim::analyze::Played;
use crate::sim::sequential::{ALPHA, Bets, ConfidenceSequence};
use crate::sim::stats::Interval;

/// Deals played between two looks at the questions.
pub(crate) const BATCH_DEALS: u64 = 8;

/// One game to judge: its rules, options and name as the user gave it.
pub struct Side<'a> {
    /// The game.
    pub def: &'a Game,
    /// Its options.
    pub options: &'a [OptionValue],
    /// The file, as named.
    pub label: String,
}

/// How to judge.
#[derive(Clone, Debug)]
pub struct Config {
    /// The strong and the weak player; `None`: chosen to fit the budget
    /// (the solved strategy where every tree is small, else the strongest
    /// MCTS that fits; see `verdict::players`).
    pub players: Option<(String, String)>,
    /// The time budget.
    pub time: Duration,
    /// The most deals.
    pub most_deals: u64,
    /// The deals derive from it; both games play the same ones.
    pub seed: u64,
    /// Threads (0: one per core).
    pub jobs: usize,
    /// Set from elsewhere (the studio's Stop) to end the run at its next
    /// batch, keeping what it has, as when the time runs out.
    pub halt: Option<Arc<AtomicBool>>,
}

impl Config {
    /// Whether the run was asked to stop.
    pub(crate) fn halted(&self) -> bool {
        self.halt.as_ref().is_some_and(|h| h.load(Ordering::Relaxed))
    }

    /// A deadline at `at` that this run's stop brings forward to now.
    pub(crate) fn deadline(&self, at: Instant) -> Deadline<'_> {
        Deadline {
            at,
            halt: self.halt.as_deref(),
        }
    }
}

/// When a part of a run must end: a time, or sooner when it is asked to stop.
#[derive(Clone, Copy)]
pub(crate) struct Deadline<'c> {
    at: Instant,
    halt: Option<&'c AtomicBool>,
}

impl Deadline<'_> {
    fn halted(&self) -> bool {
        self.halt.is_some_and(|h| h.load(Ordering::Relaxed))
    }

    /// Whether work that would end at `end` ends too late.
    pub(crate) fn passed_by(&self, end: Instant) -> bool {
        self.halted() || end > self.at
    }

    /// The time left: none once asked to stop.
    pub(crate) fn left(&self) -> Duration {
        if self.halted() {
            Duration::ZERO
        } else {
            self.at.saturating_duration_since(Instant::now())
        }
    }
}

/// One watched figure: a confidence sequence for values in a known range.
pub(crate) struct Watch {
    pub(crate) sequence: ConfidenceSequence,
    low: f64,
    width: f64,
}

impl Watch {
    /// For values in `[low, high]`, tightest at `horizon` values.
    pub(crate) fn new(range: (f64, f64), horizon: u64) -> Watch {
        Watch::with_alpha(range, horizon, ALPHA)
    }

    /// [`Watch::new`] at level `alpha`: a share of the error allowed for
    /// several figures read together.
    pub(crate) fn with_alpha((low, high): (f64, f64), horizon: u64, alpha: f64) -> Watch {
        Watch {
            sequence: ConfidenceSequence::new(alpha, Bets::Horizon(horizon)),
            low,
            width: (high - low).max(f64::MIN_POSITIVE),
        }
    }

    /// Adds a value (one past the range counts as its end).
    pub(crate) fn push(&mut self, x: f64) {
        self.sequence.push(((x - self.low) / self.width).clamp(0.0, 1.0));
    }

    /// Values pushed so far.
    pub(crate) fn steps(&self) -> u64 {
        self.sequence.steps()
    }

    /// The mean so far (0 before any value), and the interval.
    pub(crate) fn interval(&self) -> Interval {
        let back = |u: f64| self.low + u * self.width;
        let (low, high) = self.sequence.interval();
        let estimate = if self.sequence.steps() == 0 {
            0.0
        } else {
            back(self.sequence.mean())
        };
        Interval {
            estimate,
            low: back(low),
            high: back(high),
        }
    }
}

/// Values from -`bound` to `bound`: an edge, a difference.
pub(crate) fn either_way(bound: f64) -> (f64, f64) {
    (-bound, bound)
}

pub(crate) fn one(text: &str) -> Result<AgentSpec, String> {
    let specs = parse_spec(text)?;
    match specs.as_slice() {
        [spec] => Ok(spec.clone()),
        _ => Err(format!("`{text}`: give one agent, e.g. `mcts:iterations=80`")),
    }
}

/// What `seat` made of a game: 1 for a win, -1/(seats-1) when another seat
/// won, 0 for a draw.
pub(crate) fn share(played: &Played, seat: usize, seats: usize) -> f64 {
    match played.winner {
        Some(w) if w == seat => 1.0,
        Some(_) => -1.0 / (seats as f64 - 1.0).max(1.0),
        None => 0.0,
    }
}

/// Self-play games a deal costs, in each of `games` games: one of
/// self-play, and in each seat in turn the strong player against random
/// (which costs next to nothing) and against the weak one, whose games cost
/// `weak_cost` of the strong player's (1 where it is not known: as dear).
/// A game costs its seats' shares: the strong seat's game against random
/// is 1/seats of self-play, against the weak (1 + (seats - 1) weak_cost) /
/// seats, so the matchups of every seat together cost 2 + (seats - 1)
/// weak_cost.
pub(crate) fn games_per_deal(seats: usize, games: usize, weak_cost: f64) -> f64 {
    games as f64 * (3.0 + (seats.max(1) - 1) as f64 * weak_cost)
}
