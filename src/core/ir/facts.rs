//! What every op is, in one table: how the interpreter and the compiled
//! tier run it, what it does to the value stack and to the flow, and what
//! it reads or changes. Every pass that needs a fact about ops reads it
//! here; a new op does not compile until its row is written.

use super::code::{MatchBy, Matcher, Op};

/// How an op runs, in the interpreter and in compiled code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runs {
    /// It moves values (the stack, locals, variables, options, arithmetic,
    /// comparisons): the interpreter's inner loop runs it, and compiled
    /// code is plain machine code reading no table.
    Values,
    /// The interpreter's inner loop runs it; compiled code reads the
    /// engine's memory or its own tables, or asks the engine to run the op
    /// in place.
    InPlace,
    /// It ends the procedure's frame: the inner loop pops the frame, and
    /// compiled code leaves its region.
    Return,
    /// The interpreter's slow path runs it (a call, a decision, a move, the
    /// end): compiled code hands it to the engine, which may stop there and
    /// later resume the frame at it or after it.
    Slow,
}

/// What an op depends on or does. Passes that skip or shorten work on
/// these facts err on the side of "could do anything".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Only values, the procedure's own locals, and what is fixed for the
    /// whole game: options, tables, seats, kinds, types, boards' shapes.
    Fixed,
    /// Reads what changes in a game but not what a piece is: variables,
    /// sizes of zones, which piece lies where. A sampled world's deal gives
    /// hidden pieces other faces and moves nothing, so it reads the same.
    ReadsPlaces,
    /// Reads what pieces are: their type, kind, value or owner, or counts
    /// and matches pieces by them.
    ReadsFaces,
    /// Changes the game, draws chance, asks, calls a hook, records an
    /// event, or ends the game.
    Changes,
}

impl Reach {
    /// Whether the op reads the game as it stands (places or faces).
    pub fn reads_game(self) -> bool {
        matches!(self, Reach::ReadsPlaces | Reach::ReadsFaces)
    }
}

/// What an op does to the value stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// It takes `pops` values and leaves `pushes` (for an op that hands
    /// control away: once it is back, as the op after it finds them).
    Takes {
        /// Values taken off the stack.
        pops: u32,
        /// Values left on it.
        pushes: u32,
    },
    /// The game's definition says: a procedure's parameters and results, a
    /// hook's arguments, an action's parameters.
    FromDefinition,
}

/// The facts about one op.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    /// How it runs.
    pub runs: Runs,
    /// What it does to the value stack.
    pub stack: Stack,
    /// Whether the op after it can run next from here (a jump, a return, a
    /// failure or the end of the game: no). Where else it may go is
    /// [`Op::target`].
    pub falls_through: bool,
    /// What it depends on or does.
    pub reach: Reach,
    /// Whether the engine may stop at it (to ask, to enter or leave a
    /// procedure, to end the game) and later go on at it or after it, so
    /// no fused instruction may span it. Every op of the slow path is
    /// taken to, but those that only compute a value.
    pub pauses: bool,
    /// Whether the op belongs to the frame or the flow it runs in: it
    /// calls, offers, asks or reads the answer, says a line, or ends the
    /// game. A procedure with such an op is never written into its
    /// callers (`native::inline`).
    pub bound_to_frame: bool,
}

/// The stack values a matcher reads: the type or kind, then the owner.
fn matcher_args(m: Matcher) -> u32 {
    let by = u32::from(matches!(m.by, MatchBy::TypeOnStack | MatchBy::KindOnStack));
    by + u32::from(m.owner)
}

