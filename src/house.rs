//! House rules: a TOML file that names a rules file and sets its options.
//!
//! ```toml
//! rules = "../games/rps.rules"                      # relative to this file
//! name = "long night"                               # optional
//!
//! [options]
//! best_of = 5
//! ```
//!
//! Every problem is a diagnostic on the exact span in the TOML: an unknown
//! option (with the nearest name), a value of the wrong type or out of
//! range, a missing rules file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::check::{self, Checked, Failed, OptionSetting, SourceLoader};
use crate::diagnostic::{Code, Diagnostic, FileId, Sources, Span};
use crate::ir::{GameDef, OptionValue};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHouse {
    rules: Spanned<String>,
    name: Option<String>,
    #[serde(default)]
    options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
}

/// A parsed house-rules file.
#[derive(Clone, Debug)]
pub struct HouseRules {
    /// The rules file, resolved relative to the house file.
    pub rules: PathBuf,
    pub rules_span: Span,
    pub name: Option<String>,
    pub settings: Vec<OptionSetting>,
}

fn span(file: FileId, range: std::ops::Range<usize>) -> Span {
    Span::new(file, range.start, range.end)
}

impl HouseRules {
    /// Parses house rules already added to the sources as `file`.
    pub fn parse(file: FileId, path: &Path, text: &str) -> Result<HouseRules, Box<Diagnostic>> {
        let raw: RawHouse = toml::from_str(text).map_err(|e| {
            if crate::input::not_toml(path, text) {
                return Box::new(
                    Diagnostic::error(
                        Code::NotAHouseFile,
                        format!("`{}` is not a house-rules file", path.display()),
                    )
                    .help("a house-rules file is TOML: `rules = \"path/to/game.rules\"` and an `[options]` table"),
                );
            }
            let at = e.span().map_or(Span::new(file, 0, 0), |r| span(file, r));
            Box::new(
                Diagnostic::error(
                    Code::BadHouseRules,
                    format!("not a valid house-rules file: {}", e.message().trim()),
                )
                .label(at, "here")
                .help("a house-rules file has `rules = \"path/to/game.rules\"` and an `[options]` table"),
            )
        })?;
        let settings = raw
            .options
            .into_iter()
            .map(|(name, value)| {
                let value_span = span(file, value.span());
                let text = match value.into_inner() {
                    toml::Value::String(s) => s,
                    toml::Value::Array(items) => format!(
                        "[{}]",
                        items.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
                    ),
                    other => other.to_string(),
                };
                OptionSetting {
                    name_span: span(file, name.span()),
                    name: name.into_inner(),
                    value: text,
                    value_span,
                }
            })
            .collect();
        Ok(HouseRules {
            rules: tidy_path(&path.parent().unwrap_or(Path::new("")).join(raw.rules.get_ref())),
            rules_span: span(file, raw.rules.span()),
            name: raw.name,
            settings,
        })
    }
}

/// A game ready to play: its definition, the option values in force, and
/// how it was described (for transcript headers).
#[derive(Debug)]
pub struct LoadedGame {
    pub def: GameDef,
    pub options: Vec<OptionValue>,
    pub warnings: Vec<Diagnostic>,
    /// "games/variants/x.rules (extends games/rubber_paper_scissors.rules)".
    pub description: String,
    pub items: Vec<crate::syntax::ast::Item>,
}

/// Loads a `.rules` file or a house-rules `.toml` file, then applies
/// `extra` settings (from the command line) on top.
pub fn load_game(
    path: &Path,
    loader: &dyn SourceLoader,
    extra: impl FnOnce(&mut Sources) -> Result<Vec<OptionSetting>, Vec<Diagnostic>>,
) -> Result<LoadedGame, Box<Failed>> {
    let is_house = path.extension().is_some_and(|e| e == "toml");
    let (checked, house, house_file) = if is_house {
        let text = loader.load(path).map_err(|error| {
            let mut sources = Sources::default();
            let diagnostic = crate::input::unreadable(path, &error, &mut sources, "check the path");
            Box::new(Failed {
                diagnostics: vec![diagnostic],
                sources,
            })
        })?;
        let mut house_sources = Sources::default();
        let file = house_sources.add(path.display().to_string(), text.clone());
        let house = HouseRules::parse(file, path, &text).map_err(|d| {
            Box::new(Failed {
                diagnostics: vec![*d],
                sources: house_sources.clone(),
            })
        })?;
        let checked = match loader.load(&house.rules) {
            Ok(_) => check::check_file(&house.rules, loader)?,
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
        (checked, Some(house), Some(text))
    } else {
        (check::check_file(path, loader)?, None, None)
    };
    let Checked {
        mut def,
        warnings,
        items,
    } = checked;
    let mut settings = vec![];
    if let (Some(house), Some(text)) = (&house, house_file) {
        // The house file joins the sources so its spans can be drawn; parse
        // again against its id there.
        let file = def.sources.add(path.display().to_string(), text.clone());
        let reparsed = HouseRules::parse(file, path, &text).expect("parsed above");
        settings.extend(reparsed.settings);
        if let Some(name) = &house.name {
            def.name = format!("{} ({name})", def.name);
        }
    }
    match extra(&mut def.sources) {
        Ok(more) => settings.extend(more),
        Err(diagnostics) => {
            return Err(Box::new(Failed {
                diagnostics,
                sources: def.sources,
            }));
        }
    }
    let options = match check::resolve_settings(&def, &settings) {
        Ok(options) => options,
        Err(diagnostics) => {
            return Err(Box::new(Failed {
                diagnostics,
                sources: def.sources,
            }));
        }
    };
    let rules = match &house {
        Some(house) => house.rules.display().to_string(),
        None => path.display().to_string(),
    };
    let mut description = match &def.base {
        Some(base) => format!("{rules} (extends {base})"),
        None => rules,
    };
    if house.is_some() {
        description = format!("{} with house rules {}", description, path.display());
    }
    Ok(LoadedGame {
        def,
        options,
        warnings,
        description,
        items,
    })
}

/// `games/house/../x.rules` as `games/x.rules`: `..` resolved by name, so
/// paths read well in headers and diagnostics.
pub fn tidy_path(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir if out.file_name().is_some() && !out.ends_with("..") => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
