//! From source text to [`ast::File`](super::ast::File), with every syntax error
//! collected as a [`Diagnostic`].

use pest::Parser;
use pest::iterators::Pair;

use super::ast::*;
use crate::diagnostic::{Code, Diagnostic, FileId, Span};

#[derive(pest_derive::Parser)]
#[grammar = "grammar/rules.pest"]
struct RulesParser;

/// Words that begin a top-level declaration; after a syntax error the parser
/// resumes at the next line that starts with one, so one mistake does not hide
/// the next.
///
/// It must list the first word of every alternative of the grammar's `item`
/// rule; a test reads `grammar/rules.pest` and holds the two together.
const ITEM_STARTS: &[&str] = &[
    "extends",
    "override",
    "table",
    "constant",
    "anytime",
    "game",
    "players",
    "use",
    "display",
    "kinds",
    "beats",
    "option",
    "var",
    "pieces",
    "group",
    "board",
    "zones",
    "setup",
    "flow",
    "procedure",
    "trigger",
    "hook",
    "score",
    "result",
];

/// How deeply constructs may nest: brackets, blocks, `if`s, `of` chains,
/// `not`s and `-`s each count one level, and a chain such as `a + b + c`
/// counts one level per operator. docs/language.md ("Limits") gives the value.
pub const MAX_NESTING: usize = 256;

/// The stack pest parses on. Its own guard turns a parse that would need
/// more into an error (reported as `too-deeply-nested`), so no input can
/// overflow it; this size lets every input within [`MAX_NESTING`] parse.
const PARSE_STACK: usize = 64 * 1024 * 1024;

/// Stack kept free before each recursive step of building the tree, and how
/// much more to take when less is left (see [`stacker::maybe_grow`]).
pub(crate) const RED_ZONE: usize = 128 * 1024;
pub(crate) const STACK_STEP: usize = 4 * 1024 * 1024;

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
                    Some(next) => offset = next,
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

/// Whether pest gave up because its stack ran low (a construct nested far
/// beyond [`MAX_NESTING`]).
fn is_stack_limit(error: &pest::error::Error<Rule>) -> bool {
    matches!(&error.variant, pest::error::ErrorVariant::CustomError { message } if message.contains("stack limit"))
}

fn too_deep(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::TooDeeplyNested,
        format!("this is nested more than {MAX_NESTING} levels deep"),
    )
    .label(span, "the limit is crossed here")
    .help(format!(
        "split the expression or block: name a part with `let`, a `constant` or a `procedure`; \
             brackets, blocks, `if`s, `of`s, `not`s, signs and each operator of a chain such as `a + b + c` \
             count one level each, up to {MAX_NESTING}"
    ))
}

fn stack_limit_error(file: FileId, offset: usize, text: &str, error: &pest::error::Error<Rule>) -> (usize, Diagnostic) {
    let position = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let position = floor_char_boundary(text, (offset + position).min(text.len()));
    let end = text[position..]
        .chars()
        .next()
        .map_or(position, |c| position + c.len_utf8());
    (position, too_deep(Span::new(file, position, end)))
}

fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn syntax_error(
    file: FileId,
    offset: usize,
    text: &str,
    error: &pest::error::Error<Rule>,
    braces: &mut BraceScanner,
) -> (usize, Diagnostic) {
    let mut position = match error.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let mut expected: Vec<String> = vec![];
    let mut wants_name = false;
    let mut wants_number = false;
    if let Some(attempts) = error.parse_attempts() {
        position = position.max(attempts.max_position);
        for token in attempts.expected_tokens() {
            let token = token.to_string();
            // Character ranges display as `0..9` or `A..Z`.
            let chars: Vec<char> = token.chars().collect();
            if chars.len() == 4 && chars[1] == '.' && chars[2] == '.' {
                if chars[0].is_ascii_digit() {
                    wants_number = true;
                } else {
                    wants_name = true;
                }
            } else if !token.trim().is_empty() && token != "#" {
                expected.push(format!("`{token}`"));
            }
        }
    }
    if let pest::error::ErrorVariant::ParsingError { positives, .. } = &error.variant {
        for rule in positives {
            if let Some(name) = rule_description(*rule) {
                expected.push(name.to_string());
            }
        }
    }
    // Readable words first: `}` and keywords before punctuation.
    expected.sort_by_key(|e| (!e.contains('}'), !e.chars().any(char::is_alphabetic), e.clone()));
    expected.dedup();
    if wants_name {
        expected.retain(|e| e != "`_`" && e != "a name");
        expected.push("a name".into());
    }
    if wants_number {
        expected.push("a number".into());
    }
    expected.dedup();
    let mut position = (offset + position).min(text.len());
    // Point at the offending word, not the blank before it.
    position += text[position..].len() - text[position..].trim_start().len();
    let rest = &text[position..];
    let found: String = rest.chars().take_while(|c| !c.is_whitespace()).take(20).collect();
    let at_end = rest.trim().is_empty();
    let span = if at_end {
        // Point at the last character so the label is drawn.
        let end = text.trim_end().len();
        let start = text[..end].char_indices().last().map_or(0, |(i, _)| i);
        Span::new(file, start, end.max(start))
    } else {
        Span::new(file, position, position + found.len().max(1))
    };
    let message = if at_end {
        "unexpected end of file".to_string()
    } else {
        format!("unexpected `{found}`")
    };
    // A name was wanted where a reserved word stands: say so plainly.
    let word_start = text[..position]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
        .last()
        .map(|(i, _)| i);
    if let Some(start) = word_start {
        let word = &text[start..position];
        let is_keyword = RulesParser::parse(Rule::keyword, word).is_ok_and(|p| p.as_str() == word);
        if wants_name && is_keyword && !word.is_empty() {
            return (
                position,
                Diagnostic::error(Code::Syntax, format!("`{word}` is a reserved word, not a name"))
                    .label(Span::new(file, start, position), "a name is expected here")
                    .help(format!(
                        "pick another name: `{word}` already means something in the rules language"
                    )),
            );
        }
    }
    let mut diagnostic = Diagnostic::error(Code::Syntax, message);
    let label = if expected.is_empty() {
        "not expected here".to_string()
    } else if expected.len() <= 8 {
        format!("expected {}", expected.join(" or "))
    } else {
        format!("expected {} or more", expected[..8].join(", "))
    };
    diagnostic = diagnostic.label(span, label);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    // A reserved word where a name belongs: `let move = 3` fails just after
    // `move`, so look at the word at the error and the one before it.
    let previous = previous_word(&text[..position]);
    let misused = [word.as_str(), previous.0.as_str()]
        .into_iter()
        .find(|w| is_keyword(w) && names_follow(if *w == word { &previous.0 } else { &previous.1 }));
    if let Some(reserved) = misused {
        diagnostic = diagnostic.help(format!(
            "`{reserved}` is a word of the language and cannot be a name; pick another, e.g. `{reserved}_choice`"
        ));
    }
    if let Some(open) = braces.unclosed_at(text, position) {
        if at_end || rest.starts_with('}') {
            diagnostic = diagnostic.label(Span::new(file, open, open + 1), "this `{` is never closed");
            diagnostic = diagnostic.help("add the missing `}`");
        }
    } else if rest.starts_with('}') {
        diagnostic = diagnostic.help("this `}` closes nothing; remove it or add the matching `{`");
    }
    (position, diagnostic)
}

