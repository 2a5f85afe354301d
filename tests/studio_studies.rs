//! Studies from the studio's page, over plain HTTP: `simulate`, `verdict`
//! and `sweep` give the same words as their commands, with live progress
//! and their HTML reports; a study is stopped and keeps what it has; a bad
//! ask is refused at once with why.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::{Duration, Instant};

use common::studio::{Studio, games_dir, request};
use serde_json::{Value, json};

/// The server-sent events of `path` until one of `last` names an event.
fn events(base: &str, path: &str, last: &[&str]) -> Vec<(String, Value)> {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n").unwrap();
    let mut lines = BufReader::new(stream).lines();
    let status = lines.next().unwrap().unwrap();
    assert!(status.contains(" 200 "), "{status}");
    let mut seen = vec![];
    let mut event = String::new();
    for line in lines {
        let line = line.unwrap();
        if let Some(name) = line.strip_prefix("event: ") {
            event = name.to_string();
        } else if let Some(data) = line.strip_prefix("data: ") {
            seen.push((event.clone(), serde_json::from_str(data).unwrap()));
            if last.contains(&event.as_str()) {
                return seen;
            }
        }
    }
    panic!("the events ended without {last:?}: {seen:?}");
}

/// Starts a study and follows it to its end: the job and its last event.
fn study(studio: &Studio, ask: &Value) -> (String, Vec<(String, Value)>) {
    let (status, body) = studio.owner("POST", "/api/studies", Some(ask));
    assert_eq!(status, 200, "{body}");
    let job = serde_json::from_str::<Value>(&body).unwrap()["job"]
        .as_str()
        .unwrap()
        .to_string();
    let seen = events(
        &studio.base,
        &format!("/api/studies/{job}/events?key={}", studio.key),
        &["done", "failed", "stopped"],
    );
    (job, seen)
}

/// What the command prints, run in `games/`.
fn command(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args(args)
        .current_dir(games_dir())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim_end().to_string()
}

