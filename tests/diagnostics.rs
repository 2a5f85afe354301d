//! Diagnostics for malformed rules files.
//!
//! Every `tests/fixtures/*.rules` file is a plausible designer mistake, with a
//! comment at the top saying what is wrong. Each is checked exactly as
//! `rpsdsl check` does (check, then on success 20 quick random playtests), and
//! the rendered diagnostics are snapshot-tested in `snapshots/`.

mod common;

use std::path::{Path, PathBuf};

use rpsdsl::check::FsLoader;
use rpsdsl::diagnostic::{Diagnostic, Sources, render};

const FIXTURES: &str = "tests/fixtures";

/// Quick playtests per fixture, as `rpsdsl check` runs them.
const SMOKE_GAMES: u64 = 20;

/// Every fixture and the code it must report (as an error).
const EXPECTED: &[(&str, &str)] = &[
    ("action_number_out_of_range", "bad-action"),
    ("bad_domain", "bad-domain"),
    ("beats_tie_and_win", "bad-relation"),
    ("count_zone_as_filter", "type-mismatch"),
    ("decision_in_trigger", "decision-not-allowed"),
    ("dice_faces_backwards", "bad-piece-count"),
    ("draft_too_short", "draft-too-short"),
    ("duplicate_definition", "duplicate-definition"),
    ("grid_bad_direction", "bad-board"),
    ("grid_chain_on_graph", "not-a-grid"),
    ("grid_chain_same_side", "not-an-edge"),
    ("grid_chain_to_a_corner", "not-an-edge"),
    ("grid_forward_undeclared", "not-a-grid"),
    ("grid_off_board_at_a_smaller_size", "no-such-space"),
    ("grid_row_of_graph", "not-a-grid"),
    ("grid_run_of_zone", "type-mismatch"),
    ("grid_run_on_hex", "not-a-grid"),
    ("grid_size_from_a_variable", "bad-board"),
    ("grid_size_option_too_wide", "bad-board"),
    ("grid_step_by_number", "type-mismatch"),
    ("grid_step_needs_brackets", "type-mismatch"),
    ("grid_step_off_board", "no-such-space"),
    ("hook_count_unknown_kind", "hook-failed"),
    ("hook_fails_behind_option", "hook-failed"),
    ("hook_recursion", "hook-failed"),
    ("hook_return_type", "hook-return-type"),
    ("hook_returns_number_for_bool", "hook-failed"),
    ("hook_runaway", "hook-failed"),
    ("hook_syntax", "hook-syntax"),
    ("length_of_a_number", "type-mismatch"),
    ("let_wrong_arity", "wrong-arity"),
    ("missing_game", "missing-game"),
    ("missing_return", "missing-return"),
    ("negative_count_computed", "negative-count"),
    ("negative_count_written", "negative-count"),
    ("number_overflow_in_a_product", "overflow"),
    ("number_overflow_in_loop", "overflow"),
    ("option_default_out_of_range", "bad-option-value"),
    ("option_wrong_type", "bad-option-value"),
    ("or_when_not_bool", "type-mismatch"),
    ("piece_count_from_option", "bad-piece-count"),
    ("player_three", "no-such-player"),
    ("players_option_outruns_names", "bad-player-count"),
    ("proc_wrong_arity", "wrong-arity"),
    ("quantifier_all_without_condition", "syntax"),
    ("recovery_every_declaration", "syntax"),
    ("remainder_by_zero", "division-by-zero"),
    ("ring_size_from_a_list", "bad-board"),
    ("say_shows_a_zone", "type-mismatch"),
    ("seat_named_for_some_counts", "unknown-name"),
    ("seat_number_in_a_name", "syntax"),
    ("reserved_word_calls", "syntax"),
    ("roll_not_a_die", "not-a-die"),
    ("syntax_equals_for_compare", "syntax"),
    ("syntax_unfinished_statement_before_brace", "syntax"),
    ("syntax_missing_brace", "syntax"),
    ("syntax_two_errors", "syntax"),
    ("syntax_unclosed_before_procedure", "syntax"),
    ("table_keyed_by_a_number", "type-mismatch"),
    ("table_keyed_missing_a_kind", "bad-table"),
    ("table_keyed_mixing_sets", "bad-table"),
    ("type_move_location", "type-mismatch"),
    ("type_win_number", "type-mismatch"),
    ("unknown_kind_in_beats", "unknown-name"),
    ("unknown_name_typo", "unknown-name"),
    ("unknown_zone_in_pieces", "unknown-name"),
    ("var_per_piece_without_a_piece", "missing-piece"),
    ("var_per_space_of_a_misspelt_board", "unknown-name"),
    ("var_per_space_of_another_board", "type-mismatch"),
    ("var_per_space_without_a_space", "missing-space"),
    ("unordered_hand_onto_deck", "unordered-read"),
    ("unordered_hand_top", "unordered-read"),
    ("unreachable_after_loop", "unreachable"),
    ("unreachable_result", "unreachable"),
];

