//! Players: sampled worlds fit the seat's view, agents never peek, search
//! plays well, and the human-like thrower follows its model.

mod common;

use common::load;
use common::walk::{Stop, random_walk};
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rpsdsl::agents::{self, Agent, DuelResult, HumanLike, RandomAgent, ThrowModel};
use rpsdsl::diagnostic::Code;
use rpsdsl::engine::Game;
use rpsdsl::engine::{Choice, Event, Memory, Observation, Recall, State, View};
use rpsdsl::ir::{GameDef, OptionValue, Seat};
use rpsdsl::scenario::Scenario;
use rpsdsl::session;
use rpsdsl::transcript::{Header, Transcript, Viewer, render_events};

/// Every game and variant with its default options, and Rubber Paper
/// Scissors with both optional modules (hidden bonus tokens, Goggles).
fn games_with_options() -> Vec<(String, rpsdsl::engine::Game, Vec<OptionValue>)> {
    let mut all: Vec<(String, rpsdsl::engine::Game, Vec<OptionValue>)> = common::games()
        .into_iter()
        .chain(["games/variants/rps3_small.rules".to_string()])
        // Dice: a roll hidden from a seat is rolled afresh in its worlds.
        .chain(["games/classic/liars_dice.rules".to_string()])
        .map(|path| {
            let def = load(&path);
            let options = def.default_options();
            (path, def, options)
        })
        .collect();
    let def = load("games/rubber_paper_scissors.rules");
    let mut options = def.default_options();
    for name in ["equipment_bonus", "goggles"] {
        let i = def.option_index(name).unwrap_or_else(|| panic!("option {name}"));
        options[i] = OptionValue::Bool(true);
    }
    all.push(("rubber_paper_scissors with both modules".into(), def, options));
    all
}

/// A random walk of at most `steps` steps, possibly to the end.
fn random_state(def: &Game, options: &[OptionValue], seed: u64, steps: usize) -> State {
    random_walk(def, options, seed, steps, Stop::AfterSteps)
}

/// A random walk of at most `steps` steps that never ends the game.
fn live_state(def: &Game, options: &[OptionValue], seed: u64, steps: usize) -> State {
    random_walk(def, options, seed, steps, Stop::BeforeTheEnd)
}

