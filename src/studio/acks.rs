//! The journal of acknowledgements: beside the database, a small
//! append-only file that says, for every change the studio acknowledged,
//! the game and the revision it reached.
//!
//! SQLite drops a write-ahead-log frame whose checksum fails, and every
//! frame after it, without a word: one flipped bit in the log after a
//! crash silently loses the last acknowledged moves (or a whole game, or
//! the key). The journal is where a cut log cannot hide that: when the
//! studio opens, each game's revision in the database is compared with the
//! last one acknowledged, and whatever is missing is said, exactly. The
//! key is kept here too, so that a key the log lost is restored and every
//! link still works.
//!
//! Each line carries its own checksum. A torn last line (a crash while
//! writing it) was never acknowledged, and is dropped; a damaged line
//! elsewhere is counted and said.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::Digest as _;

/// The journal's file name in the data folder.
pub(crate) const FILE: &str = "studio.acks";

/// What the database holds, or what the journal says was acknowledged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Acknowledged {
    pub key: Option<String>,
    /// Per game: its revision and the steps it had played.
    pub games: HashMap<String, Mark>,
    /// Per game: its rules file, as the studio's folder names it, to name
    /// the game by in what is said.
    pub rules: HashMap<String, String>,
}

/// How far a game had come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mark {
    pub revision: u64,
    pub steps: u64,
}

