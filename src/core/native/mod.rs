//! The compiled tier: a game's flow program turned into machine code with
//! Cranelift, run beside the interpreter and meaning exactly what it means.
//!
//! The program is cut into regions, one per procedure. A region compiles
//! to one function that can be entered at the ops the interpreter may
//! resume at, and that runs until it meets an op it leaves to the engine:
//!
//! - the ops that only move values (the stack, locals, variables, options,
//!   arithmetic, comparisons, jumps and counted loops) are machine code,
//!   with the stack's values in registers;
//! - so are the board's geometry (cells, steps, forward directions,
//!   neighbour loops), a piece's space, zone sizes and action values, from
//!   tables built from `ir`;
//! - the other ops call back into the engine, which runs that one op with
//!   the interpreter's own code ([`Helpers`]); when the op may have changed
//!   the frames or the status (a call, a decision, the end), the code
//!   returns to the engine, which enters the region again where the frame
//!   stands.
//!
//! An op that fails (an overflow, a runaway loop) is run again by the
//! engine, so its error is the interpreter's own. This room reads `ir`
//! only: the engine hands it the helpers, and it hands back code.

mod depth;
mod emit;
mod inline;
mod machine;
mod tables;

use emit::Region;
pub use inline::{Inlined, inline};
pub use machine::{Exit, FAULT, Helper, Helpers, Machine, NO_SEAT, RELOAD};

use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::default_libcall_names;

use crate::ir::GameDef;

type RegionFn = unsafe extern "C" fn(*mut Machine, u32) -> u64;

/// Where compiled code can start, and what it needs there. It is only
/// ever lent out by the [`NativeCode`] that owns the machine code it
/// points into (never copied out of it), so that code outlives every call.
#[derive(Debug)]
pub struct Entry {
    code: RegionFn,
    /// The stack depth the frame must have here, above its base.
    pub depth: u32,
    /// The deepest stack the region reaches, above the frame's base.
    pub max_depth: u32,
}

impl Entry {
    /// Runs compiled code from `pc` until it gives control back.
    ///
    /// # Safety
    /// The [`NativeCode`] this entry was borrowed from is alive (a borrow
    /// of it, as [`NativeCode::entry`] lends, ensures it). Every pointer in `machine` is valid for the frame that stands at
    /// `pc`: `stack` has room for `max_depth` values past `stack_len`, of
    /// which the top `depth` are the frame's; `locals` holds the frame's
    /// procedure's locals; `vars` and `options` are the game's; and the
    /// helpers' `host` is what they expect.
    pub unsafe fn run(&self, machine: &mut Machine, pc: u32) -> Exit {
        // SAFETY: the caller keeps the contract above, which is all the
        // code reads or writes.
        Exit::decode(unsafe { (self.code)(machine, pc) })
    }
}

/// A game's flow program as machine code.
pub struct NativeCode {
    /// Per pc, the compiled code that can start there.
    entries: Vec<Option<Entry>>,
    /// Why regions were left to the interpreter, one line each.
    pub skipped: Vec<String>,
    memory: Option<JITModule>,
    /// The tables the code reads (see [`tables::Tables`]).
    _tables: tables::Tables,
}

// SAFETY: after `compile` the module is never used again but to free its
// memory when the code is dropped; the code itself is immutable and reads
// only what each call is given, so any thread may run it.
unsafe impl Send for NativeCode {}
// SAFETY: as above.
unsafe impl Sync for NativeCode {}

impl std::fmt::Debug for NativeCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NativeCode")
            .field("entries", &self.entries.iter().filter(|e| e.is_some()).count())
            .field("skipped", &self.skipped)
            .finish()
    }
}

impl Drop for NativeCode {
    fn drop(&mut self) {
        if let Some(module) = self.memory.take() {
            // SAFETY: the entries, the only pointers into this memory,
            // are dropped with `self`.
            unsafe { module.free_memory() };
        }
    }
}

impl NativeCode {
    /// The compiled code that can start at `pc`, if any.
    #[inline]
    pub fn entry(&self, pc: u32) -> Option<&Entry> {
        self.entries.get(pc as usize)?.as_ref()
    }

    /// Whether any region compiled.
    pub fn is_empty(&self) -> bool {
        self.entries.iter().all(Option::is_none)
    }
}

