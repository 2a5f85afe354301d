//! Completion: the words of the language that can stand where the cursor
//! is, and the names in scope there, each with what it is. In a house-rules
//! file: the game's option names in `[options]`, and an option's values
//! after its `=`.

use lsp_types::{CompletionItem, CompletionItemKind, CompletionParams, CompletionResponse};

use super::index::{GameIndex, NameKind};
use super::position;
use super::server::Server;
use crate::syntax::tokens::{TokenKind, tokens};

/// Words that begin a declaration (at the top level of a file).
const DECLARATIONS: &[&str] = &[
    "game",
    "players",
    "use",
    "extends",
    "override",
    "table",
    "constant",
    "anytime",
    "display",
    "kinds",
    "beats",
    "option",
    "var",
    "pieces",
    "group",
    "board",
    "zones",
    "setup",
    "flow",
    "procedure",
    "trigger",
    "hook",
    "score",
    "result",
];

/// Words that begin a statement (inside a block).
const STATEMENTS: &[&str] = &[
    "let", "set", "add", "if", "for", "loop", "while", "repeat", "break", "return", "each", "race", "draft", "shuffle",
    "deal", "move", "reveal", "roll", "hide", "say", "swap", "win", "declare", "end", "phase", "step",
];

/// Words inside a declaration or a statement, after its first word.
#[rustfmt::skip] // a word list: kept in lines, not one word a line
const WITHIN: &[&str] = &[
    "of", "in", "to", "from", "and", "or", "not", "if", "then", "else", "when", "where", "with", "per", "player",
    "players", "score", "true", "false", "count", "sum", "any", "no", "first", "table", "at", "chooses", "secretly", "times", "all",
    "draw", "game", "beats", "exists", "longest", "run", "chain", "joins", "lines", "top", "bottom", "size", "kind", "value", "owner",
    "type", "opponent", "next", "adjacent", "length", "hidden", "public", "unordered", "most", "fewest",
];

pub(super) fn complete(server: &Server, params: CompletionParams) -> Option<CompletionResponse> {
    let at = &params.text_document_position;
    let (text, analysis) = server.document(&at.text_document.uri)?;
    let offset = position::offset(text, at.position);
    let path = &analysis.index.files[analysis.file].path;
    let items = if path.extension().is_some_and(|e| e == "toml") {
        house_items(&analysis.index, text, offset)
    } else {
        rules_items(&analysis.index, analysis.file, text, offset)
    };
    Some(CompletionResponse::Array(items))
}

fn rules_items(index: &GameIndex, file: usize, text: &str, offset: usize) -> Vec<CompletionItem> {
    // What stands before the cursor on its line, the word being typed aside.
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let typed_start = text[line_start..offset]
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
        .map_or(line_start, |(n, c)| line_start + n + c.len_utf8());
    let first_on_line = text[line_start..typed_start].trim().is_empty();
    let depth = tokens(&text[..typed_start])
        .iter()
        .filter(|t| t.kind == TokenKind::Mark)
        .fold(0i32, |depth, t| match t.text(text) {
            "{" => depth + 1,
            "}" => (depth - 1).max(0),
            _ => depth,
        });
    let keywords: &[&str] = match (first_on_line, depth) {
        (true, 0) => DECLARATIONS,
        (true, _) => STATEMENTS,
        (false, _) => WITHIN,
    };
    let mut items: Vec<CompletionItem> = keywords
        .iter()
        .map(|word| CompletionItem {
            label: word.to_string(),
            kind: Some(CompletionItemKind::KEYWORD),
            ..CompletionItem::default()
        })
        .collect();
    // Names are not declared at the top level's start; everywhere else they can stand.
    if !(first_on_line && depth == 0) {
        items.extend(
            index
                .names_at(file, typed_start)
                .into_iter()
                .map(|(name, kind)| CompletionItem {
                    label: name,
                    kind: Some(item_kind(kind)),
                    detail: Some(kind.describe().to_string()),
                    ..CompletionItem::default()
                }),
        );
    }
    items
}

