//! Scenarios: chance outcomes and decisions fixed in advance.
//!
//! A scenario fixes the top of any shuffle, any prefix of the dice rolls
//! and any prefix of the decisions;
//! where it ends, the agents go on. Tests use it to set up exact situations,
//! designers to explore one, and `replay` to re-run a transcript. The TOML
//! format is documented in docs/scenarios.md.

use serde::Deserialize;

use crate::check::OptionSetting;
use crate::diagnostic::{Code, Diagnostic, FileId, Span};
use crate::engine::{ForcedRoll, ForcedShuffle};
use crate::ir::GameDef;

/// A decision written as `"Seat: choice"`.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptedDecision {
    /// The decision, as written (`"Blue: fire"`).
    pub text: String,
    /// Where it is written, for a scenario read from a file.
    pub span: Option<Span>,
}

/// One shuffle fixed in advance (a `[[shuffle]]` entry): the pieces that end up on top.
#[derive(Clone, Debug, PartialEq)]
pub struct ShuffleSpec {
    /// The zone shuffled, by name ("deck", "hand of Orange").
    pub zone: String,
    /// The pieces on top, top first, by label ("Card red 7").
    pub top: Vec<String>,
    /// The pieces at the bottom, bottom first, by label.
    pub bottom: Vec<String>,
    /// Where it is written, for a scenario read from a file.
    pub span: Option<Span>,
}

/// A roll written as `"Die of Ann: 6"`: the die rolled and the face it shows.
#[derive(Clone, Debug, PartialEq)]
pub struct RollSpec {
    /// The roll as written: `"Die of Ann: 6"`.
    pub text: String,
    /// Where it is written in the scenario file, if it came from one.
    pub span: Option<Span>,
}

