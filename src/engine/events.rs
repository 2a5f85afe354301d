//! What happened, in order: the raw material of transcripts.
//!
//! Events hold ids, not text; `transcript` renders them for a viewer. Every
//! event that shows a piece says who can see what it is (`seen_by`, a bit per
//! seat), so one rule redacts every transcript.

// Documenting every public item is under way (issue 13); until then:
#![allow(missing_docs)]

use serde::Serialize;

use crate::diagnostic::Span;
use crate::ir::{DecisionId, PieceId, Seat, ZoneId};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Event {
    /// A chance outcome: the zone's new order, top first.
    Shuffle {
        zone: ZoneId,
        order: Vec<PieceId>,
        seen_by: u32,
    },
    Move {
        piece: PieceId,
        from: ZoneId,
        to: ZoneId,
        seen_by: u32,
        /// The value a die shows (`None` for anything else).
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<i64>,
    },
    /// `to`: the seats shown the piece; `seen_by`: everyone who knows it now.
    Reveal {
        piece: PieceId,
        /// The value a die shows (`None` for anything else).
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<i64>,
        to: u32,
        seen_by: u32,
    },
    /// Turned face down again; `seen_by` still remember what it is.
    Hide {
        piece: PieceId,
        seen_by: u32,
    },
    /// A die rolled in `zone`: a chance outcome; `seen_by` know its value.
    Roll {
        piece: PieceId,
        zone: ZoneId,
        value: i64,
        seen_by: u32,
    },
    Decision {
        seat: Seat,
        decision: DecisionId,
        /// The value chosen, packed as a [`crate::ir::ChoiceValue`].
        value: i64,
        /// How many values the seat was offered.
        offered: u32,
        /// Who may read `offered`: the deciding seat, and the seats that
        /// knew every piece in play then (for anyone else the count could
        /// tell what is hidden, such as how many playable cards a hand holds).
        count_seen_by: u32,
        seen_by: u32,
        /// A race answer's reaction time.
        reaction_ms: Option<u32>,
        /// The pieces the choice names, and who knew each of them then:
        /// the others read their backs ("Pawn of Light (hidden)").
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pieces: Vec<(PieceId, u32)>,
    },
    /// A variable changed (`seat` for per-player variables).
    Var {
        var: u16,
        seat: Option<Seat>,
        value: i64,
    },
    Score {
        seat: Seat,
        term: u16,
        points: i64,
    },
    /// A trigger did something (its events follow).
    Trigger {
        trigger: u16,
    },
    /// A hook answered (for rule coverage; transcripts leave it out).
    Hook {
        hook: u16,
        value: i64,
    },
    End {
        winner: Option<Seat>,
        reason: EndReason,
    },
}

/// Why the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum EndReason {
    /// `win P` in the flow.
    Win(Span),
    /// `win P` inside a trigger.
    Trigger(u16),
    /// The result section: decided by this key.
    Rank(u16),
    /// `declare draw` (with its reason, an index into `GameDef::messages`),
    /// or a tie on every result key.
    Draw(Span, Option<u16>),
}
