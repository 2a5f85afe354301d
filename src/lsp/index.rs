//! What each name in a game's files is, and where it is declared and used:
//! the index behind hover, go to definition, references, highlight, rename,
//! completion, the outline and semantic colouring.
//!
//! Declared names (zones, kinds, options, procedures...) come from the
//! syntax tree of each file the game reads, so a file with a syntax error
//! still gives the declarations that parse. Local names (`let`, `for`,
//! `chooses`, parameters, `sum`) and every use come from the tokens, with
//! each local's scope worked out from the braces: the rest of its block, or
//! the block its loop or action opens. A use is the innermost local of its
//! name whose scope holds it, else the declared name. So the index keeps
//! working on any text, as the editor's buffer is while the designer types.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use crate::syntax::ast::{self, BoardShape, ExprKind, GraphPart, Item, OptionType, VarEach};
use crate::syntax::tokens::{RESERVED, Token, TokenKind, tokens};

/// What a name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum NameKind {
    Seat,
    KindSet,
    Kind,
    PieceType,
    Group,
    Option,
    OptionValue,
    Var,
    Constant,
    Table,
    Board,
    Space,
    Slot,
    Zone,
    Procedure,
    Hook,
    Trigger,
    Phase,
    Step,
    ScoreTerm,
    /// A procedure's or a hook's parameter.
    Parameter,
    /// A `let`, a loop's value, an action's parameter, `sum`'s value.
    Local,
    /// The name of a decision (`chooses NAME`, `calls NAME`, `timed by NAME`).
    Decision,
    /// A part of the file with no name of its own (`setup`, `flow`, `score`,
    /// `result`): in the outline only.
    Section,
}

impl NameKind {
    /// How a designer calls it, for hover and completion.
    pub(super) fn describe(self) -> &'static str {
        match self {
            NameKind::Seat => "seat",
            NameKind::KindSet => "set of kinds",
            NameKind::Kind => "kind",
            NameKind::PieceType => "piece type",
            NameKind::Group => "group of piece types",
            NameKind::Option => "option",
            NameKind::OptionValue => "option value",
            NameKind::Var => "variable",
            NameKind::Constant => "constant",
            NameKind::Table => "table",
            NameKind::Board => "board",
            NameKind::Space => "space",
            NameKind::Slot => "slot of every space",
            NameKind::Zone => "zone",
            NameKind::Procedure => "procedure",
            NameKind::Hook => "hook (rhai)",
            NameKind::Trigger => "trigger",
            NameKind::Phase => "phase",
            NameKind::Step => "step",
            NameKind::ScoreTerm => "score term",
            NameKind::Parameter => "parameter",
            NameKind::Local => "local value",
            NameKind::Decision => "decision",
            NameKind::Section => "section",
        }
    }
}

/// Where a name is declared: a file of the game and a byte range in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Place {
    pub file: usize,
    pub range: Range<usize>,
}

/// One declaration of a name the whole game sees.
#[derive(Clone, Debug)]
pub(super) struct Declared {
    pub kind: NameKind,
    pub at: Place,
    /// What the declaration says beyond the name: an option's description.
    pub note: Option<String>,
    /// What it belongs to: a kind's set, an option value's option.
    pub parent: Option<String>,
}

/// A local name: where it is bound and where it can be used.
#[derive(Clone, Debug)]
pub(super) struct Binder {
    pub name: String,
    pub kind: NameKind,
    pub at: Range<usize>,
    pub scope: Range<usize>,
    /// The label an action's parameters fill (`"put {what} on {spot}"`).
    pub label: Option<Range<usize>>,
}

/// One file of the game, read for the index.
pub(super) struct IndexedFile {
    pub path: PathBuf,
    pub text: Arc<str>,
    pub tokens: Vec<Token>,
    pub binders: Vec<Binder>,
    /// The top-level declarations in order, for the outline.
    pub outline: Vec<(String, NameKind, Range<usize>, Range<usize>)>,
    /// The names the file declares (their places say file 0: the game's
    /// index puts in the file's number).
    declared: HashMap<String, Vec<Declared>>,
    /// What a piece type or a kind does, as the file says it (`display
    /// Baron with text "..."`).
    texts: Vec<(String, String)>,
    /// The picture drawn on a piece type or a kind, as the file names it
    /// (`display Baron with picture "baron.svg"`), resolved against the file.
    pictures: Vec<(String, PathBuf)>,
}

