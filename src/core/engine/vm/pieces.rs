//! Pieces on the move, for the slow path: the top piece of a zone, a
//! piece placed (its tallies and watches kept), a zone shuffled.

use super::super::events::Event;
use super::super::{Game, RuntimeError, State};
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{GameDef, PieceId, ZoneId};

impl State {
    pub(super) fn top_piece(&self, def: &GameDef, zone: ZoneId, from_bottom: bool) -> Result<PieceId, RuntimeError> {
        let pieces = &self.zones[zone as usize];
        let piece = if from_bottom { pieces.first() } else { pieces.last() };
        piece.copied().ok_or_else(|| {
            Box::new(
                Diagnostic::error(Code::EmptyZone, format!("`{}` is empty", def.zone_name(zone)))
                    .label(self.span(def), "there is no piece to take here")
                    .help("check `size of` the zone first, or make sure it is filled before this point"),
            )
        })
    }

    pub(in crate::engine) fn place(&mut self, def: &Game, piece: PieceId, to: ZoneId, events: &mut Vec<Event>) {
        let from = self.piece_zone[piece as usize];
        self.zones.move_to_top(piece, from, to);
        let face = self.face[piece as usize];
        self.tally.moved(&def.program.tally, face, from, to);
        self.stale_triggers |= def.program.watch.counting(def.pieces[usize::from(face)].ty);
        self.piece_zone[piece as usize] = to;
        self.known[piece as usize] |= def.piece_viewers(piece, to);
        events.push(Event::Move {
            piece,
            from,
            to,
            seen_by: self.known[piece as usize],
            value: self.die_value(def, piece),
        });
    }

    pub(super) fn shuffle(&mut self, def: &GameDef, zone: ZoneId, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        let viewers = def.zone_viewers(zone);
        let forced = match self.forced.get(self.forced_next) {
            Some(f) if f.zone == zone => {
                self.forced_next += 1;
                Some((f.top.clone(), f.bottom.clone()))
            }
            Some(f) => {
                return Err(self.error(
                    def,
                    Code::ScenarioMismatch,
                    format!(
                        "the scenario fixes a shuffle of `{}`, but the game shuffles `{}` here",
                        def.zone_name(f.zone),
                        def.zone_name(zone)
                    ),
                ));
            }
            None => None,
        };
        self.shuffle_pieces(def, zone);
        if let Some((top, bottom)) = forced {
            // Reordered on the side: the zone keeps its pieces, in another order.
            let mut pieces = self.zones[zone as usize].to_vec();
            // Bring the wanted identities to the top, in order, then to the
            // bottom, keeping the random order of the rest.
            let mut chosen = Vec::with_capacity(top.len() + bottom.len());
            for (wanted, place) in top
                .iter()
                .map(|p| (p, "on top of"))
                .chain(bottom.iter().map(|p| (p, "at the bottom of")))
            {
                let Some(at) = pieces.iter().position(|&p| def.same_identity(p, *wanted)) else {
                    let name = def.piece_label(*wanted);
                    return Err(self.error(
                        def,
                        Code::ScenarioMismatch,
                        format!(
                            "the scenario wants another {name} {place} `{}`, but there is none left",
                            def.zone_name(zone)
                        ),
                    ));
                };
                chosen.push(pieces.remove(at));
            }
            // `pieces` runs from the bottom up.
            let at_bottom = chosen.split_off(top.len());
            let mut on_top = chosen;
            on_top.reverse();
            pieces.splice(0..0, at_bottom);
            pieces.extend(on_top);
            self.zones[zone as usize].copy_from_slice(&pieces);
        }
        let pieces = &self.zones[zone as usize];
        for &p in pieces.iter() {
            self.known[p as usize] &= def.piece_viewers(p, zone);
        }
        let order = pieces.iter().rev().copied().collect();
        events.push(Event::Shuffle {
            zone,
            order,
            seen_by: viewers,
        });
        Ok(())
    }
}
