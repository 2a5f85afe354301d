//! Syntax: the pest grammar (`grammar/rules.pest`) and the spanned AST.

pub mod ast;
mod parse;
pub mod tokens;

pub use parse::{LineStarts, first_item_parses, line_starts, looks_like_rules, parse_file};
pub use parse::{MAX_NESTING, deeper};
