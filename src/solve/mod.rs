//! `rpsdsl solve`: equilibrium strategies and exploitability, straight from
//! the rules.
//!
//! The engine plays out every decision and every chance outcome into a tree
//! ([`Tree`]), whose information sets come from what each seat's view lets
//! it know. CFR+ ([`Cfr`]) runs on the whole tree; its average strategy
//! converges to a Nash equilibrium in a two-seat zero-sum game, and a best
//! response ([`Tree::best_response_value`]) measures how far it still is:
//! NashConv, and exploitability (NashConv over the seats).
//!
//! [`exploit`] measures players instead: the best response to any lineup
//! of agents, and what each seat's agent leaves on the table.
//!
//! A game whose tree does not fit is solved by sampling instead:
//! external-sampling Monte Carlo CFR ([`Sampler`]) plays the engine from
//! fresh deals, and keeps regrets only for the information sets it meets.
//!
//! For more seats, or a game that is not zero-sum, CFR's average strategy
//! is a coarse correlated equilibrium at best; the answer says so.

mod answer;
mod cfr;
mod estimate;
mod exploit;
mod mccfr;
mod outcome;
mod policy_file;
mod profile;
mod respond;
mod run;
mod sample;
mod tree;

pub use answer::{
    CUT_TOLERANCE, Checkpoint, DEFAULT_NODES, Method, NODES_PER_SECOND, Progress, SAMPLED_DEPTH, SampledRun, Settings,
    Situation, Solution, TreeSize, nodes_for,
};
pub use cfr::Cfr;
pub use exploit::{Exploit, ExploitMethod, ExploitSettings, exploit};
pub use mccfr::TreeMccfr;
pub use policy_file::policy_file;
pub use profile::Profile;
pub use respond::{BATCH_GAMES, Learning, Learnt, Lineup, MEASURE_FIXED, MEASURE_MOST, Mean, TRAINED_GAMES};
pub use run::solve;
pub use sample::play::TRAINED_VISITS;
pub use sample::{BATCH, EXTERNAL_LIMIT, SampledSet, Sampler, Sampling};
pub use tree::{InfoSet, Limits, Payoff, Tree};
