//! Where the constructs a reader sees as lines begin: every declaration,
//! statement and entry of a `{ ... }` list. The formatter indents a line
//! that begins one at its block's depth, and any other as a continuation.

use pest::Parser;
use pest::iterators::Pair;

use super::grammar::{PARSE_STACK, Rule, RulesParser};

/// Where the parts of a file that begin lines begin, as byte offsets in order.
#[derive(Debug, Default)]
pub struct LineStarts {
    /// A declaration, a statement or an entry of a list (a piece, a zone,
    /// a part of a board, a score term, a ranking key, an action, a draft
    /// entry).
    pub entries: Vec<usize>,
    /// A clause of an action: its `for` parameters or its `when`. On a line
    /// of its own it is indented half a continuation.
    pub clauses: Vec<usize>,
}

/// Where the entries and clauses of `text` begin; `None` when `text` does
/// not parse as a whole.
pub fn line_starts(text: &str) -> Option<LineStarts> {
    stacker::grow(PARSE_STACK, || {
        let file = RulesParser::parse(Rule::file, text).ok()?.next()?;
        let mut starts = LineStarts::default();
        collect(file, &mut starts);
        for list in [&mut starts.entries, &mut starts.clauses] {
            list.sort_unstable();
            list.dedup();
        }
        Some(starts)
    })
}

fn collect(pair: Pair<'_, Rule>, starts: &mut LineStarts) {
    if begins_a_line(pair.as_rule()) {
        starts.entries.push(pair.as_span().start());
    } else if matches!(pair.as_rule(), Rule::action_params | Rule::action_when) {
        starts.clauses.push(pair.as_span().start());
    }
    for inner in pair.into_inner() {
        crate::syntax::deeper(|| collect(inner, starts));
    }
}

fn begins_a_line(rule: Rule) -> bool {
    use Rule::*;
    matches!(
        rule,
        // declarations
        extends_decl | override_decl | table_decl | constant_decl | anytime_decl | game_decl | players_decl
            | use_decl | display_decl | kinds_decl | beats_decl | option_decl | var_decl | pieces_decl
            | group_decl | board_decl | zones_decl | setup_decl | flow_decl | procedure_decl
            | trigger_decl | hook_decl | score_decl | result_decl
            // entries of a declaration's list
            | piece_entry | zone_decl | ring_decl | space_decl | link_decl | forward_decl | slot_decl
            | score_term | rank_key | result_else | action_entry | draft_entry
            // statements
            | named_stmt | let_stmt | set_stmt | add_stmt | if_stmt | for_stmt | loop_stmt | while_stmt
            | repeat_stmt | break_stmt | return_stmt | race_stmt | choose_each_stmt | draft_stmt
            | shuffle_stmt | deal_stmt | move_stmt | reveal_stmt | win_stmt | draw_stmt | end_stmt
            | hide_stmt | say_stmt | swap_stmt | choose_actions_stmt | choose_stmt | call_stmt | roll_stmt
    )
}
