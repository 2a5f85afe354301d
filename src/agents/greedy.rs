//! The greedy player: one step of lookahead on the game's own scoring.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::agent::{Agent, REACTION_PARAMS, Reaction, SEED_PARAM, seat_rng};
use super::error::AgentError;
use super::search::{each_choice_in_worlds, standing};
use super::spec::{AgentInfo, AgentSpec, Domain, ParamInfo, Params};
use crate::engine::Game;
use crate::engine::{Event, Observation};
use crate::ir::{GameDef, Seat};

pub(super) const INFO: AgentInfo = AgentInfo {
    name: "greedy",
    about: "one step of lookahead: the choice whose result scores best by the game's own score terms, \
            averaged over worlds consistent with what it knows",
    params: &[
        ParamInfo {
            name: "samples",
            default: "16",
            about: "worlds sampled per decision (hidden pieces, chance, others' simultaneous answers)",
            domain: Domain::Whole(1, 100_000),
        },
        SEED_PARAM,
        REACTION_PARAMS[0],
        REACTION_PARAMS[1],
    ],
};

/// Tries each legal choice in worlds sampled from its view and keeps the
/// one whose immediate result stands best: a win, else the largest lead on
/// the game's result keys in order (`most score`, then `most lines`), or in
/// total score for a game without result keys. Other seats answering the
/// same decision at once answer at random. Ties are broken at random.
pub struct Greedy {
    seat: Seat,
    samples: u32,
    rng: ChaCha8Rng,
    reaction: Reaction,
    spec: AgentSpec,
    events: Vec<Event>,
}

impl Greedy {
    pub(crate) fn new(seat: Seat, seed: u64) -> Self {
        Greedy {
            seat,
            samples: 16,
            rng: seat_rng(seed, seat),
            reaction: Reaction::default(),
            spec: AgentSpec {
                name: "greedy".into(),
                params: vec![],
            },
            events: vec![],
        }
    }

    pub(super) fn from_params(p: &Params<'_>, seat: Seat, seed: u64) -> Result<Self, AgentError> {
        let mut g = Greedy::new(seat, seed);
        g.samples = p.u64("samples")?.map_or(g.samples, |v| v as u32);
        g.reaction = Reaction::from_params(p)?;
        g.spec.params = ["samples", "reaction_floor", "reaction_mean"]
            .iter()
            .filter_map(|k| p.raw(k).map(|v| (k.to_string(), v.to_string())))
            .collect();
        Ok(g)
    }

    /// Each legal choice's standing ([`standing`]) averaged over the
    /// sampled worlds, or `None` when no world could be built.
    pub(crate) fn values(&mut self, def: &Game, obs: &Observation<'_>) -> Option<Vec<Vec<f64>>> {
        let n = obs.legal_len();
        let mut sums: Vec<Vec<f64>> = vec![vec![]; n];
        let all: Vec<usize> = (0..n).collect();
        let seat = self.seat;
        let mut spare = None;
        let worlds = each_choice_in_worlds(
            def,
            obs,
            (seat, self.samples, &self.reaction),
            &mut self.rng,
            &all,
            &mut self.events,
            |i, world, events| {
                let s = match world {
                    Some(w) => standing(def, w, seat, events, &mut spare),
                    // A choice that breaks the game is the worst there is.
                    None => vec![f64::NEG_INFINITY],
                };
                add(&mut sums[i], &s);
            },
        )?;
        (worlds > 0).then(|| {
            sums.into_iter()
                .map(|s| s.into_iter().map(|x| x / worlds as f64).collect())
                .collect()
        })
    }
}

impl Greedy {
    /// The best standing among the choices `allowed` marks (all when
    /// `None`), ties broken at random.
    fn pick_best(&mut self, def: &Game, obs: &Observation<'_>, allowed: Option<&[bool]>) -> usize {
        let ok = |i: usize| allowed.is_none_or(|a| a.get(i) == Some(&true));
        let open: Vec<usize> = (0..obs.legal_len()).filter(|&i| ok(i)).collect();
        if open.len() <= 1 {
            return open.first().copied().unwrap_or(0);
        }
        let Some(values) = self.values(def, obs) else {
            return open[self.rng.random_range(0..open.len())];
        };
        let best = open
            .iter()
            .copied()
            .reduce(|best, i| {
                if better(&values[i], &values[best]).is_gt() {
                    i
                } else {
                    best
                }
            })
            .unwrap_or(0);
        let ties: Vec<usize> = open
            .into_iter()
            .filter(|&i| better(&values[i], &values[best]).is_eq())
            .collect();
        ties[self.rng.random_range(0..ties.len())]
    }
}

fn add(sum: &mut Vec<f64>, x: &[f64]) {
    if sum.len() < x.len() {
        sum.resize(x.len(), 0.0);
    }
    for (a, b) in sum.iter_mut().zip(x) {
        *a += b;
    }
}

/// Compares two standings lexicographically, with a little slack for
/// averaging noise.
fn better(a: &[f64], b: &[f64]) -> std::cmp::Ordering {
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied().unwrap_or(0.0), b.get(i).copied().unwrap_or(0.0));
        if ((x - y).abs() > 1e-9 || x.is_infinite() || y.is_infinite())
            && let Some(o) = x.partial_cmp(&y)
            && o != std::cmp::Ordering::Equal
        {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}

impl Agent for Greedy {
    fn name(&self) -> String {
        self.spec.to_text()
    }

    fn choose(&mut self, def: &Game, obs: &Observation<'_>) -> usize {
        self.pick_best(def, obs, None)
    }

    fn choose_allowed(&mut self, def: &Game, obs: &Observation<'_>, allowed: &[bool]) -> Option<usize> {
        Some(self.pick_best(def, obs, Some(allowed)))
    }

    fn reaction_ms(&mut self, _def: &GameDef, _obs: &Observation<'_>, _index: usize) -> u32 {
        self.reaction.sample(&mut self.rng)
    }
}
