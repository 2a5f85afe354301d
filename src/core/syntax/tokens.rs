//! The words, marks, strings and comments of a `.rules` text, with where
//! each lies: what the formatter lays out again and what an editor colours
//! and looks up. Total on any input: a character the language has no use
//! for is a token of its own, so a broken file is still read through.
//!
//! It agrees with `grammar/rules.pest` on everything whitespace could
//! change: a word runs over name characters, a string ends at its quote or
//! at the line's end, a comment runs to the line's end, and a hook's `rhai
//! { ... }` body is one token (its braces and strings nested as the grammar
//! nests them).

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// A name, a keyword or a number: a run of letters, digits and `_`
    /// (and the one word with a dash, `tie-breaker`).
    Word,
    /// `"..."`, quotes included (an unterminated one runs to the line's end).
    Str,
    /// `# ...` to the end of the line, the newline excluded.
    Comment,
    /// A hook's body after `rhai`: `{ ... }`, braces included, kept as written.
    Rhai,
    /// An operator or a mark: `..`, `--`, `->`, `==`, `!=`, `<=`, `>=`, or
    /// any other single character.
    Mark,
}

/// One token: its kind and its byte range in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: TokenKind,
    /// Byte offset of its first byte.
    pub start: usize,
    /// Byte offset just past it.
    pub end: usize,
}

impl Token {
    /// Its text in `source`.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }
}

/// The reserved words: the grammar's `keyword` rule, which no name may be.
pub const RESERVED: &[&str] = &[
    "game",
    "players",
    "player",
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
    "let",
    "set",
    "add",
    "to",
    "if",
    "else",
    "for",
    "in",
    "loop",
    "while",
    "repeat",
    "times",
    "break",
    "return",
    "each",
    "chooses",
    "secretly",
    "from",
    "draft",
    "shuffle",
    "deal",
    "move",
    "all",
    "of",
    "reveal",
    "win",
    "declare",
    "draw",
    "end",
    "and",
    "or",
    "not",
    "true",
    "false",
    "at",
    "most",
    "fewest",
    "then",
    "when",
    "where",
    "per",
    "with",
    "rhai",
    "extends",
    "override",
    "constant",
    "phase",
    "step",
    "anytime",
    "race",
    "calls",
    "timed",
    "hide",
    "ring",
    "link",
    "wraps",
    "graph",
];

/// The marks of two characters; every other mark is one character.
const TWO_CHARACTER_MARKS: &[&str] = &["..", "--", "->", "==", "!=", "<=", ">="];

/// The one word with a dash in it (a score term that only breaks ties).
const DASHED_WORD: &str = "tie-breaker";

/// Every token of `text`, in order. Whitespace is all that lies between them.
pub fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out: Vec<Token> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        let c = bytes[at];
        if c.is_ascii_whitespace() {
            at += 1;
            continue;
        }
        let start = at;
        let kind = if c == b'#' {
            at = text[at..].find('\n').map_or(text.len(), |n| at + n);
            TokenKind::Comment
        } else if c == b'"' {
            at = string_end(text, at);
            TokenKind::Str
        } else if c == b'{'
            && out
                .last()
                .is_some_and(|t| t.kind == TokenKind::Word && t.text(text) == "rhai")
        {
            at = rhai_body_end(text, at);
            TokenKind::Rhai
        } else if text[at..].starts_with(DASHED_WORD) {
            at += DASHED_WORD.len();
            TokenKind::Word
        } else if is_name_byte(c) {
            while at < text.len() && is_name_byte(bytes[at]) {
                at += 1;
            }
            TokenKind::Word
        } else {
            let two = TWO_CHARACTER_MARKS.iter().find(|m| text[at..].starts_with(*m));
            at += two.map_or_else(|| text[at..].chars().next().map_or(1, char::len_utf8), |m| m.len());
            TokenKind::Mark
        };
        out.push(Token { kind, start, end: at });
    }
    out
}

/// Whether `b` may be part of a name or a number.
pub fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Just past the string that opens at `open`: its closing quote, or the end
/// of its line when it has none (the grammar's strings never span lines).
fn string_end(text: &str, open: usize) -> usize {
    let rest = &text[open + 1..];
    match rest.find(['"', '\n']) {
        Some(n) if rest.as_bytes()[n] == b'"' => open + 1 + n + 1,
        Some(n) => open + 1 + n,
        None => text.len(),
    }
}

/// Just past the `}` that closes the hook body opening at `open`, as the
/// grammar's `rhai_body` reads it: nested braces count, and a brace inside
/// a string (with `\` escapes) does not. An unclosed body runs to the end.
fn rhai_body_end(text: &str, open: usize) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut at = open;
    while at < bytes.len() {
        match bytes[at] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return at + 1;
                }
            }
            b'"' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b'"' {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        at += 1;
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> Vec<(TokenKind, &str)> {
        tokens(text).iter().map(|t| (t.kind, t.text(text))).collect()
    }

    #[test]
    fn words_marks_strings_and_comments_are_told_apart() {
        use TokenKind::*;
        assert_eq!(
            shown("let x = 1..half - 1 # the rest\n\"a # b\" tie-breaker x3 -- -> é"),
            vec![
                (Word, "let"),
                (Word, "x"),
                (Mark, "="),
                (Word, "1"),
                (Mark, ".."),
                (Word, "half"),
                (Mark, "-"),
                (Word, "1"),
                (Comment, "# the rest"),
                (Str, "\"a # b\""),
                (Word, "tie-breaker"),
                (Word, "x3"),
                (Mark, "--"),
                (Mark, "->"),
                (Mark, "é"),
            ]
        );
    }

    #[test]
    fn a_hook_body_is_one_token_as_the_grammar_nests_it() {
        let text = "hook h() -> int rhai { if a { \"}\" } else { 1 } } flow {}";
        let kinds = shown(text);
        assert!(
            kinds.contains(&(TokenKind::Rhai, "{ if a { \"}\" } else { 1 } }")),
            "{kinds:?}"
        );
        assert_eq!(kinds.last(), Some(&(TokenKind::Mark, "}")));
    }

    #[test]
    fn the_reserved_words_are_the_grammars_keywords() {
        let grammar = include_str!("../../../grammar/rules.pest");
        let rule = grammar
            .split("\nkeyword = @{")
            .nth(1)
            .expect("the grammar has a `keyword` rule");
        let rule = &rule[..rule.find("~ !ident_char").expect("the rule ends")];
        let words: Vec<&str> = rule.split('"').skip(1).step_by(2).collect();
        assert_eq!(words, RESERVED);
    }

    #[test]
    fn broken_text_is_read_through() {
        for text in ["\"open string\nnext", "hook h() -> int rhai { {", "#", "\u{0}\u{feff}"] {
            let found = tokens(text);
            assert!(
                found.iter().all(|t| t.start < t.end && text.is_char_boundary(t.end)),
                "{text:?}"
            );
        }
    }
}
