//! `compare` from the studio's page, over plain HTTP: live progress, the
//! same figures as `rpsdsl compare`, its HTML report, a bad file's
//! diagnostic, paths outside PATH refused, and a run stopped.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use common::studio::{Studio, games_dir, request};
use serde_json::{Value, json};

/// The server-sent events of `path` until one of `last` names an event:
/// `(event, data)` pairs.
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

fn start(studio: &Studio, ask: &Value) -> (u16, String) {
    studio.owner("POST", "/api/compare", Some(ask))
}

#[test]
fn a_comparison_from_the_page_shows_progress_and_the_reports_of_compare() {
    let studio = Studio::start(&games_dir(), "random");
    let ask = json!({ "base": "janken_deck.rules", "variant": "variants/janken_three_wilds.rules", "games": 60 });
    // The studio's key, in the header or (for the page's event stream and frame) the query.
    assert_eq!(
        request(&studio.base, "POST", "/api/compare", &[], Some(&ask.to_string())).0,
        403
    );
    let (status, body) = start(&studio, &ask);
    assert_eq!(status, 200, "{body}");
    let job = serde_json::from_str::<Value>(&body).unwrap()["job"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        request(&studio.base, "GET", &format!("/api/compare/{job}/events"), &[], None).0,
        403
    );
    let seen = events(
        &studio.base,
        &format!("/api/compare/{job}/events?key={}", studio.key),
        &["done", "failed", "stopped"],
    );
    let (last, done) = seen.last().unwrap();
    assert_eq!(last, "done", "{seen:?}");
    // Progress, rising, out of both sides' games.
    let progress: Vec<u64> = seen
        .iter()
        .filter(|(e, _)| e == "progress")
        .map(|(_, d)| {
            assert_eq!(d["total"], 120);
            d["done"].as_u64().unwrap()
        })
        .collect();
    assert!(!progress.is_empty(), "{seen:?}");
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "{progress:?}");
    // The same figures as the command line's, which plays the same seeds.
    let cli = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args([
            "compare",
            "janken_deck.rules",
            "variants/janken_three_wilds.rules",
            "--games",
            "60",
            "--seed",
            "1",
            "--agents",
            "random",
        ])
        .current_dir(games_dir())
        .output()
        .unwrap();
    assert!(cli.status.success());
    let text = done["text"].as_str().unwrap();
    assert_eq!(text.trim_end(), String::from_utf8_lossy(&cli.stdout).trim_end());
    // The HTML report: the studio's key only, sandboxed, with the figures.
    let report = format!("/api/compare/{job}/report");
    assert_eq!(request(&studio.base, "GET", &report, &[], None).0, 403);
    let (status, html) = request(&studio.base, "GET", &format!("{report}?key={}", studio.key), &[], None);
    assert_eq!(status, 200);
    assert!(
        html.contains("<h1>Compare Janken Deck</h1>"),
        "{}",
        &html[..html.len().min(400)]
    );
    assert!(html.contains("variants/janken_three_wilds.rules"));
    // Each figure of the text's table is in the page's own copy of it.
    let figure = text
        .split_whitespace()
        .find(|w| w.ends_with('%'))
        .expect("a rate in the report");
    assert!(html.contains(figure), "{figure} not in the page");
}

#[test]
fn a_bad_file_is_its_diagnostic_and_paths_stay_inside() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("studio-compare");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("prelude")).unwrap();
    for file in ["rps.rules", "prelude/rps.rules"] {
        std::fs::copy(games_dir().join(file), root.join(file)).unwrap();
    }
    std::fs::write(root.join("typo.rules"), "game \"Typo\"\nplayers 2: A, B\nflowx\n").unwrap();
    std::fs::copy(games_dir().join("janken_deck.rules"), root.join("janken_deck.rules")).unwrap();
    let studio = Studio::start(&root, "random");
    let (status, body) = start(
        &studio,
        &json!({ "base": "rps.rules", "variant": "typo.rules", "games": 10 }),
    );
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("rpsdsl::") && body.contains("typo.rules:3"), "{body}");
    for outside in ["../rps.rules", "/etc/passwd.rules", "rps.txt"] {
        let (status, body) = start(
            &studio,
            &json!({ "base": "rps.rules", "variant": outside, "games": 10 }),
        );
        assert_eq!(status, 400, "{outside}: {body}");
    }
    let (status, body) = start(
        &studio,
        &json!({ "base": "rps.rules", "variant": "janken_deck.rules", "games": 10 }),
    );
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("not two versions of one game"), "{body}");
    let (status, _) = start(
        &studio,
        &json!({ "base": "rps.rules", "variant": "rps.rules", "games": 0 }),
    );
    assert_eq!(status, 400);
    let (status, _) = start(
        &studio,
        &json!({ "base": "rps.rules", "variant": "rps.rules", "games": 1_000_000 }),
    );
    assert_eq!(status, 400);
}

#[test]
fn a_comparison_stops_when_asked() {
    let studio = Studio::start(&games_dir(), "random");
    let ask = json!({ "base": "janken_deck.rules", "variant": "janken_deck.rules", "games": 5000 });
    let (status, body) = start(&studio, &ask);
    assert_eq!(status, 200, "{body}");
    let job = serde_json::from_str::<Value>(&body).unwrap()["job"]
        .as_str()
        .unwrap()
        .to_string();
    let stop = format!("/api/compare/{job}/stop");
    assert_eq!(request(&studio.base, "POST", &stop, &[], Some("")).0, 403);
    assert_eq!(studio.owner("POST", &stop, None).0, 200);
    let seen = events(
        &studio.base,
        &format!("/api/compare/{job}/events?key={}", studio.key),
        &["done", "failed", "stopped"],
    );
    assert_eq!(seen.last().unwrap().0, "stopped", "{seen:?}");
    let played = seen.iter().filter_map(|(_, d)| d["done"].as_u64()).max().unwrap_or(0);
    assert!(played < 10_000, "{played}");
}
