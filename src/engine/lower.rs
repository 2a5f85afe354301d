//! The program the interpreter runs: the checked flow program with common
//! runs of small ops fused into one instruction each (superinstructions).
//!
//! The interpreter's cost is mostly dispatch, one indirect jump per op, and
//! the checker's code is made of small stack ops: `i < 3` is `Load(i)
//! Push(3) Lt JumpIfFalse(exit)`. Fusing such runs removes most of those
//! jumps without changing what runs.
//!
//! The lowered program keeps the checker's numbering: a fused instruction
//! sits where its run began, the ops after it stay in place (only reached
//! through it), and every pc, jump target, span and resume point means what
//! it meant. A run is fused only when no jump lands inside it, and the
//! interpreter points an error inside a run at the op that failed.

use super::reach::{blind_to_faces, offers_blind_to_faces, only_reads};
use super::tally::TallyLayout;
use super::watch::TriggerWatch;
use crate::ir::grid::{DIRECTIONS, NO_SPACE};
use crate::ir::{Attr, Board, ChoiceKind, GameDef, KeyReads, MatchBy, Matcher, Op};

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
    fn of(op: Op) -> Option<Cmp> {
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
    fn of(op: Op) -> Option<Arith> {
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
    /// a loop over the pieces of a space's zone ("defender in Pawn of rival
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
    /// `Load(slot) ZoneOf(family) Count(matcher)`: "count Pawn of rival in
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
    /// before the jump), likewise: "pawn in Pawn of mover on field".
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

/// What the interpreter runs for a definition: the lowered program and the
/// tables its instructions read, built once with the game.
#[derive(Debug)]
pub(crate) struct Program {
    /// One instruction per op of `def.code`, at the same index.
    pub(crate) ins: Vec<Ins>,
    /// The candidate moves [`Ins::OfferAction`] offers.
    pub(crate) offers: Vec<Offer>,
    /// The tests [`Ins::CellTestJump`] makes.
    pub(crate) cell_tests: Vec<CellTest>,
    /// The loops [`Ins::OfferKinds`] runs.
    pub(crate) kind_offers: Vec<KindOffer>,
    /// Per board, where a step from each space leads ([`Op::Step`]).
    pub(crate) steps: Vec<Steps>,
    /// Per board that fits in 64 bits, each space's bit for
    /// [`Op::LongestRun`] (see [`Board::run_bits`]).
    pub(crate) run_bits: Vec<Option<Vec<u8>>>,
    /// Per board, how [`Op::CountOnBoard`] counts its pieces.
    pub(crate) counts: Vec<BoardCount>,
    /// How many pieces of each type and kind the game has ([`Op::CountInGame`]).
    pub(crate) totals: PieceTotals,
    /// Which types each zone's tally counts ([`super::tally`]).
    pub(crate) tally: TallyLayout,
    /// Per `anytime` action, the option that, when off, makes its condition
    /// false without running it (see [`option_guard`]).
    pub(crate) anytime_guards: Vec<Option<u16>>,
    /// Per op, whether it is a `ChoiceReset` whose offers no deal of hidden
    /// faces can change (see [`offers_blind_to_faces`]): a sampled world
    /// keeps the real game's offers instead of building them again.
    pub(crate) blind_offers: Vec<bool>,
    /// Per `anytime` action, whether its condition reads no face.
    pub(crate) blind_anytime: Vec<bool>,
    /// Which triggers need not run again while nothing they count moves.
    pub(crate) watch: TriggerWatch,
    /// Per score term, the option its `when` only tests, if that is all it
    /// does (see [`OptionTest`]).
    pub(crate) term_guards: Vec<Option<OptionTest>>,
    /// Whether every result key is `score` or a term's name (see
    /// [`crate::ir::KeyReads`]) and every score term and `when` only reads
    /// the game: the keys may then read the points just scored instead of
    /// computing them again.
    pub(crate) keys_read_points: bool,
}

/// A condition that is one option, or its negation: `when bonus_rule`,
/// `when not expansion`. Options do not change during a game, and the test
/// has no effect, so it is read without running code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OptionTest {
    pub(crate) option: u16,
    /// Whether the condition holds when the option is on.
    pub(crate) when_on: bool,
}

impl OptionTest {
    /// The test the code at `entry` makes, if it makes just that one.
    fn of(code: &[Op], entry: u32) -> Option<OptionTest> {
        match code.get(entry as usize..)? {
            [Op::LoadOption(option), Op::Return, ..] => Some(OptionTest {
                option: *option,
                when_on: true,
            }),
            [Op::LoadOption(option), Op::Not, Op::Return, ..] => Some(OptionTest {
                option: *option,
                when_on: false,
            }),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn holds(self, options: &[i64]) -> bool {
        (options[usize::from(self.option)] != 0) == self.when_on
    }
}

/// How many pieces of the definition match each filter, per owner.
///
/// [`Op::CountInGame`] counts the pieces outside the box. A sampled world
/// deals the faces it redeals among pieces outside the box, so the faces of
/// all pieces are always the definition's pieces in some order: the count is
/// these totals less the matching pieces in the box, which is usually empty.
#[derive(Debug)]
pub(crate) struct PieceTotals {
    /// Columns per row: any owner, then each seat.
    columns: usize,
    /// A row per piece type.
    by_type: Vec<u32>,
    /// A row per kind.
    by_kind: Vec<u32>,
    /// One row: every piece.
    any: Vec<u32>,
}

impl PieceTotals {
    fn of(def: &GameDef) -> PieceTotals {
        let columns = def.seats.len() + 1;
        let mut totals = PieceTotals {
            columns,
            by_type: vec![0; def.piece_types.len() * columns],
            by_kind: vec![0; def.kinds.len() * columns],
            any: vec![0; columns],
        };
        for piece in &def.pieces {
            let add = |table: &mut Vec<u32>, row: usize| {
                table[row * columns] += 1;
                if let Some(owner) = piece.owner {
                    table[row * columns + 1 + usize::from(owner)] += 1;
                }
            };
            add(&mut totals.by_type, usize::from(piece.ty));
            if let Some(kind) = piece.kind {
                add(&mut totals.by_kind, usize::from(kind));
            }
            add(&mut totals.any, 0);
        }
        totals
    }

    /// How many pieces of the definition `m` matches with these arguments
    /// (`key` for a type or kind on the stack, `owner` when it filters by owner).
    pub(crate) fn of_matcher(&self, def: &GameDef, m: Matcher, key: i64, owner: i64) -> i64 {
        let column = if !m.owner {
            0
        } else {
            match usize::try_from(owner) {
                Ok(seat) if seat + 1 < self.columns => seat + 1,
                _ => return 0,
            }
        };
        let row = |table: &[u32], row: i64| -> i64 {
            usize::try_from(row)
                .ok()
                .and_then(|row| table.get(row * self.columns + column))
                .map_or(0, |&n| i64::from(n))
        };
        match m.by {
            MatchBy::Any => row(&self.any, 0),
            MatchBy::Type(ty) => row(&self.by_type, i64::from(ty)),
            MatchBy::Group(group) => {
                // A type the group names twice still matches each piece once.
                let types = &def.groups[group as usize].types;
                (types.iter().enumerate())
                    .filter(|&(at, ty)| !types[..at].contains(ty))
                    .map(|(_, &ty)| row(&self.by_type, i64::from(ty)))
                    .sum()
            }
            MatchBy::TypeOnStack => row(&self.by_type, key),
            MatchBy::KindOnStack => row(&self.by_kind, key),
        }
    }
}

/// How [`Op::CountOnBoard`] counts the pieces on a board: zone by zone, or,
/// when the game has fewer pieces than the board has zones, piece by piece
/// (every piece is in exactly one zone, so both give the same number).
#[derive(Debug)]
pub(crate) enum BoardCount {
    /// Go through the board's slot zones.
    ByZones,
    /// Go through the pieces; the flag per zone of the game says whether
    /// it is one of the board's slots.
    ByPieces(Vec<bool>),
}

impl BoardCount {
    fn of(def: &GameDef, board: &Board) -> BoardCount {
        let mut on_board = vec![false; def.zones.len()];
        let mut zones = 0;
        for &family in &board.slots {
            let f = &def.families[family as usize];
            for zone in f.first..f.first + f.len {
                // A zone listed twice is counted twice zone by zone.
                if std::mem::replace(&mut on_board[zone as usize], true) {
                    return BoardCount::ByZones;
                }
                zones += 1;
            }
        }
        if def.pieces.len() < zones {
            BoardCount::ByPieces(on_board)
        } else {
            BoardCount::ByZones
        }
    }
}

/// The most parameters of an action [`Ins::OfferAction`] offers in one go;
/// a larger action is offered op by op.
pub(crate) const MAX_OFFER_PARAMS: usize = 8;

/// One [`Ins::OfferAction`]: the menu entry offered, and the locals holding
/// the seat and the action's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Offer {
    pub(crate) decision: u16,
    pub(crate) entry: u16,
    pub(crate) seat: u16,
    pub(crate) params: Vec<u16>,
}

/// Where a [`CellTest`] takes its row or its column from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// `Push(value)`
    Number(i64),
    /// `Load(slot)`
    Local(u16),
}

impl Operand {
    fn of(op: Op) -> Option<Operand> {
        match op {
            Op::Push(v) => Some(Operand::Number(v)),
            Op::Load(slot) => Some(Operand::Local(slot)),
            _ => None,
        }
    }
}

/// The run `<row> <column> CellAt(board) ZoneOf(family) Size Push(value)
/// <cmp> JumpIf..(target)`, row and column each a number or a local: "where
/// size of cell of rack[1, column] == 0". Too wide for an instruction, so
/// [`Ins::CellTestJump`] holds its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellTest {
    pub(crate) row: Operand,
    pub(crate) column: Operand,
    pub(crate) board: u16,
    pub(crate) family: u16,
    pub(crate) cmp: Cmp,
    pub(crate) when: bool,
    pub(crate) value: i64,
    pub(crate) target: u32,
}

