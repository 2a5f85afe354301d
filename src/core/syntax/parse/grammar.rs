//! The grammar's parser (pest, from `grammar/rules.pest`) and the limits
//! every part of the tree builder keeps: how deep constructs nest, and the
//! stack each recursive step keeps free.

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/rules.pest"]
pub(super) struct RulesParser;

/// Words that begin a top-level declaration; after a syntax error the parser
/// resumes at the next line that starts with one, so one mistake does not hide
/// the next.
///
/// It must list the first word of every alternative of the grammar's `item`
/// rule; a test reads `grammar/rules.pest` and holds the two together.
pub(super) const ITEM_STARTS: &[&str] = &[
    "extends",
    "override",
    "table",
    "constant",
    "anytime",
    "game",
    "players",
    "use",
    "display",
    "kinds",
    "beats",
    "option",
    "var",
    "pieces",
    "group",
    "board",
    "zones",
    "setup",
    "flow",
    "procedure",
    "trigger",
    "hook",
    "score",
    "result",
];

/// How deeply constructs may nest: brackets, blocks, `if`s, `of` chains,
/// `not`s and `-`s each count one level, and a chain such as `a + b + c`
/// counts one level per operator. docs/language.md ("Limits") gives the value.
pub const MAX_NESTING: usize = 256;

/// The stack pest parses on. Its own guard turns a parse that would need
/// more into an error (reported as `too-deeply-nested`), so no input can
/// overflow it; this size lets every input within [`MAX_NESTING`] parse.
pub(super) const PARSE_STACK: usize = 64 * 1024 * 1024;

/// Stack kept free before each recursive step of building the tree, and how
/// much more to take when less is left (see [`stacker::maybe_grow`]).
pub(crate) const RED_ZONE: usize = 128 * 1024;
pub(crate) const STACK_STEP: usize = 4 * 1024 * 1024;

/// Runs `f`, on a fresh stack segment if this one runs low. Every function
/// that recurses over the tree goes through it at each level, so a tree as
/// deep as [`MAX_NESTING`] allows is walked safely on any thread.
pub fn deeper<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, STACK_STEP, f)
}
