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
    let mut once = SaidOnce::after(&found);
    let per_value = (games / 4).max(2).min(games);
    for (index, value, shown) in other_values(def, base).into_iter().take(MAX_OPTION_VALUES) {
        let mut options = base.to_vec();
        options[index] = value;
        once.add(&mut found, smoke_test_with(def, &options, per_value), &shown);
    }
    found
}

/// Failures said once each, by code and message; one found with another
/// option value says which.
struct SaidOnce {
    seen: Vec<(crate::diagnostic::Code, String)>,
}

impl SaidOnce {
    /// Nothing said yet but `found`.
    fn after(found: &[Diagnostic]) -> SaidOnce {
        SaidOnce {
            seen: found.iter().map(|d| (d.code, d.message.clone())).collect(),
        }
    }

    /// Adds to `found` each of `more` not said yet, with the option value
    /// it was found with (`shown`: "`name = value`").
    fn add(&mut self, found: &mut Vec<Diagnostic>, more: Vec<Diagnostic>, shown: &str) {
        for mut d in more {
            if self
                .seen
                .iter()
                .any(|(code, message)| *code == d.code && *message == d.message)
            {
                continue;
            }
            self.seen.push((d.code, d.message.clone()));
            d.message = format!("{} (with option {shown})", d.message);
            found.push(d);
        }
    }
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
            check_other_shapes(path, loader, &game.def, &game.options, games, &mut diagnostics);
            (diagnostics, game.def.def.sources)
        }
        Err(failed) => (failed.diagnostics, failed.sources),
    };
    diagnostics.sort_by_key(|d| !d.is_error());
    (diagnostics, sources)
}

/// Most values `check` tries of one option that shapes a board.
pub const MAX_SHAPE_VALUES: usize = 64;

/// The rules checked and playtested (`games / 4` games, at least 2) for
/// every other value of each option a board's size is read from
/// ([`crate::ir::GameDef::shaped_by`]), one option at a time, the others
/// at their base values: at most [`MAX_SHAPE_VALUES`] values an option,
/// spread evenly over its range with both ends kept. Each failure not in
/// `found` yet is added once, with the value that shows it.
fn check_other_shapes(
    path: &std::path::Path,
    loader: &dyn crate::check::SourceLoader,
    def: &Game,
    base: &[OptionValue],
    games: u64,
    found: &mut Vec<Diagnostic>,
) {
    let mut once = SaidOnce::after(found);
    let per_value = (games / 4).max(2).min(games);
    for shaped in &def.shaped_by {
        let option = &def.options[usize::from(shaped.option)];
        let in_force = &base[usize::from(shaped.option)];
        let (low, high) = match option.ty {
            OptionType::Int { min, max } => (min, max),
            OptionType::IntList {
                min_items, max_items, ..
            } => (min_items as i64, max_items as i64),
            _ => continue,
        };
        // The rules' errors are said for the first value that shows them
        // (most read the same at the next value); playtests' for each.
        let mut rules_failed = false;
        for value in spread(low, high, MAX_SHAPE_VALUES) {
            if shaped.read(in_force) == value {
                continue;
            }
            let value = match in_force {
                // A list of that length: the items in force, over again.
                OptionValue::IntList(items) => {
                    let items: Vec<String> = items.iter().cycle().take(value as usize).map(i64::to_string).collect();
                    format!("[{}]", items.join(", "))
                }
                _ => value.to_string(),
            };
            let setting = [(option.name.clone(), value.clone())];
            let settings = crate::check::OptionSetting::recorded(&setting);
            let diagnostics = match crate::load::load_game(path, loader, |_| Ok(settings)) {
                Ok(game) => smoke_test_with(&game.def, &game.options, per_value),
                Err(_) if rules_failed => continue,
                Err(failed) => {
                    rules_failed = true;
                    failed.diagnostics.into_iter().filter(Diagnostic::is_error).collect()
                }
            };
            once.add(found, diagnostics, &format!("`{} = {value}`", option.name));
        }
    }
}

/// At most `most` values from `min` to `max`, evenly spread, both ends
/// included.
fn spread(min: i64, max: i64, most: usize) -> Vec<i64> {
    let span = i128::from(max) - i128::from(min);
    if span < most as i128 {
        return (min..=max).collect();
    }
    let steps = most as i128 - 1;
    // Between `min` and `max`, so back in range.
    let mut values: Vec<i64> = (0..=steps)
        .map(|i| (i128::from(min) + span * i / steps) as i64)
        .collect();
    values.dedup();
    values
}

#[cfg(test)]
mod tests {
    use super::spread;

    #[test]
    fn a_spread_keeps_both_ends_and_its_most() {
        assert_eq!(spread(4, 8, 64), vec![4, 5, 6, 7, 8]);
        let wide = spread(1, 1000, 64);
        assert_eq!((wide.len(), wide[0], wide[63]), (64, 1, 1000));
        assert!(wide.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(spread(i64::MIN, i64::MAX, 3), vec![i64::MIN, -1, i64::MAX]);
        assert_eq!(spread(3, 3, 64), vec![3]);
    }
}
