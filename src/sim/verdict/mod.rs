//! `rpsdsl verdict`: did the variant make the game better, with players
//! who play well? One line per question (fair, short, decisive, skill,
//! tension), each read from a 95% confidence sequence on the same deals in
//! both games, so the answer stays valid wherever the run stops.
//!
//! Every deal is played in both games: once with the strong player in every
//! seat (fair, short, decisive, tension), and, seats rotated, the strong
//! player against random and against the weak one (skill, and whether the
//! players differ at all). A question stops costing games once it is
//! settled: self-play stops when its four questions are, the matchups when
//! skill and the players' separation are. The questions stop when every
//! one is settled, the deals run out, or their share of the time does; the
//! rest of the budget prices the strong player's choices by restricted play
//! (`verdict::choices`); `verdict::players` chooses who plays.

mod basis;
mod choices;
mod coverage;
mod players;
mod saturation;
mod text;

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

pub(crate) use self::basis::{BATCH_DEALS, Watch, either_way, games_per_deal, one, share};
pub use self::basis::{Config, Side};
pub use self::choices::{ChoiceFigures, ChoiceWorth, Choices};
pub(crate) use self::players::{Scales, players_for};
use super::analyze::{GameTension, Pick, Stops, counters, play, running_lead};
pub use super::stats::Interval;
use super::stats::game_seed;
pub use super::strength::Saturation;
use crate::agents::spec::AgentSpec;

/// The share of the budget the questions may take; the rest measures what
/// the choices are worth (the questions' leftover time too, when they settle early).
const QUESTIONS_SHARE: f64 = 0.6;

/// The share of the budget the default players' games are sized to fit
/// (a search's deals at least 160 times in it).
const FIT_SHARE: f64 = 0.56;

/// The half-width of the skill answer's interval at which the matchups
/// stop, when it still covers no change: finer than any designer asks.
const SKILL_RESOLUTION: f64 = 0.05;

/// The share of the budget, after the questions', that checks whether the
/// strong player is strong ([`saturation`]).
const SATURATION_SHARE: f64 = 0.25;

/// One question's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Question {
    /// `fair`, `short`, `decisive`, `skill` or `tension`.
    pub question: &'static str,
    /// The answer in a word: `fairer`, `less fair`, ... or `no clear change`.
    pub answer: String,
    /// +1: the variant is better at it; -1: worse; 0: no clear change.
    pub direction: i8,
    /// What is measured, per deal.
    pub measure: std::borrow::Cow<'static, str>,
    /// The base's figure.
    pub base: Interval,
    /// The variant's.
    pub variant: Interval,
    /// The variant's minus the base's, paired by deal (`None` for
    /// fairness, judged on the two figures' sizes).
    pub difference: Option<Interval>,
    /// Deals it was judged on.
    pub deals: u64,
    /// Figures that say more about the question without deciding it (for
    /// decisive: the margins, and how early games are decided).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub details: Vec<Detail>,
    /// Why it was not judged, when it was not: no lead for tension,
    /// players not shown to differ for skill.
    pub skipped: Option<String>,
}

/// A figure beside a question, base and variant.
#[derive(Clone, Debug, Serialize)]
pub struct Detail {
    /// What is measured.
    pub measure: std::borrow::Cow<'static, str>,
    /// The base's figure (`None`: no game counted).
    pub base: Option<Interval>,
    /// The variant's.
    pub variant: Option<Interval>,
}

/// Whether the strong player is shown to play better, in one game.
#[derive(Clone, Debug, Serialize)]
pub struct Separation {
    /// Strong against weak, seats rotated: the strong player's edge.
    pub strong_vs_weak: Interval,
    /// Strong against random.
    pub strong_vs_random: Interval,
    /// Both edges' intervals lie above 0.
    pub separated: bool,
}