impl CellTest {
    /// The test that is exactly the eight ops of `run`, if they are one.
    fn of(run: &[Op]) -> Option<CellTest> {
        let [
            row,
            column,
            Op::CellAt(board),
            Op::ZoneOf(family),
            Op::Size,
            Op::Push(value),
            cmp,
            jump,
        ] = *run
        else {
            return None;
        };
        let (when, target) = match jump {
            Op::JumpIfTrue(t) => (true, t),
            Op::JumpIfFalse(t) => (false, t),
            _ => return None,
        };
        Some(CellTest {
            row: Operand::of(row)?,
            column: Operand::of(column)?,
            board,
            family,
            cmp: Cmp::of(cmp)?,
            when,
            value,
            target,
        })
    }
}

/// A grid board's steps, looked up rather than worked out from rows and
/// columns at every step of a move generator.
#[derive(Debug)]
pub(crate) struct Steps {
    /// Per space, the space one step away in each compass direction, or
    /// [`NO_SPACE`].
    to: Vec<[i16; DIRECTIONS.len()]>,
}

impl Steps {
    fn of(board: &Board) -> Steps {
        let to = (0..board.spaces())
            .map(|space| {
                std::array::from_fn(|direction| {
                    // A board has at most 4096 spaces (see `Board::spaces`).
                    board.step(i64::from(space), direction as i64) as i16
                })
            })
            .collect();
        Steps { to }
    }

    /// The same as [`Board::step`]: one step from `space` toward
    /// `direction`, or [`NO_SPACE`].
    #[inline(always)]
    pub(crate) fn step(&self, space: i64, direction: i64) -> i64 {
        let (Ok(space), Ok(direction)) = (usize::try_from(space), usize::try_from(direction)) else {
            return NO_SPACE;
        };
        match self.to.get(space).and_then(|to| to.get(direction)) {
            Some(&to) => i64::from(to),
            None => NO_SPACE,
        }
    }
}

/// The lowered program of a definition, and its tables.
pub(crate) fn lower(def: &GameDef) -> Program {
    let code = &def.code;
    let landed = landing_sites(def);
    let mut program: Vec<Ins> = vec![Ins::Slow; code.len()];
    let mut offers: Vec<Offer> = vec![];
    let mut cell_tests: Vec<CellTest> = vec![];
    let mut pc = 0;
    while pc < code.len() {
        // Fuse only a run nothing jumps into; it may be jumped to itself.
        let free = |len: usize| pc + len <= code.len() && (pc + 1..pc + len).all(|at| !landed[at]);
        let offered = offer_run(def, &code[pc..])
            .filter(|(_, len)| free(*len))
            .and_then(|(offer, len)| {
                let ins = Ins::OfferAction {
                    offer: u16::try_from(offers.len()).ok()?,
                    len: u16::try_from(len).ok()?,
                };
                offers.push(offer);
                Some(ins)
            });
        let tested = || {
            let test = CellTest::of(code.get(pc..pc + 8)?).filter(|_| free(8))?;
            let ins = Ins::CellTestJump(u16::try_from(cell_tests.len()).ok()?);
            cell_tests.push(test);
            Some(ins)
        };
        let fused = offered.or_else(tested).or_else(|| {
            [8, 6, 4, 3, 2]
                .into_iter()
                .filter(|&len| free(len))
                .find_map(|len| fuse(&code[pc..pc + len]))
        });
        match fused {
            Some(ins) => {
                program[pc] = ins;
                pc += ins.len();
            }
            None => {
                program[pc] = thread_back_jump(code, &program, &cell_tests, pc).unwrap_or_else(|| single(code[pc]));
                pc += 1;
            }
        }
    }
    join_counted_steps(&mut program);
    join_piece_loop_entries(code, &mut program);
    let kind_offers = join_kind_offer_loops(def, code, &mut program);
    Program {
        ins: program,
        offers,
        cell_tests,
        kind_offers,
        steps: def.boards.iter().map(Steps::of).collect(),
        run_bits: def.boards.iter().map(Board::run_bits).collect(),
        counts: def.boards.iter().map(|board| BoardCount::of(def, board)).collect(),
        totals: PieceTotals::of(def),
        tally: TallyLayout::of(def, code),
        anytime_guards: def
            .anytime
            .iter()
            .map(|action| option_guard(code, def.procs[action.when as usize].entry))
            .collect(),
        blind_offers: (0..code.len()).map(|pc| offers_blind_to_faces(def, pc)).collect(),
        blind_anytime: def
            .anytime
            .iter()
            .map(|action| blind_to_faces(def, action.when))
            .collect(),
        watch: TriggerWatch::of(def),
        term_guards: def
            .score_terms
            .iter()
            .map(|term| OptionTest::of(code, def.procs[usize::from(term.when?)].entry))
            .collect(),
        keys_read_points: def.rank_keys.iter().all(|key| key.reads != KeyReads::Other)
            && def
                .score_terms
                .iter()
                .flat_map(|term| std::iter::once(term.proc).chain(term.when))
                .all(|proc| only_reads(def, proc)),
    }
}

