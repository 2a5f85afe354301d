//! The engine's side of the compiled tier ([`crate::native`]): entering
//! compiled code from a frame, running the ops it hands back with the
//! interpreter's own code, and the helper it calls for the ops that read
//! the game.

use std::ffi::c_void;

use super::super::events::Event;
use super::super::lower::Ins;
use super::super::lower::single;
use super::super::state::MAX_STEPS_BETWEEN_DECISIONS;
use super::super::{Engine, Game, RuntimeError, State};
use super::flow::Flow;
use crate::ir::{ChoiceValue, Op, id_from_value};
use crate::native::{Exit, FAULT, Helpers, Machine, NO_SEAT, NativeCode, RELOAD};

/// What the engine keeps for the helpers while compiled code runs.
struct Host {
    state: *mut State,
    game: *const Game,
    events: *mut Vec<Event>,
    stop_depth: usize,
    /// The running frame's first local.
    locals_base: usize,
    /// The deepest stack of the running region, above the frame's base:
    /// the room the stack must keep past its length.
    room: usize,
    /// The error of the op that failed.
    fault: Option<RuntimeError>,
    /// A panic inside a helper, carried across the machine code (a panic
    /// must not unwind through it) and resumed on the engine's side, as if
    /// the interpreter had panicked there.
    panic: Option<Box<dyn std::any::Any + Send>>,
}

/// The helpers compiled code calls.
pub(crate) const HELPERS: Helpers = Helpers {
    run_op,
    run_step,
    run_loop,
    offer,
    reset_offers,
    store_var,
    move_piece,
    has_offers,
};

/// How a stretch of compiled code ended.
pub(super) enum Ran {
    /// The frames or the status may have changed: look at them again.
    Reload,
    /// No compiled code starts here: the interpreter goes on.
    Interpret,
}

impl State {
    /// Runs the top frame in compiled code from where it stands, until the
    /// code returns, fails, or runs an op that may change the frames or the
    /// status; `Interpret` when no compiled code starts there (or the stack
    /// is not as the code expects), for the interpreter to go on.
    pub(super) fn run_native(
        &mut self,
        def: &Game,
        code: &NativeCode,
        events: &mut Vec<Event>,
        stop_depth: usize,
    ) -> Result<Ran, RuntimeError> {
        let frame = self.frames.last().expect("the caller checked");
        let (pc, locals_base, stack_base) = (frame.pc, frame.locals_base as usize, frame.stack_base as usize);
        let Some(entry) = code.entry(pc) else {
            return Ok(Ran::Interpret);
        };
        if self.stack.len().checked_sub(stack_base) != Some(entry.depth as usize) {
            return Ok(Ran::Interpret);
        }
        let room = entry.max_depth as usize;
        self.stack.reserve(room);
        // Every pointer the code and the helpers use is derived from this
        // one, and `self` is not touched again until the code returns: a
        // pointer taken from `self` while `self` is still used would be
        // invalidated by that use (Stacked Borrows).
        let state: *mut State = self;
        let mut host = Host {
            state,
            game: def,
            events,
            stop_depth,
            locals_base,
            room,
            fault: None,
            panic: None,
        };
        // SAFETY: `state` is valid (it is `self`), and the frame's locals
        // are in its vector, from `locals_base`.
        let mut machine = unsafe {
            Machine {
                stack: (*state).stack.as_mut_ptr(),
                stack_len: (*state).stack.len() as u64,
                locals: (*state).locals.as_mut_ptr().add(locals_base),
                vars: (*state).vars.as_mut_ptr(),
                options: (*state).options.as_ptr(),
                steps: (*state).steps,
                zone_starts: (*state).zones.starts(),
                piece_zone: (*state).piece_zone.as_ptr(),
                zone_pieces: (*state).zones.pieces_ptr(),
                face: (*state).face.as_ptr(),
                host: (&raw mut host).cast::<c_void>(),
                offers: std::ptr::null_mut(),
                offers_len: 0,
                offers_cap: 0,
                offers_seat: NO_SEAT,
            }
        };
        // SAFETY: the machine points into this state, for this frame,
        // with `room` reserved past the stack's length; the helper gets
        // the state back through `host`, and nothing else touches the
        // state until the code returns. `entry` is borrowed from `code`,
        // which holds the machine code alive.
        let exit = unsafe { entry.run(&mut machine, pc) };
        // SAFETY: as below for the stack: compiled code wrote the bound
        // seat's offers up to this length, within their capacity.
        unsafe { take_offers(&mut machine, &mut *state) };
        // SAFETY: compiled code and the helper wrote every value up to
        // this length, within the capacity reserved.
        unsafe { self.stack.set_len(machine.stack_len as usize) };
        self.steps = machine.steps;
        match exit {
            Exit::Return(_) => {
                self.leave(def);
                Ok(Ran::Reload)
            }
            Exit::Reload => Ok(Ran::Reload),
            Exit::Fault => match host.panic.take() {
                Some(panic) => std::panic::resume_unwind(panic),
                None => Err(host.fault.take().expect("the helper kept the error")),
            },
            Exit::NoEntry => Ok(Ran::Interpret),
        }
    }

