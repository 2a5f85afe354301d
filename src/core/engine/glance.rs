//! The glance: a stated, lossy abstraction of what a seat sees, for
//! solving games whose situations are too many to meet each often.
//!
//! Keying a seat's situation by everything it sees ([`Memory::Now`]) still
//! leaves a shuffled card game with a situation per hand: hands of numbered
//! cards the rules read, a public pile in another order, a count of chips.
//! The glance keeps less, the same for every game, and says so:
//!
//! - **numbers by their order of magnitude**: every variable, option and
//!   zone size is read as its sign and its power of two (0, 1, 2-3, 4-7, ...);
//! - **zones by their sizes**: how many pieces each holds; which pieces,
//!   only in the seat's own zones whose pieces the rules read (a hand, not
//!   a discard pile only ever counted: `check::body::contents`), and the
//!   top of each public pile off the board; pieces by type, kind, owner and
//!   value (by its order of magnitude), never which piece or where;
//! - **moves by what they move**: a move that names a piece keeps the
//!   piece as above; a space chosen is not kept; a move from a menu keeps
//!   the pieces its step moves, and between which zones (see [`glanced`]);
//!   moves that read alike are one move, and whichever of them is played
//!   is drawn uniformly among them.
//!
//! So a strategy over glances is a strategy over far fewer situations,
//! each met far more often, and the choices it offers tell most of what a
//! hand holds. Where even glances are too many, a situation also has two
//! coarser levels, a bare glance and its moves alone ([`GlanceSituation`]),
//! and plays the finest one training met often. What it costs is measured
//! in the game itself where the tree fits (docs/solve.md), never assumed.
//!
//! [`Memory::Now`]: super::Memory::Now

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use super::{Choice, Event, Memory, Observation, Recall, State, mix};
use crate::ir::{
    ChoiceKind, ChoiceValue, DecisionId, FamilyIndex, GameDef, PieceChoice, PieceId, Seat, Visibility, ZoneId,
};

/// Mixed first into a glance, so it never equals a key kept otherwise.
const GLANCE_TAG: u64 = 0x474C_414E_4345;

/// Mixed first into a bare glance, so it never equals a glance.
const BARE_TAG: u64 = 0x4241_5245;

/// What a situation keyed by its moves alone has seen.
const MOVES_TAG: u64 = 0x4D4F_5645_5321;

/// Where the digest of what a step moves begins.
const MOVED_TAG: u64 = 0x4D4F_5645;

/// A number as a glance reads it: its sign and its order of magnitude (0,
/// 1, 2-3, 4-7, 8-15, ...).
pub fn magnitude(v: i64) -> u64 {
    let bits = u64::from(64 - v.unsigned_abs().leading_zeros());
    if v < 0 { bits | 0x100 } else { bits }
}

impl Observation<'_> {
    /// The seat's situation at a glance, at each of its levels (see
    /// [`GlanceSituation`]).
    pub fn glance_situation(&self) -> GlanceSituation {
        let moves = glanced(self);
        let (def, state, seat) = (self.game(), self.state(), self.seat());
        let decision = self.decision();
        let keyed = |seen: u64| {
            Recall::default()
                .after_seeing(seen, Memory::Glance)
                .situation(decision, seat, &moves.keys, Memory::Glance)
        };
        GlanceSituation {
            levels: [
                keyed(mix(MOVES_TAG, u64::from(seat))),
                keyed(state.bare_glance_fingerprint(def, seat)),
                keyed(state.glance_fingerprint(def, seat)),
            ],
            moves,
        }
    }
}

/// A seat's situation at a glance, at three levels that offer the same
/// moves, coarsest first: the moves alone; a bare glance, which adds the
/// numbers and how many pieces each zone holds (a board's zones counted
/// together); and the glance itself. A strategy over glances plays the
/// finest level that training met often ([`REFINED_VISITS`]): a situation
/// met once is still one met often by its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlanceSituation {
    /// The moves offered, as a glance reads them.
    pub moves: Glanced,
    /// The situation's key at each level, coarsest first.
    pub levels: [u64; GLANCE_LEVELS],
}

/// How many levels a situation at a glance has (see [`GlanceSituation`]).
pub const GLANCE_LEVELS: usize = 3;

/// How often training must meet a level of a situation at a glance before
/// the next finer level learns, and before a strategy over glances plays
/// it rather than a coarser one.
pub const REFINED_VISITS: u64 = 100;

/// The moves offered at `observation`, at a glance. A move from a menu
/// (`draft`, a list of named actions) names nothing it moves, so when the
/// seat alone answers it is read by what it moves: its step is played in
/// a world dealt from what the seat sees (the same world for the same
/// view, so the glance tells nothing the seat does not know), and the
/// pieces it moves, as the seat knew them, and from and to which zones,
/// are its glance.
fn glanced(observation: &Observation<'_>) -> Glanced {
    let (def, state, seat) = (observation.game(), observation.state(), observation.seat());
    let Some(pending) = state.pending() else {
        return Glanced::default();
    };
    let decision = pending.decision();
    let legal = pending.legal(seat);
    let menu = matches!(def.decisions[decision as usize].kind, ChoiceKind::Menu(_)) && pending.who() == [seat];
    let effects = if menu { effects(observation) } else { None };
    Glanced::of(legal.iter().enumerate().map(|(i, &v)| {
        let glance = state.glance_move(def, seat, decision, v);
        effects.as_ref().map_or(glance, |e| mix(glance, e[i]))
    }))
}