/// The option that, when off, makes the condition starting at `entry`
/// return false at once, if there is one: `when module_on and ...` starts
/// `LoadOption(module_on) Dup JumpIfFalse`, and the jump leads, through the
/// `Dup JumpIfFalse` of any further `and`, to the `Return`, which gives
/// the option's 0. Nothing on that path has an effect, so not running it
/// changes nothing. An `anytime` action a module's option turns off is
/// asked about at every decision: this keeps that cheap.
fn option_guard(code: &[Op], entry: u32) -> Option<u16> {
    let entry = entry as usize;
    let (Op::LoadOption(option), Op::Dup, Op::JumpIfFalse(mut to)) =
        (*code.get(entry)?, *code.get(entry + 1)?, *code.get(entry + 2)?)
    else {
        return None;
    };
    loop {
        match (*code.get(to as usize)?, code.get(to as usize + 1).copied()) {
            (Op::Return, _) => return Some(option),
            // Forward only, so the walk ends.
            (Op::Dup, Some(Op::JumpIfFalse(next))) if next > to => to = next,
            _ => return None,
        }
    }
}

/// Joins each counted loop's step to the jump back right after it (see
/// [`Ins::AddJumpLocalCmp`]). The step's own ops are a fused run nothing
/// jumps into, and the jump stays in place, so any other way in still works.
fn join_counted_steps(program: &mut [Ins]) {
    for pc in 0..program.len() {
        let Ins::AddToLocal { slot, value } = program[pc] else {
            continue;
        };
        let Some(&Ins::JumpLocalCmp {
            slot: tested,
            cmp,
            when,
            value: bound,
            target,
            back,
        }) = program.get(pc + 4)
        else {
            continue;
        };
        if let (true, Ok(add)) = (tested == slot, i16::try_from(value)) {
            program[pc] = Ins::AddJumpLocalCmp {
                slot,
                add,
                cmp,
                when,
                value: bound,
                target,
                back,
            };
        }
    }
}

/// Joins the set-up of each loop over the pieces of a space's zone to its
/// first step (see [`Ins::EnterPieces`]). The set-up is two fused runs,
/// the zone kept and the place reset, that nothing jumps into but the
/// first; the step stays in place for the loop's jump back.
fn join_piece_loop_entries(code: &[Op], program: &mut [Ins]) {
    for pc in 0..program.len() {
        let (Ins::ZoneOfLocal { slot, family, to }, Some(&Ins::SetLocal { slot: reset, value: -1 })) =
            (program[pc], program.get(pc + 3))
        else {
            continue;
        };
        let Some(&Op::NextPiece {
            zone,
            index,
            value,
            filter,
            exit,
        }) = code.get(pc + 5)
        else {
            continue;
        };
        let exit_after = (exit as usize)
            .checked_sub(pc + 5)
            .and_then(|after| u16::try_from(after).ok());
        if let (true, Some(exit_after)) = (zone == to && index == reset, exit_after) {
            program[pc] = Ins::EnterPieces {
                slot,
                family,
                zone,
                index,
                value,
                filter,
                exit_after,
            };
        }
    }
}

/// A loop offering a seat each kind of a set, as `chooses x from Kinds`
/// compiles:
///
/// ```text
///  0 Push(0) Store(i)                       i = 0
///  2 Load(i) Push(n) Lt JumpIfFalse(17)     while i < n
///  6 Load(i) KindAt(set) Store(k)             k = member i of the set
///  9 Load(seat) Load(k) ChoiceAdd             offer k to seat
/// 12 Load(i) Push(1) Add Store(i) Jump(2)     i += 1
/// ```
///
/// A choice of kinds that every player makes at once, every round, runs it
/// for each seat: six instructions a kind, one instruction so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindOffer {
    pub(crate) seat: u16,
    pub(crate) index: u16,
    pub(crate) kind: u16,
    pub(crate) set: u16,
    /// How many kinds: the first `count` members of the set.
    pub(crate) count: u16,
}

/// The length of a [`KindOffer`] loop, from its `Push(0)` to past its jump back.
pub(crate) const KIND_OFFER_LEN: usize = 17;

impl KindOffer {
    fn of(def: &GameDef, code: &[Op], at: usize) -> Option<KindOffer> {
        let head = u32::try_from(at + 2).ok()?;
        let exit = u32::try_from(at + KIND_OFFER_LEN).ok()?;
        let &[
            Op::Push(0),
            Op::Store(i),
            Op::Load(i1),
            Op::Push(n),
            Op::Lt,
            Op::JumpIfFalse(out),
            Op::Load(i2),
            Op::KindAt(set),
            Op::Store(k),
            Op::Load(seat),
            Op::Load(k1),
            Op::ChoiceAdd,
            Op::Load(i3),
            Op::Push(1),
            Op::Add,
            Op::Store(i4),
            Op::Jump(back),
        ] = code.get(at..at + KIND_OFFER_LEN)?
        else {
            return None;
        };
        let members = def.kind_sets.get(usize::from(set))?.members.len();
        let count = u16::try_from(n).ok().filter(|&n| usize::from(n) <= members)?;
        let locals_agree = [i1, i2, i3, i4].iter().all(|&slot| slot == i) && k1 == k && k != i;
        // The seat is read each round: the loop must not write it.
        (locals_agree && out == exit && back == head && seat != i && seat != k).then_some(KindOffer {
            seat,
            index: i,
            kind: k,
            set,
            count,
        })
    }
}

/// Gives each [`KindOffer`] loop its entry instruction, in place of the
/// counter's `SetLocal`, and returns the loops. The loop's own instructions
/// stay: its jump back comes to them, and so does the entry when a round
/// could be the one that makes the flow endless.
fn join_kind_offer_loops(def: &GameDef, code: &[Op], program: &mut [Ins]) -> Vec<KindOffer> {
    // How many ways lead to each op but from the op before it.
    let mut ways_in = vec![0u32; code.len() + 1];
    let entries = def.procs.iter().map(|p| p.entry).chain([def.result_pc]);
    for target in code.iter().filter_map(|op| op.target()).chain(entries) {
        if let Some(ways) = ways_in.get_mut(target as usize) {
            *ways += 1;
        }
    }
    let mut loops = vec![];
    for (at, ins) in program.iter_mut().enumerate() {
        if !matches!(ins, Ins::SetLocal { value: 0, .. }) {
            continue;
        }
        let Some(offer) = KindOffer::of(def, code, at) else {
            continue;
        };
        // Only the loop's own jump back comes into it (none of its ops
        // hands control away and comes back).
        let entered_only_at_its_head = (at + 1..at + KIND_OFFER_LEN).all(|pc| ways_in[pc] == u32::from(pc == at + 2));
        if let (true, Ok(index)) = (entered_only_at_its_head, u16::try_from(loops.len())) {
            *ins = Ins::OfferKinds(index);
            loops.push(offer);
        }
    }
    loops
}

