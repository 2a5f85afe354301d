//! Answers as soon as they are sure: `--until-significant` and
//! `--precision P` for `simulate` and `compare`, with `-n` as the most games.
//!
//! A run plays batches of games in seed order and, after each batch, asks a
//! confidence sequence whether the question is answered. A confidence
//! sequence holds the true value at every number of games at once with
//! probability 95%, so stopping whenever it says so is as valid as a
//! fixed-size test (peeking at a fixed-size test is not: it finds
//! "significant" differences far more often than 5% of the time). The
//! sequence here is Waudby-Smith and Ramdas's predictable plug-in empirical
//! Bernstein sequence for a bounded mean; its formula is in
//! `docs/metrics.md`.
//!
//! The batches depend only on how many games were played, never on the
//! threads, so the stopping point and the report are the same at any
//! `--jobs`; and the report of a run that stopped after `g` games is the
//! report of `-n g`.

use serde::Serialize;

use super::record::{GameRecord, GameResult};
use super::report::{Plan, Report};
use super::run::simulate_games;
use crate::agents::spec::parse_spec;
use crate::ir::OptionValue;

/// The error rate every question is answered at: 95% confidence.
pub const ALPHA: f64 = 0.05;

/// The bet size is never above this (the article's `c`, 1/2 or 3/4).
const MAX_BET: f64 = 0.5;

/// What a sequential run waits for.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Goal {
    /// A difference is significant: between the seats (or agents) in
    /// `simulate`, between base and variant in `compare`.
    Significant,
    /// Every tracked rate's 95% interval is at most this far from its
    /// estimate on either side (a half-width, 0.01 for ±1 point).
    Precision(f64),
}

impl Goal {
    /// The option that asked for it, as typed.
    pub fn flag(&self) -> String {
        match self {
            Goal::Significant => "--until-significant".into(),
            Goal::Precision(p) => format!("--precision {p}"),
        }
    }
}

/// How a [`ConfidenceSequence`] sizes its bets: any sizing that uses only
/// the past keeps it valid; the sizing only decides when it is tightest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bets {
    /// Tightest after this many observations (the most a run may make):
    /// there its half-width is about 1.4 times a fixed-size interval's.
    Horizon(u64),
    /// Sized to reach this half-width with the fewest observations.
    HalfWidth(f64),
}

/// A confidence sequence for the mean of observations in `[0, 1]` that all
/// share one mean given the past: the predictable plug-in empirical
/// Bernstein sequence (Waudby-Smith & Ramdas 2024, JRSSB 86(1), section
/// 3.3), intersected over time. It holds the mean at every step at once
/// with probability at least `1 - alpha`.
#[derive(Clone, Debug)]
pub struct ConfidenceSequence {
    alpha: f64,
    bets_sized: Bets,
    steps: u64,
    sum: f64,
    /// Sum of squared deviations from the running mean (after each step).
    deviations: f64,
    bets: f64,
    weighted: f64,
    penalty: f64,
    low: f64,
    high: f64,
}

impl ConfidenceSequence {
    /// A sequence at level `1 - alpha`.
    pub fn new(alpha: f64, bets: Bets) -> ConfidenceSequence {
        ConfidenceSequence {
            alpha,
            bets_sized: bets,
            steps: 0,
            sum: 0.0,
            deviations: 0.0,
            bets: 0.0,
            weighted: 0.0,
            penalty: 0.0,
            low: 0.0,
            high: 1.0,
        }
    }

    /// The running mean with a prior half an observation at 1/2.
    fn smoothed_mean(&self) -> f64 {
        (0.5 + self.sum) / (self.steps as f64 + 1.0)
    }

    /// The running variance with a prior of 1/4 (the most a `[0, 1]` variable has).
    fn smoothed_variance(&self) -> f64 {
        (0.25 + self.deviations) / (self.steps as f64 + 1.0)
    }

