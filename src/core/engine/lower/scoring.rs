//! What the lowering reads ahead of time for the end of a game: conditions
//! that are one option (an `anytime` action's guard, a score term's
//! `when`), and how many pieces of each type and kind the game has.

use crate::ir::{GameDef, MatchBy, Matcher, Op};

/// A condition that is one option, or its negation: `when bonus_rule`,
/// `when not expansion`. Options do not change during a game, and the test
/// has no effect, so it is read without running code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OptionTest {
    pub(crate) option: u16,
    /// Whether the condition holds when the option is on.
    pub(crate) when_on: bool,
}

impl OptionTest {
    /// The test the code at `entry` makes, if it makes just that one.
    pub(super) fn of(code: &[Op], entry: u32) -> Option<OptionTest> {
        match code.get(entry as usize..)? {
            [Op::LoadOption(option), Op::Return, ..] => Some(OptionTest {
                option: *option,
                when_on: true,
            }),
            [Op::LoadOption(option), Op::Not, Op::Return, ..] => Some(OptionTest {
                option: *option,
                when_on: false,
            }),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn holds(self, options: &[i64]) -> bool {
        (options[usize::from(self.option)] != 0) == self.when_on
    }
}

/// How many pieces of the definition match each filter, per owner.
///
/// [`Op::CountInGame`] counts the pieces outside the box. A sampled world
/// deals the faces it redeals among pieces outside the box, so the faces of
/// all pieces are always the definition's pieces in some order: the count is
/// these totals less the matching pieces in the box, which is usually empty.
#[derive(Debug)]
pub(crate) struct PieceTotals {
    /// Columns per row: any owner, then each seat.
    columns: usize,
    /// A row per piece type.
    by_type: Vec<u32>,
    /// A row per kind.
    by_kind: Vec<u32>,
    /// One row: every piece.
    any: Vec<u32>,
}

impl PieceTotals {
    pub(super) fn of(def: &GameDef) -> PieceTotals {
        let columns = def.seats.len() + 1;
        let mut totals = PieceTotals {
            columns,
            by_type: vec![0; def.piece_types.len() * columns],
            by_kind: vec![0; def.kinds.len() * columns],
            any: vec![0; columns],
        };
        for piece in &def.pieces {
            let add = |table: &mut Vec<u32>, row: usize| {
                table[row * columns] += 1;
                if let Some(owner) = piece.owner {
                    table[row * columns + 1 + usize::from(owner)] += 1;
                }
            };
            add(&mut totals.by_type, usize::from(piece.ty));
            if let Some(kind) = piece.kind {
                add(&mut totals.by_kind, usize::from(kind));
            }
            add(&mut totals.any, 0);
        }
        totals
    }

    /// How many pieces of the definition `m` matches with these arguments
    /// (`key` for a type or kind on the stack, `owner` when it filters by owner).
    pub(crate) fn of_matcher(&self, def: &GameDef, m: Matcher, key: i64, owner: i64) -> i64 {
        let column = if !m.owner {
            0
        } else {
            match usize::try_from(owner) {
                Ok(seat) if seat + 1 < self.columns => seat + 1,
                _ => return 0,
            }
        };
        let row = |table: &[u32], row: i64| -> i64 {
            usize::try_from(row)
                .ok()
                .and_then(|row| table.get(row * self.columns + column))
                .map_or(0, |&n| i64::from(n))
        };
        match m.by {
            MatchBy::Any => row(&self.any, 0),
            MatchBy::Type(ty) => row(&self.by_type, i64::from(ty)),
            MatchBy::Group(group) => {
                // A type the group names twice still matches each piece once.
                let types = &def.groups[group as usize].types;
                (types.iter().enumerate())
                    .filter(|&(at, ty)| !types[..at].contains(ty))
                    .map(|(_, &ty)| row(&self.by_type, i64::from(ty)))
                    .sum()
            }
            MatchBy::TypeOnStack => row(&self.by_type, key),
            MatchBy::KindOnStack => row(&self.by_kind, key),
        }
    }
}

/// The option that, when off, makes the condition starting at `entry`
/// return false at once, if there is one: `when module_on and ...` starts
/// `LoadOption(module_on) Dup JumpIfFalse`, and the jump leads, through the
/// `Dup JumpIfFalse` of any further `and`, to the `Return`, which gives
/// the option's 0. Nothing on that path has an effect, so not running it
/// changes nothing. An `anytime` action a module's option turns off is
/// asked about at every decision: this keeps that cheap.
pub(super) fn option_guard(code: &[Op], entry: u32) -> Option<u16> {
    let entry = entry as usize;
    let (Op::LoadOption(option), Op::Dup, Op::JumpIfFalse(mut to)) =
        (*code.get(entry)?, *code.get(entry + 1)?, *code.get(entry + 2)?)
    else {
        return None;
    };
    loop {
        match (*code.get(to as usize)?, code.get(to as usize + 1).copied()) {
            (Op::Return, _) => return Some(option),
            // Forward only, so the walk ends.
            (Op::Dup, Some(Op::JumpIfFalse(next))) if next > to => to = next,
            _ => return None,
        }
    }
}