/// The last word before `text`'s end and the word before that.
fn previous_word(text: &str) -> (String, String) {
    let mut words = text
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string);
    let last = words.next().unwrap_or_default();
    // Only a word right before the error counts (blanks allowed in between).
    let tail = text.trim_end();
    if !tail.ends_with(&last) || last.is_empty() {
        return (String::new(), String::new());
    }
    (last, words.next().unwrap_or_default())
}

/// Words after which the grammar expects a name.
fn names_follow(word: &str) -> bool {
    matches!(
        word,
        "let"
            | "for"
            | "chooses"
            | "calls"
            | "by"
            | "var"
            | "constant"
            | "table"
            | "option"
            | "procedure"
            | "hook"
            | "trigger"
            | "sum"
            | "phase"
            | "step"
            | "kinds"
            | "group"
            | "board"
    )
}

/// Whether `word` is reserved by the grammar (see the `keyword` rule).
fn is_keyword(word: &str) -> bool {
    RulesParser::parse(Rule::keyword, word).is_ok_and(|mut p| p.next().is_some_and(|k| k.as_str() == word))
}

/// Finds the innermost `{` still open at a position, skipping comments and
/// strings. Errors come in file order, so it scans each character once.
#[derive(Default)]
struct BraceScanner {
    /// Scanned up to here.
    at: usize,
    open: Vec<usize>,
    in_comment: bool,
    in_string: bool,
}

impl BraceScanner {
    fn unclosed_at(&mut self, text: &str, position: usize) -> Option<usize> {
        if position < self.at {
            // Not in file order after all: start again.
            *self = BraceScanner::default();
        }
        for (i, c) in text[self.at..position].char_indices() {
            let i = self.at + i;
            if self.in_comment {
                self.in_comment = c != '\n';
                continue;
            }
            if self.in_string {
                self.in_string = c != '"' && c != '\n';
                continue;
            }
            match c {
                '#' => self.in_comment = true,
                '"' => self.in_string = true,
                '{' => self.open.push(i),
                '}' => {
                    self.open.pop();
                }
                _ => {}
            }
        }
        self.at = position;
        self.open.last().copied()
    }
}

fn rule_description(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::string => "a quoted string",
        Rule::expr | Rule::or_expr | Rule::and_expr | Rule::cmp_expr | Rule::sum_expr | Rule::of_expr => {
            "an expression"
        }
        Rule::block => "a `{ ... }` block",
        Rule::visibility => "`hidden`, `public` or `owner`",
        Rule::option_type => "an option type (`bool`, `int`, `one of ...`, `list of int`)",
        Rule::EOI => "a declaration",
        _ => return None,
    })
}

struct Ctx<'a> {
    file: FileId,
    offset: usize,
    /// Lines the grammar accepts but that make no sense where they are, and
    /// constructs nested too deeply.
    misplaced: std::cell::RefCell<Vec<Diagnostic>>,
    /// How many levels deep the node being built is (see [`MAX_NESTING`]).
    depth: std::cell::Cell<usize>,
    /// Whether this file already reported a construct nested too deeply.
    too_deep: &'a std::cell::Cell<bool>,
}

