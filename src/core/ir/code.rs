//! The instruction set of the flow program.
//!
//! A stack machine over `i64` values. Every value is a small integer whose
//! meaning the checker knows statically: a seat, a kind, a piece, a zone, a
//! space, a number or a boolean. Comments give the stack effect, top last.

use super::id::{DecisionId, ProcId, TypeId};

// Ops are copied out of the program one by one: keep them two words.
const _: () = assert!(std::mem::size_of::<Op>() == 16);

/// Which pieces a `count`, `first` or `lines` looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matcher {
    /// What the pieces must be.
    pub by: MatchBy,
    /// The owner (a seat) is on the stack, above the type or kind if any.
    pub owner: bool,
}

/// What a [`Matcher`] tests a piece's type or kind against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchBy {
    /// Every piece.
    Any,
    /// Pieces of this type.
    Type(TypeId),
    /// Pieces of any type of this group (an index into the definition's groups).
    Group(u16),
    /// A piece type is on the stack.
    TypeOnStack,
    /// A kind is on the stack.
    KindOnStack,
}

/// The pieces a loop goes through: a matcher whose stack arguments were
/// computed once, before the loop, into locals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceFilter {
    /// The test; its stack arguments are read from the locals `key` and `owner`.
    pub matcher: Matcher,
    /// The local holding the type or kind (for `TypeOnStack`, `KindOnStack`).
    pub key: u16,
    /// The local holding the owner (when `matcher.owner`).
    pub owner: u16,
}

/// A piece attribute, read by [`Op::Attr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    /// Its kind; for a piece chosen "as" a kind, that kind (error when it has none).
    Kind,
    /// Its value.
    Value,
    /// The seat owning it (error when none).
    Owner,
    /// Its piece type.
    Type,
}

