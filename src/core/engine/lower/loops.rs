//! Statements that loop: a loop's jump back joined to its step or its
//! test, a counted loop's step joined to its jump back, and a loop over a
//! space's pieces entered in one go.

use super::ins::Ins;
use super::runs::CellTest;
use crate::ir::Op;

/// Joins each counted loop's step to the jump back right after it (see
/// [`Ins::AddJumpLocalCmp`]). The step's own ops are a fused run nothing
/// jumps into, and the jump stays in place, so any other way in still works.
pub(super) fn join_counted_steps(program: &mut [Ins]) {
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
pub(super) fn join_piece_loop_entries(code: &[Op], program: &mut [Ins]) {
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

/// For a loop's jump back to its step or its test, the jump and the step
/// or test in one instruction (and, for a step whose body first tests the
/// size of a zone and comes back here when the test fails, that test too);
/// `None` for any other op.
pub(super) fn thread_back_jump(code: &[Op], program: &[Ins], cell_tests: &[CellTest], pc: usize) -> Option<Ins> {
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
