//! How positions, views and steps become 64-bit keys: [`mix`], and the key
//! of one step as an observer sees it ([`StepKey`]).

use crate::ir::DecisionId;

/// Mixes a word into a 64-bit key (splitmix64 steps): how move keys are
/// built, and how a search combines them.
pub fn mix(mut h: u64, v: u64) -> u64 {
    h ^= v
        .wrapping_add(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(h << 6)
        .wrapping_add(h >> 2);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// How an observer keys one step of a game (every answering seat's choice
/// at one decision), as a search's tree keys its children: start with
/// [`StepKey::new`], then [`StepKey::then`] each answering seat's choice in
/// the order the seats answer. The same step has the same key in the real
/// game and in every world sampled from the observer's observation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepKey(pub u64);

impl StepKey {
    /// What an observer sees of another seat's secret answer.
    const HIDDEN: u64 = 0x4849_4444_454E;

    /// A step at `decision`, before any answer.
    pub fn new(decision: DecisionId) -> Self {
        StepKey(mix(0, decision as u64))
    }

    /// Adds one seat's answer: the key of its choice, or `None` when the
    /// observer does not see it.
    pub fn then(self, key: Option<u64>) -> Self {
        StepKey(mix(self.0, key.unwrap_or(Self::HIDDEN)))
    }
}
