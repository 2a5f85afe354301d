//! A grid board at the terminal: one box per space, named in its top
//! border, each piece written short ("L knight": the owner's initial, then
//! what the piece is), so a cell is never cut where it says whose it is.
//! Widths are measured in terminal columns (`unicode-width`), so wide
//! characters keep the borders straight.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

use super::layout::{WIDTH, slots};
use crate::engine::{PieceFace, View};
use crate::ir::{Board, GameDef, Seat};
use crate::present::listing_with;

/// Columns `text` takes at the terminal.
pub(super) fn text_width(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

/// `text` padded with spaces to `width` columns.
pub(super) fn pad(text: &str, width: usize) -> String {
    let mut s = text.to_string();
    s.push_str(&" ".repeat(width.saturating_sub(text_width(text))));
    s
}

/// `text` cut or padded to exactly `width` columns; a cut ends in `…`.
pub(super) fn fit(text: &str, width: usize) -> String {
    if text_width(text) <= width {
        return pad(text, width);
    }
    let mut s = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        s.push(c);
        used += w;
    }
    s.push('…');
    pad(&s, width)
}

/// Each seat's shortest name prefix that no other seat's name starts
/// with ("L" for Light beside Dark; the whole name if it must).
pub(super) fn initials(def: &GameDef) -> Vec<String> {
    let names: Vec<Vec<char>> = def.seats.iter().map(|n| n.to_lowercase().chars().collect()).collect();
    def.seats
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let chars: Vec<char> = name.chars().collect();
            (1..=chars.len())
                .find(|&n| {
                    let prefix = &names[s][..n.min(names[s].len())];
                    names
                        .iter()
                        .enumerate()
                        .all(|(o, other)| o == s || !other.starts_with(prefix))
                })
                .map_or_else(|| name.clone(), |n| chars[..n].iter().collect())
        })
        .collect()
}

/// A piece written short for a cell: the owner's initial, then its kind,
/// else its value, else its type ("L fire", "B 7", "Token"); a piece that
/// is only its owner's ("Disc of x") is the owner's name; a back is "L ?".
fn short(def: &GameDef, initials: &[String], face: &PieceFace) -> String {
    let back = face.kind.is_none()
        && def
            .pieces
            .iter()
            .any(|p| p.ty == face.ty && p.kind_hidden && p.kind.is_some());
    let valued = def.type_has_values(face.ty) || def.pieces.iter().any(|p| p.ty == face.ty && p.faces.is_some());
    let word = match face.kind {
        _ if back => "?".to_string(),
        Some(kind) => def.kinds[kind as usize].display.clone(),
        None if valued => face.value.to_string(),
        None => match face.owner {
            Some(owner) => return def.seat_name(owner).to_string(),
            None => def.piece_types[face.ty as usize].clone(),
        },
    };
    match face.owner {
        Some(owner) => format!("{} {word}", initials[owner as usize]),
        None => word,
    }
}

/// Whether any piece on `board` has an owner, so the initials need a key.
fn owned_pieces_on(def: &GameDef, view: &View, b: u16) -> bool {
    slots(def, b).iter().any(|&(_, first)| {
        (0..def.boards[b as usize].spaces())
            .flat_map(|s| view.zones[(first + s) as usize].iter().flatten())
            .any(|f| f.owner.is_some() && f.kind.is_some())
    })
}

/// A grid board drawn as a grid, every slot of every space in its cell.
pub(super) fn grid(def: &GameDef, view: &View, b: u16, board: &Board) -> String {
    let slots = slots(def, b);
    let initials = initials(def);
    let cells: Vec<Vec<String>> = (0..board.spaces())
        .map(|s| {
            slots
                .iter()
                .map(|(name, first)| {
                    let zone = &view.zones[(first + s) as usize];
                    let what = if zone.is_empty() {
                        "-".into()
                    } else {
                        listing_with(zone, false, &|f| short(def, &initials, f))
                    };
                    // One slot needs no name: the cell is the space.
                    if slots.len() == 1 {
                        what
                    } else {
                        format!("{name}: {what}")
                    }
                })
                .collect()
        })
        .collect();
    let cols = board.cols as usize;
    let names: Vec<String> = (0..board.spaces()).map(|s| board.space_name(s)).collect();
    // Every cell as wide as the screen allows (a cell takes three more
    // columns of border and padding), so the grid keeps its shape from one
    // prompt to the next.
    let width = ((WIDTH - 1) / cols.max(1)).saturating_sub(3).clamp(5, 28);
    let border = |r: usize, left: &str, mid: &str, right: &str, named: bool| {
        let span = width + 2;
        let mut s = format!("  {left}");
        for c in 0..cols {
            match names.get(r * cols + c).filter(|_| named) {
                // The space's name sits in the rule above its cell; only
                // its number where the name does not fit (the board's name
                // is above the grid).
                Some(name) => {
                    let room = span.saturating_sub(3);
                    let name = if text_width(name) <= room {
                        name.as_str()
                    } else {
                        name.rsplit(' ').next().unwrap_or(name)
                    };
                    let name = fit(name, room);
                    let name = name.trim_end();
                    let rest = span.saturating_sub(text_width(name) + 3);
                    s.push_str(&format!("─ {name} {}", "─".repeat(rest)));
                }
                None => s.push_str(&"─".repeat(span)),
            }
            s.push_str(if c + 1 == cols { right } else { mid });
        }
        s.push('\n');
        s
    };
    let mut out = String::new();
    for r in 0..board.rows as usize {
        let top = if r == 0 {
            ["┌", "┬", "┐"]
        } else {
            ["├", "┼", "┤"]
        };
        out.push_str(&border(r, top[0], top[1], top[2], true));
        for line in 0..slots.len() {
            out.push_str("  │");
            for c in 0..cols {
                let text = cells[r * cols + c].get(line).map_or("", String::as_str);
                out.push_str(&format!(" {} │", fit(text, width)));
            }
            out.push('\n');
        }
    }
    out.push_str(&border(0, "└", "┴", "┘", false));
    if owned_pieces_on(def, view, b) {
        let key: Vec<String> = (0..def.players() as Seat)
            .map(|s| format!("{} {}", initials[s as usize], def.seat_name(s)))
            .collect();
        out.push_str(&format!("  Owners: {}\n", key.join(" · ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_are_measured_in_columns() {
        assert_eq!(text_width("石"), 2);
        assert_eq!(fit("石石石", 4), "石… ");
        assert_eq!(text_width(&fit("石石石", 4)), 4);
        assert_eq!(fit("ab", 4), "ab  ");
        assert_eq!(fit("abcdef", 4), "abc…");
    }
}