impl Op {
    /// The facts about this op: the one table every pass reads.
    pub fn facts(self) -> Facts {
        use Reach::{Changes, Fixed, ReadsFaces, ReadsPlaces};
        use Runs::{InPlace, Return, Slow, Values};
        // One row per op: how it runs, values taken and left, what it reads
        // or changes. `ends` marks the ops after which nothing runs from here.
        let row = |runs, pops, pushes, reach| Facts {
            runs,
            stack: Stack::Takes { pops, pushes },
            falls_through: true,
            reach,
            pauses: matches!(runs, Slow | Return),
            bound_to_frame: false,
        };
        let ends = |facts: Facts| Facts {
            falls_through: false,
            ..facts
        };
        let from_definition = |reach| Facts {
            runs: Slow,
            stack: Stack::FromDefinition,
            falls_through: true,
            reach,
            pauses: true,
            bound_to_frame: false,
        };
        // A slow op that only computes a value (or fails): the engine never
        // stops at it to go on later.
        let computes = |facts: Facts| Facts { pauses: false, ..facts };
        // An op of the frame or the flow it runs in (see `bound_to_frame`).
        let bound = |facts: Facts| Facts {
            bound_to_frame: true,
            ..facts
        };
        match self {
            Op::Push(_) | Op::Load(_) | Op::LoadOption(_) => row(Values, 0, 1, Fixed),
            Op::LoadVar(_) => row(Values, 0, 1, ReadsPlaces),
            Op::Pop | Op::Store(_) => row(Values, 1, 0, Fixed),
            Op::Dup => row(Values, 1, 2, Fixed),
            Op::LoadAt(_) => row(InPlace, 1, 1, Fixed),
            Op::LoadVarAt(_) => row(InPlace, 1, 1, ReadsPlaces),
            Op::StoreVar(_) => row(Slow, 1, 0, Changes),
            Op::StoreVarAt(_) => row(Slow, 2, 0, Changes),
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem => row(Values, 2, 1, Fixed),
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => row(Values, 2, 1, Fixed),
            Op::Not | Op::Neg | Op::Opponent | Op::NextSeat => row(Values, 1, 1, Fixed),
            Op::Beats => row(InPlace, 2, 1, Fixed),
            Op::Jump(_) => ends(row(InPlace, 0, 0, Fixed)),
            Op::JumpIfFalse(_) | Op::JumpIfTrue(_) => row(InPlace, 1, 0, Fixed),
            Op::Next { .. } | Op::NextNeighbour { .. } => row(InPlace, 0, 0, Fixed),
            Op::NextPiece { .. } | Op::NextOnBoard { .. } => row(InPlace, 0, 0, ReadsFaces),
            // The walks over code follow a call into its procedure.
            Op::Call(_) => bound(from_definition(Fixed)),
            Op::Return => bound(ends(row(Return, 0, 0, Fixed))),
            // Counts one step, as a call does; the engine runs it only at
            // the step limit, to fail.
            Op::Inlined(_) => computes(row(Slow, 0, 0, Fixed)),
            Op::CallHook(_) => bound(from_definition(Changes)),
            Op::ZoneOf(_) | Op::KindAt(_) | Op::TypeAt(_) | Op::Table(_) => row(InPlace, 1, 1, Fixed),
            Op::Forward { .. } => row(InPlace, 1, 1, Fixed),
            Op::CellAt(_) | Op::Step(_) => row(InPlace, 2, 1, Fixed),
            Op::SpaceIn { .. } | Op::Coordinate { .. } | Op::OptionTable(_) => row(Slow, 1, 1, Fixed),
            Op::OptionLength(_) => row(Slow, 0, 1, Fixed),
            Op::Size => row(InPlace, 1, 1, ReadsPlaces),
            Op::Top | Op::Bottom => row(Slow, 1, 1, ReadsPlaces),
            Op::SpaceOf(_) => computes(row(Slow, 1, 1, ReadsPlaces)),
            Op::Attr(_) => row(InPlace, 1, 1, ReadsFaces),
            Op::Count(m) => row(InPlace, 1 + matcher_args(m), 1, ReadsFaces),
            Op::First(m) | Op::Matches(m) => row(Slow, 1 + matcher_args(m), 1, ReadsFaces),
            Op::CountInGame(m) | Op::CountOnBoard { matcher: m, .. } => row(InPlace, matcher_args(m), 1, ReadsFaces),
            Op::Lines { matcher: m, .. } | Op::LongestRun { matcher: m, .. } | Op::Chain { matcher: m, .. } => {
                row(Slow, matcher_args(m), 1, ReadsFaces)
            }
            // The choice ops are pure, but are kept as changes: nothing has
            // needed them read as fixed.
            Op::ActionValue { .. } => bound(computes(from_definition(Changes))),
            Op::ActionEntry(_) | Op::ActionParam { .. } => bound(row(InPlace, 1, 1, Changes)),
            // Clears the offers and notes where they began: the engine
            // never stops at it, but a decision interrupted by an `anytime`
            // action, or asked again in a sampled world, offers again from
            // it, so it is a place to resume at.
            Op::ChoiceReset => bound(Facts {
                pauses: true,
                ..row(InPlace, 0, 0, Changes)
            }),
            Op::ChoiceAdd => bound(row(InPlace, 2, 0, Changes)),
            // Records that nothing is on offer.
            Op::HasOffers(_) => bound(row(Slow, 1, 1, Changes)),
            // Asks one seat; on resume the answer is on the stack.
            Op::Ask(_) => bound(row(Slow, 1, 1, Changes)),
            Op::AskEach(..) | Op::Rank => bound(row(Slow, 0, 0, Changes)),
            Op::Move | Op::MoveAll | Op::SwapZones => row(Slow, 2, 0, Changes),
            Op::Deal => row(Slow, 3, 0, Changes),
            Op::Shuffle | Op::Hide | Op::Roll | Op::RollAll => row(Slow, 1, 0, Changes),
            // It records an event and goes on: the engine never stops at it.
            Op::Say(_) => bound(computes(from_definition(Changes))),
            Op::Reveal { to_one } => row(Slow, 1 + u32::from(to_one), 0, Changes),
            // The game ends, or the flow leaves for the scoring or the
            // interrupted decision: nothing after these runs from here.
            Op::Win(_) => bound(ends(row(Slow, 1, 0, Changes))),
            Op::DeclareDraw(_) | Op::EndGame | Op::ResumeAsk => bound(ends(row(Slow, 0, 0, Changes))),
            // An error, whatever the game.
            Op::Fail(_) => ends(row(Slow, 0, 0, Fixed)),
        }
    }

    /// Whether the interpreter's inner loop runs this op (else its slow path does).
    pub fn runs_in_place(self) -> bool {
        self.facts().runs != Runs::Slow
    }
}
