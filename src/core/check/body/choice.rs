//! Decisions over values: `chooses`, `each player chooses`, races and
//! drafts, and the offers that list what may be chosen.

use std::collections::HashMap;

use super::writer::JumpKind;
use super::{Compiler, choice_kind_of, none_condition, split_domain};
use crate::check::ids::{self, Table};
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{self, ChoiceKind, MatchBy, Matcher, Op};
use crate::syntax::ast::{self, Domain, Expr};

impl Compiler {
    /// `who chooses var from domain`, with an `else` block for when
    /// nothing is on offer.
    pub(super) fn choose(
        &mut self,
        who: &Expr,
        var: &ast::Ident,
        domain: &Domain,
        secret: bool,
        otherwise: Option<&ast::Block>,
        span: Span,
    ) {
        let decision_index = self.next_id(self.def.decisions.len(), Table::Decisions, span);
        let scope = self.scope();
        let seat = self.temp();
        self.expect(who, &Ty::Seat);
        self.emit(Op::Store(seat), who.span);
        self.emit(Op::ChoiceReset, span);
        let (choice_kind, elem) = self.offer(domain, seat, var, span);
        let to_else = otherwise.map(|_| {
            self.emit(Op::Load(seat), span);
            self.emit(Op::HasOffers(decision_index), span);
            self.emit_jump(JumpKind::IfFalse, span)
        });
        self.emit(Op::Load(seat), span);
        self.push_decision(var, choice_kind, secret, false, domain, span);
        self.emit(Op::Ask(decision_index), span);
        self.close_scope(scope);
        let slot = self.local(&var.name, elem.clone(), 1);
        self.emit(Op::Store(slot), span);
        self.bind_none(domain, &elem, span);
        if let (Some(to_else), Some(block)) = (to_else, otherwise) {
            // "The player that could not play a valid card": when
            // nothing is on offer, the `else` block runs instead.
            let to_end = self.emit_jump(JumpKind::Always, span);
            self.patch_here(to_else);
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
            self.patch_here(to_end);
        }
    }

    /// `each player chooses` and `race each player calls`: every seat is
    /// offered its values, then all answer at once. A race also records each
    /// answer's reaction time under `time`.
    pub(super) fn choose_each(
        &mut self,
        var: &ast::Ident,
        domain: &Domain,
        secret: bool,
        time: Option<&ast::Ident>,
        span: Span,
    ) {
        let players = ids::index(self.def.players());
        let decision_index = self.next_id(self.def.decisions.len(), Table::Decisions, span);
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

    pub(super) fn push_decision(
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
    pub(super) fn bind_none(&mut self, domain: &Domain, elem: &Ty, span: Span) {
        if let (_, _, Some(none)) = split_domain(domain) {
            let slot = self.local(&none.name, elem.clone(), 1);
            self.emit(Op::Push(ir::NO_CHOICE), span);
            self.emit(Op::Store(slot), span);
        }
    }

    /// Emits code offering every value of `domain` (and its named "no
    /// choice", if any) to the seat in local `seat`.
    pub(super) fn offer(&mut self, domain: &Domain, seat: u16, var: &ast::Ident, span: Span) -> (ChoiceKind, Ty) {
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
            // `, or pass when bid > 0`: withheld while the condition is false.
            let withheld = none_condition(domain).map(|cond| {
                self.expect(cond, &Ty::Bool);
                self.emit_jump(JumpKind::IfFalse, cond.span)
            });
            self.emit(Op::Load(seat), span);
            self.emit(Op::Push(ir::NO_CHOICE), span);
            self.emit(Op::ChoiceAdd, span);
            if let Some(withheld) = withheld {
                self.patch_here(withheld);
            }
        }
        result
    }

    /// Offers the piece value on top of the stack to `seat` if every
    /// condition holds with `var` bound to it.
    fn offer_piece(&mut self, seat: u16, var: &ast::Ident, conds: &[&Expr], span: Span) {
        let scope = self.scope();
        let slot = self.local(&var.name, Ty::Piece, 1);
        self.emit(Op::Store(slot), span);
        let mut skips = vec![];
        for cond in conds {
            self.expect(cond, &Ty::Bool);
            skips.push(self.emit_jump(JumpKind::IfFalse, cond.span));
        }
        self.emit(Op::Load(seat), span);
        self.emit(Op::Load(slot), span);
        self.emit(Op::ChoiceAdd, span);
        self.patch_all_here(skips);
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
        let every_piece = self.next_id(self.def.filters.len(), Table::PieceFilters, span);
        self.def.filters.push(ir::PieceFilter {
            matcher: Matcher {
                by: MatchBy::Any,
                owner: false,
            },
            key: unused,
            owner: unused,
        });
        let top = self.here();
        let exit = self.emit_loop_step(
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
        let skip = self.emit_jump(JumpKind::IfFalse, filter.span);
        // A wild piece is offered once per kind, carrying that kind.
        let wild_matcher = self.matcher(wild_filter);
        self.emit(Op::Load(raw), wild_filter.span);
        self.emit(Op::Matches(wild_matcher), wild_filter.span);
        let not_wild = self.emit_jump(JumpKind::IfFalse, wild_filter.span);
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
        self.emit_jump_back(JumpKind::Always, top, span);
        self.patch_here(not_wild);
        self.emit(Op::Load(raw), span);
        self.offer_piece(seat, var, &conds, span);
        self.patch_here(skip);
        self.emit_jump_back(JumpKind::Always, top, span);
        self.patch_here(exit);
        self.close_scope(scope);
        (ChoiceKind::Piece, Ty::Piece)
    }

    pub(super) fn draft(&mut self, choosers: &[Expr], entries: &[ast::DraftEntry], span: Span) {
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
        let decision = self.next_id(self.def.decisions.len(), Table::Decisions, span);
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
                let skip = self.emit_jump(JumpKind::IfTrue, entry.label_span);
                let mut skip_when = None;
                if let Some(cond) = &entry.when {
                    self.expect(cond, &Ty::Bool);
                    skip_when = Some(self.emit_jump(JumpKind::IfFalse, cond.span));
                }
                self.emit(Op::Load(actor), entry.label_span);
                self.emit(Op::Push(i as i64), entry.label_span);
                self.emit(Op::ChoiceAdd, entry.label_span);
                self.patch_here(skip);
                if let Some(skip_when) = skip_when {
                    self.patch_here(skip_when);
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
                let next = self.emit_jump(JumpKind::IfFalse, entry.label_span);
                self.emit(Op::Push(1), entry.label_span);
                self.emit(Op::Store(taken[i]), entry.label_span);
                if !self.block(&entry.body) {
                    to_end.push(self.emit_jump(JumpKind::Always, entry.label_span));
                }
                self.patch_here(next);
            }
            self.patch_all_here(to_end);
            self.close_scope(inner);
        }
        self.close_scope(scope);
    }
}
