//! The lowered program's instruction set: each op the inner loop runs
//! itself, and each fused run of ops, with the comparisons and arithmetic
//! they carry.

use crate::ir::{Attr, Matcher, Op};

/// A comparison, as in [`Op::Eq`] to [`Op::Ge`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub(super) fn of(op: Op) -> Option<Cmp> {
        Some(match op {
            Op::Eq => Cmp::Eq,
            Op::Ne => Cmp::Ne,
            Op::Lt => Cmp::Lt,
            Op::Le => Cmp::Le,
            Op::Gt => Cmp::Gt,
            Op::Ge => Cmp::Ge,
            _ => return None,
        })
    }

    #[inline(always)]
    pub(crate) fn holds(self, a: i64, b: i64) -> bool {
        match self {
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
        }
    }
}

/// Checked arithmetic, as in [`Op::Add`] to [`Op::Rem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl Arith {
    pub(super) fn of(op: Op) -> Option<Arith> {
        Some(match op {
            Op::Add => Arith::Add,
            Op::Sub => Arith::Sub,
            Op::Mul => Arith::Mul,
            Op::Div => Arith::Div,
            Op::Rem => Arith::Rem,
            _ => return None,
        })
    }

    /// `a op b`, or `None` on overflow or division by zero.
    #[inline(always)]
    pub(crate) fn apply(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Arith::Add => a.checked_add(b),
            Arith::Sub => a.checked_sub(b),
            Arith::Mul => a.checked_mul(b),
            Arith::Div => a.checked_div(b),
            Arith::Rem => a.checked_rem(b),
        }
    }

    /// The op this stands for, to report its failure.
    pub(crate) fn op(self) -> Op {
        match self {
            Arith::Add => Op::Add,
            Arith::Sub => Op::Sub,
            Arith::Mul => Op::Mul,
            Arith::Div => Op::Div,
            Arith::Rem => Op::Rem,
        }
    }
}

