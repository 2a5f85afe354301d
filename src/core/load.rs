//! Loading a game, where every command starts: a `.rules` file, or a
//! house-rules `.toml` file that names one, plus option settings from the
//! command line, checked into a game ready to play.
//!
//! It joins [`check`] (the rules) and [`house`](crate::house) (the
//! house-rules TOML), and neither of them uses it. Each input file is read
//! once and parsed once.

use std::path::Path;
use std::sync::Arc;

use crate::check::{self, Checked, Failed, OptionSetting, SourceLoader};
use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::engine::Game;
use crate::house::HouseRules;
use crate::ir::{GameDef, OptionValue};

/// A game ready to play: its definition, the option values in force, and
/// how it was described (for transcript headers).
#[derive(Debug)]
pub struct LoadedGame {
    /// The checked definition with its compiled hooks.
    pub def: Game,
    /// The option values in force, one per option: the defaults, with the house rules' settings and then `extra` applied.
    pub options: Vec<OptionValue>,
    /// Warnings from checking the rules; the game is usable.
    pub warnings: Vec<Diagnostic>,
    /// "games/variants/x.rules (extends games/base.rules)".
    pub description: String,
    /// The rules' items as parsed, for tools that read the source (the formatter, the editor).
    pub items: Vec<crate::syntax::ast::Item>,
}

/// A house-rules file, parsed, with its text.
struct House {
    rules: HouseRules,
    text: Arc<str>,
}

/// Loads a `.rules` file or a house-rules `.toml` file, then applies
/// `extra` settings (from the command line) on top.
pub fn load_game(
    path: &Path,
    loader: &dyn SourceLoader,
    extra: impl FnOnce(&mut Sources) -> Result<Vec<OptionSetting>, Vec<Diagnostic>>,
) -> Result<LoadedGame, Box<Failed>> {
    let is_house = path.extension().is_some_and(|e| e == "toml");
    let (checked, mut house) = if is_house {
        let (checked, house) = load_house(path, loader)?;
        (checked, Some(house))
    } else {
        (check::check_file(path, loader)?, None)
    };
    let Checked {
        def: mut game,
        warnings,
        items,
    } = checked;
    let mut settings = vec![];
    if let Some(house) = &mut house {
        // The house file joins the game's sources so its spans can be drawn.
        // It was parsed against sources of its own, where it was file 0:
        // its settings move to its id here.
        let file = game.sources.add(path.display().to_string(), house.text.clone());
        settings.extend(
            std::mem::take(&mut house.rules.settings)
                .into_iter()
                .map(|mut setting| {
                    setting.name_span.file = file;
                    setting.value_span.file = file;
                    setting
                }),
        );
        if let Some(name) = &house.rules.name {
            game.name = format!("{} ({name})", game.name);
        }
    }
    match extra(&mut game.sources) {
        Ok(more) => settings.extend(more),
        Err(mut diagnostics) => {
            in_file_order(&mut diagnostics);
            return Err(Box::new(Failed {
                diagnostics,
                sources: game.def.sources,
            }));
        }
    }
    let options = match check::resolve_settings(&game, &settings) {
        Ok(options) => options,
        Err(mut diagnostics) => {
            in_file_order(&mut diagnostics);
            return Err(Box::new(Failed {
                diagnostics,
                sources: game.def.sources,
            }));
        }
    };
    let rules_path = match &house {
        Some(house) => house.rules.rules.clone(),
        None => path.to_path_buf(),
    };
    if let Some(shape) = reshaped(&game.def, &options) {
        // The board was built for other values: check the rules again for
        // these. They read the same files in the same order, so the spans
        // of the settings (in files added after them) still point right.
        let name = std::mem::take(&mut game.def.name);
        let sources = std::mem::take(&mut game.def.sources);
        let again = check::check_file_shaped(&rules_path, loader, &shape)?;
        game = again.def;
        game.def.name = name;
        game.def.sources = sources;
    }
    let rules = rules_path.display().to_string();
    let mut description = match &game.base {
        Some(base) => format!("{rules} (extends {base})"),
        None => rules,
    };
    if house.is_some() {
        description = format!("{} with house rules {}", description, path.display());
    }
    Ok(LoadedGame {
        def: game,
        options,
        warnings,
        description,
        items,
    })
}

/// The values to build the definition for when `options` give another
/// value to an option its board was built for ([`GameDef::shaped_by`]),
/// or `None` when it fits them.
fn reshaped(def: &GameDef, options: &[OptionValue]) -> Option<Vec<(String, i64)>> {
    if def
        .shaped_by
        .iter()
        .all(|s| s.read(&options[usize::from(s.option)]) == s.value)
    {
        return None;
    }
    Some(
        def.shaped_by
            .iter()
            .map(|s| {
                let option = usize::from(s.option);
                (def.options[option].name.clone(), s.read(&options[option]))
            })
            .collect(),
    )
}

/// Reads and parses the house-rules file at `path`, then reads and checks
/// the rules file it names.
fn load_house(path: &Path, loader: &dyn SourceLoader) -> Result<(Checked, House), Box<Failed>> {
    let text: Arc<str> = loader
        .load(path)
        .map_err(|error| {
            let mut sources = Sources::default();
            let diagnostic = crate::input::unreadable(path, &error, &mut sources, "check the path");
            Box::new(Failed {
                diagnostics: vec![diagnostic],
                sources,
            })
        })?
        .into();
    let mut house_sources = Sources::default();
    let file = house_sources.add(path.display().to_string(), text.clone());
    let house = HouseRules::parse(file, path, &text).map_err(|d| {
        Box::new(Failed {
            diagnostics: vec![*d],
            sources: house_sources.clone(),
        })
    })?;
    let checked = match loader.load(&house.rules) {
        Ok(rules_text) => check::check_source(&house.rules.display().to_string(), &rules_text, loader)?,
        Err(error) => {
            let mut diagnostic = crate::input::unreadable(
                &house.rules,
                &error,
                &mut house_sources,
                "`rules` is relative to the house-rules file",
            );
            if diagnostic.code == Code::UnreadableFile {
                diagnostic.message = format!("cannot read the rules file `{}`: {error}", house.rules.display());
            }
            return Err(Box::new(Failed {
                diagnostics: vec![diagnostic.label(house.rules_span, "named here")],
                sources: house_sources,
            }));
        }
    };
    Ok((checked, House { rules: house, text }))
}

/// The options whose values differ from their defaults, as `(name, value)`
/// pairs made printable: what a transcript's header, a report and a table's
/// page list as the game's settings. The terminal and the studio both list
/// them, so they live here, below both faces.
pub fn changed_options(def: &GameDef, values: &[OptionValue]) -> Vec<(String, String)> {
    def.options
        .iter()
        .zip(values)
        .filter(|(o, v)| o.default != **v)
        .map(|(o, v)| (o.name.clone(), crate::text::printable_string(&v.render(&o.ty))))
        .collect()
}

/// Diagnostics of settings in the order of the file (a house file's table
/// is read in the order of its names), the first hundred only and a count
/// of the rest, as `check` promises.
fn in_file_order(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by_key(|d| d.labels.first().map(|l| (l.span.file, l.span.start)));
    crate::diagnostic::cap(diagnostics);
}
