//! A position as numbers, for a learnt evaluation: what a seat's player
//! would count on the table, laid out the same for every position of a game.
//!
//! Every figure is read from where the seat sits, so one evaluation serves
//! every seat: a per-player zone, variable or piece owner is numbered from
//! the seat on (0 the seat itself, 1 the next, ...). What the features hold,
//! the same for every game:
//!
//! - **pieces by class**: a class is a piece type with its kind (and, for
//!   pieces with owners, whose they are); per zone, how many of each class
//!   it holds, the sum of their values and the highest. The zones of a board count per
//!   space where the board is small, else together;
//! - **variables**: a number as it is, a kind or a seat one-hot;
//! - **who decides**: which seats answer the decision pending, and which
//!   decision it is.
//!
//! Which pieces are where is read from the whole state: an evaluation of a
//! seat's situation reads it in worlds sampled from what the seat sees.

use super::State;
use crate::ir::{FamilyIndex, GameDef, PieceId, Seat, ValueKind, VarEach};

/// A board counted space by space when it has at most this many slots
/// (spaces times classes); a larger one counts its spaces together.
const SPACE_SLOTS: usize = 640;

/// Figures per class in a zone off the board: how many, the sum of their
/// values and the highest.
const PER_UNIT: usize = 3;

/// A per-space or per-piece variable kept value by value up to this many.
const VAR_WIDTH: usize = 64;

/// Where each figure of a game's positions lies in its features.
#[derive(Clone, Debug)]
pub struct FeatureLayout {
    players: usize,
    /// Per piece definition, its class's first unit (a class of owned
    /// pieces has a unit per seat, numbered from the reading seat).
    unit_of: Vec<usize>,
    owned: Vec<bool>,
    units: usize,
    /// Per zone family: where its figures start (`None`: not read).
    family_at: Vec<Option<usize>>,
    /// Per family of a board: whether it counts space by space.
    family_by_space: Vec<bool>,
    /// Per variable: where its figures start (`None`: not read).
    var_at: Vec<Option<usize>>,
    pending_at: usize,
    decision_at: usize,
    len: usize,
}

impl FeatureLayout {
    /// The layout of `def`'s positions.
    pub fn of(def: &GameDef) -> FeatureLayout {
        let players = def.players();
        let mut classes: Vec<(u16, Option<u16>, bool)> = vec![];
        let mut unit_of = Vec::with_capacity(def.pieces.len());
        let mut owned = Vec::with_capacity(def.pieces.len());
        let mut class_units: Vec<usize> = vec![];
        let mut units = 0;
        for piece in &def.pieces {
            let class = (piece.ty, piece.kind, piece.owner.is_some());
            let at = match classes.iter().position(|c| *c == class) {
                Some(i) => class_units[i],
                None => {
                    classes.push(class);
                    class_units.push(units);
                    units += if class.2 { players } else { 1 };
                    units - if class.2 { players } else { 1 }
                }
            };
            unit_of.push(at);
            owned.push(class.2);
        }
        let mut len = 0;
        let mut family_at = vec![];
        let mut family_by_space = vec![];
        for (i, family) in def.families.iter().enumerate() {
            if i == 0 {
                // The box: pieces out of the game.
                family_at.push(None);
                family_by_space.push(false);
                continue;
            }
            family_at.push(Some(len));
            let by_space =
                matches!(family.by, FamilyIndex::PerSpace(_)) && usize::from(family.len) * units <= SPACE_SLOTS;
            family_by_space.push(by_space);
            len += match family.by {
                FamilyIndex::Single => PER_UNIT * units,
                FamilyIndex::PerPlayer => PER_UNIT * units * players,
                FamilyIndex::PerSpace(_) if by_space => units * usize::from(family.len),
                FamilyIndex::PerSpace(_) => units,
            };
        }
        let mut var_at = vec![];
        for var in &def.vars {
            let width = match var.shows {
                ValueKind::Number | ValueKind::Bool => 1,
                ValueKind::Kind => def.kinds.len(),
                ValueKind::Player => players,
            };
            let count = match var.each {
                VarEach::Game => 1,
                VarEach::Player => players,
                VarEach::Space(_) | VarEach::Piece => def.var_width(var),
            };
            if var.constant || (count > VAR_WIDTH && !matches!(var.each, VarEach::Game | VarEach::Player)) {
                var_at.push(None);
                continue;
            }
            var_at.push(Some(len));
            len += width * count;
        }
        let pending_at = len;
        len += players;
        let decision_at = len;
        len += def.decisions.len();
        FeatureLayout {
            players,
            unit_of,
            owned,
            units,
            family_at,
            family_by_space,
            var_at,
            pending_at,
            decision_at,
            len,
        }
    }

    /// How many figures a position has.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether a position has no figures at all.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Seat `of` as `seat` numbers the seats: 0 itself, 1 the next, ...
    fn seat_after(&self, seat: Seat, of: Seat) -> usize {
        (usize::from(of) + self.players - usize::from(seat)) % self.players
    }

    /// The unit of `piece`'s class as `seat` counts it.
    fn unit(&self, def: &GameDef, state: &State, seat: Seat, piece: PieceId) -> usize {
        let face = state.face_of(piece);
        let at = self.unit_of[face as usize];
        match def.pieces[face as usize].owner {
            Some(owner) if self.owned[face as usize] => at + self.seat_after(seat, owner),
            _ => at,
        }
    }
}

