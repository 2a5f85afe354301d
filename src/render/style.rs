//! Colours, fonts and text sizes shared by every part of a picture.

use svg::node::element::{Circle, Image, Polygon, Text};

use crate::ir::{GameDef, Seat, Shape};

/// The one font family: what every browser has.
pub(super) const FONT: &str = "system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif";
/// Ink for text and outlines.
pub(super) const INK: &str = "#2b2b33";
/// Ink for secondary text: coordinates, space numbers, counts.
pub(super) const MUTED: &str = "#6b6b78";
/// The page behind everything.
pub(super) const BACKGROUND: &str = "#faf8f3";
/// A board's spaces and a tray's floor.
pub(super) const FELT: &str = "#ece6d8";
/// Lines between spaces, and tray borders.
pub(super) const RULE: &str = "#b9b09c";
/// A piece that belongs to no one.
pub(super) const NEUTRAL: &str = "#f3ead2";
/// The back of a piece the viewer does not know.
pub(super) const BACK: &str = "#5b5f73";

/// Colours for seats whose names are not colours: distinct, and readable
/// with dark or light text, in seat order.
const PALETTE: [&str; 8] = [
    "#e07a2f", "#3a78c2", "#4f9a5a", "#b24a8f", "#c9a227", "#6a5acd", "#2aa7a0", "#a0522d",
];

/// Seat names that are colours (or tones) get that colour, so "Orange"
/// plays orange and "white" plays white. Keys are lower case.
const NAMED: [(&str, &str); 16] = [
    ("black", "#2f2f36"),
    ("white", "#f7f7f2"),
    ("light", "#f1e3b8"),
    ("dark", "#3d3a4f"),
    ("red", "#c8372d"),
    ("blue", "#3a78c2"),
    ("green", "#4f9a5a"),
    ("yellow", "#e3c12f"),
    ("orange", "#e07a2f"),
    ("purple", "#7d4fb0"),
    ("pink", "#e58fb4"),
    ("brown", "#8b5a2b"),
    ("grey", "#8a8a8a"),
    ("gray", "#8a8a8a"),
    ("gold", "#d4a017"),
    ("silver", "#b8bcc4"),
];

/// The colour of a seat's pieces: the rules' hint (`display Light in
/// colour "#f1e3b8"`), else its name's colour when the name is one, else
/// the next unused palette colour.
pub(super) fn seat_colour(def: &GameDef, seat: Seat) -> &str {
    if let Some(Some(hint)) = def.seat_colours.get(seat as usize) {
        return hint;
    }
    let named = |s: usize| {
        let name = def.seats[s].to_ascii_lowercase();
        NAMED.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
    };
    if let Some(colour) = named(seat as usize) {
        return colour;
    }
    // Palette colours in seat order, skipping those a named seat took.
    let taken: Vec<&str> = (0..def.players()).filter_map(named).collect();
    let mut free = PALETTE.iter().filter(|c| !taken.contains(c));
    let unnamed_before = (0..seat as usize).filter(|&s| named(s).is_none()).count();
    free.nth(unnamed_before % PALETTE.len())
        .copied()
        .unwrap_or(PALETTE[seat as usize % PALETTE.len()])
}

/// The colour of a piece with this owner.
pub(super) fn owner_colour(def: &GameDef, owner: Option<Seat>) -> &str {
    owner.map_or(NEUTRAL, |s| seat_colour(def, s))
}

/// The colour of a piece seen face up: its kind's (`display spades in
/// colour "#2b2b3a"`) when the rules give one, else its owner's. A piece
/// seen from the back shows its owner's: its kind is not known.
pub(super) fn face_colour(def: &GameDef, kind: Option<u16>, owner: Option<Seat>) -> &str {
    kind.and_then(|k| def.kinds.get(k as usize))
        .and_then(|k| k.colour.as_deref())
        .unwrap_or_else(|| owner_colour(def, owner))
}

/// Whether `colour` ("#rrggbb") is light enough to need dark text.
pub(super) fn is_light(colour: &str) -> bool {
    luminance(colour) > 0.5
}

/// Whether `colour` is so light (white) that it vanishes on the page, so
/// a frame of it needs a darker edge.
pub(super) fn is_pale(colour: &str) -> bool {
    luminance(colour) > 0.85
}

fn luminance(colour: &str) -> f64 {
    let channel = |i: usize| {
        colour
            .get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(0.0, |v| f64::from(v) / 255.0)
    };
    // Relative luminance, roughly (sRGB weights).
    0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5)
}

/// Text that reads on `colour`.
pub(super) fn ink_on(colour: &str) -> &'static str {
    if is_light(colour) { INK } else { "#ffffff" }
}

