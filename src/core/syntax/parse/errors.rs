//! Syntax errors worded for designers: what was expected, the reserved word
//! used as a name, the `{` never closed, and constructs nested too deeply.

use pest::Parser;

use super::grammar::{MAX_NESTING, Rule, RulesParser};
use crate::diagnostic::{Code, Diagnostic, FileId, Span};

/// Whether pest gave up because its stack ran low (a construct nested far
/// beyond [`MAX_NESTING`]).
pub(super) fn is_stack_limit(error: &pest::error::Error<Rule>) -> bool {
    matches!(&error.variant, pest::error::ErrorVariant::CustomError { message } if message.contains("stack limit"))
}

pub(super) fn too_deep(span: Span) -> Diagnostic {
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

pub(super) fn stack_limit_error(
    file: FileId,
    offset: usize,
    text: &str,
    error: &pest::error::Error<Rule>,
) -> (usize, Diagnostic) {
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

pub(super) fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Words that start rarer forms (grid runs and tests, a board's forward
/// line), left out of "expected ..." lists so those name the common starts.
const UNLISTED: &[&str] = &["exists", "longest", "forward"];

/// Where pest gave up, and what it expected there in a designer's words:
/// keywords and punctuation, "a name", "a number". Also whether a name
/// would have done.
fn expected_here(error: &pest::error::Error<Rule>) -> (usize, Vec<String>, bool) {
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
            } else if !token.trim().is_empty() && token != "#" && !UNLISTED.contains(&token.as_str()) {
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
    (position, expected, wants_name)
}

pub(super) fn syntax_error(
    file: FileId,
    offset: usize,
    text: &str,
    error: &pest::error::Error<Rule>,
    braces: &mut BraceScanner,
) -> (usize, Diagnostic) {
    let (position, expected, wants_name) = expected_here(error);
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
    // The word before the error is the misused one when a name belongs
    // there (`var calls per player`); the word at the error, when the one
    // before it asks for a name and is itself used as a keyword (`race each
    // player calls from`, but not `add 1 to calls of winner`).
    let previous_misused = is_keyword(&previous.0) && names_follow(&previous.1);
    let word_misused = is_keyword(&word)
        && names_follow(&previous.0)
        && match previous.0.as_str() {
            "calls" => previous.1 == "player",
            "by" => previous.1 == "timed",
            _ => true,
        };
    let misused = if previous_misused {
        Some(previous.0.as_str())
    } else if word_misused {
        Some(word.as_str())
    } else {
        None
    };
    if let Some(diagnostic) = seat_number_in_a_name(file, text, position, &previous) {
        return (position, diagnostic);
    }
    if let Some(reserved) = misused {
        diagnostic = diagnostic.help(format!(
            "`{reserved}` is a word of the language and cannot be a name; pick another, e.g. `{reserved}_choice`"
        ));
    }
    // `=` where a comparison belongs: the designer meant `==`.
    // (Not `=>` or `=<`: those are another mistake.)
    let lone_equals = rest.starts_with('=') && !rest[1..].starts_with(['=', '>', '<']);
    if lone_equals && expected.iter().any(|e| e == "`==`" || e == "`!=`") {
        return (
            position,
            Diagnostic::error(Code::Syntax, "`=` cannot compare two values")
                .label(Span::new(file, position, position + 1), "did you mean `==`?")
                .help("write `==` to test whether two values are equal; `=` only gives a value (`set x = 3`, `let x = 3`)"),
        );
    }
    let open = braces.unclosed_at(text, position);
    // A declaration keyword at the start of a line, inside a block: a `}`
    // is missing above it. Point at the `{`, as rustc does, not at the
    // keyword's next word.
    if let Some(open) = open
        && let Some((keyword, start)) = declaration_at(text, position, &word, &previous.0)
    {
        let mut diagnostic = Diagnostic::error(
            Code::Syntax,
            format!("a `{{` is never closed before `{keyword}` starts a new declaration"),
        )
        .label(
            Span::new(file, start, start + keyword.len()),
            "a new declaration starts here",
        );
        diagnostic = unclosed_labels(diagnostic, file, text, braces, open);
        // Go on parsing at the declaration itself (the caller resumes at
        // the first declaration after the position it is given).
        return (start.saturating_sub(1), diagnostic);
    }
    if let Some(open) = open {
        // Only when the file as a whole leaves a `{` open: a `}` that comes
        // too early (after an unfinished statement) closes its block.
        let unbalanced = BraceScanner::default().unclosed_at(text, text.len()).is_some();
        if unbalanced && (at_end || rest.starts_with('}')) {
            diagnostic = unclosed_labels(diagnostic, file, text, braces, open);
        }
    } else if rest.starts_with('}') {
        diagnostic = diagnostic.help("this `}` closes nothing; remove it or add the matching `{`");
    }
    (position, diagnostic)
}

/// `player d`: a seat number held in a name needs brackets, which the
/// parse cannot tell from `player` alone followed by a stray name; it
/// fails at the next word, so the error is moved back to the name.
fn seat_number_in_a_name(file: FileId, text: &str, position: usize, previous: &(String, String)) -> Option<Diagnostic> {
    let name = &previous.0;
    let before_name = text[..position].trim_end();
    let seat_by_name = previous.1 == "player"
        && !is_keyword(name)
        && name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && before_name.ends_with(name.as_str())
        && before_name[..before_name.len() - name.len()]
            .trim_end()
            .ends_with("player");
    if !seat_by_name {
        return None;
    }
    let end = before_name.len();
    let start = end - name.len();
    Some(
        Diagnostic::error(Code::Syntax, format!("`player {name}` needs brackets around `{name}`"))
            .label(Span::new(file, start, end), "a seat number held in a name")
            .help(format!(
                "`player` takes a seat number, `player 2`; a number held in a name or worked out goes in \
                 brackets: `player ({name})`, `player ({name} + 1)` (counted round the table)"
            )),
    )
}

/// Labels the innermost `{` left open and, as rustc does, a block inside
/// it whose `}` is indented unlike its `{`: that `}` most likely belongs
/// to the outer block, and the inner `{` is the one missing its `}`.
fn unclosed_labels(
    mut diagnostic: Diagnostic,
    file: FileId,
    text: &str,
    braces: &BraceScanner,
    open: usize,
) -> Diagnostic {
    diagnostic = diagnostic.label(Span::new(file, open, open + 1), "this `{` is never closed");
    match braces.misindented_after(text, open) {
        Some((inner, close)) => diagnostic
            .label(
                Span::new(file, inner, inner + 1),
                "this `{` may be the one missing its `}`...",
            )
            .label(
                Span::new(file, close, close + 1),
                "...as this `}` closes it, but is indented like the block around it",
            )
            .help(format!(
                "add the missing `}}` to close the block opened on line {}",
                line_of(text, inner)
            )),
        None => diagnostic.help("add the missing `}`"),
    }
}

/// The declaration keyword (and where it starts) at `position`, or just
/// before it, when it begins a line: `procedure`, `flow`, `hook`, ...
fn declaration_at(text: &str, position: usize, word: &str, previous: &str) -> Option<(String, usize)> {
    let at_line_start = |start: usize| start == 0 || text.as_bytes()[start - 1] == b'\n';
    if super::grammar::ITEM_STARTS.contains(&word) && at_line_start(position) {
        return Some((word.to_string(), position));
    }
    let before = text[..position].trim_end();
    let start = before.len().checked_sub(previous.len())?;
    (!previous.is_empty() && super::grammar::ITEM_STARTS.contains(&previous) && at_line_start(start))
        .then(|| (previous.to_string(), start))
}

/// The 1-based line number of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

/// The indentation (leading blanks) of the line holding `offset`.
fn indent_of(text: &str, offset: usize) -> &str {
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// The last word before `text`'s end and the word before that.
pub(super) fn previous_word(text: &str) -> (String, String) {
    let mut words = text
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .map(str::to_string);
    // No word at all: the empty word, which the check below turns away.
    let last = words.next().unwrap_or_default();
    // Only a word right before the error counts (blanks allowed in between).
    let tail = text.trim_end();
    if !tail.ends_with(&last) || last.is_empty() {
        return (String::new(), String::new());
    }
    // The first word of the text has none before it: the empty word.
    (last, words.next().unwrap_or_default())
}

/// Words after which the grammar expects a name.
pub(super) fn names_follow(word: &str) -> bool {
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
pub(super) fn is_keyword(word: &str) -> bool {
    RulesParser::parse(Rule::keyword, word).is_ok_and(|mut p| p.next().is_some_and(|k| k.as_str() == word))
}

/// Finds the innermost `{` still open at a position, skipping comments and
/// strings. Errors come in file order, so it scans each character once.
#[derive(Default)]
pub(super) struct BraceScanner {
    /// Scanned up to here.
    at: usize,
    open: Vec<usize>,
    /// Every `{ ... }` pair closed so far, as (open, close), in closing order.
    closed: Vec<(usize, usize)>,
    in_comment: bool,
    in_string: bool,
}

impl BraceScanner {
    /// Parsing resumes at a declaration, at the top level: no `{` is open there.
    pub(super) fn restart_at(&mut self, at: usize) {
        *self = BraceScanner {
            at,
            ..BraceScanner::default()
        };
    }

    /// The last block opened after `open` whose `}` is indented unlike the
    /// line of its `{`, as (its `{`, its `}`). A missing `}` shifts every
    /// `}` after it one block out, so the blocks around the culprit are
    /// misindented too; the culprit is the innermost, opened last.
    fn misindented_after(&self, text: &str, open: usize) -> Option<(usize, usize)> {
        self.closed
            .iter()
            .filter(|(o, _)| *o > open)
            .filter(|(o, c)| {
                // A block closed on its own line: `if x { win p }` says nothing.
                let own_line = text[..*c].rsplit('\n').next().is_some_and(|l| l.trim().is_empty());
                own_line && indent_of(text, *o) != indent_of(text, *c)
            })
            .max_by_key(|(o, _)| *o)
            .copied()
    }

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
                    if let Some(open) = self.open.pop() {
                        self.closed.push((open, i));
                    }
                }
                _ => {}
            }
        }
        self.at = position;
        self.open.last().copied()
    }
}

pub(super) fn rule_description(rule: Rule) -> Option<&'static str> {
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
