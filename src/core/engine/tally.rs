//! Per zone, how many pieces of each counted type it holds, kept up to date
//! as pieces move.
//!
//! A trigger that runs after every action often counts one type in a zone
//! (`count Token in hand of p`), and a search runs it millions of times.
//! Going through the zone's pieces costs a test per piece; the tally answers
//! in one read, or one per owner. Only the types some count of the program
//! names are tallied, so a game that counts none keeps nothing, and the copy
//! of the state a search makes at every iteration stays small.
//!
//! The tally follows a piece's face, not its identity: a sampled world deals
//! hidden faces afresh (see [`super::World`]), and says so through
//! [`Tally::refaced`].

use crate::ir::{GameDef, MatchBy, Matcher, Op, PieceId, TypeId, ZoneId};

/// Which columns a zone's row has: one per owner a tallied type's pieces
/// have (unowned first, then each seat), and where each piece lands.
#[derive(Debug, Default)]
pub(crate) struct TallyLayout {
    /// Columns per zone.
    columns: usize,
    /// The seats: an owned type's columns after its unowned one.
    seats: usize,
    /// Per piece definition (a face), its column, or [`UNTALLIED`].
    column_of_face: Vec<u16>,
    /// Per piece type, its columns, when tallied.
    of_type: Vec<Option<TypeColumns>>,
}

/// The columns of one tallied type.
#[derive(Clone, Copy, Debug)]
struct TypeColumns {
    first: u16,
    /// Whether the first column is for pieces without an owner.
    unowned: bool,
    /// Whether the columns after it are one per seat.
    owned: bool,
}

impl TypeColumns {
    fn len(self, seats: usize) -> usize {
        usize::from(self.unowned) + if self.owned { seats } else { 0 }
    }
}

const UNTALLIED: u16 = u16::MAX;

/// The most counts a state keeps (8 KiB): a search copies them at every
/// iteration. A game past it (a large board whose counts name many types)
/// goes through the zones' pieces instead.
const MAX_CELLS: usize = 4096;

impl TallyLayout {
    /// The layout for the types `code` counts with a type matcher, zone by
    /// zone, over the whole game (which counts the box), or along a
    /// board's lines.
    pub(crate) fn of(def: &GameDef, code: &[Op]) -> TallyLayout {
        let mut tallied = vec![false; def.piece_types.len()];
        for op in code {
            let (Op::Count(m)
            | Op::CountInGame(m)
            | Op::CountOnBoard { matcher: m, .. }
            | Op::Lines { matcher: m, .. }) = *op
            else {
                continue;
            };
            match m.by {
                MatchBy::Type(t) => tallied[usize::from(t)] = true,
                // Any type may be asked.
                MatchBy::TypeOnStack => tallied.fill(true),
                MatchBy::Any | MatchBy::Group(_) | MatchBy::KindOnStack => {}
            }
        }
        let seats = def.players();
        let mut of_type: Vec<Option<TypeColumns>> = vec![None; def.piece_types.len()];
        for piece in &def.pieces {
            if !tallied[usize::from(piece.ty)] {
                continue;
            }
            let columns = of_type[usize::from(piece.ty)].get_or_insert(TypeColumns {
                first: 0,
                unowned: false,
                owned: false,
            });
            match piece.owner {
                Some(_) => columns.owned = true,
                None => columns.unowned = true,
            }
        }
        let mut next = 0usize;
        for columns in of_type.iter_mut().flatten() {
            columns.first = u16::try_from(next).unwrap_or(UNTALLIED);
            next += columns.len(seats);
        }
        if def.zones.len().max(1) * next > MAX_CELLS {
            of_type.fill(None);
            next = 0;
        }
        let column_of_face = def
            .pieces
            .iter()
            .map(|piece| match (of_type[usize::from(piece.ty)], piece.owner) {
                (None, _) => UNTALLIED,
                (Some(c), None) => c.first,
                (Some(c), Some(seat)) => c.first + u16::from(c.unowned) + u16::from(seat),
            })
            .collect();
        TallyLayout {
            columns: next,
            seats,
            column_of_face,
            of_type,
        }
    }
}

/// The counts: a row per zone, a column per tallied type and owner.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    counts: Vec<u16>,
}

impl Tally {
    /// The tally of pieces placed as `piece_zone` says, showing `face`.
    pub(crate) fn of(layout: &TallyLayout, zones: usize, piece_zone: &[ZoneId], face: &[PieceId]) -> Tally {
        let mut tally = Tally {
            counts: vec![0; zones * layout.columns],
        };
        for (&zone, &face) in piece_zone.iter().zip(face) {
            if let Some(cell) = tally.cell(layout, zone, face) {
                tally.counts[cell] += 1;
            }
        }
        tally
    }

