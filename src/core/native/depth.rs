//! What each op does to the value stack, and the depth of the stack at
//! every op of a procedure, found once before any code is emitted.
//!
//! The compiled tier keeps the values of the stack in registers, so it must
//! know at each op how many there are. The checker writes structured code:
//! every way into an op arrives with the same depth. When that does not
//! hold, or an op's effect cannot be known, the region is not compiled and
//! the interpreter runs it.

use crate::ir::{ChoiceKind, GameDef, Op, Stack};

/// What an op does to the stack and to the flow, as far as the compiled
/// tier needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Effect {
    /// Values it takes off the stack.
    pub pops: u32,
    /// Values it leaves (for an op that hands control away: once it is
    /// back, as the op after it finds them).
    pub pushes: u32,
    /// Whether the op after it can run next.
    pub falls_through: bool,
    /// Where else it may go: a jump's target, a loop's exit.
    pub branch: Option<u32>,
}

/// The effect of `op` in `def`, from its row in [`Op::facts`]; `None`
/// when it cannot be known (an index out of the definition's tables).
pub(super) fn effect(def: &GameDef, op: Op) -> Option<Effect> {
    let facts = op.facts();
    let (pops, pushes) = match facts.stack {
        Stack::Takes { pops, pushes } => (pops, pushes),
        Stack::FromDefinition => match op {
            Op::Call(proc) => {
                let p = def.procs.get(proc as usize)?;
                (u32::from(p.params), u32::from(p.returns))
            }
            Op::CallHook(site) => (def.hook_calls.get(site as usize)?.args.len() as u32, 1),
            Op::Say(line) => {
                let line = def.says.get(line as usize)?;
                (line.values.len() as u32 + u32::from(line.to_one), 0)
            }
            Op::ActionValue { decision, entry } => {
                let ChoiceKind::Actions(actions) = &def.decisions.get(decision as usize)?.kind else {
                    return None;
                };
                (actions.get(entry as usize)?.params.len() as u32, 1)
            }
            _ => return None,
        },
    };
    Some(Effect {
        pops,
        pushes,
        falls_through: facts.falls_through,
        branch: op.target(),
    })
}

/// The stack depth at each op of the region `start..end`, from the frame's
/// stack base, for the ops that can run from `entries` (each with its
/// depth). `None` when two ways into an op disagree, a stack would go
/// below the frame's base, or a branch leaves the region.
pub(super) fn depths(def: &GameDef, start: u32, end: u32, entries: &[(u32, u32)]) -> Option<Vec<Option<u32>>> {
    let len = (end - start) as usize;
    let mut depth: Vec<Option<u32>> = vec![None; len];
    let mut work: Vec<(u32, u32)> = entries.to_vec();
    while let Some((pc, d)) = work.pop() {
        if !(start..end).contains(&pc) {
            return None;
        }
        let slot = &mut depth[(pc - start) as usize];
        match *slot {
            Some(known) if known == d => continue,
            Some(_) => return None,
            None => *slot = Some(d),
        }
        let e = effect(def, def.code[pc as usize])?;
        let after = d.checked_sub(e.pops)? + e.pushes;
        if e.falls_through {
            work.push((pc + 1, after));
        }
        if let Some(target) = e.branch {
            work.push((target, after));
        }
    }
    Some(depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_game;

    #[test]
    fn a_loop_comes_back_to_the_depth_it_left() {
        let game = test_game(
            "depths",
            "game \"Depths\"\nplayers 2: a, b\nflow {\n  let n = 0\n  for i in 1..3 {\n    set n = n + i * 2\n  }\n  if n > 3 { win a }\n  declare draw\n}\n",
        );
        let proc = &game.procs[game.main as usize];
        let end = game.code.len() as u32;
        let depths = depths(&game, proc.entry, end, &[(proc.entry, 0)]).expect("structured code");
        // Every op that can run has a depth, and the program starts and
        // every statement ends on an empty stack.
        assert_eq!(depths[0], Some(0));
        for (pc, op) in game.code.iter().enumerate() {
            if matches!(op, Op::Store(_)) {
                assert_eq!(depths[pc], Some(1), "a store takes the one value at {pc}");
            }
        }
    }

    #[test]
    fn ways_in_that_disagree_are_refused() {
        let mut def = test_game(
            "depths",
            "game \"Depths\"\nplayers 2: a, b\nflow {\n  declare draw\n}\n",
        );
        // An op reached both with an empty stack and with one value on it.
        def.code = vec![Op::Push(1), Op::JumpIfTrue(3), Op::Push(2), Op::Return];
        assert_eq!(depths(&def, 0, 4, &[(0, 0)]), None);
        def.code = vec![Op::Push(1), Op::JumpIfTrue(3), Op::Jump(3), Op::Return];
        assert_eq!(
            depths(&def, 0, 4, &[(0, 0)]),
            Some(vec![Some(0), Some(1), Some(0), Some(0)])
        );
    }
}
