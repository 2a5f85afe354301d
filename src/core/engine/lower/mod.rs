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

mod board;
mod ins;
mod loops;
mod offers;
mod runs;
mod scoring;
#[cfg(test)]
mod tests;

pub(crate) use board::Steps;
pub(crate) use ins::{Arith, Cmp, Ins};
use loops::{join_counted_steps, join_piece_loop_entries, thread_back_jump};
pub(crate) use offers::{KIND_OFFER_LEN, KindOffer, MAX_OFFER_PARAMS, Offer};
use offers::{join_kind_offer_loops, offer_run};
use runs::fuse;
pub(crate) use runs::{CellTest, Operand, single};
use scoring::option_guard;
pub(crate) use scoring::{OptionTest, PieceTotals};

use super::reach::{blind_to_faces, offers_blind_to_faces, only_reads};
use super::tally::TallyLayout;
use super::watch::TriggerWatch;
use crate::ir::{Board, GameDef, KeyReads};

/// What the interpreter runs for a definition: the lowered program and the
/// tables its instructions read, built once with the game.
#[derive(Debug)]
pub(crate) struct Program {
    /// One instruction per op of `def.code`, at the same index.
    pub(crate) ins: Vec<Ins>,
    /// The candidate moves [`Ins::OfferAction`] offers.
    pub(crate) offers: Vec<Offer>,
    /// The tests [`Ins::CellTestJump`] makes.
    pub(crate) cell_tests: Vec<CellTest>,
    /// The loops [`Ins::OfferKinds`] runs.
    pub(crate) kind_offers: Vec<KindOffer>,
    /// Per board, where a step from each space leads ([`Op::Step`]).
    pub(crate) steps: Vec<Steps>,
    /// Per board that fits in 64 bits, each space's bit for
    /// [`Op::LongestRun`] (see [`Board::run_bits`]).
    pub(crate) run_bits: Vec<Option<Vec<u8>>>,
    /// How many pieces of each type and kind the game has ([`Op::CountInGame`]).
    pub(crate) totals: PieceTotals,
    /// Which types each zone's tally counts ([`super::tally`]).
    pub(crate) tally: TallyLayout,
    /// Per `anytime` action, the option that, when off, makes its condition
    /// false without running it (see [`option_guard`]).
    pub(crate) anytime_guards: Vec<Option<u16>>,
    /// Per op, whether it is a `ChoiceReset` whose offers no deal of hidden
    /// faces can change (see [`offers_blind_to_faces`]): a sampled world
    /// keeps the real game's offers instead of building them again.
    pub(crate) blind_offers: Vec<bool>,
    /// Per `anytime` action, whether its condition reads no face.
    pub(crate) blind_anytime: Vec<bool>,
    /// Which triggers need not run again while nothing they count moves.
    pub(crate) watch: TriggerWatch,
    /// Per score term, the option its `when` only tests, if that is all it
    /// does (see [`OptionTest`]).
    pub(crate) term_guards: Vec<Option<OptionTest>>,
    /// Whether every result key is `score` or a term's name (see
    /// [`crate::ir::KeyReads`]) and every score term and `when` only reads
    /// the game: the keys may then read the points just scored instead of
    /// computing them again.
    pub(crate) keys_read_points: bool,
}

/// The lowered program of a definition, and its tables.
pub(crate) fn lower(def: &GameDef) -> Program {
    let code = &def.code;
    let landed = landing_sites(def);
    let mut program: Vec<Ins> = vec![Ins::Slow; code.len()];
    let mut offers: Vec<Offer> = vec![];
    let mut cell_tests: Vec<CellTest> = vec![];
    let mut pc = 0;
    while pc < code.len() {
        // Fuse only a run nothing jumps into; it may be jumped to itself.
        let free = |len: usize| pc + len <= code.len() && (pc + 1..pc + len).all(|at| !landed[at]);
        let offered = offer_run(def, &code[pc..])
            .filter(|(_, len)| free(*len))
            .and_then(|(offer, len)| {
                let ins = Ins::OfferAction {
                    offer: u16::try_from(offers.len()).ok()?,
                    len: u16::try_from(len).ok()?,
                };
                offers.push(offer);
                Some(ins)
            });
        let tested = || {
            let test = CellTest::of(code.get(pc..pc + 8)?).filter(|_| free(8))?;
            let ins = Ins::CellTestJump(u16::try_from(cell_tests.len()).ok()?);
            cell_tests.push(test);
            Some(ins)
        };
        let fused = offered.or_else(tested).or_else(|| {
            [8, 6, 4, 3, 2]
                .into_iter()
                .filter(|&len| free(len))
                .find_map(|len| fuse(&code[pc..pc + len]))
        });
        match fused {
            Some(ins) => {
                program[pc] = ins;
                pc += ins.len();
            }
            None => {
                program[pc] = thread_back_jump(code, &program, &cell_tests, pc).unwrap_or_else(|| single(code[pc]));
                pc += 1;
            }
        }
    }
    join_counted_steps(&mut program);
    join_piece_loop_entries(code, &mut program);
    let kind_offers = join_kind_offer_loops(def, code, &mut program);
    Program {
        ins: program,
        offers,
        cell_tests,
        kind_offers,
        steps: def.boards.iter().map(Steps::of).collect(),
        run_bits: def.boards.iter().map(Board::run_bits).collect(),
        totals: PieceTotals::of(def),
        tally: TallyLayout::of(def, code),
        anytime_guards: def
            .anytime
            .iter()
            .map(|action| option_guard(code, def.procs[action.when as usize].entry))
            .collect(),
        blind_offers: (0..code.len()).map(|pc| offers_blind_to_faces(def, pc)).collect(),
        blind_anytime: def
            .anytime
            .iter()
            .map(|action| blind_to_faces(def, action.when))
            .collect(),
        watch: TriggerWatch::of(def),
        term_guards: def
            .score_terms
            .iter()
            .map(|term| OptionTest::of(code, def.procs[usize::from(term.when?)].entry))
            .collect(),
        keys_read_points: def.rank_keys.iter().all(|key| key.reads != KeyReads::Other)
            && def
                .score_terms
                .iter()
                .flat_map(|term| std::iter::once(term.proc).chain(term.when))
                .all(|proc| only_reads(def, proc)),
    }
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
        if let Some(target) = op.target() {
            mark(target);
        }
        // An op the engine may stop at can be run again, or gone on after.
        if op.facts().pauses {
            mark(pc as u32);
            mark(pc as u32 + 1);
        }
    }
    landed
}
