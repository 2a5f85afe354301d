//! The declaration pass: every top-level name gets an id, then the bodies are
//! compiled against the complete table (so order in the file does not matter).

use std::collections::HashMap;

use super::body::Compiler;
use super::options;
use super::types::{Globals, Symbol};
use crate::diagnostic::{Diagnostic, Sources, Span, nearest};
use crate::ir::{self, FamilyIndex, GameDef, Visibility};
use crate::syntax::ast::{self, Item};

pub fn build(sources: Sources, items: Vec<Item>) -> (GameDef, Vec<Diagnostic>) {
    let mut d = Declarer {
        def: empty_def(sources),
        globals: Globals::default(),
        diags: vec![],
    };
    d.declare(&items);
    let (def, globals, mut diags) = (d.def, d.globals, d.diags);
    let mut compiler = Compiler::new(def, globals);
    compiler.compile_bodies(&items);
    let (def, mut more) = compiler.finish();
    diags.append(&mut more);
    (def, diags)
}

fn empty_def(sources: Sources) -> GameDef {
    GameDef {
        name: String::new(),
        sources,
        seats: vec![],
        kinds: vec![],
        kind_sets: vec![],
        beats: vec![],
        piece_types: vec![],
        groups: vec![],
        pieces: vec![],
        zones: vec![],
        families: vec![],
        boards: vec![],
        options: vec![],
        vars: vec![],
        var_slots: 0,
        procs: vec![],
        code: vec![],
        spans: vec![],
        tables: vec![],
        messages: vec![],
        decisions: vec![],
        triggers: vec![],
        hooks: vec![],
        hook_calls: vec![],
        script: None,
        score_terms: vec![],
        anytime: vec![],
        base: None,
        rank_keys: vec![],
        main: 0,
        result_pc: 0,
        max_decisions: 100_000,
    }
}

struct Declarer {
    def: GameDef,
    globals: Globals,
    diags: Vec<Diagnostic>,
}

impl Declarer {
    fn define(&mut self, name: &ast::Ident, symbol: Symbol) -> bool {
        if let Some((previous, span)) = self.globals.names.get(&name.name) {
            self.diags.push(
                Diagnostic::error("duplicate-definition", format!("`{}` is defined twice", name.name))
                    .label(name.span, format!("defined again here as {}", symbol.describe()))
                    .label(*span, format!("first defined here as {}", previous.describe()))
                    .help("rename one of them; every top-level name must be unique"),
            );
            return false;
        }
        self.globals.names.insert(name.name.clone(), (symbol, name.span));
        true
    }

