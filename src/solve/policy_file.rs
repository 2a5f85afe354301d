//! A solution as a policy file (`rpsdsl solve --save`), which the
//! `policy:FILE` player plays.

use super::Solution;
use crate::agents::policy::{self, PolicyAction, PolicyFile, PolicySituation, key_text};
use crate::engine::Game;
use crate::ir::OptionValue;

/// The strategy of `solution`, found for `def` with `options`, as a policy
/// file tied to that game and this build.
pub fn policy_file(def: &Game, options: &[OptionValue], solution: &Solution) -> PolicyFile {
    let (rules_hash, options) = policy::rules_identity(def, options);
    let method = match solution.method.as_str() {
        "mccfr" => format!("external-sampling MCCFR, {} iterations", solution.iterations),
        _ => format!("CFR+, {} iterations", solution.iterations),
    };
    PolicyFile {
        format: policy::FORMAT.into(),
        version: policy::VERSION,
        build: policy::BUILD.into(),
        game: def.name.clone(),
        rules_hash,
        options,
        seats: def.seats.clone(),
        method,
        exploitability: solution.exploitability,
        situations: solution
            .strategy
            .iter()
            .map(|s| PolicySituation {
                key: key_text(s.key),
                seat: s.seat.clone(),
                decision: s.decision.clone(),
                situation: s.situation.clone(),
                actions: s
                    .actions
                    .iter()
                    .zip(&s.keys)
                    .map(|((action, p), &key)| PolicyAction {
                        action: action.clone(),
                        key: key_text(key),
                        p: *p,
                    })
                    .collect(),
            })
            .collect(),
    }
}
