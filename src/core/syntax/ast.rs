//! The abstract syntax tree of a `.rules` file. Every node carries its [`Span`].
//!
//! The tree is exactly what the designer wrote: names are unresolved strings.
//! `check` resolves them into the `ir`.
//!
//! Its nodes mirror the rules of `grammar/rules.pest` and the language's
//! words (docs/language.md documents each); their fields are named for
//! what they hold, so they go without a line each.

#![allow(missing_docs)]

use crate::diagnostic::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A parsed rules file: its top-level declarations, in order.
#[derive(Clone, Debug, Default)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Game {
        name: String,
        span: Span,
    },
    Players {
        /// A number, or worked out from `int` options and constants.
        count: Expr,
        names: Vec<Ident>,
        span: Span,
    },
    Use {
        path: String,
        span: Span,
    },
    /// `extends "base.rules"`: this file is a variant of the base.
    Extends {
        path: String,
        span: Span,
    },
    /// `override ...`: replaces the part of the base with the same name.
    Override {
        item: Box<Item>,
        span: Span,
    },
    /// `table set_values = [1, 2, 5, 3, 8]`
    Table {
        name: Ident,
        values: Vec<i64>,
        /// `[low: 1, high: 3]`: the kind each value is for (empty for a
        /// plain list, looked up by number).
        keys: Vec<Ident>,
        span: Span,
    },
    /// `constant lead_bonus = 3`
    Constant {
        name: Ident,
        value: Expr,
    },
    /// `anytime "take a peek" when ... { ... }`
    Anytime(AnytimeDecl),
    /// `phase NAME { ... }` or `step NAME { ... }` inside an `override`.
    Named {
        kind: NamedKind,
        name: Ident,
        body: Block,
    },
    /// `display Baron with text "..."`: what a piece type or a kind does,
    /// for players to read.
    Text {
        name: Ident,
        text: String,
    },
    /// `display Baron with picture "art/baron.svg"`: an SVG file drawn on
    /// a piece type's or a kind's pieces.
    Picture {
        name: Ident,
        /// The path as written, relative to the file that names it.
        path: String,
        path_span: Span,
        /// The file's text, once read (while the files are loaded).
        svg: Option<std::sync::Arc<str>>,
    },
    /// `display Marker with shape triangle`: the shape pictures draw a piece
    /// type or a kind as.
    Shape {
        name: Ident,
        shape: Ident,
    },
    /// `display expedition fanned`, `display scratch off the table`: how
    /// pictures lay a zone out.
    ZoneLayout {
        zone: Ident,
        /// `fanned`; else `off the table`.
        fanned: bool,
    },
    /// `display Light in colour "#f1e3b8"`: the colour pictures give a seat.
    SeatColour {
        seat: Ident,
        colour: String,
        /// Where the colour is written.
        colour_span: Span,
    },
    Display {
        kind: Ident,
        text: String,
        #[allow(dead_code)] // for diagnostics about the whole declaration
        span: Span,
    },
    Kinds {
        name: Ident,
        values: Vec<Ident>,
    },
    Beats {
        pairs: Vec<(Ident, Ident)>,
        #[allow(dead_code)] // for diagnostics about the whole declaration
        span: Span,
        /// `a = b` entries: kinds declared to tie (neither beats the other).
        ties: Vec<(Ident, Ident)>,
    },
    Option(OptionDecl),
    Var(VarDecl),
    Pieces(Vec<PieceEntry>),
    Group {
        name: Ident,
        members: Vec<Ident>,
    },
    Board(BoardDecl),
    Zones(Vec<ZoneDecl>),
    Setup(Block),
    Flow(Block),
    Procedure(ProcedureDecl),
    Trigger {
        name: Ident,
        body: Block,
    },
    Hook(HookDecl),
    Score {
        terms: Vec<ScoreTerm>,
        #[allow(dead_code)] // for diagnostics about the whole declaration
        span: Span,
    },
    Result(ResultDecl),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedKind {
    Phase,
    Step,
}

impl NamedKind {
    pub fn word(self) -> &'static str {
        match self {
            NamedKind::Phase => "phase",
            NamedKind::Step => "step",
        }
    }
}

