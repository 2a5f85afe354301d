//! Sizes from options: a grid's rows and columns, a ring's spaces and the
//! number of players may be worked out from `int` options, constants and
//! the number of items of a list option (`grid size x size`,
//! `grid rows x (columns + 1)`, `ring heap (length of heaps)`,
//! `players seats`).
//!
//! Unlike a count of pieces, which is made for its largest value and
//! trimmed at the start of a game, a size changes the board itself: which
//! spaces exist, which touch, which lines run through them. So a
//! definition is built for one value of each option its shape reads: the
//! option's default, or the value its loader asks for ([`Shape`]). The
//! options read and their values are kept in the definition
//! ([`ir::GameDef::shaped_by`]): `load_game` checks the rules again for the
//! values in force, `check` checks them for every value the options allow,
//! and a game started with other values is refused.

use std::collections::HashMap;

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{self, OptionType, OptionValue};
use crate::syntax::ast::{self, BinOp, ExprKind, Item};

/// The values a definition's shape is built for, by option name; an
/// option not named takes its default.
pub type Shape = [(String, i64)];

/// What a size may read: constants (by their expression), `int` options
/// and list options (by their length): each with its default or the value
/// asked for; and the options read so far with the values used.
#[derive(Default)]
pub(crate) struct ShapeScope {
    constants: HashMap<String, ast::Expr>,
    /// Per `int` option: its type, the value to build for, and where its
    /// type is written (what a diagnostic points at).
    options: HashMap<String, (OptionType, i64, Span)>,
    /// The options read, in the order first read, with their values (a
    /// list's, its length).
    pub read: Vec<(String, i64)>,
    /// Every option and constant read.
    pub names_read: Vec<String>,
    /// The variables, which a size may not read.
    variables: Vec<String>,
}

impl ShapeScope {
    pub(crate) fn new(items: &[Item], asked: &Shape) -> Self {
        let mut scope = ShapeScope::default();
        for item in items {
            match item {
                Item::Constant { name, value } => {
                    scope.constants.insert(name.name.clone(), value.clone());
                }
                Item::Var(decl) => scope.variables.push(decl.name.name.clone()),
                Item::Option(decl) => {
                    // Its errors are reported where options are declared.
                    let (def, _) = crate::check::options::declare(decl);
                    // A number, or a list by its length.
                    let default = match &def.default {
                        OptionValue::Int(v) => *v,
                        OptionValue::IntList(items) => items.len() as i64,
                        _ => continue,
                    };
                    let value = asked
                        .iter()
                        .find(|(name, _)| *name == decl.name.name)
                        .map_or(default, |(_, v)| *v);
                    scope
                        .options
                        .insert(decl.name.name.clone(), (def.ty, value, decl.ty_span));
                }
                _ => {}
            }
        }
        scope
    }
}

/// How deep constants may name constants before a size gives up.
const MAX_DEPTH: u32 = 16;

/// Why an expression is not a size: where, and what it is instead.
pub(crate) struct NotASize {
    span: Span,
    why: String,
}

impl NotASize {
    /// The diagnostic for a size (`what` names it: "a grid's size").
    pub(crate) fn diagnostic(self, what: &str) -> Diagnostic {
        Diagnostic::error(
            Code::BadBoard,
            format!("{what} is a number, an `int` option or a constant"),
        )
        .label(self.span, self.why)
        .help(
            "sizes are fixed before play: write a number, an `int` option, a constant, \
                 or `+ - * /` of them in brackets, e.g. `grid size x (size + 1)`",
        )
    }
}

impl ShapeScope {
    /// The value of a size, reading options at the values to build for.
    pub(crate) fn value(&mut self, expr: &ast::Expr) -> Result<i64, NotASize> {
        self.value_at(expr, 0)
    }

    fn value_at(&mut self, expr: &ast::Expr, depth: u32) -> Result<i64, NotASize> {
        let fail = |why: String| NotASize { span: expr.span, why };
        match &expr.kind {
            ExprKind::Int(n) => Ok(*n),
            ExprKind::Name(ident) => {
                if !self.names_read.contains(&ident.name) {
                    self.names_read.push(ident.name.clone());
                }
                if self.variables.contains(&ident.name) {
                    return Err(fail(format!("`{}` is a variable, which changes in play", ident.name)));
                }
                if let Some(constant) = self.constants.get(&ident.name).cloned() {
                    if depth >= MAX_DEPTH {
                        return Err(fail(format!("`{}` names constants {MAX_DEPTH} deep", ident.name)));
                    }
                    return self.value_at(&constant, depth + 1);
                }
                match self.options.get(&ident.name) {
                    Some((OptionType::Int { .. }, value, _)) => Ok(self.read_option(&ident.name, *value)),
                    Some((OptionType::IntList { .. }, _, _)) => Err(fail(format!(
                        "`{0}` is a list; its number of items is `length of {0}`",
                        ident.name
                    ))),
                    _ => Err(fail(format!("`{}` is not an `int` option or a constant", ident.name))),
                }
            }
            ExprKind::Binary { op, lhs, rhs } if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) => {
                let (a, b) = (self.value_at(lhs, depth)?, self.value_at(rhs, depth)?);
                let value = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    _ if b == 0 => return Err(fail("this divides by 0".into())),
                    _ => a.checked_div(b),
                };
                value.ok_or_else(|| fail(format!("{a} and {b} overflow a number")))
            }
            ExprKind::Of { name, arg } if name.name == "length" => match &arg.kind {
                ExprKind::Name(list) => match self.options.get(&list.name) {
                    Some((OptionType::IntList { .. }, length, _)) => Ok(self.read_option(&list.name, *length)),
                    _ => Err(fail(format!("`{}` is not a list option", list.name))),
                },
                _ => Err(fail("`length of` takes the name of a list option".into())),
            },
            _ => Err(fail("this is worked out while the game runs".into())),
        }
    }

    /// `value`, the option `name`'s, noted as read.
    fn read_option(&mut self, name: &str, value: i64) -> i64 {
        if !self.read.iter().any(|(read, _)| read == name) {
            self.read.push((name.to_string(), value));
        }
        value
    }

    /// `diagnostic`, with a label on the range of every option read so far.
    pub(crate) fn label_options(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        for (name, _) in &self.read {
            if let Some((_, _, span)) = self.options.get(name) {
                diagnostic = diagnostic.label(*span, format!("the values `{name}` allows"));
            }
        }
        diagnostic
    }

    /// The options read, by id among `options`, with the values the
    /// definition was built for.
    pub(crate) fn shaped_by(&self, options: &[ir::OptionDef]) -> Vec<ir::ShapedBy> {
        self.read
            .iter()
            .filter_map(|(name, value)| {
                let option = options.iter().position(|o| o.name == *name)?;
                Some(ir::ShapedBy {
                    option: u16::try_from(option).ok()?,
                    value: *value,
                    length: matches!(options[option].ty, OptionType::IntList { .. }),
                })
            })
            .collect()
    }
}
