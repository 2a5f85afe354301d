//! The body pass: type-checks statements and expressions and compiles them to
//! [`Op`]s, one procedure at a time.
//!
//! Each procedure is compiled into its own buffer with jump targets relative
//! to its start, so a call can compile its callee on demand (to learn its
//! result types) without interleaving code.
//!
//! The work is split by what it compiles; every file adds methods to the
//! one [`Compiler`]:
//! - `frame`: procedures, their locals and scopes;
//! - `writer`: emitting ops, and jumps patched once their target is known;
//! - `items`: the top-level declarations (variables, pieces, procedures,
//!   triggers, scoring, the flow); `counts`: piece counts, from options too;
//! - `checks`: checks over the whole definition once it is compiled;
//!   `leads`: the running leads its winning conditions read;
//! - `stmt`: statements; `choice` and `actions`: the statements that ask
//!   players to decide;
//! - `loops`: going through a domain (`for`, `sum`, offers);
//! - `expr`, `names`, `call`: expressions, names and `X of Y`, calls.

mod actions;
mod call;
mod checks;
mod choice;
mod contents;
mod counts;
mod expr;
mod frame;
mod grid;
mod items;
mod leads;
mod loops;
mod marks;
mod names;
mod order;
mod stmt;
mod writer;

use std::collections::HashMap;