/// The instruction for one op alone: its own, for the ops the inner loop
/// runs itself, else [`Ins::Slow`].
fn single(op: Op) -> Ins {
    match op {
        Op::Push(v) => Ins::Push(v),
        Op::Load(slot) => Ins::Load(slot),
        Op::Store(slot) => Ins::Store(slot),
        Op::LoadAt(base) => Ins::LoadAt(base),
        Op::LoadVar(slot) => Ins::LoadVar(slot),
        Op::Jump(t) => Ins::Jump(t),
        Op::JumpIfFalse(t) => Ins::JumpIfFalse(t),
        Op::JumpIfTrue(t) => Ins::JumpIfTrue(t),
        Op::Next { value, last, exit } => Ins::Next { value, last, exit },
        Op::NextNeighbour {
            board,
            from,
            value,
            exit,
        } => Ins::NextNeighbour {
            board,
            from,
            value,
            exit,
        },
        Op::NextPiece {
            zone,
            index,
            value,
            filter,
            exit,
        } => Ins::NextPiece {
            zone,
            index,
            value,
            filter,
            exit,
        },
        Op::NextOnBoard {
            board,
            cursor,
            value,
            filter,
            exit,
        } => Ins::NextOnBoard {
            board,
            cursor,
            value,
            filter,
            exit,
        },
        Op::ZoneOf(family) => Ins::ZoneOf(family),
        Op::Size => Ins::Size,
        Op::ChoiceAdd => Ins::ChoiceAdd,
        Op::CellAt(board) => Ins::CellAt(board),
        Op::Step(board) => Ins::Step(board),
        Op::Forward { board, backward } => Ins::Forward { board, backward },
        Op::ActionEntry(decision) => Ins::ActionEntry(decision),
        Op::ActionParam { decision, entry, param } => Ins::ActionParam { decision, entry, param },
        Op::KindAt(set) => Ins::KindAt(set),
        Op::Beats => Ins::Beats,
        Op::Opponent | Op::NextSeat => Ins::NextSeat,
        Op::Count(matcher) => Ins::Count(matcher),
        Op::Attr(attr) => Ins::Attr(attr),
        Op::Table(table) => Ins::Table(table),
        Op::CountInGame(matcher) => Ins::CountInGame(matcher),
        Op::Return => Ins::Return,
        Op::CountOnBoard { board, matcher } => Ins::CountOnBoard { board, matcher },
        Op::Pop => Ins::Pop,
        Op::Dup => Ins::Dup,
        Op::LoadVarAt(base) => Ins::LoadVarAt(base),
        Op::LoadOption(i) => Ins::LoadOption(i),
        Op::Not => Ins::Not,
        Op::Neg => Ins::Neg,
        Op::TypeAt(group) => Ins::TypeAt(group),
        op => match (Arith::of(op), Cmp::of(op)) {
            (Some(arith), _) => Ins::Arith(arith),
            (_, Some(cmp)) => Ins::Cmp(cmp),
            _ => Ins::Slow,
        },
    }
}

/// The [`Offer`] of a run `Load(seat) Load(param)... ActionValue ChoiceAdd`
/// at the start of `code`, loading exactly the action's parameters, and the
/// run's length.
fn offer_run(def: &GameDef, code: &[Op]) -> Option<(Offer, usize)> {
    let loads = code.iter().take_while(|op| matches!(op, Op::Load(_))).count();
    let (Op::ActionValue { decision, entry }, Op::ChoiceAdd) = (*code.get(loads)?, *code.get(loads + 1)?) else {
        return None;
    };
    let ChoiceKind::Actions(actions) = &def.decisions.get(decision as usize)?.kind else {
        return None;
    };
    let params = actions.get(entry as usize)?.params.len();
    // The seat and the parameters, and nothing else loaded before them.
    if params > MAX_OFFER_PARAMS || loads != params + 1 {
        return None;
    }
    let slot = |op: &Op| match *op {
        Op::Load(slot) => slot,
        _ => unreachable!("counted as loads above"),
    };
    let offer = Offer {
        decision,
        entry,
        seat: slot(&code[0]),
        params: code[1..loads].iter().map(slot).collect(),
    };
    Some((offer, loads + 2))
}

/// For a loop's jump back to its step or its test, the jump and the step
/// or test in one instruction (and, for a step whose body first tests the
/// size of a zone and comes back here when the test fails, that test too);
/// `None` for any other op.
fn thread_back_jump(code: &[Op], program: &[Ins], cell_tests: &[CellTest], pc: usize) -> Option<Ins> {
    let Op::Jump(head) = code[pc] else {
        return None;
    };
    if head as usize > pc {
        return None;
    }
    if let Ins::LocalCmpConstJump {
        slot,
        cmp,
        when,
        value,
        target,
    } = program[head as usize]
        && let Ok(value) = i16::try_from(value)
        && let Ok(back) = u16::try_from(pc - head as usize)
    {
        return Some(Ins::JumpLocalCmp {
            slot,
            cmp,
            when,
            value,
            target,
            back,
        });
    }
    if let Ins::CellTestJump(test) = program[head as usize] {
        return Some(Ins::JumpCellTest {
            test,
            back: u16::try_from(pc - head as usize).ok()?,
        });
    }
    let tested = match program.get(head as usize + 1) {
        Some(&Ins::LocalZoneSizeJump { target, .. }) => target as usize == pc,
        Some(&Ins::CellTestJump(test)) => cell_tests[test as usize].target as usize == pc,
        Some(&Ins::LocalVarCmpJump { target, .. }) => target as usize == pc,
        _ => false,
    };
    Some(match code[head as usize] {
        Op::Next { value, last, exit } if tested => Ins::JumpNextTested {
            value,
            last,
            exit,
            head,
        },
        Op::Next { value, last, exit } => Ins::JumpNext {
            value,
            last,
            exit,
            head,
        },
        Op::NextNeighbour {
            board,
            from,
            value,
            exit,
        } => match exit.checked_sub(head).and_then(|after| u16::try_from(after).ok()) {
            Some(exit_after) if tested => Ins::JumpNextNeighbourTested {
                board,
                from,
                value,
                exit_after,
                head,
            },
            Some(exit_after) => Ins::JumpNextNeighbour {
                board,
                from,
                value,
                exit_after,
                head,
            },
            None => return None,
        },
        Op::NextPiece {
            zone,
            index,
            value,
            filter,
            exit,
        } => Ins::JumpNextPiece {
            zone,
            index,
            value,
            filter,
            back: u16::try_from(pc - head as usize).ok()?,
            exit,
        },
        Op::NextOnBoard {
            board,
            cursor,
            value,
            filter,
            exit,
        } => Ins::JumpNextOnBoard {
            board,
            cursor,
            value,
            filter,
            back: u16::try_from(pc - head as usize).ok()?,
            exit,
        },
        _ => return None,
    })
}