/// One instruction of the flow program ([`GameDef::code`](super::GameDef::code)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// `-> v`
    Push(i64),
    /// `v ->`
    Pop,
    /// `v -> v v`
    Dup,
    /// `-> local`
    Load(u16),
    /// `v ->`
    Store(u16),
    /// `i -> local[base + i]` (per-player choices)
    LoadAt(u16),
    /// `-> var`
    LoadVar(u16),
    /// `v ->`
    StoreVar(u16),
    /// `seat -> var[base + seat]`
    LoadVarAt(u16),
    /// `v seat ->`
    StoreVarAt(u16),
    /// `-> option value`
    LoadOption(u16),
    /// `a b -> a op b` (checked arithmetic; division by zero is a runtime error)
    Add,
    /// `a b -> a - b` (checked, as `Add`)
    Sub,
    /// `a b -> a * b` (checked, as `Add`)
    Mul,
    /// `a b -> a / b`, rounded toward zero (checked, as `Add`)
    Div,
    /// `a b -> a % b`, with the sign of `a` (checked, as `Add`)
    Rem,
    /// `a b -> a == b` (1 or 0)
    Eq,
    /// `a b -> a != b` (1 or 0)
    Ne,
    /// `a b -> a < b` (1 or 0)
    Lt,
    /// `a b -> a <= b` (1 or 0)
    Le,
    /// `a b -> a > b` (1 or 0)
    Gt,
    /// `a b -> a >= b` (1 or 0)
    Ge,
    /// `a b -> a beats b` (kinds)
    Beats,
    /// `v -> !v`
    Not,
    /// `v -> -v`
    Neg,
    /// `->` go to this pc.
    Jump(u32),
    /// `cond ->`
    JumpIfFalse(u32),
    /// `cond ->`
    JumpIfTrue(u32),
    /// Loop step: `local[value] += 1`; past `local[last]`, jump to `exit`.
    Next {
        /// The local holding the loop value.
        value: u16,
        /// The local holding the last value.
        last: u16,
        /// Where the loop exits (a pc).
        exit: u32,
    },
    /// Loop step over the spaces `local[from]` touches: `local[value]`
    /// becomes the next one after it (start at -1); none left, jump to `exit`.
    NextNeighbour {
        /// The board.
        board: u16,
        /// The local holding the space whose neighbours are visited.
        from: u16,
        /// The local holding the current neighbour.
        value: u16,
        /// Where the loop exits (a pc).
        exit: u32,
    },
    /// Loop step over zone `local[zone]`, top first: `local[index]` (start
    /// at -1) moves to the next piece that passes `GameDef::filters[filter]`,
    /// which goes to `local[value]`; none left, jump to `exit`.
    NextPiece {
        /// The local holding the zone.
        zone: u16,
        /// The local holding the current piece's place, counted from the top.
        index: u16,
        /// The local receiving the piece.
        value: u16,
        /// The filter: an index into `GameDef::filters`.
        filter: u16,
        /// Where the loop exits (a pc).
        exit: u32,
    },
    /// Loop step over the pieces on a board, space by space, each space's
    /// slots in order, each zone top first: `local[cursor]` (start at -1)
    /// moves to the next piece that passes `GameDef::filters[filter]`, which
    /// goes to `local[value]`; none left, jump to `exit`.
    NextOnBoard {
        /// The board.
        board: u16,
        /// The local holding the position: (zone number on the board) << 16 | (place in the zone, from the top).
        cursor: u16,
        /// The local receiving the piece.
        value: u16,
        /// The filter: an index into `GameDef::filters`.
        filter: u16,
        /// Where the loop exits (a pc).
        exit: u32,
    },
    /// `args.. -> results..`
    Call(ProcId),
    /// `results.. ->` leaves the procedure
    Return,
    /// The start of procedure `proc`'s code written into its caller's
    /// (by the compiled tier's inlining): counts the call as [`Op::Call`]
    /// does, and fails where it would for a flow stuck in its loops.
    Inlined(ProcId),
    /// `args.. -> result` (index into `GameDef::hook_calls`)
    CallHook(u16),
    /// `index -> zone` (first zone of the family + index)
    ZoneOf(u16),
    /// `zone -> piece` (error when empty)
    Top,
    /// `zone -> piece` at the bottom (error when empty)
    Bottom,
    /// `zone -> number of pieces`
    Size,
    /// `[type|kind] [owner] zone -> n`
    Count(Matcher),
    /// `[type|kind] [owner] zone -> piece` (error when none)
    First(Matcher),
    /// `[type|kind] [owner] piece -> bool`
    Matches(Matcher),
    /// `[type|kind] [owner] -> number of complete lines` of matching pieces in
    /// the family's zones over the board.
    Lines {
        /// The board whose lines are checked.
        board: u16,
        /// The zone family (one zone per space of the board) that must hold a match.
        family: u16,
        /// Which pieces count.
        matcher: Matcher,
    },
    /// `piece -> attribute`
    Attr(Attr),
    /// `piece -> the space of the board it stands on` (error when it is elsewhere)
    SpaceOf(u16),
    /// `i -> first + i`: space `i` of a ring (error when out of range)
    SpaceIn {
        /// The ring's first space.
        first: u16,
        /// The number of spaces of the ring.
        len: u16,
    },
    /// `[type|kind] [owner] -> n`: matching pieces in the whole game, wherever
    /// they lie (not those a `when` left in the box).
    CountInGame(Matcher),
    /// `[type|kind] [owner] -> n`: matching pieces in every slot of the board.
    CountOnBoard {
        /// The board.
        board: u16,
        /// Which pieces count.
        matcher: Matcher,
    },
    /// `params.. -> value`: one action of an action decision, encoded.
    ActionValue {
        /// The action decision.
        decision: DecisionId,
        /// The action: an index into its actions.
        entry: u16,
    },
    /// `value -> the index of the chosen action`
    ActionEntry(DecisionId),
    /// `value -> parameter `param` of the chosen action`
    ActionParam {
        /// The action decision.
        decision: DecisionId,
        /// The action: an index into its actions.
        entry: u16,
        /// The parameter: an index into the action's parameters.
        param: u8,
    },
    /// `seat -> the other seat` (two players)
    Opponent,
    /// `seat -> the next seat`
    NextSeat,
    /// `i -> kind set member i`
    KindAt(u16),
    /// `i -> type i of a group`
    TypeAt(u16),
    /// `n -> entry n of the table`, counting from 1: 0 below 1, the last entry
    /// past the end (index into `GameDef::tables`)
    Table(u16),
    /// `piece zone ->`
    Move,
    /// `from to ->`
    MoveAll,
    /// `n from to ->`
    Deal,
    /// `zone ->` (a chance outcome)
    Shuffle,
    /// `piece ->` to every player, or `piece seat ->` to one.
    Reveal {
        /// A seat is on the stack too: reveal to that seat only.
        to_one: bool,
    },
    /// `piece ->` face down again (who saw it remembers it).
    Hide,
    /// `a b ->` each zone gets the other's pieces, in their order.
    SwapZones,
    /// `values [seat] ->` a line of the log, `GameDef::says[line]`, with its
    /// values; to one seat when the line says so.
    Say(u16),
    /// `seat ->` the game ends, that seat wins, for the reason in
    /// `GameDef::messages` if the rules say one.
    Win(Option<u16>),
    /// The game ends in a draw, for the reason in `GameDef::messages` if any.
    DeclareDraw(Option<u16>),
    /// Leave the flow and go to scoring and the result.
    EndGame,
    /// Empty every player's list of offered choices.
    ChoiceReset,
    /// `seat value ->` offer `value` to `seat`.
    ChoiceAdd,
    /// `seat -> whether anything is on offer to seat` at this decision;
    /// when nothing is, that is recorded ([`crate::engine::Event::NoChoice`]).
    HasOffers(DecisionId),
    /// `seat ->` ask one player; on resume `-> value`.
    Ask(DecisionId),
    /// Ask every player at once; on resume, each choice is stored in
    /// `local[base + seat]`.
    AskEach(DecisionId, u16),
    /// Score every player and rank by the result keys; a strict leader wins
    /// and the game is over, otherwise the flow goes on (the `else` block).
    Rank,
    /// A runtime error at this op's span (e.g. a procedure fell off its end).
    Fail(u16),
    /// `n -> entry n of the list option` (same rules as `Table`).
    OptionTable(u16),
    /// `-> how many items the list option holds` (`length of`).
    OptionLength(u16),
    /// Ends an `anytime` action: the decision it interrupted is asked again.
    ResumeAsk,
    /// `piece ->` the die gets one of its faces at random (a chance event).
    Roll,
    /// `zone ->` every die in the zone is rolled, top first.
    RollAll,
    /// `row column -> space` of a grid (from 1), or no space off the board.
    CellAt(u16),
    /// `space -> its row` (or column, from 1); no space is an error.
    Coordinate {
        /// The grid board.
        board: u16,
        /// The column if true, else the row.
        column: bool,
    },
    /// `space direction -> the next space that way`, or no space.
    Step(u16),
    /// `seat -> the direction it moves forward` (or backward) on the board.
    Forward {
        /// The grid board.
        board: u16,
        /// Backward (the opposite direction) if true.
        backward: bool,
    },
    /// `[type|kind] [owner] -> the longest run` of spaces in a row, column
    /// or diagonal with a matching piece in the family's zone.
    LongestRun {
        /// The grid board.
        board: u16,
        /// The slot (a family of one zone per space) looked in.
        family: u16,
        /// Which pieces count.
        matcher: Matcher,
    },
    /// `[type|kind] [owner] -> whether` spaces with a matching piece in
    /// the family's zone, each touching the next, link the two edges.
    Chain {
        /// The grid board.
        board: u16,
        /// The slot (a family of one zone per space) looked in.
        family: u16,
        /// Which pieces count.
        matcher: Matcher,
        /// The first edge, as the direction past it (north: the top row).
        from: u8,
        /// The other edge.
        to: u8,
    },
}

impl Op {
    /// Where this op may jump, for ops that jump.
    pub(crate) fn target(self) -> Option<u32> {
        match self {
            Op::Jump(t) | Op::JumpIfFalse(t) | Op::JumpIfTrue(t) => Some(t),
            Op::Next { exit, .. }
            | Op::NextNeighbour { exit, .. }
            | Op::NextPiece { exit, .. }
            | Op::NextOnBoard { exit, .. } => Some(exit),
            _ => None,
        }
    }

    /// The same op jumping to `target` instead.
    pub(crate) fn with_target(mut self, target: u32) -> Op {
        match &mut self {
            Op::Jump(t) | Op::JumpIfFalse(t) | Op::JumpIfTrue(t) => *t = target,
            Op::Next { exit, .. }
            | Op::NextNeighbour { exit, .. }
            | Op::NextPiece { exit, .. }
            | Op::NextOnBoard { exit, .. } => *exit = target,
            _ => {}
        }
        self
    }
}