    /// Adds the next observation, which must lie in `[0, 1]`.
    pub fn push(&mut self, x: f64) {
        debug_assert!((0.0..=1.0).contains(&x), "{x} is outside [0, 1]");
        let x = x.clamp(0.0, 1.0);
        let log_term = (2.0 / self.alpha).ln();
        // The bet uses only the past (it is "predictable"): that is what
        // keeps the sequence valid whatever the data.
        let variance = self.smoothed_variance();
        let bet = match self.bets_sized {
            Bets::Horizon(n) => (2.0 * log_term / (variance * n.max(1) as f64)).sqrt(),
            Bets::HalfWidth(half_width) => half_width / variance,
        }
        .min(MAX_BET);
        let surprise = 4.0 * (x - self.smoothed_mean()).powi(2);
        self.bets += bet;
        self.weighted += bet * x;
        self.penalty += surprise * (-(-bet).ln_1p() - bet) / 4.0;
        self.steps += 1;
        self.sum += x;
        self.deviations += (x - self.smoothed_mean()).powi(2);
        let centre = self.weighted / self.bets;
        let half = (log_term + self.penalty) / self.bets;
        self.low = self.low.max(centre - half);
        self.high = self.high.min(centre + half);
    }

    /// Observations so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// The plain mean of the observations (`NaN` before the first).
    pub fn mean(&self) -> f64 {
        self.sum / self.steps as f64
    }

    /// The interval now: every earlier interval intersected.
    pub fn interval(&self) -> (f64, f64) {
        if self.low > self.high {
            // Only possible with probability below alpha: keep a point, not an empty set.
            let mid = (self.low + self.high) / 2.0;
            return (mid, mid);
        }
        (self.low, self.high)
    }

    /// Half the interval's width.
    pub fn half_width(&self) -> f64 {
        let (low, high) = self.interval();
        (high - low) / 2.0
    }

    /// Whether the interval now leaves out `value`.
    pub fn excludes(&self, value: f64) -> bool {
        let (low, high) = self.interval();
        value < low || value > high
    }
}

/// A figure a sequential run watches: a confidence sequence on a `[0, 1]`
/// scale, and how that scale maps back to the figure (`figure = x * scale - shift`).
#[derive(Clone, Debug)]
struct Tracked {
    name: String,
    sequence: ConfidenceSequence,
    scale: f64,
    shift: f64,
    /// A difference (shown in points) rather than a rate.
    difference: bool,
    /// When the question is whether it differs from 0: 0.
    null: Option<f64>,
}

impl Tracked {
    fn to_scale(&self, figure: f64) -> f64 {
        (figure + self.shift) / self.scale
    }

    fn push(&mut self, figure: f64) {
        let x = self.to_scale(figure);
        self.sequence.push(x);
    }

    fn significant(&self) -> bool {
        self.null
            .is_some_and(|null| self.sequence.excludes(self.to_scale(null)))
    }

    fn half_width(&self) -> f64 {
        self.sequence.half_width() * self.scale
    }

    fn shown(&self) -> Figure {
        let (low, high) = self.sequence.interval();
        let back = |x: f64| x * self.scale - self.shift;
        Figure {
            name: self.name.clone(),
            estimate: back(self.sequence.mean()),
            low: back(low),
            high: back(high),
            difference: self.difference,
            significant: self.null.map(|_| self.significant()),
        }
    }
}

/// A watched figure when the run stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Figure {
    /// What it is (`Left win rate minus Right win rate`).
    pub name: String,
    /// Its value over the games played.
    pub estimate: f64,
    /// The low end of the confidence sequence's interval when the run stopped.
    pub low: f64,
    /// Its high end.
    pub high: f64,
    /// A difference, in points, rather than a rate.
    pub difference: bool,
    /// For a difference tested against 0: whether the interval leaves it out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub significant: Option<bool>,
}

