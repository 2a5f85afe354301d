//! The choice table: for each decision's choices (a kind, a draft or menu
//! entry, an action, a number), how often the strong player and the random
//! player take it when it is offered, and how often the strong player went
//! on to win after taking it. Defined in `docs/metrics.md` ("Choices").

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::play::Pick;
use crate::ir::{ChoiceKind, ChoiceValue, GameDef};
use crate::sim::run::action_title;
use crate::sim::stats::Rate;

/// Offers to the strong player at least this many times before a choice is flagged.
const FLAG_MIN_OFFERS: u64 = 20;
/// Taken by the strong player at least this share of its offers: "dominant".
const DOMINANT: f64 = 0.9;
/// Taken by the strong player at most this share of its offers: "never worth it".
const NEVER: f64 = 0.05;

/// A value's choice as studies group it: an action by its title (whatever
/// its parameters), anything else by its label.
pub(crate) fn choice_group(def: &GameDef, decision: u16, value: i64) -> String {
    match &def.decisions[decision as usize].kind {
        ChoiceKind::Actions(actions) if value >= 0 && !ChoiceValue::from_raw(value).is_none() => actions
            .get(value as usize % actions.len().max(1))
            .map_or_else(|| def.choice_label(decision, value), action_title),
        _ => def.choice_label(decision, value),
    }
}

/// Who made a pick: the strong player, or random.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Strong,
    Random,
}

#[derive(Clone, Debug, Default)]
struct Counts {
    /// Per role (strong, random): picks at which it was offered among other choices.
    offered: [u64; 2],
    /// Per role: picks at which it was taken (when there was another choice).
    taken: [u64; 2],
    /// Takes by the strong player in games the strong player won.
    strong_won: u64,
}

/// Counts choices over games, keyed by decision and the choice's label.
pub(crate) struct ChoiceTally<'a> {
    def: &'a GameDef,
    labels: HashMap<(u16, i64), String>,
    /// Keyed by decision, then (for a draft) how many entries were on offer,
    /// the most first, then the choice's label.
    counts: BTreeMap<(u16, Reverse<usize>, String), Counts>,
}

impl<'a> ChoiceTally<'a> {
    pub(crate) fn new(def: &'a GameDef) -> Self {
        ChoiceTally {
            def,
            labels: HashMap::new(),
            counts: BTreeMap::new(),
        }
    }

    /// A value's choice as the table groups it: an action by its title
    /// (whatever its parameters), anything else by its label.
    fn label(&mut self, decision: u16, value: i64) -> String {
        let def = self.def;
        self.labels
            .entry((decision, value))
            .or_insert_with(|| choice_group(def, decision, value))
            .clone()
    }

    /// Counts one pick by `role`; `won` says whether the strong player won the game.
    pub(crate) fn add(&mut self, pick: &Pick, role: Role, won: bool) {
        let mut offered: Vec<String> = pick.offered.iter().map(|&v| self.label(pick.decision, v)).collect();
        offered.sort_unstable();
        offered.dedup();
        if offered.len() < 2 {
            // A forced choice tells nothing about preference.
            return;
        }
        let taken = self.label(pick.decision, pick.taken);
        let r = role as usize;
        // A draft's picks differ in kind: the first chooser sees every
        // entry, later ones what is left. Counted apart, the first pick's
        // row says what a player takes when it may take anything.
        let on_offer = match self.def.decisions[pick.decision as usize].kind {
            ChoiceKind::Menu(_) => offered.len(),
            _ => 0,
        };
        for label in offered {
            let is_taken = label == taken;
            let counts = self
                .counts
                .entry((pick.decision, Reverse(on_offer), label))
                .or_default();
            counts.offered[r] += 1;
            if is_taken {
                counts.taken[r] += 1;
                if role == Role::Strong && won {
                    counts.strong_won += 1;
                }
            }
        }
    }

    /// The table's rows, by decision (in the order the rules declare them) then label.
    pub(crate) fn rows(&self) -> Vec<ChoiceRow> {
        self.counts
            .iter()
            .map(|((decision, Reverse(on_offer), label), c)| {
                let strong = Rate::new(c.taken[0], c.offered[0]);
                let flag = if c.offered[0] < FLAG_MIN_OFFERS {
                    None
                } else if strong.rate >= DOMINANT {
                    Some("dominant")
                } else if strong.rate <= NEVER {
                    Some("never worth it")
                } else {
                    None
                };
                let name = &self.def.decisions[*decision as usize].name;
                ChoiceRow {
                    decision: match on_offer {
                        0 => name.clone(),
                        n => format!("{name} ({n} offered)"),
                    },
                    choice: label.clone(),
                    strong_taken: strong,
                    random_taken: Rate::new(c.taken[1], c.offered[1]),
                    strong_wins_after: Rate::new(c.strong_won, c.taken[0]),
                    flag,
                }
            })
            .collect()
    }
}

/// One row of the choice table.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceRow {
    /// The decision's name; for a draft, with how many entries were on
    /// offer (`draft (3 offered)`: the first pick of three).
    pub decision: String,
    /// The choice, as the transcript names it (an action without its parameters).
    pub choice: String,
    /// How often the strong player took it when it was offered with something else.
    pub strong_taken: Rate,
    /// The same for the random player.
    pub random_taken: Rate,
    /// Of the strong player's takes, the share in games it went on to win.
    pub strong_wins_after: Rate,
    /// `dominant` (taken at least 90% of the time it was offered, over at
    /// least 20 offers) or `never worth it` (at most 5%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<&'static str>,
}
