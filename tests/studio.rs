//! `rpsdsl studio` over plain HTTP: secrets, bounds, failing games. The
//! browser tests are in tests/studio_browser.rs.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::studio::{Studio, games_dir, request};

#[test]
fn requests_without_the_right_secret_get_403() {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("rps3.rules", "human,random", &[]);
    let link = links[0].clone().unwrap();
    assert_eq!(request(&studio.base, "GET", &format!("/api{link}"), &[], None).0, 200);
    let (game, token) = link.trim_start_matches("/play/").split_once('/').unwrap();
    let wrong = format!(
        "{}{}",
        &token[..token.len() - 1],
        if token.ends_with('0') { '1' } else { '0' }
    );
    for path in [
        format!("/api/play/{game}/{wrong}"),
        format!("/api/play/{game}/{wrong}/events"),
        format!("/api/play/{game}/"),
        format!("/api/play/nosuchgame/{token}"),
    ] {
        let status = request(&studio.base, "GET", &path, &[], None).0;
        assert!(status == 403 || status == 404, "{path}: {status}");
        if path.ends_with(&wrong) || path.ends_with(&format!("{wrong}/events")) || path.contains("nosuchgame") {
            assert_eq!(status, 403, "{path}");
        }
    }
    let choose = request(
        &studio.base,
        "POST",
        &format!("/api/play/{game}/{wrong}/choose"),
        &[],
        Some(r#"{"turn":0,"index":0}"#),
    );
    assert_eq!(choose.0, 403);
    // The owner's API needs the studio's key.
    for (path, body) in [
        ("/api/files", None),
        ("/api/file?path=rps3.rules", None),
        ("/api/games", Some(r#"{"path":"rps3.rules"}"#)),
        ("/api/save", Some(r#"{"path":"x.rules","text":""}"#)),
    ] {
        let method = if body.is_some() { "POST" } else { "GET" };
        assert_eq!(request(&studio.base, method, path, &[], body).0, 403, "{path}");
        assert_eq!(
            request(&studio.base, method, path, &[("x-studio-key", "0123")], body).0,
            403,
            "{path} with a wrong key"
        );
    }
}

#[test]
fn a_seat_is_sent_its_own_view_and_never_the_seed() {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("janken_deck.rules", "human,human", &[]);
    let (_, ann) = request(
        &studio.base,
        "GET",
        &format!("/api{}", links[0].as_ref().unwrap()),
        &[],
        None,
    );
    let screen: serde_json::Value = serde_json::from_str(&ann).unwrap();
    assert_eq!(screen["seat"], "Ann");
    assert!(!ann.to_lowercase().contains("seed"), "{ann}");
    // Ben's five cards are dealt: Ann's log says so without naming them.
    let happened: Vec<&str> = screen["happened"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        happened
            .iter()
            .any(|l| l.contains("hidden piece") && l.contains("hand of Ben")),
        "{happened:?}"
    );
    assert!(happened.iter().all(|l| !l.contains("[of ")), "{happened:?}");
}

#[test]
fn listening_beyond_loopback_needs_listen() {
    let out = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args(["studio", "games", "--port", "0.0.0.0:0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--listen 0.0.0.0"), "{err}");
    assert!(out.stdout.is_empty());
    // With --listen it binds there, and says so on its first line.
    let data = common::studio::data_folder();
    let mut child = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args(["studio", "games", "--listen", "0.0.0.0", "--port", "0", "--data"])
        .arg(&data)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(child.stdout.take().unwrap()), &mut first).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&data);
    assert!(first.starts_with("http://0.0.0.0:"), "{first}");
}

#[test]
fn request_bodies_are_bounded() {
    let studio = Studio::start(&games_dir(), "random");
    let text = "#".repeat(2 * 1024 * 1024);
    let body = serde_json::json!({ "path": "rps.rules", "text": text });
    let (status, _) = studio.owner("POST", "/api/check", Some(&body));
    assert_eq!(status, 413);
}

#[test]
fn a_failing_game_ends_with_its_diagnostic_and_the_server_stays_up() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("studio-failing");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("games/prelude")).unwrap();
    std::fs::create_dir_all(root.join("tests/fixtures")).unwrap();
    std::fs::copy(
        games_dir().join("prelude/rps.rules"),
        root.join("games/prelude/rps.rules"),
    )
    .unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hook_fails_behind_option.rules");
    std::fs::copy(fixture, root.join("tests/fixtures/broken.rules")).unwrap();
    let studio = Studio::start(&root, "random");
    let links = studio.start_game("tests/fixtures/broken.rules", "human,random", &["scoring=doubled"]);
    let link = links[0].clone().unwrap();
    let mut screen: serde_json::Value = serde_json::Value::Null;
    // Throw until the first duel is won: the hook runs then, and fails.
    for _ in 0..50 {
        let (_, body) = request(&studio.base, "GET", &format!("/api{link}"), &[], None);
        screen = serde_json::from_str(&body).unwrap();
        if !screen["failure"].is_null() {
            break;
        }
        let turn = screen["turn"].as_u64().unwrap();
        let (status, body) = request(
            &studio.base,
            "POST",
            &format!("/api{link}/choose"),
            &[],
            Some(&format!(r#"{{"turn":{turn},"index":0}}"#)),
        );
        assert_eq!(status, 200, "{body}");
    }
    let failure = screen["failure"]
        .as_str()
        .expect("the game stopped on the hook's error");
    assert!(failure.contains("hook-failed"), "{failure}");
    assert!(failure.contains("double"), "{failure}");
    // The file is named from the studio's folder, never by the server's path.
    assert!(failure.contains("tests/fixtures/broken.rules"), "{failure}");
    assert!(!failure.contains(root.to_str().unwrap()), "{failure}");
    assert!(!failure.contains(env!("CARGO_TARGET_TMPDIR")), "{failure}");
    assert!(screen["prompt"].is_null());
    // The studio goes on: its files, and a new game.
    assert_eq!(studio.owner("GET", "/api/files", None).0, 200);
    let again = studio.start_game("tests/fixtures/broken.rules", "human,random", &[]);
    assert!(again[0].is_some());
}

#[test]
fn agents_read_and_write_files_only_inside_the_folder() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("studio-agent-files");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("prelude")).unwrap();
    std::fs::copy(games_dir().join("rps.rules"), root.join("rps.rules")).unwrap();
    std::fs::copy(games_dir().join("prelude/rps.rules"), root.join("prelude/rps.rules")).unwrap();
    let outside = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("studio-agent-files-outside.json");
    let _ = std::fs::remove_file(&outside);
    let studio = Studio::start(&root, "random");
    let refused = [
        "human,policy:/etc/passwd".to_string(),
        "human,policy:../rps.json".to_string(),
        format!("human,solve:iterations=10:save={}", outside.display()),
        "human,human-like:fallback=policy(file=/etc/hostname)".to_string(),
    ];
    for seats in &refused {
        let (status, body) = studio.owner(
            "POST",
            "/api/games",
            Some(&serde_json::json!({ "path": "rps.rules", "seats": seats })),
        );
        assert_ne!(status, 200, "{seats}: {body}");
        assert!(body.contains("studio's folder"), "{seats}: {body}");
    }
    assert!(!outside.exists(), "a strategy was saved outside the folder");
    // Inside the folder, saving works.
    let links = studio.start_game("rps.rules", "human,solve:time=1:save=kept.json", &[]);
    assert!(links[0].is_some());
    assert!(root.join("kept.json").is_file());
    // The player was trained within its second and the memory cap; the
    // studio answers after.
    assert_eq!(studio.owner("GET", "/api/files", None).0, 200);
}

#[test]
fn saving_writes_only_inside_the_folder() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("studio-save");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("mine")).unwrap();
    let studio = Studio::start(&root, "random");
    let save = |path: &str| {
        studio.owner(
            "POST",
            "/api/save",
            Some(&serde_json::json!({ "path": path, "text": "game \"X\"\n" })),
        )
    };
    assert_eq!(save("mine/new.rules").0, 200);
    assert_eq!(
        std::fs::read_to_string(root.join("mine/new.rules")).unwrap(),
        "game \"X\"\n"
    );
    for bad in [
        "../escaped.rules",
        "/tmp/escaped.rules",
        "mine/../../escaped.rules",
        "mine/notes.txt",
    ] {
        let (status, body) = save(bad);
        assert_eq!(status, 400, "{bad}: {body}");
    }
    assert!(!root.parent().unwrap().join("escaped.rules").exists());
}

