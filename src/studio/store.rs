//! Where the studio keeps its games: an embedded SQLite database in the
//! data folder, so that nothing accepted is lost to a crash or a restart.
//!
//! A game is kept as what replays it: the rules text it started with (a
//! game owns its rules: editing the file later changes nothing), its
//! options, seed and seats, and every decision in order. A decision is
//! committed, durably (`synchronous = FULL`), before the studio answers
//! the move, so a move that was acknowledged is a move that was kept.
//!
//! One studio owns a database at a time: the connection takes SQLite's
//! exclusive lock when it opens, and a second studio on the same folder
//! is refused at once. The schema's version is SQLite's `user_version`:
//! a database from a newer build is refused, one from an older build is
//! copied aside and migrated.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OptionalExtension, params};

use super::acks::{Ack, Acknowledged, Acks, Mark};

/// The database's file name in the data folder.
pub(crate) const FILE: &str = "studio.db";

/// The migrations, in order: the one at index `i` takes a database from
/// version `i` to `i + 1`. The schema's version is their count.
const MIGRATIONS: &[&str] = &[
    // 1: the studio's key, its games, their decisions, and the answers
    // given to a decision that still waits for other seats.
    "CREATE TABLE studio (
         key TEXT NOT NULL
     );
     CREATE TABLE games (
         id TEXT PRIMARY KEY,
         rules_path TEXT NOT NULL,
         rules TEXT NOT NULL,
         options TEXT NOT NULL,
         seed INTEGER NOT NULL,
         seats TEXT NOT NULL,
         chance TEXT NOT NULL,
         chance_fixed INTEGER NOT NULL,
         scripted INTEGER NOT NULL,
         revision INTEGER NOT NULL,
         created INTEGER NOT NULL,
         updated INTEGER NOT NULL,
         finished INTEGER NOT NULL DEFAULT 0
     );
     CREATE TABLE decisions (
         game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
         step INTEGER NOT NULL,
         seat INTEGER NOT NULL,
         choice TEXT NOT NULL,
         reaction_ms INTEGER NOT NULL,
         PRIMARY KEY (game, step, seat)
     );
     CREATE TABLE answers (
         game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
         step INTEGER NOT NULL,
         seat INTEGER NOT NULL,
         choice INTEGER NOT NULL,
         reaction_ms INTEGER NOT NULL,
         PRIMARY KEY (game, seat)
     );",
    // 2: every take-back, for the lobby and for an honest record of the
    // evening: which seat took back which step, and when.
    "CREATE TABLE takebacks (
         game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
         step INTEGER NOT NULL,
         seat INTEGER NOT NULL,
         at INTEGER NOT NULL
     );",
];

/// The schema this build writes.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The studio's database.
pub(crate) struct Store {
    connection: Mutex<Connection>,
    path: PathBuf,
    /// Every change acknowledged, where a damaged log cannot hide it.
    acks: Acks,
    /// What was acknowledged before and is no longer held, found when it opened.
    pub(crate) losses: Vec<String>,
}

/// A game as it is kept: what replays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeptGame {
    pub id: String,
    /// The rules file, as the studio's folder names it.
    pub rules_path: String,
    /// The rules the game began with: every file it read, as JSON (a game
    /// owns its rules).
    pub rules: String,
    /// The options, as JSON.
    pub options: String,
    pub seed: u64,
    /// The seats (token hashes, agents), as JSON.
    pub seats: String,
    /// Every chance outcome so far (shuffles, rolls), as JSON.
    pub chance: String,
    /// The game began from a scenario that fixed chance (a fork's, a
    /// loaded transcript's): its transcript says so.
    pub chance_fixed: bool,
    /// How many of its first decisions came from the scenario it began
    /// with: its agents were not asked those.
    pub scripted: u64,
    /// Counts every change a seat's page could see; the pages' event
    /// streams are numbered by it.
    pub revision: u64,
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds of the last change.
    pub updated: i64,
    pub finished: bool,
    /// Every decision applied, in order.
    pub decisions: Vec<KeptDecision>,
    /// The answers given to the decision that still waits for other seats.
    pub answers: Vec<KeptAnswer>,
}

/// One seat's answer at one step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeptDecision {
    pub step: u64,
    pub seat: u16,
    /// As the transcript names it (`Seat: choice`).
    pub choice: String,
    pub reaction_ms: u32,
}

