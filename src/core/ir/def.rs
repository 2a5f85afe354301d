//! The game definition's tables: pieces, zones, boards' families, options,
//! variables, decisions, triggers, hooks and scores, and how a choice's value
//! reads as a label.

use super::choice::{ChoiceKind, ChoiceValue, DecodedChoice, LabelPart, PieceChoice};
use super::code::{Op, PieceFilter};
use super::grid::{self, Board};
use super::id::{DecisionId, KindId, PieceId, ProcId, Seat, TypeId, ZoneId, id_from_value, ids};
use crate::diagnostic::{Sources, Span};

/// Everything the engine needs to play one game definition.
#[derive(Debug)]
pub struct GameDef {
    /// The game's name (`game "..."`).
    pub name: String,
    /// The source files of the definition, which every [`Span`] points into.
    pub sources: Sources,
    /// Seat names, in seat order ("player 3" for a seat without a name).
    pub seats: Vec<String>,
    /// The colour pictures give each seat (`display Light in colour
    /// "#f1e3b8"`), as `#rrggbb`; `None` (or no entry) to let them choose.
    pub seat_colours: Vec<Option<String>>,
    /// Every kind of every `kinds` set, in declaration order; a kind's index is its id.
    pub kinds: Vec<Kind>,
    /// The named sets of kinds the rules declare.
    pub kind_sets: Vec<KindSet>,
    /// `beats[a * kinds.len() + b]`: kind `a` beats kind `b`.
    pub beats: Vec<bool>,
    /// Piece type names; a type's index is its id ([`Piece::ty`]).
    pub piece_types: Vec<String>,
    /// Per piece type, what it does, for players to read (`display Baron
    /// with text "..."`); as long as `piece_types` once checked.
    pub type_texts: Vec<Option<String>>,
    /// Per piece type, the shape pictures draw it as, where the rules say.
    pub type_shapes: Vec<Option<Shape>>,
    /// Per piece type, the SVG picture drawn on its pieces, where the rules
    /// give one (`display Baron with picture "baron.svg"`): the file's text.
    pub type_pictures: Vec<Option<std::sync::Arc<str>>>,
    pub(crate) groups: Vec<Group>,
    /// Every piece of the game; a piece's index is its [`PieceId`].
    pub pieces: Vec<Piece>,
    /// Every zone; a zone's index is its [`ZoneId`]. The zones of a family are consecutive.
    pub zones: Vec<Zone>,
    /// Zone families, family 0 being the hidden box that holds the pieces left out of the game.
    pub families: Vec<Family>,
    /// The boards.
    pub boards: Vec<Board>,
    /// The declared options; a game's settings are one [`OptionValue`] per option, in this order.
    pub options: Vec<OptionDef>,
    /// The declared variables and constants.
    pub vars: Vec<VarDef>,
    /// Number of global variable slots (a per-player variable takes one per seat).
    pub var_slots: usize,
    /// The procedures, the flow's `main` among them.
    pub procs: Vec<Proc>,
    /// The whole flow program, every procedure's code one after another.
    pub code: Vec<Op>,
    /// `spans[pc]`: where in the sources `code[pc]` came from.
    pub spans: Vec<Span>,
    /// When the compiled tier runs `code` with small procedures inlined
    /// (`native::inline`): per op, the pc it came from in the program
    /// `check` wrote. Empty when `code` is that program. A position's
    /// digest names pcs through it, so both back ends name a position alike.
    pub plain_pcs: Vec<u32>,
    /// Per procedure, how many locals it has in the program `check` wrote
    /// (its inlined callees' locals come after them); empty as above.
    pub plain_locals: Vec<u16>,
    /// The values of `table [...]` expressions and named tables, read by [`Op::Table`].
    pub tables: Vec<Vec<i64>>,
    /// Runtime error messages for [`Op::Fail`].
    pub messages: Vec<String>,
    /// The lines of `say` statements ([`Op::Say`]).
    pub says: Vec<SayLine>,
    /// Every decision the flow asks ([`Op::Ask`], [`Op::AskEach`]), by id.
    pub decisions: Vec<Decision>,
    /// The triggers, in the order they are checked.
    pub triggers: Vec<Trigger>,
    /// The rhai hooks the rules declare.
    pub hooks: Vec<Hook>,
    pub(crate) hook_calls: Vec<HookCall>,
    /// The filters of loops over pieces (`Op::NextPiece`, `Op::NextOnBoard`).
    pub filters: Vec<PieceFilter>,
    /// The score terms, computed for every player when the game is scored.
    pub score_terms: Vec<ScoreTerm>,
    /// The `anytime` actions, offered beside the decisions of each player their `when` allows.
    pub anytime: Vec<Anytime>,
    /// The file this one extends, for a variant.
    pub base: Option<String>,
    /// The file at the end of the `extends` chain (the main file, `0`, when
    /// the game extends nothing): reports name places relative to its
    /// folder, so a base and its variants name a shared line alike.
    pub root_file: crate::diagnostic::FileId,
    /// The result's keys, in the order they rank the players.
    pub rank_keys: Vec<RankKey>,
    /// The running leads the rules keep: numbers per seat a winning
    /// condition reads, by the name a report gives them. A study measures
    /// the lead by them where the game has no score terms.
    pub leads: Vec<(String, RunningLead)>,
    /// The first procedure run: setup, flow and the result.
    pub main: ProcId,
    /// Where the main procedure scores and ranks (`end game` jumps here).
    pub result_pc: u32,
    /// A game that has not ended after this many decisions stops with an error.
    pub max_decisions: u32,
    /// The options whose values the definition's shape was built for (a
    /// grid's size from an option, `grid size x size`), with those values:
    /// a game with another value needs the rules checked for it
    /// (`load_game` does), and one started without is refused.
    pub shaped_by: Vec<ShapedBy>,
    /// Whether nothing is ever hidden but for the moment of a simultaneous
    /// choice: every zone public, no piece with a hidden kind, no secret
    /// decision. Only then may a position where every seat knows every
    /// piece be taken as known whole (`engine::position`): elsewhere the
    /// flow's own values may hold what a seat never saw.
    pub(crate) open_information: bool,
}