/// Why and when a sequential run stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stopping {
    /// What it waited for.
    pub goal: Goal,
    /// The most games it could play (`-n`).
    pub cap: u64,
    /// The games it played.
    pub games: u64,
    /// Whether the question was answered (`false`: it reached the cap first).
    pub answered: bool,
    /// The error rate of each interval (0.05, or 0.05 shared among several differences).
    pub alpha_each: f64,
    /// Observations: one per deal (a rotation of the seats on one seed).
    pub observations: u64,
    /// The figures it watched, as they stood when it stopped.
    pub figures: Vec<Figure>,
}

impl Stopping {
    /// The "Stopping" section of the text report.
    pub fn to_text(&self) -> String {
        let points = |x: f64| format!("{:+.1}", 100.0 * x);
        let mut out = String::from("Stopping (answers as soon as they are sure; see docs/metrics.md)\n");
        let asked = match self.goal {
            Goal::Significant => "a significant difference".to_string(),
            Goal::Precision(p) => format!("every rate within ±{:.2} points (95%)", 100.0 * p),
        };
        out += &format!(
            "  asked for {asked} ({}), at most {} games\n",
            self.goal.flag(),
            self.cap
        );
        let why = match (self.answered, self.goal) {
            (true, Goal::Significant) => "the difference is significant".to_string(),
            (true, Goal::Precision(_)) => "every rate is as precise as asked".to_string(),
            (false, Goal::Significant) => "it reached -n with no significant difference".to_string(),
            (false, Goal::Precision(_)) => "it reached -n before every rate was as precise as asked".to_string(),
        };
        out += &format!("  stopped after {} games: {why}\n", self.games);
        let width = self.figures.iter().map(|f| f.name.len()).max().unwrap_or(0);
        for figure in &self.figures {
            let mark = if figure.significant == Some(true) { " *" } else { "" };
            let (estimate, low, high) = if figure.difference {
                (points(figure.estimate), points(figure.low), points(figure.high))
            } else {
                (
                    format!("{:.1}%", 100.0 * figure.estimate),
                    format!("{:.1}%", 100.0 * figure.low),
                    format!("{:.1}%", 100.0 * figure.high),
                )
            };
            let unit = if figure.difference { " pts" } else { "" };
            out += &format!(
                "  {:<width$}  {estimate}{unit}, 95% confidence sequence {low} to {high}{unit}{mark}\n",
                figure.name
            );
        }
        let per = if self.observations == self.games {
            "game"
        } else {
            "deal (the games of one rotation of the seats)"
        };
        out += "  every interval here holds at any stopping point: an empirical Bernstein confidence sequence\n";
        out += &format!("  over one observation per {per}");
        if self.alpha_each < ALPHA {
            out += &format!(
                ", each at {:.1}% so that all hold together at 95%",
                100.0 * (1.0 - self.alpha_each)
            );
        }
        out += "\n";
        out
    }
}

/// Games in the next batch after `played`: at least 32 deals, and an eighth
/// of what was played, so a run plays at most an eighth more than it needed;
/// never past `cap`. It depends on nothing else, so the stopping point is
/// the same at any thread count.
fn next_batch(played: u64, cap: u64, deal: u64) -> u64 {
    batch_after(played, cap, deal, 32)
}

/// [`next_batch`] with at least `least_deals` deals a batch (`analyze`,
/// whose games are slow, looks after fewer).
pub(crate) fn batch_after(played: u64, cap: u64, deal: u64, least_deals: u64) -> u64 {
    let wanted = (played / 8).max(least_deals * deal).div_ceil(deal) * deal;
    wanted.min(cap - played)
}

/// Who a run's rates are about: the seats, or the agents when they differ.
struct Units {
    names: Vec<String>,
    /// Games per deal: the seats when they rotate, otherwise 1.
    deal: u64,
    /// Agents rotate through the seats: game `i` is arrangement `i mod seats`.
    rotated: bool,
}