/// Per move offered to the observing seat, what its step moves at a
/// glance, played in a world dealt from the seat's view (see [`glanced`]);
/// `None` where no such world was found or a step failed.
fn effects(observation: &Observation<'_>) -> Option<Vec<u64>> {
    let (def, seat) = (observation.game(), observation.seat());
    let mut rng = ChaCha8Rng::seed_from_u64(observation.state().view_fingerprint(def, seat));
    let world = observation.sample(&mut rng)?;
    let before = world.state();
    let legal = before.pending()?.legal(seat);
    let mut events = vec![];
    let mut moved = vec![];
    legal
        .iter()
        .map(|&value| {
            let mut next = before.clone();
            events.clear();
            next.apply(def, &[Choice::new(seat, value)], &mut events).ok()?;
            moved.clear();
            moved.extend(events.iter().filter_map(|event| match *event {
                Event::Move { piece, from, to, .. } => {
                    let whose = |z: ZoneId| match def.zones[z as usize].owner {
                        Some(owner) if owner == seat => 1,
                        Some(_) => 2,
                        None => 0,
                    };
                    let zones = |z: ZoneId| mix(u64::from(def.zones[z as usize].family), whose(z));
                    Some(mix(mix(before.glance_held(def, seat, piece), zones(from)), zones(to)))
                }
                _ => None,
            }));
            moved.sort_unstable();
            Some(moved.iter().fold(MOVED_TAG, |h, &m| mix(h, m)))
        })
        .collect()
}

impl State {
    /// What `seat` sees at a glance (see the module's doc): every zone's
    /// size and every number, by order of magnitude; the pieces of the
    /// seat's own zones that the rules read; the top of each public pile
    /// off the board.
    pub fn glance_fingerprint(&self, def: &GameDef, seat: Seat) -> u64 {
        let mut h = mix(GLANCE_TAG, u64::from(seat));
        let mut held = vec![];
        for z in def.zone_ids() {
            let zone = &self.zones[z as usize];
            h = mix(h, magnitude(zone.len() as i64));
            let about = &def.zones[z as usize];
            let family = &def.families[about.family as usize];
            let mine = about.owner == Some(seat) && def.zone_visible_to(z, seat);
            if mine && family.contents_read {
                // What the seat holds, in any order.
                held.clear();
                held.extend(zone.iter().map(|&p| self.glance_held(def, seat, p)));
                held.sort_unstable();
                for &k in &held {
                    h = mix(h, k);
                }
            } else if family.by == FamilyIndex::Single && about.visibility == Visibility::Public {
                // The top of a public pile off the board.
                if let Some(&top) = zone.last() {
                    h = mix(h, self.glance_held(def, seat, top));
                }
            }
        }
        for &v in self.vars.iter().chain(&self.options) {
            h = mix(h, magnitude(v));
        }
        h
    }

    /// A piece in a zone `seat` sees, at a glance.
    fn glance_held(&self, def: &GameDef, seat: Seat, piece: PieceId) -> u64 {
        self.glance_piece(def, seat, Some(PieceChoice { piece, declared: None }))
    }

    /// What `seat` sees at a bare glance (see [`GlanceSituation`]): every
    /// number, and how many pieces each zone holds, by order of magnitude;
    /// the zones of a board's spaces counted together, family by family.
    pub fn bare_glance_fingerprint(&self, def: &GameDef, seat: Seat) -> u64 {
        let mut h = mix(BARE_TAG, u64::from(seat));
        for family in &def.families {
            let zones = family.first..family.first + family.len;
            match family.by {
                FamilyIndex::PerSpace(_) => {
                    let held: usize = zones.map(|z| self.zones[z as usize].len()).sum();
                    h = mix(h, magnitude(held as i64));
                }
                _ => {
                    for z in zones {
                        h = mix(h, magnitude(self.zones[z as usize].len() as i64));
                    }
                }
            }
        }
        for &v in self.vars.iter().chain(&self.options) {
            h = mix(h, magnitude(v));
        }
        h
    }

