//! `rpsdsl lsp`, spoken to as an editor would: JSON-RPC with
//! `Content-Length` framing over the process's stdin and stdout. A file
//! with a typo gets `check`'s diagnostic, at its place, with its code and
//! help; fixing it clears it; a house-rules file's error is placed in the
//! TOML; bad input (random bytes, a 10 MB file, an unknown method, a client
//! that goes away) never brings the server down.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// A running `rpsdsl lsp` and the messages it sends.
struct Server {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("rpsdsl lsp starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (tx, messages) = channel();
        std::thread::spawn(move || read_messages(output, tx));
        let mut server = Server {
            child,
            input,
            messages,
            next_id: 1,
        };
        let answer = server.request(
            "initialize",
            json!({ "capabilities": {}, "processId": null, "rootUri": null }),
        );
        assert_eq!(answer["result"]["capabilities"]["textDocumentSync"], 1, "{answer}");
        server.notify("initialized", json!({}));
        server
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        // The server may be gone already: what it said before counts.
        let _ = write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len());
        let _ = self.input.flush();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// A request, and its response (notifications on the way are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn next(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics_for(&self, uri: &str) -> Vec<Value> {
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "rpsdsl", "version": 1, "text": text } }),
        );
    }

    fn change(&mut self, uri: &str, version: u32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }

    /// Says goodbye as an editor does, and waits for the process to end.
    fn shut_down(mut self) -> std::process::ExitStatus {
        let answer = self.request("shutdown", Value::Null);
        assert!(answer["error"].is_null(), "{answer}");
        self.notify("exit", Value::Null);
        wait(&mut self.child)
    }
}

fn read_messages(output: ChildStdout, tx: std::sync::mpsc::Sender<Value>) {
    let mut reader = BufReader::new(output);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        if tx.send(serde_json::from_slice(&body).expect("a JSON message")).is_err() {
            return;
        }
    }
}

/// Waits for the process to end, for at most 10 s.
fn wait(child: &mut Child) -> std::process::ExitStatus {
    for _ in 0..200 {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    panic!("the server did not end");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rpsdsl-lsp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn sure_pick() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/sure_pick.rules")).unwrap()
}

#[test]
fn a_typo_gets_checks_diagnostic_as_you_type_and_a_fix_clears_it() {
    let dir = scratch("typo");
    let path = dir.join("pick.rules");
    let good = sure_pick();
    let typo = good.replace("add pick to points of p", "add pick to pointz of p");
    let mut server = Server::start();
    server.open(&uri(&path), &typo);
    let found = server.diagnostics_for(&uri(&path));
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!(d["code"], "rpsdsl::unknown-name");
    assert_eq!(d["severity"], 1);
    let message = d["message"].as_str().unwrap();
    assert!(message.starts_with("unknown name `pointz`"), "{message}");
    assert!(message.contains("help: did you mean `points`?"), "{message}");
    // Line 14, column 19 in `check`'s terms: from 0 here.
    let line = typo.lines().position(|l| l.contains("pointz")).unwrap();
    assert_eq!(d["range"]["start"], json!({ "line": line, "character": 18 }));
    assert_eq!(d["range"]["end"], json!({ "line": line, "character": 24 }));

    server.change(&uri(&path), 2, &good);
    assert_eq!(server.diagnostics_for(&uri(&path)), Vec::<Value>::new());
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_house_rules_error_is_placed_in_the_toml() {
    let dir = scratch("house");
    std::fs::write(dir.join("pick.rules"), sure_pick()).unwrap();
    let house = dir.join("house.toml");
    let text = "rules = \"pick.rules\"\n\n[options]\nno_such_option = 3\n";
    let mut server = Server::start();
    server.open(&uri(&house), text);
    let found = server.diagnostics_for(&uri(&house));
    assert!(!found.is_empty(), "a diagnostic for the unknown option");
    assert_eq!(found[0]["range"]["start"]["line"], 3, "{found:?}");
    assert!(
        found[0]["message"].as_str().unwrap().contains("no_such_option"),
        "{found:?}"
    );
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_never_brings_the_server_down() {
    let dir = scratch("bad");
    let mut server = Server::start();
    // Random bytes (as text: what an editor can send).
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let noise: String = (0..4000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from_u32((state % 0x2FFF) as u32 + 1).unwrap_or('?')
        })
        .collect();
    let noisy = dir.join("noise.rules");
    server.open(&uri(&noisy), &noise);
    let found = server.diagnostics_for(&uri(&noisy));
    assert!(
        found.iter().any(|d| d["severity"] == 1),
        "an error for noise: {found:?}"
    );
    // A 10 MB file.
    let huge = dir.join("huge.rules");
    server.open(&uri(&huge), &"# a comment\n".repeat(10 * 1024 * 1024 / 12));
    let found = server.diagnostics_for(&uri(&huge));
    assert!(!found.is_empty(), "a 10 MB file is refused with a diagnostic");
    // An unknown method is answered as such.
    let answer = server.request("textDocument/frobnicate", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    // A `use` cycle.
    std::fs::write(dir.join("b.rules"), "use \"a.rules\"\n").unwrap();
    let a = dir.join("a.rules");
    server.open(&uri(&a), "use \"b.rules\"\ngame \"A\"\n");
    assert!(!server.diagnostics_for(&uri(&a)).is_empty());
    assert!(server.shut_down().success());

    // A client that goes away mid-request: the server ends on its own.
    let mut server = Server::start();
    let body = json!({ "jsonrpc": "2.0", "id": 99, "method": "shutdown" }).to_string();
    let _ = write!(server.input, "Content-Length: {}\r\n\r\n{}", body.len() + 40, body);
    drop(server.input);
    let status = wait(&mut server.child);
    assert!(status.code().is_some(), "it exits rather than crashes: {status:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
