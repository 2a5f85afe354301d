//! `solve`: a player that solves the game first, within the time it is
//! given, then plays the strategy found. A study's strong player, trained
//! within the study's budget and handed on to it.
//!
//! Players do not know the solver: the command line wires `rpsdsl solve`'s
//! in ([`set_trainer`]), so this room stays below the solver's. A process
//! trains each game (its rules, options and the player's parameters) once,
//! however many games or seats play it; the strategy is then a
//! [`Policy`], played as a saved one is.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use super::error::AgentError;
use super::policy::{Policy, PolicyAgent, PolicyFile, rules_identity};
use super::spec::{AgentInfo, Domain, ParamInfo, Params};
use crate::diagnostic::Code;
use crate::engine::{Game, Memory};
use crate::ir::{OptionValue, Seat};

/// How long, and how, to train.
#[derive(Clone, Debug, PartialEq)]
pub struct Training {
    /// Seconds, when the time bounds it.
    pub time: Option<f64>,
    /// Iterations, when they bound it (the strategy is then the same on
    /// every machine).
    pub iterations: Option<u64>,
    /// Seeds sampling, where the game is too large to solve whole.
    pub seed: u64,
    /// Where to keep the strategy as a policy file, if anywhere.
    pub save: Option<PathBuf>,
    /// Play to win games (a win 1, a loss paid by the losers) rather than
    /// to make the most of the game's score: a study that counts wins
    /// wants a player that plays for them.
    pub wins: bool,
    /// What its situations keep of the past.
    pub memory: Memory,
}

/// Solves a game within a [`Training`] and gives its strategy as a policy file.
pub type Trainer = fn(&Game, &[OptionValue], &Training) -> Result<PolicyFile, String>;

static TRAINER: OnceLock<Trainer> = OnceLock::new();

/// Wires the solver in, once per process (later calls change nothing).
pub fn set_trainer(trainer: Trainer) {
    let _ = TRAINER.set(trainer);
}

/// Seconds of training unless told otherwise.
pub const DEFAULT_SECONDS: f64 = 10.0;

/// The `solve` agent's documentation.
pub(crate) const INFO: AgentInfo = AgentInfo {
    name: "solve",
    about: "solves the game first, as `rpsdsl solve` does, then plays the strategy found: `solve:time=10`",
    params: &[
        ParamInfo {
            name: "time",
            default: "10 (unless iterations is given)",
            about: "seconds to train, once per game and options in a run",
            domain: Domain::Number(0.01, 86_400.0),
        },
        ParamInfo {
            name: "iterations",
            default: "none",
            about: "iterations to train instead: the same strategy on every machine",
            domain: Domain::Whole(1, u64::MAX),
        },
        ParamInfo {
            name: "save",
            default: "none",
            about: "keep the strategy as a policy file, which `policy:FILE` plays again",
            domain: Domain::Path,
        },
        ParamInfo {
            name: "seed",
            default: "1",
            about: "seeds training where the game is sampled (the player's own choices follow the game's seed)",
            domain: Domain::Whole(0, u64::MAX),
        },
        ParamInfo {
            name: "wins",
            default: "false",
            about: "play to win games rather than to make the most of the score (as `rpsdsl solve --payoff win`)",
            domain: Domain::Bool,
        },
        ParamInfo {
            name: "recall",
            default: "all",
            about: "what its situations keep: all it has seen, only what it sees now, or what it sees at a glance (as `rpsdsl solve --recall`)",
            domain: Domain::OneOf(&["all", "now", "glance"]),
        },
    ],
};

/// Builds the player: trains, or finds the strategy this process trained.
/// `name` is the spec as written; `seed` is the player's own stream.
pub(crate) fn from_params(
    params: &Params<'_>,
    game: super::agent::ForGame<'_>,
    seat: Seat,
    seed: u64,
    name: String,
) -> Result<PolicyAgent, AgentError> {
    let Some((def, options)) = game else {
        return Err(AgentError::new(
            Code::AgentRefused,
            "`solve` trains on one game, and no game is given here",
            "solve",
        ));
    };
    let iterations = params.u64("iterations")?;
    let time = match (params.f64("time")?, iterations) {
        (Some(time), _) => Some(time),
        (None, Some(_)) => None,
        (None, None) => Some(DEFAULT_SECONDS),
    };
    let training = Training {
        time,
        iterations,
        seed: params.u64("seed")?.unwrap_or(1),
        save: params.path("save")?,
        wins: params.bool("wins")?.unwrap_or(false),
        memory: match params.word("recall")? {
            Some("now") => Memory::Now,
            Some("glance") => Memory::Glance,
            _ => Memory::All,
        },
    };
    let policy = trained(def, options, &training)?;
    Ok(PolicyAgent::new(name, policy, seat, seed))
}

/// The strategy trained for `def` with `options`, trained now if this
/// process has not yet. Builders wait while one trains.
fn trained(def: &Game, options: &[OptionValue], training: &Training) -> Result<Arc<Policy>, AgentError> {
    type Cache = Mutex<HashMap<String, Arc<Policy>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let Some(trainer) = TRAINER.get() else {
        return Err(AgentError::new(
            Code::AgentRefused,
            "`solve` needs the solver, which rpsdsl's command line provides",
            "solve",
        ));
    };
    let (hash, now) = rules_identity(def, options);
    let key = format!("{hash} {now:?} {training:?}");
    let mut cache = CACHE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(policy) = cache.get(&key) {
        return Ok(policy.clone());
    }
    let file = trainer(def, options, training).map_err(|why| AgentError::new(Code::AgentRefused, why, "solve"))?;
    let policy = Arc::new(Policy::from_file(&file, def, options)?);
    cache.insert(key, policy.clone());
    Ok(policy)
}
