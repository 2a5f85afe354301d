//! `rpsdsl fmt`: the canonical layout of a `.rules` file.
//!
//! The formatter moves only whitespace. It keeps the designer's line breaks
//! (at most one blank line in a row) and every comment, and it decides the
//! rest: two spaces of indent per `{`, four more for a line that continues
//! the one before (two for an action's `for` or `when` on a line of its
//! own), one space between words and around operators, none inside
//! brackets or before `,` and `:`, and trailing comments of neighbouring
//! lines aligned. A hook's rhai body is kept exactly as written.
//!
//! Which lines continue another comes from the parse: a line that begins a
//! declaration, a statement or an entry of a list stands at its block's
//! depth ([`crate::syntax::line_starts`]). So a file that does not parse
//! is not formatted: its syntax errors are returned instead.
//!
//! Meaning cannot change: the layout is checked to give back the very
//! tokens it was given, and `tests/fmt.rs` checks over every game that
//! `check --dump-ir` is the same before and after.

use std::collections::HashSet;

use crate::diagnostic::{Diagnostic, FileId};
use crate::syntax::tokens::{Token, TokenKind, tokens};

/// Spaces of indent per level of `{`.
const INDENT: usize = 2;
/// Extra indent of a line that continues the one before.
const CONTINUATION: usize = 2 * INDENT;
/// The least space between code and a comment after it on the same line.
const COMMENT_GAP: usize = 2;

/// Words of the language after which a `-` negates rather than subtracts:
/// the reserved words that are not themselves values.
const VALUE_WORDS: &[&str] = &["player", "players", "score", "true", "false"];

/// Why a file was not formatted.
#[derive(Debug)]
pub enum NotFormatted {
    /// It does not parse: its syntax errors, in the file given.
    Syntax(Vec<Diagnostic>),
    /// The layout would not have kept the file's tokens: a fault of the
    /// formatter, never of the file. The file is left as it was.
    Unsafe(String),
}

/// `text`, laid out canonically. `file` is where syntax errors point.
pub fn format(file: FileId, text: &str) -> Result<String, NotFormatted> {
    let Some(starts) = crate::syntax::line_starts(text) else {
        let (_, mut errors) = crate::syntax::parse_file(file, text);
        if errors.is_empty() {
            // The recovering parser can accept what the whole-file parse
            // does not (an item it skips); say so rather than nothing.
            errors.push(Diagnostic::error(
                crate::diagnostic::Code::Syntax,
                "the file does not parse as a whole",
            ));
        }
        return Err(NotFormatted::Syntax(errors));
    };
    let all = tokens(text);
    let laid_out = lay_out(text, &all, &Starts::from(starts));
    let before: Vec<(TokenKind, &str)> = all.iter().map(|t| (t.kind, t.text(text))).collect();
    let after: Vec<(TokenKind, &str)> = tokens(&laid_out).iter().map(|t| (t.kind, t.text(&laid_out))).collect();
    if before != after {
        let at = before
            .iter()
            .zip(&after)
            .position(|(a, b)| a != b)
            .unwrap_or(before.len().min(after.len()));
        return Err(NotFormatted::Unsafe(format!(
            "the new layout would read token {at} differently ({:?} instead of {:?})",
            after.get(at).map(|t| t.1),
            before.get(at).map(|t| t.1),
        )));
    }
    Ok(laid_out)
}

/// One line of output before it is written: its indent, its code (which a
/// rhai body may spread over several lines) and the comment that ends it.
#[derive(Default)]
struct Line {
    indent: usize,
    code: String,
    comment: Option<String>,
    blank_before: bool,
    /// The line starts with `}`.
    closes: bool,
    /// Set once the indent is known: a comment-only line takes the indent
    /// of the code after it.
    indent_known: bool,
}

impl Line {
    /// How wide the line's last row of code is, indent included.
    fn width(&self) -> usize {
        let last_row = self.code.rsplit('\n').next().unwrap_or("");
        let indent = if self.code.contains('\n') { 0 } else { self.indent };
        indent + last_row.chars().count()
    }
}

/// [`crate::syntax::LineStarts`] as sets.
struct Starts {
    entries: HashSet<usize>,
    clauses: HashSet<usize>,
}

impl From<crate::syntax::LineStarts> for Starts {
    fn from(starts: crate::syntax::LineStarts) -> Self {
        Starts {
            entries: starts.entries.into_iter().collect(),
            clauses: starts.clauses.into_iter().collect(),
        }
    }
}

/// What a line is, from its first token: it decides the indent.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Opening {
    /// `}`: back out one level.
    Closes,
    /// A declaration, statement or entry, `{`, the `else` after a `}`, or the
    /// `then` before a ranking key: at its block's depth.
    Entry,
    /// An action's `for` or `when` on its own line: half a continuation in.
    Clause,
    /// Anything else continues the line before.
    Continues,
}