/// A number per seat that a winning condition reads (`if count Token in
/// tokens of p == 3 { win p }`, `if wins of p == 5 { win p }`): the lead
/// the rules keep, which changes hands as the game goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunningLead {
    /// A per-player variable, by its first slot.
    Var(u16),
    /// How many pieces of a per-player zone family's zone the matcher takes
    /// (one with no values on the stack: every piece, a type or a group).
    Count {
        /// The family: its zone per seat.
        family: u16,
        /// What it counts there.
        matcher: super::code::Matcher,
    },
}

/// A kind (from a `kinds` declaration): what `beats` compares and pieces may be.
#[derive(Debug, Clone)]
pub struct Kind {
    /// The name in the definition.
    pub name: String,
    /// The name shown in transcripts (`display low as "small"`).
    pub display: String,
    /// The colour pictures draw its pieces in, face up (`display spades
    /// in colour "#2b2b3a"`), as `#rrggbb`; else the owner's.
    pub colour: Option<String>,
    /// What it does, for players to read (`display wild with text "..."`).
    pub text: Option<String>,
    /// The shape pictures draw its pieces as, face up (`display wild with
    /// shape star`).
    pub shape: Option<Shape>,
    /// The SVG picture drawn on its pieces, face up (`display wild with
    /// picture "wild.svg"`): the file's text.
    pub picture: Option<std::sync::Arc<str>>,
}

/// A shape pictures draw a piece as (`display Marker with shape triangle`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A disc.
    Circle,
    /// A square, on its side.
    Square,
    /// A triangle, point up.
    Triangle,
    /// A square on its point.
    Diamond,
    /// A five-pointed star.
    Star,
    /// A hexagon, point up.
    Hexagon,
}

impl Shape {
    /// Every shape, by the name the rules give it.
    pub const ALL: [(&'static str, Shape); 6] = [
        ("circle", Shape::Circle),
        ("square", Shape::Square),
        ("triangle", Shape::Triangle),
        ("diamond", Shape::Diamond),
        ("star", Shape::Star),
        ("hexagon", Shape::Hexagon),
    ];

    /// The shape named `name`.
    pub fn named(name: &str) -> Option<Shape> {
        Shape::ALL.iter().find(|(n, _)| *n == name).map(|&(_, s)| s)
    }
}

/// A named set of kinds, declared in the rules.
#[derive(Debug, Clone)]
pub struct KindSet {
    /// Its name.
    pub name: String,
    /// Its kinds, in the order written.
    pub members: Vec<KindId>,
}

#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub name: String,
    pub types: Vec<TypeId>,
}