impl Units {
    fn new(plan: &Plan, seats: &[String], by_agents: bool) -> Result<Units, String> {
        let mut specs = parse_spec(&plan.agents)?;
        if specs.len() == 1 {
            specs = vec![specs[0].clone(); seats.len()];
        }
        let mixed = specs.iter().any(|s| *s != specs[0]);
        let rotated = mixed && plan.rotate_seats;
        let names = if mixed && by_agents {
            specs
                .iter()
                .enumerate()
                .map(|(a, s)| format!("{} (agent {})", s.to_text(), a + 1))
                .collect()
        } else {
            seats.to_vec()
        };
        Ok(Units {
            names,
            deal: if rotated { seats.len() as u64 } else { 1 },
            rotated: rotated && by_agents,
        })
    }

    /// The unit that won `game`, if anyone did.
    fn winner(&self, game: &GameRecord) -> Option<usize> {
        let GameResult::Win(seat) = game.result else {
            return None;
        };
        if !self.rotated {
            return Some(seat);
        }
        let seats = self.names.len();
        let arrangement = (game.index % seats as u64) as usize;
        Some((seat + seats - arrangement) % seats)
    }

    /// Per deal of `games` (whole deals, in order): each unit's share of its games won.
    fn shares(&self, games: &[GameRecord]) -> Vec<Vec<f64>> {
        games
            .chunks(self.deal as usize)
            .filter(|deal| deal.len() as u64 == self.deal)
            .map(|deal| {
                let mut won = vec![0.0; self.names.len()];
                for game in deal {
                    if let Some(u) = self.winner(game) {
                        won[u] += 1.0 / deal.len() as f64;
                    }
                }
                won
            })
            .collect()
    }
}

/// The figures a `simulate` run watches, and how each deal feeds them.
fn simulate_figures(units: &Units, goal: Goal, horizon: u64) -> Result<(Vec<Tracked>, f64), String> {
    let k = units.names.len();
    match goal {
        Goal::Precision(p) => Ok((
            units
                .names
                .iter()
                .map(|name| Tracked {
                    name: format!("{name} win rate"),
                    sequence: ConfidenceSequence::new(ALPHA, Bets::HalfWidth(p)),
                    scale: 1.0,
                    shift: 0.0,
                    difference: false,
                    null: None,
                })
                .collect(),
            ALPHA,
        )),
        Goal::Significant if k < 2 => {
            Err("--until-significant compares the seats' win rates, and this game has one seat; use --precision".into())
        }
        Goal::Significant if k == 2 => Ok((
            vec![difference(
                format!("{} win rate minus {} win rate", units.names[0], units.names[1]),
                1.0,
                ALPHA,
                horizon,
            )],
            ALPHA,
        )),
        Goal::Significant => {
            let alpha = ALPHA / k as f64;
            let rest = 1.0 / (k as f64 - 1.0);
            Ok((
                units
                    .names
                    .iter()
                    .map(|name| difference(format!("{name} win rate minus the others' mean"), rest, alpha, horizon))
                    .collect(),
                alpha,
            ))
        }
    }
}

/// A difference between win shares that lies in `[-low, 1]`, tested against 0.
fn difference(name: String, low: f64, alpha: f64, horizon: u64) -> Tracked {
    Tracked {
        name,
        sequence: ConfidenceSequence::new(alpha, Bets::Horizon(horizon)),
        scale: 1.0 + low,
        shift: low,
        difference: true,
        null: Some(0.0),
    }
}

/// Feeds one deal's win shares into a `simulate` run's figures.
fn feed_simulate(figures: &mut [Tracked], shares: &[f64], goal: Goal) {
    let k = shares.len();
    match goal {
        Goal::Precision(_) => {
            for (f, &s) in figures.iter_mut().zip(shares) {
                f.push(s);
            }
        }
        Goal::Significant if k == 2 => figures[0].push(shares[0] - shares[1]),
        Goal::Significant => {
            let total: f64 = shares.iter().sum();
            for (u, f) in figures.iter_mut().enumerate() {
                f.push(shares[u] - (total - shares[u]) / (k as f64 - 1.0));
            }
        }
    }
}

