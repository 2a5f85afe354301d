//! rpsdsl's core: the rules language and the engine that plays it.
//!
//! The pipeline: source text -> [`syntax`] (pest, spanned AST) -> [`check`]
//! (names, types, diagnostics) -> [`ir::GameDef`] -> [`engine::State`].
//! [`load`] reads a game with its house rules ([`house`]) and options;
//! [`scenario`] sets a game up from a described position; [`native`]
//! compiles a game's flow to machine code beside the interpreter.
//!
//! It is a crate of its own so that Cargo keeps it from the tools built on
//! it: it names no web server, database, plotting, editor protocol or
//! command-line crate. The `rpsdsl` crate re-exports every module here.

#![warn(missing_docs)]

pub mod budget;
pub mod check;
pub mod diagnostic;
pub mod engine;
pub mod house;
pub mod input;
pub mod ir;
pub mod load;
pub mod native;
pub mod scenario;
pub mod script;
pub mod syntax;
pub mod text;