impl IndexedFile {
    /// Reads one file: a rules file is parsed and its names found; any
    /// other (a house-rules file) is kept as text.
    pub(super) fn new(path: PathBuf, text: Arc<str>) -> IndexedFile {
        let mut declared = HashMap::new();
        let mut outline = vec![];
        let all = tokens(&text);
        let mut found = vec![];
        let mut texts = vec![];
        let mut pictures = vec![];
        if path.extension().is_none_or(|e| e != "toml") {
            let (parsed, _) = crate::syntax::parse_file(0, &text);
            let dir = path.parent().unwrap_or(std::path::Path::new(""));
            for item in &parsed.items {
                declare_item(item, 0, &mut declared, &mut outline, &text);
                match item {
                    Item::Text { name, text } => texts.push((name.name.clone(), text.clone())),
                    Item::Picture { name, path, .. } => pictures.push((name.name.clone(), dir.join(path))),
                    _ => {}
                }
            }
            declare_named_blocks(&text, &all, 0, &mut declared);
            found = binders(&text, &all);
        }
        IndexedFile {
            path,
            text,
            tokens: all,
            binders: found,
            outline,
            declared,
            texts,
            pictures,
        }
    }
}

/// What a word of a file resolves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Meaning {
    /// A local: the file it is in, and its index in that file's
    /// [`IndexedFile::binders`].
    Local(usize, usize),
    /// A name the game declares.
    Global(String),
    /// A reserved word or a word of one form (`count`, `top`...).
    Keyword,
    /// A number, or a name nothing declares.
    Nothing,
}

/// A game's files and the names they declare.
pub(super) struct GameIndex {
    pub files: Vec<Arc<IndexedFile>>,
    pub globals: HashMap<String, Vec<Declared>>,
    /// What each piece type or kind does, for players, where the rules
    /// say (the first file to say it wins, as in the checker).
    pub texts: HashMap<String, String>,
    /// The picture file of each piece type or kind that has one.
    pub pictures: HashMap<String, PathBuf>,
}

/// Words that mean something in one form but are not reserved.
pub(super) const FORM_WORDS: &[&str] = &[
    "table",
    "count",
    "sum",
    "say",
    "swap",
    "any",
    "no",
    "first",
    "lines",
    "longest",
    "run",
    "chain",
    "joins",
    "hex",
    "exists",
    "value",
    "as",
    "by",
    "grid",
    "graph",
    "forward",
    "orthogonals",
    "diagonals",
    "direction",
    "is",
    "on",
    "one",
    "list",
    "bool",
    "int",
    "items",
    "faces",
    "kind",
    "hidden",
    "public",
    "owner",
    "unordered",
    "every",
    "action",
    "after",
    "colour",
    "text",
    "fanned",
    "shape",
    "off",
    "space",
    "tie-breaker",
    "top",
    "bottom",
    "size",
    "type",
    "opponent",
    "next",
    "adjacent",
    "length",
];

impl GameIndex {
    /// Indexes one game from its files, read by [`IndexedFile::new`], in
    /// the order the game read them, the document first.
    pub(super) fn new(files: Vec<Arc<IndexedFile>>) -> GameIndex {
        let mut globals: HashMap<String, Vec<Declared>> = HashMap::new();
        let mut texts: HashMap<String, String> = HashMap::new();
        let mut pictures: HashMap<String, PathBuf> = HashMap::new();
        for (n, file) in files.iter().enumerate() {
            for (name, text) in &file.texts {
                texts.entry(name.clone()).or_insert_with(|| text.clone());
            }
            for (name, path) in &file.pictures {
                pictures.entry(name.clone()).or_insert_with(|| path.clone());
            }
            for (name, declared) in &file.declared {
                let entry = globals.entry(name.clone()).or_default();
                entry.extend(declared.iter().cloned().map(|mut d| {
                    d.at.file = n;
                    d
                }));
            }
        }
        GameIndex {
            files,
            globals,
            texts,
            pictures,
        }
    }

    /// The token of file `file` at byte `offset` (or just before it, so a
    /// cursor at a word's end still finds it).
    pub(super) fn token_at(&self, file: usize, offset: usize) -> Option<&Token> {
        let f = self.files.get(file)?;
        f.tokens
            .iter()
            .find(|t| t.start <= offset && offset < t.end)
            .or_else(|| f.tokens.iter().find(|t| t.end == offset && t.kind == TokenKind::Word))
    }

