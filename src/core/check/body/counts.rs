//! Piece counts and value ranges of a `pieces` entry: plain numbers, or
//! worked out from options and constants (`with value 1..top_value`,
//! `x decks`).
//!
//! The pieces of the definition are fixed when the game is checked, before
//! any option has a value. An entry counted from options is therefore made
//! for the largest counts its options allow, and a procedure run at the
//! start (see [`crate::ir::Counted`]) leaves out the pieces beyond the counts of
//! the options in force. The limits on pieces are checked against those
//! largest counts, so no option value can break them; when one would, the
//! diagnostic points at the option whose range allows it.

use std::collections::HashMap;

use super::Compiler;
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{Op, OptionType, ProcId};
use crate::syntax::ast::{self, BinOp, Expr, ExprKind, Item, UnOp};

/// Most copies of one piece entry.
const MAX_COPIES: i64 = 1000;
/// Most values of one piece entry, less one.
const MAX_VALUE_SPREAD: i64 = 1000;

/// What the pieces of one entry are made of: the values and copies to make
/// them for, and the procedure that says which of them are in the game.
pub(super) struct PieceCounts {
    pub low: i64,
    pub high: i64,
    pub copies: i64,
    pub bounds: Option<ProcId>,
}

/// The range of values a count can take, and the options it comes from.
#[derive(Clone)]
struct Range {
    min: i64,
    max: i64,
    /// Option names and the spans of their types, for the diagnostics.
    options: Vec<(String, Span)>,
}

/// The declarations a count may name: constants (by their value) and
/// options (by the span of their type).
pub(super) struct CountNames {
    constants: HashMap<String, Expr>,
    option_types: HashMap<String, Span>,
}

impl CountNames {
    pub(super) fn new(items: &[Item]) -> Self {
        let mut names = CountNames {
            constants: HashMap::new(),
            option_types: HashMap::new(),
        };
        for item in items {
            match item {
                Item::Constant { name, value } => {
                    names.constants.insert(name.name.clone(), value.clone());
                }
                Item::Option(decl) => {
                    names.option_types.insert(decl.name.name.clone(), decl.ty_span);
                }
                _ => {}
            }
        }
        names
    }
}

fn literal(expr: &Expr) -> Option<i64> {
    match expr.kind {
        ExprKind::Int(n) => Some(n),
        _ => None,
    }
}

impl Compiler {
    /// The counts of `entry`, or `None` (after a diagnostic) when they are
    /// not usable. `kinds` and `owners` are the entry's other factors.
    pub(super) fn piece_counts(
        &mut self,
        entry: &ast::PieceEntry,
        names: &CountNames,
        kinds: usize,
        owners: usize,
    ) -> Option<PieceCounts> {
        let fixed_values = match &entry.values {
            None => Some((0, 0)),
            Some((l, h, _)) => literal(l).zip(literal(h)),
        };
        let fixed_copies = match &entry.copies {
            None => Some(1),
            Some((c, _)) => literal(c),
        };
        if let (Some((low, high)), Some(copies)) = (fixed_values, fixed_copies) {
            return self.fixed_counts(entry, low, high, copies, kinds, owners);
        }
        self.counts_from_options(entry, names, kinds, owners)
    }

    /// Counts written as numbers.
    fn fixed_counts(
        &mut self,
        entry: &ast::PieceEntry,
        low: i64,
        high: i64,
        copies: i64,
        kinds: usize,
        owners: usize,
    ) -> Option<PieceCounts> {
        if let Some((_, _, span)) = entry.values
            && (high < low || high - low > MAX_VALUE_SPREAD)
        {
            self.error(
                Diagnostic::error(
                    Code::BadPieceCount,
                    format!("the values {low}..{high} are not a usable range"),
                )
                .label(span, "here"),
            );
            return None;
        }
        if let Some((_, span)) = entry.copies
            && !(1..=MAX_COPIES).contains(&copies)
        {
            self.error(
                Diagnostic::error(Code::BadPieceCount, format!("{copies} copies is not a usable count"))
                    .label(span, "here")
                    .help("a piece type has from 1 to 1000 copies"),
            );
            return None;
        }
        self.check_total(entry, kinds, high - low + 1, copies, owners, &[])?;
        Some(PieceCounts {
            low,
            high,
            copies,
            bounds: None,
        })
    }

