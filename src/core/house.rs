//! House rules: a TOML file that names a rules file and sets its options.
//!
//! ```toml
//! rules = "../games/duel.rules"                     # relative to this file
//! name = "long night"                               # optional
//!
//! [options]
//! rounds = 5
//! ```
//!
//! Every problem is a diagnostic on the exact span in the TOML: an unknown
//! option (with the nearest name), a value of the wrong type or out of
//! range, a missing rules file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::check::OptionSetting;
use crate::diagnostic::{Code, Diagnostic, FileId, Span};
use crate::input::tidy_path;

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
    /// Where the house file names its rules file.
    pub rules_span: Span,
    /// The house rules' name, added to the game's name ("Some Game (name)").
    pub name: Option<String>,
    /// The `[options]` settings.
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
