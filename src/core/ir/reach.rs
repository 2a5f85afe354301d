//! Which decisions and hooks a game can reach at all: the parts a `use`d
//! library defines but the game never calls are not rules of this game, so
//! coverage leaves them out instead of listing them as never fired, and an
//! agent does not count on a throw the game never asks.
//!
//! A procedure is reachable from the procedures the engine runs by itself
//! (the main flow, triggers, `anytime` actions, score terms, result keys,
//! conditional pieces and variable initialisers) through `Op::Call`. Each
//! procedure's code is one contiguous run of `GameDef::code`, starting at
//! its entry, so its ops are those up to the next procedure's entry.

use super::{GameDef, Op, ProcId};

/// What the game can reach.
pub struct Reach {
    /// Per decision: asked by reachable code.
    pub decisions: Vec<bool>,
    /// Per decision: asked of every player at once (`each player chooses`)
    /// by reachable code.
    pub asked_of_each: Vec<bool>,
    /// Per hook: not called only from unreachable code. A hook nothing in
    /// the flow calls (one only other hooks call) counts as reachable, so it
    /// is still reported if it never fires.
    pub hooks: Vec<bool>,
}

/// The code of each procedure, as `start..end` into `def.code`.
pub fn proc_ranges(def: &GameDef) -> Vec<std::ops::Range<usize>> {
    let mut starts: Vec<usize> = def.procs.iter().map(|p| p.entry as usize).collect();
    starts.sort_unstable();
    starts.dedup();
    def.procs
        .iter()
        .map(|p| {
            let start = p.entry as usize;
            let end = starts.iter().copied().find(|&s| s > start).unwrap_or(def.code.len());
            start..end.min(def.code.len())
        })
        .collect()
}

/// What the game can reach from its flow, triggers and hooks' callers.
pub fn reach(def: &GameDef) -> Reach {
    let ranges = proc_ranges(def);
    let mut roots: Vec<ProcId> = vec![def.main];
    roots.extend(def.triggers.iter().map(|t| t.proc));
    for a in &def.anytime {
        roots.extend([a.when, a.body]);
    }
    for t in &def.score_terms {
        roots.push(t.proc);
        roots.extend(t.when);
    }
    roots.extend(def.rank_keys.iter().map(|k| k.proc));
    for piece in &def.pieces {
        roots.extend(piece.when);
        roots.extend(piece.counted.map(|c| c.bounds));
    }
    roots.extend(def.vars.iter().map(|v| v.init));

    let mut seen = vec![false; def.procs.len()];
    let mut decisions = vec![false; def.decisions.len()];
    let mut asked_of_each = vec![false; def.decisions.len()];
    let mut hook_reached = vec![false; def.hooks.len()];
    let mut hook_called = vec![false; def.hooks.len()];
    // Every call site, reachable or not, to tell a hook called only from
    // unreachable code from one the flow never calls.
    for op in &def.code {
        if let Op::CallHook(call) = op
            && let Some(call) = def.hook_calls.get(*call as usize)
            && let Some(called) = hook_called.get_mut(call.hook as usize)
        {
            *called = true;
        }
    }
    let mut stack = roots;
    while let Some(proc) = stack.pop() {
        let Some(done) = seen.get_mut(proc as usize) else {
            continue;
        };
        if std::mem::replace(done, true) {
            continue;
        }
        for op in &def.code[ranges[proc as usize].clone()] {
            match op {
                Op::Call(callee) => stack.push(*callee),
                Op::Ask(d) | Op::AskEach(d, _) => {
                    if let Some(reached) = decisions.get_mut(*d as usize) {
                        *reached = true;
                    }
                    if let (Op::AskEach(..), Some(each)) = (op, asked_of_each.get_mut(*d as usize)) {
                        *each = true;
                    }
                }
                Op::CallHook(call) => {
                    if let Some(call) = def.hook_calls.get(*call as usize)
                        && let Some(reached) = hook_reached.get_mut(call.hook as usize)
                    {
                        *reached = true;
                    }
                }
                _ => {}
            }
        }
    }
    Reach {
        decisions,
        asked_of_each,
        hooks: hook_reached.iter().zip(&hook_called).map(|(&r, &c)| r || !c).collect(),
    }
}