#[test]
fn a_sampled_world_looks_to_its_seat_like_the_real_game() {
    for (game, def, options) in games_with_options() {
        for seed in 0..3 {
            for steps in [0, 3, 10, 25] {
                let state = random_state(&def, &options, seed, steps);
                let Some(pending) = state.pending() else { continue };
                for &seat in pending.who() {
                    let obs = Observation::new(&def, &state, seat);
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    for _ in 0..3 {
                        let world = obs
                            .sample(&mut rng)
                            .unwrap_or_else(|| panic!("{game}: no world after {steps} steps"));
                        assert_eq!(world.view(&def), state.view(&def, seat), "{game} after {steps} steps");
                        assert_eq!(world.legal_len(seat), obs.legal_len(), "{game} after {steps} steps");
                        for i in 0..obs.legal_len() {
                            assert_eq!(world.key(&def, seat, i), obs.key(i), "{game}: move {i} keeps its key");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_redeal_changes_only_what_the_seat_cannot_see() {
    // The no-peeking property is only as good as its pairs of games: a
    // redeal must look the same to the seat and, in every game with secrets,
    // differ for the others.
    for (game, def, options) in games_with_options() {
        let mut changed = 0;
        for seed in 0..6 {
            // A short game (liar's dice) is over after 12 steps, with
            // nothing left hidden: redeal it while it is still going on.
            let mut state = random_state(&def, &options, seed, 12);
            if state.is_over() {
                state = live_state(&def, &options, seed, 12);
            }
            let other = state.redeal_hidden(&def, 0, seed + 100).unwrap();
            assert_eq!(other.view(&def, 0), state.view(&def, 0), "{game}");
            if differs_later(&def, state, other) {
                changed += 1;
            }
        }
        let has_secrets = !game.ends_with("/rps.rules");
        assert_eq!(
            changed > 0,
            has_secrets,
            "{game}: {changed} of 6 redeals changed a hidden piece"
        );
    }
}

/// Whether two games show a difference: to another seat now, or to anyone
/// once both are played on with the same answers (a redealt deck shows
/// itself when it is dealt).
fn differs_later(def: &Game, mut a: State, mut b: State) -> bool {
    let mut events = vec![];
    for step in 0..60 {
        if (0..def.players() as Seat).any(|s| a.view(def, s) != b.view(def, s)) {
            return true;
        }
        let (Some(pa), Some(pb)) = (a.pending(), b.pending()) else {
            return a.outcome() != b.outcome();
        };
        if pa.decision() != pb.decision() {
            return true;
        }
        let answer = |p: &rpsdsl::engine::Pending<'_>| -> Vec<Choice> {
            p.who()
                .iter()
                .map(|&seat| Choice {
                    seat,
                    value: p.legal(seat)[step % p.legal(seat).len()],
                    reaction_ms: 300 + 7 * seat as u32,
                })
                .collect()
        };
        let (ca, cb) = (answer(&pa), answer(&pb));
        if a.apply(def, &ca, &mut events).is_err() || b.apply(def, &cb, &mut events).is_err() {
            return true;
        }
    }
    false
}

#[test]
fn hidden_pawns_are_dealt_among_their_owner_s_unrevealed_kinds() {
    // RPS3 after deployment: Light sees Dark's pawns by their backs only.
    let def = load("games/rps3.rules");
    let state = random_state(&def, &def.default_options(), 7, 9);
    assert_eq!(state.decisions(), 9, "the nine secret placements are made");
    let dark_view = state.view(&def, 1);
    // Dark's pawns' kinds, as Dark knows them, in order of kind.
    let dark_kinds = |view: &View| {
        let mut kinds: Vec<_> = view
            .zones
            .iter()
            .flatten()
            .flatten()
            .filter(|f| f.owner == Some(1))
            .map(|f| f.kind)
            .collect();
        kinds.sort();
        kinds
    };
    let mut differs = false;
    for seed in 0..10 {
        let other = state.redeal_hidden(&def, 0, seed).unwrap();
        assert_eq!(other.view(&def, 0), state.view(&def, 0));
        let view = other.view(&def, 1);
        differs |= view != dark_view;
        // Dark still has three pawns of each kind: counts are conserved.
        assert_eq!(dark_kinds(&view), dark_kinds(&dark_view));
    }
    assert!(differs, "Dark's hidden pawns are dealt afresh");
}

/// The agents the no-peeking property checks, small enough to be quick.
const CAREFUL_AGENTS: &[&str] = &[
    "mcts:iterations=12",
    "greedy:samples=3",
    "human-like:fallback=mcts(iterations=8)",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Two games that differ only in what is hidden from a seat get the same
    /// answer from every careful agent built with the same seed.
    #[test]
    fn agents_never_peek(game in 0usize..64, seed in 0u64..1_000_000, steps in 0usize..120) {
        let all = games_with_options();
        let (name, def, options) = &all[game % all.len()];
        let state = live_state(def, options, seed, steps);
        let pending = state.pending().expect("a live state waits for a decision");
        for &seat in pending.who() {
            let other = state.redeal_hidden(def, seat, seed ^ 0xABCD).unwrap();
            prop_assert_eq!(other.view(def, seat), state.view(def, seat), "{}: the redealt game looks the same", name);
            for spec in CAREFUL_AGENTS {
                let mut a = agents::from_spec(spec, def.players(), seed).unwrap();
                let mut b = agents::from_spec(spec, def.players(), seed).unwrap();
                let chose_a = a[seat as usize].choose(def, &Observation::new(def, &state, seat));
                let chose_b = b[seat as usize].choose(def, &Observation::new(def, &other, seat));
                prop_assert_eq!(chose_a, chose_b, "{}: {} at seat {} after {} steps", name, spec, seat, steps);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// A glance (`--recall glance`) reads only what the seat sees: two
    /// games that differ only in what is hidden from it are one situation
    /// with the same moves, even where a move from a menu is read by what
    /// its step moves.
    #[test]
    fn a_glance_never_peeks(game in 0usize..64, seed in 0u64..1_000_000, steps in 0usize..120) {
        let all = games_with_options();
        let (name, def, options) = &all[game % all.len()];
        let state = live_state(def, options, seed, steps);
        let pending = state.pending().expect("a live state waits for a decision");
        for &seat in pending.who() {
            let other = state.redeal_hidden(def, seat, seed ^ 0xABCD).unwrap();
            let glance = |s: &rpsdsl::engine::State| {
                let recall = s.recall_here(def, seat, Recall::default(), Memory::Glance);
                (recall, Observation::new(def, s, seat).glance_situation())
            };
            prop_assert_eq!(glance(&state), glance(&other), "{}: seat {} after {} steps", name, seat, steps);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Two games that differ only in what a seat cannot see give that seat
    /// the same transcript lines for the next step, `[of N]` counts
    /// included, as long as the step itself shows no difference to it.
    #[test]
    fn a_seat_s_transcript_does_not_tell_a_redeal(game in 0usize..64, seed in 0u64..1_000_000, steps in 0usize..120) {
        let all = games_with_options();
        let (name, def, options) = &all[game % all.len()];
        let state = live_state(def, options, seed, steps);
        // The deciding seats: a redeal for them keeps the pending decision
        // (for a seat that is not deciding, see the report of issue 12).
        for viewer in state.pending().unwrap().who().to_vec() {
            let other = state.redeal_hidden(def, viewer, seed ^ 0x5EA7).unwrap();
            let (pa, pb) = (state.pending().unwrap(), other.pending().unwrap());
            prop_assert_eq!(pa.who(), pb.who());
            // One answer per deciding seat, the same value in both games:
            // the viewer's own is legal in both; another seat's is a value
            // legal in both games, if there is one.
            let mut step = vec![];
            for &seat in pa.who() {
                let (la, lb) = (pa.legal(seat), pb.legal(seat));
                let both: Vec<i64> = la.iter().copied().filter(|v| lb.contains(v)).collect();
                prop_assume!(!both.is_empty());
                step.push(Choice { seat, value: both[(seed as usize + steps) % both.len()], reaction_ms: 400 });
            }
            let (mut a, mut b) = (state.clone(), other);
            let (mut ea, mut eb) = (vec![], vec![]);
            a.apply(def, &step, &mut ea).unwrap();
            b.apply(def, &step, &mut eb).unwrap();
            let lines_a = render_events(def, &ea, Viewer::Seat(viewer));
            let lines_b = render_events(def, &eb, Viewer::Seat(viewer));
            // The decisions as the viewer read them: another seat's count
            // must not depend on what the viewer cannot see.
            let decisions = |lines: &[String]| -> Vec<String> {
                lines.iter().filter(|l| !l.starts_with(' ') && l.contains(" choose")).cloned().collect()
            };
            prop_assert_eq!(decisions(&lines_a), decisions(&lines_b), "{} after {} steps, seen by seat {}", name, steps, viewer);
            if a.view(def, viewer) == b.view(def, viewer) && a.pending().is_some() == b.pending().is_some() {
                prop_assert_eq!(lines_a, lines_b, "{} after {} steps, seen by seat {}", name, steps, viewer);
            }
        }
    }

    /// A seat's view never carries the seed: not in the text header, not as
    /// a JSON field; the full view does.
    #[test]
    fn a_seat_s_view_carries_no_seed(game in 0usize..64, seed in 1_000u64..u64::MAX) {
        let all = games_with_options();
        let (name, def, options) = &all[game % all.len()];
        let mut players = agents::from_spec("random", def.players(), seed).unwrap();
        let record = session::play(def, options, seed, &Scenario::default(), &mut players).unwrap();
        let header = || Header { rules: "x.rules", about: None, seed, options: vec![], agents: vec!["random".into(); def.players()] };
        for viewer in (0..def.players() as Seat).map(Viewer::Seat) {
            let t = Transcript::new(def, header(), &record, viewer);
            prop_assert_eq!(t.seed, None);
            let text = t.to_text();
            prop_assert!(!text.contains("seed") && !text.contains(&seed.to_string()), "{}: {}", name, text);
            let json: serde_json::Value = serde_json::to_value(&t).unwrap();
            prop_assert!(json.get("seed").is_none(), "{}", name);
            prop_assert!(!json.to_string().contains(&seed.to_string()), "{}", name);
        }
        let full = Transcript::new(def, header(), &record, Viewer::All);
        prop_assert_eq!(full.seed, Some(seed));
    }
}

/// Plays `n` games of `spec_a` against `spec_b`, seats alternating; returns
/// A's points (a draw counts half).
fn score(def: &Game, options: &[OptionValue], spec_a: &str, spec_b: &str, n: u64, first_seed: u64) -> f64 {
    let mut points = 0.0;
    for i in 0..n {
        let a_seat = (i % 2) as Seat;
        let spec = if a_seat == 0 {
            format!("{spec_a},{spec_b}")
        } else {
            format!("{spec_b},{spec_a}")
        };
        let seed = first_seed + i;
        let mut players = agents::from_spec(&spec, def.players(), seed).unwrap();
        let record = session::play(def, options, seed, &Scenario::default(), &mut players).unwrap();
        points += match record.outcome.and_then(|o| o.winner) {
            Some(w) if w == a_seat => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    points
}

fn strength(path: &str, settings: &[(&str, i64)], spec: &str, n: u64, at_least: f64) {
    let def = load(path);
    let mut options = def.default_options();
    for (name, value) in settings {
        options[def.option_index(name).unwrap()] = OptionValue::Int(*value);
    }
    let won = score(&def, &options, spec, "random", n, 500);
    eprintln!("{path}: {spec} scored {won} of {n} against random");
    assert!(won >= at_least, "{path}: {spec} scored {won} of {n} against random");
}

#[test]
fn mcts_beats_random_at_rubber_paper_scissors() {
    strength(
        "games/rubber_paper_scissors.rules",
        &[],
        "mcts:iterations=200",
        20,
        14.0,
    );
}

#[test]
fn mcts_beats_random_at_rps3() {
    strength("games/rps3.rules", &[], "mcts:iterations=60", 12, 9.0);
}

#[test]
fn mcts_beats_random_at_janken_deck() {
    strength("games/janken_deck.rules", &[], "mcts:iterations=200", 40, 26.0);
}

#[test]
fn mcts_beats_random_at_rps_poker() {
    strength("games/rps_poker.rules", &[], "mcts:iterations=200", 40, 24.0);
}

#[test]
fn mcts_is_deterministic_for_a_seed() {
    let def = load("games/janken_deck.rules");
    let run = || {
        let mut players = agents::from_spec("mcts:iterations=40,mcts:iterations=40:c=1.5", 2, 9).unwrap();
        session::play(&def, &def.default_options(), 9, &Scenario::default(), &mut players)
            .unwrap()
            .decisions
    };
    assert_eq!(run(), run());
}

#[test]
fn every_agent_plays_every_game_to_the_end() {
    for (game, def, options) in games_with_options() {
        for spec in [
            "greedy:samples=2",
            "mcts:iterations=10",
            "human-like:fallback=greedy(samples=2)",
        ] {
            let mut players = agents::from_spec(&format!("{spec},random"), def.players(), 4).unwrap();
            let record = session::play(&def, &options, 4, &Scenario::default(), &mut players)
                .unwrap_or_else(|f| panic!("{game} with {spec}: {}", f.diagnostic.message));
            assert!(record.outcome.is_some(), "{game} with {spec}");
        }
    }
}

#[test]
fn greedy_takes_the_points_in_front_of_it() {
    // Janken Deck rewards winning rounds: one step of lookahead on the score
    // already beats random play clearly.
    let def = load("games/janken_deck.rules");
    let won = score(&def, &def.default_options(), "greedy:samples=4", "random", 16, 900);
    assert!(won >= 10.0, "greedy scored {won} of 16 against random");
}

#[test]
fn agent_specs_are_checked() {
    let err = |spec: &str| agents::from_spec(spec, 2, 1).err().unwrap().to_string();
    assert!(err("mcst").contains("did you mean `mcts`"), "{}", err("mcst"));
    assert!(
        err("mcts:iteration=5").contains("its parameters are iterations"),
        "{}",
        err("mcts:iteration=5")
    );
    assert!(
        err("mcts:iterations=lots").contains("a whole number"),
        "{}",
        err("mcts:iterations=lots")
    );
    assert!(err("random,random,random").contains("3 agents given for 2 players"));
    assert!(
        err("human-like:first=.5/.5").contains("three numbers"),
        "{}",
        err("human-like:first=.5/.5")
    );
    assert!(err("human").contains("rpsdsl play"));
    // Each mistake has its code, and names the words at fault.
    let error = |spec: &str| agents::from_spec(spec, 2, 1).err().unwrap();
    let cases = [
        ("mcst", Code::UnknownAgent, "mcst"),
        ("mcts:iteration=5", Code::BadAgentParameter, "iteration"),
        ("random,mcts:iterations=0", Code::BadAgentParameter, "iterations=0"),
        ("mcts:x", Code::BadAgentSpec, "x"),
        ("mcts(iterations=5", Code::BadAgentSpec, "mcts(iterations=5"),
        ("human", Code::AgentRefused, "human"),
    ];
    for (spec, code, at) in cases {
        let e = error(spec);
        assert_eq!((e.code, e.at.as_str()), (code, at), "{spec}: {e}");
    }
    let built = agents::from_spec("mcts:iterations=50:c=1.2,human-like:fallback=greedy", 2, 1).unwrap();
    assert_eq!(built[0].name(), "mcts:iterations=50:c=1.2");
    assert_eq!(built[1].name(), "human-like:fallback=greedy");
    assert_eq!(agents::from_spec("random", 2, 1).unwrap()[1].name(), "random");
}

/// A throw's move from the previous one: 0 stay, 1 up (to what beats it), 2 down.
fn movement(def: &GameDef, from: u16, to: u16) -> usize {
    if from == to {
        0
    } else if def.beats(to, from) {
        1
    } else {
        2
    }
}

/// Asserts `k` of `n` is `p` within five standard errors (and a hair).
fn near(what: &str, k: usize, n: usize, p: f64) {
    assert!(n > 0, "{what}: no samples");
    let f = k as f64 / n as f64;
    let tolerance = 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 0.005;
    assert!(
        (f - p).abs() <= tolerance,
        "{what}: {f:.3} over {n} samples, model {p:.3} (tolerance {tolerance:.3})"
    );
}

/// Each duel's throws as (the human-like seat's, the other's), in order.
fn throws(events: &[Event], me: Seat) -> Vec<(u16, u16)> {
    let mut out = vec![];
    let mut pair = [0u16; 2];
    for e in events {
        if let Event::Decision { seat, value, .. } = e {
            pair[*seat as usize] = *value as u16;
            if *seat == 1 {
                out.push((pair[me as usize], pair[1 - me as usize]));
            }
        }
    }
    out
}

fn human_like_against_random(seed: u64, me: Seat) -> Vec<Box<dyn Agent>> {
    (0..2)
        .map(|s| -> Box<dyn Agent> {
            if s == me {
                Box::new(HumanLike::new(s, seed, Box::new(RandomAgent::new(seed, s))))
            } else {
                Box::new(RandomAgent::new(seed, s))
            }
        })
        .collect()
}

#[test]
fn human_like_throws_follow_the_model() {
    let def = load("games/rps.rules");
    let model = ThrowModel::default();
    // The first throw: many short matches.
    let mut first = [0usize; 3];
    let games = 3000;
    for seed in 0..games {
        let me = (seed % 2) as Seat;
        let mut players = human_like_against_random(seed, me);
        let record = session::play(&def, &def.default_options(), seed, &Scenario::default(), &mut players).unwrap();
        let (mine, _) = throws(&record.events, me)[0];
        first[mine as usize] += 1;
    }
    // Rock is declared first: it plays Rock; paper beats it; scissors loses to it.
    for (k, p) in model.first.iter().enumerate() {
        near(
            &format!("first throw {}", def.kinds[k].name),
            first[k],
            games as usize,
            *p,
        );
    }
    // After a win, a tie and a loss; and after two ties with the same throw.
    let mut options = def.default_options();
    options[def.option_index("best_of").unwrap()] = OptionValue::Int(99);
    let mut after = [[0usize; 3]; 4];
    for seed in 0..60 {
        let me = (seed % 2) as Seat;
        let mut players = human_like_against_random(seed, me);
        let record = session::play(&def, &options, seed, &Scenario::default(), &mut players).unwrap();
        let t = throws(&record.events, me);
        let result = |(a, b): (u16, u16)| {
            if def.beats(a, b) {
                0
            } else if a == b {
                1
            } else {
                2
            }
        };
        for i in 1..t.len() {
            let row = if i >= 2 && result(t[i - 1]) == 1 && result(t[i - 2]) == 1 && t[i - 1].0 == t[i - 2].0 {
                3
            } else {
                result(t[i - 1])
            };
            after[row][movement(&def, t[i - 1].0, t[i].0)] += 1;
        }
    }
    let rows = [
        ("after a win", model.after_win),
        ("after a tie", model.after_tie),
        ("after a loss", model.after_loss),
        ("after two ties", model.moves(DuelResult::Tie, 2)),
    ];
    for (r, (what, p)) in rows.iter().enumerate() {
        let n: usize = after[r].iter().sum();
        for (m, name) in ["stay", "up", "down"].iter().enumerate() {
            near(&format!("{what}: {name}"), after[r][m], n, p[m]);
        }
    }
}
