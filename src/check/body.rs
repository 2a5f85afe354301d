//! The body pass: type-checks statements and expressions and compiles them to
//! [`Op`]s, one procedure at a time.
//!
//! Each procedure is compiled into its own buffer with jump targets relative
//! to its start, so a call can compile its callee on demand (to learn its
//! result types) without interleaving code.

use std::collections::HashMap;

use super::types::{Globals, Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::ir::{self, Attr, ChoiceKind, FamilyIndex, GameDef, HookArg, MatchBy, Matcher, Op, OptionType, ProcId};
use crate::syntax::ast::{self, BinOp, Domain, Expr, ExprKind, Item, Stmt, StmtKind, UnOp};

const BUILTINS: &[&str] = &[
    "top", "bottom", "size", "kind", "value", "owner", "type", "opponent", "next", "space", "adjacent",
];

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
    breaks: Vec<usize>,
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

pub struct Compiler {
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
}

impl Compiler {
    pub fn new(def: GameDef, globals: Globals) -> Self {
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
        }
    }

    fn error(&mut self, diag: Diagnostic) {
        self.diags.push(diag);
    }

    // ------------------------------------------------------------ procedures

    fn new_proc(&mut self, name: &str, span: Span) -> ProcId {
        let id = self.def.procs.len() as ProcId;
        self.def.procs.push(ir::Proc {
            name: name.to_string(),
            entry: 0,
            params: 0,
            locals: 0,
            returns: 0,
            span,
        });
        self.proc_state.push(ProcState::NotStarted);
        self.proc_params.push(vec![]);
        self.proc_returns.push(vec![]);
        self.proc_asks.push(None);
        self.proc_calls.push(vec![]);
        id
    }

    /// Starts compiling `proc`; the previous frame is returned to be restored.
    fn begin(&mut self, proc: ProcId, params: &[(String, Ty)]) -> Frame {
        let mut frame = Frame {
            proc,
            ..Frame::default()
        };
        for (name, ty) in params {
            frame.locals.push(Local {
                name: name.clone(),
                slot: frame.next_slot,
                ty: ty.clone(),
                fixed: false,
            });
            // Saturates: a procedure cannot have 65,535 parameters in a
            // file that parses, and `local` reports running out.
            frame.next_slot = frame.next_slot.saturating_add(1);
        }
        frame.max_slot = frame.next_slot;
        self.proc_state[proc as usize] = ProcState::InProgress;
        self.proc_params[proc as usize] = params.iter().map(|(_, t)| t.clone()).collect();
        self.def.procs[proc as usize].params = params.len() as u16;
        std::mem::replace(&mut self.f, frame)
    }

    /// Finishes the current procedure: relocates its jumps and appends it.
    fn end(&mut self, saved: Frame) {
        let frame = std::mem::replace(&mut self.f, saved);
        let entry = self.def.code.len() as u32;
        for op in frame.code {
            self.def.code.push(match op.target() {
                Some(t) => op.with_target(t + entry),
                None => op,
            });
        }
        self.def.spans.extend(frame.spans);
        let proc = &mut self.def.procs[frame.proc as usize];
        proc.entry = entry;
        proc.locals = frame.max_slot;
        self.proc_state[frame.proc as usize] = ProcState::Done;
        if let Some(returns) = frame.returns {
            let types: Vec<Ty> = returns.into_iter().map(|t| t.unwrap_or(Ty::Error)).collect();
            self.def.procs[frame.proc as usize].returns = types.len() as u16;
            self.proc_returns[frame.proc as usize] = types;
        }
    }

    fn emit(&mut self, op: Op, span: Span) -> usize {
        if matches!(op, Op::Ask(_) | Op::AskEach(..)) {
            self.proc_asks[self.f.proc as usize].get_or_insert(span);
        }
        if let Op::Call(p) = op {
            self.proc_calls[self.f.proc as usize].push((p, span));
        }
        self.f.code.push(op);
        self.f.spans.push(span);
        self.f.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.f.code.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        self.f.code[at] = self.f.code[at].with_target(target);
    }

    fn local(&mut self, name: &str, ty: Ty, width: u16) -> u16 {
        let slot = self.f.next_slot;
        let Some(next) = slot.checked_add(width) else {
            // The procedure needs more values than a frame holds; say so once.
            if !self.f.too_many_locals {
                self.f.too_many_locals = true;
                let span = self.f.spans.last().copied().unwrap_or_default();
                self.error(
                    Diagnostic::error(Code::TooManyDeclarations, "this procedure names too many values")
                        .label(span, format!("more than {} local values by here", u16::MAX))
                        .help("split the procedure or the flow into procedures"),
                );
            }
            return slot;
        };
        self.f.next_slot = next;
        self.f.max_slot = self.f.max_slot.max(self.f.next_slot);
        self.f.locals.push(Local {
            name: name.to_string(),
            slot,
            ty,
            fixed: false,
        });
        slot
    }

    /// Names `slot`, a loop's value, as `name` for the loop's body.
    fn loop_value(&mut self, name: &str, slot: u16, ty: Ty) {
        self.f.locals.push(Local {
            name: name.to_string(),
            slot,
            ty,
            fixed: true,
        });
    }

    fn temp(&mut self) -> u16 {
        self.local("", Ty::Int, 1)
    }

    fn scope(&self) -> (usize, u16) {
        (self.f.locals.len(), self.f.next_slot)
    }

    fn close_scope(&mut self, (locals, slot): (usize, u16)) {
        self.f.locals.truncate(locals);
        self.f.next_slot = slot;
    }

    fn find_local(&self, name: &str) -> Option<(u16, Ty)> {
        self.f
            .locals
            .iter()
            .rev()
            .find(|l| l.name == name)
            .map(|l| (l.slot, l.ty.clone()))
    }

    fn fail_message(&mut self, message: String) -> u16 {
        self.def.messages.push(message);
        (self.def.messages.len() - 1) as u16
    }

    // ------------------------------------------------------------ top level

    pub fn compile_bodies(&mut self, items: &[Item]) {
        for item in items {
            if let Item::Procedure(decl) = item
                && let Some(Symbol::Proc(id)) = self.globals.names.get(&decl.name.name).map(|(s, _)| *s)
                && self.def.procs[id as usize].span == decl.name.span
            {
                self.user_procs.insert(id, decl.clone());
            }
        }
        // Uses from here on are uses by the rules; the lookups so far only
        // declared things. (Piece homes are looked up without counting.)
        self.declared_uses = self.globals.uses.clone();
        self.compile_vars(items);
        self.compile_pieces(items);
        let mut ids: Vec<ProcId> = self.user_procs.keys().copied().collect();
        ids.sort();
        for id in ids {
            self.compile_user_proc(id);
        }
        self.compile_triggers(items);
        self.compile_anytime(items);
        self.compile_scoring(items);
        self.compile_main(items);
        self.check_decision_contexts();
        self.warn_unused(items);
    }

    pub fn finish(mut self) -> (GameDef, Vec<Diagnostic>) {
        // `result_pc` was relative to the main procedure.
        self.def.result_pc += self.def.procs[self.def.main as usize].entry;
        // Code compiled more than once (a draft entry, once per chooser) would
        // report the same mistake again.
        // A set, not a search of the list: a file with thousands of
        // mistakes must not take quadratic time.
        let mut seen = std::collections::HashSet::new();
        let mut unique: Vec<Diagnostic> = Vec::with_capacity(self.diags.len());
        for diag in self.diags {
            let spans: Vec<Span> = diag.labels.iter().map(|l| l.span).collect();
            if seen.insert((diag.code, diag.message.clone(), spans)) {
                unique.push(diag);
            }
        }
        (self.def, unique)
    }

    fn compile_vars(&mut self, items: &[Item]) {
        let constants: Vec<ast::VarDecl> = items
            .iter()
            .filter_map(|i| match i {
                Item::Constant { name, value } => Some(ast::VarDecl {
                    name: name.clone(),
                    per_player: false,
                    init: value.clone(),
                }),
                _ => None,
            })
            .collect();
        let vars = items.iter().filter_map(|i| match i {
            Item::Var(decl) => Some(decl),
            _ => None,
        });
        for decl in vars.chain(constants.iter()) {
            let Some(Symbol::Var(var)) = self.globals.names.get(&decl.name.name).map(|(s, _)| *s) else {
                continue;
            };
            let proc = self.new_proc(&format!("initial value of {}", decl.name.name), decl.init.span);
            let params = if decl.per_player {
                vec![("player".to_string(), Ty::Seat)]
            } else {
                vec![]
            };
            let saved = self.begin(proc, &params);
            if decl.per_player {
                self.f.current_player = Some(0);
            }
            let ty = self.expr(&decl.init);
            if !matches!(ty, Ty::Int | Ty::Bool | Ty::Seat | Ty::Kind | Ty::Error) {
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!(
                            "a variable holds a number, a player, a kind or true/false, not {}",
                            ty.describe()
                        ),
                    )
                    .label(decl.init.span, format!("this is {}", ty.describe())),
                );
            }
            self.emit(Op::Return, decl.init.span);
            self.f.returns = Some(vec![Some(ty.clone())]);
            self.end(saved);
            self.def.vars[var as usize].shows = match ty {
                Ty::Bool => ir::ValueKind::Bool,
                Ty::Seat => ir::ValueKind::Player,
                Ty::Kind => ir::ValueKind::Kind,
                _ => ir::ValueKind::Number,
            };
            self.var_types[var as usize] = ty;
            self.def.vars[var as usize].init = proc;
            self.no_decisions
                .push((proc, decl.init.span, "a variable's starting value"));
        }
    }

    fn compile_pieces(&mut self, items: &[Item]) {
        for item in items {
            let Item::Pieces(entries) = item else {
                continue;
            };
            for entry in entries {
                let Some(Symbol::PieceType(ty)) = self.globals.names.get(&entry.name.name).map(|(s, _)| *s) else {
                    continue;
                };
                let kinds: Vec<Option<u16>> = match &entry.of_each {
                    None => vec![None],
                    Some(set) => match self.globals.get(&set.name) {
                        Some(Symbol::KindSet(s)) => self.def.kind_sets[s as usize]
                            .members
                            .iter()
                            .map(|k| Some(*k))
                            .collect(),
                        other => {
                            self.unknown_or_wrong(&set.name, set.span, other, "a set of kinds", "kinds");
                            continue;
                        }
                    },
                };
                let (low, high) = entry.values.map_or((0, 0), |(l, h, _)| (l, h));
                if let Some((l, h, span)) = entry.values
                    && (h < l || h - l > 1000)
                {
                    self.error(
                        Diagnostic::error(
                            Code::BadPieceCount,
                            format!("the values {l}..{h} are not a usable range"),
                        )
                        .label(span, "here"),
                    );
                    continue;
                }
                let copies = entry.copies.map_or(1, |(c, _)| c);
                if let Some((c, span)) = entry.copies
                    && !(1..=1000).contains(&c)
                {
                    self.error(
                        Diagnostic::error(Code::BadPieceCount, format!("{c} copies is not a usable count"))
                            .label(span, "here")
                            .help("a piece type has from 1 to 1000 copies"),
                    );
                    continue;
                }
                // Count before making them: kinds x values x copies x owners
                // can be billions.
                let owner_count = if entry.per_player { self.def.players() } else { 1 };
                let made = [kinds.len(), (high - low + 1) as usize, copies as usize, owner_count]
                    .into_iter()
                    .fold(1usize, usize::saturating_mul);
                if self.def.pieces.len().saturating_add(made) > super::declare::MAX_PIECES {
                    self.error(
                        Diagnostic::error(
                            Code::BadPieceCount,
                            format!(
                                "these pieces make {} pieces in all",
                                self.def.pieces.len().saturating_add(made)
                            ),
                        )
                        .label(entry.span, format!("{made} pieces here"))
                        .help(format!(
                            "a definition has at most {} pieces (kinds x values x copies x owners)",
                            super::declare::MAX_PIECES
                        )),
                    );
                    continue;
                }
                let family = match self.globals.names.get(&entry.home.name).map(|(s, _)| *s) {
                    Some(Symbol::Family(f)) => f,
                    other => {
                        self.unknown_or_wrong(&entry.home.name, entry.home.span, other, "a zone", "zones");
                        continue;
                    }
                };
                let fam = self.def.families[family as usize].clone();
                let owners: Vec<Option<u8>> = if entry.per_player {
                    (0..self.def.players() as u8).map(Some).collect()
                } else {
                    vec![None]
                };
                match (fam.by, entry.per_player) {
                    (FamilyIndex::PerSpace(_), _) => {
                        self.error(
                            Diagnostic::error(
                                Code::BadHomeZone,
                                format!("`{}` is a slot of every space of a board", fam.name),
                            )
                            .label(entry.home.span, "pieces must start in one zone")
                            .help("start them in a zone such as a supply or a bag, and place them in `setup`"),
                        );
                        continue;
                    }
                    (FamilyIndex::PerPlayer, false) => {
                        self.error(
                            Diagnostic::error(
                                Code::BadHomeZone,
                                format!("`{}` is a zone per player, but these pieces have no owner", fam.name),
                            )
                            .label(entry.home.span, "whose?")
                            .help("write `per player` after the count, or start them in a shared zone"),
                        );
                        continue;
                    }
                    _ => {}
                }
                let when = entry.when.as_ref().map(|cond| {
                    let proc = self.new_proc(&format!("condition of {}", entry.name.name), cond.span);
                    let saved = self.begin(proc, &[]);
                    self.expect(cond, &Ty::Bool);
                    self.emit(Op::Return, cond.span);
                    self.f.returns = Some(vec![Some(Ty::Bool)]);
                    self.end(saved);
                    self.no_decisions.push((proc, cond.span, "a piece's `when` condition"));
                    proc
                });
                for owner in &owners {
                    let home = match (fam.by, owner) {
                        (FamilyIndex::PerPlayer, Some(seat)) => fam.first + *seat as u16,
                        _ => fam.first,
                    };
                    for kind in &kinds {
                        for value in low..=high {
                            for _ in 0..copies {
                                self.def.pieces.push(ir::Piece {
                                    ty,
                                    kind: *kind,
                                    value,
                                    owner: *owner,
                                    home,
                                    kind_hidden: entry.kind_hidden,
                                    when,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    fn param_type(&mut self, param: &ast::Param) -> Ty {
        match &param.ty {
            None => {
                self.error(
                    Diagnostic::error(
                        Code::MissingType,
                        format!("parameter `{}` has no type", param.name.name),
                    )
                    .label(param.name.span, "say what it holds")
                    .help(format!(
                        "write `{}: player` (or number, bool, kind, piece, zone, type)",
                        param.name.name
                    )),
                );
                Ty::Error
            }
            Some((name, _)) => match name.as_str() {
                "player" => Ty::Seat,
                "number" => Ty::Int,
                "bool" => Ty::Bool,
                "kind" => Ty::Kind,
                "piece" => Ty::Piece,
                "zone" => Ty::Zone,
                "space" => match self.only_board(param.name.span, "a `space` parameter") {
                    Some(b) => Ty::Space(b),
                    None => Ty::Error,
                },
                _ => Ty::PieceType,
            },
        }
    }

    fn compile_user_proc(&mut self, id: ProcId) {
        if self.proc_state[id as usize] != ProcState::NotStarted {
            return;
        }
        let Some(decl) = self.user_procs.get(&id).cloned() else {
            return;
        };
        let params: Vec<(String, Ty)> = decl
            .params
            .iter()
            .map(|p| (p.name.name.clone(), self.param_type(p)))
            .collect();
        let saved = self.begin(id, &params);
        self.f.returns = Some(vec![None; decl.returns.len()]);
        let diverges = self.block(&decl.body);
        if !diverges {
            if decl.returns.is_empty() {
                self.emit(Op::Return, decl.body.span);
            } else {
                let names: Vec<&str> = decl.returns.iter().map(|r| r.name.as_str()).collect();
                self.error(
                    Diagnostic::error(
                        Code::MissingReturn,
                        format!(
                            "procedure `{}` can reach its end without returning ({})",
                            decl.name.name,
                            names.join(", ")
                        ),
                    )
                    .label(
                        Span {
                            start: decl.body.span.end.saturating_sub(1),
                            ..decl.body.span
                        },
                        "the end is reachable here",
                    )
                    .help("end every path with `return (...)`"),
                );
                let message = self.fail_message(format!(
                    "procedure `{}` ended without returning its results",
                    decl.name.name
                ));
                self.emit(Op::Fail(message), decl.body.span);
            }
        }
        self.end(saved);
    }

    fn param_names(&self, proc: ProcId) -> String {
        self.user_procs.get(&proc).map_or(String::new(), |d| {
            d.params
                .iter()
                .map(|p| p.name.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
    }

    fn compile_anytime(&mut self, items: &[Item]) {
        let mut labels: HashMap<String, Span> = HashMap::new();
        for item in items {
            let Item::Anytime(decl) = item else { continue };
            if let Some(first) = labels.insert(decl.label.clone(), decl.label_span) {
                self.error(
                    Diagnostic::error(
                        Code::DuplicateDefinition,
                        format!("two `anytime` actions are called \"{}\"", decl.label),
                    )
                    .label(decl.label_span, "again here")
                    .label(first, "first here"),
                );
            }
            let actor = [("actor".to_string(), Ty::Seat)];
            let when = self.new_proc(&format!("condition of {}", decl.label), decl.when.span);
            let saved = self.begin(when, &actor);
            self.expect(&decl.when, &Ty::Bool);
            self.emit(Op::Return, decl.when.span);
            self.f.returns = Some(vec![Some(Ty::Bool)]);
            self.end(saved);
            self.no_decisions.push((when, decl.when.span, "an `anytime` condition"));
            let body = self.new_proc(&decl.label, decl.label_span);
            let saved = self.begin(body, &actor);
            if !self.block(&decl.body) {
                self.emit(Op::ResumeAsk, decl.body.span);
            }
            self.f.returns = Some(vec![]);
            self.end(saved);
            self.def.anytime.push(ir::Anytime {
                label: decl.label.clone(),
                when,
                body,
            });
        }
    }

    fn compile_triggers(&mut self, items: &[Item]) {
        for item in items {
            let Item::Trigger { name, body } = item else {
                continue;
            };
            let Some(Symbol::Trigger(id)) = self.globals.names.get(&name.name).map(|(s, _)| *s) else {
                continue;
            };
            let proc = self.new_proc(&format!("trigger {}", name.name), name.span);
            let saved = self.begin(proc, &[]);
            if !self.block(body) {
                self.emit(Op::Return, body.span);
            }
            self.f.returns = Some(vec![]);
            self.end(saved);
            self.def.triggers[id as usize].proc = proc;
            self.no_decisions.push((proc, name.span, "a trigger"));
        }
    }

    fn compile_scoring(&mut self, items: &[Item]) {
        for item in items {
            let Item::Score { terms, .. } = item else {
                continue;
            };
            for term in terms {
                if self.score_terms.contains_key(&term.name.name) {
                    self.error(
                        Diagnostic::error(
                            Code::DuplicateDefinition,
                            format!("score term `{}` is defined twice", term.name.name),
                        )
                        .label(term.name.span, "defined again here"),
                    );
                    continue;
                }
                let proc = self.player_function(&format!("score {}", term.name.name), &term.value, false);
                self.score_terms.insert(term.name.name.clone(), proc);
                let when = term.when.as_ref().map(|cond| {
                    let when = self.new_proc(&format!("condition of score {}", term.name.name), cond.span);
                    let saved = self.begin(when, &[]);
                    self.expect(cond, &Ty::Bool);
                    self.emit(Op::Return, cond.span);
                    self.f.returns = Some(vec![Some(Ty::Bool)]);
                    self.end(saved);
                    self.no_decisions
                        .push((when, cond.span, "a score term's `when` condition"));
                    when
                });
                self.def.score_terms.push(ir::ScoreTerm {
                    name: term.name.name.clone(),
                    proc,
                    when,
                });
                self.no_decisions.push((proc, term.name.span, "a score term"));
            }
        }
        for item in items {
            let Item::Result(result) = item else { continue };
            for key in &result.keys {
                let label = self.def.sources.text(key.value.span).to_string();
                let proc = self.player_function(&format!("rank by {label}"), &key.value, true);
                self.def.rank_keys.push(ir::RankKey {
                    label,
                    most: key.most,
                    proc,
                });
                self.no_decisions.push((proc, key.value.span, "a result key"));
            }
        }
    }

    /// A procedure `(player) -> number`, for score terms and rank keys.
    fn player_function(&mut self, name: &str, value: &Expr, rank_context: bool) -> ProcId {
        let proc = self.new_proc(name, value.span);
        let saved = self.begin(proc, &[("player".into(), Ty::Seat)]);
        self.f.current_player = Some(0);
        self.f.rank_context = rank_context;
        self.expect(value, &Ty::Int);
        self.emit(Op::Return, value.span);
        self.f.returns = Some(vec![Some(Ty::Int)]);
        self.end(saved);
        proc
    }

    fn compile_main(&mut self, items: &[Item]) {
        let flow_span = items
            .iter()
            .find_map(|i| match i {
                Item::Flow(b) => Some(b.span),
                _ => None,
            })
            .unwrap_or_default();
        let main = self.new_proc("the game", flow_span);
        self.def.main = main;
        let saved = self.begin(main, &[]);
        self.f.is_main = true;
        let mut flows = 0;
        let mut diverges = false;
        for item in items {
            if let Item::Setup(block) = item {
                if diverges {
                    self.unreachable(block.span, None);
                }
                diverges |= self.block(block);
            }
        }
        for item in items {
            if let Item::Flow(block) = item {
                flows += 1;
                if flows > 1 {
                    self.error(
                        Diagnostic::error(Code::DuplicateDefinition, "the game has two `flow` sections")
                            .label(block.span, "second flow here"),
                    );
                }
                if diverges {
                    self.unreachable(block.span, None);
                }
                diverges |= self.block(block);
            }
        }
        if flows == 0 {
            self.error(
                Diagnostic::error(Code::MissingFlow, "the game has no `flow`")
                    .label(super::file_start(0), "expected a `flow { ... }` section")
                    .help("the flow says how a game is played: rounds, turns and decisions"),
            );
        }
        let result = items.iter().find_map(|i| match i {
            Item::Result(r) => Some(r),
            _ => None,
        });
        if diverges
            && !self.ends_game_to_result
            && let Some(result) = result
        {
            self.error(
                Diagnostic::error(Code::Unreachable, "the `result` section can never be reached")
                    .label(result.span, "never reached")
                    .label(flow_span, "every path through the flow ends the game or loops forever")
                    .help("remove the result section, or let the flow finish"),
            );
        }
        let span = result.map_or(flow_span, |r| r.span);
        self.def.result_pc = self.here();
        self.emit(Op::Rank, span);
        if let Some(ast::ResultDecl {
            otherwise: ast::ResultElse::Block(block),
            ..
        }) = result
        {
            self.block(block);
        }
        self.emit(Op::DeclareDraw(None), span);
        self.end(saved);
    }

    fn check_decision_contexts(&mut self) {
        let n = self.def.procs.len();
        // Where each procedure asks, directly or through a call (the call's span).
        let mut asks: Vec<Option<Span>> = self.proc_asks.clone();
        asks.resize(n, None);
        loop {
            let mut changed = false;
            for p in 0..n {
                if asks[p].is_none()
                    && let Some((_, span)) = self.proc_calls[p].iter().find(|(c, _)| asks[*c as usize].is_some())
                {
                    asks[p] = Some(*span);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (proc, span, what) in std::mem::take(&mut self.no_decisions) {
            if let Some(at) = asks[proc as usize] {
                self.error(
                    Diagnostic::error(
                        Code::DecisionNotAllowed,
                        format!("{what} cannot ask a player to decide"),
                    )
                    .label(at, "this asks for a decision, directly or through a procedure")
                    .label(span, format!("in {what}"))
                    .help(
                        "triggers, scoring and starting values run between decisions; move the decision into the flow",
                    ),
                );
            }
        }
    }

    /// Whether the rules refer to `name` beyond declaring it.
    fn used_by_rules(&self, name: &str) -> bool {
        self.globals.uses.get(name).copied().unwrap_or(0) > self.declared_uses.get(name).copied().unwrap_or(0)
    }

    fn warn_unused(&mut self, items: &[Item]) {
        let hook_text: String = items
            .iter()
            .filter_map(|i| match i {
                Item::Hook(h) => Some(h.body.as_str()),
                _ => None,
            })
            .collect();
        let mut unused = vec![];
        for (name, (symbol, span)) in &self.globals.names {
            let what = match symbol {
                Symbol::PieceType(_) => "piece type",
                Symbol::Option(_) => "option",
                Symbol::Var(v) if self.def.vars[*v as usize].constant => "constant",
                Symbol::Var(_) => "variable",
                Symbol::Group(_) => "group",
                Symbol::Hook(_) => "hook",
                Symbol::Proc(_) => "procedure",
                _ => continue,
            };
            let mut used = self.used_by_rules(name) || hook_text.contains(&format!("\"{name}\""));
            if let Symbol::PieceType(ty) = symbol {
                // Pieces are used when the rules touch the zone they start in,
                // or a group that holds their type.
                let homes = self.def.pieces.iter().filter(|p| p.ty == *ty).map(|p| p.home);
                let families: Vec<String> = homes
                    .map(|z| {
                        self.def.families[self.def.zones[z as usize].family as usize]
                            .name
                            .clone()
                    })
                    .collect();
                used |= families
                    .iter()
                    .any(|f| self.used_by_rules(f) || hook_text.contains(&format!("\"{f}\"")));
                used |= self
                    .def
                    .groups
                    .iter()
                    .any(|g| g.types.contains(ty) && self.used_by_rules(&g.name));
            }
            // A file brought in with `use` is a library: a game need not use all of it.
            if !used && span.file == 0 {
                unused.push((*span, name.clone(), what));
            }
        }
        unused.sort_by_key(|(span, _, _)| (span.file, span.start));
        for (span, name, what) in unused {
            self.diags.push(
                Diagnostic::warning(Code::Unused, format!("{what} `{name}` is never used"))
                    .label(span, "declared here")
                    .help("remove it, or use it in the rules"),
            );
        }
    }

    // ------------------------------------------------------------ statements

    fn unreachable(&mut self, span: Span, cause: Option<&Stmt>) {
        let mut diag = Diagnostic::error(Code::Unreachable, "this can never run").label(span, "unreachable");
        if let Some(cause) = cause {
            let why = match cause.kind {
                StmtKind::Loop(_) => "this loop has no `break`, so it never ends",
                StmtKind::Return(_) => "this returns first",
                StmtKind::Break => "this leaves the loop first",
                StmtKind::Win(_) | StmtKind::DeclareDraw(_) | StmtKind::EndGame => "this ends the game first",
                _ => "every path through this ends first",
            };
            diag = diag.label(cause.span, why);
        }
        self.error(diag.help("remove it, or give what comes before it a way to finish (e.g. a `break`)"));
    }

    /// Compiles a block; returns whether it never finishes normally.
    fn block(&mut self, block: &ast::Block) -> bool {
        let scope = self.scope();
        let mut cause: Option<&Stmt> = None;
        let mut reported = false;
        for stmt in &block.stmts {
            if cause.is_some() && !reported {
                self.unreachable(stmt.span, cause);
                reported = true;
            }
            if self.stmt(stmt) && cause.is_none() {
                cause = Some(stmt);
            }
        }
        let diverges = cause.is_some();
        self.close_scope(scope);
        diverges
    }

    fn stmt(&mut self, stmt: &Stmt) -> bool {
        crate::syntax::deeper(|| self.stmt_node(stmt))
    }

    fn stmt_node(&mut self, stmt: &Stmt) -> bool {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Named { body, .. } => self.block(body),
            StmtKind::Let { names, value } => {
                if names.len() == 1 {
                    let ty = self.expr(value);
                    if matches!(ty, Ty::PerPlayer(_)) {
                        self.error(
                            Diagnostic::error(Code::TypeMismatch, "a per-player choice cannot be copied whole")
                                .label(value.span, "write `x of player 1`"),
                        );
                    }
                    let slot = self.local(&names[0].name, ty, 1);
                    self.emit(Op::Store(slot), span);
                } else {
                    let types = self.multi_call(value, names.len());
                    let slots: Vec<u16> = names
                        .iter()
                        .zip(types)
                        .map(|(n, ty)| self.local(&n.name, ty, 1))
                        .collect();
                    for slot in slots.into_iter().rev() {
                        self.emit(Op::Store(slot), span);
                    }
                }
                false
            }
            StmtKind::Set { target, value } => {
                self.assign(target, value, false, span);
                false
            }
            StmtKind::Add { amount, target } => {
                self.assign(target, amount, true, span);
                false
            }
            StmtKind::If { cond, then, otherwise } => {
                self.expect(cond, &Ty::Bool);
                let to_else = self.emit(Op::JumpIfFalse(0), cond.span);
                let then_diverges = self.block(then);
                match otherwise {
                    None => {
                        let end = self.here();
                        self.patch(to_else, end);
                        false
                    }
                    Some(other) => {
                        let to_end = self.emit(Op::Jump(0), span);
                        let else_start = self.here();
                        self.patch(to_else, else_start);
                        let else_diverges = self.block(other);
                        let end = self.here();
                        self.patch(to_end, end);
                        then_diverges && else_diverges
                    }
                }
            }
            StmtKind::For { var, domain, body } => {
                self.for_loop(var, domain, span, false, &mut |c: &mut Compiler| {
                    c.block(body);
                });
                false
            }
            StmtKind::Loop(body) => {
                let start = self.here();
                self.f.loops.push(LoopCtx { breaks: vec![] });
                self.block(body);
                self.emit(Op::Jump(start), span);
                let ctx = self.f.loops.pop().unwrap();
                let end = self.here();
                let broke = !ctx.breaks.is_empty();
                for at in ctx.breaks {
                    self.patch(at, end);
                }
                !broke
            }
            StmtKind::While { cond, body } => {
                let start = self.here();
                self.expect(cond, &Ty::Bool);
                let exit = self.emit(Op::JumpIfFalse(0), cond.span);
                self.f.loops.push(LoopCtx { breaks: vec![exit] });
                self.block(body);
                self.emit(Op::Jump(start), span);
                self.close_loop();
                false
            }
            StmtKind::Repeat { times, body } => {
                let scope = self.scope();
                let count = self.temp();
                self.expect(times, &Ty::Int);
                self.emit(Op::Store(count), times.span);
                let start = self.here();
                self.emit(Op::Load(count), span);
                self.emit(Op::Push(0), span);
                self.emit(Op::Gt, span);
                let exit = self.emit(Op::JumpIfFalse(0), span);
                self.emit(Op::Load(count), span);
                self.emit(Op::Push(1), span);
                self.emit(Op::Sub, span);
                self.emit(Op::Store(count), span);
                self.f.loops.push(LoopCtx { breaks: vec![exit] });
                self.block(body);
                self.emit(Op::Jump(start), span);
                self.close_loop();
                self.close_scope(scope);
                false
            }
            StmtKind::Break => {
                if self.f.loops.is_empty() {
                    self.error(
                        Diagnostic::error(Code::MisplacedBreak, "`break` outside a loop")
                            .label(span, "there is no loop to leave here"),
                    );
                } else {
                    let at = self.emit(Op::Jump(0), span);
                    self.f.loops.last_mut().unwrap().breaks.push(at);
                }
                true
            }
            StmtKind::Return(values) => {
                self.return_stmt(values, span);
                true
            }
            StmtKind::ChooseEach { var, domain, secret } => {
                self.choose_each(var, domain, *secret, None, span);
                false
            }
            StmtKind::Race { var, domain, time } => {
                self.choose_each(var, domain, false, Some(time), span);
                false
            }
            StmtKind::Choose {
                who,
                var,
                domain,
                secret,
                otherwise,
            } => {
                let decision_index = self.def.decisions.len() as u16;
                let scope = self.scope();
                let seat = self.temp();
                self.expect(who, &Ty::Seat);
                self.emit(Op::Store(seat), who.span);
                self.emit(Op::ChoiceReset, span);
                let (choice_kind, elem) = self.offer(domain, seat, var, span);
                let to_else = otherwise.as_ref().map(|_| {
                    self.emit(Op::Load(seat), span);
                    self.emit(Op::HasOffers, span);
                    self.emit(Op::JumpIfFalse(0), span)
                });
                self.emit(Op::Load(seat), span);
                self.push_decision(var, choice_kind, *secret, false, domain, span);
                self.emit(Op::Ask(decision_index), span);
                self.close_scope(scope);
                let slot = self.local(&var.name, elem.clone(), 1);
                self.emit(Op::Store(slot), span);
                self.bind_none(domain, &elem, span);
                if let (Some(at), Some(block)) = (to_else, otherwise) {
                    // "The player that could not play a valid card": when
                    // nothing is on offer, the `else` block runs instead.
                    let to_end = self.emit(Op::Jump(0), span);
                    let here = self.here();
                    self.patch(at, here);
                    if !self.block(block) {
                        // After it, the chosen name would hold nothing.
                        self.error(
                            Diagnostic::error(
                                Code::ElseFallsThrough,
                                format!("`{}` has no value after this `else`", var.name),
                            )
                            .label(block.span, "this block can finish")
                            .help("end the `else` block with `break`, `return`, `win`, `declare draw` or `end game`"),
                        );
                    }
                    let end = self.here();
                    self.patch(to_end, end);
                }
                false
            }
            StmtKind::Draft { choosers, entries } => {
                self.draft(choosers, entries, span);
                false
            }
            StmtKind::Shuffle(zone) => {
                self.expect(zone, &Ty::Zone);
                self.emit(Op::Shuffle, span);
                false
            }
            StmtKind::Deal { count, from, to } => {
                self.expect(count, &Ty::Int);
                self.expect(from, &Ty::Zone);
                self.expect(to, &Ty::Zone);
                self.emit(Op::Deal, span);
                false
            }
            StmtKind::Move { what, to } => {
                self.expect(what, &Ty::Piece);
                self.expect(to, &Ty::Zone);
                self.emit(Op::Move, span);
                false
            }
            StmtKind::MoveAll { from, to } => {
                self.expect(from, &Ty::Zone);
                self.expect(to, &Ty::Zone);
                self.emit(Op::MoveAll, span);
                false
            }
            StmtKind::Reveal { pieces, to } => {
                for piece in pieces {
                    self.expect(piece, &Ty::Piece);
                    if let Some(to) = to {
                        self.expect(to, &Ty::Seat);
                    }
                    self.emit(Op::Reveal { to_one: to.is_some() }, piece.span);
                }
                false
            }
            StmtKind::Hide(pieces) => {
                for piece in pieces {
                    self.expect(piece, &Ty::Piece);
                    self.emit(Op::Hide, piece.span);
                }
                false
            }
            StmtKind::ChooseActions { who, actions } => {
                self.choose_actions(who, actions, span);
                false
            }
            StmtKind::Win(seat) => {
                self.expect(seat, &Ty::Seat);
                self.emit(Op::Win, span);
                true
            }
            StmtKind::DeclareDraw(reason) => {
                let reason = reason.as_ref().map(|r| self.fail_message(r.clone()));
                self.emit(Op::DeclareDraw(reason), span);
                true
            }
            StmtKind::EndGame => {
                self.emit(Op::EndGame, span);
                self.ends_game_to_result = true;
                true
            }
            StmtKind::Call { name, args } => {
                match self.globals.get(&name.name) {
                    Some(Symbol::Proc(p)) => {
                        let returns = self.call_proc(p, name, args, span);
                        for _ in 0..returns.len() {
                            self.emit(Op::Pop, span);
                        }
                    }
                    Some(Symbol::Hook(_)) => {
                        self.error(
                            Diagnostic::error(
                                Code::UnusedResult,
                                format!("the result of hook `{}` is thrown away", name.name),
                            )
                            .label(span, "a hook only answers a question")
                            .help("use it in a condition: `if hook(...) { ... }`"),
                        );
                    }
                    other => self.unknown_or_wrong(&name.name, name.span, other, "a procedure", "procedures"),
                }
                false
            }
        }
    }

    fn close_loop(&mut self) {
        let ctx = self.f.loops.pop().unwrap();
        let end = self.here();
        for at in ctx.breaks {
            self.patch(at, end);
        }
    }

    fn return_stmt(&mut self, values: &[Expr], span: Span) {
        if self.f.is_main || self.f.returns.is_none() {
            self.error(
                Diagnostic::error(Code::MisplacedReturn, "`return` outside a procedure")
                    .label(span, "nothing to return to")
                    .help("to end the game use `win P`, `declare draw` or `end game`"),
            );
            return;
        }
        let expected = self.f.returns.as_ref().map_or(0, Vec::len);
        if values.len() != expected {
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!("this procedure returns {expected} values, not {}", values.len()),
                )
                .label(span, format!("{} values here", values.len())),
            );
            return;
        }
        for (i, value) in values.iter().enumerate() {
            let declared = self.f.returns.as_ref().and_then(|r| r[i].clone());
            let ty = match &declared {
                Some(t) => {
                    self.expect(value, t);
                    t.clone()
                }
                None => self.expr(value),
            };
            if let Some(returns) = self.f.returns.as_mut() {
                returns[i] = Some(ty);
            }
        }
        self.emit(Op::Return, span);
    }

    fn assign(&mut self, target: &ast::LValue, value: &Expr, add: bool, span: Span) {
        let name = &target.name;
        if target.index.is_none()
            && let Some(local) = self.f.locals.iter().rev().find(|l| l.name == name.name)
            && local.fixed
        {
            self.error(
                Diagnostic::error(
                    Code::ReadOnly,
                    format!("`{}` is the value a loop goes through", name.name),
                )
                .label(target.span, "the loop sets it; it cannot be set here")
                .help(format!("copy it first: `let mine = {}`", name.name)),
            );
            return;
        }
        if target.index.is_none()
            && let Some((slot, ty)) = self.find_local(&name.name)
        {
            if add {
                self.emit(Op::Load(slot), span);
                self.expect(value, &Ty::Int);
                self.emit(Op::Add, span);
            } else {
                self.expect(value, &ty);
            }
            self.emit(Op::Store(slot), span);
            return;
        }
        match self.globals.get(&name.name) {
            Some(Symbol::Var(var)) if self.def.vars[var as usize].constant => self.error(
                Diagnostic::error(Code::ReadOnly, format!("`{}` is a constant", name.name))
                    .label(target.span, "constants never change")
                    .help("declare it with `var` if it should change during the game"),
            ),
            Some(Symbol::Var(var)) => {
                let def = self.def.vars[var as usize].clone();
                let ty = if add {
                    Ty::Int
                } else {
                    self.var_types[var as usize].clone()
                };
                match (&target.index, def.per_player) {
                    (None, false) => {
                        if add {
                            self.emit(Op::LoadVar(def.slot), span);
                        }
                        self.expect(value, &ty);
                        if add {
                            self.emit(Op::Add, span);
                        }
                        self.emit(Op::StoreVar(def.slot), span);
                    }
                    (Some(index), true) => {
                        // The player is computed once, even when it is read and written.
                        let scope = self.scope();
                        let seat = self.temp();
                        self.expect(index, &Ty::Seat);
                        self.emit(Op::Store(seat), index.span);
                        if add {
                            self.emit(Op::Load(seat), span);
                            self.emit(Op::LoadVarAt(def.slot), span);
                        }
                        self.expect(value, &ty);
                        if add {
                            self.emit(Op::Add, span);
                        }
                        self.emit(Op::Load(seat), span);
                        self.emit(Op::StoreVarAt(def.slot), span);
                        self.close_scope(scope);
                    }
                    (None, true) => self.error(
                        Diagnostic::error(Code::MissingPlayer, format!("`{}` is kept per player", name.name))
                            .label(target.span, "whose?")
                            .help(format!("write `{} of <player>`", name.name)),
                    ),
                    (Some(index), false) => self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is one value, not one per player", name.name),
                        )
                        .label(index.span, "remove `of ...`"),
                    ),
                }
            }
            Some(Symbol::Option(_)) => self.error(
                Diagnostic::error(
                    Code::ReadOnly,
                    format!("option `{}` cannot be changed during the game", name.name),
                )
                .label(target.span, "options are fixed before the game starts")
                .help("declare a `var` to keep a value that changes"),
            ),
            other => self.unknown_or_wrong(&name.name, name.span, other, "a variable", "variables"),
        }
    }

    /// `let (a, b) = proc(...)`: compiles the call and returns the result types.
    fn multi_call(&mut self, value: &Expr, count: usize) -> Vec<Ty> {
        if let ExprKind::Call { name, args } = &value.kind
            && let Some(Symbol::Proc(p)) = self.globals.get(&name.name)
        {
            let returns = self.call_proc(p, name, args, value.span);
            if returns.len() == count {
                return returns;
            }
            let names = self.user_procs.get(&p).map_or(String::new(), |d| {
                d.returns.iter().map(|r| r.name.as_str()).collect::<Vec<_>>().join(", ")
            });
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!(
                        "`{}` returns {} values, but {count} names receive them",
                        name.name,
                        returns.len()
                    ),
                )
                .label(value.span, format!("returns {}", returns.len()))
                .help(format!(
                    "`{}` returns ({names}); receive them as `let ({names}) = {}()`",
                    name.name, name.name
                )),
            );
            return vec![Ty::Error; count];
        }
        self.error(
            Diagnostic::error(
                Code::WrongArity,
                format!("{count} names need a procedure that returns {count} values"),
            )
            .label(value.span, "this is a single value"),
        );
        vec![Ty::Error; count]
    }

    fn call_proc(&mut self, proc: ProcId, name: &ast::Ident, args: &[Expr], span: Span) -> Vec<Ty> {
        match self.proc_state[proc as usize] {
            ProcState::NotStarted => {
                // Compile the callee first: its result types come from its returns.
                let saved_loops = std::mem::take(&mut self.f.loops);
                self.compile_user_proc(proc);
                self.f.loops = saved_loops;
            }
            ProcState::InProgress => {}
            ProcState::Done => {}
        }
        let params = self.proc_params[proc as usize].clone();
        if params.len() != args.len() {
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!("`{}` takes {} arguments, not {}", name.name, params.len(), args.len()),
                )
                .label(span, format!("{} given", args.len()))
                .label(self.def.procs[proc as usize].span, "declared here")
                .help(format!("call it as `{}({})`", name.name, self.param_names(proc))),
            );
        }
        for (arg, ty) in args.iter().zip(params.iter()) {
            self.expect(arg, ty);
        }
        self.emit(Op::Call(proc), span);
        if self.proc_state[proc as usize] == ProcState::InProgress {
            // Recursion: the result types are not known yet.
            let n = self.user_procs.get(&proc).map_or(0, |d| d.returns.len());
            return vec![Ty::Error; n];
        }
        self.proc_returns[proc as usize].clone()
    }

    /// `each player chooses` and `race each player calls`: every seat is
    /// offered its values, then all answer at once. A race also records each
    /// answer's reaction time under `time`.
    fn choose_each(&mut self, var: &ast::Ident, domain: &Domain, secret: bool, time: Option<&ast::Ident>, span: Span) {
        let players = self.def.players() as u16;
        let decision_index = self.def.decisions.len() as u16;
        self.emit(Op::ChoiceReset, span);
        let scope = self.scope();
        let seat = self.local("player", Ty::Seat, 1);
        let saved_player = self.f.current_player.replace(seat);
        let mut kind = None;
        for s in 0..players {
            self.emit(Op::Push(s as i64), span);
            self.emit(Op::Store(seat), span);
            let k = self.offer(domain, seat, var, span);
            kind.get_or_insert(k);
        }
        self.f.current_player = saved_player;
        self.close_scope(scope);
        let (choice_kind, elem) = kind.unwrap_or((ChoiceKind::Number, Ty::Error));
        self.push_decision(var, choice_kind, secret, time.is_some(), domain, span);
        let base = self.local(&var.name, Ty::PerPlayer(Box::new(elem.clone())), players);
        if let Some(time) = time {
            // Reaction times sit right after the choices: `base + players + seat`.
            self.local(&time.name, Ty::PerPlayer(Box::new(Ty::Int)), players);
        }
        self.emit(Op::AskEach(decision_index, base), span);
        self.bind_none(domain, &elem, span);
    }

    fn push_decision(
        &mut self,
        var: &ast::Ident,
        kind: ChoiceKind,
        secret: bool,
        race: bool,
        domain: &Domain,
        span: Span,
    ) {
        let (_, cond, none) = split_domain(domain);
        let mut conditions = vec![];
        if let Some(cond) = cond {
            conditions.push(self.def.sources.text(cond.span).to_string());
        }
        if let Domain::Pieces { cond: Some(c), .. } = split_domain(domain).0 {
            conditions.push(self.def.sources.text(c.span).to_string());
        }
        self.def.decisions.push(ir::Decision {
            name: var.name.clone(),
            kind,
            secret,
            span,
            race,
            none_label: none.map(|n| n.name.clone()),
            condition: (!conditions.is_empty()).then(|| conditions.join(" and ")),
        });
    }

    /// `, or silence`: the name `silence` holds the "no choice" value.
    fn bind_none(&mut self, domain: &Domain, elem: &Ty, span: Span) {
        if let (_, _, Some(none)) = split_domain(domain) {
            let slot = self.local(&none.name, elem.clone(), 1);
            self.emit(Op::Push(ir::NO_CHOICE), span);
            self.emit(Op::Store(slot), span);
        }
    }

    /// `who chooses { "label" for p in D, ... when cond { body } ... }`: one
    /// decision among actions, each offered once for every combination of
    /// its parameters that passes its conditions.
    fn choose_actions(&mut self, who: &Expr, actions: &[ast::ActionEntry], span: Span) {
        let scope = self.scope();
        let seat = self.temp();
        self.expect(who, &Ty::Seat);
        self.emit(Op::Store(seat), who.span);
        self.emit(Op::ChoiceReset, span);
        let decision = self.def.decisions.len() as u16;
        self.def.decisions.push(ir::Decision {
            name: "action".into(),
            kind: ChoiceKind::Actions(vec![]),
            secret: false,
            span,
            race: false,
            none_label: None,
            condition: None,
        });
        let mut labels: HashMap<&str, Span> = HashMap::new();
        let mut defs = vec![];
        for (i, entry) in actions.iter().enumerate() {
            if let Some(first) = labels.insert(&entry.label, entry.label_span) {
                self.error(
                    Diagnostic::error(
                        Code::DuplicateDefinition,
                        format!("two actions are called \"{}\"", entry.label),
                    )
                    .label(entry.label_span, "again here")
                    .label(first, "first here")
                    .help("give each action its own label"),
                );
            }
            let mut seen: HashMap<&str, Span> = HashMap::new();
            for (name, _) in &entry.params {
                if let Some(first) = seen.insert(&name.name, name.span) {
                    self.error(
                        Diagnostic::error(
                            Code::DuplicateDefinition,
                            format!("parameter `{}` is named twice", name.name),
                        )
                        .label(name.span, "again here")
                        .label(first, "first here"),
                    );
                }
            }
            let inner = self.scope();
            let actor = self.local("actor", Ty::Seat, 1);
            self.emit(Op::Load(seat), entry.label_span);
            self.emit(Op::Store(actor), entry.label_span);
            let skip = entry.when.as_ref().map(|cond| {
                self.expect(cond, &Ty::Bool);
                self.emit(Op::JumpIfFalse(0), cond.span)
            });
            let mut tys = vec![None; entry.params.len()];
            let at = entry.label_span;
            self.action_params(&entry.params, 0, &mut tys, at, &mut |c: &mut Compiler| {
                c.emit(Op::Load(seat), at);
                for (name, _) in &entry.params {
                    let (slot, _) = c.find_local(&name.name).expect("the parameter is bound");
                    c.emit(Op::Load(slot), at);
                }
                c.emit(
                    Op::ActionValue {
                        decision,
                        entry: i as u16,
                    },
                    at,
                );
                c.emit(Op::ChoiceAdd, at);
            });
            if let Some(skip) = skip {
                let next = self.here();
                self.patch(skip, next);
            }
            self.close_scope(inner);
            let params: Vec<(ChoiceKind, i64)> = tys
                .iter()
                .map(|ty| {
                    let kind = choice_kind_of(ty.as_ref().unwrap_or(&Ty::Error));
                    let radix = self.radix(&kind);
                    (kind, radix)
                })
                .collect();
            let label = self.action_label(entry);
            defs.push(ir::ActionDef { label, params });
        }
        let combinations = defs.iter().try_fold(0i64, |total, d| {
            d.params
                .iter()
                .try_fold(1i64, |n, (_, r)| n.checked_mul(*r))
                .and_then(|n| total.checked_add(n))
        });
        if combinations
            .and_then(|n| n.checked_mul(defs.len() as i64))
            .is_none_or(|n| n > i64::MAX / 4)
        {
            self.error(
                Diagnostic::error(
                    Code::TooManyActions,
                    "these actions have too many parameters to tell apart",
                )
                .label(span, "here")
                .help("use fewer parameters, or narrower ones (a ring rather than a range of numbers)"),
            );
        }
        let param_tys: Vec<Vec<Ty>> = defs
            .iter()
            .map(|d| d.params.iter().map(|(k, _)| ty_of_choice(k)).collect())
            .collect();
        self.def.decisions[decision as usize].kind = ChoiceKind::Actions(defs);
        self.emit(Op::Load(seat), span);
        self.emit(Op::Ask(decision), span);
        let picked = self.temp();
        self.emit(Op::Store(picked), span);
        let mut to_end = vec![];
        for (i, entry) in actions.iter().enumerate() {
            let at = entry.label_span;
            self.emit(Op::Load(picked), at);
            self.emit(Op::ActionEntry(decision), at);
            self.emit(Op::Push(i as i64), at);
            self.emit(Op::Eq, at);
            let next = self.emit(Op::JumpIfFalse(0), at);
            let inner = self.scope();
            let actor = self.local("actor", Ty::Seat, 1);
            self.emit(Op::Load(seat), at);
            self.emit(Op::Store(actor), at);
            for (k, (name, _)) in entry.params.iter().enumerate() {
                let slot = self.local(&name.name, param_tys[i][k].clone(), 1);
                self.emit(Op::Load(picked), name.span);
                self.emit(
                    Op::ActionParam {
                        decision,
                        entry: i as u16,
                        param: k as u8,
                    },
                    name.span,
                );
                self.emit(Op::Store(slot), name.span);
            }
            if !self.block(&entry.body) {
                to_end.push(self.emit(Op::Jump(0), at));
            }
            self.close_scope(inner);
            let here = self.here();
            self.patch(next, here);
        }
        let end = self.here();
        for at in to_end {
            self.patch(at, end);
        }
        self.close_scope(scope);
    }

    /// Binds each parameter in turn over its domain (or to its value);
    /// `leaf` runs for every combination. Records each parameter's type.
    fn action_params(
        &mut self,
        params: &[(ast::Ident, ast::ParamSource)],
        depth: usize,
        tys: &mut [Option<Ty>],
        span: Span,
        leaf: &mut dyn FnMut(&mut Compiler),
    ) {
        let Some((var, source)) = params.get(depth) else {
            leaf(self);
            return;
        };
        let ty = match source {
            ast::ParamSource::In(domain) => self.for_loop(var, domain, span, true, &mut |c: &mut Compiler| {
                c.action_params(params, depth + 1, tys, span, leaf);
            }),
            ast::ParamSource::Is(value) => {
                let scope = self.scope();
                let ty = self.expr(value);
                if matches!(ty, Ty::Bool | Ty::Zone | Ty::PerPlayer(_) | Ty::Enum(_)) {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("an action's parameter cannot be {}", ty.describe()),
                        )
                        .label(value.span, format!("this is {}", ty.describe()))
                        .help("parameters are pieces, spaces, kinds, players, piece types or numbers"),
                    );
                }
                let slot = self.local(&var.name, ty.clone(), 1);
                self.emit(Op::Store(slot), value.span);
                self.action_params(params, depth + 1, tys, span, leaf);
                self.close_scope(scope);
                ty
            }
        };
        tys[depth] = Some(ty);
    }

    /// How many values a parameter of this kind can take.
    fn radix(&self, kind: &ChoiceKind) -> i64 {
        let n = match kind {
            ChoiceKind::Kind => self.def.kinds.len(),
            ChoiceKind::Player => self.def.players(),
            ChoiceKind::Space(b) => self.def.boards[*b as usize].spaces() as usize,
            ChoiceKind::PieceType => self.def.piece_types.len(),
            ChoiceKind::Piece => self.def.pieces.len(),
            ChoiceKind::Number => ACTION_NUMBER_RADIX as usize,
            ChoiceKind::Menu(_) | ChoiceKind::Actions(_) => 1,
        };
        n.max(1) as i64
    }

    /// "move {pawn} to {to}" as text and parameters.
    fn action_label(&mut self, entry: &ast::ActionEntry) -> Vec<ir::LabelPart> {
        let mut parts = vec![];
        let mut rest = entry.label.as_str();
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(ir::LabelPart::Text(rest[..open].to_string()));
            }
            let Some(close) = rest[open..].find('}') else {
                self.error(
                    Diagnostic::error(Code::BadLabel, "a `{` in this label is never closed")
                        .label(entry.label_span, "here")
                        .help("write `{name}` to show a parameter's value"),
                );
                return parts;
            };
            let name = rest[open + 1..open + close].trim();
            match entry.params.iter().position(|(p, _)| p.name == name) {
                Some(k) => parts.push(ir::LabelPart::Param(k as u8)),
                None => {
                    let names: Vec<&str> = entry.params.iter().map(|(p, _)| p.name.as_str()).collect();
                    let mut diag = Diagnostic::error(
                        Code::UnknownName,
                        format!("the label shows `{{{name}}}`, which is not a parameter of this action"),
                    )
                    .label(entry.label_span, "in this label");
                    diag = match nearest(name, names.iter().copied()) {
                        Some(near) => diag.help(format!("did you mean `{{{near}}}`?")),
                        None if names.is_empty() => {
                            diag.help("this action has no parameters; add them with `for name in ...`")
                        }
                        None => diag.help(format!("the parameters are {}", names.join(", "))),
                    };
                    self.error(diag);
                }
            }
            rest = &rest[open + close + 1..];
        }
        if !rest.is_empty() {
            parts.push(ir::LabelPart::Text(rest.to_string()));
        }
        parts
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

    fn draft(&mut self, choosers: &[Expr], entries: &[ast::DraftEntry], span: Span) {
        if choosers.len() > entries.len() {
            self.error(
                Diagnostic::error(
                    Code::DraftTooShort,
                    format!("{} choosers but only {} entries", choosers.len(), entries.len()),
                )
                .label(
                    choosers[0].span.join(choosers[choosers.len() - 1].span),
                    "the last chooser would find nothing left",
                )
                .help("each chooser takes one entry; list at least as many entries as choosers"),
            );
        }
        let scope = self.scope();
        let chooser_slots: Vec<u16> = choosers
            .iter()
            .map(|c| {
                self.expect(c, &Ty::Seat);
                let slot = self.temp();
                self.emit(Op::Store(slot), c.span);
                slot
            })
            .collect();
        let taken: Vec<u16> = entries
            .iter()
            .map(|_| {
                let slot = self.temp();
                self.emit(Op::Push(0), span);
                self.emit(Op::Store(slot), span);
                slot
            })
            .collect();
        let picked = self.temp();
        let decision = self.def.decisions.len() as u16;
        self.def.decisions.push(ir::Decision {
            name: "draft".into(),
            kind: ChoiceKind::Menu(entries.iter().map(|e| e.label.clone()).collect()),
            secret: false,
            span,
            race: false,
            none_label: None,
            condition: None,
        });
        let mut labels: HashMap<&str, Span> = HashMap::new();
        for entry in entries {
            if let Some(first) = labels.insert(&entry.label, entry.label_span) {
                self.error(
                    Diagnostic::error(
                        Code::DuplicateDefinition,
                        format!("the draft offers \"{}\" twice", entry.label),
                    )
                    .label(entry.label_span, "again here")
                    .label(first, "first here"),
                );
            }
        }
        for &chooser in &chooser_slots {
            let inner = self.scope();
            let actor = self.local("actor", Ty::Seat, 1);
            self.emit(Op::Load(chooser), span);
            self.emit(Op::Store(actor), span);
            self.emit(Op::ChoiceReset, span);
            for (i, entry) in entries.iter().enumerate() {
                self.emit(Op::Load(taken[i]), entry.label_span);
                let skip = self.emit(Op::JumpIfTrue(0), entry.label_span);
                let mut skip_when = None;
                if let Some(cond) = &entry.when {
                    self.expect(cond, &Ty::Bool);
                    skip_when = Some(self.emit(Op::JumpIfFalse(0), cond.span));
                }
                self.emit(Op::Load(actor), entry.label_span);
                self.emit(Op::Push(i as i64), entry.label_span);
                self.emit(Op::ChoiceAdd, entry.label_span);
                let next = self.here();
                self.patch(skip, next);
                if let Some(at) = skip_when {
                    self.patch(at, next);
                }
            }
            self.emit(Op::Load(actor), span);
            self.emit(Op::Ask(decision), span);
            self.emit(Op::Store(picked), span);
            let mut to_end = vec![];
            for (i, entry) in entries.iter().enumerate() {
                self.emit(Op::Load(picked), entry.label_span);
                self.emit(Op::Push(i as i64), entry.label_span);
                self.emit(Op::Eq, entry.label_span);
                let next = self.emit(Op::JumpIfFalse(0), entry.label_span);
                self.emit(Op::Push(1), entry.label_span);
                self.emit(Op::Store(taken[i]), entry.label_span);
                if !self.block(&entry.body) {
                    to_end.push(self.emit(Op::Jump(0), entry.label_span));
                }
                let here = self.here();
                self.patch(next, here);
            }
            let end = self.here();
            for at in to_end {
                self.patch(at, end);
            }
            self.close_scope(inner);
        }
        self.close_scope(scope);
    }

    // ------------------------------------------------------------ domains

    /// Emits code offering every value of `domain` to the seat in local
    /// `seat`. `var` names the value inside a `where` condition.
    /// Offers the piece value on top of the stack to `seat` if every
    /// condition holds with `var` bound to it.
    fn offer_piece(&mut self, seat: u16, var: &ast::Ident, conds: &[&Expr], span: Span) {
        let scope = self.scope();
        let slot = self.local(&var.name, Ty::Piece, 1);
        self.emit(Op::Store(slot), span);
        let mut skips = vec![];
        for cond in conds {
            self.expect(cond, &Ty::Bool);
            skips.push(self.emit(Op::JumpIfFalse(0), cond.span));
        }
        self.emit(Op::Load(seat), span);
        self.emit(Op::Load(slot), span);
        self.emit(Op::ChoiceAdd, span);
        let next = self.here();
        for at in skips {
            self.patch(at, next);
        }
        self.close_scope(scope);
    }

    /// Pieces of a zone where a wild piece is offered once per kind, as that
    /// kind (`with Wild as each Hand`).
    fn offer_wild_pieces(
        &mut self,
        domain: &Domain,
        cond: Option<&Expr>,
        seat: u16,
        var: &ast::Ident,
        span: Span,
    ) -> (ChoiceKind, Ty) {
        let Domain::Pieces {
            filter,
            place,
            cond: own_cond,
            wild: Some((wild_filter, kinds)),
        } = domain
        else {
            unreachable!("called for wild pieces only")
        };
        let ast::PiecePlace::Zone(zone) = place else {
            self.error(
                Diagnostic::error(Code::BadDomain, "wild pieces are chosen from a zone")
                    .label(filter.span, "write e.g. `Card in hand of actor with Wild as each Hand`"),
            );
            return (ChoiceKind::Piece, Ty::Error);
        };
        let conds: Vec<&Expr> = own_cond.iter().chain(cond).collect();
        let scope = self.scope();
        let zone_slot = self.temp();
        let index = self.temp();
        let raw = self.temp();
        self.expect(zone, &Ty::Zone);
        self.emit(Op::Store(zone_slot), zone.span);
        self.emit(Op::Push(-1), span);
        self.emit(Op::Store(index), span);
        // Every piece of the zone; the filter is checked below.
        let unused = self.temp();
        self.def.filters.push(ir::PieceFilter {
            matcher: Matcher {
                by: MatchBy::Any,
                owner: false,
            },
            key: unused,
            owner: unused,
        });
        let every_piece = (self.def.filters.len() - 1) as u16;
        let top = self.here();
        let exit = self.emit(
            Op::NextPiece {
                zone: zone_slot,
                index,
                value: raw,
                filter: every_piece,
                exit: 0,
            },
            span,
        );
        let matcher = self.matcher(filter);
        self.emit(Op::Load(raw), filter.span);
        self.emit(Op::Matches(matcher), filter.span);
        let skip = self.emit(Op::JumpIfFalse(0), filter.span);
        // A wild piece is offered once per kind, carrying that kind.
        let wild_matcher = self.matcher(wild_filter);
        self.emit(Op::Load(raw), wild_filter.span);
        self.emit(Op::Matches(wild_matcher), wild_filter.span);
        let not_wild = self.emit(Op::JumpIfFalse(0), wild_filter.span);
        match self.globals.get(&kinds.name) {
            Some(Symbol::KindSet(set)) => {
                for k in self.def.kind_sets[set as usize].members.clone() {
                    self.emit(Op::Load(raw), span);
                    self.emit(Op::Push(ir::declared(k)), span);
                    self.emit(Op::Add, span);
                    self.offer_piece(seat, var, &conds, span);
                }
            }
            other => self.unknown_or_wrong(&kinds.name, kinds.span, other, "a set of kinds", "kinds"),
        }
        self.emit(Op::Jump(top), span);
        let here = self.here();
        self.patch(not_wild, here);
        self.emit(Op::Load(raw), span);
        self.offer_piece(seat, var, &conds, span);
        let next = self.here();
        self.patch(skip, next);
        self.emit(Op::Jump(top), span);
        let end = self.here();
        self.patch(exit, end);
        self.close_scope(scope);
        (ChoiceKind::Piece, Ty::Piece)
    }

    /// Emits code offering every value of `domain` (and its named "no
    /// choice", if any) to the seat in local `seat`.
    fn offer(&mut self, domain: &Domain, seat: u16, var: &ast::Ident, span: Span) -> (ChoiceKind, Ty) {
        let (core, cond, none) = split_domain(domain);
        let result = if let Domain::Pieces { wild: Some(_), .. } = core {
            self.offer_wild_pieces(core, cond, seat, var, span)
        } else {
            let domain = match cond {
                Some(cond) => Domain::Where(Box::new(core.clone()), cond.clone()),
                None => core.clone(),
            };
            let ty = self.for_loop(var, &domain, span, true, &mut |c: &mut Compiler| {
                let (slot, _) = c.find_local(&var.name).expect("the loop binds its name");
                c.emit(Op::Load(seat), span);
                c.emit(Op::Load(slot), span);
                c.emit(Op::ChoiceAdd, span);
            });
            (choice_kind_of(&ty), ty)
        };
        if none.is_some() {
            self.emit(Op::Load(seat), span);
            self.emit(Op::Push(ir::NO_CHOICE), span);
            self.emit(Op::ChoiceAdd, span);
        }
        result
    }

    fn domain_shape(&mut self, domain: &Domain) -> Shape {
        match domain {
            Domain::Where(inner, _) | Domain::OrNone(inner, _) => self.domain_shape(inner),
            Domain::Range(..) => Shape::Range,
            Domain::Pieces { .. } => Shape::Pieces,
            Domain::Expr(e) => match &e.kind {
                ExprKind::Players => Shape::Players,
                ExprKind::Name(name) if self.find_local(&name.name).is_none() => match self.globals.get(&name.name) {
                    Some(Symbol::KindSet(s)) => Shape::Kinds(s),
                    Some(Symbol::Group(g)) => Shape::Types(g),
                    Some(Symbol::Board(b)) => Shape::Spaces(b),
                    Some(Symbol::SpaceGroup(b, g)) => {
                        let group = &self.def.boards[b as usize].groups[g as usize];
                        Shape::Run(b, group.first, group.len)
                    }
                    other => {
                        self.domain_error(e, other);
                        Shape::Invalid
                    }
                },
                ExprKind::Of { name, .. }
                    if name.name == "adjacent"
                        && self.find_local(&name.name).is_none()
                        && !self.globals.names.contains_key(&name.name) =>
                {
                    Shape::Adjacent
                }
                _ => {
                    self.domain_error(e, None);
                    Shape::Invalid
                }
            },
        }
    }

    fn domain_error(&mut self, e: &Expr, symbol: Option<Symbol>) {
        let text = self.def.sources.text(e.span).to_string();
        let what = symbol.map_or("", |s| s.describe());
        let message = if what.is_empty() {
            format!("cannot go through `{text}`")
        } else {
            format!("cannot go through `{text}`: it is {what}")
        };
        let mut diag = Diagnostic::error(Code::BadDomain, message)
            .label(e.span, "expected a set of values")
            .help("go through a kind set (`Hand`), `players`, a board, a ring, `adjacent of SPACE`, a group, a range `1..6`, or pieces: `Card in hand of player`");
        if symbol.is_none()
            && let ExprKind::Name(n) = &e.kind
            && !self.globals.names.contains_key(&n.name)
        {
            diag = Diagnostic::error(Code::UnknownName, format!("unknown name `{}`", n.name))
                .label(n.span, "not declared");
            if let Some(near) = nearest(&n.name, self.globals.all_names().collect::<Vec<_>>()) {
                diag = diag.help(format!("did you mean `{near}`?"));
            }
        }
        self.error(diag);
    }

    /// A loop over a range, a board's spaces, a run of spaces or the spaces
    /// next to one; `body` gets the local holding the current value and its
    /// type, which is also returned.
    fn index_loop(
        &mut self,
        domain: &Domain,
        shape: &Shape,
        span: Span,
        body: &mut dyn FnMut(&mut Compiler, u16, &Ty),
    ) -> Ty {
        let scope = self.scope();
        let value = self.temp();
        let ty = match (shape, domain) {
            (
                Shape::Adjacent,
                Domain::Expr(Expr {
                    kind: ExprKind::Of { arg, .. },
                    ..
                }),
            ) => {
                let ty = self.adjacent_loop(arg, value, span, body);
                self.close_scope(scope);
                return ty;
            }
            (Shape::Range, Domain::Range(low, high)) => {
                let last = self.temp();
                self.expect(low, &Ty::Int);
                self.emit(Op::Push(1), low.span);
                self.emit(Op::Sub, low.span);
                self.emit(Op::Store(value), low.span);
                self.expect(high, &Ty::Int);
                self.emit(Op::Store(last), high.span);
                (Ty::Int, last)
            }
            (Shape::Spaces(b), _) => {
                let spaces = self.def.boards[*b as usize].spaces();
                (Ty::Space(*b), self.space_bounds(value, 0, spaces, span))
            }
            (Shape::Run(b, first, len), _) => (Ty::Space(*b), self.space_bounds(value, *first, *len, span)),
            _ => unreachable!("index loops run over ranges and spaces"),
        };
        let (ty, last) = ty;
        let top = self.here();
        let exit = self.emit(Op::Next { value, last, exit: 0 }, span);
        body(self, value, &ty);
        self.emit(Op::Jump(top), span);
        let end = self.here();
        self.patch(exit, end);
        self.close_scope(scope);
        ty
    }

    /// Starts `value` before `first` and returns the local holding the last space.
    fn space_bounds(&mut self, value: u16, first: u16, len: u16, span: Span) -> u16 {
        let last = self.temp();
        self.emit(Op::Push(first as i64 - 1), span);
        self.emit(Op::Store(value), span);
        self.emit(Op::Push(first as i64 + len as i64 - 1), span);
        self.emit(Op::Store(last), span);
        last
    }

    /// `adjacent of space`: the spaces it touches, in board order.
    fn adjacent_loop(
        &mut self,
        arg: &Expr,
        value: u16,
        span: Span,
        body: &mut dyn FnMut(&mut Compiler, u16, &Ty),
    ) -> Ty {
        let board = match self.expr(arg) {
            Ty::Space(b) => b,
            Ty::Error => {
                body(self, value, &Ty::Error);
                return Ty::Error;
            }
            other => {
                let text = self.def.sources.text(arg.span).to_string();
                self.error(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("`adjacent of` needs a space, but `{text}` is {}", other.describe()),
                    )
                    .label(arg.span, format!("this is {}", other.describe()))
                    .help("name a space: `adjacent of centre`, `adjacent of space of pawn`"),
                );
                body(self, value, &Ty::Error);
                return Ty::Error;
            }
        };
        let from = self.temp();
        self.emit(Op::Store(from), arg.span);
        self.emit(Op::Push(-1), span);
        self.emit(Op::Store(value), span);
        let top = self.here();
        let exit = self.emit(
            Op::NextNeighbour {
                board,
                from,
                value,
                exit: 0,
            },
            span,
        );
        let ty = Ty::Space(board);
        body(self, value, &ty);
        self.emit(Op::Jump(top), span);
        let end = self.here();
        self.patch(exit, end);
        ty
    }

    /// `for var in domain { body }`; returns what `var` holds. Pieces can
    /// only be gone through where nothing moves while the loop runs
    /// (`pieces_ok`: sums, offers, action parameters).
    fn for_loop(
        &mut self,
        var: &ast::Ident,
        domain: &Domain,
        span: Span,
        pieces_ok: bool,
        body: &mut dyn FnMut(&mut Compiler),
    ) -> Ty {
        let (domain, cond, none) = split_domain(domain);
        if let Some(none) = none {
            self.error(
                Diagnostic::error(
                    Code::BadDomain,
                    format!("`, or {}` only makes sense in a choice", none.name),
                )
                .label(none.span, "a loop goes through every value")
                .help("remove it, or let a player choose: `P chooses x from ..., or none`"),
            );
        }
        // With `where`, the body runs only for the values that pass.
        let mut body = |c: &mut Compiler| match cond {
            None => body(c),
            Some(cond) => {
                c.expect(cond, &Ty::Bool);
                let skip = c.emit(Op::JumpIfFalse(0), cond.span);
                body(c);
                let next = c.here();
                c.patch(skip, next);
            }
        };
        let body = &mut body;
        let shape = self.domain_shape(domain);
        let scope = self.scope();
        let ty = match shape {
            Shape::Invalid => {
                // Still check the body, so its own mistakes are reported too.
                self.local(&var.name, Ty::Error, 1);
                body(self);
                Ty::Error
            }
            Shape::Pieces if !pieces_ok => {
                self.error(
                    Diagnostic::error(Code::BadDomain, "a `for` loop cannot go through pieces yet")
                        .label(span, "pieces may move while the loop runs")
                        .help("count them with `count ... in ...`, or let a player choose one"),
                );
                self.local(&var.name, Ty::Error, 1);
                body(self);
                Ty::Error
            }
            Shape::Pieces => {
                self.pieces_loop(var, domain, span, body);
                Ty::Piece
            }
            Shape::Spaces(_) | Shape::Range | Shape::Run(..) | Shape::Adjacent => {
                self.f.loops.push(LoopCtx { breaks: vec![] });
                let ty = self.index_loop(domain, &shape, span, &mut |c: &mut Compiler, value: u16, ty: &Ty| {
                    let inner = c.scope();
                    c.loop_value(&var.name, value, ty.clone());
                    body(c);
                    c.close_scope(inner);
                });
                self.close_loop();
                ty
            }
            Shape::Kinds(_) | Shape::Types(_) | Shape::Players => {
                let (count, map, ty) = match shape {
                    Shape::Kinds(s) => (
                        self.def.kind_sets[s as usize].members.len(),
                        Some(Op::KindAt(s)),
                        Ty::Kind,
                    ),
                    Shape::Types(g) => (
                        self.def.groups[g as usize].types.len(),
                        Some(Op::TypeAt(g)),
                        Ty::PieceType,
                    ),
                    _ => (self.def.players(), None, Ty::Seat),
                };
                let index = self.temp();
                self.emit(Op::Push(0), span);
                self.emit(Op::Store(index), span);
                let top = self.here();
                self.emit(Op::Load(index), span);
                self.emit(Op::Push(count as i64), span);
                self.emit(Op::Lt, span);
                let exit = self.emit(Op::JumpIfFalse(0), span);
                let slot = self.local(&var.name, ty.clone(), 1);
                self.emit(Op::Load(index), span);
                if let Some(map) = map {
                    self.emit(map, span);
                }
                self.emit(Op::Store(slot), span);
                self.f.loops.push(LoopCtx { breaks: vec![exit] });
                body(self);
                self.emit(Op::Load(index), span);
                self.emit(Op::Push(1), span);
                self.emit(Op::Add, span);
                self.emit(Op::Store(index), span);
                self.emit(Op::Jump(top), span);
                self.close_loop();
                ty
            }
        };
        self.close_scope(scope);
        ty
    }

    /// The pieces of a zone (top first) or on a board (space by space) that
    /// match a filter. The filter's player or kind is computed once, before
    /// the loop: nothing moves while such a loop runs.
    fn pieces_loop(&mut self, var: &ast::Ident, domain: &Domain, span: Span, body: &mut dyn FnMut(&mut Compiler)) {
        let Domain::Pieces {
            filter,
            place,
            cond,
            wild,
        } = domain
        else {
            unreachable!("only a pieces domain has the pieces shape")
        };
        if let Some((wild_filter, _)) = wild {
            self.error(
                Diagnostic::error(Code::BadDomain, "`with ... as each ...` only makes sense in a choice")
                    .label(wild_filter.span, "a loop goes through the pieces as they are"),
            );
        }
        let matcher = self.matcher(filter);
        let owner = self.temp();
        let key = self.temp();
        if matcher.owner {
            self.emit(Op::Store(owner), filter.span);
        }
        if matches!(matcher.by, MatchBy::TypeOnStack | MatchBy::KindOnStack) {
            self.emit(Op::Store(key), filter.span);
        }
        self.def.filters.push(ir::PieceFilter { matcher, key, owner });
        let filter = (self.def.filters.len() - 1) as u16;
        let piece = self.temp();
        let step = match place {
            ast::PiecePlace::Zone(zone) => {
                let zone_slot = self.temp();
                let index = self.temp();
                self.expect(zone, &Ty::Zone);
                self.emit(Op::Store(zone_slot), zone.span);
                self.emit(Op::Push(-1), span);
                self.emit(Op::Store(index), span);
                Op::NextPiece {
                    zone: zone_slot,
                    index,
                    value: piece,
                    filter,
                    exit: 0,
                }
            }
            ast::PiecePlace::Board(board) => {
                let board = match self.globals.get(&board.name) {
                    Some(Symbol::Board(b)) => b,
                    other => {
                        self.unknown_or_wrong(&board.name, board.span, other, "a board", "boards");
                        0
                    }
                };
                let cursor = self.temp();
                self.emit(Op::Push(-1), span);
                self.emit(Op::Store(cursor), span);
                Op::NextOnBoard {
                    board,
                    cursor,
                    value: piece,
                    filter,
                    exit: 0,
                }
            }
        };
        let top = self.here();
        let exit = self.emit(step, span);
        let inner = self.scope();
        self.loop_value(&var.name, piece, Ty::Piece);
        let mut skip = None;
        if let Some(cond) = cond {
            self.expect(cond, &Ty::Bool);
            skip = Some(self.emit(Op::JumpIfFalse(0), cond.span));
        }
        self.f.loops.push(LoopCtx { breaks: vec![exit] });
        body(self);
        if let Some(at) = skip {
            self.patch(at, top);
        }
        self.close_scope(inner);
        self.emit(Op::Jump(top), span);
        self.close_loop();
    }

    // ------------------------------------------------------------ expressions

    fn expect(&mut self, e: &Expr, wanted: &Ty) {
        let ty = self.expr(e);
        if !ty.fits(wanted) {
            let text = self.def.sources.text(e.span).to_string();
            let mut diag = Diagnostic::error(
                Code::TypeMismatch,
                format!("expected {}, but `{text}` is {}", wanted.describe(), ty.describe()),
            )
            .label(e.span, format!("this is {}", ty.describe()));
            if *wanted == Ty::Seat && ty != Ty::Seat {
                diag = diag.help("name a player: `player 1`, a seat name, or a name such as `winner`");
            } else if *wanted == Ty::Piece && ty == Ty::Zone {
                diag = diag.help(format!("take a piece from the zone: `top of {text}`"));
            } else if *wanted == Ty::Zone && ty == Ty::Piece {
                diag = diag.help("name a zone, such as `hand of player`");
            }
            self.error(diag);
        }
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
                if let Some(near) = nearest(name, candidates) {
                    diag = diag.help(format!("did you mean `{near}`?"));
                } else {
                    diag = diag.help(format!("no {plural} by that name are declared"));
                }
                diag
            }
        };
        self.error(diag);
    }

    fn expr(&mut self, e: &Expr) -> Ty {
        crate::syntax::deeper(|| self.expr_node(e))
    }

    fn expr_node(&mut self, e: &Expr) -> Ty {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(i) => {
                self.emit(Op::Push(*i), span);
                Ty::Int
            }
            ExprKind::Bool(b) => {
                self.emit(Op::Push(i64::from(*b)), span);
                Ty::Bool
            }
            ExprKind::Str(_) => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "text is only used for labels")
                        .label(span, "a string is not a value in the flow")
                        .help("name things directly: `Card`, not `\"Card\"`"),
                );
                Ty::Error
            }
            ExprKind::Seat(n) => {
                let players = self.def.players() as i64;
                if *n < 1 || *n > players {
                    self.error(
                        Diagnostic::error(Code::NoSuchPlayer, format!("there is no player {n}"))
                            .label(span, format!("players are numbered 1 to {players}")),
                    );
                    return Ty::Error;
                }
                self.emit(Op::Push(n - 1), span);
                Ty::Seat
            }
            ExprKind::CurrentPlayer => match self.f.current_player {
                Some(slot) => {
                    self.emit(Op::Load(slot), span);
                    Ty::Seat
                }
                None => {
                    self.error(
                        Diagnostic::error(
                            Code::NoCurrentPlayer,
                            "`player` alone names the player being scored or choosing",
                        )
                        .label(span, "there is no such player here")
                        .help("say which player: `player 1`, `actor`, `winner`"),
                    );
                    Ty::Error
                }
            },
            ExprKind::Players => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "`players` is a set, not a value")
                        .label(span, "use it in `for p in players` or `chooses x from players`"),
                );
                Ty::Error
            }
            ExprKind::TotalScore => {
                let Some(player) = self.f.current_player.filter(|_| self.f.rank_context) else {
                    self.error(
                        Diagnostic::error(Code::MisplacedScore, "`score` is only known in the `result` section")
                            .label(span, "not known here"),
                    );
                    return Ty::Error;
                };
                self.emit(Op::Push(0), span);
                for term in self.def.score_terms.clone() {
                    let skip = term.when.map(|when| {
                        self.emit(Op::Call(when), span);
                        self.emit(Op::JumpIfFalse(0), span)
                    });
                    self.emit(Op::Load(player), span);
                    self.emit(Op::Call(term.proc), span);
                    self.emit(Op::Add, span);
                    if let Some(at) = skip {
                        let next = self.here();
                        self.patch(at, next);
                    }
                }
                Ty::Int
            }
            ExprKind::Name(name) => self.name(name),
            ExprKind::Of { name, arg } => self.of(name, arg, span),
            ExprKind::Call { name, args } => match self.globals.get(&name.name) {
                Some(Symbol::Hook(h)) => self.hook_call(h, name, args, span),
                Some(Symbol::Proc(p)) => {
                    let returns = self.call_proc(p, name, args, span);
                    if returns.len() == 1 {
                        returns[0].clone()
                    } else {
                        self.error(
                            Diagnostic::error(
                                Code::WrongArity,
                                format!("`{}` returns {} values, not one", name.name, returns.len()),
                            )
                            .label(span, "used as a single value")
                            .help("receive them with `let (a, b) = ...`"),
                        );
                        Ty::Error
                    }
                }
                other => {
                    self.unknown_or_wrong(
                        &name.name,
                        name.span,
                        other,
                        "a hook or procedure",
                        "hooks or procedures",
                    );
                    Ty::Error
                }
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span),
            ExprKind::Unary { op, operand } => {
                let wanted = if *op == UnOp::Not { Ty::Bool } else { Ty::Int };
                self.expect(operand, &wanted);
                self.emit(if *op == UnOp::Not { Op::Not } else { Op::Neg }, span);
                wanted
            }
            ExprKind::Count { filter, zone } => {
                let matcher = self.matcher(filter);
                self.expect(zone, &Ty::Zone);
                self.emit(Op::Count(matcher), span);
                Ty::Int
            }
            ExprKind::CountOnBoard { filter, board } => {
                let board_id = match self.globals.get(&board.name) {
                    Some(Symbol::Board(b)) => Some(b),
                    other => {
                        self.unknown_or_wrong(&board.name, board.span, other, "a board", "boards");
                        None
                    }
                };
                let matcher = self.matcher(filter);
                if let Some(board) = board_id {
                    self.emit(Op::CountOnBoard { board, matcher }, span);
                }
                Ty::Int
            }
            ExprKind::SpaceAt { group, index } => {
                let run = match self.globals.get(&group.name) {
                    Some(Symbol::SpaceGroup(b, g)) => {
                        let run = &self.def.boards[b as usize].groups[g as usize];
                        Some((b, run.first, run.len))
                    }
                    Some(Symbol::Board(b)) => Some((b, 0, self.def.boards[b as usize].spaces())),
                    other => {
                        self.unknown_or_wrong(&group.name, group.span, other, "a ring or a board", "rings");
                        None
                    }
                };
                self.expect(index, &Ty::Int);
                match run {
                    Some((board, first, len)) => {
                        self.emit(Op::SpaceIn { first, len }, span);
                        Ty::Space(board)
                    }
                    None => Ty::Error,
                }
            }
            ExprKind::First { filter, zone } => {
                let matcher = self.matcher(filter);
                self.expect(zone, &Ty::Zone);
                self.emit(Op::First(matcher), span);
                Ty::Piece
            }
            ExprKind::Lines { filter, slot, board } => {
                let board_id = match self.globals.get(&board.name) {
                    Some(Symbol::Board(b)) => b,
                    other => {
                        self.unknown_or_wrong(&board.name, board.span, other, "a board", "boards");
                        return Ty::Error;
                    }
                };
                let family = match self.globals.get(&slot.name) {
                    Some(Symbol::Family(f)) if self.def.families[f as usize].by == FamilyIndex::PerSpace(board_id) => f,
                    other => {
                        self.unknown_or_wrong(
                            &slot.name,
                            slot.span,
                            other,
                            &format!("a slot of board `{}`", board.name),
                            "slots",
                        );
                        return Ty::Error;
                    }
                };
                let matcher = self.matcher(filter);
                self.emit(
                    Op::Lines {
                        board: board_id,
                        family,
                        matcher,
                    },
                    span,
                );
                Ty::Int
            }
            ExprKind::Sum { var, domain, body } => {
                let scope = self.scope();
                let total = self.temp();
                self.emit(Op::Push(0), span);
                self.emit(Op::Store(total), span);
                self.for_loop(var, domain, span, true, &mut |c: &mut Compiler| {
                    c.emit(Op::Load(total), span);
                    c.expect(body, &Ty::Int);
                    c.emit(Op::Add, span);
                    c.emit(Op::Store(total), span);
                });
                self.emit(Op::Load(total), span);
                self.close_scope(scope);
                Ty::Int
            }
            ExprKind::Table { table, index } => {
                let op = match table {
                    ast::TableRef::Inline(values) => {
                        self.def.tables.push(values.clone());
                        Some(Op::Table((self.def.tables.len() - 1) as u16))
                    }
                    ast::TableRef::Named(name) => match self.globals.get(&name.name) {
                        Some(Symbol::Table(t)) => Some(Op::Table(t)),
                        Some(Symbol::Option(o))
                            if matches!(self.def.options[o as usize].ty, OptionType::IntList { .. }) =>
                        {
                            Some(Op::OptionTable(o))
                        }
                        other => {
                            self.unknown_or_wrong(&name.name, name.span, other, "a table or a list option", "tables");
                            None
                        }
                    },
                };
                self.expect(index, &Ty::Int);
                if let Some(op) = op {
                    self.emit(op, span);
                }
                Ty::Int
            }
            ExprKind::If { cond, then, otherwise } => {
                self.expect(cond, &Ty::Bool);
                let to_else = self.emit(Op::JumpIfFalse(0), cond.span);
                let ty = self.expr(then);
                let to_end = self.emit(Op::Jump(0), span);
                let else_at = self.here();
                self.patch(to_else, else_at);
                self.expect(otherwise, &ty);
                let end = self.here();
                self.patch(to_end, end);
                ty
            }
            ExprKind::Tuple(_) => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "a list of values only follows `return`").label(span, "here"),
                );
                Ty::Error
            }
        }
    }

    fn name(&mut self, name: &ast::Ident) -> Ty {
        let span = name.span;
        if let Some((slot, ty)) = self.find_local(&name.name) {
            if let Ty::PerPlayer(_) = ty {
                self.error(
                    Diagnostic::error(
                        Code::MissingPlayer,
                        format!("`{}` holds one choice per player", name.name),
                    )
                    .label(span, "whose?")
                    .help(format!("write `{} of player 1`", name.name)),
                );
                return Ty::Error;
            }
            self.emit(Op::Load(slot), span);
            return ty;
        }
        if self.f.rank_context
            && let Some(&proc) = self.score_terms.get(&name.name)
        {
            let player = self.f.current_player.unwrap_or(0);
            self.emit(Op::Load(player), span);
            self.emit(Op::Call(proc), span);
            return Ty::Int;
        }
        match self.globals.get(&name.name) {
            Some(Symbol::Seat(s)) => {
                self.emit(Op::Push(s as i64), span);
                Ty::Seat
            }
            Some(Symbol::Kind(k)) => {
                self.emit(Op::Push(k as i64), span);
                Ty::Kind
            }
            Some(Symbol::PieceType(t)) => {
                self.emit(Op::Push(t as i64), span);
                Ty::PieceType
            }
            Some(Symbol::SpaceGroup(b, g)) => {
                let run = self.def.boards[b as usize].groups[g as usize].clone();
                if run.len == 1 {
                    self.emit(Op::Push(run.first as i64), span);
                    return Ty::Space(b);
                }
                self.error(
                    Diagnostic::error(
                        Code::MissingIndex,
                        format!("`{}` is a ring of {} spaces, not one space", name.name, run.len),
                    )
                    .label(span, "which one?")
                    .help(format!(
                        "write `{}[i]` for one of them (counting from 0), or go through them with `for s in {}`",
                        name.name, name.name
                    )),
                );
                Ty::Error
            }
            Some(Symbol::Option(o)) => {
                self.emit(Op::LoadOption(o), span);
                match &self.def.options[o as usize].ty {
                    OptionType::Bool => Ty::Bool,
                    OptionType::Int { .. } => Ty::Int,
                    OptionType::Enum(_) => Ty::Enum(o),
                    OptionType::IntList { .. } => {
                        self.error(
                            Diagnostic::error(Code::TypeMismatch, format!("option `{}` is a list", name.name))
                                .label(span, "a list cannot be used as one value"),
                        );
                        Ty::Error
                    }
                }
            }
            Some(Symbol::Var(v)) => {
                let def = self.def.vars[v as usize].clone();
                if def.per_player {
                    self.error(
                        Diagnostic::error(Code::MissingPlayer, format!("`{}` is kept per player", name.name))
                            .label(span, "whose?")
                            .help(format!("write `{} of <player>`", name.name)),
                    );
                    return Ty::Error;
                }
                self.emit(Op::LoadVar(def.slot), span);
                self.var_types[v as usize].clone()
            }
            Some(Symbol::Family(f)) => {
                let family = self.def.families[f as usize].clone();
                match family.by {
                    FamilyIndex::Single => {
                        self.emit(Op::Push(family.first as i64), span);
                        Ty::Zone
                    }
                    FamilyIndex::PerPlayer => {
                        self.error(
                            Diagnostic::error(Code::MissingPlayer, format!("there is one `{}` per player", name.name))
                                .label(span, "whose?")
                                .help(format!("write `{} of <player>`", name.name)),
                        );
                        Ty::Error
                    }
                    FamilyIndex::PerSpace(b) => {
                        let board = self.def.boards[b as usize].name.clone();
                        self.error(
                            Diagnostic::error(
                                Code::MissingSpace,
                                format!("there is one `{}` per space of `{board}`", name.name),
                            )
                            .label(span, "which space?")
                            .help(format!(
                                "write `{} of <space>`, e.g. inside `for location in {board}`",
                                name.name
                            )),
                        );
                        Ty::Error
                    }
                }
            }
            other => {
                self.unknown_or_wrong(&name.name, span, other, "a value", "values");
                Ty::Error
            }
        }
    }

    fn of(&mut self, name: &ast::Ident, arg: &Expr, span: Span) -> Ty {
        let shadowed = self.find_local(&name.name).is_some() || self.globals.names.contains_key(&name.name);
        if !shadowed && BUILTINS.contains(&name.name.as_str()) {
            return self.builtin(&name.name, arg, span);
        }
        if let Some((slot, ty)) = self.find_local(&name.name) {
            if let Ty::PerPlayer(inner) = ty {
                self.expect(arg, &Ty::Seat);
                self.emit(Op::LoadAt(slot), span);
                return *inner;
            }
            self.error(
                Diagnostic::error(
                    Code::TypeMismatch,
                    format!("`{}` is one value, not one per player", name.name),
                )
                .label(name.span, format!("`{}` is {}", name.name, ty.describe())),
            );
            return Ty::Error;
        }
        match self.globals.get(&name.name) {
            Some(Symbol::Family(f)) => {
                let family = self.def.families[f as usize].clone();
                match family.by {
                    FamilyIndex::PerPlayer => self.expect(arg, &Ty::Seat),
                    FamilyIndex::PerSpace(b) => self.expect(arg, &Ty::Space(b)),
                    FamilyIndex::Single => {
                        self.error(
                            Diagnostic::error(Code::TypeMismatch, format!("there is only one `{}`", name.name))
                                .label(span, format!("write just `{}`", name.name)),
                        );
                        return Ty::Error;
                    }
                }
                self.emit(Op::ZoneOf(f), span);
                Ty::Zone
            }
            Some(Symbol::Var(v)) => {
                let def = self.def.vars[v as usize].clone();
                if !def.per_player {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is one value, not one per player", name.name),
                        )
                        .label(span, format!("write just `{}`", name.name)),
                    );
                    return Ty::Error;
                }
                self.expect(arg, &Ty::Seat);
                self.emit(Op::LoadVarAt(def.slot), span);
                self.var_types[v as usize].clone()
            }
            other => {
                let mut diag_name = name.name.clone();
                if other.is_none() {
                    // Suggest built-ins too.
                    let mut candidates: Vec<&str> = self.globals.all_names().collect();
                    candidates.extend(BUILTINS);
                    let mut diag = Diagnostic::error(Code::UnknownName, format!("unknown name `{}`", name.name)).label(
                        name.span,
                        "not a zone, a per-player value or a built-in such as `top of`",
                    );
                    if let Some(near) = nearest(&name.name, candidates) {
                        diag = diag.help(format!("did you mean `{near}`?"));
                    }
                    self.error(diag);
                    return Ty::Error;
                }
                diag_name.push_str(" of ...");
                self.unknown_or_wrong(&name.name, name.span, other, "a zone or a per-player value", "zones");
                Ty::Error
            }
        }
    }

    fn builtin(&mut self, name: &str, arg: &Expr, span: Span) -> Ty {
        match name {
            "top" | "bottom" | "size" => {
                self.expect(arg, &Ty::Zone);
                match name {
                    "top" => {
                        self.emit(Op::Top, span);
                        Ty::Piece
                    }
                    "bottom" => {
                        self.emit(Op::Bottom, span);
                        Ty::Piece
                    }
                    _ => {
                        self.emit(Op::Size, span);
                        Ty::Int
                    }
                }
            }
            "kind" | "value" | "owner" | "type" => {
                self.expect(arg, &Ty::Piece);
                let (attr, ty) = match name {
                    "kind" => (Attr::Kind, Ty::Kind),
                    "value" => (Attr::Value, Ty::Int),
                    "owner" => (Attr::Owner, Ty::Seat),
                    _ => (Attr::Type, Ty::PieceType),
                };
                self.emit(Op::Attr(attr), span);
                ty
            }
            "space" => {
                self.expect(arg, &Ty::Piece);
                match self.only_board(span, "`space of`") {
                    Some(b) => {
                        self.emit(Op::SpaceOf(b), span);
                        Ty::Space(b)
                    }
                    None => Ty::Error,
                }
            }
            "adjacent" => {
                self.error(
                    Diagnostic::error(Code::TypeMismatch, "`adjacent of` is a set of spaces, not one value")
                        .label(span, "use it where spaces are gone through")
                        .help("write `for s in adjacent of x { ... }` or `chooses s from adjacent of x`"),
                );
                Ty::Error
            }
            "opponent" => {
                if self.def.players() != 2 {
                    self.error(
                        Diagnostic::error(
                            Code::NoSingleOpponent,
                            format!("with {} players there is no single opponent", self.def.players()),
                        )
                        .label(span, "`opponent of` needs exactly two players")
                        .help("use `next of P` for the player after P"),
                    );
                }
                self.expect(arg, &Ty::Seat);
                self.emit(Op::Opponent, span);
                Ty::Seat
            }
            _ => {
                self.expect(arg, &Ty::Seat);
                self.emit(Op::NextSeat, span);
                Ty::Seat
            }
        }
    }

    fn hook_call(&mut self, hook: u16, name: &ast::Ident, args: &[Expr], span: Span) -> Ty {
        let def = self.def.hooks[hook as usize].clone();
        if def.params.len() != args.len() {
            self.error(
                Diagnostic::error(
                    Code::WrongArity,
                    format!(
                        "hook `{}` takes {} arguments, not {}",
                        name.name,
                        def.params.len(),
                        args.len()
                    ),
                )
                .label(span, format!("{} given", args.len()))
                .label(def.span, "declared here"),
            );
        }
        let mut kinds = vec![];
        for arg in args {
            let ty = self.expr(arg);
            kinds.push(match ty {
                Ty::Int | Ty::Error | Ty::Enum(_) => HookArg::Int,
                Ty::Bool => HookArg::Bool,
                Ty::Seat => HookArg::Player,
                Ty::Kind => HookArg::Kind,
                Ty::PieceType => HookArg::PieceType,
                Ty::Piece => HookArg::Piece,
                other => {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("{} cannot be passed to a hook", other.describe()),
                        )
                        .label(
                            arg.span,
                            "hooks take numbers, true/false, players, kinds, piece types and pieces",
                        ),
                    );
                    HookArg::Int
                }
            });
        }
        self.def.hook_calls.push(ir::HookCall {
            hook,
            args: kinds,
            span,
        });
        self.emit(Op::CallHook((self.def.hook_calls.len() - 1) as u16), span);
        if def.returns_bool { Ty::Bool } else { Ty::Int }
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, span: Span) -> Ty {
        match op {
            BinOp::And | BinOp::Or => {
                self.expect(lhs, &Ty::Bool);
                self.emit(Op::Dup, span);
                let short = self.emit(
                    if op == BinOp::And {
                        Op::JumpIfFalse(0)
                    } else {
                        Op::JumpIfTrue(0)
                    },
                    span,
                );
                self.emit(Op::Pop, span);
                self.expect(rhs, &Ty::Bool);
                let end = self.here();
                self.patch(short, end);
                Ty::Bool
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
                self.expect(lhs, &Ty::Int);
                self.expect(rhs, &Ty::Int);
                self.emit(
                    match op {
                        BinOp::Add => Op::Add,
                        BinOp::Sub => Op::Sub,
                        BinOp::Mul => Op::Mul,
                        BinOp::Div => Op::Div,
                        _ => Op::Rem,
                    },
                    span,
                );
                Ty::Int
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.expect(lhs, &Ty::Int);
                self.expect(rhs, &Ty::Int);
                self.emit(
                    match op {
                        BinOp::Lt => Op::Lt,
                        BinOp::Le => Op::Le,
                        BinOp::Gt => Op::Gt,
                        _ => Op::Ge,
                    },
                    span,
                );
                Ty::Bool
            }
            BinOp::Beats => {
                self.expect(lhs, &Ty::Kind);
                self.expect(rhs, &Ty::Kind);
                self.emit(Op::Beats, span);
                Ty::Bool
            }
            BinOp::Eq | BinOp::Ne => {
                let left = self.expr(lhs);
                let right = match (&left, &rhs.kind) {
                    (Ty::Enum(o), ExprKind::Name(n)) if self.find_local(&n.name).is_none() => {
                        let OptionType::Enum(names) = &self.def.options[*o as usize].ty else {
                            unreachable!()
                        };
                        match names.iter().position(|v| *v == n.name) {
                            Some(i) => {
                                self.emit(Op::Push(i as i64), rhs.span);
                                left.clone()
                            }
                            None => {
                                let option = self.def.options[*o as usize].name.clone();
                                let mut diag = Diagnostic::error(
                                    Code::UnknownName,
                                    format!("option `{option}` has no value `{}`", n.name),
                                )
                                .label(rhs.span, format!("expected one of {}", names.join(", ")));
                                if let Some(near) = nearest(&n.name, names.iter().map(String::as_str)) {
                                    diag = diag.help(format!("did you mean `{near}`?"));
                                }
                                self.error(diag);
                                Ty::Error
                            }
                        }
                    }
                    _ => self.expr(rhs),
                };
                if !right.fits(&left) || matches!(left, Ty::PerPlayer(_)) {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("cannot compare {} with {}", left.describe(), right.describe()),
                        )
                        .label(lhs.span, left.describe())
                        .label(rhs.span, right.describe()),
                    );
                }
                self.emit(if op == BinOp::Eq { Op::Eq } else { Op::Ne }, span);
                Ty::Bool
            }
        }
    }

    /// Compiles a filter's stack arguments and returns its matcher.
    fn matcher(&mut self, filter: &ast::Filter) -> Matcher {
        let name = &filter.name;
        let by = if let Some((slot, ty)) = self.find_local(&name.name) {
            match ty {
                Ty::PieceType => {
                    self.emit(Op::Load(slot), name.span);
                    MatchBy::TypeOnStack
                }
                Ty::Kind => {
                    self.emit(Op::Load(slot), name.span);
                    MatchBy::KindOnStack
                }
                other => {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is {}, so it cannot pick out pieces", name.name, other.describe()),
                        )
                        .label(name.span, "expected a piece type, a group or a kind"),
                    );
                    MatchBy::Any
                }
            }
        } else {
            match self.globals.get(&name.name) {
                Some(Symbol::PieceType(t)) => MatchBy::Type(t),
                Some(Symbol::Group(g)) => MatchBy::Group(g),
                Some(Symbol::Kind(k)) => {
                    self.emit(Op::Push(k as i64), name.span);
                    MatchBy::KindOnStack
                }
                other => {
                    self.unknown_or_wrong(
                        &name.name,
                        name.span,
                        other,
                        "a piece type, a group or a kind",
                        "piece types",
                    );
                    MatchBy::Any
                }
            }
        };
        let owner = match &filter.owner {
            Some(owner) => {
                self.expect(owner, &Ty::Seat);
                true
            }
            None => false,
        };
        Matcher { by, owner }
    }
}

