//! Boards drawn from their declarations: a grid as squares with its
//! coordinates (a hex grid as a rhombus of hexagons), a graph from its
//! rings as concentric circles, its links as edges and a lone space in the
//! middle.

use std::f64::consts::PI;

use svg::node::element::path::Data;
use svg::node::element::{Circle, Group, Line, Path, Polygon, Rectangle, Text};

use super::face::{Known, disc};
use super::style::{FELT, INK, MUTED, RULE, centred_text as label, round, words};
use crate::engine::View;
use crate::ir::{Board, FamilyIndex, GameDef, SpaceGroup, ValueKind, VarDef, VarEach, ZoneId};

/// A drawn part of the page and the room it takes.
pub(super) struct Drawn {
    pub group: Group,
    pub width: f64,
    pub height: f64,
}

/// The zone families that hold one zone per space of board `b`: name and first zone.
pub(super) fn slots(def: &GameDef, b: u16) -> Vec<(&str, ZoneId)> {
    def.families
        .iter()
        .filter(|f| f.by == FamilyIndex::PerSpace(b))
        .map(|f| (f.name.as_str(), f.first))
        .collect()
}

/// Whether the board is a grid (rows x columns), not a graph.
pub(super) fn is_grid(board: &Board) -> bool {
    board.rows > 0 && board.rows as usize * board.cols as usize == board.spaces() as usize
}

/// Where the slots of one space sit around its centre, as offsets in units
/// of the space's size, and the radius of a piece in the same units.
fn slot_offsets(n: usize) -> (Vec<(f64, f64)>, f64) {
    match n {
        0 | 1 => (vec![(0.0, 0.0)], 0.38),
        2 => (vec![(-0.23, 0.0), (0.23, 0.0)], 0.21),
        3 => (vec![(-0.23, -0.2), (0.23, -0.2), (0.0, 0.24)], 0.19),
        _ => {
            let per_row = (n as f64).sqrt().ceil() as usize;
            let rows = n.div_ceil(per_row);
            let step = 1.0 / per_row.max(rows) as f64;
            let offsets = (0..n)
                .map(|i| {
                    let (r, c) = (i / per_row, i % per_row);
                    (
                        (c as f64 + 0.5) * step - 0.5 * per_row as f64 * step,
                        (r as f64 + 0.5) * step - 0.5 * rows as f64 * step,
                    )
                })
                .collect();
            (offsets, step * 0.42)
        }
    }
}

/// The pieces of every slot of space `s` of board `b`, centred on `(cx, cy)` in a space `size` across.
fn space_pieces(
    def: &GameDef,
    view: &View,
    slots: &[(&str, ZoneId)],
    b: u16,
    s: u16,
    centre: (f64, f64),
    size: f64,
) -> Group {
    let board = &def.boards[b as usize];
    let (offsets, r) = slot_offsets(slots.len());
    let mut group = Group::new();
    let mut empty = true;
    for ((name, first), (dx, dy)) in slots.iter().zip(offsets) {
        let zone = &view.zones[(first + s) as usize];
        // The top piece shows; a stack says how many it holds.
        let Some(top) = zone.first() else { continue };
        empty = false;
        let place = format!("{} of {}", words(name), board.space_name(s));
        group = group.add(disc(
            def,
            Known::of(def, top),
            centre.0 + dx * size,
            centre.1 + dy * size,
            r * size,
            zone.len(),
            &place,
        ));
    }
    // What the space's own variables hold: in the middle of an empty space,
    // else small along its bottom edge.
    if let Some(values) = space_values(def, view, b, s) {
        group = group.add(if empty {
            label(values, centre.0, centre.1, 15.0, INK).set("font-weight", 700)
        } else {
            label(values, centre.0, centre.1 + size * 0.36, 10.0, INK)
        });
    }
    group
}

