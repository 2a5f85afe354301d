//! A small network that reads a position's features and says how likely
//! the seat reading them is to win: one hidden layer, fitted by Adam on
//! positions met in self-play and how their games ended.

use std::time::Instant;

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

/// The learnt evaluation: features in, a share of the points out (a win 1,
/// a draw 1/2, a loss 0, in a two-player game).
#[derive(Clone, Debug)]
pub(super) struct Net {
    inputs: usize,
    hidden: usize,
    /// Each feature's scale, over the positions it was fitted on:
    /// features far apart in size (a count of cards, a pot of chips) then
    /// learn alike.
    scale: Vec<f32>,
    /// `hidden` rows of `inputs` weights.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

/// One position met in self-play, and what its seat scored in the end.
pub(super) struct Sample {
    /// The features that are not 0, by index.
    pub features: Vec<(u32, f32)>,
    pub target: f32,
}

impl Sample {
    /// A sample of `features`, kept sparse.
    pub(super) fn new(features: &[f32], target: f32) -> Sample {
        Sample {
            features: features
                .iter()
                .enumerate()
                .filter(|(_, x)| **x != 0.0)
                .map(|(i, &x)| (i as u32, x))
                .collect(),
            target,
        }
    }
}

/// Adam's moments for every weight, in the order of [`Net::params_mut`].
struct Moments {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Net {
    /// A network for `inputs` features, its weights drawn from `seed`.
    pub(super) fn new(inputs: usize, hidden: usize, seed: u64) -> Net {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let bound1 = (6.0 / (inputs + hidden) as f32).sqrt();
        let bound2 = (6.0 / (hidden + 1) as f32).sqrt();
        Net {
            inputs,
            hidden,
            scale: vec![1.0; inputs],
            w1: (0..inputs * hidden)
                .map(|_| rng.random_range(-bound1..bound1))
                .collect(),
            b1: vec![0.0; hidden],
            w2: (0..hidden).map(|_| rng.random_range(-bound2..bound2)).collect(),
            b2: 0.0,
        }
    }

    /// The seat's expected share of the points, from its features.
    pub(super) fn value(&self, features: &[f32], hidden: &mut Vec<f32>) -> f32 {
        self.forward(features, hidden);
        sigmoid(self.logit(hidden))
    }

    fn forward(&self, features: &[f32], hidden: &mut Vec<f32>) {
        hidden.clear();
        hidden.extend_from_slice(&self.b1);
        // Most features of a position are 0 (pieces of classes a zone does
        // not hold): a run of them is passed over in one test.
        const RUN: usize = 16;
        for (r, run) in features.chunks(RUN).enumerate() {
            if run.iter().fold(0u32, |bits, x| bits | x.to_bits()) == 0 {
                continue;
            }
            for (j, &x) in run.iter().enumerate() {
                if x != 0.0 {
                    let i = r * RUN + j;
                    self.add_row(i, x * self.scale[i], hidden);
                }
            }
        }
        for h in hidden.iter_mut() {
            *h = h.max(0.0);
        }
    }

    /// [`Net::forward`] of sparse, scaled features.
    fn forward_sparse(&self, x: &[(u32, f32)], hidden: &mut Vec<f32>) {
        hidden.clear();
        hidden.extend_from_slice(&self.b1);
        for &(i, x) in x {
            self.add_row(i as usize, x, hidden);
        }
        for h in hidden.iter_mut() {
            *h = h.max(0.0);
        }
    }

    fn add_row(&self, input: usize, x: f32, hidden: &mut [f32]) {
        let row = &self.w1[input * self.hidden..(input + 1) * self.hidden];
        for (h, w) in hidden.iter_mut().zip(row) {
            *h += w * x;
        }
    }

    fn logit(&self, hidden: &[f32]) -> f32 {
        self.b2 + hidden.iter().zip(&self.w2).map(|(h, w)| h * w).sum::<f32>()
    }