impl<'a> Ctx<'a> {
    fn new(file: FileId, offset: usize, too_deep: &'a std::cell::Cell<bool>) -> Ctx<'a> {
        Ctx {
            file,
            offset,
            misplaced: Default::default(),
            depth: Default::default(),
            too_deep,
        }
    }

    /// Builds a node `levels` deeper than the current one, or reports that
    /// the nesting is too deep (once per file) and builds nothing: no tree
    /// deeper than [`MAX_NESTING`] is ever made, so whatever walks it later
    /// recurses a bounded number of times.
    fn nested<T>(&self, levels: usize, at: impl FnOnce() -> Span, build: impl FnOnce() -> T) -> Option<T> {
        let depth = self.depth.get();
        if depth + levels > MAX_NESTING {
            if !self.too_deep.replace(true) {
                self.misplaced.borrow_mut().push(too_deep(at()));
            }
            return None;
        }
        self.depth.set(depth + levels);
        let built = stacker::maybe_grow(RED_ZONE, STACK_STEP, build);
        self.depth.set(depth);
        Some(built)
    }

    /// The first word or sign of a pair: where a diagnostic about all of it points.
    fn head(&self, pair: &Pair<Rule>) -> Span {
        let text = pair.as_str();
        let len = match text.chars().next() {
            Some(c) if c.is_ascii_alphanumeric() || c == '_' => text
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(text.len()),
            Some(c) => c.len_utf8(),
            None => 0,
        };
        let start = self.offset + pair.as_span().start();
        Span::new(self.file, start, start + len)
    }

    fn space_pattern(&self, pair: Pair<Rule>) -> SpacePattern {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        SpacePattern {
            name: self.ident(inner.next().unwrap()),
            index: inner.next().map(|p| self.expr(p)),
            span,
        }
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, self.offset + s.start(), self.offset + s.end())
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        debug_assert_eq!(pair.as_rule(), Rule::ident);
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn int(&self, pair: Pair<Rule>) -> i64 {
        // The grammar only admits digits; a number too large for i64 saturates
        // and is reported by `check` as out of range.
        pair.as_str().parse().unwrap_or(i64::MAX)
    }

    fn string(&self, pair: Pair<Rule>) -> String {
        pair.into_inner()
            .next()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default()
    }

    fn item(&self, pair: Pair<Rule>) -> Item {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        match rule {
            Rule::game_decl => Item::Game {
                name: self.string(inner.next().unwrap()),
                span,
            },
            Rule::players_decl => {
                let count = self.int(inner.next().unwrap());
                Item::Players {
                    count,
                    names: inner.map(|p| self.ident(p)).collect(),
                    span,
                }
            }
            Rule::use_decl => Item::Use {
                path: self.string(inner.next().unwrap()),
                span,
            },
            Rule::extends_decl => Item::Extends {
                path: self.string(inner.next().unwrap()),
                span,
            },
            Rule::override_decl => Item::Override {
                item: Box::new(self.item(inner.next().unwrap())),
                span,
            },
            Rule::named_override => {
                let kind = named_kind(inner.next().unwrap());
                let name = self.ident(inner.next().unwrap());
                Item::Named {
                    kind,
                    name,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::table_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Table {
                    name,
                    values: inner.map(|p| self.int(p)).collect(),
                    span,
                }
            }
            Rule::constant_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Constant {
                    name,
                    value: self.expr(inner.next().unwrap()),
                }
            }
            Rule::anytime_decl => {
                let label_pair = inner.next().unwrap();
                let label_span = self.span(&label_pair);
                let label = self.string(label_pair);
                let when = self.expr(inner.next().unwrap());
                Item::Anytime(AnytimeDecl {
                    label,
                    label_span,
                    when,
                    body: self.block(inner.next().unwrap()),
                })
            }
            Rule::display_decl => {
                let kind = self.ident(inner.next().unwrap());
                Item::Display {
                    kind,
                    text: self.string(inner.next().unwrap()),
                    span,
                }
            }
            Rule::kinds_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Kinds {
                    name,
                    values: inner.map(|p| self.ident(p)).collect(),
                }
            }
            Rule::beats_decl => Item::Beats {
                pairs: inner
                    .map(|p| {
                        let mut two = p.into_inner();
                        (self.ident(two.next().unwrap()), self.ident(two.next().unwrap()))
                    })
                    .collect(),
                span,
            },
            Rule::option_decl => Item::Option(self.option(inner)),
            Rule::var_decl => {
                let name = self.ident(inner.next().unwrap());
                let mut next = inner.next().unwrap();
                let per_player = next.as_rule() == Rule::per_player;
                if per_player {
                    next = inner.next().unwrap();
                }
                Item::Var(VarDecl {
                    name,
                    per_player,
                    init: self.expr(next),
                })
            }
            Rule::pieces_decl => Item::Pieces(inner.map(|p| self.piece_entry(p)).collect()),
            Rule::group_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Group {
                    name,
                    members: inner.map(|p| self.ident(p)).collect(),
                }
            }
            Rule::board_decl => {
                let name = self.ident(inner.next().unwrap());
                let shape_pair = inner.next().unwrap();
                let shape_span = self.span(&shape_pair);
                let kind = shape_pair.into_inner().next().unwrap();
                let mut shape = if kind.as_rule() == Rule::grid_shape {
                    let mut grid = kind.into_inner();
                    let rows = self.int(grid.next().unwrap());
                    let cols = self.int(grid.next().unwrap());
                    BoardShape::Grid { rows, cols }
                } else {
                    BoardShape::Graph(vec![])
                };
                let mut slots = vec![];
                for part in inner {
                    let part_span = self.span(&part);
                    let rule = part.as_rule();
                    let mut parts = part.into_inner();
                    let graph_part = match rule {
                        Rule::slot_decl => {
                            slots.push((self.ident(parts.next().unwrap()), visibility(parts.next().unwrap())));
                            continue;
                        }
                        Rule::ring_decl => {
                            let name = self.ident(parts.next().unwrap());
                            let count_pair = parts.next().unwrap();
                            let count_span = self.span(&count_pair);
                            GraphPart::Ring {
                                name,
                                count: self.int(count_pair),
                                count_span,
                                wraps: parts.next().is_some(),
                            }
                        }
                        Rule::space_decl => GraphPart::Space(self.ident(parts.next().unwrap())),
                        _ => {
                            let left = self.space_pattern(parts.next().unwrap());
                            let right = self.space_pattern(parts.next().unwrap());
                            GraphPart::Link(Box::new(LinkRule {
                                left,
                                right,
                                cond: parts.next().map(|p| self.expr(p)),
                                span: part_span,
                            }))
                        }
                    };
                    match &mut shape {
                        BoardShape::Graph(graph) => graph.push(graph_part),
                        BoardShape::Grid { .. } => self.misplaced.borrow_mut().push(
                            Diagnostic::error(Code::BadBoard, "a grid's spaces and links come from its size")
                                .label(part_span, "only a `graph` board declares rings, spaces and links")
                                .help("write `board NAME: graph { ... }`, or keep the grid and remove this line"),
                        ),
                    }
                }
                Item::Board(BoardDecl {
                    name,
                    shape,
                    shape_span,
                    slots,
                    span,
                })
            }
            Rule::zones_decl => Item::Zones(
                inner
                    .map(|zone| {
                        let mut parts = zone.into_inner();
                        let name = self.ident(parts.next().unwrap());
                        let mut next = parts.next().unwrap();
                        let per_player = next.as_rule() == Rule::per_player;
                        if per_player {
                            next = parts.next().unwrap();
                        }
                        ZoneDecl {
                            name,
                            per_player,
                            visibility: visibility(next),
                        }
                    })
                    .collect(),
            ),
            Rule::setup_decl => Item::Setup(self.block(inner.next().unwrap())),
            Rule::flow_decl => Item::Flow(self.block(inner.next().unwrap())),
            Rule::procedure_decl => {
                let name = self.ident(inner.next().unwrap());
                let params = inner.next().unwrap().into_inner().map(|p| self.param(p)).collect();
                let mut next = inner.next().unwrap();
                let mut returns = vec![];
                if next.as_rule() == Rule::returns {
                    returns = next.into_inner().map(|p| self.ident(p)).collect();
                    next = inner.next().unwrap();
                }
                Item::Procedure(ProcedureDecl {
                    name,
                    params,
                    returns,
                    body: self.block(next),
                })
            }
            Rule::trigger_decl => {
                let name = self.ident(inner.next().unwrap());
                Item::Trigger {
                    name,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::hook_decl => {
                let name = self.ident(inner.next().unwrap());
                let params = inner.next().unwrap().into_inner().map(|p| self.param(p)).collect();
                let returns = match inner.next().unwrap().as_str() {
                    "int" => HookType::Int,
                    _ => HookType::Bool,
                };
                let body = inner.next().unwrap();
                let body_span = self.span(&body);
                let text = body.as_str();
                // Strip the outer braces; the span keeps pointing at the text inside.
                let inside = &text[1..text.len() - 1];
                let body_span = Span {
                    file: body_span.file,
                    start: body_span.start + 1,
                    end: body_span.end - 1,
                };
                Item::Hook(HookDecl {
                    name,
                    params,
                    returns,
                    body: inside.to_string(),
                    body_span,
                })
            }
            Rule::score_decl => Item::Score {
                terms: inner
                    .map(|term| {
                        let mut parts = term.into_inner();
                        let name = self.ident(parts.next().unwrap());
                        let value = self.expr(parts.next().unwrap());
                        ScoreTerm {
                            name,
                            value,
                            when: parts.next().map(|p| self.expr(p)),
                        }
                    })
                    .collect(),
                span,
            },
            Rule::result_decl => {
                let mut keys = vec![];
                let mut otherwise = ResultElse::Draw;
                for part in inner {
                    match part.as_rule() {
                        Rule::rank_key => {
                            let mut kv = part.into_inner();
                            let most = kv.next().unwrap().as_str() == "most";
                            keys.push(RankKey {
                                most,
                                value: self.expr(kv.next().unwrap()),
                            });
                        }
                        Rule::result_else => {
                            let choice = part.into_inner().next().unwrap();
                            if choice.as_rule() == Rule::block {
                                otherwise = ResultElse::Block(self.block(choice));
                            }
                        }
                        _ => unreachable!("result_decl holds only keys and an else"),
                    }
                }
                Item::Result(ResultDecl { keys, otherwise, span })
            }
            other => unreachable!("not an item: {other:?}"),
        }
    }

    fn option(&self, mut inner: pest::iterators::Pairs<Rule>) -> OptionDecl {
        let name = self.ident(inner.next().unwrap());
        let ty_pair = inner.next().unwrap();
        let ty_span = self.span(&ty_pair);
        let ty_inner = ty_pair.into_inner().next().unwrap();
        let ty = match ty_inner.as_rule() {
            Rule::bool_type => OptionType::Bool,
            Rule::int_type => {
                let mut bounds = ty_inner.into_inner();
                let min = bounds.next().map(|p| self.int(p));
                let max = bounds.next().map(|p| self.int(p));
                OptionType::Int { min, max }
            }
            Rule::enum_type => OptionType::Enum(ty_inner.into_inner().map(|p| self.ident(p)).collect()),
            _ => {
                let mut parts = ty_inner.into_inner();
                let mut bounds = parts.next().expect("a list has an item type").into_inner();
                let min = bounds.next().map(|p| self.int(p));
                let max = bounds.next().map(|p| self.int(p));
                let items = parts.next().map(|length| {
                    let mut counts = length.into_inner();
                    let fewest = counts.next().map_or(0, |p| self.int(p));
                    let most = counts.next().map_or(fewest, |p| self.int(p));
                    (fewest, most)
                });
                OptionType::IntList { min, max, items }
            }
        };
        let literal = inner.next().unwrap();
        let lit_span = self.span(&literal);
        let value = literal.into_inner().next().unwrap();
        let kind = match value.as_rule() {
            Rule::int => LiteralKind::Int(self.int(value)),
            Rule::bool_lit => LiteralKind::Bool(value.as_str() == "true"),
            Rule::list_lit => LiteralKind::List(value.into_inner().map(|p| self.int(p)).collect()),
            _ => LiteralKind::Name(value.as_str().to_string()),
        };
        let description = inner.next().map(|p| self.string(p));
        OptionDecl {
            name,
            ty,
            ty_span,
            default: Literal { kind, span: lit_span },
            description,
        }
    }

    fn piece_entry(&self, pair: Pair<Rule>) -> PieceEntry {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let mut entry = PieceEntry {
            name: self.ident(inner.next().unwrap()),
            of_each: None,
            values: None,
            copies: None,
            per_player: false,
            home: Ident {
                name: String::new(),
                span,
            },
            kind_hidden: false,
            when: None,
            span,
        };
        for part in inner {
            let part_span = self.span(&part);
            match part.as_rule() {
                Rule::of_each => entry.of_each = Some(self.ident(part.into_inner().next().unwrap())),
                Rule::with_value => {
                    let mut bounds = part.into_inner();
                    let low = self.int(bounds.next().unwrap());
                    let high = bounds.next().map_or(low, |p| self.int(p));
                    entry.values = Some((low, high, part_span));
                }
                Rule::copies => entry.copies = Some((self.int(part.into_inner().next().unwrap()), part_span)),
                Rule::per_player => entry.per_player = true,
                Rule::ident => entry.home = self.ident(part),
                Rule::piece_when => entry.when = Some(self.expr(part.into_inner().next().unwrap())),
                Rule::kind_hidden => entry.kind_hidden = true,
                other => unreachable!("not part of a piece entry: {other:?}"),
            }
        }
        entry
    }

    fn param(&self, pair: Pair<Rule>) -> Param {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        let ty = inner.next().map(|t| (t.as_str().to_string(), self.span(&t)));
        Param { name, ty }
    }

    fn block(&self, pair: Pair<Rule>) -> Block {
        let span = self.span(&pair);
        let at = || self.head(&pair);
        let stmts = self.nested(1, at, || pair.clone().into_inner().map(|p| self.stmt(p)).collect());
        Block {
            stmts: stmts.unwrap_or_default(),
            span,
        }
    }

    fn lvalue(&self, pair: Pair<Rule>) -> LValue {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        LValue {
            name,
            index: inner.next().map(|p| self.expr(p)),
            span,
        }
    }

    fn stmt(&self, pair: Pair<Rule>) -> Stmt {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let kind = match rule {
            Rule::let_stmt => {
                let mut parts: Vec<Pair<Rule>> = inner.collect();
                let value = self.expr(parts.pop().unwrap());
                StmtKind::Let {
                    names: parts.into_iter().map(|p| self.ident(p)).collect(),
                    value,
                }
            }
            Rule::set_stmt => {
                let target = self.lvalue(inner.next().unwrap());
                StmtKind::Set {
                    target,
                    value: self.expr(inner.next().unwrap()),
                }
            }
            Rule::add_stmt => {
                let amount = self.expr(inner.next().unwrap());
                StmtKind::Add {
                    amount,
                    target: self.lvalue(inner.next().unwrap()),
                }
            }
            Rule::if_stmt => {
                let cond = self.expr(inner.next().unwrap());
                let then = self.block(inner.next().unwrap());
                let otherwise = inner.next().map(|p| {
                    if p.as_rule() == Rule::if_stmt {
                        // `else if`: one level deeper, like a block.
                        let span = self.span(&p);
                        let nested = self.nested(1, || self.head(&p), || self.stmt(p.clone()));
                        Block {
                            span,
                            stmts: nested.into_iter().collect(),
                        }
                    } else {
                        self.block(p)
                    }
                });
                StmtKind::If { cond, then, otherwise }
            }
            Rule::for_stmt => {
                let var = self.ident(inner.next().unwrap());
                let domain = self.domain(inner.next().unwrap());
                StmtKind::For {
                    var,
                    domain,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::loop_stmt => StmtKind::Loop(self.block(inner.next().unwrap())),
            Rule::while_stmt => {
                let cond = self.expr(inner.next().unwrap());
                StmtKind::While {
                    cond,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::repeat_stmt => {
                let times = self.expr(inner.next().unwrap());
                StmtKind::Repeat {
                    times,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::named_stmt => {
                let kind = named_kind(inner.next().unwrap());
                let name = self.ident(inner.next().unwrap());
                StmtKind::Named {
                    kind,
                    name,
                    body: self.block(inner.next().unwrap()),
                }
            }
            Rule::return_stmt => StmtKind::Return(inner.map(|p| self.expr(p)).collect()),
            Rule::choose_each_stmt => {
                let mut next = inner.next().unwrap();
                let secret = next.as_rule() == Rule::secretly;
                if secret {
                    next = inner.next().unwrap();
                }
                let var = self.ident(next);
                StmtKind::ChooseEach {
                    var,
                    domain: self.domain(inner.next().unwrap()),
                    secret,
                }
            }
            Rule::choose_stmt => {
                let who = self.expr(inner.next().unwrap());
                let mut next = inner.next().unwrap();
                let secret = next.as_rule() == Rule::secretly;
                if secret {
                    next = inner.next().unwrap();
                }
                let var = self.ident(next);
                let domain = self.domain(inner.next().unwrap());
                let otherwise = inner.next().map(|b| self.block(b));
                StmtKind::Choose {
                    who,
                    var,
                    domain,
                    secret,
                    otherwise,
                }
            }
            Rule::race_stmt => {
                let var = self.ident(inner.next().unwrap());
                let domain = self.domain(inner.next().unwrap());
                StmtKind::Race {
                    var,
                    domain,
                    time: self.ident(inner.next().unwrap()),
                }
            }
            Rule::draft_stmt => {
                let mut choosers = vec![];
                let mut entries = vec![];
                for part in inner {
                    if part.as_rule() == Rule::draft_entry {
                        let mut parts = part.into_inner();
                        let label_pair = parts.next().unwrap();
                        let label_span = self.span(&label_pair);
                        let label = self.string(label_pair);
                        let mut next = parts.next().unwrap();
                        let mut when = None;
                        if next.as_rule() == Rule::expr {
                            when = Some(self.expr(next));
                            next = parts.next().unwrap();
                        }
                        entries.push(DraftEntry {
                            label,
                            label_span,
                            when,
                            body: self.block(next),
                        });
                    } else {
                        choosers.push(self.expr(part));
                    }
                }
                StmtKind::Draft { choosers, entries }
            }
            Rule::shuffle_stmt => StmtKind::Shuffle(self.expr(inner.next().unwrap())),
            Rule::deal_stmt => {
                let count = self.expr(inner.next().unwrap());
                let from = self.expr(inner.next().unwrap());
                StmtKind::Deal {
                    count,
                    from,
                    to: self.expr(inner.next().unwrap()),
                }
            }
            Rule::move_stmt => {
                let what = inner.next().unwrap();
                let to = self.expr(inner.next().unwrap());
                if what.as_rule() == Rule::move_all {
                    StmtKind::MoveAll {
                        from: self.expr(what.into_inner().next().unwrap()),
                        to,
                    }
                } else {
                    StmtKind::Move {
                        what: self.expr(what),
                        to,
                    }
                }
            }
            Rule::reveal_stmt => {
                let mut pieces = vec![];
                let mut to = None;
                for part in inner {
                    if part.as_rule() == Rule::reveal_to {
                        let whom = part.into_inner().next().unwrap();
                        if whom.as_rule() != Rule::to_all {
                            to = Some(self.expr(whom));
                        }
                    } else {
                        pieces.push(self.expr(part));
                    }
                }
                StmtKind::Reveal { pieces, to }
            }
            Rule::hide_stmt => StmtKind::Hide(inner.map(|p| self.expr(p)).collect()),
            Rule::choose_actions_stmt => {
                let who = self.expr(inner.next().unwrap());
                let actions = inner.map(|entry| self.action_entry(entry)).collect();
                StmtKind::ChooseActions { who, actions }
            }
            Rule::win_stmt => StmtKind::Win(self.expr(inner.next().unwrap())),
            Rule::draw_stmt => StmtKind::DeclareDraw(inner.next().map(|p| self.string(p))),
            Rule::end_stmt => StmtKind::EndGame,
            Rule::call_stmt => {
                let (name, args) = self.call(inner.next().unwrap());
                StmtKind::Call { name, args }
            }
            other => unreachable!("not a statement: {other:?}"),
        };
        Stmt { kind, span }
    }

    fn action_entry(&self, pair: Pair<Rule>) -> ActionEntry {
        let mut parts = pair.into_inner();
        let label_pair = parts.next().unwrap();
        let label_span = self.span(&label_pair);
        let label = self.string(label_pair);
        let mut params = vec![];
        let mut when = None;
        let mut body = None;
        for part in parts {
            match part.as_rule() {
                Rule::action_params => {
                    for param in part.into_inner() {
                        let mut two = param.into_inner();
                        let name = self.ident(two.next().unwrap());
                        let source = two.next().unwrap();
                        let source = if source.as_rule() == Rule::domain {
                            ParamSource::In(Box::new(self.domain(source)))
                        } else {
                            ParamSource::Is(self.expr(source))
                        };
                        params.push((name, source));
                    }
                }
                Rule::action_when => when = Some(self.expr(part.into_inner().next().unwrap())),
                _ => body = Some(self.block(part)),
            }
        }
        ActionEntry {
            label,
            label_span,
            params,
            when,
            body: body.expect("the grammar requires a block"),
        }
    }

    fn call(&self, pair: Pair<Rule>) -> (Ident, Vec<Expr>) {
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        (name, inner.map(|p| self.expr(p)).collect())
    }

    fn domain(&self, pair: Pair<Rule>) -> Domain {
        let mut parts = pair.into_inner();
        let inner = parts.next().unwrap();
        let mut domain = self.domain_core(inner);
        for part in parts {
            domain = if part.as_rule() == Rule::domain_or {
                Domain::OrNone(Box::new(domain), self.ident(part.into_inner().next().unwrap()))
            } else {
                Domain::Where(Box::new(domain), self.expr(part))
            };
        }
        domain
    }

    fn domain_core(&self, inner: Pair<Rule>) -> Domain {
        match inner.as_rule() {
            Rule::range => {
                let mut bounds = inner.into_inner();
                let low = self.expr(bounds.next().unwrap());
                Domain::Range(low, self.expr(bounds.next().unwrap()))
            }
            Rule::pieces_domain => {
                let mut parts = inner.into_inner();
                let filter = self.filter(parts.next().unwrap());
                let where_ = parts.next().unwrap();
                let place = if where_.as_rule() == Rule::on_board {
                    PiecePlace::Board(self.ident(where_.into_inner().next().unwrap()))
                } else {
                    PiecePlace::Zone(self.expr(where_))
                };
                let mut wild = None;
                let mut cond = None;
                for part in parts {
                    if part.as_rule() == Rule::wild_kinds {
                        let mut w = part.into_inner();
                        let filter = self.filter(w.next().unwrap());
                        wild = Some((filter, self.ident(w.next().unwrap())));
                    } else {
                        cond = Some(self.expr(part));
                    }
                }
                Domain::Pieces {
                    filter,
                    place,
                    cond,
                    wild,
                }
            }
            _ => Domain::Expr(self.expr(inner)),
        }
    }

    fn filter(&self, pair: Pair<Rule>) -> Filter {
        let span = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = self.ident(inner.next().unwrap());
        Filter {
            name,
            owner: inner.next().map(|p| Box::new(self.expr(p))),
            span,
        }
    }

    /// Any expression-level pair, including the precedence layers.
    fn expr(&self, pair: Pair<Rule>) -> Expr {
        stacker::maybe_grow(RED_ZONE, STACK_STEP, || self.expr_layer(pair))
    }

    fn expr_layer(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        // What a construct nested too deeply leaves in the tree (the file
        // has an error, so nothing reads it).
        let stub = || Expr {
            kind: ExprKind::Int(0),
            span,
        };
        let rule = pair.as_rule();
        match rule {
            Rule::expr | Rule::of_expr => self.expr(pair.into_inner().next().unwrap()),
            Rule::paren => self
                .nested(
                    1,
                    || self.head(&pair),
                    || self.expr(pair.clone().into_inner().next().unwrap()),
                )
                .unwrap_or_else(stub),
            Rule::or_expr | Rule::and_expr | Rule::sum_expr | Rule::prod_expr | Rule::cmp_expr => {
                // A chain `a + b + c` is a tree one level deeper per operator.
                let ops: Vec<Pair<Rule>> = pair.clone().into_inner().skip(1).step_by(2).collect();
                let depth = self.depth.get();
                let at = || self.span(&ops[MAX_NESTING.saturating_sub(depth).min(ops.len() - 1)]);
                self.nested(ops.len(), at, || self.chain(pair.clone()))
                    .unwrap_or_else(stub)
            }
            Rule::not_expr | Rule::unary => {
                let parts: Vec<Pair<Rule>> = pair.clone().into_inner().collect();
                let ops = parts.len() - 1;
                let depth = self.depth.get();
                let at = || self.span(&parts[MAX_NESTING.saturating_sub(depth).min(ops.saturating_sub(1))]);
                self.nested(ops, at, || self.prefixed(parts.clone(), span))
                    .unwrap_or_else(stub)
            }
            _ => self
                .nested(1, || self.head(&pair), || self.expr_node(pair.clone()))
                .unwrap_or_else(stub),
        }
    }

    fn chain(&self, pair: Pair<Rule>) -> Expr {
        let mut inner = pair.into_inner();
        let mut lhs = self.expr(inner.next().unwrap());
        while let Some(op) = inner.next() {
            let rhs = self.expr(inner.next().unwrap());
            let op = match op.as_str() {
                "or" => BinOp::Or,
                "and" => BinOp::And,
                "==" => BinOp::Eq,
                "!=" => BinOp::Ne,
                "<" => BinOp::Lt,
                "<=" => BinOp::Le,
                ">" => BinOp::Gt,
                ">=" => BinOp::Ge,
                "beats" => BinOp::Beats,
                "+" => BinOp::Add,
                "-" => BinOp::Sub,
                "*" => BinOp::Mul,
                "/" => BinOp::Div,
                _ => BinOp::Rem,
            };
            let span = lhs.span.join(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        lhs
    }

    fn prefixed(&self, parts: Vec<Pair<Rule>>, span: Span) -> Expr {
        let (operand, ops) = parts.split_last().unwrap();
        let mut e = self.expr(operand.clone());
        for op in ops.iter().rev() {
            let op = if op.as_rule() == Rule::not_op {
                UnOp::Not
            } else {
                UnOp::Neg
            };
            e = Expr {
                kind: ExprKind::Unary {
                    op,
                    operand: Box::new(e),
                },
                span,
            };
        }
        e
    }

    /// An expression node other than a precedence layer.
    fn expr_node(&self, pair: Pair<Rule>) -> Expr {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        match rule {
            Rule::of_chain => {
                let mut inner = pair.into_inner();
                let name = self.ident(inner.next().unwrap());
                Expr {
                    kind: ExprKind::Of {
                        name,
                        arg: Box::new(self.expr(inner.next().unwrap())),
                    },
                    span,
                }
            }
            Rule::int => Expr {
                kind: ExprKind::Int(self.int(pair)),
                span,
            },
            Rule::bool_lit => Expr {
                kind: ExprKind::Bool(pair.as_str() == "true"),
                span,
            },
            Rule::string => Expr {
                kind: ExprKind::Str(self.string(pair)),
                span,
            },
            Rule::ident => Expr {
                kind: ExprKind::Name(self.ident(pair)),
                span,
            },
            Rule::space_at => {
                let mut inner = pair.into_inner();
                let group = self.ident(inner.next().unwrap());
                Expr {
                    kind: ExprKind::SpaceAt {
                        group,
                        index: Box::new(self.expr(inner.next().unwrap())),
                    },
                    span,
                }
            }
            Rule::seat_expr => Expr {
                kind: ExprKind::Seat(self.int(pair.into_inner().next().unwrap())),
                span,
            },
            Rule::current_player => Expr {
                kind: ExprKind::CurrentPlayer,
                span,
            },
            Rule::players_expr => Expr {
                kind: ExprKind::Players,
                span,
            },
            Rule::total_score => Expr {
                kind: ExprKind::TotalScore,
                span,
            },
            Rule::call => {
                let (name, args) = self.call(pair);
                Expr {
                    kind: ExprKind::Call { name, args },
                    span,
                }
            }
            Rule::count_expr | Rule::first_expr => {
                let mut inner = pair.into_inner();
                let filter = self.filter(inner.next().unwrap());
                let where_ = inner.next().unwrap();
                if where_.as_rule() == Rule::on_board {
                    let board = self.ident(where_.into_inner().next().unwrap());
                    return Expr {
                        kind: ExprKind::CountOnBoard { filter, board },
                        span,
                    };
                }
                let zone = Box::new(self.expr(where_));
                let kind = if rule == Rule::count_expr {
                    ExprKind::Count { filter, zone }
                } else {
                    ExprKind::First { filter, zone }
                };
                Expr { kind, span }
            }
            Rule::lines_expr => {
                let mut inner = pair.into_inner();
                let filter = self.filter(inner.next().unwrap());
                let slot = self.ident(inner.next().unwrap());
                let board = self.ident(inner.next().unwrap());
                Expr {
                    kind: ExprKind::Lines { filter, slot, board },
                    span,
                }
            }
            Rule::sum_over => {
                let mut inner = pair.into_inner();
                let var = self.ident(inner.next().unwrap());
                let domain = Box::new(self.domain(inner.next().unwrap()));
                let body = Box::new(self.expr(inner.next().unwrap()));
                Expr {
                    kind: ExprKind::Sum { var, domain, body },
                    span,
                }
            }
            Rule::table_expr => {
                let mut parts: Vec<Pair<Rule>> = pair.into_inner().collect();
                let index = Box::new(self.expr(parts.pop().unwrap()));
                let table = if parts.len() == 1 && parts[0].as_rule() == Rule::ident {
                    TableRef::Named(self.ident(parts.pop().unwrap()))
                } else {
                    TableRef::Inline(parts.into_iter().map(|p| self.int(p)).collect())
                };
                Expr {
                    kind: ExprKind::Table { table, index },
                    span,
                }
            }
            Rule::if_expr => {
                let mut parts = pair.into_inner();
                let cond = Box::new(self.expr(parts.next().unwrap()));
                let then = Box::new(self.expr(parts.next().unwrap()));
                let otherwise = Box::new(self.expr(parts.next().unwrap()));
                Expr {
                    kind: ExprKind::If { cond, then, otherwise },
                    span,
                }
            }
            other => unreachable!("not an expression: {other:?}"),
        }
    }
}

fn named_kind(pair: Pair<Rule>) -> NamedKind {
    if pair.as_str() == "phase" {
        NamedKind::Phase
    } else {
        NamedKind::Step
    }
}

fn visibility(pair: Pair<Rule>) -> Visibility {
    match pair.as_str() {
        "hidden" => Visibility::Hidden,
        "owner" => Visibility::Owner,
        _ => Visibility::Public,
    }
}

#[cfg(test)]
mod tests {
    use super::ITEM_STARTS;

    /// The first word of each alternative of `item` in the grammar: each
    /// alternative is a rule `NAME = { !kw_WORD ~ "WORD" ~ ... }`.
    fn grammar_item_starts() -> Vec<String> {
        let grammar = include_str!("../../grammar/rules.pest");
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
