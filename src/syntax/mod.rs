//! Syntax: the pest grammar (`grammar/rules.pest`) and the spanned AST.

pub mod ast;
mod parse;

pub use parse::parse_file;
