//! Statistics with exact, mergeable state: integer histograms and moment
//! sums that add up the same in any order, and the tests that compare them
//! (Wilson intervals, two-proportion z-test, Welch's t-test). The normal
//! and Student's t tails come from `statrs`.
//!
//! Everything stored is an integer, so merging shards or chunks is exact;
//! floating point appears only when a figure is shown.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// The 97.5% point of the standard normal: a 95% two-sided interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// How many of each value: exact, so quantiles are exact and merging is a sum.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Histogram(pub BTreeMap<u64, u64>);

impl Histogram {
    pub(crate) fn add(&mut self, value: u64) {
        *self.0.entry(value).or_insert(0) += 1;
    }

    /// Both histograms together, or `None` (and `self` unchanged) if a count
    /// would pass `u64::MAX`.
    pub(crate) fn checked_merge(&self, other: &Histogram) -> Option<Histogram> {
        let mut out = self.clone();
        for (&v, &c) in &other.0 {
            let entry = out.0.entry(v).or_insert(0);
            *entry = entry.checked_add(c)?;
        }
        Some(out)
    }

    /// The number of observations, or `None` if it passes `u64::MAX`.
    pub(crate) fn checked_count(&self) -> Option<u64> {
        self.0.values().try_fold(0u64, |n, &c| n.checked_add(c))
    }

    /// [`moments`](Self::moments), or `None` if a sum would not fit.
    pub(crate) fn checked_moments(&self) -> Option<Moments> {
        let mut m = Moments::default();
        for (&v, &c) in &self.0 {
            let (v, c128) = (v as i128, c as i128);
            m.count = m.count.checked_add(c)?;
            m.sum = m.sum.checked_add(v.checked_mul(c128)?)?;
            m.sum_squares = m.sum_squares.checked_add(v.checked_mul(v)?.checked_mul(c128)?)?;
        }
        m.is_consistent().then_some(m)
    }

    /// How many values were counted.
    pub fn count(&self) -> u64 {
        self.0.values().sum()
    }

    pub(crate) fn moments(&self) -> Moments {
        let mut m = Moments::default();
        for (&v, &c) in &self.0 {
            m.count += c;
            m.sum += v as i128 * c as i128;
            m.sum_squares += (v as i128) * (v as i128) * c as i128;
        }
        m
    }

    pub(crate) fn min(&self) -> Option<u64> {
        self.0.keys().next().copied()
    }

    /// The largest value counted, if any.
    pub fn max(&self) -> Option<u64> {
        self.0.keys().next_back().copied()
    }

    /// The nearest-rank quantile: the smallest value with at least `p` of
    /// the observations at or below it (`p = 0.5` gives the lower median).
    pub(crate) fn quantile(&self, p: f64) -> Option<u64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let rank = ((p * n as f64).ceil() as u64).clamp(1, n);
        let mut seen = 0;
        for (&v, &c) in &self.0 {
            seen += c;
            if seen >= rank {
                return Some(v);
            }
        }
        self.max()
    }

    /// How many observations fall in `lo..=hi`.
    pub(crate) fn count_between(&self, lo: u64, hi: u64) -> u64 {
        self.0.range(lo..=hi).map(|(_, &c)| c).sum()
    }

    /// A text histogram: at most `rows` bins from the minimum to the 99th
    /// percentile, then one bin for the tail, bars scaled to `width`.
    pub(crate) fn render(&self, rows: u64, width: usize) -> Vec<String> {
        let (Some(min), Some(max), Some(p99)) = (self.min(), self.max(), self.quantile(0.99)) else {
            return vec![];
        };
        let span = (p99 - min).saturating_add(1);
        let bin = span.div_ceil(rows.max(1)).max(1);
        let mut bins: Vec<(u64, u64, u64)> = vec![];
        let mut lo = min;
        while lo <= p99 {
            let hi = lo.saturating_add(bin - 1).min(p99);
            bins.push((lo, hi, self.count_between(lo, hi)));
            match hi.checked_add(1) {
                Some(next) => lo = next,
                None => break,
            }
        }
        if max > p99 {
            bins.push((p99 + 1, max, self.count_between(p99 + 1, max)));
        }
        let most = bins.iter().map(|b| b.2).max().unwrap_or(1).max(1);
        let label = |lo: u64, hi: u64| {
            if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }
        };
        let label_width = bins.iter().map(|&(lo, hi, _)| label(lo, hi).len()).max().unwrap_or(1);
        let n = self.count().max(1);
        bins.iter()
            .map(|&(lo, hi, c)| {
                let bar = ((c as f64 / most as f64) * width as f64).round() as usize;
                let bar = if c > 0 { bar.max(1) } else { 0 };
                format!(
                    "{:>label_width$} | {:<width$} {:>5.1}%",
                    label(lo, hi),
                    "#".repeat(bar),
                    100.0 * c as f64 / n as f64
                )
            })
            .collect()
    }
}

