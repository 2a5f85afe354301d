//! What one op leaves the interpreter's loop to do, in both tiers.

/// What `State::step` leaves `State::exec` to do.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Flow {
    /// Go on with the next op.
    Continue,
    /// The op may have changed the frames or the status: look at them again.
    Reload,
}