/// One instruction of the lowered program: an op of the checker's program,
/// or a fused run of them. The comment gives the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ins {
    /// An op the inner loop hands to `State::step`: the op at the same
    /// place in the checker's program. It carries nothing, so the
    /// instruction's tag is a plain byte, not shared with the op's.
    Slow,
    /// `Load(a) Load(b)`
    LoadLoad(u16, u16),
    /// `Load(slot) LoadVar(var) <cmp> JumpIf..(target)`: "bid where bid >
    /// current".
    LocalVarCmpJump {
        slot: u16,
        var: u16,
        cmp: Cmp,
        when: bool,
        target: u32,
    },
    /// `Load(slot) ZoneOf(family) Store(zone) Push(-1) Store(index)` right
    /// before the `NextPiece { zone, index, value, filter, .. }` they set up:
    /// a loop over the pieces of a space's zone ("defender in Stone of rival
    /// in spot of there") entered and stepped at once. The step keeps its
    /// own instruction, which the loop's jump back comes to; its exit is
    /// `exit_after` ops after it.
    EnterPieces {
        slot: u16,
        family: u16,
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        exit_after: u16,
    },
    /// A [`CellTest`] of the program's `cell_tests`, eight ops long.
    CellTestJump(u16),
    /// A loop that offers a seat every kind of a set (`each player chooses
    /// sign from Signs`), entered at its counter's `Push(0) Store(i)`: a
    /// [`KindOffer`] of the program's `kind_offers`, run whole.
    OfferKinds(u16),
    /// `Load(slot) ZoneOf(family) Count(matcher)`: "count Stone of rival in
    /// square of there", the matcher's type and owner still on the stack.
    CountInLocalZone { slot: u16, family: u16, matcher: Matcher },
    /// `Load(seat) Load(value) ChoiceAdd`: a plain value offered, such as a
    /// space or a card.
    OfferLocal { seat: u16, value: u16 },
    /// `Load(slot) Push(value)`
    LoadConst { slot: u16, value: i32 },
    /// `Store(store) Load(load)`
    StoreLoad { store: u16, load: u16 },
    /// `Load(from) Store(to)`
    Copy { from: u16, to: u16 },
    /// `Push(value) Store(slot)`
    SetLocal { slot: u16, value: i32 },
    /// `Load(slot) Push(value) Add Store(slot)`
    AddToLocal { slot: u16, value: i32 },
    /// `Load(slot) Push(value) Sub Store(slot)`
    SubFromLocal { slot: u16, value: i32 },
    /// `Push(value) <arith>`
    ArithConst { arith: Arith, value: i32 },
    /// `<cmp> JumpIfTrue(target)` when `when`, else `<cmp> JumpIfFalse(target)`
    CmpJump { cmp: Cmp, when: bool, target: u32 },
    /// `Push(value) <cmp> JumpIf..(target)`
    CmpConstJump {
        cmp: Cmp,
        when: bool,
        value: i32,
        target: u32,
    },
    /// `Load(slot) Push(value) <cmp> JumpIf..(target)`
    LocalCmpConstJump {
        slot: u16,
        cmp: Cmp,
        when: bool,
        value: i32,
        target: u32,
    },
    /// `Load(slot) ZoneOf(family) Size`
    LocalZoneSize { slot: u16, family: u16 },
    /// `ZoneOf(family) Size`
    ZoneSize(u16),
    /// `Load(slot) ZoneOf(family) Store(to)`: "the zone of this space", kept
    /// for a loop over its pieces.
    ZoneOfLocal { slot: u16, family: u16, to: u16 },
    /// `Load(slot) ZoneOf(family) Size Push(value) <cmp> JumpIf..(target)`:
    /// "if size of the zone of this space == 0".
    LocalZoneSizeJump {
        slot: u16,
        family: u16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
    },
    /// `CellAt(board) ZoneOf(family) Size Push(value) <cmp> JumpIf..(target)`:
    /// "if size of the zone at this row and column == 0".
    CellZoneSizeJump {
        board: u16,
        family: u16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
    },
    // The ops the inner loop runs itself, each an instruction of its own,
    // so that one dispatch on the instruction finds them.
    /// [`Op::Pop`]
    Pop,
    /// [`Op::Dup`]
    Dup,
    /// [`Op::LoadVarAt`]
    LoadVarAt(u16),
    /// [`Op::LoadOption`]
    LoadOption(u16),
    /// [`Op::Add`] to [`Op::Rem`]
    Arith(Arith),
    /// [`Op::Eq`] to [`Op::Ge`]
    Cmp(Cmp),
    /// [`Op::Not`]
    Not,
    /// [`Op::Neg`]
    Neg,
    /// [`Op::TypeAt`]
    TypeAt(u16),
    /// [`Op::Push`]
    Push(i64),
    /// [`Op::Load`]
    Load(u16),
    /// [`Op::Store`]
    Store(u16),
    /// [`Op::LoadAt`]
    LoadAt(u16),
    /// [`Op::LoadVar`]
    LoadVar(u16),
    /// [`Op::Jump`]
    Jump(u32),
    /// [`Op::JumpIfFalse`]
    JumpIfFalse(u32),
    /// [`Op::JumpIfTrue`]
    JumpIfTrue(u32),
    /// [`Op::Next`]
    Next { value: u16, last: u16, exit: u32 },
    /// [`Op::NextNeighbour`]
    NextNeighbour {
        board: u16,
        from: u16,
        value: u16,
        exit: u32,
    },
    /// [`Op::NextPiece`]
    NextPiece {
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        exit: u32,
    },
    /// [`Op::NextOnBoard`]
    NextOnBoard {
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
        exit: u32,
    },
    /// [`Op::ZoneOf`]
    ZoneOf(u16),
    /// [`Op::Size`]
    Size,
    /// [`Op::ChoiceAdd`]
    ChoiceAdd,
    /// [`Op::ChoiceReset`]
    ChoiceReset,
    /// [`Op::CellAt`]
    CellAt(u16),
    /// [`Op::Step`]
    Step(u16),
    /// [`Op::Forward`]
    Forward { board: u16, backward: bool },
    /// [`Op::ActionEntry`]
    ActionEntry(u16),
    /// [`Op::ActionParam`]
    ActionParam { decision: u16, entry: u16, param: u8 },
    /// [`Op::KindAt`]
    KindAt(u16),
    /// [`Op::Beats`]
    Beats,
    /// [`Op::Opponent`] and [`Op::NextSeat`], which run alike.
    NextSeat,
    /// [`Op::Count`]
    Count(Matcher),
    /// [`Op::Attr`]: "value of p", read in a count's loop.
    Attr(Attr),
    /// [`Op::Table`]: "table points at n", read in a score's loop.
    Table(u16),
    /// [`Op::CountInGame`]
    CountInGame(Matcher),
    /// [`Op::Return`]: every trigger, every condition of a piece or an
    /// `anytime` action ends in one, and a search runs those after every
    /// action.
    Return,
    /// [`Op::CountOnBoard`]
    CountOnBoard { board: u16, matcher: Matcher },
    /// `Load(a) Load(b) <arith>`
    LoadLoadArith { a: u16, b: u16, arith: Arith },
    /// `Push(value) <arith> Store(slot)`
    ArithConstStore { arith: Arith, value: i32, slot: u16 },
    /// `Load(space) Load(direction) Step(board) Store(to)`: "there = here + way".
    StepLocal {
        board: u16,
        space: u16,
        direction: u16,
        to: u16,
    },
    /// `Load(piece) SpaceOf(board) Store(to)`: "here = space of piece".
    SpaceOfLocal { board: u16, piece: u16, to: u16 },
    /// `Load(space) Load(direction) Step(board) Store(to) Load(to)
    /// Push(NO_SPACE) Eq JumpIfTrue(off_board)`: "there in here + way",
    /// passed over when off the board.
    StepLocalJump {
        board: u16,
        space: u16,
        direction: u16,
        to: u16,
        off_board: u32,
    },
    /// `Load(a) Load(b) <arith> Push(c) <arith> Push(d) <arith> Store(to)`:
    /// `((a op b) op c) op d` into a local, as a direction is turned from a
    /// seat's forward ("way in forwards of mover").
    ArithChainStore {
        a: u16,
        b: u16,
        c: i16,
        d: i16,
        ops: [Arith; 3],
        to: u16,
    },
    /// `Load(seat) Load(param)... ActionValue { .. } ChoiceAdd`, as
    /// [`Program::offers`]`[offer]` spells it out, `len` ops in all: one
    /// candidate move of a menu offered.
    OfferAction { offer: u16, len: u16 },
    /// A loop's `Jump(head)` back to its test, `head` (`back` ops before
    /// the jump) holding a [`Ins::LocalCmpConstJump`] with these fields:
    /// counts the round and runs the test at once.
    JumpLocalCmp {
        slot: u16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
        back: u16,
    },
    /// A loop's `Jump(head)` back to its `Next { value, last, exit }`:
    /// counts the round and takes the loop step at once.
    JumpNext {
        value: u16,
        last: u16,
        exit: u32,
        head: u32,
    },
    /// A loop's `Jump(head)` back to its `NextNeighbour { .. }`, likewise;
    /// its exit is `head + exit_after` (kept small for the instruction to
    /// stay two words).
    JumpNextNeighbour {
        board: u16,
        from: u16,
        value: u16,
        exit_after: u16,
        head: u32,
    },
    /// [`Ins::JumpNext`] of a loop whose body opens with a test that jumps
    /// back to this jump: a `where` on the size of a zone
    /// ([`Ins::LocalZoneSizeJump`], "cell where size of mark of cell == 0",
    /// or [`Ins::CellTestJump`], "column where size of cell of rack[1,
    /// column] == 0") or against a variable ([`Ins::LocalVarCmpJump`], "bid
    /// where bid > current"). The rounds whose test sends them back go by
    /// inside this one instruction. The test is read from the program at
    /// `head + 1`.
    JumpNextTested {
        value: u16,
        last: u16,
        exit: u32,
        head: u32,
    },
    /// [`Ins::JumpNextNeighbour`], tested the same way ("there in adjacent
    /// of here where size of spot of there == 0").
    JumpNextNeighbourTested {
        board: u16,
        from: u16,
        value: u16,
        exit_after: u16,
        head: u32,
    },
    /// [`Ins::AddToLocal`] right before the [`Ins::JumpLocalCmp`] on the
    /// same local: a counted loop's step, jump back and test in one ("way
    /// in forwards of mover" counts its three ways this way). The jump keeps
    /// its own instruction too, for whatever else jumps to it.
    AddJumpLocalCmp {
        slot: u16,
        add: i16,
        cmp: Cmp,
        when: bool,
        value: i16,
        target: u32,
        back: u16,
    },
    /// A loop's `Jump(head)` back to its test, `head` (`back` ops before
    /// the jump) holding the [`Ins::CellTestJump`] of this test: counts the
    /// round and runs the test at once ("while size of cell of rack[row,
    /// column] > 0").
    JumpCellTest { test: u16, back: u16 },
    /// A loop's `Jump(head)` back to its `NextPiece { .. }` (`back` ops
    /// before the jump), likewise: "card in hand of player".
    JumpNextPiece {
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
        back: u16,
        exit: u32,
    },
    /// A loop's `Jump(head)` back to its `NextOnBoard { .. }` (`back` ops
    /// before the jump), likewise: "stone in Stone of mover on field".
    JumpNextOnBoard {
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
        back: u16,
        exit: u32,
    },
}

