//! How the studio's games are kept and played again: the rules a game
//! owns, seat tokens derived from the key, and the bridge between a live
//! [`Table`] and the [`store`](super::store).
//!
//! A game owns its rules: every file it read when it began is kept with
//! it, and a restarted studio loads the game from those texts, never from
//! the folder, so editing or deleting a file changes no game in progress.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hmac::Mac as _;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use super::files::RootLoader;
use super::store::KeptGame;
use super::table::{self, Table};
use super::{Live, Studio};
use crate::check::{OptionSetting, SourceLoader};

/// The rules files a game began with.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct OwnedRules {
    /// The studio's folder then: the game's description names files from it.
    root: PathBuf,
    /// The file played (a `.rules` file or a house-rules `.toml` file).
    main: PathBuf,
    /// Every file read, with its text, in the order they were read.
    files: Vec<(PathBuf, String)>,
}

impl OwnedRules {
    /// The rules as kept (JSON).
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Whether any file the game began with reads otherwise now (edited,
    /// moved or deleted).
    pub(crate) fn edited(&self) -> bool {
        self.files
            .iter()
            .any(|(path, text)| crate::input::read_text(path, crate::input::SOURCE_LIMIT).ok().as_ref() != Some(text))
    }

    /// Whether the game read `path`.
    pub(crate) fn reads(&self, path: &Path) -> bool {
        self.files.iter().any(|(p, _)| p == path)
    }
}

/// Reads from the studio's folder, as [`RootLoader`] does, and notes every
/// file read with its text.
pub(crate) struct Recording<'a> {
    inner: RootLoader<'a>,
    read: Mutex<Vec<(PathBuf, String)>>,
}

impl<'a> Recording<'a> {
    pub(crate) fn new(root: &'a Path) -> Recording<'a> {
        Recording {
            inner: RootLoader {
                root,
                edited: Path::new(""),
                text: "",
            },
            read: Mutex::new(vec![]),
        }
    }

    /// The rules read, with `main` the file played.
    pub(crate) fn owned(self, main: &Path) -> OwnedRules {
        OwnedRules {
            root: self.inner.root.to_path_buf(),
            main: main.to_path_buf(),
            files: self.read.into_inner().unwrap_or_else(|e| e.into_inner()),
        }
    }
}

impl SourceLoader for Recording<'_> {
    fn load(&self, path: &Path) -> io::Result<String> {
        let text = self.inner.load(path)?;
        self.read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((path.to_path_buf(), text.clone()));
        Ok(text)
    }
}

/// Reads only the texts a game owns.
struct Owned<'a>(HashMap<&'a Path, &'a str>);

impl SourceLoader for Owned<'_> {
    fn load(&self, path: &Path) -> io::Result<String> {
        self.0
            .get(path)
            .map(|t| t.to_string())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not among the files the game began with"))
    }
}

