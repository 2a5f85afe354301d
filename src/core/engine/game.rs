//! A game ready to run: the checked definition, plain data, and beside it
//! the compiled hooks it calls.
//!
//! [`GameDef`] is what `check` compiles the rules to and knows nothing of
//! rhai; [`Script`] holds the sandboxed rhai engine and the compiled hook
//! bodies, built from the definition. Keeping them apart keeps `ir` free of
//! `script` (which reads the definition). Code that runs a game takes a
//! `&Game`; code that only reads the definition takes a `&GameDef`, and a
//! `&Game` serves there too, since it derefs to its definition.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};

use super::lower::{Ins, Program, lower};
use std::sync::Mutex;

use super::chance::Chance;
use super::events::Event;
use super::state::State;
use crate::ir::{ChoiceKind, GameDef, MenuPieces, OptionValue};
use crate::native::{Inlined, NativeCode};
use crate::script::Script;

/// Which back end runs a game's flow. Both mean the same: the interpreter
/// is the reference, and the compiled tier gives byte-identical results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The interpreter over the lowered program (`engine::vm`).
    Interpreter,
    /// The flow compiled to machine code (`native`), with the interpreter
    /// running whatever the compiled code leaves to it.
    #[default]
    Compiled,
}

impl Engine {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Interpreter => "interpreter",
            Engine::Compiled => "compiled",
        }
    }
}

/// A checked definition and its compiled hooks. It is shared by reference,
/// never cloned: simulations run games on many threads from one `Game`
/// (the rhai engine is built with its `sync` feature).
#[derive(Debug)]
pub struct Game {
    /// The checked definition.
    pub def: GameDef,
    /// The compiled hooks, if the rules declare any.
    pub(crate) script: Option<Script>,
    /// The flow program as the interpreter runs it (see [`lower`]).
    pub(crate) program: Program,
    /// Per piece definition, whether another one has the same identity
    /// ([`GameDef::same_identity`]): only such pieces can be alike in a
    /// menu of choices.
    pub(crate) twinned: Vec<bool>,
    /// Per decision, per action of its menu (none for other decisions),
    /// where each piece parameter lies in an offer's value: the value
    /// divided by the weight, modulo the radix (see [`MenuPieces`]).
    pub(crate) menu_pieces: Vec<Vec<MenuPieces>>,
    /// The flow as machine code, when the compiled tier runs the game.
    pub(crate) native: Option<NativeCode>,
    /// Per pc, the instruction the interpreter runs for that op alone:
    /// what compiled code has the engine run (empty for the interpreter).
    pub(crate) singles: Vec<Ins>,
    /// The program as `check` wrote it, kept while the compiled tier runs
    /// it with small procedures inlined (see [`crate::native::inline`]).
    pub(crate) plain: Option<Box<Inlined>>,
    /// Per variable slot, the variable whose first slot it is (its id): a
    /// variable's write is recorded without a search.
    pub(crate) var_at_slot: Vec<Option<u16>>,
    /// The state at the first decision of a game whose start draws
    /// nothing by chance, for the options it was set up with: every later
    /// game with those options starts from a copy (see [`State::start`]).
    /// Forgotten whenever the program or the definition may change.
    pub(crate) prepared: Mutex<Option<Box<PreparedStart>>>,
}

/// A game's start, set up once: what [`State::start`] would build and
/// record for `options` with any seed.
#[derive(Debug)]
pub(crate) struct PreparedStart {
    options: Vec<OptionValue>,
    state: State,
    events: Vec<Event>,
}