/// One physical piece. Pieces with equal type, kind, value and owner are
/// interchangeable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Its piece type: an index into [`GameDef::piece_types`].
    pub ty: TypeId,
    /// Its kind (an index into [`GameDef::kinds`]), for pieces made `of each` kind.
    pub kind: Option<KindId>,
    /// Its value (`with value 1..12`); 0 for pieces without values.
    pub value: i64,
    /// The seat that owns it (pieces made `per player`).
    pub owner: Option<Seat>,
    /// The zone it starts in (the box instead, for a piece its `when` or the
    /// options leave out of the game).
    pub home: ZoneId,
    /// `kind hidden`: seeing the piece shows its type and owner; only its
    /// owner and whoever it is revealed to know its kind.
    pub kind_hidden: bool,
    /// `when` condition: a procedure returning a bool, run at the start.
    pub when: Option<ProcId>,
    /// Counted from options (`with value 1..top_value`, `x decks`): made
    /// for the largest counts the options allow, and in the game only
    /// within the counts of the options in force.
    pub counted: Option<Counted>,
    /// A die's faces (`with faces 1..6`): its value is rolled among them,
    /// and until the first roll it shows the lowest.
    pub faces: Option<(FaceBound, FaceBound)>,
}

/// One end of a die's faces: a number, or the value of an `int` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceBound {
    /// A number written in the rules.
    Number(i64),
    /// The value of the `int` option with this index.
    Option(u16),
}

impl FaceBound {
    /// The bound with these option values (as the flow reads them).
    pub fn resolve(self, options: &[i64]) -> i64 {
        match self {
            FaceBound::Number(n) => n,
            FaceBound::Option(o) => options.get(o as usize).copied().unwrap_or(0),
        }
    }
}

/// Where a piece stands among the pieces of an entry counted from options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// A procedure returning the entry's lowest value, highest value and
    /// copies, run at the start: the piece is in the game when its value is
    /// within the values and `copy` is below the copies.
    pub bounds: ProcId,
    /// Which copy of its kind, value and owner this piece is, from 0.
    pub copy: u16,
}

/// Who sees the pieces of a zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    /// Nobody (a face-down pile).
    Hidden,
    /// Everybody.
    Public,
    /// The zone's owner only.
    Owner,
}

/// One zone: an ordered pile of pieces, top last.
#[derive(Debug, Clone)]
pub struct Zone {
    /// Its family: an index into [`GameDef::families`].
    pub family: u16,
    /// Index within the family: the seat, or the space of the board.
    pub index: u16,
    pub(crate) visibility: Visibility,
    /// The seat owning the zone, for a zone of a per-player family.
    pub owner: Option<Seat>,
}

/// How the zones of a family are told apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FamilyIndex {
    /// One zone.
    Single,
    /// One zone per seat, in seat order.
    PerPlayer,
    /// One zone per space of this board (a slot), in space order.
    PerSpace(u16),
}

/// A named zone, or a family of zones (one per player or one per space).
#[derive(Debug, Clone)]
pub struct Family {
    /// The name in the definition (`hand`, `deck`).
    pub name: String,
    /// Its first zone; its zones are `first..first + len`.
    pub first: ZoneId,
    /// Number of zones: 1, one per seat, or one per space of a board.
    pub len: u16,
    /// How its zones are told apart.
    pub by: FamilyIndex,
    /// Who sees the family's pieces.
    pub visibility: Visibility,
    /// Whether some rule reads the order of its zones' pieces (see
    /// `check::body::order`); where none does, two zones holding the same
    /// pieces in another order play alike.
    pub order_read: bool,
    /// Whether some rule reads which pieces its zones hold, beyond how many
    /// (see `check::body::contents`); a glance keeps a zone no rule reads
    /// so by its size.
    pub contents_read: bool,
    /// Where the designer declared it `unordered` (no rule may read its
    /// order; the checker holds the rules to it).
    pub unordered: Option<Span>,
    /// How pictures and the play screen lay its zones out.
    pub layout: ZoneLayout,
}

