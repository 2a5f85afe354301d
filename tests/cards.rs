//! Cards, hands and races: ROCK! and Janken Deck, with fixed deals and
//! scripted decisions.

mod common;

use common::{lines, load, play, scenario};
use rpsdsl::engine::EndReason;
use rpsdsl::scenario::Scenario;

// ---------------------------------------------------------------- ROCK!

/// A 60-card deck (20 of each kind, top first) whose first flips are
/// `flips` (North's card, South's card). Cards are dealt one at a time,
/// North first, so North's first flip is the 59th card from the top.
fn rock_deck(flips: &[(&str, &str)]) -> Vec<String> {
    let mut deck: Vec<Option<&str>> = vec![None; 60];
    for (n, (north, south)) in flips.iter().enumerate() {
        deck[58 - 2 * n] = Some(north);
        deck[59 - 2 * n] = Some(south);
    }
    let mut left = [("rock", 20), ("paper", 20), ("scissors", 20)];
    for card in deck.iter().flatten() {
        left.iter_mut().find(|(k, _)| k == card).unwrap().1 -= 1;
    }
    deck.iter()
        .map(|card| {
            let kind = card.unwrap_or_else(|| {
                let slot = left.iter_mut().find(|(_, n)| *n > 0).unwrap();
                slot.1 -= 1;
                slot.0
            });
            format!("Card {kind}")
        })
        .collect()
}

fn rock_game(flips: &[(&str, &str)], calls: &[&str]) -> Vec<String> {
    let def = load("games/rock.rules");
    let deck = rock_deck(flips);
    let deck: Vec<&str> = deck.iter().map(String::as_str).collect();
    let record = play(&def, 1, &scenario(&[("deck", &deck)], calls)).unwrap();
    lines(&def, &record)
        .into_iter()
        .filter(|l| !l.contains("deck -> draw_pile"))
        .collect()
}

/// The lines of the first `flips` flips (each flip: two cards, two calls and
/// what happened).
fn first_flips(lines: &[String], flips: usize) -> Vec<String> {
    let start = lines
        .iter()
        .position(|l| l.contains("draw_pile of North -> centre"))
        .unwrap();
    let mut seen = 0;
    let end = lines[start..]
        .iter()
        .position(|l| {
            if l.contains("draw_pile of North -> centre") {
                seen += 1;
            }
            seen > flips
        })
        .map_or(lines.len(), |i| start + i);
    lines[start..end].to_vec()
}

#[test]
fn a_correct_call_takes_the_pile() {
    let lines = rock_game(&[("rock", "scissors")], &["North: rock @ 300ms", "South: silence"]);
    assert_eq!(
        first_flips(&lines, 1),
        [
            "  Card rock: draw_pile of North -> centre",
            "  Card scissors: draw_pile of South -> centre",
            "North calls shout: rock after 300 ms  [of 4]",
            "South calls shout: silence  [of 4]",
            "  Card scissors: centre -> stack of North",
            "  Card rock: centre -> stack of North",
        ]
    );
}

#[test]
fn a_wrong_call_loses_the_pile() {
    let lines = rock_game(
        &[("rock", "scissors")],
        &["North: paper @ 300ms", "South: rock @ 450ms"],
    );
    let flip = first_flips(&lines, 1);
    assert_eq!(
        flip[4..],
        [
            "  Card scissors: centre -> stack of South",
            "  Card rock: centre -> stack of South"
        ]
    );
}

#[test]
fn any_call_on_a_tie_flip_loses_the_pile() {
    let lines = rock_game(&[("paper", "paper")], &["North: silence", "South: scissors @ 500ms"]);
    let flip = first_flips(&lines, 1);
    assert_eq!(
        flip[4..],
        [
            "  Card paper: centre -> stack of North",
            "  Card paper: centre -> stack of North"
        ]
    );
}

