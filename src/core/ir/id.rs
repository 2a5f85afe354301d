//! Ids outside the checker: the one place a table index or a VM value becomes
//! a 16-bit id, and the names of the ids.
//!
//! Every id is an index into one of the definition's tables. `check` refuses
//! a definition whose tables outgrow 16 bits (`too-many-declarations`,
//! `too-many-kinds`, the piece and zone limits), so an index into a checked
//! table always fits; the conversions here say so once, instead of an `as`
//! at every use.

/// A seat (player), numbered from 0 in `players` order; indexes [`GameDef::seats`].
pub type Seat = u8;
/// The most players a game may have (the checker refuses more): seat sets
/// fit in small fixed arrays and bit masks.
pub const MAX_PLAYERS: usize = 8;
/// A piece: an index into [`GameDef::pieces`].
pub type PieceId = u16;
/// A zone: an index into [`GameDef::zones`].
pub type ZoneId = u16;
/// A kind (`kinds` entry) by index.
pub type KindId = u16;
pub(crate) type TypeId = u16;
pub(crate) type ProcId = u16;
/// A decision of the flow by index.
pub type DecisionId = u16;

/// The id of entry `index` of one of a checked definition's tables (zones,
/// pieces, kinds, triggers, score terms, variables...).
///
/// It cannot wrap: `check` refuses a definition with a table of more than
/// `u16::MAX` entries, so the index of an entry is below `u16::MAX`.
pub fn id_from_index(index: usize) -> u16 {
    debug_assert!(index < usize::from(u16::MAX), "check bounds every table to 16-bit ids");
    index as u16
}

/// An id the flow program pushed (a zone, a piece, a kind, a space...), read
/// back from the VM's `i64` stack or from a choice value.
///
/// The checker types every expression, so a value used as an id was pushed
/// as one and fits. It keeps the low 16 bits, like the VM always has: a
/// value that is no id (a forged choice named in an error message) is read
/// as some id rather than panicking here.
pub const fn id_from_value(value: i64) -> u16 {
    value as u16
}

/// The ids of a table of `len` entries, in order.
pub(crate) fn ids(len: usize) -> impl DoubleEndedIterator<Item = u16> + ExactSizeIterator + Clone {
    (0..len).map(id_from_index)
}
