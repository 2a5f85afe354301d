//! The server's state: the games it holds live, the comparisons it runs,
//! the kept games still to come back.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use super::config::Config;
use super::games::OwnedRules;
use super::host::now;
use super::{compare, store, table};

/// How many games the studio holds at once; the oldest finished ones make
/// room for new ones.
pub(super) const MAX_GAMES: usize = 4096;

/// The server's state, shared by every request.
pub(crate) struct Studio {
    pub(super) config: Config,
    /// The studio's key (see the module documentation).
    pub(super) key: String,
    pub(super) store: store::Store,
    pub(super) games: Mutex<HashMap<String, Arc<Live>>>,
    /// The order games were started in, to know which are oldest.
    pub(super) started: Mutex<Vec<String>>,
    /// Comparisons run from the page, oldest first (at most [`MAX_JOBS`]).
    pub(super) jobs: Mutex<Vec<(String, Arc<compare::Job>)>>,
    /// Kept games not yet played again since the studio opened, in the
    /// order they come back.
    pub(super) asleep: Mutex<Vec<String>>,
    /// Held while a kept game is played again, so that a game asked for
    /// while the background brings it back is not played again twice.
    pub(super) waking: Mutex<()>,
}

/// How many comparisons the studio remembers; a new one stops and drops the oldest.
pub(super) const MAX_JOBS: usize = 8;

/// One game, the channel that tells its seats' pages it changed, and the
/// rules files it began with.
pub(crate) struct Live {
    pub(super) table: Mutex<table::Table>,
    pub(super) changed: watch::Sender<u64>,
    pub(super) rules: OwnedRules,
    /// Per seat, how many of its pages are connected now (their event
    /// streams); then the spectators' pages.
    pub(super) present: Vec<std::sync::atomic::AtomicUsize>,
    /// Unix seconds of the last move.
    pub(super) updated: std::sync::atomic::AtomicI64,
}

impl Live {
    /// Notes a move made now.
    pub(super) fn touch(&self) {
        self.updated.store(now(), std::sync::atomic::Ordering::Relaxed);
    }
}