    /// What the word `token` of `file` means.
    pub(super) fn meaning(&self, file: usize, token: &Token) -> Meaning {
        let f = &self.files[file];
        if token.kind != TokenKind::Word {
            return Meaning::Nothing;
        }
        let word = token.text(&f.text);
        if RESERVED.contains(&word) {
            return Meaning::Keyword;
        }
        if word.as_bytes()[0].is_ascii_digit() {
            return Meaning::Nothing;
        }
        let local = f
            .binders
            .iter()
            .enumerate()
            .filter(|(_, b)| b.name == word && (b.at.start == token.start || b.scope.contains(&token.start)))
            .max_by_key(|(_, b)| (b.at.start == token.start, b.scope.start));
        if let Some((n, _)) = local {
            return Meaning::Local(file, n);
        }
        if self.globals.contains_key(word) {
            return Meaning::Global(word.to_string());
        }
        if FORM_WORDS.contains(&word) {
            return Meaning::Keyword;
        }
        Meaning::Nothing
    }

    /// Every word of every file that means `meaning`, as (file, range).
    pub(super) fn uses(&self, meaning: &Meaning, in_file: Option<usize>) -> Vec<(usize, Range<usize>)> {
        let mut found = vec![];
        for (n, f) in self.files.iter().enumerate() {
            if in_file.is_some_and(|only| only != n) {
                continue;
            }
            for token in &f.tokens {
                if token.kind == TokenKind::Word && &self.meaning(n, token) == meaning {
                    found.push((n, token.start..token.end));
                }
            }
        }
        found
    }

    /// The names usable at `offset` of `file`: the locals in scope, then
    /// every declared name.
    pub(super) fn names_at(&self, file: usize, offset: usize) -> Vec<(String, NameKind)> {
        let mut names: Vec<(String, NameKind)> = self.files[file]
            .binders
            .iter()
            .filter(|b| b.scope.contains(&offset))
            .map(|b| (b.name.clone(), b.kind))
            .collect();
        for (name, declared) in &self.globals {
            if let Some(first) = declared.first() {
                names.push((name.clone(), first.kind));
            }
        }
        names.sort();
        names.dedup_by(|a, b| a.0 == b.0);
        names
    }
}

