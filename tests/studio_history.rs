//! The studio's time travel, forks and transcripts, over plain HTTP: a seat
//! looking back sees only what it saw then; only the studio's key forks and
//! saves the whole transcript; a saved transcript replays with `rpsdsl
//! replay` and loads back as a game to step through.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::studio::{Studio, games_dir, get_json, names, request};
use serde_json::Value;

/// Every seat with a link answers, each seat and step a different offer
/// (two seats always throwing alike tie for ever), until the game has taken `steps`
/// steps or is over. The seats' screens at the end.
fn play(studio: &Studio, links: &[String], steps: u64) -> Vec<Value> {
    for _ in 0..400 {
        let screens: Vec<Value> = links.iter().map(|l| get_json(studio, &format!("/api{l}")).1).collect();
        let turn = screens[0]["turn"].as_u64().unwrap();
        if turn >= steps || !screens[0]["over"].is_null() || !screens[0]["failure"].is_null() {
            return screens;
        }
        for (seat, (link, screen)) in links.iter().zip(&screens).enumerate() {
            if let Some(offers) = screen["prompt"]["offers"].as_array() {
                let index = (turn as usize * 7 + seat) % offers.len();
                let body = format!(r#"{{"turn":{turn},"index":{index}}}"#);
                let (status, answer) = request(&studio.base, "POST", &format!("/api{link}/choose"), &[], Some(&body));
                assert!(status == 200 || status == 409, "{status} {answer}");
            }
        }
    }
    panic!("the game took more than 400 rounds of answers");
}

/// The card names in `screen`'s board that lie in `seat`'s hand, face up.
fn hand(screen: &Value, seat: &str) -> Vec<String> {
    let svg = screen["svg"].as_str().unwrap();
    svg.split("<title>")
        .skip(1)
        .filter_map(|t| t.split("</title>").next())
        .filter_map(|t| t.strip_suffix(&format!(" (hand of {seat})")))
        .map(|t| t.split(" x").next().unwrap().to_string())
        .filter(|t| t.starts_with("Card "))
        .collect()
}

fn game_id(link: &str) -> &str {
    link.trim_start_matches("/play/").split('/').next().unwrap()
}

fn seat_links(body: &str) -> Vec<String> {
    let body: Value = serde_json::from_str(body).unwrap();
    body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["link"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn looking_back_a_seat_sees_only_what_it_saw_then() {
    let studio = Studio::start(&games_dir(), "random");
    let links: Vec<String> = studio
        .start_game("janken_deck.rules", "human,human", &[])
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let now = play(&studio, &links, 4);
    let turn = now[0]["turn"].as_u64().unwrap();
    assert!(turn >= 4, "{turn}");
    let mut checked = 0;
    for step in 0..=turn {
        let (status, ann) = get_json(&studio, &format!("/api{}/at/{step}", links[0]));
        assert_eq!(status, 200);
        let (_, ben) = get_json(&studio, &format!("/api{}/at/{step}", links[1]));
        assert_eq!(ann["at"], step);
        assert_eq!(ann["turn"], turn);
        let raw = request(&studio.base, "GET", &format!("/api{}/at/{step}", links[0]), &[], None).1;
        assert!(!raw.to_lowercase().contains("seed"));
        // Ben's hand then, as Ben saw it: none of it in what Ann is sent.
        let bens = hand(&ben, "Ben");
        assert!(!bens.is_empty(), "Ben holds cards at step {step}");
        for card in &bens {
            assert!(
                !names(&raw, card),
                "Ann, looking back at step {step}, was sent Ben's {card}"
            );
            checked += 1;
        }
        // Looking back asks nothing; now asks as the live screen does.
        if step < turn {
            assert!(ann["prompt"].is_null(), "step {step}");
            assert!(ann["waiting_for"].as_array().unwrap().is_empty());
        }
    }
    assert!(checked >= 10, "{checked}");
    // The past is the past: what Ann saw at step 1 stays what it was.
    let (_, first) = get_json(&studio, &format!("/api{}/at/1", links[0]));
    let (_, later) = get_json(&studio, &format!("/api{}/at/{turn}", links[0]));
    assert!(first["happened"].as_array().unwrap().len() < later["happened"].as_array().unwrap().len());
    // A step past the end shows now.
    let (_, beyond) = get_json(&studio, &format!("/api{}/at/9999", links[0]));
    assert_eq!(beyond["at"], turn);
    // Without the seat's token: 403.
    let wrong = links[0].replace(game_id(&links[0]), "0000");
    assert_eq!(get_json(&studio, &format!("/api{wrong}/at/0")).0, 403);
}

#[test]
fn only_the_studio_key_forks_and_the_fork_starts_where_it_was_taken() {
    let studio = Studio::start(&games_dir(), "random");
    let links: Vec<String> = studio
        .start_game("janken_deck.rules", "human,human", &[])
        .into_iter()
        .map(Option::unwrap)
        .collect();
    play(&studio, &links, 4);
    let id = game_id(&links[0]);
    let fork = format!("/api/games/{id}/fork");
    let body = r#"{"at":2}"#;
    // A seat's token is not the studio's key; nor is nothing.
    let token = links[0].rsplit('/').next().unwrap();
    for headers in [vec![], vec![("x-studio-key", token)]] {
        assert_eq!(request(&studio.base, "POST", &fork, &headers, Some(body)).0, 403);
    }
    let (status, forked) = studio.owner("POST", &fork, Some(&serde_json::json!({ "at": 2 })));
    assert_eq!(status, 200, "{forked}");
    let new_links = seat_links(&forked);
    assert_ne!(game_id(&new_links[0]), id);
    assert_ne!(new_links[0], links[0], "each person gets a new link");
    // The fork's first screen is the original's at step 2, for each seat.
    for (old, new) in links.iter().zip(&new_links) {
        let (_, then) = get_json(&studio, &format!("/api{old}/at/2"));
        let (_, fork_now) = get_json(&studio, &format!("/api{new}"));
        assert_eq!(fork_now["turn"], 2);
        assert_eq!(fork_now["svg"], then["svg"]);
        assert_eq!(fork_now["happened"], then["happened"]);
    }
    // And it plays on.
    let on = play(&studio, &new_links, 3);
    assert!(on[0]["turn"].as_u64().unwrap() >= 3);
    // A fork may seat others: here an agent takes Ben's seat.
    let (status, body) = studio.owner(
        "POST",
        &fork,
        Some(&serde_json::json!({ "at": 1, "seats": "human,random" })),
    );
    assert_eq!(status, 200, "{body}");
    let seats: Value = serde_json::from_str(&body).unwrap();
    assert!(seats["seats"][1]["link"].is_null());
}

#[test]
fn a_saved_transcript_replays_and_loads_back() {
    let studio = Studio::start(&games_dir(), "random");
    let links: Vec<String> = studio
        .start_game("janken_deck.rules", "human,human", &[])
        .into_iter()
        .map(Option::unwrap)
        .collect();
    let end = play(&studio, &links, u64::MAX);
    assert!(!end[0]["over"].is_null(), "the game ended");
    let id = game_id(&links[0]);
    // The whole transcript: the studio's key.
    let path = format!("/api/games/{id}/transcript");
    assert_eq!(request(&studio.base, "GET", &path, &[], None).0, 403);
    let (status, text) = studio.owner("GET", &path, None);
    assert_eq!(status, 200);
    let saved: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(saved["view"], "all");
    assert_eq!(saved["rules"], "janken_deck.rules");
    assert!(saved["seed"].is_u64());
    // The same fields, in the same order, as `rpsdsl run --json` writes.
    let run = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args(["run", "janken_deck.rules", "--json", "--seed", "1"])
        .current_dir(games_dir())
        .output()
        .unwrap();
    let run: Value = serde_json::from_slice(&run.stdout).unwrap();
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    let mut ours = keys(&saved);
    ours.retain(|k| k != "about");
    let mut theirs = keys(&run);
    theirs.retain(|k| k != "about");
    assert_eq!(ours, theirs);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("studio-transcript");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("janken.json");
    std::fs::write(&file, &text).unwrap();
    let replay = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .arg("replay")
        .arg(&file)
        .current_dir(games_dir())
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}{}",
        String::from_utf8_lossy(&replay.stdout),
        String::from_utf8_lossy(&replay.stderr)
    );
    // A seat saves its own view any time; the whole one only when nothing
    // in it was hidden from anyone (Janken Deck's hands were).
    let (status, mine) = get_json(&studio, &format!("/api{}/transcript", links[0]));
    assert_eq!(status, 200);
    assert_eq!(mine["view"], "Ann");
    assert!(mine.get("seed").is_none() && mine.get("replay").is_none());
    assert_eq!(
        get_json(&studio, &format!("/api{}/transcript?view=all", links[0])).0,
        403
    );
    // Loaded back: a game whose every seat steps through the same game.
    let (status, body) = studio.owner("POST", "/api/transcripts", Some(&serde_json::json!({ "text": text })));
    assert_eq!(status, 200, "{body}");
    let loaded = seat_links(&body);
    for (old, new) in links.iter().zip(&loaded) {
        let (_, was) = get_json(&studio, &format!("/api{old}"));
        let (_, again) = get_json(&studio, &format!("/api{new}"));
        assert_eq!(again["turn"], was["turn"]);
        assert_eq!(again["over"], was["over"]);
        assert_eq!(again["happened"], was["happened"]);
        let (_, first) = get_json(&studio, &format!("/api{new}/at/1"));
        let (_, first_was) = get_json(&studio, &format!("/api{old}/at/1"));
        assert_eq!(first["svg"], first_was["svg"]);
    }
    // What cannot be loaded says why.
    for (bad, why) in [
        (serde_json::json!({ "text": "{" }), "not a JSON transcript"),
        (serde_json::json!({ "text": mine.to_string() }), "view `Ann`"),
        (
            serde_json::json!({ "text": text, "path": "../x.rules" }),
            "leaves or re-enters",
        ),
        (serde_json::json!({ "text": text, "path": "rps.rules" }), "is a game of"),
    ] {
        let (status, body) = studio.owner("POST", "/api/transcripts", Some(&bad));
        assert!(status == 422 || status == 400, "{status} {body}");
        assert!(body.contains(why), "{body}");
    }
}