fn item_kind(kind: NameKind) -> CompletionItemKind {
    match kind {
        NameKind::Kind | NameKind::OptionValue | NameKind::Seat => CompletionItemKind::ENUM_MEMBER,
        NameKind::KindSet | NameKind::Group => CompletionItemKind::ENUM,
        NameKind::PieceType => CompletionItemKind::CLASS,
        NameKind::Option => CompletionItemKind::PROPERTY,
        NameKind::Constant | NameKind::Table => CompletionItemKind::CONSTANT,
        NameKind::Zone | NameKind::Slot | NameKind::Board | NameKind::Space => CompletionItemKind::FIELD,
        NameKind::Procedure | NameKind::Hook => CompletionItemKind::FUNCTION,
        NameKind::Trigger | NameKind::Phase | NameKind::Step | NameKind::Section => CompletionItemKind::MODULE,
        NameKind::ScoreTerm => CompletionItemKind::VALUE,
        NameKind::Var | NameKind::Parameter | NameKind::Local | NameKind::Decision => CompletionItemKind::VARIABLE,
    }
}

/// In a house-rules file: option names as keys of `[options]`, an option's
/// values after its `=`, and `rules` at the top.
fn house_items(index: &GameIndex, text: &str, offset: usize) -> Vec<CompletionItem> {
    let line_start = text[..offset].rfind('\n').map_or(0, |n| n + 1);
    let before = &text[line_start..offset];
    let in_options = text[..line_start]
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('['))
        .is_some_and(|l| l.trim() == "[options]");
    let options = index
        .globals
        .iter()
        .filter_map(|(name, declared)| declared.iter().find(|d| d.kind == NameKind::Option).map(|d| (name, d)));
    if let Some((key, _)) = before.split_once('=') {
        if !in_options {
            return vec![];
        }
        let key = key.trim();
        let mut values: Vec<CompletionItem> = index
            .globals
            .iter()
            .filter(|(_, declared)| {
                declared
                    .iter()
                    .any(|d| d.kind == NameKind::OptionValue && d.parent.as_deref() == Some(key))
            })
            .map(|(value, _)| CompletionItem {
                label: format!("\"{value}\""),
                kind: Some(CompletionItemKind::ENUM_MEMBER),
                detail: Some(format!("a value of `{key}`")),
                ..CompletionItem::default()
            })
            .collect();
        let is_bool = index.globals.get(key).and_then(|d| d.first()).is_some_and(|d| {
            let f = &index.files[d.at.file];
            f.text[d.at.range.end..]
                .trim_start()
                .strip_prefix(':')
                .is_some_and(|t| t.trim_start().starts_with("bool"))
        });
        if is_bool {
            values.extend(["true", "false"].map(|v| CompletionItem {
                label: v.to_string(),
                kind: Some(CompletionItemKind::VALUE),
                ..CompletionItem::default()
            }));
        }
        values.sort_by(|a, b| a.label.cmp(&b.label));
        return values;
    }
    if !in_options {
        return vec![CompletionItem {
            label: "rules".into(),
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some("the rules file these house rules change".into()),
            ..CompletionItem::default()
        }];
    }
    let mut items: Vec<CompletionItem> = options
        .map(|(name, declared)| {
            let f = &index.files[declared.at.file];
            let line_end = f.text[declared.at.range.start..]
                .find('\n')
                .map_or(f.text.len(), |n| declared.at.range.start + n);
            CompletionItem {
                label: name.clone(),
                kind: Some(CompletionItemKind::PROPERTY),
                detail: Some(f.text[declared.at.range.start..line_end].trim().to_string()),
                documentation: declared.note.clone().map(lsp_types::Documentation::String),
                ..CompletionItem::default()
            }
        })
        .collect();
    items.sort_by(|a, b| a.label.cmp(&b.label));
    items
}
