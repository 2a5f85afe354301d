//! `compare` from the page: a base and a variant under PATH, played on the
//! same seeds by the same code as `rpsdsl compare` ([`crate::sim`]), on a
//! blocking thread, a few games at a time so that the page sees progress
//! and can stop it. The result is the command's text and its `--html` page.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use crate::load::LoadedGame;
use crate::sim::{self, Comparison, GameRecord, Plan, Report};

/// The most games a comparison from the page plays per side.
pub(crate) const MAX_GAMES: u64 = 5000;

/// How many games are played between two looks at the stop button: a
/// run is the merge of such shards, which `Report::merge` makes exact.
const CHUNK: u64 = 20;

/// One comparison or study, running or done.
pub(crate) struct Job {
    /// Work done so far: games played, both sides together, or for a
    /// study bounded by time, tenths of a second spent.
    done: AtomicU64,
    /// Work to do, in the same unit.
    pub(crate) total: u64,
    /// Deals played so far, for a study that plays deals.
    deals: AtomicU64,
    stop: Arc<AtomicBool>,
    outcome: Mutex<Option<Outcome>>,
    /// Bumped at every chunk and at the end, for the page's live progress.
    pub(crate) changed: watch::Sender<u64>,
}

/// How a comparison ended.
#[derive(Clone)]
pub(crate) enum Outcome {
    /// The report as `rpsdsl compare` prints it, and its `--html` page.
    Done { text: String, html: String },
    /// Stopped from the page.
    Stopped,
    /// A game or the report failed: why.
    Failed(String),
}

/// What to compare: two loaded games (their files as the studio names them).
pub(crate) struct Sides {
    pub(crate) base: (String, LoadedGame),
    pub(crate) variant: (String, LoadedGame),
    pub(crate) games: u64,
    pub(crate) agents: String,
    pub(crate) seed: u64,
}

impl Job {
    pub(crate) fn new(games: u64) -> Job {
        Job::of(2 * games)
    }

    /// A job of `total` units of work (see [`Job::done`]).
    pub(crate) fn of(total: u64) -> Job {
        Job {
            done: AtomicU64::new(0),
            total,
            deals: AtomicU64::new(0),
            stop: Arc::new(AtomicBool::new(false)),
            outcome: Mutex::new(None),
            changed: watch::channel(0).0,
        }
    }

    /// The flag Stop sets, for a run that looks at it between batches.
    pub(crate) fn halt(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether Stop was pressed.
    pub(crate) fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Tells the page how far the run is: `done` units, `deals` deals.
    pub(crate) fn progress(&self, done: u64, deals: u64) {
        self.done.store(done.min(self.total), Ordering::Relaxed);
        self.deals.store(deals, Ordering::Relaxed);
        self.changed.send_modify(|n| *n += 1);
    }

    /// Deals played so far.
    pub(crate) fn deals(&self) -> u64 {
        self.deals.load(Ordering::Relaxed)
    }

    /// Keeps how the run ended, and tells the page.
    pub(crate) fn finish(&self, outcome: Outcome) {
        *self.outcome.lock().unwrap_or_else(|e| e.into_inner()) = Some(outcome);
        self.changed.send_modify(|n| *n += 1);
    }

    /// Games played so far, both sides together.
    pub(crate) fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Asks the run to stop after the games it is playing.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// How it ended, once it has.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        self.outcome.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Plays the comparison (on a blocking thread) and keeps how it ended.
    pub(crate) fn run(self: &Arc<Job>, sides: &Sides) {
        self.finish(self.compare(sides).unwrap_or_else(Outcome::Failed));
    }

    fn compare(&self, sides: &Sides) -> Result<Outcome, String> {
        let mut reports = vec![];
        for (rules, game) in [&sides.base, &sides.variant] {
            // The same seed and game indices for both: common random numbers.
            match self.side(rules, game, (sides.games, &sides.agents, sides.seed))? {
                Some(side) => reports.push(side),
                None => return Ok(Outcome::Stopped),
            }
        }
        let (variant, variant_games) = reports.pop().expect("two sides");
        let (base, base_games) = reports.pop().expect("two sides");
        let comparison = Comparison::new(base, variant);
        let html = sim::html::compare_page(&comparison, &base_games, &variant_games).map_err(|e| e.to_string())?;
        Ok(Outcome::Done {
            text: comparison.to_text(),
            html,
        })
    }

    /// One game's report and games over `games` games of `agents` from
    /// `seed`, shard by shard (as `simulate` plays them); `None` when stopped.
    pub(crate) fn side(
        &self,
        rules: &str,
        game: &LoadedGame,
        (games, agents, seed): (u64, &str, u64),
    ) -> Result<Option<(Report, Vec<GameRecord>)>, String> {
        let mut plan = Plan {
            rules: crate::text::printable_string(rules),
            seed,
            agents: crate::text::printable_string(agents),
            options: crate::load::changed_options(&game.def, &game.options),
            games,
            range: (0, 0),
            rotate_seats: true,
        };
        let mut whole: Option<Report> = None;
        let mut records = vec![];
        let tick = |n: u64| {
            self.done.fetch_add(n, Ordering::Relaxed);
        };
        for start in (0..games).step_by(CHUNK as usize) {
            if self.stopping() {
                return Ok(None);
            }
            plan.range = (start, (start + CHUNK).min(games));
            let (report, games) = sim::simulate_games(&game.def, &game.options, &plan, 1, &tick)?;
            records.extend(games);
            match &mut whole {
                None => whole = Some(report),
                Some(whole) => whole.merge(&report).map_err(|e| e.to_string())?,
            }
            self.changed.send_modify(|n| *n += 1);
        }
        Ok(whole.map(|w| (w, records)))
    }
}
