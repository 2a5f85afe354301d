//! Pictures of a position: SVG drawn from the declarations and one view.
//!
//! This room reads only [`crate::ir`] and an [`engine::View`](View), and
//! knows no game: a grid is drawn as squares, a graph board from its
//! rings, zones as trays, pieces as discs and cards. What a seat may not
//! know never reaches the picture, because the view it is drawn from does
//! not hold it (a piece the seat does not know is drawn as its back).
//!
//! Text goes into the document only as text nodes, which the `svg` crate
//! escapes; attribute values are numbers and colours of our own.

mod board;
mod face;
mod sheet;
mod style;
mod targets;
mod tray;

use svg::Document;
use svg::node::element::{Circle, Group, Rectangle, Text};

pub use face::title as face_title;
pub use sheet::{Component, sheet};
pub use targets::{slot_target, space_target};

use crate::engine::View;
use crate::ir::{FamilyIndex, GameDef, Seat, ValueKind, VarDef, VarEach, ZoneId, ZoneLayout, grid::DIRECTIONS};
use board::Drawn;
use style::{BACKGROUND, FONT, INK, MUTED, round, words};

/// What is drawn beside the position.
pub struct Frame<'a> {
    /// Whose view the picture shows; `None` for everything.
    pub viewer: Option<Seat>,
    /// Lines under the game's name: the position, the result.
    pub caption: &'a [String],
}

/// The page's width at least, and its margin.
const MIN_WIDTH: f64 = 820.0;
const MARGIN: f64 = 20.0;
const GAP: f64 = 16.0;

/// The position in `view` as a standalone SVG document.
pub fn svg(def: &GameDef, view: &View, frame: &Frame<'_>) -> String {
    draw(def, view, frame, false)
}

/// [`svg`], with every board space and every piece off the board marked
/// with the place it is (`data-target`, see [`space_target`] and
/// [`slot_target`]), so a page can tell which one was clicked.
pub fn clickable_svg(def: &GameDef, view: &View, frame: &Frame<'_>) -> String {
    draw(def, view, frame, true)
}

