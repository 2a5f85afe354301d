//! Choices: the runs that offer an action with its parameters, and the
//! loops that offer a seat every kind of a set, each run as one
//! instruction.

use super::ins::Ins;
use crate::ir::{ChoiceKind, GameDef, Op};

/// The most parameters of an action [`Ins::OfferAction`] offers in one go;
/// a larger action is offered op by op.
pub(crate) const MAX_OFFER_PARAMS: usize = 8;

/// One [`Ins::OfferAction`]: the menu entry offered, and the locals holding
/// the seat and the action's parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Offer {
    pub(crate) decision: u16,
    pub(crate) entry: u16,
    pub(crate) seat: u16,
    pub(crate) params: Vec<u16>,
}

/// A loop offering a seat each kind of a set, as `chooses x from Kinds`
/// compiles:
///
/// ```text
///  0 Push(0) Store(i)                       i = 0
///  2 Load(i) Push(n) Lt JumpIfFalse(17)     while i < n
///  6 Load(i) KindAt(set) Store(k)             k = member i of the set
///  9 Load(seat) Load(k) ChoiceAdd             offer k to seat
/// 12 Load(i) Push(1) Add Store(i) Jump(2)     i += 1
/// ```
///
/// A choice of kinds that every player makes at once, every round, runs it
/// for each seat: six instructions a kind, one instruction so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KindOffer {
    pub(crate) seat: u16,
    pub(crate) index: u16,
    pub(crate) kind: u16,
    pub(crate) set: u16,
    /// How many kinds: the first `count` members of the set.
    pub(crate) count: u16,
}

/// The length of a [`KindOffer`] loop, from its `Push(0)` to past its jump back.
pub(crate) const KIND_OFFER_LEN: usize = 17;

impl KindOffer {
    pub(super) fn of(def: &GameDef, code: &[Op], at: usize) -> Option<KindOffer> {
        let head = u32::try_from(at + 2).ok()?;
        let exit = u32::try_from(at + KIND_OFFER_LEN).ok()?;
        let &[
            Op::Push(0),
            Op::Store(i),
            Op::Load(i1),
            Op::Push(n),
            Op::Lt,
            Op::JumpIfFalse(out),
            Op::Load(i2),
            Op::KindAt(set),
            Op::Store(k),
            Op::Load(seat),
            Op::Load(k1),
            Op::ChoiceAdd,
            Op::Load(i3),
            Op::Push(1),
            Op::Add,
            Op::Store(i4),
            Op::Jump(back),
        ] = code.get(at..at + KIND_OFFER_LEN)?
        else {
            return None;
        };
        let members = def.kind_sets.get(usize::from(set))?.members.len();
        let count = u16::try_from(n).ok().filter(|&n| usize::from(n) <= members)?;
        let locals_agree = [i1, i2, i3, i4].iter().all(|&slot| slot == i) && k1 == k && k != i;
        // The seat is read each round: the loop must not write it.
        (locals_agree && out == exit && back == head && seat != i && seat != k).then_some(KindOffer {
            seat,
            index: i,
            kind: k,
            set,
            count,
        })
    }
}

/// Gives each [`KindOffer`] loop its entry instruction, in place of the
/// counter's `SetLocal`, and returns the loops. The loop's own instructions
/// stay: its jump back comes to them, and so does the entry when a round
/// could be the one that makes the flow endless.
pub(super) fn join_kind_offer_loops(def: &GameDef, code: &[Op], program: &mut [Ins]) -> Vec<KindOffer> {
    // How many ways lead to each op but from the op before it.
    let mut ways_in = vec![0u32; code.len() + 1];
    let entries = def.procs.iter().map(|p| p.entry).chain([def.result_pc]);
    for target in code.iter().filter_map(|op| op.target()).chain(entries) {
        if let Some(ways) = ways_in.get_mut(target as usize) {
            *ways += 1;
        }
    }
    let mut loops = vec![];
    for (at, ins) in program.iter_mut().enumerate() {
        if !matches!(ins, Ins::SetLocal { value: 0, .. }) {
            continue;
        }
        let Some(offer) = KindOffer::of(def, code, at) else {
            continue;
        };
        // Only the loop's own jump back comes into it (none of its ops
        // hands control away and comes back).
        let entered_only_at_its_head = (at + 1..at + KIND_OFFER_LEN).all(|pc| ways_in[pc] == u32::from(pc == at + 2));
        if let (true, Ok(index)) = (entered_only_at_its_head, u16::try_from(loops.len())) {
            *ins = Ins::OfferKinds(index);
            loops.push(offer);
        }
    }
    loops
}

/// The [`Offer`] of a run `Load(seat) Load(param)... ActionValue ChoiceAdd`
/// at the start of `code`, loading exactly the action's parameters, and the
/// run's length.
pub(super) fn offer_run(def: &GameDef, code: &[Op]) -> Option<(Offer, usize)> {
    let loads = code.iter().take_while(|op| matches!(op, Op::Load(_))).count();
    let (Op::ActionValue { decision, entry }, Op::ChoiceAdd) = (*code.get(loads)?, *code.get(loads + 1)?) else {
        return None;
    };
    let ChoiceKind::Actions(actions) = &def.decisions.get(decision as usize)?.kind else {
        return None;
    };
    let params = actions.get(entry as usize)?.params.len();
    // The seat and the parameters, and nothing else loaded before them.
    if params > MAX_OFFER_PARAMS || loads != params + 1 {
        return None;
    }
    let slot = |op: &Op| match *op {
        Op::Load(slot) => slot,
        _ => unreachable!("counted as loads above"),
    };
    let offer = Offer {
        decision,
        entry,
        seat: slot(&code[0]),
        params: code[1..loads].iter().map(slot).collect(),
    };
    Some((offer, loads + 2))
}
