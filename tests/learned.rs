//! `learned`: an evaluation of positions learnt in self-play, played by
//! one step of lookahead or read by a search instead of its playouts
//! (`mcts:value=learned(...)`). It must learn something (it beats random
//! where random is beatable), mix where seats answer at once (a duel's
//! throw cannot be read), train the same for a seed whatever the threads,
//! and refuse what it cannot be.

mod common;

use std::collections::HashMap;

use common::load;
use common::runs::plan;
use rpsdsl::agents::{self, Agent};
use rpsdsl::engine::{Game, Observation, State};
use rpsdsl::sim::simulate;

/// The first agent's share of the points over `games` games, seats rotated.
fn score(path: &str, agents: &str, games: u64, jobs: usize) -> f64 {
    let def = load(path);
    let mut plan = plan(path, agents, games, 11);
    plan.rotate_seats = true;
    let report = simulate(&def, &def.default_options(), &plan, jobs, &|_| {}).unwrap();
    let by_agent = report.by_agent.as_ref().unwrap();
    let wins: u64 = by_agent.wins[0].iter().sum();
    (wins as f64 + report.draws as f64 / 2.0) / report.games as f64
}

#[test]
fn a_learnt_evaluation_beats_random_play() {
    // Against random, `greedy` (the game's own score, one step ahead)
    // scores about even on this game: its tokens come only at a round's
    // end. What the evaluation learnt must carry further.
    let learned = score("games/janken_deck.rules", "learned:games=300,random", 300, 2);
    assert!(learned > 0.6, "learned scores {learned:.3} against random");
}

#[test]
fn a_search_reads_the_evaluation_instead_of_playing_out() {
    let valued = score(
        "games/janken_deck.rules",
        "mcts:iterations=40:value=learned(games=300),random",
        200,
        2,
    );
    assert!(
        valued > 0.6,
        "the search with an evaluation scores {valued:.3} against random"
    );
}

#[test]
fn training_and_play_are_the_same_for_a_seed_whatever_the_threads() {
    let def = load("games/rps_poker.rules");
    let run = |jobs: usize| {
        let mut plan = plan(
            "games/rps_poker.rules",
            "learned:games=60,mcts:iterations=20:value=learned(games=60)",
            24,
            5,
        );
        plan.rotate_seats = true;
        let report = simulate(&def, &def.default_options(), &plan, jobs, &|_| {}).unwrap();
        report.to_json()
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn a_throw_is_mixed_so_that_it_cannot_be_read() {
    // Rock paper scissors: every throw is worth the same against an even
    // mix, so a player that throws its best guess throws one kind always.
    let def: Game = load("games/rps.rules");
    let specs = agents::for_game("learned:games=200", &def, &def.default_options(), 3).unwrap();
    let mut agent: Box<dyn Agent> = specs.into_iter().next().unwrap();
    let mut events = vec![];
    let state = State::start(&def, &def.default_options(), 3, vec![], &mut events).unwrap();
    let obs = Observation::new(&def, &state, 0);
    let mut thrown: HashMap<usize, u32> = HashMap::new();
    for _ in 0..600 {
        *thrown.entry(agent.choose(&def, &obs)).or_default() += 1;
    }
    assert_eq!(thrown.len(), 3, "every throw is thrown: {thrown:?}");
    for (&throw, &times) in &thrown {
        assert!(
            (120..=280).contains(&times),
            "throw {throw} {times} times of 600: {thrown:?}"
        );
    }
}

#[test]
fn a_search_reads_only_an_evaluation() {
    let def: Game = load("games/janken_deck.rules");
    let err = match agents::for_game("mcts:value=random", &def, &def.default_options(), 1) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("random has no evaluation"),
    };
    assert!(err.contains("`random` has none"), "{err}");
    let err = match agents::from_spec("learned", 2, 1) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("learned needs a game to train on"),
    };
    assert!(err.contains("trains on one game"), "{err}");
}

#[test]
fn a_game_that_never_ends_teaches_nothing_and_says_so() {
    let def: Game = load("tests/games/always_endless.rules");
    let err = match agents::for_game("learned:time=0.3", &def, &def.default_options(), 1) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("no game of it ends, so nothing is learnt"),
    };
    assert!(err.contains("learnt nothing of Always endless"), "{err}");
}
