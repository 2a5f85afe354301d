//! The checked, compiled game: names interned to small integer ids, the flow
//! compiled to a resumable stack program ([`Op`]).
//!
//! Built only by `check`; the engine trusts it and never re-validates names.
//! This file only names the parts; each lives in a child of its own, so
//! that no child imports its parent.

mod choice;
mod code;
mod def;
mod dump;
mod facts;
pub mod grid;
mod id;
pub mod reach;

/// Where an op came from in the sources ([`GameDef::spans`]).
pub use crate::diagnostic::Span;
pub(crate) use choice::MenuPieces;
pub use choice::{
    ActionDef, ChoiceKind, ChoiceValue, DecodedChoice, LabelPart, NO_CHOICE, PIECE_RANGE, PieceChoice, declared,
};
pub use code::{Attr, MatchBy, Matcher, Op, PieceFilter};
pub use def::{
    Anytime, Counted, Decision, FaceBound, Family, FamilyIndex, GameDef, Hook, KeyReads, Kind, KindSet, OptionDef,
    OptionType, OptionValue, Piece, Proc, RankKey, RunningLead, SayLine, ScoreTerm, Shape, ShapedBy, Trigger,
    ValueKind, VarDef, VarEach, Visibility, Zone, ZoneLayout, rules_hash,
};
pub(crate) use def::{Group, HookArg, HookCall};
pub use dump::disassemble;
pub use facts::{Facts, Reach, Runs, Stack};
pub use grid::{Board, SpaceGroup};
pub use id::{DecisionId, KindId, MAX_PLAYERS, PieceId, Seat, ZoneId, id_from_index, id_from_value};
pub(crate) use id::{ProcId, TypeId};
