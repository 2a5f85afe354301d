//! Syntax: the pest grammar (`grammar/rules.pest`) and the spanned AST.

pub mod ast;
mod parse;
pub mod tokens;

pub use parse::MAX_NESTING;
pub use parse::{LineStarts, first_item_parses, line_starts, looks_like_rules, parse_file};

/// Runs `f`, on a fresh stack segment if this one runs low. Every function
/// that recurses over the tree goes through it at each level, so a tree as
/// deep as [`MAX_NESTING`] allows is walked safely on any thread.
pub fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(parse::RED_ZONE, parse::STACK_STEP, f)
}
