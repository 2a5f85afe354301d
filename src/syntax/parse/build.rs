//! What every part of the tree builder shares: where it is in the file, the
//! nesting depth, the diagnostics found while building, and the leaves
//! (names, numbers, strings).

use pest::iterators::Pair;

use super::errors::too_deep;
use super::{MAX_NESTING, RED_ZONE, Rule, STACK_STEP};
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
        pair.into_inner()
            .next()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default()
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
