//! Answers as soon as they are sure (`--until-significant`, `--precision`):
//! stopping early stays valid (an A/A run finds a "significant" difference
//! at most 5% of the time, where peeking at a fixed-size test does far more
//! often), a real difference is found early, and the stopping point and the
//! report are the same at any `--jobs`.

mod common;

use common::runs::plan;

use common::cli::{rpsdsl, stderr, stdout};
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use rpsdsl::sim::Rate;
use rpsdsl::sim::sequential::{ALPHA, Bets, ConfidenceSequence, Goal, compare_until, simulate_until};

/// Runs, out of `runs`, whose stream of `steps` coin flips with heads at
/// `p` made a rule say "the rate is not 1/2" at some step.
fn rejections(runs: u64, steps: u64, p: f64, mut rule: impl FnMut(&mut dyn Iterator<Item = bool>) -> bool) -> u64 {
    (0..runs)
        .filter(|&seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut flips = (0..steps).map(move |_| rng.random_bool(p));
            rule(&mut flips)
        })
        .count() as u64
}

/// The confidence sequence, looked at after every flip.
fn sequence_rejects(flips: &mut dyn Iterator<Item = bool>, steps: u64) -> bool {
    let mut cs = ConfidenceSequence::new(ALPHA, Bets::Horizon(steps));
    for heads in flips {
        cs.push(if heads { 1.0 } else { 0.0 });
        if cs.excludes(0.5) {
            return true;
        }
    }
    false
}

/// A fixed-size 95% z-test looked at after every 20 flips: "peeking".
fn peeking_rejects(flips: &mut dyn Iterator<Item = bool>) -> bool {
    let (mut n, mut heads) = (0u64, 0u64);
    for h in flips {
        n += 1;
        heads += u64::from(h);
        let z = (heads as f64 - n as f64 / 2.0) / (n as f64 / 4.0).sqrt();
        if n % 20 == 0 && z.abs() > 1.96 {
            return true;
        }
    }
    false
}

#[test]
fn a_fair_coin_is_called_unfair_at_most_five_percent_of_the_time() {
    let (runs, steps) = (400, 2000);
    let false_alarms = Rate::new(rejections(runs, steps, 0.5, |f| sequence_rejects(f, steps)), runs);
    assert!(false_alarms.low <= ALPHA, "{false_alarms:?}");
    assert!(false_alarms.rate <= ALPHA, "{false_alarms:?}");
    // The same streams, peeked at with a fixed-size test, cry wolf far more
    // often: this is what the sequence is for, and shows the check can fail.
    let peeking = Rate::new(rejections(runs, steps, 0.5, peeking_rejects), runs);
    assert!(peeking.low > ALPHA, "{peeking:?}");
    // And a coin that is really unfair (60% heads) is found, mostly early.
    let found = Rate::new(rejections(runs, steps, 0.6, |f| sequence_rejects(f, steps)), runs);
    assert!(found.rate > 0.9, "{found:?}");
}

#[test]
fn an_a_a_run_stops_on_a_significant_difference_at_most_five_percent_of_the_time() {
    // Classic RPS between two random players: the seats are the same, so
    // any "significant" difference between them is a false alarm; and
    // base against a variant whose duels differ but whose odds are the same.
    let base = common::load("games/rps.rules");
    let twin = common::load("tests/games/rps_practice.rules");
    let (runs, cap) = (60, 300);
    let mut seat_alarms = 0;
    let mut arm_alarms = 0;
    for seed in 0..runs {
        let p = plan("games/rps.rules", "random", cap, seed);
        let (report, _, stopping) =
            simulate_until(&base, &base.default_options(), &p, Goal::Significant, 1, &|_| {}).unwrap();
        assert_eq!(report.games, stopping.games);
        seat_alarms += u64::from(stopping.answered);
        let q = plan("tests/games/rps_practice.rules", "random", cap, seed);
        let (_, _, stopping) = compare_until(
            (&base, &base.default_options(), &p),
            (&twin, &twin.default_options(), &q),
            Goal::Significant,
            1,
            &|_| {},
        )
        .unwrap();
        arm_alarms += u64::from(stopping.answered);
    }
    for alarms in [seat_alarms, arm_alarms] {
        let rate = Rate::new(alarms, runs);
        assert!(rate.low <= ALPHA && rate.rate <= 2.0 * ALPHA, "{rate:?}");
    }
}

#[test]
fn a_real_difference_stops_the_run_early() {
    // greedy against random in Place a token: greedy always wins, so after
    // a few rotations the difference is certain.
    let def = common::load("tests/games/place_token.rules");
    let p = plan("tests/games/place_token.rules", "greedy,random", 100_000, 1);
    let (report, _, stopping) =
        simulate_until(&def, &def.default_options(), &p, Goal::Significant, 0, &|_| {}).unwrap();
    assert!(stopping.answered, "{stopping:?}");
    assert!(stopping.games < 1000, "{stopping:?}");
    assert_eq!(report.planned, stopping.games);
    assert_eq!(stopping.figures[0].significant, Some(true));
    assert!(stopping.figures[0].low > 0.0);
}

#[test]
fn the_stopping_point_and_the_report_are_the_same_at_any_jobs_and_equal_a_run_of_that_many_games() {
    let args = |jobs: &'static str| {
        vec![
            "simulate",
            "games/rps.rules",
            "-n",
            "50000",
            "--precision",
            "0.02",
            "--jobs",
            jobs,
            "--json",
        ]
    };
    let one = rpsdsl(&args("1"));
    let two = rpsdsl(&args("2"));
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    let json: serde_json::Value = serde_json::from_str(&stdout(&one)).unwrap();
    let games = json["stopping"]["games"].as_u64().unwrap();
    assert!(json["stopping"]["answered"].as_bool().unwrap());
    assert!(games < 50_000 && games == json["games"].as_u64().unwrap());
    // The counts are those of a plain run of that many games.
    let plain = rpsdsl(&["simulate", "games/rps.rules", "-n", &games.to_string(), "--json"]);
    let plain: serde_json::Value = serde_json::from_str(&stdout(&plain)).unwrap();
    let mut without = json.clone();
    without.as_object_mut().unwrap().remove("stopping");
    assert_eq!(without, plain);
}

#[test]
fn the_report_says_why_it_stopped_and_after_how_many_games() {
    let out = rpsdsl(&[
        "compare",
        "games/rps.rules",
        "tests/games/rps_practice.rules",
        "-n",
        "2000",
        "--until-significant",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let section = &text[text.find("Stopping").expect("a Stopping section")..];
    assert!(
        section.contains("stopped after 2000 games: it reached -n with no significant difference"),
        "{section}"
    );
    assert!(section.contains("Left win rate, variant minus base"), "{section}");
    assert!(stderr(&out).contains("compare: 4000 games in"), "{}", stderr(&out));
}

#[test]
fn sequential_runs_refuse_shards_and_bad_precisions() {
    let out = rpsdsl(&["simulate", "games/rps.rules", "--until-significant", "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot be used with --shard"), "{}", stderr(&out));
    let out = rpsdsl(&["simulate", "games/rps.rules", "--precision", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("between 0 and 0.5"), "{}", stderr(&out));
    let out = rpsdsl(&[
        "simulate",
        "games/rps.rules",
        "--precision",
        "0.1",
        "--until-significant",
    ]);
    assert_eq!(out.status.code(), Some(2));
}