/// Whether the figures answer the question.
fn answered(figures: &[Tracked], goal: Goal) -> bool {
    match goal {
        Goal::Significant => figures.iter().any(Tracked::significant),
        Goal::Precision(p) => figures.iter().all(|f| f.sequence.steps() > 0 && f.half_width() <= p),
    }
}

/// A run's report and a record of each of its games.
pub type Played = (Report, Vec<GameRecord>);

/// One arm of a run: the merged report of the batches so far and their games.
struct Arm {
    report: Option<Report>,
    games: Vec<GameRecord>,
}

impl Arm {
    fn new() -> Arm {
        Arm {
            report: None,
            games: vec![],
        }
    }

    /// Plays games `from..to` of `plan` and adds them; returns the new games' records.
    fn play(
        &mut self,
        def: &crate::engine::Game,
        options: &[OptionValue],
        plan: &Plan,
        (from, to): (u64, u64),
        jobs: usize,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<usize, String> {
        let batch = Plan {
            range: (from, to),
            ..plan.clone()
        };
        let (report, games) = simulate_games(def, options, &batch, jobs, progress)?;
        match &mut self.report {
            None => self.report = Some(report),
            Some(total) => total.merge(&report).map_err(|e| e.to_string())?,
        }
        let start = self.games.len();
        self.games.extend(games);
        Ok(start)
    }

    /// The report of the games played, as the report of a run of just that many.
    fn finish(self, played: u64) -> Played {
        let mut report = self.report.expect("a sequential run plays at least one batch");
        report.planned = played;
        (report, self.games)
    }
}

/// [`simulate_games`](super::simulate_games) that stops as soon as `goal`
/// is met, playing at most `plan.games` games from game 0 (`plan.range` is
/// ignored). The report is that of a run of as many games as were played.
pub fn simulate_until(
    def: &crate::engine::Game,
    options: &[OptionValue],
    plan: &Plan,
    goal: Goal,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Report, Vec<GameRecord>, Stopping), String> {
    check_goal(goal)?;
    let units = Units::new(plan, &def.seats, true)?;
    let cap = plan.games;
    let (mut figures, alpha_each) = simulate_figures(&units, goal, cap / units.deal)?;
    let mut arm = Arm::new();
    let mut played = 0;
    let mut done = false;
    while played < cap && !done {
        let to = played + next_batch(played, cap, units.deal);
        let first = arm.play(def, options, plan, (played, to), jobs, progress)?;
        for shares in units.shares(&arm.games[first..]) {
            feed_simulate(&mut figures, &shares, goal);
        }
        played = to;
        done = answered(&figures, goal);
    }
    let (report, games) = arm.finish(played);
    let stopping = stopping(goal, cap, played, done, alpha_each, &figures);
    Ok((report, games, stopping))
}

/// Two runs of `compare` (base and variant, on the same seeds) that stop
/// as soon as `goal` is met: the watched figures are, per seat, the
/// variant's win rate minus the base's, one paired observation per deal.
pub fn compare_until(
    base: (&crate::engine::Game, &[OptionValue], &Plan),
    variant: (&crate::engine::Game, &[OptionValue], &Plan),
    goal: Goal,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Played, Played, Stopping), String> {
    check_goal(goal)?;
    let seats = &base.0.seats;
    if variant.0.seats.len() != seats.len() {
        return Err(
            "--until-significant and --precision compare the seats' win rates, and the two games have different seats"
                .into(),
        );
    }
    let units = Units::new(base.2, seats, false)?;
    let k = seats.len();
    let alpha_each = match goal {
        Goal::Significant => ALPHA / k as f64,
        Goal::Precision(_) => ALPHA,
    };
    let cap = base.2.games;
    let bets = match goal {
        // The difference lies in [-1, 1]: twice the [0, 1] scale.
        Goal::Precision(p) => Bets::HalfWidth(p / 2.0),
        Goal::Significant => Bets::Horizon(cap / units.deal),
    };
    let mut figures: Vec<Tracked> = seats
        .iter()
        .map(|seat| Tracked {
            name: format!("{seat} win rate, variant minus base"),
            sequence: ConfidenceSequence::new(alpha_each, bets),
            scale: 2.0,
            shift: 1.0,
            difference: true,
            null: matches!(goal, Goal::Significant).then_some(0.0),
        })
        .collect();
    let (mut base_arm, mut variant_arm) = (Arm::new(), Arm::new());
    let mut played = 0;
    let mut done = false;
    while played < cap && !done {
        let to = played + next_batch(played, cap, units.deal);
        let first = base_arm.play(base.0, base.1, base.2, (played, to), jobs, progress)?;
        variant_arm.play(variant.0, variant.1, variant.2, (played, to), jobs, progress)?;
        let before = units.shares(&base_arm.games[first..]);
        let after = units.shares(&variant_arm.games[first..]);
        for (b, v) in before.iter().zip(&after) {
            for (s, f) in figures.iter_mut().enumerate() {
                f.push(v[s] - b[s]);
            }
        }
        played = to;
        done = answered(&figures, goal);
    }
    let stopping = stopping(goal, cap, played, done, alpha_each, &figures);
    Ok((base_arm.finish(played), variant_arm.finish(played), stopping))
}

pub(crate) fn check_goal(goal: Goal) -> Result<(), String> {
    match goal {
        Goal::Precision(p) if !(p > 0.0 && p < 0.5) => Err(format!(
            "--precision {p}: give a half-width between 0 and 0.5, e.g. 0.01 for ±1 point"
        )),
        _ => Ok(()),
    }
}

fn stopping(goal: Goal, cap: u64, games: u64, answered: bool, alpha_each: f64, figures: &[Tracked]) -> Stopping {
    Stopping {
        goal,
        cap,
        games,
        answered,
        alpha_each,
        observations: figures.first().map_or(0, |f| f.sequence.steps()),
        figures: figures.iter().map(Tracked::shown).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_grow_by_an_eighth_and_keep_whole_deals() {
        assert_eq!(next_batch(0, 1000, 1), 32);
        assert_eq!(next_batch(0, 1000, 2), 64);
        assert_eq!(next_batch(800, 1000, 1), 100);
        assert_eq!(next_batch(990, 1000, 1), 10);
        assert_eq!(next_batch(8000, 100_000, 3), 1002);
    }

    #[test]
    fn the_interval_narrows_around_the_mean() {
        let mut cs = ConfidenceSequence::new(ALPHA, Bets::Horizon(4000));
        for i in 0..4000 {
            cs.push(if i % 4 == 0 { 1.0 } else { 0.0 });
        }
        let (low, high) = cs.interval();
        assert!(low < 0.25 && 0.25 < high, "{low} {high}");
        assert!(high - low < 0.1, "{low} {high}");
        assert!(cs.excludes(0.5));
    }

    #[test]
    fn a_precision_target_is_met_sooner_than_without_it() {
        let stream = |target| {
            let mut cs = ConfidenceSequence::new(ALPHA, target);
            (1..)
                .find(|&i| {
                    cs.push(if i % 2 == 0 { 1.0 } else { 0.0 });
                    cs.half_width() <= 0.02
                })
                .expect("it narrows")
        };
        let (tuned, untuned) = (stream(Bets::HalfWidth(0.02)), stream(Bets::Horizon(1_000_000)));
        assert!(tuned < untuned, "{tuned} {untuned}");
        // A fixed-size 95% interval needs about 2,400 games for ±2 points; a
        // sequence that holds at every step needs more, but not many times more.
        assert!((2400..6000).contains(&tuned), "{tuned}");
    }
}
