//! Players: anything that picks one of the legal choices from its own view.
//!
//! An agent receives an [`Observation`], never the
//! [`State`](crate::engine::State): the types keep it from seeing what its
//! seat may not know. A search agent that needs whole games samples
//! [`World`](crate::engine::World)s from the observation, in which everything
//! the seat cannot see was dealt afresh.
//!
//! Agents are built from an `--agents` spec by [`for_game`], the one entry
//! point for every command ([`from_spec`] builds those that need no game); [`AGENTS`] documents them and their parameters.
//!
//! This file is the registry, and no agent imports it: what every agent
//! shares is `agents::agent`, and an agent that wraps another (a
//! `human-like` thrower's fallback) is handed a builder.

mod agent;
mod error;
mod greedy;
mod guide;
mod human_like;
mod learned;
mod mcts;
pub mod policy;
mod random;
mod search;
pub(crate) mod spec;
mod trained;
mod tree;

pub(crate) use agent::Reaction;
pub use agent::{Agent, ForGame, draw};
use agent::{REACTION_PARAMS, SEED_PARAM};
pub use error::AgentError;
pub use greedy::Greedy;
pub use human_like::{DuelResult, HumanLike, ThrowModel, default_opponent, throw_roles};
pub use mcts::{Mcts, SearchStats};
pub use policy::{Policy, PolicyAgent, PolicyFile};
pub use random::RandomAgent;
pub use spec::{AgentInfo, AgentSpec, Domain, ParamInfo};
pub use trained::{Trainer, Training, set_trainer};

use crate::diagnostic::Code;
use crate::engine::Game;
use crate::ir::{OptionValue, Seat};
use spec::Params;

/// Every agent, with its parameters: what `rpsdsl agents` lists.
pub const AGENTS: &[AgentInfo] = &[
    AgentInfo {
        name: "random",
        about: "picks uniformly among the legal choices",
        params: &[SEED_PARAM, REACTION_PARAMS[0], REACTION_PARAMS[1]],
    },
    human_like::INFO,
    greedy::INFO,
    mcts::INFO,
    policy::INFO,
    trained::INFO,
    learned::INFO,
    AgentInfo {
        name: "human",
        about: "a person at the terminal: only in `rpsdsl play`, for the seat given by --seat",
        params: &[],
    },
];

/// Builds one agent from its spec for `seat` of `game`; `seed` is the
/// game's seed.
pub(crate) fn build(spec: &AgentSpec, game: ForGame<'_>, seat: Seat, seed: u64) -> Result<Box<dyn Agent>, AgentError> {
    let name = spec.name.as_str();
    let Some(info) = AGENTS
        .iter()
        .find(|a| a.name == name || a.name.replace('-', "_") == name)
    else {
        let names: Vec<&str> = AGENTS.iter().map(|a| a.name).collect();
        let near = names
            .iter()
            .map(|n| (strsim::levenshtein(n, name), *n))
            .min()
            .filter(|(d, _)| *d <= 2)
            .map(|(_, n)| format!("did you mean `{n}`? "))
            .unwrap_or_default();
        return Err(
            AgentError::new(Code::UnknownAgent, format!("unknown agent `{name}`"), name)
                .help(format!("{near}the agents are {}", names.join(", "))),
        );
    };
    let params = Params::new(spec, info)?;
    let seed = match info.params.iter().any(|p| p.name == "seed") {
        true => params.u64("seed")?.unwrap_or(seed),
        false => seed,
    };
    match info.name {
        "random" => {
            let mut agent = RandomAgent::new(seed, seat);
            agent.reaction = Reaction::from_params(&params)?;
            Ok(Box::new(agent))
        }
        "human-like" => Ok(Box::new(HumanLike::from_params(
            &params,
            game,
            seat,
            seed,
            |fallback| build(fallback, game, seat, seed),
        )?)),
        "greedy" => Ok(Box::new(Greedy::from_params(&params, seat, seed)?)),
        "mcts" => Ok(Box::new(Mcts::from_params(&params, seat, seed, |prior| {
            build(prior, game, seat, seed)
        })?)),
        "policy" => Ok(Box::new(PolicyAgent::from_params(&params, game, seat, seed)?)),
        "solve" => Ok(Box::new(trained::from_params(
            &params,
            game,
            seat,
            seed,
            spec.to_text(),
        )?)),
        "learned" => Ok(Box::new(learned::from_params(
            &params,
            game,
            seat,
            seed,
            spec.to_text(),
        )?)),
        "human" => Err(
            AgentError::new(Code::AgentRefused, "`human` is a person at the terminal", "human")
                .help("use `rpsdsl play FILE --seat N`"),
        ),
        _ => unreachable!("every listed agent is built"),
    }
}

/// Builds agents for `def` played with `options` from a spec such as
/// `mcts:iterations=2000,human-like` (one per seat; a single agent plays
/// every seat). Seat `i`'s agent draws from its own stream of `seed`.
pub fn for_game(spec: &str, def: &Game, options: &[OptionValue], seed: u64) -> Result<Vec<Box<dyn Agent>>, AgentError> {
    built(spec, def.players(), Some((def, options)), seed)
}

/// Builds agents that need no particular game (every agent but `policy`)
/// for `players` seats, as [`for_game`] does.
pub fn from_spec(spec: &str, players: usize, seed: u64) -> Result<Vec<Box<dyn Agent>>, AgentError> {
    built(spec, players, None, seed)
}

fn built(spec: &str, players: usize, game: ForGame<'_>, seed: u64) -> Result<Vec<Box<dyn Agent>>, AgentError> {
    let specs = spec::parse_spec(spec)?;
    if specs.len() != 1 && specs.len() != players {
        return Err(AgentError::new(
            Code::BadAgentSpec,
            format!("{} agents given for {players} players", specs.len()),
            "",
        )
        .help("give one per seat, or one for all"));
    }
    (0..players)
        .map(|seat| {
            let s = if specs.len() == 1 { &specs[0] } else { &specs[seat] };
            build(s, game, seat as Seat, seed)
        })
        .collect()
}