/// A person's answer to a decision that waits for other seats too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KeptAnswer {
    pub step: u64,
    pub seat: u16,
    /// The index of the choice among the seat's offers.
    pub choice: u32,
    pub reaction_ms: u32,
}

/// What changed in a game: its decisions from `from_step` on (those kept
/// from there are replaced: a take-back drops some), its waiting answers,
/// its chance so far, and its revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Progress {
    pub from_step: u64,
    pub decisions: Vec<KeptDecision>,
    pub answers: Vec<KeptAnswer>,
    pub chance: String,
    pub revision: u64,
    /// Unix seconds.
    pub updated: i64,
    pub finished: bool,
}

impl Store {
    /// Opens the database in `folder`, creating both if need be; refuses a
    /// folder that cannot be written, a database another studio holds, one
    /// that is not a studio database, and one from a newer build. A
    /// database from an older build is copied aside first
    /// (`studio.db.vN.bak`), then migrated.
    pub(crate) fn open(folder: &Path) -> Result<Store, String> {
        std::fs::create_dir_all(folder).map_err(|e| {
            format!(
                "cannot make the data folder {}: {e}; give a folder the studio may write with --data",
                folder.display()
            )
        })?;
        let path = folder.join(FILE);
        let shown = path.display().to_string();
        let mut connection = Connection::open(&path).map_err(|e| explain(&shown, &e))?;
        // A studio that is stopping lets go within moments; one that runs does not.
        connection
            .busy_timeout(Duration::from_millis(250))
            .map_err(|e| explain(&shown, &e))?;
        // Another program's database is refused before anything is written
        // to it (switching to WAL alone would change the file).
        refuse_foreign(&connection, &shown)?;
        // One studio at a time: the exclusive lock is taken by the first
        // write below and held while the connection lives.
        let setup = "PRAGMA locking_mode = EXCLUSIVE;
                     PRAGMA journal_mode = WAL;
                     PRAGMA synchronous = FULL;
                     PRAGMA foreign_keys = ON;";
        connection.execute_batch(setup).map_err(|e| explain(&shown, &e))?;
        let version: i64 = connection
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(|e| explain(&shown, &e))?;
        if version > SCHEMA_VERSION {
            return Err(format!(
                "{shown} was written by a newer rpsdsl (its schema is version {version}, and this build reads up \
                 to {SCHEMA_VERSION}): run the newer rpsdsl, or give another folder with --data"
            ));
        }
        if version > 0 && version < SCHEMA_VERSION {
            let backup = folder.join(format!("{FILE}.v{version}.bak"));
            connection
                .execute("VACUUM INTO ?1", params![backup.to_string_lossy()])
                .map_err(|e| explain(&shown, &e))?;
        }
        migrate(&mut connection, version, &shown)?;
        let held = held(&connection).map_err(|e| explain(&shown, &e))?;
        let checked = Acks::open(folder, &held)?;
        let store = Store {
            connection: Mutex::new(connection),
            path,
            acks: checked.acks,
            losses: checked.losses,
        };
        if let Some(key) = checked.lost_key {
            store.set_key(&key)?;
        }
        Ok(store)
    }

