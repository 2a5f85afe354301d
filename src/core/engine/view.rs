//! Per-player views: what one seat may know, and nothing else.

use super::State;
use crate::ir::{GameDef, KindId, PieceId, Seat, TypeId};

/// A piece as a player sees it. It carries no piece number, so a hidden
/// piece cannot be looked up in the definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceFace {
    /// Its piece type: an index into [`GameDef::piece_types`].
    pub ty: TypeId,
    /// Its kind, an index into [`GameDef::kinds`]; `None` for a piece without one, or seen from the back.
    pub kind: Option<KindId>,
    /// Its value; 0 seen from the back.
    pub value: i64,
    /// The seat that owns it.
    pub owner: Option<Seat>,
}

impl PieceFace {
    /// Everything about `piece`.
    pub fn of(def: &GameDef, piece: PieceId) -> PieceFace {
        let p = &def.pieces[piece as usize];
        PieceFace {
            ty: p.ty,
            kind: p.kind,
            value: p.value,
            owner: p.owner,
        }
    }

    /// What anyone who sees `piece` but not its kind knows: its back, the
    /// type and owner (its value is on its face, like its kind).
    pub(crate) fn back(def: &GameDef, piece: PieceId) -> PieceFace {
        PieceFace {
            kind: None,
            value: 0,
            ..PieceFace::of(def, piece)
        }
    }
}

/// One seat's observation of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The seat observing.
    pub seat: Seat,
    /// Per zone, top first: `Some` for a piece the seat knows, `None` for a
    /// piece it does not. A piece whose kind is hidden shows its back
    /// (`kind: None`) to a seat that sees it but does not know it.
    pub zones: Vec<Vec<Option<PieceFace>>>,
    /// Every variable value slot (variables are public), as in [`GameDef::vars`].
    pub vars: Vec<i64>,
    /// Every option's value as the flow reads it (a list option reads 0).
    pub options: Vec<i64>,
}

impl View {
    /// A 64-bit digest of everything in the view that the rules can tell
    /// apart: two such views differ here but for a hash collision. A zone
    /// whose order no rule reads (`Family::order_read`) counts by what it
    /// holds, in any order. A solver keys a seat's information by the views
    /// it has had.
    pub fn fingerprint(&self, def: &GameDef) -> u64 {
        let zones = self.zones.iter().map(|zone| (zone.len(), zone.iter().map(face_key)));
        digest(def, self.seat, zones, self.vars.iter().chain(&self.options))
    }
}

/// The digest of a seat's view, given per zone (in zone order) its length
/// and its pieces' keys from the top: a zone whose order no rule reads
/// counts its keys sorted. [`View::fingerprint`] and
/// [`State::view_fingerprint`] both digest through here, so they agree.
fn digest<'v, K: Iterator<Item = u64>>(
    def: &GameDef,
    seat: Seat,
    zones: impl Iterator<Item = (usize, K)>,
    numbers: impl Iterator<Item = &'v i64>,
) -> u64 {
    // A zone of up to `SMALL` pieces sorts its keys on the stack: a
    // search digests views at every step, and most zones are small.
    const SMALL: usize = 16;
    let mut h = super::mix(0, u64::from(seat));
    let mut held = vec![];
    for (z, (len, keys)) in zones.enumerate() {
        h = super::mix(h, len as u64);
        if def.families[def.zones[z].family as usize].order_read || len < 2 {
            for k in keys {
                h = super::mix(h, k);
            }
        } else {
            let mut small = [0u64; SMALL];
            let sorted: &mut [u64] = if len <= SMALL {
                for (slot, k) in small.iter_mut().zip(keys) {
                    *slot = k;
                }
                &mut small[..len]
            } else {
                held.clear();
                held.extend(keys);
                &mut held
            };
            sorted.sort_unstable();
            for &k in sorted.iter() {
                h = super::mix(h, k);
            }
        }
    }
    for &v in numbers {
        h = super::mix(h, v as u64);
    }
    h
}

