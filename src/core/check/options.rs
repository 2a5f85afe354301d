//! Options: typed, defaulted, described; their values come from the rules
//! file (defaults), the command line (`--set name=value`) or house rules.

use crate::diagnostic::{Code, Diagnostic, Sources, Span, nearest};
use crate::ir::{GameDef, OptionDef, OptionType, OptionValue};
use crate::syntax::ast::{self, LiteralKind};

/// Turns a declaration into an [`OptionDef`], checking the default.
pub(crate) fn declare(decl: &ast::OptionDecl) -> (OptionDef, Vec<Diagnostic>) {
    let mut diags = vec![];
    let ty = match &decl.ty {
        ast::OptionType::Bool => OptionType::Bool,
        ast::OptionType::Int { min, max } => {
            let (min, max) = (min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX));
            if min > max {
                diags.push(
                    Diagnostic::error(Code::BadOptionType, format!("the range {min}..{max} is empty"))
                        .label(decl.ty_span, "the lower bound is above the upper bound"),
                );
            }
            OptionType::Int { min, max }
        }
        ast::OptionType::Enum(names) => OptionType::Enum(names.iter().map(|n| n.name.clone()).collect()),
        ast::OptionType::IntList { min, max, items } => {
            let (min, max) = (min.unwrap_or(i64::MIN), max.unwrap_or(i64::MAX));
            if min > max {
                diags.push(
                    Diagnostic::error(Code::BadOptionType, format!("the range {min}..{max} is empty"))
                        .label(decl.ty_span, "the lower bound is above the upper bound"),
                );
            }
            let (fewest, most) = items.unwrap_or((1, i64::MAX));
            let count = |n: i64| {
                if n == i64::MAX {
                    usize::MAX
                } else {
                    usize::try_from(n).unwrap_or(usize::MAX)
                }
            };
            if fewest < 1 {
                diags.push(
                    Diagnostic::error(Code::BadOptionType, "a list option holds at least 1 item")
                        .label(decl.ty_span, format!("`with {fewest}..` allows an empty list"))
                        .help(format!(
                            "`table {} at N` reads an item, so an empty list would have nothing to read; write `with 1..{most} items`",
                            decl.name.name
                        )),
                );
            } else if fewest > most {
                diags.push(
                    Diagnostic::error(Code::BadOptionType, format!("the item count {fewest}..{most} is empty"))
                        .label(decl.ty_span, "the fewest items is above the most"),
                );
            }
            OptionType::IntList {
                min,
                max,
                min_items: count(fewest.max(1)),
                max_items: count(most),
            }
        }
    };
    let default = match literal_value(&ty, &decl.default.kind) {
        Ok(value) => value,
        Err(problem) => {
            diags.push(
                Diagnostic::error(
                    Code::BadOptionValue,
                    format!("the default of option `{}` {problem}", decl.name.name),
                )
                .label(decl.default.span, problem.clone())
                .label(decl.ty_span, format!("the option is {}", describe(&ty))),
            );
            fallback(&ty)
        }
    };
    let def = OptionDef {
        name: decl.name.name.clone(),
        ty,
        default,
        description: decl.description.clone().unwrap_or_default(),
        span: decl.name.span,
    };
    (def, diags)
}

fn fallback(ty: &OptionType) -> OptionValue {
    match ty {
        OptionType::Bool => OptionValue::Bool(false),
        OptionType::Int { min, max } => OptionValue::Int(0.clamp(*min, (*max).max(*min))),
        OptionType::Enum(_) => OptionValue::Enum(0),
        OptionType::IntList { .. } => OptionValue::IntList(vec![]),
    }
}

