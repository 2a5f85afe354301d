//! Zones off the board drawn as labelled trays of cards, gathered in
//! panels: one per seat, on that seat's side of the table, and one for the
//! zones everyone shares.

use svg::node::element::{Group, Rectangle, Text};

use super::board::Drawn;
use super::face::{Edge, Known, card};
use super::style::{self, FELT, INK, MUTED, RULE, round, words};
use crate::engine::{PieceFace, View};
use crate::ir::{GameDef, ZoneId, ZoneLayout};

const CARD_W: f64 = 54.0;
const CARD_H: f64 = 72.0;
const GAP: f64 = 8.0;
const PAD: f64 = 10.0;
/// Room for a tray's label above it.
const LABEL_H: f64 = 18.0;

/// The pieces of a zone, equal ones together (in the order they first
/// appear, top first), each with how many there are.
fn runs(slots: &[Option<PieceFace>]) -> Vec<(&Option<PieceFace>, usize)> {
    let mut out: Vec<(&Option<PieceFace>, usize)> = vec![];
    for slot in slots {
        match out.iter_mut().find(|(s, _)| *s == slot) {
            Some((_, n)) => *n += 1,
            None => out.push((slot, 1)),
        }
    }
    out
}

/// How far each card of a fanned zone lies below the one under it: enough
/// to read its type and its corner.
const FAN_STEP: f64 = 22.0;

/// One zone as a tray: its name over a box of cards, wrapping at
/// `max_width`; a fanned zone's cards in one overlapping column.
fn tray(def: &GameDef, view: &View, zone: ZoneId, name: &str, max_width: f64, clickable: bool) -> Drawn {
    let slots = &view.zones[zone as usize];
    let fanned = def.families[def.zones[zone as usize].family as usize].layout == ZoneLayout::Fanned;
    // A fan shows every piece once, in its order: nothing is gathered.
    let runs: Vec<(&Option<PieceFace>, usize)> = if fanned {
        slots.iter().map(|slot| (slot, 1)).collect()
    } else {
        runs(slots)
    };
    let per_row = (((max_width - 2.0 * PAD + GAP) / (CARD_W + GAP)).floor() as usize).max(1);
    let cards = runs.len().max(1);
    let (rows, across) = if fanned {
        (1, 1)
    } else {
        (cards.div_ceil(per_row), cards.min(per_row))
    };
    let title = match slots.len() {
        0 => words(name),
        1 => format!("{} · 1 piece", words(name)),
        n => format!("{} · {n} pieces", words(name)),
    };
    let width = (2.0 * PAD + across as f64 * (CARD_W + GAP) - GAP).max(title.chars().count() as f64 * 6.6 + 8.0);
    // An empty tray needs only room to say so.
    let floor = if runs.is_empty() {
        30.0
    } else if fanned {
        CARD_H + (runs.len() - 1) as f64 * FAN_STEP
    } else {
        rows as f64 * (CARD_H + GAP) - GAP
    };
    let height = LABEL_H + 2.0 * PAD + floor;
    let mut group = Group::new()
        .set("class", "tray")
        .add(
            Text::new(title)
                .set("x", 2)
                .set("y", 12)
                .set("font-size", 12)
                .set("fill", INK),
        )
        .add(
            Rectangle::new()
                .set("x", 0)
                .set("y", LABEL_H)
                .set("width", round(width))
                .set("height", round(height - LABEL_H))
                .set("rx", 8)
                .set("fill", FELT)
                .set("stroke", RULE)
                .set("stroke-width", 1),
        );
    if runs.is_empty() {
        group = group.add(
            Text::new("empty")
                .set("x", round(width / 2.0))
                .set("y", round(LABEL_H + PAD + 15.0))
                .set("font-size", 12)
                .set("font-style", "italic")
                .set("text-anchor", "middle")
                .set("dominant-baseline", "central")
                .set("fill", MUTED),
        );
    }
    let place = def.zone_name(zone);
    // A fan is drawn from the bottom of the pile up, so the top card lies
    // last, whole, at the column's foot.
    let order: Vec<usize> = if fanned {
        (0..runs.len()).rev().collect()
    } else {
        (0..runs.len()).collect()
    };
    for i in order {
        let (slot, count) = runs[i];
        let (x, y) = if fanned {
            (PAD, LABEL_H + PAD + (runs.len() - 1 - i) as f64 * FAN_STEP)
        } else {
            let (r, c) = (i / per_row, i % per_row);
            (
                PAD + c as f64 * (CARD_W + GAP),
                LABEL_H + PAD + r as f64 * (CARD_H + GAP),
            )
        };
        let edge = if fanned { Edge::Face } else { Edge::Type };
        let drawn = card(
            def,
            Known::of(def, slot),
            (x, y),
            (CARD_W, CARD_H),
            (count, edge),
            &place,
        );
        group = group.add(if fanned && clickable {
            drawn.set("data-target", super::targets::slot_target(zone, i))
        } else if clickable {
            // Every position this card stands for: equal pieces are one card.
            let targets: Vec<String> = slots
                .iter()
                .enumerate()
                .filter(|(_, s)| *s == slot)
                .map(|(index, _)| super::targets::slot_target(zone, index))
                .collect();
            drawn.set("data-target", targets.join(" "))
        } else {
            drawn
        });
    }
    Drawn { group, width, height }
}

