//! One piece drawn: a disc on a board, a card in a tray. A piece the
//! viewer does not know is drawn as its back, and nothing of its face
//! reaches the picture.

use svg::node::element::{Circle, Group, Rectangle, Title};

use super::style::{self, BACK, MUTED, centred_text as text, fitting_size, round};
use crate::engine::PieceFace;
use crate::ir::{GameDef, Shape};

/// What the viewer knows of the piece in one place of a zone.
#[derive(Clone, Copy)]
pub(super) enum Known<'a> {
    /// Nothing: not even its type or owner.
    Nothing,
    /// Its back: type and owner, not its kind.
    Back(&'a PieceFace),
    /// Its face.
    Face(&'a PieceFace),
}

impl<'a> Known<'a> {
    pub(super) fn of(def: &GameDef, slot: &'a Option<PieceFace>) -> Known<'a> {
        match slot {
            None => Known::Nothing,
            Some(face) if is_back(def, face) => Known::Back(face),
            Some(face) => Known::Face(face),
        }
    }
}

/// A face without a kind, of a type whose kinds are hidden, is a back.
fn is_back(def: &GameDef, face: &PieceFace) -> bool {
    face.kind.is_none()
        && def
            .pieces
            .iter()
            .any(|p| p.ty == face.ty && p.kind_hidden && p.kind.is_some())
}

/// Whether a face's value is worth showing: values differ, or it is a die.
pub(super) fn shows_value(def: &GameDef, face: &PieceFace) -> bool {
    def.type_has_values(face.ty) || def.pieces.iter().any(|p| p.ty == face.ty && p.faces.is_some())
}

/// A piece as the seat sees it, in words: "Card red 7", "Marker red of
/// Ann", or its back, "Marker of Ben (hidden)".
pub fn title(def: &GameDef, face: &PieceFace) -> String {
    let back = is_back(def, face);
    let mut label = def.piece_types[face.ty as usize].clone();
    if let Some(kind) = face.kind {
        label.push(' ');
        label.push_str(&def.kinds[kind as usize].display);
    }
    if shows_value(def, face) && !back {
        label.push_str(&format!(" {}", face.value));
    }
    if let Some(owner) = face.owner {
        label.push_str(" of ");
        label.push_str(def.seat_name(owner));
    }
    if back {
        label.push_str(" (hidden)");
    }
    label
}

/// What a piece does, where the rules say (`display Baron with text
/// "..."`), for its picture's tooltip: its type's, and its kind's when the
/// kind is seen; empty when the rules say nothing.
fn described(def: &GameDef, known: Known<'_>) -> String {
    let face = match known {
        Known::Nothing => return String::new(),
        Known::Back(face) | Known::Face(face) => face,
    };
    let type_text = def.type_texts.get(face.ty as usize).and_then(Option::as_deref);
    let kind_text = match known {
        Known::Face(_) => face.kind.and_then(|k| def.kinds[k as usize].text.as_deref()),
        _ => None,
    };
    type_text
        .into_iter()
        .chain(kind_text)
        .map(|text| format!("\n{text}"))
        .collect()
}

/// The word written on a piece: its kind, else its value, else its
/// owner, else its type; `?` on a back.
fn main_text(def: &GameDef, face: &PieceFace) -> String {
    if let Some(kind) = face.kind {
        return def.kinds[kind as usize].display.clone();
    }
    if shows_value(def, face) {
        return face.value.to_string();
    }
    match face.owner {
        Some(owner) => def.seat_name(owner).to_string(),
        None => def.piece_types[face.ty as usize].clone(),
    }
}

/// The longest word a piece of the same sort may show, so that every
/// piece of a sort is lettered at one size: kinds of one set, seat names.
fn longest_word(def: &GameDef, face: &PieceFace, word: &str) -> usize {
    let longest = |words: &mut dyn Iterator<Item = &String>| words.map(|w| w.chars().count()).max().unwrap_or(0);
    let peers = if let Some(kind) = face.kind {
        // The kinds of the same set (`Colour`: red, green, blue).
        def.kind_sets
            .iter()
            .find(|set| set.members.contains(&kind))
            .map_or(0, |set| {
                longest(&mut set.members.iter().map(|&k| &def.kinds[k as usize].display))
            })
    } else if shows_value(def, face) {
        0
    } else if face.owner.is_some() {
        longest(&mut def.seats.iter())
    } else {
        // Type names can be long beside short ones: each is sized alone,
        // as if six letters at least, so none is huge or tiny.
        6
    };
    peers.max(word.chars().count())
}

/// The small second line: the value beside a kind.
fn second_text(def: &GameDef, face: &PieceFace) -> Option<String> {
    (face.kind.is_some() && shows_value(def, face)).then(|| face.value.to_string())
}

/// `?` for a piece shown from the back or not at all.
const UNKNOWN_MARK: &str = "?";

/// The title of a piece the viewer does not know at all.
const NOTHING_TITLE: &str = "a hidden piece";

/// A piece as a disc of radius `r` centred on `(cx, cy)`; `count` above 1
/// adds a badge, for a stack of equal pieces.
pub(super) fn disc(def: &GameDef, known: Known<'_>, cx: f64, cy: f64, r: f64, count: usize, place: &str) -> Group {
    let (fill, title_text) = match known {
        Known::Nothing => (BACK, NOTHING_TITLE.to_string()),
        Known::Back(face) => (style::owner_colour(def, face.owner), title(def, face)),
        Known::Face(face) => (style::face_colour(def, face.kind, face.owner), title(def, face)),
    };
    let outline = shape_of(def, known);
    let group = Group::new()
        .set("class", "piece")
        .add(Title::new(format!("{title_text} ({place}){}", described(def, known))));
    let mut group = match outline {
        Some(shape) => group.add(style::shape(shape, (cx, cy), r, (fill, style::edge_of(fill), 1.5))),
        None => group.add(
            Circle::new()
                .set("cx", round(cx))
                .set("cy", round(cy))
                .set("r", round(r))
                .set("fill", fill)
                .set("stroke", style::edge_of(fill))
                .set("stroke-width", 1.5),
        ),
    };
    match known {
        // A picture in place of the word (the title still names the piece).
        Known::Face(face) if let Some(svg) = style::piece_picture(def, face.ty, face.kind) => {
            let second = second_text(def, face);
            let side = r * 1.2;
            let top = if second.is_some() {
                cy - side * 0.62
            } else {
                cy - side / 2.0
            };
            group = group.add(style::picture(svg, (cx - side / 2.0, top), (side, side)));
            if let Some(second) = second {
                group = group.add(text(second, cx, cy + r * 0.62, round(r * 0.45), style::ink_on(fill)));
            }
        }
        Known::Face(face) => {
            let word = main_text(def, face);
            let second = second_text(def, face);
            let ink = style::ink_on(fill);
            let size = fitting_size(longest_word(def, face, &word), r * 1.75, r * 0.7);
            let dy = if second.is_some() { -r * 0.22 } else { 0.0 };
            // A triangle's room is low and narrow: its word goes down, smaller.
            let (size, dy) = if outline == Some(Shape::Triangle) {
                (round(size * 0.75), dy + r * 0.3)
            } else {
                (size, dy)
            };
            group = group.add(text(word, cx, cy + dy, size, ink).set("font-weight", 600));
            if let Some(second) = second {
                group = group.add(text(second, cx, cy + r * 0.45, round(r * 0.55), ink));
            }
        }
        Known::Back(_) => {
            // A back: the owner's colour with a plain ring inside, and a `?`.
            let ink = style::ink_on(fill);
            group = group
                .add(
                    Circle::new()
                        .set("cx", round(cx))
                        .set("cy", round(cy))
                        .set("r", round(r * 0.72))
                        .set("fill", "none")
                        .set("stroke", ink)
                        .set("stroke-opacity", 0.45)
                        .set("stroke-dasharray", "3 2"),
                )
                .add(text(UNKNOWN_MARK, cx, cy, round(r * 0.9), ink).set("font-weight", 700));
        }
        Known::Nothing => {
            group = group.add(text(UNKNOWN_MARK, cx, cy, round(r * 0.9), "#ffffff").set("font-weight", 700));
        }
    }
    if count > 1 {
        group = group.add(badge(count, cx + r * 0.8, cy - r * 0.8));
    }
    group
}

/// What a card's top edge says: its type, or, in a fan where only the
/// edge of a card under another shows, what it is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Edge {
    /// The piece's type, as a card laid alone shows it.
    Type,
    /// What the piece is (its kind and value), as a fanned card shows it.
    Face,
}

/// A piece as a card with its top-left corner at `(x, y)`, `(w, h)` in
/// size; `count` above 1 adds a badge, for a pile of equal pieces.
pub(super) fn card(
    def: &GameDef,
    known: Known<'_>,
    (x, y): (f64, f64),
    (w, h): (f64, f64),
    (count, edge): (usize, Edge),
    place: &str,
) -> Group {
    let (fill, title_text) = match known {
        Known::Nothing => (BACK, NOTHING_TITLE.to_string()),
        Known::Back(face) => (style::owner_colour(def, face.owner), title(def, face)),
        Known::Face(face) => (style::face_colour(def, face.kind, face.owner), title(def, face)),
    };
    let title_text = if count > 1 {
        format!("{title_text} x{count} ({place}){}", described(def, known))
    } else {
        format!("{title_text} ({place}){}", described(def, known))
    };
    let (cx, ink) = (x + w / 2.0, style::ink_on(fill));
    let mut group = Group::new().set("class", "piece").add(Title::new(title_text)).add(
        Rectangle::new()
            .set("x", round(x))
            .set("y", round(y))
            .set("width", round(w))
            .set("height", round(h))
            .set("rx", 6)
            .set("fill", fill)
            .set("stroke", style::edge_of(fill))
            .set("stroke-width", 1.5),
    );
    match known {
        Known::Face(face) => {
            let ty = &def.piece_types[face.ty as usize];
            let word = main_text(def, face);
            let picture = style::piece_picture(def, face.ty, face.kind);
            // The face on top where that edge is all that shows (a fan),
            // or where a picture takes the word's place.
            let top = match (edge, second_text(def, face)) {
                (Edge::Face, Some(second)) => format!("{word} {second}"),
                (Edge::Face, None) => word.clone(),
                (Edge::Type, _) if picture.is_some() => word.clone(),
                (Edge::Type, _) => ty.clone(),
            };
            // The type on top, unless it is the word itself (a token that
            // is only its type) and no picture takes the word's place.
            if top != word || edge == Edge::Face || picture.is_some() {
                let label = text(
                    top.clone(),
                    cx,
                    y + 10.0,
                    fitting_size(top.chars().count(), w - 8.0, 9.0),
                    ink,
                );
                group = group.add(match edge {
                    Edge::Type if picture.is_none() => label.set("opacity", 0.8),
                    _ => label.set("font-weight", 700),
                });
            }
            match picture {
                // Between the top line and the value, in the word's place.
                Some(svg) => group = group.add(style::picture(svg, (x + 4.0, y + 15.0), (w - 8.0, h - 32.0))),
                None => {
                    group = group.add(
                        text(
                            word.clone(),
                            cx,
                            y + h / 2.0 + 1.0,
                            fitting_size(longest_word(def, face, &word), w - 6.0, 14.0),
                            ink,
                        )
                        .set("font-weight", 600),
                    );
                }
            }
            if let Some(second) = second_text(def, face) {
                group = group.add(text(second, cx, y + h - 11.0, 12.0, ink).set("font-weight", 600));
            }
        }
        Known::Back(face) => {
            let ty = &def.piece_types[face.ty as usize];
            group = group
                .add(
                    text(
                        ty.clone(),
                        cx,
                        y + 10.0,
                        fitting_size(ty.chars().count(), w - 8.0, 9.0),
                        ink,
                    )
                    .set("opacity", 0.8),
                )
                .add(inner_frame(x, y, w, h, ink))
                .add(text(UNKNOWN_MARK, cx, y + h / 2.0 + 2.0, 18.0, ink).set("font-weight", 700));
        }
        Known::Nothing => {
            group = group
                .add(inner_frame(x, y, w, h, "#ffffff"))
                .add(text(UNKNOWN_MARK, cx, y + h / 2.0, 18.0, "#ffffff").set("font-weight", 700));
        }
    }
    // The rules' shape for it, small in a corner: a card keeps its form.
    if let Some(mark) = shape_of(def, known) {
        group = group.add(style::shape(mark, (x + 9.0, y + h - 9.0), 4.5, (ink, ink, 0.5)));
    }
    if count > 1 {
        group = group.add(badge(count, x + w - 2.0, y + 2.0));
    }
    group
}

/// The shape the rules give what the viewer knows of a piece.
fn shape_of(def: &GameDef, known: Known<'_>) -> Option<Shape> {
    match known {
        Known::Nothing => None,
        Known::Back(face) => style::piece_shape(def, face.ty, None),
        Known::Face(face) => style::piece_shape(def, face.ty, face.kind),
    }
}

/// The dashed frame that marks a back.
fn inner_frame(x: f64, y: f64, w: f64, h: f64, ink: &str) -> Rectangle {
    Rectangle::new()
        .set("x", round(x + 5.0))
        .set("y", round(y + 18.0))
        .set("width", round(w - 10.0))
        .set("height", round(h - 24.0))
        .set("rx", 3)
        .set("fill", "none")
        .set("stroke", ink)
        .set("stroke-opacity", 0.45)
        .set("stroke-dasharray", "3 2")
}

/// "x3" in a small white lozenge: how many equal pieces lie here.
fn badge(count: usize, cx: f64, cy: f64) -> Group {
    let label = format!("×{count}");
    let w = 8.0 + 6.5 * label.chars().count() as f64;
    Group::new()
        .add(
            Rectangle::new()
                .set("x", round(cx - w / 2.0))
                .set("y", round(cy - 8.0))
                .set("width", round(w))
                .set("height", 16)
                .set("rx", 8)
                .set("fill", "#ffffff")
                .set("stroke", MUTED)
                .set("stroke-width", 1),
        )
        .add(text(label, cx, cy, 10.5, style::INK).set("font-weight", 600))
}
