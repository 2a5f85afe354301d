//! How the studio's games begin, are kept and are played again: seating a
//! new game, seat tokens derived from the key, and the bridge between a
//! live [`Table`] and the [`store`](super::store).
//!
//! A game owns its rules ([`OwnedRules`]): a restarted studio loads the game
//! from the texts it began with, never from the folder, so editing or
//! deleting a file changes no game in progress.

use std::sync::{Arc, Mutex};

use hmac::Mac as _;
use tokio::sync::watch;

use super::games::{Owned, OwnedRules};
use super::host::now;
use super::state::{Live, Studio};
use super::store::KeptGame;
use super::table::{self, Sitter, Table};
use crate::agents::AgentSpec;
use crate::check::OptionSetting;
use crate::ir::Seat;
use crate::scenario::Scenario;

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
        .add_game(&table.kept(id, rules.to_json(), options, now()))?;
    studio.keep(id.to_string(), live(table, rules, now()))
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
    let progress = table.progress_since(from, now());
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
    let game = super::games::loaded(&studio.config, &rules.main, &rules.root, &loader, |_| {
        Ok(OptionSetting::recorded(&options))
    })?;
    let seats = table::seats_kept(&kept.seats)?;
    let mut table = Table::resume(Arc::new(game), kept.rules_path.clone(), seats, kept)?;
    let steps = kept.decisions.last().map_or(0, |d| d.step + 1);
    if table.turn() > steps {
        table.changed();
        studio.store.record(&kept.id, &table.progress_since(steps, now()))?;
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
            let progress = table.progress_without(step, now());
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

/// A new game of `rules` (the file as the studio's folder names it, the
/// game loaded from it, the files it read), seated by `layout`, dealt by
/// `seed`, and kept: its id and each person's link.
pub(super) fn begin(
    studio: &Studio,
    (rel, game, rules): (String, crate::load::LoadedGame, OwnedRules),
    layout: Vec<Option<AgentSpec>>,
    seed: u64,
) -> Result<serde_json::Value, String> {
    let id = super::host::token()?;
    let table = Table::start(
        Arc::new(game),
        rel,
        seated_by(studio, &id, layout),
        seed,
        &Scenario::default(),
    )?;
    keep_table(studio, &id, table, rules)
}

/// Who sits where, from a `--agents`-like spec: `None` for a person.
/// One spec per seat (`human` for each person), or one agent spec, which
/// seats a person at seat 1 and that agent everywhere else.
pub(super) fn seat_layout(spec: &str, def: &crate::ir::GameDef) -> Result<Vec<Option<AgentSpec>>, String> {
    let specs = crate::agents::spec::parse_spec(spec)?;
    let specs = match specs.len() {
        1 => {
            let mut all = crate::agents::spec::parse_spec("human")?;
            all.extend(std::iter::repeat_n(specs[0].clone(), def.players() - 1));
            all
        }
        n if n == def.players() => specs,
        n => {
            return Err(format!(
                "`{spec}`: {n} seats given for {} seats ({}); give one per seat, `human` for each person",
                def.players(),
                def.seats.join(", ")
            ));
        }
    };
    Ok(specs
        .into_iter()
        .map(|s| (!s.name.eq_ignore_ascii_case("human")).then_some(s))
        .collect())
}

/// The sitters of a layout in game `id`: each person's seat proved by
/// the token the studio derives for it, the agents by their specs.
pub(super) fn seated_by(studio: &Studio, id: &str, layout: Vec<Option<AgentSpec>>) -> Vec<Sitter> {
    layout
        .into_iter()
        .enumerate()
        .map(|(s, spec)| match spec {
            None => Sitter::person(table::token_hash(&studio.seat_token(id, s))),
            Some(spec) => Sitter::agent(spec),
        })
        .collect()
}

/// Keeps a table just set up, as game `id`: the game's id, name, and
/// each seat's link (`null` for an agent's seat).
pub(super) fn keep_table(
    studio: &Studio,
    id: &str,
    table: Table,
    rules: OwnedRules,
) -> Result<serde_json::Value, String> {
    let def = table.def();
    let name = def.name.clone();
    let seats: Vec<serde_json::Value> = (0..def.players())
        .map(|s| {
            let link = table.sitters()[s]
                .person
                .map(|_| format!("/play/{id}/{}", studio.seat_token(id, s)));
            serde_json::json!({ "seat": def.seat_name(s as Seat), "link": link })
        })
        .collect();
    keep_new(studio, id, table, rules)?;
    Ok(serde_json::json!({ "id": id, "game": name, "seats": seats }))
}
