//! RPS Poker: betting, showdowns, the draw pile and chip conservation, with
//! fixed deals and scripted decisions.

mod common;

use common::{lines, load, scenario};
use proptest::prelude::*;
use rpsdsl::check::{OptionSetting, resolve_settings};
use rpsdsl::engine::Game;
use rpsdsl::engine::{EndReason, Event};
use rpsdsl::scenario::Scenario;
use rpsdsl::session::{self, Record};

const POKER: &str = "games/rps_poker.rules";

fn set(pairs: &[(&str, &str)]) -> Vec<OptionSetting> {
    pairs
        .iter()
        .map(|(n, v)| OptionSetting {
            name: n.to_string(),
            value: v.to_string(),
            name_span: Default::default(),
            value_span: Default::default(),
        })
        .collect()
}

fn play(def: &Game, options: &[(&str, &str)], seed: u64, scenario: &Scenario) -> Record {
    let options = resolve_settings(def, &set(options)).unwrap();
    let mut agents = rpsdsl::agents::from_spec("random", 2, seed).unwrap();
    session::play(def, &options, seed, scenario, &mut agents).unwrap_or_else(|f| panic!("{}", f.diagnostic.message))
}

/// Ann is dealt the first five cards, Ben the next five; the draw pile follows.
const DEAL: [&str; 12] = [
    "Card rock",
    "Card rock",
    "Card paper",
    "Card paper",
    "Card scissors", // Ann
    "Card scissors",
    "Card rock",
    "Card paper",
    "Card paper",
    "Card scissors", // Ben
    "Card paper",
    "Card paper", // the refills after turn 1
];

/// Turn 1 with no discards: Ann's head is rock, Ben's scissors.
fn turn_one(bets: &[&str]) -> Vec<String> {
    let mut d: Vec<String> = ["Ann: done", "Ben: done", "Ann: Card rock", "Ben: Card scissors"]
        .map(String::from)
        .to_vec();
    d.extend(bets.iter().map(|b| b.to_string()));
    d
}

/// The lines after the first line starting with `marker` that comes after
/// the line `from`.
fn lines_after(text: &[String], from: &str, marker: &str) -> Vec<String> {
    let start = text
        .iter()
        .position(|l| l == from)
        .unwrap_or_else(|| panic!("no `{from}` in {text:#?}"));
    let at = text[start..]
        .iter()
        .position(|l| l.starts_with(marker))
        .unwrap_or_else(|| panic!("no `{marker}` after `{from}` in {text:#?}"));
    text[start + at + 1..].to_vec()
}

fn run(def: &Game, options: &[(&str, &str)], decisions: &[String]) -> Vec<String> {
    let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
    let record = play(def, options, 1, &scenario(&[("draw_pile", &DEAL)], &decisions));
    lines(def, &record)
}

#[test]
fn a_fold_gives_the_pot_to_the_other_player() {
    let def = load(POKER);
    let text = run(
        &def,
        &[],
        &turn_one(&["Ann: bet one step", "Ben: bet the pot", "Ann: fold"]),
    );
    let after = lines_after(&text, "  turn = 1", "Ann chooses bet: fold");
    // Ann put in 10, Ben 30 (10 to call, 20 more). Ben's uncalled 20 comes back,
    // then he takes the pot of 20.
    assert_eq!(
        after[..5],
        [
            "  committed of Ben = 10",
            "  pot = 20",
            "  chips of Ben = 90",
            "  chips of Ben = 110",
            "  pot = 0"
        ]
    );
    assert!(
        !after[..4].iter().any(|l| l.contains("reveal")),
        "a fold shows no head cards"
    );
}

#[test]
fn a_raise_and_a_call_go_to_the_showdown() {
    let def = load(POKER);
    let text = run(
        &def,
        &[],
        &turn_one(&["Ann: bet one step", "Ben: bet the pot", "Ann: call"]),
    );
    let after = lines_after(&text, "  turn = 1", "Ann chooses bet: call");
    assert_eq!(
        after[..6],
        [
            "  chips of Ann = 70",
            "  committed of Ann = 30",
            "  pot = 60",
            "  reveal Card rock to everyone",
            "  reveal Card scissors to everyone",
            "  chips of Ann = 130",
        ]
    );
}