/// The whole verdict.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// The base game's file.
    pub base: String,
    /// The variant's.
    pub variant: String,
    /// The strong player.
    pub strong: String,
    /// The weak player.
    pub weak: String,
    /// Whether the players were chosen to fit the budget.
    pub players_chosen: bool,
    /// Why they were chosen, when they were.
    pub players_why: Option<String>,
    /// Per game (base, variant), the strong player's exploitability where
    /// it is known: a solved strategy's, as the solver measured it.
    pub strong_exploitability: [Option<f64>; 2],
    /// Whether the strong player is shown to be strong: the same player at
    /// four times its budget does no better than it by more than 0.05.
    pub saturation: Saturation,
    /// The seed.
    pub seed: u64,
    /// The budget, in seconds.
    pub budget_seconds: f64,
    /// Time spent.
    pub seconds: f64,
    /// Deals played with the strong player in every seat.
    pub self_play_deals: u64,
    /// Deals played in the matchups.
    pub matchup_deals: u64,
    /// Per game (base, variant): whether the players differ.
    pub separation: [Separation; 2],
    /// One answer per question.
    pub questions: Vec<Question>,
    /// The strong player's choices, their worth and how it shifted.
    pub choices: Choices,
    /// How often each effect of the rules fired in the strong player's
    /// self-play: each ending, trigger and `say` line, base and variant.
    pub coverage: Vec<coverage::CoverageRow>,
    /// Why the run stopped.
    pub stopped: String,
    /// Per game (base, variant): the games the questions played, and those
    /// an error stopped.
    pub stops: [Stops; 2],
}

/// The figures one self-play deal gives, in one game.
pub(super) struct SelfPlay {
    /// The first seat's edge: its win share minus the others' mean.
    pub(super) edge: f64,
    /// Decision points.
    pub(super) length: f64,
    pub(super) drawn: bool,
    pub(super) lead_changes: Option<f64>,
    /// For a won game with score terms: the winner's final margin in
    /// points, and whether it led alone for good from the first half on.
    pub(super) won: Option<(f64, bool)>,
    /// Every choice made (for the choice study).
    pub(super) picks: Vec<Pick>,
    /// Each of the game's counters at the end, every seat's summed
    /// (`analyze::counters`); empty for a game that did not end.
    pub(super) counters: Vec<i64>,
    /// Times each trigger and `say` line fired (`analyze::Played::effects`).
    pub(super) effects: Vec<u32>,
    /// Why the game ended, once it has.
    pub(super) end: Option<crate::engine::EndReason>,
}

/// One game's share of a side's work, per deal.
pub(super) struct Deal {
    pub(super) self_play: Option<SelfPlay>,
    /// Strong against random, and against weak: the strong player's edge.
    pub(super) matchups: Option<(f64, f64)>,
    /// A game of the deal was cut short by the command's deadline: the
    /// deal is discarded.
    pub(super) cut_short: bool,
    /// Its games, and those an error stopped.
    pub(super) stops: Stops,
}

/// The strong and weak players `verdict` would choose for `base` and
/// `variant` under `config` (or check the ones it names), as agent specs:
/// for benchmarks that set them against other players.
pub fn players(base: &Side<'_>, variant: &Side<'_>, config: &Config) -> Result<(String, String), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let lineup = players_for(&[base, variant], base.def.players(), (config, FIT_SHARE), &pool)?;
    Ok((lineup.strong.to_text(), lineup.weak.to_text()))
}