    /// Sets each feature's scale from `samples`: the inverse of its root
    /// mean square, so that a feature at 0 stays 0 (and costs nothing).
    fn standardize(&mut self, samples: &[Sample]) {
        let mut squares = vec![0.0f64; self.inputs];
        for s in samples {
            for &(i, x) in &s.features {
                squares[i as usize] += f64::from(x) * f64::from(x);
            }
        }
        let n = samples.len().max(1) as f64;
        for (scale, square) in self.scale.iter_mut().zip(squares) {
            let rms = (square / n).sqrt();
            *scale = if rms > 1e-9 { (1.0 / rms) as f32 } else { 0.0 };
        }
    }

    /// Fits the network to `samples` by Adam on the cross-entropy, in
    /// minibatches, `epochs` times over them in an order drawn from `rng`,
    /// or until `until` (then after the minibatch under way).
    pub(super) fn fit(&mut self, samples: &[Sample], epochs: usize, rng: &mut ChaCha8Rng, until: Option<Instant>) {
        if samples.is_empty() {
            return;
        }
        self.standardize(samples);
        let weights = self.w1.len() + self.b1.len() + self.w2.len() + 1;
        let mut moments = Moments {
            m: vec![0.0; weights],
            v: vec![0.0; weights],
            t: 0,
        };
        let mut order: Vec<usize> = (0..samples.len()).collect();
        let mut grad = vec![0.0f32; weights];
        let mut hidden = Vec::with_capacity(self.hidden);
        let mut x: Vec<(u32, f32)> = vec![];
        const BATCH: usize = 64;
        for _ in 0..epochs {
            order.shuffle(rng);
            for (b, batch) in order.chunks(BATCH).enumerate() {
                if b % 16 == 0 && until.is_some_and(|t| Instant::now() >= t) {
                    return;
                }
                grad.iter_mut().for_each(|g| *g = 0.0);
                for &s in batch {
                    let sample = &samples[s];
                    x.clear();
                    x.extend(sample.features.iter().map(|&(i, v)| (i, v * self.scale[i as usize])));
                    self.forward_sparse(&x, &mut hidden);
                    // d(cross-entropy)/d(logit) = prediction - target.
                    let err = sigmoid(self.logit(&hidden)) - sample.target;
                    let (g1, rest) = grad.split_at_mut(self.w1.len());
                    let (gb1, rest) = rest.split_at_mut(self.hidden);
                    let (gw2, gb2) = rest.split_at_mut(self.hidden);
                    gb2[0] += err;
                    for h in 0..self.hidden {
                        gw2[h] += err * hidden[h];
                        if hidden[h] <= 0.0 {
                            continue;
                        }
                        let back = err * self.w2[h];
                        gb1[h] += back;
                        for &(i, xi) in &x {
                            g1[i as usize * self.hidden + h] += back * xi;
                        }
                    }
                }
                let n = batch.len() as f32;
                self.step(&mut moments, &grad, n);
            }
        }
    }

    /// One step of Adam along `grad` (summed over `n` samples).
    fn step(&mut self, moments: &mut Moments, grad: &[f32], n: f32) {
        const RATE: f32 = 1e-3;
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        moments.t += 1;
        let c1 = 1.0 - B1.powi(moments.t);
        let c2 = 1.0 - B2.powi(moments.t);
        let b2 = &mut self.b2;
        let params = self
            .w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(b2));
        for (((p, g), m), v) in params.zip(grad).zip(&mut moments.m).zip(&mut moments.v) {
            let g = g / n;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= RATE * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }

    /// The mean cross-entropy on `samples`: how well the network predicts
    /// them (lower is better; `ln 2` is a coin's).
    pub(super) fn loss(&self, samples: &[Sample]) -> f64 {
        let mut hidden = Vec::with_capacity(self.hidden);
        let total: f64 = samples
            .iter()
            .map(|s| {
                let x: Vec<(u32, f32)> = s
                    .features
                    .iter()
                    .map(|&(i, v)| (i, v * self.scale[i as usize]))
                    .collect();
                self.forward_sparse(&x, &mut hidden);
                let p = f64::from(sigmoid(self.logit(&hidden))).clamp(1e-6, 1.0 - 1e-6);
                let t = f64::from(s.target);
                -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
            })
            .sum();
        total / samples.len().max(1) as f64
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