#[test]
fn a_short_stack_calls_all_in_and_the_excess_returns() {
    let def = load(POKER);
    // Turn 1: Ann wins 10 of Ben's chips (110 to 90).
    let mut d = turn_one(&["Ann: bet one step", "Ben: call"]);
    // Turn 2 (Ben acts first): Ann goes all-in for 110; Ben can only call 90.
    d.extend(
        [
            "Ann: done",
            "Ben: done",
            "Ann: Card rock",
            "Ben: Card rock",
            "Ben: check",
            "Ann: all-in",
            "Ben: call",
        ]
        .map(String::from),
    );
    let text = run(&def, &[], &d);
    let after = lines_after(&text, "  turn = 2", "Ben chooses bet: call");
    assert_eq!(
        after[..7],
        [
            "  chips of Ben = 0",
            "  committed of Ben = 90",
            "  pot = 200",
            // The 20 Ben could not match goes back to Ann.
            "  committed of Ann = 90",
            "  pot = 180",
            "  chips of Ann = 20",
            "  reveal Card rock to everyone",
        ]
    );
}

#[test]
fn a_head_tie_goes_to_more_cards_of_the_head_kind() {
    // "if each player played a Rock while Player #1 had 1 additional Rock in their
    //  hand (One Pair) and Player #2 had 3 additional Rocks in their hand (Four of a
    //  Kind), Player #2 would be victorious."
    let deal = [
        "Card rock",
        "Card rock",
        "Card paper",
        "Card paper",
        "Card scissors", // Ann: one extra rock
        "Card rock",
        "Card rock",
        "Card rock",
        "Card rock",
        "Card scissors", // Ben: three extra rocks
    ];
    let def = load(POKER);
    let d = [
        "Ann: done",
        "Ben: done",
        "Ann: Card rock",
        "Ben: Card rock",
        "Ann: bet one step",
        "Ben: call",
    ];
    let record = play(&def, &[], 1, &scenario(&[("draw_pile", &deal)], &d));
    let text = lines(&def, &record);
    let after = lines_after(&text, "  turn = 1", "Ben chooses bet: call");
    assert_eq!(after[5], "  chips of Ben = 110", "{after:#?}");
}

#[test]
fn a_full_tie_splits_the_pot_and_the_odd_chip_goes_to_the_first_to_act() {
    let def = load("tests/games/poker_dead_blinds.rules");
    let options = [
        ("starting_chips", "15"),
        ("blinds", "true"),
        ("blind_schedule", "[5, 10]"),
    ];
    // Turn 1: blinds of 5; Ann bets half the pot (5), Ben calls; Ann's rock wins
    // 20: Ann 25, Ben 5.
    let mut d = turn_one(&["Ann: bet half the pot", "Ben: call"]);
    // Turn 2: blinds of 10; Ben can post only 5 and is all-in; the blinds stay
    // (they are dead), so the pot is 15. Both heads are rock with no other rock
    // in hand: a full tie.
    d.extend(["Ann: done", "Ben: done", "Ann: Card rock", "Ben: Card rock"].map(String::from));
    let text = run(&def, &options, &d);
    let after = lines_after(&text, "  turn = 2", "  reveal Card rock to everyone");
    assert_eq!(
        after[1..4],
        ["  chips of Ben = 8", "  chips of Ann = 22", "  pot = 0"],
        "{after:#?}"
    );
}