#[test]
fn two_silent_tie_flips_stack_into_a_pile_of_six() {
    let flips = [("rock", "rock"), ("paper", "paper"), ("rock", "scissors")];
    let calls = [
        "North: silence",
        "South: silence",
        "North: silence",
        "South: silence",
        "North: rock @ 400ms",
        "South: silence",
    ];
    let lines = rock_game(&flips, &calls);
    let played = first_flips(&lines, 3);
    let collected: Vec<&String> = played.iter().filter(|l| l.ends_with("-> stack of North")).collect();
    assert_eq!(collected.len(), 6, "{played:#?}");
    assert!(played.iter().all(|l| !l.contains("stack of South")));
}

#[test]
fn correct_calls_within_same_time_leave_the_pile() {
    // 20 ms apart, within the default 30 ms: "exactly the same time".
    let flips = [("rock", "scissors"), ("paper", "rock")];
    let calls = [
        "North: rock @ 300ms",
        "South: rock @ 320ms",
        "North: silence",
        "South: paper @ 350ms",
    ];
    let text = rock_game(&flips, &calls);
    let played = first_flips(&text, 2);
    assert!(
        !played[..6].iter().any(|l| l.contains("stack of")),
        "the first pile stays: {played:#?}"
    );
    let collected = played.iter().filter(|l| l.ends_with("-> stack of South")).count();
    assert_eq!(collected, 4, "the next winner takes both flips: {played:#?}");

    // With `same_time_ms = 10`, 20 ms apart is no longer a tie: North was first.
    let def = load("games/rock.rules");
    let deck = rock_deck(&flips);
    let deck: Vec<&str> = deck.iter().map(String::as_str).collect();
    let mut strict = scenario(&[("deck", &deck)], &calls[..2]);
    strict.options = vec![rpsdsl::check::OptionSetting {
        name: "same_time_ms".into(),
        value: "10".into(),
        name_span: Default::default(),
        value_span: Default::default(),
    }];
    let options = rpsdsl::check::resolve_settings(&def, &strict.options).unwrap();
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    let record = rpsdsl::session::play(&def, &options, 1, &strict, &mut agents).unwrap();
    let text = lines(&def, &record);
    let after_calls = text.iter().position(|l| l.starts_with("South calls")).unwrap();
    assert_eq!(text[after_calls + 1], "  Card scissors: centre -> stack of North");
}

#[test]
fn cards_left_in_the_centre_score_for_nobody() {
    let calls: Vec<String> = (0..30)
        .flat_map(|_| ["North: silence".to_string(), "South: silence".to_string()])
        .collect();
    let calls: Vec<&str> = calls.iter().map(String::as_str).collect();
    let def = load("games/rock.rules");
    let record = play(&def, 4, &scenario(&[], &calls)).unwrap();
    assert_eq!(record.scores, [[0], [0]], "all 60 cards stayed in the centre");
    assert_eq!(record.outcome.unwrap().winner, None);
}

// ---------------------------------------------------------------- Janken Deck

const JANKEN: &str = "games/janken_deck.rules";

/// Ann is dealt the first five cards, Ben the next five.
fn janken(hands: &[&str], decisions: &[&str]) -> Result<Vec<String>, Box<rpsdsl::session::Failure>> {
    let def = load(JANKEN);
    let record = rpsdsl::session::play(
        &def,
        &def.default_options(),
        1,
        &scenario(&[("draw_deck", hands)], decisions),
        &mut rpsdsl::agents::from_spec("random", 2, 1).unwrap(),
    )?;
    Ok(lines(&def, &record))
}

const HANDS: [&str; 10] = [
    "Card rock 5",
    "Card rock 7",
    "Card paper 1",
    "Card scissors 2",
    "Card scissors 12", // Ann
    "Wild",
    "Card scissors 9",
    "Card rock 2",
    "Card paper 12",
    "Card scissors 3", // Ben
];

const OPENING: [&str; 4] = ["Ann: rock", "Ben: scissors", "Ann: Ann", "Ann: Card rock 5"];

