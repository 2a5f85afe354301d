//! A print-and-play sheet: every component of a game on A4 pages, one
//! card each, with what the rules say of it, and cut marks between them.
//!
//! A card shows its kind (or its type) on a band of its colour, its value
//! large and in two corners, its type, what it does (`display X with text
//! "..."`, the type's and then the kind's) and whose it is. A die is a card
//! too, with its faces. Pages are drawn in millimetres, so that a page
//! printed at 100% cuts to cards of the usual size (63 × 88 mm).

use svg::Document;
use svg::node::element::{Group, Line, Rectangle, Text};

use super::face::shows_value;
use super::style::{self, FONT, INK, MUTED, centred_text, fitting_size, round};
use crate::engine::PieceFace;
use crate::ir::GameDef;

/// One component to print.
#[derive(Clone, Copy, Debug)]
pub struct Component {
    /// Its face, as it is printed: every part of it shown.
    pub face: PieceFace,
    /// A die's lowest and highest face; `None` for any other piece.
    pub die: Option<(i64, i64)>,
}

/// A4 portrait, in millimetres.
const PAGE: (f64, f64) = (210.0, 297.0);
/// A card: the usual playing card's size.
const CARD: (f64, f64) = (63.0, 88.0);
/// Cards across and down a page.
const GRID: (usize, usize) = (3, 3);
/// The band at a card's top that carries its name.
const BAND: f64 = 15.0;
/// How far a cut mark reaches out of the grid, and its gap from it.
const MARK: (f64, f64) = (6.0, 1.5);
/// Text on a card, in mm: its body at most and at least, and the
/// footnote of a page.
const BODY_SIZE: f64 = 3.4;
const SMALLEST_BODY: f64 = 2.2;
const FOOT_SIZE: f64 = 2.8;

/// Every component of `components`, in order, as pages of SVG (one
/// document a page); `source` names where the rules came from, for each
/// page's footnote.
pub fn sheet(def: &GameDef, components: &[Component], source: &str) -> Vec<String> {
    let per_page = GRID.0 * GRID.1;
    let pages = components.len().div_ceil(per_page).max(1);
    (0..pages)
        .map(|p| {
            let on_page = &components[(p * per_page).min(components.len())..((p + 1) * per_page).min(components.len())];
            page(def, on_page, (p + 1, pages), (components.len(), source)).to_string()
        })
        .collect()
}

/// The top-left corner of the card grid.
fn origin() -> (f64, f64) {
    let (w, h) = (CARD.0 * GRID.0 as f64, CARD.1 * GRID.1 as f64);
    ((PAGE.0 - w) / 2.0, (PAGE.1 - h) / 2.0 - 4.0)
}

fn page(
    def: &GameDef,
    cards: &[Component],
    (number, pages): (usize, usize),
    (total, source): (usize, &str),
) -> Document {
    let (x0, y0) = origin();
    let mut document = Document::new()
        .set("xmlns", "http://www.w3.org/2000/svg")
        .set("width", format!("{}mm", PAGE.0))
        .set("height", format!("{}mm", PAGE.1))
        .set("viewBox", (0, 0, PAGE.0, PAGE.1))
        .set("font-family", FONT)
        .add(
            Rectangle::new()
                .set("width", PAGE.0)
                .set("height", PAGE.1)
                .set("fill", "#ffffff"),
        );
    for (i, component) in cards.iter().enumerate() {
        let (col, row) = (i % GRID.0, i / GRID.0);
        let at = (x0 + col as f64 * CARD.0, y0 + row as f64 * CARD.1);
        document = document.add(card(def, component, at));
    }
    let rows = cards.len().div_ceil(GRID.0).max(1);
    document = document.add(cut_marks(rows));
    let footnote = format!(
        "{}: {total} component{} to cut out, page {number} of {pages} (rpsdsl print {source})",
        def.name,
        if total == 1 { "" } else { "s" }
    );
    document.add(
        Text::new(footnote)
            .set("x", PAGE.0 / 2.0)
            .set("y", PAGE.1 - 8.0)
            .set("font-size", FOOT_SIZE)
            .set("text-anchor", "middle")
            .set("fill", MUTED),
    )
}

