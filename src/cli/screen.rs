//! What a person at the terminal sees of the table: one seat's view, laid
//! out. Everything here is built from a [`View`] or an [`Observation`], so
//! the screen cannot show what the seat may not know.

use crate::engine::View;
use crate::ir::{Board, FamilyIndex, GameDef, Seat, Visibility, ZoneLayout};
use crate::present::listing;

mod grid;
mod layout;
mod rules;

use grid::{grid, pad, text_width};
use layout::{WIDTH, slots};
pub(crate) use rules::rules_summary;

/// A board of linked spaces: the spaces that hold something, in columns.
fn graph(def: &GameDef, view: &View, b: u16, board: &Board) -> String {
    let slots = slots(def, b);
    let mut items = vec![];
    for s in 0..board.spaces() {
        for (name, first) in &slots {
            let zone = &view.zones[(first + s) as usize];
            if zone.is_empty() {
                continue;
            }
            let at = if slots.len() == 1 {
                board.space_name(s)
            } else {
                format!("{} {name}", board.space_name(s))
            };
            items.push(format!("{at}: {}", listing(def, zone, false)));
        }
    }
    let mut out = format!("  {} (spaces not listed are empty)\n", board.name);
    if items.is_empty() {
        out = format!("  {}: every space is empty\n", board.name);
    }
    out.push_str(&columns(&items, "    "));
    out
}

/// Items in as many columns as fit the screen, each column read downwards.
fn columns(items: &[String], indent: &str) -> String {
    let width = items.iter().map(|i| text_width(i)).max().unwrap_or(0) + 2;
    let cols = ((WIDTH - indent.len()) / width.max(1)).max(1);
    let rows = items.len().div_ceil(cols);
    let mut out = String::new();
    for r in 0..rows {
        let mut line = String::from(indent);
        for c in 0..cols {
            if let Some(item) = items.get(c * rows + r) {
                line.push_str(&pad(item, width));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The whole table as the view's seat sees it: boards, then the zones
/// shared by everyone, then the seat's own zones, then each other seat's.
pub(crate) fn table(def: &GameDef, view: &View) -> String {
    let mut out = String::new();
    for (b, board) in def.board_ids().zip(&def.boards) {
        if board.rows as usize * board.cols as usize == board.spaces() as usize && board.spaces() > 0 {
            out.push_str(&format!("Board {}:\n", board.name));
            out.push_str(&grid(def, view, b, board));
        } else {
            out.push_str("Board:\n");
            out.push_str(&graph(def, view, b, board));
        }
    }
    // Family 0 is the box of pieces left out by the options: not on the table.
    let families: Vec<_> = def
        .families
        .iter()
        .skip(1)
        .filter(|f| !matches!(f.by, FamilyIndex::PerSpace(_)))
        // A zone the rules keep for their own bookkeeping is no part of the table.
        .filter(|f| f.layout != ZoneLayout::OffTheTable)
        // A family that holds nothing at all (a module not in play) is noise.
        .filter(|f| (f.first..f.first + f.len).any(|z| !view.zones[z as usize].is_empty()))
        .collect();
    let shared: Vec<(String, String)> = families
        .iter()
        .filter(|f| f.by == FamilyIndex::Single)
        .map(|f| (f.name.clone(), listing(def, &view.zones[f.first as usize], false)))
        .collect();
    let mut sections = vec![("Table".to_string(), shared)];
    let me = view.seat;
    let others = (0..def.players() as Seat).filter(|&s| s != me);
    for seat in std::iter::once(me).chain(others) {
        let rows = families
            .iter()
            .filter(|f| f.by == FamilyIndex::PerPlayer)
            .map(|f| {
                let zone = usize::from(f.first) + usize::from(seat);
                // What a player holds reads best grouped; order matters
                // only in a pile nobody may look through.
                let sorted = f.visibility != Visibility::Hidden;
                (f.name.clone(), listing(def, &view.zones[zone], sorted))
            })
            .collect();
        let title = if seat == me {
            format!("{} (you)", def.seat_name(seat))
        } else {
            def.seat_name(seat).to_string()
        };
        sections.push((title, rows));
    }
    // One column of zone names for every section, so the contents line up.
    let rows = sections.iter().flat_map(|(_, rows)| rows);
    let width = rows.map(|(n, _)| text_width(n)).max().unwrap_or(0);
    for (title, rows) in sections.into_iter().filter(|(_, rows)| !rows.is_empty()) {
        out.push_str(&format!("{title}:\n"));
        for (name, what) in rows {
            out.push_str(&format!("  {}  {what}\n", pad(&name, width)));
        }
    }
    out
}