    /// Runs the one op at `pc` that compiled code leaves to the engine,
    /// with the instruction the interpreter runs for it alone; returns the
    /// pc to go on at.
    #[inline(always)]
    fn run_single(&mut self, def: &Game, pc: usize, locals_base: usize) -> Result<usize, RuntimeError> {
        // The instruction's methods take the pc past it, as the inner loop
        // hands it to them.
        let past = pc + 1;
        Ok(match def.singles[pc] {
            Ins::LoadAt(base) => self.run_load_at(past, locals_base, base),
            Ins::LoadVarAt(base) => self.run_load_var_at(def, past, base)?,
            Ins::Arith(arith) => self.run_arith(def, past, arith)?,
            Ins::Jump(t) => self.run_jump(def, past, t)?,
            Ins::NextNeighbour {
                board,
                from,
                value,
                exit,
            } => self.run_next_neighbour(def, past, locals_base, board, from, value, exit)?,
            Ins::NextPiece {
                zone,
                index,
                value,
                filter,
                exit,
            } => self.run_next_piece(def, past, locals_base, zone, index, value, filter, exit),
            Ins::NextOnBoard {
                board,
                cursor,
                value,
                filter,
                exit,
            } => self.run_next_on_board(def, past, locals_base, board, cursor, value, filter, exit),
            Ins::ChoiceAdd => self.run_choice_add(past),
            Ins::ChoiceReset => self.run_choice_reset(past),
            Ins::ZoneOf(family) => self.run_zone_of(def, past, family)?,
            Ins::CellAt(board) => self.run_cell_at(def, past, board),
            Ins::Step(board) => self.run_step(def, past, board),
            Ins::Forward { board, backward } => self.run_forward(def, past, board, backward),
            Ins::ActionEntry(decision) => self.run_action_entry(def, past, decision),
            Ins::ActionParam { decision, entry, param } => self.run_action_param(def, past, decision, entry, param),
            Ins::KindAt(set) => self.run_kind_at(def, past, set),
            Ins::TypeAt(group) => self.run_type_at(def, past, group),
            Ins::Beats => self.run_beats(def, past),
            Ins::Size => self.run_size(past),
            Ins::Count(m) => self.run_count(def, past, m),
            Ins::CountOnBoard { board, matcher } => self.run_count_on_board(def, past, board, matcher),
            Ins::CountInGame(m) => self.run_count_in_game(def, past, m),
            Ins::Attr(attr) => self.run_attr(def, past, attr)?,
            Ins::Table(table) => self.run_table(def, past, table),
            ins => unreachable!("compiled code runs {ins:?} itself, or returns to the engine for it"),
        })
    }
}

/// The helper compiled code calls for an op that reads the game.
extern "C" fn run_op(machine: *mut Machine, pc: u32) -> u32 {
    // These ops neither call nor move pieces: the locals and the zones
    // stay where they are.
    with_state::<false>(machine, |state, def, host| {
        state
            .run_single(def, pc as usize, host.locals_base)
            .map(|next| next as u32)
    })
}

/// A loop step over pieces, which touches only the locals (so the stack
/// need not be in the state: compiled code holds it).
extern "C" fn run_loop(machine: *mut Machine, pc: u32) -> u32 {
    // SAFETY: as in `with_state`.
    let host = unsafe { &mut *(*machine).host.cast::<Host>() };
    // SAFETY: as in `with_state`.
    let (state, def) = unsafe { (&mut *host.state, &*host.game) };
    let locals_base = host.locals_base;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        state.run_single(def, pc as usize, locals_base).map(|next| next as u32)
    }));
    settle(host, result)
}

