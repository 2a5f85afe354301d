//! Offers, as the inner loop builds them: an action with its parameters in
//! one go, a loop of kinds in one step, a piece from a local.

use super::super::lower::{Ins, KIND_OFFER_LEN, MAX_OFFER_PARAMS};
use super::super::state::MAX_STEPS_BETWEEN_DECISIONS;
use super::super::{Game, RuntimeError, State};
use crate::ir::{ChoiceKind, ChoiceValue};

impl State {
    /// `ChoiceAdd`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_choice_add(&mut self, pc: usize) -> usize {
        let value = self.pop();
        let seat = self.pop();
        self.offers[seat as usize].push(value);
        pc
    }

    /// `ChoiceReset`: a decision's offers begin (and a decision interrupted
    /// by an `anytime` action offers again from here); `pc` points past it.
    #[inline(always)]
    pub(in crate::engine) fn run_choice_reset(&mut self, pc: usize) -> usize {
        self.offer_pc = (pc - 1) as u32;
        for offers in &mut self.offers {
            offers.clear();
        }
        pc
    }

    /// `ActionEntry`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_action_entry(&mut self, def: &Game, pc: usize, decision: u16) -> usize {
        let value = ChoiceValue::from_raw(self.pop());
        let entry = match &def.decisions[decision as usize].kind {
            ChoiceKind::Actions(actions) => value.action_entry(actions),
            _ => 0,
        };
        self.stack.push(entry as i64);
        pc
    }

    /// `ActionParam`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_action_param(&mut self, def: &Game, pc: usize, decision: u16, entry: u16, param: u8) -> usize {
        let value = ChoiceValue::from_raw(self.pop());
        let ChoiceKind::Actions(actions) = &def.decisions[decision as usize].kind else {
            unreachable!("the checker gives action values to action decisions")
        };
        let param = value.action_param(actions, entry as usize, param as usize);
        self.stack.push(param);
        pc
    }

    /// `OfferKinds`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_offer_kinds(
        &mut self,
        def: &Game,
        _program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        at: u16,
    ) -> usize {
        let offer = def.program.kind_offers[at as usize];
        let rounds = u64::from(offer.count);
        // Each round's jump back counts towards an endless
        // flow: rounds that could reach the limit run one by
        // one, to stop where they would.
        if self.steps + rounds <= MAX_STEPS_BETWEEN_DECISIONS {
            let members = &def.kind_sets[offer.set as usize].members[..usize::from(offer.count)];
            let seat = self.locals[locals_base + offer.seat as usize];
            self.offers[seat as usize].extend(members.iter().map(|&kind| i64::from(kind)));
            self.locals[locals_base + offer.index as usize] = i64::from(offer.count);
            if let Some(&last) = members.last() {
                self.locals[locals_base + offer.kind as usize] = i64::from(last);
            }
            self.steps += rounds;
            pc += KIND_OFFER_LEN - 1;
        } else {
            self.locals[locals_base + offer.index as usize] = 0;
            pc += 1;
        }
        pc
    }

    /// `OfferAction`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_offer_action(
        &mut self,
        def: &Game,
        _program: &[Ins],
        mut pc: usize,
        locals_base: usize,
        offer: u16,
        len: u16,
    ) -> Result<usize, RuntimeError> {
        let offer = &def.program.offers[offer as usize];
        let mut params = [0; MAX_OFFER_PARAMS];
        for (param, &slot) in params.iter_mut().zip(&offer.params) {
            *param = self.locals[locals_base + slot as usize];
        }
        let ChoiceKind::Actions(actions) = &def.decisions[offer.decision as usize].kind else {
            unreachable!("the checker gives action values to action decisions")
        };
        match ChoiceValue::action(actions, offer.entry as usize, &params[..offer.params.len()]) {
            Some(value) => {
                let seat = self.locals[locals_base + offer.seat as usize];
                self.offers[seat as usize].push(value.raw());
            }
            None => {
                // Point at the `ActionValue`, the run's last op but one.
                self.frames.last_mut().expect("frame").pc = (pc + len as usize - 2) as u32;
                return Err(self.bad_action(def));
            }
        }
        pc += len as usize - 1;
        Ok(pc)
    }

    /// `OfferLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_offer_local(&mut self, mut pc: usize, locals_base: usize, seat: u16, value: u16) -> usize {
        let seat = self.locals[locals_base + seat as usize];
        self.offers[seat as usize].push(self.locals[locals_base + value as usize]);
        pc += 2;
        pc
    }
}