    /// The glance of the move `value` offered to `observer` at `decision`:
    /// what it moves, not which piece or where (see the module's doc).
    pub fn glance_move(&self, def: &GameDef, observer: Seat, decision: DecisionId, value: i64) -> u64 {
        let kind = &def.decisions[decision as usize].kind;
        let start = mix(mix(GLANCE_TAG, u64::from(decision)), 1);
        let v = ChoiceValue::from_raw(value);
        if !v.is_answer() {
            // An `or` answer, an anytime action: each its own move.
            return mix(start, value as u64);
        }
        match kind {
            ChoiceKind::Piece => mix(start, self.glance_piece(def, observer, v.as_piece())),
            ChoiceKind::Actions(actions) if !actions.is_empty() => {
                let entry = v.action_entry(actions);
                let mut rest = value / actions.len() as i64;
                let mut h = mix(start, entry as u64);
                for (param, radix) in &actions[entry].params {
                    let p = rest % radix;
                    rest /= radix;
                    h = mix(h, self.glance_plain(def, observer, param, p));
                }
                h
            }
            other => mix(start, self.glance_plain(def, observer, other, value)),
        }
    }

    /// One value of a move, of kind `kind`, at a glance.
    fn glance_plain(&self, def: &GameDef, observer: Seat, kind: &ChoiceKind, value: i64) -> u64 {
        match kind {
            ChoiceKind::Piece => self.glance_piece(def, observer, ChoiceValue::from_raw(value).as_piece()),
            ChoiceKind::Space(_) => 0,
            ChoiceKind::Number => magnitude(value),
            _ => value as u64,
        }
    }

    /// A piece chosen, at a glance: its type, kind, owner and value's order
    /// of magnitude where `observer` knows it, its type and owner where it
    /// does not.
    fn glance_piece(&self, def: &GameDef, observer: Seat, choice: Option<PieceChoice>) -> u64 {
        let Some(choice) = choice else {
            return u64::MAX;
        };
        let declared = choice.declared.map_or(0, |k| u64::from(k) + 1);
        let face = &def.pieces[self.face_of(choice.piece) as usize];
        let owner = face.owner.map_or(u64::MAX, u64::from);
        let seen = if self.knows(observer, choice.piece) {
            let kind = face.kind.map_or(u64::MAX, u64::from);
            mix(mix(1, kind), magnitude(self.value_of(def, choice.piece)))
        } else {
            2
        };
        mix(mix(mix(u64::from(face.ty), owner), seen), declared)
    }
}

/// The moves offered to a seat, as a glance reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Glanced {
    /// Each distinct glance of a move, in the glances' order.
    pub keys: Vec<u64>,
    /// Per move offered, the index of its glance in `keys`.
    pub class: Vec<usize>,
}

impl Glanced {
    /// Sorts the moves `glances` (one per move offered) into their glances,
    /// in the glances' order, so that every situation offering the same
    /// moves lists them alike.
    pub fn of(glances: impl IntoIterator<Item = u64>) -> Glanced {
        let glances: Vec<u64> = glances.into_iter().collect();
        let mut keys = glances.clone();
        keys.sort_unstable();
        keys.dedup();
        let class = glances
            .iter()
            .map(|g| keys.binary_search(g).expect("every glance is kept"))
            .collect();
        Glanced { keys, class }
    }

    /// Per move offered, its share of `p` (a probability per glance, in
    /// the order of `keys`): moves that read alike share their glance's
    /// probability evenly.
    pub fn spread(&self, p: &[f64]) -> Vec<f64> {
        let mut alike = vec![0usize; self.keys.len()];
        for &c in &self.class {
            alike[c] += 1;
        }
        self.class.iter().map(|&c| p[c] / alike[c] as f64).collect()
    }

    /// Per glance, one of the moves that read as it (an index into the moves
    /// offered), drawn uniformly with `rng`.
    pub fn pick(&self, rng: &mut ChaCha8Rng) -> Vec<usize> {
        let mut alike: Vec<Vec<usize>> = vec![vec![]; self.keys.len()];
        for (i, &c) in self.class.iter().enumerate() {
            alike[c].push(i);
        }
        alike
            .into_iter()
            .map(|moves| match moves.len() {
                1 => moves[0],
                n => moves[rng.random_range(0..n)],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{ChaCha8Rng, Glanced, magnitude};

    #[test]
    fn numbers_are_read_by_their_order_of_magnitude() {
        let read: Vec<u64> = [0, 1, 2, 3, 4, 7, 8, 12, 100].into_iter().map(magnitude).collect();
        assert_eq!(read, [0, 1, 2, 2, 3, 3, 4, 4, 7]);
        assert_ne!(magnitude(-1), magnitude(1));
        assert_eq!(magnitude(-2), magnitude(-3));
    }

    #[test]
    fn moves_that_read_alike_share_one_glance_and_its_probability() {
        let glanced = Glanced::of([9, 7, 9, 9]);
        assert_eq!(glanced.keys, [7, 9], "in the glances' order");
        assert_eq!(glanced.class, [1, 0, 1, 1]);
        let spread = glanced.spread(&[0.25, 0.75]);
        assert_eq!(spread, [0.25, 0.25, 0.25, 0.25]);
        let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let picked = glanced.pick(&mut rng);
        assert_eq!(picked.len(), 2);
        assert_eq!(picked[0], 1);
        assert_eq!(glanced.class[picked[1]], 1);
    }
}
