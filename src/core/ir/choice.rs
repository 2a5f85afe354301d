//! How a chosen value is packed into one `i64`, and read back.
//!
//! The VM has one value type, `i64`, and a decision's offers, the choices
//! players send and the events that record them carry that raw value. What
//! the number means depends on the decision asked ([`ChoiceKind`]):
//!
//! - [`ChoiceValue::NONE`] (`1 << 40`) is the named "no choice" (`, or
//!   silence`), far above any kind, seat, space, piece or menu entry.
//! - A negative value is `anytime` action `i`, offered as `-1 - i` beside
//!   the decision's own values.
//! - A piece is its id in the low 16 bits; a piece chosen "as" a kind (`with
//!   Wild as each Hand`) carries `kind + 1` in the next 16 bits, 0 meaning
//!   none.
//! - An action packs its index and parameters in mixed radix:
//!   `entry + entries * (p0 + r0 * (p1 + r1 * ...))`, where `r` are the
//!   parameters' radices ([`ActionDef::params`]).
//! - Anything else (a kind, a seat, a number, a space, a piece type, a menu
//!   entry) is the value itself.
//!
//! [`ChoiceValue`] holds that raw value and is the one place that packs and
//! unpacks it; code outside `ir` only passes the raw `i64` along (the VM
//! stack, [`crate::engine::Choice`], events) or compares it.

use super::id::{KindId, PieceId, id_from_value};

/// A value offered by a decision, as packed into the VM's `i64` (see the
/// module documentation). `#[repr(transparent)]`: wrapping and unwrapping
/// cost nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct ChoiceValue(i64);

/// The value of a named "no choice" (`, or silence`), as the compiled code
/// pushes it.
pub const NO_CHOICE: i64 = ChoiceValue::NONE.raw();

/// What the compiled code adds to a piece to choose it "as" `kind` (`with
/// Wild as each Hand`): the piece is only known at run time.
pub const fn declared(kind: KindId) -> i64 {
    (kind as i64 + 1) << PIECE_BITS
}

/// Bits of a piece value that hold the piece; the declared kind is above.
const PIECE_BITS: u32 = 16;

/// A piece value modulo this is the piece alone (a piece chosen "as" a
/// kind carries the kind above it).
pub const PIECE_RANGE: i64 = 1 << PIECE_BITS;
const PIECE_MASK: i64 = (1 << PIECE_BITS) - 1;

/// A piece choice: the piece, and the kind it was chosen as, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChoice {
    /// The piece chosen.
    pub piece: PieceId,
    /// `with Wild as each Hand`: the kind the piece plays as.
    pub declared: Option<KindId>,
}

/// A [`ChoiceValue`] read as a choice of some [`ChoiceKind`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodedChoice<'a> {
    /// The named "no choice" (`, or silence`).
    None,
    /// `anytime` action number `index` (into [`super::GameDef::anytime`]),
    /// taken instead of answering.
    Anytime(usize),
    /// A choice of pieces.
    Piece(PieceChoice),
    /// Action `entry` of an action decision, with its parameters (each a
    /// plain value of the parameter's own kind, in `0..radix`).
    Action {
        /// The action's index among the decision's actions.
        entry: usize,
        /// The action.
        action: &'a ActionDef,
        /// Its parameters' values.
        params: Vec<i64>,
    },
    /// A kind, seat, number, space, piece type or menu entry: the value
    /// itself. Also an action value that names no action (the decision has
    /// none).
    Plain(i64),
}

impl ChoiceValue {
    /// The named "no choice" (`, or silence`).
    pub(crate) const NONE: ChoiceValue = ChoiceValue(1 << 40);

    /// A value as the VM, a [`crate::engine::Choice`] or an event carries it.
    pub const fn from_raw(raw: i64) -> Self {
        ChoiceValue(raw)
    }

    /// The value as the VM, a [`crate::engine::Choice`] or an event carries it.
    pub(crate) const fn raw(self) -> i64 {
        self.0
    }

    /// A piece, chosen as itself. (The VM pushes piece numbers as they are.)
    #[cfg(test)]
    pub(crate) const fn piece(piece: PieceId) -> Self {
        ChoiceValue(piece as i64)
    }

