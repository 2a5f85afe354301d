//! The language's words explained from `docs/language.md`, the page a
//! designer learns from: the word's form (from the quick reference), what
//! it does (the row of a statement table that shows it, else the first
//! paragraph of the section that names it), and an example that uses it
//! (the page's examples are quoted from `games/`, and say which).

use std::collections::HashMap;
use std::sync::OnceLock;

const LANGUAGE: &str = include_str!("../../docs/language.md");

/// One section of the page.
struct Section {
    heading: String,
    /// Its first paragraph of prose.
    summary: String,
}

/// A `rules` example of the page: its text, the game it is quoted from,
/// and its section.
struct Example {
    text: String,
    from: Option<String>,
    section: usize,
}

#[derive(Default)]
struct Docs {
    sections: Vec<Section>,
    /// The first section whose heading names each word in backticks.
    by_heading: HashMap<String, usize>,
    /// The first section whose prose names each word in backticks.
    mentioned: HashMap<String, usize>,
    /// The forms of the quick reference, one per column of its blocks.
    forms: Vec<String>,
    /// Rows of the page's tables: the first cell's code and the meaning
    /// (`loop { }`: "repeats forever; ...").
    rows: Vec<(String, String, usize)>,
    examples: Vec<Example>,
}

fn docs() -> &'static Docs {
    static DOCS: OnceLock<Docs> = OnceLock::new();
    DOCS.get_or_init(|| read(LANGUAGE))
}

fn read(page: &str) -> Docs {
    let mut docs = Docs::default();
    let mut lines = page.lines().peekable();
    let mut in_quick_reference = false;
    while let Some(line) = lines.next() {
        if let Some(heading) = line.strip_prefix("## ").or_else(|| line.strip_prefix("### ")) {
            in_quick_reference = heading.contains("Quick reference");
            let n = docs.sections.len();
            for word in backticked(heading) {
                docs.by_heading.entry(word.to_string()).or_insert(n);
            }
            docs.sections.push(Section {
                heading: heading.to_string(),
                summary: String::new(),
            });
            continue;
        }
        let Some(current) = docs.sections.len().checked_sub(1) else {
            continue;
        };
        if let Some(info) = line.strip_prefix("```") {
            let block: Vec<&str> = lines.by_ref().take_while(|inner| !inner.starts_with("```")).collect();
            if in_quick_reference && info == "text" {
                for row in &block {
                    let row = row.split(" # ").next().unwrap_or(row);
                    docs.forms.extend(
                        row.split("   ")
                            .map(str::trim)
                            .filter(|c| !c.is_empty())
                            .map(String::from),
                    );
                }
            }
            if info.starts_with("rules") {
                let from = info
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("context="))
                    .map(String::from);
                docs.examples.push(Example {
                    text: block.join("\n"),
                    from,
                    section: current,
                });
            }
            continue;
        }
        for word in backticked(line) {
            docs.mentioned.entry(word.to_string()).or_insert(current);
        }
        if let Some(row) = line.strip_prefix('|') {
            let cells: Vec<&str> = row
                .split(" | ")
                .map(|c| c.trim().trim_end_matches('|').trim())
                .collect();
            if let [first, meaning, ..] = cells.as_slice()
                && first.starts_with('`')
            {
                let code: Vec<&str> = first.split('`').skip(1).step_by(2).collect();
                docs.rows.push((code.join(", "), meaning.to_string(), current));
            }
            continue;
        }
        let section = &mut docs.sections[current];
        if section.summary.is_empty() && !line.trim().is_empty() && !line.starts_with(['-', '<', '>']) {
            let mut paragraph = vec![line.trim()];
            while let Some(next) = lines.peek() {
                if next.trim().is_empty() || next.starts_with("```") {
                    break;
                }
                paragraph.push(next.trim());
                lines.next();
            }
            section.summary = paragraph.join(" ");
        }
    }
    docs
}

/// The words written in backticks in `line`.
fn backticked(line: &str) -> impl Iterator<Item = &str> {
    line.split('`').skip(1).step_by(2).flat_map(words)
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .filter(|w| !w.is_empty())
}

/// The most lines of an example a hover shows.
const EXAMPLE_LINES: usize = 12;

