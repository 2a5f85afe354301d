//! The tables compiled code reads: made from `ir` once per board or per
//! op, and kept with the code for as long as it runs.

use crate::ir::grid::{DIRECTIONS, NO_SPACE, opposite};
use crate::ir::{FamilyIndex, GameDef};

/// Tables compiled code reads at addresses built into it, made from `ir`
/// once per board and kept with the code (a boxed slice never moves).
#[derive(Default)]
pub(crate) struct Tables {
    /// Per board: per space, the space one step away in each direction, or
    /// [`NO_SPACE`] (as `Board::step`).
    steps: Vec<Option<Box<[i16]>>>,
    /// Per board and way (forward, backward): each seat's direction.
    forward: Vec<Option<Box<[u8]>>>,
    /// Per board of at most [`NEIGHBOUR_TABLE_SPACES`] spaces: per space and
    /// per neighbour a loop stands at (from -1), the next neighbour, or -1.
    neighbours: Vec<Option<Box<[i16]>>>,
    /// Per board that fits in 64 bits: per space, its bit for
    /// `LongestRun` (`Board::run_bits`).
    run_bits: Vec<Option<Box<[i16]>>>,
    /// Per board: per zone, its space on the board, or -1.
    spaces_of_zones: Vec<Option<Box<[i16]>>>,
    /// Other tables of the definition's (which kind beats which, the
    /// members of kind sets and groups), one per op that reads one.
    lists: Vec<Box<[i16]>>,
    /// Per piece definition: its type, its owner or -1, its kind or -1.
    piece_types: Option<Box<[u16]>>,
    piece_owners: Option<Box<[i16]>>,
    piece_kinds: Option<Box<[i16]>>,
}

/// The largest board whose neighbour table is built (it has a row per
/// space and a column per space).
const NEIGHBOUR_TABLE_SPACES: u16 = 256;

impl Tables {
    pub(super) fn steps(&mut self, def: &GameDef, board: u16) -> *const i16 {
        let b = &def.boards[board as usize];
        let slot = slot(&mut self.steps, board as usize);
        slot.get_or_insert_with(|| {
            let mut table: Vec<i16> = (0..i64::from(b.spaces()))
                .flat_map(|space| (0..DIRECTIONS.len() as i64).map(move |direction| (space, direction)))
                .map(|(space, direction)| b.step(space, direction) as i16)
                .collect();
            // A board of no space still gives a row to read (and discard).
            table.resize(table.len().max(DIRECTIONS.len()), NO_SPACE as i16);
            table.into_boxed_slice()
        })
        .as_ptr()
    }

    pub(super) fn forward(&mut self, def: &GameDef, board: u16, backward: bool) -> *const u8 {
        let b = &def.boards[board as usize];
        let slot = slot(&mut self.forward, 2 * board as usize + usize::from(backward));
        slot.get_or_insert_with(|| {
            b.forward
                .iter()
                .map(|&ahead| if backward { opposite(ahead) } else { ahead })
                .collect()
        })
        .as_ptr()
    }

    pub(super) fn neighbours(&mut self, def: &GameDef, board: u16) -> Option<*const i16> {
        let b = &def.boards[board as usize];
        if b.spaces() > NEIGHBOUR_TABLE_SPACES {
            return None;
        }
        let slot = slot(&mut self.neighbours, board as usize);
        let table = slot.get_or_insert_with(|| {
            b.adjacent
                .iter()
                .flat_map(|near| {
                    (-1..i64::from(b.spaces())).map(move |after| {
                        // As the interpreter walks the list: the first one
                        // past where the loop stands.
                        near.iter().find(|&&t| i64::from(t) > after).map_or(-1, |&t| t as i16)
                    })
                })
                .collect()
        });
        Some(table.as_ptr())
    }

    /// Per space of `board`, its bit for `LongestRun`, built once per
    /// board; `None` for a board past 64 bits.
    pub(super) fn run_bits(&mut self, def: &GameDef, board: u16) -> Option<(*const i16, usize)> {
        let bits = def.boards[board as usize].run_bits()?;
        let slot = slot(&mut self.run_bits, board as usize);
        let table = slot.get_or_insert_with(|| bits.iter().map(|&bit| i16::from(bit)).collect());
        Some((table.as_ptr(), table.len()))
    }

    /// A table kept with the code (read only at indexes checked in range).
    pub(super) fn list(&mut self, values: impl Iterator<Item = i16>) -> *const i16 {
        self.lists.push(values.collect());
        self.lists.last().expect("just pushed").as_ptr()
    }

    /// Per piece definition, its type.
    pub(super) fn piece_types(&mut self, def: &GameDef) -> *const u16 {
        self.piece_types
            .get_or_insert_with(|| def.pieces.iter().map(|p| p.ty).collect())
            .as_ptr()
    }

    /// Per piece definition, its owner, or -1 for none.
    pub(super) fn piece_owners(&mut self, def: &GameDef) -> *const i16 {
        self.piece_owners
            .get_or_insert_with(|| def.pieces.iter().map(|p| p.owner.map_or(-1, i16::from)).collect())
            .as_ptr()
    }

    /// Per piece definition, its kind, or -1 for none.
    pub(super) fn piece_kinds(&mut self, def: &GameDef) -> *const i16 {
        self.piece_kinds
            .get_or_insert_with(|| {
                def.pieces
                    .iter()
                    .map(|p| p.kind.and_then(|k| i16::try_from(k).ok()).unwrap_or(-1))
                    .collect()
            })
            .as_ptr()
    }

    pub(super) fn spaces_of_zones(&mut self, def: &GameDef, board: u16) -> *const i16 {
        let slot = slot(&mut self.spaces_of_zones, board as usize);
        slot.get_or_insert_with(|| {
            def.zones
                .iter()
                .map(|zone| {
                    if def.families[zone.family as usize].by == FamilyIndex::PerSpace(board) {
                        zone.index as i16
                    } else {
                        -1
                    }
                })
                .collect()
        })
        .as_ptr()
    }
}

fn slot<T>(slots: &mut Vec<Option<T>>, at: usize) -> &mut Option<T> {
    if slots.len() <= at {
        slots.resize_with(at + 1, || None);
    }
    &mut slots[at]
}