impl Game {
    /// The definition and its hooks, with the program lowered for the
    /// interpreter. The definition cannot change afterwards: the lowered
    /// program is built from it.
    pub(crate) fn new(def: GameDef, script: Option<Script>) -> Game {
        let program = lower(&def);
        let mut copies: HashMap<_, usize> = HashMap::new();
        let identity = |p: &crate::ir::Piece| (p.ty, p.kind, p.value, p.owner);
        for piece in &def.pieces {
            *copies.entry(identity(piece)).or_default() += 1;
        }
        let twinned = def.pieces.iter().map(|p| copies[&identity(p)] > 1).collect();
        // The first variable declared at a slot is the one its writes name.
        let mut var_at_slot = vec![None; def.var_slots];
        for (id, var) in def.vars.iter().enumerate() {
            if let Some(at) = var_at_slot.get_mut(usize::from(var.slot))
                && at.is_none()
            {
                *at = u16::try_from(id).ok();
            }
        }
        let menu_pieces = def
            .decisions
            .iter()
            .map(|decision| match &decision.kind {
                ChoiceKind::Actions(actions) => actions.iter().map(|a| MenuPieces::of(actions.len(), a)).collect(),
                _ => vec![],
            })
            .collect();
        Game {
            def,
            script,
            program,
            twinned,
            menu_pieces,
            native: None,
            singles: vec![],
            plain: None,
            var_at_slot,
            prepared: Mutex::new(None),
        }
    }

    /// A copy of the start kept for `options`, drawing from `seed` from
    /// now on, its events added to `events`; `None` when none is kept.
    pub(crate) fn prepared_start(&self, options: &[OptionValue], seed: u64, events: &mut Vec<Event>) -> Option<State> {
        let kept = self.prepared.lock().ok()?;
        let kept = kept.as_ref().filter(|k| k.options == options)?;
        let mut state = kept.state.clone();
        state.set_chance(Chance::seeded(seed));
        events.extend_from_slice(&kept.events);
        Some(state)
    }

    /// Keeps `state`, just set up for `options` without a draw, and the
    /// events its start recorded, for the next game's start.
    pub(crate) fn keep_start(&self, options: &[OptionValue], state: &State, events: &[Event]) {
        if let Ok(mut kept) = self.prepared.lock() {
            *kept = Some(Box::new(PreparedStart {
                options: options.to_vec(),
                state: state.clone(),
                events: events.to_vec(),
            }));
        }
    }

    /// Whether a start is kept for later games: the last game started drew
    /// nothing by chance before its first decision.
    pub fn keeps_a_start(&self) -> bool {
        self.prepared.lock().is_ok_and(|kept| kept.is_some())
    }

    /// Forgets the kept start: the program or the definition may change.
    pub(crate) fn forget_start(&mut self) {
        if let Ok(kept) = self.prepared.get_mut() {
            *kept = None;
        }
    }

    /// Puts `program` in the definition's place (and lowers it for the
    /// interpreter), and returns the one it replaces.
    pub(crate) fn swap_program(&mut self, program: Inlined) -> Inlined {
        self.forget_start();
        let def = &mut self.def;
        let old = Inlined {
            code: std::mem::replace(&mut def.code, program.code),
            spans: std::mem::replace(&mut def.spans, program.spans),
            procs: std::mem::replace(&mut def.procs, program.procs),
            filters: std::mem::replace(&mut def.filters, program.filters),
            result_pc: std::mem::replace(&mut def.result_pc, program.result_pc),
            plain_pcs: std::mem::replace(&mut def.plain_pcs, program.plain_pcs),
            plain_locals: std::mem::replace(&mut def.plain_locals, program.plain_locals),
            calls: program.calls,
        };
        self.program = lower(&self.def);
        old
    }

    /// The back end that runs the game.
    pub fn engine(&self) -> Engine {
        if self.native.is_some() {
            Engine::Compiled
        } else {
            Engine::Interpreter
        }
    }
}

impl Deref for Game {
    type Target = GameDef;

    fn deref(&self) -> &GameDef {
        &self.def
    }
}

/// For what the loaders adjust after checking: names, sources, printable
/// labels. The flow program must not change: the interpreter runs the
/// program lowered from it when the game was built.
impl DerefMut for Game {
    fn deref_mut(&mut self) -> &mut GameDef {
        self.forget_start();
        &mut self.def
    }
}
