//! The checked, compiled game: names interned to small integer ids, the flow
//! compiled to a resumable stack program ([`Op`]).
//!
//! Built only by `check`; the engine trusts it and never re-validates names.

mod code;

pub use code::{Attr, MatchBy, Matcher, Op};

use crate::diagnostic::{Sources, Span};
use crate::script::Script;

pub type Seat = u8;
pub type PieceId = u16;
pub type ZoneId = u16;
pub type KindId = u16;
pub type TypeId = u16;
pub type ProcId = u16;
pub type DecisionId = u16;

/// The value of a named "no choice" (`, or silence`).
pub const NO_CHOICE: i64 = 1 << 40;

/// A piece chosen "as" a kind (`with Wild as each Hand`) is the piece's
/// number plus `declared(kind)`.
pub const fn declared(kind: KindId) -> i64 {
    (kind as i64 + 1) << 16
}

/// The piece behind a chosen value.
pub const fn piece_of(value: i64) -> PieceId {
    (value & 0xFFFF) as PieceId
}

/// The kind a piece was chosen as, if any.
pub const fn declared_kind(value: i64) -> Option<KindId> {
    let k = (value >> 16) & 0xFFFF;
    if k == 0 { None } else { Some((k - 1) as KindId) }
}

/// Everything the engine needs to play one game definition.
#[derive(Debug)]
pub struct GameDef {
    pub name: String,
    pub sources: Sources,
    pub seats: Vec<String>,
    pub kinds: Vec<Kind>,
    pub kind_sets: Vec<KindSet>,
    /// `beats[a * kinds.len() + b]`: kind `a` beats kind `b`.
    pub beats: Vec<bool>,
    pub piece_types: Vec<String>,
    pub groups: Vec<Group>,
    pub pieces: Vec<Piece>,
    pub zones: Vec<Zone>,
    pub families: Vec<Family>,
    pub boards: Vec<Board>,
    pub options: Vec<OptionDef>,
    pub vars: Vec<VarDef>,
    /// Number of global variable slots (a per-player variable takes one per seat).
    pub var_slots: usize,
    pub procs: Vec<Proc>,
    pub code: Vec<Op>,
    /// `spans[pc]`: where in the sources `code[pc]` came from.
    pub spans: Vec<Span>,
    pub tables: Vec<Vec<i64>>,
    /// Runtime error messages for [`Op::Fail`].
    pub messages: Vec<String>,
    pub decisions: Vec<Decision>,
    pub triggers: Vec<Trigger>,
    pub hooks: Vec<Hook>,
    pub hook_calls: Vec<HookCall>,
    pub script: Option<Script>,
    pub score_terms: Vec<ScoreTerm>,
    pub anytime: Vec<Anytime>,
    /// The file this one extends, for a variant.
    pub base: Option<String>,
    pub rank_keys: Vec<RankKey>,
    /// The first procedure run: setup, flow and the result.
    pub main: ProcId,
    /// Where the main procedure scores and ranks (`end game` jumps here).
    pub result_pc: u32,
    /// A game that has not ended after this many decisions stops with an error.
    pub max_decisions: u32,
}

#[derive(Debug, Clone)]
pub struct Kind {
    pub name: String,
    /// The name shown in transcripts (`display rock as "rubber"`).
    pub display: String,
}

#[derive(Debug, Clone)]
pub struct KindSet {
    pub name: String,
    pub members: Vec<KindId>,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub name: String,
    pub types: Vec<TypeId>,
}

/// One physical piece. Pieces with equal type, kind, value and owner are
/// interchangeable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub ty: TypeId,
    pub kind: Option<KindId>,
    pub value: i64,
    pub owner: Option<Seat>,
    pub home: ZoneId,
    /// `when` condition: a procedure returning a bool, run at the start.
    pub when: Option<ProcId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    Hidden,
    Public,
    Owner,
}

