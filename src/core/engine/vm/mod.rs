//! The interpreter loop: executes ops until a decision is needed, the game
//! ends, or a nested call (trigger, score term) returns.

mod arith;
mod board;
mod choices;
mod ending;
mod flow;
mod jumps;
mod loops;
mod native;

use native::Ran;
mod pieces;
mod slow;
mod stack;
#[cfg(test)]
mod tests;
mod triggers;
mod zones;

use super::Game;
use super::events::Event;
use super::lower::{Arith, Ins};
use super::state::{Frame, Status};
use super::{RuntimeError, State};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{ChoiceValue, FamilyIndex, GameDef, MatchBy, Matcher, Op, PieceId, ProcId, ZoneId, id_from_value};
use flow::Flow;

/// Entry `n` of a table (`table set_values at n`) or of a list option: read
/// from 1; 0 below it (and in an empty list), the last value past its end.
fn table_entry(values: &[i64], n: i64) -> i64 {
    match values.last() {
        Some(&last) if n > 0 => values.get(n as usize - 1).copied().unwrap_or(last),
        _ => 0,
    }
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

    /// `value`, or the off-board error with the frame's counter at `at`:
    /// the pc of the op (inside its run) that found no space.
    #[inline(always)]
    pub(super) fn on_board<T>(&mut self, def: &GameDef, at: usize, value: Option<T>) -> Result<T, RuntimeError> {
        value.ok_or_else(|| {
            self.frames.last_mut().expect("frame").pc = at as u32;
            self.off_board(def)
        })
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
    /// in registers and dispatches each fast instruction to the `run_`
    /// method of its op family (inlined, fields passed as arguments, the
    /// next counter returned). Every other op goes
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
            if let Some(code) = &def.native
                && let Ran::Reload = self.run_native(def, code, events, stop_depth)?
            {
                continue;
            }
            let frame = self.frames.last().expect("checked above");
            let mut pc = frame.pc as usize;
            let locals_base = frame.locals_base as usize;
            loop {
                // Matched in place: each arm reads only its own fields, not
                // a copy of the whole instruction first, and hands them on.
                let ins = &program[pc];
                pc += 1;
                match *ins {
                    Ins::Push(v) => self.stack.push(v),
                    Ins::Pop => pc = self.run_pop(pc),
                    Ins::Dup => pc = self.run_dup(pc),
                    Ins::Load(slot) => self.stack.push(self.locals[locals_base + slot as usize]),
                    Ins::Store(slot) => pc = self.run_store(pc, locals_base, slot),
                    Ins::LoadAt(base) => pc = self.run_load_at(pc, locals_base, base),
                    Ins::LoadVar(slot) => self.stack.push(self.vars[slot as usize]),
                    Ins::LoadVarAt(base) => pc = self.run_load_var_at(def, pc, base)?,
                    Ins::LoadOption(i) => self.stack.push(self.options[i as usize]),
                    Ins::Arith(arith) => pc = self.run_arith(def, pc, arith)?,
                    Ins::Cmp(cmp) => pc = self.run_cmp(pc, cmp),
                    Ins::Not => pc = self.run_not(pc),
                    Ins::Neg => pc = self.run_neg(pc),
                    Ins::NextSeat => pc = self.run_next_seat(def, pc),
                    Ins::Jump(t) => pc = self.run_jump(def, pc, t)?,
                    Ins::JumpNext {
                        value,
                        last,
                        exit,
                        head,
                    } => pc = self.run_jump_next(def, pc, locals_base, value, last, exit, head)?,
                    Ins::JumpNextNeighbour {
                        board,
                        from,
                        value,
                        exit_after,
                        head,
                    } => {
                        pc = self.run_jump_next_neighbour(def, pc, locals_base, board, from, value, exit_after, head)?
                    }
                    Ins::JumpNextTested {
                        value,
                        last,
                        exit,
                        head,
                    } => pc = self.run_jump_next_tested(def, program, pc, locals_base, value, last, exit, head)?,
                    Ins::JumpNextNeighbourTested {
                        board,
                        from,
                        value,
                        exit_after,
                        head,
                    } => {
                        pc = self.run_jump_next_neighbour_tested(
                            def,
                            program,
                            pc,
                            locals_base,
                            board,
                            from,
                            value,
                            exit_after,
                            head,
                        )?
                    }
                    Ins::LocalZoneSizeJump {
                        slot,
                        family,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        pc =
                            self.run_local_zone_size_jump(def, pc, locals_base, slot, family, cmp, when, value, target)?
                    }
                    Ins::LocalVarCmpJump {
                        slot,
                        var,
                        cmp,
                        when,
                        target,
                    } => pc = self.run_local_var_cmp_jump(pc, locals_base, slot, var, cmp, when, target),
                    Ins::CellTestJump(at) => pc = self.run_cell_test_jump(def, program, pc, locals_base, at)?,
                    Ins::CellZoneSizeJump {
                        board,
                        family,
                        cmp,
                        when,
                        value,
                        target,
                    } => pc = self.run_cell_zone_size_jump(def, pc, board, family, cmp, when, value, target)?,
                    Ins::JumpIfFalse(t) => pc = self.run_jump_if_false(pc, t),
                    Ins::JumpIfTrue(t) => pc = self.run_jump_if_true(pc, t),
                    Ins::Next { value, last, exit } => pc = self.run_next(pc, locals_base, value, last, exit),
                    Ins::NextPiece {
                        zone,
                        index,
                        value,
                        filter,
                        exit,
                    } => pc = self.run_next_piece(def, pc, locals_base, zone, index, value, filter, exit),
                    Ins::NextOnBoard {
                        board,
                        cursor,
                        value,
                        filter,
                        exit,
                    } => pc = self.run_next_on_board(def, pc, locals_base, board, cursor, value, filter, exit),
                    Ins::NextNeighbour {
                        board,
                        from,
                        value,
                        exit,
                    } => pc = self.run_next_neighbour(def, pc, locals_base, board, from, value, exit)?,
                    Ins::ZoneOf(family) => pc = self.run_zone_of(def, pc, family)?,
                    Ins::Size => pc = self.run_size(pc),
                    Ins::ChoiceAdd => pc = self.run_choice_add(pc),
                    Ins::ChoiceReset => pc = self.run_choice_reset(pc),
                    Ins::CellAt(board) => pc = self.run_cell_at(def, pc, board),
                    Ins::Step(board) => pc = self.run_step(def, pc, board),
                    Ins::Forward { board, backward } => pc = self.run_forward(def, pc, board, backward),
                    Ins::ActionEntry(decision) => pc = self.run_action_entry(def, pc, decision),
                    Ins::ActionParam { decision, entry, param } => {
                        pc = self.run_action_param(def, pc, decision, entry, param)
                    }
                    Ins::KindAt(set) => pc = self.run_kind_at(def, pc, set),
                    Ins::TypeAt(group) => pc = self.run_type_at(def, pc, group),
                    Ins::Beats => pc = self.run_beats(def, pc),
                    Ins::LoadLoad(a, b) => pc = self.run_load_load(pc, locals_base, a, b),
                    Ins::LoadConst { slot, value } => pc = self.run_load_const(pc, locals_base, slot, value),
                    Ins::StoreLoad { store, load } => pc = self.run_store_load(pc, locals_base, store, load),
                    Ins::Copy { from, to } => pc = self.run_copy(pc, locals_base, from, to),
                    Ins::SetLocal { slot, value } => pc = self.run_set_local(pc, locals_base, slot, value),
                    Ins::OfferKinds(at) => pc = self.run_offer_kinds(def, program, pc, locals_base, at),
                    Ins::AddToLocal { slot, value } => {
                        pc = self.run_local_step(def, pc, locals_base, slot, value, Arith::Add)?
                    }
                    Ins::SubFromLocal { slot, value } => {
                        pc = self.run_local_step(def, pc, locals_base, slot, value, Arith::Sub)?
                    }
                    Ins::ArithConst { arith, value } => pc = self.run_arith_const(def, pc, arith, value)?,
                    Ins::CmpJump { cmp, when, target } => pc = self.run_cmp_jump(pc, cmp, when, target),
                    Ins::CmpConstJump {
                        cmp,
                        when,
                        value,
                        target,
                    } => pc = self.run_cmp_const_jump(pc, cmp, when, value, target),
                    Ins::LocalCmpConstJump {
                        slot,
                        cmp,
                        when,
                        value,
                        target,
                    } => pc = self.run_local_cmp_const_jump(pc, locals_base, slot, cmp, when, value, target),
                    Ins::LocalZoneSize { slot, family } => {
                        pc = self.run_local_zone_size(def, pc, locals_base, slot, family)?
                    }
                    Ins::ZoneOfLocal { slot, family, to } => {
                        pc = self.run_zone_of_local(def, pc, locals_base, slot, family, to)?
                    }
                    Ins::ZoneSize(family) => pc = self.run_zone_size(def, pc, family)?,
                    Ins::Count(m) => pc = self.run_count(def, pc, m),
                    Ins::Attr(attr) => pc = self.run_attr(def, pc, attr)?,
                    Ins::Table(table) => pc = self.run_table(def, pc, table),
                    Ins::CountInLocalZone { slot, family, matcher } => {
                        pc = self.run_count_in_local_zone(def, pc, locals_base, slot, family, matcher)?
                    }
                    Ins::CountInGame(m) => pc = self.run_count_in_game(def, pc, m),
                    Ins::Return => {
                        self.leave(def);
                        break;
                    }
                    Ins::CountOnBoard { board, matcher } => pc = self.run_count_on_board(def, pc, board, matcher),
                    Ins::LoadLoadArith { a, b, arith } => {
                        pc = self.run_load_load_arith(def, pc, locals_base, a, b, arith)?
                    }
                    Ins::ArithConstStore { arith, value, slot } => {
                        pc = self.run_arith_const_store(def, pc, locals_base, arith, value, slot)?
                    }
                    Ins::StepLocal {
                        board,
                        space,
                        direction,
                        to,
                    } => pc = self.run_step_local(def, program, pc, locals_base, board, space, direction, to),
                    Ins::StepLocalJump {
                        board,
                        space,
                        direction,
                        to,
                        off_board,
                    } => {
                        pc = self.run_step_local_jump(
                            def,
                            program,
                            pc,
                            locals_base,
                            board,
                            space,
                            direction,
                            to,
                            off_board,
                        )
                    }
                    Ins::ArithChainStore { a, b, c, d, ops, to } => {
                        pc = self.run_arith_chain_store(def, pc, locals_base, a, b, c, d, ops, to)?
                    }
                    Ins::SpaceOfLocal { board, piece, to } => {
                        pc = self.run_space_of_local(def, pc, locals_base, board, piece, to)?
                    }
                    Ins::OfferAction { offer, len } => {
                        pc = self.run_offer_action(def, program, pc, locals_base, offer, len)?
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
                        pc = self.run_add_jump_local_cmp(
                            def,
                            pc,
                            locals_base,
                            slot,
                            add,
                            cmp,
                            when,
                            value,
                            target,
                            back,
                        )?
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
                        pc = self.run_enter_pieces(
                            def,
                            pc,
                            locals_base,
                            slot,
                            family,
                            zone,
                            index,
                            value,
                            filter,
                            exit_after,
                        )?
                    }
                    Ins::JumpCellTest { test, back } => {
                        pc = self.run_jump_cell_test(def, program, pc, locals_base, test, back)?
                    }
                    Ins::JumpNextPiece {
                        zone,
                        index,
                        value,
                        filter,
                        back,
                        exit,
                    } => pc = self.run_jump_next_piece(def, pc, locals_base, zone, index, value, filter, back, exit)?,
                    Ins::JumpNextOnBoard {
                        board,
                        cursor,
                        value,
                        filter,
                        back,
                        exit,
                    } => {
                        pc =
                            self.run_jump_next_on_board(def, pc, locals_base, board, cursor, value, filter, back, exit)?
                    }
                    Ins::OfferLocal { seat, value } => pc = self.run_offer_local(pc, locals_base, seat, value),
                    Ins::JumpLocalCmp {
                        slot,
                        cmp,
                        when,
                        value,
                        target,
                        back,
                    } => pc = self.run_jump_local_cmp(def, pc, locals_base, slot, cmp, when, value, target, back)?,
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
