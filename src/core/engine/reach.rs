//! What a procedure's code can do: the ops it can reach, following its
//! jumps and the procedures it calls. The engine skips or shortens work on
//! what this proves, so it errs on the side of "could do anything".

use crate::ir::{GameDef, Op, ProcId, Reach};

/// Calls `visit` on every op the code of `proc` can reach (each once),
/// through jumps, loop exits and calls. Stops with `None` as soon as `visit`
/// returns `None`.
pub(super) fn each_op(def: &GameDef, proc: ProcId, mut visit: impl FnMut(Op) -> Option<()>) -> Option<()> {
    let entry = def.procs.get(usize::from(proc))?.entry as usize;
    walk(def, entry, |op| visit(op).map(|()| Walk::On))
}

/// What [`walk`] does after an op.
enum Walk {
    /// Goes on to the ops that can follow it.
    On,
    /// Ends this path here.
    End,
}

/// Calls `visit` on every op reachable from `start` (each once), through
/// jumps, loop exits and calls, a path ending at a `Return`, a `Fail` or
/// where `visit` says so. Stops with `None` as soon as `visit` returns `None`.
fn walk(def: &GameDef, start: usize, mut visit: impl FnMut(Op) -> Option<Walk>) -> Option<()> {
    let code = &def.code;
    let mut seen = vec![false; code.len()];
    let mut todo = vec![start];
    while let Some(pc) = todo.pop() {
        if std::mem::replace(seen.get_mut(pc)?, true) {
            continue;
        }
        let op = code[pc];
        if let Walk::End = visit(op)? {
            continue;
        }
        match op {
            Op::Return | Op::Fail(_) => continue,
            Op::Jump(to) => {
                todo.push(to as usize);
                continue;
            }
            Op::Call(callee) => todo.push(def.procs.get(usize::from(callee))?.entry as usize),
            _ => todo.extend(op.target().map(|to| to as usize)),
        }
        todo.push(pc + 1);
    }
    Some(())
}

/// Whether the code of `proc` only reads the game: it changes nothing,
/// draws no chance, asks no one and calls no hook (whose calls are
/// recorded), so running it again where nothing changed gives the same
/// values and nothing else.
pub(super) fn only_reads(def: &GameDef, proc: ProcId) -> bool {
    each_op(def, proc, |op| (op.facts().reach != Reach::Changes).then_some(())).is_some()
}

/// Whether `op` gives the same whatever faces the pieces show: it is
/// [`Reach::Fixed`], or reads what a sampled world's deal leaves as it is
/// (see [`Reach::ReadsPlaces`]).
fn face_blind(op: Op) -> bool {
    matches!(op.facts().reach, Reach::Fixed | Reach::ReadsPlaces)
}

/// Whether the offers built from the `ChoiceReset` at `offer_pc` up to the
/// decision it asks are the same whatever faces the hidden pieces show:
/// the code between reads no face ([`face_blind`]) and only offers, and
/// the decision is not of pieces (alike pieces are merged by their faces,
/// see `State::dedupe_offers`). A sampled world then need not build them
/// again after its deal.
pub(super) fn offers_blind_to_faces(def: &GameDef, offer_pc: usize) -> bool {
    if def.code.get(offer_pc) != Some(&Op::ChoiceReset) {
        return false;
    }
    walk(def, offer_pc + 1, |op| match op {
        // The offers end here; what follows runs after the answer.
        Op::Ask(decision) | Op::AskEach(decision, _) => {
            (!def.decisions[usize::from(decision)].kind.names_pieces()).then_some(Walk::End)
        }
        Op::ChoiceAdd | Op::ActionValue { .. } => Some(Walk::On),
        op => face_blind(op).then_some(Walk::On),
    })
    .is_some()
}

/// Whether the code of `proc` gives the same whatever faces the hidden
/// pieces show (see [`face_blind`]): an `anytime` action's condition, run
/// at every decision to offer it.
pub(super) fn blind_to_faces(def: &GameDef, proc: ProcId) -> bool {
    each_op(def, proc, |op| face_blind(op).then_some(())).is_some()
}