/// The fused instruction for exactly this run of ops, if there is one.
fn fuse(run: &[Op]) -> Option<Ins> {
    let small = |v: i64| i32::try_from(v).ok();
    let jump = |op: Op| match op {
        Op::JumpIfTrue(t) => Some((true, t)),
        Op::JumpIfFalse(t) => Some((false, t)),
        _ => None,
    };
    Some(match *run {
        [
            Op::Load(space),
            Op::Load(direction),
            Op::Step(board),
            Op::Store(to),
            Op::Load(tested),
            Op::Push(NO_SPACE),
            Op::Eq,
            Op::JumpIfTrue(off_board),
        ] if tested == to => Ins::StepLocalJump {
            board,
            space,
            direction,
            to,
            off_board,
        },
        [
            Op::Load(a),
            Op::Load(b),
            first,
            Op::Push(c),
            second,
            Op::Push(d),
            third,
            Op::Store(to),
        ] => Ins::ArithChainStore {
            a,
            b,
            c: i16::try_from(c).ok()?,
            d: i16::try_from(d).ok()?,
            ops: [Arith::of(first)?, Arith::of(second)?, Arith::of(third)?],
            to,
        },
        [Op::Load(slot), Op::ZoneOf(family), Op::Size, Op::Push(v), cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::LocalZoneSizeJump {
                slot,
                family,
                cmp: Cmp::of(cmp)?,
                when,
                value: i16::try_from(v).ok()?,
                target,
            }
        }
        [Op::CellAt(board), Op::ZoneOf(family), Op::Size, Op::Push(v), cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::CellZoneSizeJump {
                board,
                family,
                cmp: Cmp::of(cmp)?,
                when,
                value: i16::try_from(v).ok()?,
                target,
            }
        }
        [Op::Load(slot), Op::Push(v), Op::Add, Op::Store(to)] if slot == to => {
            Ins::AddToLocal { slot, value: small(v)? }
        }
        [Op::Load(slot), Op::Push(v), Op::Sub, Op::Store(to)] if slot == to => {
            Ins::SubFromLocal { slot, value: small(v)? }
        }
        [Op::Load(slot), Op::LoadVar(var), cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::LocalVarCmpJump {
                slot,
                var,
                cmp: Cmp::of(cmp)?,
                when,
                target,
            }
        }
        [Op::Load(slot), Op::Push(v), cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::LocalCmpConstJump {
                slot,
                cmp: Cmp::of(cmp)?,
                when,
                value: small(v)?,
                target,
            }
        }
        [Op::Push(v), arith, Op::Store(slot)] => Ins::ArithConstStore {
            arith: Arith::of(arith)?,
            value: small(v)?,
            slot,
        },
        [Op::Push(v), cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::CmpConstJump {
                cmp: Cmp::of(cmp)?,
                when,
                value: small(v)?,
                target,
            }
        }
        [Op::Load(space), Op::Load(direction), Op::Step(board), Op::Store(to)] => Ins::StepLocal {
            board,
            space,
            direction,
            to,
        },
        [Op::Load(slot), Op::ZoneOf(family), Op::Size] => Ins::LocalZoneSize { slot, family },
        [Op::Load(slot), Op::ZoneOf(family), Op::Store(to)] => Ins::ZoneOfLocal { slot, family, to },
        [Op::Load(slot), Op::ZoneOf(family), Op::Count(matcher)] => Ins::CountInLocalZone { slot, family, matcher },
        [Op::Load(seat), Op::Load(value), Op::ChoiceAdd] => Ins::OfferLocal { seat, value },
        [Op::Load(a), Op::Load(b), arith] => Ins::LoadLoadArith {
            a,
            b,
            arith: Arith::of(arith)?,
        },
        [Op::Load(piece), Op::SpaceOf(board), Op::Store(to)] => Ins::SpaceOfLocal { board, piece, to },
        [Op::ZoneOf(family), Op::Size] => Ins::ZoneSize(family),
        [Op::Load(a), Op::Load(b)] => Ins::LoadLoad(a, b),
        [Op::Load(slot), Op::Push(v)] => Ins::LoadConst { slot, value: small(v)? },
        [Op::Store(store), Op::Load(load)] => Ins::StoreLoad { store, load },
        [Op::Load(from), Op::Store(to)] => Ins::Copy { from, to },
        [Op::Push(v), Op::Store(slot)] => Ins::SetLocal { slot, value: small(v)? },
        [Op::Push(v), arith] => Ins::ArithConst {
            arith: Arith::of(arith)?,
            value: small(v)?,
        },
        [cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::CmpJump {
                cmp: Cmp::of(cmp)?,
                when,
                target,
            }
        }
        _ => return None,
    })
}