/// "a number from 1 to 99", "true or false", "one of loser, alternate, winner".
pub fn describe(ty: &OptionType) -> String {
    match ty {
        OptionType::Bool => "true or false".into(),
        OptionType::Int {
            min: i64::MIN,
            max: i64::MAX,
        } => "a whole number".into(),
        OptionType::Int { min, max } => format!("a whole number from {min} to {max}"),
        OptionType::Enum(names) => format!("one of {}", names.join(", ")),
        OptionType::IntList {
            min,
            max,
            min_items,
            max_items,
        } => {
            let items = format!("a list of {}", item_count(*min_items, *max_items));
            let numbers = if (*min, *max) == (i64::MIN, i64::MAX) {
                "whole numbers".to_string()
            } else {
                format!("whole numbers from {min} to {max}")
            };
            format!(
                "{items} {numbers}, such as [{}]",
                example(*min, *max, *max_items).join(", ")
            )
        }
    }
}

/// "1 or more", "5", "1 to 5".
fn item_count(fewest: usize, most: usize) -> String {
    match (fewest, most) {
        (fewest, usize::MAX) => format!("{fewest} or more"),
        (fewest, most) if fewest == most => format!("{fewest}"),
        (fewest, most) => format!("{fewest} to {most}"),
    }
}

/// A few items within a list option's range, for its description.
fn example(min: i64, max: i64, max_items: usize) -> Vec<String> {
    let start = 10.clamp(min, max.max(min));
    (0..max_items.clamp(1, 3))
        .scan(start, |value, _| {
            let item = *value;
            *value = value.saturating_mul(2).min(max);
            Some(item.to_string())
        })
        .collect()
}

fn literal_value(ty: &OptionType, literal: &LiteralKind) -> Result<OptionValue, String> {
    match (ty, literal) {
        (OptionType::Bool, LiteralKind::Bool(b)) => Ok(OptionValue::Bool(*b)),
        (OptionType::Int { min, max }, LiteralKind::Int(i)) => {
            if i < min || i > max {
                Err(format!("is {i}, outside {min}..{max}"))
            } else {
                Ok(OptionValue::Int(*i))
            }
        }
        (OptionType::Enum(names), LiteralKind::Name(name)) => match names.iter().position(|n| n == name) {
            Some(i) => Ok(OptionValue::Enum(i)),
            None => Err(format!("is `{name}`, not one of {}", names.join(", "))),
        },
        (
            OptionType::IntList {
                min,
                max,
                min_items,
                max_items,
            },
            LiteralKind::List(list),
        ) => {
            if list.len() < *min_items || list.len() > *max_items {
                let wanted = item_count(*min_items, *max_items);
                let n = list.len();
                let items = if n == 1 { "item" } else { "items" };
                return Err(format!("has {n} {items}, but needs {wanted}"));
            }
            match list.iter().position(|i| i < min || i > max) {
                Some(at) => Err(format!("has {} as item {}, outside {min}..{max}", list[at], at + 1)),
                None => Ok(OptionValue::IntList(list.clone())),
            }
        }
        (_, other) => Err(format!("is {}, not {}", describe_literal(other), describe(ty))),
    }
}

fn describe_literal(literal: &LiteralKind) -> String {
    match literal {
        LiteralKind::Int(i) => format!("the number {i}"),
        LiteralKind::Bool(b) => format!("`{b}`"),
        LiteralKind::Name(n) => format!("the name `{n}`"),
        LiteralKind::List(_) => "a list".into(),
    }
}

/// One `name=value` setting, with where it was written (for diagnostics).
#[derive(Clone, Debug)]
pub struct OptionSetting {
    /// The option's name.
    pub name: String,
    /// The value, as written.
    pub value: String,
    /// Where the name is written.
    pub name_span: Span,
    /// Where the value (or the whole setting) is written.
    pub value_span: Span,
}

impl OptionSetting {
    /// The settings a transcript recorded (`name`, `value` pairs), with no
    /// place in any source to point at.
    pub fn recorded(options: &[(String, String)]) -> Vec<OptionSetting> {
        options
            .iter()
            .map(|(name, value)| OptionSetting {
                name: name.clone(),
                value: value.clone(),
                name_span: Default::default(),
                value_span: Default::default(),
            })
            .collect()
    }

