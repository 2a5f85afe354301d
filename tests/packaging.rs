//! What a user gets around the engine: where `check` prints, the `options`
//! table, the licence, shell completions and the manual page.

mod common;

use common::cli::{rpsdsl, stderr, stdout};

#[test]
fn check_prints_ok_on_stdout_and_diagnostics_on_stderr() {
    let ok = rpsdsl(&["check", "games/rps.rules"]);
    assert!(ok.status.success());
    assert_eq!(stdout(&ok), "games/rps.rules: ok\n");
    assert_eq!(stderr(&ok), "");

    let bad = rpsdsl(&["check", "games/rps.rules", "tests/fixtures/unknown_name_typo.rules"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stdout(&bad), "games/rps.rules: ok\n", "only the file that checks is ok");
    assert!(stderr(&bad).contains("unknown name `winer`"), "{}", stderr(&bad));
}

/// The columns of a table printed with two spaces or more between them: the
/// character offset each column starts at.
fn column_starts(line: &str) -> Vec<usize> {
    let chars: Vec<char> = line.chars().collect();
    let mut starts = vec![0];
    for i in 2..chars.len() {
        if chars[i] != ' ' && chars[i - 1] == ' ' && chars[i - 2] == ' ' {
            starts.push(i);
        }
    }
    starts
}

#[test]
fn the_options_table_lines_up_under_its_header() {
    // Every value in rps.rules is narrower than its header ("value" over "1"),
    // which is where widths taken from the rows alone went wrong.
    for (file, rows) in [("games/rps.rules", 1), ("games/house/both_modules.toml", 3)] {
        let out = rpsdsl(&["options", file]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + rows, "{text}");
        assert!(lines[0].starts_with("option"), "{text}");
        let header = column_starts(lines[0]);
        assert_eq!(header.len(), 4, "{text}");
        for line in &lines[1..] {
            assert_eq!(column_starts(line)[..4], header[..], "{text}");
            assert_eq!(line.trim_end(), *line, "no trailing spaces: {line:?}");
        }
    }
}

#[test]
fn the_options_table_shows_a_house_rule_beside_its_default() {
    let text = stdout(&rpsdsl(&["options", "games/house/both_modules.toml"]));
    let goggles = text.lines().find(|l| l.starts_with("goggles")).unwrap();
    assert!(goggles.contains("true (default false)"), "{text}");
}

#[test]
fn the_licence_file_is_the_one_cargo_toml_names() {
    let manifest = std::fs::read_to_string("Cargo.toml").unwrap();
    assert!(manifest.contains("license = \"MIT\""), "Cargo.toml names MIT");
    let licence = std::fs::read_to_string("LICENSE").expect("a LICENSE file");
    assert!(licence.starts_with("MIT License\n"), "{licence}");
    assert!(licence.contains("Permission is hereby granted, free of charge"));
}

#[test]
fn completions_cover_every_command_in_each_shell() {
    let bash = rpsdsl(&["completions", "bash"]);
    assert!(bash.status.success(), "{}", stderr(&bash));
    let script = stdout(&bash);
    assert!(script.contains("complete -F _rpsdsl"), "a bash completion function");
    for command in [
        "check",
        "run",
        "play",
        "simulate",
        "compare",
        "options",
        "man",
        "completions",
    ] {
        assert!(script.contains(command), "`{command}` completes");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let out = rpsdsl(&["completions", shell]);
        assert!(out.status.success() && stdout(&out).contains("rpsdsl"), "{shell}");
    }
    let unknown = rpsdsl(&["completions", "tcsh"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("possible values"), "{}", stderr(&unknown));
}

#[test]
fn the_man_page_is_roff_naming_every_command() {
    let out = rpsdsl(&["man"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains(".TH rpsdsl 1"), "{page}");
    for command in ["check", "run", "play", "simulate", "compare", "options"] {
        assert!(page.contains(&format!("rpsdsl\\-{command}(1)")), "{command}");
    }
}

#[test]
fn man_dir_writes_a_page_per_command() {
    let dir = std::env::temp_dir().join(format!("rpsdsl-man-{}", std::process::id()));
    let out = rpsdsl(&["man", "--dir", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let run = std::fs::read_to_string(dir.join("rpsdsl-run.1")).unwrap();
    assert!(run.contains("\\-\\-seed"), "the run page lists its flags");
    assert!(dir.join("rpsdsl.1").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