use super::ids::{self, Table};
use super::types::{Globals, Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::ir::{ChoiceKind, GameDef, Op, ProcId};
use crate::syntax::ast::{self, Domain, Expr};
use marks::{ContentReads, OrderReads, PatchAddr};

#[derive(Clone, Copy, PartialEq, Eq)]
enum ProcState {
    NotStarted,
    InProgress,
    Done,
}

struct Local {
    name: String,
    slot: u16,
    ty: Ty,
    /// A loop's value: the loop itself moves it on.
    fixed: bool,
}

struct LoopCtx {
    /// The jumps out of the loop (`break`, its exit test), patched to land
    /// after it.
    breaks: Vec<PatchAddr>,
}

/// The procedure being compiled.
#[derive(Default)]
struct Frame {
    proc: ProcId,
    code: Vec<Op>,
    spans: Vec<Span>,
    locals: Vec<Local>,
    next_slot: u16,
    /// Whether `too-many-declarations` was reported for this frame's locals.
    too_many_locals: bool,
    max_slot: u16,
    loops: Vec<LoopCtx>,
    /// Result types: declared names, types learnt from the first `return`.
    returns: Option<Vec<Option<Ty>>>,
    /// The local holding `player` (score terms, per-player choices).
    current_player: Option<u16>,
    /// Whether this procedure is the main flow (where `return` makes no sense).
    is_main: bool,
    /// In a rank key: score term names are values.
    rank_context: bool,
}

/// Type-checks and compiles every body of the rules, given the table of
/// declared names; see the module doc for where each part lives.
pub(crate) struct Compiler {
    def: GameDef,
    globals: Globals,
    diags: Vec<Diagnostic>,
    f: Frame,
    var_types: Vec<Ty>,
    proc_state: Vec<ProcState>,
    proc_params: Vec<Vec<Ty>>,
    proc_returns: Vec<Vec<Ty>>,
    /// Where each procedure first asks for a decision itself.
    proc_asks: Vec<Option<Span>>,
    proc_calls: Vec<Vec<(ProcId, Span)>>,
    /// Procedures that must finish without asking anyone: triggers, scoring.
    no_decisions: Vec<(ProcId, Span, &'static str)>,
    user_procs: HashMap<ProcId, ast::ProcedureDecl>,
    score_terms: HashMap<String, ProcId>,
    /// Name uses made while declaring things, not by the rules.
    declared_uses: HashMap<String, usize>,
    /// Some `end game` jumps to the result section.
    ends_game_to_result: bool,
    /// What the rules read of zones' order.
    order: OrderReads,
    /// What the rules read of zones' contents (`contents`).
    contents: ContentReads,
}

impl Compiler {
    pub(crate) fn new(def: GameDef, globals: Globals) -> Self {
        let n = def.procs.len();
        Compiler {
            var_types: vec![Ty::Int; def.vars.len()],
            def,
            globals,
            diags: vec![],
            f: Frame::default(),
            proc_state: vec![ProcState::NotStarted; n],
            proc_params: vec![vec![]; n],
            proc_returns: vec![vec![]; n],
            proc_asks: vec![None; n],
            proc_calls: vec![vec![]; n],
            no_decisions: vec![],
            user_procs: HashMap::new(),
            score_terms: HashMap::new(),
            declared_uses: HashMap::new(),
            ends_game_to_result: false,
            order: OrderReads::default(),
            contents: ContentReads::default(),
        }
    }

    fn error(&mut self, diag: Diagnostic) {
        self.diags.push(diag);
    }

    /// The id of a new entry of `table`, which holds `len` entries. A full
    /// table is reported and [`ids::NO_ROOM`] stands in. The caller adds the
    /// entry all the same, so every id still indexes its table in bounds
    /// while the check goes on to find the rules' other mistakes.
    fn next_id(&mut self, len: usize, table: Table, span: Span) -> u16 {
        ids::next_id(len, table, span).unwrap_or_else(|full| {
            self.error(full);
            ids::NO_ROOM
        })
    }

    fn unknown_or_wrong(&mut self, name: &str, span: Span, found: Option<Symbol>, wanted: &str, plural: &str) {
        let diag = match found {
            Some(symbol) => Diagnostic::error(
                Code::TypeMismatch,
                format!("`{name}` is {}, not {wanted}", symbol.describe()),
            )
            .label(span, format!("expected {wanted}")),
            None => {
                let mut diag = Diagnostic::error(Code::UnknownName, format!("unknown name `{name}`"))
                    .label(span, format!("expected {wanted}"));
                let mut candidates: Vec<&str> = self.globals.all_names().collect();
                candidates.extend(self.f.locals.iter().map(|l| l.name.as_str()).filter(|n| !n.is_empty()));
                if let Some((_, seat, players)) = self.globals.absent_seats.iter().find(|(n, _, _)| n == name) {
                    diag = diag.help(format!(
                        "`{name}` is seat {seat}, and the game has {players} players with the options in force: \
                         name only the seats every player count has, or go through `players`"
                    ));
                } else if let Some(near) = nearest(name, candidates) {
                    diag = diag.help(format!("did you mean `{near}`?"));
                } else {
                    diag = diag.help(format!("no {plural} by that name are declared"));
                }
                diag
            }
        };
        self.error(diag);
    }

    /// The game's one board, for `space of` and `space` parameters.
    fn only_board(&mut self, span: Span, what: &str) -> Option<u16> {
        match self.def.boards.len() {
            1 => Some(0),
            n => {
                self.error(
                    Diagnostic::error(Code::WhichBoard, format!("{what} needs a game with one board"))
                        .label(span, format!("the game has {n} boards"))
                        .help("name spaces through a ring or a board instead, e.g. `outer[i]`"),
                );
                None
            }
        }
    }
}

/// A domain's values, its `where` condition and its named "no choice".
pub(super) fn split_domain(domain: &Domain) -> (&Domain, Option<&Expr>, Option<&ast::Ident>) {
    match domain {
        Domain::Where(inner, cond) => {
            let (core, _, none) = split_domain(inner);
            (core, Some(cond), none)
        }
        Domain::OrNone(inner, none, _) => {
            let (core, cond, _) = split_domain(inner);
            (core, cond, Some(none))
        }
        other => (other, None, None),
    }
}

/// The condition of a named no-choice (`, or pass when bid > 0`), if any.
pub(super) fn none_condition(domain: &Domain) -> Option<&Expr> {
    match domain {
        Domain::Where(inner, _) => none_condition(inner),
        Domain::OrNone(_, _, when) => when.as_deref(),
        _ => None,
    }
}

/// How a decision over values of `ty` labels them.
pub(super) fn choice_kind_of(ty: &Ty) -> ChoiceKind {
    match ty {
        Ty::Kind => ChoiceKind::Kind,
        Ty::Seat => ChoiceKind::Player,
        Ty::Space(b) => ChoiceKind::Space(*b),
        Ty::PieceType => ChoiceKind::PieceType,
        Ty::Piece => ChoiceKind::Piece,
        Ty::Direction => ChoiceKind::Direction,
        _ => ChoiceKind::Number,
    }
}