    fn declare(&mut self, items: &[Item]) {
        self.declare_game(items);
        // Kinds and their relation.
        for item in items {
            if let Item::Kinds { name, values } = item {
                let set = self.def.kind_sets.len() as u16;
                self.define(name, Symbol::KindSet(set));
                let mut members = vec![];
                for value in values {
                    let id = self.def.kinds.len() as u16;
                    if self.define(value, Symbol::Kind(id)) {
                        self.def.kinds.push(ir::Kind {
                            name: value.name.clone(),
                            display: value.name.clone(),
                        });
                        members.push(id);
                    }
                }
                self.def.kind_sets.push(ir::KindSet {
                    name: name.name.clone(),
                    members,
                });
            }
        }
        let n = self.def.kinds.len();
        self.def.beats = vec![false; n * n];
        for item in items {
            match item {
                Item::Beats { pairs, .. } => {
                    for (a, b) in pairs {
                        if let (Some(a), Some(b)) = (self.kind(a), self.kind(b)) {
                            if a == b {
                                self.diags.push(
                                    Diagnostic::error("bad-relation", "a kind cannot beat itself")
                                        .label(a_span(pairs, a, &self.def), "here"),
                                );
                            }
                            self.def.beats[a as usize * n + b as usize] = true;
                        }
                    }
                }
                Item::Display { kind, text, .. } => {
                    if let Some(k) = self.kind(kind) {
                        self.def.kinds[k as usize].display = text.clone();
                    }
                }
                _ => {}
            }
        }
        self.declare_components(items);
        for item in items {
            match item {
                Item::Option(decl) => {
                    let id = self.def.options.len() as u16;
                    if self.define(&decl.name, Symbol::Option(id)) {
                        let (def, mut errors) = options::declare(decl);
                        self.diags.append(&mut errors);
                        self.def.options.push(def);
                    }
                }
                Item::Var(ast::VarDecl { name, .. }) | Item::Constant { name, .. } => {
                    let id = self.def.vars.len() as u16;
                    let per_player = matches!(item, Item::Var(decl) if decl.per_player);
                    if self.define(name, Symbol::Var(id)) {
                        let slot = self.def.var_slots as u16;
                        self.def.var_slots += if per_player { self.def.seats.len() } else { 1 };
                        // The init procedure is allocated by the compiler.
                        self.def.vars.push(ir::VarDef {
                            name: name.name.clone(),
                            per_player,
                            slot,
                            init: 0,
                            constant: matches!(item, Item::Constant { .. }),
                            shows: ir::ValueKind::Number,
                        });
                    }
                }
                Item::Table { name, values, span } => {
                    let id = self.def.tables.len() as u16;
                    if values.is_empty() {
                        self.diags.push(
                            Diagnostic::error("bad-table", "a table needs at least one entry").label(*span, "empty"),
                        );
                    }
                    if self.define(name, Symbol::Table(id)) {
                        self.def.tables.push(values.clone());
                    }
                }
                Item::Procedure(decl) => {
                    let id = self.def.procs.len() as u16;
                    if self.define(&decl.name, Symbol::Proc(id)) {
                        self.def.procs.push(ir::Proc {
                            name: decl.name.name.clone(),
                            entry: 0,
                            params: decl.params.len() as u16,
                            locals: 0,
                            returns: decl.returns.len() as u16,
                            span: decl.name.span,
                        });
                    }
                }
                Item::Hook(decl) => {
                    let id = self.def.hooks.len() as u16;
                    if self.define(&decl.name, Symbol::Hook(id)) {
                        self.def.hooks.push(ir::Hook {
                            name: decl.name.name.clone(),
                            params: decl.params.iter().map(|p| p.name.name.clone()).collect(),
                            returns_bool: decl.returns == ast::HookType::Bool,
                            span: decl.name.span,
                        });
                    }
                }
                Item::Trigger { name, .. } => {
                    let id = self.def.triggers.len() as u16;
                    if self.define(name, Symbol::Trigger(id)) {
                        self.def.triggers.push(ir::Trigger {
                            name: name.name.clone(),
                            proc: 0,
                        });
                    }
                }
                _ => {}
            }
        }
    }

