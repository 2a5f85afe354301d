//! What happened, in order: the raw material of transcripts.
//!
//! Events hold ids, not text; `transcript` renders them for a viewer. Every
//! event that shows a piece says who can see what it is (`seen_by`, a bit per
//! seat), so one rule redacts every transcript.

use serde::Serialize;

use crate::diagnostic::Span;
use crate::ir::{DecisionId, PieceId, Seat, ZoneId};

/// One thing that happened in a game, with who may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A chance outcome: the zone's new order, top first.
    Shuffle {
        /// The shuffled zone.
        zone: ZoneId,
        /// Its pieces after the shuffle, top first.
        order: Vec<PieceId>,
        /// Seats that see the zone's pieces, and so the new order (a bit per seat).
        seen_by: u32,
    },
    /// A piece moved from one zone to the top of another.
    Move {
        /// The piece.
        piece: PieceId,
        /// The zone it left.
        from: ZoneId,
        /// The zone it is now in.
        to: ZoneId,
        /// Seats that know what the piece is, now that it is there.
        seen_by: u32,
        /// The value a die shows (`None` for anything else).
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<i64>,
    },
    /// `to`: the seats shown the piece; `seen_by`: everyone who knows it now.
    Reveal {
        /// The piece.
        piece: PieceId,
        /// The value a die shows (`None` for anything else).
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<i64>,
        /// Seats it was shown to (a bit per seat).
        to: u32,
        /// Everyone who knows what it is now (a bit per seat).
        seen_by: u32,
    },
    /// Turned face down again; `seen_by` still remember what it is.
    Hide {
        /// The piece.
        piece: PieceId,
        /// Seats that know what it is (a bit per seat).
        seen_by: u32,
    },
    /// A die rolled in `zone`: a chance outcome; `seen_by` know its value.
    Roll {
        /// The die.
        piece: PieceId,
        /// The zone it lies in.
        zone: ZoneId,
        /// The face it shows now.
        value: i64,
        /// Seats that see the die, and so know its face (a bit per seat).
        seen_by: u32,
    },
    /// A seat chose a value at a decision (or took an `anytime` action there).
    Decision {
        /// The deciding seat.
        seat: Seat,
        /// The decision asked: an index into `GameDef::decisions`.
        decision: DecisionId,
        /// The value chosen, packed as a [`crate::ir::ChoiceValue`].
        value: i64,
        /// How many values the seat was offered.
        offered: u32,
        /// Who may read `offered`: the deciding seat, and the seats that
        /// knew every piece in play then (for anyone else the count could
        /// tell what is hidden, such as how many playable cards a hand holds).
        count_seen_by: u32,
        /// Seats that learn the choice: only the chooser for a secret decision, else everyone.
        seen_by: u32,
        /// A race answer's reaction time.
        reaction_ms: Option<u32>,
        /// The pieces the choice names, and who knew each of them then:
        /// the others read their backs ("Marker of Orange (hidden)").
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pieces: Vec<(PieceId, u32)>,
    },
    /// A seat had nothing it could choose at a decision with an `else`
    /// block (`chooses ... else { ... }`), which runs instead. Everyone
    /// sees it: the game visibly goes on without the seat's choice.
    NoChoice {
        /// The seat left without a choice.
        seat: Seat,
        /// The decision it could not make: an index into `GameDef::decisions`.
        decision: DecisionId,
    },
    /// A variable changed (`index` for one kept per player, space or piece).
    Var {
        /// The variable: an index into `GameDef::vars`.
        var: u16,
        /// Whose or which value changed: the seat, the space or the piece,
        /// for a variable kept per player, per space or per piece.
        index: Option<u32>,
        /// For a variable kept per piece, the seats that know what the
        /// piece is (a bit per seat); the others read its back. Every seat
        /// for any other variable.
        seen_by: u32,
        /// The new value.
        value: i64,
        /// The value before: a write of the value held changes nothing,
        /// and a transcript (since format 3) does not show it.
        was: i64,
    },
    /// A seat scored points for a score term when the game was scored.
    Score {
        /// The seat.
        seat: Seat,
        /// The term: an index into `GameDef::score_terms`.
        term: u16,
        /// The points.
        points: i64,
    },
    /// A `say` statement's line, with its values.
    Said {
        /// The line: an index into `GameDef::says`.
        line: u16,
        /// Its values, each with the seats that knew it then (a piece's
        /// knowers; every seat for any other value).
        values: Vec<(i64, u32)>,
        /// Seats it was said to (a bit per seat).
        to: u32,
    },
    /// A trigger did something (its events follow).
    Trigger {
        /// The trigger: an index into the definition's triggers.
        trigger: u16,
    },
    /// A hook answered (for rule coverage; transcripts leave it out).
    Hook {
        /// The hook: an index into the definition's hooks.
        hook: u16,
        /// Its answer: a number, or 1 or 0 for a hook declared `-> bool`.
        value: i64,
    },
    /// The game ended (the last event of a game).
    End {
        /// The winner; `None` for a draw.
        winner: Option<Seat>,
        /// Why it ended.
        reason: EndReason,
    },
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum EndReason {
    /// `win P` in the flow, with its reason if it says one (an index
    /// into `GameDef::messages`).
    Win(Span, Option<u16>),
    /// `win P` or `declare draw` inside a trigger, with its reason.
    Trigger(u16, Option<u16>),
    /// `win P` in the result section's `else` block, run when every
    /// result key tied (at the `win`), with its reason.
    TieBreak(Span, Option<u16>),
    /// The result section: decided by this key.
    Rank(u16),
    /// `declare draw` (with its reason, an index into `GameDef::messages`),
    /// or a tie on every result key.
    Draw(Span, Option<u16>),
}