/// A panel's band: its heading, a note beside it, and its colour.
pub(super) struct Band<'a> {
    pub heading: &'a str,
    pub note: &'a str,
    pub accent: &'a str,
}

/// A panel: a heading, then trays left to right, wrapping at `width`.
/// `clickable` marks each card with the positions it stands for.
pub(super) fn panel(
    def: &GameDef,
    view: &View,
    band: &Band<'_>,
    zones: &[(ZoneId, String)],
    width: f64,
    clickable: bool,
) -> Drawn {
    let Band { heading, note, accent } = *band;
    let head_h = 30.0;
    let inner = width - 2.0 * PAD;
    let mut group = Group::new().set("class", "panel");
    let (mut x, mut y, mut row_h) = (PAD, head_h + 6.0, 0.0_f64);
    let mut trays = Group::new();
    for (zone, name) in zones {
        let t = tray(def, view, *zone, name, inner, clickable);
        if x > PAD && x + t.width > PAD + inner {
            x = PAD;
            y += row_h + GAP;
            row_h = 0.0;
        }
        trays = trays.add(
            t.group
                .set("transform", format!("translate({},{})", round(x), round(y))),
        );
        x += t.width + 2.0 * GAP;
        row_h = row_h.max(t.height);
    }
    // A seat with no zones (only counters) is its band alone.
    let height = if zones.is_empty() { head_h } else { y + row_h + PAD };
    group = group
        .add(
            Rectangle::new()
                .set("x", 0)
                .set("y", 0)
                .set("width", round(width))
                .set("height", round(height))
                .set("rx", 10)
                .set("fill", "#ffffff")
                // A light seat colour (white) still needs a visible frame.
                .set(
                    "stroke",
                    if style::is_pale(accent) {
                        style::edge_of(accent)
                    } else {
                        accent
                    },
                )
                .set("stroke-width", 2),
        )
        // A band of the seat's colour, with its name on it.
        .add(
            Rectangle::new()
                .set("x", 0)
                .set("y", 0)
                .set("width", round(width))
                .set("height", head_h)
                .set("rx", 10)
                .set("fill", accent)
                .set(
                    "stroke",
                    if style::is_pale(accent) {
                        style::edge_of(accent)
                    } else {
                        accent
                    },
                )
                .set("stroke-width", 2),
        )
        .add(
            Text::new(heading)
                .set("x", PAD + 2.0)
                .set("y", head_h / 2.0)
                .set("font-size", 15)
                .set("font-weight", 700)
                .set("dominant-baseline", "central")
                .set("fill", style::ink_on(accent)),
        )
        .add(trays);
    if !note.is_empty() {
        group = group.add(
            Text::new(note)
                .set("x", round(width - PAD - 2.0))
                .set("y", head_h / 2.0)
                .set("font-size", 13)
                .set("text-anchor", "end")
                .set("dominant-baseline", "central")
                .set("fill", style::ink_on(accent)),
        );
    }
    Drawn { group, width, height }
}
