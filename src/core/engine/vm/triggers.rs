//! Triggers and `anytime` actions: run before each ask, skipped while nothing they count has moved.

use super::super::events::Event;
use super::super::state::{MAX_STEPS_BETWEEN_DECISIONS, Status};
use super::super::{Game, RuntimeError, State};
use super::flow::Flow;
use crate::ir::{ChoiceValue, Seat, id_from_index};

impl State {
    /// Adds the `anytime` actions each deciding seat may take now, as
    /// negative values after its real choices.
    pub(super) fn offer_anytime(
        &mut self,
        def: &Game,
        who: &[Seat],
        events: &mut Vec<Event>,
    ) -> Result<(), RuntimeError> {
        // An anytime action is not interrupted by another one. Most games
        // have none, or only ones their options switch off: every decision
        // asks, so that is found before looking at each seat.
        let any_on = (0..def.anytime.len()).any(|i| !self.anytime_switched_off(def, i));
        if !self.interrupted.is_empty() || !any_on {
            return Ok(());
        }
        for &seat in who {
            for (i, action) in def.anytime.iter().enumerate() {
                if self.anytime_switched_off(def, i) {
                    continue;
                }
                if self.call_sync::<1>(def, action.when, &[seat as i64], events)?[0] != 0 {
                    self.offers[seat as usize].push(ChoiceValue::anytime(i).raw());
                }
            }
        }
        Ok(())
    }

    /// Whether anytime action `i` is off in this game: its condition
    /// starts with an option that is off.
    pub(in crate::engine) fn anytime_switched_off(&self, def: &Game, i: usize) -> bool {
        def.program.anytime_guards[i].is_some_and(|option| self.options[usize::from(option)] == 0)
    }

    /// Runs the triggers once before the op at `pc` (an ask, or the
    /// ranking), unless they ran since the last decision. Returns
    /// [`Flow::Reload`] when one ended the game: the op then does not run,
    /// and the frame points at it. Otherwise the op goes on at once.
    pub(super) fn run_triggers_before(
        &mut self,
        def: &Game,
        pc: u32,
        events: &mut Vec<Event>,
    ) -> Result<Flow, RuntimeError> {
        if self.triggers_checked {
            return Ok(Flow::Continue);
        }
        self.triggers_checked = true;
        let frame = self.frames.len() - 1;
        self.frames[frame].pc = pc;
        self.run_triggers(def, events)?;
        if !matches!(self.status, Status::Running) {
            return Ok(Flow::Reload);
        }
        self.frames[frame].pc = pc + 1;
        Ok(Flow::Continue)
    }

    pub(super) fn run_triggers(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        for (t, trigger) in def.triggers.iter().enumerate() {
            let watched = def.program.watch.is_watched(t);
            if watched && self.stale_triggers & (1 << t) == 0 {
                // Nothing it counts moved since it ran and did nothing: it
                // would do nothing again, in as many rounds.
                let steps = self.steps + u64::from(self.trigger_steps[t]);
                if steps <= MAX_STEPS_BETWEEN_DECISIONS {
                    #[cfg(debug_assertions)]
                    self.assert_quiet(def, t, steps, events);
                    self.steps = steps;
                    continue;
                }
            }
            let before = events.len();
            let steps_before = self.steps;
            self.call_sync::<0>(def, trigger.proc, &[], events)?;
            if watched && !self.is_over() {
                self.stale_triggers &= !(1 << t);
                self.trigger_steps[t] = u32::try_from(self.steps - steps_before).unwrap_or(u32::MAX);
            }
            // A trigger that changed something fired: say so before what it did.
            if events[before..].iter().any(|e| !matches!(e, Event::Hook { .. })) {
                let trigger = id_from_index(t);
                events.insert(before, Event::Trigger { trigger });
            }
            if self.is_over() {
                break;
            }
        }
        Ok(())
    }

    /// Test builds run a skipped trigger anyway and check that it would
    /// have done nothing, in the rounds counted for it: the whole test
    /// suite then checks which triggers the pieces' moves mark stale.
    #[cfg(debug_assertions)]
    pub(super) fn assert_quiet(&mut self, def: &Game, t: usize, steps_after: u64, events: &mut Vec<Event>) {
        let (status, steps, events_before) = (self.status.clone(), self.steps, events.len());
        let ran = self.call_sync::<0>(def, def.triggers[t].proc, &[], events);
        assert!(
            ran.is_ok() && !self.is_over() && events.len() == events_before && self.steps == steps_after,
            "trigger `{}` was skipped, but running it changes the game",
            def.triggers[t].name
        );
        (self.status, self.steps) = (status, steps);
    }
}
