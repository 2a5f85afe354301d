//! The static types of flow values, and the global symbol table.

use std::collections::HashMap;

use crate::diagnostic::Span;

/// What a value is. At run time every value is an `i64`; the checker keeps
/// them apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Int,
    Bool,
    Seat,
    Kind,
    Piece,
    Zone,
    Space(u16),
    PieceType,
    /// A choice made by every player (`each player chooses x`): `x of p`.
    PerPlayer(Box<Ty>),
    /// The value of an enum option: compared with its variant names.
    Enum(u16),
    /// A compass direction on a grid (`north`, `forward of P`).
    Direction,
    /// Produced after an error, compatible with everything so one mistake
    /// is reported once.
    Error,
}

impl Ty {
    /// The type in a designer's words, for diagnostics ("a number").
    pub fn describe(&self) -> String {
        match self {
            Ty::Int => "a number".into(),
            Ty::Bool => "true or false".into(),
            Ty::Seat => "a player".into(),
            Ty::Kind => "a kind".into(),
            Ty::Piece => "a piece".into(),
            Ty::Zone => "a zone".into(),
            Ty::Space(_) => "a space of a board".into(),
            Ty::PieceType => "a piece type".into(),
            Ty::PerPlayer(inner) => format!("one {} per player", inner.describe().trim_start_matches("a ")),
            Ty::Enum(_) => "an option value".into(),
            Ty::Direction => "a direction".into(),
            Ty::Error => "anything".into(),
        }
    }

    /// Whether a value of `self` can stand where `wanted` is expected.
    pub(crate) fn fits(&self, wanted: &Ty) -> bool {
        self == wanted || *self == Ty::Error || *wanted == Ty::Error
    }
}

/// A name declared at the top level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    Seat(u8),
    Kind(u16),
    KindSet(u16),
    PieceType(u16),
    Group(u16),
    Family(u16),
    Board(u16),
    /// A ring or a single space of a graph board: (board, group).
    SpaceGroup(u16, u16),
    Option(u16),
    Var(u16),
    Proc(u16),
    Hook(u16),
    Trigger(u16),
    Table(u16),
}

impl Symbol {
    /// What the name stands for, for diagnostics ("a kind").
    pub fn describe(&self) -> &'static str {
        match self {
            Symbol::Seat(_) => "a player",
            Symbol::Kind(_) => "a kind",
            Symbol::KindSet(_) => "a set of kinds",
            Symbol::PieceType(_) => "a piece type",
            Symbol::Group(_) => "a group of piece types",
            Symbol::Family(_) => "a zone",
            Symbol::Board(_) => "a board",
            Symbol::SpaceGroup(..) => "a ring or space of a board",
            Symbol::Option(_) => "an option",
            Symbol::Var(_) => "a variable",
            Symbol::Proc(_) => "a procedure",
            Symbol::Hook(_) => "a hook",
            Symbol::Trigger(_) => "a trigger",
            Symbol::Table(_) => "a table",
        }
    }
}

#[derive(Default, Debug)]
pub(crate) struct Globals {
    pub names: HashMap<String, (Symbol, Span)>,
    /// How often each name was used, for the unused-name warnings.
    pub uses: HashMap<String, usize>,
    /// The options and constants a board's size reads: used, though no
    /// rule names them.
    pub read_by_shape: Vec<String>,
    /// Seat names beyond the number of players an option gives: by name,
    /// its seat number from 1 and the number of players.
    pub absent_seats: Vec<(String, usize, usize)>,
    /// Tables written `[low: 1, high: 3, ...]`: by table, the kind set
    /// whose kinds look them up.
    pub keyed_tables: HashMap<u16, u16>,
    /// Variables whose declaration was reported (`per space of` a board
    /// that does not exist): declared still, so that their uses are not
    /// reported too.
    pub reported_vars: std::collections::HashSet<u16>,
}

impl Globals {
    pub(crate) fn get(&mut self, name: &str) -> Option<Symbol> {
        let symbol = self.names.get(name).map(|(s, _)| *s);
        if symbol.is_some() {
            *self.uses.entry(name.to_string()).or_default() += 1;
        }
        symbol
    }

    pub(crate) fn all_names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }
}
