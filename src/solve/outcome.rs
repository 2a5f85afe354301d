//! Outcome sampling (Lanctot et al. 2009), for games too long to explore
//! every choice of a seat: each traversal follows one game. The traversing
//! seat picks with some exploration (`EXPLORE` of uniform play mixed in),
//! the others with their current strategies, chance as the engine draws;
//! regrets and the average strategy are weighted by how likely the sampled
//! game was, so they estimate the same sums external sampling does. Each
//! traversal costs one game, whatever the game's branching.
//!
//! The formulas follow OpenSpiel's `outcome_sampling_mccfr.py` (with no
//! baseline). Chance is the engine's own: its probability multiplies the
//! others' reach and the sampling reach alike, so it cancels and is never
//! asked for.

use std::rc::Rc;

use super::sample::Walk;
use super::tree::{Told, told_after};
use crate::agents::draw;
use crate::diagnostic::Diagnostic;
use crate::engine::{Recall, State};
use crate::ir::Seat;

/// The share of uniform play mixed into the traversing seat's choices, so
/// every choice keeps being tried (OpenSpiel's default).
const EXPLORE: f64 = 0.6;

/// The traversing seat's choice at one step, kept to update its set after
/// the game below is known.
struct Mine {
    change: usize,
    /// The changes to its other levels, at a glance (as `Asked::also`).
    also: [Option<usize>; crate::engine::GLANCE_LEVELS - 1],
    strategy: Vec<f64>,
    picked: usize,
    /// Its sampling probability of the pick.
    sampled: f64,
    /// The others' reach over the sampling reach, at this decision.
    weight: f64,
    /// The seat's own reach over the sampling reach, at this decision.
    own: f64,
}

/// How likely the play so far was: under the traversing seat's strategy,
/// under the others', and under the sampling.
#[derive(Clone, Copy)]
struct Reach {
    mine: f64,
    others: f64,
    sampled: f64,
}

impl Walk<'_, '_> {
    /// One outcome-sampling traversal from the game's start `state`.
    pub(super) fn outcome_from_start(&mut self, state: State, seen: Vec<Recall>) -> Result<f64, Box<Diagnostic>> {
        let certain = Reach {
            mine: 1.0,
            others: 1.0,
            sampled: 1.0,
        };
        self.outcome(state, seen, None, 0, certain)
    }

    /// The sampled value of `state` to the traverser (already divided by
    /// how likely the sampling was), updating the traverser's sets on the way back.
    fn outcome(
        &mut self,
        state: State,
        seen: Vec<Recall>,
        told: Option<Rc<Told>>,
        depth: u32,
        reach: Reach,
    ) -> Result<f64, Box<Diagnostic>> {
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.outcome_here(state, seen, told, depth, reach)
        })
    }

    fn outcome_here(
        &mut self,
        mut state: State,
        mut seen: Vec<Recall>,
        told: Option<Rc<Told>>,
        depth: u32,
        mut reach: Reach,
    ) -> Result<f64, Box<Diagnostic>> {
        // Where the game goes no further, its state is kept for the next
        // traversal's deal.
        let ended = match self.out_of_budget() {
            true => Some(0.0),
            false => self.value_at_end(&state, depth),
        };
        if let Some(value) = ended {
            self.buffers.spares.push(state);
            return Ok(value);
        }
        let def = self.run.def;
        let pending = state.pending().expect("a game that goes on waits");
        let decision = pending.decision();
        let mut picked = self.buffers.choices();
        let mut mine = None;
        for &seat in pending.who() {
            let asked = self.ask(&state, &seen, told.as_ref(), seat, decision, depth)?;
            if seat == self.traverser {
                let n = asked.strategy.len() as f64;
                let mut sampling = self.buffers.floats();
                sampling.extend(asked.strategy.iter().map(|p| EXPLORE / n + (1.0 - EXPLORE) * p));
                let a = draw(&sampling, &mut self.rng);
                let (weight, own) = (reach.others / reach.sampled, reach.mine / reach.sampled);
                reach.mine *= asked.strategy[a];
                reach.sampled *= sampling[a];
                picked.push(self.answer(seat, asked.values[a], decision));
                self.buffers.values.push(asked.values);
                mine = Some(Mine {
                    change: asked.change,
                    also: asked.also,
                    picked: a,
                    sampled: sampling[a],
                    weight,
                    own,
                    strategy: asked.strategy,
                });
                self.buffers.floats.push(sampling);
            } else {
                let a = draw(&asked.strategy, &mut self.rng);
                reach.others *= asked.strategy[a];
                reach.sampled *= asked.strategy[a];
                picked.push(self.answer(seat, asked.values[a], decision));
                self.buffers.give_asked(asked);
            }
        }
        self.see_step(&state, &mut seen, &picked);
        let told = told_after(def, &state, &picked, told);
        let applied = self.apply_picked(&mut state, &picked);
        self.buffers.choices.push(picked);
        if !applied? {
            self.buffers.spares.push(state);
            return Ok(0.0);
        }
        if state.pending().is_some() {
            for (seat, r) in seen.iter_mut().enumerate() {
                *r = state.recall_here(def, seat as Seat, *r, self.run.memory);
            }
        }
        let child = self.outcome(state, seen, told, depth + 1, reach)?;
        let Some(mine) = mine else {
            // The others play their strategies: the estimate passes through.
            return Ok(child);
        };
        // The picked choice's value, over its sampling probability; the
        // others' estimates are 0 (no baseline).
        let picked_value = child / mine.sampled;
        let value = mine.strategy[mine.picked] * picked_value;
        for change in std::iter::once(mine.change).chain(mine.also.into_iter().flatten()) {
            let (regrets, sums) = self.changes.deltas(change);
            for (a, r) in regrets.iter_mut().enumerate() {
                let action_value = if a == mine.picked { picked_value } else { 0.0 };
                *r += mine.weight * (action_value - value);
            }
            for (s, p) in sums.iter_mut().zip(&mine.strategy) {
                *s += mine.own * p;
            }
        }
        self.buffers.floats.push(mine.strategy);
        Ok(value)
    }
}
