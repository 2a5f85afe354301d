//! The terminal the output goes to: its width, and text wrapped to it.

use std::io::IsTerminal;

/// The width text is wrapped to when the output is not a terminal (a pipe,
/// a file, a test): fixed, so the same command prints the same bytes.
pub(crate) const PIPE_WIDTH: usize = 78;

/// The width of the terminal standard output shows on, or `None` when it
/// goes to a pipe or a file.
pub(crate) fn stdout_width() -> Option<usize> {
    std::io::stdout().is_terminal().then(textwrap::termwidth)
}

/// `text` wrapped to the terminal's width (or [`PIPE_WIDTH`]), every line
/// starting with `indent` and ending with a newline.
pub(crate) fn wrap(text: &str, indent: &str) -> String {
    let width = stdout_width().unwrap_or(PIPE_WIDTH);
    let options = textwrap::Options::new(width)
        .initial_indent(indent)
        .subsequent_indent(indent);
    textwrap::wrap(text, options)
        .iter()
        .map(|line| format!("{line}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_word_boundaries_with_the_indent_on_every_line() {
        let text = "word ".repeat(30);
        let wrapped = wrap(&text, "    ");
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.len() > 1, "{wrapped}");
        for line in &lines {
            assert!(line.starts_with("    word"), "{line:?}");
            assert!(unicode_width::UnicodeWidthStr::width(*line) <= PIPE_WIDTH, "{line:?}");
        }
        assert_eq!(wrapped.split_whitespace().count(), 30);
    }

    #[test]
    fn wide_characters_count_as_two_columns() {
        // 30 three-character words ("じゃん" is 6 columns wide) would fit 78
        // columns by characters, but not by display width.
        let text = "じゃん ".repeat(30);
        for line in wrap(&text, "").lines() {
            assert!(unicode_width::UnicodeWidthStr::width(line) <= PIPE_WIDTH, "{line:?}");
        }
    }
}
