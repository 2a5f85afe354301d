//! Studies from the page: `simulate`, `verdict` and `sweep` on files under
//! PATH, run by the same code as the commands ([`crate::sim`]) on a
//! blocking thread. The page follows their progress and may stop them (a
//! verdict or a sweep then ends at its next batch and keeps what it has,
//! as when its time runs out). What a study leaves is the command's text
//! and its `--html` page, kept as a comparison's is, in a [`Job`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::compare::{Job, Outcome};
use crate::load::LoadedGame;
use crate::sim::sweep::{self, Target};
use crate::sim::verdict::{self, Config, Side};

/// The most seconds a verdict or a sweep from the page may take.
pub(crate) const MOST_SECONDS: f64 = 600.0;

/// A study's work, as [`Job::done`] counts it: tenths of a second.
pub(crate) const TICKS_PER_SECOND: f64 = 10.0;

/// A study to run, its files loaded and checked.
pub(crate) enum Study {
    /// `rpsdsl simulate FILE --games N --agents A --seed S`.
    Simulate {
        file: Box<(String, LoadedGame)>,
        games: u64,
        agents: String,
        seed: u64,
    },
    /// `rpsdsl verdict BASE VARIANT`, its budget and players.
    Verdict {
        sides: Box<[(String, LoadedGame); 2]>,
        run: Run,
    },
    /// `rpsdsl sweep FILE --vary NAME=VALUES`, one game per value.
    Sweep {
        file: String,
        points: Vec<(String, LoadedGame)>,
        target: Option<Target>,
        run: Run,
    },
}

/// What a verdict or a sweep is given, as their commands' flags.
pub(crate) struct Run {
    pub(crate) seconds: f64,
    /// The strong and the weak player; `None`: chosen to fit the time.
    pub(crate) players: Option<(String, String)>,
    pub(crate) deals: u64,
    pub(crate) seed: u64,
}

impl Run {
    fn config(&self, job: &Job) -> Config {
        Config {
            players: self.players.clone(),
            time: Duration::from_secs_f64(self.seconds),
            most_deals: self.deals,
            seed: self.seed,
            jobs: 0,
            halt: Some(job.halt()),
        }
    }
}

impl Study {
    /// How much work the study is, as its job counts it: games for a
    /// simulation, tenths of a second for the others.
    pub(crate) fn total(&self) -> u64 {
        match self {
            Study::Simulate { games, .. } => *games,
            Study::Verdict { run, .. } | Study::Sweep { run, .. } => (run.seconds * TICKS_PER_SECOND).ceil() as u64,
        }
    }

    /// Runs the study (on a blocking thread) and keeps how it ended in `job`.
    pub(crate) fn run(&self, job: &Arc<Job>) {
        job.finish(self.play(job).unwrap_or_else(Outcome::Failed));
    }

    fn play(&self, job: &Job) -> Result<Outcome, String> {
        let started = Instant::now();
        let spent = || (started.elapsed().as_secs_f64() * TICKS_PER_SECOND) as u64;
        match self {
            Study::Simulate {
                file,
                games,
                agents,
                seed,
            } => {
                let (rules, game) = &**file;
                let Some((report, records)) = job.side(rules, game, (*games, agents, *seed))? else {
                    return Ok(Outcome::Stopped);
                };
                let html = crate::sim::html::simulate_page(&report, &records).map_err(|e| e.to_string())?;
                Ok(Outcome::Done {
                    text: report.to_text(),
                    html,
                })
            }
            Study::Verdict { sides, run } => {
                let [base, variant] = [&sides[0], &sides[1]].map(|(label, game)| side(label, game));
                let found = verdict::verdict(&base, &variant, &run.config(job), &|deals, _| {
                    job.progress(spent(), deals);
                })?;
                let text = found.to_text();
                let html = crate::sim::html::verdict_page(&found, &text).map_err(|e| e.to_string())?;
                Ok(Outcome::Done { text, html })
            }
            Study::Sweep {
                file,
                points,
                target,
                run,
            } => {
                let sides: Vec<Side<'_>> = points.iter().map(|(label, game)| side(label, game)).collect();
                let found = sweep::sweep(file, &sides, &run.config(job), *target, &|deals| {
                    job.progress(spent(), deals);
                })?;
                let text = found.to_text();
                let html = crate::sim::html::sweep_page(&found, &text).map_err(|e| e.to_string())?;
                Ok(Outcome::Done { text, html })
            }
        }
    }
}

fn side<'g>(label: &str, game: &'g LoadedGame) -> Side<'g> {
    Side {
        def: &game.def,
        options: &game.options,
        label: crate::text::printable_string(label),
    }
}
