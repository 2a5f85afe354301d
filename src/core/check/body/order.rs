//! Which zones' order the rules read.
//!
//! A hand the rules only deal into, choose from and count has an order that
//! no rule ever reads: two hands holding the same cards in another order
//! play alike. A solver may then key a seat's situation by what a zone
//! holds, not by the order it holds it in (`View::fingerprint`), which
//! merges situations the rules cannot tell apart, losslessly.
//!
//! A rule reads a zone's order when it takes its `top` or `bottom`, its
//! `first` piece of a kind, or deals from it. Going through its pieces does
//! not: only sums, choices and action parameters may (a `for` statement
//! cannot), and a sum adds up alike in any order, while a choice is keyed
//! by the piece, wherever it lies. Moving all of a zone into another (`move all
//! of`) carries its order there, so a zone whose pieces all move to a zone
//! whose order is read is read too, unless the very next statement
//! shuffles that zone. Zones on a board's spaces are taken as read, and so
//! is every zone the moment a rule names a zone in a way this reading
//! cannot follow (a zone kept in a variable or passed to a procedure).
//!
//! A designer may say more: a zone declared `unordered` has an order no
//! rule may read, and the checker holds the rules to it
//! (`rpsdsl::unordered-read`): no `top`, `bottom`, `first` or deal from it,
//! no read this reading cannot follow while such a zone exists, and no
//! `move all of` it onto a zone whose order is read unless that zone is
//! shuffled at once. Its order then never counts, even on a board's spaces.

use super::Compiler;
use super::marks::OrderReads;
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{FamilyIndex, GameDef, Visibility};
use crate::syntax::ast::{Expr, ExprKind, Stmt, StmtKind};

impl Compiler {
    /// The family `zone` names plainly (`deck`, `hand of p`), if it does.
    pub(super) fn family_named(&self, zone: &Expr) -> Option<u16> {
        let name = match &zone.kind {
            ExprKind::Name(name) => name,
            ExprKind::Of { name, .. } => name,
            _ => return None,
        };
        if self.find_local(&name.name).is_some() {
            return None;
        }
        self.def
            .families
            .iter()
            .position(|f| f.name == name.name)
            .map(|f| f as u16)
    }

    /// Notes that a rule at `span` (`top of hand`) reads `zone`'s order; a
    /// zone declared `unordered` may not be read so.
    pub(super) fn reads_order(&mut self, zone: &Expr, span: Span) {
        let Some(family) = self.family_named(zone) else {
            self.order.unknown.push(span);
            return;
        };
        self.order.read.push(family);
        let family = &self.def.families[family as usize];
        if let Some(declared) = family.unordered {
            let name = family.name.clone();
            self.error(
                Diagnostic::error(
                    Code::UnorderedRead,
                    format!("this reads the order of `{name}`, which is declared unordered"),
                )
                .label(span, "reads which piece lies where")
                .label(declared, "declared unordered here")
                .help(format!(
                    "let a seat choose the piece (`chooses card from Card in {name}`), or drop `unordered`"
                )),
            );
        }
    }

    /// Notes that `move all of from to to` carries `from`'s order to `to`,
    /// unless `statement` (the move) is followed at once by a shuffle of `to`.
    pub(super) fn carries_order(&mut self, from: &Expr, to: &Expr, statement: &Stmt) {
        let at = (statement.span.file, statement.span.start);
        if self.order.shuffled_after.contains(&at) {
            return;
        }
        // From `move` to the target zone, not the blank lines after it.
        let at = Span {
            end: to.span.end,
            ..statement.span
        };
        let carried = (self.family_named(from), self.family_named(to), at);
        self.order.carried.push(carried);
    }

    /// Looks ahead in a block: a `move all of X to Y` whose next statement
    /// is `shuffle Y` carries no order into `Y`.
    pub(super) fn note_shuffles_after(&mut self, stmts: &[Stmt]) {
        for pair in stmts.windows(2) {
            let (StmtKind::MoveAll { to, .. }, StmtKind::Shuffle(shuffled)) = (&pair[0].kind, &pair[1].kind) else {
                continue;
            };
            if self.text_of(to) == self.text_of(shuffled) {
                self.order.shuffled_after.push((pair[0].span.file, pair[0].span.start));
            }
        }
    }