fn opening(text: &str, all: &[Token], i: usize, starts: &Starts, brackets: usize) -> Opening {
    let token = &all[i];
    let word = token.text(text);
    let after_brace = i > 0 && all[i - 1].text(text) == "}";
    // The first line inside a `{` that ended its line: a block's first
    // entry, or an expression's body (`sum`, `any`) laid out as a block.
    let after_open = i > 0 && all[i - 1].text(text) == "{";
    let before_entry = all.get(i + 1).is_some_and(|next| starts.entries.contains(&next.start));
    if word == "}" {
        Opening::Closes
    } else if brackets > 0 {
        Opening::Continues
    } else if starts.entries.contains(&token.start)
        || word == "{"
        || after_open
        || word == "else" && after_brace
        || word == "then" && before_entry
    {
        Opening::Entry
    } else if starts.clauses.contains(&token.start) {
        Opening::Clause
    } else {
        Opening::Continues
    }
}

fn lay_out(text: &str, all: &[Token], starts: &Starts) -> String {
    let mut lines: Vec<Line> = vec![];
    let mut braces = 0usize;
    let mut brackets = 0usize;
    // The indent of the last line that began an entry or a clause: a line
    // that continues it goes further in than that.
    let mut base = 0usize;
    // For each open `{`: whether it ended its line. Its `}` then gets a
    // line of its own too.
    let mut open_braces: Vec<bool> = vec![];
    for (i, token) in all.iter().enumerate() {
        let word = token.text(text);
        let previous = i.checked_sub(1).map(|p| &all[p]);
        let gap = &text[previous.map_or(0, |p| p.end)..token.start];
        let mut breaks = gap.matches('\n').count();
        if word == "}" && token.kind == TokenKind::Mark && open_braces.last() == Some(&true) {
            breaks = breaks.max(1);
        }
        if previous.is_none() || breaks > 0 {
            let mut line = Line {
                blank_before: breaks > 1 && !lines.is_empty(),
                ..Line::default()
            };
            if token.kind == TokenKind::Comment {
                line.comment = Some(word.trim_end().to_string());
            } else {
                line.indent_known = true;
                let depth = braces * INDENT;
                line.indent = match opening(text, all, i, starts, brackets) {
                    Opening::Closes => {
                        line.closes = true;
                        base = depth.saturating_sub(INDENT);
                        base
                    }
                    Opening::Entry => {
                        base = depth;
                        depth
                    }
                    Opening::Clause => {
                        base = depth + INDENT;
                        base
                    }
                    Opening::Continues => base.max(depth) + CONTINUATION,
                };
                line.code.push_str(word);
            }
            lines.push(line);
        } else if let (Some(before), Some(line)) = (previous, lines.last_mut()) {
            if token.kind == TokenKind::Comment {
                line.comment = Some(word.trim_end().to_string());
            } else {
                let earlier = i.checked_sub(2).map(|p| &all[p]);
                line.code.push_str(space_between(text, earlier, before, token, gap));
                line.code.push_str(word);
            }
        }
        if token.kind == TokenKind::Mark {
            match word {
                "{" => {
                    braces += 1;
                    let next = all.get(i + 1);
                    open_braces.push(next.is_some_and(|next| {
                        next.kind == TokenKind::Comment || text[token.end..next.start].contains('\n')
                    }));
                }
                "}" => {
                    braces = braces.saturating_sub(1);
                    open_braces.pop();
                }
                "(" | "[" => brackets += 1,
                ")" | "]" => brackets = brackets.saturating_sub(1),
                _ => {}
            }
        }
    }
    place_comment_lines(&mut lines);
    align_trailing_comments(&mut lines);
    write(&lines)
}

/// A comment on a line of its own is indented as the code after it, or
/// one level in from a `}` after it (it ends that block's body).
fn place_comment_lines(lines: &mut [Line]) {
    let mut next_indent = 0;
    for line in lines.iter_mut().rev() {
        if line.indent_known {
            next_indent = if line.closes { line.indent + INDENT } else { line.indent };
        } else {
            line.indent = next_indent;
        }
    }
}

/// Comments after code on neighbouring lines start in one column.
fn align_trailing_comments(lines: &mut [Line]) {
    let mut run_start = 0;
    while run_start < lines.len() {
        let in_run = |l: &Line| l.comment.is_some() && !l.code.is_empty();
        if !in_run(&lines[run_start]) {
            run_start += 1;
            continue;
        }
        let mut run_end = run_start + 1;
        // A blank line the output drops (before a `}`) does not part a run,
        // or a second pass would align what the first did not. (A line of
        // a run has a comment, so the one before it opens no block.)
        while run_end < lines.len() && in_run(&lines[run_end]) && !blank_written(&lines[run_end], false) {
            run_end += 1;
        }
        let column = lines[run_start..run_end].iter().map(Line::width).max().unwrap_or(0) + COMMENT_GAP;
        for line in &mut lines[run_start..run_end] {
            let pad = column - line.width();
            let comment = line.comment.take().unwrap_or_default();
            line.code.push_str(&" ".repeat(pad));
            line.code.push_str(&comment);
        }
        run_start = run_end;
    }
}

