//! What a game in progress is: the [`State`] (flat and cheap to clone:
//! vectors of small integers, no strings or maps, so search can copy it
//! freely), the decision it waits for ([`Pending`]), the answers it takes
//! ([`Choice`]) and why it may refuse them. What a state does lives beside
//! it: `play` (setting up, applying choices), `vm` (running the flow), and
//! one file per concern (`chance`, `dice`, `zones`, `view`, `observe`...).

use super::chance::Chance;
use super::events::EndReason;
use super::tally::Tally;
use super::zones::Zones;
use crate::diagnostic::Diagnostic;
use crate::ir::{ChoiceValue, DecisionId, MAX_PLAYERS, PieceId, Seat, ZoneId};

/// A runtime failure, pointed at the `.rules` file.
pub type RuntimeError = Box<Diagnostic>;

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Seat>,
    /// Why it ended.
    pub reason: EndReason,
}

#[derive(Clone, Debug)]
pub(super) struct Frame {
    pub(super) pc: u32,
    pub(super) locals_base: u32,
    pub(super) stack_base: u32,
    pub(super) proc: u16,
}

#[derive(Clone, Debug)]
pub(super) struct Ask {
    pub(super) decision: DecisionId,
    pub(super) who: Seats,
    /// For a simultaneous decision: where each seat's choice is stored.
    pub(super) each_base: Option<u16>,
    /// The `ChoiceReset` that began building the offers, in the asking
    /// frame: the code from there to the ask only builds offers, so running
    /// it again rebuilds them (in a sampled world, see [`World`]).
    pub(super) offer_pc: u32,
}

#[derive(Clone, Debug)]
pub(super) enum Status {
    Running,
    Waiting(Ask),
    Over(Outcome),
    Failed,
}

/// The seats answering a decision, in seat order: kept inline, since a
/// decision is asked at every step of a playout.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seats {
    pub(super) len: u8,
    pub(super) seats: [Seat; MAX_PLAYERS],
}

impl Seats {
    /// One seat.
    pub(super) fn one(seat: Seat) -> Seats {
        let mut seats = [0; MAX_PLAYERS];
        seats[0] = seat;
        Seats { len: 1, seats }
    }

    /// Every seat of a game of `players` (at most [`MAX_PLAYERS`], as the checker ensures).
    pub(super) fn all(players: usize) -> Seats {
        let mut seats = [0; MAX_PLAYERS];
        for (seat, slot) in seats.iter_mut().enumerate().take(players) {
            *slot = seat as Seat;
        }
        Seats {
            len: players.min(MAX_PLAYERS) as u8,
            seats,
        }
    }
}

impl std::ops::Deref for Seats {
    type Target = [Seat];

    fn deref(&self) -> &[Seat] {
        &self.seats[..self.len as usize]
    }
}

/// A roll fixed in advance (a scenario or a replay): the die rolled next,
/// by identity (any die that looks the same will do), and the face it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedRoll {
    /// The die, or any die that looks the same.
    pub die: PieceId,
    /// The face it shows.
    pub value: i64,
}

/// A chance outcome fixed in advance (a scenario or a replay): the pieces
/// that must end up on top, top first, by identity; the rest is shuffled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedShuffle {
    /// The zone shuffled.
    pub zone: ZoneId,
    /// The pieces that must end up on top, top first (matched by identity, not number).
    pub top: Vec<PieceId>,
    /// The pieces that must end up at the bottom, bottom first.
    pub bottom: Vec<PieceId>,
}

/// One player's answer to a pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The seat answering.
    pub seat: Seat,
    /// One of the values offered, packed as a [`crate::ir::ChoiceValue`].
    pub value: i64,
    /// For a race: how long the player took to answer, in milliseconds.
    pub reaction_ms: u32,
}

impl Choice {
    /// A choice of `value` by `seat`, answered at once (no reaction time).
    pub fn new(seat: Seat, value: i64) -> Self {
        Choice {
            seat,
            value,
            reaction_ms: 0,
        }
    }

    /// Whether this takes an `anytime` action instead of answering.
    pub fn is_anytime(&self) -> bool {
        ChoiceValue::from_raw(self.value).is_anytime()
    }
}

