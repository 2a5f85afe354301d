//! Names and `X of Y`: locals, declared names, per-player values, zones and
//! the built-ins such as `top of` and `owner of`.

use super::Compiler;
use super::marks::ZoneUse;
use crate::check::types::{Symbol, Ty};
use crate::diagnostic::{Code, Diagnostic, Span, nearest};
use crate::ir::{Attr, FamilyIndex, Op, OptionType, VarEach};
use crate::syntax::ast::{self, Expr};

const BUILTINS: &[&str] = &[
    "top", "bottom", "size", "kind", "value", "owner", "type", "opponent", "next", "space", "adjacent", "length",
];

/// What a variable kept per player, space or piece is read `of`: `None`
/// for a variable of the whole game.
pub(super) fn var_index_type(each: VarEach) -> Option<Ty> {
    match each {
        VarEach::Game => None,
        VarEach::Player => Some(Ty::Seat),
        VarEach::Space(board) => Some(Ty::Space(board)),
        VarEach::Piece => Some(Ty::Piece),
    }
}

impl Compiler {
    /// The error for a variable kept per player, space or piece, named
    /// without saying whose or which.
    pub(super) fn var_without_index(&self, name: &str, each: VarEach, span: Span) -> Diagnostic {
        match each {
            VarEach::Space(board) => {
                let board = &self.def.boards[board as usize].name;
                Diagnostic::error(Code::MissingSpace, format!("`{name}` is kept per space of `{board}`"))
                    .label(span, "which space?")
                    .help(format!("write `{name} of <space>`, e.g. inside `for s in {board}`"))
            }
            VarEach::Piece => Diagnostic::error(Code::MissingPiece, format!("`{name}` is kept per piece"))
                .label(span, "which piece?")
                .help(format!("write `{name} of <piece>`, e.g. `{name} of top of <zone>`")),
            VarEach::Game | VarEach::Player => {
                Diagnostic::error(Code::MissingPlayer, format!("`{name}` is kept per player"))
                    .label(span, "whose?")
                    .help(format!("write `{name} of <player>`"))
            }
        }
    }

    /// A piece on the stack as itself, for a variable kept per piece: a
    /// piece chosen "as" a kind keeps its own value there. "No choice"
    /// (above every declared kind) is left as it is, so that reading or
    /// setting its value is an error, not piece 0's.
    pub(super) fn piece_alone(&mut self, each: VarEach, span: Span) {
        if each != VarEach::Piece {
            return;
        }
        let range = crate::ir::PIECE_RANGE;
        self.emit(Op::Dup, span);
        self.emit(Op::Push(range * range), span);
        self.emit(Op::Lt, span);
        let past = self.emit_jump(super::writer::JumpKind::IfFalse, span);
        self.emit(Op::Push(range), span);
        self.emit(Op::Rem, span);
        self.patch_here(past);
    }

    pub(super) fn name(&mut self, name: &ast::Ident) -> Ty {
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
                if def.each != VarEach::Game {
                    self.error(self.var_without_index(&name.name, def.each, span));
                    return Ty::Error;
                }
                self.emit(Op::LoadVar(def.slot), span);
                self.var_types[v as usize].clone()
            }
            Some(Symbol::Family(f)) => {
                let family = self.def.families[f as usize].clone();
                match family.by {
                    FamilyIndex::Single => {
                        let how = self.take_zone_use();
                        self.names_family(f, how);
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
                if other.is_none()
                    && let Some(ty) = self.direction_value(name)
                {
                    return ty;
                }
                self.unknown_or_wrong(&name.name, span, other, "a value", "values");
                Ty::Error
            }
        }
    }

    pub(super) fn of(&mut self, name: &ast::Ident, arg: &Expr, span: Span) -> Ty {
        if let Some(ty) = self.grid_of(name, arg, span) {
            return ty;
        }
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
                // Taken before the argument, which may name zones of its own.
                let how = self.take_zone_use();
                self.names_family(f, how);
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
            Some(Symbol::Var(v)) if self.globals.reported_vars.contains(&v) => {
                // Its declaration was reported: whatever it is read with is fine.
                self.expr(arg);
                self.emit(Op::Pop, span);
                self.emit(Op::Push(0), span);
                Ty::Error
            }
            Some(Symbol::Var(v)) => {
                let def = self.def.vars[v as usize].clone();
                let Some(index) = var_index_type(def.each) else {
                    self.error(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("`{}` is one value, not one per player, space or piece", name.name),
                        )
                        .label(span, format!("write just `{}`", name.name)),
                    );
                    return Ty::Error;
                };
                self.expect(arg, &index);
                self.piece_alone(def.each, span);
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
                if name == "size" {
                    self.zone_for(arg, ZoneUse::Size);
                } else {
                    self.reads_order(arg, span);
                    self.expect(arg, &Ty::Zone);
                }
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
            "length" => self.list_length(arg, span),
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
}

impl Compiler {
    /// `length of L`: how many items the list option `L` holds.
    fn list_length(&mut self, arg: &Expr, span: Span) -> Ty {
        if let ast::ExprKind::Name(list) = &arg.kind
            && self.find_local(&list.name).is_none()
            && let Some(Symbol::Option(o)) = self.globals.get(&list.name)
            && matches!(self.def.options[o as usize].ty, OptionType::IntList { .. })
        {
            self.emit(Op::OptionLength(o), span);
            return Ty::Int;
        }
        self.error(
            Diagnostic::error(Code::TypeMismatch, "`length of` counts the items of a list option")
                .label(arg.span, "not a `list of int` option")
                .help("declare `option piles: list of int in 1..20 = [3, 4, 5]` and write `length of piles`"),
        );
        Ty::Error
    }
}
