//! The meeting point of the engine and compiled code: the registers they
//! share ([`Machine`]), the helpers compiled code calls back ([`Helpers`]),
//! and how it says why it gave control back ([`Exit`]).

use std::ffi::c_void;

/// The interpreter's registers as compiled code reads and writes them.
/// The engine fills it before a call and reads it back after; a helper
/// does the same around the op it runs.
#[repr(C)]
#[derive(Debug)]
pub struct Machine {
    /// The value stack's buffer. It holds room for the region's deepest
    /// stack past `stack_len` (see [`super::Entry::max_depth`]).
    pub stack: *mut i64,
    /// The values on the stack, the frame's and those below it.
    pub stack_len: u64,
    /// The frame's locals (its base applied).
    pub locals: *mut i64,
    /// The game's variables.
    pub vars: *mut i64,
    /// The option values.
    pub options: *const i64,
    /// Loop rounds since the last decision (see [`super::compile`]'s `round_limit`).
    pub steps: u64,
    /// Per zone, where its pieces begin in the engine's buffer of pieces,
    /// and after the last zone, the buffer's length: a zone's size is the
    /// difference of two neighbours.
    pub zone_starts: *const u32,
    /// Per piece, the zone it lies in.
    pub piece_zone: *const u16,
    /// The pieces of every zone, zone after zone, bottom first (see
    /// `zone_starts`).
    pub zone_pieces: *const u16,
    /// Per piece, the definition whose face it shows (a sampled world
    /// deals them afresh).
    pub face: *const u16,
    /// The engine's side, for the helpers; opaque here.
    pub host: *mut c_void,
    /// The offers of seat [`Machine::offers_seat`], when one is bound:
    /// compiled code appends an offer here while `offers_len` is below
    /// `offers_cap`, and the engine takes the length back (see
    /// [`NO_SEAT`]) before it reads or changes any offers.
    pub offers: *mut i64,
    /// Offers in `offers`.
    pub offers_len: u64,
    /// Room in `offers`.
    pub offers_cap: u64,
    /// The seat whose offers `offers` holds, or [`NO_SEAT`].
    pub offers_seat: i64,
}

/// `offers_seat` when no seat's offers are bound: every offer goes to
/// the engine's helper, which binds its seat.
pub const NO_SEAT: i64 = -1;

/// Runs the op at `pc` as the interpreter does, on the machine's stack,
/// and returns the pc to go on at, or [`FAULT`] when the op failed (the
/// engine keeps the error).
pub type Helper = extern "C" fn(*mut Machine, u32) -> u32;

/// What a helper returns for an op that failed.
pub const FAULT: u32 = u32::MAX;

/// What a helper returns for an op that may have changed the frames or
/// the status (a call, a decision, the end): compiled code returns to the
/// engine, which looks at them again.
pub const RELOAD: u32 = u32::MAX - 1;

/// The engine's side of the calls compiled code makes. Each runs the op at
/// the pc it is given with the interpreter's own code; after it, compiled
/// code reads the stack's buffer and the locals again (a helper may have
/// moved them).
#[derive(Clone, Copy, Debug)]
pub struct Helpers {
    /// Runs an op that reads the game and changes neither the frames nor
    /// the status; returns the pc to go on at, or [`FAULT`].
    pub run_op: Helper,
    /// Runs any other op but `Return`; returns the pc after it, [`RELOAD`]
    /// or [`FAULT`].
    pub run_step: Helper,
    /// A loop step over pieces (`NextPiece`, `NextOnBoard`), which reads
    /// and writes only locals: it runs without the stack (compiled code
    /// neither writes its values out nor reads them back); returns the pc
    /// to go on at, or [`FAULT`].
    pub run_loop: Helper,
    /// `ChoiceAdd` with its seat and value, the stack untouched: offers
    /// the value to the seat and returns 0, or [`FAULT`] for a seat that
    /// does not exist (the code then has [`Helpers::run_op`] run the op).
    pub offer: extern "C" fn(*mut Machine, i64, i64) -> u32,
    /// `ChoiceReset` at the pc given, the stack untouched: clears every
    /// seat's offers and notes where they began.
    pub reset_offers: extern "C" fn(*mut Machine, u32),
    /// `StoreVar` or `StoreVarAt` at the pc given, with its index (any
    /// value for `StoreVar`) and value, the stack untouched: sets the
    /// variable, records it, and returns 0; or [`FAULT`], changing
    /// nothing, for an index that names no slot (the code then has
    /// [`Helpers::run_step`] run the op, to fail as the interpreter does).
    pub store_var: extern "C" fn(*mut Machine, i64, i64, i64) -> u32,
    /// `Move` with its piece and zone, the stack untouched: moves the
    /// piece, records it, hands the machine the zones again, and returns
    /// 0; or [`FAULT`], changing nothing, for a piece or zone that does not
    /// exist (the code then has [`Helpers::run_step`] run the op).
    pub move_piece: extern "C" fn(*mut Machine, i64, i64) -> u32,
    /// `HasOffers` with its seat, the stack untouched: 0 when the seat has
    /// something on offer; else [`FAULT`], changing nothing (the code then
    /// has [`Helpers::run_step`] run the op, which records that the seat
    /// has no choice, or fails for a seat that does not exist).
    pub has_offers: extern "C" fn(*mut Machine, i64) -> u32,
}

/// Why compiled code gave control back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The procedure returns at this pc: its `Return` is the engine's to
    /// run (the stack is as the interpreter would have it).
    Return(u32),
    /// A helper ran an op that may have changed the frames or the status.
    Reload,
    /// An op failed; the engine holds its error.
    Fault,
    /// The region cannot start at this pc.
    NoEntry,
}

impl Exit {
    pub(super) fn decode(raw: u64) -> Exit {
        match raw >> 32 {
            exit_kind::RETURN => Exit::Return(raw as u32),
            exit_kind::RELOAD => Exit::Reload,
            exit_kind::FAULT => Exit::Fault,
            _ => Exit::NoEntry,
        }
    }
}

/// How compiled code encodes an [`Exit`]: a kind in the high half, a pc
/// in the low one.
pub(crate) mod exit_kind {
    /// [`super::Exit::Return`].
    pub const RETURN: u64 = 0;
    /// [`super::Exit::Reload`].
    pub const RELOAD: u64 = 1;
    /// [`super::Exit::Fault`].
    pub const FAULT: u64 = 2;
    /// [`super::Exit::NoEntry`].
    pub const NO_ENTRY: u64 = 3;
}
