//! A state's chance: the stream it draws from, and shuffling a zone among
//! the arrangements its rules can tell apart.

use super::chance::Chance;
use super::state::State;
use crate::ir::{ChoiceValue, GameDef, PieceId, ZoneId};

impl State {
    /// Where the draws come from.
    pub fn chance(&self) -> &Chance {
        &self.chance
    }

    /// Draws from `chance` from now on.
    pub fn set_chance(&mut self, chance: Chance) {
        self.chance = chance;
    }

    /// One of `faces` equally likely faces of a die, counted from 0.
    pub(super) fn draw_face(&mut self, faces: u64) -> u64 {
        self.chance.draw_face(faces)
    }

    /// Shuffles the pieces of `zone` with the game's chance.
    pub(super) fn shuffle_pieces(&mut self, def: &GameDef, zone: ZoneId) {
        let classes = match self.chance {
            // Play shuffles every piece as it always has.
            Chance::Seeded(_) => vec![],
            Chance::Scripted(_) => self.interchangeable(def, zone),
        };
        self.chance.shuffle(&mut self.zones[zone as usize], &classes);
    }

    /// A class per piece of `zone` (bottom first): pieces of one class are
    /// interchangeable, so an exact enumeration need not tell their orders
    /// apart.
    ///
    /// Why this is sound: two pieces are put in one class only when
    /// everything the game holds about them is the same: their definitions
    /// and faces (type, kind, value, owner, `kind hidden`), who knows them,
    /// and the zone they lie in. The engine reaches a piece only by where it
    /// lies (a zone's top, a `first`, a choice from a zone), never by its
    /// number, so swapping the two numbers everywhere turns one order of the
    /// zone into the other and changes nothing a player or the result can
    /// see: both orders have the same future, outcome for outcome. The one
    /// place a number is held is a value on the stack or in a local (a
    /// chosen card, a `let`); a piece that any such value might name keeps
    /// a class of its own. Values are not typed at run time, so a plain
    /// number that happens to equal a piece's number also keeps it apart:
    /// that only costs branches, never soundness. (Variables cannot hold
    /// pieces: the checker refuses it.) A hook receives a piece as its
    /// number and could compute with it; a hook that orders pieces by number
    /// would break this, and no hook API gives numbers any meaning.
    fn interchangeable(&self, def: &GameDef, zone: ZoneId) -> Vec<u32> {
        let held = |piece: PieceId| {
            self.stack
                .iter()
                .chain(&self.locals)
                .chain(self.offers.iter().flatten())
                .any(|&v| v >= 0 && ChoiceValue::from_raw(v).piece_id() == piece)
        };
        let alike = |a: PieceId, b: PieceId| {
            let (fa, fb) = (self.face[a as usize], self.face[b as usize]);
            def.same_identity(a, b)
                && def.same_identity(fa, fb)
                && def.pieces[fa as usize].kind_hidden == def.pieces[fb as usize].kind_hidden
                && def.pieces[a as usize].kind_hidden == def.pieces[b as usize].kind_hidden
                && self.known[a as usize] == self.known[b as usize]
                && self.value_of(def, a) == self.value_of(def, b)
        };
        let pieces = &self.zones[zone as usize];
        let mut classes: Vec<u32> = Vec::with_capacity(pieces.len());
        // The first piece of each class, and whether it may share one.
        let mut leaders: Vec<(PieceId, bool)> = vec![];
        for &piece in pieces {
            let free = !held(piece);
            let class = leaders
                .iter()
                .position(|&(leader, open)| open && free && alike(leader, piece))
                .unwrap_or_else(|| {
                    leaders.push((piece, free));
                    leaders.len() - 1
                });
            classes.push(class as u32);
        }
        classes
    }
}
