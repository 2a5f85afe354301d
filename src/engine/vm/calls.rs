//! Variables, calls of procedures and hooks, options read as lists, and failures the rules raise.

use super::super::events::Event;
use super::super::{Game, RuntimeError, State};
use super::{Flow, table_entry};
use crate::diagnostic::Code;
use crate::ir::{Op, Seat, id_from_index};

impl State {
    /// Runs a variable store, a call of a procedure or a hook, an option's list, or a failure.
    pub(super) fn call_step(
        &mut self,
        def: &Game,
        events: &mut Vec<Event>,
        op: Op,
        stop_depth: usize,
    ) -> Result<Flow, RuntimeError> {
        match op {
            Op::StoreVar(slot) => {
                let v = self.pop();
                self.vars[slot as usize] = v;
                if let Some(var) = def.vars.iter().position(|d| d.slot == slot) {
                    events.push(Event::Var {
                        var: id_from_index(var),
                        seat: None,
                        value: v,
                    });
                }
            }
            Op::StoreVarAt(base) => {
                let seat = self.pop();
                let v = self.pop();
                self.vars[base as usize + seat as usize] = v;
                if let Some(var) = def.vars.iter().position(|d| d.slot == base) {
                    events.push(Event::Var {
                        var: id_from_index(var),
                        seat: Some(seat as Seat),
                        value: v,
                    });
                }
            }
            Op::Call(proc) => {
                self.count_step(def)?;
                self.enter(def, proc, stop_depth)?;
                return Ok(Flow::Reload);
            }
            Op::CallHook(site) => {
                let argc = def.hook_calls[site as usize].args.len();
                let args = self.stack.split_off(self.stack.len() - argc);
                let script = def.script.as_ref().expect("a game with hook calls has a script");
                let value = script.call(
                    def,
                    site,
                    &args,
                    &self.face,
                    &self.piece_zone,
                    &self.vars,
                    &self.options,
                )?;
                events.push(Event::Hook {
                    hook: def.hook_calls[site as usize].hook,
                    value,
                });
                self.stack.push(value);
            }
            Op::OptionTable(option) => {
                let n = self.pop();
                self.stack.push(table_entry(&self.lists[option as usize], n));
            }
            Op::Fail(message) => {
                return Err(self.error(def, Code::RuntimeError, def.messages[message as usize].clone()));
            }
            _ => unreachable!("`step` hands {op:?} to the wrong family"),
        }
        Ok(Flow::Continue)
    }
}
