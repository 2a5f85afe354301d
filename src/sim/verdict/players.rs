//! Who plays a verdict or a sweep: the strong and the weak player the user
//! names, or one chosen to fit the time budget, and the scales the
//! confidence sequences need (timed and measured on a pilot).
//!
//! Chosen, in this order: the solved strategy where every game's whole tree
//! is small; else the one-step lookahead (`greedy`) where, played against
//! the strongest search whose games fit, it scores at least an even share
//! (it plays many times the deals in the same time); else that search.

use std::time::Instant;

use rayon::prelude::*;

use super::basis::{Config, Side, games_per_deal, one};
use crate::agents::spec::AgentSpec;
use crate::engine::Memory;
use crate::ir::ChoiceKind;
use crate::sim::analyze::{GameTension, play};
use crate::sim::stats::game_seed;
use crate::sim::strength::MARGIN;
use crate::solve::{Limits, Payoff, Tree};

/// The strong player's search sizes tried when none is given, weakest
/// first: the strongest that plays [`TARGET_DEALS`] deals in the budget is
/// chosen. Round numbers about a quarter apart: with rungs twice apart the
/// search chosen was up to half as large as the time allowed, and on the
/// seed games every doubling up to 1,000 iterations still plays better.
const LADDER: [u64; 24] = [
    10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800, 1000, 1200, 1500, 2000,
];

/// A search's iterations at a duel's throw are its iterations divided by
/// this (at least [`THROW_FLOOR`]): the throws come out even at a few
/// dozen, and the budget goes to the decisions that need it. On the seed
/// game that duels every round, against `mcts:iterations=1000`,
/// `mcts:iterations=500:throw_iterations=20` scores as well as it at about
/// the cost of `mcts:iterations=200`, which scores less (docs/verdict.md).
const THROW_SHARE: u64 = 16;
const THROW_FLOOR: u64 = 4;

/// The verdict's search of `iterations`: its throws smaller (see
/// [`THROW_SHARE`]) where a game has any, and stopping once its move is
/// settled (the same moves, 3% to 26% sooner on the seed games).
fn search(iterations: u64, throws: bool) -> Result<AgentSpec, String> {
    let mut spec = format!("mcts:iterations={iterations}");
    if throws {
        let at_throws = (iterations / THROW_SHARE).max(THROW_FLOOR).min(iterations);
        spec += &format!(":throw_iterations={at_throws}");
    }
    one(&(spec + ":settle=true"))
}

