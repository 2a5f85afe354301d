//! The studio keeps every game: a real studio process is killed
//! (`SIGKILL`) at random moments while people play, many times, and
//! restarted on the same data folder. No acknowledged move is lost, the
//! links and the key still work, the pages' event streams pick up where
//! they were, and each game ends with the very transcript of a twin game
//! (same seed, same moves) that was never interrupted.

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::studio::{Studio, first_event, games_dir, get_json, request, try_request};
use serde_json::Value;

/// The games played: every kind of chance and seating the studio keeps.
/// (rules, seats, settings, seed)
const GAMES: &[(&str, &str, &[&str], u64)] = &[
    // Shuffles, two people at once.
    ("janken_deck.rules", "human,human", &[], 11),
    // Shuffles and bets, against an agent that draws from its own stream.
    ("rps_poker.rules", "human,random", &["starting_chips=30"], 12),
    // Rolls of dice, against an agent.
    ("classic/liars_dice.rules", "human,random", &["dice=2"], 13),
    // Simultaneous throws by two people.
    ("rps.rules", "human,human", &["best_of=9"], 14),
];

/// More moves than the games take: a bound, should one never end.
const MOST_MOVES: usize = 4000;

/// A game started in a studio: its id and its people's links.
#[derive(Clone, Debug)]
struct Started {
    id: String,
    links: Vec<String>,
}

fn start_all(studio: &Studio) -> Vec<Started> {
    GAMES
        .iter()
        .map(|(rules, seats, settings, seed)| {
            let (status, body) = studio.owner(
                "POST",
                "/api/games",
                Some(&serde_json::json!({ "path": rules, "seats": seats, "settings": settings, "seed": seed })),
            );
            assert_eq!(status, 200, "{body}");
            let body: Value = serde_json::from_str(&body).unwrap();
            Started {
                id: body["id"].as_str().unwrap().to_string(),
                links: body["seats"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|s| s["link"].as_str().map(str::to_string))
                    .collect(),
            }
        })
        .collect()
}

/// A move the studio acknowledged: the seat's link and the step it answered.
#[derive(Clone, Debug)]
struct Ack {
    link: String,
    turn: u64,
}

