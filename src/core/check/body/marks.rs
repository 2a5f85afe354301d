//! What the compiler keeps while it writes, each written and read by its
//! own file: the forward jumps still to patch (`writer`), and what the
//! rules read of zones' order (`order`).

use crate::diagnostic::Span;

/// A forward jump (or a loop step's exit) still waiting for its target.
/// Left unpatched it would jump to the start of the procedure, so dropping
/// one is a warning; `Compiler::patch_here` consumes it.
#[must_use = "a forward jump must be patched with `patch_here`"]
pub(super) struct PatchAddr(pub(super) usize);

/// What the rules read of zones' order, gathered while compiling.
#[derive(Default)]
pub(super) struct OrderReads {
    /// Families whose order some rule reads.
    pub(super) read: Vec<u16>,
    /// Reads of the order of a zone this reading cannot name, by where they are.
    pub(super) unknown: Vec<Span>,
    /// `move all of` from a family (`None`: not known) to one, and where.
    pub(super) carried: Vec<(Option<u16>, Option<u16>, Span)>,
    /// `move all of` statements whose target the next statement shuffles,
    /// by where they start.
    pub(super) shuffled_after: Vec<(u16, u32)>,
}