/// A piece as seen, as one word: `u64::MAX` for one not seen.
fn face_key(face: &Option<PieceFace>) -> u64 {
    match face {
        None => u64::MAX,
        Some(f) => {
            let h = super::mix(0x4641_4345, u64::from(f.ty));
            let h = super::mix(h, f.kind.map_or(u64::MAX - 1, u64::from));
            let h = super::mix(h, f.value as u64);
            super::mix(h, f.owner.map_or(u64::MAX - 1, u64::from))
        }
    }
}

impl State {
    /// Everything `seat` may know.
    pub fn view(&self, def: &GameDef, seat: Seat) -> View {
        let zones = def
            .zone_ids()
            .map(|z| {
                let sees_zone = def.zone_visible_to(z, seat);
                self.zone(z).map(|p| self.seen_as(def, seat, sees_zone, p)).collect()
            })
            .collect();
        View {
            seat,
            zones,
            vars: self.vars.clone(),
            options: self.options.clone(),
        }
    }

    /// Piece `p` as `seat` sees it, in a zone it sees (`sees_zone`) or not.
    fn seen_as(&self, def: &GameDef, seat: Seat, sees_zone: bool, p: crate::ir::PieceId) -> Option<PieceFace> {
        if self.knows(seat, p) {
            // A die shows the face it was rolled to.
            Some(PieceFace {
                value: self.value_of(def, p),
                ..PieceFace::of(def, self.face_of(p))
            })
        } else if sees_zone && def.pieces[self.face_of(p) as usize].kind_hidden {
            Some(PieceFace::back(def, self.face_of(p)))
        } else {
            None
        }
    }

    /// `self.view(def, seat).fingerprint(def)`, without building the view:
    /// a solver keys every decision point by it.
    pub fn view_fingerprint(&self, def: &GameDef, seat: Seat) -> u64 {
        let zones = def.zone_ids().map(|z| {
            let sees_zone = def.zone_visible_to(z, seat);
            let keys = self
                .zone(z)
                .map(move |p| face_key(&self.seen_as(def, seat, sees_zone, p)));
            (self.zones[z as usize].len(), keys)
        });
        digest(def, seat, zones, self.vars.iter().chain(&self.options))
    }

    /// What every seat may know, and so a spectator: a piece's face only
    /// when every seat knows it, its back when every seat sees its zone
    /// and its kind is hidden; otherwise nothing of it. (`seat` reads 0:
    /// a label only.)
    pub fn public_view(&self, def: &GameDef) -> View {
        let seats = 0..def.players() as Seat;
        let zones = def
            .zone_ids()
            .map(|z| {
                let all_see_zone = seats.clone().all(|s| def.zone_visible_to(z, s));
                self.zone(z)
                    .map(|p| {
                        if seats.clone().all(|s| self.knows(s, p)) {
                            Some(PieceFace {
                                value: self.value_of(def, p),
                                ..PieceFace::of(def, self.face_of(p))
                            })
                        } else if all_see_zone && def.pieces[self.face_of(p) as usize].kind_hidden {
                            Some(PieceFace::back(def, self.face_of(p)))
                        } else {
                            None
                        }
                    })
                    .collect()
            })
            .collect();
        View {
            seat: 0,
            zones,
            vars: self.vars.clone(),
            options: self.options.clone(),
        }
    }

    /// Everything, as no seat sees it: every piece's face, for the full
    /// view of a transcript or a picture (`seat` is only a label here).
    pub fn full_view(&self, def: &GameDef, seat: Seat) -> View {
        let zones = def
            .zone_ids()
            .map(|z| {
                self.zone(z)
                    .map(|p| {
                        Some(PieceFace {
                            value: self.value_of(def, p),
                            ..PieceFace::of(def, self.face_of(p))
                        })
                    })
                    .collect()
            })
            .collect();
        View {
            seat,
            zones,
            vars: self.vars.clone(),
            options: self.options.clone(),
        }
    }
}

