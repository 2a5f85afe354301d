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

pub mod analyze;
mod compare;
pub mod csv;
pub mod html;
mod record;
mod render;
mod report;
mod run;
pub mod sequential;
pub(crate) mod stats;
pub mod strength;
pub mod sweep;
pub mod verdict;

pub use compare::{Comparison, Measure, Row, unrelated};
pub use record::{GameRecord, GameResult};
pub use render::METRICS_DOC;
pub use report::{
    AgentSummary, ByAgent, Coverage, FORMAT, Length, MergeError, Part, Plan, Report, ReportJson, ScoreSummary, Scores,
    Spread, Stop, Summary, Together,
};
pub use run::{MAX_JOBS, shard_range, simulate, simulate_games};
pub use stats::Rate;
pub use stats::game_seed;
