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

use crate::ir::{GameDef, Op};

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
    /// The op itself.
    Op(Op),
    /// `Load(a) Load(b)`
    LoadLoad(u16, u16),
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
}

// Instructions are copied out of the program one by one, like ops.
const _: () = assert!(std::mem::size_of::<Ins>() == 16);

/// How many ops of the checker's program an instruction stands for.
impl Ins {
    pub(crate) fn len(self) -> usize {
        match self {
            Ins::Op(_) => 1,
            Ins::LoadLoad(..)
            | Ins::LoadConst { .. }
            | Ins::StoreLoad { .. }
            | Ins::Copy { .. }
            | Ins::SetLocal { .. }
            | Ins::ArithConst { .. }
            | Ins::CmpJump { .. }
            | Ins::ZoneSize(_) => 2,
            Ins::CmpConstJump { .. } | Ins::LocalZoneSize { .. } => 3,
            Ins::AddToLocal { .. } | Ins::LocalCmpConstJump { .. } => 4,
        }
    }
}

/// The lowered program of a definition: one instruction per op of
/// `def.code`, at the same index.
pub(crate) fn lower(def: &GameDef) -> Vec<Ins> {
    let code = &def.code;
    let landed = landing_sites(def);
    let mut program: Vec<Ins> = code.iter().map(|&op| Ins::Op(op)).collect();
    let mut pc = 0;
    while pc < code.len() {
        // Fuse only a run nothing jumps into; it may be jumped to itself.
        let free = |len: usize| pc + len <= code.len() && (pc + 1..pc + len).all(|at| !landed[at]);
        let fused = [4, 3, 2]
            .into_iter()
            .filter(|&len| free(len))
            .find_map(|len| fuse(&code[pc..pc + len]));
        match fused {
            Some(ins) => {
                program[pc] = ins;
                pc += ins.len();
            }
            None => pc += 1,
        }
    }
    program
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
        [Op::Load(slot), Op::Push(v), Op::Add, Op::Store(to)] if slot == to => {
            Ins::AddToLocal { slot, value: small(v)? }
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
        [Op::Push(v), cmp, j] => {
            let (when, target) = jump(j)?;
            Ins::CmpConstJump {
                cmp: Cmp::of(cmp)?,
                when,
                value: small(v)?,
                target,
            }
        }
        [Op::Load(slot), Op::ZoneOf(family), Op::Size] => Ins::LocalZoneSize { slot, family },
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
    }
}
