//! Chance: every random draw the game makes goes through [`Chance`].
//!
//! In play, a draw comes from the game's seeded stream, exactly as it always
//! has, so a seed gives the same shuffles (the pinned transcripts rely on
//! it). In an exact enumeration (the `exact` module of `rpsdsl`) a draw takes the outcome
//! a script names instead, and records how many outcomes it had: the
//! enumerator runs the same step once per outcome.
//!
//! A draw is a choice among `k` equally likely outcomes. A shuffle is one
//! draw among the zone's distinct arrangements; a die roll is one draw
//! among its faces (see `dice`): `Seeded` draws `rng.random_range(0..k)`,
//! `Scripted` calls [`ChanceScript::draw`], and nothing else changes.

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::ir::PieceId;

/// Where the game's random draws come from.
// The seeded stream is the large variant and the one play uses: boxing it
// would add an allocation to every copy of a state a search makes.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Chance {
    /// Normal play: a stream fixed by the game's seed.
    Seeded(SeededStream),
    /// Exact enumeration: the outcomes a script names.
    Scripted(ChanceScript),
}

/// The seeded stream, and how many draws it gave. `ChaCha8Rng` is not
/// `Clone` in rand 0.10, so a clone goes through its serialized state
/// (seed, stream and position), which continues the exact same stream.
#[derive(Debug)]
pub struct SeededStream(ChaCha8Rng, u64);

impl Clone for SeededStream {
    fn clone(&self) -> Self {
        SeededStream(ChaCha8Rng::deserialize_state(&self.0.serialize_state()), self.1)
    }
}

/// The outcomes to take, draw by draw, and what each draw offered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChanceScript {
    /// The outcome to take at each draw, in the order the draws happen.
    /// Past its end, every draw takes outcome 0.
    pub path: Vec<u64>,
    /// How many outcomes each draw made so far had, in order. A draw with
    /// more outcomes than fit in a `u64` reports `u64::MAX`.
    pub outcomes: Vec<u64>,
}

impl ChanceScript {
    /// One of `outcomes` equally likely outcomes: the one the path names.
    pub(crate) fn draw(&mut self, outcomes: u64) -> u64 {
        let at = self.outcomes.len();
        self.outcomes.push(outcomes);
        self.path.get(at).copied().unwrap_or(0)
    }
}

impl Chance {
    /// The stream of seed `seed`.
    pub fn seeded(seed: u64) -> Chance {
        Chance::Seeded(SeededStream(ChaCha8Rng::seed_from_u64(seed), 0))
    }

    /// Draws that take the outcomes of `path`, then outcome 0.
    pub fn scripted(path: Vec<u64>) -> Chance {
        Chance::Scripted(ChanceScript { path, outcomes: vec![] })
    }

    /// How many draws a seeded stream gave (`None` when draws are scripted).
    pub(crate) fn drawn(&self) -> Option<u64> {
        match self {
            Chance::Seeded(stream) => Some(stream.1),
            Chance::Scripted(_) => None,
        }
    }

    /// The script, when draws are scripted.
    pub fn script(&self) -> Option<&ChanceScript> {
        match self {
            Chance::Scripted(script) => Some(script),
            Chance::Seeded(_) => None,
        }
    }

    /// Shuffles `pieces` in place. `classes` gives each piece a class;
    /// pieces of one class are interchangeable (see
    /// [`State::interchangeable`]), so a scripted shuffle draws one of the
    /// distinct arrangements of the classes, each as likely as the others
    /// (each stands for the same number of orders of the pieces).
    /// One of `faces` equally likely faces of a die, counted from 0.
    pub(super) fn draw_face(&mut self, faces: u64) -> u64 {
        match self {
            Chance::Seeded(stream) => {
                stream.1 += 1;
                stream.0.random_range(0..faces)
            }
            Chance::Scripted(script) => script.draw(faces),
        }
    }

