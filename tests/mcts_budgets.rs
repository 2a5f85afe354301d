//! How `mcts` spends its iterations: a smaller search at a duel's throw
//! (`throw_iterations`), and a search that stops once no iteration left
//! could change its move (`settle`).

mod common;

use common::load;
use rpsdsl::agents::{Agent, Mcts, RandomAgent};
use rpsdsl::engine::{Choice, Game, State};
use rpsdsl::session;

/// Plays `path` with a searching first seat (built by `build`) against
/// random, and returns per search of the first seat: whether the seats
/// chose at once, the iterations it ran, and the move it chose.
fn searches(path: &str, seed: u64, build: impl Fn() -> Mcts) -> Vec<(bool, u32, i64)> {
    let def: Game = load(path);
    let mut mcts = build();
    let mut random = RandomAgent::new(seed, 1);
    let mut events = vec![];
    let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
    let mut out = vec![];
    while let Some(pending) = state.pending() {
        let decision = pending.decision();
        let at_once = pending.who().len() > 1;
        let mut choices: Vec<Choice> = vec![];
        for &seat in pending.who() {
            let legal = pending.legal(seat);
            let agent: &mut dyn Agent = if seat == 0 { &mut mcts } else { &mut random };
            let choice = session::agent_choice(&def, &state, decision, seat, legal, agent);
            if seat == 0 && legal.len() > 1 {
                out.push((at_once, mcts.last.iterations, choice.value));
            }
            choices.push(choice);
        }
        state.apply(&def, &choices, &mut events).unwrap();
    }
    out
}

#[test]
fn a_duels_throw_gets_its_own_budget() {
    let ran = searches("games/rubber_paper_scissors.rules", 4, || {
        let mut m = Mcts::new(0, 4);
        m.set_iterations(300);
        m.set_throw_iterations(Some(12));
        m
    });
    let throws: Vec<u32> = ran.iter().filter(|s| s.0).map(|s| s.1).collect();
    let others: Vec<u32> = ran.iter().filter(|s| !s.0).map(|s| s.1).collect();
    assert!(throws.len() >= 9, "a throw a round at least: {throws:?}");
    assert!(!others.is_empty());
    assert!(throws.iter().all(|&n| n == 12), "{throws:?}");
    assert!(others.iter().all(|&n| n == 300), "{others:?}");
}

#[test]
fn a_settled_search_plays_the_same_move_sooner() {
    // At every decision of a game, two searches from the same seed: their
    // first iterations are the same, and the settled one stops where
    // nothing left could change its move. So the moves must agree, while
    // the settled one runs fewer iterations.
    for (path, seed) in [
        ("games/classic/tic_tac_toe.rules", 1),
        ("games/classic/connect_four.rules", 2),
        ("games/rps_poker.rules", 3),
    ] {
        let def: Game = load(path);
        let mut random = RandomAgent::new(seed, 1);
        let mut events = vec![];
        let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
        let (mut searched, mut saved) = (0, 0);
        while let Some(pending) = state.pending() {
            let decision = pending.decision();
            let mut choices: Vec<Choice> = vec![];
            for &seat in pending.who() {
                let legal = pending.legal(seat);
                if seat != 0 || legal.len() < 2 {
                    choices.push(session::agent_choice(&def, &state, decision, seat, legal, &mut random));
                    continue;
                }
                let choose = |settle: bool| {
                    let mut m = Mcts::new(0, seed + u64::from(state.decisions()));
                    m.set_iterations(400);
                    m.set_settle(settle);
                    let choice = session::agent_choice(&def, &state, decision, seat, legal, &mut m);
                    (choice, m.last.iterations)
                };
                let (full, ran_full) = choose(false);
                let (settled, ran_settled) = choose(true);
                assert_eq!(full.value, settled.value, "{path}, decision {searched}");
                assert_eq!(ran_full, 400);
                searched += 1;
                saved += 400 - ran_settled;
                choices.push(full);
            }
            state.apply(&def, &choices, &mut events).unwrap();
        }
        assert!(searched >= 3, "{path}: {searched} searches");
        assert!(saved > 0, "{path}: no search settled early");
    }
}
