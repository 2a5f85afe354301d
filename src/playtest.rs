//! Quick playtests for `rpsdsl check`: a few random games that surface
//! runtime errors (a runaway hook, an empty zone, a flow that never ends)
//! as diagnostics before a designer runs anything.

use crate::agents;
use crate::diagnostic::Diagnostic;
use crate::game::Game;
use crate::scenario::Scenario;
use crate::session;

/// Plays `games` random games with the given option values; returns each
/// distinct runtime error once.
pub(crate) fn smoke_test_with(def: &Game, options: &[crate::ir::OptionValue], games: u64) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = vec![];
    for seed in 0..games {
        let Ok(mut players) = agents::from_spec("random", def.players(), seed) else {
            break;
        };
        if let Err(failure) = session::play(def, options, seed, &Scenario::default(), &mut players) {
            let d = failure.diagnostic;
            if !found.iter().any(|f| f.code == d.code && f.message == d.message) {
                found.push(d);
            }
        }
    }
    found
}

/// What `rpsdsl check` reports for one file: the checker's diagnostics, and
/// when the rules check clean, the failures of `games` quick random games.
/// Errors come before warnings.
pub fn check_and_playtest(
    path: &std::path::Path,
    loader: &dyn crate::check::SourceLoader,
    games: u64,
) -> (Vec<Diagnostic>, crate::diagnostic::Sources) {
    // A house-rules file is checked with its options in force.
    let (mut diagnostics, sources) = match crate::load::load_game(path, loader, |_| Ok(vec![])) {
        Ok(game) => {
            let mut diagnostics = smoke_test_with(&game.def, &game.options, games);
            diagnostics.extend(game.warnings);
            (diagnostics, game.def.def.sources)
        }
        Err(failed) => (failed.diagnostics, failed.sources),
    };
    diagnostics.sort_by_key(|d| !d.is_error());
    (diagnostics, sources)
}
