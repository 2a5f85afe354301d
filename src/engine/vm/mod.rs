//! The interpreter loop: executes ops until a decision is needed, the game
//! ends, or a nested call (trigger, score term) returns.

mod board;
mod ending;
mod loops;
mod pieces;
mod slow;
#[cfg(test)]
mod tests;
mod triggers;
mod zones;

use super::Game;
use super::events::Event;
use super::lower::{Ins, KIND_OFFER_LEN, MAX_OFFER_PARAMS};
use super::{Frame, MAX_STEPS_BETWEEN_DECISIONS, RuntimeError, State, Status};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::grid::NO_SPACE;
use crate::ir::{
    Attr, ChoiceKind, ChoiceValue, FamilyIndex, GameDef, MatchBy, Matcher, Op, PieceId, ProcId, ZoneId, id_from_value,
};

/// Entry `n` of a table (`table set_values at n`) or of a list option: read
/// from 1; 0 below it (and in an empty list), the last value past its end.
fn table_entry(values: &[i64], n: i64) -> i64 {
    match values.last() {
        Some(&last) if n > 0 => values.get(n as usize - 1).copied().unwrap_or(last),
        _ => 0,
    }
}

/// What [`State::step`] leaves [`State::exec`] to do.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Go on with the next op.
    Continue,
    /// The op may have changed the frames or the status: look at them again.
    Reload,
}

/// What `exec` stopped for.
enum Stop {
    /// The frames dropped to the requested depth.
    Returned,
    /// Waiting for a decision, or the game is over.
    Suspended,
}

impl State {
    /// Pushes a frame for `proc`; its arguments are the top `params` values.
    pub(super) fn enter(&mut self, def: &GameDef, proc: ProcId, _depth: usize) -> Result<(), RuntimeError> {
        let p = &def.procs[proc as usize];
        if self.frames.len() > 200 {
            return Err(self.error(
                def,
                Code::TooDeep,
                format!("procedures called each other more than 200 deep (in `{}`)", p.name),
            ));
        }
        let locals_base = self.locals.len();
        self.locals.resize(locals_base + p.locals as usize, 0);
        let args_start = self.stack.len() - p.params as usize;
        for (i, v) in self.stack.drain(args_start..).enumerate() {
            self.locals[locals_base + i] = v;
        }
        self.frames.push(Frame {
            pc: p.entry,
            locals_base: locals_base as u32,
            stack_base: self.stack.len() as u32,
            proc,
        });
        Ok(())
    }

    /// Runs a procedure that asks no one (triggers, scoring, start values)
    /// to completion and returns its first `N` results (zeros past the
    /// ones it has). An array, not a vector: triggers run after every
    /// action, and a search plays millions of those.
    pub(super) fn call_sync<const N: usize>(
        &mut self,
        def: &Game,
        proc: ProcId,
        args: &[i64],
        events: &mut Vec<Event>,
    ) -> Result<[i64; N], RuntimeError> {
        let depth = self.frames.len();
        self.stack.extend_from_slice(args);
        self.enter(def, proc, depth)?;
        let mut results = [0; N];
        match self.exec(def, events, depth)? {
            Stop::Returned => {
                let n = def.procs[proc as usize].returns as usize;
                let start = self.stack.len() - n;
                for (to, &v) in results.iter_mut().zip(&self.stack[start..]) {
                    *to = v;
                }
                self.stack.truncate(start);
                Ok(results)
            }
            Stop::Suspended => {
                if matches!(self.status, Status::Waiting(_)) {
                    self.status = Status::Failed;
                    return Err(self.error(
                        def,
                        Code::DecisionNotAllowed,
                        "a decision was asked where none may be".into(),
                    ));
                }
                // The game ended inside (e.g. a trigger's `win`): unwind.
                self.frames.truncate(depth);
                Ok(results)
            }
        }
    }

    /// Runs the main flow until it waits or ends.
    pub(super) fn run(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        match self.exec(def, events, 0) {
            Ok(_) => Ok(()),
            Err(e) => {
                self.status = Status::Failed;
                Err(e)
            }
        }
    }

    pub(super) fn span(&self, def: &GameDef) -> Span {
        let pc = self.frames.last().map_or(0, |f| f.pc.saturating_sub(1));
        def.spans.get(pc as usize).copied().unwrap_or_default()
    }

