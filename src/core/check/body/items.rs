//! The top-level declarations: variables' starting values, pieces,
//! procedures, `anytime` actions, triggers, scoring and the flow itself.

use std::collections::HashMap;

use super::{Compiler, ProcState};
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{self, FamilyIndex, GameDef, Op, ProcId};
use crate::syntax::ast::{self, Expr, ExprKind, Item};

impl Compiler {
    pub(crate) fn compile_bodies(&mut self, items: &[Item]) {
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
        self.place_piece_vars(items);
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

    pub(crate) fn finish(mut self) -> (GameDef, Vec<Diagnostic>) {
        // `result_pc` was relative to the main procedure.
        self.def.result_pc += self.def.procs[self.def.main as usize].entry;
        self.settle_order_reads();
        self.settle_content_reads();
        self.settle_open_information();
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
                    each: ast::VarEach::Game,
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
            let per_player = decl.each == ast::VarEach::Player;
            let params = if per_player {
                vec![("player".to_string(), Ty::Seat)]
            } else {
                vec![]
            };
            let saved = self.begin(proc, &params);
            if per_player {
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

    /// Gives each per-piece variable its slots, after every other
    /// variable's, now that the pieces are known.
    fn place_piece_vars(&mut self, items: &[Item]) {
        for item in items {
            let Item::Var(decl) = item else { continue };
            let Some(Symbol::Var(var)) = self.globals.names.get(&decl.name.name).map(|(s, _)| *s) else {
                continue;
            };
            if self.def.vars[var as usize].each != ir::VarEach::Piece {
                continue;
            }
            let width = self.def.pieces.len().max(1);
            match crate::check::ids::first_of(
                self.def.var_slots,
                width,
                crate::check::ids::Table::VariableValues,
                decl.name.span,
            ) {
                Ok(slot) => {
                    self.def.vars[var as usize].slot = slot;
                    self.def.var_slots += width;
                }
                Err(full) => self.error(full),
            }
        }
    }

    fn compile_pieces(&mut self, items: &[Item]) {
        let count_names = super::counts::CountNames::new(items);
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
                let faces = match &entry.faces {
                    None => None,
                    Some((low, high, span)) => match (self.face_bound(low), self.face_bound(high)) {
                        (Some(low), Some(high)) => {
                            if let (ir::FaceBound::Number(l), ir::FaceBound::Number(h)) = (low, high)
                                && (h < l || h - l > 1000)
                            {
                                self.error(
                                    Diagnostic::error(
                                        Code::BadPieceCount,
                                        format!("a die with faces {l}..{h} has no usable faces"),
                                    )
                                    .label(*span, "here")
                                    .help("write the lowest face first, e.g. `with faces 1..6` (at most 1001 faces)"),
                                );
                                continue;
                            }
                            Some((low, high))
                        }
                        _ => continue,
                    },
                };
                let owner_count = if entry.per_player { self.def.players() } else { 1 };
                let Some(counts) = self.piece_counts(entry, &count_names, kinds.len(), owner_count) else {
                    continue;
                };
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
                        (FamilyIndex::PerPlayer, Some(seat)) => fam.first + u16::from(*seat),
                        _ => fam.first,
                    };
                    for kind in &kinds {
                        for value in counts.low..=counts.high {
                            for copy in 0..counts.copies {
                                self.def.pieces.push(ir::Piece {
                                    ty,
                                    kind: *kind,
                                    value,
                                    owner: *owner,
                                    home,
                                    kind_hidden: entry.kind_hidden,
                                    when,
                                    counted: counts.bounds.map(|bounds| ir::Counted {
                                        bounds,
                                        copy: crate::check::ids::index(copy),
                                    }),
                                    faces,
                                });
                            }
                        }
                    }
                }
            }
        }
    }

    /// One end of a die's faces: a number, or an `int` option (whose
    /// value the engine reads when it rolls).
    fn face_bound(&mut self, bound: &ast::FaceBound) -> Option<ir::FaceBound> {
        match bound {
            ast::FaceBound::Number(n) => Some(ir::FaceBound::Number(*n)),
            ast::FaceBound::Name(name) => match self.globals.get(&name.name) {
                Some(Symbol::Option(o)) if matches!(self.def.options[o as usize].ty, ir::OptionType::Int { .. }) => {
                    Some(ir::FaceBound::Option(o))
                }
                other => {
                    self.unknown_or_wrong(&name.name, name.span, other, "a number option", "options");
                    None
                }
            },
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
                        "write `{}: player` (or number, bool, kind, piece, zone, type, space, direction)",
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
                "direction" => Ty::Direction,
                "space" => match self.only_board(param.name.span, "a `space` parameter") {
                    Some(b) => Ty::Space(b),
                    None => Ty::Error,
                },
                _ => Ty::PieceType,
            },
        }
    }

    pub(super) fn compile_user_proc(&mut self, id: ProcId) {
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
                let message = self.fail_message(
                    format!("procedure `{}` ended without returning its results", decl.name.name),
                    decl.body.span,
                );
                self.emit(Op::Fail(message), decl.body.span);
            }
        }
        self.end(saved);
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
                    tie_breaker: term.tie_breaker,
                });
                self.no_decisions.push((proc, term.name.span, "a score term"));
            }
        }
        for item in items {
            let Item::Result(result) = item else { continue };
            for key in &result.keys {
                let label = self.def.sources.text(key.value.span).to_string();
                let proc = self.player_function(&format!("rank by {label}"), &key.value, true);
                let reads = self.key_reads(&key.value, proc);
                self.note_key_leads(proc);
                self.def.rank_keys.push(ir::RankKey {
                    label,
                    most: key.most,
                    proc,
                    reads,
                });
                self.no_decisions.push((proc, key.value.span, "a result key"));
            }
        }
    }

    /// Whether a result key compiled into `proc` is `score` or just the
    /// name of a score term without `when` (the key does not ask it), which
    /// the engine may read from the points it just scored instead of
    /// computing them again.
    fn key_reads(&self, value: &Expr, proc: ProcId) -> ir::KeyReads {
        let entry = self.def.procs[usize::from(proc)].entry as usize;
        match &value.kind {
            ExprKind::TotalScore => ir::KeyReads::Points,
            // The name was compiled into a call of the term (not, say, a
            // local or a variable that happens to share it).
            ExprKind::Name(_) => match self.def.code.get(entry..entry + 3) {
                Some(&[Op::Load(0), Op::Call(called), Op::Return]) => self
                    .def
                    .score_terms
                    .iter()
                    .position(|term| term.proc == called && term.when.is_none())
                    .and_then(|t| u16::try_from(t).ok())
                    .map_or(ir::KeyReads::Other, ir::KeyReads::Term),
                _ => ir::KeyReads::Other,
            },
            _ => ir::KeyReads::Other,
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
                    .label(
                        crate::diagnostic::Span::file_start(0),
                        "expected a `flow { ... }` section",
                    )
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
}