/// Rules that check without errors, each with the warnings it must bring
/// (none: a lint must not fire). Kept apart, in `tests/fixtures/lints/`,
/// since every fixture above must fail.
const LINT_FIXTURES: &str = "tests/fixtures/lints";
const EXPECTED_WARNINGS: &[(&str, &[&str])] = &[
    ("beats_declared_ties", &[]),
    ("beats_incomplete", &["incomplete-relation"]),
];

/// Fixtures whose mistake must be reported more than once (by code).
const EXPECTED_COUNT: &[(&str, &str, usize)] = &[
    ("syntax_two_errors", "syntax", 2),
    // Recovery resumes at `table`, `constant` and `anytime` as at any other
    // declaration (it used to skip them, reporting 1 of these 4).
    ("recovery_every_declaration", "syntax", 4),
];

/// `tests/fixtures/*.rules`, sorted, as relative paths so rendered file names are stable.
fn fixtures() -> Vec<PathBuf> {
    fixtures_in(FIXTURES)
}

/// The `*.rules` files of `dir`, sorted, as relative paths.
fn fixtures_in(dir: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the fixtures directory exists")
        .map(|entry| Path::new(dir).join(entry.expect("readable directory entry").file_name()))
        .filter(|path| path.extension().is_some_and(|e| e == "rules"))
        .collect();
    paths.sort();
    paths
}

fn stem(path: &Path) -> String {
    path.file_stem().expect("a file name").to_string_lossy().into_owned()
}

/// Checks `path` as `rpsdsl check` does: warnings plus playtest failures on
/// success, every diagnostic on failure.
fn diagnose(path: &Path) -> (Vec<Diagnostic>, Sources) {
    rpsdsl::playtest::check_and_playtest(path, &FsLoader, SMOKE_GAMES)
}

#[test]
fn every_fixture_is_listed_and_explained() {
    let stems: Vec<String> = fixtures().iter().map(|p| stem(p)).collect();
    assert!(
        stems.len() >= 18,
        "expected at least 18 fixtures, found {}",
        stems.len()
    );
    for stem in &stems {
        assert!(
            EXPECTED.iter().any(|(s, _)| s == stem),
            "fixture `{stem}` has no entry in EXPECTED"
        );
    }
    for (stem, _) in EXPECTED {
        assert!(
            stems.iter().any(|s| s == stem),
            "EXPECTED lists `{stem}`, but there is no such fixture"
        );
    }
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# "),
            "{} must start with a comment saying what is wrong",
            path.display()
        );
    }
}

#[test]
fn fixtures_report_expected_errors() {
    let mut problems = vec![];
    for path in fixtures() {
        let stem = stem(&path);
        let (diagnostics, _) = diagnose(&path);
        let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
        if !diagnostics.iter().any(Diagnostic::is_error) {
            problems.push(format!("{stem}: no error, only {codes:?}"));
        }
        if let Some((_, code)) = EXPECTED.iter().find(|(s, _)| *s == stem)
            && !diagnostics.iter().any(|d| d.code.as_str() == *code && d.is_error())
        {
            problems.push(format!("{stem}: expected an error `{code}`, got {codes:?}"));
        }
        for (_, code, count) in EXPECTED_COUNT.iter().filter(|(s, _, _)| *s == stem) {
            let found = diagnostics.iter().filter(|d| d.code.as_str() == *code).count();
            if found < *count {
                problems.push(format!("{stem}: expected {count} `{code}` errors, got {found}"));
            }
        }
    }
    assert!(problems.is_empty(), "fixture problems:\n{}", problems.join("\n"));
}

#[test]
fn fixture_diagnostics_snapshots() {
    for path in fixtures() {
        let stem = stem(&path);
        let (diagnostics, sources) = diagnose(&path);
        let rendered = render(&diagnostics, &sources, false);
        common::snap::assert_snapshot!(format!("diagnostic__{}", stem), rendered);
    }
}

#[test]
fn lint_fixtures_warn_exactly_as_expected() {
    let paths = fixtures_in(LINT_FIXTURES);
    let stems: Vec<String> = paths.iter().map(|p| stem(p)).collect();
    assert_eq!(
        stems,
        EXPECTED_WARNINGS.iter().map(|(s, _)| s.to_string()).collect::<Vec<_>>(),
        "every lint fixture is listed in EXPECTED_WARNINGS, in order"
    );
    for (path, (stem, expected)) in paths.iter().zip(EXPECTED_WARNINGS) {
        assert!(
            std::fs::read_to_string(path).unwrap().starts_with("# "),
            "{stem} starts with a comment"
        );
        let (diagnostics, sources) = diagnose(path);
        let codes: Vec<&str> = diagnostics.iter().map(|d| d.code.as_str()).collect();
        assert!(
            !diagnostics.iter().any(Diagnostic::is_error),
            "{stem}: unexpected errors {codes:?}"
        );
        assert_eq!(codes, *expected, "{stem}: warnings");
        let rendered = render(&diagnostics, &sources, false);
        common::snap::assert_snapshot!(format!("diagnostic__lint_{}", stem), rendered);
    }
}
