//! Simulation: play many games in parallel and report how the game behaves
//! (who wins, how long games last, how they end, which rules fire).
//!
//! [`simulate`] plays the games of a [`Plan`] and returns a [`Report`] of
//! sufficient statistics (counts, integer sums, exact histograms), so shard
//! reports [`merge`](Report::merge) into exactly the report of one run, and
//! the result is the same for every thread count. [`Comparison`] sets two
//! reports side by side with significance tests. Every metric is defined in
//! `docs/metrics.md`.
//!
//! Game `i` of a run with seed `S` is played with seed [`game_seed`]`(S, i)`,
//! so `rpsdsl run --seed` replays any single game.

mod compare;
mod reach;
mod render;
mod report;
mod run;
pub(crate) mod stats;

pub use compare::{Comparison, Measure, Row, unrelated};
pub use render::METRICS_DOC;
pub use report::{
    AgentSummary, ByAgent, Coverage, FORMAT, Length, MergeError, Part, Plan, Report, ReportJson, ScoreSummary, Scores,
    Spread, Stop, Summary, Together,
};
pub use run::{MAX_JOBS, game_seed, shard_range, simulate};
pub use stats::Rate;
