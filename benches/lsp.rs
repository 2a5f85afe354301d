//! What a keystroke costs in `rpsdsl lsp` (issue 39: re-checking any file
//! of `games/` takes at most 20 ms). The release binary is driven over
//! stdio as an editor drives it: for each file, one document is opened and
//! changed again and again (each change a new text, as typing makes), and
//! the time from sending the change to receiving its diagnostics is taken.
//! A hover and a completion are timed the same way. Medians of 25.
//!
//! `cargo bench --bench lsp`

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const ROUNDS: usize = 25;

struct Client {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
}

impl Client {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.input, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
        self.input.flush().expect("the server reads");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.next();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn next(&self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(60))
            .expect("the server answers")
    }

    fn diagnostics_for(&self, uri: &str) -> Vec<Value> {
        loop {
            let message = self.next();
            if message["method"] == "textDocument/publishDiagnostics" && message["params"]["uri"] == uri {
                return message["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
        }
    }
}

fn start() -> Client {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rpsdsl lsp starts");
    let input = child.stdin.take().expect("stdin");
    let output = child.stdout.take().expect("stdout");
    let (tx, messages) = channel();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(output);
        loop {
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                if line.trim().is_empty() {
                    break;
                }
                if let Some(n) = line.trim().strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap_or(0);
                }
            }
            let mut body = vec![0; length];
            if reader.read_exact(&mut body).is_err()
                || tx.send(serde_json::from_slice(&body).unwrap_or(Value::Null)).is_err()
            {
                return;
            }
        }
    });
    let mut client = Client {
        child,
        input,
        messages,
        next_id: 1,
    };
    client.request("initialize", json!({ "capabilities": {}, "rootUri": null }));
    client.notify("initialized", json!({}));
    client
}

fn rules_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("games/")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rules_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rules") {
            out.push(path);
        }
    }
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    rules_files(&root.join("games"), &mut files);
    let mut client = start();
    println!(
        "{:<44} {:>7} {:>11} {:>9} {:>13}",
        "file", "lines", "recheck ms", "hover ms", "completion ms"
    );
    let mut worst = (0.0f64, String::new());
    for path in files {
        let uri = format!("file://{}", path.display());
        let text = std::fs::read_to_string(&path).expect("a game");
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "rpsdsl", "version": 1, "text": text } }),
        );
        client.diagnostics_for(&uri);
        let mut recheck = vec![];
        for round in 0..ROUNDS {
            // A new comment at the end each time: a new text, the same game.
            let typed = format!("{text}# typed {round}\n");
            let started = Instant::now();
            client.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": uri, "version": round + 2 }, "contentChanges": [{ "text": typed }] }),
            );
            client.diagnostics_for(&uri);
            recheck.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        // The last word of the file's first declaration line, hovered and completed at.
        let line = text
            .lines()
            .position(|l| !l.starts_with('#') && !l.trim().is_empty())
            .unwrap_or(0);
        let character = text
            .lines()
            .nth(line)
            .map_or(0, |l| l.trim_end().len().saturating_sub(1));
        let at = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        let timed = |client: &mut Client, method: &str| {
            median(
                (0..ROUNDS)
                    .map(|_| {
                        let started = Instant::now();
                        client.request(method, at.clone());
                        started.elapsed().as_secs_f64() * 1000.0
                    })
                    .collect(),
            )
        };
        let hover = timed(&mut client, "textDocument/hover");
        let completion = timed(&mut client, "textDocument/completion");
        let recheck = median(recheck);
        if recheck > worst.0 {
            worst = (recheck, shown.clone());
        }
        println!(
            "{shown:<44} {:>7} {recheck:>11.2} {hover:>9.2} {completion:>13.2}",
            text.lines().count()
        );
        client.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
        client.diagnostics_for(&uri);
    }
    println!("slowest recheck: {:.2} ms, {} (goal: at most 20 ms)", worst.0, worst.1);
    client.request("shutdown", Value::Null);
    client.notify("exit", Value::Null);
    let _ = client.child.wait();
}
