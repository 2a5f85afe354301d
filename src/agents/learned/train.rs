//! Training the evaluation: generations of self-play, each fitted on the
//! positions its games met and how they ended.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::net::{Net, Sample};
use super::player::{Learned, Model, position_len, read_scored_position};
use crate::agents::agent::{Agent, Reaction};
use crate::agents::error::AgentError;
use crate::agents::search::random_picks;
use crate::diagnostic::Code;
use crate::engine::{Event, FeatureLayout, Game, Observation, Pick, State};
use crate::ir::OptionValue;

/// How much to train.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Training {
    /// Self-play games per generation (at most, when `time` bounds it).
    pub games: usize,
    /// Seconds, when the time bounds training: each generation gets its
    /// share, playing for about half of it and fitting for the rest.
    pub time: Option<f64>,
    /// Generations: the first plays at random, each later one by the
    /// evaluation the one before fitted.
    pub generations: usize,
    /// Units in the evaluation's hidden layer.
    pub hidden: usize,
    /// Seeds the games and the fitting.
    pub seed: u64,
}

/// A later generation plays a random move this often, to keep meeting
/// positions its own play avoids.
const EXPLORE: f64 = 0.1;

/// Worlds a training game's player samples per decision.
const TRAINING_SAMPLES: u32 = 2;

/// Passes over a generation's positions when fitting.
const EPOCHS: usize = 3;

/// The most positions kept to fit on: memory stays within tens of
/// megabytes whatever the game.
const MOST_POSITIONS: usize = 200_000;

/// The share of a generation's time its games may take; fitting has the rest.
const PLAY_SHARE: f64 = 0.5;

/// Trains an evaluation of `def` played with `options`.
pub(crate) fn train(def: &Game, options: &[OptionValue], training: &Training) -> Result<Model, AgentError> {
    let started = Instant::now();
    let time = within_deadline(training.time, started);
    let budget = match (time, training.games) {
        (Some(t), usize::MAX) => format!("up to {t:.1} s"),
        (Some(t), games) => format!("up to {t:.1} s or {games} games a generation"),
        (None, games) => format!("{games} games a generation"),
    };
    eprintln!("learned: training an evaluation of {} ({budget})", def.name);
    let mut played = 0;
    let layout = FeatureLayout::of(def);
    let mut rng = ChaCha8Rng::seed_from_u64(training.seed);
    let mut model: Option<Arc<Model>> = None;
    let mut kept: Vec<Sample> = vec![];
    let generations = training.generations.max(1);
    for generation in 0..generations {
        // Where this generation's share of the time ends, and its games'.
        let slot = |share: f64| {
            time.map(|t| started + Duration::from_secs_f64(t * (generation as f64 + share) / generations as f64))
        };
        let (games_until, fit_until) = (slot(PLAY_SHARE), slot(1.0));
        let mut samples = vec![];
        for _ in 0..training.games {
            let full = samples.len() >= MOST_POSITIONS || crate::budget::over_memory();
            if games_until.is_some_and(|t| Instant::now() >= t) || full {
                break;
            }
            let seed = rng.random::<u64>();
            samples.extend(self_play(def, options, (&layout, model.as_ref()), seed, games_until));
            played += 1;
        }
        // The last generation's positions weigh most: they are the ones
        // its player meets.
        kept.retain(|_| rng.random_bool(0.5));
        kept.truncate(MOST_POSITIONS.saturating_sub(samples.len()));
        kept.extend(samples);
        if kept.is_empty() {
            // No game ended in this generation's time: nothing to fit.
            break;
        }
        let mut net = Net::new(position_len(def, &layout), training.hidden, rng.random());
        net.fit(&kept, EPOCHS, &mut rng, fit_until);
        model = Some(Arc::new(Model {
            layout: layout.clone(),
            net,
        }));
    }
    let Some(model) = model else {
        let why = format!(
            "`learned` learnt nothing of {}: no game of self-play ended in its training ({budget}); give it \
             more `time=` or `games=`",
            def.name
        );
        return Err(AgentError::new(Code::AgentRefused, why, "learned"));
    };
    // How well it predicts the positions it kept, on a part of them.
    let part = &kept[..kept.len().min(20_000)];
    eprintln!(
        "learned: trained {} in {:.1} s: {generations} generations, {played} games, {} positions, \
         cross-entropy {:.3} (a coin's 0.693)",
        def.name,
        started.elapsed().as_secs_f64(),
        kept.len(),
        model.net.loss(part)
    );
    Ok(Arc::try_unwrap(model).unwrap_or_else(|m| Model {
        layout: m.layout.clone(),
        net: m.net.clone(),
    }))
}