    /// The source text of `expr`, to compare two mentions of one zone.
    fn text_of(&self, expr: &Expr) -> String {
        let text = &self.def.sources.file(expr.span.file).text;
        text.get(expr.span.start as usize..expr.span.end as usize)
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Marks, on the definition, whether nothing is hidden but for the
    /// moment of a simultaneous choice (`GameDef::open_information`).
    pub(super) fn settle_open_information(&mut self) {
        let def = &self.def;
        // The box (family 0) holds what an option leaves out of the game.
        self.def.open_information = def
            .zones
            .iter()
            .all(|z| z.family == 0 || z.visibility == Visibility::Public)
            && def.pieces.iter().all(|p| !p.kind_hidden)
            && def.decisions.iter().all(|d| !d.secret);
    }

    /// Marks, on the definition, the families whose order the rules read,
    /// and reports what reads the order of a zone declared unordered where
    /// the read could not be pinned on one zone.
    pub(super) fn settle_order_reads(&mut self) {
        let (read, unsure) = order_read(&self.def, &self.order);
        let declared = self.def.families.iter().find(|f| f.unordered.is_some());
        if let Some(declared) = declared {
            let (name, at) = (declared.name.clone(), declared.unordered.unwrap_or_default());
            let diag = |message: String, span: Span, what: &str, at: Span, help: String| {
                Diagnostic::error(Code::UnorderedRead, message)
                    .label(span, what)
                    .label(at, "declared unordered here")
                    .help(help)
            };
            for span in self.order.unknown.clone() {
                self.error(diag(
                    format!(
                        "this reads the order of a zone the checker cannot name, and `{name}` is declared unordered"
                    ),
                    span,
                    "which zone's order is this?",
                    at,
                    "name the zone plainly (`top of deck`, not a zone kept in a variable or passed to a \
                     procedure), or drop `unordered`"
                        .to_string(),
                ));
            }
            for (span, from) in unsure {
                let (from, at) = match from.map(|f| &self.def.families[f as usize]) {
                    Some(f) => (format!("`{}`", f.name), f.unordered.unwrap_or(at)),
                    None => (format!("a zone that may be `{name}`"), at),
                };
                self.error(diag(
                    format!(
                        "this moves the pieces of {from}, which is unordered, onto a zone whose order the rules read"
                    ),
                    span,
                    "the target takes an order the rules never set",
                    at,
                    "shuffle the target in the very next statement, or drop `unordered`".to_string(),
                ));
            }
        }
        for (family, read) in self.def.families.iter_mut().zip(read) {
            family.order_read = read && family.unordered.is_none();
        }
    }
}

/// Per family, whether some rule reads its order; and the `move all of`
/// statements that may carry a zone declared unordered into a zone whose
/// order is read (the order they give it is not one the rules set).
fn order_read(def: &GameDef, reads: &OrderReads) -> (Vec<bool>, Vec<(Span, Option<u16>)>) {
    let declared = |family: u16| def.families[family as usize].unordered.is_some();
    if !reads.unknown.is_empty() {
        return (vec![true; def.families.len()], vec![]);
    }
    let mut read: Vec<bool> = def
        .families
        .iter()
        .map(|f| matches!(f.by, FamilyIndex::PerSpace(_)))
        .collect();
    for &family in &reads.read {
        read[family as usize] = true;
    }
    // Order carried into a read zone is read: to a fixed point.
    let mut unsure = vec![];
    loop {
        let mut changed = false;
        for &(from, to, at) in &reads.carried {
            let into_read = to.is_none_or(|to| read[to as usize]);
            if !into_read {
                continue;
            }
            match from {
                Some(from) if declared(from) => {
                    if !unsure.contains(&(at, Some(from))) {
                        unsure.push((at, Some(from)));
                    }
                }
                Some(from) if !read[from as usize] => {
                    read[from as usize] = true;
                    changed = true;
                }
                Some(_) => {}
                None => {
                    unsure.push((at, None));
                    return (vec![true; def.families.len()], unsure);
                }
            }
        }
        if !changed {
            return (read, unsure);
        }
    }
}