/// The people's moves: each seat asked answers with an offer chosen from
/// the step and the seat alone, so a twin game gets the same moves. Stops
/// after `most` moves, when every game is over, or when the studio is
/// gone (killed); acknowledged moves are noted in `acks`.
fn drive(base: &str, games: &[Started], most: usize, pause: Duration, acks: &Mutex<Vec<Ack>>) {
    let mut made = 0;
    while made < most {
        let mut any = false;
        for game in games {
            for (seat, link) in game.links.iter().enumerate() {
                let Some((200, screen)) = try_request(base, "GET", &format!("/api{link}"), None) else {
                    return;
                };
                let screen: Value = serde_json::from_str(&screen).unwrap();
                let Some(offers) = screen["prompt"]["offers"].as_array() else {
                    continue;
                };
                let turn = screen["turn"].as_u64().unwrap();
                let index = (turn as usize * 7 + seat) % offers.len();
                let body = format!(r#"{{"turn":{turn},"index":{index}}}"#);
                match try_request(base, "POST", &format!("/api{link}/choose"), Some(&body)) {
                    Some((200, _)) => acks.lock().unwrap().push(Ack {
                        link: link.clone(),
                        turn,
                    }),
                    Some((409, _)) => {}
                    Some((status, answer)) => panic!("{status} {answer}"),
                    None => return,
                }
                any = true;
                made += 1;
                std::thread::sleep(pause);
            }
        }
        if !any {
            return;
        }
    }
}

/// Every game's whole transcript, as the key holder saves it.
fn transcripts(studio: &Studio, games: &[Started]) -> Vec<String> {
    games
        .iter()
        .map(|g| {
            let (status, body) = studio.owner("GET", &format!("/api/games/{}/transcript", g.id), None);
            assert_eq!(status, 200, "{body}");
            body
        })
        .collect()
}

fn screen(studio: &Studio, link: &str) -> Value {
    let (status, screen) = get_json(studio, &format!("/api{link}"));
    assert_eq!(status, 200, "{link} no longer works: {screen}");
    screen
}

/// A small, fixed random stream for the kill times.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn killed_at_random_moments_the_studio_loses_no_accepted_move() {
    // The twin: the same games, seeds and moves, never interrupted.
    let twin = Studio::start(&games_dir(), "random");
    let twin_games = start_all(&twin);
    drive(&twin.base, &twin_games, MOST_MOVES, Duration::ZERO, &Mutex::new(vec![]));
    for g in &twin_games {
        assert!(
            !screen(&twin, &g.links[0])["over"].is_null(),
            "the twin game {} ended",
            g.id
        );
    }

    let mut studio = Studio::start(&games_dir(), "random");
    let key = studio.key.clone();
    let games = start_all(&studio);
    let mut random = 0x9E37_79B9_7F4A_7C15u64;
    let mut kills = 0;
    for _ in 0..12 {
        let acks = Arc::new(Mutex::new(vec![]));
        let driver = {
            let (base, games, acks) = (studio.base.clone(), games.clone(), Arc::clone(&acks));
            std::thread::spawn(move || drive(&base, &games, MOST_MOVES, Duration::from_millis(3), &acks))
        };
        std::thread::sleep(Duration::from_millis(10 + next(&mut random) % 150));
        let over = driver.is_finished();
        // SIGKILL, mid-request or between requests: nothing is flushed.
        let killed = std::process::Command::new("kill")
            .args(["-9", &studio.pid().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        driver.join().unwrap();
        kills += 1;
        studio.kill_and_restart();
        assert_eq!(studio.key, key, "the studio's key changed over a restart");
        // Every acknowledged move stands: its step was taken, or its seat
        // is not asked again.
        for ack in acks.lock().unwrap().iter() {
            let now = screen(&studio, &ack.link);
            let turn = now["turn"].as_u64().unwrap();
            assert!(
                turn > ack.turn || (turn == ack.turn && now["prompt"].is_null()),
                "a move acknowledged at step {} is lost: the game stands at {turn}, asking {}",
                ack.turn,
                now["prompt"]
            );
        }
        if over {
            break;
        }
    }
    assert!(kills >= 3, "only {kills} kills before the games ended");
    // The key still starts games and lists files.
    assert_eq!(studio.owner("GET", "/api/files", None).0, 200);

    // A page's event stream picks up where it was.
    let link = &games[0].links[0];
    let events = format!("/api{link}/events");
    let (seen, _) = first_event(&studio.base, &events, None, Duration::from_secs(10)).expect("a first screen");
    studio.kill_and_restart();
    assert_eq!(
        first_event(&studio.base, &events, Some(&seen), Duration::from_millis(700)),
        None,
        "a page that has the latest screen is sent it again"
    );
    let older = (seen.parse::<u64>().unwrap() - 1).to_string();
    let (again, _) =
        first_event(&studio.base, &events, Some(&older), Duration::from_secs(10)).expect("the missed screen");
    assert_eq!(again, seen);

    // Played to the end, each game is its twin.
    drive(&studio.base, &games, MOST_MOVES, Duration::ZERO, &Mutex::new(vec![]));
    let played = transcripts(&studio, &games);
    let expected = transcripts(&twin, &twin_games);
    for ((rules, ..), (played, expected)) in GAMES.iter().zip(played.iter().zip(&expected)) {
        assert_eq!(played, expected, "{rules}: the interrupted game differs from its twin");
    }
}

/// A scratch folder of rules for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpsdsl-restart-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_game_owns_the_rules_it_began_with() {
    let root = scratch("owned");
    let rules = root.join("mine.rules");
    std::fs::copy(games_dir().join("rps.rules"), &rules).unwrap();
    // It reads a second file: a game owns every file it read.
    std::fs::create_dir_all(root.join("prelude")).unwrap();
    let prelude = root.join("prelude/rps.rules");
    std::fs::copy(games_dir().join("prelude/rps.rules"), &prelude).unwrap();
    let mut studio = Studio::start(&root, "random");
    let links: Vec<String> = studio
        .start_game("mine.rules", "human,human", &["best_of=3"])
        .into_iter()
        .map(Option::unwrap)
        .collect();
    assert_eq!(screen(&studio, &links[0])["rules_edited"], false);

    // Edited through the studio's editor: the page says so at once.
    let broken = serde_json::json!({ "path": "mine.rules", "text": "game \"broken\" {" });
    assert_eq!(studio.owner("POST", "/api/save", Some(&broken)).0, 200);
    let now = screen(&studio, &links[0]);
    assert_eq!(now["rules_edited"], true);
    assert!(
        now["prompt"]["offers"].as_array().is_some_and(|o| o.len() == 3),
        "{now}"
    );

    // Deleted, both files, then the studio restarts: the game goes on
    // with its own rules.
    std::fs::remove_file(&rules).unwrap();
    std::fs::remove_file(&prelude).unwrap();
    studio.kill_and_restart();
    let now = screen(&studio, &links[0]);
    assert_eq!(now["rules_edited"], true);
    for link in &links {
        let body = r#"{"turn":0,"index":0}"#;
        let (status, answer) = request(&studio.base, "POST", &format!("/api{link}/choose"), &[], Some(body));
        assert_eq!(status, 200, "{answer}");
    }
    assert_eq!(screen(&studio, &links[0])["turn"], 1);
    let _ = std::fs::remove_dir_all(&root);
}

/// A data folder that cannot be used stops the studio with what to do.
#[test]
fn a_data_folder_that_cannot_be_used_is_refused() {
    let root = scratch("refused");
    let file = root.join("not-a-folder");
    std::fs::write(&file, "x").unwrap();
    let run = |data: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
            .args(["studio", &games_dir().display().to_string(), "--port", "0", "--data"])
            .arg(data)
            .output()
            .unwrap()
    };
    let refused = run(&file.join("data"));
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("cannot make the data folder"), "{said}");

    // A second studio on a folder in use is refused; the first goes on.
    let first = Studio::start(&games_dir(), "random");
    let second = run(&first.data);
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("in use by another studio"), "{said}");
    assert_eq!(first.owner("GET", "/api/files", None).0, 200);
    let _ = std::fs::remove_dir_all(&root);
}