fn draw(def: &GameDef, view: &View, frame: &Frame<'_>, clickable: bool) -> String {
    let boards: Vec<(Drawn, String)> = def
        .boards
        .iter()
        .enumerate()
        .map(|(b, board)| {
            let drawn = if board::is_grid(board) {
                board::grid(def, view, b as u16, board, clickable)
            } else {
                board::graph(def, view, b as u16, board, clickable)
            };
            (drawn, words(&board.name))
        })
        .collect();
    let boards_width: f64 =
        boards.iter().map(|(d, _)| d.width).sum::<f64>() + GAP * boards.len().saturating_sub(1) as f64;
    let width = (boards_width + 2.0 * MARGIN).max(MIN_WIDTH);
    let inner = width - 2.0 * MARGIN;

    let mut page = Group::new();
    let mut y = MARGIN;
    // The game's name and the caption.
    page = page.add(
        Text::new(def.name.clone())
            .set("x", MARGIN)
            .set("y", round(y + 18.0))
            .set("font-size", 22)
            .set("font-weight", 700)
            .set("fill", INK),
    );
    y += 30.0;
    let mut caption: Vec<String> = frame.caption.to_vec();
    if let Some(counters) = shared_counters(def, view) {
        caption.push(counters);
    }
    // Wrapped to the page: at 13 px a character is about 7 px wide.
    let room = ((inner / 7.0) as usize).max(20);
    let caption: Vec<String> = caption
        .iter()
        .flat_map(|line| textwrap::wrap(line, room).into_iter().map(|l| l.into_owned()))
        .collect();
    for line in &caption {
        page = page.add(
            Text::new(line.clone())
                .set("x", MARGIN)
                .set("y", round(y + 13.0))
                .set("font-size", 13)
                .set("fill", MUTED),
        );
        y += 19.0;
    }
    y += 10.0;

    let (top, bottom): (Vec<Seat>, Vec<Seat>) = (0..def.players() as Seat).partition(|&s| sits_at_top(def, s));
    for &seat in &top {
        let p = seat_panel(def, view, frame, seat, inner, clickable);
        page = page.add(p.group.set("transform", translate(MARGIN, y)));
        y += p.height + GAP;
    }
    if !boards.is_empty() {
        let mut x = MARGIN + (inner - boards_width) / 2.0;
        let tallest = boards.iter().map(|(d, _)| d.height).fold(0.0, f64::max);
        for (drawn, name) in boards {
            let named = Text::new(name)
                .set("x", round(x + drawn.width / 2.0))
                .set("y", round(y + 12.0))
                .set("font-size", 14)
                .set("font-weight", 600)
                .set("text-anchor", "middle")
                .set("fill", INK);
            page = page
                .add(named)
                .add(drawn.group.set("transform", translate(x, y + 20.0)));
            x += drawn.width + GAP;
        }
        y += tallest + 20.0 + GAP;
    }
    let shared: Vec<(ZoneId, String)> = def
        .families
        .iter()
        .skip(1)
        .filter(|f| f.by == FamilyIndex::Single && f.layout != ZoneLayout::OffTheTable)
        .map(|f| (f.first, f.name.clone()))
        .collect();
    if !shared.is_empty() {
        let band = tray::Band {
            heading: "Table",
            note: "",
            accent: "#d8d0bd",
        };
        let p = tray::panel(def, view, &band, &shared, inner, clickable);
        page = page.add(p.group.set("transform", translate(MARGIN, y)));
        y += p.height + GAP;
    }
    for &seat in &bottom {
        let p = seat_panel(def, view, frame, seat, inner, clickable);
        page = page.add(p.group.set("transform", translate(MARGIN, y)));
        y += p.height + GAP;
    }
    let (legend, legend_h) = legend(def, view, frame);
    page = page.add(legend.set("transform", translate(MARGIN, y)));
    y += legend_h + MARGIN;

    let document = Document::new()
        .set("viewBox", (0, 0, round(width), round(y)))
        .set("width", round(width))
        .set("height", round(y))
        // Set once here: every text inherits it.
        .set("font-family", FONT)
        .add(
            Rectangle::new()
                .set("width", "100%")
                .set("height", "100%")
                .set("fill", BACKGROUND),
        )
        .add(page);
    let mut out = document.to_string();
    out.push('\n');
    out
}

fn translate(x: f64, y: f64) -> String {
    format!("translate({},{})", round(x), round(y))
}

/// Whether a seat sits across the table from the first: the side its
/// pieces start on, read from the direction it moves forward on a grid
/// (a seat moving south starts at the top); without one, every seat but
/// the first.
fn sits_at_top(def: &GameDef, seat: Seat) -> bool {
    let forward = def
        .boards
        .iter()
        .find_map(|b| b.forward.get(seat as usize))
        .map(|&d| DIRECTIONS[d as usize % DIRECTIONS.len()].1);
    match forward {
        Some(down) if down > 0 => true,
        Some(down) if down < 0 => false,
        _ => seat != 0,
    }
}

/// One seat's panel: its name in its colour, its counters, its zones.
fn seat_panel(def: &GameDef, view: &View, frame: &Frame<'_>, seat: Seat, width: f64, clickable: bool) -> Drawn {
    let zones: Vec<(ZoneId, String)> = def
        .families
        .iter()
        .filter(|f| f.by == FamilyIndex::PerPlayer && f.layout != ZoneLayout::OffTheTable)
        .map(|f| (f.first + ZoneId::from(seat), f.name.clone()))
        .collect();
    let mut heading = def.seat_name(seat).to_string();
    if frame.viewer == Some(seat) {
        heading.push_str(" (you)");
    }
    let counters: Vec<String> = def
        .vars
        .iter()
        .filter(|v| v.each == VarEach::Player && !v.constant)
        .filter_map(|v| {
            counter(
                def,
                v,
                view.vars.get(v.slot as usize + seat as usize).copied().unwrap_or(0),
            )
        })
        .collect();
    let band = tray::Band {
        heading: &heading,
        note: &counters.join(" · "),
        accent: style::seat_colour(def, seat),
    };
    tray::panel(def, view, &band, &zones, width, clickable)
}

