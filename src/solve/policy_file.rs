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
    let worded = likeliest(solution);
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
        memory: solution.memory,
        situations: solution
            .strategy
            .iter()
            .enumerate()
            // Sampling meets a million situations it never learns anything
            // in: their strategy is still uniform, which is how a player
            // plays a situation its file does not hold. Leaving them out
            // changes no choice and keeps the file small. A strategy from
            // the whole tree is exact, and kept whole.
            .filter(|(_, s)| solution.sampled.is_none() || !is_uniform(&s.actions))
            .map(|(i, s)| {
                let worded = worded.contains(&i);
                PolicySituation {
                    key: key_text(s.key),
                    seat: s.seat.clone(),
                    decision: s.decision.clone(),
                    situation: if worded { s.situation.clone() } else { String::new() },
                    actions: s
                        .actions
                        .iter()
                        .zip(s.keys.iter())
                        .map(|((action, p), &key)| PolicyAction {
                            action: if worded { action.to_string() } else { String::new() },
                            key: key_text(key),
                            p: *p,
                        })
                        .collect(),
                }
            })
            .collect(),
    }
}

/// Whether every action has the same probability.
fn is_uniform<T>(actions: &[(T, f64)]) -> bool {
    let first = actions.first().map_or(0.0, |(_, p)| *p);
    actions.iter().all(|(_, p)| (p - first).abs() < 1e-9)
}

/// Situations whose words a policy file keeps: the likeliest ones. The
/// words of a situation are its whole history, so keeping them all made a
/// file of hundreds of megabytes; the keys are what a player matches.
const WORDED: usize = 1_000;

/// The indices of `solution`'s [`WORDED`] likeliest situations.
fn likeliest(solution: &Solution) -> std::collections::HashSet<usize> {
    let mut order: Vec<usize> = (0..solution.strategy.len()).collect();
    order.sort_by(|&a, &b| {
        solution.strategy[b]
            .reach
            .total_cmp(&solution.strategy[a].reach)
            .then(a.cmp(&b))
    });
    order.into_iter().take(WORDED).collect()
}
