//! The names a clickable picture gives its spaces and slots (their
//! `data-target`), which the choices pointing at them name too.

use crate::ir::ZoneId;

/// The name a clickable picture gives space `space` of board `board` (its
/// `data-target`), which a choice pointing at that space names too.
pub fn space_target(board: u16, space: u16) -> String {
    format!("space-{board}-{space}")
}

/// The name a clickable picture gives position `index` (top first) of
/// `zone`, a zone that is not on a board.
pub fn slot_target(zone: ZoneId, index: usize) -> String {
    format!("slot-{zone}-{index}")
}
