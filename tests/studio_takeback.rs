//! Take-backs, Board Game Arena's policy: a seat may take back its own
//! last decision only while no other seat has acted since, nothing was
//! revealed since and no chance outcome was drawn since; otherwise its
//! page says which of these stops it. A take-back tells the other seats
//! no more than the decision did, and nothing of it stays anywhere.

mod common;

use common::studio::{Studio, games_dir, get_json, request};
use serde_json::Value;

fn people(studio: &Studio, rules: &str, settings: &[&str]) -> Vec<String> {
    studio
        .start_game(rules, "human,human", settings)
        .into_iter()
        .map(Option::unwrap)
        .collect()
}

fn screen(studio: &Studio, link: &str) -> Value {
    let (status, screen) = get_json(studio, &format!("/api{link}"));
    assert_eq!(status, 200, "{screen}");
    screen
}

/// The seat at `link` answers its prompt with the offer labelled `label`
/// (or the first offer, for `None`).
fn choose(studio: &Studio, link: &str, label: Option<&str>) {
    let now = screen(studio, link);
    let offers = now["prompt"]["offers"]
        .as_array()
        .unwrap_or_else(|| panic!("not asked: {now}"));
    let index = match label {
        Some(label) => offers
            .iter()
            .position(|o| o["label"] == label)
            .unwrap_or_else(|| panic!("no offer {label} in {offers:?}")),
        None => 0,
    };
    let body = format!(r#"{{"turn":{},"index":{index}}}"#, now["turn"]);
    let (status, answer) = request(&studio.base, "POST", &format!("/api{link}/choose"), &[], Some(&body));
    assert_eq!(status, 200, "{answer}");
}

fn take_back(studio: &Studio, link: &str) -> (u16, String) {
    request(&studio.base, "POST", &format!("/api{link}/takeback"), &[], None)
}

fn game_id(link: &str) -> &str {
    link.trim_start_matches("/play/").split('/').next().unwrap()
}

#[test]
fn a_move_nobody_has_answered_is_taken_back_and_leaves_no_trace() {
    let studio = Studio::start(&games_dir(), "random");
    let links = people(&studio, "classic/tic_tac_toe.rules", &[]);
    let (first, second) = (&links[0], &links[1]);
    let before = screen(&studio, second);
    assert!(
        screen(&studio, first)["take_back"].is_null(),
        "nothing to take back yet"
    );
    choose(&studio, first, None);
    let mine = screen(&studio, first);
    assert_eq!(mine["take_back"]["allowed"], true, "{mine}");
    let (status, body) = take_back(&studio, first);
    assert_eq!(status, 200, "{body}");
    // The other seat sees the game as it was before the move, to the byte.
    assert_eq!(screen(&studio, second), before);
    let again = screen(&studio, first);
    assert_eq!(again["turn"], 0);
    assert!(again["prompt"].is_object(), "asked again: {again}");
    // Nothing of it stays: not in the whole transcript either.
    let (_, whole) = studio.owner("GET", &format!("/api/games/{}/transcript", game_id(first)), None);
    let whole: Value = serde_json::from_str(&whole).unwrap();
    assert_eq!(whole["replay"]["decisions"], serde_json::json!([]), "{whole}");
    // The lobby counts it.
    let (_, lobby) = studio.owner("GET", "/api/lobby", None);
    let lobby: Value = serde_json::from_str(&lobby).unwrap();
    assert_eq!(lobby["games"][0]["take_backs"], 1, "{lobby}");

    // Once the other seat has answered, the first may not take its move back.
    choose(&studio, first, None);
    choose(&studio, second, None);
    let mine = screen(&studio, first);
    assert_eq!(mine["take_back"]["allowed"], false);
    assert_eq!(mine["take_back"]["why"], "another seat has acted since");
    let (status, body) = take_back(&studio, first);
    assert_eq!(status, 409);
    assert!(body.contains("another seat has acted since"), "{body}");
    // The second seat's move is its own to take back.
    assert_eq!(screen(&studio, second)["take_back"]["allowed"], true);
}

#[test]
fn an_answer_that_waits_for_the_others_is_taken_back() {
    let studio = Studio::start(&games_dir(), "random");
    let links = people(&studio, "rps.rules", &[]);
    let before = screen(&studio, &links[1]);
    choose(&studio, &links[0], Some("paper"));
    assert_ne!(screen(&studio, &links[1])["waiting_for"], before["waiting_for"]);
    let (status, body) = take_back(&studio, &links[0]);
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        screen(&studio, &links[1]),
        before,
        "the other seat's page is as before the throw"
    );
    choose(&studio, &links[0], Some("rock"));
    choose(&studio, &links[1], Some("scissors"));
    let over = screen(&studio, &links[0]);
    assert!(
        over["over"].as_str().is_some_and(|o| o.starts_with("you win")),
        "rock was thrown, not paper: {over}"
    );
}

