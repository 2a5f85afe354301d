//! `mcts:transpose=true`: a position the search meets by more than one
//! path (as its seat sees it) is one node, so a tied throw thrown again
//! comes back to the node it left, and the search still plays every game
//! to the end, the same way for a seed.

mod common;

use common::load;
use rpsdsl::agents::{self, Agent, Mcts, RandomAgent};
use rpsdsl::engine::{Choice, Game, State};
use rpsdsl::scenario::Scenario;
use rpsdsl::session;

/// The nodes of the first seat's first search (`iterations` of them) in
/// `path`, with transpositions merged or not.
fn first_search_nodes(path: &str, iterations: u32, transpose: bool) -> u32 {
    let def: Game = load(path);
    let mut mcts = Mcts::new(0, 3);
    mcts.set_iterations(iterations);
    mcts.set_transpose(transpose);
    let mut events = vec![];
    let state = State::start(&def, &def.default_options(), 3, vec![], &mut events).unwrap();
    let pending = state.pending().expect("the game asks something");
    assert_eq!(pending.who()[0], 0);
    let _: Choice = session::agent_choice(&def, &state, pending.decision(), 0, pending.legal(0), &mut mcts);
    assert_eq!(mcts.last.iterations, iterations);
    mcts.last.nodes
}

#[test]
fn a_tied_throw_thrown_again_is_the_same_node() {
    // Rock paper scissors: every tie returns to the throw. Without merging,
    // each run of ties is a new branch; merged, the throw is one node and
    // each ending is one more.
    let plain = first_search_nodes("games/rps.rules", 2000, false);
    let merged = first_search_nodes("games/rps.rules", 2000, true);
    assert!(plain > 100, "the plain tree grows with its ties: {plain}");
    assert!(
        merged <= 10,
        "the merged graph holds the throw and its endings: {merged}"
    );
}

#[test]
fn a_position_reached_twice_on_a_board_is_merged() {
    // Tic-tac-toe: X in a corner then O in the centre is the same position
    // as the same two marks made in another order once X has moved twice.
    let plain = first_search_nodes("games/classic/tic_tac_toe.rules", 3000, false);
    let merged = first_search_nodes("games/classic/tic_tac_toe.rules", 3000, true);
    assert!(merged < plain, "merged {merged} nodes, plain {plain}");
}

#[test]
fn transposed_searches_play_every_game_to_the_end_and_repeat_themselves() {
    for path in [
        "games/rps.rules",
        "games/rps3.rules",
        "games/janken_deck.rules",
        "games/rubber_paper_scissors.rules",
        "games/rps_poker.rules",
        "games/classic/kuhn_poker.rules",
        "games/classic/goofspiel.rules",
    ] {
        let def = load(path);
        for spec in [
            "mcts:iterations=40:transpose=true",
            "mcts:iterations=40:transpose=true:reuse=true",
        ] {
            let run = || {
                let mut players = agents::from_spec(&format!("{spec},{spec}"), 2, 5).unwrap();
                let record = session::play(&def, &def.default_options(), 5, &Scenario::default(), &mut players)
                    .unwrap_or_else(|_| panic!("{path} failed with {spec}"));
                assert!(record.outcome.is_some(), "{path} did not end with {spec}");
                record.decisions
            };
            assert_eq!(run(), run(), "{path} with {spec}");
        }
    }
}

#[test]
fn a_merging_search_still_beats_random() {
    let def = load("games/classic/tic_tac_toe.rules");
    let mut wins = 0;
    for seed in 0..20u64 {
        let mut players: Vec<Box<dyn Agent>> = vec![
            agents::from_spec("mcts:iterations=300:transpose=true", 1, seed)
                .unwrap()
                .remove(0),
            Box::new(RandomAgent::new(seed, 1)),
        ];
        let record = session::play(&def, &def.default_options(), seed, &Scenario::default(), &mut players).unwrap();
        let outcome = record.outcome.expect("tic-tac-toe ends");
        assert_ne!(outcome.winner, Some(1), "seed {seed}: the search lost to random");
        wins += usize::from(outcome.winner == Some(0));
    }
    assert!(wins >= 15, "{wins} wins of 20");
}
