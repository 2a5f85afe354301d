//! The engine: a resumable interpreter of a [`GameDef`]'s flow program.
//! What runs code takes a [`Game`], the definition with its compiled hooks;
//! what only reads takes the `GameDef`.
//!
//! [`State::start`] runs the game until it needs a decision. The caller reads
//! [`State::pending`], gathers the choices (from agents, a scenario, a person)
//! and hands them to [`State::apply`]. The engine never calls an agent.
//!
//! This file only names the parts; each lives in a child of its own, so
//! that no child imports its parent.

mod chance;
mod dice;
mod events;
mod features;
mod game;
mod glance;
mod key;
pub(crate) mod lower;
mod observe;
mod play;
mod position;
mod reach;
mod shuffle;
mod state;
mod tally;
mod view;
mod vm;
mod watch;
mod zones;

pub use chance::{Chance, ChanceScript};
pub use events::{EndReason, Event};
pub use features::FeatureLayout;
pub use game::{Engine, Game};
pub use glance::{GLANCE_LEVELS, GlanceSituation, Glanced, REFINED_VISITS, magnitude};
pub use key::{StepKey, mix};
pub use observe::{Observation, Pick, Seen, SeenDecision, World};
pub use view::{Memory, PieceFace, Recall, View};

pub use state::{Choice, EngineError, ForcedRoll, ForcedShuffle, IllegalAction, Outcome, Pending, RuntimeError, State};

/// A small game for the engine's tests: A and B take turns putting marks
/// from their supplies on a `size` x `size` grid, `turns` marks in all,
/// and then `ending` (a statement, e.g. `if ... { win A }`) decides.
#[cfg(test)]
pub(crate) fn marks_game(size: usize, marks: usize, turns: usize, ending: &str) -> Game {
    let source = format!(
        r#"
game "Marks"
players 2: A, B
board cells: grid {size} x {size} {{
  mark public
}}
zones {{
  supply per player public
}}
pieces {{
  Mark x{marks} per player in supply
}}
flow {{
  let mover = A
  repeat {turns} times {{
    mover chooses cell from cells where size of mark of cell == 0
    move first Mark in supply of mover to mark of cell
    set mover = opponent of mover
  }}
  {ending}
  declare draw "no more turns"
}}
"#
    );
    test_game("marks.rules", &source)
}

/// A game for the engine's tests, from its source; a source that does not
/// check fails the test with its diagnostics.
#[cfg(test)]
pub(crate) fn test_game(name: &str, source: &str) -> Game {
    match crate::check::check_source(name, source, &crate::check::FsLoader) {
        Ok(checked) => checked.def,
        Err(failure) => panic!("{name} does not check: {:?}", failure.diagnostics),
    }
}