/// The game's shared counters in words: "pot 20 · turn 3".
fn shared_counters(def: &GameDef, view: &View) -> Option<String> {
    let parts: Vec<String> = def
        .vars
        .iter()
        .filter(|v| v.each == VarEach::Game && !v.constant)
        .filter_map(|v| counter(def, v, view.vars.get(v.slot as usize).copied().unwrap_or(0)))
        .collect();
    (!parts.is_empty()).then(|| parts.join(" · "))
}

/// A counter in words: "chips 90"; a truth value by its name while it
/// holds ("protected"), and not at all otherwise.
fn counter(def: &GameDef, v: &VarDef, value: i64) -> Option<String> {
    match v.shows {
        ValueKind::Bool => (value != 0).then(|| words(&v.name)),
        _ => Some(format!("{} {}", words(&v.name), def.show_value(v.shows, value))),
    }
}

/// The key: each seat's colour, what a `?` means, which kind beats which,
/// and what each space of a board with several slots holds.
fn legend(def: &GameDef, view: &View, frame: &Frame<'_>) -> (Group, f64) {
    let mut group = Group::new().set("class", "legend");
    let mut x = 0.0;
    for seat in 0..def.players() as Seat {
        let colour = style::seat_colour(def, seat);
        let mut name = def.seat_name(seat).to_string();
        if frame.viewer == Some(seat) {
            name.push_str(" (you)");
        }
        group = group
            .add(
                Circle::new()
                    .set("cx", round(x + 8.0))
                    .set("cy", 9)
                    .set("r", 7)
                    .set("fill", colour)
                    .set("stroke", style::edge_of(colour)),
            )
            .add(line_text(name.clone(), x + 20.0, 9.0, INK));
        x += 36.0 + name.chars().count() as f64 * 7.5;
    }
    let mut lines = vec![];
    // Say what a `?` means only where the picture has one.
    // The box (family 0, the pieces left out of the game) is never drawn.
    let in_play = usize::from(def.families[0].first) + 1;
    let slots = || view.zones.iter().skip(in_play).flatten();
    if slots().any(|slot| matches!(face::Known::of(def, slot), face::Known::Back(_))) {
        lines.push("?  in a seat's colour: a piece you see but whose kind you do not know (its back)".to_string());
    }
    if slots().any(Option::is_none) {
        lines.push("?  in grey: a piece you do not see".to_string());
    }
    let beats: Vec<String> = (0..def.kinds.len())
        .flat_map(|a| (0..def.kinds.len()).map(move |b| (a, b)))
        .filter(|&(a, b)| def.beats[a * def.kinds.len() + b])
        .map(|(a, b)| format!("{} beats {}", def.kinds[a].display, def.kinds[b].display))
        .collect();
    if !beats.is_empty() {
        lines.push(beats.join(" · "));
    }
    for (b, board) in def.boards.iter().enumerate() {
        if !board::is_grid(board) {
            lines.push(format!(
                "{}: lines and arcs join the spaces that touch",
                words(&board.name)
            ));
        }
        let slots = board::slots(def, b as u16);
        if slots.len() > 1 {
            let names: Vec<String> = slots.iter().map(|(n, _)| words(n)).collect();
            lines.push(format!(
                "each space of {} holds, in reading order: {}",
                words(&board.name),
                names.join(", ")
            ));
        }
    }
    let mut y = 30.0;
    for line in lines {
        group = group.add(line_text(line, 0.0, y, MUTED));
        y += 19.0;
    }
    (group, y)
}

fn line_text(content: String, x: f64, y: f64, fill: &str) -> Text {
    Text::new(content)
        .set("x", round(x))
        .set("y", round(y))
        .set("font-size", 13)
        .set("dominant-baseline", "central")
        .set("fill", fill)
}