#[test]
fn blinds_follow_the_schedule_and_a_short_player_posts_what_is_left() {
    let def = load(POKER);
    let record = play(
        &def,
        &[("blinds", "true"), ("starting_chips", "30")],
        3,
        &Scenario::default(),
    );
    let text = lines(&def, &record);
    let mut turn = 0;
    let mut checked = 0;
    for (i, line) in text.iter().enumerate() {
        if let Some(t) = line.strip_prefix("  turn = ") {
            turn = t.parse().unwrap();
        }
        // The posting follows the round's reset of commitments.
        if line == "  committed of Ben = 0" && text[i - 1] == "  committed of Ann = 0" {
            let blind = [10, 20, 40, 80, 160][turn - 1];
            for seat in ["Ann", "Ben"] {
                let chips_before: i64 = text[..i]
                    .iter()
                    .rev()
                    .find_map(|l| {
                        l.strip_prefix(&format!("  chips of {seat} = "))
                            .map(|v| v.parse().unwrap())
                    })
                    .unwrap();
                let posted = blind.min(chips_before);
                let shown = format!("  committed of {seat} = {posted}");
                assert!(
                    text[i..i + 8].contains(&shown),
                    "turn {turn}: {seat} posts {posted}: {:#?}",
                    &text[i..i + 8]
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 2, "blinds were posted");
}

#[test]
fn the_discard_pile_is_reshuffled_only_when_the_draw_pile_is_empty() {
    let def = load(POKER);
    let draw_pile = def.families.iter().find(|f| f.name == "draw_pile").unwrap().first;
    let discard_pile = def.families.iter().find(|f| f.name == "discard_pile").unwrap().first;
    let mut reshuffles = 0;
    for seed in 0..20 {
        // Fresh hands use many cards, so the draw pile runs out.
        let record = play(&def, &[("hand_refill", "fresh_hand")], seed, &Scenario::default());
        let mut size = 63i64;
        let mut refilling = false;
        for event in &record.events {
            match event {
                Event::Move { from, to, .. } if *from == draw_pile => {
                    size -= 1;
                    refilling = false;
                    let _ = to;
                }
                Event::Move { from, to, .. } if *to == draw_pile => {
                    assert_eq!(*from, discard_pile);
                    if !refilling {
                        assert_eq!(
                            size, 0,
                            "seed {seed}: the discards come back only to an empty draw pile"
                        );
                        reshuffles += 1;
                        refilling = true;
                    }
                    size += 1;
                }
                Event::Shuffle { zone, order, .. } if *zone == draw_pile => {
                    assert_eq!(order.len() as i64, size, "seed {seed}");
                }
                _ => {}
            }
        }
    }
    assert!(reshuffles > 0, "some game runs through the draw pile");
}

#[test]
fn the_game_ends_early_when_one_player_has_all_the_chips() {
    let def = load(POKER);
    let mut found = false;
    for seed in 0..200 {
        let record = play(&def, &[], seed, &Scenario::default());
        let text = lines(&def, &record);
        let last_turn: u32 = text
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("  turn = "))
            .unwrap()
            .parse()
            .unwrap();
        if last_turn < 5 {
            assert!(
                record.scores.iter().any(|s| s[0] == 0),
                "seed {seed}: ended early only when broke"
            );
            assert!(record.scores.iter().any(|s| s[0] == 200));
            assert!(matches!(record.outcome.unwrap().reason, EndReason::Rank(_)));
            found = true;
            break;
        }
    }
    assert!(found, "some game ends before turn 5");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn chips_are_conserved(seed in 0u64..100_000, blinds in any::<bool>(), chips in 1i64..300) {
        let def = load(POKER);
        let chips_text = chips.to_string();
        let options = [("blinds", if blinds { "true" } else { "false" }), ("starting_chips", chips_text.as_str())];
        let record = play(&def, &options, seed, &Scenario::default());
        let total: i64 = record.scores.iter().map(|s| s[0]).sum();
        prop_assert_eq!(total, 2 * chips);
        // And at every step: chips in hand plus the pot never change.
        let mut held = [chips, chips];
        let mut pot = 0;
        let chips_var = def.vars.iter().position(|v| v.name == "chips").unwrap() as u16;
        let pot_var = def.vars.iter().position(|v| v.name == "pot").unwrap() as u16;
        for event in &record.events {
            if let Event::Var { var, index, value, .. } = event {
                if *var == chips_var { held[index.unwrap() as usize] = *value; }
                if *var == pot_var { pot = *value; }
            }
        }
        prop_assert_eq!(held[0] + held[1] + pot, 2 * chips);
    }
}
