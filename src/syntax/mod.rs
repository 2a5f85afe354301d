//! Syntax: the pest grammar (`grammar/rules.pest`) and the spanned AST.

pub mod ast;
mod parse;

pub use parse::MAX_NESTING;
pub use parse::{first_item_parses, looks_like_rules, parse_file};

/// Runs `f`, on a fresh stack segment if this one runs low. Every function
/// that recurses over the tree goes through it at each level, so a tree as
/// deep as [`MAX_NESTING`] allows is walked safely on any thread.
pub(crate) fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(parse::RED_ZONE, parse::STACK_STEP, f)
}