    fn cell(&self, layout: &TallyLayout, zone: ZoneId, face: PieceId) -> Option<usize> {
        let column = layout.column_of_face[usize::from(face)];
        (column != UNTALLIED).then(|| usize::from(zone) * layout.columns + usize::from(column))
    }

    /// A piece showing `face` went from zone `from` to zone `to`.
    #[inline]
    pub(crate) fn moved(&mut self, layout: &TallyLayout, face: PieceId, from: ZoneId, to: ZoneId) {
        if let Some(cell) = self.cell(layout, from, face) {
            self.counts[cell] -= 1;
            let to = self.cell(layout, to, face).expect("the same face has the same column");
            self.counts[to] += 1;
        }
    }

    /// A piece in `zone` shows `new` instead of `old`.
    pub(crate) fn refaced(&mut self, layout: &TallyLayout, zone: ZoneId, old: PieceId, new: PieceId) {
        if let Some(cell) = self.cell(layout, zone, old) {
            self.counts[cell] -= 1;
        }
        if let Some(cell) = self.cell(layout, zone, new) {
            self.counts[cell] += 1;
        }
    }

    /// How many pieces of `zone` the matcher takes, when the tally knows:
    /// a type matcher (its type in `key` when on the stack), of a tallied
    /// type, and the owner in `owner` when it asks for one.
    #[inline(always)]
    pub(crate) fn count(&self, layout: &TallyLayout, zone: usize, m: Matcher, key: i64, owner: i64) -> Option<usize> {
        let ty: TypeId = match m.by {
            MatchBy::Type(t) => t,
            MatchBy::TypeOnStack => TypeId::try_from(key).ok()?,
            MatchBy::Any | MatchBy::Group(_) | MatchBy::KindOnStack => return None,
        };
        let columns = (*layout.of_type.get(usize::from(ty))?)?;
        let row = zone * layout.columns + usize::from(columns.first);
        if !m.owner {
            // Mostly one column or two: a plain loop, not a vector sum's setup.
            let mut n = 0;
            for cell in row..row + columns.len(layout.seats) {
                n += usize::from(self.counts[cell]);
            }
            return Some(n);
        }
        match usize::try_from(owner) {
            Ok(seat) if columns.owned && seat < layout.seats => {
                Some(usize::from(self.counts[row + usize::from(columns.unowned) + seat]))
            }
            // No piece of the type has that owner.
            _ => Some(0),
        }
    }
}

#[cfg(test)]
impl super::State {
    /// Asserts that the tally gives every zone's count of every tallied
    /// type, with and without an owner, as going through the zone does.
    /// Returns how many of those counts were not zero.
    pub(super) fn assert_tally_agrees(&self, def: &crate::engine::Game) -> usize {
        let layout = &def.program.tally;
        let mut nonzero = 0;
        for zone in 0..def.zones.len() {
            for ty in 0..def.piece_types.len() {
                for (owner, seat) in [(false, -1)]
                    .into_iter()
                    .chain((-1..=def.players() as i64).map(|s| (true, s)))
                {
                    let m = Matcher {
                        by: MatchBy::Type(ty as TypeId),
                        owner,
                    };
                    let Some(n) = self.tally.count(layout, zone, m, -1, seat) else {
                        continue;
                    };
                    let expected = self.zones[zone]
                        .iter()
                        .filter(|&&p| {
                            let piece = &def.pieces[usize::from(self.face[usize::from(p)])];
                            usize::from(piece.ty) == ty && (!owner || piece.owner.map(i64::from) == Some(seat))
                        })
                        .count();
                    assert_eq!(n, expected, "zone {zone}, type {ty}, owner {owner} {seat}");
                    nonzero += usize::from(n > 0);
                }
            }
        }
        nonzero
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{State, marks_game};

    /// A small board tallies the type its count names, per owner; a board
    /// so large that the counts would make every copy of the state heavy
    /// tallies nothing, and its counts go through the pieces.
    #[test]
    fn a_large_board_keeps_no_tally() {
        for (size, columns) in [(3, 2), (64, 0)] {
            let game = marks_game(size, 2, 3, "if count Mark in supply of A == 0 { win A }");
            assert_eq!(game.program.tally.columns, columns, "a {size} x {size} board");
            let mut events = vec![];
            let mut state = State::start(&game, &game.def.default_options(), 1, vec![], &mut events).unwrap();
            while let Some(pending) = state.pending() {
                let seat = pending.who()[0];
                let choice = crate::engine::Choice::new(seat, pending.legal(seat)[0]);
                state.apply(&game, &[choice], &mut events).unwrap();
            }
            // A placed both its marks: the count of its supply says 0.
            assert_eq!(
                state.outcome().and_then(|o| o.winner),
                Some(0),
                "a {size} x {size} board"
            );
        }
    }
}