/// How pictures and the play screen lay a zone out (`display NAME
/// fanned`, `display NAME off the table`); play never reads it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ZoneLayout {
    /// Equal pieces together, each once with its count: a hand, a supply.
    #[default]
    Tray,
    /// Every piece in its order, overlapping: a column of cards played.
    Fanned,
    /// Not drawn at all: a zone for the rules' own bookkeeping.
    OffTheTable,
}

/// The type of a game option and its allowed values.
#[derive(Debug, Clone, PartialEq)]
pub enum OptionType {
    /// `true` or `false`.
    Bool,
    /// A whole number from `min` to `max`.
    Int {
        /// Smallest allowed value.
        min: i64,
        /// Largest allowed value.
        max: i64,
    },
    /// One of these names (the value is the index of one).
    Enum(Vec<String>),
    /// Each item from `min` to `max`; from `min_items` (at least 1) to `max_items` items.
    IntList {
        /// Smallest allowed item.
        min: i64,
        /// Largest allowed item.
        max: i64,
        /// Fewest items.
        min_items: usize,
        /// Most items.
        max_items: usize,
    },
}

/// A game option (`option ...`): a setting chosen before the game starts.
#[derive(Debug, Clone)]
pub struct OptionDef {
    /// The name, as settings (`--set`) and scenarios give it.
    pub name: String,
    /// Its type and allowed values.
    pub ty: OptionType,
    /// The value when the option is not set.
    pub default: OptionValue,
    /// What the option does, for `options` listings (empty when not given).
    pub description: String,
    /// Where the option is declared.
    pub span: Span,
}

/// An option the shape of a definition was built for, and its value then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapedBy {
    /// The option.
    pub option: u16,
    /// The value the definition was built for: the option's, or with
    /// `length` the number of items of a list option (`length of piles`).
    pub value: i64,
    /// Whether the shape read the list's length rather than a number.
    pub length: bool,
}

impl ShapedBy {
    /// What the shape reads of `value`, to compare with [`ShapedBy::value`].
    pub fn read(&self, value: &OptionValue) -> i64 {
        match value {
            OptionValue::IntList(items) if self.length => items.len() as i64,
            other => other.as_i64(),
        }
    }

    /// [`ShapedBy::read`] from a running game's values: its options as
    /// numbers, and its lists.
    pub(crate) fn read_running(&self, options: &[i64], lists: &[Vec<i64>]) -> i64 {
        let option = usize::from(self.option);
        if self.length {
            lists[option].len() as i64
        } else {
            options[option]
        }
    }
}

/// The value of a game option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OptionValue {
    /// Of an [`OptionType::Bool`].
    Bool(bool),
    /// Of an [`OptionType::Int`].
    Int(i64),
    /// Index into the enum's names.
    Enum(usize),
    /// Of an [`OptionType::IntList`].
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

    /// The value as the rules would write it, for an option of type `ty`.
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

/// What a variable keeps a value for, and so how its slots are indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarEach {
    /// One value for the whole game.
    Game,
    /// One value per seat (`per player`), in seat order.
    Player,
    /// One value per space of this board (`per space of B`), in space order.
    Space(u16),
    /// One value per piece (`per piece`), by piece id.
    Piece,
}

/// A variable (`var`) or constant: global, or one value per seat, per
/// space of a board or per piece.
#[derive(Debug, Clone)]
pub struct VarDef {
    /// The name in the definition.
    pub name: String,
    /// What it keeps a value for: its values are in slots
    /// `slot..slot + GameDef::var_width(self)`, one per seat, space or piece.
    pub each: VarEach,
    /// The variable's first value slot (the VM's variable values, [`GameDef::var_slots`] in all).
    /// A per-piece variable's slots follow every other's, given once the pieces are made.
    pub slot: u16,
    /// Initial value: computed by a procedure at the start.
    pub init: ProcId,
    /// A `constant`: set once, read-only.
    pub constant: bool,
    /// What the value means, to show it in words.
    pub shows: ValueKind,
}

/// A `say` statement's line: its words, and the values it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SayLine {
    /// The words, with `LabelPart::Param(k)` where value `k` goes.
    pub parts: Vec<LabelPart>,
    /// What each value is, in the order they are on the stack.
    pub values: Vec<ChoiceKind>,
    /// Said to one seat (on the stack above the values), not to everyone.
    pub to_one: bool,
    /// The line opens a `phase` (its words are the phase's name, with no
    /// values), not a `say`: a transcript heads each time the phase
    /// begins with its name and how many times it has begun.
    pub opens_phase: bool,
}