/// A text without its timings (`in 0.3 s of 120`, `after 1.2 s of 120`).
fn untimed(text: &str) -> String {
    text.lines()
        .map(|l| match l.find(" s of ") {
            Some(at) => {
                let start = l[..at].rfind(' ').unwrap_or(0);
                format!("{}{}", &l[..start], &l[at..])
            }
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_verdict_a_sweep_and_a_simulation_from_the_page_say_what_their_commands_say() {
    let studio = Studio::start(&games_dir(), "random");
    let ask = json!({
        "study": "verdict", "file": "janken_deck.rules", "variant": "variants/janken_three_wilds.rules",
        "agents": "greedy:samples=1,random", "deals": 64, "seconds": 120,
    });
    // The studio's key only.
    assert_eq!(
        request(&studio.base, "POST", "/api/studies", &[], Some(&ask.to_string())).0,
        403
    );
    let (job, seen) = study(&studio, &ask);
    let (last, done) = seen.last().unwrap();
    assert_eq!(last, "done", "{seen:?}");
    let cli = command(&[
        "verdict",
        "janken_deck.rules",
        "variants/janken_three_wilds.rules",
        "--agents",
        "greedy:samples=1,random",
        "--deals",
        "64",
        "--time",
        "120",
    ]);
    assert_eq!(untimed(done["text"].as_str().unwrap().trim_end()), untimed(&cli));
    // Progress in tenths of a second of the budget, with the deals played.
    for (_, p) in seen.iter().filter(|(e, _)| e == "progress") {
        assert_eq!(p["total"], 1200, "{p}");
        assert!(p["deals"].as_u64().unwrap() <= 64, "{p}");
    }
    let report = format!("/api/studies/{job}/report");
    assert_eq!(request(&studio.base, "GET", &report, &[], None).0, 403);
    let (status, html) = request(&studio.base, "GET", &format!("{report}?key={}", studio.key), &[], None);
    assert_eq!(status, 200);
    assert!(
        html.contains("janken_three_wilds.rules") && html.contains("<svg"),
        "{}",
        &html[..400]
    );

    let (_, seen) = study(
        &studio,
        &json!({
            "study": "sweep", "file": "rps.rules", "vary": "best_of=1..3", "target": "short",
            "agents": "mcts:iterations=5,random", "deals": 64, "seconds": 120,
        }),
    );
    let (last, done) = seen.last().unwrap();
    assert_eq!(last, "done", "{seen:?}");
    let cli = command(&[
        "sweep",
        "rps.rules",
        "--vary",
        "best_of=1..3",
        "--target",
        "short",
        "--agents",
        "mcts:iterations=5,random",
        "--deals",
        "64",
        "--time",
        "120",
    ]);
    assert_eq!(untimed(done["text"].as_str().unwrap().trim_end()), untimed(&cli));

    let (_, seen) = study(
        &studio,
        &json!({ "study": "simulate", "file": "rps.rules", "games": 300, "agents": "random" }),
    );
    let (last, done) = seen.last().unwrap();
    assert_eq!(last, "done", "{seen:?}");
    let cli = command(&["simulate", "rps.rules", "--games", "300", "--agents", "random"]);
    assert_eq!(done["text"].as_str().unwrap().trim_end(), cli);
}

/// Stop ends a verdict at its next batch: it says so and keeps what it
/// had, long before its budget.
#[test]
fn a_study_stopped_from_the_page_ends_soon_and_says_why() {
    let studio = Studio::start(&games_dir(), "random");
    let ask = json!({
        "study": "verdict", "file": "janken_deck.rules", "variant": "variants/janken_three_wilds.rules",
        "agents": "mcts:iterations=100,random", "seconds": 300,
    });
    let (status, body) = studio.owner("POST", "/api/studies", Some(&ask));
    assert_eq!(status, 200, "{body}");
    let job = serde_json::from_str::<Value>(&body).unwrap()["job"]
        .as_str()
        .unwrap()
        .to_string();
    std::thread::sleep(Duration::from_secs(2));
    let asked = Instant::now();
    let (status, _) = studio.owner("POST", &format!("/api/studies/{job}/stop"), None);
    assert_eq!(status, 200);
    let seen = events(
        &studio.base,
        &format!("/api/studies/{job}/events?key={}", studio.key),
        &["done", "failed", "stopped"],
    );
    let (last, done) = seen.last().unwrap();
    assert_eq!(last, "done", "{seen:?}");
    let text = done["text"].as_str().unwrap();
    assert!(text.contains("it was asked to stop"), "{text}");
    assert!(asked.elapsed() < Duration::from_secs(60), "{:?}", asked.elapsed());
}

#[test]
fn a_bad_study_is_refused_with_why() {
    let studio = Studio::start(&games_dir(), "random");
    let refused = |ask: Value| {
        let (status, body) = studio.owner("POST", "/api/studies", Some(&ask));
        let why = serde_json::from_str::<Value>(&body).unwrap()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        (status, why)
    };
    let (status, why) = refused(json!({ "study": "solve", "file": "rps.rules" }));
    assert_eq!(status, 400);
    assert!(why.contains("simulate, verdict or sweep"), "{why}");
    let (status, why) = refused(json!({ "study": "verdict", "file": "rps.rules" }));
    assert_eq!(status, 400);
    assert!(why.contains("variant"), "{why}");
    let (status, why) = refused(json!({ "study": "sweep", "file": "rps.rules", "vary": "best_of" }));
    assert_eq!(status, 400);
    assert!(why.contains("NAME=VALUES"), "{why}");
    let (status, why) = refused(json!({ "study": "sweep", "file": "rps.rules", "vary": "best_of=0..2" }));
    assert_eq!(status, 422);
    assert!(why.contains("best_of"), "{why}");
    let (status, why) =
        refused(json!({ "study": "verdict", "file": "rps.rules", "variant": "rps.rules", "seconds": 0 }));
    assert_eq!(status, 400);
    assert!(why.contains("seconds"), "{why}");
    let (status, _) = refused(json!({ "study": "simulate", "file": "../Cargo.toml" }));
    assert_eq!(status, 400);
    let (status, why) =
        refused(json!({ "study": "verdict", "file": "rps.rules", "variant": "rps.rules", "agents": "random" }));
    assert_eq!(status, 400);
    assert!(why.contains("strong and the weak"), "{why}");
}

/// `/api/openapi.json` describes the studio's HTTP API: every route the
/// router serves is in it, with its method, and it names no other.
#[test]
fn the_api_document_names_every_route_and_no_other() {
    let studio = Studio::start(&games_dir(), "random");
    let (status, body) = request(&studio.base, "GET", "/api/openapi.json", &[], None);
    assert_eq!(status, 200);
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let mut described: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |method| format!("{} {path}", method.to_uppercase()))
        })
        .collect();
    described.sort();
    // The routes as the router declares them: `.route("PATH", get(...))`,
    // the path on its own line where the handler is long.
    let source = std::fs::read_to_string("src/studio/routes.rs").unwrap();
    let mut served = vec![];
    let mut rest = source.as_str();
    while let Some(at) = rest.find(".route(") {
        rest = &rest[at + ".route(".len()..];
        let path = rest.split('"').nth(1).unwrap();
        let after = &rest[rest.find(path).unwrap() + path.len() + 1..];
        let method = ["get", "post", "delete"]
            .into_iter()
            .find(|m| {
                after
                    .trim_start_matches([',', ' ', '\n'])
                    .trim_start_matches("axum::routing::")
                    .starts_with(&format!("{m}("))
            })
            .unwrap_or_else(|| panic!("the method of {path}"));
        served.push(format!("{} {path}", method.to_uppercase()));
    }
    served.sort();
    assert!(served.len() > 30, "{served:?}");
    assert_eq!(described, served, "docs: src/studio/assets/openapi.json");
    // Each operation says what it does, and which key it needs (none for a seat's own routes).
    for (path, ops) in doc["paths"].as_object().unwrap() {
        for (method, op) in ops.as_object().unwrap() {
            assert!(op["summary"].as_str().is_some_and(|s| !s.is_empty()), "{method} {path}");
            assert!(op["security"].is_array(), "{method} {path}");
            assert!(op["responses"]["200"].is_object(), "{method} {path}");
        }
    }
    // And the key it names is the one the studio asks for.
    let (status, _) = request(
        &studio.base,
        "GET",
        "/api/files",
        &[("x-studio-key", &studio.key)],
        None,
    );
    assert_eq!(status, 200);
    assert_eq!(
        doc["components"]["securitySchemes"]["studioKey"]["name"],
        "x-studio-key"
    );
}
