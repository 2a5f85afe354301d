//! Quick playtests for `rpsdsl check`: a few random games that surface
//! runtime errors (a runaway hook, an empty zone, a flow that never ends)
//! as diagnostics before a designer runs anything.

use crate::agents;
use crate::diagnostic::Diagnostic;
use crate::engine::Game;
use crate::ir::{OptionType, OptionValue};
use crate::scenario::Scenario;
use crate::session;

/// Plays `games` random games with the given option values; returns each
/// distinct runtime error once.
pub(crate) fn smoke_test_with(def: &Game, options: &[OptionValue], games: u64) -> Vec<Diagnostic> {
    let mut found: Vec<Diagnostic> = vec![];
    for seed in 0..games {
        let Ok(mut players) = agents::for_game("random", def, options, seed) else {
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

/// Most option values tried besides the base ones, so that `check` stays
/// quick for a game with many options.
pub const MAX_OPTION_VALUES: usize = 16;

/// [`smoke_test_with`] on `base`, then, one option at a time, on each other
/// value of every `bool` and `one of` option (the others keep their base
/// value), with `games / 4` games each (at least 2) and at most
/// [`MAX_OPTION_VALUES`] values in all. Trying the values one at a time, not
/// every combination, keeps the cost linear in the options; a failure that
/// only two non-default values together cause may go unseen. A failure seen
/// with another value says which.
pub fn smoke_test_options(def: &Game, base: &[OptionValue], games: u64) -> Vec<Diagnostic> {
    let mut found = smoke_test_with(def, base, games);
    let mut seen: Vec<(crate::diagnostic::Code, String)> = found.iter().map(|d| (d.code, d.message.clone())).collect();
    let per_value = (games / 4).max(2).min(games);
    for (index, value, shown) in other_values(def, base).into_iter().take(MAX_OPTION_VALUES) {
        let mut options = base.to_vec();
        options[index] = value;
        for mut d in smoke_test_with(def, &options, per_value) {
            if seen
                .iter()
                .any(|(code, message)| *code == d.code && *message == d.message)
            {
                continue;
            }
            seen.push((d.code, d.message.clone()));
            d.message = format!("{} (with option {shown})", d.message);
            found.push(d);
        }
    }
    found
}

/// Every value of a `bool` or `one of` option other than its base value,
/// in the order the options are declared: (option, value, `name = value`).
fn other_values(def: &Game, base: &[OptionValue]) -> Vec<(usize, OptionValue, String)> {
    let mut values = vec![];
    for (index, option) in def.options.iter().enumerate() {
        let candidates: Vec<(OptionValue, String)> = match &option.ty {
            OptionType::Bool => [false, true]
                .into_iter()
                .map(|b| (OptionValue::Bool(b), b.to_string()))
                .collect(),
            OptionType::Enum(names) => names
                .iter()
                .enumerate()
                .map(|(i, name)| (OptionValue::Enum(i), name.clone()))
                .collect(),
            _ => continue,
        };
        for (value, text) in candidates {
            if base.get(index) != Some(&value) {
                values.push((index, value, format!("`{} = {text}`", option.name)));
            }
        }
    }
    values
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
            let mut diagnostics = smoke_test_options(&game.def, &game.options, games);
            diagnostics.extend(game.warnings);
            (diagnostics, game.def.def.sources)
        }
        Err(failed) => (failed.diagnostics, failed.sources),
    };
    diagnostics.sort_by_key(|d| !d.is_error());
    (diagnostics, sources)
}