    fn declare_game(&mut self, items: &[Item]) {
        let mut game = None;
        let mut players = None;
        for item in items {
            match item {
                Item::Game { name, span } => {
                    if let Some((_, first)) = &game {
                        self.diags.push(
                            Diagnostic::error("duplicate-definition", "the game is named twice")
                                .label(*span, "named again here")
                                .label(*first, "first named here"),
                        );
                    } else {
                        game = Some((name.clone(), *span));
                    }
                }
                Item::Players { count, names, span } => {
                    if players.is_some() {
                        self.diags.push(
                            Diagnostic::error("duplicate-definition", "`players` is declared twice")
                                .label(*span, "declared again here"),
                        );
                        continue;
                    }
                    players = Some(*span);
                    if !(1..=8).contains(count) {
                        self.diags.push(
                            Diagnostic::error("bad-player-count", format!("{count} players is not supported"))
                                .label(*span, "here")
                                .help("a game has from 1 to 8 players"),
                        );
                        continue;
                    }
                    if !names.is_empty() && names.len() as i64 != *count {
                        self.diags.push(
                            Diagnostic::error(
                                "bad-player-count",
                                format!("{count} players but {} seat names", names.len()),
                            )
                            .label(*span, "here")
                            .help("name every seat, or none"),
                        );
                    }
                    for seat in 0..*count as usize {
                        match names.get(seat) {
                            Some(name) => {
                                self.define(name, Symbol::Seat(seat as u8));
                                self.def.seats.push(name.name.clone());
                            }
                            None => self.def.seats.push(format!("player {}", seat + 1)),
                        }
                    }
                }
                _ => {}
            }
        }
        match game {
            Some((name, _)) => self.def.name = name,
            None => {
                let file = items.iter().find_map(|i| match i {
                    Item::Flow(b) => Some(b.span.file),
                    _ => None,
                });
                self.diags.push(
                    Diagnostic::error("missing-game", "the file does not name its game")
                        .label(
                            super::file_start(file.unwrap_or(0)),
                            "expected `game \"Name\"` near the top",
                        )
                        .help("add a line such as `game \"Rock Paper Scissors\"`"),
                );
            }
        }
        if players.is_none() {
            self.diags.push(
                Diagnostic::error("missing-players", "the file does not say how many players play")
                    .label(super::file_start(0), "expected `players 2: Left, Right`")
                    .help("add a line such as `players 2: Orange, Blue`"),
            );
        }
    }

    fn kind(&mut self, ident: &ast::Ident) -> Option<u16> {
        match self.globals.get(&ident.name) {
            Some(Symbol::Kind(k)) => Some(k),
            other => {
                let kinds: Vec<&str> = self.def.kinds.iter().map(|k| k.name.as_str()).collect();
                let mut diag = match other {
                    Some(symbol) => Diagnostic::error(
                        "type-mismatch",
                        format!("`{}` is {}, not a kind", ident.name, symbol.describe()),
                    ),
                    None => Diagnostic::error("unknown-name", format!("unknown kind `{}`", ident.name)),
                }
                .label(ident.span, "expected a kind");
                if let Some(near) = nearest(&ident.name, kinds.iter().copied()) {
                    diag = diag.help(format!("did you mean `{near}`?"));
                } else if !kinds.is_empty() {
                    diag = diag.help(format!("the kinds are {}", kinds.join(", ")));
                } else {
                    diag = diag.help("declare kinds first, e.g. `kinds Hand = rock | paper | scissors`");
                }
                self.diags.push(diag);
                None
            }
        }
    }

    fn add_family(&mut self, name: &ast::Ident, by: FamilyIndex, len: u16, visibility: Visibility) {
        let id = self.def.families.len() as u16;
        if !self.define(name, Symbol::Family(id)) {
            return;
        }
        let first = self.def.zones.len() as u16;
        for index in 0..len {
            let owner = (by == FamilyIndex::PerPlayer).then_some(index as u8);
            self.def.zones.push(ir::Zone {
                family: id,
                index,
                visibility,
                owner,
            });
        }
        self.def.families.push(ir::Family {
            name: name.name.clone(),
            first,
            len,
            by,
            visibility,
        });
    }