impl SayLine {
    /// The line's words with `param(k)` in place of value `k`: how a
    /// disassembly or a report names the line, before any value is known.
    pub fn template(&self, param: impl Fn(u8) -> String) -> String {
        self.parts
            .iter()
            .map(|part| match part {
                LabelPart::Text(text) => text.clone(),
                LabelPart::Param(k) => param(*k),
            })
            .collect()
    }
}

/// How a flow value reads in a transcript.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueKind {
    /// A plain number.
    #[default]
    Number,
    /// `true` or `false`.
    Bool,
    /// A seat, by its name.
    Player,
    /// A kind, by its name.
    Kind,
}

impl GameDef {
    /// A value in words: "high", "Ann", "true", "12".
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

/// A procedure of the flow program.
#[derive(Debug, Clone)]
pub struct Proc {
    /// Its name (`main` for the flow).
    pub name: String,
    /// The pc of its first op.
    pub entry: u32,
    /// How many parameters it takes (its first locals).
    pub params: u16,
    /// How many locals its frame holds, parameters included.
    pub locals: u16,
    /// How many values it returns.
    pub returns: u16,
    /// Where the rules declare it.
    pub span: Span,
}

/// One decision point of the flow (`... chooses ...`), asked by [`Op::Ask`] or [`Op::AskEach`].
#[derive(Debug, Clone)]
pub struct Decision {
    /// The name the choice is stored under (`throw`), or `draft` for a draft.
    pub name: String,
    /// What it offers, which fixes how its values are encoded and labelled.
    pub kind: ChoiceKind,
    /// Only the chooser learns the choice.
    pub secret: bool,
    /// Where it is asked in the sources.
    pub span: Span,
    /// Answers carry reaction times (`race`).
    pub race: bool,
    /// The label of the named "no choice" (`, or silence`).
    pub none_label: Option<String>,
    /// The `where` condition, as written, to explain a refused choice.
    pub condition: Option<String>,
}

/// A trigger (`trigger NAME after every action`).
#[derive(Debug, Clone)]
pub struct Trigger {
    /// Its name.
    pub name: String,
    /// The procedure it runs.
    pub proc: ProcId,
}

/// A rhai hook the rules call.
#[derive(Debug, Clone)]
pub struct Hook {
    /// Its name.
    pub name: String,
    /// Its parameters' names.
    pub params: Vec<String>,
    /// Whether it answers a boolean (else a number).
    pub returns_bool: bool,
    /// Where the rules declare it.
    pub span: Span,
}

/// How a flow value crosses into rhai.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HookArg {
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
pub(crate) struct HookCall {
    pub hook: u16,
    pub args: Vec<HookArg>,
    pub span: Span,
}

/// A term of `score per player { ... }`: points computed for each player when the game is scored.
#[derive(Debug, Clone)]
pub struct ScoreTerm {
    /// The name in the definition.
    pub name: String,
    /// The procedure computing it: `(player) -> number`.
    pub proc: ProcId,
    /// `when` condition: the term only counts while it holds.
    pub when: Option<ProcId>,
    /// A tie-breaker (`tie-breaker name: ...`): the result may rank by it,
    /// but it is not points, so it is left out of the total.
    pub tie_breaker: bool,
}

/// An action a player may take beside any of their decisions (`anytime`).
#[derive(Debug, Clone)]
pub struct Anytime {
    /// The label players choose it by.
    pub label: String,
    /// `(actor) -> bool`
    pub when: ProcId,
    /// `(actor)`, ending in [`Op::ResumeAsk`].
    pub body: ProcId,
}

/// One key of the result's ranking (`most score`, `then most lines`).
#[derive(Debug, Clone)]
pub struct RankKey {
    /// The key as written, for reports.
    pub label: String,
    /// Whether most wins (else fewest).
    pub most: bool,
    /// The procedure that computes a seat's key.
    pub proc: ProcId,
    /// What the key's expression is, when it only reads the points just
    /// scored.
    pub reads: KeyReads,
}

/// What a result key's expression computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyReads {
    /// `score`: a seat's points, the sum of its terms that apply.
    Points,
    /// The name of a score term without `when`: that term's value.
    Term(u16),
    /// Anything else.
    Other,
}

