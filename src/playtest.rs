//! Quick playtests for `rpsdsl check`: a few random games that surface
//! runtime errors (a runaway hook, an empty zone, a flow that never ends)
//! as diagnostics before a designer runs anything.

use crate::agents;
use crate::diagnostic::Diagnostic;
use crate::ir::GameDef;
use crate::scenario::Scenario;
use crate::session;

/// Plays `games` random games with default options; returns each distinct
/// runtime error once.
pub fn smoke_test(def: &GameDef, games: u64) -> Vec<Diagnostic> {
    let options = def.default_options();
    let mut found: Vec<Diagnostic> = vec![];
    for seed in 0..games {
        let Ok(mut players) = agents::from_spec("random", def.players(), seed) else {
            break;
        };
        if let Err(failure) = session::play(def, &options, seed, &Scenario::default(), &mut players) {
            let d = failure.diagnostic;
            if !found.iter().any(|f| f.code == d.code && f.message == d.message) {
                found.push(d);
            }
        }
    }
    found
}