    /// Refuses an entry that would take the definition past its pieces.
    /// Counts first: kinds x values x copies x owners can be billions.
    fn check_total(
        &mut self,
        entry: &ast::PieceEntry,
        kinds: usize,
        values: i64,
        copies: i64,
        owners: usize,
        options: &[(String, Span)],
    ) -> Option<()> {
        let made = [kinds, values as usize, copies as usize, owners]
            .into_iter()
            .fold(1usize, usize::saturating_mul);
        let total = self.def.pieces.len().saturating_add(made);
        if total <= crate::check::declare::MAX_PIECES {
            return Some(());
        }
        let label = if options.is_empty() {
            format!("{made} pieces here")
        } else {
            format!("{made} pieces here, with the options at their largest")
        };
        let mut diagnostic = Diagnostic::error(Code::BadPieceCount, format!("these pieces make {total} pieces in all"))
            .label(entry.span, label);
        diagnostic = label_options(diagnostic, options);
        let mut help = format!(
            "a definition has at most {} pieces (kinds x values x copies x owners)",
            crate::check::declare::MAX_PIECES
        );
        if let Some((name, _)) = options.first() {
            help.push_str(&format!("; give `{name}` a smaller range"));
        }
        self.error(diagnostic.help(help));
        None
    }

    /// Counts that name options or constants: made for their largest values.
    fn counts_from_options(
        &mut self,
        entry: &ast::PieceEntry,
        names: &CountNames,
        kinds: usize,
        owners: usize,
    ) -> Option<PieceCounts> {
        let one = Expr {
            kind: ExprKind::Int(1),
            span: entry.name.span,
        };
        let zero = Expr {
            kind: ExprKind::Int(0),
            span: entry.name.span,
        };
        let (low_expr, high_expr, values_span) = match &entry.values {
            Some((l, h, span)) => (l, h, *span),
            None => (&zero, &zero, entry.name.span),
        };
        let copies_expr = entry.copies.as_ref().map_or(&one, |(c, _)| c);
        // The procedure checks names and types; the ranges need them right.
        let bounds = self.bounds_proc(entry, low_expr, high_expr, copies_expr);
        let low = self.count_range(low_expr, names, 0);
        let high = self.count_range(high_expr, names, 0);
        let copies = self.count_range(copies_expr, names, 0);
        let (low, high, copies) = (low?, high?, copies?);
        let mut options = low.options.clone();
        for (name, span) in high.options.iter().chain(&copies.options) {
            if !options.iter().any(|(n, _)| n == name) {
                options.push((name.clone(), *span));
            }
        }
        if high.max < low.min || high.max.saturating_sub(low.min) > MAX_VALUE_SPREAD {
            let diagnostic = Diagnostic::error(
                Code::BadPieceCount,
                format!(
                    "the values {}..{} are not a usable range for every value of the options",
                    low.min, high.max
                ),
            )
            .label(values_span, format!("from {} up to {}", low.min, high.max))
            .help(format!(
                "an entry has from 1 to {} values; give the options ranges that keep it so",
                MAX_VALUE_SPREAD + 1
            ));
            self.error(label_options(diagnostic, &options));
            return None;
        }
        if copies.min < 0 || copies.max > MAX_COPIES {
            let span = entry.copies.as_ref().map_or(entry.span, |(_, s)| *s);
            let worst = if copies.min < 0 { copies.min } else { copies.max };
            let diagnostic = Diagnostic::error(
                Code::BadPieceCount,
                format!("these pieces may have {worst} copies, which is not a usable count"),
            )
            .label(span, format!("from {} to {} copies", copies.min, copies.max))
            .help(format!(
                "an entry counted from options has from 0 to {MAX_COPIES} copies; give the options ranges that keep it so"
            ));
            self.error(label_options(diagnostic, &copies.options));
            return None;
        }
        self.check_total(entry, kinds, high.max - low.min + 1, copies.max, owners, &options)?;
        Some(PieceCounts {
            low: low.min,
            high: high.max,
            copies: copies.max,
            bounds,
        })
    }

