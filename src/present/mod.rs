//! What a seat's screen shows, as data: what happened since its last
//! choice (with who beat whom), the labels of its pieces and zones, the
//! counters and the score so far, and the prompt with its choices.
//!
//! Both faces render this one model: the terminal's `play` as text, the
//! studio as a page. Neither computes it itself. Everything here is read
//! from the engine's per-seat [`View`](crate::engine::View) and
//! [`Observation`](crate::engine::Observation), or from the events as the
//! seat saw them, so no part of it holds what the seat may not know.

mod happened;
mod labels;
mod prompt;

pub(crate) use happened::seen_lines;
pub(crate) use labels::{listing, listing_with, scores_now, variables};
pub use prompt::{Input, Note, Offer, Place, Prompt};