/// `example`, or the lines of it around the first that uses `word` when it
/// is long.
fn excerpt(example: &str, word: &str) -> String {
    let lines: Vec<&str> = example.lines().collect();
    if lines.len() <= EXAMPLE_LINES {
        return example.to_string();
    }
    let first = lines.iter().position(|l| words(l).any(|w| w == word)).unwrap_or(0);
    let start = first.saturating_sub(2);
    let end = (start + EXAMPLE_LINES).min(lines.len());
    let mut shown = lines[start..end].join("\n");
    if end < lines.len() {
        shown.push_str("\n...");
    }
    shown
}

/// Markdown that explains `word`, or `None` when the page says nothing of it.
pub(super) fn explain(word: &str) -> Option<String> {
    let docs = docs();
    let uses = |text: &str| words(text).any(|w| w == word);
    let form = docs.forms.iter().find(|f| uses(f));
    // A table row whose code begins with the word says best what it does.
    let row = docs
        .rows
        .iter()
        .find(|(code, _, _)| words(code).next() == Some(word))
        .or_else(|| docs.rows.iter().find(|(code, _, _)| uses(code)));
    let heading = docs.by_heading.get(word).copied();
    let section = heading.or_else(|| docs.mentioned.get(word).copied());
    if form.is_none() && row.is_none() && section.is_none() {
        return None;
    }
    let mut out = format!("**`{word}`**");
    if let Some(form) = form {
        out.push_str(&format!("\n\n```rules\n{form}\n```"));
    }
    // The section a heading gives the word, else its row of a table, else
    // the first section that names it.
    let summary = |n: usize| (docs.sections[n].summary.as_str(), n);
    let about = match (heading, row, section) {
        (Some(n), _, _) => Some(summary(n)),
        (None, Some((_, meaning, n)), _) => Some((meaning.as_str(), *n)),
        (None, None, Some(n)) => Some(summary(n)),
        (None, None, None) => None,
    };
    if let Some((meaning, _)) = about
        && !meaning.is_empty()
    {
        out.push_str(&format!("\n\n{meaning}"));
    }
    // An example that uses the word: from the section that explains it if
    // it has one, else the first on the page.
    let home = section.or(about.map(|(_, n)| n));
    // Short ones quoted from a game come first.
    let example = docs.examples.iter().filter(|e| uses(&e.text)).min_by_key(|e| {
        (
            Some(e.section) != home,
            e.from.is_none(),
            e.text.lines().count() > EXAMPLE_LINES,
        )
    });
    if let Some(example) = example {
        match &example.from {
            Some(game) => out.push_str(&format!("\n\nFrom `{game}`:")),
            None => out.push_str("\n\nFor example:"),
        }
        out.push_str(&format!("\n\n```rules\n{}\n```", excerpt(&example.text, word)));
    }
    if let Some((_, n)) = about {
        out.push_str(&format!(
            "\n\n*docs/language.md: {}*",
            docs.sections[n].heading.replace('`', "")
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::explain;

    #[test]
    fn every_reserved_word_is_explained_by_the_language_page() {
        let unexplained: Vec<&str> = crate::syntax::tokens::RESERVED
            .iter()
            .copied()
            .filter(|w| explain(w).is_none())
            .collect();
        assert!(
            unexplained.is_empty(),
            "docs/language.md says nothing of {unexplained:?}"
        );
    }

    #[test]
    fn a_word_gets_its_form_its_section_and_an_example() {
        let shown = explain("kinds").unwrap();
        assert!(shown.contains("kinds Set = a | b | c"), "{shown}");
        assert!(shown.contains("From `games/"), "{shown}");
        assert!(shown.contains("*docs/language.md: kinds and beats*"), "{shown}");
    }

    #[test]
    fn a_statement_is_explained_by_its_row_of_the_statement_table() {
        let shown = explain("loop").unwrap();
        assert!(shown.contains("loop { }"), "{shown}");
        assert!(shown.contains("repeats forever; leave it with `break`"), "{shown}");
        assert!(
            shown.contains("From `games/") && shown.contains("\nloop {") || shown.contains("  loop {"),
            "{shown}"
        );
    }
}