    pub(in crate::engine) fn error(&self, def: &GameDef, code: Code, message: String) -> RuntimeError {
        Box::new(Diagnostic::error(code, message).label(self.span(def), "while running this"))
    }

    /// Using a space that is not there: a step past the edge of a grid.
    pub(super) fn off_board(&self, def: &GameDef) -> RuntimeError {
        self.error(
            def,
            Code::NoSuchSpace,
            "there is no space there: it is off the board (test it first with `exists`)".into(),
        )
    }

    /// The space of `board` that `piece` stands on, or `None` when it is
    /// elsewhere.
    pub(super) fn space_of(&self, def: &GameDef, board: u16, piece: PieceId) -> Option<i64> {
        let zone = &def.zones[self.piece_zone[piece as usize] as usize];
        (def.families[zone.family as usize].by == FamilyIndex::PerSpace(board)).then_some(zone.index as i64)
    }

    /// Asking for the space of a piece that is not on the board.
    pub(super) fn not_on_board(&self, def: &GameDef, board: u16, piece: PieceId) -> RuntimeError {
        self.error(
            def,
            Code::NotOnBoard,
            format!(
                "{} is in `{}`, not on board `{}`",
                def.piece_label(self.face[piece as usize]),
                def.zone_name(self.piece_zone[piece as usize]),
                def.boards[board as usize].name
            ),
        )
    }

    /// An action value that cannot be packed.
    pub(super) fn bad_action(&self, def: &GameDef) -> RuntimeError {
        self.error(
            def,
            Code::BadAction,
            "an action's number parameter is outside 0 to 65535".into(),
        )
    }

    pub(super) fn pop(&mut self) -> i64 {
        self.stack.pop().expect("the checker balances the stack")
    }

    /// Pops a piece value: a piece chosen "as" a kind is still that piece.
    pub(super) fn pop_piece(&mut self) -> PieceId {
        ChoiceValue::from_raw(self.pop()).piece_id()
    }

    pub(super) fn pop_zone(&mut self) -> ZoneId {
        id_from_value(self.pop())
    }

    /// Pops a matcher's stack arguments: `(key, owner)`.
    pub(super) fn pop_matcher(&mut self, m: Matcher) -> (i64, i64) {
        let owner = if m.owner { self.pop() } else { -1 };
        let key = if matches!(m.by, MatchBy::TypeOnStack | MatchBy::KindOnStack) {
            self.pop()
        } else {
            -1
        };
        (key, owner)
    }

    /// Returns from the current frame: its results move down to where its
    /// stack began, and its locals go.
    pub(super) fn leave(&mut self, def: &GameDef) {
        let frame = self.frames.pop().expect("frame");
        let n = def.procs[frame.proc as usize].returns as usize;
        let (results, base) = (self.stack.len() - n, frame.stack_base as usize);
        // Mostly one result, or none: not worth a call to memmove.
        for i in 0..n {
            self.stack[base + i] = self.stack[results + i];
        }
        self.stack.truncate(base + n);
        self.locals.truncate(frame.locals_base as usize);
    }

    /// The error of a checked arithmetic op that failed.
    pub(super) fn arithmetic_error(&self, def: &GameDef, op: Op, a: i64, b: i64) -> RuntimeError {
        if b == 0 && matches!(op, Op::Div | Op::Rem) {
            self.error(def, Code::DivisionByZero, "division by zero".into())
        } else {
            self.error(def, Code::Overflow, format!("{a} and {b} overflow a number"))
        }
    }

