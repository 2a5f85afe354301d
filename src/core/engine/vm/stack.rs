//! The stack and the locals, as the inner loop runs them: fused loads and
//! stores.

use super::super::events::Event;
use super::super::lower::Cmp;
use super::super::{Game, RuntimeError, State};
use crate::diagnostic::Code;
use crate::ir::{GameDef, VarEach};

impl State {
    /// `Pop`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_pop(&mut self, pc: usize) -> usize {
        self.pop();
        pc
    }

    /// `Dup`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_dup(&mut self, pc: usize) -> usize {
        let v = *self.stack.last().expect("balanced");
        self.stack.push(v);
        pc
    }

    /// `Store`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_store(&mut self, pc: usize, locals_base: usize, slot: u16) -> usize {
        let v = self.pop();
        self.locals[locals_base + slot as usize] = v;
        pc
    }

    /// `LoadAt`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_load_at(&mut self, pc: usize, locals_base: usize, base: u16) -> usize {
        let i = self.pop();
        self.stack.push(self.locals[locals_base + base as usize + i as usize]);
        pc
    }

    /// `LoadVarAt`: `pc` points past it; returns where to go on. An index
    /// past the variables (a piece that was never chosen) is an error.
    #[inline(always)]
    pub(super) fn run_load_var_at(&mut self, def: &GameDef, pc: usize, base: u16) -> Result<usize, RuntimeError> {
        let index = self.pop();
        let value = usize::try_from(index)
            .ok()
            .and_then(|i| self.vars.get(base as usize + i).copied());
        match value {
            Some(v) => self.stack.push(v),
            None => {
                self.frames.last_mut().expect("frame").pc = (pc - 1) as u32;
                return Err(self.no_var_value(def, base));
            }
        }
        Ok(pc)
    }

    /// Sets the variable at `slot` (`StoreVar`) to `value`, and records it.
    #[inline]
    pub(in crate::engine) fn store_var(&mut self, def: &Game, slot: u16, value: i64, events: &mut Vec<Event>) {
        let was = std::mem::replace(&mut self.vars[slot as usize], value);
        if let Some(&Some(var)) = def.var_at_slot.get(usize::from(slot)) {
            events.push(Event::Var {
                var,
                index: None,
                was,
                seen_by: def.all_seats_mask(),
                value,
            });
        }
    }

    /// Sets entry `index` of the variable whose first slot is `base`
    /// (`StoreVarAt`) to `value`, and records it; `false`, changing
    /// nothing, when `index` names no slot (a name that holds no piece).
    #[inline]
    pub(in crate::engine) fn store_var_at(
        &mut self,
        def: &Game,
        base: u16,
        index: i64,
        value: i64,
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(slot) = usize::try_from(index)
            .ok()
            .map(|i| base as usize + i)
            .filter(|&slot| slot < self.vars.len())
        else {
            return false;
        };
        let var = def.var_at_slot.get(usize::from(base)).copied().flatten();
        // A value kept per piece is seen by those who know the piece; an
        // index past the pieces names no piece (nothing is changed).
        let seen_by = match var.map(|var| def.vars[usize::from(var)].each) {
            Some(VarEach::Piece) => match self.known.get(index as usize) {
                Some(&known) => known,
                None => return false,
            },
            _ => def.all_seats_mask(),
        };
        let was = std::mem::replace(&mut self.vars[slot], value);
        if let Some(var) = var {
            events.push(Event::Var {
                var,
                index: Some(index as u32),
                was,
                seen_by,
                value,
            });
        }
        true
    }

    /// The error for a variable kept per player, space or piece read or set
    /// for none of them: a name that holds no piece (`, or pass` chosen).
    pub(super) fn no_var_value(&self, def: &GameDef, base: u16) -> RuntimeError {
        let var = def.vars.iter().find(|v| v.slot == base);
        let name = var.map_or("a variable", |v| v.name.as_str());
        let each = match var.map(|v| v.each) {
            Some(VarEach::Player) => "player",
            Some(VarEach::Space(_)) => "space",
            _ => "piece",
        };
        self.error(
            def,
            Code::MissingAttribute,
            format!("`{name}` is kept per {each}, and this names no {each}: was nothing chosen?"),
        )
    }

    /// `Cmp`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_cmp(&mut self, pc: usize, cmp: Cmp) -> usize {
        let b = self.pop();
        let a = self.pop();
        self.stack.push(i64::from(cmp.holds(a, b)));
        pc
    }

    /// `Not`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_not(&mut self, pc: usize) -> usize {
        let v = self.pop();
        self.stack.push(i64::from(v == 0));
        pc
    }

    /// `Neg`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_neg(&mut self, pc: usize) -> usize {
        let v = self.pop();
        self.stack.push(v.wrapping_neg());
        pc
    }

    /// `NextSeat`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_next_seat(&mut self, def: &Game, pc: usize) -> usize {
        let seat = self.pop();
        self.stack.push((seat + 1) % def.players() as i64);
        pc
    }

    /// `LoadLoad`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_load_load(&mut self, mut pc: usize, locals_base: usize, a: u16, b: u16) -> usize {
        self.stack.push(self.locals[locals_base + a as usize]);
        self.stack.push(self.locals[locals_base + b as usize]);
        pc += 1;
        pc
    }

    /// `LoadConst`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_load_const(&mut self, mut pc: usize, locals_base: usize, slot: u16, value: i32) -> usize {
        self.stack.push(self.locals[locals_base + slot as usize]);
        self.stack.push(i64::from(value));
        pc += 1;
        pc
    }

    /// `StoreLoad`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_store_load(&mut self, mut pc: usize, locals_base: usize, store: u16, load: u16) -> usize {
        let v = self.pop();
        self.locals[locals_base + store as usize] = v;
        self.stack.push(self.locals[locals_base + load as usize]);
        pc += 1;
        pc
    }

    /// `Copy`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_copy(&mut self, mut pc: usize, locals_base: usize, from: u16, to: u16) -> usize {
        self.locals[locals_base + to as usize] = self.locals[locals_base + from as usize];
        pc += 1;
        pc
    }

    /// `SetLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_set_local(&mut self, mut pc: usize, locals_base: usize, slot: u16, value: i32) -> usize {
        self.locals[locals_base + slot as usize] = i64::from(value);
        pc += 1;
        pc
    }
}
