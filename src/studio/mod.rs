//! The studio: a local web server (axum on tokio) where a designer edits
//! rules with live diagnostics, and people play games in the browser, each
//! on their own screen.
//!
//! This room is an I/O shell, as `cli` is: sessions, seats, tokens and
//! routes. Games are played through [`session`](crate::session) and the
//! engine; a seat's connection is only ever sent what [`table::Table::screen`]
//! builds from the engine's view for that seat and the presentation model of
//! that seat ([`present`](crate::present)).
//!
//! Two kinds of secret guard it:
//! - the studio's key, in the URL it prints, for the editor, the files and
//!   starting games (`x-studio-key` header). It comes from the operating
//!   system's random source, once, and is kept in the data folder;
//! - one token per person's seat, in that seat's URL: an HMAC of the game
//!   and seat under the key, so the key holder's lobby can show it again,
//!   while the database keeps only its SHA-256. A request without the
//!   right one is answered 403, the same whether the game exists or not.
//!
//! Every game is kept in the data folder ([`store`]): a move is committed
//! before it is answered, and a restarted studio plays every kept game
//! again to where it stood.

mod compare;
mod compare_routes;
mod files;
mod keep;
mod lobby;
mod routes;
mod store;
mod table;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use routes::router;

/// How large a request body may be: a rules file being edited, at most.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// How many games the studio holds at once; the oldest finished ones make
/// room for new ones.
const MAX_GAMES: usize = 4096;

/// What the studio serves.
pub struct Config {
    /// The folder whose rules are edited and played; nothing outside it is read or written.
    pub root: PathBuf,
    /// The agents for seats no person takes, as `--agents` spells them;
    /// `None`: each game's own opponent ([`crate::agents::default_opponent`]).
    pub agents: Option<String>,
    /// The back end that plays the studio's games.
    pub engine: crate::engine::Engine,
    /// The folder the studio keeps its games and key in.
    pub data: PathBuf,
}

/// The server's state, shared by every request.
pub(crate) struct Studio {
    config: Config,
    /// The studio's key (see the module documentation).
    key: String,
    store: store::Store,
    games: Mutex<HashMap<String, Arc<Live>>>,
    /// The order games were started in, to know which are oldest.
    started: Mutex<Vec<String>>,
    /// Comparisons run from the page, oldest first (at most [`MAX_JOBS`]).
    jobs: Mutex<Vec<(String, Arc<compare::Job>)>>,
}

/// How many comparisons the studio remembers; a new one stops and drops the oldest.
const MAX_JOBS: usize = 8;

/// One game, the channel that tells its seats' pages it changed, and the
/// rules files it began with.
pub(crate) struct Live {
    table: Mutex<table::Table>,
    changed: watch::Sender<u64>,
    rules: keep::OwnedRules,
    /// Per seat, how many of its pages are connected now (their event
    /// streams); then the spectators' pages.
    present: Vec<std::sync::atomic::AtomicUsize>,
    /// Unix seconds of the last move.
    updated: std::sync::atomic::AtomicI64,
}

impl Live {
    /// Notes a move made now.
    fn touch(&self) {
        self.updated.store(now(), std::sync::atomic::Ordering::Relaxed);
    }
}

/// A new secret: 128 bits from the operating system, in hex.
pub fn token() -> Result<String, String> {
    use rand::TryRng as _;
    let mut bytes = [0u8; 16];
    rand::rngs::SysRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| format!("cannot draw a secret from the operating system: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A seed from the operating system: nobody at the table can guess it.
fn seed() -> Result<u64, String> {
    use rand::TryRng as _;
    rand::rngs::SysRng
        .try_next_u64()
        .map_err(|e| format!("cannot draw a seed from the operating system: {e}"))
}

/// Whether the studio may listen on `addr` without `--listen`: only on
/// this machine's loopback.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// A studio opened on its data folder, its kept games playing again,
/// ready to serve.
pub struct Opened {
    studio: Arc<Studio>,
    /// Kept games that could not be played again, and why; they stay in
    /// the database, untouched.
    pub unresumed: Vec<String>,
}

impl Opened {
    /// The studio's key: the same after every restart.
    pub fn key(&self) -> &str {
        &self.studio.key
    }

    /// How many games were played again from the data folder.
    pub fn resumed(&self) -> usize {
        self.studio.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// Opens the studio: its data folder (made if need be), its key (drawn
/// once, then kept), and every game kept there, played again to where it
/// stood. Refuses a data folder it cannot use, with what to do.
pub fn open(mut config: Config) -> Result<Opened, String> {
    config.root = config
        .root
        .canonicalize()
        .map_err(|e| format!("cannot open the folder {}: {e}", config.root.display()))?;
    // No request may make an agent read or write a file outside the folder
    // (`policy:/etc/passwd`, `solve:save=/elsewhere`).
    crate::agents::spec::confine_files(&config.root);
    let store = store::Store::open(&config.data)?;
    let key = match store.key()? {
        Some(key) => key,
        None => {
            let key = token()?;
            store.set_key(&key)?;
            key
        }
    };
    let studio = Arc::new(Studio {
        config,
        key,
        store,
        games: Mutex::new(HashMap::new()),
        started: Mutex::new(vec![]),
        jobs: Mutex::new(vec![]),
    });
    let unresumed = keep::resume_all(&studio)?;
    Ok(Opened { studio, unresumed })
}

/// Serves an opened studio on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, opened: Opened) -> std::io::Result<()> {
    axum::serve(listener, router(opened.studio)).await
}

/// Unix seconds now.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl Studio {
    /// The token of `seat` in `game`: an HMAC under the studio's key, so
    /// that it can be shown again to the key holder and needs no keeping.
    fn seat_token(&self, game: &str, seat: usize) -> String {
        keep::derived(&self.key, &format!("seat\u{0}{game}\u{0}{seat}"))
    }

    /// Keeps a new game, making room by dropping the oldest finished one.
    fn keep(&self, id: String, live: Arc<Live>) -> Result<(), String> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let mut started = self.started.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= MAX_GAMES {
            let done = started.iter().position(|g| {
                games
                    .get(g)
                    .is_none_or(|l| l.table.lock().unwrap_or_else(|e| e.into_inner()).is_done())
            });
            match done {
                Some(i) => {
                    let old = started.remove(i);
                    games.remove(&old);
                }
                None => {
                    return Err(format!(
                        "the studio holds {MAX_GAMES} unfinished games; finish some first"
                    ));
                }
            }
        }
        started.push(id.clone());
        games.insert(id, live);
        Ok(())
    }

    /// Keeps a new comparison, dropping (and stopping) the oldest beyond [`MAX_JOBS`].
    fn keep_job(&self, id: String, job: Arc<compare::Job>) {
        let mut jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if jobs.len() >= MAX_JOBS {
            let (_, old) = jobs.remove(0);
            old.stop();
        }
        jobs.push((id, job));
    }

    fn job(&self, id: &str) -> Option<Arc<compare::Job>> {
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        jobs.iter()
            .find(|(j, _)| table::same(j.as_bytes(), id.as_bytes()))
            .map(|(_, job)| Arc::clone(job))
    }

    /// Every game held live, with its id.
    fn live_games(&self) -> Vec<(String, Arc<Live>)> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.iter().map(|(id, live)| (id.clone(), Arc::clone(live))).collect()
    }

    /// Lets go of a game (deleted from the database already).
    fn forget(&self, id: &str) {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
        self.started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|g| g != id);
    }

    /// Every game held live.
    fn lives(&self) -> Vec<Arc<Live>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect()
    }

    fn game(&self, id: &str) -> Option<Arc<Live>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }
}