/// The verdict on `base` and `variant`, played on the same deals.
/// `progress` is told the deals played so far and the questions still open.
pub fn verdict(
    base: &Side<'_>,
    variant: &Side<'_>,
    config: &Config,
    progress: &(dyn Fn(u64, &[&str]) + Sync),
) -> Result<Verdict, String> {
    let started = Instant::now();
    let seats = base.def.players();
    if seats < 2 || variant.def.players() != seats {
        return Err(format!(
            "the verdict pits players against each other on the same seats: the base has {seats} seats and the \
             variant {}",
            variant.def.players()
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let random = one("random")?;
    let lineup = players_for(&[base, variant], seats, (config, FIT_SHARE), &pool)?;
    let (strong, weak) = (&lineup.strong, &lineup.weak);
    let questions_time = config.time.mul_f64(QUESTIONS_SHARE);
    // The sequences are tightest at the deals the budget is expected to
    // hold: sizing them for more would widen every interval on the way.
    let per_deal = lineup.seconds_per_game * games_per_deal(seats, 2, 1.0) / pool.current_num_threads() as f64;
    let expected = (questions_time.as_secs_f64() / per_deal.max(1e-9)) as u64;
    let horizon = expected.clamp(16, config.most_deals.max(16));
    let mut watches = Watches::new(
        lineup.scales,
        horizon,
        shared_lead([base, variant]),
        shared_counters([base, variant]),
    );
    let mut tallies = [choices::Tally::new(base.def), choices::Tally::new(variant.def)];
    let mut fired = [coverage::Tally::new(base.def), coverage::Tally::new(variant.def)];
    let mut deal = 0u64;
    let mut per_deal = Duration::ZERO;
    let mut stops = [Stops::default(), Stops::default()];
    let stopped = loop {
        let (self_open, matchups_open) = (watches.self_play_open(), watches.matchups_open());
        if !self_open && !matchups_open {
            break "every question is settled".to_string();
        }
        if deal >= config.most_deals {
            break format!("it played the most deals asked for ({})", config.most_deals);
        }
        if config.halted() {
            break "it was asked to stop".to_string();
        }
        if deal > 0 && started.elapsed() + per_deal.mul_f64(BATCH_DEALS as f64) > questions_time {
            break format!(
                "the questions' share of the time ran out ({:.0} s of {:.0})",
                questions_time.as_secs_f64(),
                config.time.as_secs_f64()
            );
        }
        let to = (deal + BATCH_DEALS).min(config.most_deals);
        let batch_started = Instant::now();
        let players = Players {
            strong,
            weak,
            random: &random,
        };
        let played: Vec<[Deal; 2]> = pool.install(|| {
            (deal..to)
                .into_par_iter()
                .map(|d| {
                    let seed = game_seed(config.seed, d);
                    [base, variant].map(|side| play_deal(side, seed, &players, self_open, matchups_open))
                })
                .collect()
        });
        per_deal = batch_started.elapsed().div_f64((to - deal) as f64);
        // A batch with a game the deadline cut short is dropped whole: what
        // is counted never depends on how far the threads had got.
        if played.iter().flatten().any(|d| d.cut_short) {
            break format!(
                "the time ran out ({:.0} s) with a batch of deals unfinished; it was not counted",
                config.time.as_secs_f64()
            );
        }
        for pair in &played {
            for (side_stops, game) in stops.iter_mut().zip(pair) {
                side_stops.add(&game.stops);
            }
            watches.push(pair);
            for ((tally, fired), (game, side)) in
                tallies.iter_mut().zip(&mut fired).zip(pair.iter().zip([base, variant]))
            {
                if let Some(s) = &game.self_play {
                    tally.add(&s.picks);
                    fired.add(side.def, &s.effects, s.end.as_ref());
                }
            }
        }
        deal = to;
        progress(deal, &watches.open());
    };
    let separation = watches.separation();
    let saturation = check_strength([base, variant], &lineup, (config, started, questions_time), &pool);
    let choices = choices::measure(
        [base, variant],
        &tallies,
        strong,
        (config.seed, config.most_deals),
        (config.deadline(started + config.time), lineup.seconds_per_game),
        &pool,
    );
    Ok(Verdict {
        base: base.label.clone(),
        variant: variant.label.clone(),
        strong: strong.to_text(),
        weak: weak.to_text(),
        players_chosen: lineup.chosen.is_some(),
        players_why: lineup.chosen.clone(),
        strong_exploitability: [lineup.exploitability[0], lineup.exploitability[1]],
        saturation,
        seed: config.seed,
        budget_seconds: config.time.as_secs_f64(),
        seconds: started.elapsed().as_secs_f64(),
        self_play_deals: watches.self_play_deals,
        matchup_deals: watches.matchup_deals,
        questions: with_tension_hint(watches.questions(&separation), base.def),
        separation,
        choices,
        coverage: coverage::rows(&fired),
        stopped,
        stops,
    })
}

/// Every figure the verdict watches, base and variant.
struct Watches {
    /// What a seat's lead is measured in, where both games keep one: their
    /// score terms (`points`), or the running lead a winning condition
    /// reads (`Token in tokens`).
    lead: Option<String>,
    /// The first seat's edge, per game.
    fair: [Watch; 2],
    /// Differences, variant minus base.
    short: Watch,
    decisive: Watch,
    tension: Watch,
    skill: Watch,
    /// Per game.
    lengths: [Watch; 2],
    draws: [Watch; 2],
    changes: [Watch; 2],
    over_random: [Watch; 2],
    over_weak: [Watch; 2],
    /// Won games' margins, and whether they were decided early, per game.
    margins: [Watch; 2],
    early: [Watch; 2],
    /// The counters both games keep, by name: each one's place in either
    /// game's counters, and its total at a game's end, per game.
    counters: Vec<(String, [usize; 2], [Watch; 2])>,
    self_play_deals: u64,
    matchup_deals: u64,
}

impl Watches {
    /// Lengths and lead changes lie within `scales.length`, margins
    /// within `scales.margin`; the sequences are tightest at `horizon` deals.
    fn new(scales: players::Scales, horizon: u64, lead: Option<String>, shared: Vec<(String, [usize; 2])>) -> Watches {
        let scale = scales.length;
        let pair = |range: (f64, f64)| [Watch::new(range, horizon), Watch::new(range, horizon)];
        let counters = shared
            .into_iter()
            .map(|(name, at)| (name, at, pair((0.0, scales.counter))))
            .collect();
        Watches {
            lead,
            fair: pair(either_way(1.0)),
            short: Watch::new(either_way(scale), horizon),
            decisive: Watch::new(either_way(1.0), horizon),
            tension: Watch::new(either_way(scales.changes), horizon),
            skill: Watch::new(either_way(2.0), horizon),
            lengths: pair((0.0, scale)),
            draws: pair((0.0, 1.0)),
            changes: pair((0.0, scales.changes)),
            over_random: pair(either_way(1.0)),
            over_weak: pair(either_way(1.0)),
            margins: pair((0.0, scales.margin)),
            early: pair((0.0, 1.0)),
            counters,
            self_play_deals: 0,
            matchup_deals: 0,
        }
    }

    /// Adds one deal, played in the base and the variant.
    fn push(&mut self, [b, v]: &[Deal; 2]) {
        if let (Some(b), Some(v)) = (&b.self_play, &v.self_play) {
            self.self_play_deals += 1;
            self.fair[0].push(b.edge);
            self.fair[1].push(v.edge);
            self.short.push(v.length - b.length);
            self.lengths[0].push(b.length);
            self.lengths[1].push(v.length);
            let drawn = |s: &SelfPlay| f64::from(u8::from(s.drawn));
            self.decisive.push(drawn(v) - drawn(b));
            self.draws[0].push(drawn(b));
            self.draws[1].push(drawn(v));
            for (game, s) in [b, v].into_iter().enumerate() {
                if let Some((margin, early)) = s.won {
                    self.margins[game].push(margin);
                    self.early[game].push(f64::from(u8::from(early)));
                }
            }
            for (_, at, watches) in &mut self.counters {
                for (game, s) in [b, v].into_iter().enumerate() {
                    if let Some(&total) = s.counters.get(at[game]) {
                        watches[game].push(total as f64);
                    }
                }
            }
            if let (Some(bc), Some(vc)) = (b.lead_changes, v.lead_changes) {
                self.tension.push(vc - bc);
                self.changes[0].push(bc);
                self.changes[1].push(vc);
            }
        }
        if let (Some(b), Some(v)) = (b.matchups, v.matchups) {
            self.matchup_deals += 1;
            self.skill.push(v.0 - b.0);
            self.over_random[0].push(b.0);
            self.over_random[1].push(v.0);
            self.over_weak[0].push(b.1);
            self.over_weak[1].push(v.1);
        }
    }

    /// Whether a self-play question is still open.
    fn self_play_open(&self) -> bool {
        fairness(&self.fair).1 == 0
            || !self.short.interval().excludes_zero()
            || !self.decisive.interval().excludes_zero()
            || (self.lead.is_some() && !self.tension.interval().excludes_zero())
    }

    /// Whether skill, or the players' separation, is still open. Skill
    /// closes when shown to change, or when its interval is narrower than
    /// ±[`SKILL_RESOLUTION`] around no change: the matchups cost four games
    /// a deal where self-play costs one, and self-play still has questions.
    fn matchups_open(&self) -> bool {
        let skill = self.skill.interval();
        let skill_open = !skill.excludes_zero() && (skill.high - skill.low) / 2.0 > SKILL_RESOLUTION;
        skill_open
            || !self.over_weak.iter().all(|w| w.interval().low > 0.0)
            || !self.over_random.iter().all(|w| w.interval().low > 0.0)
    }

    /// The questions not settled yet.
    fn open(&self) -> Vec<&'static str> {
        let mut open = vec![];
        if fairness(&self.fair).1 == 0 {
            open.push("fair");
        }
        for (name, watch) in [
            ("short", &self.short),
            ("decisive", &self.decisive),
            ("skill", &self.skill),
        ] {
            if !watch.interval().excludes_zero() {
                open.push(name);
            }
        }
        if self.lead.is_some() && !self.tension.interval().excludes_zero() {
            open.push("tension");
        }
        open
    }

    /// Per game, whether the strong player is shown to beat both others.
    fn separation(&self) -> [Separation; 2] {
        [0, 1].map(|i| {
            let (w, r) = (self.over_weak[i].interval(), self.over_random[i].interval());
            Separation {
                strong_vs_weak: w,
                strong_vs_random: r,
                separated: w.low > 0.0 && r.low > 0.0,
            }
        })
    }

    /// The answers.
    fn questions(&self, separation: &[Separation; 2]) -> Vec<Question> {
        let (fair_intervals, fair_direction) = fairness(&self.fair);
        let mut questions = vec![Question {
            question: "fair",
            answer: word(fair_direction, "fairer", "less fair"),
            direction: fair_direction,
            measure: "the first seat's edge, strong player in every seat (0 is fair)".into(),
            base: fair_intervals[0],
            variant: fair_intervals[1],
            difference: None,
            deals: self.self_play_deals,
            details: vec![],
            skipped: None,
        }];
        let mut short = paired(
            ("short", "decision points per game, strong player in every seat".into()),
            ("shorter", "longer"),
            (&self.short, &self.lengths),
            true,
        );
        // The length in the game's own units: its counters' totals.
        short.details = self
            .counters
            .iter()
            .map(|(name, _, watches)| {
                let figure = |watch: &Watch| (watch.steps() > 0).then(|| watch.interval());
                Detail {
                    measure: format!("`{name}` per game: every seat's at the end, summed").into(),
                    base: figure(&watches[0]),
                    variant: figure(&watches[1]),
                }
            })
            .collect();
        questions.push(short);
        let mut decisive = paired(
            (
                "decisive",
                "the share of games drawn, strong player in every seat".into(),
            ),
            ("more decisive", "less decisive"),
            (&self.decisive, &self.draws),
            true,
        );
        if let Some(lead) = &self.lead {
            let figure = |watch: &Watch| (watch.steps() > 0).then(|| watch.interval());
            decisive.details = vec![
                Detail {
                    measure: format!("the winner's final margin in {lead}, won games").into(),
                    base: figure(&self.margins[0]),
                    variant: figure(&self.margins[1]),
                },
                Detail {
                    measure: "the share of won games the winner led alone from the first half on".into(),
                    base: figure(&self.early[0]),
                    variant: figure(&self.early[1]),
                },
            ];
        }
        questions.push(decisive);
        let mut skill = paired(
            ("skill", "the strong player's edge over random, seats rotated".into()),
            ("more skill-driven", "less skill-driven"),
            (&self.skill, &self.over_random),
            false,
        );
        if !separation.iter().all(|s| s.separated) {
            skill.answer = "not judged".to_string();
            skill.direction = 0;
            skill.skipped =
                Some("the strong player was not shown to beat both the weak one and random in both games".into());
        }
        questions.push(skill);
        let tension_measure = match self.lead.as_deref() {
            Some(lead) if lead != POINTS => format!(
                "lead changes per game in {lead} (the rules decide the winner by it), strong player in every seat"
            )
            .into(),
            _ => "lead changes per game, strong player in every seat".into(),
        };
        let mut tension = paired(
            ("tension", tension_measure),
            ("more tense", "less tense"),
            (&self.tension, &self.changes),
            false,
        );
        if self.lead.is_none() {
            tension.answer = "not judged".to_string();
            tension.skipped = Some(
                "a game without score terms, whose winning conditions read no count or variable per player, has \
                 no lead to change"
                    .into(),
            );
        }
        questions.push(tension);
        questions
    }
}

/// What a lead is measured in where a game has score terms.
const POINTS: &str = "points";

/// The strong player's strength: its exploitability where it is a solved
/// strategy, else the check against four times its budget, in
/// [`SATURATION_SHARE`] of the budget from when the questions' time ended
/// (`questions_time` after `started`, or now if later).
fn check_strength(
    sides: [&Side<'_>; 2],
    lineup: &players::Lineup,
    (config, started, questions_time): (&Config, Instant, Duration),
    pool: &rayon::ThreadPool,
) -> Saturation {
    if lineup.exploitability.iter().all(Option::is_some) {
        return saturation::solved();
    }
    let share = config.time.mul_f64(SATURATION_SHARE);
    let until = (started + questions_time).max(Instant::now()) + share;
    // Its sequence is tightest at the deals its share is expected to
    // hold, not at the questions' (often many times more).
    let seats = sides[0].def.players();
    let per_deal = lineup.seconds_per_game * saturation::games_per_deal(seats, 2) / pool.current_num_threads() as f64;
    let expected = (share.as_secs_f64() / per_deal.max(1e-9)) as u64;
    saturation::check(
        sides,
        &lineup.strong,
        (
            config.seed,
            config.most_deals,
            expected.clamp(16, config.most_deals.max(16)),
        ),
        config.deadline(until.min(started + config.time)),
        pool,
    )
}

/// What both games measure a seat's lead in: `points` where both have
/// score terms; else the first running lead a winning condition reads,
/// where both read the same (`GameDef::leads`); else nothing, and tension
/// is not judged.
fn shared_lead(sides: [&Side<'_>; 2]) -> Option<String> {
    let [base, variant] = sides.map(|side| {
        if side.def.score_terms.is_empty() {
            running_lead(side.def).map(|(name, _)| format!("`{name}`"))
        } else {
            Some(POINTS.to_string())
        }
    });
    base.filter(|b| Some(b) == variant.as_ref())
}

/// The counters both games keep (by name), and each one's place in either
/// game's counters.
fn shared_counters(sides: [&Side<'_>; 2]) -> Vec<(String, [usize; 2])> {
    let [base, variant] = sides.map(|side| counters(side.def));
    base.iter()
        .enumerate()
        .filter_map(|(b, (name, _))| {
            let v = variant.iter().position(|(n, _)| n == name)?;
            Some((name.clone(), [b, v]))
        })
        .collect()
}

/// A tension not judged for want of score terms says how to judge it: a
/// score term from one of the game's own per-player counters, which the
/// designer knows to be a running lead (tokens, tricks) or not.
fn with_tension_hint(mut questions: Vec<Question>, def: &crate::ir::GameDef) -> Vec<Question> {
    let counter = def
        .vars
        .iter()
        .find(|v| v.each == crate::ir::VarEach::Player && !v.constant && v.shows == crate::ir::ValueKind::Number);
    let example = counter.map_or_else(
        || "`score per player { points: ... }`".to_string(),
        |v| format!("`score per player {{ {0}: {0} of player }}`", v.name),
    );
    for q in questions.iter_mut().filter(|q| q.question == "tension") {
        if let Some(why) = &mut q.skipped
            && why.ends_with("no lead to change")
        {
            why.push_str(&format!(": a score term such as {example} gives it one"));
        }
    }
    questions
}

/// A question answered by a paired difference: `better` and `worse` name
/// its answers; a difference whose interval lies below 0 is better when
/// `lower_is_better`.
fn paired(
    (question, measure): (&'static str, std::borrow::Cow<'static, str>),
    (better, worse): (&str, &str),
    (difference, sides): (&Watch, &[Watch; 2]),
    lower_is_better: bool,
) -> Question {
    let interval = difference.interval();
    let sign = if lower_is_better { -1 } else { 1 };
    let direction = if interval.low > 0.0 {
        sign
    } else if interval.high < 0.0 {
        -sign
    } else {
        0
    };
    Question {
        question,
        answer: word(direction, better, worse),
        direction,
        measure,
        base: sides[0].interval(),
        variant: sides[1].interval(),
        difference: Some(interval),
        deals: difference.sequence.steps(),
        details: vec![],
        skipped: None,
    }
}

fn word(direction: i8, better: &str, worse: &str) -> String {
    match direction {
        1 => better.to_string(),
        -1 => worse.to_string(),
        _ => "no clear change".to_string(),
    }
}

/// The two games' first-seat edges, and which is fairer: +1 when the
/// variant's edge is surely smaller in size than the base's, -1 when surely
/// larger, 0 when their sizes' intervals overlap.
fn fairness(fair: &[Watch; 2]) -> ([Interval; 2], i8) {
    let [b, v] = [fair[0].interval(), fair[1].interval()];
    // The size of an edge known to lie in [low, high].
    let size = |i: &Interval| {
        let least = if i.low > 0.0 {
            i.low
        } else if i.high < 0.0 {
            -i.high
        } else {
            0.0
        };
        (least, i.low.abs().max(i.high.abs()))
    };
    let (b_size, v_size) = (size(&b), size(&v));
    let direction = if fair[0].sequence.steps() == 0 {
        0
    } else if v_size.1 < b_size.0 {
        1
    } else if b_size.1 < v_size.0 {
        -1
    } else {
        0
    };
    ([b, v], direction)
}

pub(super) struct Players<'p> {
    pub(super) strong: &'p AgentSpec,
    pub(super) weak: &'p AgentSpec,
    pub(super) random: &'p AgentSpec,
}

/// One deal of one game: self-play, and the matchups, as asked.
pub(super) fn play_deal(side: &Side<'_>, seed: u64, players: &Players<'_>, self_play: bool, matchups: bool) -> Deal {
    let seats = side.def.players();
    // Whether the deadline cut any of the deal's games short.
    let cut_short = std::cell::Cell::new(false);
    let stops = std::cell::RefCell::new(Stops::default());
    let play_counted = |specs: &[AgentSpec]| {
        let played = play(side.def, side.options, seed, specs);
        cut_short.set(cut_short.get() || played.cut_short);
        stops.borrow_mut().count(&played);
        played
    };
    let self_play = self_play.then(|| {
        let played = play_counted(&vec![players.strong.clone(); seats]);
        // Lead changes do not depend on who won (a drawn game has them too).
        let lead_changes =
            GameTension::of(&played.standings, played.winner.unwrap_or(0)).map(|t| t.lead_changes as f64);
        let won = played
            .winner
            .and_then(|w| GameTension::of(&played.standings, w))
            .map(|t| {
                let early = t.leads_for_good_from.is_some_and(|from| 2 * from <= t.points + 1);
                (t.end_margin.max(0) as f64, early)
            });
        SelfPlay {
            edge: share(&played, 0, seats),
            length: played.steps as f64,
            drawn: played.winner.is_none() && !played.stopped,
            lead_changes,
            won,
            picks: played.picks,
            counters: played.counters,
            effects: played.effects,
            end: played.end,
        }
    });
    let matchups = matchups.then(|| {
        let edge = |other: &AgentSpec| {
            (0..seats)
                .map(|seat| {
                    let specs: Vec<AgentSpec> = (0..seats)
                        .map(|s| {
                            if s == seat {
                                players.strong.clone()
                            } else {
                                other.clone()
                            }
                        })
                        .collect();
                    share(&play_counted(&specs), seat, seats)
                })
                .sum::<f64>()
                / seats as f64
        };
        (edge(players.random), edge(players.weak))
    });
    Deal {
        self_play,
        matchups,
        cut_short: cut_short.get(),
        stops: stops.into_inner(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matchups(over_random: f64, over_weak: f64) -> Deal {
        Deal {
            self_play: None,
            matchups: Some((over_random, over_weak)),
            cut_short: false,
            stops: Stops::default(),
        }
    }

    /// A deal's cost in self-play games, counted seat by seat: two seats,
    /// a weak player a quarter the strong one's cost: 1 of self-play, then
    /// per seat 1/2 against random and 5/8 against the weak, in both games.
    #[test]
    fn a_deal_costs_its_games_seats_shares() {
        assert_eq!(games_per_deal(2, 2, 0.25), 2.0 * (1.0 + 2.0 * (0.5 + 0.625)));
        // A weak player as dear as the strong one: each matchup costs a
        // self-play game but its random seats.
        assert_eq!(games_per_deal(2, 1, 1.0), 1.0 + 2.0 * (0.5 + 1.0));
        assert_eq!(games_per_deal(3, 1, 1.0), 1.0 + 3.0 * (1.0 / 3.0 + 1.0));
    }

    /// The matchups stop once the players are separated and skill is known
    /// to within ±`SKILL_RESOLUTION` around no change; while the players
    /// are not shown to differ, they go on.
    #[test]
    fn the_matchups_stop_when_skill_is_known_closely_enough() {
        let scales = players::Scales {
            length: 30.0,
            changes: 3.0,
            margin: 10.0,
            counter: 10.0,
        };
        let mut separated = Watches::new(scales, 4000, None, vec![]);
        let mut deals = 0;
        while separated.matchups_open() && deals < 100_000 {
            // The strong player beats both in both games: no change in skill.
            separated.push(&[matchups(0.9, 0.4), matchups(0.9, 0.4)]);
            deals += 1;
        }
        assert!(!separated.matchups_open(), "still open after {deals} deals");
        let skill = separated.skill.interval();
        assert!(skill.low < 0.0 && skill.high > 0.0, "{skill:?}");
        assert!((skill.high - skill.low) / 2.0 <= SKILL_RESOLUTION, "{skill:?}");

        let mut unseparated = Watches::new(scales, 4000, None, vec![]);
        for _ in 0..deals {
            // No better than the weak player: separation is never shown.
            unseparated.push(&[matchups(0.9, 0.0), matchups(0.9, 0.0)]);
        }
        assert!(unseparated.matchups_open());
    }
}
