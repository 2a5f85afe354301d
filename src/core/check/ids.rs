//! Ids: every table of a definition (kinds, zones, procedures, decisions...)
//! is indexed by a 16-bit id. Ids are handed out here and nowhere else, so
//! none can wrap: a table that is full is a `too-many-declarations` error at
//! the declaration that asked for one more entry.

use crate::diagnostic::{Code, Diagnostic, Span};

/// Most entries a table holds. Ids run from 0 to `LIMIT - 1`, so
/// `u16::MAX` is never an id (see [`NO_ROOM`]).
pub(crate) const LIMIT: usize = u16::MAX as usize;

/// Stands in for an id a full table had no room for. The error that comes
/// with it keeps the definition from being used; the check goes on to find
/// the rules' other mistakes.
pub(crate) const NO_ROOM: u16 = u16::MAX;

/// A table of the definition, named in the error when it is full.
#[derive(Clone, Copy)]
pub(crate) enum Table {
    KindSets,
    PieceTypes,
    Groups,
    Zones,
    ZoneFamilies,
    Boards,
    Options,
    Variables,
    /// The values held in variables: one per player for `per player`.
    VariableValues,
    Tables,
    Procedures,
    /// The parameters of one procedure.
    Parameters,
    /// The results of one procedure.
    Results,
    Hooks,
    HookCalls,
    Triggers,
    Decisions,
    /// The actions of one choice.
    Actions,
    Messages,
    PieceFilters,
    /// The lines of `say` statements.
    SaidLines,
}

impl Table {
    fn name(self) -> &'static str {
        match self {
            Table::KindSets => "kind sets",
            Table::PieceTypes => "piece types",
            Table::Groups => "groups",
            Table::Zones => "zones",
            Table::ZoneFamilies => "zone families",
            Table::Boards => "boards",
            Table::Options => "options",
            Table::Variables | Table::VariableValues => "variables",
            Table::Tables => "tables",
            Table::Procedures => "procedures",
            Table::Parameters => "parameters",
            Table::Results => "results",
            Table::Hooks => "hooks",
            Table::HookCalls => "hook calls",
            Table::Triggers => "triggers",
            Table::Decisions => "decisions",
            Table::Actions => "actions",
            Table::Messages => "messages",
            Table::PieceFilters => "piece filters",
            Table::SaidLines => "`say` lines",
        }
    }

    /// The error for one entry too many, at the declaration that asked for it.
    fn full(self, span: Span) -> Diagnostic {
        let error = Diagnostic::error(Code::TooManyDeclarations, format!("too many {}", self.name()));
        match self {
            Table::Zones => error
                .label(span, format!("more than {LIMIT} zones with these"))
                .help(format!(
                    "a definition has at most {LIMIT} zones; a slot of a board is one zone per space"
                )),
            Table::VariableValues => error
                .label(span, format!("more than {LIMIT} values with this one"))
                .help(format!(
                    "a definition holds at most {LIMIT} values in its variables (a per-player variable holds one per player)"
                )),
            Table::Parameters | Table::Results | Table::Actions => {
                let whose = match self {
                    Table::Parameters => "a procedure takes",
                    Table::Results => "a procedure returns",
                    _ => "a choice offers",
                };
                error
                    .label(span, format!("more than {LIMIT} {} here", self.name()))
                    .help(format!(
                        "{whose} at most {LIMIT} {}; docs/language.md lists the limits",
                        self.name()
                    ))
            }
            _ => error
                .label(span, format!("more than {LIMIT} {} with this one", self.name()))
                .help(format!(
                    "a definition has at most {LIMIT} {}; docs/language.md lists the limits",
                    self.name()
                )),
        }
    }
}

/// The id of a new entry of `table`, which holds `len` entries, or the
/// error saying it is full.
pub(crate) fn next_id(len: usize, table: Table, span: Span) -> Result<u16, Diagnostic> {
    first_of(len, 1, table, span)
}

/// The first of `count` consecutive new ids of `table` (the zones of a
/// family, the values of a per-player variable), or the error saying they
/// do not fit.
pub(crate) fn first_of(len: usize, count: usize, table: Table, span: Span) -> Result<u16, Diagnostic> {
    match len.checked_add(count) {
        Some(end) if end <= LIMIT => Ok(len as u16),
        _ => Err(table.full(span)),
    }
}

/// How many entries a list holds (a procedure's parameters, its results),
/// or the error saying it is too long.
pub(crate) fn count(len: usize, table: Table, span: Span) -> Result<u16, Diagnostic> {
    if len <= LIMIT {
        Ok(len as u16)
    } else {
        Err(table.full(span))
    }
}

/// An existing index (or a count) as an id. For what a tighter limit keeps
/// small, or what [`next_id`] handed out: a kind (at most 1,024), a seat
/// (8), a space of a board (4,096), an entry of a table already allocated.
pub(crate) fn index(index: impl TryInto<u16>) -> u16 {
    index
        .try_into()
        .unwrap_or_else(|_| panic!("an index past the limit of ids: the tables are checked when filled"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_id_is_below_no_room() {
        let span = Span::default();
        assert_eq!(next_id(LIMIT - 1, Table::Decisions, span).ok(), Some(NO_ROOM - 1));
        let full = next_id(LIMIT, Table::Decisions, span).unwrap_err();
        assert_eq!(full.code, Code::TooManyDeclarations);
        assert_eq!(full.message, "too many decisions");
    }

    #[test]
    fn a_run_of_ids_fits_whole_or_not_at_all() {
        let span = Span::default();
        assert_eq!(first_of(LIMIT - 8, 8, Table::Zones, span).ok(), Some(NO_ROOM - 8));
        assert!(first_of(LIMIT - 8, 9, Table::Zones, span).is_err());
        assert!(first_of(usize::MAX, 1, Table::Zones, span).is_err());
        assert_eq!(count(LIMIT, Table::Parameters, span).ok(), Some(NO_ROOM));
        assert!(count(LIMIT + 1, Table::Parameters, span).is_err());
    }
}
