//! The verdict's check of the strong player's strength
//! ([`Saturation`]): the strong player against the same search at four
//! times its budget, seats rotated, on deals of their own in both games,
//! until the answer is settled or its share of the time is spent.

use std::time::Instant;

use rayon::prelude::*;

use super::basis::{BATCH_DEALS, Deadline, Side, Watch};
use crate::agents::spec::AgentSpec;
use crate::sim::analyze::play;
use crate::sim::stats::game_seed;
use crate::sim::strength::{NOT_SCALABLE, SCALE, Saturation, scaled};

/// Plays the check on `sides` until it is settled (inside ±[`crate::sim::strength::MARGIN`], or
/// shown to be outside it), the deals run out, or `until` comes. A batch
/// that the deadline cut short is not counted.
pub(super) fn check(
    sides: [&Side<'_>; 2],
    strong: &AgentSpec,
    (seed, most_deals, horizon): (u64, u64, u64),
    until: Deadline<'_>,
    pool: &rayon::ThreadPool,
) -> Saturation {
    let Some(stronger) = scaled(strong) else {
        return Saturation::not_played(NOT_SCALABLE);
    };
    // Other deals than the questions': a seed of their own.
    let (gain, deals) = head_to_head(
        &sides,
        [&stronger, strong],
        (seed ^ 0x5341_5455, most_deals, horizon),
        until,
        pool,
        &Saturation::settled,
    );
    Saturation {
        stronger: Some(stronger.to_text()),
        shown: deals > 0 && Saturation::within(&gain),
        gain: (deals > 0).then_some(gain),
        deals,
        skipped: None,
    }
}

/// Self-play games of the strong player a deal of the check costs, in
/// each of `games` games: in each seat in turn, the stronger player (at
/// [`SCALE`] times the cost) against the strong one in every other seat.
pub(super) fn games_per_deal(seats: usize, games: usize) -> f64 {
    games as f64 * (SCALE as f64 + (seats.max(1) - 1) as f64)
}

/// `challenger` against `holder` in every other seat, each seat in turn, on
/// deals of `seed` in every game: the challenger's score over its fair
/// share, and the deals played. Plays until `settled` holds of the
/// interval, the deals run out, or `until` comes; a batch that the
/// deadline cut short is not counted.
pub(super) fn head_to_head(
    sides: &[&Side<'_>],
    [challenger, holder]: [&AgentSpec; 2],
    (seed, most_deals, horizon): (u64, u64, u64),
    until: Deadline<'_>,
    pool: &rayon::ThreadPool,
    settled: &dyn Fn(&crate::sim::stats::Interval) -> bool,
) -> (crate::sim::stats::Interval, u64) {
    let seats = sides[0].def.players();
    // A seat's score over its fair share lies within these.
    let fair = 1.0 / seats as f64;
    let mut gain = Watch::new((-fair, 1.0 - fair), horizon.max(16));
    let mut deals = 0;
    let mut per_deal = std::time::Duration::ZERO;
    while deals < most_deals && !(gain.steps() > 0 && settled(&gain.interval())) {
        if deals > 0 && until.passed_by(Instant::now() + per_deal.mul_f64(BATCH_DEALS as f64)) {
            break;
        }
        let to = (deals + BATCH_DEALS).min(most_deals);
        let began = Instant::now();
        let played: Vec<Option<f64>> = pool.install(|| {
            (deals..to)
                .into_par_iter()
                .map(|d| {
                    let seed = game_seed(seed, d);
                    let mut total = 0.0;
                    for side in sides {
                        for seat in 0..seats {
                            let specs: Vec<AgentSpec> = (0..seats)
                                .map(|s| if s == seat { challenger.clone() } else { holder.clone() })
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
                    Some(total / (sides.len() * seats) as f64)
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
    (gain.interval(), deals)
}

/// A check that was not played: the strong player is a solved strategy,
/// whose exploitability is reported instead.
pub(super) fn solved() -> Saturation {
    Saturation::not_played("the strong player is the games' solved strategy: its exploitability says how strong it is")
}