/// Count, sum and sum of squares of integer observations: enough for the
/// mean and the standard deviation, and exact to merge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Moments {
    pub count: u64,
    pub sum: i128,
    pub sum_squares: i128,
}

impl Moments {
    pub(crate) fn add(&mut self, value: i64) {
        self.count += 1;
        self.sum += value as i128;
        self.sum_squares += value as i128 * value as i128;
    }

    /// Both sets of moments together, or `None` if a sum would not fit.
    pub(crate) fn checked_merge(&self, other: &Moments) -> Option<Moments> {
        let m = Moments {
            count: self.count.checked_add(other.count)?,
            sum: self.sum.checked_add(other.sum)?,
            sum_squares: self.sum_squares.checked_add(other.sum_squares)?,
        };
        m.is_consistent().then_some(m)
    }

    /// Whether these sums can come from `count` integers, and every figure
    /// derived from them (mean, variance) is computed without overflow: no
    /// sum without observations, squares not negative, and
    /// `count * sum_squares >= sum * sum` (Cauchy-Schwarz).
    pub(crate) fn is_consistent(&self) -> bool {
        if self.count == 0 {
            return self.sum == 0 && self.sum_squares == 0;
        }
        let n = self.count as i128;
        let (Some(a), Some(b)) = (n.checked_mul(self.sum_squares), self.sum.checked_mul(self.sum)) else {
            return false;
        };
        self.sum_squares >= 0 && a.checked_sub(b).is_some_and(|d| d >= 0) && n.checked_mul(n - 1).is_some()
    }

    pub(crate) fn mean(&self) -> f64 {
        if self.count == 0 {
            return f64::NAN;
        }
        self.sum as f64 / self.count as f64
    }

    /// The sample variance (divided by n - 1), computed from exact integers.
    pub(crate) fn variance(&self) -> f64 {
        if self.count < 2 {
            return 0.0;
        }
        let n = self.count as i128;
        let numerator = n * self.sum_squares - self.sum * self.sum;
        numerator as f64 / (n * (n - 1)) as f64
    }

    pub(crate) fn sd(&self) -> f64 {
        self.variance().max(0.0).sqrt()
    }
}

/// A proportion with its Wilson score interval at 95%.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// The games (or rounds) counted.
    pub count: u64,
    /// Out of this many.
    pub of: u64,
    /// `count / of`, 0 when `of` is 0.
    pub rate: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Rate {
    /// `count` out of `of`, with its Wilson interval.
    pub fn new(count: u64, of: u64) -> Rate {
        let (low, high) = wilson(count, of);
        Rate {
            count,
            of,
            rate: if of == 0 { 0.0 } else { count as f64 / of as f64 },
            low,
            high,
        }
    }
}

/// The Wilson score interval for `successes` out of `n` at 95%.
pub(crate) fn wilson(successes: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = Z95 / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A test's verdict: the two-sided p-value, and whether it is below 5%.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub(crate) struct Test {
    pub p_value: f64,
    pub significant: bool,
}

impl Test {
    fn from_p(p_value: f64) -> Test {
        Test {
            p_value,
            significant: p_value < 0.05,
        }
    }
}

/// The pooled two-proportion z-test: is `x1/n1` different from `x2/n2`?
pub(crate) fn two_proportion(x1: u64, n1: u64, x2: u64, n2: u64) -> Test {
    if n1 == 0 || n2 == 0 {
        return Test::from_p(1.0);
    }
    let (n1f, n2f) = (n1 as f64, n2 as f64);
    let pooled = (x1 + x2) as f64 / (n1f + n2f);
    let se = (pooled * (1.0 - pooled) * (1.0 / n1f + 1.0 / n2f)).sqrt();
    if se == 0.0 {
        return Test::from_p(1.0);
    }
    let z = (x1 as f64 / n1f - x2 as f64 / n2f) / se;
    Test::from_p(2.0 * normal_upper(z.abs()))
}

/// Welch's t-test for two means with unequal variances.
pub(crate) fn welch(a: &Moments, b: &Moments) -> Test {
    if a.count < 2 || b.count < 2 {
        return Test::from_p(1.0);
    }
    let (va, vb) = (a.variance() / a.count as f64, b.variance() / b.count as f64);
    let diff = a.mean() - b.mean();
    if va + vb == 0.0 {
        // No spread at all: any difference is certain.
        return Test::from_p(if diff == 0.0 { 1.0 } else { 0.0 });
    }
    let t = diff / (va + vb).sqrt();
    let df = (va + vb).powi(2) / (va * va / (a.count as f64 - 1.0) + vb * vb / (b.count as f64 - 1.0));
    Test::from_p(student_t_two_sided(t, df))
}

