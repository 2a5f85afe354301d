//! A search's guide (`mcts:prior=...`): a trained strategy that the search
//! leans towards in its tree and follows in its playouts.
//!
//! Where the solver has trained a strategy (`policy:FILE`, or `solve(...)`
//! trained in the process), a search need not start from nothing:
//! - in the tree, a seat's pick gets a bonus for the moves the strategy
//!   favours, fading as the move is tried (progressive bias: Chaslot et
//!   al. 2008), and a move not yet tried is tried in proportion to it;
//! - in a playout, each seat plays the strategy where it holds the seat's
//!   situation, and at random elsewhere.
//!
//! A strategy keys a situation by what its seat recalls. The searching
//! seat's recall is known: the guide follows the real game ([`Guide::follow`])
//! and each iteration carries it down the sampled world. Another seat's
//! past is not known in a sampled world, so for it the guide asks by what
//! it sees now: exact in a game without secrets (the position is the
//! situation) and for a strategy trained with `recall=now`; elsewhere the
//! strategy does not hold the key, and that seat plays at random, as a
//! search without a guide would.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::agent::{Agent, Reaction, draw};
use crate::engine::{Choice, Event, Game, Memory, Observation, Pick, Recall, StepKey, World};
use crate::ir::Seat;

/// A trained strategy guiding one seat's search.
pub(super) struct Guide {
    /// The strategy's player (`policy` or `solve`), asked for its
    /// probabilities ([`Agent::policy`]), never to play.
    player: Box<dyn Agent>,
    /// The weight of the tree's bonus (see [`Guide::bonus`]).
    pub(super) weight: f64,
    /// What the searching seat recalls of the real game, up to its last step.
    recall: Recall,
    /// What it recalls at the decision it is asked, when it was told so
    /// ([`Agent::recall_here`]: a player asked out of the order of play).
    pinned: Option<Recall>,
}

impl Guide {
    pub(super) fn new(player: Box<dyn Agent>, weight: f64) -> Self {
        Guide {
            player,
            weight,
            recall: Recall::default(),
            pinned: None,
        }
    }

    /// Follows the real game one step (as [`Agent::before_step`] tells it),
    /// afresh at a game's first step.
    pub(super) fn follow(&mut self, obs: &Observation<'_>, choices: &[Choice]) {
        if obs.decisions_taken() == 0 {
            self.recall = Recall::default();
        }
        self.pinned = None;
        self.recall = obs
            .recall_here(self.recall, Memory::All)
            .after_step(obs.step_key(choices), Memory::All);
    }

    /// Told what the searching seat recalls at the decision it is about to
    /// be asked, its view there included (it did not follow the game there).
    pub(super) fn pin(&mut self, recall: Recall) {
        self.pinned = Some(recall);
    }

    /// What `me` recalls at the world's pending decision, its view there
    /// included, having recalled `before` up to the last step (`None`: the
    /// world is where the search began, and what it recalls there is the
    /// real game's).
    pub(super) fn here(&self, def: &Game, world: &World, me: Seat, before: Option<Recall>) -> Recall {
        match (before, self.pinned) {
            (None, Some(pinned)) => pinned,
            (before, _) => world
                .observation(def, me)
                .recall_here(before.unwrap_or(self.recall), Memory::All),
        }
    }

    /// The strategy's probabilities for `seat`'s choices at the world's
    /// pending decision, into `out` (emptied first); false (and `out`
    /// empty) when it does not hold the situation or gives no
    /// distribution. `mine` is what the searching seat `me` recalls there
    /// ([`Guide::here`]); any other seat is asked by what it sees now.
    pub(super) fn probabilities(
        &mut self,
        def: &Game,
        world: &World,
        seat: Seat,
        me: Seat,
        mine: Recall,
        out: &mut Vec<f64>,
    ) -> bool {
        out.clear();
        let obs = world.observation(def, seat);
        let recall = match seat == me {
            true => mine,
            false => obs.recall_here(Recall::default(), Memory::All),
        };
        let n = obs.legal_len();
        // A strategy's player answers uniformly where it holds nothing: no
        // guidance, so the search goes on unguided there.
        match self.player.policy(def, &obs, recall) {
            Some(p) if p.len() == n && n > 0 && !is_uniform(&p) => {
                out.extend_from_slice(&p);
                true
            }
            _ => false,
        }
    }

