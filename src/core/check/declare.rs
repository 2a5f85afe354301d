//! The declaration pass: every top-level name gets an id, then the bodies are
//! compiled against the complete table (so order in the file does not matter).

use std::collections::HashMap;

use super::body::Compiler;
use super::ids::{self, Table};
use super::options;
use super::types::{Globals, Symbol};
use crate::diagnostic::{Code, Diagnostic, Sources, Span, nearest};
use crate::ir::{self, FamilyIndex, GameDef, Visibility};
use crate::syntax::ast::{self, Item};

mod board;
mod shape;

pub use shape::Shape;
use shape::ShapeScope;

pub(crate) fn build(sources: Sources, items: Vec<Item>, shape: &Shape) -> (GameDef, Vec<Diagnostic>) {
    let mut d = Declarer {
        def: empty_def(sources),
        globals: Globals::default(),
        diags: vec![],
        shape: ShapeScope::new(&items, shape),
    };
    d.declare(&items);
    d.def.shaped_by = d.shape.shaped_by(&d.def.options);
    d.globals.read_by_shape = std::mem::take(&mut d.shape.names_read);
    let (def, globals, mut diags) = (d.def, d.globals, d.diags);
    let mut compiler = Compiler::new(def, globals);
    compiler.compile_bodies(&items);
    let (def, mut more) = compiler.finish();
    diags.append(&mut more);
    (def, diags)
}

/// Two kinds of a `beats` entry, `a > b` or `a = b`.
type KindPair = (ast::Ident, ast::Ident);

/// Most kinds a definition may declare: the `beats` relation is a kinds x
/// kinds table. docs/language.md ("Limits") gives the value.
pub(crate) const MAX_KINDS: usize = 1024;
/// Most pieces a definition may make, counting copies, values, kinds and owners.
pub(crate) const MAX_PIECES: usize = ids::LIMIT / 2;

fn empty_def(sources: Sources) -> GameDef {
    GameDef {
        name: String::new(),
        sources,
        seats: vec![],
        seat_colours: vec![],
        kinds: vec![],
        kind_sets: vec![],
        beats: vec![],
        piece_types: vec![],
        type_texts: vec![],
        type_shapes: vec![],
        type_pictures: vec![],
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
        plain_pcs: vec![],
        plain_locals: vec![],
        tables: vec![],
        messages: vec![],
        decisions: vec![],
        triggers: vec![],
        hooks: vec![],
        hook_calls: vec![],
        says: vec![],
        filters: vec![],
        score_terms: vec![],
        anytime: vec![],
        base: None,
        root_file: 0,
        rank_keys: vec![],
        leads: vec![],
        main: 0,
        result_pc: 0,
        max_decisions: 100_000,
        shaped_by: vec![],
        open_information: false,
    }
}

struct Declarer {
    def: GameDef,
    globals: Globals,
    diags: Vec<Diagnostic>,
    /// What a size (a board's, the number of players) may read, and what it read.
    shape: ShapeScope,
}

impl Declarer {
    fn define(&mut self, name: &ast::Ident, symbol: Symbol) -> bool {
        if let Some((previous, span)) = self.globals.names.get(&name.name) {
            self.diags.push(
                Diagnostic::error(Code::DuplicateDefinition, format!("`{}` is defined twice", name.name))
                    .label(name.span, format!("defined again here as {}", symbol.describe()))
                    .label(*span, format!("first defined here as {}", previous.describe()))
                    .help("rename one of them; every top-level name must be unique"),
            );
            return false;
        }
        self.globals.names.insert(name.name.clone(), (symbol, name.span));
        true
    }

    /// The id of a new entry of `table`, which holds `len` entries; a full
    /// table is reported, and the declaration is then left out.
    fn next_id(&mut self, len: usize, table: Table, span: Span) -> Option<u16> {
        ids::next_id(len, table, span)
            .map_err(|full| self.diags.push(full))
            .ok()
    }

    fn declare(&mut self, items: &[Item]) {
        self.declare_game(items);
        self.declare_kinds(items);
        self.declare_relation(items);
        self.lint_incomplete_relation(items);
        self.declare_components(items);
        self.declare_texts(items);
        self.declare_layouts(items);
        self.declare_names(items);
    }

