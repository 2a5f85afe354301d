//! Expressions and conditions: each op alone as its instruction, and the
//! runs of small ops fused into one ("where size of cell of rack[1, column]
//! == 0", "bid where bid > current").

use super::ins::{Arith, Cmp, Ins};
use crate::ir::Op;
use crate::ir::grid::NO_SPACE;

/// Where a [`CellTest`] takes its row or its column from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// `Push(value)`
    Number(i64),
    /// `Load(slot)`
    Local(u16),
}

impl Operand {
    pub(super) fn of(op: Op) -> Option<Operand> {
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
    pub(super) fn of(run: &[Op]) -> Option<CellTest> {
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

/// The instruction for one op alone: its own, for the ops the inner loop
/// runs itself, else [`Ins::Slow`].
pub(crate) fn single(op: Op) -> Ins {
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
        Op::ChoiceReset => Ins::ChoiceReset,
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

/// The fused instruction for exactly this run of ops, if there is one.
pub(super) fn fuse(run: &[Op]) -> Option<Ins> {
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
