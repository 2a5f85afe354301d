//! The diagnostic codes and their documentation agree.
//!
//! Codes are a public interface (`--json` prints them as `rpsdsl::CODE`), so
//! each one is declared once in `src/core/diagnostic/code.rs` and documented in the
//! "Every code" table of `docs/language.md` §16. These tests fail when a code
//! is added without its row, when a row or a summary drifts from the registry,
//! and when a page names a code that does not exist.

use std::collections::BTreeSet;
use std::path::Path;

use rpsdsl::diagnostic::Code;

const LANGUAGE: &str = "docs/language.md";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The text of `docs/language.md` §16, up to the next top-level section.
fn diagnostics_section() -> String {
    let text = read(Path::new(LANGUAGE));
    let start = text
        .find("\n## 16. Diagnostics\n")
        .expect("docs/language.md has a section `## 16. Diagnostics`");
    let rest = &text[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    rest[..end].to_string()
}

/// The rows of the "Every code" table: (code text, summary).
fn every_code_rows() -> Vec<(String, String)> {
    let section = diagnostics_section();
    let table = section
        .split("\n### Every code\n")
        .nth(1)
        .expect("§16 of docs/language.md has a subsection `### Every code`");
    table
        .lines()
        .skip_while(|line| !line.starts_with('|'))
        .take_while(|line| line.starts_with('|'))
        .skip(2) // the header and its rule
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").map(str::trim).collect();
            assert_eq!(cells.len(), 2, "a row of the `Every code` table has two cells: {line}");
            let code = cells[0]
                .strip_prefix("`rpsdsl::")
                .and_then(|c| c.strip_suffix('`'))
                .unwrap_or_else(|| panic!("the first cell names a code as `rpsdsl::CODE`: {line}"));
            (code.to_string(), cells[1].to_string())
        })
        .collect()
}

#[test]
fn every_code_is_documented_with_its_summary() {
    let documented = every_code_rows();
    let registry: Vec<(String, String)> = Code::ALL
        .iter()
        .map(|c| (c.as_str().to_string(), c.summary().to_string()))
        .collect();
    let missing: Vec<_> = registry.iter().filter(|r| !documented.contains(r)).collect();
    let unknown: Vec<_> = documented.iter().filter(|r| !registry.contains(r)).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "the `Every code` table of {LANGUAGE} §16 must match src/core/diagnostic/code.rs\n\
         in the registry but not the table: {missing:#?}\nin the table but not the registry: {unknown:#?}"
    );
    assert_eq!(
        documented, registry,
        "the table lists the codes in the registry's order"
    );
}

/// Every `rpsdsl::name` in `text` that is a code rather than a Rust path
/// (`rpsdsl::sim::Plan`, `use rpsdsl::agents;`).
fn codes_mentioned(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (at, _) in text.match_indices("rpsdsl::") {
        let rest = &text[at + "rpsdsl::".len()..];
        let len = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(len);
        let rust_path = after.starts_with("::") || after.starts_with(';') || name.contains('_');
        if !name.is_empty() && !rust_path {
            found.insert(name.to_string());
        }
    }
    found
}

#[test]
fn every_code_the_docs_mention_exists() {
    let known: BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let mut pages = vec![Path::new("README.md").to_path_buf()];
    for entry in std::fs::read_dir("docs").expect("docs/ is readable") {
        let path = entry.expect("a docs/ entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    let mut unknown = vec![];
    for page in &pages {
        for code in codes_mentioned(&read(page)) {
            if !known.contains(code.as_str()) {
                unknown.push(format!("{}: rpsdsl::{code}", page.display()));
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "codes the docs name but the registry lacks:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn mentions_are_told_from_rust_paths() {
    let text = "`rpsdsl::unknown-name`, `rpsdsl::agents::from_spec`, use rpsdsl::sim::{self, Plan}; use rpsdsl::text;";
    assert_eq!(codes_mentioned(text), BTreeSet::from(["unknown-name".to_string()]));
}