    /// Runs `work` on the connection, each error told with what to do.
    fn with<T>(&self, work: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, String> {
        let mut connection = self.connection.lock().unwrap_or_else(|e| e.into_inner());
        work(&mut connection).map_err(|e| explain(&self.path.display().to_string(), &e))
    }

    /// The studio's key, once one was kept.
    pub(crate) fn key(&self) -> Result<Option<String>, String> {
        self.with(|c| c.query_row("SELECT key FROM studio", [], |row| row.get(0)).optional())
    }

    /// Keeps the studio's key, so that its links work after a restart.
    pub(crate) fn set_key(&self, key: &str) -> Result<(), String> {
        self.with(|c| {
            let t = c.transaction()?;
            t.execute("DELETE FROM studio", [])?;
            t.execute("INSERT INTO studio (key) VALUES (?1)", params![key])?;
            t.commit()
        })?;
        self.acks.note(&[Ack::Key(key)]);
        Ok(())
    }

    /// Keeps a new game, with whatever it played while being set up.
    pub(crate) fn add_game(&self, game: &KeptGame) -> Result<(), String> {
        self.with(|c| {
            let t = c.transaction()?;
            t.execute(
                "INSERT INTO games (id, rules_path, rules, options, seed, seats, chance, chance_fixed,
                                    scripted, revision, created, updated, finished)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    game.id,
                    game.rules_path,
                    game.rules,
                    game.options,
                    // SQLite's integers are signed: the seed's bits, as they are.
                    game.seed as i64,
                    game.seats,
                    game.chance,
                    game.chance_fixed,
                    game.scripted as i64,
                    game.revision as i64,
                    game.created,
                    game.updated,
                    game.finished
                ],
            )?;
            insert_decisions(&t, &game.id, &game.decisions)?;
            insert_answers(&t, &game.id, &game.answers)?;
            t.commit()
        })?;
        let steps = game.decisions.last().map_or(0, |d| d.step + 1);
        let mark = Mark {
            revision: game.revision,
            steps,
        };
        self.acks
            .note(&[Ack::Rules(&game.id, &game.rules_path), Ack::Game(&game.id, mark)]);
        Ok(())
    }

    /// Keeps what changed in a game, in one transaction: when this
    /// returns, it survives a crash; when it fails, nothing changed.
    pub(crate) fn record(&self, game: &str, progress: &Progress) -> Result<(), String> {
        self.with(|c| {
            let t = c.transaction()?;
            apply(&t, game, progress)?;
            t.commit()
        })?;
        self.note_progress(game, progress);
        Ok(())
    }

    fn note_progress(&self, game: &str, progress: &Progress) {
        let mark = Mark {
            revision: progress.revision,
            steps: steps_after(progress),
        };
        self.acks.note(&[Ack::Game(game, mark)]);
    }

    /// Keeps a take-back: the change it makes to the game, and a line in
    /// the record of take-backs, in one transaction.
    pub(crate) fn record_take_back(&self, game: &str, progress: &Progress, step: u64, seat: u16) -> Result<(), String> {
        self.with(|c| {
            let t = c.transaction()?;
            apply(&t, game, progress)?;
            t.execute(
                "INSERT INTO takebacks (game, step, seat, at) VALUES (?1, ?2, ?3, ?4)",
                params![game, step as i64, seat, progress.updated],
            )?;
            t.commit()
        })?;
        self.note_progress(game, progress);
        Ok(())
    }

    /// How many take-backs each game has had, by game id.
    pub(crate) fn take_backs(&self) -> Result<std::collections::HashMap<String, u64>, String> {
        self.with(|c| {
            c.prepare("SELECT game, COUNT(*) FROM takebacks GROUP BY game")?
                .query_map([], |row| Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)? as u64)))?
                .collect()
        })
    }

    /// Keeps who sits where in a game (a seat handed to an agent, or
    /// taken back).
    pub(crate) fn set_seats(&self, game: &str, seats: &str, revision: u64) -> Result<(), String> {
        let steps = self.with(|c| {
            c.execute(
                "UPDATE games SET seats = ?2, revision = ?3 WHERE id = ?1",
                params![game, seats, revision as i64],
            )?;
            c.query_row(
                "SELECT COALESCE(MAX(step) + 1, 0) FROM decisions WHERE game = ?1",
                params![game],
                |row| row.get::<_, i64>(0),
            )
        })?;
        let mark = Mark {
            revision,
            steps: steps as u64,
        };
        self.acks.note(&[Ack::Game(game, mark)]);
        Ok(())
    }

    /// Forgets a game and its decisions.
    pub(crate) fn delete_game(&self, game: &str) -> Result<(), String> {
        self.with(|c| c.execute("DELETE FROM games WHERE id = ?1", params![game]).map(|_| ()))?;
        self.acks.note(&[Ack::Deleted(game)]);
        Ok(())
    }

    /// The id of every game kept, in the order a restarted studio brings
    /// them back: unfinished games first, then the most recently moved.
    pub(crate) fn game_ids(&self) -> Result<Vec<String>, String> {
        self.with(|c| {
            c.prepare("SELECT id FROM games ORDER BY finished, updated DESC, rowid DESC")?
                .query_map([], |row| row.get(0))?
                .collect()
        })
    }

    /// Every game kept, oldest first, with its decisions in order.
    #[cfg(test)]
    pub(crate) fn games(&self) -> Result<Vec<KeptGame>, String> {
        self.read_games(None)
    }

    /// The game kept as `id`, if any.
    pub(crate) fn game(&self, id: &str) -> Result<Option<KeptGame>, String> {
        Ok(self.read_games(Some(id))?.pop())
    }

    fn read_games(&self, only: Option<&str>) -> Result<Vec<KeptGame>, String> {
        self.with(|c| {
            let mut games: Vec<KeptGame> = c
                .prepare(
                    "SELECT id, rules_path, rules, options, seed, seats, chance, chance_fixed, scripted,
                            revision, created, updated, finished
                     FROM games WHERE ?1 IS NULL OR id = ?1 ORDER BY created, rowid",
                )?
                .query_map(params![only], |row| {
                    Ok(KeptGame {
                        id: row.get(0)?,
                        rules_path: row.get(1)?,
                        rules: row.get(2)?,
                        options: row.get(3)?,
                        seed: row.get::<_, i64>(4)? as u64,
                        seats: row.get(5)?,
                        chance: row.get(6)?,
                        chance_fixed: row.get(7)?,
                        scripted: row.get::<_, i64>(8)? as u64,
                        revision: row.get::<_, i64>(9)? as u64,
                        created: row.get(10)?,
                        updated: row.get(11)?,
                        finished: row.get(12)?,
                        decisions: vec![],
                        answers: vec![],
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            let mut decisions =
                c.prepare("SELECT step, seat, choice, reaction_ms FROM decisions WHERE game = ?1 ORDER BY step, seat")?;
            let mut answers =
                c.prepare("SELECT step, seat, choice, reaction_ms FROM answers WHERE game = ?1 ORDER BY seat")?;
            for game in &mut games {
                game.decisions = decisions
                    .query_map(params![game.id], |row| {
                        Ok(KeptDecision {
                            step: row.get::<_, i64>(0)? as u64,
                            seat: row.get(1)?,
                            choice: row.get(2)?,
                            reaction_ms: row.get(3)?,
                        })
                    })?
                    .collect::<rusqlite::Result<_>>()?;
                game.answers = answers
                    .query_map(params![game.id], |row| {
                        Ok(KeptAnswer {
                            step: row.get::<_, i64>(0)? as u64,
                            seat: row.get(1)?,
                            choice: row.get(2)?,
                            reaction_ms: row.get(3)?,
                        })
                    })?
                    .collect::<rusqlite::Result<_>>()?;
            }
            Ok(games)
        })
    }
}

/// Runs the migrations past `from`, all in one transaction.
fn migrate(connection: &mut Connection, from: i64, shown: &str) -> Result<(), String> {
    let transaction = connection.transaction().map_err(|e| explain(shown, &e))?;
    for migration in &MIGRATIONS[from as usize..] {
        transaction.execute_batch(migration).map_err(|e| explain(shown, &e))?;
    }
    transaction
        .pragma_update(None, "user_version", SCHEMA_VERSION)
        .map_err(|e| explain(shown, &e))?;
    transaction
        .pragma_update(None, "application_id", APPLICATION_ID)
        .map_err(|e| explain(shown, &e))?;
    transaction.commit().map_err(|e| explain(shown, &e))
}

/// The key and how far each game has come, as the database holds them.
fn held(connection: &Connection) -> rusqlite::Result<Acknowledged> {
    let key = connection
        .query_row("SELECT key FROM studio LIMIT 1", [], |row| row.get(0))
        .optional()?;
    let mut held = Acknowledged {
        key,
        ..Acknowledged::default()
    };
    let mut rows = connection.prepare(
        "SELECT g.id, g.revision, COALESCE(MAX(d.step) + 1, 0), g.rules_path
         FROM games g LEFT JOIN decisions d ON d.game = g.id GROUP BY g.id",
    )?;
    let mut rows = rows.query([])?;
    while let Some(row) = rows.next()? {
        let id: String = row.get(0)?;
        let mark = Mark {
            revision: row.get::<_, i64>(1)? as u64,
            steps: row.get::<_, i64>(2)? as u64,
        };
        held.rules.insert(id.clone(), row.get(3)?);
        held.games.insert(id, mark);
    }
    Ok(held)
}

/// How many steps a game has played once `progress` is kept.
fn steps_after(progress: &Progress) -> u64 {
    progress.decisions.last().map_or(progress.from_step, |d| d.step + 1)
}

/// Writes what changed in a game, inside the caller's transaction.
fn apply(t: &rusqlite::Transaction<'_>, game: &str, progress: &Progress) -> rusqlite::Result<()> {
    t.execute(
        "DELETE FROM decisions WHERE game = ?1 AND step >= ?2",
        params![game, progress.from_step as i64],
    )?;
    insert_decisions(t, game, &progress.decisions)?;
    t.execute("DELETE FROM answers WHERE game = ?1", params![game])?;
    insert_answers(t, game, &progress.answers)?;
    t.execute(
        "UPDATE games SET chance = ?2, revision = ?3, updated = ?4, finished = ?5 WHERE id = ?1",
        params![
            game,
            progress.chance,
            progress.revision as i64,
            progress.updated,
            progress.finished
        ],
    )?;
    Ok(())
}

fn insert_decisions(t: &rusqlite::Transaction<'_>, game: &str, decisions: &[KeptDecision]) -> rusqlite::Result<()> {
    let mut insert =
        t.prepare_cached("INSERT INTO decisions (game, step, seat, choice, reaction_ms) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for d in decisions {
        insert.execute(params![game, d.step as i64, d.seat, d.choice, d.reaction_ms])?;
    }
    Ok(())
}

fn insert_answers(t: &rusqlite::Transaction<'_>, game: &str, answers: &[KeptAnswer]) -> rusqlite::Result<()> {
    let mut insert =
        t.prepare_cached("INSERT INTO answers (game, step, seat, choice, reaction_ms) VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for a in answers {
        insert.execute(params![game, a.step as i64, a.seat, a.choice, a.reaction_ms])?;
    }
    Ok(())
}

/// An SQLite error as the person running the studio can act on it.
/// The studio's mark in the SQLite header (`PRAGMA application_id`):
/// "RPSD". A file with another program's mark is never touched.
const APPLICATION_ID: i32 = 0x5250_5344;

/// Refuses a database that is not a studio's, reading only: another
/// program's mark in the header, or tables in a file that has neither the
/// studio's mark nor a studio's schema version. (A studio database from
/// before the mark has a schema version and is taken, and marked.)
fn refuse_foreign(connection: &Connection, shown: &str) -> Result<(), String> {
    let id: i32 = connection
        .pragma_query_value(None, "application_id", |row| row.get(0))
        .map_err(|e| explain(shown, &e))?;
    let version: i64 = connection
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| explain(shown, &e))?;
    let objects: i64 = connection
        .query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))
        .map_err(|e| explain(shown, &e))?;
    let foreign = match id {
        APPLICATION_ID => false,
        0 => version == 0 && objects > 0,
        _ => true,
    };
    if foreign {
        return Err(format!(
            "{shown} is another program's database, not a studio's: it was left as it is; move it aside (the \
             studio then starts a new one), or give another folder with --data"
        ));
    }
    Ok(())
}