impl GameDef {
    /// A seat's points: the sum of its score terms (one value per term, in
    /// [`GameDef::score_terms`] order), tie-breakers left out.
    pub fn points(&self, terms: &[i64]) -> i64 {
        terms
            .iter()
            .zip(&self.score_terms)
            .filter(|(_, term)| !term.tie_breaker)
            .map(|(points, _)| points)
            .sum()
    }

    /// Number of players (seats).
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// "Orange", or "player 3" for seats without a name.
    pub fn seat_name(&self, seat: Seat) -> &str {
        &self.seats[seat as usize]
    }

    /// Whether kind `a` beats kind `b`.
    pub fn beats(&self, a: KindId, b: KindId) -> bool {
        self.beats[a as usize * self.kinds.len() + b as usize]
    }

    /// How many values a variable keeps: one, or one per seat, space or piece.
    pub fn var_width(&self, var: &VarDef) -> usize {
        match var.each {
            VarEach::Game => 1,
            VarEach::Player => self.players(),
            VarEach::Space(board) => usize::from(self.boards[board as usize].spaces()),
            VarEach::Piece => self.pieces.len(),
        }
    }

    /// What value `index` of a variable is kept for, in words: "Orange",
    /// "shop 5"; for a piece, what anyone may call it ("Stone of Ann").
    pub fn var_owner_name(&self, var: &VarDef, index: u32) -> String {
        match var.each {
            VarEach::Game => String::new(),
            VarEach::Player => self.seat_name(index as Seat).to_string(),
            VarEach::Space(board) => self.boards[board as usize].space_name(index as u16),
            VarEach::Piece => self.piece_label(index as PieceId),
        }
    }

    /// A variable's values in words, as (whose or which, value shown):
    /// one entry with no name for a game's variable, one per seat, and for
    /// a variable kept per space or piece the ones that are not 0 or
    /// false (at most `most`, then a count of the rest as the last name).
    /// `show` words a value (the log's [`GameDef::show_value`], or a
    /// screen's own words).
    pub fn var_entries(
        &self,
        var: &VarDef,
        values: &[i64],
        most: usize,
        show: impl Fn(ValueKind, i64) -> String,
    ) -> Vec<(String, String)> {
        let value = |i: usize| values.get(var.slot as usize + i).copied().unwrap_or(0);
        let shown = |i: usize| (self.var_owner_name(var, i as u32), show(var.shows, value(i)));
        match var.each {
            VarEach::Game => vec![(String::new(), show(var.shows, value(0)))],
            VarEach::Player => (0..self.players()).map(shown).collect(),
            VarEach::Space(_) | VarEach::Piece => {
                let set: Vec<usize> = (0..self.var_width(var)).filter(|&i| value(i) != 0).collect();
                let mut entries: Vec<(String, String)> = set.iter().take(most).map(|&i| shown(i)).collect();
                if set.len() > most {
                    entries.push((format!("{} more", set.len() - most), String::new()));
                }
                entries
            }
        }
    }

    /// The pc `pc` stands for in the program `check` wrote (see
    /// [`GameDef::plain_pcs`]).
    pub fn plain_pc(&self, pc: u32) -> u32 {
        self.plain_pcs.get(pc as usize).copied().unwrap_or(pc)
    }

    /// How many locals procedure `proc` has in the program `check` wrote.
    pub fn plain_locals(&self, proc: ProcId) -> usize {
        match self.plain_locals.get(usize::from(proc)) {
            Some(&n) => usize::from(n),
            None => usize::from(self.procs[usize::from(proc)].locals),
        }
    }

    /// A zone's name: "deck", "hand of Orange", "cell of grid 5".
    pub fn zone_name(&self, zone: ZoneId) -> String {
        let z = &self.zones[zone as usize];
        let family = &self.families[z.family as usize];
        match family.by {
            FamilyIndex::Single => family.name.clone(),
            FamilyIndex::PerPlayer => {
                format!("{} of {}", family.name, self.seat_name(z.index as Seat))
            }
            FamilyIndex::PerSpace(board) => {
                format!("{} of {}", family.name, self.boards[board as usize].space_name(z.index))
            }
        }
    }