    /// [`Guide::probabilities`] for a seat the strategy has not lost in
    /// this iteration, which it loses on a miss. `here` is what `me`
    /// recalls, unless it is lost.
    #[allow(clippy::too_many_arguments)] // the question, and where its answer goes
    pub(super) fn ask(
        &mut self,
        def: &Game,
        world: &World,
        seat: Seat,
        me: Seat,
        here: Option<Recall>,
        lost: &mut Lost,
        out: &mut Vec<f64>,
    ) -> bool {
        if !lost.knows(seat) {
            return false;
        }
        let known = self.probabilities(def, world, seat, me, here.unwrap_or_default(), out);
        if !known {
            lost.lose(seat);
        }
        known
    }

    /// Plays the world to its end as the strategy says where it holds a
    /// seat's situation, at random elsewhere; at most `limit` steps. `mine`
    /// is what `me` recalls before the world's pending decision, and
    /// `lost` the seats the strategy has lost in this iteration (see
    /// [`Lost`]). Returns false when the world failed or did not end in
    /// time. `picks`, `events` and `probs` are scratch space.
    #[allow(clippy::too_many_arguments)] // a playout's inputs and its scratch space
    pub(super) fn rollout(
        &mut self,
        def: &Game,
        world: &mut World,
        me: Seat,
        mut mine: Recall,
        lost: &mut Lost,
        rng: &mut ChaCha8Rng,
        reaction: &Reaction,
        limit: u32,
        picks: &mut Vec<Pick>,
        events: &mut Vec<Event>,
        probs: &mut Vec<f64>,
    ) -> bool {
        for _ in 0..limit {
            let Some((decision, who)) = world.pending() else {
                return world.is_over();
            };
            let race = def.decisions[decision as usize].race;
            let here = lost.knows(me).then(|| self.here(def, world, me, Some(mine)));
            let mut observed = StepKey::new(decision);
            picks.clear();
            for &seat in who {
                let index = match self.ask(def, world, seat, me, here, lost, probs) {
                    true => draw(probs, rng),
                    false => rng.random_range(0..world.legal_len(seat)),
                };
                picks.push(Pick {
                    seat,
                    index,
                    reaction_ms: if race { reaction.sample(rng) } else { 0 },
                });
                if here.is_some() {
                    let seen = world.sees_choice(def, seat, index);
                    observed = observed.then(seen.then(|| world.key(def, seat, index)));
                }
            }
            if let Some(here) = here {
                mine = here.after_step(Some(observed), Memory::All);
            }
            events.clear();
            if world.apply(def, picks, events).is_err() {
                return false;
            }
        }
        world.is_over()
    }
}

/// The seats a guide has lost in one iteration, one bit each. A seat the
/// strategy does not know at one step is played unguided for the rest of
/// the iteration: under perfect recall it cannot know a later situation
/// of that seat either (training met every situation on the way to one),
/// and asking costs a digest of the seat's view a step.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Lost(u64);

impl Lost {
    fn bit(seat: Seat) -> u64 {
        1u64 << (u64::from(seat) % 64)
    }

    /// Whether the strategy may still know `seat`'s situations.
    pub(super) fn knows(self, seat: Seat) -> bool {
        self.0 & Self::bit(seat) == 0
    }

    fn lose(&mut self, seat: Seat) {
        self.0 |= Self::bit(seat);
    }
}

/// Whether `p` gives every choice the same chance (what a strategy's
/// player answers where it holds nothing).
fn is_uniform(p: &[f64]) -> bool {
    let even = 1.0 / p.len() as f64;
    p.iter().all(|q| (q - even).abs() < 1e-12)
}

/// The bonus of a move the strategy gives `prior`, tried `visits` times:
/// `weight × prior / (1 + visits)`, added to its UCB1 score.
pub(super) fn bonus(weight: f64, prior: f64, visits: u32) -> f64 {
    weight * prior / (1.0 + f64::from(visits))
}

/// An untried move among `untried` (indices into the moves offered),
/// drawn in proportion to the strategy's `prior` over the moves offered
/// (uniformly when it gives them nothing).
pub(super) fn untried_by_prior(untried: &[usize], prior: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let total: f64 = untried.iter().map(|&i| prior[i]).sum();
    if total <= 0.0 {
        return untried[rng.random_range(0..untried.len())];
    }
    let mut x = rng.random_range(0.0..total);
    for &i in untried {
        if x < prior[i] {
            return i;
        }
        x -= prior[i];
    }
    untried[untried.len() - 1]
}