fn explain(shown: &str, error: &rusqlite::Error) -> String {
    match error.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
            format!("{shown} is in use by another studio: stop it first, or give this one another folder with --data")
        }
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt) => format!(
            "{shown} is not a studio database, or it is damaged: move it aside (the studio then starts a new \
             one), or give another folder with --data"
        ),
        Some(ErrorCode::DiskFull) => {
            format!("the disk holding {shown} is full: nothing was changed; free some space and try again")
        }
        Some(ErrorCode::ReadOnly | ErrorCode::CannotOpen | ErrorCode::PermissionDenied) => {
            format!("cannot write {shown}: give a folder the studio may write with --data ({error})")
        }
        _ => format!("{shown}: {error}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("rpsdsl-store-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn game(id: &str) -> KeptGame {
        KeptGame {
            id: id.into(),
            rules_path: "a.rules".into(),
            rules: "{}".into(),
            options: "[]".into(),
            seed: u64::MAX - 3,
            seats: "[]".into(),
            chance: "{}".into(),
            chance_fixed: false,
            scripted: 0,
            revision: 0,
            created: 10,
            updated: 10,
            finished: false,
            decisions: vec![],
            answers: vec![],
        }
    }

    /// Another program's SQLite file is refused, and not one byte of it changes.
    #[test]
    fn another_programs_database_is_refused_and_left_alone() {
        let dir = folder("foreign");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(FILE);
        {
            let other = Connection::open(&path).unwrap();
            other
                .execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');")
                .unwrap();
        }
        let before = std::fs::read(&path).unwrap();
        let refused = Store::open(&dir).err().expect("refused");
        assert!(refused.contains("another program's database"), "{refused}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "the file changed");
        assert!(!dir.join(format!("{FILE}-wal")).exists());
        // Marked by another program, even with no tables: refused too.
        std::fs::remove_file(&path).unwrap();
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "application_id", 7)
            .unwrap();
        assert!(Store::open(&dir).is_err());
        // A studio's own database opens again, marked.
        std::fs::remove_file(&path).unwrap();
        drop(Store::open(&dir).unwrap());
        let id: i32 = Connection::open(&path)
            .unwrap()
            .pragma_query_value(None, "application_id", |row| row.get(0))
            .unwrap();
        assert_eq!(id, APPLICATION_ID);
        assert!(Store::open(&dir).is_ok());
    }

    /// What is kept reads back the same after the studio reopens.
    #[test]
    fn games_and_decisions_survive_a_reopening() {
        let dir = folder("reopen");
        {
            let store = Store::open(&dir).unwrap();
            store.set_key("k1").unwrap();
            store.add_game(&game("g1")).unwrap();
            let step = |step, seat| KeptDecision {
                step,
                seat,
                choice: format!("Seat: choice {step}"),
                reaction_ms: 5,
            };
            let progress = |from_step, decisions, answers, revision| Progress {
                from_step,
                decisions,
                answers,
                chance: format!("chance {revision}"),
                revision,
                updated: 10 + revision as i64,
                finished: revision == 4,
            };
            let waiting = KeptAnswer {
                step: 1,
                seat: 1,
                choice: 2,
                reaction_ms: 0,
            };
            store
                .record("g1", &progress(0, vec![step(0, 0), step(0, 1)], vec![], 1))
                .unwrap();
            store
                .record("g1", &progress(1, vec![step(1, 0), step(1, 1)], vec![], 2))
                .unwrap();
            // A take-back drops step 1; then seat 1 answers step 1 again, and waits.
            store.record("g1", &progress(1, vec![], vec![], 3)).unwrap();
            store
                .record("g1", &progress(1, vec![step(1, 0)], vec![waiting.clone()], 4))
                .unwrap();
        }
        let store = Store::open(&dir).unwrap();
        assert_eq!(store.key().unwrap().as_deref(), Some("k1"));
        let games = store.games().unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].seed, u64::MAX - 3);
        assert!(games[0].finished);
        assert_eq!((games[0].updated, games[0].revision), (14, 4));
        assert_eq!(games[0].chance, "chance 4");
        let steps: Vec<(u64, u16)> = games[0].decisions.iter().map(|d| (d.step, d.seat)).collect();
        assert_eq!(steps, [(0, 0), (0, 1), (1, 0)]);
        assert_eq!(games[0].answers.len(), 1);
        assert_eq!(games[0].answers[0].choice, 2);
        store.delete_game("g1").unwrap();
        assert!(store.games().unwrap().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A database written by the first schema (before take-backs were
    /// recorded) is copied aside, then migrated: its games read back, and
    /// the new record works.
    #[test]
    fn a_version_1_database_is_backed_up_and_migrated() {
        let dir = folder("v1");
        std::fs::create_dir_all(&dir).unwrap();
        {
            let c = Connection::open(dir.join(FILE)).unwrap();
            c.execute_batch(MIGRATIONS[0]).unwrap();
            c.pragma_update(None, "user_version", 1).unwrap();
            c.execute("INSERT INTO studio (key) VALUES ('old key')", []).unwrap();
            c.execute(
                "INSERT INTO games (id, rules_path, rules, options, seed, seats, chance, chance_fixed, scripted,
                                    revision, created, updated, finished)
                 VALUES ('g1', 'a.rules', '{}', '[]', 7, '[]', '{}', 0, 0, 3, 10, 11, 0)",
                [],
            )
            .unwrap();
            c.execute(
                "INSERT INTO decisions (game, step, seat, choice, reaction_ms) VALUES ('g1', 0, 0, 'Ann: pick 2', 0)",
                [],
            )
            .unwrap();
        }
        let store = Store::open(&dir).unwrap();
        assert_eq!(store.key().unwrap().as_deref(), Some("old key"));
        let games = store.games().unwrap();
        assert_eq!((games[0].seed, games[0].revision), (7, 3));
        assert_eq!(games[0].decisions[0].choice, "Ann: pick 2");
        let progress = Progress {
            from_step: 0,
            decisions: vec![],
            answers: vec![],
            chance: "{}".into(),
            revision: 4,
            updated: 12,
            finished: false,
        };
        store.record_take_back("g1", &progress, 0, 0).unwrap();
        assert_eq!(store.take_backs().unwrap().get("g1"), Some(&1));
        assert!(store.games().unwrap()[0].decisions.is_empty());
        drop(store);
        // The backup is the database as it was: version 1, its decision there.
        let backup = Connection::open(dir.join(format!("{FILE}.v1.bak"))).unwrap();
        let version: i64 = backup.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, 1);
        let kept: i64 = backup
            .query_row("SELECT COUNT(*) FROM decisions", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept, 1);
        let now = Connection::open(dir.join(FILE)).unwrap();
        let version: i64 = now.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// When the disk is full, a move is refused, says why, and changes
    /// nothing kept.
    #[test]
    fn a_full_disk_refuses_the_move_and_keeps_the_game() {
        let dir = folder("full");
        let store = Store::open(&dir).unwrap();
        store.add_game(&game("g1")).unwrap();
        // The database may not grow by a single page: as a full disk would.
        store
            .with(|c| {
                let pages: i64 = c.pragma_query_value(None, "page_count", |r| r.get(0))?;
                c.pragma_update(None, "max_page_count", pages)
            })
            .unwrap();
        let big = KeptDecision {
            step: 0,
            seat: 0,
            choice: "x".repeat(64 * 1024),
            reaction_ms: 0,
        };
        let progress = Progress {
            from_step: 0,
            decisions: vec![big],
            answers: vec![],
            chance: "{}".into(),
            revision: 1,
            updated: 11,
            finished: false,
        };
        let refused = store.record("g1", &progress).unwrap_err();
        assert!(refused.contains("is full: nothing was changed"), "{refused}");
        let games = store.games().unwrap();
        assert!(games[0].decisions.is_empty());
        assert_eq!(games[0].revision, 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A second studio on the same folder is refused while the first runs.
    #[test]
    fn a_second_studio_is_refused() {
        let dir = folder("second");
        let first = Store::open(&dir).unwrap();
        let refused = Store::open(&dir).err().unwrap();
        assert!(refused.contains("in use by another studio"), "{refused}");
        drop(first);
        Store::open(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A database from a newer build is refused, and left as it was.
    #[test]
    fn a_newer_database_is_refused() {
        let dir = folder("newer");
        std::fs::create_dir_all(&dir).unwrap();
        {
            let c = Connection::open(dir.join(FILE)).unwrap();
            c.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        }
        let refused = Store::open(&dir).err().unwrap();
        assert!(refused.contains("written by a newer rpsdsl"), "{refused}");
        let c = Connection::open(dir.join(FILE)).unwrap();
        let version: i64 = c.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version, SCHEMA_VERSION + 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file that is not a database is named as such, not overwritten.
    #[test]
    fn a_damaged_database_is_refused() {
        let dir = folder("damaged");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(FILE), vec![0x5a; 8192]).unwrap();
        let refused = Store::open(&dir).err().unwrap();
        assert!(refused.contains("not a studio database"), "{refused}");
        assert_eq!(std::fs::read(dir.join(FILE)).unwrap(), vec![0x5a; 8192]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A folder that cannot be made is refused with what to do.
    #[test]
    fn an_unwritable_folder_is_refused() {
        let file = folder("file");
        std::fs::write(&file, "a file, not a folder").unwrap();
        let refused = Store::open(&file.join("data")).err().unwrap();
        assert!(refused.contains("cannot make the data folder"), "{refused}");
        let _ = std::fs::remove_file(&file);
    }
}
