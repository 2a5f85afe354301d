//! Inlining: the code of a small procedure written into its callers, for
//! the compiled tier.
//!
//! A call leaves machine code twice (into the callee's frame and back),
//! which costs far more than a small procedure's own work: a designer's
//! one-line helper (`store_of(p)`) inside a loop would otherwise dominate
//! the loop. So before compiling, every call of a small procedure that
//! neither asks, nor calls, nor ends the game is replaced by the
//! procedure's code, run in the caller's frame:
//!
//! - `Inlined(proc)` first, which counts the call as `Call` counts it (a
//!   flow stuck in its loops fails at the same step, pointing at the call);
//! - the arguments stored into locals of the caller's own, past its
//!   locals, and the callee's other locals set to 0, as a new frame's are;
//! - the callee's ops, their locals moved past the caller's and their
//!   jumps moved with them, each `Return` a jump past the inlined code
//!   (the callee leaves just its results on the stack there, which the
//!   pass checks).
//!
//! Callees are inlined first, so a procedure whose calls all went inline is
//! itself a leaf. A game with recursion, or with so many procedures that
//! the 200-deep limit could be reached, is left as it is: a call that is
//! not made cannot fail for depth, so inlining is only done where no call
//! can. The interpreter keeps the plain program: it is the reference, and
//! the differential test (`tests/engines.rs`) compares the two.

use std::ops::Range;

use crate::ir::{GameDef, Op, PieceFilter, Proc, ProcId, Span, Stack};

/// The longest callee body (in ops, after its own inlining) written into
/// its callers.
const MOST_OPS: usize = 96;

/// With no recursion, a frame stack is at most one chain of calls from
/// the flow plus one from a trigger or a score; below this many
/// procedures it can never reach the engine's limit of 200 frames.
const MOST_PROCS: usize = 90;

/// The flow program with small procedures inlined: what replaces the
/// definition's `code`, `spans`, `procs`, `filters` and `result_pc`.
#[derive(Debug, Clone)]
pub struct Inlined {
    /// The new code, every procedure contiguous, in the old order.
    pub code: Vec<Op>,
    /// Per op of `code`, where it came from in the sources.
    pub spans: Vec<Span>,
    /// The procedures with their new entries and locals.
    pub procs: Vec<Proc>,
    /// The loop filters, with copies for the inlined loops.
    pub filters: Vec<PieceFilter>,
    /// Where the main procedure scores and ranks.
    pub result_pc: u32,
    /// Per op of `code`, the pc it came from in the plain program (an
    /// inlined call's ops: the call's); empty for the plain program itself.
    pub plain_pcs: Vec<u32>,
    /// Per procedure, its locals in the plain program; empty as above.
    pub plain_locals: Vec<u16>,
    /// How many calls were inlined.
    pub calls: usize,
}

/// One procedure's code as the pass builds it: jump targets relative to
/// its first op.
#[derive(Clone, Default)]
struct Body {
    ops: Vec<Op>,
    spans: Vec<Span>,
    /// Per op, the plain program's pc it came from.
    origins: Vec<u32>,
    locals: u16,
    /// Per op of the old code (and one past its end), where it now lies.
    at: Vec<u32>,
}

/// The program with small procedures inlined, or `None` when nothing was
/// (or the game is one the pass leaves alone).
pub fn inline(def: &GameDef) -> Option<Inlined> {
    if def.procs.len() > MOST_PROCS {
        return None;
    }
    let ranges = crate::ir::reach::proc_ranges(def);
    let order = callees_first(def, &ranges)?;
    let mut filters = def.filters.clone();
    let mut bodies: Vec<Body> = vec![Body::default(); def.procs.len()];
    let mut inlinable = vec![false; def.procs.len()];
    let mut calls = 0;
    for proc in order {
        let body = rewrite(def, proc, &ranges[proc], &bodies, &inlinable, &mut filters, &mut calls)?;
        inlinable[proc] = proc != def.main as usize && can_inline(def.procs[proc].returns, &body);
        bodies[proc] = body;
    }
    if calls == 0 {
        return None;
    }
    lay_out(def, &ranges, bodies, filters, calls)
}

/// The procedures in an order where every callee comes before its callers,
/// or `None` when some procedure calls itself, directly or not.
fn callees_first(def: &GameDef, ranges: &[Range<usize>]) -> Option<Vec<usize>> {
    let callees = |proc: usize| {
        def.code[ranges[proc].clone()].iter().filter_map(|op| match op {
            Op::Call(callee) => Some(*callee as usize),
            _ => None,
        })
    };
    // Depth-first, marking procedures in progress to find a cycle.
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut marks = vec![Mark::New; def.procs.len()];
    let mut order = Vec::with_capacity(def.procs.len());
    for root in 0..def.procs.len() {
        if marks[root] != Mark::New {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(root, callees(root).collect())];
        marks[root] = Mark::Open;
        while let Some((proc, pending)) = stack.last_mut() {
            let proc = *proc;
            match pending.pop() {
                Some(callee) if callee >= marks.len() => return None,
                Some(callee) => match marks[callee] {
                    Mark::Open => return None,
                    Mark::Done => {}
                    Mark::New => {
                        marks[callee] = Mark::Open;
                        let next = callees(callee).collect();
                        stack.push((callee, next));
                    }
                },
                None => {
                    marks[proc] = Mark::Done;
                    order.push(proc);
                    stack.pop();
                }
            }
        }
    }
    Some(order)
}

