//! What every part of the tree builder shares: where it is in the file, the
//! nesting depth, the diagnostics found while building, and the leaves
//! (names, numbers, strings); and [`Children`], which walks a node's parts in
//! the order the grammar gives them.

use pest::iterators::{Pair, Pairs};

use super::errors::too_deep;
use super::grammar::{MAX_NESTING, RED_ZONE, Rule, STACK_STEP};
use crate::diagnostic::{Diagnostic, FileId, Span};
use crate::syntax::ast::*;

/// The tree builder's state while it turns the pairs of one parse into items.
pub(super) struct Ctx<'a> {
    file: FileId,
    /// Where the parsed text starts in the file: after an error the parser
    /// resumes mid-file, and spans must still point into the whole file.
    offset: usize,
    /// Lines the grammar accepts but that make no sense where they are, and
    /// constructs nested too deeply.
    pub(super) misplaced: std::cell::RefCell<Vec<Diagnostic>>,
    /// How many levels deep the node being built is (see [`MAX_NESTING`]).
    pub(super) depth: std::cell::Cell<usize>,
    /// Whether this file already reported a construct nested too deeply.
    too_deep: &'a std::cell::Cell<bool>,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(file: FileId, offset: usize, too_deep: &'a std::cell::Cell<bool>) -> Ctx<'a> {
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
    pub(super) fn nested<T>(&self, levels: usize, at: impl FnOnce() -> Span, build: impl FnOnce() -> T) -> Option<T> {
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
    pub(super) fn head(&self, pair: &Pair<Rule>) -> Span {
        let text = pair.as_str();
        let len = match text.chars().next() {
            // A word runs to its first non-word character, or to the end.
            Some(c) if c.is_ascii_alphanumeric() || c == '_' => text
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(text.len()),
            Some(c) => c.len_utf8(),
            None => 0,
        };
        let start = self.offset + pair.as_span().start();
        Span::new(self.file, start, start + len)
    }

    pub(super) fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.file, self.offset + s.start(), self.offset + s.end())
    }

    pub(super) fn ident(&self, pair: Pair<Rule>) -> Ident {
        debug_assert_eq!(pair.as_rule(), Rule::ident);
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    pub(super) fn int(&self, pair: Pair<Rule>) -> i64 {
        // The grammar only admits digits; a number too large for i64 saturates
        // and is reported by `check` as out of range.
        pair.as_str().parse().unwrap_or(i64::MAX)
    }

    pub(super) fn string(&self, pair: Pair<Rule>) -> String {
        Children::of(pair).take(Rule::str_inner).as_str().to_string()
    }
}

pub(super) fn named_kind(pair: Pair<Rule>) -> NamedKind {
    if pair.as_str() == "phase" {
        NamedKind::Phase
    } else {
        NamedKind::Step
    }
}

pub(super) fn visibility(pair: Pair<Rule>) -> Visibility {
    match pair.as_str() {
        "hidden" => Visibility::Hidden,
        "owner" => Visibility::Owner,
        _ => Visibility::Public,
    }
}

/// The parts of one node, taken in the order `grammar/rules.pest` writes them.
///
/// Each `take` names the rule the grammar puts there, so a builder that has
/// drifted from the grammar stops at the first part it misreads, with a message
/// naming the node, the rule it expected and the one it found. Such a drift is a
/// bug in this crate, not in the file being parsed: every file the grammar
/// accepts has exactly the parts its rules say, so once the builder reads them
/// right no input reaches the panic (`tests/fuzz.rs` feeds it mutated games).
/// That is why it panics rather than returning a diagnostic: threading a
/// `Result` through every builder for a case no rules file can cause would
/// bury the tree-building under error plumbing.
pub(super) struct Children<'i> {
    parent: Rule,
    pairs: Pairs<'i, Rule>,
}

impl<'i> Children<'i> {
    pub(super) fn of(pair: Pair<'i, Rule>) -> Children<'i> {
        Children {
            parent: pair.as_rule(),
            pairs: pair.into_inner(),
        }
    }

    /// The next part, which the grammar says is a `rule`.
    #[track_caller]
    pub(super) fn take(&mut self, rule: Rule) -> Pair<'i, Rule> {
        self.take_one_of(&[rule])
    }

