//! The registry of diagnostic codes: one [`Code`] per kind of problem.
//!
//! A code is a public interface: `rpsdsl check --json` prints it as
//! `rpsdsl::CODE`, and scripts match on it. So every code is declared here
//! once, with the exact kebab-case text it has always had and a one-line
//! summary. The summaries are also listed in the "Every code" table of
//! `docs/language.md` §16, and `tests/codes.rs` keeps the two in step, so a
//! new code cannot ship undocumented.

use std::fmt;

use serde::{Serialize, Serializer};

/// Declares [`Code`] from `/// summary` + `Variant = "kebab-case",` lines, so
/// the variant, its text and its summary cannot drift apart.
macro_rules! codes {
    ($( #[doc = $summary:literal] $variant:ident = $text:literal, )*) => {
        /// A stable diagnostic code. Its text ([`Code::as_str`]) is what users
        /// and programs see, after `rpsdsl::`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( #[doc = $summary] $variant, )*
        }

        impl Code {
            /// Every code, in the order of the registry (alphabetical by text).
            pub const ALL: &'static [Code] = &[$( Code::$variant, )*];

            /// The code's text without the `rpsdsl::` prefix, e.g. `unknown-name`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $text, )*
                }
            }

            /// The one line that says what the code means, as documented.
            pub fn summary(self) -> &'static str {
                match self {
                    $( Code::$variant => $summary.trim_start(), )*
                }
            }
        }
    };
}