/// The values a space's variables (`var ... per space of B`) hold, in
/// words: alone when the board has one numeric variable ("4"), by name
/// otherwise ("seeds 4"); a truth value by its name only when it holds.
fn space_values(def: &GameDef, view: &View, b: u16, s: u16) -> Option<String> {
    let vars: Vec<&VarDef> = def
        .vars
        .iter()
        .filter(|v| v.each == VarEach::Space(b) && !v.constant)
        .collect();
    let numbers = vars.iter().filter(|v| v.shows != ValueKind::Bool).count();
    let parts: Vec<String> = vars
        .iter()
        .filter_map(|v| {
            let value = view.vars.get(v.slot as usize + s as usize).copied().unwrap_or(0);
            match v.shows {
                ValueKind::Bool => (value != 0).then(|| words(&v.name)),
                _ if numbers == 1 => Some(def.show_value(v.shows, value)),
                _ => Some(format!("{} {}", words(&v.name), def.show_value(v.shows, value))),
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// A grid: squares in rows and columns, numbered as the rules name them,
/// with row numbers at the left and column numbers on top.
pub(super) fn grid(def: &GameDef, view: &View, b: u16, board: &Board, clickable: bool) -> Drawn {
    if board.hex {
        return hex_grid(def, view, b, board, clickable);
    }
    let slots = slots(def, b);
    let (rows, cols) = (board.rows as usize, board.cols as usize);
    let cell = (600.0 / rows.max(cols) as f64).clamp(56.0, 124.0);
    let margin = 26.0;
    let mut group = Group::new().set("class", "board");
    for c in 0..cols {
        let x = margin + (c as f64 + 0.5) * cell;
        group = group.add(label((c + 1).to_string(), x, margin / 2.0, 12.0, MUTED));
    }
    for r in 0..rows {
        let y = margin + (r as f64 + 0.5) * cell;
        group = group.add(label((r + 1).to_string(), margin / 2.0, y, 12.0, MUTED));
    }
    for s in 0..board.spaces() {
        let (row, col) = board.coordinates(s);
        let (x, y) = (margin + (col - 1) as f64 * cell, margin + (row - 1) as f64 * cell);
        // A light checker, so rows and columns are easy to follow by eye.
        let shade = if (row + col) % 2 == 0 { "#efe9dc" } else { "#e4dccb" };
        let square = Rectangle::new()
            .set("x", round(x))
            .set("y", round(y))
            .set("width", round(cell))
            .set("height", round(cell))
            .set("fill", shade)
            .set("stroke", RULE)
            .set("stroke-width", 1);
        // The space's number, as moves name it ("field 12").
        let number = Text::new((s + 1).to_string())
            .set("x", round(x + 4.0))
            .set("y", round(y + 12.0))
            .set("font-size", 10)
            .set("fill", MUTED);
        let pieces = space_pieces(def, view, &slots, b, s, (x + cell / 2.0, y + cell / 2.0 + 3.0), cell);
        group = if clickable {
            group.add(mark(Group::new().add(square).add(number).add(pieces), true, b, s))
        } else {
            group.add(square).add(number).add(pieces)
        };
    }
    Drawn {
        group,
        width: margin + cols as f64 * cell + 8.0,
        height: margin + rows as f64 * cell + 8.0,
    }
}

/// A hex grid: pointed-top hexagons, each row half a hexagon right of the
/// one above, numbered as the rules name them, with column numbers on top
/// and row numbers at the left of each row.
fn hex_grid(def: &GameDef, view: &View, b: u16, board: &Board, clickable: bool) -> Drawn {
    let slots = slots(def, b);
    let (rows, cols) = (board.rows as f64, board.cols as f64);
    // Across a hexagon (flat side to flat side), and its corner's distance from the middle.
    let across = (760.0 / (cols + (rows - 1.0) / 2.0)).clamp(40.0, 124.0);
    let corner = across / 3f64.sqrt();
    let margin = 26.0;
    let centre = |row: f64, col: f64| {
        (
            margin + (col - 1.0 + (row - 1.0) / 2.0) * across + across / 2.0,
            margin + (row - 1.0) * 1.5 * corner + corner,
        )
    };
    let mut group = Group::new().set("class", "board");
    for c in 1..=board.cols {
        let (x, _) = centre(1.0, f64::from(c));
        group = group.add(label(c.to_string(), x, margin / 2.0, 12.0, MUTED));
    }
    for r in 1..=board.rows {
        let (x, y) = centre(f64::from(r), 1.0);
        group = group.add(label(r.to_string(), x - across / 2.0 - 10.0, y, 12.0, MUTED));
    }
    for s in 0..board.spaces() {
        let (row, col) = board.coordinates(s);
        let (x, y) = centre(row as f64, col as f64);
        let points: Vec<String> = (0..6)
            .map(|k| {
                let angle = PI / 6.0 + f64::from(k) * PI / 3.0;
                format!(
                    "{},{}",
                    round(x + corner * angle.cos()),
                    round(y + corner * angle.sin())
                )
            })
            .collect();
        // Three shades, so that no two touching hexagons look alike.
        let shade = ["#efe9dc", "#e4dccb", "#eae3d3"][(row - col).rem_euclid(3) as usize];
        let hexagon = Polygon::new()
            .set("points", points.join(" "))
            .set("fill", shade)
            .set("stroke", RULE)
            .set("stroke-width", 1);
        let number = Text::new((s + 1).to_string())
            .set("x", round(x))
            .set("y", round(y - corner / 2.0))
            .set("text-anchor", "middle")
            .set("font-size", 10)
            .set("fill", MUTED);
        let pieces = space_pieces(def, view, &slots, b, s, (x, y + 3.0), across * 0.8);
        group = if clickable {
            group.add(mark(Group::new().add(hexagon).add(number).add(pieces), true, b, s))
        } else {
            group.add(hexagon).add(number).add(pieces)
        };
    }
    let (last_x, last_y) = centre(rows, cols);
    Drawn {
        group,
        width: last_x + across / 2.0 + 8.0,
        height: last_y + corner + 8.0,
    }
}

/// One run of spaces on a circle: its spaces and radius.
struct Circuit {
    first: u16,
    len: u16,
    radius: f64,
    /// A ring, drawn as a circle; lone spaces are only placed on one.
    ring: bool,
}

/// A graph board: each ring a circle (the largest outside), its first
/// space at the left and the rest counter-clockwise along the bottom; a
/// lone space in the middle, or where its `at (x, y)` hint puts it; every
/// link an edge.
pub(super) fn graph(def: &GameDef, view: &View, b: u16, board: &Board, clickable: bool) -> Drawn {
    let slots = slots(def, b);
    let outer = 260.0;
    let mut rings: Vec<_> = board
        .groups
        .iter()
        .filter(|g| g.numbered && g.along.is_none())
        .collect();
    rings.sort_by_key(|g| std::cmp::Reverse(g.len));
    // Single spaces placed by `at (x, y)`, and rings laid along a line by
    // `from (x, y) to (x, y)`, in pixels from the middle.
    let scale = outer / 100.0;
    let hinted: Vec<(u16, f64, f64)> = board.groups.iter().flat_map(|g| hinted_spaces(g, scale)).collect();
    let lone: Vec<u16> = board
        .groups
        .iter()
        .filter(|g| !g.numbered && g.at.is_none())
        .flat_map(|g| g.first..g.first + g.len)
        .collect();
    let mut circuits: Vec<Circuit> = rings
        .iter()
        .enumerate()
        .map(|(k, g)| Circuit {
            first: g.first,
            len: g.len,
            radius: outer * (1.0 - 0.55 * k as f64 / rings.len() as f64),
            ring: true,
        })
        .collect();
    // Lone spaces without a hint: one in the middle; several (or one beside
    // hinted ones) on a small circle of their own.
    let mut centre_space = None;
    match lone.len() {
        0 => {}
        // The middle, unless a hint may have put a space there already.
        1 if hinted.is_empty() => centre_space = Some(lone[0]),
        _ => {
            let radius = if rings.is_empty() { outer * 0.8 } else { outer * 0.22 };
            for &s in &lone {
                circuits.push(Circuit {
                    first: s,
                    len: 1,
                    radius,
                    ring: false,
                });
            }
        }
    }
    let mut positions = place(board, &circuits, centre_space);
    for &(s, x, y) in &hinted {
        positions[s as usize] = (y.atan2(x), x.hypot(y));
    }
    // The picture spans every ring and every space, so a hint may place a
    // space beyond the largest ring, on whichever side.
    let ring_extent = circuits.iter().filter(|c| c.ring).map(|c| c.radius).fold(0.0, f64::max);
    let (mut left, mut top, mut right, mut bottom) = (-ring_extent, -ring_extent, ring_extent, ring_extent);
    for &(angle, radius) in &positions {
        let (x, y) = (radius * angle.cos(), radius * angle.sin());
        (left, right) = (left.min(x), right.max(x));
        (top, bottom) = (top.min(y), bottom.max(y));
    }
    // Pieces as large as the tightest circle (or line) allows.
    let along_room = board.groups.iter().filter_map(|g| {
        let ((x1, y1), (x2, y2)) = g.along?;
        let length = (f64::from(x2) - f64::from(x1)).hypot(f64::from(y2) - f64::from(y1)) * scale;
        (g.len > 1).then(|| length / f64::from(g.len - 1) * 0.4)
    });
    let piece_r = circuits
        .iter()
        .filter(|c| c.ring)
        .map(|c| PI * c.radius / c.len.max(1) as f64 * 0.8)
        .chain(along_room)
        .fold(30.0_f64, f64::min)
        .max(9.0);
    let margin = piece_r + 34.0;
    // Where the middle of the rings falls in the picture.
    let (mid_x, mid_y) = (margin - left, margin - top);
    let at = |s: u16| {
        let (angle, radius) = positions[s as usize];
        (mid_x + radius * angle.cos(), mid_y + radius * angle.sin())
    };
    let edges = graph_edges(board, &circuits, &at);
    let mut spaces = Group::new();
    let mut pieces = Group::new();
    for s in 0..board.spaces() {
        let (x, y) = at(s);
        let circle = Circle::new()
            .set("cx", round(x))
            .set("cy", round(y))
            .set("r", round(piece_r + 3.0))
            .set("fill", FELT)
            .set("stroke", RULE)
            .set("stroke-width", 1.5);
        spaces = spaces.add(if clickable {
            circle.set("data-target", super::targets::space_target(b, s))
        } else {
            circle
        });
        // The space's name, as moves name it ("outer 3"), just outside it.
        let (angle, radius) = positions[s as usize];
        let name = board.space_name(s);
        // Outside the outermost ring, inside the others (where there is
        // room), running away from the space so no piece covers it.
        let placed_by_hint = hinted.iter().any(|&(h, _, _)| h == s);
        let named = if radius == 0.0 || placed_by_hint {
            label(name, x, y + piece_r + 16.0, 11.0, MUTED)
        } else {
            let outward = if radius >= outer { 1.0 } else { -1.0 };
            let off = radius + outward * (piece_r + 8.0);
            let (lx, ly) = (mid_x + off * angle.cos(), mid_y + off * angle.sin() + 4.0 * angle.sin());
            let side = angle.cos() * outward;
            let anchor = if side > 0.35 {
                "start"
            } else if side < -0.35 {
                "end"
            } else {
                "middle"
            };
            let ly = if anchor == "middle" {
                ly + outward * 6.0 * angle.sin().signum()
            } else {
                ly
            };
            label(name, lx, ly, 11.0, MUTED).set("text-anchor", anchor)
        };
        spaces = spaces.add(named);
        let on_space = space_pieces(def, view, &slots, b, s, (x, y), piece_r * 2.0 / 0.76);
        pieces = pieces.add(mark(on_space, clickable, b, s));
    }
    Drawn {
        group: Group::new().set("class", "board").add(edges).add(spaces).add(pieces),
        width: right - left + 2.0 * margin,
        height: bottom - top + 2.0 * margin,
    }
}

/// Every link of a graph board: an arc between neighbours on a ring, a
/// straight line otherwise. `at` is where each space is drawn.
fn graph_edges(board: &Board, circuits: &[Circuit], at: &dyn Fn(u16) -> (f64, f64)) -> Group {
    let ring_of = |s: u16| {
        circuits
            .iter()
            .position(|c| c.ring && (c.first..c.first + c.len).contains(&s))
    };
    let mut edges = Group::new()
        .set("stroke", RULE)
        .set("stroke-width", 2.5)
        .set("fill", "none");
    for a in 0..board.spaces() {
        for &z in &board.adjacent[a as usize] {
            if z <= a {
                continue;
            }
            let (p, q) = (at(a), at(z));
            match (ring_of(a), ring_of(z)) {
                // Neighbours on a ring: the arc between them.
                (Some(i), Some(j)) if i == j && circular_neighbours(&circuits[i], a, z) => {
                    let radius = circuits[i].radius;
                    let (from, to) = if (z - a) == 1 { (p, q) } else { (q, p) };
                    let data = Data::new()
                        .move_to((round(from.0), round(from.1)))
                        // Counter-clockwise on screen: sweep flag 0.
                        .elliptical_arc_to((round(radius), round(radius), 0, 0, 0, round(to.0), round(to.1)));
                    edges = edges.add(Path::new().set("d", data));
                }
                _ => {
                    edges = edges.add(
                        Line::new()
                            .set("x1", round(p.0))
                            .set("y1", round(p.1))
                            .set("x2", round(q.0))
                            .set("y2", round(q.1)),
                    );
                }
            }
        }
    }
    edges
}

/// The spaces of a group that its hint places, in pixels from the middle:
/// a single space `at (x, y)`, or a ring's spaces evenly `from` its first
/// `to` its last.
fn hinted_spaces(g: &SpaceGroup, scale: f64) -> Vec<(u16, f64, f64)> {
    if let Some((x, y)) = g.at {
        return vec![(g.first, f64::from(x) * scale, f64::from(y) * scale)];
    }
    let Some(((x1, y1), (x2, y2))) = g.along else {
        return vec![];
    };
    let (x1, y1, x2, y2) = (f64::from(x1), f64::from(y1), f64::from(x2), f64::from(y2));
    (0..g.len)
        .map(|i| {
            let t = if g.len > 1 {
                f64::from(i) / f64::from(g.len - 1)
            } else {
                0.0
            };
            (g.first + i, (x1 + t * (x2 - x1)) * scale, (y1 + t * (y2 - y1)) * scale)
        })
        .collect()
}

/// A space's drawing, marked as that space when the picture is clickable.
fn mark(group: Group, clickable: bool, b: u16, s: u16) -> Group {
    if clickable {
        group.set("data-target", super::targets::space_target(b, s))
    } else {
        group
    }
}

/// Whether `a` and `z` follow each other around the circuit (wrapping).
fn circular_neighbours(c: &Circuit, a: u16, z: u16) -> bool {
    let (i, j) = (a - c.first, z - c.first);
    j == i + 1 || (i == 0 && j + 1 == c.len && c.len > 2)
}

/// Each space's angle (radians, on screen) and distance from the centre.
/// The largest ring starts at the left and runs counter-clockwise along
/// the bottom; every other ring is turned to sit beside the spaces it
/// links to (the mean angle of its links to rings already placed).
fn place(board: &Board, circuits: &[Circuit], centre: Option<u16>) -> Vec<(f64, f64)> {
    let mut pos: Vec<Option<(f64, f64)>> = vec![None; board.spaces() as usize];
    let ring_circuits: Vec<&Circuit> = circuits.iter().filter(|c| c.ring).collect();
    for c in &ring_circuits {
        let base = |i: u16| PI - 2.0 * PI * (f64::from(i) + 0.5) / f64::from(c.len);
        // The mean of (neighbour's angle - own angle) over links to placed spaces.
        let (mut sx, mut sy) = (0.0, 0.0);
        for i in 0..c.len {
            let s = c.first + i;
            for &n in &board.adjacent[s as usize] {
                if let Some((angle, _)) = pos[n as usize] {
                    let d = angle - base(i);
                    sx += d.cos();
                    sy += d.sin();
                }
            }
        }
        let turn = if sx == 0.0 && sy == 0.0 { 0.0 } else { sy.atan2(sx) };
        for i in 0..c.len {
            pos[(c.first + i) as usize] = Some((base(i) + turn, c.radius));
        }
    }
    // Lone spaces on a circle of their own, in declaration order from the left.
    let others: Vec<&Circuit> = circuits.iter().filter(|c| !c.ring).collect();
    for (k, c) in others.iter().enumerate() {
        let angle = PI - 2.0 * PI * (k as f64 + 0.5) / others.len() as f64;
        pos[c.first as usize] = Some((angle, c.radius));
    }
    if let Some(s) = centre {
        pos[s as usize] = Some((0.0, 0.0));
    }
    pos.into_iter().map(|p| p.unwrap_or((0.0, 0.0))).collect()
}