/// Everything one seat has seen of a game, as a digest: the view it had at
/// every decision point and every step as it saw it ([`StepKey`]: another
/// seat's secret answer is one hidden answer). Two histories the seat cannot
/// tell apart have the same recall, and (but for a hash collision) two it
/// can tell apart differ. A solver's information sets, and the saved
/// strategies that play them, are keyed by it.
///
/// [`StepKey`]: super::StepKey
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Recall(pub u64);

/// How much of the past a seat's situations keep: what a solver keys its
/// information sets by, and a saved strategy its situations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Memory {
    /// Everything the seat has seen (perfect recall): the game's own
    /// information sets.
    #[default]
    All,
    /// Only what the seat sees now, and the choices it has: an abstraction
    /// (imperfect recall) that merges situations the seat could tell apart
    /// by remembering. Far fewer situations, each met far more often; what
    /// it costs is measured, never assumed.
    Now,
    /// Only what the seat sees at a glance (`engine::glance`): numbers and
    /// zone sizes by their order of magnitude, and moves by what they
    /// move. A lossy abstraction, coarser than [`Memory::Now`], for games
    /// whose every deal is a new situation even then.
    Glance,
}

/// Mixed first into a situation kept by [`Memory::Now`], so it never
/// equals one kept by [`Memory::All`].
const NOW_TAG: u64 = 0x4E4F_5741_4C4F_4E45;

impl Recall {
    /// The recall at a public position, whose digest is `position` (see
    /// [`State::public_position`]): the position itself, whatever came
    /// before, since every seat knows all of it.
    #[must_use]
    pub fn of_position(position: u64) -> Recall {
        Recall(position)
    }

    /// The recall after a step the seat saw as `step` (`None`: a step it
    /// could not key, kept as one such step).
    #[must_use]
    pub fn saw_step(self, step: Option<super::StepKey>) -> Recall {
        Recall(super::mix(self.0, step.map_or(0, |k| k.0)))
    }

    /// The key of the seat's information set when it is asked `decision`:
    /// everything it recalls, and which decision and seat this is.
    pub fn infoset(self, decision: crate::ir::DecisionId, seat: crate::ir::Seat) -> u64 {
        super::mix(super::mix(self.0, u64::from(decision)), 0x5345_4154 + u64::from(seat))
    }

    /// The recall after the seat had `view` at a decision point, kept as
    /// `memory` says.
    #[must_use]
    pub fn after_view(self, view: &View, memory: Memory, def: &GameDef) -> Recall {
        self.after_seeing(view.fingerprint(def), memory)
    }

    /// [`Recall::after_view`] of the view whose fingerprint is `seen`
    /// ([`View::fingerprint`], [`State::view_fingerprint`]).
    #[must_use]
    pub fn after_seeing(self, seen: u64, memory: Memory) -> Recall {
        match memory {
            Memory::All => Recall(super::mix(self.0, seen)),
            Memory::Now | Memory::Glance => Recall(super::mix(NOW_TAG, seen)),
        }
    }

    /// The recall after a step the seat saw as `step`, kept as `memory`
    /// says (what it sees now forgets steps).
    #[must_use]
    pub fn after_step(self, step: Option<super::StepKey>, memory: Memory) -> Recall {
        match memory {
            Memory::All => self.saw_step(step),
            Memory::Now | Memory::Glance => self,
        }
    }

    /// The key of the seat's situation when it is asked `decision` with
    /// choices keyed `keys`, kept as `memory` says: the information set,
    /// and under [`Memory::Now`] the choices too (in any order), so that
    /// positions merged there always offer the same choices.
    pub fn situation(
        self,
        decision: crate::ir::DecisionId,
        seat: crate::ir::Seat,
        keys: &[u64],
        memory: Memory,
    ) -> u64 {
        let key = self.infoset(decision, seat);
        match memory {
            Memory::All => key,
            Memory::Now | Memory::Glance => {
                let mut sorted = keys.to_vec();
                sorted.sort_unstable();
                sorted
                    .iter()
                    .fold(super::mix(key, sorted.len() as u64), |h, &k| super::mix(h, k))
            }
        }
    }
}
