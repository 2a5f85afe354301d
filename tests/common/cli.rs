//! The built `rpsdsl` binary, run the way a designer runs it. Colour is off
//! so that what it prints compares as plain text.

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The built binary with colour off; the caller adds arguments and pipes.
pub fn command() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rpsdsl"));
    command.env("NO_COLOR", "1");
    command
}

/// Runs `rpsdsl args...` in the crate root, with nothing on stdin.
pub fn rpsdsl(args: &[&str]) -> Output {
    command().args(args).output().unwrap()
}

/// Starts `rpsdsl args...` in `dir` with the given stdin, its stdout and
/// stderr piped back, for a test that drives or times the child itself.
pub fn spawn_in<S: AsRef<OsStr>>(dir: &Path, args: &[S], stdin: Stdio) -> Child {
    command()
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `rpsdsl args...` in `dir` with `input` on stdin.
pub fn rpsdsl_in<S: AsRef<OsStr>>(dir: &Path, args: &[S], input: &[u8]) -> Output {
    let mut child = spawn_in(dir, args, Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    // The program may stop reading early (a quit, a refused file): a closed
    // pipe is fine.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Runs `rpsdsl args...` with stdin closed, failing the test (instead of
/// hanging) when it takes longer than `limit`.
pub fn rpsdsl_within(args: &[&str], limit: Duration) -> Output {
    let mut child = spawn_in(Path::new("."), args, Stdio::null());
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("`rpsdsl {}` did not finish within {limit:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// stderr with miette's line wrapping undone: each line loses its indent
/// and `│` gutter and the lines are joined by one space. miette wraps a
/// message at the terminal width, so where a phrase breaks depends on the
/// length of the paths in it, that is on where the checkout lives.
pub fn stderr_unwrapped(o: &Output) -> String {
    stderr(o)
        .lines()
        .map(|line| {
            line.trim_start_matches(|c: char| c.is_whitespace() || c == '│')
                .trim_end()
        })
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A fresh, empty folder for one test, in cargo's scratch folder for
/// integration tests. `name` is `file/test`, so tests never share one.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