/// `proc`'s code with every call of an inlinable procedure replaced by its
/// body; `None` when its jumps leave its own code (a layout the pass does
/// not know).
fn rewrite(
    def: &GameDef,
    proc: usize,
    range: &Range<usize>,
    bodies: &[Body],
    inlinable: &[bool],
    filters: &mut Vec<PieceFilter>,
    calls: &mut usize,
) -> Option<Body> {
    let old = &def.code[range.clone()];
    let inlined_here = |op: &Op| match op {
        Op::Call(callee) => inlinable[*callee as usize],
        _ => false,
    };
    // Where each old op lands: a call inlined takes its whole sequence.
    let mut at = Vec::with_capacity(old.len() + 1);
    let mut len = 0usize;
    for op in old {
        at.push(len as u32);
        len += match op {
            Op::Call(callee) if inlined_here(op) => {
                sequence_len(&def.procs[*callee as usize], &bodies[*callee as usize])
            }
            _ => 1,
        };
    }
    at.push(len as u32);
    let start = range.start as u32;
    let moved = |target: u32| -> Option<u32> { at.get(target.checked_sub(start)? as usize).copied() };
    let mut body = Body {
        ops: Vec::with_capacity(len),
        spans: Vec::with_capacity(len),
        origins: Vec::with_capacity(len),
        locals: def.procs[proc].locals,
        at: vec![],
    };
    for (i, &op) in old.iter().enumerate() {
        let span = def.spans[range.start + i];
        let origin = (range.start + i) as u32;
        match op {
            Op::Call(callee) if inlined_here(&op) => {
                let callee_def = &def.procs[callee as usize];
                write_call(&mut body, callee, callee_def, &bodies[callee as usize], span, filters)?;
                body.origins.resize(body.ops.len(), origin);
                *calls += 1;
            }
            _ => {
                let op = match op.target() {
                    Some(target) => op.with_target(moved(target)?),
                    None => op,
                };
                body.ops.push(op);
                body.spans.push(span);
                body.origins.push(origin);
            }
        }
    }
    debug_assert_eq!(body.ops.len(), len);
    body.at = at;
    Some(body)
}

/// The ops an inlined call of `callee` takes: the count, the arguments
/// and cleared locals, and its body.
fn sequence_len(callee: &Proc, body: &Body) -> usize {
    let cleared = usize::from(body.locals - callee.params);
    1 + usize::from(callee.params) + 2 * cleared + body.ops.len()
}

/// Writes an inlined call of `callee` at the end of `body`.
fn write_call(
    body: &mut Body,
    callee: ProcId,
    def: &Proc,
    code: &Body,
    span: Span,
    filters: &mut Vec<PieceFilter>,
) -> Option<()> {
    let base = body.locals;
    body.locals = base.checked_add(code.locals)?;
    let first = body.ops.len() as u32 + sequence_len(def, code) as u32 - code.ops.len() as u32;
    let mut push = |op: Op, span: Span| {
        body.ops.push(op);
        body.spans.push(span);
    };
    push(Op::Inlined(callee), span);
    // The arguments are on the stack, the last one on top.
    for param in (0..def.params).rev() {
        push(Op::Store(base + param), span);
    }
    for local in def.params..code.locals {
        push(Op::Push(0), span);
        push(Op::Store(base + local), span);
    }
    let past = first + code.ops.len() as u32;
    for (&op, &span) in code.ops.iter().zip(&code.spans) {
        let op = match op {
            Op::Return => Op::Jump(past),
            op => {
                let op = moved_locals(op, base, filters)?;
                match op.target() {
                    Some(target) => op.with_target(first + target),
                    None => op,
                }
            }
        };
        push(op, span);
    }
    Some(())
}

