//! The editor packages stay in step with the language: every reserved word
//! of the grammar is coloured as a keyword by the VS Code TextMate grammar
//! and by the tree-sitter highlight queries, and each package's files are
//! well formed. (`editors/tree-sitter-rpsdsl/check.sh` runs the tree-sitter
//! CLI itself; CI runs it and builds the VS Code package.)

use rpsdsl::syntax::tokens::RESERVED;

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The words of every `\b(a|b|c)\b` alternation in a TextMate rule list.
fn alternated(patterns: &serde_json::Value, words: &mut Vec<String>) {
    for pattern in patterns.as_array().into_iter().flatten() {
        if let Some(found) = pattern["match"].as_str()
            && let Some(inner) = found.strip_prefix("\\b(").and_then(|m| m.strip_suffix(")\\b"))
        {
            words.extend(inner.split('|').map(String::from));
        }
    }
}

#[test]
fn the_textmate_grammar_colours_every_reserved_word() {
    let grammar: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/syntaxes/rpsdsl.tmLanguage.json")).unwrap();
    assert_eq!(grammar["scopeName"], "source.rpsdsl");
    let mut words = vec![];
    alternated(&grammar["repository"]["keyword"]["patterns"], &mut words);
    let missing: Vec<&&str> = RESERVED.iter().filter(|w| !words.iter().any(|k| k == **w)).collect();
    assert!(missing.is_empty(), "the TextMate grammar does not colour {missing:?}");
}

#[test]
fn the_tree_sitter_queries_colour_every_reserved_word() {
    let highlights = read("editors/tree-sitter-rpsdsl/queries/highlights.scm");
    let grammar = read("editors/tree-sitter-rpsdsl/grammar.js");
    assert!(
        highlights.contains("(boolean) @constant.builtin"),
        "`true` and `false` are coloured as booleans"
    );
    for word in RESERVED {
        let quoted = format!("\"{word}\"");
        let boolean = matches!(*word, "true" | "false");
        assert!(
            boolean || highlights.contains(&quoted),
            "highlights.scm does not colour `{word}`"
        );
        assert!(
            grammar.contains(&format!("'{word}'")),
            "grammar.js does not know `{word}`"
        );
    }
}

#[test]
fn the_vs_code_package_declares_the_language_and_starts_the_server() {
    let package: serde_json::Value = serde_json::from_str(&read("editors/vscode/package.json")).unwrap();
    let language = &package["contributes"]["languages"][0];
    assert_eq!(language["id"], "rpsdsl");
    assert_eq!(language["extensions"][0], ".rules");
    let configuration: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/language-configuration.json")).unwrap();
    assert_eq!(configuration["comments"]["lineComment"], "#");
    let extension = read("editors/vscode/extension.js");
    assert!(extension.contains("args: ['lsp']"), "the extension starts `rpsdsl lsp`");
    assert!(
        std::path::Path::new("editors/vscode/package-lock.json").exists(),
        "npm ci needs the lock file"
    );
}