#[derive(Clone, Debug)]
pub struct AnytimeDecl {
    pub label: String,
    pub label_span: Span,
    pub when: Expr,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: Ident,
    pub ty: OptionType,
    pub ty_span: Span,
    pub default: Literal,
    pub description: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum OptionType {
    Bool,
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    Enum(Vec<Ident>),
    /// `list of int [in A..B] [with N..M items]`.
    IntList {
        min: Option<i64>,
        max: Option<i64>,
        items: Option<(i64, i64)>,
    },
}

#[derive(Clone, Debug)]
pub struct Literal {
    pub kind: LiteralKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LiteralKind {
    Int(i64),
    Bool(bool),
    Name(String),
    List(Vec<i64>),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub name: Ident,
    /// What it is kept for: the game, each player, each space, each piece.
    pub each: VarEach,
    pub init: Expr,
}

/// What a variable keeps a value for.
#[derive(Clone, Debug, PartialEq)]
pub enum VarEach {
    /// One value for the game.
    Game,
    /// `per player`.
    Player,
    /// `per space of BOARD`: the board's name.
    Space(Ident),
    /// `per piece`.
    Piece,
}

#[derive(Clone, Debug)]
pub struct PieceEntry {
    pub name: Ident,
    /// `of each Hand`: one piece per kind of the set.
    pub of_each: Option<Ident>,
    /// `with value 1..12`: one piece per value (or a fixed value). Each
    /// bound is a number, or an option, a constant or `( ... )` of them.
    pub values: Option<(Expr, Expr, Span)>,
    /// `x 5`, `x num_decks`: copies of each piece.
    pub copies: Option<(Expr, Span)>,
    /// `with faces 1..6`: dice, whose value is rolled among these faces.
    pub faces: Option<(FaceBound, FaceBound, Span)>,
    pub per_player: bool,
    pub home: Ident,
    /// `kind hidden`: only the owner (and whoever it is revealed to) sees the kind.
    pub kind_hidden: bool,
    pub when: Option<Expr>,
    pub span: Span,
}

/// One end of a die's faces: a number, or an `int` option's name.
#[derive(Clone, Debug)]
pub enum FaceBound {
    Number(i64),
    Name(Ident),
}

#[derive(Clone, Debug)]
pub struct BoardDecl {
    pub name: Ident,
    pub shape: BoardShape,
    pub shape_span: Span,
    pub slots: Vec<SlotDecl>,
    /// The whole declaration.
    #[allow(dead_code)] // for diagnostics about the whole declaration
    pub span: Span,
    /// `forward of player 1 is south`: which way each seat faces on a grid.
    pub forward: Vec<ForwardDecl>,
}

/// `forward of SEAT is DIRECTION` inside a grid board.
#[derive(Clone, Debug)]
pub struct ForwardDecl {
    /// `player 1` (an [`ExprKind::Seat`]) or a seat name.
    pub seat: Expr,
    pub direction: Ident,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum BoardShape {
    /// `grid 3 x 3`: spaces in reading order, each touching its orthogonal
    /// neighbours. A size is a number, or worked out from `int` options and
    /// constants (`grid size x size`): the checker builds the board for the
    /// values in force.
    /// `hex grid 11 x 11` is a rhombus of hexagons: each space touches the
    /// six around it (north, northeast, east, south, southwest, west).
    Grid {
        rows: Box<Expr>,
        cols: Box<Expr>,
        hex: bool,
    },
    /// `graph { ring ..., space ..., link ... }`
    Graph(Vec<GraphPart>),
}

#[derive(Clone, Debug)]
pub enum GraphPart {
    /// `ring outer 18 wraps`
    Ring {
        name: Ident,
        /// A number, or worked out from `int` options and constants.
        count: Box<Expr>,
        wraps: bool,
        /// `from (x, y) to (x, y)`: a picture draws the ring along this
        /// line instead of on a circle.
        along: Option<(SpaceAt, SpaceAt)>,
    },
    /// `space centre`, or `space centre at (0, 0)` with a picture's hint
    Space { name: Ident, at: Option<SpaceAt> },
    /// `link outer[i] -- inner[i / 2] where i % 2 == 0`
    Link(Box<LinkRule>),
}

/// `at (x, y)` after a single space: where a picture draws it.
#[derive(Clone, Debug)]
pub struct SpaceAt {
    /// Saturated to `i64::MIN`/`MAX` when the digits overflow, so that the
    /// checker's range check reports them.
    pub x: i64,
    pub y: i64,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct LinkRule {
    pub left: SpacePattern,
    pub right: SpacePattern,
    pub cond: Option<Expr>,
    pub span: Span,
}

/// `outer[i]`, `inner[i / 2]` or `centre` in a link rule.
#[derive(Clone, Debug)]
pub struct SpacePattern {
    pub name: Ident,
    pub index: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visibility {
    Hidden,
    Public,
    Owner,
}

#[derive(Clone, Debug)]
pub struct ZoneDecl {
    pub name: Ident,
    pub per_player: bool,
    pub visibility: Visibility,
    /// `unordered`, where written: the order of its pieces never matters.
    pub unordered: Option<Span>,
}

/// A board's slot: `tray public`, a zone on every space.
#[derive(Clone, Debug)]
pub struct SlotDecl {
    pub name: Ident,
    pub visibility: Visibility,
    /// `unordered`, where written.
    pub unordered: Option<Span>,
}

#[derive(Clone, Debug)]
pub struct ProcedureDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub returns: Vec<Ident>,
    pub body: Block,
}

/// `name` or `name: player`.
#[derive(Clone, Debug)]
pub struct Param {
    pub name: Ident,
    pub ty: Option<(String, Span)>,
}

#[derive(Clone, Debug)]
pub struct HookDecl {
    pub name: Ident,
    pub params: Vec<Param>,
    pub returns: HookType,
    /// The rhai source between the braces, and where it starts in the file.
    pub body: String,
    pub body_span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookType {
    Bool,
    Int,
}

/// One term of `score per player { ... }`: its name, its value per player, and an optional `when`.
#[derive(Clone, Debug)]
pub struct ScoreTerm {
    pub name: Ident,
    pub value: Expr,
    /// The term only counts while this holds (e.g. an option is on).
    pub when: Option<Expr>,
    /// `tie-breaker name: ...`: not points, only a key the result may rank by.
    pub(crate) tie_breaker: bool,
}

#[derive(Clone, Debug)]
pub struct ResultDecl {
    pub keys: Vec<RankKey>,
    pub otherwise: ResultElse,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct RankKey {
    pub most: bool,
    pub(crate) value: Expr,
}

#[derive(Clone, Debug)]
pub enum ResultElse {
    /// No `else`: a tie on every key is a draw.
    Draw,
    Block(Block),
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Let {
        names: Vec<Ident>,
        value: Expr,
    },
    Set {
        target: LValue,
        value: Expr,
    },
    Add {
        amount: Expr,
        target: LValue,
    },
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    For {
        var: Ident,
        domain: Domain,
        body: Block,
    },
    Loop(Block),
    While {
        cond: Expr,
        body: Block,
    },
    Repeat {
        times: Expr,
        body: Block,
    },
    Break,
    Return(Vec<Expr>),
    /// `each player chooses throw from Hand`: a simultaneous decision.
    ChooseEach {
        var: Ident,
        domain: Domain,
        secret: bool,
    },
    /// `winner chooses starter from players`: one player's decision.
    Choose {
        who: Expr,
        var: Ident,
        domain: Domain,
        secret: bool,
        /// Run when the domain offers nothing (`chooses ... else { ... }`).
        otherwise: Option<Block>,
    },
    /// `draft a, b, c { "label" { ... } ... }`: each chooser in turn picks one
    /// of the entries not yet picked.
    Draft {
        choosers: Vec<Expr>,
        entries: Vec<DraftEntry>,
    },
    Shuffle(Expr),
    Deal {
        count: Expr,
        from: Expr,
        to: Expr,
    },
    Move {
        what: Expr,
        to: Expr,
    },
    MoveAll {
        from: Expr,
        to: Expr,
    },
    /// `swap a with b`: each zone gets the other's pieces, in their order.
    Swap(Expr, Expr),
    /// `reveal a, b` (to everyone) or `reveal a to p`.
    Reveal {
        pieces: Vec<Expr>,
        to: Option<Expr>,
    },
    /// `say "text {name}"` (to everyone) or `say "..." to p`: a line of the
    /// log in the designer's words.
    Say {
        text: String,
        /// Where the text stands, quotes included.
        text_span: Span,
        to: Option<Expr>,
    },
    /// `hide a, b`: face down again; who saw them remembers them.
    Hide(Vec<Expr>),
    /// `roll d`: the die gets one of its faces at random.
    Roll(Expr),
    /// `roll all of cup of p`: every die in the zone is rolled, top first.
    RollAll(Expr),
    /// `mover chooses { "label" for x in ... { ... } ... }`
    ChooseActions {
        who: Expr,
        actions: Vec<ActionEntry>,
        /// `else { ... }`: what happens when no action is on offer.
        otherwise: Option<Block>,
    },
    /// `win P`, with the reason said with the result (`win p "holds the
    /// highest card"`).
    Win(Expr, Option<String>),
    /// `declare draw "why"`
    DeclareDraw(Option<String>),
    EndGame,
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    /// `race each player calls shout from Hand, or silence, timed by reaction`
    Race {
        var: Ident,
        domain: Domain,
        time: Ident,
    },
    /// `phase NAME { ... }` / `step NAME { ... }`: a block a variant can replace.
    Named {
        kind: NamedKind,
        name: Ident,
        body: Block,
    },
}

#[derive(Clone, Debug)]
pub struct LValue {
    pub name: Ident,
    pub index: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DraftEntry {
    pub label: String,
    pub label_span: Span,
    pub when: Option<Expr>,
    pub body: Block,
}

/// Where a pieces domain looks.
#[derive(Clone, Debug)]
pub enum PiecePlace {
    /// `in ZONE`
    Zone(Expr),
    /// `on BOARD`: every slot of every space.
    Board(Ident),
}

/// What an action's parameter goes through.
#[derive(Clone, Debug)]
pub enum ParamSource {
    /// `name in DOMAIN`: one action per value.
    In(Box<Domain>),
    /// `name = EXPR`: the one value computed from the parameters before.
    Is(Expr),
}

/// One action of a `chooses { ... }` menu.
#[derive(Clone, Debug)]
pub struct ActionEntry {
    /// The label, with `{param}` placeholders.
    pub label: String,
    pub label_span: Span,
    pub params: Vec<(Ident, ParamSource)>,
    pub when: Option<Expr>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub enum Domain {
    Range(Expr, Expr),
    /// `Card in hand of player`, `Marker of p on board`
    Pieces {
        filter: Filter,
        place: PiecePlace,
        cond: Option<Expr>,
        /// `with Wild as each Hand`: pieces matching the filter are offered
        /// once per kind of the set, as that kind.
        wild: Option<(Filter, Ident)>,
    },
    Expr(Expr),
    /// `... where cond`: only the values for which `cond` holds (the
    /// chosen name is bound to the value while `cond` is checked).
    Where(Box<Domain>, Expr),
    /// `..., or silence`: a named "no choice" offered beside the values;
    /// `, or doubt when cond`: offered only while `cond` holds.
    OrNone(Box<Domain>, Ident, Option<Box<Expr>>),
}

#[derive(Clone, Debug)]
pub struct Filter {
    pub name: Ident,
    pub owner: Option<Box<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Beats,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Debug)]
pub enum TableRef {
    Inline(Vec<i64>),
    /// A `table` declaration or a `list of int` option.
    Named(Ident),
}

/// Which members of a domain a quantified condition asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantifier {
    /// `any`: at least one member.
    Any,
    /// `all`: every member (true of an empty domain).
    All,
    /// `no`: not one member (true of an empty domain).
    No,
}

impl Quantifier {
    /// The word that writes it.
    pub fn word(self) -> &'static str {
        match self {
            Quantifier::Any => "any",
            Quantifier::All => "all",
            Quantifier::No => "no",
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `player (n)`: the seat numbered `n` from 1, counted round the table.
    SeatAt(Box<Expr>),
    Int(i64),
    Bool(bool),
    // The text is kept for diagnostics to come; a string is refused as a value today.
    #[allow(dead_code)]
    Str(String),
    /// `player 2`
    Seat(i64),
    /// `player`, the player a score term or rank key is computed for.
    CurrentPlayer,
    Players,
    TotalScore,
    Name(Ident),
    /// `name of arg`: a zone of a player or space, a per-player variable, or a
    /// built-in such as `top of`, `kind of`, `opponent of`.
    Of {
        name: Ident,
        arg: Box<Expr>,
    },
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Count {
        filter: Filter,
        zone: Box<Expr>,
    },
    /// `count Card, spades in hand of p`: the pieces of a zone or a board
    /// that match every filter (at least two).
    CountMatching {
        filters: Vec<Filter>,
        place: Box<PiecePlace>,
    },
    /// `count Marker of p on rings`: in every slot of every space of a board.
    CountOnBoard {
        filter: Filter,
        board: Ident,
    },
    /// `count Gem`: every matching piece in the game, wherever it lies
    /// (pieces a `when` left out are not in the game).
    CountInGame {
        filter: Filter,
    },
    /// `outer[i]`: space `i` (from 0) of a ring of a board.
    SpaceAt {
        group: Ident,
        index: Box<Expr>,
    },
    Lines {
        filter: Filter,
        slot: Ident,
        board: Ident,
    },
    Sum {
        var: Ident,
        domain: Box<Domain>,
        body: Box<Expr>,
    },
    /// `any x in D { cond }`, `all x in D { cond }`, `no x in D { cond }`;
    /// without the condition, every member of the domain holds.
    Quantified {
        quantifier: Quantifier,
        var: Ident,
        domain: Box<Domain>,
        body: Option<Box<Expr>>,
    },
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Table {
        table: TableRef,
        index: Box<Expr>,
    },
    First {
        filter: Filter,
        zone: Box<Expr>,
    },
    /// `board[r, c]`: the space at row `r`, column `c` of a grid (from 1), or
    /// no space when off the board.
    CellAt {
        board: Ident,
        row: Box<Expr>,
        column: Box<Expr>,
    },
    /// `longest run of Disc of p in cell of board`
    LongestRun {
        filter: Filter,
        slot: Ident,
        board: Ident,
    },
    /// `chain of Stone of p in cell of board joins north to south`
    Chain {
        filter: Filter,
        slot: Ident,
        board: Ident,
        /// The two sides, in the order written (boxed: rare, and large).
        edges: Box<[Ident; 2]>,
    },
    /// `exists s`: whether a space value is on the board.
    Exists(Box<Expr>),
}