/// Why a submitted action was refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    /// Submitting when the game is over or not waiting.
    #[error("the game is not waiting for a decision")]
    NotWaiting,
    /// A choice from a seat that is not deciding now, e.g. Blue answering Orange's draft pick.
    #[error("{seat} is not deciding now")]
    NotYourTurn {
        /// The seat's name.
        seat: String,
    },
    /// Two choices from one seat, or none from a deciding seat.
    #[error("expected one choice from each of {expected}")]
    WrongChoices {
        /// The deciding seats' names, comma-separated.
        expected: String,
    },
    /// A value that was not offered, e.g. taking an entry of a draft that was already taken.
    #[error("{seat} cannot choose {choice} here; the choices are {legal}")]
    NotOffered {
        /// The seat's name.
        seat: String,
        /// The refused value, labelled as the seat knows its pieces.
        choice: String,
        /// The values offered, labelled the same way, comma-separated.
        legal: String,
    },
}

/// A failure while applying choices.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The choices were refused; the state is unchanged.
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
    /// The game failed while running on (a runtime error, or too many decisions), pointed at the rules.
    #[error("{}", .0.message)]
    Runtime(RuntimeError),
}

/// What the game is waiting for.
#[derive(Clone, Copy, Debug)]
pub struct Pending<'a> {
    pub(super) state: &'a State,
    pub(super) ask: &'a AskRef,
}

type AskRef = Ask;

impl<'a> Pending<'a> {
    /// The decision asked: an index into [`GameDef::decisions`].
    pub fn decision(&self) -> DecisionId {
        self.ask.decision
    }

    /// The seats that must answer, in seat order.
    pub fn who(&self) -> &'a [Seat] {
        &self.ask.who
    }

    /// The values `seat` may choose, in offer order.
    pub fn legal(&self, seat: Seat) -> &'a [i64] {
        &self.state.offers[seat as usize]
    }

    /// Whether every asked seat answers at once (a simultaneous decision).
    pub fn is_simultaneous(&self) -> bool {
        self.ask.each_base.is_some()
    }
}

/// The whole game state.
#[derive(Clone, Debug)]
pub struct State {
    pub(super) chance: Chance,
    /// Pieces of each zone, bottom first (the top is the last element).
    pub(super) zones: Zones,
    pub(super) piece_zone: Vec<ZoneId>,
    /// Per zone, how many pieces of each counted type it holds.
    pub(super) tally: Tally,
    /// A bit per watched trigger that must run before the next decision:
    /// a piece of a type it counts moved since it last ran (see `watch`).
    pub(super) stale_triggers: u64,
    /// Per trigger, the loop rounds its last run went: a trigger that is
    /// skipped counts them again, as running it would.
    pub(super) trigger_steps: Vec<u32>,
    /// Per piece, the definition whose face it shows (kind, value). The
    /// identity in a real game; a sampled world deals the faces a seat cannot
    /// see afresh among the pieces that share a back, so the flow's piece
    /// numbers stay valid (see [`World`]).
    pub(super) face: Vec<PieceId>,
    /// Per piece, a bit per seat: who knows what the piece is.
    pub(super) known: Vec<u32>,
    pub(super) vars: Vec<i64>,
    pub(super) options: Vec<i64>,
    pub(super) stack: Vec<i64>,
    pub(super) locals: Vec<i64>,
    pub(super) frames: Vec<Frame>,
    /// Per seat, the values offered by the decision being built or asked.
    pub(super) offers: Vec<Vec<i64>>,
    pub(super) status: Status,
    pub(super) triggers_checked: bool,
    pub(super) decisions: u32,
    pub(super) steps: u64,
    pub(super) forced: Vec<ForcedShuffle>,
    pub(super) forced_next: usize,
    /// Final scores, per seat, per score term, once `scored`.
    pub(super) scores: Vec<Vec<i64>>,
    /// Whether the game was scored. Until then `scores` may hold rows
    /// left from a copy (see `copy_but_chance`), which nothing reads.
    pub(super) scored: bool,
    /// Values of `list of int` options, by option.
    pub(super) lists: Vec<Vec<i64>>,
    /// Decisions interrupted by an `anytime` action, asked again (their
    /// offers built afresh) when it ends.
    pub(super) interrupted: Vec<Ask>,
    /// The last `ChoiceReset` executed (see [`Ask::offer_pc`]).
    pub(super) offer_pc: u32,
    /// Per piece definition, the value it shows, when the game has dice
    /// (see `dice`); empty otherwise.
    pub(super) rolled: Vec<i64>,
    /// Rolls a scenario or a replay fixed, and how many were made.
    pub(super) forced_rolls: Vec<ForcedRoll>,
    pub(super) forced_rolls_next: usize,
}

/// A flow that goes round its loops (or calls) this many times without
/// asking anyone is stuck.
pub(super) const MAX_STEPS_BETWEEN_DECISIONS: u64 = 1_000_000;
