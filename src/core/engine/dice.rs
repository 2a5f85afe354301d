//! Dice: pieces whose value is rolled among their faces (`Die with faces
//! 1..6 x2 per player in cup`, then `roll d` or `roll all of cup of p`).
//!
//! A die's value lives in the state, not in its definition: `State::rolled`
//! holds the value each piece definition shows (indexed like
//! `State::face`, so in a sampled world a value travels with the face it
//! belongs to). A game without dice keeps it empty, and every piece shows
//! its declared value.
//!
//! A roll is a chance event: one draw among the die's `k` faces through
//! [`super::Chance`], so `rpsdsl exact` enumerates it like a shuffle, `k`
//! equally likely outcomes. A scenario or a replay fixes rolls in advance
//! ([`ForcedRoll`]): the draw is still made, so the seeded stream goes on as
//! it would, and the fixed face replaces it. After a roll, the seats that see
//! the die where it lies know its new value and everyone else forgets it
//! (as a shuffle in a zone they cannot see makes them forget). A sampled
//! world rolls again every die its seat does not know (see `observe`).

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::{Event, ForcedRoll, RuntimeError, State};
use crate::diagnostic::Code;
use crate::ir::{GameDef, PieceId, ZoneId};

impl State {
    /// The value each piece definition shows at the start: a die its lowest
    /// face, anything else its declared value. Empty for a game without dice.
    pub(super) fn start_values(def: &GameDef, options: &[i64]) -> Vec<i64> {
        if def.pieces.iter().all(|p| p.faces.is_none()) {
            return vec![];
        }
        def.pieces
            .iter()
            .map(|p| p.faces.map_or(p.value, |(low, _)| low.resolve(options)))
            .collect()
    }

    /// The value `piece` shows: a die's last roll, or its declared value.
    /// Inlined: deduplicating offers compares values in a search's loop.
    #[inline]
    pub fn value_of(&self, def: &GameDef, piece: PieceId) -> i64 {
        let face = self.face[piece as usize] as usize;
        self.rolled.get(face).copied().unwrap_or(def.pieces[face].value)
    }

    /// The value `piece` shows when it is a die, for the transcript.
    pub(super) fn die_value(&self, def: &GameDef, piece: PieceId) -> Option<i64> {
        let face = self.face[piece as usize];
        def.pieces[face as usize].faces.map(|_| self.value_of(def, piece))
    }

    /// A die's lowest and highest face with this game's options, or `None`
    /// for a piece that is not a die.
    fn faces_of(&self, def: &GameDef, face: PieceId) -> Option<(i64, i64)> {
        def.pieces[face as usize]
            .faces
            .map(|(low, high)| (low.resolve(&self.options), high.resolve(&self.options)))
    }

    /// Fixes the next rolls, in order; past them, rolls are drawn.
    pub fn force_rolls(&mut self, rolls: Vec<ForcedRoll>) {
        self.forced_rolls = rolls;
        self.forced_rolls_next = 0;
    }

    /// `roll d`: the die gets one of its faces, each as likely.
    pub(super) fn roll(&mut self, def: &GameDef, piece: PieceId, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        let face = self.face[piece as usize];
        let Some((low, high)) = self.faces_of(def, face) else {
            return Err(self.error(
                def,
                Code::NotADie,
                format!("{} is not a die: it has no faces to roll", def.piece_label(face)),
            ));
        };
        if high < low {
            return Err(self.error(
                def,
                Code::NotADie,
                format!("{} has no faces: its faces are {low}..{high}", def.piece_label(face)),
            ));
        }
        let faces = (high - low) as u64 + 1;
        let mut value = low + self.draw_face(faces) as i64;
        if let Some(forced) = self.forced_rolls.get(self.forced_rolls_next) {
            let wanted = def.piece_label(forced.die);
            if !def.same_identity(forced.die, face) {
                return Err(self.error(
                    def,
                    Code::ScenarioMismatch,
                    format!(
                        "the scenario fixes a roll of {wanted}, but the game rolls {} here",
                        def.piece_label(face)
                    ),
                ));
            }
            if !(low..=high).contains(&forced.value) {
                return Err(self.error(
                    def,
                    Code::ScenarioMismatch,
                    format!(
                        "the scenario rolls {} for {wanted}, whose faces are {low}..{high}",
                        forced.value
                    ),
                ));
            }
            value = forced.value;
            self.forced_rolls_next += 1;
        }
        // A game with dice keeps a value per piece definition (`start_values`).
        self.rolled[face as usize] = value;
        let zone = self.piece_zone[piece as usize];
        self.known[piece as usize] = def.piece_viewers(piece, zone);
        events.push(Event::Roll {
            piece,
            zone,
            value,
            seen_by: self.known[piece as usize],
        });
        Ok(())
    }

    /// `roll all of zone`: every die in it, top first; other pieces stay as
    /// they are.
    pub(super) fn roll_all(
        &mut self,
        def: &GameDef,
        zone: ZoneId,
        events: &mut Vec<Event>,
    ) -> Result<(), RuntimeError> {
        let dice: Vec<PieceId> = self
            .zone(zone)
            .filter(|&p| def.pieces[self.face[p as usize] as usize].faces.is_some())
            .collect();
        for die in dice {
            self.roll(def, die, events)?;
        }
        Ok(())
    }

    /// In a sampled world: every die face among `faces` (dealt to pieces the
    /// seat does not know) is rolled afresh with `rng`. The draws depend only
    /// on the faces, never on the values they really show.
    pub(super) fn reroll_hidden(&mut self, def: &GameDef, faces: &[PieceId], rng: &mut ChaCha8Rng) {
        for &face in faces {
            if let Some((low, high)) = self.faces_of(def, face)
                && high >= low
            {
                self.rolled[face as usize] = low + rng.random_range(0..=(high - low));
            }
        }
    }
}