#[test]
fn every_place_a_choice_points_at_is_marked_on_the_board() {
    let studio = Studio::start(&games_dir(), "random");
    for (rules, seats) in [("rps3.rules", "human,random"), ("janken_deck.rules", "human,random")] {
        let links = studio.start_game(rules, seats, &[]);
        let link = links[0].clone().unwrap();
        let (_, body) = request(&studio.base, "GET", &format!("/api{link}"), &[], None);
        let screen: serde_json::Value = serde_json::from_str(&body).unwrap();
        let svg = screen["svg"].as_str().unwrap();
        let marked: Vec<&str> = svg
            .split("data-target=\"")
            .skip(1)
            .flat_map(|rest| rest.split('"').next().unwrap().split(' '))
            .collect();
        let offers = screen["prompt"]["offers"].as_array().expect("seat 1 is asked first");
        let mut pointed = 0;
        for offer in offers {
            for target in offer["targets"].as_array().unwrap() {
                assert!(
                    marked.contains(&target.as_str().unwrap()),
                    "{rules}: {target} is not on the board"
                );
                pointed += 1;
            }
        }
        // Pawns from the reserve point at it; throws point nowhere.
        if rules == "rps3.rules" {
            assert!(pointed >= 3, "{rules}: {offers:?}");
            assert_eq!(
                marked.iter().filter(|t| t.starts_with("space-0-")).count(),
                2 * 28,
                "a circle and a group per space"
            );
        }
    }
}

