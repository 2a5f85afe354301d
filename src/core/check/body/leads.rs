//! The running leads a game keeps: the numbers per seat its winning
//! conditions read. `if count Token in tokens of p == 3 { win p }` makes
//! the Tokens in each seat's `tokens` a lead, `if wins of p == 5 { win p }`
//! the variable `wins`, and a result key such as `most points of player`
//! the variable `points`. A study reads them as the game goes where the game
//! has no score terms, so that even a game that ends by `win` has a leader
//! that can change (`verdict`'s tension).

use std::ops::Range;

use super::Compiler;
use crate::ir::{FamilyIndex, MatchBy, Matcher, Op, ProcId, RunningLead, ValueKind, VarEach};

impl Compiler {
    /// Notes the leads the condition compiled into `cond` reads, where the
    /// branches compiled after it (up to here) may win the game.
    pub(super) fn note_leads(&mut self, cond: Range<usize>) {
        let code = &self.f.code;
        if !code[cond.end..].iter().any(|op| matches!(op, Op::Win(_))) {
            return;
        }
        let found = self.leads_in(&code[cond]);
        self.add_leads(found);
    }

    /// Notes the leads a result key compiled into `proc` reads: the result
    /// ranks the players by them (`most points of player`).
    pub(super) fn note_key_leads(&mut self, proc: ProcId) {
        let entry = self.def.procs[usize::from(proc)].entry as usize;
        let Some(code) = self.def.code.get(entry..) else {
            return;
        };
        let end = code.iter().position(|op| *op == Op::Return).unwrap_or(code.len());
        let found = self.leads_in(&code[..end]);
        self.add_leads(found);
    }

    /// The leads `code` reads: per-player variables, and counts and sizes
    /// of a per-player family's zones (the zone is the last thing the count
    /// takes from the stack, so its `ZoneOf` comes just before).
    fn leads_in(&self, code: &[Op]) -> Vec<(String, RunningLead)> {
        let mut found = vec![];
        let per_player = |family: u16| self.def.families[usize::from(family)].by == FamilyIndex::PerPlayer;
        for (at, op) in code.iter().enumerate() {
            let zone = at.checked_sub(1).and_then(|before| match code[before] {
                Op::ZoneOf(family) if per_player(family) => Some(family),
                _ => None,
            });
            match (*op, zone) {
                (Op::LoadVarAt(slot), _) => {
                    let counter = self.def.vars.iter().find(|v| {
                        v.slot == slot && v.each == VarEach::Player && !v.constant && v.shows == ValueKind::Number
                    });
                    if let Some(var) = counter {
                        found.push((var.name.clone(), RunningLead::Var(slot)));
                    }
                }
                (Op::Count(matcher), Some(family)) if !matcher.owner => {
                    let what = match matcher.by {
                        MatchBy::Any => String::new(),
                        MatchBy::Type(t) => format!("{} in ", self.def.piece_types[usize::from(t)]),
                        MatchBy::Group(g) => format!("{} in ", self.def.groups[usize::from(g)].name),
                        // The type or kind is a value the rules compute.
                        MatchBy::TypeOnStack | MatchBy::KindOnStack => continue,
                    };
                    let name = format!("{what}{}", self.def.families[usize::from(family)].name);
                    found.push((name, RunningLead::Count { family, matcher }));
                }
                (Op::Size, Some(family)) => {
                    let matcher = Matcher {
                        by: MatchBy::Any,
                        owner: false,
                    };
                    let name = self.def.families[usize::from(family)].name.clone();
                    found.push((name, RunningLead::Count { family, matcher }));
                }
                _ => {}
            }
        }
        found
    }

    fn add_leads(&mut self, found: Vec<(String, RunningLead)>) {
        for (name, lead) in found {
            if !self.def.leads.iter().any(|(_, l)| *l == lead) {
                self.def.leads.push((name, lead));
            }
        }
    }
}
