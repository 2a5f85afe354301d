//! `learned`: a player that learns an evaluation of positions in
//! self-play first, then plays by one step of lookahead on it.
//!
//! Training plays generations of games: the first at random, each later
//! one by the evaluation the previous one fitted (with some random moves,
//! so it keeps meeting other positions). Every position met is kept with
//! what its seat scored in the end, and a small network ([`net`]) is
//! fitted to say, from the position's features ([`FeatureLayout`]), how
//! the seat reading them will fare. A process trains each game (its rules,
//! options and these parameters) once, however many seats play it.
//!
//! To choose, the player tries each choice in worlds sampled from what it
//! sees and keeps the one the evaluation likes best; a game that ends
//! there scores as it ended. Where two seats answer at once (a duel's
//! throw), it weighs every pair of answers and plays the mixed strategy
//! regret matching finds for that table, so it cannot be read.

mod net;
mod player;
mod train;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::agent::{ForGame, SEED_PARAM, seat_rng};
use super::error::AgentError;
use super::policy::rules_identity;
use super::spec::{AgentInfo, Domain, ParamInfo, Params};
use crate::diagnostic::Code;
use crate::engine::Game;
use crate::ir::Seat;
pub(crate) use player::Learned;
use player::Model;
use train::Training;

pub(crate) const INFO: AgentInfo = AgentInfo {
    name: "learned",
    about: "learns an evaluation of positions in self-play first, then plays the choice it rates best, \
            in worlds sampled from what it knows: `learned:games=2000`",
    params: &[
        ParamInfo {
            name: "games",
            default: "2000",
            about: "self-play games per generation of training, once per game and options in a run",
            domain: Domain::Whole(1, 10_000_000),
        },
        ParamInfo {
            name: "time",
            default: "none",
            about: "seconds to train instead of a number of games (each generation plays as many as its share allows)",
            domain: Domain::Number(0.01, 86_400.0),
        },
        ParamInfo {
            name: "generations",
            default: "3",
            about: "generations of training: the first plays at random, each later one by the last evaluation",
            domain: Domain::Whole(1, 100),
        },
        ParamInfo {
            name: "samples",
            default: "8",
            about: "worlds sampled per decision",
            domain: Domain::Whole(1, 100_000),
        },
        ParamInfo {
            name: "depth",
            default: "1",
            about: "decisions looked ahead in each sampled world: 1 rates each choice's result; 2 also weighs the best answer to it",
            domain: Domain::Whole(1, 4),
        },
        ParamInfo {
            name: "hidden",
            default: "32",
            about: "units in the evaluation's hidden layer",
            domain: Domain::Whole(1, 1024),
        },
        ParamInfo {
            name: "train_seed",
            default: "1",
            about: "seeds training (the player's own choices follow the game's seed)",
            domain: Domain::Whole(0, u64::MAX),
        },
        SEED_PARAM,
    ],
};

/// Builds the player: trains, or finds the evaluation this process trained.
pub(crate) fn from_params(
    params: &Params<'_>,
    game: ForGame<'_>,
    seat: Seat,
    seed: u64,
    name: String,
) -> Result<Learned, AgentError> {
    let Some((def, options)) = game else {
        return Err(AgentError::new(
            Code::AgentRefused,
            "`learned` trains on one game, and no game is given here",
            "learned",
        ));
    };
    let time = params.f64("time")?;
    let training = Training {
        // Under a time limit the games are counted only to bound memory.
        games: params
            .u64("games")?
            .map_or(if time.is_some() { usize::MAX } else { 2000 }, |g| g as usize),
        time,
        generations: params.u64("generations")?.unwrap_or(3) as usize,
        hidden: params.u64("hidden")?.unwrap_or(32) as usize,
        seed: params.u64("train_seed")?.unwrap_or(1),
    };
    let model = trained(def, options, &training)?;
    let samples = params.u64("samples")?.map_or(8, |v| v as u32);
    let depth = params.u64("depth")?.map_or(1, |v| v as u32);
    Ok(Learned::with_model(model, seat, samples, depth, seat_rng(seed, seat)).named(name))
}

/// The evaluation trained for `def` with `options`, trained now if this
/// process has not yet. Builders wait while one trains.
fn trained(def: &Game, options: &[crate::ir::OptionValue], training: &Training) -> Result<Arc<Model>, AgentError> {
    type Trained = Result<Arc<Model>, AgentError>;
    type Cache = Mutex<HashMap<String, Arc<OnceLock<Trained>>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let (hash, now) = rules_identity(def, options);
    let key = format!("{hash} {now:?} {training:?}");
    // The map is held only to find the game's slot: two games train at
    // once, and a builder of the same game waits for the one training it.
    let slot = CACHE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_default()
        .clone();
    slot.get_or_init(|| train::train(def, options, training).map(Arc::new))
        .clone()
}