    fn declare_components(&mut self, items: &[Item]) {
        // The box holds the pieces an option leaves out of the game.
        let box_name = ast::Ident {
            name: "box".into(),
            span: Span::default(),
        };
        self.add_family(&box_name, FamilyIndex::Single, 1, Visibility::Hidden);
        for item in items {
            match item {
                Item::Board(board) => {
                    let id = self.def.boards.len() as u16;
                    if !(1..=64).contains(&board.rows) || !(1..=64).contains(&board.cols) {
                        self.diags.push(
                            Diagnostic::error(
                                "bad-board",
                                format!("a {} x {} grid is not supported", board.rows, board.cols),
                            )
                            .label(board.shape_span, "here")
                            .help("grids have 1 to 64 rows and columns"),
                        );
                        continue;
                    }
                    if !self.define(&board.name, Symbol::Board(id)) {
                        continue;
                    }
                    let (rows, cols) = (board.rows as u16, board.cols as u16);
                    self.def.boards.push(ir::Board {
                        name: board.name.name.clone(),
                        rows,
                        cols,
                        lines: grid_lines(rows, cols),
                    });
                    for (slot, visibility) in &board.slots {
                        self.add_family(slot, FamilyIndex::PerSpace(id), rows * cols, visibility_of(*visibility));
                    }
                }
                Item::Zones(zones) => {
                    for zone in zones {
                        let players = self.def.seats.len() as u16;
                        let (by, len) = if zone.per_player {
                            (FamilyIndex::PerPlayer, players)
                        } else {
                            (FamilyIndex::Single, 1)
                        };
                        if zone.visibility == ast::Visibility::Owner && !zone.per_player {
                            self.diags.push(
                                Diagnostic::error("bad-visibility", format!("zone `{}` has no owner", zone.name.name))
                                    .label(zone.name.span, "`owner` visibility needs a zone per player")
                                    .help("write `per player owner`, or use `hidden` or `public`"),
                            );
                        }
                        self.add_family(&zone.name, by, len, visibility_of(zone.visibility));
                    }
                }
                _ => {}
            }
        }
        // Piece types and groups.
        let mut types: HashMap<String, u16> = HashMap::new();
        for item in items {
            if let Item::Pieces(entries) = item {
                for entry in entries {
                    if types.contains_key(&entry.name.name) {
                        continue;
                    }
                    let id = self.def.piece_types.len() as u16;
                    if self.define(&entry.name, Symbol::PieceType(id)) {
                        types.insert(entry.name.name.clone(), id);
                        self.def.piece_types.push(entry.name.name.clone());
                    }
                }
            }
        }
        for item in items {
            if let Item::Group { name, members } = item {
                let id = self.def.groups.len() as u16;
                let mut group_types = vec![];
                for member in members {
                    match self.globals.get(&member.name) {
                        Some(Symbol::PieceType(t)) => group_types.push(t),
                        _ => {
                            let mut diag =
                                Diagnostic::error("unknown-name", format!("unknown piece type `{}`", member.name))
                                    .label(member.span, "not a piece type");
                            if let Some(near) = nearest(&member.name, types.keys().map(String::as_str)) {
                                diag = diag.help(format!("did you mean `{near}`?"));
                            }
                            self.diags.push(diag);
                        }
                    }
                }
                if self.define(name, Symbol::Group(id)) {
                    self.def.groups.push(ir::Group {
                        name: name.name.clone(),
                        types: group_types,
                    });
                }
            }
        }
    }
}

fn a_span(pairs: &[(ast::Ident, ast::Ident)], kind: u16, def: &GameDef) -> Span {
    pairs
        .iter()
        .find(|(a, _)| a.name == def.kinds[kind as usize].name)
        .map(|(a, b)| a.span.join(b.span))
        .unwrap_or_default()
}

fn visibility_of(v: ast::Visibility) -> Visibility {
    match v {
        ast::Visibility::Hidden => Visibility::Hidden,
        ast::Visibility::Public => Visibility::Public,
        ast::Visibility::Owner => Visibility::Owner,
    }
}

/// Rows, columns and, on a square grid, both diagonals.
fn grid_lines(rows: u16, cols: u16) -> Vec<Vec<u16>> {
    let mut lines = vec![];
    for r in 0..rows {
        lines.push((0..cols).map(|c| r * cols + c).collect());
    }
    for c in 0..cols {
        lines.push((0..rows).map(|r| r * cols + c).collect());
    }
    if rows == cols && rows > 1 {
        lines.push((0..rows).map(|i| i * cols + i).collect());
        lines.push((0..rows).map(|i| i * cols + (cols - 1 - i)).collect());
    }
    lines
}
