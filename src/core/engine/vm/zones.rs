//! Zones and what is in them, for the interpreter: a family's zones and
//! their sizes, counts of matching pieces (from the tallies where they are
//! kept), and a piece's attributes.

use super::super::{Game, RuntimeError, State};
use super::table_entry;
use crate::diagnostic::Code;
use crate::ir::{Attr, ChoiceValue, GameDef, MatchBy, Matcher, PieceFilter, PieceId, RunningLead, Seat, id_from_value};

impl State {
    /// What `lead` stands at for `seat` (a per-player variable, or a count
    /// in the seat's zone of a family).
    pub fn running_lead(&self, def: &Game, lead: RunningLead, seat: Seat) -> i64 {
        match lead {
            RunningLead::Var(slot) => self.var_value(usize::from(slot) + usize::from(seat)),
            RunningLead::Count { family, matcher } => self
                .zone_of(def, family, i64::from(seat))
                .map_or(0, |zone| self.count_in_zone(def, zone, matcher, -1, -1) as i64),
        }
    }

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
    /// Inlined: a loop over a board's pieces is mostly this test.
    #[inline(always)]
    pub(super) fn passes(&self, def: &GameDef, filter: PieceFilter, locals_base: usize, piece: PieceId) -> bool {
        let key = self.locals[locals_base + filter.key as usize];
        let owner = self.locals[locals_base + filter.owner as usize];
        self.matches_inlined(def, filter.matcher, piece, key, owner)
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

    /// The pieces matching `matcher` in every slot of `board`. A family's
    /// zones lie next to each other in the buffer of pieces, so where it
    /// holds fewer pieces than it has zones its pieces are tested in one
    /// slice (a board mostly empty costs what it holds, not its size);
    /// otherwise zone by zone, from the tallies where they are kept. Both
    /// count a zone the board lists twice twice.
    #[inline(never)]
    pub(super) fn count_on_board(&self, def: &Game, board: u16, matcher: Matcher, key: i64, owner: i64) -> i64 {
        let mut n = 0;
        for &family in &def.boards[board as usize].slots {
            let f = &def.families[family as usize];
            let zones = usize::from(f.first)..usize::from(f.first + f.len);
            let pieces = self.zones.of_zones(zones.clone());
            n += if pieces.len() <= zones.len() {
                pieces
                    .iter()
                    .filter(|&&p| self.matches_inlined(def, matcher, p, key, owner))
                    .count()
            } else {
                zones
                    .map(|zone| self.count_in_zone(def, zone, matcher, key, owner))
                    .sum()
            };
        }
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

    /// `ZoneOf`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_zone_of(&mut self, def: &Game, pc: usize, family: u16) -> Result<usize, RuntimeError> {
        let index = self.pop();
        let zone = self.on_board(def, pc, self.zone_of(def, family, index))?;
        self.stack.push(zone as i64);
        Ok(pc)
    }

    /// `Size`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_size(&mut self, pc: usize) -> usize {
        let zone = self.pop();
        self.stack.push(self.zones.len(zone as usize) as i64);
        pc
    }

    /// `KindAt`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_kind_at(&mut self, def: &Game, pc: usize, set: u16) -> usize {
        let i = self.pop();
        self.stack.push(def.kind_sets[set as usize].members[i as usize] as i64);
        pc
    }

    /// `TypeAt`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_type_at(&mut self, def: &Game, pc: usize, group: u16) -> usize {
        let i = self.pop();
        self.stack.push(def.groups[group as usize].types[i as usize] as i64);
        pc
    }

    /// `Beats`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_beats(&mut self, def: &Game, pc: usize) -> usize {
        let b = id_from_value(self.pop());
        let a = id_from_value(self.pop());
        self.stack.push(i64::from(def.beats(a, b)));
        pc
    }

    /// `LocalZoneSize`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_local_zone_size(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
    ) -> Result<usize, RuntimeError> {
        let size = self.local_zone_size(def, pc, locals_base, slot, family)?;
        self.stack.push(size);
        pc += 2;
        Ok(pc)
    }

    /// The zone `family[local slot]` of a run that starts `Load(slot)
    /// ZoneOf(family)` at `pc - 1`, or the off-board error at its `ZoneOf`.
    #[inline(always)]
    fn local_zone_of(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
    ) -> Result<usize, RuntimeError> {
        let index = self.locals[locals_base + slot as usize];
        self.on_board(def, pc + 1, self.zone_of(def, family, index))
    }

    /// The size of that zone (see [`State::local_zone_of`]).
    #[inline(always)]
    pub(super) fn local_zone_size(
        &mut self,
        def: &Game,
        pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
    ) -> Result<i64, RuntimeError> {
        let index = self.locals[locals_base + slot as usize];
        self.on_board(def, pc + 1, self.zone_size(def, family, index))
    }

    /// `ZoneOfLocal`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_zone_of_local(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
        to: u16,
    ) -> Result<usize, RuntimeError> {
        let zone = self.local_zone_of(def, pc, locals_base, slot, family)?;
        self.locals[locals_base + to as usize] = zone as i64;
        pc += 2;
        Ok(pc)
    }

    /// `ZoneSize`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_zone_size(&mut self, def: &Game, mut pc: usize, family: u16) -> Result<usize, RuntimeError> {
        let index = self.pop();
        let size = self.on_board(def, pc, self.zone_size(def, family, index))?;
        self.stack.push(size);
        pc += 1;
        Ok(pc)
    }

    /// `Count`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_count(&mut self, def: &Game, pc: usize, m: Matcher) -> usize {
        let zone = self.pop_zone();
        let n = self.count_matching(def, zone as usize, m);
        self.stack.push(n);
        pc
    }

    /// `Attr`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_attr(&mut self, def: &Game, pc: usize, attr: Attr) -> Result<usize, RuntimeError> {
        let value = self.pop();
        match self.attribute(def, attr, value) {
            Some(v) => self.stack.push(v),
            None => {
                self.frames.last_mut().expect("frame").pc = pc as u32;
                let what = if attr == Attr::Kind { "kind" } else { "owner" };
                return Err(self.error(def, Code::MissingAttribute, format!("this piece has no {what}")));
            }
        }
        Ok(pc)
    }

    /// `Table`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_table(&mut self, def: &Game, pc: usize, table: u16) -> usize {
        let n = self.pop();
        self.stack.push(table_entry(&def.tables[table as usize], n));
        pc
    }

    /// `CountInLocalZone`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_count_in_local_zone(
        &mut self,
        def: &Game,
        mut pc: usize,
        locals_base: usize,
        slot: u16,
        family: u16,
        matcher: Matcher,
    ) -> Result<usize, RuntimeError> {
        let zone = self.local_zone_of(def, pc, locals_base, slot, family)?;
        let n = self.count_matching(def, zone, matcher);
        self.stack.push(n);
        pc += 2;
        Ok(pc)
    }

    /// `CountInGame`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_count_in_game(&mut self, def: &Game, pc: usize, m: Matcher) -> usize {
        let n = self.count_in_game(def, m);
        self.stack.push(n);
        pc
    }

    /// `CountOnBoard`: `pc` points past it; returns where to go on.
    #[inline(always)]
    pub(super) fn run_count_on_board(&mut self, def: &Game, pc: usize, board: u16, matcher: Matcher) -> usize {
        let (key, owner) = self.pop_matcher(matcher);
        let n = self.count_on_board(def, board, matcher, key, owner);
        self.stack.push(n);
        pc
    }
}
