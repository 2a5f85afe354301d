//! A load test of the studio: 200 games at once through its HTTP API, each
//! person's seat answered at random by a client, against random agents.
//! It stops by itself (a time bound), fails if any game is lost, and prints
//! the p50 and p99 latency of a move (a choice sent until its answer).
//!
//! ```sh
//! cargo run --release --example studio_load [GAMES] [RULES] [SETTING...]
//! ```
//! By default 200 games of `games/rps.rules` with `best_of=15`.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The whole run stops here, finished or not.
const TIME_BOUND: Duration = Duration::from_secs(120);

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let rules = args.get(1).cloned().unwrap_or_else(|| "rps.rules".into());
    let settings: Vec<String> = if args.len() > 2 {
        args[2..].to_vec()
    } else {
        vec!["best_of=15".into()]
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let data = std::env::temp_dir().join(format!("rpsdsl-studio-load-{}", std::process::id()));
    let config = rpsdsl::studio::Config {
        root: Path::new(env!("CARGO_MANIFEST_DIR")).join("games"),
        agents: "random".into(),
        engine: rpsdsl::engine::Engine::default(),
        data: data.clone(),
    };
    let opened = rpsdsl::studio::open(config).expect("the studio opens");
    let key = opened.key().to_string();
    tokio::spawn(rpsdsl::studio::serve(listener, opened));
    let started = Instant::now();
    let mut tasks = vec![];
    let settings = Arc::new(settings);
    for g in 0..games {
        let (addr, key, rules, settings) = (addr.clone(), key.clone(), rules.clone(), Arc::clone(&settings));
        tasks.push(tokio::spawn(async move {
            play(&addr, &key, &rules, &settings, g as u64).await
        }));
    }
    let mut latencies = vec![];
    let (mut finished, mut lost) = (0, 0);
    for task in tasks {
        match tokio::time::timeout(TIME_BOUND.saturating_sub(started.elapsed()), task).await {
            Ok(Ok(Ok(moves))) => {
                finished += 1;
                latencies.extend(moves);
            }
            Ok(Ok(Err(why))) => {
                lost += 1;
                eprintln!("lost a game: {why}");
            }
            _ => lost += 1,
        }
    }
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    let ms = |d: Option<Duration>| d.map_or("-".to_string(), |d| format!("{:.1} ms", d.as_secs_f64() * 1000.0));
    println!(
        "{games} games of {rules} at once: {finished} finished, {lost} lost, {} moves in {:.1}s; move latency p50 {}, p99 {}",
        latencies.len(),
        started.elapsed().as_secs_f64(),
        ms(at(0.5)),
        ms(at(0.99)),
    );
    if lost > 0 {
        std::process::exit(1);
    }
}

/// One game to its end: seat 1 a client choosing at random, seat 2 the
/// studio's random agent. The latency of every move.
async fn play(addr: &str, key: &str, rules: &str, settings: &[String], seed: u64) -> Result<Vec<Duration>, String> {
    let new = serde_json::json!({ "path": rules, "seats": "human,random", "settings": settings });
    let (status, body) = http(addr, "POST", "/api/games", Some(key), Some(new.to_string())).await?;
    if status != 200 {
        return Err(format!("starting: {status} {body}"));
    }
    let body: serde_json::Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    let link = body["seats"][0]["link"].as_str().ok_or("no seat link")?.to_string();
    let api = format!("/api{link}");
    let (_, body) = http(addr, "GET", &api, None, None).await?;
    let mut screen: serde_json::Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    let mut moves = vec![];
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    while screen["over"].is_null() {
        if !screen["failure"].is_null() {
            return Err(format!("the game failed: {}", screen["failure"]));
        }
        let offers = screen["prompt"]["offers"].as_array().map_or(0, Vec::len);
        if offers == 0 {
            return Err("not asked, and the game is not over".into());
        }
        // xorshift: a different path per game, the same on every run.
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let choice = serde_json::json!({ "turn": screen["turn"], "index": rng as usize % offers });
        let sent = Instant::now();
        let (status, body) = http(addr, "POST", &format!("{api}/choose"), None, Some(choice.to_string())).await?;
        moves.push(sent.elapsed());
        if status != 200 {
            return Err(format!("choosing: {status} {body}"));
        }
        screen = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    }
    Ok(moves)
}

/// One HTTP/1.1 request; the status and the body.
async fn http(
    addr: &str,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<String>,
) -> Result<(u16, String), String> {
    let mut stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let body = body.unwrap_or_default();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(key) = key {
        head.push_str(&format!("x-studio-key: {key}\r\n"));
    }
    if method == "POST" {
        head.push_str(&format!(
            "content-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    head.push_str(&body);
    stream.write_all(head.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.map_err(|e| e.to_string())?;
    let raw = String::from_utf8_lossy(&raw);
    let status = raw.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or("no status")?;
    Ok((status, raw.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string()))
}