    /// Runs ops until the frames drop to `stop_depth`, a decision is
    /// asked, or the game ends.
    ///
    /// The inner loop keeps the program counter and the frame's locals base
    /// in registers and runs the ops that only touch the value stack, the
    /// locals and the variables, and jumps, in place. Every other op goes
    /// through [`State::step`] with the counter written back to the frame
    /// (errors point at it); an op that may change the frames or the status
    /// ends the inner loop, so the outer one looks at them again.
    fn exec(&mut self, def: &Game, events: &mut Vec<Event>, stop_depth: usize) -> Result<Stop, RuntimeError> {
        debug_assert_eq!(
            def.program.ins.len(),
            def.code.len(),
            "the program is lowered from this code"
        );
        let program = &def.program.ins[..];
        loop {
            if self.frames.len() <= stop_depth {
                return Ok(Stop::Returned);
            }
            if !matches!(self.status, Status::Running) {
                return Ok(Stop::Suspended);
            }
            let frame = self.frames.last().expect("checked above");
            let mut pc = frame.pc as usize;
            let locals_base = frame.locals_base as usize;
            loop {
                // Matched in place: each arm reads only its own fields, not
                // a copy of the whole instruction first.
                let ins = &program[pc];
                pc += 1;
                match *ins {
                    Ins::Push(v) => self.stack.push(v),
                    Ins::Pop => {
                        self.pop();
                    }
                    Ins::Dup => {
                        let v = *self.stack.last().expect("balanced");
                        self.stack.push(v);
                    }
                    Ins::Load(slot) => self.stack.push(self.locals[locals_base + slot as usize]),
                    Ins::Store(slot) => {
                        let v = self.pop();
                        self.locals[locals_base + slot as usize] = v;
                    }
                    Ins::LoadAt(base) => {
                        let i = self.pop();
                        self.stack.push(self.locals[locals_base + base as usize + i as usize]);
                    }
                    Ins::LoadVar(slot) => self.stack.push(self.vars[slot as usize]),
                    Ins::LoadVarAt(base) => {
                        let seat = self.pop();
                        self.stack.push(self.vars[base as usize + seat as usize]);
                    }
                    Ins::LoadOption(i) => self.stack.push(self.options[i as usize]),
                    Ins::Arith(arith) => {
                        let b = self.pop();
                        let a = self.pop();
                        match arith.apply(a, b) {
                            Some(v) => self.stack.push(v),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                return Err(self.arithmetic_error(def, arith.op(), a, b));
                            }
                        }
                    }
                    Ins::Cmp(cmp) => {
                        let b = self.pop();
                        let a = self.pop();
                        self.stack.push(i64::from(cmp.holds(a, b)));
                    }
                    Ins::Not => {
                        let v = self.pop();
                        self.stack.push(i64::from(v == 0));
                    }
                    Ins::Neg => {
                        let v = self.pop();
                        self.stack.push(v.wrapping_neg());
                    }
                    Ins::NextSeat => {
                        let seat = self.pop();
                        self.stack.push((seat + 1) % def.players() as i64);
                    }
                    Ins::Jump(t) => {
                        // Every loop jumps back: count the rounds, not every op.
                        if (t as usize) < pc {
                            self.count_round(def, pc)?;
                        }
                        pc = t as usize;
                    }
                    Ins::JumpNext {
                        value,
                        last,
                        exit,
                        head,
                    } => {
                        self.count_round(def, pc)?;
                        let v = &mut self.locals[locals_base + value as usize];
                        *v += 1;
                        pc = if *v > self.locals[locals_base + last as usize] {
                            exit as usize
                        } else {
                            head as usize + 1
                        };
                    }
                    Ins::JumpNextNeighbour {
                        board,
                        from,
                        value,
                        exit_after,
                        head,
                    } => {
                        self.count_round(def, pc)?;
                        pc = match self.step_neighbour(def, locals_base, board, from, value, head)? {
                            true => head as usize + 1,
                            false => head as usize + exit_after as usize,
                        };
                    }
                    Ins::JumpNextTested {
                        value,
                        last,
                        exit,
                        head,
                    } => {
                        let head = head as usize;
                        pc = loop {
                            self.count_round(def, pc)?;
                            let v = &mut self.locals[locals_base + value as usize];
                            *v += 1;
                            if *v > self.locals[locals_base + last as usize] {
                                break exit as usize;
                            }
                            if let Some(next) = self.after_loop_test(def, program, head, locals_base) {
                                break next;
                            }
                        };
                    }
                    Ins::JumpNextNeighbourTested {
                        board,
                        from,
                        value,
                        exit_after,
                        head,
                    } => {
                        let head = head as usize;
                        pc = loop {
                            self.count_round(def, pc)?;
                            if !self.step_neighbour(def, locals_base, board, from, value, head as u32)? {
                                break head + exit_after as usize;
                            }
                            if let Some(next) = self.after_loop_test(def, program, head, locals_base) {
                                break next;
                            }
                        };
                    }
                    Ins::LocalZoneSizeJump {
                        slot,
                        family,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let index = self.locals[locals_base + slot as usize];
                        let Some(size) = self.zone_size(def, family, index) else {
                            // Point at the `ZoneOf`, the second op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        pc = if cmp.holds(size, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 5
                        };
                    }
                    Ins::LocalVarCmpJump {
                        slot,
                        var,
                        cmp,
                        when,
                        target,
                    } => {
                        let (a, b) = (self.locals[locals_base + slot as usize], self.vars[var as usize]);
                        pc = if cmp.holds(a, b) == when {
                            target as usize
                        } else {
                            pc + 3
                        };
                    }
                    Ins::CellTestJump(at) => {
                        let test = &def.program.cell_tests[at as usize];
                        let Some(size) = self.cell_zone_size(def, test, locals_base) else {
                            // Point at the `ZoneOf`, the fourth op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 3) as u32;
                            return Err(self.off_board(def));
                        };
                        pc = if test.cmp.holds(size, test.value) == test.when {
                            test.target as usize
                        } else {
                            pc + 7
                        };
                    }
                    Ins::CellZoneSizeJump {
                        board,
                        family,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let column = self.pop();
                        let row = self.pop();
                        let space = def.boards[board as usize].cell(row, column);
                        let Some(size) = self.zone_size(def, family, space) else {
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        pc = if cmp.holds(size, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 5
                        };
                    }
                    Ins::JumpIfFalse(t) => {
                        if self.pop() == 0 {
                            pc = t as usize;
                        }
                    }
                    Ins::JumpIfTrue(t) => {
                        if self.pop() != 0 {
                            pc = t as usize;
                        }
                    }
                    Ins::Next { value, last, exit } => {
                        let v = &mut self.locals[locals_base + value as usize];
                        *v += 1;
                        if *v > self.locals[locals_base + last as usize] {
                            pc = exit as usize;
                        }
                    }
                    Ins::NextPiece {
                        zone,
                        index,
                        value,
                        filter,
                        exit,
                    } => {
                        if !self.next_piece(def, locals_base, zone, index, value, filter) {
                            pc = exit as usize;
                        }
                    }
                    Ins::NextOnBoard {
                        board,
                        cursor,
                        value,
                        filter,
                        exit,
                    } => {
                        if !self.next_on_board(def, locals_base, board, cursor, value, filter) {
                            pc = exit as usize;
                        }
                    }
                    Ins::NextNeighbour {
                        board,
                        from,
                        value,
                        exit,
                    } => match self.next_neighbour(def, locals_base, board, from, value) {
                        Some(true) => {}
                        Some(false) => pc = exit as usize,
                        None => {
                            self.frames.last_mut().expect("frame").pc = pc as u32;
                            return Err(self.off_board(def));
                        }
                    },
                    Ins::ZoneOf(family) => {
                        let index = self.pop();
                        match self.zone_of(def, family, index) {
                            Some(zone) => self.stack.push(zone as i64),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                return Err(self.off_board(def));
                            }
                        }
                    }
                    Ins::Size => {
                        let zone = self.pop();
                        self.stack.push(self.zones.len(zone as usize) as i64);
                    }
                    Ins::ChoiceAdd => {
                        let value = self.pop();
                        let seat = self.pop();
                        self.offers[seat as usize].push(value);
                    }
                    Ins::CellAt(board) => {
                        let column = self.pop();
                        let row = self.pop();
                        self.stack.push(def.boards[board as usize].cell(row, column));
                    }
                    Ins::Step(board) => {
                        let direction = self.pop();
                        let space = self.pop();
                        self.stack
                            .push(def.program.steps[board as usize].step(space, direction));
                    }
                    Ins::Forward { board, backward } => {
                        let seat = self.pop();
                        let ahead = def.boards[board as usize].forward[seat as usize];
                        let d = if backward {
                            crate::ir::grid::opposite(ahead)
                        } else {
                            ahead
                        };
                        self.stack.push(d as i64);
                    }
                    Ins::ActionEntry(decision) => {
                        let value = ChoiceValue::from_raw(self.pop());
                        let entry = match &def.decisions[decision as usize].kind {
                            ChoiceKind::Actions(actions) => value.action_entry(actions),
                            _ => 0,
                        };
                        self.stack.push(entry as i64);
                    }
                    Ins::ActionParam { decision, entry, param } => {
                        let value = ChoiceValue::from_raw(self.pop());
                        let ChoiceKind::Actions(actions) = &def.decisions[decision as usize].kind else {
                            unreachable!("the checker gives action values to action decisions")
                        };
                        let param = value.action_param(actions, entry as usize, param as usize);
                        self.stack.push(param);
                    }
                    Ins::KindAt(set) => {
                        let i = self.pop();
                        self.stack.push(def.kind_sets[set as usize].members[i as usize] as i64);
                    }
                    Ins::TypeAt(group) => {
                        let i = self.pop();
                        self.stack.push(def.groups[group as usize].types[i as usize] as i64);
                    }
                    Ins::Beats => {
                        let b = id_from_value(self.pop());
                        let a = id_from_value(self.pop());
                        self.stack.push(i64::from(def.beats(a, b)));
                    }
                    Ins::LoadLoad(a, b) => {
                        self.stack.push(self.locals[locals_base + a as usize]);
                        self.stack.push(self.locals[locals_base + b as usize]);
                        pc += 1;
                    }
                    Ins::LoadConst { slot, value } => {
                        self.stack.push(self.locals[locals_base + slot as usize]);
                        self.stack.push(i64::from(value));
                        pc += 1;
                    }
                    Ins::StoreLoad { store, load } => {
                        let v = self.pop();
                        self.locals[locals_base + store as usize] = v;
                        self.stack.push(self.locals[locals_base + load as usize]);
                        pc += 1;
                    }
                    Ins::Copy { from, to } => {
                        self.locals[locals_base + to as usize] = self.locals[locals_base + from as usize];
                        pc += 1;
                    }
                    Ins::SetLocal { slot, value } => {
                        self.locals[locals_base + slot as usize] = i64::from(value);
                        pc += 1;
                    }
                    Ins::OfferKinds(at) => {
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
                    }
                    Ins::AddToLocal { slot, value } => {
                        let at = locals_base + slot as usize;
                        let a = self.locals[at];
                        match a.checked_add(i64::from(value)) {
                            Some(v) => self.locals[at] = v,
                            None => {
                                // Point at the `Add`, the third op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                                return Err(self.arithmetic_error(def, Op::Add, a, i64::from(value)));
                            }
                        }
                        pc += 3;
                    }
                    Ins::SubFromLocal { slot, value } => {
                        let at = locals_base + slot as usize;
                        let a = self.locals[at];
                        match a.checked_sub(i64::from(value)) {
                            Some(v) => self.locals[at] = v,
                            None => {
                                // Point at the `Sub`, the third op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                                return Err(self.arithmetic_error(def, Op::Sub, a, i64::from(value)));
                            }
                        }
                        pc += 3;
                    }
                    Ins::ArithConst { arith, value } => {
                        let a = self.pop();
                        match arith.apply(a, i64::from(value)) {
                            Some(v) => self.stack.push(v),
                            None => {
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.arithmetic_error(def, arith.op(), a, i64::from(value)));
                            }
                        }
                        pc += 1;
                    }
                    Ins::CmpJump { cmp, when, target } => {
                        let b = self.pop();
                        let a = self.pop();
                        pc = if cmp.holds(a, b) == when {
                            target as usize
                        } else {
                            pc + 1
                        };
                    }
                    Ins::CmpConstJump {
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let a = self.pop();
                        pc = if cmp.holds(a, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 2
                        };
                    }
                    Ins::LocalCmpConstJump {
                        slot,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let a = self.locals[locals_base + slot as usize];
                        pc = if cmp.holds(a, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 3
                        };
                    }
                    Ins::LocalZoneSize { slot, family } => {
                        let index = self.locals[locals_base + slot as usize];
                        match self.zone_size(def, family, index) {
                            Some(size) => self.stack.push(size),
                            None => {
                                // Point at the `ZoneOf`, the second op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.off_board(def));
                            }
                        }
                        pc += 2;
                    }
                    Ins::ZoneOfLocal { slot, family, to } => {
                        let index = self.locals[locals_base + slot as usize];
                        match self.zone_of(def, family, index) {
                            Some(zone) => self.locals[locals_base + to as usize] = zone as i64,
                            None => {
                                // Point at the `ZoneOf`, the second op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.off_board(def));
                            }
                        }
                        pc += 2;
                    }
                    Ins::ZoneSize(family) => {
                        let index = self.pop();
                        match self.zone_size(def, family, index) {
                            Some(size) => self.stack.push(size),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                return Err(self.off_board(def));
                            }
                        }
                        pc += 1;
                    }
                    Ins::Count(m) => {
                        let zone = self.pop_zone();
                        let n = self.count_matching(def, zone as usize, m);
                        self.stack.push(n);
                    }
                    Ins::Attr(attr) => {
                        let value = self.pop();
                        match self.attribute(def, attr, value) {
                            Some(v) => self.stack.push(v),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                let what = if attr == Attr::Kind { "kind" } else { "owner" };
                                return Err(self.error(
                                    def,
                                    Code::MissingAttribute,
                                    format!("this piece has no {what}"),
                                ));
                            }
                        }
                    }
                    Ins::Table(table) => {
                        let n = self.pop();
                        self.stack.push(table_entry(&def.tables[table as usize], n));
                    }
                    Ins::CountInLocalZone { slot, family, matcher } => {
                        let index = self.locals[locals_base + slot as usize];
                        let Some(zone) = self.zone_of(def, family, index) else {
                            // Point at the `ZoneOf`, the second op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        let n = self.count_matching(def, zone, matcher);
                        self.stack.push(n);
                        pc += 2;
                    }
                    Ins::CountInGame(m) => {
                        let n = self.count_in_game(def, m);
                        self.stack.push(n);
                    }
                    Ins::Return => {
                        self.leave(def);
                        break;
                    }
                    Ins::CountOnBoard { board, matcher } => {
                        let (key, owner) = self.pop_matcher(matcher);
                        let n = self.count_on_board(def, board, matcher, key, owner);
                        self.stack.push(n);
                    }
                    Ins::LoadLoadArith { a, b, arith } => {
                        let x = self.locals[locals_base + a as usize];
                        let y = self.locals[locals_base + b as usize];
                        match arith.apply(x, y) {
                            Some(v) => self.stack.push(v),
                            None => {
                                // Point at the arithmetic, the third op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                                return Err(self.arithmetic_error(def, arith.op(), x, y));
                            }
                        }
                        pc += 2;
                    }
                    Ins::ArithConstStore { arith, value, slot } => {
                        let a = self.pop();
                        match arith.apply(a, i64::from(value)) {
                            Some(v) => self.locals[locals_base + slot as usize] = v,
                            None => {
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.arithmetic_error(def, arith.op(), a, i64::from(value)));
                            }
                        }
                        pc += 2;
                    }
                    Ins::StepLocal {
                        board,
                        space,
                        direction,
                        to,
                    } => {
                        let space = self.locals[locals_base + space as usize];
                        let direction = self.locals[locals_base + direction as usize];
                        self.locals[locals_base + to as usize] =
                            def.program.steps[board as usize].step(space, direction);
                        pc += 3;
                    }
                    Ins::StepLocalJump {
                        board,
                        space,
                        direction,
                        to,
                        off_board,
                    } => {
                        let space = self.locals[locals_base + space as usize];
                        let direction = self.locals[locals_base + direction as usize];
                        let there = def.program.steps[board as usize].step(space, direction);
                        self.locals[locals_base + to as usize] = there;
                        pc = if there == NO_SPACE { off_board as usize } else { pc + 7 };
                    }
                    Ins::ArithChainStore { a, b, c, d, ops, to } => {
                        let mut v = self.locals[locals_base + a as usize];
                        let operands = [self.locals[locals_base + b as usize], i64::from(c), i64::from(d)];
                        for (k, (arith, operand)) in ops.into_iter().zip(operands).enumerate() {
                            match arith.apply(v, operand) {
                                Some(result) => v = result,
                                None => {
                                    // Point at this arithmetic: the run's third, fifth or seventh op.
                                    self.frames.last_mut().expect("frame").pc = (pc + 2 + 2 * k) as u32;
                                    return Err(self.arithmetic_error(def, arith.op(), v, operand));
                                }
                            }
                        }
                        self.locals[locals_base + to as usize] = v;
                        pc += 7;
                    }
                    Ins::SpaceOfLocal { board, piece, to } => {
                        let piece = ChoiceValue::from_raw(self.locals[locals_base + piece as usize]).piece_id();
                        match self.space_of(def, board, piece) {
                            Some(space) => self.locals[locals_base + to as usize] = space,
                            None => {
                                // Point at the `SpaceOf`, the second op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.not_on_board(def, board, piece));
                            }
                        }
                        pc += 2;
                    }
                    Ins::OfferAction { offer, len } => {
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
                    }
                    Ins::AddJumpLocalCmp {
                        slot,
                        add,
                        cmp,
                        when,
                        value,
                        target,
                        back,
                    } => {
                        let at = locals_base + slot as usize;
                        let a = self.locals[at];
                        let Some(v) = a.checked_add(i64::from(add)) else {
                            // Point at the `Add`, the third op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                            return Err(self.arithmetic_error(def, Op::Add, a, i64::from(add)));
                        };
                        self.locals[at] = v;
                        // Then the jump back, four ops on, as `JumpLocalCmp` runs it.
                        let jumped = pc + 4;
                        self.count_round(def, jumped)?;
                        pc = if cmp.holds(v, i64::from(value)) == when {
                            target as usize
                        } else {
                            jumped - 1 - back as usize + 4
                        };
                    }
                    Ins::EnterPieces {
                        slot,
                        family,
                        zone,
                        index,
                        value,
                        filter,
                        exit_after,
                    } => {
                        let space = self.locals[locals_base + slot as usize];
                        let Some(kept) = self.zone_of(def, family, space) else {
                            // Point at the `ZoneOf`, the second op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        self.locals[locals_base + zone as usize] = kept as i64;
                        self.locals[locals_base + index as usize] = -1;
                        // The step is the sixth op, at `pc + 4`; its body follows it.
                        pc = if self.next_piece(def, locals_base, zone, index, value, filter) {
                            pc + 5
                        } else {
                            pc + 4 + exit_after as usize
                        };
                    }
                    Ins::JumpCellTest { test, back } => {
                        self.count_round(def, pc)?;
                        let head = pc - 1 - back as usize;
                        let cell = &def.program.cell_tests[test as usize];
                        pc = match self.cell_zone_size(def, cell, locals_base) {
                            Some(size) if cell.cmp.holds(size, cell.value) == cell.when => cell.target as usize,
                            Some(_) => head + 8,
                            // Off the board: the test itself says so.
                            None => head,
                        };
                    }
                    Ins::JumpNextPiece {
                        zone,
                        index,
                        value,
                        filter,
                        back,
                        exit,
                    } => {
                        self.count_round(def, pc)?;
                        pc = if self.next_piece(def, locals_base, zone, index, value, filter) {
                            pc - back as usize
                        } else {
                            exit as usize
                        };
                    }
                    Ins::JumpNextOnBoard {
                        board,
                        cursor,
                        value,
                        filter,
                        back,
                        exit,
                    } => {
                        self.count_round(def, pc)?;
                        pc = if self.next_on_board(def, locals_base, board, cursor, value, filter) {
                            pc - back as usize
                        } else {
                            exit as usize
                        };
                    }
                    Ins::OfferLocal { seat, value } => {
                        let seat = self.locals[locals_base + seat as usize];
                        self.offers[seat as usize].push(self.locals[locals_base + value as usize]);
                        pc += 2;
                    }
                    Ins::JumpLocalCmp {
                        slot,
                        cmp,
                        when,
                        value,
                        target,
                        back,
                    } => {
                        self.count_round(def, pc)?;
                        let a = self.locals[locals_base + slot as usize];
                        // The test is four ops long, from `back` ops before the jump.
                        pc = if cmp.holds(a, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc - 1 - back as usize + 4
                        };
                    }
                    Ins::Slow => {
                        let op = def.code[pc - 1];
                        self.frames.last_mut().expect("frame").pc = pc as u32;
                        if self.step(def, events, op, (pc - 1) as u32, stop_depth)? == Flow::Reload {
                            break;
                        }
                    }
                }
            }
        }
    }
}