/// One acknowledged change.
pub(crate) enum Ack<'a> {
    Key(&'a str),
    /// A new game and its rules file.
    Rules(&'a str, &'a str),
    Game(&'a str, Mark),
    Deleted(&'a str),
}

/// The open journal.
pub(crate) struct Acks {
    file: Mutex<File>,
    path: PathBuf,
}

/// What opening the journal found.
pub(crate) struct Checked {
    pub acks: Acks,
    /// The key the database lost, to put back.
    pub lost_key: Option<String>,
    /// Each thing acknowledged that the database no longer holds, said for
    /// the person running the studio.
    pub losses: Vec<String>,
}

impl Acks {
    /// Reads the journal in `folder` (if any), compares it with `held`
    /// (what the database holds), then starts it afresh from `held`, so it
    /// never grows beyond a line per change since the studio opened.
    pub(crate) fn open(folder: &Path, held: &Acknowledged) -> Result<Checked, String> {
        let path = folder.join(FILE);
        let shown = path.display().to_string();
        let (said, damaged) = match std::fs::read(&path) {
            Ok(bytes) => read(&String::from_utf8_lossy(&bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Acknowledged::default(), 0),
            Err(e) => return Err(format!("cannot read {shown}: {e}")),
        };
        let mut losses = compare(&said, held);
        if damaged > 0 {
            losses.push(format!(
                "{damaged} line(s) of {shown} are damaged: what they acknowledged cannot be checked"
            ));
        }
        let lost_key = match (&said.key, &held.key) {
            (Some(said), held) if held.as_ref() != Some(said) => Some(said.clone()),
            _ => None,
        };
        let mut fresh = held.clone();
        if let Some(key) = &lost_key {
            fresh.key = Some(key.clone());
        }
        rewrite(&path, &fresh).map_err(|e| format!("cannot write {shown}: {e}"))?;
        let file = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(|e| format!("cannot open {shown}: {e}"))?;
        Ok(Checked {
            acks: Acks {
                file: Mutex::new(file),
                path,
            },
            lost_key,
            losses,
        })
    }

    /// Notes an acknowledged change, durably, before it is answered. A
    /// journal that cannot be written is said, and the change stands: the
    /// database kept it.
    pub(crate) fn note(&self, acks: &[Ack<'_>]) {
        let text: String = acks.iter().map(line).collect();
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let written = file.write_all(text.as_bytes()).and_then(|()| file.sync_data());
        if let Err(e) = written {
            eprintln!(
                "warning: cannot write {}: {e}; a damaged database could now lose moves without it being said",
                self.path.display()
            );
        }
    }
}

/// A line: its checksum, then its words.
fn line(ack: &Ack<'_>) -> String {
    let words = match ack {
        Ack::Key(key) => format!("key {key}"),
        Ack::Rules(id, path) => format!("rules {id} {}", path.escape_default()),
        Ack::Game(id, mark) => format!("game {id} {} {}", mark.revision, mark.steps),
        Ack::Deleted(id) => format!("deleted {id}"),
    };
    format!("{} {words}\n", checksum(&words))
}

fn checksum(words: &str) -> String {
    sha2::Sha256::digest(words.as_bytes())[..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a journal says, and how many of its lines are damaged (a torn last
/// line is not: it was never acknowledged).
fn read(text: &str) -> (Acknowledged, usize) {
    let mut said = Acknowledged::default();
    let mut damaged = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, raw) in lines.iter().enumerate() {
        let torn = !raw.ends_with('\n');
        let parsed = raw
            .trim_end_matches('\n')
            .split_once(' ')
            .filter(|(sum, words)| *sum == checksum(words))
            .and_then(|(_, words)| apply(&mut said, words));
        if parsed.is_none() && !(torn && i + 1 == lines.len()) {
            damaged += 1;
        }
    }
    (said, damaged)
}

fn apply(said: &mut Acknowledged, words: &str) -> Option<()> {
    if let Some(rest) = words.strip_prefix("rules ") {
        let (id, path) = rest.split_once(' ')?;
        said.rules.insert(id.to_string(), path.to_string());
        return Some(());
    }
    let parts: Vec<&str> = words.split(' ').collect();
    match parts.as_slice() {
        ["key", key] => said.key = Some(key.to_string()),
        ["game", id, revision, steps] => {
            let mark = Mark {
                revision: revision.parse().ok()?,
                steps: steps.parse().ok()?,
            };
            said.games.insert(id.to_string(), mark);
        }
        ["deleted", id] => {
            said.games.remove(*id);
            said.rules.remove(*id);
        }
        _ => return None,
    }
    Some(())
}

/// Everything acknowledged that `held` lacks, in words, by game id.
fn compare(said: &Acknowledged, held: &Acknowledged) -> Vec<String> {
    let mut losses = vec![];
    if let Some(key) = &said.key
        && held.key.as_ref() != Some(key)
    {
        losses.push(
            "the database lost the studio's key (its log was damaged); it was put back from the journal, so every \
             link still works"
                .to_string(),
        );
    }
    let mut ids: Vec<&String> = said.games.keys().collect();
    ids.sort();
    for id in ids {
        let acked = said.games[id];
        let named = match said.rules.get(id).or(held.rules.get(id)) {
            Some(path) => format!("game {id} ({path})"),
            None => format!("game {id}"),
        };
        match held.games.get(id) {
            None => losses.push(format!(
                "{named} is lost: it was acknowledged up to step {} (revision {}), and the database no longer \
                 holds it (its log was damaged)",
                acked.steps, acked.revision
            )),
            Some(kept) if kept.revision < acked.revision => losses.push(format!(
                "{named} lost its last acknowledged changes: it was acknowledged up to step {} (revision {}), \
                 and the database holds it up to step {} (revision {}) (its log was damaged); it goes on from there",
                acked.steps, acked.revision, kept.steps, kept.revision
            )),
            Some(_) => {}
        }
    }
    losses
}

/// Starts the journal afresh from `held`: written beside, made durable,
/// then renamed over the old one.
fn rewrite(path: &Path, held: &Acknowledged) -> std::io::Result<()> {
    let mut text = String::new();
    if let Some(key) = &held.key {
        text.push_str(&line(&Ack::Key(key)));
    }
    let mut ids: Vec<&String> = held.games.keys().collect();
    ids.sort();
    for id in ids {
        if let Some(path) = held.rules.get(id) {
            text.push_str(&line(&Ack::Rules(id, path)));
        }
        text.push_str(&line(&Ack::Game(id, held.games[id])));
    }
    let beside = path.with_extension("acks.new");
    let mut file = File::create(&beside)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    std::fs::rename(&beside, path)?;
    if let Some(folder) = path.parent() {
        File::open(folder)?.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(key: &str, games: &[(&str, u64, u64)]) -> Acknowledged {
        Acknowledged {
            key: Some(key.into()),
            games: games
                .iter()
                .map(|&(id, revision, steps)| (id.to_string(), Mark { revision, steps }))
                .collect(),
            rules: HashMap::new(),
        }
    }

    #[test]
    fn lines_read_back_and_damage_is_counted() {
        let text = [
            line(&Ack::Key("k1")),
            line(&Ack::Rules("g1", "my games/a.rules")),
            line(&Ack::Game("g1", Mark { revision: 3, steps: 2 })),
            line(&Ack::Game("g2", Mark { revision: 1, steps: 0 })),
            line(&Ack::Deleted("g2")),
            line(&Ack::Game("g1", Mark { revision: 5, steps: 4 })),
        ]
        .concat();
        let (said, damaged) = read(&text);
        let mut expected = held("k1", &[("g1", 5, 4)]);
        expected.rules.insert("g1".into(), "my games/a.rules".into());
        assert_eq!((said, damaged), (expected, 0));
        // A torn last line was never acknowledged; a flipped bit elsewhere is damage.
        let torn = &text[..text.len() - 3];
        assert_eq!(read(torn).1, 0);
        assert_eq!(read(torn).0.games["g1"].revision, 3);
        let flipped = text.replacen("game g1 3", "game g1 7", 1);
        assert_eq!(read(&flipped).1, 1);
    }

    #[test]
    fn what_the_database_lacks_is_said_exactly() {
        let mut said = held("k1", &[("a", 9, 5), ("b", 4, 2), ("c", 2, 1)]);
        said.rules.insert("c".into(), "c.rules".into());
        let now = Acknowledged {
            key: None,
            ..held("", &[("a", 9, 5), ("b", 3, 1)])
        };
        let losses = compare(&said, &now);
        assert_eq!(losses.len(), 3, "{losses:?}");
        assert!(losses[0].contains("lost the studio's key"));
        assert!(losses[1].contains("game b lost its last acknowledged changes"));
        assert!(losses[1].contains("up to step 2 (revision 4)") && losses[1].contains("up to step 1 (revision 3)"));
        assert!(losses[2].contains("game c (c.rules) is lost"));
        assert!(compare(&said, &said).is_empty());
    }
}
