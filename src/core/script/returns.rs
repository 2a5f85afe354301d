//! The static check of a hook's declared return type: the values a hook
//! returns as literals (`return "yes"`, a last expression `0.5`) must be of
//! the type it declares (`-> bool`, `-> int`).
//!
//! rhai is dynamically typed, so only literals can be judged before the hook
//! runs; any other value is checked when the hook returns it (see
//! [`super::Script::call`]). A literal of the wrong type fails every time its
//! line is reached, so it is reported at `check` rather than left to a
//! playtest that may never reach it.

use rhai::{ASTFlags, ASTNode, Engine, Expr, Stmt};

use crate::syntax::ast::HookType;

/// A literal a hook returns that its declared type rules out: where it is
/// (a byte offset into the body) and what it is ("a string").
pub(super) struct WrongReturn {
    pub offset: usize,
    pub found: &'static str,
}

/// The literals `body` returns that are not of type `returns`. `body` is the
/// hook's rhai code, already known to compile as a function body.
///
/// The body is compiled on its own, as a script, by an engine without strict
/// variables: a script's top-level statements are the body's, and closures
/// are lifted out of them, so a closure's `return` is not the hook's.
pub(super) fn wrong_returns(body: &str, returns: HookType) -> Vec<WrongReturn> {
    let mut engine = Engine::new_raw();
    engine.set_optimization_level(rhai::OptimizationLevel::None);
    let Ok(ast) = engine.compile(body) else {
        return vec![];
    };
    let line_starts: Vec<usize> = std::iter::once(0)
        .chain(body.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let offset_of = |expr: &Expr| {
        let position = expr.position();
        let (Some(line), Some(column)) = (position.line(), position.position()) else {
            return 0;
        };
        line_starts.get(line - 1).map_or(0, |start| start + column - 1)
    };
    let expected = match returns {
        HookType::Bool => "a bool",
        HookType::Int => "an int",
    };
    let mut wrong: Vec<WrongReturn> = vec![];
    let mut judge = |expr: &Expr| {
        if let Some(found) = literal_type(expr)
            && found != expected
        {
            wrong.push(WrongReturn {
                offset: offset_of(expr),
                found,
            });
        }
    };
    let statements = ast.statements();
    let mut last = vec![];
    last_values(statements, &mut last);
    last.into_iter().for_each(&mut judge);
    let mut path = vec![];
    for statement in statements {
        statement.walk(&mut path, &mut |nodes: &[ASTNode]| {
            // `return x` (a `throw` is the same statement, flagged BREAK).
            if let Some(ASTNode::Stmt(Stmt::Return(Some(value), flags, _))) = nodes.last()
                && !flags.contains(ASTFlags::BREAK)
            {
                judge(value);
            }
            true
        });
    }
    wrong.sort_by_key(|w| w.offset);
    wrong.dedup_by_key(|w| w.offset);
    wrong
}

/// The expressions whose value a block gives: its last statement when that
/// is an expression, or the last values of both branches of a last `if`.
fn last_values<'a>(statements: &'a [Stmt], into: &mut Vec<&'a Expr>) {
    match statements.last() {
        Some(Stmt::Expr(expr)) => into.push(expr),
        Some(Stmt::If(flow, _)) => {
            last_values(flow.body.statements(), into);
            last_values(flow.branch.statements(), into);
        }
        Some(Stmt::Block(block)) => last_values(block.statements(), into),
        _ => {}
    }
}

/// The type of a literal, in words, or `None` for anything computed.
fn literal_type(expr: &Expr) -> Option<&'static str> {
    Some(match expr {
        Expr::BoolConstant(..) => "a bool",
        Expr::IntegerConstant(..) => "an int",
        Expr::FloatConstant(..) => "a float",
        Expr::CharConstant(..) => "a character",
        Expr::StringConstant(..) | Expr::InterpolatedString(..) => "a string",
        Expr::Array(..) => "an array",
        Expr::Map(..) => "a map",
        Expr::Unit(..) => "`()`",
        Expr::DynamicConstant(value, _) => {
            if value.is_bool() {
                "a bool"
            } else if value.is_int() {
                "an int"
            } else if value.is_string() {
                "a string"
            } else if value.is_array() {
                "an array"
            } else if value.is_map() {
                "a map"
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(body: &str, returns: HookType) -> Vec<(&'static str, usize)> {
        wrong_returns(body, returns)
            .iter()
            .map(|w| (w.found, w.offset))
            .collect()
    }

    #[test]
    fn literals_of_the_declared_type_pass() {
        assert!(found("true", HookType::Bool).is_empty());
        assert!(found("if game.players() > 1 { return 1; } 0", HookType::Int).is_empty());
        assert!(found("let x = 3; x + 1", HookType::Int).is_empty());
        // Computed values are left to the run.
        assert!(found("let x = \"a\"; x", HookType::Int).is_empty());
    }

    #[test]
    fn wrong_literals_are_found_where_they_are() {
        assert_eq!(found("\"yes\"", HookType::Bool), vec![("a string", 0)]);
        assert_eq!(
            found("let a = 1;\nif a > 0 { return 1; }\ntrue", HookType::Int),
            vec![("a bool", 34)]
        );
        assert_eq!(
            found("if true { 1 } else { 2.5 }", HookType::Int),
            vec![("a float", 21)]
        );
        assert_eq!(found("return 0;", HookType::Bool), vec![("an int", 7)]);
    }

    #[test]
    fn closures_and_throws_are_not_returns() {
        assert!(found("let f = |x| { return \"s\"; }; f.call(1) > 0", HookType::Bool).is_empty());
        assert!(found("throw \"no\"; true", HookType::Bool).is_empty());
    }
}