/// An outline a little darker than `colour`, so a white piece still shows
/// on a light board.
pub(super) fn edge_of(colour: &str) -> &'static str {
    if is_light(colour) { "#8c836e" } else { "#1f1f26" }
}

/// The font size at which a word of `letters` letters fits `width`, at
/// most `max` (an average bold sans-serif letter is about 0.64 em wide).
pub(super) fn fitting_size(letters: usize, width: f64, max: f64) -> f64 {
    let letters = letters.max(1) as f64;
    round((width / (letters * 0.64)).min(max).max(6.0))
}

/// Coordinates to a tenth: short output, and the same on every machine.
pub(super) fn round(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// A name as written in the rules, for people: `spare_pile` reads "spare pile".
pub(super) fn words(name: &str) -> String {
    name.replace('_', " ")
}

/// Text centred on `(x, y)`, both ways.
pub(super) fn centred_text(content: impl Into<String>, x: f64, y: f64, size: f64, fill: &str) -> Text {
    Text::new(content)
        .set("x", round(x))
        .set("y", round(y))
        .set("font-size", size)
        .set("text-anchor", "middle")
        .set("dominant-baseline", "central")
        .set("fill", fill)
}

/// `shape` centred on `(cx, cy)`, reaching `r` from its centre, filled
/// with `fill` and outlined with `stroke` (`width` wide).
pub(super) fn shape(
    shape: Shape,
    (cx, cy): (f64, f64),
    r: f64,
    (fill, stroke, width): (&str, &str, f64),
) -> svg::node::element::Group {
    let group = svg::node::element::Group::new();
    if shape == Shape::Circle {
        return group.add(
            Circle::new()
                .set("cx", round(cx))
                .set("cy", round(cy))
                .set("r", round(r))
                .set("fill", fill)
                .set("stroke", stroke)
                .set("stroke-width", width),
        );
    }
    // Corners at these angles (degrees, 0 up, clockwise) and distances.
    let corners: Vec<(f64, f64)> = match shape {
        Shape::Square => [45.0, 135.0, 225.0, 315.0].iter().map(|&a| (a, r * 0.92)).collect(),
        Shape::Triangle => [0.0, 120.0, 240.0].iter().map(|&a| (a, r * 1.1)).collect(),
        Shape::Diamond => [0.0, 90.0, 180.0, 270.0].iter().map(|&a| (a, r)).collect(),
        Shape::Hexagon => (0..6).map(|i| (60.0 * f64::from(i), r)).collect(),
        Shape::Star => (0..10)
            .map(|i| (36.0 * f64::from(i), if i % 2 == 0 { r * 1.05 } else { r * 0.45 }))
            .collect(),
        Shape::Circle => unreachable!("drawn above"),
    };
    // A triangle's middle sits low, so it is centred by its height.
    let lift = if shape == Shape::Triangle { r * 0.2 } else { 0.0 };
    let points: Vec<String> = corners
        .iter()
        .map(|&(degrees, d)| {
            let a = degrees.to_radians();
            format!("{},{}", round(cx + d * a.sin()), round(cy + lift - d * a.cos()))
        })
        .collect();
    group.add(
        Polygon::new()
            .set("points", points.join(" "))
            .set("fill", fill)
            .set("stroke", stroke)
            .set("stroke-width", width)
            .set("stroke-linejoin", "round"),
    )
}

/// The shape a piece is drawn as, where the rules give one: its kind's,
/// seen face up, else its type's (a type shows on a back too).
pub(super) fn piece_shape(def: &GameDef, ty: u16, kind: Option<u16>) -> Option<Shape> {
    kind.and_then(|k| def.kinds.get(k as usize))
        .and_then(|k| k.shape)
        .or_else(|| def.type_shapes.get(ty as usize).copied().flatten())
}

/// The picture drawn on a piece, where the rules give one: its kind's,
/// seen face up, else its type's.
pub(super) fn piece_picture(def: &GameDef, ty: u16, kind: Option<u16>) -> Option<&str> {
    kind.and_then(|k| def.kinds.get(k as usize))
        .and_then(|k| k.picture.as_deref())
        .or_else(|| def.type_pictures.get(ty as usize).and_then(|p| p.as_deref()))
}

/// An SVG picture fitted, in proportion, into the box at `(x, y)` of
/// `(w, h)`: an image of a data URL, so that nothing in the file runs or
/// reaches the page around it, whatever it holds.
pub(super) fn picture(svg: &str, (x, y): (f64, f64), (w, h): (f64, f64)) -> Image {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD.encode(svg);
    Image::new()
        .set("x", round(x))
        .set("y", round(y))
        .set("width", round(w))
        .set("height", round(h))
        .set("preserveAspectRatio", "xMidYMid meet")
        .set("href", format!("data:image/svg+xml;base64,{data}"))
}