    /// `name=value` settings as a person typed them, each after `prefix` on
    /// a line of its own (`--set ` on the command line, nothing in the
    /// studio's form). Their spans point into a pseudo-file named `source`
    /// holding those lines, so a bad value is underlined where it was typed.
    pub fn parse_all(
        settings: &[String],
        prefix: &str,
        source: &str,
        sources: &mut Sources,
    ) -> Result<Vec<OptionSetting>, Vec<Diagnostic>> {
        let text: String = settings.iter().map(|s| format!("{prefix}{s}\n")).collect();
        let file = sources.add(source, text);
        let mut out = vec![];
        let mut errors = vec![];
        let mut offset = 0;
        for setting in settings {
            let start = offset + prefix.len();
            match setting.split_once('=') {
                Some((name, value)) => out.push(OptionSetting {
                    name: name.trim().to_string(),
                    value: value.to_string(),
                    name_span: Span::new(file, start, start + name.len()),
                    value_span: Span::new(file, start + name.len() + 1, start + setting.len()),
                }),
                None => errors.push(
                    Diagnostic::error(Code::BadOptionValue, format!("`{setting}` is not NAME=VALUE"))
                        .label(Span::new(file, start, start + setting.len()), "here")
                        .help(format!("write e.g. `{prefix}rounds=3`")),
                ),
            }
            offset = start + setting.len() + 1;
        }
        if errors.is_empty() { Ok(out) } else { Err(errors) }
    }
}

/// Parses `value` for option `index` of `def`.
pub fn parse_option_value(def: &GameDef, index: usize, value: &str) -> Result<OptionValue, String> {
    let ty = &def.options[index].ty;
    let value = value.trim();
    let literal = if let Ok(i) = value.parse::<i64>() {
        LiteralKind::Int(i)
    } else if value == "true" || value == "false" {
        LiteralKind::Bool(value == "true")
    } else if let Some(inner) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        // `[]` is the empty list; otherwise every item between commas is a number.
        let items: Result<Vec<i64>, _> = if inner.trim().is_empty() {
            Ok(vec![])
        } else {
            inner.split(',').map(|s| s.trim().parse()).collect()
        };
        match items {
            Ok(list) => LiteralKind::List(list),
            Err(_) => return Err(format!("`{value}` is not {}", describe(ty))),
        }
    } else {
        LiteralKind::Name(value.to_string())
    };
    literal_value(ty, &literal).map_err(|problem| format!("`{}` {problem}", def.options[index].name))
}

/// Applies settings over the defaults; every problem becomes a diagnostic.
pub fn resolve_settings(def: &GameDef, settings: &[OptionSetting]) -> Result<Vec<OptionValue>, Vec<Diagnostic>> {
    let mut values = def.default_options();
    let mut diags = vec![];
    for setting in settings {
        let Some(index) = def.option_index(&setting.name) else {
            let mut diag = Diagnostic::error(
                Code::UnknownOption,
                format!("`{}` has no option `{}`", def.name, setting.name),
            )
            .label(setting.name_span, "unknown option");
            diag = match nearest(&setting.name, def.options.iter().map(|o| o.name.as_str())) {
                Some(near) => diag.help(format!("did you mean `{near}`?")),
                None if def.options.is_empty() => diag.help("this game has no options"),
                None => diag.help(format!(
                    "the options are {}",
                    def.options
                        .iter()
                        .map(|o| o.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            };
            diags.push(diag);
            continue;
        };
        match parse_option_value(def, index, &setting.value) {
            Ok(value) => values[index] = value,
            Err(problem) => diags.push(Diagnostic::error(Code::BadOptionValue, problem).label(
                setting.value_span,
                format!("expected {}", describe(&def.options[index].ty)),
            )),
        }
    }
    if diags.is_empty() { Ok(values) } else { Err(diags) }
}