/// The declarations of one top-level item, into `globals` and the outline.
fn declare_item(
    item: &Item,
    file: usize,
    globals: &mut HashMap<String, Vec<Declared>>,
    outline: &mut Vec<(String, NameKind, Range<usize>, Range<usize>)>,
    text: &str,
) {
    let mut declare_in = |ident: &ast::Ident, kind: NameKind, note: Option<String>, parent: Option<&ast::Ident>| {
        let range = ident.span.start as usize..ident.span.end as usize;
        globals.entry(ident.name.clone()).or_default().push(Declared {
            kind,
            at: Place {
                file,
                range: range.clone(),
            },
            note,
            parent: parent.map(|p| p.name.clone()),
        });
        // The outline's entry runs over the declaration's lines.
        outline.push((ident.name.clone(), kind, line_of(text, range.start), range));
    };
    let mut declare = |ident: &ast::Ident, kind: NameKind, note: Option<String>| declare_in(ident, kind, note, None);
    match item {
        Item::Players { names, .. } => names.iter().for_each(|n| declare(n, NameKind::Seat, None)),
        Item::Table { name, .. } => declare(name, NameKind::Table, None),
        Item::Constant { name, .. } => declare(name, NameKind::Constant, None),
        Item::Kinds { name, values } => {
            declare_in(name, NameKind::KindSet, None, None);
            for v in values {
                declare_in(
                    v,
                    NameKind::Kind,
                    Some(format!("a kind of `{}`", name.name)),
                    Some(name),
                );
            }
        }
        Item::Option(option) => {
            declare_in(&option.name, NameKind::Option, option.description.clone(), None);
            if let OptionType::Enum(values) = &option.ty {
                let note = Some(format!("a value of option `{}`", option.name.name));
                for v in values {
                    declare_in(v, NameKind::OptionValue, note.clone(), Some(&option.name));
                }
            }
        }
        Item::Var(var) => declare(
            &var.name,
            NameKind::Var,
            match &var.each {
                VarEach::Game => None,
                VarEach::Player => Some("one value per player".to_string()),
                VarEach::Space(board) => Some(format!("one value per space of {}", board.name)),
                VarEach::Piece => Some("one value per piece".to_string()),
            },
        ),
        Item::Pieces(entries) => entries.iter().for_each(|e| declare(&e.name, NameKind::PieceType, None)),
        Item::Group { name, .. } => declare(name, NameKind::Group, None),
        Item::Board(board) => {
            declare(&board.name, NameKind::Board, None);
            board
                .slots
                .iter()
                .for_each(|slot| declare(&slot.name, NameKind::Slot, None));
            if let BoardShape::Graph(parts) = &board.shape {
                for part in parts {
                    match part {
                        GraphPart::Ring { name, count, .. } => {
                            let about = match &count.kind {
                                ExprKind::Int(n) => format!("a ring of {n} spaces"),
                                ExprKind::Name(option) => format!("a ring of `{}` spaces", option.name),
                                _ => "a ring, its size worked out from options".to_string(),
                            };
                            declare(name, NameKind::Space, Some(about))
                        }
                        GraphPart::Space { name, .. } => declare(name, NameKind::Space, None),
                        GraphPart::Link(_) => {}
                    }
                }
            }
        }
        Item::Zones(zones) => zones.iter().for_each(|z| declare(&z.name, NameKind::Zone, None)),
        Item::Procedure(procedure) => declare(&procedure.name, NameKind::Procedure, None),
        Item::Trigger { name, .. } => declare(name, NameKind::Trigger, None),
        Item::Hook(hook) => declare(&hook.name, NameKind::Hook, None),
        Item::Score { terms, .. } => terms.iter().for_each(|t| declare(&t.name, NameKind::ScoreTerm, None)),
        Item::Override { item, .. } => declare_item(item, file, globals, outline, text),
        Item::Setup(block) | Item::Flow(block) => {
            let word = if matches!(item, Item::Setup(_)) {
                "setup"
            } else {
                "flow"
            };
            let start = text[..block.span.start as usize]
                .rfind(word)
                .unwrap_or(block.span.start as usize);
            outline.push((
                word.to_string(),
                NameKind::Section,
                start..block.span.end as usize,
                start..start + word.len(),
            ));
        }
        Item::Result(result) => {
            let (start, end) = (result.span.start as usize, result.span.end as usize);
            outline.push((
                "result".to_string(),
                NameKind::Section,
                start..end,
                start..(start + 6).min(end),
            ));
        }
        _ => {}
    }
}

/// The whole line holding byte `at`.
pub(super) fn line_of(text: &str, at: usize) -> Range<usize> {
    let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
    let end = text[at..].find('\n').map_or(text.len(), |n| at + n);
    start..end
}

/// `phase NAME` and `step NAME`, wherever they stand.
fn declare_named_blocks(text: &str, all: &[Token], file: usize, globals: &mut HashMap<String, Vec<Declared>>) {
    for pair in all.windows(2) {
        let kind = match pair[0].text(text) {
            "phase" => NameKind::Phase,
            "step" => NameKind::Step,
            _ => continue,
        };
        let name = &pair[1];
        if name.kind == TokenKind::Word && !RESERVED.contains(&name.text(text)) {
            globals.entry(name.text(text).to_string()).or_default().push(Declared {
                kind,
                at: Place {
                    file,
                    range: name.start..name.end,
                },
                note: None,
                parent: None,
            });
        }
    }
}

/// The blocks of a token list: for each `{`, the index of its `}`.
fn matching_braces(text: &str, all: &[Token]) -> HashMap<usize, usize> {
    let mut open = vec![];
    let mut pairs = HashMap::new();
    for (i, t) in all.iter().enumerate() {
        if t.kind != TokenKind::Mark {
            continue;
        }
        match t.text(text) {
            "{" => open.push(i),
            "}" => {
                if let Some(o) = open.pop() {
                    pairs.insert(o, i);
                }
            }
            _ => {}
        }
    }
    // An unclosed block runs to the end of the text.
    for o in open {
        pairs.insert(o, all.len());
    }
    pairs
}