/// Compiles `def`'s flow program. A jump back counts a loop round while
/// `steps < round_limit`; at the limit the engine runs the jump, and fails.
/// The regions that can't be compiled are listed in
/// [`NativeCode::skipped`]; `Err` when the machine has no code generator.
pub fn compile(def: &GameDef, helpers: Helpers, round_limit: u64) -> Result<NativeCode, String> {
    let mut flags = settings::builder();
    for (flag, value) in [
        ("opt_level", "speed"),
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
    ] {
        flags.set(flag, value).map_err(|e| e.to_string())?;
    }
    let isa = cranelift_native::builder()
        .map_err(|e| format!("this machine has no code generator: {e}"))?
        .finish(settings::Flags::new(flags))
        .map_err(|e| e.to_string())?;
    let mut module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
    let mut emitter = emit::Emitter::new(&mut module, helpers, round_limit);
    let mut planned = vec![];
    let mut skipped = vec![];
    for plan in regions(def) {
        match plan {
            Ok(plan) => match emitter.region(def, &plan) {
                Ok(id) => planned.push((plan, id)),
                Err(why) => skipped.push(why),
            },
            Err(why) => skipped.push(why),
        }
    }
    let tables = std::mem::take(&mut emitter.tables);
    drop(emitter);
    module.finalize_definitions().map_err(|e| e.to_string())?;
    let mut entries: Vec<Option<Entry>> = (0..def.code.len()).map(|_| None).collect();
    for (plan, id) in planned {
        let address = module.get_finalized_function(id);
        // SAFETY: the function was emitted with this signature.
        let code: RegionFn = unsafe { std::mem::transmute::<*const u8, RegionFn>(address) };
        for &(pc, depth) in &plan.entries {
            entries[pc as usize] = Some(Entry {
                code,
                depth,
                max_depth: plan.max_depth,
            });
        }
    }
    Ok(NativeCode {
        entries,
        skipped,
        memory: Some(module),
        _tables: tables,
    })
}

/// The procedures as regions, each from its entry to the next one's.
fn regions(def: &GameDef) -> Vec<Result<Region, String>> {
    let mut starts: Vec<(u32, usize)> = def.procs.iter().enumerate().map(|(i, p)| (p.entry, i)).collect();
    starts.sort_unstable();
    let code_end = def.code.len() as u32;
    starts
        .iter()
        .enumerate()
        .map(|(k, &(start, proc))| {
            let end = starts.get(k + 1).map_or(code_end, |&(next, _)| next);
            let p = &def.procs[proc];
            let mut seeds = vec![(start, 0)];
            if (start..end).contains(&def.result_pc) {
                // `end game` leaves every frame but the first, emptied.
                seeds.push((def.result_pc, 0));
            }
            let depths = depth::depths(def, start, end, &seeds)
                .ok_or_else(|| format!("`{}`: its stack depth is not the same on every path", p.name))?;
            let entries = resume_points(def, start, &depths);
            let max_depth = depths.iter().flatten().copied().max().unwrap_or(0) + 1;
            Ok(Region {
                name: p.name.clone(),
                start,
                end,
                locals: p.locals,
                depths,
                entries,
                max_depth,
            })
        })
        .collect()
}

/// The pcs the engine may start a region at: its first op, the end of the
/// game's flow, around every op it runs itself (it may run the op again, or
/// go on after it), and at every other op it may go back to (a decision's
/// offers begin again at their `ChoiceReset`).
fn resume_points(def: &GameDef, start: u32, depths: &[Option<u32>]) -> Vec<(u32, u32)> {
    let at = |pc: u32| depths.get((pc - start) as usize).copied().flatten().map(|d| (pc, d));
    let mut points: Vec<(u32, u32)> = vec![];
    for (i, depth) in depths.iter().enumerate() {
        let pc = start + i as u32;
        if depth.is_none() {
            continue;
        }
        let op = def.code[pc as usize];
        if pc == start || pc == def.result_pc || emit::leaves_to_engine(op) || op.facts().pauses {
            points.extend(at(pc));
        }
        if emit::leaves_to_engine(op) {
            points.extend(at(pc + 1));
        }
    }
    points.sort_unstable();
    points.dedup();
    points
}