/// Short lines in the margins along every card edge of a grid `rows`
/// deep: cut along them, edge to edge.
fn cut_marks(rows: usize) -> Group {
    let (x0, y0) = origin();
    let (x1, y1) = (x0 + CARD.0 * GRID.0 as f64, y0 + CARD.1 * rows as f64);
    let (reach, gap) = MARK;
    let line = |(xa, ya): (f64, f64), (xb, yb): (f64, f64)| {
        Line::new()
            .set("x1", round(xa))
            .set("y1", round(ya))
            .set("x2", round(xb))
            .set("y2", round(yb))
            .set("stroke", MUTED)
            .set("stroke-width", 0.2)
    };
    let mut marks = Group::new().set("class", "cut-marks");
    for c in 0..=GRID.0 {
        let x = x0 + c as f64 * CARD.0;
        marks = marks
            .add(line((x, y0 - gap - reach), (x, y0 - gap)))
            .add(line((x, y1 + gap), (x, y1 + gap + reach)));
    }
    for r in 0..=rows {
        let y = y0 + r as f64 * CARD.1;
        marks = marks
            .add(line((x0 - gap - reach, y), (x0 - gap, y)))
            .add(line((x1 + gap, y), (x1 + gap + reach, y)));
    }
    marks
}

/// What the rules say a piece does: its type's text, then its kind's.
fn texts(def: &GameDef, face: &PieceFace) -> Vec<String> {
    let type_text = def.type_texts.get(face.ty as usize).and_then(Option::as_deref);
    let kind_text = face.kind.and_then(|k| def.kinds[k as usize].text.as_deref());
    type_text.into_iter().chain(kind_text).map(str::to_string).collect()
}