    /// A piece chosen "as" `kind` (`with Wild as each Hand`).
    #[cfg(test)]
    pub const fn declared(piece: PieceId, kind: KindId) -> Self {
        ChoiceValue(piece as i64 + declared(kind))
    }

    /// `anytime` action number `index`, offered beside a decision.
    pub(crate) const fn anytime(index: usize) -> Self {
        ChoiceValue(-(index as i64) - 1)
    }

    /// Action `entry` of `actions` with these parameters, or `None` when
    /// there is no such action or a parameter is out of its range.
    pub(crate) fn action(actions: &[ActionDef], entry: usize, params: &[i64]) -> Option<Self> {
        let action = actions.get(entry)?;
        if params.len() != action.params.len() {
            return None;
        }
        let mut value: i64 = 0;
        for (&p, &(_, radix)) in params.iter().zip(&action.params).rev() {
            if !(0..radix).contains(&p) {
                return None;
            }
            value = value.checked_mul(radix)?.checked_add(p)?;
        }
        let value = value.checked_mul(actions.len() as i64)?.checked_add(entry as i64)?;
        Some(ChoiceValue(value))
    }

    /// Whether this is the named "no choice".
    pub const fn is_none(self) -> bool {
        self.0 == Self::NONE.0
    }

    /// Whether this is an `anytime` action rather than an answer.
    pub const fn is_anytime(self) -> bool {
        self.0 < 0
    }

    /// Whether this is one of the decision's own values: neither the named
    /// "no choice" nor an `anytime` action.
    pub(crate) const fn is_answer(self) -> bool {
        !self.is_none() && !self.is_anytime()
    }

    /// The `anytime` action this is, if it is one.
    pub const fn anytime_index(self) -> Option<usize> {
        if self.is_anytime() {
            Some((-(self.0 + 1)) as usize)
        } else {
            None
        }
    }

    /// The piece a piece value names, without its declared kind. The VM's
    /// piece operands are piece values, so this is how it reads them.
    pub(crate) const fn piece_id(self) -> PieceId {
        id_from_value(self.0 & PIECE_MASK)
    }

    /// The kind a piece value was chosen as, if any.
    pub(crate) const fn declared_kind(self) -> Option<KindId> {
        match (self.0 >> PIECE_BITS) & PIECE_MASK {
            0 => None,
            k => Some(id_from_value(k - 1)),
        }
    }

    /// This value as a choice of pieces, unless it is the "no choice" or
    /// an `anytime` action.
    pub const fn as_piece(self) -> Option<PieceChoice> {
        if !self.is_answer() {
            return None;
        }
        Some(PieceChoice {
            piece: self.piece_id(),
            declared: self.declared_kind(),
        })
    }

    /// Which action of `actions` an action value chose (`Op::ActionEntry`).
    pub(crate) fn action_entry(self, actions: &[ActionDef]) -> usize {
        (self.0 % actions.len() as i64) as usize
    }

    /// Parameter `param` of action `entry` (`Op::ActionParam`), without
    /// unpacking the others.
    pub(crate) fn action_param(self, actions: &[ActionDef], entry: usize, param: usize) -> i64 {
        let params = &actions[entry].params;
        let mut rest = self.0 / actions.len() as i64;
        for (_, radix) in &params[..param] {
            rest /= radix;
        }
        rest % params[param].1
    }

    /// An action value unpacked into its action's index and parameters, or
    /// `None` when it is no action value.
    fn action_parts(self, actions: &[ActionDef]) -> Option<(usize, Vec<i64>)> {
        if self.0 < 0 || actions.is_empty() {
            return None;
        }
        let entry = self.action_entry(actions);
        let mut rest = self.0 / actions.len() as i64;
        let params = actions[entry]
            .params
            .iter()
            .map(|&(_, radix)| {
                let p = rest % radix;
                rest /= radix;
                p
            })
            .collect();
        Some((entry, params))
    }