/// Per pc, whether the interpreter may start there other than by falling
/// through from the op before: a jump or loop exit target, a procedure's
/// entry, the scoring code, or the op after one that hands control away
/// (a call returns there, a decision resumes there).
fn landing_sites(def: &GameDef) -> Vec<bool> {
    let mut landed = vec![false; def.code.len() + 1];
    let mut mark = |pc: u32| {
        if let Some(slot) = landed.get_mut(pc as usize) {
            *slot = true;
        }
    };
    for proc in &def.procs {
        mark(proc.entry);
    }
    mark(def.result_pc);
    for (pc, op) in def.code.iter().enumerate() {
        match *op {
            Op::Jump(t) | Op::JumpIfFalse(t) | Op::JumpIfTrue(t) => mark(t),
            Op::Next { exit, .. }
            | Op::NextNeighbour { exit, .. }
            | Op::NextPiece { exit, .. }
            | Op::NextOnBoard { exit, .. } => mark(exit),
            _ => {}
        }
        // Anything but the plain ops the runs are made of may hand control
        // away and resume after itself, or be asked again (`ChoiceReset`).
        let plain = matches!(
            op,
            Op::Push(_)
                | Op::Load(_)
                | Op::Store(_)
                | Op::ZoneOf(_)
                | Op::Size
                | Op::CellAt(_)
                | Op::Step(_)
                | Op::SpaceOf(_)
                | Op::ActionValue { .. }
                | Op::LoadVar(_)
                | Op::ChoiceAdd
                | Op::Count(_)
                | Op::JumpIfFalse(_)
                | Op::JumpIfTrue(_)
        ) || Cmp::of(*op).is_some()
            || Arith::of(*op).is_some();
        if !plain {
            mark(pc as u32);
            mark(pc as u32 + 1);
        }
    }
    landed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each op as its own instruction, before any fusion.
    fn singles(code: &[Op]) -> Vec<Ins> {
        code.iter().map(|&op| single(op)).collect()
    }

    #[test]
    fn fuses_the_longest_run_and_keeps_numbering() {
        let run = [Op::Load(3), Op::Push(7), Op::Lt, Op::JumpIfFalse(9)];
        assert_eq!(
            fuse(&run),
            Some(Ins::LocalCmpConstJump {
                slot: 3,
                cmp: Cmp::Lt,
                when: false,
                value: 7,
                target: 9
            })
        );
        assert_eq!(fuse(&[Op::Load(1), Op::Push(1), Op::Add, Op::Store(2)]), None);
        assert_eq!(fuse(&[Op::Push(i64::MAX), Op::Add]), None);
        let empty_space = [
            Op::Load(2),
            Op::ZoneOf(1),
            Op::Size,
            Op::Push(0),
            Op::Eq,
            Op::JumpIfFalse(40),
        ];
        assert!(matches!(
            fuse(&empty_space),
            Some(Ins::LocalZoneSizeJump {
                slot: 2,
                family: 1,
                value: 0,
                target: 40,
                ..
            })
        ));
    }

    #[test]
    fn a_loops_jump_back_takes_its_step() {
        let code = [
            Op::Next {
                value: 0,
                last: 1,
                exit: 3,
            },
            Op::Jump(0),
            Op::Jump(3),
            Op::Return,
        ];
        let program = singles(&code);
        assert_eq!(
            thread_back_jump(&code, &program, &[], 1),
            Some(Ins::JumpNext {
                value: 0,
                last: 1,
                exit: 3,
                head: 0
            })
        );
        // A jump forward stays a jump.
        assert_eq!(thread_back_jump(&code, &program, &[], 2), None);
    }

    #[test]
    fn a_loops_jump_back_takes_its_zone_test_along() {
        // for cell in 0..8 where size of mark of cell == 0 { offer cell }
        let code = [
            Op::Next {
                value: 0,
                last: 1,
                exit: 10,
            },
            Op::Load(0),
            Op::ZoneOf(1),
            Op::Size,
            Op::Push(0),
            Op::Eq,
            Op::JumpIfFalse(9),
            Op::Load(0),
            Op::Pop,
            Op::Jump(0),
            Op::Return,
        ];
        let mut program = singles(&code);
        program[1] = fuse(&code[1..7]).expect("the test fuses");
        assert_eq!(
            thread_back_jump(&code, &program, &[], 9),
            Some(Ins::JumpNextTested {
                value: 0,
                last: 1,
                exit: 10,
                head: 0
            })
        );
        // A test that leaves the loop elsewhere is left to itself.
        let mut elsewhere = code;
        elsewhere[6] = Op::JumpIfFalse(10);
        program[1] = fuse(&elsewhere[1..7]).expect("the test fuses");
        assert!(matches!(
            thread_back_jump(&elsewhere, &program, &[], 9),
            Some(Ins::JumpNext { .. })
        ));
    }

    #[test]
    fn a_loops_jump_back_takes_its_piece_step_and_a_plain_offer_fuses() {
        // for card in hand of player { offer card }, then the same on a board
        let piece_loop = [
            Op::NextPiece {
                zone: 0,
                index: 1,
                value: 2,
                filter: 0,
                exit: 5,
            },
            Op::Load(3),
            Op::Load(2),
            Op::ChoiceAdd,
            Op::Jump(0),
            Op::Return,
        ];
        let program = singles(&piece_loop);
        assert_eq!(
            thread_back_jump(&piece_loop, &program, &[], 4),
            Some(Ins::JumpNextPiece {
                zone: 0,
                index: 1,
                value: 2,
                filter: 0,
                back: 4,
                exit: 5,
            })
        );
        assert_eq!(fuse(&piece_loop[1..4]), Some(Ins::OfferLocal { seat: 3, value: 2 }));
        let mut board_loop = piece_loop;
        board_loop[0] = Op::NextOnBoard {
            board: 1,
            cursor: 0,
            value: 2,
            filter: 0,
            exit: 5,
        };
        assert_eq!(
            thread_back_jump(&board_loop, &program, &[], 4),
            Some(Ins::JumpNextOnBoard {
                board: 1,
                cursor: 0,
                value: 2,
                filter: 0,
                back: 4,
                exit: 5,
            })
        );
    }

    #[test]
    fn a_counted_loops_step_joins_its_jump_back_on_the_same_local() {
        let jump_back = |slot| Ins::JumpLocalCmp {
            slot,
            cmp: Cmp::Lt,
            when: false,
            value: 3,
            target: 9,
            back: 8,
        };
        let step = Ins::AddToLocal { slot: 0, value: 1 };
        let mut program = vec![Ins::Slow; 10];
        program[4] = step;
        program[8] = jump_back(0);
        join_counted_steps(&mut program);
        assert_eq!(
            program[4],
            Ins::AddJumpLocalCmp {
                slot: 0,
                add: 1,
                cmp: Cmp::Lt,
                when: false,
                value: 3,
                target: 9,
                back: 8,
            }
        );
        assert_eq!(program[8], jump_back(0), "the jump stays for other ways in");
        // A jump back that tests another local is left alone.
        let mut program = vec![Ins::Slow; 10];
        program[4] = step;
        program[8] = jump_back(1);
        join_counted_steps(&mut program);
        assert_eq!(program[4], step);
    }

    #[test]
    fn a_count_in_a_kept_spaces_zone_fuses() {
        let matcher = Matcher {
            by: MatchBy::Any,
            owner: true,
        };
        assert_eq!(
            fuse(&[Op::Load(4), Op::ZoneOf(1), Op::Count(matcher)]),
            Some(Ins::CountInLocalZone {
                slot: 4,
                family: 1,
                matcher
            })
        );
    }

    #[test]
    fn a_loops_jump_back_takes_a_cell_test_or_a_test_against_a_variable_along() {
        // for column in 1..7 where size of cell of rack[1, column] == 0 { .. }
        let mut code = vec![
            Op::Next {
                value: 0,
                last: 1,
                exit: 12,
            },
            Op::Push(1),
            Op::Load(0),
            Op::CellAt(0),
            Op::ZoneOf(1),
            Op::Size,
            Op::Push(0),
            Op::Eq,
            Op::JumpIfFalse(11),
            Op::Load(0),
            Op::Pop,
            Op::Jump(0),
            Op::Return,
        ];
        let test = CellTest::of(&code[1..9]).expect("the test is a cell test");
        assert_eq!(
            (test.row, test.column, test.value, test.target),
            (Operand::Number(1), Operand::Local(0), 0, 11)
        );
        let mut program = singles(&code);
        program[1] = Ins::CellTestJump(0);
        assert!(matches!(
            thread_back_jump(&code, &program, &[test], 11),
            Some(Ins::JumpNextTested { head: 0, .. })
        ));
        // A row that is neither a number nor a local is no cell test.
        code[1] = Op::LoadVar(0);
        assert_eq!(CellTest::of(&code[1..9]), None);
        // for bid in 1..6 where bid > current { .. }
        let code = [
            Op::Next {
                value: 0,
                last: 1,
                exit: 8,
            },
            Op::Load(0),
            Op::LoadVar(2),
            Op::Gt,
            Op::JumpIfFalse(7),
            Op::Load(0),
            Op::Pop,
            Op::Jump(0),
            Op::Return,
        ];
        let mut program = singles(&code);
        program[1] = fuse(&code[1..5]).expect("the test fuses");
        assert_eq!(
            program[1],
            Ins::LocalVarCmpJump {
                slot: 0,
                var: 2,
                cmp: Cmp::Gt,
                when: false,
                target: 7
            }
        );
        assert!(matches!(
            thread_back_jump(&code, &program, &[], 7),
            Some(Ins::JumpNextTested { head: 0, .. })
        ));
    }

    #[test]
    fn a_loop_over_a_spaces_pieces_is_entered_and_stepped_at_once() {
        // for defender in Pawn in spot of there { offer defender }
        let code = [
            Op::Load(0),
            Op::ZoneOf(1),
            Op::Store(2),
            Op::Push(-1),
            Op::Store(3),
            Op::NextPiece {
                zone: 2,
                index: 3,
                value: 4,
                filter: 0,
                exit: 10,
            },
            Op::Load(5),
            Op::Load(4),
            Op::ChoiceAdd,
            Op::Jump(5),
            Op::Return,
        ];
        let mut program = vec![Ins::Slow; code.len()];
        program[0] = fuse(&code[0..3]).expect("the zone is kept");
        program[3] = fuse(&code[3..5]).expect("the place is reset");
        join_piece_loop_entries(&code, &mut program);
        assert_eq!(
            program[0],
            Ins::EnterPieces {
                slot: 0,
                family: 1,
                zone: 2,
                index: 3,
                value: 4,
                filter: 0,
                exit_after: 5,
            }
        );
        // A step over another zone is not this loop's.
        let mut other = code;
        other[5] = Op::NextPiece {
            zone: 7,
            index: 3,
            value: 4,
            filter: 0,
            exit: 10,
        };
        program[0] = fuse(&code[0..3]).expect("the zone is kept");
        join_piece_loop_entries(&other, &mut program);
        assert!(matches!(program[0], Ins::ZoneOfLocal { .. }));
    }

    #[test]
    fn a_while_loops_jump_back_runs_its_cell_test_and_its_step_down_fuses() {
        // while size of cell of g[row, 1] == 0 { set row = row - 1 }
        let code = [
            Op::Load(0),
            Op::Push(1),
            Op::CellAt(0),
            Op::ZoneOf(1),
            Op::Size,
            Op::Push(0),
            Op::Eq,
            Op::JumpIfFalse(13),
            Op::Load(0),
            Op::Push(1),
            Op::Sub,
            Op::Store(0),
            Op::Jump(0),
            Op::Return,
        ];
        assert_eq!(fuse(&code[8..12]), Some(Ins::SubFromLocal { slot: 0, value: 1 }));
        let test = CellTest::of(&code[0..8]).expect("the test is a cell test");
        let mut program = singles(&code);
        program[0] = Ins::CellTestJump(0);
        assert_eq!(
            thread_back_jump(&code, &program, &[test], 12),
            Some(Ins::JumpCellTest { test: 0, back: 12 })
        );
    }

    #[test]
    fn a_loops_jump_back_runs_its_fused_test() {
        // while i < 3 { set i = i + 1 }
        let code = [
            Op::Load(0),
            Op::Push(3),
            Op::Lt,
            Op::JumpIfFalse(9),
            Op::Load(0),
            Op::Push(1),
            Op::Add,
            Op::Store(0),
            Op::Jump(0),
            Op::Return,
        ];
        let mut program = singles(&code);
        program[0] = fuse(&code[0..4]).expect("the test fuses");
        assert_eq!(
            thread_back_jump(&code, &program, &[], 8),
            Some(Ins::JumpLocalCmp {
                slot: 0,
                cmp: Cmp::Lt,
                when: false,
                value: 3,
                target: 9,
                back: 8,
            })
        );
        // A test whose number does not fit stays a plain jump.
        program[0] = Ins::LocalCmpConstJump {
            slot: 0,
            cmp: Cmp::Lt,
            when: false,
            value: 1 << 20,
            target: 9,
        };
        assert_eq!(thread_back_jump(&code, &program, &[], 8), None);
    }

    #[test]
    fn fuses_the_move_generators_runs() {
        assert_eq!(
            fuse(&[Op::Load(7), Op::Load(8), Op::Step(0), Op::Store(11)]),
            Some(Ins::StepLocal {
                board: 0,
                space: 7,
                direction: 8,
                to: 11
            })
        );
        assert_eq!(
            fuse(&[Op::Load(5), Op::SpaceOf(0), Op::Store(7)]),
            Some(Ins::SpaceOfLocal {
                board: 0,
                piece: 5,
                to: 7
            })
        );
        assert_eq!(
            fuse(&[Op::Load(10), Op::Load(9), Op::Add]),
            Some(Ins::LoadLoadArith {
                a: 10,
                b: 9,
                arith: Arith::Add
            })
        );
        assert_eq!(
            fuse(&[Op::Push(8), Op::Rem, Op::Store(8)]),
            Some(Ins::ArithConstStore {
                arith: Arith::Rem,
                value: 8,
                slot: 8
            })
        );
        assert_eq!(
            fuse(&[Op::Load(10), Op::ZoneOf(1), Op::Store(15)]),
            Some(Ins::ZoneOfLocal {
                slot: 10,
                family: 1,
                to: 15
            })
        );
        // `Load Load` then a comparison is left to the shorter runs.
        assert_eq!(fuse(&[Op::Load(1), Op::Load(2), Op::Lt]), None);
    }

    #[test]
    fn fuses_a_step_with_its_test_and_a_turned_direction() {
        let step_and_test = |tested| {
            fuse(&[
                Op::Load(7),
                Op::Load(8),
                Op::Step(0),
                Op::Store(11),
                Op::Load(tested),
                Op::Push(-1),
                Op::Eq,
                Op::JumpIfTrue(30),
            ])
        };
        assert_eq!(
            step_and_test(11),
            Some(Ins::StepLocalJump {
                board: 0,
                space: 7,
                direction: 8,
                to: 11,
                off_board: 30
            })
        );
        // The test must read the space just stepped to.
        assert_eq!(step_and_test(12), None);
        let turn = |third| {
            fuse(&[
                Op::Load(10),
                Op::Load(9),
                Op::Add,
                Op::Push(7),
                Op::Add,
                Op::Push(8),
                third,
                Op::Store(8),
            ])
        };
        assert_eq!(
            turn(Op::Rem),
            Some(Ins::ArithChainStore {
                a: 10,
                b: 9,
                c: 7,
                d: 8,
                ops: [Arith::Add, Arith::Add, Arith::Rem],
                to: 8
            })
        );
        assert_eq!(turn(Op::Lt), None);
    }

    /// Each candidate move's step to its target, and the turning of its
    /// direction, is one instruction in a grid mover's lowered program.
    #[test]
    fn a_grid_movers_steps_and_turns_are_fused() {
        let game = grid_mover();
        let (def, program) = (&game.def, &game.program);
        // The instruction each op of the checker's program runs in.
        let mut runs_in: Vec<Option<Ins>> = vec![None; def.code.len()];
        let mut pc = 0;
        while pc < def.code.len() {
            let ins = program.ins[pc];
            runs_in[pc..pc + ins.len()].fill(Some(ins));
            pc += ins.len();
        }
        let mut fused = (0, 0);
        for (pc, op) in def.code.iter().enumerate() {
            match (op, def.code.get(pc + 1), runs_in[pc]) {
                // A generator's step stores its target; `exists` tests it at once.
                (Op::Step(_), Some(Op::Store(_)), Some(Ins::StepLocalJump { .. })) => fused.0 += 1,
                (Op::Rem, _, Some(Ins::ArithChainStore { .. })) => fused.1 += 1,
                (Op::Step(_), Some(Op::Store(_)), other) | (Op::Rem, _, other) => {
                    panic!("{op:?} at {pc} runs in {other:?}")
                }
                _ => {}
            }
        }
        assert_eq!(fused, (2, 2), "both menu entries step and turn");
    }

    /// A test game that moves pieces over a grid, checked and lowered.
    fn grid_mover() -> crate::game::Game {
        checked("tests/games/march.rules")
    }

    #[test]
    fn every_offered_move_is_one_instruction() {
        let game = grid_mover();
        let (def, program) = (&game.def, &game.program);
        let runs: Vec<(usize, &Offer)> = program
            .ins
            .iter()
            .enumerate()
            .filter_map(|(pc, ins)| match *ins {
                Ins::OfferAction { offer, len } => {
                    // The run ends with the offer's `ActionValue` and `ChoiceAdd`.
                    let end = pc + len as usize;
                    assert!(matches!(def.code[end - 2], Op::ActionValue { .. }));
                    assert_eq!(def.code[end - 1], Op::ChoiceAdd);
                    Some((pc, &program.offers[offer as usize]))
                }
                _ => None,
            })
            .collect();
        let offered = def.code.iter().filter(|op| **op == Op::ChoiceAdd).count();
        assert_eq!(runs.len(), offered, "both menu entries are fused");
        for (pc, offer) in runs {
            // The seat first, then each parameter, as the run loads them.
            let loads: Vec<u16> = std::iter::once(offer.seat)
                .chain(offer.params.iter().copied())
                .collect();
            let code: Vec<u16> = def.code[pc..pc + loads.len()]
                .iter()
                .map(|op| match op {
                    Op::Load(slot) => *slot,
                    other => panic!("{other:?} in an offer's loads"),
                })
                .collect();
            assert_eq!(loads, code);
        }
    }

    #[test]
    fn the_step_table_agrees_with_the_board() {
        let game = grid_mover();
        let (def, program) = (&game.def, &game.program);
        let board = &def.boards[0];
        let steps = &program.steps[0];
        for space in -2..i64::from(board.spaces()) + 2 {
            for direction in -1..10 {
                assert_eq!(
                    steps.step(space, direction),
                    board.step(space, direction),
                    "{space} {direction}"
                );
            }
        }
    }

    fn checked(path: &str) -> crate::game::Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        crate::check::check_file(&path, &crate::check::FsLoader)
            .expect("the game checks")
            .def
    }

    /// Two `anytime` actions of one module, tested first and last.
    const MODULE: &str = r#"
