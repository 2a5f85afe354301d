//! The classic card games written from OpenSpiel: goofspiel and leduc poker.
//! Scripted deals show the rules that matter; `simulate` with random agents
//! agrees with `rpsdsl exact` within 4 standard errors.

mod common;

use common::{lines, scenario};
use rpsdsl::check::{OptionSetting, resolve_settings};
use rpsdsl::engine::Game;
use rpsdsl::exact::{self, DEFAULT_BUDGET};
use rpsdsl::ir::OptionValue;
use rpsdsl::scenario::Scenario;
use rpsdsl::session::{self, Record};

const GOOFSPIEL: &str = "games/classic/goofspiel.rules";
const LEDUC: &str = "games/classic/leduc_poker.rules";

fn options(def: &Game, pairs: &[(&str, &str)]) -> Vec<OptionValue> {
    let settings: Vec<OptionSetting> = pairs
        .iter()
        .map(|(n, v)| OptionSetting {
            name: n.to_string(),
            value: v.to_string(),
            name_span: Default::default(),
            value_span: Default::default(),
        })
        .collect();
    resolve_settings(def, &settings).unwrap()
}

fn play(def: &Game, options: &[OptionValue], scenario: &Scenario) -> Record {
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    session::play(def, options, 1, scenario, &mut agents).unwrap_or_else(|f| panic!("{}", f.diagnostic.message))
}

/// The winner's seat name, or "draw".
fn winner(def: &Game, record: &Record) -> String {
    match record.outcome.as_ref().expect("the game ended").winner {
        Some(seat) => def.seats[seat as usize].clone(),
        None => "draw".into(),
    }
}

/// Goofspiel with 3 cards, the point cards turned up 3, 2, 1.
fn goofspiel(bids: &[&str]) -> (Game, Record) {
    let def = common::load(GOOFSPIEL);
    let options = options(&def, &[("num_cards", "3")]);
    let record = play(
        &def,
        &options,
        &scenario(&[("prizes", &["Prize 3", "Prize 2", "Prize 1"])], bids),
    );
    (def, record)
}

#[test]
fn goofspiel_hands_hold_num_cards_cards() {
    let def = common::load(GOOFSPIEL);
    for (n, offered) in [("1", None), ("3", Some("[of 3]")), ("13", Some("[of 13]"))] {
        let record = play(&def, &options(&def, &[("num_cards", n)]), &Scenario::default());
        let text = lines(&def, &record);
        let shuffle = text.iter().find(|l| l.starts_with("shuffle prizes")).unwrap();
        assert_eq!(
            shuffle.matches("Prize").count(),
            n.parse::<usize>().unwrap(),
            "{shuffle}"
        );
        match offered {
            // One card each: the only turn is played without a choice.
            None => assert!(record.decisions.is_empty(), "{:?}", record.decisions),
            Some(offered) => assert!(
                text.iter()
                    .any(|l| l.starts_with("Ann chooses bid") && l.ends_with(offered)),
                "{text:#?}"
            ),
        }
    }
}

#[test]
fn goofspiel_equal_bids_discard_the_prize() {
    // The 3 is bid for with two 2s: nobody scores it. Ann takes the 2 with
    // her 3, and Ben the 1 with his 3.
    let (def, record) = goofspiel(&[
        "Ann: Bid 2 of Ann",
        "Ben: Bid 2 of Ben",
        "Ann: Bid 3 of Ann",
        "Ben: Bid 1 of Ben",
    ]);
    let text = lines(&def, &record);
    let first_points = text.iter().position(|l| l.starts_with("  points of")).unwrap();
    assert_eq!(text[first_points], "  points of Ann = 2", "{text:#?}");
    assert!(text.contains(&"  points of Ben = 1".to_string()), "{text:#?}");
    assert!(text.contains(&"  Prize 3: table -> discard".to_string()), "{text:#?}");
    assert!(
        text.contains(&"  Prize 2: table -> won of Ann".to_string()),
        "{text:#?}"
    );
    assert_eq!(winner(&def, &record), "Ann");
}

#[test]
fn goofspiel_equal_points_are_a_draw() {
    // Ann takes the 3; Ben the 2 and then the 1: 3 points each.
    let (def, record) = goofspiel(&[
        "Ann: Bid 3 of Ann",
        "Ben: Bid 1 of Ben",
        "Ann: Bid 1 of Ann",
        "Ben: Bid 2 of Ben",
    ]);
    let text = lines(&def, &record);
    assert!(text.contains(&"  points of Ann = 3".to_string()), "{text:#?}");
    assert!(text.contains(&"  points of Ben = 3".to_string()), "{text:#?}");
    assert_eq!(winner(&def, &record), "draw");
}

/// Leduc poker with Ann dealt `ann`, Ben `ben`, and `public` turned up.
fn leduc(ann: &str, ben: &str, public: &str, acts: &[&str]) -> (Game, Record) {
    let def = common::load(LEDUC);
    let deck = [ann, ben, public];
    let record = play(&def, &def.default_options(), &scenario(&[("deck", &deck)], acts));
    (def, record)
}