    /// What this value means as a choice of `kind`.
    pub fn decode(self, kind: &ChoiceKind) -> DecodedChoice<'_> {
        if self.is_none() {
            return DecodedChoice::None;
        }
        if let Some(index) = self.anytime_index() {
            return DecodedChoice::Anytime(index);
        }
        match kind {
            ChoiceKind::Piece => DecodedChoice::Piece(PieceChoice {
                piece: self.piece_id(),
                declared: self.declared_kind(),
            }),
            ChoiceKind::Actions(actions) => match self.action_parts(actions) {
                Some((entry, params)) => DecodedChoice::Action {
                    entry,
                    action: &actions[entry],
                    params,
                },
                None => DecodedChoice::Plain(self.0),
            },
            _ => DecodedChoice::Plain(self.0),
        }
    }
}

/// Where an action's piece parameters lie in an offer's value, which is
/// mixed-radix (the action's index first, then each parameter): for each,
/// the product of the radices below it and its own radix. Read for every
/// offer at every decision of a board game, so nothing is unpacked twice,
/// and each division is a multiplication.
#[derive(Debug, Clone, Default)]
pub(crate) struct MenuPieces(pub(crate) Vec<(Divisor, Divisor)>);

impl MenuPieces {
    pub(crate) fn of(menu: usize, action: &ActionDef) -> MenuPieces {
        let mut weight = menu as i64;
        let mut found = vec![];
        for (kind, radix) in &action.params {
            if *kind == ChoiceKind::Piece {
                found.push((Divisor::new(weight), Divisor::new(*radix)));
            }
            weight = weight.saturating_mul(*radix);
        }
        MenuPieces(found)
    }
}

/// A divisor fixed when the game is loaded, divided by with one
/// multiplication where both numbers fit in 32 bits (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019: with
/// `c = ceil(2^64 / d)`, `n / d` is the high word of `c * n`, and `n % d`
/// the high word of `(c * n mod 2^64) * d`); by the processor's division
/// otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Divisor {
    d: u64,
    /// `ceil(2^64 / d)`, or 0 where the multiplication does not apply.
    c: u64,
}

impl Divisor {
    pub(crate) fn new(d: i64) -> Divisor {
        let d = d.max(1) as u64;
        let c = if (2..=u64::from(u32::MAX)).contains(&d) {
            u64::MAX / d + 1
        } else {
            0
        };
        Divisor { d, c }
    }

    pub(crate) fn div(self, n: u64) -> u64 {
        if self.c != 0 && n <= u64::from(u32::MAX) {
            ((u128::from(self.c) * u128::from(n)) >> 64) as u64
        } else {
            n / self.d
        }
    }

