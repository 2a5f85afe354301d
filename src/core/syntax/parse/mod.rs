//! From source text to [`ast::File`](super::ast::File), with every syntax error
//! collected as a [`Diagnostic`].
//!
//! This module owns the entry points, the recovery after a syntax error and the
//! nesting limit. The tree is built by [`build::Ctx`], one file per part of the
//! grammar: [`items`], [`stmt`] and [`expr`]; [`errors`] words syntax errors.

mod build;
mod errors;
mod expr;
mod grammar;
mod items;
mod layout;
mod stmt;

use pest::Parser;

use super::ast::File;
use crate::diagnostic::{Code, Diagnostic, FileId, Span};
use build::Ctx;
use errors::{BraceScanner, floor_char_boundary, is_stack_limit, stack_limit_error, syntax_error};
use grammar::{ITEM_STARTS, PARSE_STACK, Rule, RulesParser};
pub use grammar::{MAX_NESTING, deeper};
pub use layout::{LineStarts, line_starts};

/// Parses one file. Returns the items that parsed and every syntax error.
pub fn parse_file(file: FileId, text: &str) -> (File, Vec<Diagnostic>) {
    // pest recurses once per grammar rule; give it a stack of its own so the
    // depth it reaches does not depend on the caller's thread.
    stacker::grow(PARSE_STACK, || parse_file_on_stack(file, text))
}

fn parse_file_on_stack(file: FileId, text: &str) -> (File, Vec<Diagnostic>) {
    pest::set_error_detail(true);
    let mut items = vec![];
    let mut errors = vec![];
    let mut offset = 0;
    // Scans for unclosed braces once, from the start to each error in turn.
    let mut braces = BraceScanner::default();
    // Set once a construct nested too deeply: one report per file is enough.
    let too_deep = std::cell::Cell::new(false);
    while offset <= text.len() {
        // pest finds an error's line by scanning back from the end of its
        // input, so each error costs the length of the rest of the file.
        // Past the errors a check shows, parse one item at a time: the rest
        // are only counted, and counting stays linear.
        let end = if errors.len() >= crate::diagnostic::MAX_REPORTED {
            // The last item runs to the end of the text.
            next_item_start(text, offset + 1).unwrap_or(text.len())
        } else {
            text.len()
        };
        match RulesParser::parse(Rule::file, &text[offset..end]) {
            Ok(mut pairs) => {
                let ctx = Ctx::new(file, offset, &too_deep);
                let file_pair = pairs.next().expect("the file rule always yields one pair");
                for pair in file_pair.into_inner() {
                    if pair.as_rule() != Rule::EOI {
                        items.push(ctx.item(pair));
                    }
                }
                errors.append(&mut ctx.misplaced.borrow_mut());
                if end == text.len() {
                    break;
                }
                offset = end;
            }
            Err(error) => {
                let (position, diagnostic) = if is_stack_limit(&error) {
                    stack_limit_error(file, offset, text, &error)
                } else if errors.len() >= crate::diagnostic::MAX_REPORTED {
                    // Only counted (see `diagnostic::cap`): where it is, nothing more.
                    let position = match error.location {
                        pest::error::InputLocation::Pos(p) => p,
                        pest::error::InputLocation::Span((s, _)) => s,
                    };
                    let position = error
                        .parse_attempts()
                        .map_or(position, |a| position.max(a.max_position));
                    let position = floor_char_boundary(text, (offset + position).min(text.len()));
                    let span = Span::new(file, position, position);
                    (
                        position,
                        Diagnostic::error(Code::Syntax, "unexpected text").label(span, ""),
                    )
                } else {
                    syntax_error(file, offset, text, &error, &mut braces)
                };
                if diagnostic.code != Code::TooDeeplyNested || !too_deep.replace(true) {
                    errors.push(diagnostic);
                }
                // Keep the items before the error: re-parse the prefix up to the
                // start of the item that failed.
                let item_start = item_start_before(text, offset, position);
                if item_start > offset
                    && let Ok(mut pairs) = RulesParser::parse(Rule::file, &text[offset..item_start])
                {
                    let ctx = Ctx::new(file, offset, &too_deep);
                    for pair in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
                        if pair.as_rule() != Rule::EOI {
                            items.push(ctx.item(pair));
                        }
                    }
                    errors.append(&mut ctx.misplaced.borrow_mut());
                }
                match next_item_start(text, position + 1) {
                    Some(next) => {
                        offset = next;
                        braces.restart_at(next);
                    }
                    None => break,
                }
            }
        }
    }
    (File { items }, errors)
}

