//! Option domains: a `list of int in A..B with N..M items` option refuses a
//! value outside its domain, whether it is the default, a `--set` or a
//! house-rules or scenario setting, with the diagnostic on the value.

mod common;

use std::path::PathBuf;

use common::cli::{rpsdsl, stderr};
use rpsdsl::check::{FsLoader, check_source};
use rpsdsl::ir::OptionType;

fn scratch(name: &str) -> PathBuf {
    common::cli::scratch(&format!("option_domains/{name}"))
}

/// A small game with one list option declared as `ty = default`.
fn game(ty_and_default: &str) -> String {
    format!(
        "game \"Lists\"\nplayers 2\noption schedule: {ty_and_default} \"Per turn\"\n\
         flow {{ if table schedule at 1 > 0 {{ win player 1 }} else {{ win player 2 }} }}\n"
    )
}

/// The codes and the text of the first label of each diagnostic.
fn problems(text: &str) -> Vec<(String, String, String)> {
    match check_source("lists.rules", text, &FsLoader) {
        Ok(_) => vec![],
        Err(failed) => failed
            .diagnostics
            .iter()
            .map(|d| {
                let label = d.labels.first().map(|l| failed.sources.text(l.span).to_string());
                (d.code.to_string(), d.message.clone(), label.unwrap_or_default())
            })
            .collect(),
    }
}

#[test]
fn a_default_outside_the_domain_is_refused_at_the_default() {
    let found = problems(&game("list of int in 1..1000 with 1..5 items = [10, 0, 2000]"));
    assert_eq!(found.len(), 1, "{found:?}");
    let (code, message, label) = &found[0];
    assert_eq!(code, "bad-option-value");
    assert!(message.contains("has 0 as item 2, outside 1..1000"), "{message}");
    assert_eq!(label, "[10, 0, 2000]");

    let found = problems(&game("list of int in 1..1000 with 1..5 items = []"));
    assert!(found[0].1.contains("has 0 items, but needs 1 to 5"), "{found:?}");
    let found = problems(&game("list of int in 1..1000 with 1..2 items = [1, 2, 3]"));
    assert!(found[0].1.contains("has 3 items, but needs 1 to 2"), "{found:?}");
    // Without a `with` clause a list still needs one item: `table ... at` reads one.
    let found = problems(&game("list of int = []"));
    assert!(found[0].1.contains("has 0 items, but needs 1 or more"), "{found:?}");
    // Within the domain, all is well.
    assert_eq!(
        problems(&game("list of int in 1..1000 with 1..5 items = [10, 20]")),
        vec![]
    );
    assert_eq!(problems(&game("list of int = [0, 7]")), vec![]);
}

#[test]
fn a_domain_that_allows_nothing_or_an_empty_list_is_refused_at_the_type() {
    let found = problems(&game("list of int in 1..10 with 0..5 items = [1]"));
    assert_eq!(found[0].0, "bad-option-type", "{found:?}");
    assert!(found[0].1.contains("at least 1 item"), "{found:?}");
    assert!(found[0].2.contains("with 0..5 items"), "{found:?}");
    let found = problems(&game("list of int in 10..1 = [5]"));
    assert_eq!(found[0].0, "bad-option-type", "{found:?}");
    let found = problems(&game("list of int with 3..2 items = [5, 5]"));
    assert_eq!(found[0].0, "bad-option-type", "{found:?}");
}

#[test]
fn a_set_outside_the_domain_is_refused_at_the_command_line() {
    for (value, problem) in [
        ("[-50]", "has -50 as item 1, outside 1..1000000"),
        ("[]", "has 0 items, but needs 1 to 5"),
        ("[1, 2, 3, 4, 5, 6]", "has 6 items, but needs 1 to 5"),
        ("[1,,2]", "is not a list of 1 to 5 whole numbers from 1 to 1000000"),
    ] {
        let setting = format!("blind_schedule={value}");
        let out = rpsdsl(&[
            "run",
            "games/rps_poker.rules",
            "--set",
            "blinds=true",
            "--set",
            &setting,
        ]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("rpsdsl::bad-option-value"), "{err}");
        assert!(err.contains(problem), "{value}: {err}");
        assert!(
            err.contains("expected a list of 1 to 5 whole numbers from 1 to 1000000"),
            "{err}"
        );
        assert!(err.contains(&format!("--set {setting}")), "{err}");
    }
    let fine = rpsdsl(&[
        "run",
        "games/rps_poker.rules",
        "--set",
        "blinds=true",
        "--set",
        "blind_schedule=[5, 10]",
    ]);
    assert_eq!(fine.status.code(), Some(0), "{}", stderr(&fine));
}

#[test]
fn a_house_or_scenario_setting_outside_the_domain_is_refused_at_its_value() {
    let dir = scratch("house");
    let rules = std::fs::canonicalize("games/rps_poker.rules").unwrap();
    let house = dir.join("negative.toml");
    std::fs::write(
        &house,
        format!(
            "rules = {:?}\n\n[options]\nblinds = true\nblind_schedule = [10, -50]\n",
            rules.display().to_string()
        ),
    )
    .unwrap();
    let out = rpsdsl(&["check", "--json", house.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diagnostic = &json[0]["diagnostics"][0];
    assert_eq!(diagnostic["code"], "rpsdsl::bad-option-value");
    assert!(
        diagnostic["message"].as_str().unwrap().contains("has -50 as item 2"),
        "{diagnostic}"
    );
    let label = &diagnostic["labels"][0];
    assert_eq!(label["file"], house.display().to_string());
    assert_eq!((label["line"].as_u64(), label["column"].as_u64()), (Some(5), Some(18)));

    let scenario = dir.join("empty.toml");
    std::fs::write(&scenario, "[options]\nblind_schedule = []\n").unwrap();
    let out = rpsdsl(&["run", "games/rps_poker.rules", "--scenario", scenario.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("has 0 items, but needs 1 to 5"), "{err}");
}

/// Every shipped option that is a number or a list of numbers says which
/// numbers make sense, and how many items.
#[test]
fn every_shipped_number_option_has_a_domain() {
    let mut files = vec![];
    for dir in ["games", "games/variants"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rules") {
                files.push(path);
            }
        }
    }
    let mut lists = 0;
    for path in files {
        let def = rpsdsl::check::check_file(&path, &FsLoader).unwrap().def;
        for option in &def.options {
            match option.ty {
                OptionType::Int { min, max } => {
                    assert!(
                        min != i64::MIN && max != i64::MAX,
                        "{}: option `{}` has no range",
                        path.display(),
                        option.name
                    );
                }
                OptionType::IntList {
                    min,
                    max,
                    min_items,
                    max_items,
                } => {
                    lists += 1;
                    assert!(
                        min != i64::MIN && max != i64::MAX && min_items >= 1 && max_items != usize::MAX,
                        "{}: list option `{}` has no domain",
                        path.display(),
                        option.name
                    );
                }
                _ => {}
            }
        }
    }
    assert!(lists > 0, "RPS Poker's blind schedule is a list option");
}
