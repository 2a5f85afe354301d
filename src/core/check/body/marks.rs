//! What the compiler keeps while it writes, each written and read by its
//! own file: the forward jumps still to patch (`writer`), and what the
//! rules read of zones' order (`order`) and of their contents (`contents`).

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

/// How a statement or expression is about to use the zone it names next:
/// the uses that do not read which pieces a zone holds (see `contents`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ZoneUse {
    /// `size of` it.
    Size,
    /// Pieces moved or dealt into it, or its order shuffled.
    Target,
    /// Its pieces moved or dealt into a zone of this family (`None`: one
    /// this reading cannot name).
    Source(Option<u16>),
}

/// What the rules read of zones' contents, gathered while compiling.
#[derive(Default)]
pub(super) struct ContentReads {
    /// How the zone named next is used, set just before it is compiled.
    pub(super) next_use: Option<ZoneUse>,
    /// Each family named, and how (`None`: its pieces are read).
    pub(super) named: Vec<(u16, Option<ZoneUse>)>,
}