/// Whether any game asks for a kind (a duel's throw when seats choose at
/// once), outside races.
fn has_throws(sides: &[&Side<'_>]) -> bool {
    sides
        .iter()
        .any(|side| side.def.decisions.iter().any(|d| d.kind == ChoiceKind::Kind && !d.race))
}

/// The weak search's size is the strong one's divided by this, so its
/// games cost about [`WEAK_COST`] of the strong one's.
const WEAK_SHARE: u64 = 4;
const WEAK_COST: f64 = 1.0 / WEAK_SHARE as f64;

/// Deals of every game a pilot plays.
const PILOT_DEALS: u64 = 4;

/// Deals of every game the second pilot of the search plays: more than
/// the first, as it measures a difference.
const LARGER_PILOT_DEALS: u64 = 8;

/// The share of the budget a second pilot of the search may take.
const PILOT_SHARE: f64 = 0.02;

/// Deals the default players are chosen to fit in the budget.
const TARGET_DEALS: u64 = 160;

/// The most nodes a game's whole tree may have for its solved strategy to
/// be the strong player (a tree this size solves in seconds).
const SOLVED_NODES: usize = 1_000_000;

/// Shares of the budget the solved strategy may take: to find out whether
/// the trees fit, and to train (all the games together).
const TREE_SHARE: f64 = 0.05;
const TRAIN_SHARE: f64 = 0.1;

/// The share of the budget the learnt evaluation trains in, every game's
/// together.
const VALUE_SHARE: f64 = 0.1;

/// The one-step lookahead, and the weak player beside it: the same over
/// one sampled world, which plays as quickly.
const LOOKAHEAD: &str = "greedy";
const LOOKAHEAD_WEAK: &str = "greedy:samples=1";

/// The share of the budget, and the most deals, a challenger may take to
/// show whether it scores at least even against the player it challenges.
const CHALLENGE_SHARE: f64 = 0.06;
const CHALLENGE_DEALS: u64 = 96;

/// A challenger whose games are at least this many times as quick as the
/// player it challenges may score up to the strength check's margin
/// ([`MARGIN`]) below an even share and still take
/// its place: in the same minute it plays that many times the deals, so
/// every answer narrows, and the check at four times its budget, cheap for
/// it too, then says whether it is strong. (On one of the seed games the
/// lookahead on a learnt evaluation plays close to `mcts:iterations=1000`,
/// 0.46 to 0.51 over 400 deals, at a millisecond or two a game; against
/// the search the minute affords it came out a little under even on 96
/// deals, and was passed over: docs/verdict.md.)
const QUICKER: f64 = 4.0;

/// The players, and what the pilot measured with the strong one.
pub(crate) struct Lineup {
    pub strong: AgentSpec,
    pub weak: AgentSpec,
    /// Why they were chosen, when they were (not named by the user): a
    /// sentence for the report's header.
    pub chosen: Option<String>,
    /// Seconds a game of self-play by the strong player takes on one thread.
    pub seconds_per_game: f64,
    pub scales: Scales,
    /// Per game, the strong player's exploitability, where it is known (a
    /// solved strategy).
    pub exploitability: Vec<Option<f64>>,
}

/// Bounds for figures with no natural range: three times the largest seen
/// in the pilot, so a difference is rarely clipped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scales {
    /// Decision points per game.
    pub length: f64,
    /// Lead changes per game.
    pub changes: f64,
    /// A won game's final margin, in points.
    pub margin: f64,
    /// A counter's total at a game's end (every seat's, summed), the
    /// largest of the game's counters.
    pub counter: f64,
}

impl Scales {
    /// Bounds that hold what both pilots saw.
    fn widest(self, other: Scales) -> Scales {
        Scales {
            length: self.length.max(other.length),
            changes: self.changes.max(other.changes),
            margin: self.margin.max(other.margin),
            counter: self.counter.max(other.counter),
        }
    }
}