#[derive(Clone, Copy)]
enum Shape {
    Kinds(u16),
    Types(u16),
    Players,
    /// Every space of a board.
    Spaces(u16),
    /// A ring or a single space: (board, first space, length).
    Run(u16, u16, u16),
    /// `adjacent of SPACE`
    Adjacent,
    Range,
    Pieces,
    Invalid,
}

/// A domain's values, its `where` condition and its named "no choice".
fn split_domain(domain: &Domain) -> (&Domain, Option<&Expr>, Option<&ast::Ident>) {
    match domain {
        Domain::Where(inner, cond) => {
            let (core, _, none) = split_domain(inner);
            (core, Some(cond), none)
        }
        Domain::OrNone(inner, none) => {
            let (core, cond, _) = split_domain(inner);
            (core, cond, Some(none))
        }
        other => (other, None, None),
    }
}

/// Numbers an action's parameter may hold: 0 to this, exclusive.
const ACTION_NUMBER_RADIX: i64 = 1 << 16;

/// What a parameter of an action holds.
fn ty_of_choice(kind: &ChoiceKind) -> Ty {
    match kind {
        ChoiceKind::Kind => Ty::Kind,
        ChoiceKind::Player => Ty::Seat,
        ChoiceKind::Space(b) => Ty::Space(*b),
        ChoiceKind::PieceType => Ty::PieceType,
        ChoiceKind::Piece => Ty::Piece,
        _ => Ty::Int,
    }
}

/// How a decision over values of `ty` labels them.
fn choice_kind_of(ty: &Ty) -> ChoiceKind {
    match ty {
        Ty::Kind => ChoiceKind::Kind,
        Ty::Seat => ChoiceKind::Player,
        Ty::Space(b) => ChoiceKind::Space(*b),
        Ty::PieceType => ChoiceKind::PieceType,
        Ty::Piece => ChoiceKind::Piece,
        _ => ChoiceKind::Number,
    }
}