/// A secret derived from the studio's key: HMAC-SHA256 of `message`,
/// its first 128 bits in hex.
pub(crate) fn derived(key: &str, message: &str) -> String {
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(key.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(message.as_bytes());
    mac.finalize().into_bytes()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Keeps a game just set up, then holds it live; refused (and not held)
/// when the database cannot keep it.
pub(crate) fn keep_new(studio: &Studio, id: &str, table: Table, rules: OwnedRules) -> Result<(), String> {
    let options = crate::load::changed_options(table.def(), &table.game().options);
    let options = serde_json::to_string(&options).unwrap_or_default();
    studio
        .store
        .add_game(&table.kept(id, rules.to_json(), options, super::now()))?;
    studio.keep(id.to_string(), live(table, rules, super::now()))
}

fn live(table: Table, rules: OwnedRules, updated: i64) -> Arc<Live> {
    let (changed, _) = watch::channel(0);
    // One count per seat, then the spectators'.
    let present = (0..=table.def().players()).map(|_| Default::default()).collect();
    Arc::new(Live {
        table: Mutex::new(table),
        changed,
        rules,
        present,
        updated: updated.into(),
    })
}

/// Commits what changed in `table` since step `from`. When the database
/// refuses, the table is played again from what it holds, so that the
/// game stands where its kept moves left it, and the refusal is returned.
pub(crate) fn commit(studio: &Studio, id: &str, table: &mut Table, from: u64) -> Result<(), String> {
    let progress = table.progress_since(from, super::now());
    let Err(why) = studio.store.record(id, &progress) else {
        return Ok(());
    };
    match as_kept(studio, id) {
        Ok(again) => *table = again,
        Err(e) => eprintln!("warning: game {id} could not be played again from its kept moves: {e}"),
    }
    Err(why)
}

/// Game `id` played again from what the database holds now.
fn as_kept(studio: &Studio, id: &str) -> Result<Table, String> {
    let kept = studio
        .store
        .game(id)?
        .ok_or_else(|| "the game is no longer kept".to_string())?;
    Ok(resume(studio, &kept)?.0)
}

/// Plays kept game `id` again and holds it live; or says why it cannot be
/// (it stays kept, untouched).
pub(crate) fn wake(studio: &Studio, id: &str) -> Result<Arc<Live>, String> {
    let kept = studio
        .store
        .game(id)?
        .ok_or_else(|| "the game is no longer kept".to_string())?;
    let (table, rules) = resume(studio, &kept)?;
    let live = live(table, rules, kept.updated);
    studio.keep(id.to_string(), Arc::clone(&live))?;
    Ok(live)
}

/// A kept game played again, with its rules; or why it could not be.
type Resumed = Result<(Table, OwnedRules), String>;

/// One kept game, played again from its own rules to where it stood; what
/// its agents played on past its last kept move is committed.
fn resume(studio: &Studio, kept: &KeptGame) -> Resumed {
    let rules: OwnedRules = serde_json::from_str(&kept.rules).map_err(|e| format!("its rules are damaged: {e}"))?;
    let options: Vec<(String, String)> =
        serde_json::from_str(&kept.options).map_err(|e| format!("its options are damaged: {e}"))?;
    let loader = Owned(rules.files.iter().map(|(p, t)| (p.as_path(), t.as_str())).collect());
    let game = super::routes::loaded(studio, &rules.main, &rules.root, &loader, |_| {
        Ok(OptionSetting::recorded(&options))
    })?;
    let seats = table::seats_kept(&kept.seats)?;
    let mut table = Table::resume(Arc::new(game), kept.rules_path.clone(), seats, kept)?;
    let steps = kept.decisions.last().map_or(0, |d| d.step + 1);
    if table.turn() > steps {
        table.changed();
        studio
            .store
            .record(&kept.id, &table.progress_since(steps, super::now()))?;
    }
    Ok((table, rules))
}

/// Why a take-back did not happen.
pub(crate) enum NotTaken {
    /// The policy forbids it.
    Refused(table::NoTakeBack),
    /// The database could not keep it: nothing changed.
    NotKept(String),
}

/// Takes back `seat`'s last decision in game `id`, if the policy allows:
/// a waiting answer is dropped; an applied step is dropped from what is
/// kept, and the game is played again without it, so that its agents
/// stand where they stood before it and nothing of it stays anywhere.
pub(crate) fn take_back(studio: &Studio, id: &str, table: &mut Table, seat: crate::ir::Seat) -> Result<(), NotTaken> {
    match table.may_take_back(seat).map_err(NotTaken::Refused)? {
        table::TakeBack::Answer => {
            let from = table.turn();
            table.take_back_answer(seat);
            commit(studio, id, table, from).map_err(NotTaken::NotKept)
        }
        table::TakeBack::Step(step) => {
            let progress = table.progress_without(step, super::now());
            studio
                .store
                .record_take_back(id, &progress, step, seat.into())
                .map_err(NotTaken::NotKept)?;
            *table = as_kept(studio, id).map_err(NotTaken::NotKept)?;
            Ok(())
        }
    }
}

/// Seats game `id` anew (a quiet seat handed to an agent, or given back
/// to its person): kept first, then the game is played again with the new
/// seating, so that the agent stands where a restart would put it, and
/// plays on if it is asked.
pub(crate) fn reseat(studio: &Studio, id: &str, table: &mut Table, seats: &[table::Sitter]) -> Result<(), String> {
    studio
        .store
        .set_seats(id, &table::kept_seats(seats), table.revision() + 1)?;
    *table = as_kept(studio, id)?;
    Ok(())
}