#[test]
fn a_move_that_revealed_something_stays() {
    let studio = Studio::start(&games_dir(), "random");
    let links = people(&studio, "rps_poker.rules", &[]);
    // RPS Poker: a card discarded goes face down, so it may come back...
    let first = screen(&studio, &links[0]);
    let discard = first["prompt"]["offers"][0]["label"].as_str().unwrap().to_string();
    assert!(discard.starts_with("Card "), "{first}");
    choose(&studio, &links[0], Some(&discard));
    assert_eq!(screen(&studio, &links[0])["take_back"]["allowed"], true);
    assert_eq!(take_back(&studio, &links[0]).0, 200);
    // ...but being done draws new cards, which the seat has now seen.
    choose(&studio, &links[0], Some(&discard));
    choose(&studio, &links[0], Some("done"));
    let mine = screen(&studio, &links[0]);
    assert_eq!(mine["take_back"]["why"], "something was revealed since", "{mine}");
    let (status, body) = take_back(&studio, &links[0]);
    assert_eq!(status, 409);
    assert!(body.contains("something was revealed since"), "{body}");
}

#[test]
fn a_move_after_which_chance_was_drawn_stays() {
    let games = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    let studio = Studio::start(&games, "random");
    let links = people(&studio, "press_your_luck.rules", &[]);
    // The push is followed by the roll.
    choose(&studio, &links[0], Some("2"));
    let mine = screen(&studio, &links[0]);
    assert_eq!(mine["take_back"]["why"], "a chance outcome was drawn since", "{mine}");
    let (status, body) = take_back(&studio, &links[0]);
    assert_eq!(status, 409);
    assert!(body.contains("a chance outcome was drawn since"), "{body}");
}

#[test]
fn a_take_back_is_kept_over_a_restart() {
    let mut studio = Studio::start(&games_dir(), "random");
    let links = people(&studio, "classic/tic_tac_toe.rules", &[]);
    choose(&studio, &links[0], None);
    choose(&studio, &links[1], None);
    assert_eq!(take_back(&studio, &links[1]).0, 200);
    studio.kill_and_restart();
    assert_eq!(screen(&studio, &links[0])["turn"], 1);
    assert!(screen(&studio, &links[1])["prompt"].is_object());
}

/// A decision with one choice (and no clock) has nothing for a person to
/// decide: the studio takes it for them, as `rpsdsl play` does, and the
/// game goes on. Here the last empty cell of a drawn tic-tac-toe.
#[test]
fn a_single_choice_is_taken_without_asking() {
    let studio = Studio::start(&games_dir(), "random");
    let links = people(&studio, "classic/tic_tac_toe.rules", &[]);
    for (k, cell) in [1, 2, 3, 5, 4, 6, 8, 7].iter().enumerate() {
        choose(&studio, &links[k % 2], Some(&format!("cells {cell}")));
    }
    let last = screen(&studio, &links[0]);
    assert!(last["prompt"].is_null(), "x was asked for its last cell: {last}");
    let happened = last["happened"].to_string();
    assert!(happened.contains("You choose cell: cells 9"), "{happened}");
    assert!(happened.contains("draw"), "{happened}");
}