/// Whether the output keeps the blank line the designer left before
/// `line`: not right after a `{` that ends its line (`opened`), nor before
/// a `}`.
fn blank_written(line: &Line, opened: bool) -> bool {
    line.blank_before && !opened && !line.closes
}

fn write(lines: &[Line]) -> String {
    let mut out = String::new();
    let mut opened = false;
    for line in lines {
        if blank_written(line, opened) {
            out.push('\n');
        }
        out.push_str(&" ".repeat(line.indent));
        out.push_str(&line.code);
        if let Some(comment) = &line.comment {
            if !line.code.is_empty() {
                out.push_str(&" ".repeat(COMMENT_GAP));
            }
            out.push_str(comment);
        }
        out.push('\n');
        opened = line.comment.is_none() && line.code.ends_with('{');
    }
    out
}

/// The space between `before` and `token` on one line. `earlier` is the
/// token before `before` (it tells a negating `-` from a subtracting one),
/// `gap` the whitespace the designer wrote.
fn space_between(text: &str, earlier: Option<&Token>, before: &Token, token: &Token, gap: &str) -> &'static str {
    let (a, b) = (before.text(text), token.text(text));
    let word = |t: &Token| t.kind == TokenKind::Word;
    let name = |t: &Token| word(t) && !is_reserved(t.text(text));
    let hugs = matches!(b, "," | ";" | ":" | ")" | "]")
        || matches!(a, "(" | "[")
        || a == ".."
        || b == ".."
        || a == "{" && b == "}"
        || b == "[" && (name(before) || matches!(a, ")" | "]"))
        || a == "-" && negates(text, earlier);
    // Only `tie-breaker` can touch another word, and only `x` before `(`
    // means something else than a call (`x (2 * decks)` copies): keep
    // whether the designer left a space there.
    let as_written = word(before) && word(token) || b == "(" && name(before);
    let chosen = if as_written {
        if gap.is_empty() { "" } else { " " }
    } else if hugs {
        ""
    } else {
        " "
    };
    // Two marks must not run into one (`-` `-` into `--`).
    if chosen.is_empty() && before.kind == TokenKind::Mark && token.kind == TokenKind::Mark {
        let joined = format!("{a}{b}");
        if tokens(&joined).len() != 2 {
            return " ";
        }
    }
    chosen
}

/// Whether a `-` after `earlier` negates: it starts an operand, after an
/// operator, an opening bracket, a comma or a reserved word.
fn negates(text: &str, earlier: Option<&Token>) -> bool {
    let Some(earlier) = earlier else { return true };
    let word = earlier.text(text);
    match earlier.kind {
        TokenKind::Word => is_reserved(word) && !VALUE_WORDS.contains(&word),
        TokenKind::Mark => !matches!(word, ")" | "]"),
        TokenKind::Str | TokenKind::Comment | TokenKind::Rhai => true,
    }
}

fn is_reserved(word: &str) -> bool {
    crate::syntax::tokens::RESERVED.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(text: &str) -> String {
        match format(FileId::default(), text) {
            Ok(out) => out,
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn spacing_indent_and_comments_take_their_canonical_places() {
        let text = "game   \"G\"\nplayers 2 :A,B\n\n\n\nflow{\n    # why\nlet x=-1 # one\n  let longer = ( x+2 ) # two\nif x<0{win player 1}else{declare draw}\n}\n";
        assert_eq!(
            formatted(text),
            "game \"G\"\nplayers 2: A, B\n\nflow {\n  # why\n  let x = -1            # one\n  let longer = (x + 2)  # two\n  if x < 0 { win player 1 } else { declare draw }\n}\n"
        );
    }

    #[test]
    fn a_line_that_continues_a_statement_is_indented_further() {
        let text = "game \"G\"\nplayers 2\nflow {\nlet x = 1 +\n2\n}\n";
        assert_eq!(
            formatted(text),
            "game \"G\"\nplayers 2\nflow {\n  let x = 1 +\n      2\n}\n"
        );
    }

    #[test]
    fn an_expressions_braces_on_lines_of_their_own_read_as_a_block() {
        let text = "game \"G\"\nplayers 2\nscore per player {\nsets: sum i in 1..3 {\ni * i\n}\n}\nflow {\nif no i in 1..3 {\ni > 3\n} { win player 1 }\n}\n";
        assert_eq!(
            formatted(text),
            "game \"G\"\nplayers 2\nscore per player {\n  sets: sum i in 1..3 {\n    i * i\n  }\n}\nflow {\n  if no i in 1..3 {\n    i > 3\n  } { win player 1 }\n}\n"
        );
    }

    #[test]
    fn a_file_that_does_not_parse_is_refused_with_its_errors() {
        match format(FileId::default(), "game \"G\"\nflow { let }\n") {
            Err(NotFormatted::Syntax(errors)) => assert!(!errors.is_empty()),
            other => panic!("{other:?}"),
        }
    }
}
