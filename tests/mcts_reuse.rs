//! `mcts:reuse=true`: the tree kept from one decision to the next follows
//! the game down, saves the iterations it already holds, and lets go when
//! the game leaves it or a step goes untold.

mod common;

use common::load;
use rpsdsl::agents::{self, Agent, Mcts, RandomAgent};
use rpsdsl::engine::Game;
use rpsdsl::engine::{Choice, Observation, State};
use rpsdsl::scenario::Scenario;
use rpsdsl::session;

/// What the searching seat's searches kept and ran, decision by decision.
struct Searches {
    reused: Vec<u32>,
    iterations: Vec<u32>,
}

/// Plays `path` with a searching first seat (`iterations` a decision, the
/// tree kept) against random; `tell` says whether the search hears of the
/// steps taken.
fn play(path: &str, iterations: u32, seed: u64, tell: bool) -> Searches {
    let def: Game = load(path);
    let mut mcts = Mcts::new(0, seed);
    mcts.set_iterations(iterations);
    mcts.set_reuse(true);
    let mut random = RandomAgent::new(seed, 1);
    let mut events = vec![];
    let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
    let mut searches = Searches {
        reused: vec![],
        iterations: vec![],
    };
    while let Some(pending) = state.pending() {
        let decision = pending.decision();
        let mut choices: Vec<Choice> = vec![];
        for &seat in pending.who() {
            let legal = pending.legal(seat);
            let agent: &mut dyn Agent = if seat == 0 { &mut mcts } else { &mut random };
            choices.push(session::agent_choice(&def, &state, decision, seat, legal, agent));
            if seat == 0 && legal.len() > 1 {
                searches.reused.push(mcts.last.reused);
                searches.iterations.push(mcts.last.iterations);
            }
        }
        if tell {
            for seat in 0..2 {
                let obs = Observation::new(&def, &state, seat);
                let agent: &mut dyn Agent = if seat == 0 { &mut mcts } else { &mut random };
                agent.before_step(&def, &obs, &choices);
            }
        }
        state.apply(&def, &choices, &mut events).unwrap();
    }
    searches
}

#[test]
fn a_kept_tree_saves_the_iterations_it_holds() {
    let searches = play("games/classic/tic_tac_toe.rules", 400, 7, true);
    assert!(searches.reused.len() >= 3, "{:?}", searches.reused);
    // The first search starts afresh; every later one inherits the visits
    // of the node two moves down and runs only the rest of its budget.
    assert_eq!(searches.reused[0], 0);
    assert_eq!(searches.iterations[0], 400);
    for (i, (&reused, &ran)) in searches.reused.iter().zip(&searches.iterations).enumerate().skip(1) {
        assert!(reused > 0, "search {i} kept nothing: {:?}", searches.reused);
        assert_eq!(ran, 400u32.saturating_sub(reused).max(1), "search {i}");
    }
}

#[test]
fn an_untold_step_lets_the_tree_go() {
    let searches = play("games/classic/tic_tac_toe.rules", 400, 7, false);
    assert!(searches.reused.iter().all(|&r| r == 0), "{:?}", searches.reused);
    assert!(searches.iterations.iter().all(|&n| n == 400));
}

#[test]
fn hidden_answers_keep_the_tree_too() {
    // In liar's dice the rival's die is never seen and bids are public:
    // the tree follows the bids.
    let searches = play("games/classic/liars_dice.rules", 300, 3, true);
    assert!(searches.reused.iter().skip(1).any(|&r| r > 0), "{:?}", searches.reused);
}

#[test]
fn reuse_plays_every_game_to_the_end_and_repeats_itself() {
    for path in [
        "games/rps3.rules",
        "games/janken_deck.rules",
        "games/rubber_paper_scissors.rules",
        "games/classic/kuhn_poker.rules",
        "games/classic/goofspiel.rules",
    ] {
        let def = load(path);
        let run = || {
            let mut players =
                agents::from_spec("mcts:iterations=30:reuse=true,mcts:iterations=30:reuse=true", 2, 5).unwrap();
            let record = session::play(&def, &def.default_options(), 5, &Scenario::default(), &mut players)
                .unwrap_or_else(|_| panic!("{path} failed"));
            assert!(record.outcome.is_some(), "{path} did not end");
            record.decisions
        };
        assert_eq!(run(), run(), "{path}");
    }
}