    pub(super) fn shuffle(&mut self, pieces: &mut [PieceId], classes: &[u32]) {
        match self {
            Chance::Seeded(stream) => {
                stream.1 += 1;
                pieces.shuffle(&mut stream.0);
            }
            Chance::Scripted(script) => {
                let mut counts = vec![0u64; classes.iter().max().map_or(0, |&c| c as usize + 1)];
                for &c in classes {
                    counts[c as usize] += 1;
                }
                let arrangements = multinomial(&counts);
                let rank = script.draw(arrangements.min(u64::MAX as u128) as u64);
                // Each class's pieces in the order they lay, handed out in
                // that order to the places the arrangement gives the class.
                let mut members: Vec<Vec<PieceId>> = vec![vec![]; counts.len()];
                for (&piece, &c) in pieces.iter().zip(classes).rev() {
                    members[c as usize].push(piece);
                }
                for (slot, c) in unrank(&mut counts, arrangements, rank as u128).into_iter().enumerate() {
                    pieces[slot] = members[c].pop().expect("the arrangement uses each class's count");
                }
            }
        }
    }
}

/// How many distinct orders a multiset with these class counts has:
/// n! / (m1! m2! ...), saturating at `u128::MAX`.
fn multinomial(counts: &[u64]) -> u128 {
    let mut total: u128 = 1;
    let mut placed: u128 = 0;
    for &m in counts {
        // C(placed + m, m), built up one factor at a time: every partial
        // product is itself a binomial coefficient, so each division is exact.
        let mut binomial: u128 = 1;
        for i in 1..=m as u128 {
            binomial = binomial.saturating_mul(placed + i) / i;
        }
        placed += m as u128;
        total = total.saturating_mul(binomial);
    }
    total
}

/// The arrangement of rank `rank` (in the order that lists classes by
/// number, place by place) of a multiset with `counts`, which has
/// `arrangements` arrangements; `counts` ends all zero.
fn unrank(counts: &mut [u64], mut arrangements: u128, mut rank: u128) -> Vec<usize> {
    let n: u64 = counts.iter().sum();
    let mut order = Vec::with_capacity(n as usize);
    for left in (1..=n as u128).rev() {
        for (c, count) in counts.iter_mut().enumerate() {
            if *count == 0 {
                continue;
            }
            // Arrangements that put class `c` here: a share m_c / left of them.
            let m = *count as u128;
            let starting_here = arrangements / left * m + arrangements % left * m / left;
            if rank < starting_here {
                order.push(c);
                *count -= 1;
                arrangements = starting_here;
                break;
            }
            rank -= starting_here;
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multinomials_count_distinct_orders() {
        assert_eq!(multinomial(&[1, 1, 1]), 6);
        assert_eq!(multinomial(&[2, 1]), 3);
        // 22! / (5! 5! 5! 3! 4!): a bag of 22 tokens of five sorts.
        assert_eq!(multinomial(&[5, 5, 5, 3, 4]), 4_517_106_834_240);
        assert_eq!(multinomial(&[]), 1);
    }

    #[test]
    fn every_rank_unranks_to_a_different_arrangement() {
        let counts = [2u64, 1, 3];
        let total = multinomial(&counts);
        let mut seen = std::collections::BTreeSet::new();
        for rank in 0..total {
            let order = unrank(&mut counts.clone(), total, rank);
            assert_eq!(order.len(), 6);
            for (c, &m) in counts.iter().enumerate() {
                assert_eq!(order.iter().filter(|&&x| x == c).count() as u64, m);
            }
            seen.insert(order);
        }
        assert_eq!(seen.len() as u128, total);
    }

    #[test]
    fn a_scripted_shuffle_takes_the_named_arrangement() {
        let mut chance = Chance::scripted(vec![5]);
        let mut pieces = vec![10, 11, 12];
        chance.shuffle(&mut pieces, &[0, 1, 2]);
        assert_eq!(chance.script().unwrap().outcomes, vec![6]);
        // Rank 5 of 3 distinct classes is the last order: 2, 1, 0.
        assert_eq!(pieces, vec![12, 11, 10]);
    }
}
