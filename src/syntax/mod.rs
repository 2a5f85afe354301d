//! Syntax: the pest grammar (`grammar/rules.pest`) and the spanned AST.

pub mod ast;
mod parse;

pub use parse::{first_item_parses, looks_like_rules, parse_file};