/// `ChoiceAdd` as `run_choice_add` does it, from arguments.
///
/// Then binds the seat's offers to the machine, for compiled code to append
/// the next ones itself.
extern "C" fn offer(machine: *mut Machine, seat: i64, value: i64) -> u32 {
    // SAFETY: as in `with_state`; this touches only the offers.
    let (machine, state) = unsafe { (&mut *machine, &mut *(*(*machine).host.cast::<Host>()).state) };
    // SAFETY: the bound offers were written by compiled code up to their length.
    unsafe { take_offers(machine, state) };
    match usize::try_from(seat).ok().and_then(|seat| state.offers.get_mut(seat)) {
        Some(offers) => {
            offers.push(value);
            offers.reserve(OFFER_ROOM);
            machine.offers = offers.as_mut_ptr();
            machine.offers_len = offers.len() as u64;
            machine.offers_cap = offers.capacity() as u64;
            machine.offers_seat = seat;
            0
        }
        None => FAULT,
    }
}

/// The room a seat's offers keep for compiled code to append to, at least.
const OFFER_ROOM: usize = 32;

/// Gives the engine back the offers compiled code appended to the bound
/// seat (their length), and unbinds it: the engine may now read or change
/// any offers. Every helper that may read or change offers starts with it;
/// those that only write variables, move pieces or step loops leave the
/// binding alone.
///
/// # Safety
///
/// Compiled code wrote the bound seat's offers up to `offers_len`, within
/// the capacity the binding had, and the seat's vector has not been touched
/// since it was bound.
unsafe fn take_offers(machine: &mut Machine, state: &mut State) {
    if let Ok(seat) = usize::try_from(machine.offers_seat)
        && let Some(offers) = state.offers.get_mut(seat)
    {
        debug_assert!(machine.offers_len as usize <= offers.capacity());
        debug_assert_eq!(machine.offers, offers.as_mut_ptr());
        // SAFETY: as the caller promises.
        unsafe { offers.set_len(machine.offers_len as usize) };
    }
    machine.offers_seat = NO_SEAT;
    machine.offers_cap = 0;
}

/// `StoreVar` or `StoreVarAt` at `pc`, as the slow path runs it, from
/// arguments; [`FAULT`], changing nothing, when the index names no slot.
extern "C" fn store_var(machine: *mut Machine, pc: i64, index: i64, value: i64) -> u32 {
    // SAFETY: as in `with_state`; this touches only the variables (which
    // never move) and the events.
    let host = unsafe { &mut *(*machine).host.cast::<Host>() };
    // SAFETY: as in `with_state`.
    let (state, def, events) = unsafe { (&mut *host.state, &*host.game, &mut *host.events) };
    match usize::try_from(pc).ok().and_then(|pc| def.code.get(pc)) {
        Some(&Op::StoreVar(slot)) => state.store_var(def, slot, value, events),
        Some(&Op::StoreVarAt(base)) if state.store_var_at(def, base, index, value, events) => {}
        _ => return FAULT,
    }
    0
}

/// `Move` as the slow path runs it, from arguments; [`FAULT`], changing
/// nothing, when the piece or the zone does not exist.
extern "C" fn move_piece(machine: *mut Machine, piece: i64, zone: i64) -> u32 {
    // SAFETY: as in `with_state`; this touches the pieces, the zones and
    // the events, then hands the machine the zones' buffers again.
    let machine = unsafe { &mut *machine };
    // SAFETY: as in `with_state`.
    let host = unsafe { &mut *machine.host.cast::<Host>() };
    // SAFETY: as in `with_state`.
    let (state, def, events) = unsafe { (&mut *host.state, &*host.game, &mut *host.events) };
    let piece = ChoiceValue::from_raw(piece).piece_id();
    let known = usize::from(piece) < state.piece_zone.len() && usize::try_from(zone).is_ok_and(|z| z < def.zones.len());
    if !known {
        return FAULT;
    }
    state.place(def, piece, id_from_value(zone), events);
    machine.zone_starts = state.zones.starts();
    machine.piece_zone = state.piece_zone.as_ptr();
    machine.zone_pieces = state.zones.pieces_ptr();
    machine.face = state.face.as_ptr();
    0
}

/// `HasOffers` when the seat has something on offer (the common case: the
/// op then changes nothing); [`FAULT`] otherwise, for the engine to run it.
extern "C" fn has_offers(machine: *mut Machine, seat: i64) -> u32 {
    // SAFETY: as in `with_state`; this reads only the offers.
    let (machine, state) = unsafe { (&mut *machine, &mut *(*(*machine).host.cast::<Host>()).state) };
    // SAFETY: the bound offers were written by compiled code up to their length.
    unsafe { take_offers(machine, state) };
    match usize::try_from(seat).ok().and_then(|seat| state.offers.get(seat)) {
        Some(offers) if !offers.is_empty() => 0,
        _ => FAULT,
    }
}

