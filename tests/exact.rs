//! `rpsdsl exact`: the exact outcome rates of uniform random play, checked
//! against published and hand-computed figures, and against `simulate`.

mod common;

use common::cli::{rpsdsl, scratch};
use common::snap::assert_snapshot;
use rpsdsl::engine::Game;
use rpsdsl::exact::{self, DEFAULT_BUDGET, Exact};

const TIC_TAC_TOE: &str = "games/classic/tic_tac_toe.rules";
const KUHN_POKER: &str = "games/classic/kuhn_poker.rules";

fn exact_of(def: &Game) -> Exact {
    exact::enumerate(def, &def.default_options(), DEFAULT_BUDGET).unwrap()
}

fn four_places(p: f64) -> String {
    format!("{p:.4}")
}

/// The published figures for tic-tac-toe under uniform random play: the
/// first player wins 58.49%, the second 28.81%, and 12.70% are draws (of
/// the 255,168 possible games).
#[test]
fn tic_tac_toe_gives_the_published_figures() {
    let out = rpsdsl(&["exact", TIC_TAC_TOE, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let exact = &json["exact"];
    let wins: Vec<String> = exact["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| four_places(p.as_f64().unwrap()))
        .collect();
    assert_eq!(wins, ["0.5849", "0.2881"]);
    assert_eq!(four_places(exact["draws"].as_f64().unwrap()), "0.1270");
    assert_eq!(exact["stopped"].as_f64(), Some(0.0));
    assert_eq!(exact["games"].as_u64(), Some(255_168));
    // Every position of the game tree, the empty board included.
    assert_eq!(exact["positions"].as_u64(), Some(549_946));
}

/// Kuhn poker, worked by hand. Each seat picks pass or bet with probability
/// 1/2, so the betting goes pass-pass (1/4: showdown for 1 chip),
/// pass-bet-pass (1/8: Ann folds, Ben wins 1), pass-bet-bet (1/8: showdown
/// for 2), bet-pass (1/4: Ben folds, Ann wins 1) or bet-bet (1/4: showdown
/// for 2). The deal is independent of the betting and Ann holds the higher
/// card in 3 of the 6 deals, so a showdown is a coin flip:
/// - Ann wins 1/8 + 1/16 + 1/4 + 1/8 = 9/16, Ben 1/8 + 1/8 + 1/16 + 1/8 = 7/16;
/// - Ann's expected chips: the showdowns cancel, +1 * 1/4 - 1 * 1/8 = +1/8;
/// - decisions: 2 in pass-pass, bet-pass and bet-bet, 3 otherwise, so
///   2 * 3/4 + 3 * 1/4 = 9/4 a game;
/// - 6 deals times 5 betting sequences are 30 distinct games.
///
/// The test also recomputes every figure by a separate enumeration of deals
/// and betting sequences, written out here.
#[test]
fn kuhn_poker_matches_the_hand_computation() {
    let def = common::load(KUHN_POKER);
    let exact = exact_of(&def);

    // (betting sequence, its probability, decisions, Some(winner) on a fold
    // with the chips won, or None for a showdown with the pot's half).
    let sequences: [(&str, f64, f64, Option<usize>, f64); 5] = [
        ("pass pass", 0.25, 2.0, None, 1.0),
        ("pass bet pass", 0.125, 3.0, Some(1), 1.0),
        ("pass bet bet", 0.125, 3.0, None, 2.0),
        ("bet pass", 0.25, 2.0, Some(0), 1.0),
        ("bet bet", 0.25, 2.0, None, 2.0),
    ];
    let (mut wins, mut chips, mut decisions, mut games) = ([0.0f64; 2], 0.0f64, 0.0f64, 0u64);
    for ann in 0..3 {
        for ben in (0..3).filter(|&b| b != ann) {
            let deal = 1.0 / 6.0;
            for &(_, p, length, fold, stake) in &sequences {
                let winner = fold.unwrap_or(if ann > ben { 0 } else { 1 });
                wins[winner] += deal * p;
                chips += deal * p * if winner == 0 { stake } else { -stake };
                decisions += deal * p * length;
                games += 1;
            }
        }
    }
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(wins[0], 9.0 / 16.0) && close(wins[1], 7.0 / 16.0));
    assert!(close(chips, 1.0 / 8.0) && close(decisions, 9.0 / 4.0));

    assert!(
        close(exact.wins[0], wins[0]) && close(exact.wins[1], wins[1]),
        "{:?}",
        exact.wins
    );
    assert_eq!((exact.draws, exact.stopped), (0.0, 0.0));
    assert!(close(exact.mean_decisions, decisions), "{}", exact.mean_decisions);
    assert!(close(exact.mean_decision_points, decisions));
    let scores = exact.scores.as_ref().expect("Kuhn poker is scored");
    assert!(close(scores.scored, 1.0));
    assert!(close(scores.mean_totals[0], chips) && close(scores.mean_totals[1], -chips));
    assert_eq!(exact.games, games);
}

/// `simulate --agents random` plays the game `exact` enumerates: every
/// outcome rate lies within 4 standard errors of the exact one.
#[test]
fn simulate_agrees_with_exact() {
    for (path, games) in [(TIC_TAC_TOE, 3000), (KUHN_POKER, 3000)] {
        let def = common::load(path);
        let exact = exact_of(&def);
        common::agree::simulate_agrees_with_exact(path, &def, &def.default_options(), &[], &exact, games);
    }
}

/// Past its budget, `exact` stops and says how far it got and how to go on.
#[test]
fn the_budget_stops_a_large_enumeration() {
    let out = rpsdsl(&["exact", TIC_TAC_TOE, "--budget", "1000"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_snapshot!("exact_budget", String::from_utf8(out.stderr).unwrap());
}

/// A race's answers carry reaction times, which have no finite list of
/// outcomes: `exact` refuses the game.
#[test]
fn a_race_is_refused() {
    let dir = scratch("exact-race");
    let rules = dir.join("race.rules");
    std::fs::write(
        &rules,
        "game \"Race\"\nplayers 2: North, South\nkinds Hand = rock | paper\n\
         flow {\n  race each player calls shout from Hand, or silence, timed by reaction\n  win North\n}\n",
    )
    .unwrap();
    let out = rpsdsl(&["exact", rules.to_str().unwrap()]);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("rpsdsl::not-enumerable"), "{stderr}");
    assert!(stderr.contains("a race cannot be enumerated exactly"), "{stderr}");
}

/// A shuffle of pieces the game cannot tell apart is one branch per distinct
/// arrangement, not one per order of the pieces: 4 identical tokens and 2
/// others make 6!/(4!·2!) = 15 arrangements when the 2 others are alike,
/// and 6!/4! = 30 when they are not.
#[test]
fn alike_pieces_do_not_multiply_the_branches() {
    let dir = scratch("exact-alike");
    let game = |others: &str| {
        format!(
            "game \"Bag\"\nplayers 2: Ann, Ben\npieces {{\n  Blank x4 in bag\n  {others}\n}}\n\
             zones {{\n  bag hidden\n  hand per player owner\n}}\n\
             setup {{ shuffle bag }}\n\
             flow {{\n  deal 1 from bag to hand of Ann\n  if count Prize in hand of Ann > 0 {{ win Ann }}\n  win Ben\n}}\n"
        )
    };
    let mut results = vec![];
    for (name, others) in [
        ("alike", "Prize x2 in bag"),
        ("distinct", "Prize with value 1..2 in bag"),
    ] {
        let path = dir.join(format!("{name}.rules"));
        std::fs::write(&path, game(others)).unwrap();
        let def = common::load(path.to_str().unwrap());
        results.push(exact_of(&def));
    }
    for exact in &results {
        // A Prize on top of the bag: 2 chances in 6.
        assert!((exact.wins[0] - 1.0 / 3.0).abs() < 1e-12, "{:?}", exact.wins);
    }
    assert_eq!(results.iter().map(|e| e.games).collect::<Vec<_>>(), [15, 30]);
}