/// The seconds training may take from `started`: `time` cut to what is
/// left of the command's deadline. A training counted in games is bounded
/// only by a server's bound on one agent's thinking, so that it learns the
/// same on every machine elsewhere (as the solver's player does).
fn within_deadline(time: Option<f64>, started: Instant) -> Option<f64> {
    let left = |at: Instant| at.saturating_duration_since(started).as_secs_f64();
    match (crate::budget::thinking_deadline(), crate::budget::deadline(), time) {
        (Some(at), _, time) => Some(time.map_or(left(at), |t| t.min(left(at)))),
        (None, Some(at), Some(time)) => Some(time.min(left(at))),
        (None, _, time) => time,
    }
}

/// One game of self-play from `seed`: every position where a decision is
/// asked, read by every seat, with what that seat scored in the end. A
/// game that fails, runs past the decision limit or past `until` teaches
/// nothing.
fn self_play(
    def: &Game,
    options: &[OptionValue],
    (layout, model): (&FeatureLayout, Option<&Arc<Model>>),
    seed: u64,
    until: Option<Instant>,
) -> Vec<Sample> {
    let mut events: Vec<Event> = vec![];
    let Ok(state) = State::start(def, options, seed, vec![], &mut events) else {
        return vec![];
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED);
    // A world of the real start: everything hidden dealt from the seed.
    let Some(mut world) = Observation::new(def, &state, 0).sample(&mut rng) else {
        return vec![];
    };
    let players = def.players();
    let mut players_of: Vec<Option<Learned>> = (0..players)
        .map(|seat| {
            model.map(|m| {
                Learned::with_model(
                    m.clone(),
                    seat as u8,
                    TRAINING_SAMPLES,
                    1,
                    ChaCha8Rng::seed_from_u64(seed.wrapping_add(seat as u64 + 1)),
                )
            })
        })
        .collect();
    let mut met: Vec<(u8, Sample)> = vec![];
    let mut features = vec![];
    let mut spare = None;
    let mut picks: Vec<Pick> = vec![];
    let mut decisions = 0;
    while world.pending().is_some() {
        decisions += 1;
        // A game that runs past the decision limit, or past the time its
        // generation has to play, teaches nothing.
        let late = decisions % 64 == 0 && until.is_some_and(|t| Instant::now() >= t);
        if decisions > def.max_decisions || late {
            return vec![];
        }
        // The score terms are the same whoever reads them: run once.
        events.clear();
        let scores = if def.score_terms.is_empty() {
            None
        } else {
            world.score_now_in(def, &mut spare, &mut events).ok()
        };
        for seat in 0..players {
            read_scored_position(def, layout, &world, seat as u8, scores.as_deref(), &mut features);
            met.push((seat as u8, Sample::new(&features, 0.0)));
        }
        random_picks(def, &world, &mut rng, &Reaction::default(), &mut picks);
        for pick in picks.iter_mut() {
            if let Some(player) = players_of[pick.seat as usize].as_mut()
                && !rng.random_bool(EXPLORE)
            {
                let obs = world.observation(def, pick.seat);
                pick.index = player.choose(def, &obs);
            }
        }
        events.clear();
        if world.apply(def, &picks, &mut events).is_err() {
            return vec![];
        }
    }
    let Some(outcome) = world.outcome() else {
        return vec![];
    };
    met.into_iter()
        .map(|(seat, mut sample)| {
            sample.target = match outcome.winner {
                Some(w) if w == seat => 1.0,
                Some(_) => 0.0,
                None => 1.0 / players as f32,
            };
            sample
        })
        .collect()
}
