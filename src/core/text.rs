//! Text from input, made safe to print: no name read from a rules file, a
//! house file, a path or a report can start a new line or drive the terminal.
//!
//! [`printable`] is the one rule every printer uses: an ANSI escape sequence
//! (colours, cursor moves, window titles) is dropped, and any other control
//! character is shown escaped, as Rust writes it (`\n`, `\r`, `\t`,
//! `\u{1b}`). Bidirectional overrides and the Unicode line and paragraph
//! separators, which reorder or break a line on screen, are escaped too.
//! Everything else, backslashes included, is kept as it is, so the rule is
//! idempotent: `printable(printable(x)) == printable(x)`.

use std::borrow::Cow;

use crate::ir::{ChoiceKind, GameDef, LabelPart, OptionType};

/// `text` with ANSI escape sequences removed and control characters escaped.
///
/// ```
/// use rpsdsl_core::text::printable;
/// assert_eq!(printable("Stone"), "Stone");
/// assert_eq!(printable("a\nresult: b"), "a\\nresult: b");
/// assert_eq!(printable("\x1b[31mred\x1b[0m\r"), "red\\r");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_care) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => match chars.peek() {
                // CSI: ESC [ parameters intermediates final.
                Some('[') => {
                    chars.next();
                    skip_csi(&mut chars);
                }
                // OSC, DCS, SOS, PM, APC: a string up to BEL or ESC \.
                Some(']' | 'P' | 'X' | '^' | '_') => {
                    chars.next();
                    while let Some(c) = chars.next() {
                        if c == '\u{7}' || c == '\u{9c}' {
                            break;
                        }
                        if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                            chars.next();
                            break;
                        }
                    }
                }
                // A two-character escape (ESC c, ESC 7, ESC ( B ...).
                Some(&next) if ('\u{20}'..='\u{7e}').contains(&next) => {
                    chars.next();
                    if ('\u{20}'..='\u{2f}').contains(&next)
                        && let Some(&last) = chars.peek()
                        && ('\u{30}'..='\u{7e}').contains(&last)
                    {
                        chars.next();
                    }
                }
                _ => escape(c, &mut out),
            },
            // The one-character CSI of C1.
            '\u{9b}' => skip_csi(&mut chars),
            c if needs_care(c) => escape(c, &mut out),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `c` as Rust writes it in a string: `\n`, `\r`, `\t`, `\0`, `\u{1b}`.
fn escape(c: char, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\0' => out.push_str("\\0"),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(&c) = chars.peek() {
        if ('\u{30}'..='\u{3f}').contains(&c) || ('\u{20}'..='\u{2f}').contains(&c) {
            chars.next();
        } else {
            if ('\u{40}'..='\u{7e}').contains(&c) {
                chars.next();
            }
            break;
        }
    }
}

/// Control characters, bidirectional formatting, and line separators.
fn needs_care(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// [`printable`] into an owned string, for a `map`.
pub fn printable_string(text: &str) -> String {
    printable(text).into_owned()
}

fn tidy(text: &mut String) {
    if let Cow::Owned(clean) = printable(text) {
        *text = clean;
    }
}

/// Options set away from their defaults, as a header says them:
/// "options rounds=3 blind=2", or "default options".
pub fn options_phrase(options: &[(String, String)]) -> String {
    if options.is_empty() {
        return "default options".to_string();
    }
    let set: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("options {}", set.join(" "))
}

/// Makes every name of `def` that a person reads printable: the game's and
/// the seats' names, piece types, kinds as displayed, draft entries, action
/// and `anytime` labels, messages, result keys, option descriptions and
/// values. Names written as identifiers are printable already; a name that
/// was printable is unchanged.
pub fn printable_def(def: &mut GameDef) {
    tidy(&mut def.name);
    def.seats.iter_mut().for_each(tidy);
    def.piece_types.iter_mut().for_each(tidy);
    def.messages.iter_mut().for_each(tidy);
    for kind in &mut def.kinds {
        tidy(&mut kind.display);
    }
    for decision in &mut def.decisions {
        tidy(&mut decision.name);
        if let Some(label) = &mut decision.none_label {
            tidy(label);
        }
        if let Some(condition) = &mut decision.condition {
            tidy(condition);
        }
        match &mut decision.kind {
            ChoiceKind::Menu(entries) => entries.iter_mut().for_each(tidy),
            ChoiceKind::Actions(actions) => {
                for part in actions.iter_mut().flat_map(|a| a.label.iter_mut()) {
                    if let LabelPart::Text(text) = part {
                        tidy(text);
                    }
                }
            }
            _ => {}
        }
    }
    for anytime in &mut def.anytime {
        tidy(&mut anytime.label);
    }
    for key in &mut def.rank_keys {
        tidy(&mut key.label);
    }
    for option in &mut def.options {
        tidy(&mut option.description);
        if let OptionType::Enum(values) = &mut option.ty {
            values.iter_mut().for_each(tidy);
        }
    }
}

/// Every string in a JSON document (keys too) made [`printable`]: for a
/// file read from disk, whose text no one checked.
pub fn printable_json(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::String(s) => tidy(s),
        Value::Array(items) => items.iter_mut().for_each(printable_json),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                printable_json(&mut item);
                map.insert(printable_string(&key), item);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn names_cannot_break_a_line_or_colour_it() {
        assert_eq!(printable("plain name"), "plain name");
        assert_eq!(printable("x\ny\r\tz\0"), "x\\ny\\r\\tz\\0");
        assert_eq!(printable("\x1b[31mred\x1b[0m"), "red");
        assert_eq!(printable("\x1b]0;title\x07after"), "after");
        assert_eq!(printable("\x1bcreset"), "reset");
        assert_eq!(printable("bell\x07 del\x7f"), "bell\\u{7} del\\u{7f}");
        assert_eq!(printable("lone \x1b"), "lone \\u{1b}");
        assert_eq!(printable("rtl\u{202e}txt"), "rtl\\u{202e}txt");
        assert_eq!(printable("back\\slash"), "back\\slash");
        for nasty in ["a\nb", "\x1b[1;31mx", "\r\x1b\x1b[", "\u{9b}2Jx", "é\u{2028}"] {
            let once = printable(nasty).into_owned();
            assert_eq!(printable(&once), once, "idempotent on {nasty:?}");
            assert!(!once.chars().any(char::is_control), "{once:?}");
        }
    }
}
