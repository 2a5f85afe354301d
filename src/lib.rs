//! rpsdsl: a game-definition engine.
//!
//! The pipeline: source text -> [`syntax`] (pest, spanned AST) -> [`check`]
//! (names, types, diagnostics) -> [`ir::GameDef`] -> [`engine::State`] plus
//! actions -> [`transcript`].

#![warn(missing_docs)]

// The core, a crate of its own (src/core): the language, the checker, the
// checked game and the engine. Re-exported so that `rpsdsl::engine` and
// `crate::engine` name the same module as before.
pub use rpsdsl_core::{
    budget, check, diagnostic, engine, house, input, ir, load, native, scenario, script, syntax, text,
};

pub mod agents;
pub mod cli;
pub mod exact;
pub mod explain;
pub mod formatter;
pub mod lsp;
pub mod playtest;
pub mod present;
pub mod render;
pub mod session;
pub mod sim;
pub mod solve;
pub mod studio;
pub mod transcript;