fn chips(record: &Record) -> Vec<i64> {
    record.scores.iter().map(|s| s.iter().sum()).collect()
}

#[test]
fn leduc_a_pair_beats_a_higher_card() {
    let (def, record) = leduc(
        "Card jack",
        "Card king",
        "Card jack",
        &["Ann: call", "Ben: call", "Ann: call", "Ben: call"],
    );
    assert_eq!(winner(&def, &record), "Ann");
    assert_eq!(chips(&record), [1, -1]);
}

#[test]
fn leduc_the_higher_card_wins_without_a_pair_and_equal_ranks_split() {
    // Round 1: Ann raises 2 and Ben calls; round 2: both check.
    let acts = ["Ann: raise", "Ben: call", "Ann: call", "Ben: call"];
    let (def, record) = leduc("Card queen", "Card king", "Card jack", &acts);
    assert_eq!((winner(&def, &record), chips(&record)), ("Ben".into(), vec![-3, 3]));
    let (def, record) = leduc("Card queen", "Card queen", "Card king", &acts);
    assert_eq!((winner(&def, &record), chips(&record)), ("draw".into(), vec![0, 0]));
}

#[test]
fn leduc_raises_are_capped_at_two_a_round() {
    // Ann raises, Ben re-raises: Ann may then only fold or call (2 choices),
    // and her call ends the round. In round 2 the raises are of 4.
    let (def, record) = leduc(
        "Card king",
        "Card queen",
        "Card jack",
        &[
            "Ann: raise",
            "Ben: raise",
            "Ann: call",
            "Ann: raise",
            "Ben: raise",
            "Ann: call",
        ],
    );
    let text = lines(&def, &record);
    let offers: Vec<&String> = text.iter().filter(|l| l.starts_with("Ann chooses act: call")).collect();
    assert_eq!(offers.len(), 2, "{text:#?}");
    assert!(offers.iter().all(|l| l.ends_with("[of 2]")), "{text:#?}");
    // 1 ante + 2 + 2 in round 1, + 4 + 4 in round 2.
    assert_eq!((winner(&def, &record), chips(&record)), ("Ann".into(), vec![13, -13]));
}

#[test]
fn leduc_a_fold_gives_the_pot_to_the_other_player() {
    // Nobody may fold when nothing is owed: Ann is offered call and raise.
    let (def, record) = leduc("Card jack", "Card king", "Card queen", &["Ann: raise", "Ben: fold"]);
    let text = lines(&def, &record);
    assert!(
        text.contains(&"Ann chooses act: raise  [of 2]".to_string()),
        "{text:#?}"
    );
    assert!(!text.iter().any(|l| l.contains("community")), "{text:#?}");
    assert_eq!((winner(&def, &record), chips(&record)), ("Ann".into(), vec![1, -1]));
}

/// `simulate --agents random` plays the games `exact` enumerates: every
/// outcome rate lies within 4 standard errors of the exact one.
#[test]
fn simulate_agrees_with_exact() {
    let games = 3000;
    for (path, settings) in [(GOOFSPIEL, vec![("num_cards", "4")]), (LEDUC, vec![])] {
        let def = common::load(path);
        let options = options(&def, &settings);
        let exact = exact::enumerate(&def, &options, DEFAULT_BUDGET).unwrap();
        common::agree::simulate_agrees_with_exact(path, &def, &options, &settings, &exact, games);
    }
}

/// The exact figures, checked against an enumeration written out in Python
/// (goofspiel with 4 cards: 29/72 each, 7/36 draws; leduc: Ann 95/192, Ben
/// 41/96, draws 5/64, Ann's mean return -5/64).
#[test]
fn exact_figures_match_a_separate_enumeration() {
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    let def = common::load(GOOFSPIEL);
    let exact = exact::enumerate(&def, &options(&def, &[("num_cards", "4")]), DEFAULT_BUDGET).unwrap();
    assert!(
        close(exact.wins[0], 29.0 / 72.0) && close(exact.wins[1], 29.0 / 72.0),
        "{:?}",
        exact.wins
    );
    assert!(close(exact.draws, 7.0 / 36.0), "{}", exact.draws);
    let def = common::load(LEDUC);
    let exact = exact::enumerate(&def, &def.default_options(), DEFAULT_BUDGET).unwrap();
    assert!(
        close(exact.wins[0], 95.0 / 192.0) && close(exact.wins[1], 41.0 / 96.0),
        "{:?}",
        exact.wins
    );
    assert!(close(exact.draws, 5.0 / 64.0), "{}", exact.draws);
    let scores = exact.scores.as_ref().expect("leduc is scored");
    assert!(close(scores.mean_totals[0], -5.0 / 64.0), "{:?}", scores.mean_totals);
}
