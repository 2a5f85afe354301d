//! Which triggers must run again before the next decision.
//!
//! Every trigger runs before every decision, and a search plays millions of
//! decisions. A trigger that checks for an instant win usually counts a few
//! piece types (`count Gem in pile of p == count Gem`), and most actions
//! move none of them: a bid, a bet or a pass moves nothing at all. Such a
//! trigger gives the same answer as last time, so it need not run.
//!
//! A trigger is *watched* when everything its code (and the procedures it
//! calls) can read is fixed for the whole game (constants, options, tables,
//! seats, its own locals) but for counts of pieces by named types, and when
//! its only possible effect is to end the game. Such a trigger that ran and
//! left the game going did nothing, and does nothing again until a piece of
//! a type it counts moves or shows another face. The state keeps a bit per
//! watched trigger, set when that happens (and at the start), cleared when
//! it runs and the game goes on.

use super::reach::each_op;
use crate::ir::{GameDef, MatchBy, Matcher, Op, ProcId, Reach, TypeId};

/// The most triggers watched: a bit each in a word of the state.
const MAX_WATCHED: usize = u64::BITS as usize;

/// Which triggers are watched, and which piece types each counts.
#[derive(Debug, Default)]
pub(crate) struct TriggerWatch {
    /// A bit per watched trigger.
    watched: u64,
    /// Per piece type, a bit per watched trigger that counts it.
    counted_by: Vec<u64>,
}

impl TriggerWatch {
    pub(crate) fn of(def: &GameDef) -> TriggerWatch {
        let mut watch = TriggerWatch {
            watched: 0,
            counted_by: vec![0; def.piece_types.len()],
        };
        for (t, trigger) in def.triggers.iter().enumerate().take(MAX_WATCHED) {
            let Some(types) = counted_types(def, trigger.proc) else {
                continue;
            };
            let bit = 1u64 << t;
            watch.watched |= bit;
            for (ty, counted) in types.into_iter().enumerate() {
                if counted {
                    watch.counted_by[ty] |= bit;
                }
            }
        }
        watch
    }

    /// Whether trigger `t` may be skipped while nothing it counts has moved.
    #[inline]
    pub(crate) fn is_watched(&self, t: usize) -> bool {
        t < MAX_WATCHED && self.watched & (1 << t) != 0
    }

    /// The triggers that must run again once a piece of type `ty` moves or
    /// stops or starts showing that type.
    #[inline]
    pub(crate) fn counting(&self, ty: TypeId) -> u64 {
        self.counted_by[usize::from(ty)]
    }
}

/// Per piece type, whether the code of `proc` (and the procedures it calls)
/// counts it, when that code reads nothing else that changes during a game
/// and can do nothing but end it; `None` otherwise.
fn counted_types(def: &GameDef, proc: ProcId) -> Option<Vec<bool>> {
    let mut counted = vec![false; def.piece_types.len()];
    each_op(def, proc, |op| match op {
        Op::Count(m) | Op::CountInGame(m) | Op::CountOnBoard { matcher: m, .. } | Op::Lines { matcher: m, .. } => {
            count_types(def, m, &mut counted)
        }
        // Ends the game: a trigger that ends it never runs again.
        Op::Win(_) | Op::DeclareDraw(_) => Some(()),
        _ => (op.facts().reach == Reach::Fixed).then_some(()),
    })?;
    Some(counted)
}

/// Marks the types `m` counts; `None` when it tests something a piece's
/// type does not fix (its kind may be chosen as it is played).
fn count_types(def: &GameDef, m: Matcher, counted: &mut [bool]) -> Option<()> {
    match m.by {
        MatchBy::Type(t) => counted[usize::from(t)] = true,
        MatchBy::Group(g) => {
            for &t in &def.groups[usize::from(g)].types {
                counted[usize::from(t)] = true;
            }
        }
        MatchBy::Any | MatchBy::TypeOnStack => counted.fill(true),
        MatchBy::KindOnStack => return None,
    }
    Some(())
}

#[cfg(test)]
mod tests {
    /// Triggers that read the game in different ways.
    const TRIGGERS: &str = r#"
game "Triggers"
players 2: A, B
kinds Bid = low | high
var bids = 0
pieces {
  Gem x2 in pool
  Pearl x2 in pool
  Coin x2 in pool
}
zones {
  pool public
  pile per player public
}
flow {
  repeat 3 times {
    A chooses bid from Bid
    add 1 to bids
    move top of pool to pile of A
  }
  declare draw "done"
}
procedure all_of(p: player) -> (yes) {
  return (count Gem in pile of p == count Gem)
}
trigger gems after every action {
  for p in players { if all_of(p) { win p } }
}
trigger heavy after every action {
  if count Pearl in pile of A + count Coin in pile of B > 3 { declare draw "heavy" }
}
trigger bidding after every action {
  if bids > 5 { win B }
}
trigger full after every action {
  if size of pile of A > 5 { win A }
}
"#;

    #[test]
    fn a_trigger_is_watched_when_it_reads_only_counts_of_types_and_can_only_end_the_game() {
        let def = crate::engine::test_game("triggers.rules", TRIGGERS);
        let watch = &def.program.watch;
        // `gems` counts through a procedure; `heavy` two types and draws.
        assert!(watch.is_watched(0) && watch.is_watched(1));
        // A variable changes in the flow, and `size of` counts every piece.
        assert!(!watch.is_watched(2) && !watch.is_watched(3));
        let [gem, pearl, coin] = [0, 1, 2].map(|t| watch.counting(t));
        assert_eq!((gem, pearl, coin), (0b01, 0b10, 0b10));
    }
}
