//! A load test of the studio: 200 games at once through its HTTP API, each
//! person's seat answered at random by a client, against random agents,
//! with every move kept in the studio's database before it is answered.
//! Midway the studio is stopped at once (its runtime dropped, nothing
//! flushed) and opened again on the same data folder: every game must go
//! on. It stops by itself (a time bound), fails if any game is lost, and
//! prints the p50 and p99 latency of a move (a choice sent until its
//! answer) and how long the restart took.
//!
//! ```sh
//! cargo run --release --example studio_load [GAMES] [RULES] [SETTING...]
//! ```
//! By default 200 games of `games/rps.rules` with `best_of=15`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The whole run stops here, finished or not.
const TIME_BOUND: Duration = Duration::from_secs(120);

/// The studio restarts once this many moves were answered.
const RESTART_AFTER_MOVES: usize = 1500;

/// A studio serving on its own thread and runtime, as a process would.
struct Server {
    stop: tokio::sync::oneshot::Sender<()>,
    thread: std::thread::JoinHandle<()>,
}

/// Opens the studio on `data` (waiting for the previous one to let go of
/// it) and serves it on `addr`; its key, how many kept games it brings back, and
/// how long opening took.
fn start(addr: SocketAddr, data: &Path) -> (Server, String, usize, Duration) {
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let data = data.to_path_buf();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let began = Instant::now();
        let opened = loop {
            let config = rpsdsl::studio::Config {
                root: Path::new(env!("CARGO_MANIFEST_DIR")).join("games"),
                agents: Some("random".into()),
                think: Duration::from_secs(30),
                engine: rpsdsl::engine::Engine::default(),
                data: data.clone(),
            };
            match rpsdsl::studio::open(config) {
                Ok(opened) => break opened,
                // The stopped studio's last requests still hold the database.
                Err(why) if why.contains("in use") && began.elapsed() < Duration::from_secs(30) => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(why) => panic!("the studio does not open: {why}"),
            }
        };
        let _ = ready_tx.send((opened.key().to_string(), opened.kept(), began.elapsed()));
        runtime.block_on(async move {
            let listener = loop {
                match tokio::net::TcpListener::bind(addr).await {
                    Ok(l) => break l,
                    Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
                }
            };
            tokio::select! {
                served = rpsdsl::studio::serve(listener, opened) => served.unwrap(),
                _ = stopped => {}
            }
        });
        // Every task is dropped where it stands, as in a crash.
        runtime.shutdown_background();
    });
    let (key, resumed, took) = ready_rx.recv().expect("the studio opens");
    (Server { stop, thread }, key, resumed, took)
}

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
    let data: PathBuf = std::env::temp_dir().join(format!("rpsdsl-studio-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let addr: SocketAddr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let (server, key, _, _) = start(addr, &data);
    let addr = addr.to_string();
    let started = Instant::now();
    let answered = Arc::new(AtomicUsize::new(0));
    let mut tasks = vec![];
    let settings = Arc::new(settings);
    for g in 0..games {
        let (addr, key, rules, settings, answered) = (
            addr.clone(),
            key.clone(),
            rules.clone(),
            Arc::clone(&settings),
            Arc::clone(&answered),
        );
        tasks.push(tokio::spawn(async move {
            play(&addr, &key, &rules, &settings, g as u64, &answered).await
        }));
    }
    // Midway, the studio stops at once and opens again on the same folder.
    while answered.load(Ordering::Relaxed) < RESTART_AFTER_MOVES && started.elapsed() < TIME_BOUND / 2 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let moves_before = answered.load(Ordering::Relaxed);
    let _ = server.stop.send(());
    let _ = server.thread.join();
    let (server, _, resumed, reopened) = tokio::task::spawn_blocking({
        let data = data.clone();
        let addr: SocketAddr = addr.parse().unwrap();
        move || start(addr, &data)
    })
    .await
    .unwrap();
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
    let _ = server.stop.send(());
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
    println!(
        "restarted after {moves_before} moves: serving again in {:.0} ms, with {resumed} kept games coming back in the background",
        reopened.as_secs_f64() * 1000.0
    );
    let _ = std::fs::remove_dir_all(&data);
    if lost > 0 {
        std::process::exit(1);
    }
}

/// A request, tried again while the studio is down (restarting); an
/// answer lost to the restart is asked again.
async fn patient(
    addr: &str,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<String>,
) -> Result<(u16, String), String> {
    let began = Instant::now();
    loop {
        match http(addr, method, path, key, body.clone()).await {
            // 503: the studio was stopping, and changed nothing.
            Ok((503, _)) if began.elapsed() < Duration::from_secs(60) => {
                tokio::time::sleep(Duration::from_millis(25)).await
            }
            Ok(answer) => return Ok(answer),
            Err(_) if began.elapsed() < Duration::from_secs(60) => tokio::time::sleep(Duration::from_millis(25)).await,
            Err(why) => return Err(format!("the studio did not come back: {why}")),
        }
    }
}

/// One game to its end: seat 1 a client choosing at random, seat 2 the
/// studio's random agent. The latency of every move answered.
async fn play(
    addr: &str,
    key: &str,
    rules: &str,
    settings: &[String],
    seed: u64,
    answered: &AtomicUsize,
) -> Result<Vec<Duration>, String> {
    let new = serde_json::json!({ "path": rules, "seats": "human,random", "settings": settings });
    let (status, body) = patient(addr, "POST", "/api/games", Some(key), Some(new.to_string())).await?;
    if status != 200 {
        return Err(format!("starting: {status} {body}"));
    }
    let body: serde_json::Value = serde_json::from_str(&body).map_err(|e| e.to_string())?;
    let link = body["seats"][0]["link"].as_str().ok_or("no seat link")?.to_string();
    let api = format!("/api{link}");
    let (_, body) = patient(addr, "GET", &api, None, None).await?;
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
        match http(addr, "POST", &format!("{api}/choose"), None, Some(choice.to_string())).await {
            Ok((200, body)) => {
                moves.push(sent.elapsed());
                answered.fetch_add(1, Ordering::Relaxed);
                screen = serde_json::from_str(&body).map_err(|e| e.to_string())?;
            }
            // Kept before the restart, but its answer was lost: the screen says where the game stands.
            Ok((409 | 503, _)) | Err(_) => {
                let (status, body) = patient(addr, "GET", &api, None, None).await?;
                if status != 200 {
                    return Err(format!("after the restart the seat's link answers {status}: {body}"));
                }
                screen = serde_json::from_str(&body).map_err(|e| e.to_string())?;
            }
            Ok((status, body)) => return Err(format!("choosing: {status} {body}")),
        }
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
