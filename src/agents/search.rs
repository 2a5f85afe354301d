//! What the search agents share: random playouts in sampled worlds, and
//! how a world pays and ranks each seat.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::agent::Reaction;
use crate::engine::Game;
use crate::engine::{Event, Observation, Pick, World};
use crate::ir::{GameDef, Seat};

/// What each seat scores for a finished world, into `out` (emptied first):
/// 1 to the winner, 0 to the others, an even share each for a draw or a
/// world that could not finish.
pub(super) fn rewards_into(def: &GameDef, world: &World, out: &mut Vec<f64>) {
    let n = def.players();
    out.clear();
    match world.outcome().and_then(|o| o.winner) {
        Some(w) => out.extend((0..n).map(|s| if s == w as usize { 1.0 } else { 0.0 })),
        None => out.resize(n, 1.0 / n as f64),
    }
}

/// A uniformly random answer from every deciding seat, with reaction times
/// in a race.
pub(super) fn random_picks(
    def: &GameDef,
    world: &World,
    rng: &mut ChaCha8Rng,
    reaction: &Reaction,
    out: &mut Vec<Pick>,
) {
    out.clear();
    let Some((decision, who)) = world.pending() else {
        return;
    };
    let race = def.decisions[decision as usize].race;
    for &seat in who {
        out.push(Pick {
            seat,
            index: rng.random_range(0..world.legal_len(seat)),
            reaction_ms: if race { reaction.sample(rng) } else { 0 },
        });
    }
}

/// Tries each of `choices` for `seat` in up to `samples` worlds sampled
/// from `obs`, the other seats answering the same decision at random, drawn
/// once per world so that every choice meets the same answers. `rate` reads
/// each result: the choice, the world after it (`None` where the choice
/// broke the game) and `events` as scratch. The number of worlds sampled,
/// or `None` where `seat` does not answer in a sampled world.
pub(super) fn each_choice_in_worlds(
    def: &Game,
    obs: &Observation<'_>,
    (seat, samples, reaction): (Seat, u32, &Reaction),
    rng: &mut ChaCha8Rng,
    choices: &[usize],
    events: &mut Vec<Event>,
    mut rate: impl FnMut(usize, Option<&World>, &mut Vec<Event>),
) -> Option<u32> {
    let mut picks: Vec<Pick> = Vec::with_capacity(4);
    let mut worlds = 0;
    // The world sampled and the one each choice is tried in, their buffers
    // reused from sample to sample and choice to choice.
    let (mut sampled, mut tried, mut keys) = (None, None, vec![]);
    for _ in 0..samples {
        if !obs.sample_into(rng, &mut sampled, &mut keys) {
            continue;
        }
        let world = sampled.as_ref().expect("sampled");
        worlds += 1;
        random_picks(def, world, rng, reaction, &mut picks);
        let me = picks.iter().position(|p| p.seat == seat)?;
        for &i in choices {
            let w = world.copy_into(&mut tried);
            picks[me].index = i;
            events.clear();
            let applied = w.apply(def, &picks, events).is_ok();
            rate(i, applied.then_some(&*w), events);
        }
    }
    Some(worlds)
}

/// Plays a world to its end with random answers, at most `limit` steps.
/// Returns false when the world failed or did not end in time. `picks` and
/// `events` are scratch space.
pub(super) fn rollout(
    def: &Game,
    world: &mut World,
    rng: &mut ChaCha8Rng,
    reaction: &Reaction,
    limit: u32,
    picks: &mut Vec<Pick>,
    events: &mut Vec<Event>,
) -> bool {
    for _ in 0..limit {
        if world.pending().is_none() {
            return world.is_over();
        }
        random_picks(def, world, rng, reaction, picks);
        events.clear();
        if world.apply(def, picks, events).is_err() {
            return false;
        }
    }
    world.is_over()
}

/// How good `world` is for `seat` by the game's own measures, compared
/// lexicographically: first the result if the game is over (1 won, -1
/// lost, 0 otherwise), then each result key's lead over the best other
/// seat (`most score`, `then most lines`; a `fewest` key counts the other
/// way), or, without result keys, the lead in total score.
///
/// `spare` is the world the game's scoring runs in ([`World::score_now_in`]).
pub(super) fn standing(
    def: &Game,
    world: &World,
    seat: Seat,
    events: &mut Vec<Event>,
    spare: &mut Option<World>,
) -> Vec<f64> {
    let mut out = vec![match world.outcome().map(|o| o.winner) {
        Some(Some(w)) if w == seat => 1.0,
        Some(Some(_)) => -1.0,
        _ => 0.0,
    }];
    let lead = |row: &[i64], most: bool| {
        let mine = row[seat as usize];
        let others = row
            .iter()
            .enumerate()
            .filter(|(s, _)| *s != seat as usize)
            .map(|(_, v)| *v);
        let m = if most {
            mine - others.max().unwrap_or(mine)
        } else {
            others.min().unwrap_or(mine) - mine
        };
        m as f64
    };
    if !def.rank_keys.is_empty() {
        if let Ok(keys) = world.result_keys_now_in(def, spare, events) {
            for (key, row) in def.rank_keys.iter().zip(&keys) {
                out.push(lead(row, key.most));
            }
        }
    } else if !def.score_terms.is_empty()
        && let Ok(scores) = world.score_now_in(def, spare, events)
    {
        let totals: Vec<i64> = scores.iter().map(|r| def.points(r)).collect();
        out.push(lead(&totals, true));
    }
    out
}