    /// The procedure giving the entry's lowest value, highest value and
    /// copies under the options in force.
    fn bounds_proc(&mut self, entry: &ast::PieceEntry, low: &Expr, high: &Expr, copies: &Expr) -> Option<ProcId> {
        let proc = self.new_proc(&format!("count of {}", entry.name.name), entry.span);
        let saved = self.begin(proc, &[]);
        for expr in [low, high, copies] {
            self.expect(expr, &Ty::Int);
        }
        self.emit(Op::Return, entry.span);
        self.f.returns = Some(vec![Some(Ty::Int); 3]);
        self.end(saved);
        self.no_decisions.push((proc, entry.span, "a piece count"));
        Some(proc)
    }

    /// The values `expr` can take over every value of its options, or
    /// `None` after a diagnostic (or when the name is unknown, which the
    /// count's procedure reports).
    fn count_range(&mut self, expr: &Expr, names: &CountNames, depth: usize) -> Option<Range> {
        let exact = |n: i64| Range {
            min: n,
            max: n,
            options: vec![],
        };
        match &expr.kind {
            ExprKind::Int(n) => Some(exact(*n)),
            ExprKind::Name(ident) => {
                let symbol = self.globals.names.get(&ident.name).map(|(s, _)| *s);
                match symbol {
                    None => None,
                    Some(Symbol::Option(id)) => match self.def.options[id as usize].ty {
                        OptionType::Int { min, max } => Some(Range {
                            min,
                            max,
                            options: names
                                .option_types
                                .get(&ident.name)
                                .map(|span| (ident.name.clone(), *span))
                                .into_iter()
                                .collect(),
                        }),
                        // Not a number: the count's procedure says so.
                        _ => None,
                    },
                    Some(Symbol::Var(_)) if depth < 32 && names.constants.contains_key(&ident.name) => {
                        let value = names.constants[&ident.name].clone();
                        self.count_range(&value, names, depth + 1)
                    }
                    Some(Symbol::Var(_)) => {
                        self.not_a_count(expr, format!("`{}` is a variable, which changes in play", ident.name));
                        None
                    }
                    // Not a number: the count's procedure says so.
                    Some(_) => None,
                }
            }
            ExprKind::Unary { op: UnOp::Neg, operand } => {
                let r = self.count_range(operand, names, depth)?;
                Some(Range {
                    min: r.max.saturating_neg(),
                    max: r.min.saturating_neg(),
                    options: r.options,
                })
            }
            ExprKind::Binary { op, lhs, rhs } if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) => {
                let a = self.count_range(lhs, names, depth);
                let b = self.count_range(rhs, names, depth);
                let (a, b) = (a?, b?);
                let corners: Vec<i64> = match op {
                    BinOp::Add => vec![a.min.saturating_add(b.min), a.max.saturating_add(b.max)],
                    BinOp::Sub => vec![a.min.saturating_sub(b.max), a.max.saturating_sub(b.min)],
                    BinOp::Mul => [(a.min, b.min), (a.min, b.max), (a.max, b.min), (a.max, b.max)]
                        .iter()
                        .map(|(x, y)| x.saturating_mul(*y))
                        .collect(),
                    _ => {
                        if b.min <= 0 && b.max >= 0 {
                            self.not_a_count(rhs, "this may be 0, and a count cannot divide by 0".to_string());
                            return None;
                        }
                        [(a.min, b.min), (a.min, b.max), (a.max, b.min), (a.max, b.max)]
                            .iter()
                            .map(|(x, y)| x.checked_div(*y).unwrap_or(i64::MAX))
                            .collect()
                    }
                };
                let mut options = a.options;
                options.extend(b.options);
                Some(Range {
                    min: corners.iter().copied().min().unwrap_or(0),
                    max: corners.iter().copied().max().unwrap_or(0),
                    options,
                })
            }
            _ => {
                self.not_a_count(expr, "this is worked out while the game runs".to_string());
                None
            }
        }
    }

    fn not_a_count(&mut self, expr: &Expr, why: String) {
        self.error(
            Diagnostic::error(Code::BadPieceCount, "a piece count is a number, an option or a constant")
                .label(expr.span, why)
                .help("counts and values of pieces are fixed before play: write a number, an `int` option, a constant, or `+ - * /` of them"),
        );
    }
}

/// Labels every option a count comes from with the range it allows.
fn label_options(mut diagnostic: Diagnostic, options: &[(String, Span)]) -> Diagnostic {
    for (name, span) in options {
        diagnostic = diagnostic.label(*span, format!("the values `{name}` allows"));
    }
    diagnostic
}