    /// The next part, which the grammar says is one of `rules` (a choice
    /// `a | b` the builder then tells apart).
    #[track_caller]
    pub(super) fn take_one_of(&mut self, rules: &[Rule]) -> Pair<'i, Rule> {
        match self.pairs.next() {
            Some(pair) if rules.contains(&pair.as_rule()) => pair,
            found => {
                let expected: Vec<String> = rules.iter().map(|rule| format!("`{rule:?}`")).collect();
                self.mismatch(&expected.join(" or "), found)
            }
        }
    }

    /// The next part, whichever rule it is: for a choice with many
    /// alternatives that the caller dispatches on (`of_expr`, `override`).
    #[track_caller]
    pub(super) fn take_any(&mut self) -> Pair<'i, Rule> {
        match self.pairs.next() {
            Some(pair) => pair,
            None => self.mismatch("one more part", None),
        }
    }

    /// The next part if it is a `rule`: an optional part (`rule?`).
    pub(super) fn take_opt(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        if self.pairs.peek().is_some_and(|pair| pair.as_rule() == rule) {
            self.pairs.next()
        } else {
            None
        }
    }

    /// Whether every part has been taken: an optional tail the grammar left
    /// out (`count Gem` with neither `in` nor `on`).
    pub(super) fn at_end(&self) -> bool {
        self.pairs.peek().is_none()
    }

    /// The next parts for as long as they are a `rule`: a repeated part
    /// (`rule*`, or `rule ~ ("," ~ rule)*`).
    pub(super) fn take_many(&mut self, rule: Rule) -> impl Iterator<Item = Pair<'i, Rule>> + '_ {
        std::iter::from_fn(move || self.take_opt(rule))
    }

    /// The remaining parts, for a node whose parts come in any order.
    pub(super) fn rest(self) -> Pairs<'i, Rule> {
        self.pairs
    }

    #[track_caller]
    fn mismatch(&self, expected: &str, found: Option<Pair<'i, Rule>>) -> ! {
        let found = found.map_or_else(|| "nothing".to_string(), |pair| format!("`{:?}`", pair.as_rule()));
        panic!(
            "the tree builder disagrees with grammar/rules.pest: in a `{:?}` it expected {expected}, \
             but the grammar put {found} there",
            self.parent
        )
    }
}

#[cfg(test)]
mod tests {
    use pest::Parser;

    use super::super::{Rule, RulesParser};
    use super::Children;
    use crate::syntax::ast::Item;

    fn game_decl(text: &str) -> Children<'_> {
        let mut file = RulesParser::parse(Rule::file, text).expect("the text parses");
        let file = file.next().expect("the file rule yields one pair");
        Children::of(Children::of(file).take(Rule::game_decl))
    }

    #[test]
    fn a_part_of_the_rule_expected_is_taken() {
        let mut parts = game_decl(r#"game "Duel""#);
        assert_eq!(parts.take_opt(Rule::int), None);
        assert_eq!(parts.take(Rule::string).as_str(), r#""Duel""#);
    }

    #[test]
    #[should_panic(expected = "in a `game_decl` it expected `int`, but the grammar put `string` there")]
    fn a_builder_that_misreads_the_grammar_names_both_rules() {
        game_decl(r#"game "Duel""#).take(Rule::int);
    }

    #[test]
    #[should_panic(expected = "in a `game_decl` it expected `string`, but the grammar put nothing there")]
    fn a_builder_that_reads_past_the_end_says_so() {
        let mut parts = game_decl(r#"game "Duel""#);
        parts.take(Rule::string);
        parts.take(Rule::string);
    }

    #[test]
    fn an_empty_string_still_has_its_inside() {
        let (file, errors) = super::super::parse_file(0, r#"game """#);
        assert!(errors.is_empty());
        assert!(matches!(&file.items[..], [Item::Game { name, .. }] if name.is_empty()));
    }
}
