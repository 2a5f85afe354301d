//! What a procedure's code can do: the ops it can reach, following its
//! jumps and the procedures it calls. The engine skips or shortens work on
//! what this proves, so it errs on the side of "could do anything".

use crate::ir::{GameDef, Op, ProcId};

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
    each_op(def, proc, |op| (reach_of(op) != Reach::Changes).then_some(())).is_some()
}

/// What an op depends on or does.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Reach {
    /// Only values, the procedure's own locals, and what is fixed for the
    /// whole game: options, tables, seats, kinds, types, boards' shapes.
    Fixed,
    /// Reads what changes in a game: variables, pieces.
    ReadsGame,
    /// Changes the game, draws chance, asks, calls a hook, or ends it. New
    /// ops fall here until listed.
    Changes,
}

/// What `op` depends on or does (see [`Reach`]).
pub(super) fn reach_of(op: Op) -> Reach {
    match op {
        Op::Push(_)
        | Op::Pop
        | Op::Dup
        | Op::Load(_)
        | Op::Store(_)
        | Op::LoadAt(_)
        | Op::LoadOption(_)
        | Op::OptionTable(_)
        | Op::Table(_)
        | Op::Add
        | Op::Sub
        | Op::Mul
        | Op::Div
        | Op::Rem
        | Op::Eq
        | Op::Ne
        | Op::Lt
        | Op::Le
        | Op::Gt
        | Op::Ge
        | Op::Beats
        | Op::Not
        | Op::Neg
        | Op::Jump(_)
        | Op::JumpIfFalse(_)
        | Op::JumpIfTrue(_)
        | Op::Next { .. }
        | Op::NextNeighbour { .. }
        | Op::Call(_)
        | Op::Return
        | Op::ZoneOf(_)
        | Op::SpaceIn { .. }
        | Op::Opponent
        | Op::NextSeat
        | Op::KindAt(_)
        | Op::TypeAt(_)
        | Op::CellAt(_)
        | Op::Coordinate { .. }
        | Op::Step(_)
        | Op::Forward { .. }
        // An error, whatever the game.
        | Op::Fail(_) => Reach::Fixed,
        Op::LoadVar(_)
        | Op::LoadVarAt(_)
        | Op::NextPiece { .. }
        | Op::NextOnBoard { .. }
        | Op::Top
        | Op::Bottom
        | Op::Size
        | Op::Count(_)
        | Op::First(_)
        | Op::Matches(_)
        | Op::Lines { .. }
        | Op::Attr(_)
        | Op::SpaceOf(_)
        | Op::CountInGame(_)
        | Op::CountOnBoard { .. }
        | Op::LongestRun { .. } => Reach::ReadsGame,
        _ => Reach::Changes,
    }
}

/// Whether `op` gives the same whatever faces the pieces show: it is
/// [`Reach::Fixed`], or reads what a sampled world's deal leaves as it is
/// (variables, sizes of zones, which piece is where). A deal gives hidden
/// pieces other faces and moves nothing, so only reading a piece's type,
/// kind, value or owner, or counting or matching pieces by them, can tell.
fn face_blind(op: Op) -> bool {
    reach_of(op) == Reach::Fixed
        || matches!(
            op,
            Op::LoadVar(_) | Op::LoadVarAt(_) | Op::Size | Op::Top | Op::Bottom | Op::SpaceOf(_)
        )
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
