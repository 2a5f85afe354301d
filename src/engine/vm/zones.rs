//! Zones and what is in them, for the interpreter: a family's zones and
//! their sizes, counts of matching pieces (from the tallies where they are
//! kept), and a piece's attributes.

use super::super::lower::BoardCount;
use super::super::{Game, State};
use crate::ir::{Attr, ChoiceValue, GameDef, MatchBy, Matcher, PieceFilter, PieceId};

impl State {
    #[inline]
    pub(super) fn matches(&self, def: &GameDef, m: Matcher, piece: PieceId, key: i64, owner: i64) -> bool {
        self.matches_inlined(def, m, piece, key, owner)
    }

    /// [`State::matches`], always inlined: in the loops of the counts it is
    /// all the work. Elsewhere a call keeps the interpreter's loop small.
    #[inline(always)]
    pub(super) fn matches_inlined(&self, def: &GameDef, m: Matcher, piece: PieceId, key: i64, owner: i64) -> bool {
        let p = &def.pieces[self.face[piece as usize] as usize];
        let by = match m.by {
            MatchBy::Any => true,
            MatchBy::Type(t) => p.ty == t,
            MatchBy::Group(g) => def.groups[g as usize].types.contains(&p.ty),
            MatchBy::TypeOnStack => p.ty as i64 == key,
            MatchBy::KindOnStack => p.kind.map(i64::from) == Some(key),
        };
        by && (!m.owner || p.owner.map(i64::from) == Some(owner))
    }

    /// Whether `piece` passes a loop's filter, whose arguments are in locals.
    pub(super) fn passes(&self, def: &GameDef, filter: PieceFilter, locals_base: usize, piece: PieceId) -> bool {
        let key = self.locals[locals_base + filter.key as usize];
        let owner = self.locals[locals_base + filter.owner as usize];
        self.matches(def, filter.matcher, piece, key, owner)
    }

    /// A piece attribute of a piece value (a piece, or a piece chosen "as"
    /// a kind), or `None` when the piece has no such attribute.
    pub(super) fn attribute(&self, def: &GameDef, attr: Attr, value: i64) -> Option<i64> {
        let value = ChoiceValue::from_raw(value);
        let piece = &def.pieces[self.face[value.piece_id() as usize] as usize];
        match attr {
            // A piece chosen "as" a kind has that kind.
            Attr::Kind => value.declared_kind().or(piece.kind).map(i64::from),
            Attr::Value => Some(self.value_of(def, value.piece_id())),
            Attr::Owner => piece.owner.map(i64::from),
            Attr::Type => Some(piece.ty as i64),
        }
    }

    /// The pieces matching `matcher` in every slot of `board`.
    #[inline(never)]
    pub(super) fn count_on_board(&self, def: &Game, board: u16, matcher: Matcher, key: i64, owner: i64) -> i64 {
        let n = match &def.program.counts[board as usize] {
            BoardCount::ByPieces(on_board) => self
                .piece_zone
                .iter()
                .enumerate()
                .filter(|&(piece, &zone)| {
                    on_board[zone as usize] && self.matches_inlined(def, matcher, piece as PieceId, key, owner)
                })
                .count(),
            BoardCount::ByZones => def.boards[board as usize]
                .slots
                .iter()
                .flat_map(|&family| {
                    let f = &def.families[family as usize];
                    f.first..f.first + f.len
                })
                .map(|zone| self.count_in_zone(def, zone as usize, matcher, key, owner))
                .sum(),
        };
        n as i64
    }

    /// The zone `index` of a family, or `None` when there is no such zone
    /// (only a space off the board, a step past the edge, gets there).
    pub(super) fn zone_of(&self, def: &GameDef, family: u16, index: i64) -> Option<usize> {
        let f = &def.families[family as usize];
        (0..f.len as i64)
            .contains(&index)
            .then(|| (f.first as i64 + index) as usize)
    }

    /// How many pieces of a zone the matcher takes, its type and owner
    /// popped from the stack. Kept out of line: the inner loop has two
    /// callers, and a copy in each costs every other instruction registers.
    #[inline(never)]
    pub(super) fn count_matching(&mut self, def: &Game, zone: usize, m: Matcher) -> i64 {
        let (key, owner) = self.pop_matcher(m);
        self.count_in_zone(def, zone, m, key, owner) as i64
    }

    /// How many pieces of the game the matcher takes, its type and owner
    /// popped from the stack.
    #[inline(never)]
    pub(super) fn count_in_game(&mut self, def: &Game, m: Matcher) -> i64 {
        let (key, owner) = self.pop_matcher(m);
        // Every piece the definition has, less those in the box.
        let in_box = self.count_in_zone(def, usize::from(def.families[0].first), m, key, owner);
        def.program.totals.of_matcher(def, m, key, owner) - in_box as i64
    }

    /// How many pieces of a zone the matcher takes: from the zone's tally
    /// when it counts the matcher's type, else piece by piece with the test
    /// inlined (it is all of that count's work).
    pub(super) fn count_in_zone(&self, def: &Game, zone: usize, m: Matcher, key: i64, owner: i64) -> usize {
        let counted = || {
            self.zones[zone]
                .iter()
                .filter(|&&p| self.matches_inlined(def, m, p, key, owner))
                .count()
        };
        match self.tally.count(&def.program.tally, zone, m, key, owner) {
            Some(n) => {
                debug_assert_eq!(n, counted(), "the tally of zone {zone} agrees with its pieces");
                n
            }
            None => counted(),
        }
    }

    /// How many pieces zone `index` of a family holds, or `None` when there
    /// is no such zone (see [`State::zone_of`]).
    pub(super) fn zone_size(&self, def: &GameDef, family: u16, index: i64) -> Option<i64> {
        self.zone_of(def, family, index).map(|zone| self.zones.len(zone) as i64)
    }
}