    /// `display NAME fanned`, `display NAME off the table`: how a zone is
    /// laid out. A zone's name is a family's: every seat's `hand` alike.
    fn declare_layouts(&mut self, items: &[Item]) {
        for item in items {
            let Item::ZoneLayout { zone, fanned } = item else {
                continue;
            };
            let layout = if *fanned {
                ir::ZoneLayout::Fanned
            } else {
                ir::ZoneLayout::OffTheTable
            };
            match self.globals.get(&zone.name) {
                Some(Symbol::Family(f)) => self.def.families[f as usize].layout = layout,
                other => {
                    let zones: Vec<&str> = self.def.families.iter().skip(1).map(|f| f.name.as_str()).collect();
                    let mut diag = match other {
                        Some(symbol) => Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is {}, not a zone", zone.name, symbol.describe()),
                        ),
                        None => Diagnostic::error(Code::UnknownName, format!("unknown zone `{}`", zone.name)),
                    }
                    .label(zone.span, "expected a zone from `zones`, or a board's slot");
                    if let Some(near) = nearest(&zone.name, zones.iter().copied()) {
                        diag = diag.help(format!("did you mean `{near}`?"));
                    } else if !zones.is_empty() {
                        diag = diag.help(format!("the zones are {}", zones.join(", ")));
                    }
                    self.diags.push(diag);
                }
            }
        }
    }

    /// `display NAME with text "..."`: what a piece type or a kind does;
    /// `display NAME with shape S`: the shape pictures draw it as;
    /// `display NAME with picture "file.svg"`: the picture drawn on it.
    fn declare_texts(&mut self, items: &[Item]) {
        self.def.type_texts.resize(self.def.piece_types.len(), None);
        self.def.type_shapes.resize(self.def.piece_types.len(), None);
        self.def.type_pictures.resize(self.def.piece_types.len(), None);
        for item in items {
            let (name, text, shape, picture) = match item {
                Item::Text { name, text } => (name, Some(text), None, None),
                Item::Shape { name, shape } => match ir::Shape::named(&shape.name) {
                    Some(found) => (name, None, Some(found), None),
                    None => {
                        self.unknown_shape(shape);
                        continue;
                    }
                },
                // A picture that could not be read was said while loading.
                Item::Picture { name, svg, .. } => (name, None, None, svg.clone()),
                _ => continue,
            };
            match self.globals.get(&name.name) {
                Some(Symbol::PieceType(t)) => {
                    if let Some(text) = text {
                        self.def.type_texts[t as usize] = Some(text.clone());
                    }
                    if shape.is_some() {
                        self.def.type_shapes[t as usize] = shape;
                    }
                    if picture.is_some() {
                        self.def.type_pictures[t as usize] = picture;
                    }
                }
                Some(Symbol::Kind(k)) => {
                    let kind = &mut self.def.kinds[k as usize];
                    if let Some(text) = text {
                        kind.text = Some(text.clone());
                    }
                    if shape.is_some() {
                        kind.shape = shape;
                    }
                    if picture.is_some() {
                        kind.picture = picture;
                    }
                }
                _ => {
                    let named = self
                        .def
                        .piece_types
                        .iter()
                        .chain(self.def.kinds.iter().map(|k| &k.name));
                    let mut diag =
                        Diagnostic::error(Code::UnknownName, format!("unknown piece type or kind `{}`", name.name))
                            .label(name.span, "expected a piece type from `pieces`, or a kind");
                    if let Some(near) = nearest(&name.name, named.map(String::as_str)) {
                        diag = diag.help(format!("did you mean `{near}`?"));
                    }
                    self.diags.push(diag);
                }
            }
        }
    }

    /// A shape no picture draws, with the nearest and the list.
    fn unknown_shape(&mut self, shape: &ast::Ident) {
        let names: Vec<&str> = ir::Shape::ALL.iter().map(|(n, _)| *n).collect();
        let diag = Diagnostic::error(Code::UnknownName, format!("unknown shape `{}`", shape.name))
            .label(shape.span, "expected a shape");
        let diag = match nearest(&shape.name, names.iter().copied()) {
            Some(near) => diag.help(format!("did you mean `{near}`? The shapes are {}", names.join(", "))),
            None => diag.help(format!("the shapes are {}", names.join(", "))),
        };
        self.diags.push(diag);
    }

    /// Each kind set and its kinds, in order, each kind named once.
    fn declare_kinds(&mut self, items: &[Item]) {
        for item in items {
            if let Item::Kinds { name, values } = item {
                let Some(set) = self.next_id(self.def.kind_sets.len(), Table::KindSets, name.span) else {
                    continue;
                };
                self.define(name, Symbol::KindSet(set));
                let mut members = vec![];
                for value in values {
                    if self.def.kinds.len() >= MAX_KINDS {
                        self.diags.push(
                            Diagnostic::error(Code::TooManyKinds, format!("more than {MAX_KINDS} kinds"))
                                .label(value.span, format!("kind number {} is here", MAX_KINDS + 1))
                                .help(format!(
                                    "a definition has at most {MAX_KINDS} kinds (who beats whom is a table of every pair)"
                                )),
                        );
                        break;
                    }
                    // Below MAX_KINDS, far below the limit of ids.
                    let id = ids::index(self.def.kinds.len());
                    if self.define(value, Symbol::Kind(id)) {
                        self.def.kinds.push(ir::Kind {
                            name: value.name.clone(),
                            display: value.name.clone(),
                            colour: None,
                            text: None,
                            shape: None,
                            picture: None,
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
    }

    /// Who beats whom and which pairs tie, the kinds' display names and the
    /// seats' colours.
    fn declare_relation(&mut self, items: &[Item]) {
        let n = self.def.kinds.len();
        self.def.beats = vec![false; n * n];
        for item in items {
            match item {
                Item::Beats { pairs, ties, .. } => {
                    for (a, b) in pairs {
                        if let (Some(a), Some(b)) = (self.kind(a), self.kind(b)) {
                            if a == b {
                                self.diags.push(
                                    Diagnostic::error(Code::BadRelation, "a kind cannot beat itself")
                                        .label(a_span(pairs, a, &self.def), "here"),
                                );
                            }
                            self.def.beats[a as usize * n + b as usize] = true;
                        }
                    }
                    for (a, b) in ties {
                        if let (Some(ka), Some(kb)) = (self.kind(a), self.kind(b))
                            && (self.def.beats[ka as usize * n + kb as usize]
                                || self.def.beats[kb as usize * n + ka as usize])
                        {
                            self.diags.push(
                                Diagnostic::error(
                                    Code::BadRelation,
                                    format!(
                                        "`{}` and `{}` are declared to tie, and one also beats the other",
                                        a.name, b.name
                                    ),
                                )
                                .label(a.span.join(b.span), "declared to tie here")
                                .help("keep either the tie or the `>` pair"),
                            );
                        }
                    }
                }
                Item::Display { kind, text, .. } => {
                    if let Some(k) = self.kind(kind) {
                        self.def.kinds[k as usize].display = text.clone();
                    }
                }
                Item::SeatColour {
                    seat,
                    colour,
                    colour_span,
                } => self.declare_seat_colour(seat, colour, *colour_span),
                _ => {}
            }
        }
    }

    /// Options, variables and constants, tables, procedures, hooks and
    /// triggers, in the order they are written (so are their diagnostics).
    fn declare_names(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Option(decl) => {
                    let Some(id) = self.next_id(self.def.options.len(), Table::Options, decl.name.span) else {
                        continue;
                    };
                    if self.define(&decl.name, Symbol::Option(id)) {
                        let (def, mut errors) = options::declare(decl);
                        self.diags.append(&mut errors);
                        self.def.options.push(def);
                    }
                }
                Item::Var(ast::VarDecl { name, .. }) | Item::Constant { name, .. } => {
                    let (each, reported) = match item {
                        Item::Var(decl) => match self.var_each(&decl.each) {
                            Some(each) => (each, false),
                            None => (ir::VarEach::Game, true),
                        },
                        _ => (ir::VarEach::Game, false),
                    };
                    // A per-piece variable's slots are given once the pieces are made.
                    let width = match each {
                        ir::VarEach::Game | ir::VarEach::Piece => 1,
                        ir::VarEach::Player => self.def.seats.len(),
                        ir::VarEach::Space(board) => usize::from(self.def.boards[board as usize].spaces()),
                    };
                    let slot = match ids::first_of(self.def.var_slots, width, Table::VariableValues, name.span) {
                        Ok(slot) => slot,
                        Err(full) => {
                            self.diags.push(full);
                            continue;
                        }
                    };
                    let Some(id) = self.next_id(self.def.vars.len(), Table::Variables, name.span) else {
                        continue;
                    };
                    if self.define(name, Symbol::Var(id)) {
                        if reported {
                            self.globals.reported_vars.insert(id);
                        }
                        if each != ir::VarEach::Piece {
                            self.def.var_slots += width;
                        }
                        // The init procedure is allocated by the compiler.
                        self.def.vars.push(ir::VarDef {
                            name: name.name.clone(),
                            each,
                            slot,
                            init: 0,
                            constant: matches!(item, Item::Constant { .. }),
                            shows: ir::ValueKind::Number,
                        });
                    }
                }
                Item::Table {
                    name,
                    values,
                    keys,
                    span,
                } => {
                    let Some(id) = self.next_id(self.def.tables.len(), Table::Tables, name.span) else {
                        continue;
                    };
                    if values.is_empty() {
                        self.diags.push(
                            Diagnostic::error(Code::BadTable, "a table needs at least one entry").label(*span, "empty"),
                        );
                    }
                    // A table keyed by kind holds a value for every kind of
                    // the game, by kind id: the set's kinds hold theirs.
                    let values = match keys.is_empty() {
                        true => values.clone(),
                        false => match self.keyed_table(name, keys, values) {
                            Some((set, by_kind)) => {
                                self.globals.keyed_tables.insert(id, set);
                                by_kind
                            }
                            None => vec![0],
                        },
                    };
                    if self.define(name, Symbol::Table(id)) {
                        self.def.tables.push(values);
                    }
                }
                Item::Procedure(decl) => {
                    let span = decl.name.span;
                    let counted = ids::next_id(self.def.procs.len(), Table::Procedures, span).and_then(|id| {
                        let params = ids::count(decl.params.len(), Table::Parameters, span)?;
                        let returns = ids::count(decl.returns.len(), Table::Results, span)?;
                        Ok((id, params, returns))
                    });
                    let (id, params, returns) = match counted {
                        Ok(counted) => counted,
                        Err(full) => {
                            self.diags.push(full);
                            continue;
                        }
                    };
                    if self.define(&decl.name, Symbol::Proc(id)) {
                        self.def.procs.push(ir::Proc {
                            name: decl.name.name.clone(),
                            entry: 0,
                            params,
                            locals: 0,
                            returns,
                            span,
                        });
                    }
                }
                Item::Hook(decl) => {
                    let Some(id) = self.next_id(self.def.hooks.len(), Table::Hooks, decl.name.span) else {
                        continue;
                    };
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
                    let Some(id) = self.next_id(self.def.triggers.len(), Table::Triggers, name.span) else {
                        continue;
                    };
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

    /// `table NAME = [low: 1, ...]`: the kind set its keys are kinds of (so
    /// lookups by kind check even when the table is wrong), and its values
    /// by kind id; a mistake in it is reported.
    fn keyed_table(&mut self, name: &ast::Ident, keys: &[ast::Ident], values: &[i64]) -> Option<(u16, Vec<i64>)> {
        let mut by_kind = vec![0; self.def.kinds.len()];
        let mut given: Vec<Option<Span>> = vec![None; self.def.kinds.len()];
        let mut set = None;
        for (key, &value) in keys.iter().zip(values) {
            let Some(kind) = self.kind(key) else { continue };
            let Some(kind_set) = self.def.kind_sets.iter().position(|s| s.members.contains(&kind)) else {
                continue;
            };
            let kind_set = kind_set as u16;
            match set {
                None => set = Some((kind_set, key)),
                Some((first_set, first)) if first_set != kind_set => {
                    let set_name = |s: u16| self.def.kind_sets[s as usize].name.clone();
                    self.diags.push(
                        Diagnostic::error(
                            Code::BadTable,
                            format!(
                                "table `{}` mixes kinds of `{}` and `{}`",
                                name.name,
                                set_name(first_set),
                                set_name(kind_set)
                            ),
                        )
                        .label(key.span, format!("a kind of `{}`", set_name(kind_set)))
                        .label(first.span, format!("a kind of `{}`", set_name(first_set)))
                        .help("a table keyed by kind gives a value for every kind of one set"),
                    );
                    continue;
                }
                Some(_) => {}
            }
            if let Some(first) = given[kind as usize] {
                self.diags.push(
                    Diagnostic::error(Code::DuplicateDefinition, format!("`{}` is given twice", key.name))
                        .label(key.span, "again here")
                        .label(first, "first here"),
                );
                continue;
            }
            given[kind as usize] = Some(key.span);
            by_kind[kind as usize] = value;
        }
        let (set, _) = set?;
        let missing: Vec<String> = self.def.kind_sets[set as usize]
            .members
            .iter()
            .filter(|&&k| given[k as usize].is_none())
            .map(|&k| format!("`{}`", self.def.kinds[k as usize].name))
            .collect();
        if !missing.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    Code::BadTable,
                    format!("table `{}` gives no value for {}", name.name, missing.join(", ")),
                )
                .label(name.span, "every kind of the set needs one")
                .help(format!(
                    "add `{}: 0` (or the value it is worth)",
                    missing[0].trim_matches('`')
                )),
            );
        }
        Some((set, by_kind))
    }

    /// What a `var` keeps a value for; `None` once a `per space of` names
    /// no board (reported).
    fn var_each(&mut self, each: &ast::VarEach) -> Option<ir::VarEach> {
        Some(match each {
            ast::VarEach::Game => ir::VarEach::Game,
            ast::VarEach::Player => ir::VarEach::Player,
            ast::VarEach::Piece => ir::VarEach::Piece,
            ast::VarEach::Space(board) => match self.globals.names.get(&board.name) {
                Some((Symbol::Board(b), _)) => ir::VarEach::Space(*b),
                other => {
                    let mut diag = match other {
                        Some((symbol, _)) => Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is {}, not a board", board.name, symbol.describe()),
                        )
                        .label(board.span, "a board's name goes here"),
                        None => Diagnostic::error(Code::UnknownName, format!("unknown board `{}`", board.name))
                            .label(board.span, "no board has this name"),
                    };
                    let boards = self.def.boards.iter().map(|b| b.name.as_str());
                    if let Some(near) = nearest(&board.name, boards) {
                        diag = diag.help(format!("did you mean `{near}`?"));
                    } else if self.def.boards.is_empty() {
                        diag = diag.help("declare the board first: `board field: grid 3 x 3 { ... }`");
                    }
                    self.diags.push(diag);
                    return None;
                }
            },
        })
    }

    fn declare_game(&mut self, items: &[Item]) {
        let mut game = None;
        let mut players = None;
        for item in items {
            match item {
                Item::Game { name, span } => {
                    if let Some((_, first)) = &game {
                        self.diags.push(
                            Diagnostic::error(Code::DuplicateDefinition, "the game is named twice")
                                .label(*span, "named again here")
                                .label(*first, "first named here"),
                        );
                    } else {
                        game = Some((name.clone(), *span));
                    }
                }
                Item::Players {
                    count: count_expr,
                    names,
                    span,
                } => {
                    if players.is_some() {
                        self.diags.push(
                            Diagnostic::error(Code::DuplicateDefinition, "`players` is declared twice")
                                .label(*span, "declared again here"),
                        );
                        continue;
                    }
                    players = Some(*span);
                    let Some(count) = self.size(count_expr, "the number of players") else {
                        continue;
                    };
                    // A count from an option names the seats for its
                    // largest value; one written as a number names each.
                    let fixed = matches!(count_expr.kind, ast::ExprKind::Int(_));
                    let most = crate::ir::MAX_PLAYERS as i64;
                    if !(1..=most).contains(&count) {
                        let diagnostic =
                            Diagnostic::error(Code::BadPlayerCount, format!("{count} players is not supported"))
                                .label(*span, "here")
                                .help(format!("a game has from 1 to {most} players"));
                        let diagnostic = self.shape.label_options(diagnostic);
                        self.diags.push(diagnostic);
                        if fixed {
                            continue;
                        }
                    }
                    // An option's value out of reach still seats players,
                    // so that the rules' seats are not reported too.
                    let count = count.clamp(1, most);
                    let named = names.len() as i64;
                    if !names.is_empty() && (named < count || fixed && named != count) {
                        let diagnostic = Diagnostic::error(
                            Code::BadPlayerCount,
                            format!("{count} players but {} seat names", names.len()),
                        )
                        .label(*span, "here")
                        .help(if fixed {
                            "name every seat, or none"
                        } else {
                            "name a seat for every count the option allows, or none"
                        });
                        let diagnostic = self.shape.label_options(diagnostic);
                        self.diags.push(diagnostic);
                    }
                    let count = count as usize;
                    for (seat, name) in names.iter().enumerate().skip(count) {
                        self.globals.absent_seats.push((name.name.clone(), seat + 1, count));
                    }
                    for seat in 0..count {
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
                    Diagnostic::error(Code::MissingGame, "the file does not name its game")
                        .label(
                            Span::file_start(file.unwrap_or(0)),
                            "expected `game \"Name\"` near the top",
                        )
                        .help("add a line such as `game \"Night Market\"`"),
                );
            }
        }
        if players.is_none() {
            self.diags.push(
                Diagnostic::error(Code::MissingPlayers, "the file does not say how many players play")
                    .label(Span::file_start(0), "expected `players 2: Left, Right`")
                    .help("add a line such as `players 2: Orange, Blue`"),
            );
        }
    }

    /// Warns about a `beats` relation that leaves pairs of a kind set
    /// unsaid: two kinds that neither beat each other nor are declared to
    /// tie (`a = b`). Their duel is silently a tie, which is rarely what a
    /// designer meant. A kind set the relation does not mention at all (a
    /// list of bets) is no relation, and a relation with an unknown kind has
    /// already been reported.
    fn lint_incomplete_relation(&mut self, items: &[Item]) {
        let relations: Vec<(Span, &[KindPair], &[KindPair])> = items
            .iter()
            .filter_map(|item| match item {
                Item::Beats { pairs, span, ties } => Some((*span, pairs.as_slice(), ties.as_slice())),
                _ => None,
            })
            .collect();
        let Some(&(first_span, ..)) = relations.first() else {
            return;
        };
        let ids: HashMap<&str, usize> = self
            .def
            .kinds
            .iter()
            .enumerate()
            .map(|(i, k)| (k.name.as_str(), i))
            .collect();
        let id = |name: &str| ids.get(name).copied();
        let n = self.def.kinds.len();
        let mut mentioned = vec![false; n];
        let mut tied = vec![false; n * n];
        for (_, pairs, ties) in &relations {
            for (a, b) in pairs.iter().chain(ties.iter()) {
                let (Some(ka), Some(kb)) = (id(&a.name), id(&b.name)) else {
                    return;
                };
                mentioned[ka] = true;
                mentioned[kb] = true;
            }
            for (a, b) in ties.iter() {
                if let (Some(ka), Some(kb)) = (id(&a.name), id(&b.name)) {
                    tied[ka * n + kb] = true;
                    tied[kb * n + ka] = true;
                }
            }
        }
        let related = |a: usize, b: usize| self.def.beats[a * n + b] || self.def.beats[b * n + a] || tied[a * n + b];
        let mut diags = vec![];
        for set in &self.def.kind_sets {
            if !set.members.iter().any(|&k| mentioned[k as usize]) {
                continue;
            }
            let mut missing: Vec<(usize, usize)> = vec![];
            for (i, &a) in set.members.iter().enumerate() {
                for &b in &set.members[i + 1..] {
                    if !related(a as usize, b as usize) {
                        missing.push((a as usize, b as usize));
                    }
                }
            }
            let Some(&(a, b)) = missing.first() else {
                continue;
            };
            let name = |k: usize| self.def.kinds[k].name.as_str();
            /// Pairs named in full; past these, only how many more.
            const SHOWN: usize = 5;
            let mut listed: Vec<String> = missing
                .iter()
                .take(SHOWN)
                .map(|&(a, b)| format!("`{}` and `{}`", name(a), name(b)))
                .collect();
            if missing.len() > SHOWN {
                listed.push(format!("{} more", missing.len() - SHOWN));
            }
            let message = if missing.len() == 1 {
                format!("`beats` says nothing about `{}` and `{}`", name(a), name(b))
            } else {
                format!("`beats` says nothing about {} pairs of `{}`", missing.len(), set.name)
            };
            diags.push(
                Diagnostic::warning(Code::IncompleteRelation, message)
                    .label(first_span, format!("neither beats the other: {}", listed.join(", ")))
                    .help(format!(
                        "a duel between them is a tie; say who wins (`{a} > {b}` or `{b} > {a}`), or that they tie (`{a} = {b}`)",
                        a = name(a),
                        b = name(b)
                    )),
            );
        }
        self.diags.append(&mut diags);
    }

    /// `display SEAT in colour "#rrggbb"` (or a kind): a layout hint for
    /// pictures. The colour is kept only as `#` and six hex digits, so it
    /// can go into an SVG attribute as it is.
    fn declare_seat_colour(&mut self, seat: &ast::Ident, colour: &str, colour_span: Span) {
        let seat_index = self.def.seats.iter().position(|s| *s == seat.name);
        let kind_index = match self.globals.get(&seat.name) {
            Some(Symbol::Kind(k)) => Some(k),
            _ => None,
        };
        if seat_index.is_none() && kind_index.is_none() {
            let named = self.def.seats.iter().chain(self.def.kinds.iter().map(|k| &k.name));
            let mut diag = Diagnostic::error(Code::UnknownName, format!("unknown player or kind `{}`", seat.name))
                .label(seat.span, "expected a seat named in `players`, or a kind");
            if let Some(near) = nearest(&seat.name, named.map(String::as_str)) {
                diag = diag.help(format!("did you mean `{near}`?"));
            }
            self.diags.push(diag);
            return;
        }
        let hex = colour
            .strip_prefix('#')
            .filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()));
        let full = match hex {
            Some(h) if h.len() == 6 => h.to_ascii_lowercase(),
            // `#f80` is `#ff8800`.
            Some(h) if h.len() == 3 => h.chars().flat_map(|c| [c, c]).collect::<String>().to_ascii_lowercase(),
            _ => {
                self.diags.push(
                    Diagnostic::error(Code::BadColour, format!("`{colour}` is not a colour"))
                        .label(colour_span, "here")
                        .help("write the colour as `#` and six (or three) hex digits, e.g. \"#e07a2f\""),
                );
                return;
            }
        };
        match (seat_index, kind_index) {
            (Some(index), _) => {
                self.def.seat_colours.resize(self.def.seats.len(), None);
                self.def.seat_colours[index] = Some(format!("#{full}"));
            }
            (None, Some(kind)) => self.def.kinds[kind as usize].colour = Some(format!("#{full}")),
            (None, None) => unreachable!("refused above"),
        }
    }

    fn kind(&mut self, ident: &ast::Ident) -> Option<u16> {
        match self.globals.get(&ident.name) {
            Some(Symbol::Kind(k)) => Some(k),
            other => {
                let kinds: Vec<&str> = self.def.kinds.iter().map(|k| k.name.as_str()).collect();
                let mut diag = match other {
                    Some(symbol) => Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`{}` is {}, not a kind", ident.name, symbol.describe()),
                    ),
                    None => Diagnostic::error(Code::UnknownName, format!("unknown kind `{}`", ident.name)),
                }
                .label(ident.span, "expected a kind");
                if let Some(near) = nearest(&ident.name, kinds.iter().copied()) {
                    diag = diag.help(format!("did you mean `{near}`?"));
                } else if !kinds.is_empty() {
                    diag = diag.help(format!("the kinds are {}", kinds.join(", ")));
                } else {
                    diag = diag.help("declare kinds first, e.g. `kinds Element = fire | water | wood`");
                }
                self.diags.push(diag);
                None
            }
        }
    }

    /// Declares a family of `len` zones; returns its id, or `None` when it
    /// could not be declared (the error is reported).
    fn add_family(&mut self, name: &ast::Ident, by: FamilyIndex, len: u16, visibility: Visibility) -> Option<u16> {
        let first = match ids::first_of(self.def.zones.len(), usize::from(len), Table::Zones, name.span) {
            Ok(first) => first,
            Err(full) => {
                self.diags.push(full);
                return None;
            }
        };
        let id = self.next_id(self.def.families.len(), Table::ZoneFamilies, name.span)?;
        if !self.define(name, Symbol::Family(id)) {
            return None;
        }
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
            // Until the bodies are compiled, every order counts as read.
            order_read: true,
            contents_read: true,
            unordered: None,
            layout: ir::ZoneLayout::Tray,
        });
        Some(id)
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
                    let Some(mut built) = self.board(board) else {
                        continue;
                    };
                    let Some(id) = self.next_id(self.def.boards.len(), Table::Boards, board.name.span) else {
                        continue;
                    };
                    if !self.define(&board.name, Symbol::Board(id)) {
                        continue;
                    }
                    if let (ast::BoardShape::Graph(_), Some(decl)) = (&board.shape, board.forward.first()) {
                        self.diags.push(
                            Diagnostic::error(Code::NotAGrid, "only a grid has a forward direction")
                                .label(decl.span, "on a graph board")
                                .help("declare `board NAME: grid R x C { ... }` to use directions"),
                        );
                    }
                    if let ast::BoardShape::Graph(parts) = &board.shape {
                        let names = parts.iter().filter_map(|p| match p {
                            ast::GraphPart::Ring { name, .. } | ast::GraphPart::Space { name, .. } => Some(name),
                            ast::GraphPart::Link(_) => None,
                        });
                        for (g, name) in names.enumerate() {
                            // A board has at most 4,096 spaces, so as many groups.
                            self.define(name, Symbol::SpaceGroup(id, ids::index(g)));
                        }
                    }
                    let spaces = built.spaces();
                    for slot in &board.slots {
                        let family = self.add_family(
                            &slot.name,
                            FamilyIndex::PerSpace(id),
                            spaces,
                            visibility_of(slot.visibility),
                        );
                        if let Some(family) = family {
                            self.def.families[family as usize].unordered = slot.unordered;
                            built.slots.push(family);
                        }
                    }
                    self.def.boards.push(built);
                }
                Item::Zones(zones) => {
                    for zone in zones {
                        let players = ids::index(self.def.seats.len());
                        let (by, len) = if zone.per_player {
                            (FamilyIndex::PerPlayer, players)
                        } else {
                            (FamilyIndex::Single, 1)
                        };
                        if zone.visibility == ast::Visibility::Owner && !zone.per_player {
                            self.diags.push(
                                Diagnostic::error(
                                    Code::BadVisibility,
                                    format!("zone `{}` has no owner", zone.name.name),
                                )
                                .label(zone.name.span, "`owner` visibility needs a zone per player")
                                .help("write `per player owner`, or use `hidden` or `public`"),
                            );
                        }
                        if let Some(family) = self.add_family(&zone.name, by, len, visibility_of(zone.visibility)) {
                            self.def.families[family as usize].unordered = zone.unordered;
                        }
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
                    let Some(id) = self.next_id(self.def.piece_types.len(), Table::PieceTypes, entry.name.span) else {
                        continue;
                    };
                    if self.define(&entry.name, Symbol::PieceType(id)) {
                        types.insert(entry.name.name.clone(), id);
                        self.def.piece_types.push(entry.name.name.clone());
                    }
                }
            }
        }
        for item in items {
            if let Item::Group { name, members } = item {
                let Some(id) = self.next_id(self.def.groups.len(), Table::Groups, name.span) else {
                    continue;
                };
                let mut group_types = vec![];
                for member in members {
                    match self.globals.get(&member.name) {
                        Some(Symbol::PieceType(t)) => group_types.push(t),
                        _ => {
                            let mut diag =
                                Diagnostic::error(Code::UnknownName, format!("unknown piece type `{}`", member.name))
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