/// One card with its top-left corner at `(x, y)`.
fn card(def: &GameDef, component: &Component, (x, y): (f64, f64)) -> Group {
    let face = &component.face;
    let colour = style::face_colour(def, face.kind, face.owner);
    let (w, h) = CARD;
    let (cx, ink_on_band) = (x + w / 2.0, style::ink_on(colour));
    let inset = 2.5;
    let ty = def.piece_types[face.ty as usize].clone();
    // Its kind's name where it has one, else its type's.
    let word = face
        .kind
        .map_or_else(|| ty.clone(), |k| def.kinds[k as usize].display.clone());
    let mut group = Group::new()
        .set("class", "card")
        // The card's outline is where to cut: a hairline, inside the marks.
        .add(
            Rectangle::new()
                .set("x", round(x + inset))
                .set("y", round(y + inset))
                .set("width", round(w - 2.0 * inset))
                .set("height", round(h - 2.0 * inset))
                .set("rx", 3)
                .set("fill", "#ffffff")
                .set("stroke", style::edge_of(colour))
                .set("stroke-width", 0.4),
        )
        .add(
            Rectangle::new()
                .set("x", round(x + inset))
                .set("y", round(y + inset))
                .set("width", round(w - 2.0 * inset))
                .set("height", BAND)
                .set("rx", 3)
                .set("fill", colour),
        );
    group = group.add(
        centred_text(
            word.clone(),
            cx,
            y + inset + BAND / 2.0,
            fitting_size(word.chars().count(), w - 26.0, 7.0).min(7.0),
            ink_on_band,
        )
        .set("font-weight", 700),
    );
    let valued = shows_value(def, face) && component.die.is_none();
    if valued {
        // The value in the band's corners, as a card held in a fan shows it.
        let corner = |cx: f64| centred_text(face.value.to_string(), cx, y + inset + BAND / 2.0, 5.0, ink_on_band);
        group = group
            .add(corner(x + inset + 5.5).set("font-weight", 700))
            .add(corner(x + w - inset - 5.5).set("font-weight", 700));
    }
    let mut body_y = y + inset + BAND + 6.0;
    // The type under the band, where the band shows a kind.
    if word != ty {
        group = group.add(centred_text(ty.clone(), cx, body_y, 3.6, MUTED));
        body_y += 5.0;
    }
    let picture = style::piece_picture(def, face.ty, face.kind);
    // The rules' shape for it, as a symbol on the card (a picture, where
    // the rules give one too, stands for it).
    if let Some(mark) = style::piece_shape(def, face.ty, face.kind).filter(|_| picture.is_none()) {
        group = group.add(style::shape(
            mark,
            (cx, body_y + 5.0),
            5.0,
            (colour, style::edge_of(colour), 0.4),
        ));
        body_y += 12.0;
    }
    // The rules' picture for it, leaving the card's text its room.
    if let Some(svg) = picture {
        let side = 16.0;
        group = group.add(style::picture(svg, (cx - side / 2.0, body_y), (side, side)));
        body_y += side + 3.0;
    }
    let big = match component.die {
        Some((low, high)) => Some(format!("{low}–{high}")),
        None => valued.then(|| face.value.to_string()),
    };
    if let Some(big) = big {
        let size = fitting_size(big.chars().count(), w - 16.0, 16.0).min(16.0);
        group = group.add(centred_text(big, cx, body_y + size / 2.0, size, INK).set("font-weight", 700));
        body_y += size + 2.0;
        if component.die.is_some() {
            group = group.add(centred_text("a die: its faces", cx, body_y, 3.0, MUTED));
            body_y += 4.0;
        }
    }
    // What it does, wrapped to the card, at the largest size at which it
    // all fits; what still does not fit ends in an ellipsis, never silently.
    // The owner's line takes the foot of the card where there is one.
    let bottom = y + h - inset - if face.owner.is_some() { 9.0 } else { 3.0 };
    let (size, paragraphs) = fitted(&texts(def, face), w - 2.0 * inset - 6.0, bottom - body_y);
    let mut line_y = body_y + 2.0 + size;
    'text: for (p, lines) in paragraphs.iter().enumerate() {
        for (l, line) in lines.iter().enumerate() {
            let last = line_y + size * 1.3 > bottom + size;
            let more = l + 1 < lines.len() || p + 1 < paragraphs.len();
            let shown = if last && more {
                format!("{line} …")
            } else {
                line.clone()
            };
            group = group.add(
                Text::new(shown)
                    .set("x", round(x + inset + 3.0))
                    .set("y", round(line_y))
                    .set("font-size", size)
                    .set("fill", INK),
            );
            if last {
                break 'text;
            }
            line_y += size * 1.3;
        }
        line_y += size * 0.5;
    }
    if let Some(owner) = face.owner {
        let seat = style::seat_colour(def, owner);
        group = group
            .add(
                Rectangle::new()
                    .set("x", round(x + inset + 3.0))
                    .set("y", round(y + h - inset - 7.0))
                    .set("width", 4)
                    .set("height", 4)
                    .set("rx", 1)
                    .set("fill", seat)
                    .set("stroke", style::edge_of(seat))
                    .set("stroke-width", 0.3),
            )
            .add(
                Text::new(format!("{}'s", def.seat_name(owner)))
                    .set("x", round(x + inset + 9.0))
                    .set("y", round(y + h - inset - 3.8))
                    .set("font-size", 3.4)
                    .set("fill", INK),
            );
    }
    group
}

/// `texts` wrapped to `width` mm at the largest size from [`BODY_SIZE`]
/// down to [`SMALLEST_BODY`] at which they fit `height` mm: the size, and
/// each text's lines. (A letter is about half the size wide.)
fn fitted(texts: &[String], width: f64, height: f64) -> (f64, Vec<Vec<String>>) {
    let mut size = BODY_SIZE;
    loop {
        let room = ((width / (size * 0.5)) as usize).max(8);
        let paragraphs: Vec<Vec<String>> = texts
            .iter()
            .map(|t| textwrap::wrap(t, room).into_iter().map(|l| l.into_owned()).collect())
            .collect();
        let lines: usize = paragraphs.iter().map(Vec::len).sum();
        let gaps = paragraphs.len().saturating_sub(1) as f64;
        let needed = size * (1.3 * lines as f64 + 0.5 * gaps + 0.5);
        if needed <= height || size <= SMALLEST_BODY {
            return (size, paragraphs);
        }
        size = (size - 0.2).max(SMALLEST_BODY);
    }
}
