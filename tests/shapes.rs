//! Sizes from options: a grid's rows and columns and the number of players
//! read from `int` options. The rules are checked again for the values in
//! force wherever a game is loaded (`--set`, a house-rules file), `check`
//! tries every value, and a definition built for other values refuses to
//! start.

mod common;

use std::path::Path;

use common::cli::{rpsdsl, stderr, stdout};
use rpsdsl::check::{FsLoader, OptionSetting};
use rpsdsl::load::{LoadedGame, load_game};

const TABLE: &str = "tests/games/high_card_table.rules";
const BREAKTHROUGH: &str = "games/classic/breakthrough.rules";

fn game(path: &str, set: &[(&str, &str)]) -> LoadedGame {
    let set: Vec<(String, String)> = set.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    let set = OptionSetting::recorded(&set);
    load_game(Path::new(path), &FsLoader, |_| Ok(set))
        .unwrap_or_else(|f| panic!("{}", rpsdsl::diagnostic::render(&f.diagnostics, &f.sources, false)))
}

#[test]
fn the_number_of_players_comes_from_an_option() {
    for (seats, names) in [
        ("2", vec!["North", "East"]),
        ("3", vec!["North", "East", "South"]),
        ("4", vec!["North", "East", "South", "West"]),
    ] {
        let loaded = game(TABLE, &[("seats", seats)]);
        assert_eq!(loaded.def.seats, names);
        // Every seat is dealt a card and answers, and someone wins.
        let mut agents = rpsdsl::agents::from_spec("random", loaded.def.players(), 3).unwrap();
        let record = rpsdsl::session::play(
            &loaded.def,
            &loaded.options,
            3,
            &rpsdsl::scenario::Scenario::default(),
            &mut agents,
        )
        .unwrap();
        assert_eq!(record.decisions.len(), names.len(), "one answer a seat");
        assert!(record.outcome.is_some());
    }
    // The default seats three.
    assert_eq!(common::load(TABLE).players(), 3);
}

#[test]
fn run_and_simulate_play_the_size_set() {
    let out = rpsdsl(&["run", TABLE, "--set", "seats=4", "--seed", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("West chooses trade"), "{}", stdout(&out));
    let out = rpsdsl(&[
        "run",
        BREAKTHROUGH,
        "--set",
        "rows=5",
        "--set",
        "columns=4",
        "--seed",
        "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // 20 spaces: none past field 20.
    assert!(text.contains("field 20"), "{text}");
    assert!(!text.contains("field 21"), "{text}");
    let out = rpsdsl(&["simulate", TABLE, "--set", "seats=2", "--games", "50"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stdout(&out).contains("South wins"), "{}", stdout(&out));
}

#[test]
fn a_house_rules_file_sets_a_size() {
    let dir = common::cli::scratch("shapes/house");
    std::fs::create_dir_all(&dir).unwrap();
    let rules = std::fs::canonicalize(BREAKTHROUGH).unwrap();
    let house = dir.join("small.toml");
    std::fs::write(
        &house,
        format!(
            "rules = {:?}\nname = \"six by six\"\n[options]\nrows = 6\ncolumns = 6\n",
            rules.display().to_string()
        ),
    )
    .unwrap();
    let loaded = load_game(&house, &FsLoader, |_| Ok(vec![]))
        .unwrap_or_else(|f| panic!("{}", rpsdsl::diagnostic::render(&f.diagnostics, &f.sources, false)));
    assert_eq!((loaded.def.boards[0].rows, loaded.def.boards[0].cols), (6, 6));
    assert!(loaded.def.name.contains("six by six"), "{}", loaded.def.name);
}

#[test]
fn a_size_outside_the_options_range_is_refused_on_the_value() {
    let out = rpsdsl(&["run", BREAKTHROUGH, "--set", "rows=3"]);
    // A usage error, as any option value outside its range.
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad-option-value"), "{err}");
    assert!(err.contains("--set rows=3"), "{err}");
}

#[test]
fn check_tries_every_value_of_a_size() {
    // Clean at every size.
    let out = rpsdsl(&["check", BREAKTHROUGH]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A mistake only smaller yards show, said with the value.
    let out = rpsdsl(&["check", "tests/fixtures/grid_off_board_at_a_smaller_size.rules"]);
    assert_eq!(out.status.code(), Some(1));
    let err = common::cli::stderr_unwrapped(&out);
    assert!(err.contains("with option `side = 3`"), "{err}");
}

#[test]
fn a_ring_counts_its_spaces_from_an_option() {
    let text = "game \"Ring Walk\"\nplayers 2: Ann, Ben\n\
                option stops: int in 3..12 = 6 \"Spaces around the ring\"\n\
                board track: graph {\n  ring stop stops wraps\n  spot public\n}\n\
                var pos = 0\n\
                flow {\n  repeat 3 times {\n    Ann chooses next from adjacent of stop[pos]\n    \
                set pos = (pos + 1) % stops\n  }\n  win Ann\n}\n";
    for (stops, spaces) in [(&[][..], 6), (&[("stops".to_string(), 4)][..], 4)] {
        let checked = rpsdsl::check::check_source_shaped("ring.rules", text, &FsLoader, stops)
            .unwrap_or_else(|f| panic!("{}", rpsdsl::diagnostic::render(&f.diagnostics, &f.sources, false)));
        let board = &checked.def.boards[0];
        assert_eq!(board.spaces(), spaces);
        // It wraps: the last space touches the first.
        assert!(board.adjacent[usize::from(spaces - 1)].contains(&0));
    }
}
