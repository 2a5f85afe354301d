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
    /// Messages that came while a request waited for its answer.
    skipped: std::cell::RefCell<std::collections::VecDeque<Value>>,
}

impl Server {
    fn start() -> Server {
        let mut server = Server::start_with(json!({ "capabilities": {}, "processId": null, "rootUri": null }));
        server.notify("initialized", json!({}));
        server
    }

    /// Starts the server and sends `initialize` with these parameters.
    fn start_with(initialize: Value) -> Server {
        // A studio the lens opens keeps its games here, not in the home folder.
        let data = std::env::temp_dir().join(format!("rpsdsl-lsp-{}-data", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
            .arg("lsp")
            .env("XDG_DATA_HOME", data)
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
            skipped: Default::default(),
        };
        let answer = server.request("initialize", initialize);
        assert_eq!(answer["result"]["capabilities"]["textDocumentSync"], 1, "{answer}");
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
            let message = self.receive();
            if message["id"] == id && message["method"].is_null() {
                return message;
            }
            self.skipped.borrow_mut().push_back(message);
        }
    }

    /// The next message, those skipped by a request first.
    fn next(&self) -> Value {
        if let Some(message) = self.skipped.borrow_mut().pop_front() {
            return message;
        }
        self.receive()
    }

    fn receive(&self) -> Value {
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

#[test]
fn a_malformed_message_is_answered_with_a_parse_error_and_the_session_goes_on() {
    let mut server = Server::start();
    let frames: [&[u8]; 4] = [
        b"this is not json",
        b"[1, 2, 3]",
        &[0xff, 0xfe, 0x00],
        b"{\"jsonrpc\": \"2.0\"}",
    ];
    let codes = [-32700, -32600, -32700, -32600];
    for (body, code) in frames.iter().zip(codes) {
        let _ = write!(server.input, "Content-Length: {}\r\n\r\n", body.len());
        let _ = server.input.write_all(body);
        let _ = server.input.flush();
        let answer = server.next();
        assert_eq!(answer["error"]["code"], code, "{answer}");
        assert!(answer["id"].is_null(), "{answer}");
    }
    // Still serving: a request is answered.
    let answer = server.request("textDocument/frobnicate", json!({}));
    assert_eq!(answer["error"]["code"], -32601, "{answer}");
    assert!(server.shut_down().success());
}

/// A copy of `games/` to work on, so a rename can be applied and checked.
fn copy_of_games(name: &str) -> PathBuf {
    let dir = scratch(name);
    copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games"), &dir);
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The LSP position of the `nth` (from 0) occurrence of `word` in `text`.
fn at(text: &str, word: &str, nth: usize) -> Value {
    let offset = text
        .match_indices(word)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{word}` #{nth}"))
        .0;
    let line = text[..offset].matches('\n').count();
    let character = offset - text[..offset].rfind('\n').map_or(0, |n| n + 1);
    json!({ "line": line, "character": character })
}

fn position_params(uri: &str, position: Value) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": position })
}

/// Applies a workspace edit's changes to the files on disk.
fn apply(edit: &Value) {
    for (uri, edits) in edit["changes"].as_object().expect("changes") {
        let path = PathBuf::from(uri.strip_prefix("file://").unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        let offset = |p: &Value| {
            let line = p["line"].as_u64().unwrap() as usize;
            let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            start + p["character"].as_u64().unwrap() as usize
        };
        let mut edits: Vec<(usize, usize, String)> = edits
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    offset(&e["range"]["start"]),
                    offset(&e["range"]["end"]),
                    e["newText"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        edits.sort_by_key(|e| std::cmp::Reverse(e.0));
        let mut text = text.clone();
        for (start, end, new) in edits {
            text.replace_range(start..end, &new);
        }
        std::fs::write(&path, text).unwrap();
    }
}

impl Server {
    /// Starts a server on the folder `root`, as an editor opened on it.
    fn start_in(root: &Path) -> Server {
        let mut server = Server::start_with(json!({ "capabilities": {}, "processId": null, "rootUri": uri(root) }));
        server.notify("initialized", json!({}));
        server
    }
}

#[test]
fn hover_definition_completion_and_outline_know_the_games_names_and_words() {
    let games = copy_of_games("know");
    let rps = games.join("rps.rules");
    let text = std::fs::read_to_string(&rps).unwrap();
    let mut server = Server::start_in(&games);
    server.open(&uri(&rps), &text);
    assert_eq!(server.diagnostics_for(&uri(&rps)), Vec::<Value>::new());

    // A name declared in the prelude: what it is, its declaration, where.
    let hover = server.request(
        "textDocument/hover",
        position_params(&uri(&rps), at(&text, "duel()", 0)),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("**procedure** `duel`"), "{hover}");
    assert!(shown.contains("procedure duel() -> (winner, loser) {"), "{shown}");
    assert!(shown.contains("rps.rules, line 12"), "{shown}");
    // An option, with its description.
    let hover = server.request(
        "textDocument/hover",
        position_params(&uri(&rps), at(&text, "best_of {", 0)),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        shown.contains("**option** `best_of`") && shown.contains("Duels in the match"),
        "{shown}"
    );
    // A word of the language: its form, its documentation and an example from games/.
    let hover = server.request("textDocument/hover", position_params(&uri(&rps), at(&text, "loop", 0)));
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("**`loop`**") && shown.contains("loop { }"), "{shown}");
    assert!(shown.contains("*docs/language.md:"), "{shown}");

    // Go to definition crosses into the prelude.
    let found = server.request(
        "textDocument/definition",
        position_params(&uri(&rps), at(&text, "duel()", 0)),
    );
    let target = &found["result"][0];
    assert!(
        target["uri"].as_str().unwrap().ends_with("prelude/rps.rules"),
        "{found}"
    );
    assert_eq!(target["range"]["start"], json!({ "line": 11, "character": 10 }));

    // Completion at the start of a statement: statement words and the names in scope.
    let inside = text.replace("    add 1 to wins of winner\n", "    add 1 to wins of winner\n    \n");
    server.change(&uri(&rps), 2, &inside);
    server.diagnostics_for(&uri(&rps));
    let line = inside.lines().position(|l| l == "    ").unwrap();
    let list = server.request(
        "textDocument/completion",
        position_params(&uri(&rps), json!({ "line": line, "character": 4 })),
    );
    let items = list["result"].as_array().expect("a completion list");
    let item = |label: &str| items.iter().find(|i| i["label"] == label).cloned();
    assert!(
        item("let").is_some() && item("each").is_some(),
        "statement words: {list}"
    );
    assert!(item("game").is_none(), "no declaration words inside a block");
    assert_eq!(item("winner").unwrap()["detail"], "local value");
    assert_eq!(item("wins").unwrap()["detail"], "variable");
    assert_eq!(item("rock").unwrap()["detail"], "kind");
    assert_eq!(item("best_of").unwrap()["detail"], "option");

    // The outline, the colours and the folds.
    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri(&rps) } }),
    );
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Left", "Right", "best_of", "wins", "flow"], "{symbols}");
    let colours = server.request(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri(&rps) } }),
    );
    assert!(
        colours["result"]["data"].as_array().unwrap().len() > 5 * 20,
        "{colours}"
    );
    let folds = server.request(
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": uri(&rps) } }),
    );
    assert!(
        folds["result"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"] == "region"),
        "{folds}"
    );
    let prelude = games.join("prelude/rps.rules");
    server.open(&uri(&prelude), &std::fs::read_to_string(&prelude).unwrap());
    server.diagnostics_for(&uri(&prelude));
    let folds = server.request(
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": uri(&prelude) } }),
    );
    let comment = json!({ "startLine": 0, "endLine": 2, "kind": "comment" });
    assert!(
        folds["result"].as_array().unwrap().contains(&comment),
        "the header's comments fold: {folds}"
    );
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&games);
}

#[test]
fn a_rename_in_the_prelude_reaches_every_game_that_uses_it_and_refuses_collisions() {
    let games = copy_of_games("rename");
    let rps = games.join("rps.rules");
    let text = std::fs::read_to_string(&rps).unwrap();
    let mut server = Server::start_in(&games);
    server.open(&uri(&rps), &text);
    server.diagnostics_for(&uri(&rps));

    // Collisions are refused, with what the name already is.
    let refused = server.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri(&rps) }, "position": at(&text, "duel()", 0), "newName": "wins" }),
    );
    let why = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("`wins` is already the name of a variable"), "{refused}");
    let refused = server.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri(&rps) }, "position": at(&text, "duel()", 0), "newName": "loop" }),
    );
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("word of the language"),
        "{refused}"
    );
    let keyword = server.request(
        "textDocument/prepareRename",
        position_params(&uri(&rps), at(&text, "loop", 0)),
    );
    assert!(!keyword["error"].is_null(), "a keyword cannot be renamed: {keyword}");

    // A local's rename stays in its scope.
    let local = server.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri(&rps) }, "position": at(&text, "winner,", 0), "newName": "victor" }),
    );
    let changes = local["result"]["changes"].as_object().expect("edits");
    assert_eq!(changes.len(), 1, "only rps.rules: {local}");
    assert_eq!(changes[&uri(&rps)].as_array().unwrap().len(), 4, "{local}");

    // The procedure of the prelude: renamed there and in every game that
    // calls it, open or not; every game still checks afterwards.
    let renamed = server.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": uri(&rps) }, "position": at(&text, "duel()", 0), "newName": "showdown" }),
    );
    let changes = renamed["result"]["changes"]
        .as_object()
        .unwrap_or_else(|| panic!("{renamed}"));
    for file in ["prelude/rps.rules", "rps.rules", "rps3.rules", "janken_deck.rules"] {
        assert!(
            changes.keys().any(|u| u.ends_with(&format!("/{file}"))),
            "{file} is changed: {renamed}"
        );
    }
    assert!(server.shut_down().success());
    apply(&renamed["result"]);
    let prelude = std::fs::read_to_string(games.join("prelude/rps.rules")).unwrap();
    assert!(prelude.contains("procedure showdown() -> (winner, loser)") && !prelude.contains("duel("));
    for game in [
        "rps.rules",
        "rps3.rules",
        "janken_deck.rules",
        "rock.rules",
        "rps_poker.rules",
        "rubber_paper_scissors.rules",
    ] {
        let checked = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
            .args(["check", "--json"])
            .arg(games.join(game))
            .output()
            .unwrap();
        assert!(
            checked.status.success(),
            "{game} after the rename: {}",
            String::from_utf8_lossy(&checked.stdout)
        );
    }
    let _ = std::fs::remove_dir_all(&games);
}

#[test]
fn quick_fixes_apply_the_diagnostics_suggestion_and_formatting_is_fmts() {
    let dir = scratch("fixes");
    let path = dir.join("pick.rules");
    let typo = sure_pick().replace("add pick to points of p", "add pick to pointz of p");
    let mut server = Server::start();
    server.open(&uri(&path), &typo);
    let found = server.diagnostics_for(&uri(&path));
    let actions = server.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri(&path) },
            "range": found[0]["range"],
            "context": { "diagnostics": found },
        }),
    );
    let action = &actions["result"][0];
    assert_eq!(action["title"], "Replace with `points`", "{actions}");
    assert_eq!(action["kind"], "quickfix");
    let edit = &action["edit"]["changes"][uri(&path)][0];
    assert_eq!(edit["newText"], "points");
    assert_eq!(edit["range"], found[0]["range"]);

    // A missing `}`: the fix adds it, and the file then checks.
    let unclosed = sure_pick().trim_end().trim_end_matches('}').to_string();
    server.change(&uri(&path), 2, &unclosed);
    let found = server.diagnostics_for(&uri(&path));
    let actions = server.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&path) }, "range": found[0]["range"], "context": { "diagnostics": found } }),
    );
    let fix = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Add the missing `}`")
        .unwrap_or_else(|| panic!("{actions}"));
    let added = &fix["edit"]["changes"][uri(&path)][0];
    assert!(added["newText"].as_str().unwrap().contains('}'));
    server.change(&uri(&path), 3, &format!("{unclosed}\n}}\n"));
    assert_eq!(server.diagnostics_for(&uri(&path)), Vec::<Value>::new());

    // Formatting gives `rpsdsl fmt`'s layout.
    let messy = sure_pick().replace("  ", "      ");
    server.change(&uri(&path), 4, &messy);
    server.diagnostics_for(&uri(&path));
    let edits = server.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri(&path) }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert_eq!(edits["result"][0]["newText"].as_str().unwrap(), sure_pick(), "{edits}");
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_house_file_completes_option_names_and_values() {
    let games = copy_of_games("house-complete");
    let house = games.join("house/mine.toml");
    let text = "rules = \"../rps.rules\"\n\n[options]\nbest_of = 3\n";
    let mut server = Server::start_in(&games);
    server.open(&uri(&house), text);
    assert_eq!(server.diagnostics_for(&uri(&house)), Vec::<Value>::new());
    let list = server.request(
        "textDocument/completion",
        position_params(&uri(&house), json!({ "line": 3, "character": 0 })),
    );
    let labels: Vec<&str> = list["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["best_of"], "{list}");

    // An enum option's values after its `=`; a wrong one is fixed to each allowed one.
    let janken = games.join("house/janken.toml");
    let wrong = "rules = \"../janken_deck.rules\"\n\n[options]\ndeck = \"shrt\"\n";
    server.open(&uri(&janken), wrong);
    let found = server.diagnostics_for(&uri(&janken));
    assert_eq!(found[0]["code"], "rpsdsl::bad-option-value", "{found:?}");
    let list = server.request(
        "textDocument/completion",
        position_params(&uri(&janken), json!({ "line": 3, "character": 7 })),
    );
    let labels: Vec<&str> = list["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["\"no_wilds\"", "\"short\"", "\"standard\""], "{list}");
    let actions = server.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&janken) }, "range": found[0]["range"], "context": { "diagnostics": found } }),
    );
    let fixes: Vec<(&str, &str)> = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["title"].as_str().unwrap(),
                a["edit"]["changes"][uri(&janken)][0]["newText"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(fixes.contains(&("Use \"short\"", "\"short\"")), "{actions}");
    assert_eq!(fixes.len(), 3, "{actions}");

    // A number out of range is fixed to the nearest bound.
    server.change(&uri(&house), 2, &text.replace("best_of = 3", "best_of = 0"));
    let found = server.diagnostics_for(&uri(&house));
    let actions = server.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri(&house) }, "range": found[0]["range"], "context": { "diagnostics": found } }),
    );
    assert_eq!(actions["result"][0]["title"], "Use 1", "{actions}");
    assert_eq!(actions["result"][0]["edit"]["changes"][uri(&house)][0]["newText"], "1");
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&games);
}

#[test]
fn the_game_line_runs_check_and_simulate_and_shows_the_result_and_house_values_are_hinted() {
    let games = copy_of_games("lens");
    let rps = games.join("rps.rules");
    let text = std::fs::read_to_string(&rps).unwrap();
    std::fs::write(
        games.join("house/five.toml"),
        "rules = \"../rps.rules\"\n\n[options]\nbest_of = 5\n",
    )
    .unwrap();
    let mut server = Server::start_with(json!({
        "capabilities": { "workspace": { "codeLens": { "refreshSupport": true } } },
        "processId": null,
        "rootUri": uri(&games),
    }));
    server.notify("initialized", json!({}));
    server.open(&uri(&rps), &text);
    server.diagnostics_for(&uri(&rps));

    let lenses = server.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(&rps) } }));
    let titles: Vec<&str> = lenses["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["▶ check", "simulate 1,000 games", "open in studio"],
        "{lenses}"
    );
    assert_eq!(
        lenses["result"][0]["range"]["start"]["line"],
        at(&text, "game \"", 0)["line"]
    );

    let ran = server.request(
        "workspace/executeCommand",
        json!({ "command": "rpsdsl.simulate", "arguments": [uri(&rps)] }),
    );
    assert!(ran["error"].is_null(), "{ran}");
    // The result comes as a message, then the editor is asked to refresh the lens.
    let told = loop {
        let message = server.next();
        if message["method"] == "window/showMessage" {
            break message["params"]["message"].as_str().unwrap().to_string();
        }
    };
    assert!(
        told.contains("1,000 games: Left ") && told.contains("draws 0%"),
        "{told}"
    );
    loop {
        if server.next()["method"] == "workspace/codeLens/refresh" {
            break;
        }
    }
    let lenses = server.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri(&rps) } }));
    let simulate = lenses["result"][1]["command"]["title"].as_str().unwrap();
    assert!(
        simulate.starts_with("simulate 1,000 games: Left ") && simulate.contains("decision points a game"),
        "{simulate}"
    );

    let checked = server.request(
        "workspace/executeCommand",
        json!({ "command": "rpsdsl.check", "arguments": [uri(&rps)] }),
    );
    assert!(checked["error"].is_null(), "{checked}");
    let told = loop {
        let message = server.next();
        if message["method"] == "window/showMessage" {
            break message["params"]["message"].as_str().unwrap().to_string();
        }
    };
    assert!(told.ends_with("rps.rules: ok"), "{told}");

    // The studio: started on the file's folder, its link handed to the editor.
    let opened = server.request(
        "workspace/executeCommand",
        json!({ "command": "rpsdsl.studio", "arguments": [uri(&rps)] }),
    );
    assert!(opened["error"].is_null(), "{opened}");
    let shown = loop {
        let message = server.next();
        if message["method"] == "window/showDocument" {
            break message["params"].clone();
        }
    };
    assert!(
        shown["uri"].as_str().unwrap().starts_with("http://127.0.0.1:"),
        "{shown}"
    );
    assert_eq!(shown["external"], true);

    // The house file's value beside the option it sets.
    let hints = server.request(
        "textDocument/inlayHint",
        json!({ "textDocument": { "uri": uri(&rps) }, "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 99, "character": 0 } } }),
    );
    let hint = &hints["result"][0];
    assert_eq!(hint["label"], "  five.toml: 5", "{hints}");
    assert_eq!(hint["position"]["line"], at(&text, "option best_of", 0)["line"]);
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&games);
}

#[test]
fn a_file_that_does_not_parse_still_gets_an_outline_completion_and_hover() {
    let games = copy_of_games("broken");
    let rps = games.join("rps.rules");
    let broken = std::fs::read_to_string(&rps).unwrap().replace(
        "    add 1 to wins of winner\n",
        "    let = \n    add 1 to wins of winner\n",
    );
    let mut server = Server::start_in(&games);
    server.open(&uri(&rps), &broken);
    let found = server.diagnostics_for(&uri(&rps));
    assert_eq!(found[0]["code"], "rpsdsl::syntax", "{found:?}");

    let symbols = server.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri(&rps) } }),
    );
    let names: Vec<&str> = symbols["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"best_of") && names.contains(&"wins"), "{symbols}");

    let line = broken.lines().position(|l| l == "    let = ").unwrap();
    let list = server.request(
        "textDocument/completion",
        position_params(&uri(&rps), json!({ "line": line, "character": 10 })),
    );
    let labels: Vec<&str> = list["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"winner") && labels.contains(&"wins") && labels.contains(&"of"),
        "{list}"
    );

    let hover = server.request(
        "textDocument/hover",
        position_params(&uri(&rps), at(&broken, "best_of {", 0)),
    );
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .contains("**option** `best_of`"),
        "{hover}"
    );

    // Typing just after a letter the language has no use for (two bytes,
    // one UTF-16 unit): completion still answers.
    let accented = broken.replace("    let = \n", "    let é\n");
    server.change(&uri(&rps), 2, &accented);
    server.diagnostics_for(&uri(&rps));
    let list = server.request(
        "textDocument/completion",
        position_params(&uri(&rps), json!({ "line": line, "character": 9 })),
    );
    assert!(
        list["result"].as_array().is_some_and(|items| !items.is_empty()),
        "{list}"
    );
    assert!(server.shut_down().success());
    let _ = std::fs::remove_dir_all(&games);
}

/// A piece type or a kind that says what it does (`display X with text
/// "..."`) shows it where its name is hovered, as players read it.
#[test]
fn hover_shows_what_a_piece_does() {
    let games = copy_of_games("texts");
    let rps = games.join("rps.rules");
    let text = std::fs::read_to_string(&rps).unwrap().replace(
        "var wins",
        "display rock with text \"Crushes scissors.\"\ndisplay rock with picture \"rock.svg\"\n\nvar wins",
    );
    std::fs::write(&rps, &text).unwrap();
    std::fs::write(
        games.join("rock.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\"><circle cx=\"5\" cy=\"5\" r=\"4\"/></svg>",
    )
    .unwrap();
    let mut server = Server::start_in(&games);
    server.open(&uri(&rps), &text);
    assert_eq!(server.diagnostics_for(&uri(&rps)), Vec::<Value>::new());
    let hover = server.request(
        "textDocument/hover",
        position_params(&uri(&rps), at(&text, "rock with text", 0)),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("**kind** `rock`"), "{shown}");
    assert!(shown.contains("What players read: Crushes scissors."), "{shown}");
    // Its picture, drawn from the file beside the rules.
    let picture = url::Url::from_file_path(std::path::absolute(games.join("rock.svg")).unwrap()).unwrap();
    assert!(shown.contains(&format!("![rock]({picture})")), "{shown}");
    assert!(shown.contains("Its picture, `rock.svg`"), "{shown}");
    // A name the rules say nothing of shows no such line.
    let hover = server.request(
        "textDocument/hover",
        position_params(&uri(&rps), at(&text, "best_of {", 0)),
    );
    let shown = hover["result"]["contents"]["value"].as_str().unwrap_or_default();
    assert!(!shown.contains("What players read"), "{shown}");
}
