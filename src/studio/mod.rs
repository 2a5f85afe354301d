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
//! again to where it stood. It opens its port first: kept games come back
//! in the background, unfinished ones first, and a game asked for before
//! its turn comes back at once.

mod access;
mod acks;
mod compare;
mod compare_routes;
mod config;
mod files;
mod games;
mod host;
mod keep;
mod lobby;
mod reply;
mod routes;
mod state;
mod store;
mod study;
mod study_routes;
mod table;

pub use config::{BODY_LIMIT, Config};

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use host::{THINK, token};
use routes::router;
use state::{Live, MAX_GAMES, MAX_JOBS, Studio};

/// Whether the studio may listen on `addr` without `--listen`: only on
/// this machine's loopback.
pub fn is_loopback(addr: &SocketAddr) -> bool {
    addr.ip().is_loopback()
}

/// A studio opened on its data folder, ready to serve; its kept games
/// come back once it serves.
pub struct Opened {
    studio: Arc<Studio>,
}

impl Opened {
    /// The studio's key: the same after every restart.
    pub fn key(&self) -> &str {
        &self.studio.key
    }

    /// What was acknowledged before the studio stopped and the database no
    /// longer holds (its log was damaged), in words; usually nothing.
    pub fn losses(&self) -> &[String] {
        &self.studio.store.losses
    }

    /// How many kept games the studio will play again from the data folder.
    pub fn kept(&self) -> usize {
        self.studio.asleep.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// Opens the studio: its data folder (made if need be), its key (drawn
/// once, then kept), and the list of games kept there, which [`serve`]
/// brings back. Refuses a data folder it cannot use, with what to do.
pub fn open(mut config: Config) -> Result<Opened, String> {
    config.root = config
        .root
        .canonicalize()
        .map_err(|e| format!("cannot open the folder {}: {e}", config.root.display()))?;
    // No request may make an agent read or write a file outside the folder
    // (`policy:/etc/passwd`, `solve:save=/elsewhere`).
    crate::agents::spec::confine_files(&config.root);
    let _ = THINK.set(config.think);
    let store = store::Store::open(&config.data)?;
    let store_ids = store.game_ids()?;
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
        asleep: Mutex::new(store_ids),
        waking: Mutex::new(()),
    });
    Ok(Opened { studio })
}

/// Serves an opened studio on `listener` until the process ends, and
/// meanwhile plays its kept games again, one after the other: a restart
/// refuses no connection while hundreds of games come back.
pub async fn serve(listener: tokio::net::TcpListener, opened: Opened) -> std::io::Result<()> {
    let studio = Arc::clone(&opened.studio);
    std::thread::Builder::new().name("studio-wake".into()).spawn(move || {
        while let Some(id) = studio.next_asleep() {
            studio.wake(&id);
        }
    })?;
    axum::serve(listener, router(opened.studio)).await
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

    /// Game `id`, played again first if the studio has not brought it
    /// back yet.
    fn game(&self, id: &str) -> Option<Arc<Live>> {
        if let Some(live) = self.live_game(id) {
            return Some(live);
        }
        let asleep = self
            .asleep
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|a| a == id);
        if !asleep {
            return None;
        }
        // Playing a game again can take a moment (its agents think again):
        // let the server's other requests go on meanwhile.
        match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
            Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(|| self.wake(id)),
            _ => self.wake(id),
        }
    }

    fn live_game(&self, id: &str) -> Option<Arc<Live>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// The next kept game to bring back, if any is left.
    fn next_asleep(&self) -> Option<String> {
        self.asleep.lock().unwrap_or_else(|e| e.into_inner()).first().cloned()
    }

    /// Plays kept game `id` again, unless it is live already; a game that
    /// cannot be is told once and stays kept, untouched.
    fn wake(&self, id: &str) -> Option<Arc<Live>> {
        let _one_at_a_time = self.waking.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(live) = self.live_game(id) {
            // Never asleep and live at once, whatever the order of events:
            // the background would ask for it forever.
            self.asleep
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|a| a != id);
            return Some(live);
        }
        if !self
            .asleep
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|a| a == id)
        {
            return None;
        }
        let woken = keep::wake(self, id);
        // Only now: a request for it meanwhile waited for the lock above
        // and finds it live.
        self.asleep
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|a| a != id);
        match woken {
            Ok(live) => Some(live),
            Err(why) => {
                eprintln!("warning: kept game {id} could not be played again, and stays kept as it was: {why}");
                None
            }
        }
    }

    /// How many kept games are still to be brought back.
    fn asleep_count(&self) -> usize {
        self.asleep.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}