/// A restart opens its port before it plays its kept games again (591
/// games once meant half a minute of refused connections): they come back
/// in the background, and a link to one not back yet brings it back at
/// once. Each game here has an agent that trains for a second whenever
/// the game is played again, so the restart is slow to finish.
#[test]
fn a_restart_serves_at_once_and_brings_a_game_back_when_it_is_asked_for() {
    let mut studio = Studio::start(&games_dir(), "random");
    // Other options each: the trained agents are not shared between games.
    let links: Vec<String> = (0..4)
        .map(|i| {
            let chips = format!("starting_chips={}", 30 + i);
            studio.start_game("rps_poker.rules", "human,solve:time=1", &[&chips])[0]
                .clone()
                .unwrap()
        })
        .collect();
    studio.kill_and_restart();
    let lobby = |studio: &Studio| {
        let (status, body) = studio.owner("GET", "/api/lobby", None);
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<Value>(&body).unwrap()
    };
    let lobby_now = lobby(&studio);
    let coming = lobby_now["coming_back"].as_u64().unwrap();
    assert!(coming >= 2, "the games came back before the port opened: {lobby_now}");
    assert_eq!(
        lobby_now["games"].as_array().unwrap().len() as u64 + coming,
        4,
        "{lobby_now}"
    );
    // The oldest game comes back last in the background; asked for, it
    // comes back now.
    let now = screen(&studio, &links[0]);
    assert!(
        now["prompt"]["offers"].as_array().is_some_and(|o| !o.is_empty()),
        "{now}"
    );
    let mut waited = 0;
    loop {
        let now = lobby(&studio);
        if now["coming_back"] == 0 {
            assert_eq!(now["games"].as_array().unwrap().len(), 4, "{now}");
            break;
        }
        waited += 1;
        assert!(waited < 600, "the kept games never all came back: {now}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Starts a studio on `data` and stops it once it serves; what it printed
/// on stderr before its link (its warnings).
fn studio_telling(data: &Path) -> String {
    use std::io::{BufRead as _, BufReader, Read as _};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args(["studio", &games_dir().display().to_string(), "--port", "0", "--data"])
        .arg(data)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut link = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut link)
        .unwrap();
    assert!(link.contains("/?key="), "{link}");
    let _ = child.kill();
    let _ = child.wait();
    let mut said = String::new();
    child.stderr.take().unwrap().read_to_string(&mut said).unwrap();
    said
}

/// Flips one bit in frame `frame` of the write-ahead log (counted from 0,
/// or from the end when negative), as a damaged disk would.
fn flip_wal_bit(data: &Path, frame: i64) {
    let wal = data.join("studio.db-wal");
    let mut bytes = std::fs::read(&wal).expect("the killed studio left its log");
    let page = u32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize;
    let frames = (bytes.len() - 32) / (24 + page);
    assert!(frames > 1, "{frames} frames");
    let at = if frame < 0 { frames as i64 + frame } else { frame } as usize;
    bytes[32 + at * (24 + page) + 24 + page / 2] ^= 0x10;
    std::fs::write(&wal, bytes).unwrap();
}

/// One flipped bit in the log after a kill makes SQLite drop the frames
/// from it on, silently: the last acknowledged move, or (in the first
/// frame) the whole game and the key. The journal of acknowledgements
/// notices: the studio says exactly what was lost, never "loses none",
/// and a lost key is put back, so the links still work.
#[test]
fn a_damaged_log_is_noticed_and_what_it_lost_is_said() {
    for (frame, lost) in [(-1, "lost its last acknowledged changes"), (0, "is lost")] {
        let mut studio = Studio::start(&games_dir(), "random");
        let links: Vec<String> = studio
            .start_game("rps.rules", "human,human", &["best_of=9"])
            .into_iter()
            .map(Option::unwrap)
            .collect();
        for turn in 0..3 {
            for link in &links {
                let body = format!(r#"{{"turn":{turn},"index":0}}"#);
                let (status, answer) = request(&studio.base, "POST", &format!("/api{link}/choose"), &[], Some(&body));
                assert_eq!(status, 200, "{answer}");
            }
        }
        let key = studio.key.clone();
        let data = studio.data.clone();
        // Killed, the log left as it was; then damaged.
        studio.child_kill();
        flip_wal_bit(&data, frame);
        let said = studio_telling(&data);
        assert!(said.contains(lost), "frame {frame}: {said}");
        if frame == 0 {
            assert!(said.contains("lost the studio's key"), "{said}");
        }
        // Told once: the journal now matches the database.
        let again = studio_telling(&data);
        assert!(!again.contains("warning"), "{again}");
        // The key survived either way.
        studio.kill_and_restart();
        assert_eq!(studio.key, key);
    }
}