impl State {
    /// This position's figures as `seat` reads them, into `out` (which
    /// becomes `layout.len()` long).
    pub fn features(&self, def: &GameDef, layout: &FeatureLayout, seat: Seat, out: &mut Vec<f32>) {
        out.clear();
        out.resize(layout.len, 0.0);
        let units = layout.units;
        for (f, family) in def.families.iter().enumerate() {
            let Some(at) = layout.family_at[f] else {
                continue;
            };
            for index in 0..usize::from(family.len) {
                let zone = usize::from(family.first) + index;
                let base = match family.by {
                    FamilyIndex::Single => at,
                    FamilyIndex::PerPlayer => at + PER_UNIT * units * layout.seat_after(seat, index as Seat),
                    FamilyIndex::PerSpace(_) if layout.family_by_space[f] => at + units * index,
                    FamilyIndex::PerSpace(_) => at,
                };
                let with_values = !matches!(family.by, FamilyIndex::PerSpace(_));
                for &piece in self.zones[zone].iter() {
                    let unit = layout.unit(def, self, seat, piece);
                    if with_values {
                        let cell = base + PER_UNIT * unit;
                        let value = self.value_of(def, piece) as f32;
                        out[cell] += 1.0;
                        out[cell + 1] += value;
                        // The highest value held: a hand's best card, where
                        // the sum would not tell one 12 from three 4s.
                        out[cell + 2] = if out[cell] == 1.0 {
                            value
                        } else {
                            out[cell + 2].max(value)
                        };
                    } else {
                        out[base + unit] += 1.0;
                    }
                }
            }
        }
        for (v, var) in def.vars.iter().enumerate() {
            let Some(at) = layout.var_at[v] else {
                continue;
            };
            let width = match var.shows {
                ValueKind::Number | ValueKind::Bool => 1,
                ValueKind::Kind => def.kinds.len(),
                ValueKind::Player => layout.players,
            };
            let count = match var.each {
                VarEach::Game => 1,
                _ => def.var_width(var),
            };
            for i in 0..count {
                // A per-player variable is numbered from the seat on.
                let slot = match var.each {
                    VarEach::Player => (i + usize::from(seat)) % layout.players,
                    _ => i,
                };
                let value = self.vars[usize::from(var.slot) + slot];
                let cell = at + width * i;
                match var.shows {
                    ValueKind::Number | ValueKind::Bool => out[cell] = value as f32,
                    ValueKind::Kind => {
                        if let Ok(k) = usize::try_from(value)
                            && k < width
                        {
                            out[cell + k] = 1.0;
                        }
                    }
                    ValueKind::Player => {
                        if let Ok(p) = Seat::try_from(value)
                            && usize::from(p) < layout.players
                        {
                            out[cell + layout.seat_after(seat, p)] = 1.0;
                        }
                    }
                }
            }
        }
        if let Some(pending) = self.pending() {
            for &who in pending.who() {
                out[layout.pending_at + layout.seat_after(seat, who)] = 1.0;
            }
            out[layout.decision_at + usize::from(pending.decision())] = 1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Chance, test_game};
    use super::{FeatureLayout, PER_UNIT, State};

    /// A hand each, a pile, a per-player counter and a kind-valued variable.
    const SOURCE: &str = r#"
game "Reading"
players 2: Ann, Ben
kinds Suit = red | blue
pieces {
  Card of each Suit with value 1..3 in pile
}
zones {
  pile hidden
  hand per player owner
}
var points per player = 0
var led = red
setup {
  deal 2 from pile to hand of Ann
  deal 1 from pile to hand of Ben
  set points of Ben = 5
  set led = blue
}
flow {
  Ann chooses card from Card in hand of Ann
  move card to pile
}
"#;

    fn read(seat: u8) -> (FeatureLayout, Vec<f32>) {
        let game = test_game("reading.rules", SOURCE);
        let mut state = State::new(&game, &game.default_options(), Chance::seeded(1), vec![]);
        state.set_up(&game, &mut vec![]).unwrap();
        let layout = FeatureLayout::of(&game);
        let mut out = vec![];
        state.features(&game, &layout, seat, &mut out);
        assert_eq!(out.len(), layout.len());
        (layout, out)
    }

    #[test]
    fn each_seat_reads_the_position_from_where_it_sits() {
        let game = test_game("reading.rules", SOURCE);
        let (layout, ann) = read(0);
        let (_, ben) = read(1);
        let family = game.families.iter().position(|f| f.name == "hand").unwrap();
        let hands = layout.family_at[family].unwrap();
        let block = PER_UNIT * layout.units;
        // Two classes (a red and a blue card), neither owned.
        assert_eq!(layout.units, 2);
        let cards = |v: &[f32], seat_block: usize| -> f32 {
            (0..layout.units)
                .map(|u| v[hands + seat_block * block + PER_UNIT * u])
                .sum()
        };
        assert_eq!((cards(&ann, 0), cards(&ann, 1)), (2.0, 1.0), "Ann's hand first");
        assert_eq!((cards(&ben, 0), cards(&ben, 1)), (1.0, 2.0), "Ben's hand first");
        assert_eq!(ann[hands..hands + block], ben[hands + block..hands + 2 * block]);
        let var = |name: &str| {
            let v = game.vars.iter().position(|v| v.name == name).unwrap();
            layout.var_at[v].unwrap()
        };
        let points = var("points");
        assert_eq!(ann[points..points + 2], [0.0, 5.0]);
        assert_eq!(ben[points..points + 2], [5.0, 0.0]);
        // A kind one-hot: `led` is blue, the second kind.
        let led = var("led");
        assert_eq!(ann[led..led + 2], [0.0, 1.0]);
        // Ann decides: herself to Ann, the other seat to Ben.
        assert_eq!(ann[layout.pending_at..layout.pending_at + 2], [1.0, 0.0]);
        assert_eq!(ben[layout.pending_at..layout.pending_at + 2], [0.0, 1.0]);
    }
}
