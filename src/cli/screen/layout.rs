//! What the screens share: the line's width, a board's slots, wrapping.

use crate::ir::{FamilyIndex, GameDef, ZoneId};

/// The widest a line of the screen gets, so it fits an 80-column terminal.
pub(super) const WIDTH: usize = 78;

/// The zones of a board's spaces: per slot family, its name and first zone.
pub(super) fn slots(def: &GameDef, b: u16) -> Vec<(&str, ZoneId)> {
    def.families
        .iter()
        .filter(|f| f.by == FamilyIndex::PerSpace(b))
        .map(|f| (f.name.as_str(), f.first))
        .collect()
}

/// Wraps text at the terminal's width (a fixed width in a pipe, see
/// [`crate::cli::term::wrap`]), each line starting with `indent`; nothing
/// for empty text.
pub(super) fn wrap(text: &str, indent: &str) -> String {
    if text.trim().is_empty() {
        return String::new();
    }
    crate::cli::term::wrap(text, indent)
}
