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
}