/// Every local name of a file, with its scope.
fn binders(text: &str, all: &[Token]) -> Vec<Binder> {
    let pairs = matching_braces(text, all);
    let end_of = |close: usize| all.get(close).map_or(text.len(), |t| t.end);
    // The end of the innermost block around token `i`.
    let enclosing_end = |i: usize| {
        pairs
            .iter()
            .filter(|&(&o, &c)| o < i && i < c)
            .min_by_key(|&(&o, &c)| c - o)
            .map_or(text.len(), |(_, &c)| end_of(c))
    };
    // The end of the first block opened after token `i`.
    let next_block_end = |i: usize| {
        (i + 1..all.len())
            .find(|&j| all[j].kind == TokenKind::Mark && all[j].text(text) == "{")
            .and_then(|o| pairs.get(&o))
            .map_or(text.len(), |&c| end_of(c))
    };
    let word = |i: usize| all.get(i).filter(|t| t.kind == TokenKind::Word).map(|t| t.text(text));
    let is_name = |i: usize| word(i).is_some_and(|w| !RESERVED.contains(&w) && !w.as_bytes()[0].is_ascii_digit());
    let mark = |i: usize| all.get(i).filter(|t| t.kind == TokenKind::Mark).map(|t| t.text(text));
    let mut out = vec![];
    let mut bind = |i: usize, kind: NameKind, scope_end: usize, label: Option<Range<usize>>| {
        let t = &all[i];
        out.push(Binder {
            name: t.text(text).to_string(),
            kind,
            at: t.start..t.end,
            scope: t.start..scope_end,
            label,
        });
    };
    for i in 0..all.len() {
        match (all[i].kind, all[i].text(text)) {
            (TokenKind::Word, "let") => {
                let end = enclosing_end(i);
                if is_name(i + 1) {
                    bind(i + 1, NameKind::Local, end, None);
                } else if mark(i + 1) == Some("(") {
                    let mut j = i + 2;
                    while is_name(j) {
                        bind(j, NameKind::Local, end, None);
                        if mark(j + 1) != Some(",") {
                            break;
                        }
                        j += 2;
                    }
                }
            }
            (TokenKind::Word, "chooses" | "calls") if is_name(i + 1) => {
                bind(i + 1, NameKind::Decision, enclosing_end(i), None)
            }
            (TokenKind::Word, "by") if word(i.wrapping_sub(1)) == Some("timed") && is_name(i + 1) => {
                bind(i + 1, NameKind::Decision, enclosing_end(i), None)
            }
            (TokenKind::Word, "sum" | "any" | "all" | "no") if is_name(i + 1) && word(i + 2) == Some("in") => {
                bind(i + 1, NameKind::Local, next_block_end(i), None)
            }
            (TokenKind::Word, "for") if is_name(i + 1) => {
                let end = next_block_end(i);
                let label = i
                    .checked_sub(1)
                    .map(|p| &all[p])
                    .filter(|t| t.kind == TokenKind::Str)
                    .map(|t| t.start..t.end);
                bind(i + 1, NameKind::Local, end, label.clone());
                // An action's further parameters: `, NAME in ...` or `, NAME = ...`
                // at this level, up to the block.
                let mut depth = 0i32;
                let mut j = i + 2;
                while j < all.len() && !(depth == 0 && mark(j) == Some("{")) {
                    match mark(j) {
                        Some("(" | "[") => depth += 1,
                        Some(")" | "]") => depth -= 1,
                        Some(",")
                            if depth == 0 && is_name(j + 1) && matches!(word(j + 2), Some("in"))
                                || depth == 0 && mark(j) == Some(",") && is_name(j + 1) && mark(j + 2) == Some("=") =>
                        {
                            bind(j + 1, NameKind::Local, end, label.clone());
                        }
                        _ => {}
                    }
                    j += 1;
                }
            }
            (TokenKind::Word, "procedure" | "hook") if is_name(i + 1) && mark(i + 2) == Some("(") => {
                let end = next_block_end(i);
                let mut j = i + 3;
                while is_name(j) {
                    bind(j, NameKind::Parameter, end, None);
                    // `name` or `name: type`, then `,` or `)`.
                    if mark(j + 1) == Some(":") {
                        j += 2;
                    }
                    if mark(j + 1) != Some(",") {
                        break;
                    }
                    j += 2;
                }
            }
            _ => {}
        }
    }
    out
}