/// Whether the first declaration of `text` parses (a file of only comments
/// counts as parsing). A file whose very first declaration fails may not be a
/// rules file at all; see [`looks_like_rules`].
pub fn first_item_parses(text: &str) -> bool {
    // On its own stack, as `parse_file` does: the text may nest deeply.
    stacker::grow(PARSE_STACK, || first_item_parses_on_stack(text))
}

fn first_item_parses_on_stack(text: &str) -> bool {
    let error = match RulesParser::parse(Rule::file, text) {
        Ok(_) => return true,
        Err(error) => error,
    };
    let position = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let start = item_start_before(text, 0, position);
    start > 0
        && RulesParser::parse(Rule::file, &text[..start]).is_ok_and(|mut pairs| {
            pairs
                .next()
                .is_some_and(|file| file.into_inner().any(|p| p.as_rule() != Rule::EOI))
        })
}

/// Whether any line of `text` starts like a rules declaration (`game "..."`,
/// `players 2`, `option ...`, `extends "..."`, ...).
pub fn looks_like_rules(text: &str) -> bool {
    text.lines().map(str::trim_start).any(starts_item)
}

fn starts_item(line: &str) -> bool {
    ITEM_STARTS.iter().any(|kw| {
        line.strip_prefix(kw)
            .is_some_and(|rest| rest.starts_with([' ', '\t', '"', '{']) || rest.is_empty())
    })
}

/// The starts of the lines that begin at or after `from`.
fn line_starts_from(text: &str, from: usize) -> impl Iterator<Item = usize> + '_ {
    // `from` may be one past an error inside a multi-byte character: move on
    // to the next character boundary before slicing.
    let mut from = from.min(text.len());
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let first = (from == 0 || text.as_bytes()[from - 1] == b'\n').then_some(from);
    first
        .into_iter()
        .chain(text[from..].match_indices('\n').map(move |(i, _)| from + i + 1))
}

fn next_item_start(text: &str, from: usize) -> Option<usize> {
    line_starts_from(text, from).find(|&start| starts_item(&text[start..]))
}

/// The start of the item line at or before `position`, no earlier than
/// `offset` (where this parse began). Only looks back from `position`, so
/// recovering from many errors stays linear in the file's length.
fn item_start_before(text: &str, offset: usize, position: usize) -> usize {
    let position = position.min(text.len());
    let mut end = position;
    loop {
        let start = text[..end].rfind('\n').map_or(0, |i| i + 1);
        if start <= offset {
            return offset;
        }
        if start <= position && starts_item(&text[start..]) {
            return start;
        }
        end = start - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::ITEM_STARTS;

    /// The first word of each alternative of `item` in the grammar: each
    /// alternative is a rule `NAME = { !kw_WORD ~ "WORD" ~ ... }`.
    fn grammar_item_starts() -> Vec<String> {
        let grammar = include_str!("../../../../grammar/rules.pest");
        let item = grammar
            .split("\nitem = _{")
            .nth(1)
            .expect("the grammar has an `item` rule");
        let alternatives = &item[..item.find('}').expect("`item` ends")];
        alternatives
            .split('|')
            .map(|rule| {
                let rule = rule.trim();
                let definition = grammar
                    .lines()
                    .find(|line| line.split_whitespace().next() == Some(rule) && line.contains('='))
                    .unwrap_or_else(|| panic!("the grammar defines `{rule}`"));
                let first_word = definition
                    .split('"')
                    .nth(1)
                    .unwrap_or_else(|| panic!("`{rule}` starts with a word"));
                first_word.to_string()
            })
            .collect()
    }

    #[test]
    fn error_recovery_knows_every_declaration_of_the_grammar() {
        let mut from_grammar = grammar_item_starts();
        let mut listed: Vec<String> = ITEM_STARTS.iter().map(|s| s.to_string()).collect();
        from_grammar.sort();
        listed.sort();
        assert_eq!(listed, from_grammar, "ITEM_STARTS must match the grammar's `item` rule");
    }
}