#[test]
fn a_race_is_timed_by_the_server_and_a_claim_of_0_ms_wins_nothing() {
    let studio = Studio::start(&games_dir(), "random");
    let links: Vec<String> = studio
        .start_game("rock.rules", "human,human", &[])
        .into_iter()
        .map(Option::unwrap)
        .collect();
    // Both pages are sent the race's prompt; each answers after a wait,
    // the second one claiming it took no time at all.
    let waits = [350u64, 700];
    let mut turn = 0;
    for link in &links {
        let (_, body) = request(&studio.base, "GET", &format!("/api{link}"), &[], None);
        let screen: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(!screen["prompt"].is_null(), "{body}");
        turn = screen["turn"].as_u64().unwrap();
    }
    let started = std::time::Instant::now();
    for (link, wait) in links.iter().zip(waits) {
        std::thread::sleep(std::time::Duration::from_millis(wait).saturating_sub(started.elapsed()));
        let claimed = if wait == 700 { 0 } else { 340 };
        let (status, body) = request(
            &studio.base,
            "POST",
            &format!("/api{link}/choose"),
            &[],
            Some(&format!(r#"{{"turn":{turn},"index":0,"reaction_ms":{claimed}}}"#)),
        );
        assert_eq!(status, 200, "{body}");
    }
    let id = links[0].split('/').nth(2).unwrap();
    let (status, text) = studio.owner("GET", &format!("/api/games/{id}/transcript"), None);
    assert_eq!(status, 200, "{text}");
    let saved: serde_json::Value = serde_json::from_str(&text).unwrap();
    let times: Vec<u64> = saved["replay"]["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .take(2)
        .map(|d| {
            let d = d.as_str().unwrap();
            let ms = d
                .rsplit_once(" @ ")
                .map(|(_, t)| t.trim_end_matches("ms"))
                .unwrap_or("0");
            ms.parse().unwrap()
        })
        .collect();
    // The first page's honest 340 ms stands (it lies within the allowance
    // below the server's ~350 ms); the second page's 0 ms does not: it is
    // timed as at least 700 - 150 ms, so it is still the slower one.
    assert!((200..=700).contains(&times[0]), "{times:?}");
    assert!(times[1] >= 700 - 150, "{times:?}");
    assert!(times[1] > times[0], "{times:?}");
}

/// An agent cannot hold its game, or the server, past `--think`: a search
/// asked to think for an hour a decision answers after the limit, with what
/// it has; a player asked to train for ten minutes sits down within it.
/// Meanwhile the studio answers other requests.
#[test]
fn an_agent_thinks_no_longer_than_the_studio_allows() {
    let data = common::studio::data_folder();
    let studio = Studio::start_with_args(&games_dir(), "random", &data, &["--think", "1"]);
    let began = std::time::Instant::now();
    let links = studio.start_game("rps_poker.rules", "human,solve:time=600", &[]);
    assert!(
        began.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        began.elapsed()
    );
    assert!(links[0].is_some());

    let link = studio.start_game("rps.rules", "human,mcts:time_ms=3600000", &[])[0]
        .clone()
        .unwrap();
    let (status, body) = request(
        &studio.base,
        "POST",
        &format!("/api{link}/choose"),
        &[],
        Some(r#"{"turn":0,"index":0}"#),
    );
    assert_eq!(status, 200, "{body}");
    // The studio still answers while the agent thinks.
    assert_eq!(studio.owner("GET", "/api/files", None).0, 200);
    let mut waited = 0;
    loop {
        let (_, body) = request(&studio.base, "GET", &format!("/api{link}"), &[], None);
        let screen: serde_json::Value = serde_json::from_str(&body).unwrap();
        if screen["turn"].as_u64() >= Some(1) || !screen["outcome"].is_null() {
            break;
        }
        waited += 1;
        assert!(waited < 300, "the agent never answered: {body}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        began.elapsed() < std::time::Duration::from_secs(60),
        "{:?}",
        began.elapsed()
    );
}
