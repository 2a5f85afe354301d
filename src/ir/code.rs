//! The instruction set of the flow program.
//!
//! A stack machine over `i64` values. Every value is a small integer whose
//! meaning the checker knows statically: a seat, a kind, a piece, a zone, a
//! space, a number or a boolean. Comments give the stack effect, top last.

// Documenting every public item is under way (issue 13); until then:
#![allow(missing_docs)]

use super::{DecisionId, ProcId, TypeId};

// Ops are copied out of the program one by one: keep them two words.
const _: () = assert!(std::mem::size_of::<Op>() == 16);

/// Which pieces a `count`, `first` or `lines` looks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matcher {
    pub by: MatchBy,
    /// The owner (a seat) is on the stack, above the type or kind if any.
    pub owner: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchBy {
    Any,
    Type(TypeId),
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
    pub matcher: Matcher,
    /// The local holding the type or kind (for `TypeOnStack`, `KindOnStack`).
    pub key: u16,
    /// The local holding the owner (when `matcher.owner`).
    pub owner: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    Kind,
    Value,
    Owner,
    Type,
}

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
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `a b -> a beats b` (kinds)
    Beats,
    /// `v -> !v`
    Not,
    /// `v -> -v`
    Neg,
    Jump(u32),
    /// `cond ->`
    JumpIfFalse(u32),
    /// `cond ->`
    JumpIfTrue(u32),
    /// Loop step: `local[value] += 1`; past `local[last]`, jump to `exit`.
    Next {
        value: u16,
        last: u16,
        exit: u32,
    },
    /// Loop step over the spaces `local[from]` touches: `local[value]`
    /// becomes the next one after it (start at -1); none left, jump to `exit`.
    NextNeighbour {
        board: u16,
        from: u16,
        value: u16,
        exit: u32,
    },
    /// Loop step over zone `local[zone]`, top first: `local[index]` (start
    /// at -1) moves to the next piece that passes `GameDef::filters[filter]`,
    /// which goes to `local[value]`; none left, jump to `exit`.
    NextPiece {
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        exit: u32,
    },
    /// Loop step over the pieces on a board, space by space, each space's
    /// slots in order, each zone top first: `local[cursor]` (start at -1)
    /// moves to the next piece that passes `GameDef::filters[filter]`, which
    /// goes to `local[value]`; none left, jump to `exit`.
    NextOnBoard {
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
        exit: u32,
    },
    /// `args.. -> results..`
    Call(ProcId),
    /// `results.. ->` leaves the procedure
    Return,
    /// `args.. -> result` (index into `GameDef::hook_calls`)
    CallHook(u16),
    /// `index -> zone` (first zone of the family + index)
    ZoneOf(u16),
    /// `zone -> piece` (error when empty)
    Top,
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
        board: u16,
        family: u16,
        matcher: Matcher,
    },
    /// `piece -> attribute`
    Attr(Attr),
    /// `piece -> the space of the board it stands on` (error when it is elsewhere)
    SpaceOf(u16),
    /// `i -> first + i`: space `i` of a ring (error when out of range)
    SpaceIn {
        first: u16,
        len: u16,
    },
    /// `[type|kind] [owner] -> n`: matching pieces in every slot of the board.
    CountOnBoard {
        board: u16,
        matcher: Matcher,
    },
    /// `params.. -> value`: one action of an action decision, encoded.
    ActionValue {
        decision: DecisionId,
        entry: u16,
    },
    /// `value -> the index of the chosen action`
    ActionEntry(DecisionId),
    /// `value -> parameter `param` of the chosen action`
    ActionParam {
        decision: DecisionId,
        entry: u16,
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
    /// `n -> table[n]` (index into `GameDef::tables`)
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
        to_one: bool,
    },
    /// `piece ->` face down again (who saw it remembers it).
    Hide,
    /// `seat ->` the game ends, that seat wins.
    Win,
    /// The game ends in a draw, for the reason in `GameDef::messages` if any.
    DeclareDraw(Option<u16>),
    /// Leave the flow and go to scoring and the result.
    EndGame,
    /// Empty every player's list of offered choices.
    ChoiceReset,
    /// `seat value ->` offer `value` to `seat`.
    ChoiceAdd,
    /// `seat -> whether anything is on offer to seat`
    HasOffers,
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
        board: u16,
        column: bool,
    },
    /// `space direction -> the next space that way`, or no space.
    Step(u16),
    /// `seat -> the direction it moves forward` (or backward) on the board.
    Forward {
        board: u16,
        backward: bool,
    },
    /// `[type|kind] [owner] -> the longest run` of spaces in a row, column
    /// or diagonal with a matching piece in the family's zone.
    LongestRun {
        board: u16,
        family: u16,
        matcher: Matcher,
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