#[test]
fn a_wild_declared_to_beat_the_card_keeps_its_kind() {
    let mut decisions = OPENING.to_vec();
    decisions.extend(["Ben: Wild as paper", "Ann: Card paper 1"]);
    let lines = janken(&HANDS, &decisions).unwrap();
    let wild = lines
        .iter()
        .position(|l| l.starts_with("Ben chooses play: Wild as paper"))
        .unwrap();
    assert_eq!(
        lines[wild], "Ben chooses play: Wild as paper  [of 2]",
        "only paper beats rock; Ben's paper 12 is the other"
    );
    assert_eq!(lines[wild + 2], "  round_kind = paper");
    assert_eq!(lines[wild + 3], "  round_value = 0");
    // The Wild stays paper: Ann's paper 1 climbs on it (higher than 0).
    assert_eq!(lines[wild + 4], "Ann chooses play: Card paper 1  [of 3]");
}

#[test]
fn an_illegal_play_is_refused_with_the_reason() {
    let mut decisions = OPENING.to_vec();
    decisions.push("Ben: Card scissors 9");
    let failure = janken(&HANDS, &decisions).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "illegal-action");
    assert_eq!(failure.diagnostic.message, "Ben cannot choose `Card scissors 9` here");
    assert_eq!(
        failure.diagnostic.help.as_deref(),
        Some("a choice here must satisfy `playable(play)`; the legal choices are Card paper 12, Wild as paper")
    );
    // A Wild declared as a kind that does not beat rock is refused too.
    let mut decisions = OPENING.to_vec();
    decisions.push("Ben: Wild as scissors");
    assert_eq!(
        janken(&HANDS, &decisions).unwrap_err().diagnostic.code.as_str(),
        "illegal-action"
    );
}

#[test]
fn the_third_winner_token_ends_the_game_at_once() {
    let def = load(JANKEN);
    let mut found = false;
    for seed in 0..200 {
        let record = play(&def, seed, &Scenario::default()).unwrap();
        let outcome = record.outcome.clone().unwrap();
        if !matches!(outcome.reason, EndReason::Win(..)) {
            continue;
        }
        let text = lines(&def, &record);
        let n = text.len();
        // The rules say why: "First player to win 3 Tokens wins the game."
        let winner = def.seat_name(outcome.winner.unwrap());
        assert_eq!(
            text[n - 1],
            format!("result: {winner} wins (wins 3 Tokens)"),
            "seed {seed}"
        );
        // The token is taken and the game ends: no discards, no new deal.
        assert_eq!(
            text[n - 2],
            format!("  Token: token_pool -> tokens of {winner}"),
            "seed {seed}"
        );
        let tokens = text
            .iter()
            .filter(|l| l.ends_with(&format!("tokens of {winner}")))
            .count();
        assert_eq!(tokens, 3, "seed {seed}");
        found = true;
        break;
    }
    assert!(found, "some game ends on a third token");
}

#[test]
fn a_short_draw_deck_ends_the_game_with_the_tie_breaks() {
    let def = load(JANKEN);
    let short = rpsdsl::check::resolve_settings(
        &def,
        &[rpsdsl::check::OptionSetting {
            name: "deck".into(),
            value: "short".into(),
            name_span: Default::default(),
            value_span: Default::default(),
        }],
    )
    .unwrap();
    let mut by_tokens = false;
    let mut by_discards = false;
    for seed in 0..300 {
        let mut agents = rpsdsl::agents::from_spec("random", 2, seed).unwrap();
        let record = rpsdsl::session::play(&def, &short, seed, &Scenario::default(), &mut agents).unwrap();
        let outcome = record.outcome.clone().unwrap();
        if let EndReason::Rank(key) = outcome.reason {
            // The deck could not refill both hands, so the game was scored.
            let tokens: Vec<i64> = record.scores.iter().map(|s| s[0]).collect();
            assert!(tokens.iter().all(|&t| t < 3), "seed {seed}: {tokens:?}");
            match key {
                0 => by_tokens = true,
                _ => {
                    assert_eq!(tokens[0], tokens[1], "seed {seed}: discards only break a token tie");
                    by_discards = true;
                }
            }
        }
    }
    assert!(
        by_tokens && by_discards,
        "both tie-break keys occur ({by_tokens}, {by_discards})"
    );
}