#[derive(Debug, Clone)]
pub struct Zone {
    pub family: u16,
    /// Index within the family: the seat, or the space of the board.
    pub index: u16,
    pub visibility: Visibility,
    pub owner: Option<Seat>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FamilyIndex {
    Single,
    PerPlayer,
    PerSpace(u16),
}

/// A named zone, or a family of zones (one per player or one per space).
#[derive(Debug, Clone)]
pub struct Family {
    pub name: String,
    pub first: ZoneId,
    pub len: u16,
    pub by: FamilyIndex,
    pub visibility: Visibility,
}

#[derive(Debug, Clone)]
pub struct Board {
    pub name: String,
    pub rows: u16,
    pub cols: u16,
    /// Rows, columns and both diagonals, as lists of spaces.
    pub lines: Vec<Vec<u16>>,
}

impl Board {
    pub fn spaces(&self) -> u16 {
        self.rows * self.cols
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum OptionType {
    Bool,
    Int { min: i64, max: i64 },
    Enum(Vec<String>),
    IntList,
}

#[derive(Debug, Clone)]
pub struct OptionDef {
    pub name: String,
    pub ty: OptionType,
    pub default: OptionValue,
    pub description: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    Bool(bool),
    Int(i64),
    /// Index into the enum's names.
    Enum(usize),
    IntList(Vec<i64>),
}

impl OptionValue {
    /// The value the flow sees: lists are not readable as numbers and give 0.
    pub fn as_i64(&self) -> i64 {
        match self {
            OptionValue::Bool(b) => i64::from(*b),
            OptionValue::Int(i) => *i,
            OptionValue::Enum(i) => *i as i64,
            OptionValue::IntList(_) => 0,
        }
    }

    pub fn render(&self, ty: &OptionType) -> String {
        match (self, ty) {
            (OptionValue::Bool(b), _) => b.to_string(),
            (OptionValue::Int(i), _) => i.to_string(),
            (OptionValue::Enum(i), OptionType::Enum(names)) => names.get(*i).cloned().unwrap_or_default(),
            (OptionValue::Enum(i), _) => i.to_string(),
            (OptionValue::IntList(list), _) => {
                format!(
                    "[{}]",
                    list.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
                )
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct VarDef {
    pub name: String,
    pub per_player: bool,
    pub slot: u16,
    /// Initial value: computed by a procedure at the start.
    pub init: ProcId,
    /// A `constant`: set once, read-only.
    pub constant: bool,
    /// What the value means, to show it in words.
    pub shows: ValueKind,
}

/// How a flow value reads in a transcript.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueKind {
    #[default]
    Number,
    Bool,
    Player,
    Kind,
}

impl GameDef {
    /// A value in words: "rock", "Ann", "true", "12".
    pub fn show_value(&self, kind: ValueKind, value: i64) -> String {
        match kind {
            ValueKind::Number => value.to_string(),
            ValueKind::Bool => (value != 0).to_string(),
            ValueKind::Player => self
                .seats
                .get(value as usize)
                .cloned()
                .unwrap_or_else(|| value.to_string()),
            ValueKind::Kind => self
                .kinds
                .get(value as usize)
                .map_or_else(|| value.to_string(), |k| k.display.clone()),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Proc {
    pub name: String,
    pub entry: u32,
    pub params: u16,
    pub locals: u16,
    pub returns: u16,
    pub span: Span,
}

/// What a decision offers; the label of each value depends on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChoiceKind {
    Kind,
    Player,
    Number,
    Space(u16),
    PieceType,
    Piece,
    /// A draft entry: its label.
    Menu(Vec<String>),
}

#[derive(Debug, Clone)]
pub struct Decision {
    /// The name the choice is stored under (`throw`), or `draft` for a draft.
    pub name: String,
    pub kind: ChoiceKind,
    /// Only the chooser learns the choice.
    pub secret: bool,
    pub span: Span,
    /// Answers carry reaction times (`race`).
    pub race: bool,
    /// The label of the named "no choice" (`, or silence`).
    pub none_label: Option<String>,
    /// The `where` condition, as written, to explain a refused choice.
    pub condition: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Trigger {
    pub name: String,
    pub proc: ProcId,
}

#[derive(Debug, Clone)]
pub struct Hook {
    pub name: String,
    pub params: Vec<String>,
    pub returns_bool: bool,
    pub span: Span,
}

/// How a flow value crosses into rhai.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookArg {
    Int,
    Bool,
    /// Seat, passed as 1-based player number.
    Player,
    /// Passed by name.
    Kind,
    PieceType,
    /// Passed as the piece's number.
    Piece,
}

#[derive(Debug, Clone)]
pub struct HookCall {
    pub hook: u16,
    pub args: Vec<HookArg>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ScoreTerm {
    pub name: String,
    pub proc: ProcId,
    /// `when` condition: the term only counts while it holds.
    pub when: Option<ProcId>,
}

/// An action a player may take beside any of their decisions (`anytime`).
#[derive(Debug, Clone)]
pub struct Anytime {
    pub label: String,
    /// `(actor) -> bool`
    pub when: ProcId,
    /// `(actor)`, ending in [`Op::ResumeAsk`].
    pub body: ProcId,
}

#[derive(Debug, Clone)]
pub struct RankKey {
    pub label: String,
    pub most: bool,
    pub proc: ProcId,
}

impl GameDef {
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// "Orange", or "player 3" for seats without a name.
    pub fn seat_name(&self, seat: Seat) -> &str {
        &self.seats[seat as usize]
    }

    pub fn beats(&self, a: KindId, b: KindId) -> bool {
        self.beats[a as usize * self.kinds.len() + b as usize]
    }

    pub fn zone_name(&self, zone: ZoneId) -> String {
        let z = &self.zones[zone as usize];
        let family = &self.families[z.family as usize];
        match family.by {
            FamilyIndex::Single => family.name.clone(),
            FamilyIndex::PerPlayer => {
                format!("{} of {}", family.name, self.seat_name(z.index as Seat))
            }
            FamilyIndex::PerSpace(board) => {
                format!(
                    "{} of {} {}",
                    family.name,
                    self.boards[board as usize].name,
                    z.index + 1
                )
            }
        }
    }

    pub fn zone_visible_to(&self, zone: ZoneId, seat: Seat) -> bool {
        let z = &self.zones[zone as usize];
        match z.visibility {
            Visibility::Public => true,
            Visibility::Hidden => false,
            Visibility::Owner => z.owner == Some(seat),
        }
    }

    /// Bit mask of the seats that see the pieces in `zone`.
    pub fn zone_viewers(&self, zone: ZoneId) -> u32 {
        (0..self.players() as Seat)
            .filter(|&s| self.zone_visible_to(zone, s))
            .fold(0, |m, s| m | 1 << s)
    }

    pub fn all_seats_mask(&self) -> u32 {
        (1u32 << self.players()) - 1
    }

    /// "Tape", "Card paper 7", "Squad of Orange".
    pub fn piece_label(&self, piece: PieceId) -> String {
        let p = &self.pieces[piece as usize];
        let mut label = self.piece_types[p.ty as usize].clone();
        if let Some(kind) = p.kind {
            label.push(' ');
            label.push_str(&self.kinds[kind as usize].display);
        }
        if self.type_has_values(p.ty) {
            label.push_str(&format!(" {}", p.value));
        }
        if let Some(owner) = p.owner {
            label.push_str(" of ");
            label.push_str(self.seat_name(owner));
        }
        label
    }

    /// Whether pieces of this type differ in value, so the value is worth showing.
    pub fn type_has_values(&self, ty: TypeId) -> bool {
        let mut values = self.pieces.iter().filter(|p| p.ty == ty).map(|p| p.value);
        let first = values.next();
        values.any(|v| Some(v) != first) || first.is_some_and(|v| v != 0)
    }

    /// Two pieces are interchangeable when everything but their number agrees.
    pub fn same_identity(&self, a: PieceId, b: PieceId) -> bool {
        let (pa, pb) = (&self.pieces[a as usize], &self.pieces[b as usize]);
        pa.ty == pb.ty && pa.kind == pb.kind && pa.value == pb.value && pa.owner == pb.owner
    }

    /// The label of one value offered by a decision.
    pub fn choice_label(&self, decision: DecisionId, value: i64) -> String {
        if value == NO_CHOICE {
            return self.decisions[decision as usize].none_label.clone().unwrap_or_default();
        }
        // Negative values are the `anytime` actions offered beside the decision.
        if value < 0 {
            let index = (-value - 1) as usize;
            return self.anytime.get(index).map_or_else(String::new, |a| a.label.clone());
        }
        match &self.decisions[decision as usize].kind {
            ChoiceKind::Kind => self
                .kinds
                .get(value as usize)
                .map_or_else(|| value.to_string(), |k| k.display.clone()),
            ChoiceKind::Player => self
                .seats
                .get(value as usize)
                .cloned()
                .unwrap_or_else(|| value.to_string()),
            ChoiceKind::Number => value.to_string(),
            ChoiceKind::Space(board) => {
                format!("{} {}", self.boards[*board as usize].name, value + 1)
            }
            ChoiceKind::PieceType => self.piece_types.get(value as usize).cloned().unwrap_or_default(),
            ChoiceKind::Piece => match declared_kind(value) {
                Some(kind) => format!(
                    "{} as {}",
                    self.piece_label(piece_of(value)),
                    self.kinds[kind as usize].display
                ),
                None => self.piece_label(piece_of(value)),
            },
            ChoiceKind::Menu(labels) => labels.get(value as usize).cloned().unwrap_or_default(),
        }
    }

    /// Other names a scripted choice may use for `value` (a kind's own name
    /// beside its display name).
    pub fn choice_aliases(&self, decision: DecisionId, value: i64) -> Vec<String> {
        let mut names = vec![self.choice_label(decision, value)];
        if self.decisions[decision as usize].kind == ChoiceKind::Kind
            && let Some(kind) = self.kinds.get(value as usize)
        {
            names.push(kind.name.clone());
        }
        names
    }

    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options.iter().position(|o| o.name == name)
    }

    pub fn default_options(&self) -> Vec<OptionValue> {
        self.options.iter().map(|o| o.default.clone()).collect()
    }
}
