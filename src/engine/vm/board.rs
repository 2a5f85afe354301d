//! Boards, for the inner loop: full lines, and the spaces a matcher holds
//! as one mask (lines and the longest run alike).

use super::super::{Game, State};
use crate::ir::{GameDef, Matcher};

impl State {
    /// How many lines of `board` hold a piece the matcher takes on every
    /// space, in the zones of `family`. A score counts them at the end of
    /// every playout.
    #[inline(never)]
    pub(super) fn full_lines(&self, def: &Game, board: u16, family: u16, m: Matcher, key: i64, owner: i64) -> i64 {
        let lines = &def.boards[board as usize].lines;
        let full = if def.families[family as usize].len <= 64 {
            // Each space is asked once, however many lines cross it.
            let mask = self.held_bits(def, family, m, key, owner, |space| Some(space as u8));
            lines
                .iter()
                .filter(|line| line.iter().all(|&space| mask >> space & 1 == 1))
                .count()
        } else {
            let first = def.families[family as usize].first;
            let held = |space: u16| self.count_in_zone(def, usize::from(first + space), m, key, owner) > 0;
            lines
                .iter()
                .filter(|line| line.iter().all(|&space| held(space)))
                .count()
        };
        full as i64
    }

    /// The spaces of a board's family that hold a piece the matcher takes,
    /// as bits (`bit_of` gives a space's bit, if it has one): found from the
    /// pieces on the board, not space by space, as a board is mostly empty.
    /// A loop, not an iterator: this runs once a move in a line game's
    /// search, and the iterator's closures were not inlined.
    #[inline(always)]
    pub(super) fn held_bits(
        &self,
        def: &GameDef,
        family: u16,
        m: Matcher,
        key: i64,
        owner: i64,
        bit_of: impl Fn(u16) -> Option<u8>,
    ) -> u64 {
        let family = &def.families[family as usize];
        let zones = family.first as usize..(family.first + family.len) as usize;
        let mut bits = 0u64;
        for &piece in self.zones.of_zones(zones) {
            if self.matches_inlined(def, m, piece, key, owner)
                && let Some(bit) = bit_of(self.piece_zone[piece as usize] - family.first)
            {
                bits |= 1 << bit;
            }
        }
        bits
    }
}
