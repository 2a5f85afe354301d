//! Pieces on the move: taken from a zone, moved, dealt, shuffled, shown, hidden and rolled.

use super::super::events::Event;
use super::super::{Game, RuntimeError, State};
use super::Flow;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{GameDef, Op, PieceId, ZoneId};

impl State {
    /// Runs an op that takes, moves, deals, shuffles, shows, hides or rolls pieces.
    pub(super) fn pieces_step(&mut self, def: &Game, events: &mut Vec<Event>, op: Op) -> Result<Flow, RuntimeError> {
        match op {
            Op::Top | Op::Bottom => {
                let zone = self.pop_zone();
                let piece = self.top_piece(def, zone, op == Op::Bottom)?;
                self.stack.push(piece as i64);
            }
            Op::First(m) => {
                let zone = self.pop_zone();
                let (key, owner) = self.pop_matcher(m);
                let found = self.zones[zone as usize]
                    .iter()
                    .rev()
                    .find(|&&p| self.matches(def, m, p, key, owner));
                match found {
                    Some(&p) => self.stack.push(p as i64),
                    None => {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::NoSuchPiece,
                                format!("`{}` holds no such piece", def.zone_name(zone)),
                            )
                            .label(self.span(def), "nothing to take here"),
                        ));
                    }
                }
            }
            Op::Matches(m) => {
                let piece = self.pop_piece();
                let (key, owner) = self.pop_matcher(m);
                let r = self.matches(def, m, piece, key, owner);
                self.stack.push(i64::from(r));
            }
            Op::Move => {
                let zone = self.pop_zone();
                let piece = self.pop_piece();
                self.place(def, piece, zone, events);
            }
            Op::MoveAll => {
                let to = self.pop_zone();
                let from = self.pop_zone();
                while let Some(&piece) = self.zones[from as usize].last() {
                    self.place(def, piece, to, events);
                }
            }
            Op::Deal => {
                let to = self.pop_zone();
                let from = self.pop_zone();
                let n = self.pop();
                let available = self.zones.len(from as usize) as i64;
                if n > available {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::EmptyZone,
                            format!("cannot deal {n} from `{}`: only {available} left", def.zone_name(from)),
                        )
                        .label(self.span(def), "dealt here")
                        .help("check `size of` the zone first, or decide what happens when it runs out"),
                    ));
                }
                for _ in 0..n {
                    let piece = *self.zones[from as usize].last().expect("counted above");
                    self.place(def, piece, to, events);
                }
            }
            Op::Shuffle => {
                let zone = self.pop_zone();
                self.shuffle(def, zone, events)?;
            }
            Op::Reveal { to_one } => {
                let mask = if to_one {
                    1u32 << self.pop()
                } else {
                    def.all_seats_mask()
                };
                let piece = self.pop_piece();
                self.known[piece as usize] |= mask;
                events.push(Event::Reveal {
                    piece,
                    value: self.die_value(def, piece),
                    to: mask,
                    seen_by: self.known[piece as usize],
                });
            }
            Op::Hide => {
                let piece = self.pop_piece();
                events.push(Event::Hide {
                    piece,
                    seen_by: self.known[piece as usize],
                });
            }
            Op::Roll => {
                let piece = self.pop_piece();
                self.roll(def, piece, events)?;
            }
            Op::RollAll => {
                let zone = self.pop_zone();
                self.roll_all(def, zone, events)?;
            }
            _ => unreachable!("`step` hands {op:?} to the wrong family"),
        }
        Ok(Flow::Continue)
    }

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
