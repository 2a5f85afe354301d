//! A running `rpsdsl studio` for a test, and plain HTTP requests to it.
//! The server is stopped when the value is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A studio serving `root` on a free loopback port, keeping its games in
/// a data folder of its own (removed when the value is dropped).
pub struct Studio {
    child: Child,
    /// The rest of its stdout, kept open while it runs.
    _out: BufReader<std::process::ChildStdout>,
    /// `http://127.0.0.1:PORT`
    pub base: String,
    /// The studio's key, from the link it printed.
    pub key: String,
    /// Where it keeps its games.
    pub data: PathBuf,
    root: PathBuf,
    agents: String,
}

/// A new, empty data folder for one studio.
pub fn data_folder() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "rpsdsl-studio-data-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

impl Studio {
    pub fn start(root: &Path, agents: &str) -> Studio {
        Studio::start_with(root, agents, &data_folder())
    }

    /// A studio keeping its games in `data`.
    pub fn start_with(root: &Path, agents: &str, data: &Path) -> Studio {
        Studio::start_with_args(root, agents, data, &[])
    }

    /// A studio keeping its games in `data`, with `extra` arguments.
    pub fn start_with_args(root: &Path, agents: &str, data: &Path, extra: &[&str]) -> Studio {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
            .args(["studio", &root.display().to_string(), "--port", "0", "--agents", agents])
            .arg("--data")
            .arg(data)
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("rpsdsl studio starts");
        let mut first = String::new();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        out.read_line(&mut first).unwrap();
        let link = first.trim();
        let (base, key) = link
            .split_once("/?key=")
            .unwrap_or_else(|| panic!("the first line is the studio's link, not {link:?}"));
        Studio {
            child,
            _out: out,
            base: base.to_string(),
            key: key.to_string(),
            data: data.to_path_buf(),
            root: root.to_path_buf(),
            agents: agents.to_string(),
        }
    }

    /// The studio process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the studio at once (`SIGKILL`: nothing is flushed or closed),
    /// then starts it again on the same data folder, on a new port.
    pub fn kill_and_restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let again = Studio::start_with(&self.root, &self.agents, &self.data);
        // The old value's folder is the new one's: only the new one removes it.
        let mut old = std::mem::replace(self, again);
        old.data = PathBuf::new();
    }

    /// Kills the studio at once (`SIGKILL`), leaving its data folder as a
    /// crash would.
    pub fn child_kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// A request with the studio's key.
    pub fn owner(&self, method: &str, path: &str, body: Option<&serde_json::Value>) -> (u16, String) {
        request(
            &self.base,
            method,
            path,
            &[("x-studio-key", &self.key)],
            body.map(|b| b.to_string()).as_deref(),
        )
    }

    /// Starts a game: `(game link path, seat links)` with `None` for agents' seats.
    pub fn start_game(&self, path: &str, seats: &str, settings: &[&str]) -> Vec<Option<String>> {
        let (status, body) = self.owner(
            "POST",
            "/api/games",
            Some(&serde_json::json!({ "path": path, "seats": seats, "settings": settings })),
        );
        assert_eq!(status, 200, "{body}");
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["link"].as_str().map(str::to_string))
            .collect()
    }
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.data.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.data);
        }
    }
}

/// One HTTP/1.1 request; the status and the body.
pub fn request(base: &str, method: &str, path: &str, headers: &[(&str, &str)], body: Option<&str>) -> (u16, String) {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let body = body.unwrap_or("");
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!(
            "content-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    // A server may refuse before reading a large body; what it answers counts.
    let _ = stream
        .write_all(head.as_bytes())
        .and_then(|()| stream.write_all(body.as_bytes()));
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw).to_string();
    let status = raw
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP status in {raw:?}"));
    let body = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    (status, body)
}

/// The shipped games' folder, which the tests' studios serve.
pub fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// A studio route's JSON answer: the status and the body (`Null` when the
/// body is not JSON).
pub fn get_json(studio: &Studio, path: &str) -> (u16, serde_json::Value) {
    let (status, body) = request(&studio.base, "GET", path, &[], None);
    (status, serde_json::from_str(&body).unwrap_or(serde_json::Value::Null))
}

/// Whether `text` holds `label` as a whole name ("Card 1" is not in
/// "Card 11").
pub fn names(text: &str, label: &str) -> bool {
    text.match_indices(label)
        .any(|(i, _)| !text[i + label.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// The first event of a studio's event stream at `path` (`(id, data)`),
/// sent with `Last-Event-ID: last` if given; `None` if none comes within
/// `wait`.
pub fn first_event(base: &str, path: &str, last: Option<&str>, wait: Duration) -> Option<(String, String)> {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).unwrap();
    stream.set_read_timeout(Some(wait)).unwrap();
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n");
    if let Some(last) = last {
        head.push_str(&format!("Last-Event-ID: {last}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let (mut id, mut data) = (None, None);
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) => {}
        }
        // The body is chunked: SSE fields are found among the chunk sizes.
        let text = line.trim_end();
        if let Some(v) = text.strip_prefix("id:") {
            id = Some(v.trim().to_string());
        } else if let Some(v) = text.strip_prefix("data:") {
            data = Some(v.trim().to_string());
        } else if text.is_empty()
            && let (Some(i), Some(d)) = (&id, &data)
        {
            return Some((i.clone(), d.clone()));
        }
    }
}

/// One HTTP request, or `None` if the server is gone (killed mid-way).
pub fn try_request(base: &str, method: &str, path: &str, body: Option<&str>) -> Option<(u16, String)> {
    let host = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(host).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let body = body.unwrap_or("");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if method == "POST" {
        head.push_str(&format!(
            "content-type: application/json\r\ncontent-length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).ok()?;
    let raw = String::from_utf8_lossy(&raw).to_string();
    let status = raw.split(' ').nth(1)?.parse().ok()?;
    let body = raw.split_once("\r\n\r\n").map_or("", |(_, b)| b).to_string();
    Some((status, body))
}
