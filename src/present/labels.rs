//! Labels a seat reads: pieces by the faces it knows, zones in words, the
//! counters and the score so far. Built from a [`View`] or an
//! [`Observation`] only, so no label names what the seat may not know.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use crate::engine::Game;
use crate::engine::{Observation, PieceFace, View};
use crate::ir::{GameDef, Seat, ValueKind, VarEach};

/// A piece as the seat sees it: "Token", "Card red 7", "Marker red of
/// Ann", or its back, "Marker of Ben (hidden)" (as the pictures name it).
pub(crate) fn face_label(def: &GameDef, face: &PieceFace) -> String {
    crate::render::face_title(def, face)
}

/// A zone's pieces in words: runs of equal pieces counted ("Token x2"),
/// pieces the seat does not know as hidden. `sorted` groups them by name,
/// for piles whose order the rules never read (what a player holds).
pub(crate) fn listing(def: &GameDef, slots: &[Option<PieceFace>], sorted: bool) -> String {
    listing_with(slots, sorted, &|f| face_label(def, f))
}

/// [`listing`], naming each known piece with `label`.
pub(crate) fn listing_with(slots: &[Option<PieceFace>], sorted: bool, label: &dyn Fn(&PieceFace) -> String) -> String {
    if slots.is_empty() {
        return "empty".into();
    }
    if slots.iter().all(Option::is_none) {
        // One hidden piece is "hidden", short enough for a board's cell.
        return match slots.len() {
            1 => "hidden".into(),
            n => format!("{n} hidden pieces"),
        };
    }
    let mut labels: Vec<String> = slots
        .iter()
        .map(|s| s.as_ref().map_or_else(|| "hidden".into(), label))
        .collect();
    if sorted {
        labels.sort();
    }
    let mut runs: Vec<(String, usize)> = vec![];
    for label in labels {
        match runs.last_mut() {
            Some((l, n)) if *l == label => *n += 1,
            _ => runs.push((label, 1)),
        }
    }
    let runs: Vec<String> = runs
        .into_iter()
        .map(|(l, n)| if n == 1 { l } else { format!("{l} x{n}") })
        .collect();
    runs.join(", ")
}

/// The game's variables in words, one line: "chips: Ann 90, Ben 110 · pot: 20".
pub(crate) fn variables(def: &GameDef, view: &View) -> Option<String> {
    let parts: Vec<String> = def
        .vars
        .iter()
        .filter(|v| !v.constant)
        .map(|v| {
            // A truth value reads "yes" or "no", not as the log writes it.
            let said = |kind: ValueKind, value: i64| match kind {
                ValueKind::Bool if value != 0 => "yes".to_string(),
                ValueKind::Bool => "no".to_string(),
                _ => def.show_value(kind, value),
            };
            let entries = def.var_entries(v, &view.vars, 6, said);
            let each: Vec<String> = entries
                .iter()
                .map(|(whose, value)| match (v.each, v.shows) {
                    // Those that hold, by name: "scorched: field 2, field 4".
                    (VarEach::Space(_) | VarEach::Piece, ValueKind::Bool) => whose.clone(),
                    _ => format!("{whose} {value}").trim().to_string(),
                })
                .collect();
            match v.each {
                VarEach::Space(_) | VarEach::Piece if each.is_empty() => format!("{}: none", v.name),
                _ => format!("{}: {}", v.name, each.join(", ")),
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// How many worlds the live score is checked against.
const SCORE_WORLDS: u64 = 8;

/// The score each seat would have if the game were scored now, as far as
/// the observing seat can know it: a term is shown only when it is the same
/// in every world the seat cannot tell from the real game, else as `?`, so
/// the screen never gives away a hidden piece.
pub(crate) fn scores_now(def: &Game, obs: &Observation<'_>) -> Option<String> {
    if def.score_terms.is_empty() {
        return None;
    }
    // A fixed seed: the same position always shows the same line.
    let mut rng = ChaCha8Rng::seed_from_u64(0x5C02E);
    let mut agreed: Option<Vec<Vec<Option<i64>>>> = None;
    for _ in 0..SCORE_WORLDS {
        let world = obs.sample(&mut rng)?;
        let scores = world.score_now(def, &mut vec![]).ok()?;
        let fresh = scores
            .iter()
            .map(|row| row.iter().map(|&v| Some(v)).collect())
            .collect();
        agreed = Some(match agreed {
            None => fresh,
            Some(prev) => prev
                .iter()
                .zip(&scores)
                .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x.filter(|x| x == y)).collect())
                .collect(),
        });
    }
    let seats: Vec<String> = agreed?
        .iter()
        .enumerate()
        .map(|(s, row)| {
            // Tie-breakers are not points (see `GameDef::points`).
            let points = row.iter().zip(&def.score_terms).filter(|(_, t)| !t.tie_breaker);
            let total = points.map(|(v, _)| v).try_fold(0, |t, v| v.map(|v| t + v));
            let total = total.map_or("?".to_string(), |t| t.to_string());
            let terms: Vec<String> = row
                .iter()
                .zip(&def.score_terms)
                .filter(|(v, _)| **v != Some(0))
                .map(|(v, t)| format!("{} {}", t.name, v.map_or("?".to_string(), |v| v.to_string())))
                .collect();
            let name = def.seat_name(s as Seat);
            if terms.len() < 2 {
                format!("{name} {total}")
            } else {
                format!("{name} {total} ({})", terms.join(" + "))
            }
        })
        .collect();
    Some(seats.join(" · "))
}
