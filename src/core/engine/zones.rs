//! Where every piece lies: the pieces of all zones in one buffer.
//!
//! A search copies a state at every iteration. With a vector per zone that
//! copy is one vector per zone (a board game has dozens); here it is two,
//! whatever the number of zones.

use std::ops::{Index, IndexMut};

use crate::ir::{PieceId, ZoneId};

/// The pieces of each zone, bottom first (the top is the last), zone after
/// zone in one buffer.
#[derive(Debug, Default)]
pub(crate) struct Zones {
    pieces: Vec<PieceId>,
    /// Where each zone begins in `pieces`, and after the last zone, the
    /// buffer's length: zone `z` is `pieces[start[z]..start[z + 1]]`.
    start: Vec<u32>,
}

impl Clone for Zones {
    fn clone(&self) -> Self {
        Zones {
            pieces: self.pieces.clone(),
            start: self.start.clone(),
        }
    }

    /// Copies into the buffers already there (a search's copies).
    fn clone_from(&mut self, source: &Self) {
        self.pieces.clone_from(&source.pieces);
        self.start.clone_from(&source.start);
    }
}

impl Zones {
    /// `zones` empty zones.
    pub(crate) fn new(zones: usize) -> Zones {
        Zones {
            pieces: vec![],
            start: vec![0; zones + 1],
        }
    }

    /// Where zone `zone` lies in the buffer.
    #[inline(always)]
    fn range(&self, zone: usize) -> std::ops::Range<usize> {
        self.start[zone] as usize..self.start[zone + 1] as usize
    }

    /// Where each zone begins, then the buffer's length, as compiled code
    /// reads them (see `native::Machine::zone_starts`). Valid until the
    /// zones are next changed.
    pub(crate) fn starts(&self) -> *const u32 {
        self.start.as_ptr()
    }

    /// The buffer of every zone's pieces, as compiled code reads it (see
    /// `native::Machine::zone_pieces`). Valid until the zones next change.
    pub(crate) fn pieces_ptr(&self) -> *const PieceId {
        self.pieces.as_ptr()
    }

    /// How many pieces `zone` holds.
    #[inline(always)]
    pub(crate) fn len(&self, zone: usize) -> usize {
        (self.start[zone + 1] - self.start[zone]) as usize
    }

    /// The first zone from `from` (included) to `end` (excluded) that
    /// holds a piece, found in one step: zones lie in order in the buffer,
    /// so the piece at `from`'s start, if it is before `end`'s, is in that
    /// zone (`piece_zone` says which). Empty zones between cost nothing.
    #[inline(always)]
    pub(crate) fn first_holding(&self, from: usize, end: usize, piece_zone: &[ZoneId]) -> Option<usize> {
        let at = self.start[from] as usize;
        (at < self.start[end] as usize).then(|| piece_zone[self.pieces[at] as usize] as usize)
    }

    /// The pieces of the zones `first..end`, zone after zone: the zones of
    /// a family lie next to each other in the buffer, so a board's pieces
    /// are read in one slice.
    #[inline(always)]
    pub(crate) fn of_zones(&self, zones: std::ops::Range<usize>) -> &[PieceId] {
        &self.pieces[self.start[zones.start] as usize..self.start[zones.end] as usize]
    }

    /// `zones` zones holding every piece, in number order, in the zone
    /// `home[piece]`: what pushing them one by one gives, in one pass.
    pub(crate) fn dealt(zones: usize, home: &[ZoneId]) -> Zones {
        let mut start = vec![0u32; zones + 1];
        for &zone in home {
            start[zone as usize + 1] += 1;
        }
        for zone in 0..zones {
            start[zone + 1] += start[zone];
        }
        let mut next = start.clone();
        let mut pieces = vec![0; home.len()];
        for (piece, &zone) in home.iter().enumerate() {
            pieces[next[zone as usize] as usize] = crate::ir::id_from_index(piece);
            next[zone as usize] += 1;
        }
        Zones { pieces, start }
    }

    /// Puts `piece` on top of `zone`.
    pub(crate) fn push(&mut self, zone: ZoneId, piece: PieceId) {
        let zone = zone as usize;
        self.pieces.insert(self.start[zone + 1] as usize, piece);
        for start in &mut self.start[zone + 1..] {
            *start += 1;
        }
    }