/// `ChoiceReset` as `run_choice_reset` does it, at `pc`.
extern "C" fn reset_offers(machine: *mut Machine, pc: u32) {
    // SAFETY: as in `with_state`; this touches only the offers.
    let (machine, state) = unsafe { (&mut *machine, &mut *(*(*machine).host.cast::<Host>()).state) };
    // SAFETY: the bound offers were written by compiled code up to their length.
    unsafe { take_offers(machine, state) };
    state.run_choice_reset(pc as usize + 1);
}

/// The helper compiled code calls for every other op but `Return`, run as
/// the interpreter's slow path runs it.
extern "C" fn run_step(machine: *mut Machine, pc: u32) -> u32 {
    with_state::<true>(machine, |state, def, host| {
        let op = def.code[pc as usize];
        state.frames.last_mut().expect("frame").pc = pc + 1;
        // SAFETY: `run_native` passed its caller's events, not otherwise
        // in use while the code runs.
        let events = unsafe { &mut *host.events };
        Ok(match state.step(def, events, op, pc, host.stop_depth)? {
            Flow::Continue => pc + 1,
            Flow::Reload => RELOAD,
        })
    })
}

/// Gives a helper the state as the interpreter has it (the stack at the
/// machine's length), then hands the machine what may have moved: the
/// stack, and when `MOVED`, the locals and the zones too.
#[inline(always)]
fn with_state<const MOVED: bool>(
    machine: *mut Machine,
    op: impl FnOnce(&mut State, &Game, &Host) -> Result<u32, RuntimeError>,
) -> u32 {
    // SAFETY: compiled code passes the machine `run_native` built, whose
    // `host` is that call's `Host`, and the state and game it points at
    // are not otherwise in use while the code runs.
    let (machine, host) = unsafe {
        let machine = &mut *machine;
        let host = &mut *machine.host.cast::<Host>();
        (machine, host)
    };
    // SAFETY: as above.
    let (state, def) = unsafe { (&mut *host.state, &*host.game) };
    // SAFETY: compiled code wrote the values up to this length, within
    // the capacity reserved; and the bound offers likewise.
    unsafe {
        state.stack.set_len(machine.stack_len as usize);
        take_offers(machine, state);
    }
    state.steps = machine.steps;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| op(state, def, host)));
    state.stack.reserve(host.room);
    machine.stack = state.stack.as_mut_ptr();
    machine.stack_len = state.stack.len() as u64;
    machine.steps = state.steps;
    if MOVED {
        machine.zone_starts = state.zones.starts();
        machine.piece_zone = state.piece_zone.as_ptr();
        machine.zone_pieces = state.zones.pieces_ptr();
        machine.face = state.face.as_ptr();
        if let Some(locals) = state.locals.get_mut(host.locals_base..) {
            machine.locals = locals.as_mut_ptr();
        }
    }
    settle(host, result)
}

/// A helper's answer: the pc to go on at, or [`FAULT`] with the error or
/// the panic kept for the engine's side.
fn settle(host: &mut Host, result: std::thread::Result<Result<u32, RuntimeError>>) -> u32 {
    match result {
        Ok(Ok(next)) => next,
        Ok(Err(error)) => {
            host.fault = Some(error);
            FAULT
        }
        Err(panic) => {
            host.panic = Some(panic);
            FAULT
        }
    }
}

impl Game {
    /// Runs the game with `engine` from now on. For the compiled tier,
    /// returns what it left to the interpreter (a procedure it can't
    /// compile, or all of them on a machine with no code generator), one
    /// line each, for the caller to say once.
    pub fn use_engine(&mut self, engine: Engine) -> Vec<String> {
        self.forget_start();
        self.native = None;
        self.singles = vec![];
        if let Some(plain) = self.plain.take() {
            self.swap_program(*plain);
        }
        if engine == Engine::Interpreter {
            return vec![];
        }
        if let Some(inlined) = crate::native::inline(&self.def) {
            let plain = self.swap_program(inlined);
            self.plain = Some(Box::new(plain));
        }
        self.singles = self.def.code.iter().map(|&op| single(op)).collect();
        match crate::native::compile(&self.def, HELPERS, MAX_STEPS_BETWEEN_DECISIONS) {
            Ok(code) => {
                let skipped = code.skipped.clone();
                self.native = (!code.is_empty()).then_some(code);
                skipped
            }
            Err(why) => vec![why],
        }
    }
}
