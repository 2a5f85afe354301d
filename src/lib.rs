//! rpsdsl: a game-definition engine.
//!
//! The pipeline: source text -> [`syntax`] (pest, spanned AST) -> [`check`]
//! (names, types, diagnostics) -> [`ir::GameDef`] -> [`engine::State`] plus
//! actions -> [`transcript`].

#![warn(missing_docs)]

pub mod agents;
pub mod budget;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod engine;
pub mod exact;
pub mod explain;
pub mod formatter;
pub mod house;
pub mod input;
pub mod ir;
pub mod load;
pub mod lsp;
pub mod native;
pub mod playtest;
pub mod present;
pub mod render;
pub mod scenario;
pub mod script;
pub mod session;
pub mod sim;
pub mod solve;
pub mod studio;
pub mod syntax;
pub mod text;
pub mod transcript;
