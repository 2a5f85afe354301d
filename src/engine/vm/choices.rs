//! Decisions: offers built value by value or in one go, asking, and resuming after the answer.

use super::super::events::Event;
use super::super::{Ask, Game, RuntimeError, Seats, State, Status};
use super::Flow;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{ChoiceKind, ChoiceValue, Op, Seat};

impl State {
    /// Runs an op that makes or resumes a decision.
    pub(super) fn choice_step(
        &mut self,
        def: &Game,
        events: &mut Vec<Event>,
        op: Op,
        pc: u32,
    ) -> Result<Flow, RuntimeError> {
        match op {
            Op::HasOffers(decision) => {
                let seat = self.pop();
                let any = !self.offers[seat as usize].is_empty();
                if !any {
                    events.push(Event::NoChoice {
                        seat: seat as Seat,
                        decision,
                    });
                }
                self.stack.push(i64::from(any));
            }
            Op::ActionValue { decision, entry } => {
                let ChoiceKind::Actions(actions) = &def.decisions[decision as usize].kind else {
                    unreachable!("the checker gives action values to action decisions")
                };
                let n = actions[entry as usize].params.len();
                let at = self.stack.len() - n;
                let value = ChoiceValue::action(actions, entry as usize, &self.stack[at..]);
                self.stack.truncate(at);
                match value {
                    Some(v) => self.stack.push(v.raw()),
                    None => return Err(self.bad_action(def)),
                }
            }
            Op::ChoiceReset => {
                self.offer_pc = pc;
                for offers in &mut self.offers {
                    offers.clear();
                }
            }
            Op::Ask(decision) | Op::AskEach(decision, _) => {
                // Triggers see the state every decision is made in.
                if self.run_triggers_before(def, pc, events)? == Flow::Reload {
                    return Ok(Flow::Reload);
                }
                let (who, each_base) = match op {
                    Op::Ask(_) => (Seats::one(self.pop() as Seat), None),
                    Op::AskEach(_, base) => (Seats::all(def.players()), Some(base)),
                    _ => unreachable!(),
                };
                self.dedupe_offers(def, decision);
                if let Some(&empty) = who.iter().find(|&&s| self.offers[s as usize].is_empty()) {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::NothingToChoose,
                            format!("{} has nothing to choose from", def.seat_name(empty)),
                        )
                        .label(def.decisions[decision as usize].span, "asked here")
                        .help("a decision needs at least one choice; check the condition or the zone first"),
                    ));
                }
                self.offer_anytime(def, &who, events)?;
                self.status = Status::Waiting(Ask {
                    decision,
                    who,
                    each_base,
                    offer_pc: self.offer_pc,
                });
                return Ok(Flow::Reload);
            }
            Op::ResumeAsk => {
                let frame = self.frames.pop().expect("frame");
                self.stack.truncate(frame.stack_base as usize);
                self.locals.truncate(frame.locals_base as usize);
                let Some(ask) = self.interrupted.pop() else {
                    return Err(self.error(
                        def,
                        Code::RuntimeError,
                        "an anytime action ended outside a decision".into(),
                    ));
                };
                // Ask the interrupted decision again, building its offers
                // afresh: the action may have changed what is legal, and
                // the anytime actions are offered again. Its triggers ran.
                self.frames.last_mut().expect("the asking frame").pc = ask.offer_pc;
                self.triggers_checked = true;
                return Ok(Flow::Reload);
            }
            _ => unreachable!("`step` hands {op:?} to the wrong family"),
        }
        Ok(Flow::Continue)
    }
}