/// `op` with the locals it names moved up by `base` (its loop filter copied
/// with its locals moved, too).
fn moved_locals(op: Op, base: u16, filters: &mut Vec<PieceFilter>) -> Option<Op> {
    let up = |local: u16| local.checked_add(base);
    let mut moved_filter = |filter: u16| -> Option<u16> {
        let mut copy = *filters.get(usize::from(filter))?;
        copy.key = up(copy.key)?;
        copy.owner = up(copy.owner)?;
        filters.push(copy);
        u16::try_from(filters.len() - 1).ok()
    };
    Some(match op {
        Op::Load(l) => Op::Load(up(l)?),
        Op::Store(l) => Op::Store(up(l)?),
        Op::LoadAt(l) => Op::LoadAt(up(l)?),
        Op::Next { value, last, exit } => Op::Next {
            value: up(value)?,
            last: up(last)?,
            exit,
        },
        Op::NextNeighbour {
            board,
            from,
            value,
            exit,
        } => Op::NextNeighbour {
            board,
            from: up(from)?,
            value: up(value)?,
            exit,
        },
        Op::NextPiece {
            zone,
            index,
            value,
            filter,
            exit,
        } => Op::NextPiece {
            zone: up(zone)?,
            index: up(index)?,
            value: up(value)?,
            filter: moved_filter(filter)?,
            exit,
        },
        Op::NextOnBoard {
            board,
            cursor,
            value,
            filter,
            exit,
        } => Op::NextOnBoard {
            board,
            cursor: up(cursor)?,
            value: up(value)?,
            filter: moved_filter(filter)?,
            exit,
        },
        op => op,
    })
}

/// Whether a procedure's code may be written into its callers: short, a
/// leaf, doing nothing that belongs to its own frame or to the flow (an
/// offer, a question, the end of the game: `Facts::bound_to_frame`), and
/// leaving exactly its results on the stack at every `Return`.
fn can_inline(returns: u16, body: &Body) -> bool {
    if body.ops.len() > MOST_OPS {
        return false;
    }
    // `Return` is bound to its frame too, but becomes a jump.
    let plain = body
        .ops
        .iter()
        .all(|&op| op == Op::Return || !op.facts().bound_to_frame);
    plain && returns_cleanly(returns, &body.ops)
}

/// Whether every path through `ops` from the first keeps one stack depth
/// per op, never goes below the frame's base, stays inside, and is at
/// exactly `returns` values at each `Return`.
fn returns_cleanly(returns: u16, ops: &[Op]) -> bool {
    let mut depth: Vec<Option<u32>> = vec![None; ops.len()];
    let mut todo = vec![(0usize, 0u32)];
    while let Some((pc, d)) = todo.pop() {
        let Some(&op) = ops.get(pc) else {
            return false;
        };
        match depth[pc] {
            Some(seen) if seen == d => continue,
            Some(_) => return false,
            None => depth[pc] = Some(d),
        }
        let facts = op.facts();
        let Stack::Takes { pops, pushes } = facts.stack else {
            return false;
        };
        let Some(after) = d.checked_sub(pops).map(|d| d + pushes) else {
            return false;
        };
        if op == Op::Return {
            if d != u32::from(returns) {
                return false;
            }
            continue;
        }
        if facts.falls_through {
            todo.push((pc + 1, after));
        }
        if let Some(target) = op.target() {
            // A loop step jumps with what it found taken off, as it falls through.
            todo.push((target as usize, after));
        }
    }
    true
}

/// Lays the procedures' new bodies out one after another, in the order of
/// their old entries, with every jump made absolute.
fn lay_out(
    def: &GameDef,
    ranges: &[Range<usize>],
    mut bodies: Vec<Body>,
    filters: Vec<PieceFilter>,
    calls: usize,
) -> Option<Inlined> {
    let mut by_entry: Vec<usize> = (0..def.procs.len()).collect();
    by_entry.sort_by_key(|&p| (ranges[p].start, ranges[p].end));
    let mut code = Vec::new();
    let mut spans = Vec::new();
    let mut plain_pcs = Vec::new();
    let mut procs = def.procs.clone();
    let mut placed: Vec<Option<u32>> = vec![None; def.procs.len()];
    let mut result_pc = None;
    let mut laid: Vec<(usize, u32)> = vec![];
    for &proc in &by_entry {
        // Procedures that share their code (an empty one) share the entry.
        if let Some(&(_, entry)) = laid.iter().find(|(other, _)| ranges[*other] == ranges[proc]) {
            placed[proc] = Some(entry);
            continue;
        }
        let entry = u32::try_from(code.len()).ok()?;
        let body = std::mem::take(&mut bodies[proc]);
        if proc == def.main as usize {
            let old = def.result_pc.checked_sub(ranges[proc].start as u32)?;
            result_pc = Some(entry + *body.at.get(old as usize)?);
        }
        for op in body.ops {
            code.push(match op.target() {
                Some(target) => op.with_target(entry + target),
                None => op,
            });
        }
        spans.extend(body.spans);
        plain_pcs.extend(body.origins);
        placed[proc] = Some(entry);
        laid.push((proc, entry));
        procs[proc].locals = body.locals;
    }
    for (proc, entry) in placed.into_iter().enumerate() {
        procs[proc].entry = entry?;
    }
    // One past the last op, too: a frame's counter may stand there.
    plain_pcs.push(u32::try_from(def.code.len()).ok()?);
    Some(Inlined {
        code,
        spans,
        procs,
        filters,
        result_pc: result_pc?,
        plain_pcs,
        plain_locals: def.procs.iter().map(|p| p.locals).collect(),
        calls,
    })
}
