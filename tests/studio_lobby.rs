//! The lobby, spectators and seats handed to agents, over plain HTTP: the
//! key holder sees every game (who sits where, who is connected, whose
//! turn, the last move), plays again, deletes finished games and hands a
//! quiet seat to an agent and back; a spectator's link shows only what
//! every seat may see, never a hidden piece and never the seed.

mod common;

use std::time::Duration;

use common::studio::{Studio, first_event, games_dir, get_json, request};
use serde_json::Value;

fn lobby(studio: &Studio) -> Vec<Value> {
    let (status, body) = studio.owner("GET", "/api/lobby", None);
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    body["games"].as_array().unwrap().clone()
}

fn choose_first(studio: &Studio, link: &str) -> u16 {
    choose_at(studio, link, false)
}

/// The seat answers with its first offer, or its last.
fn choose_at(studio: &Studio, link: &str, last: bool) -> u16 {
    let (_, screen) = get_json(studio, &format!("/api{link}"));
    let offers = screen["prompt"]["offers"].as_array().map_or(1, Vec::len);
    let index = if last { offers - 1 } else { 0 };
    let body = format!(r#"{{"turn":{},"index":{index}}}"#, screen["turn"]);
    request(&studio.base, "POST", &format!("/api{link}/choose"), &[], Some(&body)).0
}

#[test]
fn the_lobby_lists_every_game_with_its_seats_turn_and_presence() {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("rps.rules", "human,random", &["best_of=3"]);
    let link = links[0].clone().unwrap();
    assert_eq!(
        request(&studio.base, "GET", "/api/lobby", &[], None).0,
        403,
        "the lobby needs the key"
    );
    let games = lobby(&studio);
    assert_eq!(games.len(), 1);
    let game = &games[0];
    assert_eq!(game["game"], "Rock Paper Scissors");
    assert_eq!(game["rules"], "rps.rules");
    assert_eq!(game["done"], false);
    assert_eq!(game["waiting_for"], serde_json::json!(["Left", "Right"]));
    assert_eq!(
        game["seats"][0]["link"],
        link.as_str(),
        "the lobby shows the seat's own link again"
    );
    assert_eq!(game["seats"][1]["agent"], "random");
    assert_eq!(game["seats"][0]["connected"], 0);
    // A page open on the seat counts as connected while its stream is open.
    let base = studio.base.clone();
    let events = format!("/api{link}/events");
    // (It has the latest screen, revision 0, so it is sent nothing and stays.)
    let page = std::thread::spawn(move || first_event(&base, &events, Some("0"), Duration::from_millis(1500)));
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(lobby(&studio)[0]["seats"][0]["connected"], 1);
    page.join().unwrap();

    // Played to the end: listed as finished, after games in progress.
    while get_json(&studio, &format!("/api{link}")).1["over"].is_null() {
        assert_eq!(choose_first(&studio, &link), 200);
    }
    let newer = studio.start_game("rps.rules", "human,human", &[]);
    let games = lobby(&studio);
    assert_eq!(games[0]["seats"][1]["person"], true, "the game in progress comes first");
    assert_eq!(games[1]["done"], true);
    assert!(
        games[1]["ending"].as_str().is_some_and(|e| e.contains("wins")),
        "{}",
        games[1]
    );

    // Play again: the same seats, new links.
    let finished = games[1]["id"].as_str().unwrap().to_string();
    let (status, again) = studio.owner("POST", &format!("/api/games/{finished}/again"), None);
    assert_eq!(status, 200, "{again}");
    let again: Value = serde_json::from_str(&again).unwrap();
    assert!(again["seats"][0]["link"].is_string());
    assert!(
        again["seats"][1]["link"].is_null(),
        "the agent's seat stays the agent's"
    );
    assert_ne!(again["seats"][0]["link"], link.as_str());

    // Only a finished game can be deleted.
    let playing = newer[0]
        .as_ref()
        .unwrap()
        .trim_start_matches("/play/")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(studio.owner("DELETE", &format!("/api/games/{playing}"), None).0, 409);
    assert_eq!(studio.owner("DELETE", &format!("/api/games/{finished}"), None).0, 200);
    assert_eq!(lobby(&studio).len(), 2);
    assert_eq!(
        get_json(&studio, &format!("/api{link}")).0,
        403,
        "a deleted game's links are gone"
    );
}

#[test]
fn a_spectator_sees_only_what_every_seat_sees_and_never_the_seed() {
    let studio = Studio::start(&games_dir(), "random");
    let seed = 987_654_321_987u64;
    let (status, body) = studio.owner(
        "POST",
        "/api/games",
        Some(&serde_json::json!({ "path": "rps_poker.rules", "seats": "human,human", "seed": seed })),
    );
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let id = body["id"].as_str().unwrap();
    let links: Vec<String> = body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["link"].as_str().unwrap().to_string())
        .collect();
    let watch = lobby(&studio)[0]["watch"].as_str().unwrap().to_string();
    let token = watch.rsplit('/').next().unwrap();
    // A wrong token is refused like any other.
    assert_eq!(get_json(&studio, &format!("/api/watch/{id}/{}", "0".repeat(32))).0, 403);
    assert_eq!(
        get_json(
            &studio,
            &format!("/api/watch/{id}/{}", links[0].rsplit('/').next().unwrap())
        )
        .0,
        403
    );
    for step in 0..6 {
        let (status, raw) = request(&studio.base, "GET", &format!("/api/watch/{id}/{token}"), &[], None);
        assert_eq!(status, 200, "{raw}");
        assert!(!raw.contains(&seed.to_string()), "the seed reached a spectator: {raw}");
        assert!(!raw.to_lowercase().contains("seed"), "{raw}");
        let screen: Value = serde_json::from_str(&raw).unwrap();
        assert_eq!(screen["seat"], "spectator");
        assert!(screen["prompt"].is_null());
        // No card in a hand is named: neither on the board nor in the log.
        let svg = screen["svg"].as_str().unwrap();
        assert!(
            svg.split("<title>")
                .any(|t| t.starts_with("a hidden piece") && t.contains("(hand of Ann)")),
            "Ann's hand is drawn, face down: {svg}"
        );
        for title in svg.split("<title>").skip(1) {
            let title = title.split("</title>").next().unwrap();
            assert!(
                !(title.starts_with("Card") && title.contains("(hand of")),
                "{title} at step {step}"
            );
        }
        for line in screen["happened"].as_array().unwrap() {
            let line = line.as_str().unwrap();
            assert!(!(line.contains("Card ") && line.contains("hand of")), "{line}");
        }
        // A spectator cannot choose: its link is not a seat's.
        let (refused, _) = request(
            &studio.base,
            "POST",
            &format!("/api/play/{id}/{token}/choose"),
            &[],
            Some(r#"{"turn":0,"index":0}"#),
        );
        assert_eq!(refused, 403);
        for link in &links {
            choose_first(&studio, link);
        }
    }
    // Both seats see what the spectator sees of the public zones: the pot.
    let (_, seat) = get_json(&studio, &format!("/api{}", links[0]));
    let (_, watcher) = get_json(&studio, &format!("/api/watch/{id}/{token}"));
    assert_eq!(seat["counters"], watcher["counters"]);
}

#[test]
fn a_quiet_seat_is_handed_to_an_agent_and_back() {
    let mut studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("classic/tic_tac_toe.rules", "human,human", &[]);
    let (first, second) = (links[0].clone().unwrap(), links[1].clone().unwrap());
    let id = first
        .trim_start_matches("/play/")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(choose_first(&studio, &first), 200);
    // The second person went quiet: an agent plays for them, at once.
    let hand = serde_json::json!({ "agent": "random" });
    assert_eq!(
        studio.owner("POST", &format!("/api/games/{id}/seats/2"), Some(&hand)).0,
        200
    );
    let (_, now) = get_json(&studio, &format!("/api{first}"));
    assert_eq!(now["turn"], 2, "the agent answered: {now}");
    assert!(now["prompt"].is_object());
    let (_, theirs) = get_json(&studio, &format!("/api{second}"));
    assert!(
        theirs["prompt"].is_null(),
        "the person is not asked while the agent plays"
    );
    assert_eq!(lobby(&studio)[0]["seats"][1]["agent"], "random");
    // Kept over a restart, then given back.
    studio.kill_and_restart();
    assert_eq!(choose_first(&studio, &first), 200);
    assert_eq!(get_json(&studio, &format!("/api{first}")).1["turn"], 4);
    let back = serde_json::json!({ "agent": null });
    assert_eq!(
        studio.owner("POST", &format!("/api/games/{id}/seats/2"), Some(&back)).0,
        200
    );
    // (The last free cell: no line of three for the first seat yet.)
    assert_eq!(choose_at(&studio, &first, true), 200);
    let (_, theirs) = get_json(&studio, &format!("/api{second}"));
    assert!(theirs["prompt"].is_object(), "the person plays again: {theirs}");
    assert_eq!(theirs["turn"], 5);
    // Only the key holder hands seats; an agent's own seat has no person.
    assert_eq!(
        request(
            &studio.base,
            "POST",
            &format!("/api/games/{id}/seats/2"),
            &[],
            Some(&hand.to_string())
        )
        .0,
        403
    );
}