    /// Whether `seat` sees the pieces in `zone`: a public zone, or a zone the seat owns.
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
        // As `zone_visible_to` asked of every seat, without the asking: a
        // piece moves through here on every move.
        let z = &self.zones[zone as usize];
        match z.visibility {
            Visibility::Public => self.all_seats_mask(),
            Visibility::Hidden => 0,
            Visibility::Owner => z.owner.map_or(0, |o| 1 << o),
        }
    }

    /// Bit mask of the seats that learn what `piece` is by seeing it in
    /// `zone`: the zone's viewers, and for a piece whose kind is hidden,
    /// only its owner among them.
    pub fn piece_viewers(&self, piece: PieceId, zone: ZoneId) -> u32 {
        let p = &self.pieces[piece as usize];
        let viewers = self.zone_viewers(zone);
        if p.kind_hidden {
            p.owner.map_or(0, |o| viewers & (1 << o))
        } else {
            viewers
        }
    }

    /// Every seat, as a bit mask.
    pub fn all_seats_mask(&self) -> u32 {
        (1u32 << self.players()) - 1
    }

    /// "Token", "Card red 7", "Marker of Orange".
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

    /// What anyone who sees `piece` but not its kind reads: "Marker of Orange (hidden)".
    /// A piece without a hidden kind shows nothing of itself: "a hidden piece".
    pub fn piece_back_label(&self, piece: PieceId) -> String {
        let p = &self.pieces[piece as usize];
        if !p.kind_hidden {
            return "a hidden piece".into();
        }
        let mut label = self.piece_types[p.ty as usize].clone();
        if let Some(owner) = p.owner {
            label.push_str(" of ");
            label.push_str(self.seat_name(owner));
        }
        label.push_str(" (hidden)");
        label
    }

    /// Whether pieces of this type differ in value, so the value is worth showing.
    pub fn type_has_values(&self, ty: TypeId) -> bool {
        let mut values = self.pieces.iter().filter(|p| p.ty == ty).map(|p| p.value);
        let first = values.next();
        values.any(|v| Some(v) != first) || first.is_some_and(|v| v != 0)
    }

    /// Two pieces are interchangeable when everything but their number agrees.
    pub(crate) fn same_identity(&self, a: PieceId, b: PieceId) -> bool {
        let (pa, pb) = (&self.pieces[a as usize], &self.pieces[b as usize]);
        pa.ty == pb.ty && pa.kind == pb.kind && pa.value == pb.value && pa.owner == pb.owner
    }

    /// The label of one value offered by a decision.
    pub fn choice_label(&self, decision: DecisionId, value: i64) -> String {
        self.choice_label_with(decision, value, &|p| self.piece_label(p))
    }

    /// The label of one value, naming pieces with `piece` (so a viewer who
    /// does not know a piece reads its back: "Marker of Orange (hidden)").
    pub fn choice_label_with(&self, decision: DecisionId, value: i64, piece: &dyn Fn(PieceId) -> String) -> String {
        let decision = &self.decisions[decision as usize];
        match ChoiceValue::from_raw(value).decode(&decision.kind) {
            DecodedChoice::None => decision.none_label.clone().unwrap_or_default(),
            // The `anytime` actions offered beside the decision.
            DecodedChoice::Anytime(index) => self.anytime.get(index).map_or_else(String::new, |a| a.label.clone()),
            decoded => self.value_label(&decision.kind, decoded, piece),
        }
    }

    /// The words of `say` line `line` with its `values`; `piece` names a
    /// piece given the seats that knew it when the line was said.
    pub fn said(&self, line: u16, values: &[(i64, u32)], piece: &dyn Fn(PieceId, u32) -> String) -> String {
        let Some(said) = self.says.get(line as usize) else {
            return String::new();
        };
        let mut words = String::new();
        for part in &said.parts {
            match part {
                LabelPart::Text(text) => words.push_str(text),
                LabelPart::Param(k) => {
                    let (Some(kind), Some(&(value, knowers))) = (said.values.get(*k as usize), values.get(*k as usize))
                    else {
                        continue;
                    };
                    let shown = match kind {
                        ChoiceKind::Piece => piece(id_from_value(value), knowers),
                        _ => self.value_label(kind, DecodedChoice::Plain(value), &|_| String::new()),
                    };
                    words.push_str(&shown);
                }
            }
        }
        words
    }

    fn value_label(&self, kind: &ChoiceKind, value: DecodedChoice, piece: &dyn Fn(PieceId) -> String) -> String {
        match value {
            // Named by the decision (see `choice_label_with`); an action's
            // parameters, in `0..radix`, are never these.
            DecodedChoice::None | DecodedChoice::Anytime(_) => String::new(),
            DecodedChoice::Piece(PieceChoice { piece: p, declared }) => match declared {
                Some(kind) => format!("{} as {}", piece(p), self.kinds[kind as usize].display),
                None => piece(p),
            },
            DecodedChoice::Action { action, params, .. } => {
                let mut label = String::new();
                for part in &action.label {
                    match part {
                        LabelPart::Text(text) => label.push_str(text),
                        LabelPart::Param(k) => {
                            let (kind, _) = &action.params[*k as usize];
                            let param = ChoiceValue::from_raw(params[*k as usize]).decode(kind);
                            label.push_str(&self.value_label(kind, param, piece));
                        }
                    }
                }
                label
            }
            DecodedChoice::Plain(value) => match kind {
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
                ChoiceKind::Direction => grid::direction_name(value),
                ChoiceKind::Space(board) => self.boards[*board as usize].space_name(id_from_value(value)),
                ChoiceKind::PieceType => self.piece_types.get(value as usize).cloned().unwrap_or_default(),
                ChoiceKind::Menu(labels) => labels.get(value as usize).cloned().unwrap_or_default(),
                // An action value that names no action.
                ChoiceKind::Piece | ChoiceKind::Actions(_) => value.to_string(),
            },
        }
    }

    /// The pieces a chosen value names (a piece, or an action's piece parameters).
    pub(crate) fn choice_pieces(&self, decision: DecisionId, value: i64) -> Vec<PieceId> {
        match ChoiceValue::from_raw(value).decode(&self.decisions[decision as usize].kind) {
            DecodedChoice::Piece(choice) => vec![choice.piece],
            DecodedChoice::Action { action, params, .. } => action
                .params
                .iter()
                .zip(params)
                .filter(|((kind, _), _)| *kind == ChoiceKind::Piece)
                .map(|(_, p)| ChoiceValue::from_raw(p).piece_id())
                .collect(),
            _ => vec![],
        }
    }

    /// The value of action `entry` of an action decision with these
    /// parameters, or `None` when the decision has no such action or a
    /// parameter is out of range.
    pub fn action_value(&self, decision: DecisionId, entry: usize, params: &[i64]) -> Option<i64> {
        let ChoiceKind::Actions(actions) = &self.decisions.get(decision as usize)?.kind else {
            return None;
        };
        ChoiceValue::action(actions, entry, params).map(ChoiceValue::raw)
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

    /// The index of the option called `name`, into [`GameDef::options`].
    pub fn option_index(&self, name: &str) -> Option<usize> {
        self.options.iter().position(|o| o.name == name)
    }

    /// Every option's default value, in option order: the settings when none are given.
    pub fn default_options(&self) -> Vec<OptionValue> {
        self.options.iter().map(|o| o.default.clone()).collect()
    }
}

/// The `rules_hash` of a game's source files: FNV-1a (64 bits) over each
/// file's length and text, in the order they were read.
pub fn rules_hash<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for text in texts {
        for byte in (text.len() as u64).to_le_bytes().iter().chain(text.as_bytes()) {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("fnv1a64:{hash:016x}")
}

impl GameDef {
    /// Every zone, in id order.
    pub fn zone_ids(&self) -> impl DoubleEndedIterator<Item = ZoneId> + ExactSizeIterator + Clone + use<> {
        ids(self.zones.len())
    }

    /// Every piece, in id order.
    pub(crate) fn piece_ids(&self) -> impl DoubleEndedIterator<Item = PieceId> + ExactSizeIterator + Clone + use<> {
        ids(self.pieces.len())
    }

    /// Every board, in id order.
    pub fn board_ids(&self) -> impl DoubleEndedIterator<Item = u16> + ExactSizeIterator + Clone + use<> {
        ids(self.boards.len())
    }
}