game "Modules"
players 2: A, B
option extra: bool = false "An extra action"
board cells: grid 2 x 2 {
  mark public
}
zones {
  supply per player public
}
pieces {
  Mark x4 per player in supply
}
anytime "give a mark" when extra and count Mark in supply of actor > 1 {
  move first Mark in supply of actor to supply of opponent of actor
}
anytime "keep a mark" when count Mark in supply of actor > 1 and extra {
  move first Mark in supply of actor to supply of actor
}
flow {
  let mover = A
  repeat 4 times {
    mover chooses cell from cells where size of mark of cell == 0
    move first Mark in supply of mover to mark of cell
    set mover = opponent of mover
  }
  declare draw "the board is full"
}
"#;

    /// `when extra and ...` is false while the option is off, so it is not
    /// run; `or`, or the option tested second, gives no such guard. Either
    /// way the offers are those the conditions give.
    #[test]
    fn an_option_first_in_an_and_guards_the_condition() {
        let game = crate::engine::test_game("modules.rules", MODULE);
        assert_eq!(game.program.anytime_guards, [Some(0), None]);
        for (extra, offered) in [(false, 4), (true, 6)] {
            let options = [crate::ir::OptionValue::Bool(extra)];
            let state = crate::engine::State::start(&game, &options, 1, vec![], &mut vec![]).unwrap();
            let pending = state.pending().expect("a decision");
            assert_eq!(pending.legal(0).len(), offered, "extra = {extra}");
        }
        // `a and b and c`: the first jump lands on the second `and`.
        let and_and = [
            Op::LoadOption(2),
            Op::Dup,
            Op::JumpIfFalse(5),
            Op::Pop,
            Op::Load(0),
            Op::Dup,
            Op::JumpIfFalse(9),
            Op::Pop,
            Op::Push(1),
            Op::Return,
        ];
        assert_eq!(option_guard(&and_and, 0), Some(2));
        let or = [
            Op::LoadOption(2),
            Op::Dup,
            Op::JumpIfTrue(5),
            Op::Pop,
            Op::Load(0),
            Op::Return,
        ];
        assert_eq!(option_guard(&or, 0), None);
        let second = [
            Op::Load(0),
            Op::Dup,
            Op::JumpIfFalse(5),
            Op::Pop,
            Op::LoadOption(2),
            Op::Return,
        ];
        assert_eq!(option_guard(&second, 0), None);
        // A jump that lands on more work, not on the return.
        let more = [
            Op::LoadOption(2),
            Op::Dup,
            Op::JumpIfFalse(4),
            Op::Pop,
            Op::Not,
            Op::Return,
        ];
        assert_eq!(option_guard(&more, 0), None);
    }

    #[test]
    fn counts_run_in_the_inner_loop() {
        let matcher = Matcher {
            by: crate::ir::MatchBy::TypeOnStack,
            owner: true,
        };
        assert_eq!(single(Op::Count(matcher)), Ins::Count(matcher));
        assert_eq!(single(Op::CountInGame(matcher)), Ins::CountInGame(matcher));
        assert_eq!(single(Op::Return), Ins::Return);
        assert_eq!(
            single(Op::CountOnBoard { board: 2, matcher }),
            Ins::CountOnBoard { board: 2, matcher }
        );
        assert_eq!(Ins::CountOnBoard { board: 2, matcher }.len(), 1);
    }

    #[test]
    fn a_board_with_more_zones_than_pieces_is_counted_by_pieces() {
        // A ring board: 13 spaces with one slot each, 6 pieces.
        let game = checked("tests/games/ring_guards.rules");
        let (def, program) = (&game.def, &game.program);
        let BoardCount::ByPieces(on_board) = &program.counts[0] else {
            panic!("the ring board is counted by pieces");
        };
        let slots: Vec<bool> = (0..def.zones.len())
            .map(|zone| {
                def.boards[0].slots.iter().any(|&family| {
                    let f = &def.families[family as usize];
                    (usize::from(f.first)..usize::from(f.first + f.len)).contains(&zone)
                })
            })
            .collect();
        assert_eq!(on_board, &slots);
        assert_eq!(on_board.iter().filter(|&&on| on).count(), 13);
        // A grid of 2 spaces for 6 pieces.
        let game = checked("tests/games/place_token.rules");
        assert!(matches!(game.program.counts[0], BoardCount::ByZones));
    }

    /// Scoring with each kind of `when`, ranked by `keys`.
    fn ranked_game(term_b: &str, keys: &str) -> crate::game::Game {
        let source = format!(
            r#"
game "Ranked"
players 2: A, B
option bonus: bool = false "A bonus term"
zones {{
  pile per player public
}}
pieces {{
  Gem x2 per player in pile
}}
var gems = 0
flow {{
  A chooses n from 1..2
  set gems = n
}}
procedure taken(p: player) -> (n) {{
  {term_b}
  return (count Gem in pile of p)
}}
score per player {{
  gems: count Gem in pile of player
  extra: 1 when bonus
  less: 1 when not bonus
  held: taken(player) when gems > 1
  tie-breaker order: if player == A then 1 else 0
}}
result {{
  {keys}
  else draw
}}
"#
        );
        crate::engine::test_game("ranked.rules", &source)
    }

    const EVERY_KEY: &str = "most score then most gems then most held then most order then most gems + 1";
    const READABLE_KEYS: &str = "most score then most gems then most order";

    /// `score` and the name of a term without `when` read the points; an
    /// option `when` is read without running. Another key, or a term that
    /// moves a piece, makes every key compute again.
    #[test]
    fn result_keys_that_name_points_may_read_them() {
        use crate::ir::KeyReads;
        let game = ranked_game("", EVERY_KEY);
        let reads: Vec<KeyReads> = game.rank_keys.iter().map(|key| key.reads).collect();
        assert_eq!(
            reads,
            [
                KeyReads::Points,
                KeyReads::Term(0),
                KeyReads::Other,
                KeyReads::Term(4),
                KeyReads::Other
            ]
        );
        let guard = |option, when_on| Some(OptionTest { option, when_on });
        assert_eq!(
            game.program.term_guards,
            [None, guard(0, true), guard(0, false), None, None]
        );
        assert!(!game.program.keys_read_points);
        let readable = ranked_game("", READABLE_KEYS);
        assert!(readable.program.keys_read_points);
        let moving = ranked_game("move first Gem in pile of p to pile of opponent of p", READABLE_KEYS);
        assert!(!moving.program.keys_read_points);
        // Level on points (2 gems, 1 for the option or its absence, 2 held
        // or none), on gems and on held: the tie-breaker `order` decides.
        for (game, order_key) in [(&game, 3), (&readable, 2)] {
            for bonus in [false, true] {
                for n in [1, 2] {
                    let mut events = vec![];
                    let options = [crate::ir::OptionValue::Bool(bonus)];
                    let mut state = super::super::State::start(game, &options, 1, vec![], &mut events).unwrap();
                    let choice = super::super::Choice::new(0, n);
                    state.apply(game, &[choice], &mut events).unwrap();
                    let outcome = state.outcome().expect("the game is over");
                    assert_eq!(outcome.winner, Some(0));
                    assert!(
                        matches!(outcome.reason, super::super::EndReason::Rank(k) if k == order_key),
                        "{outcome:?}"
                    );
                    let held = if n > 1 { 2 } else { 0 };
                    let scores = [
                        vec![2, i64::from(bonus), i64::from(!bonus), held, 1],
                        vec![2, i64::from(bonus), i64::from(!bonus), held, 0],
                    ];
                    assert_eq!(state.scores(), scores);
                }
            }
        }
    }
}