// Instructions are copied out of the program one by one, like ops.
const _: () = assert!(std::mem::size_of::<Ins>() == 16);

/// How many ops of the checker's program an instruction stands for.
impl Ins {
    pub(crate) fn len(self) -> usize {
        match self {
            Ins::JumpNext { .. }
            | Ins::JumpNextNeighbour { .. }
            | Ins::JumpNextTested { .. }
            | Ins::JumpNextNeighbourTested { .. }
            | Ins::JumpNextPiece { .. }
            | Ins::JumpNextOnBoard { .. }
            | Ins::JumpCellTest { .. }
            | Ins::JumpLocalCmp { .. } => 1,
            Ins::OfferAction { len, .. } => len as usize,
            Ins::Slow
            | Ins::Pop
            | Ins::Dup
            | Ins::LoadVarAt(_)
            | Ins::LoadOption(_)
            | Ins::Arith(_)
            | Ins::Cmp(_)
            | Ins::Not
            | Ins::Neg
            | Ins::TypeAt(_)
            | Ins::Push(_)
            | Ins::Load(_)
            | Ins::Store(_)
            | Ins::LoadAt(_)
            | Ins::LoadVar(_)
            | Ins::Jump(_)
            | Ins::JumpIfFalse(_)
            | Ins::JumpIfTrue(_)
            | Ins::Next { .. }
            | Ins::NextNeighbour { .. }
            | Ins::NextPiece { .. }
            | Ins::NextOnBoard { .. }
            | Ins::ZoneOf(_)
            | Ins::Size
            | Ins::ChoiceAdd
            | Ins::ChoiceReset
            | Ins::CellAt(_)
            | Ins::Step(_)
            | Ins::Forward { .. }
            | Ins::ActionEntry(_)
            | Ins::ActionParam { .. }
            | Ins::KindAt(_)
            | Ins::Beats
            | Ins::NextSeat
            | Ins::Count(_)
            | Ins::Attr(_)
            | Ins::Table(_)
            | Ins::CountInGame(_)
            | Ins::Return
            | Ins::CountOnBoard { .. } => 1,
            Ins::LoadLoad(..)
            | Ins::LoadConst { .. }
            | Ins::StoreLoad { .. }
            | Ins::Copy { .. }
            | Ins::SetLocal { .. }
            | Ins::OfferKinds(_)
            | Ins::ArithConst { .. }
            | Ins::CmpJump { .. }
            | Ins::ZoneSize(_) => 2,
            Ins::CmpConstJump { .. }
            | Ins::LocalZoneSize { .. }
            | Ins::LoadLoadArith { .. }
            | Ins::OfferLocal { .. }
            | Ins::CountInLocalZone { .. }
            | Ins::ArithConstStore { .. }
            | Ins::SpaceOfLocal { .. }
            | Ins::ZoneOfLocal { .. } => 3,
            Ins::AddToLocal { .. }
            | Ins::SubFromLocal { .. }
            | Ins::LocalCmpConstJump { .. }
            | Ins::LocalVarCmpJump { .. }
            | Ins::StepLocal { .. } => 4,
            Ins::AddJumpLocalCmp { .. } | Ins::EnterPieces { .. } => 5,
            Ins::LocalZoneSizeJump { .. } | Ins::CellZoneSizeJump { .. } => 6,
            Ins::StepLocalJump { .. } | Ins::ArithChainStore { .. } | Ins::CellTestJump(_) => 8,
        }
    }
}
