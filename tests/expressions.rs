//! Expressions of the language's second round, with fixed deals and
//! scripted choices: `any`, `all` and `no` (whether some, every or no
//! member of a domain meets a condition; tests/games/quantified_hands.rules)
//! and seats counted round the table (`p + 1`, `player (n)`;
//! tests/games/pass_around.rules).

mod common;

use common::{lines, load, play, scenario};

/// The final score lines of a game of Quantified Hands dealt `ann` and
/// then `ben` from the top of the deck.
fn scores(ann: [&str; 3], ben: [&str; 3]) -> Vec<String> {
    let def = load("tests/games/quantified_hands.rules");
    let deck: Vec<String> = ann.iter().chain(&ben).map(|kind| format!("Card {kind}")).collect();
    let deck: Vec<&str> = deck.iter().map(String::as_str).collect();
    let record = play(&def, 1, &scenario(&[("deck", &deck)], &[])).unwrap();
    lines(&def, &record)
        .into_iter()
        .filter(|l| l.starts_with("score ") || l.starts_with("result"))
        .collect()
}

/// Ann holds a rock (`any ... where`: 1) and no scissors (`all`: 2), but
/// her paper is beaten by Ben's scissors (`no` fails); Ben holds no rock,
/// has scissors, and his scissors are beaten by her rocks. Both get the 8 of
/// `all q in players` with `no i in 1..0` (an empty domain has no member),
/// and a point for their one paper card (`count Card, paper in ...`).
#[test]
fn some_every_and_none_are_asked_of_a_hand() {
    assert_eq!(
        scores(["rock", "rock", "paper"], ["scissors", "scissors", "paper"]),
        [
            "score Ann: points 12 = 12",
            "score Ben: points 9 = 9",
            "result: Ann wins (most score)"
        ]
    );
}

/// Nothing in Ben's rocks beats Ann's papers (`no` holds: 4), while her
/// papers beat his rocks; her three papers count 3.
#[test]
fn no_member_that_is_beaten() {
    assert_eq!(
        scores(["paper", "paper", "paper"], ["rock", "rock", "rock"]),
        [
            "score Ann: points 17 = 17",
            "score Ben: points 11 = 11",
            "result: Ann wins (most score)"
        ]
    );
}

/// The final score lines of Pass Around with the players' sides scripted.
fn pass_around(sides: [&str; 3]) -> Vec<String> {
    let def = load("tests/games/pass_around.rules");
    let decisions: Vec<String> = ["Ann", "Ben", "Cat"]
        .iter()
        .zip(sides)
        .map(|(seat, side)| format!("{seat}: {side}"))
        .collect();
    let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
    let record = play(&def, 1, &scenario(&[], &decisions)).unwrap();
    lines(&def, &record)
        .into_iter()
        .filter(|l| l.starts_with("score ") || l.starts_with("result"))
        .collect()
}

/// `p + 1` is the player on p's left and `p - 1` on the right, round the
/// table (Cat's left is Ann, Ann's right is Cat); `player (5)` in a game of
/// three is Ben, the fifth seat counting round from Ann, and starts with a
/// point.
#[test]
fn seats_are_counted_round_the_table() {
    assert_eq!(
        pass_around(["left", "left", "left"]),
        [
            "score Ann: points 1 = 1",
            "score Ben: points 2 = 2",
            "score Cat: points 1 = 1",
            "result: Ben wins (most score)"
        ]
    );
    assert_eq!(
        pass_around(["right", "left", "right"]),
        [
            "score Ann: points 0 = 0",
            "score Ben: points 2 = 2",
            "score Cat: points 2 = 2",
            "result: draw (tied on every result key)"
        ]
    );
}

/// `say` writes the designer's words into the log, its `{names}` shown as
/// a transcript shows such values; `say ... to P` is read by that player
/// alone.
#[test]
fn a_line_is_said_to_the_table_or_to_one_player() {
    let def = load("tests/games/pass_around.rules");
    let decisions = ["Ann: left", "Ben: right", "Cat: left"];
    let record = play(&def, 1, &scenario(&[], &decisions)).unwrap();
    let said = |viewer| -> Vec<String> {
        rpsdsl::transcript::render_events(&def, &record.events, viewer)
            .into_iter()
            .filter(|l| l.contains("deal") || l.contains("gives"))
            .collect()
    };
    let everyone = [
        "Ben deals and takes a point",
        "Ann gives a point to Ben",
        "Ben gives a point to Ann",
        "Cat gives a point to Ann",
    ];
    let mut to_ben = everyone.to_vec();
    to_ben.insert(1, "you deal this time, Ben");
    assert_eq!(said(rpsdsl::transcript::Viewer::Seat(2)), everyone);
    assert_eq!(said(rpsdsl::transcript::Viewer::Seat(1)), to_ben);
}