    /// Takes `piece` out of `from` (its topmost place there) and puts it on
    /// top of `to`, which may be `from` itself. A piece not in `from` is
    /// only put on top of `to`.
    pub(crate) fn move_to_top(&mut self, piece: PieceId, from: ZoneId, to: ZoneId) {
        let (from, to) = (from as usize, to as usize);
        let here = self.range(from);
        let Some(at) = self.pieces[here.clone()].iter().rposition(|&p| p == piece) else {
            self.push(to as ZoneId, piece);
            return;
        };
        let at = here.start + at;
        if from == to {
            self.lift(at, here.end);
        } else if from < to {
            // The zones between give up their first place to the one before.
            self.lift(at, self.start[to + 1] as usize);
            for start in &mut self.start[from + 1..=to] {
                *start -= 1;
            }
        } else {
            self.lower(at, self.start[to + 1] as usize);
            for start in &mut self.start[to + 1..=from] {
                *start += 1;
            }
        }
    }

    /// Moves the piece at `at` to just before `end`, the pieces between
    /// closing up: a rotation by one, as one memmove (the standard library's
    /// general rotation loops over short slices piece by piece).
    #[inline(always)]
    fn lift(&mut self, at: usize, end: usize) {
        let piece = self.pieces[at];
        self.pieces.copy_within(at + 1..end, at);
        self.pieces[end - 1] = piece;
    }

    /// Moves the piece at `at` down to `to`, the pieces from there on
    /// moving up one place.
    #[inline(always)]
    fn lower(&mut self, at: usize, to: usize) {
        let piece = self.pieces[at];
        self.pieces.copy_within(to..at, to + 1);
        self.pieces[to] = piece;
    }
}

impl Index<usize> for Zones {
    type Output = [PieceId];

    /// The pieces of a zone, bottom first.
    #[inline(always)]
    fn index(&self, zone: usize) -> &[PieceId] {
        &self.pieces[self.range(zone)]
    }
}

impl IndexMut<usize> for Zones {
    /// The pieces of a zone, bottom first, to reorder in place.
    #[inline(always)]
    fn index_mut(&mut self, zone: usize) -> &mut [PieceId] {
        let range = self.range(zone);
        &mut self.pieces[range]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moving pieces about keeps every zone what a vector per zone holds.
    #[test]
    fn moves_agree_with_a_vector_per_zone() {
        const ZONES: usize = 7;
        let mut zones = Zones::new(ZONES);
        let mut plain: Vec<Vec<PieceId>> = vec![vec![]; ZONES];
        let mut zone_of: Vec<ZoneId> = vec![];
        for piece in 0..20 as PieceId {
            let zone = (piece as usize * 5 % ZONES) as ZoneId;
            zones.push(zone, piece);
            plain[zone as usize].push(piece);
            zone_of.push(zone);
        }
        // Dealt at once, the pieces lie as pushed one by one.
        let dealt = Zones::dealt(ZONES, &zone_of);
        for (zone, pieces) in plain.iter().enumerate() {
            assert_eq!(&dealt[zone], pieces.as_slice(), "zone {zone}");
        }
        // A fixed pseudo-random walk: every pair of zones, either way, and
        // a zone to itself.
        let mut x: u64 = 12345;
        for _ in 0..2000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let piece = ((x >> 33) % 20) as PieceId;
            let to = ((x >> 45) % ZONES as u64) as ZoneId;
            let from = zone_of[piece as usize];
            zones.move_to_top(piece, from, to);
            let at = plain[from as usize].iter().rposition(|&p| p == piece).expect("there");
            plain[from as usize].remove(at);
            plain[to as usize].push(piece);
            zone_of[piece as usize] = to;
            for (zone, pieces) in plain.iter().enumerate() {
                assert_eq!(&zones[zone], pieces.as_slice(), "zone {zone}");
                assert_eq!(zones.len(zone), pieces.len());
            }
        }
        zones[3].reverse();
        plain[3].reverse();
        assert_eq!(&zones[3], plain[3].as_slice());
    }
}