    pub(crate) fn rem(self, n: u64) -> u64 {
        if self.c != 0 && n <= u64::from(u32::MAX) {
            let low = self.c.wrapping_mul(n);
            ((u128::from(low) * u128::from(self.d)) >> 64) as u64
        } else {
            n % self.d
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn actions() -> Vec<ActionDef> {
        vec![
            ActionDef {
                label: vec![],
                params: vec![(ChoiceKind::Piece, 5), (ChoiceKind::Number, 7)],
            },
            ActionDef {
                label: vec![],
                params: vec![],
            },
        ]
    }

    #[test]
    fn pieces_keep_their_declared_kind() {
        let value = ChoiceValue::declared(12, 3);
        assert_eq!(value.raw(), 12 + declared(3));
        assert_eq!(
            value.decode(&ChoiceKind::Piece),
            DecodedChoice::Piece(PieceChoice {
                piece: 12,
                declared: Some(3)
            })
        );
        assert_eq!(ChoiceValue::piece(12).declared_kind(), None);
        assert_eq!(ChoiceValue::piece(PieceId::MAX).piece_id(), PieceId::MAX);
    }

    #[test]
    fn none_and_anytime_come_before_the_kind() {
        assert_eq!(NO_CHOICE, 1 << 40);
        assert_eq!(ChoiceValue::NONE.decode(&ChoiceKind::Piece), DecodedChoice::None);
        assert_eq!(ChoiceValue::NONE.as_piece(), None);
        assert_eq!(ChoiceValue::anytime(0).raw(), -1);
        assert_eq!(
            ChoiceValue::anytime(4).decode(&ChoiceKind::Kind),
            DecodedChoice::Anytime(4)
        );
        assert_eq!(
            ChoiceValue::from_raw(2).decode(&ChoiceKind::Kind),
            DecodedChoice::Plain(2)
        );
    }

    #[test]
    fn actions_round_trip() {
        let actions = actions();
        let value = ChoiceValue::action(&actions, 0, &[4, 6]).expect("in range");
        assert_eq!(value.raw(), 2 * (4 + 5 * 6));
        assert_eq!(value.action_entry(&actions), 0);
        assert_eq!(value.action_param(&actions, 0, 1), 6);
        match value.decode(&ChoiceKind::Actions(actions.clone())) {
            DecodedChoice::Action { entry, params, .. } => assert_eq!((entry, params), (0, vec![4, 6])),
            other => panic!("{other:?}"),
        }
        assert_eq!(ChoiceValue::action(&actions, 0, &[5, 0]), None);
        assert_eq!(ChoiceValue::action(&actions, 2, &[]), None);
        assert_eq!(
            ChoiceValue::from_raw(3).decode(&ChoiceKind::Actions(vec![])),
            DecodedChoice::Plain(3)
        );
    }
}

/// What a decision offers; the label of each value depends on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceKind {
    /// A kind: the value is the kind's index.
    Kind,
    /// A player: the value is the seat.
    Player,
    /// A number: the value itself.
    Number,
    /// A space of this board: the value is the space's index.
    Space(u16),
    /// A piece type: the value is the type's index.
    PieceType,
    /// A piece: the value is its [`PieceId`], with the kind it is chosen "as", if any, above (see `ir::choice`).
    Piece,
    /// A draft entry: its label.
    Menu(Vec<String>),
    /// One of several actions, each with parameters (`mover chooses { ... }`).
    Actions(Vec<ActionDef>),
    /// A compass direction on a grid (see [`super::grid`]).
    Direction,
}

impl ChoiceKind {
    /// Whether a value of this kind names pieces: a piece choice, or a menu
    /// with a piece parameter. Alike pieces make such values the same move.
    pub(crate) fn names_pieces(&self) -> bool {
        match self {
            ChoiceKind::Piece => true,
            ChoiceKind::Actions(actions) => actions
                .iter()
                .any(|a| a.params.iter().any(|(kind, _)| *kind == ChoiceKind::Piece)),
            _ => false,
        }
    }
}

/// One action of an action decision. Its value packs the action's index and
/// its parameters in mixed radix: `entry + entries * (p0 + r0 * (p1 + ...))`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionDef {
    /// Its label, text and parameters in turn.
    pub label: Vec<LabelPart>,
    /// What each parameter is, and how many values it can take.
    pub params: Vec<(ChoiceKind, i64)>,
}

/// A piece of an action's label: text, or a parameter's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelPart {
    /// Words, as written.
    Text(String),
    /// The value of the parameter at this index.
    Param(u8),
}

#[cfg(test)]
mod divisor_tests {
    use super::Divisor;

    #[test]
    fn a_divisor_divides_as_the_processor_does() {
        let numbers = [
            0u64,
            1,
            2,
            3,
            7,
            63,
            64,
            65,
            1000,
            65_535,
            1 << 31,
            u64::from(u32::MAX),
            1 << 33,
            u64::MAX,
        ];
        for d in [1i64, 2, 3, 5, 7, 10, 64, 100, 641, 65_537, i64::from(u32::MAX), 1 << 40] {
            let divisor = Divisor::new(d);
            for &n in numbers
                .iter()
                .chain(&[d as u64 - 1, d as u64, d as u64 + 1, 3 * d as u64 + 2])
            {
                assert_eq!(divisor.div(n), n / d as u64, "{n} / {d}");
                assert_eq!(divisor.rem(n), n % d as u64, "{n} % {d}");
            }
        }
    }

    #[test]
    fn a_small_divisor_divides_every_number_near_the_edges_alike() {
        for d in 1..=200i64 {
            let divisor = Divisor::new(d);
            let top = u64::from(u32::MAX);
            for n in (0..20_000).chain(top - 20_000..=top + 1_000) {
                assert_eq!(
                    (divisor.div(n), divisor.rem(n)),
                    (n / d as u64, n % d as u64),
                    "{n} by {d}"
                );
            }
        }
    }
}