/// A scenario: what a game fixes in advance; the agents play on from where it ends.
#[derive(Clone, Debug, Default)]
pub struct Scenario {
    /// The seed for everything the scenario leaves open; wins over `--seed`.
    pub seed: Option<u64>,
    /// Option settings (`[options]`), checked like `--set`.
    pub options: Vec<OptionSetting>,
    /// The shuffles fixed in advance, in the order the game shuffles.
    pub shuffles: Vec<ShuffleSpec>,
    /// The first decisions of the game, in order.
    pub decisions: Vec<ScriptedDecision>,
    /// The first rolls of dice, in the order the game rolls them.
    pub rolls: Vec<RollSpec>,
    /// `skip_forced = true`: a decision with a single legal choice is
    /// taken without a line of `decisions` (a replay scripts every one).
    pub skip_forced: bool,
    /// A time written after a silence in a race is dropped instead of
    /// refused: transcripts of format 1 wrote one (see `transcript::Format`).
    pub silence_times: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    seed: Option<u64>,
    #[serde(default)]
    options: toml::Table,
    #[serde(default)]
    decisions: Vec<toml::Spanned<String>>,
    #[serde(default)]
    shuffle: Vec<toml::Spanned<RawShuffle>>,
    #[serde(default)]
    rolls: Vec<toml::Spanned<String>>,
    #[serde(default)]
    skip_forced: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShuffle {
    zone: String,
    #[serde(default)]
    top: Vec<String>,
    #[serde(default)]
    bottom: Vec<String>,
}

fn span_of(file: FileId, range: std::ops::Range<usize>) -> Span {
    Span::new(file, range.start, range.end)
}

impl Scenario {
    /// Parses a scenario file already added to the sources as `file`.
    pub fn from_toml(file: FileId, text: &str) -> Result<Scenario, Box<Diagnostic>> {
        let raw: RawScenario = toml::from_str(text).map_err(|e| {
            let span = e.span().map_or(Span::new(file, 0, 0), |r| span_of(file, r));
            Box::new(
                Diagnostic::error(Code::BadScenario, format!("the scenario is not valid: {}", e.message()))
                    .label(span, "here")
                    .help("see docs/scenarios.md for the format"),
            )
        })?;
        let mut options = vec![];
        // toml::Table loses spans; find each key's line for the label.
        for (name, value) in raw.options {
            let at = text
                .find(&format!("{name} ="))
                .or_else(|| text.find(&name))
                .unwrap_or(0);
            let value_text = match &value {
                toml::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            let name_span = Span::new(file, at, at + name.len());
            let line_end = text[at..].find('\n').map_or(text.len(), |e| at + e);
            options.push(OptionSetting {
                name,
                value: value_text,
                name_span,
                value_span: Span::new(file, at, line_end),
            });
        }
        Ok(Scenario {
            seed: raw.seed,
            skip_forced: raw.skip_forced,
            silence_times: false,
            options,
            shuffles: raw
                .shuffle
                .into_iter()
                .map(|s| {
                    let span = Some(span_of(file, s.span()));
                    let inner = s.into_inner();
                    ShuffleSpec {
                        zone: inner.zone,
                        top: inner.top,
                        bottom: inner.bottom,
                        span,
                    }
                })
                .collect(),
            decisions: raw
                .decisions
                .into_iter()
                .map(|d| {
                    let span = Some(span_of(file, d.span()));
                    ScriptedDecision {
                        text: d.into_inner(),
                        span,
                    }
                })
                .collect(),
            rolls: raw
                .rolls
                .into_iter()
                .map(|r| {
                    let span = Some(span_of(file, r.span()));
                    RollSpec {
                        text: r.into_inner(),
                        span,
                    }
                })
                .collect(),
        })
    }

    /// Resolves zone and piece names against the definition.
    pub fn forced_shuffles(&self, def: &GameDef) -> Result<Vec<ForcedShuffle>, Vec<Diagnostic>> {
        let mut forced = vec![];
        let mut errors = vec![];
        for spec in &self.shuffles {
            let label = |d: Diagnostic| match spec.span {
                Some(span) => d.label(span, "in this shuffle"),
                None => d,
            };
            let Some(zone) = def.zone_ids().find(|&z| def.zone_name(z) == spec.zone) else {
                let names: Vec<String> = def.zone_ids().map(|z| def.zone_name(z)).collect();
                let mut d = label(Diagnostic::error(
                    Code::BadScenario,
                    format!("no zone named `{}`", spec.zone),
                ));
                if let Some(near) = crate::diagnostic::nearest(&spec.zone, names.iter().map(String::as_str)) {
                    d = d.help(format!("did you mean `{near}`?"));
                }
                errors.push(d);
                continue;
            };
            let mut resolve = |names: &[String]| {
                let mut pieces = vec![];
                for name in names {
                    match def.piece_ids().find(|&p| def.piece_label(p).eq_ignore_ascii_case(name)) {
                        Some(p) => pieces.push(p),
                        None => errors.push(label(Diagnostic::error(
                            Code::BadScenario,
                            format!("no piece is called `{name}`"),
                        ))),
                    }
                }
                pieces
            };
            let top = resolve(&spec.top);
            let bottom = resolve(&spec.bottom);
            forced.push(ForcedShuffle { zone, top, bottom });
        }
        if errors.is_empty() { Ok(forced) } else { Err(errors) }
    }

    /// Resolves `"Die of Ann: 6"` rolls against the definition.
    pub fn forced_rolls(&self, def: &GameDef) -> Result<Vec<ForcedRoll>, Vec<Diagnostic>> {
        let mut forced = vec![];
        let mut errors = vec![];
        for spec in &self.rolls {
            let label = |d: Diagnostic| match spec.span {
                Some(span) => d.label(span, "in this roll"),
                None => d,
            };
            let parsed = spec
                .text
                .rsplit_once(':')
                .and_then(|(die, value)| Some((die.trim(), value.trim().parse::<i64>().ok()?)));
            let Some((name, value)) = parsed else {
                errors.push(label(
                    Diagnostic::error(Code::BadScenario, format!("`{}` is not `Die: face`", spec.text))
                        .help("write the die as the transcript names it and the face it shows, e.g. `Die of Ann: 6`"),
                ));
                continue;
            };
            let die = def
                .piece_ids()
                .find(|&p| def.pieces[p as usize].faces.is_some() && def.piece_label(p).eq_ignore_ascii_case(name));
            match die {
                Some(die) => forced.push(ForcedRoll { die, value }),
                None => errors.push(label(Diagnostic::error(
                    Code::BadScenario,
                    format!("no die is called `{name}`"),
                ))),
            }
        }
        if errors.is_empty() { Ok(forced) } else { Err(errors) }
    }
}