/// P(|T| > |t|) for Student's t with `df` degrees of freedom.
pub(crate) fn student_t_two_sided(t: f64, df: f64) -> f64 {
    if !t.is_finite() {
        return 0.0;
    }
    match StudentsT::new(0.0, 1.0, df) {
        Ok(dist) => (2.0 * dist.sf(t.abs())).clamp(0.0, 1.0),
        // No degrees of freedom to speak of (a sample too small to test): no evidence.
        Err(_) => 1.0,
    }
}

/// P(Z > z) for the standard normal.
pub(crate) fn normal_upper(z: f64) -> f64 {
    Normal::standard().sf(z)
}

/// The golden ratio increment of SplitMix64.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The seed of game `index` of a run seeded with `seed`: the `index + 1`-th
/// output of SplitMix64 started at `seed`. `rpsdsl run --seed` with this
/// number replays the game. The runner and the report (which names the seed
/// of each game it counted) both read it here, so neither imports the other.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed.wrapping_add(index.wrapping_add(1).wrapping_mul(GAMMA)))
}

/// SplitMix64's output for `state`: a fast, well-mixed 64-bit hash.
pub(crate) fn splitmix64(state: u64) -> u64 {
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A mean with its 95% interval.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Interval {
    /// The mean over the deals.
    pub estimate: f64,
    /// The confidence sequence's low end.
    pub low: f64,
    /// Its high end.
    pub high: f64,
}

impl Interval {
    pub(crate) fn excludes_zero(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_nearest_rank() {
        let mut h = Histogram::default();
        for v in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
            h.add(v);
        }
        assert_eq!(h.quantile(0.5), Some(5));
        assert_eq!(h.quantile(0.1), Some(1));
        assert_eq!(h.quantile(0.9), Some(9));
        assert_eq!(h.quantile(1.0), Some(10));
        let m = h.moments();
        assert_eq!(m.mean(), 5.5);
        assert!((m.sd() - 3.027_650_354).abs() < 1e-6);
    }

    #[test]
    fn huge_values_neither_overflow_nor_pass_the_checks() {
        let mut h = Histogram::default();
        h.add(0);
        h.add(u64::MAX);
        let rows = h.render(10, 20);
        assert!((2..=11).contains(&rows.len()), "{rows:?}");
        assert_eq!(h.checked_moments(), None);
        let wrapped = Histogram([(1, u64::MAX)].into_iter().collect());
        assert_eq!(wrapped.checked_merge(&wrapped), None);
        assert_eq!(wrapped.checked_count(), Some(u64::MAX));
        let bad = Moments {
            count: 2,
            sum: 10,
            sum_squares: 1,
        };
        assert!(!bad.is_consistent());
    }

    #[test]
    fn wilson_matches_known_values() {
        // 50 of 100: 40.4% to 59.6%.
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.403_832).abs() < 1e-5 && (hi - 0.596_168).abs() < 1e-5);
        assert_eq!(wilson(0, 10).0, 0.0);
    }

    #[test]
    fn tails_agree_with_reference_values_to_many_digits() {
        // From the closed forms: t with 1 df is Cauchy, with 2 df
        // P(|T| > t) = 1 - t / sqrt(2 + t^2); and Φ(-1.96) to 12 digits.
        assert!((student_t_two_sided(3.0, 1.0) - (1.0 - 2.0 * 3f64.atan() / std::f64::consts::PI)).abs() < 1e-12);
        assert!((student_t_two_sided(1.5, 2.0) - (1.0 - 1.5 / (2.0f64 + 2.25).sqrt())).abs() < 1e-12);
        assert!((normal_upper(1.96) - 0.024_997_895_148_220_4).abs() < 1e-10);
        assert_eq!(student_t_two_sided(f64::INFINITY, 3.0), 0.0);
    }

    #[test]
    fn t_and_normal_tails() {
        assert!((student_t_two_sided(2.0, 10.0) - 0.073_388).abs() < 1e-5);
        assert!((student_t_two_sided(1.0, 1.0) - 0.5).abs() < 1e-9);
        assert!((normal_upper(1.959_964) - 0.025).abs() < 1e-6);
        assert!((student_t_two_sided(1.959_964, 1e7) - 0.05).abs() < 1e-5);
    }

    #[test]
    fn tests_mark_clear_differences_only() {
        assert!(two_proportion(600, 1000, 500, 1000).significant);
        assert!(!two_proportion(510, 1000, 500, 1000).significant);
        let mut a = Moments::default();
        let mut b = Moments::default();
        for i in 0..100 {
            a.add(i % 10);
            b.add(i % 10 + 2);
        }
        assert!(welch(&a, &b).significant);
        assert!(!welch(&a, &a).significant);
    }
}