codes! {
    /// An agent that cannot play here: `policy` or `solve` with no game, `human` outside `play`, `human-like` in a game without throws.
    AgentRefused = "agent-refused",
    /// An action's number parameter outside 0 to 65535, met while the game runs.
    BadAction = "bad-action",
    /// A parameter an agent does not take, or a value outside what the parameter accepts.
    BadAgentParameter = "bad-agent-parameter",
    /// An `--agents` spec that does not parse: an agent without a name, a parameter that is not key=value, a parenthesis left open.
    BadAgentSpec = "bad-agent-spec",
    /// A board whose size, spaces or links do not make a board.
    BadBoard = "bad-board",
    /// A `display SEAT in colour` hint that is not a colour such as "#e07a2f".
    BadColour = "bad-colour",
    /// Something that cannot be looped over or chosen from.
    BadDomain = "bad-domain",
    /// A piece type's starting zone that is not one zone (a slot of every space, or a per-player zone for pieces without an owner).
    BadHomeZone = "bad-home-zone",
    /// A house-rules file that is not valid TOML or has an unknown key.
    BadHouseRules = "bad-house-rules",
    /// A decision label whose `{...}` placeholders do not parse.
    BadLabel = "bad-label",
    /// A board link or space index that names no single space, or a space that does not exist.
    BadLink = "bad-link",
    /// An option type that allows no value (`int in 10..1`, a list that may be empty).
    BadOptionType = "bad-option-type",
    /// An option value that its type does not allow.
    BadOptionValue = "bad-option-value",
    /// An `override` of a part that cannot be overridden.
    BadOverride = "bad-override",
    /// A piece count or value range that is not usable.
    BadPieceCount = "bad-piece-count",
    /// A player count the game cannot be played with.
    BadPlayerCount = "bad-player-count",
    /// A saved strategy that cannot be read, or that was saved by another build or for other rules or options.
    BadPolicyFile = "bad-policy-file",
    /// A `beats` relation that is not a relation between distinct kinds.
    BadRelation = "bad-relation",
    /// A report given to `rpsdsl merge` that was changed after it was written.
    BadReport = "bad-report",
    /// A scenario file whose contents do not fit the game.
    BadScenario = "bad-scenario",
    /// A table without entries.
    BadTable = "bad-table",
    /// A transcript that does not fit the rules it names.
    BadTranscript = "bad-transcript",
    /// `owner` visibility on a zone that is not kept per player.
    BadVisibility = "bad-visibility",
    /// A decision asked for where none may be (a trigger, a score, a starting value).
    DecisionNotAllowed = "decision-not-allowed",
    /// A division by zero while the game runs.
    DivisionByZero = "division-by-zero",
    /// A draft with more choosers than entries.
    DraftTooShort = "draft-too-short",
    /// The same name declared twice.
    DuplicateDefinition = "duplicate-definition",
    /// An `if ... else` value whose `else` branch gives no value.
    ElseFallsThrough = "else-falls-through",
    /// A draw, deal or take from a zone that has run out.
    EmptyZone = "empty-zone",
    /// A flow that loops without ever asking for a decision.
    EndlessFlow = "endless-flow",
    /// An exact enumeration that reached its budget of positions (`rpsdsl exact --budget`).
    ExactBudget = "exact-budget",
    /// Variant files that extend each other in a loop.
    ExtendsCycle = "extends-cycle",
    /// A game that did not end within its limit of decisions.
    GameTooLong = "game-too-long",
    /// A hook that failed while running.
    HookFailed = "hook-failed",
    /// A hook that returns a literal of another type than the one it declares.
    HookReturnType = "hook-return-type",
    /// The rhai code of a hook that does not parse.
    HookSyntax = "hook-syntax",
    /// An action that is not among the legal ones.
    IllegalAction = "illegal-action",
    /// A warning: a `beats` relation with two kinds of one set that neither beat each other nor are declared to tie.
    IncompleteRelation = "incomplete-relation",
    /// A file larger than rpsdsl reads.
    InputTooLarge = "input-too-large",
    /// A file that is not valid UTF-8.
    InvalidUtf8 = "invalid-utf8",
    /// A run that reached its memory cap (`--memory`) before it could answer.
    MemoryBudget = "memory-budget",
    /// A `break` outside a loop.
    MisplacedBreak = "misplaced-break",
    /// An `extends` that is not the first declaration.
    MisplacedExtends = "misplaced-extends",
    /// A `return` outside a procedure.
    MisplacedReturn = "misplaced-return",
    /// A `score` used outside the `result` section.
    MisplacedScore = "misplaced-score",
    /// A property a piece does not have, asked for while the game runs.
    MissingAttribute = "missing-attribute",
    /// A game without a `flow`.
    MissingFlow = "missing-flow",
    /// A file that does not name its game.
    MissingGame = "missing-game",
    /// A ring used where one space is meant, without saying which.
    MissingIndex = "missing-index",
    /// A variable kept per piece, used without saying which piece.
    MissingPiece = "missing-piece",
    /// A zone or variable kept per player, used without saying whose.
    MissingPlayer = "missing-player",
    /// A file that does not say how many players play.
    MissingPlayers = "missing-players",
    /// A procedure that can end without returning.
    MissingReturn = "missing-return",
    /// A zone or variable kept per space of a board, used without saying which space.
    MissingSpace = "missing-space",
    /// A procedure parameter without a type.
    MissingType = "missing-type",
    /// A count below zero (`deal -1`, `repeat -5 times`), written in the rules or met while the game runs.
    NegativeCount = "negative-count",
    /// `player` used where no player is being scored or choosing.
    NoCurrentPlayer = "no-current-player",
    /// `opponent of` in a game that does not have two players.
    NoSingleOpponent = "no-single-opponent",
    /// A piece named that the zone does not hold.
    NoSuchPiece = "no-such-piece",
    /// A player number the game does not have.
    NoSuchPlayer = "no-such-player",
    /// A board space number the board does not have.
    NoSuchSpace = "no-such-space",
    /// A `roll` of a piece that is not a die, or of a die without faces, met while the game runs.
    NotADie = "not-a-die",
    /// Rows, columns, directions, `forward` or runs asked of a board that is not a grid (runs: not a square grid).
    NotAGrid = "not-a-grid",
    /// A house-rules file that is not a house-rules file at all.
    NotAHouseFile = "not-a-house-file",
    /// A `display ... with picture` file that is not an SVG picture, or is too large to draw on every piece.
    NotAPicture = "not-a-picture",
    /// A directory, device, pipe or socket given where a file is read.
    NotARegularFile = "not-a-regular-file",
    /// A file given to `rpsdsl merge` that is not JSON.
    NotAReport = "not-a-report",
    /// A file that is not a rules file at all.
    NotARulesFile = "not-a-rules-file",
    /// A scenario file that is not a scenario file at all.
    NotAScenarioFile = "not-a-scenario-file",
    /// A file given to `rpsdsl replay` that is not JSON.
    NotATranscript = "not-a-transcript",
    /// A chain's edge that is not one of a grid's four sides (north, east, south or west), or the same side twice.
    NotAnEdge = "not-an-edge",
    /// A game `rpsdsl exact` cannot enumerate, or `rpsdsl solve` cannot solve, such as one with a race.
    NotEnumerable = "not-enumerable",
    /// A piece asked for its board space while it is not on that board.
    NotOnBoard = "not-on-board",
    /// A decision with nothing to choose from.
    NothingToChoose = "nothing-to-choose",
    /// Arithmetic past the range of a number while the game runs.
    Overflow = "overflow",
    /// An `override` of a part the base does not have.
    OverrideMissing = "override-missing",
    /// An `override` in a file that extends nothing.
    OverrideWithoutBase = "override-without-base",
    /// A picture asked for after more decisions than the game took (`rpsdsl render --at`).
    PositionNotReached = "position-not-reached",
    /// Changing something that never changes (an option, a constant, a loop variable).
    ReadOnly = "read-only",
    /// Reports given to `rpsdsl merge` that are not shards of one run.
    ReportsDiffer = "reports-differ",
    /// Reports given to `rpsdsl merge` that cover the same games.
    ReportsOverlap = "reports-overlap",
    /// A procedure that ended without returning its results, or an `anytime` action that ended outside a decision, met while the game runs.
    RuntimeError = "runtime-error",
    /// A scenario whose fixed shuffles or decisions do not match the game as played.
    ScenarioMismatch = "scenario-mismatch",
    /// A game tree that does not fit the budget of `rpsdsl solve --budget`.
    SolveBudget = "solve-budget",
    /// Text that does not follow the grammar.
    Syntax = "syntax",
    /// A run whose time (`--time`) ran out before it could answer.
    TimeBudget = "time-budget",
    /// Procedures that call each other too deep while the game runs.
    TooDeep = "too-deep",
    /// A file nested past the limit of levels.
    TooDeeplyNested = "too-deeply-nested",
    /// Actions with too many parameters to tell apart.
    TooManyActions = "too-many-actions",
    /// Rules or a procedure past the limit of declarations or local values.
    TooManyDeclarations = "too-many-declarations",
    /// The count of the diagnostics past the first hundred, which are not shown.
    TooManyErrors = "too-many-errors",
    /// A game past the limit of kinds.
    TooManyKinds = "too-many-kinds",
    /// A value of the wrong sort.
    TypeMismatch = "type-mismatch",
    /// An agent name that no agent has.
    UnknownAgent = "unknown-agent",
    /// A name that nothing declares.
    UnknownName = "unknown-name",
    /// An option the game does not declare.
    UnknownOption = "unknown-option",
    /// A rule that reads the order of a zone declared `unordered` (its top, bottom or first piece, a deal from it, or its order moved into an ordered zone).
    UnorderedRead = "unordered-read",
    /// Code that can never run.
    Unreachable = "unreachable",
    /// A file that cannot be read, or does not exist.
    UnreadableFile = "unreadable-file",
    /// A report given to `rpsdsl merge` that is not a report of this version.
    UnreadableReport = "unreadable-report",
    /// Two games given to `rpsdsl compare` that do not share seats and outcomes.
    UnrelatedGames = "unrelated-games",
    /// A warning: an option, variable or other part that nothing uses.
    Unused = "unused",
    /// A warning: the result of a hook that is thrown away.
    UnusedResult = "unused-result",
    /// Rules files that use each other in a loop.
    UseCycle = "use-cycle",
    /// A board-wide phrase in a game with more than one board.
    WhichBoard = "which-board",
    /// The wrong number of arguments or results.
    WrongArity = "wrong-arity",
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Serialized as its text, as the `code` field always was.
impl Serialize for Code {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Code;

    #[test]
    fn texts_are_unique_sorted_kebab_case() {
        let texts: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = texts.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(texts, sorted, "codes must be unique and listed alphabetically");
        for text in texts {
            assert!(
                text.split('-')
                    .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())),
                "`{text}` is not kebab-case"
            );
        }
    }

    #[test]
    fn every_code_has_a_summary() {
        for code in Code::ALL {
            let summary = code.summary();
            assert!(summary.ends_with('.') && !summary.contains('\n'), "{code}: `{summary}`");
        }
    }
}