/// `orthogonals` and `diagonals` offer four directions each, and a
/// procedure takes a direction as a parameter: from row 2, column 2 of a
/// 4 x 5 yard, east lights 3 spaces and southeast 2.
#[test]
fn directions_come_in_named_sets_and_as_parameters() {
    let def = load("tests/games/sight_lines.rules");
    let record = play(&def, 1, &scenario(&[], &["Ann: east", "Ben: southeast"])).unwrap();
    let lines: Vec<String> = lines(&def, &record)
        .into_iter()
        .filter(|l| l.contains("chooses") || l.starts_with("score") || l.starts_with("result"))
        .collect();
    assert_eq!(
        lines,
        [
            "Ann chooses side: east  [of 4]",
            "Ben chooses corner: southeast  [of 4]",
            "score Ann: lit 3 = 3",
            "score Ben: lit 2 = 2",
            "result: Ann wins (most score)"
        ]
    );
    // A side is never a corner: the sets are the compass's even and odd points.
    let refused = play(&def, 1, &scenario(&[], &["Ann: northeast"]));
    assert!(refused.is_err(), "northeast is not offered to Ann");
}

/// `swap` gives each hand the other's cards, each in its own order: Ann
/// was dealt rock then paper (paper on top), Ben scissors then rock. Kept,
/// Ben's rock is on top (1 + 2 points); traded, it is Ann's.
#[test]
fn a_swap_trades_whole_hands_and_keeps_their_order() {
    let def = load("tests/games/trade_hands.rules");
    let deck = ["Card rock", "Card paper", "Card scissors", "Card rock"];
    let scores = |offer: &str| -> Vec<String> {
        let record = play(&def, 1, &scenario(&[("deck", &deck)], &[offer])).unwrap();
        lines(&def, &record)
            .into_iter()
            .filter(|l| l.starts_with("score") || l.starts_with("result") || l.contains("trades"))
            .collect()
    };
    assert_eq!(
        scores("Ann: keep"),
        [
            "score Ann: points 1 = 1",
            "score Ben: points 3 = 3",
            "result: Ben wins (most score)"
        ]
    );
    assert_eq!(
        scores("Ann: trade"),
        [
            "Ann trades hands with Ben",
            "score Ann: points 3 = 3",
            "score Ben: points 1 = 1",
            "result: Ann wins (most score)"
        ]
    );
}

/// The score lines of a game of Weighed Hands dealt `ann` and then `ben`.
fn weighed(ann: [&str; 3], ben: [&str; 3]) -> Vec<String> {
    weighed_in("tests/games/weighed_hands.rules", ann, ben)
}

fn weighed_in(rules: &str, ann: [&str; 3], ben: [&str; 3]) -> Vec<String> {
    let def = load(rules);
    let deck: Vec<String> = ann.iter().chain(&ben).map(|kind| format!("Card {kind}")).collect();
    let deck: Vec<&str> = deck.iter().map(String::as_str).collect();
    let record = play(&def, 1, &scenario(&[("deck", &deck)], &[])).unwrap();
    lines(&def, &record)
        .into_iter()
        .filter(|l| l.starts_with("score ") || l.starts_with("result"))
        .collect()
}

/// `table worth at kind of c` reads the value written for that kind:
/// rock 1, paper 3, scissors 5, whatever the order of the entries.
#[test]
fn a_table_keyed_by_kind_gives_each_kind_its_value() {
    assert_eq!(
        weighed(["rock", "rock", "scissors"], ["paper", "paper", "rock"]),
        [
            "score Ann: worth 7 = 7",
            "score Ben: worth 7 = 7",
            "result: draw (tied on every result key)"
        ]
    );
    assert_eq!(
        weighed(["scissors", "scissors", "paper"], ["rock", "rock", "rock"]),
        [
            "score Ann: worth 13 = 13",
            "score Ben: worth 3 = 3",
            "result: Ann wins (most score)"
        ]
    );
    // A variant overrides the table whole: rock is worth 9 there.
    assert_eq!(
        weighed_in(
            "tests/games/weighed_hands_rock_heavy.rules",
            ["scissors", "scissors", "paper"],
            ["rock", "rock", "rock"]
        ),
        [
            "score Ann: worth 13 = 13",
            "score Ben: worth 27 = 27",
            "result: Ben wins (most score)"
        ]
    );
}