/// A few self-play deals of every game with `strong`: the seconds a game
/// of self-play takes on one thread, and the scales.
fn pilot(sides: &[&Side<'_>], strong: &AgentSpec, config: &Config, pool: &rayon::ThreadPool) -> (f64, Scales) {
    pilot_of(sides, strong, (config, PILOT_DEALS), pool)
}

/// [`pilot`] over `deals` deals.
fn pilot_of(
    sides: &[&Side<'_>],
    strong: &AgentSpec,
    (config, deals): (&Config, u64),
    pool: &rayon::ThreadPool,
) -> (f64, Scales) {
    let started = Instant::now();
    let (longest, widest, changes, counted) = pool.install(|| {
        (0..deals)
            .into_par_iter()
            .flat_map(|d| {
                let seed = game_seed(config.seed ^ 0x5049_4c4f, d);
                sides.par_iter().map(move |side| {
                    let played = play(side.def, side.options, seed, &vec![strong.clone(); side.def.players()]);
                    let margin = played
                        .winner
                        .and_then(|w| GameTension::of(&played.standings, w))
                        .map_or(0, |t| t.end_margin.max(0));
                    // Lead changes do not depend on who won.
                    let changes =
                        GameTension::of(&played.standings, played.winner.unwrap_or(0)).map_or(0, |t| t.lead_changes);
                    let counted = played.counters.iter().copied().max().unwrap_or(0).max(0);
                    (played.steps, margin as u64, changes, counted as u64)
                })
            })
            .reduce(
                || (1, 1, 1, 1),
                |a, b| (a.0.max(b.0), a.1.max(b.1), a.2.max(b.2), a.3.max(b.3)),
            )
    });
    let games = (sides.len() as u64 * deals) as f64;
    let seconds = started.elapsed().as_secs_f64() * pool.current_num_threads() as f64 / games;
    let scales = Scales {
        length: 3.0 * longest.max(1) as f64,
        margin: 3.0 * widest.max(1) as f64,
        // Never past the length: a game changes leader at most once a decision point.
        changes: (3.0 * changes.max(1) as f64).min(3.0 * longest.max(1) as f64),
        counter: 3.0 * counted.max(1) as f64,
    };
    (seconds, scales)
}

/// The strongest MCTS of [`LADDER`] whose deals fit [`TARGET_DEALS`] in
/// `share` of the budget, and a weak player a quarter its size; where
/// every game's tree is small, their solved strategy instead; then, where
/// it plays at least as well, the search reading a learnt evaluation
/// instead of playouts, and the one-step lookahead.
fn choose_players(
    sides: &[&Side<'_>],
    seats: usize,
    (config, share): (&Config, f64),
    pool: &rayon::ThreadPool,
) -> Result<Lineup, String> {
    let throws = has_throws(sides);
    let mcts = |iterations: u64| search(iterations, throws);
    let (strong, seconds_per_game, scales) = sized(sides, seats, (config, share), pool, &mcts)?;
    let searches = Lineup {
        strong: mcts(strong)?,
        weak: mcts((strong / WEAK_SHARE).max(2))?,
        chosen: Some("the strongest search whose games fit the time".to_string()),
        seconds_per_game,
        scales,
        exploitability: vec![None; sides.len()],
    };
    if let Some(solved) = solved(sides, config, pool, &searches.weak) {
        return Ok(solved);
    }
    // The longest a self-play game may take for the deals to fit, as the
    // searches were sized.
    let per_deal = games_per_deal(seats, sides.len(), WEAK_COST) / pool.current_num_threads() as f64;
    let fitting = config.time.as_secs_f64() * share / (per_deal * TARGET_DEALS.min(config.most_deals) as f64);
    let mut best = searches;
    if let Some(evaluation) = learned(sides, config, pool)? {
        let valued = valued_searches(sides, seats, (config, share), pool, &evaluation)?;
        best = challenge(sides, (config, fitting), pool, best, valued);
        let weak = one(&format!("{}:samples=1", evaluation.to_text()))?;
        let why = "the one-step lookahead on that evaluation";
        if let Some(lookahead) = fixed(sides, config, pool, (evaluation, weak), why) {
            best = challenge(sides, (config, fitting), pool, best, lookahead);
        }
    }
    let why = "the one-step lookahead on the game's own score";
    if let Some(lookahead) = fixed(sides, config, pool, (one(LOOKAHEAD)?, one(LOOKAHEAD_WEAK)?), why) {
        best = challenge(sides, (config, fitting), pool, best, lookahead);
    }
    Ok(best)
}

/// The iterations of the strongest search `mcts` of [`LADDER`] whose deals
/// fit [`TARGET_DEALS`] in `share` of the budget (timed on pilots at the
/// ladder's foot and, where that is cheap, at four times it), the seconds
/// a game of its self-play takes, and the scales the pilots saw.
fn sized(
    sides: &[&Side<'_>],
    seats: usize,
    (config, share): (&Config, f64),
    pool: &rayon::ThreadPool,
    mcts: &dyn Fn(u64) -> Result<AgentSpec, String>,
) -> Result<(u64, f64, Scales), String> {
    let threads = pool.current_num_threads() as f64;
    let foot = LADDER[0];
    let (seconds, mut scales) = pilot(sides, &mcts(foot)?, config, pool);
    // A game of search costs the game's own steps and then about the same
    // per iteration: where it is cheap, a second pilot at four times the
    // size tells the two apart. Taking the whole cost at the foot as the
    // iterations' prices a larger search well above its cost (1.4 times at
    // 160 iterations on one of the seed games), and chose one rung too weak.
    let pilot_games = (sides.len() as u64 * LARGER_PILOT_DEALS) as f64;
    let cheap = 4.0 * seconds * pilot_games / threads <= config.time.as_secs_f64() * PILOT_SHARE;
    let per_iteration = if cheap {
        let (larger, its_scales) = pilot_of(sides, &mcts(4 * foot)?, (config, LARGER_PILOT_DEALS), pool);
        scales = scales.widest(its_scales);
        // Never below half the larger pilot's average: a few games' noise
        // must not make iterations look free.
        ((larger - seconds) / (3 * foot) as f64).max(larger / (4 * foot) as f64 / 2.0)
    } else {
        seconds / foot as f64
    };
    let per_game = |iterations: u64| seconds + per_iteration * iterations.saturating_sub(foot) as f64;
    let budget = config.time.as_secs_f64() * share;
    let fits = |iterations: u64| {
        let per_deal = per_game(iterations) * games_per_deal(seats, sides.len(), WEAK_COST) / threads;
        per_deal * TARGET_DEALS.min(config.most_deals) as f64 <= budget
    };
    let strong = LADDER.iter().rev().copied().find(|&i| fits(i)).unwrap_or(LADDER[0]);
    Ok((strong, per_game(strong), scales))
}

/// The learnt evaluation every game trains within [`VALUE_SHARE`] of the
/// budget (games side by side, a thread each), as the `learned` player
/// that plays by it: `None` where a game cannot be trained or the run was
/// asked to stop.
fn learned(sides: &[&Side<'_>], config: &Config, pool: &rayon::ThreadPool) -> Result<Option<AgentSpec>, String> {
    let threads = pool.current_num_threads().max(1);
    let rounds = sides.len().div_ceil(threads).max(1);
    let seconds = config.time.as_secs_f64() * VALUE_SHARE / rounds as f64;
    let evaluation = one(&format!("learned:time={seconds:.2}"))?;
    // Building the player trains it; later builds find the evaluation.
    let trained = pool.install(|| {
        sides
            .par_iter()
            .all(|side| crate::agents::build(&evaluation, Some((side.def, side.options)), 0, 0).is_ok())
    });
    Ok((trained && !config.halted()).then_some(evaluation))
}

/// The search reading `evaluation` where a playout would begin
/// (`mcts:value=learned(...)`), sized as the plain searches are, and a
/// weak one a quarter its size.
fn valued_searches(
    sides: &[&Side<'_>],
    seats: usize,
    (config, share): (&Config, f64),
    pool: &rayon::ThreadPool,
    evaluation: &AgentSpec,
) -> Result<Lineup, String> {
    let value = evaluation.to_text().replacen(':', "(", 1) + ")";
    let throws = has_throws(sides);
    let mcts = |iterations: u64| one(&format!("{}:value={value}", search(iterations, throws)?.to_text()));
    let (strong, seconds_per_game, scales) = sized(sides, seats, (config, share), pool, &mcts)?;
    Ok(Lineup {
        strong: mcts(strong)?,
        weak: mcts((strong / WEAK_SHARE).max(2))?,
        chosen: Some("the search reading an evaluation learnt in self-play".to_string()),
        seconds_per_game,
        scales,
        exploitability: vec![None; sides.len()],
    })
}

/// `challenger` in the place of `current` where its strong player scores at
/// least an even share against `current`'s, seats rotated on deals of
/// every game (within [`CHALLENGE_SHARE`] of the budget), or, where its
/// games are [`QUICKER`] times as quick, no more than the strength check's
/// margin below it; and where its games take longer than `current`'s and
/// than `fitting` seconds (a game whose deals fit the budget, as the
/// searches are sized), is shown to score more. Its line says why, with
/// the figure.
fn challenge(
    sides: &[&Side<'_>],
    (config, fitting): (&Config, f64),
    pool: &rayon::ThreadPool,
    current: Lineup,
    challenger: Lineup,
) -> Lineup {
    let until = config.deadline(Instant::now() + config.time.mul_f64(CHALLENGE_SHARE));
    let (edge, deals) = super::saturation::head_to_head(
        sides,
        [&challenger.strong, &current.strong],
        (
            config.seed ^ 0x4C4F_4F4B,
            CHALLENGE_DEALS.min(config.most_deals),
            CHALLENGE_DEALS,
        ),
        until,
        pool,
        // Settled once shown either way.
        &|edge| edge.high < 0.0 || edge.low > 0.0,
    );
    let costs = [challenger.seconds_per_game, current.seconds_per_game, fitting];
    let Some(stands) = (deals > 0).then(|| standing(&edge, costs)).flatten() else {
        return current;
    };
    let why = format!(
        "{}: against {} it scores {:+.3} ({:+.3} to {:+.3}) over an even share on {deals} deals, {}, and \
         its games are {:.1}× as quick",
        challenger.chosen.as_deref().unwrap_or("chosen"),
        current.strong.to_text(),
        edge.estimate,
        edge.low,
        edge.high,
        stands,
        current.seconds_per_game / challenger.seconds_per_game.max(1e-9)
    );
    Lineup {
        chosen: Some(why),
        ..challenger
    }
}

/// How a challenger with `edge` over the player it challenges stands, in
/// words, where it takes the place; `None` where it does not. `costs` are
/// the seconds a game takes, the challenger's, the current player's, and
/// one whose deals fit the budget.
fn standing(edge: &crate::sim::stats::Interval, [challenger, current, fitting]: [f64; 3]) -> Option<String> {
    // A challenger whose games fit the budget as well must score at least
    // even on the deals played, or within the margin where it is much
    // quicker; one that does not fit (its games slower than `current`'s and
    // the budget's) must be shown to play better.
    let dearer = challenger > current.max(fitting);
    let quicker = challenger * QUICKER <= current;
    let least = if quicker { -MARGIN } else { 0.0 };
    if edge.estimate < least || (dearer && edge.low <= 0.0) {
        return None;
    }
    Some(if dearer {
        "more".to_string()
    } else if edge.estimate < 0.0 {
        format!("within {MARGIN} of even")
    } else {
        "at least even".to_string()
    })
}

/// A player that needs no sizing (`strong`, and `weak` beside it), timed
/// and scaled on a pilot, as a challenger: `None` where it cannot play
/// every game.
fn fixed(
    sides: &[&Side<'_>],
    config: &Config,
    pool: &rayon::ThreadPool,
    (strong, weak): (AgentSpec, AgentSpec),
    chosen: &str,
) -> Option<Lineup> {
    if sides
        .iter()
        .any(|side| crate::agents::build(&strong, Some((side.def, side.options)), 0, 0).is_err())
    {
        return None;
    }
    let (seconds_per_game, scales) = pilot(sides, &strong, config, pool);
    Some(Lineup {
        strong,
        weak,
        chosen: Some(chosen.to_string()),
        seconds_per_game,
        scales,
        exploitability: vec![None; sides.len()],
    })
}

/// Where every game's whole tree is small enough to solve in the budget:
/// the solved strategy as the strong player (trained once, as `--agents
/// solve:time=T` does), `weak` as the weak one, and the strategy's
/// exploitability in each game. `None` where a tree does not fit, a game
/// has a race, or the solver is not wired in.
fn solved(sides: &[&Side<'_>], config: &Config, pool: &rayon::ThreadPool, weak: &AgentSpec) -> Option<Lineup> {
    let budget = config.time.as_secs_f64();
    let deadline = Instant::now() + config.time.mul_f64(TREE_SHARE);
    let limits = Limits {
        nodes: SOLVED_NODES,
        depth: None,
    };
    for side in sides {
        let tree = Tree::build_by(side.def, side.options, limits, Payoff::Win, Some(deadline), Memory::All).ok()?;
        if tree.cuts() > 0 {
            return None;
        }
    }
    // The verdict counts wins, so the strategy plays for them.
    // Every game trains in turn (a sweep may have 64): they share the time.
    let per_game = budget * TRAIN_SHARE / sides.len().max(1) as f64;
    let strong = one(&format!("solve:time={:.2}:wins=true", per_game.max(0.05))).ok()?;
    let mut exploitability = vec![];
    for side in sides {
        // Building the player trains it; later builds find the strategy.
        let agent = crate::agents::build(&strong, Some((side.def, side.options)), 0, 0).ok()?;
        exploitability.push(agent.exploitability());
    }
    let (seconds_per_game, scales) = pilot(sides, &strong, config, pool);
    Some(Lineup {
        strong,
        weak: weak.clone(),
        chosen: Some("the games' trees fit: the strong player is their solved strategy".to_string()),
        seconds_per_game,
        scales,
        exploitability,
    })
}

/// The strong and weak players for `sides`: those `config` names (checked
/// on every side), or the strongest whose questions fit in `share` of the
/// budget.
pub(crate) fn players_for(
    sides: &[&Side<'_>],
    seats: usize,
    (config, share): (&Config, f64),
    pool: &rayon::ThreadPool,
) -> Result<Lineup, String> {
    match &config.players {
        Some((strong, weak)) => {
            let (strong, weak) = (one(strong)?, one(weak)?);
            for side in sides {
                crate::agents::build(&strong, Some((side.def, side.options)), 0, 0)?;
                crate::agents::build(&weak, Some((side.def, side.options)), 0, 0)?;
            }
            let (seconds_per_game, scales) = pilot(sides, &strong, config, pool);
            let exploitability = sides
                .iter()
                .map(|side| {
                    crate::agents::build(&strong, Some((side.def, side.options)), 0, 0)
                        .ok()
                        .and_then(|agent| agent.exploitability())
                })
                .collect();
            Ok(Lineup {
                strong,
                weak,
                chosen: None,
                seconds_per_game,
                scales,
                exploitability,
            })
        }
        None => choose_players(sides, seats, (config, share), pool),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdicts_searches_settle_and_throw_less_where_a_game_duels() {
        let text = |iterations, throws| search(iterations, throws).unwrap().to_text();
        assert_eq!(text(320, true), "mcts:iterations=320:throw_iterations=20:settle=true");
        // Never fewer than four throws' iterations, nor more than the budget.
        assert_eq!(text(10, true), "mcts:iterations=10:throw_iterations=4:settle=true");
        assert_eq!(text(2, true), "mcts:iterations=2:throw_iterations=2:settle=true");
        assert_eq!(text(160, false), "mcts:iterations=160:settle=true");
    }

    #[test]
    fn a_much_quicker_challenger_may_score_a_little_under_even() {
        let edge = |estimate: f64| crate::sim::stats::Interval {
            estimate,
            low: estimate - 0.1,
            high: estimate + 0.1,
        };
        // As quick: at least even.
        assert_eq!(standing(&edge(0.01), [1.0, 1.0, 2.0]).as_deref(), Some("at least even"));
        assert_eq!(standing(&edge(-0.01), [1.0, 1.0, 2.0]), None);
        // Four times as quick: within the strength check's margin.
        assert_eq!(
            standing(&edge(-0.04), [0.25, 1.0, 2.0]).as_deref(),
            Some("within 0.05 of even")
        );
        assert_eq!(standing(&edge(-0.06), [0.25, 1.0, 2.0]), None);
        assert_eq!(standing(&edge(-0.04), [0.3, 1.0, 2.0]), None);
        // Dearer than both: shown to score more.
        assert_eq!(standing(&edge(0.05), [3.0, 1.0, 2.0]), None);
        assert_eq!(standing(&edge(0.15), [3.0, 1.0, 2.0]).as_deref(), Some("more"));
    }
}
