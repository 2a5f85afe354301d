//! Byte offsets into a document as LSP positions: a line from 0, and a
//! character counted in UTF-16 code units, as the protocol counts them by
//! default.

use lsp_types::{Position, Range};

/// The position of byte `offset` of `text` (clamped to its end, and back
/// to the start of the character it falls in).
pub(super) fn position(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[start..].chars().map(char::len_utf16).sum();
    Position::new(line as u32, character as u32)
}

/// The range of bytes `start..end` of `text`.
pub(super) fn range(text: &str, start: usize, end: usize) -> Range {
    Range::new(position(text, start), position(text, end.max(start)))
}

/// The byte offset of `position` in `text`: the inverse of [`position`]. A
/// line past the end is the end; a character past its line's end is that
/// line's end.
pub(super) fn offset(text: &str, position: Position) -> usize {
    let mut start = 0;
    for _ in 0..position.line {
        match text[start..].find('\n') {
            Some(n) => start += n + 1,
            None => return text.len(),
        }
    }
    let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    let mut units = 0;
    for (i, c) in text[start..line_end].char_indices() {
        if units >= position.character as usize {
            return start + i;
        }
        units += c.len_utf16();
    }
    line_end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_counted_in_utf16() {
        let text = "ab\nx🂡y\n";
        assert_eq!(position(text, 0), Position::new(0, 0));
        assert_eq!(position(text, 3), Position::new(1, 0));
        // The card is 4 bytes and 2 UTF-16 units.
        assert_eq!(position(text, 8), Position::new(1, 3));
        // Inside the card: its start.
        assert_eq!(position(text, 5), Position::new(1, 1));
        assert_eq!(position(text, 100), Position::new(2, 0));
    }

    #[test]
    fn offsets_are_the_inverse_of_positions() {
        let text = "ab\nx🂡y\n";
        for at in [0, 1, 3, 4, 8, 9, 10] {
            assert_eq!(offset(text, position(text, at)), at, "{at}");
        }
        assert_eq!(offset(text, Position::new(0, 99)), 2);
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
    }
}
