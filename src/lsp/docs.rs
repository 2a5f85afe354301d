//! The language's words explained from `docs/language.md`, the page a
//! designer learns from: the form from its quick reference, the first
//! paragraph of the section that names the word, and that section's first
//! example (the examples there are quoted from `games/`).

use std::collections::HashMap;
use std::sync::OnceLock;

const LANGUAGE: &str = include_str!("../../docs/language.md");

/// One section of the page.
struct Section {
    heading: String,
    /// Its first paragraph of prose.
    summary: String,
    /// Its first `rules` example and the game it is quoted from.
    example: Option<(String, Option<String>)>,
}

struct Docs {
    sections: Vec<Section>,
    /// The first section whose heading names each word in backticks.
    by_word: HashMap<String, usize>,
    /// The first section whose prose names each word in backticks, for a
    /// word no heading names.
    mentioned: HashMap<String, usize>,
    /// The forms of the quick reference, one per column of its blocks.
    forms: Vec<String>,
}

fn docs() -> &'static Docs {
    static DOCS: OnceLock<Docs> = OnceLock::new();
    DOCS.get_or_init(|| read(LANGUAGE))
}

fn read(page: &str) -> Docs {
    let mut docs = Docs {
        sections: vec![],
        by_word: HashMap::new(),
        mentioned: HashMap::new(),
        forms: vec![],
    };
    let mut lines = page.lines().peekable();
    let mut in_quick_reference = false;
    while let Some(line) = lines.next() {
        if let Some(heading) = line.strip_prefix("## ").or_else(|| line.strip_prefix("### ")) {
            in_quick_reference = heading.contains("Quick reference");
            let n = docs.sections.len();
            note_words(heading, n, &mut docs.by_word);
            docs.sections.push(Section {
                heading: heading.to_string(),
                summary: String::new(),
                example: None,
            });
            continue;
        }
        let Some(current) = docs.sections.len().checked_sub(1) else {
            continue;
        };
        let section = &mut docs.sections[current];
        if let Some(info) = line.strip_prefix("```") {
            let mut block = vec![];
            for inner in lines.by_ref() {
                if inner.starts_with("```") {
                    break;
                }
                block.push(inner);
            }
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
            if section.example.is_none() && info.starts_with("rules") {
                let from = info
                    .split_whitespace()
                    .find_map(|w| w.strip_prefix("context="))
                    .map(String::from);
                section.example = Some((block.join("\n"), from));
            }
            continue;
        }
        note_words(line, current, &mut docs.mentioned);
        if section.summary.is_empty() && !line.trim().is_empty() && !line.starts_with(['|', '-', '<', '>']) {
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

/// Notes section `n` for each word written in backticks in `line`.
fn note_words(line: &str, n: usize, into: &mut HashMap<String, usize>) {
    for span in line.split('`').skip(1).step_by(2) {
        for word in span.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')) {
            if !word.is_empty() {
                into.entry(word.to_string()).or_insert(n);
            }
        }
    }
}

/// Markdown that explains `word`, or `None` when the page says nothing of it.
pub(super) fn explain(word: &str) -> Option<String> {
    let docs = docs();
    let form = docs.forms.iter().find(|f| {
        f.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .any(|w| w == word)
    });
    let section = docs
        .by_word
        .get(word)
        .or_else(|| docs.mentioned.get(word))
        .map(|&n| &docs.sections[n]);
    if form.is_none() && section.is_none() {
        return None;
    }
    let mut out = format!("**`{word}`**");
    if let Some(form) = form {
        out.push_str(&format!("\n\n```rules\n{form}\n```"));
    }
    if let Some(section) = section {
        if !section.summary.is_empty() {
            out.push_str(&format!("\n\n{}", section.summary));
        }
        if let Some((example, from)) = &section.example {
            match from {
                Some(game) => out.push_str(&format!("\n\nFrom `{game}`:")),
                None => out.push_str("\n\nFor example:"),
            }
            out.push_str(&format!("\n\n```rules\n{example}\n```"));
        }
        out.push_str(&format!("\n\n*docs/language.md: {}*", section.heading.replace('`', "")));
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
}
