//! Input files that are not what they claim: devices, pipes, directories,
//! huge files, bytes that are not UTF-8, and files that are no rules file at
//! all. Each gets a clear diagnostic; nothing hangs, reads without bound, or
//! shows the content of a file that is not a rules file.

mod common;

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use common::cli::{stderr, stderr_unwrapped};

/// Runs the binary, failing the test (instead of hanging) after 30 s.
fn rpsdsl(args: &[&str]) -> Output {
    common::cli::rpsdsl_within(args, Duration::from_secs(30))
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    common::cli::scratch(&format!("hostile_input/{name}"))
}

/// Checks the exit status and the code, and returns stderr unwrapped.
fn expect_code(out: &Output, code: &str) -> String {
    let err = stderr_unwrapped(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("rpsdsl::{code}")), "expected {code}:\n{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[cfg(unix)]
#[test]
fn devices_are_refused_whatever_the_role_of_the_file() {
    let dir = scratch("devices");
    let uses = dir.join("uses_zero.rules");
    std::fs::write(&uses, "use \"/dev/zero\"\ngame \"X\"\nplayers 2\n").unwrap();
    let house = dir.join("house.toml");
    std::fs::write(&house, "rules = \"/dev/zero\"\n").unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["check", "/dev/zero"],
        vec!["check", uses.to_str().unwrap()],
        vec!["run", house.to_str().unwrap()],
        vec!["run", "games/rps.rules", "--scenario", "/dev/zero"],
        vec!["replay", "/dev/zero"],
        vec!["merge", "/dev/zero"],
    ];
    for args in cases {
        let err = expect_code(&rpsdsl(&args), "not-a-regular-file");
        assert!(err.contains("`/dev/zero`") && err.contains("a device"), "{err}");
    }
    // The `use` that named the device is pointed at.
    let err = stderr(&rpsdsl(&["check", uses.to_str().unwrap()]));
    assert!(err.contains("use here"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_without_waiting_for_a_writer() {
    let dir = scratch("fifo");
    let fifo = dir.join("game.rules");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for args in [
        vec!["check", fifo.to_str().unwrap()],
        vec!["replay", fifo.to_str().unwrap()],
        vec!["run", "games/rps.rules", "--scenario", fifo.to_str().unwrap()],
    ] {
        let err = expect_code(&rpsdsl(&args), "not-a-regular-file");
        assert!(err.contains("a named pipe"), "{err}");
    }
}

#[test]
fn a_directory_is_refused() {
    let err = expect_code(&rpsdsl(&["check", "games"]), "not-a-regular-file");
    assert!(err.contains("a directory"), "{err}");
}

#[test]
fn a_file_over_the_cap_is_refused() {
    let dir = scratch("large");
    // A valid rules file padded with a comment past 4 MiB.
    let mut text = std::fs::read_to_string("games/rps.rules").unwrap();
    text.push('#');
    text.push_str(&"x".repeat(4 * 1024 * 1024));
    text.push('\n');
    let big = dir.join("big.rules");
    std::fs::write(&big, &text).unwrap();
    let err = expect_code(&rpsdsl(&["check", big.to_str().unwrap()]), "input-too-large");
    assert!(err.contains("larger than 4 MiB"), "{err}");
    // A scenario and a house file have the same cap.
    let err = expect_code(
        &rpsdsl(&["run", "games/rps.rules", "--scenario", big.to_str().unwrap()]),
        "input-too-large",
    );
    assert!(err.contains("4 MiB"), "{err}");
    // Just under the cap is read.
    let fits = dir.join("fits.rules");
    std::fs::write(&fits, &text[..4 * 1024 * 1024 - 1]).unwrap();
    let out = rpsdsl(&["check", fits.to_str().unwrap()]);
    assert!(!stderr(&out).contains("input-too-large"), "{}", stderr(&out));
}

#[test]
fn invalid_utf8_is_pointed_at_its_byte() {
    let dir = scratch("utf8");
    let mut bytes = std::fs::read("games/rps.rules").unwrap();
    // A Latin-1 é at the start of line 3.
    let line3 = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(1)
        .map(|(i, _)| i + 1)
        .unwrap();
    bytes.insert(line3, 0xE9);
    let file = dir.join("latin1.rules");
    std::fs::write(&file, &bytes).unwrap();
    let err = expect_code(&rpsdsl(&["check", file.to_str().unwrap()]), "invalid-utf8");
    assert!(
        err.contains(&format!("byte {line3} (line 3, column 1) is 0xE9")),
        "{err}"
    );
    assert!(err.contains("latin1.rules:3:1"), "{err}");
    assert!(err.contains("this byte is not UTF-8"), "{err}");
    // --json gives the same place.
    let out = rpsdsl(&["check", "--json", file.to_str().unwrap()]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let label = &json[0]["diagnostics"][0]["labels"][0];
    assert_eq!(json[0]["diagnostics"][0]["code"], "rpsdsl::invalid-utf8");
    assert_eq!(label["start"], line3);
    assert_eq!((label["line"].as_u64(), label["column"].as_u64()), (Some(3), Some(1)));
    // A used file that is not UTF-8 is pointed at too.
    let uses = dir.join("uses.rules");
    std::fs::write(&uses, "use \"latin1.rules\"\n").unwrap();
    let err = expect_code(&rpsdsl(&["check", uses.to_str().unwrap()]), "invalid-utf8");
    assert!(err.contains("latin1.rules:3:1") && err.contains("use here"), "{err}");
}

const SECRET: &str = "root:x:0:0:hunter2:/root:/bin/bash";

#[test]
fn a_file_that_is_not_a_rules_file_is_named_not_shown() {
    let dir = scratch("not_rules");
    let passwd = dir.join("passwd");
    std::fs::write(&passwd, format!("{SECRET}\ndaemon:x:1:1::/:/bin/false\n")).unwrap();
    let uses = dir.join("uses.rules");
    std::fs::write(&uses, "use \"passwd\"\ngame \"X\"\nplayers 2\n").unwrap();
    // Named `.rules`, but no line of it starts like a declaration.
    let renamed = dir.join("renamed.rules");
    std::fs::copy(&passwd, &renamed).unwrap();
    let house = dir.join("house.toml");
    std::fs::write(&house, "rules = \"passwd\"\n").unwrap();
    for (args, code) in [
        (vec!["check", passwd.to_str().unwrap()], "not-a-rules-file"),
        (vec!["check", uses.to_str().unwrap()], "not-a-rules-file"),
        (vec!["check", renamed.to_str().unwrap()], "not-a-rules-file"),
        (vec!["run", house.to_str().unwrap()], "not-a-rules-file"),
        (
            vec!["run", "games/rps.rules", "--scenario", passwd.to_str().unwrap()],
            "not-a-scenario-file",
        ),
        (vec!["replay", passwd.to_str().unwrap()], "not-a-transcript"),
        (vec!["merge", passwd.to_str().unwrap()], "not-a-report"),
    ] {
        let err = expect_code(&rpsdsl(&args), code);
        assert!(!err.contains("hunter2") && !err.contains("daemon"), "{err}");
        assert!(err.contains("` is not"), "{err}");
    }
    // The same file named as a house file (`.toml`) is not one either.
    let toml = dir.join("passwd.toml");
    std::fs::copy(&passwd, &toml).unwrap();
    let err = expect_code(&rpsdsl(&["run", toml.to_str().unwrap()]), "not-a-house-file");
    assert!(!err.contains("hunter2"), "{err}");
    if std::path::Path::new("/etc/passwd").is_file() {
        let err = expect_code(&rpsdsl(&["check", "/etc/passwd"]), "not-a-rules-file");
        assert!(!err.contains("root:"), "{err}");
    }
}

#[test]
fn a_rules_file_with_a_typo_on_its_first_line_is_still_shown() {
    let dir = scratch("typo");
    let text = std::fs::read_to_string("games/rps.rules").unwrap();
    let typo = text.replacen("game \"", "gme \"", 1);
    assert_ne!(typo, text);
    let file = dir.join("typo.rules");
    std::fs::write(&file, &typo).unwrap();
    let err = expect_code(&rpsdsl(&["check", file.to_str().unwrap()]), "syntax");
    assert!(err.contains("gme \""), "the line is shown: {err}");
    // A house file with a typo keeps its pointed diagnostic too.
    let house = dir.join("house.toml");
    std::fs::write(&house, "rules = \"../../../../games/rps.rules\"\n[options\n").unwrap();
    let err = expect_code(&rpsdsl(&["run", house.to_str().unwrap()]), "bad-house-rules");
    assert!(err.contains("[options"), "{err}");
    // And a rules file whose later declaration is wrong, whatever its name.
    let later = dir.join("later.txt");
    std::fs::write(&later, text.replacen("flow {", "flow {{", 1)).unwrap();
    let err = expect_code(&rpsdsl(&["check", later.to_str().unwrap()]), "syntax");
    assert!(err.contains("flow {{"), "{err}");
}
