//! `who chooses { "label" ... }`: one decision among actions, each with
//! its parameters and labels.

use std::collections::HashMap;

use super::writer::JumpKind;
use super::{Compiler, choice_kind_of};
use crate::check::ids::Table;
use crate::check::types::Ty;
use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::ir::{self, ChoiceKind, Op};
use crate::syntax::ast::{self, Expr};

impl Compiler {
    /// `who chooses { "label" for p in D, ... when cond { body } ... }`: one
    /// decision among actions, each offered once for every combination of
    /// its parameters that passes its conditions.
    pub(super) fn choose_actions(
        &mut self,
        who: &Expr,
        actions: &[ast::ActionEntry],
        otherwise: Option<&ast::Block>,
        span: Span,
    ) {
        let scope = self.scope();
        let seat = self.temp();
        self.expect(who, &Ty::Seat);
        self.emit(Op::Store(seat), who.span);
        self.emit(Op::ChoiceReset, span);
        let decision = self.next_id(self.def.decisions.len(), Table::Decisions, span);
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
        // Each entry's id, as its actions carry it.
        let mut entry_ids = vec![];
        for (i, entry) in actions.iter().enumerate() {
            let entry_id = self.next_id(i, Table::Actions, entry.label_span);
            entry_ids.push(entry_id);
            self.check_action_names(entry, &mut labels);
            let inner = self.scope();
            let actor = self.local("actor", Ty::Seat, 1);
            self.emit(Op::Load(seat), entry.label_span);
            self.emit(Op::Store(actor), entry.label_span);
            let skip = entry.when.as_ref().map(|cond| {
                self.expect(cond, &Ty::Bool);
                self.emit_jump(JumpKind::IfFalse, cond.span)
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
                        entry: entry_id,
                    },
                    at,
                );
                c.emit(Op::ChoiceAdd, at);
            });
            if let Some(skip) = skip {
                self.patch_here(skip);
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
        // "A player who cannot move passes": with nothing on offer, the
        // `else` block runs instead of asking.
        let to_else = otherwise.map(|_| {
            self.emit(Op::Load(seat), span);
            self.emit(Op::HasOffers(decision), span);
            self.emit_jump(JumpKind::IfFalse, span)
        });
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
            let next = self.emit_jump(JumpKind::IfFalse, at);
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
                        entry: entry_ids[i],
                        param: k as u8,
                    },
                    name.span,
                );
                self.emit(Op::Store(slot), name.span);
            }
            if !self.block(&entry.body) {
                to_end.push(self.emit_jump(JumpKind::Always, at));
            }
            self.close_scope(inner);
            self.patch_here(next);
        }
        if let (Some(to_else), Some(block)) = (to_else, otherwise) {
            to_end.push(self.emit_jump(JumpKind::Always, span));
            self.patch_here(to_else);
            self.block(block);
        }
        self.patch_all_here(to_end);
        self.close_scope(scope);
    }

    /// Each action's label is its own, and so is each of its parameters' names.
    fn check_action_names<'a>(&mut self, entry: &'a ast::ActionEntry, labels: &mut HashMap<&'a str, Span>) {
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
            ChoiceKind::Direction => ir::grid::DIRECTIONS.len(),
            ChoiceKind::Menu(_) | ChoiceKind::Actions(_) => 1,
        };
        n.max(1) as i64
    }

    /// "move {stone} to {to}" as text and parameters.
    fn action_label(&mut self, entry: &ast::ActionEntry) -> Vec<ir::LabelPart> {
        let mut parts = vec![];
        let Ok(pieces) = placeholders(&entry.label) else {
            self.error(
                Diagnostic::error(Code::BadLabel, "a `{` in this label is never closed")
                    .label(entry.label_span, "here")
                    .help("write `{name}` to show a parameter's value"),
            );
            return parts;
        };
        for piece in pieces {
            let name = match piece {
                Placeholder::Text(text) => {
                    parts.push(ir::LabelPart::Text(text.to_string()));
                    continue;
                }
                Placeholder::Name(range) => entry.label[range].trim(),
            };
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
        }
        parts
    }
}

/// A piece of a text with `{name}` placeholders.
pub(super) enum Placeholder<'t> {
    /// Words, as written.
    Text(&'t str),
    /// Where a placeholder's name stands in the text, braces left out.
    Name(std::ops::Range<usize>),
}

/// "move {stone} to {to}" cut into words and placeholders; `Err` when a
/// `{` is never closed.
pub(super) fn placeholders(text: &str) -> Result<Vec<Placeholder<'_>>, ()> {
    let mut pieces = vec![];
    let mut at = 0;
    while let Some(open) = text[at..].find('{').map(|o| at + o) {
        if open > at {
            pieces.push(Placeholder::Text(&text[at..open]));
        }
        let close = text[open..].find('}').map(|c| open + c).ok_or(())?;
        pieces.push(Placeholder::Name(open + 1..close));
        at = close + 1;
    }
    if at < text.len() {
        pieces.push(Placeholder::Text(&text[at..]));
    }
    Ok(pieces)
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
        ChoiceKind::Direction => Ty::Direction,
        _ => Ty::Int,
    }
}
