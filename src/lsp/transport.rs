//! The server's end of stdio: LSP's framing (`Content-Length` headers), read
//! and written on threads of its own, as `lsp_server::Connection::stdio`
//! does, except that one malformed message does not end the session. A body
//! that is not UTF-8 or not JSON is answered with JSON-RPC's parse error
//! (-32700), and JSON that is not one message (an array, a number, an object
//! without a method or a result) with its invalid request error (-32600),
//! both with a `null` id as JSON-RPC says; the session goes on with the next
//! message. A header that cannot be read is skipped up to the blank line
//! that ends it.

use std::io::{self, BufRead, Write};
use std::thread;

use lsp_server::{Connection, Message};

/// JSON-RPC's code for a body that is not JSON.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for JSON that is not a request, a notification or a response.
const INVALID_REQUEST: i32 = -32600;
/// The largest body read: an editor's documents are small, and a wrong
/// `Content-Length` must not allocate without bound.
const MOST_BYTES: usize = 64 * 1024 * 1024;

/// The reading and writing threads; joined when the session ends.
pub(super) struct Threads {
    reader: thread::JoinHandle<()>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for both threads: the writer ends once every sender of the
    /// server's messages is dropped, the reader at `exit` or at the end of
    /// the input.
    pub(super) fn join(self) -> Result<(), String> {
        let written = self
            .writer
            .join()
            .map_err(|_| "the writing thread failed".to_string())?;
        // The reader may still be waiting for input that never comes (the
        // editor keeps the pipe open after `exit`): it is left to end with
        // the process.
        drop(self.reader);
        written.map_err(|e| e.to_string())
    }
}

/// A connection over stdin and stdout that survives malformed messages.
pub(super) fn stdio() -> (Connection, Threads) {
    let (server, client) = Connection::memory();
    let Connection {
        sender: to_server,
        receiver: from_server,
    } = client;
    let writer = thread::spawn(move || {
        for message in from_server {
            let mut out = io::stdout().lock();
            message.write(&mut out)?;
        }
        Ok(())
    });
    let reader = thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        read_messages(&mut input, |message| {
            let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
            to_server.send(message).is_ok() && !exit
        });
    });
    (server, Threads { reader, writer })
}

/// Reads framed messages from `input` until it ends or `deliver` says stop,
/// answering each malformed one on stdout.
fn read_messages(input: &mut dyn BufRead, mut deliver: impl FnMut(Message) -> bool) {
    loop {
        match read_frame(input) {
            Ok(None) => return,
            Ok(Some(body)) => match parse(&body) {
                Ok(message) => {
                    if !deliver(message) {
                        return;
                    }
                }
                Err((code, why)) => {
                    if answer_error(&mut io::stdout().lock(), code, &why).is_err() {
                        return;
                    }
                }
            },
            Err(FrameError::Header(why)) => {
                eprintln!("rpsdsl lsp: skipped a message: {why}");
            }
            Err(FrameError::Io(error)) => {
                if error.kind() != io::ErrorKind::UnexpectedEof {
                    eprintln!("rpsdsl lsp: cannot read from the editor: {error}");
                }
                return;
            }
        }
    }
}

/// Why a frame could not be read.
enum FrameError {
    /// A header line that is not `Name: value`, or no `Content-Length`: the
    /// frame is skipped.
    Header(String),
    /// The input failed or ended inside a frame: the session is over.
    Io(io::Error),
}

/// The body of the next frame, `None` at the end of the input.
fn read_frame(input: &mut dyn BufRead) -> Result<Option<Vec<u8>>, FrameError> {
    let mut length: Option<usize> = None;
    let mut malformed: Option<String> = None;
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).map_err(FrameError::Io)? == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        match text.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("Content-Length") => {
                match value.trim().parse::<usize>() {
                    Ok(n) if n <= MOST_BYTES => length = Some(n),
                    _ => malformed = Some(format!("the header `{text}` is not a length rpsdsl reads")),
                }
            }
            Some(_) => {}
            None => malformed = Some(format!("the header line `{text}` is not `Name: value`")),
        }
    }
    if let Some(why) = malformed {
        return Err(FrameError::Header(why));
    }
    let Some(length) = length else {
        return Err(FrameError::Header("a message without `Content-Length`".into()));
    };
    let mut body = vec![0; length];
    input.read_exact(&mut body).map_err(FrameError::Io)?;
    Ok(Some(body))
}

/// A body as one message, or the JSON-RPC error that answers it.
fn parse(body: &[u8]) -> Result<Message, (i32, String)> {
    let text = std::str::from_utf8(body).map_err(|e| (PARSE_ERROR, format!("the message is not UTF-8: {e}")))?;
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| (PARSE_ERROR, format!("the message is not JSON: {e}")))?;
    if !value.is_object() {
        return Err((
            INVALID_REQUEST,
            "the message is not one JSON object (batches are not part of LSP)".into(),
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        (
            INVALID_REQUEST,
            format!("the message is not a request, a notification or a response: {e}"),
        )
    })
}

/// Writes JSON-RPC's answer to a message that could not be read.
fn answer_error(out: &mut dyn Write, code: i32, why: &str) -> io::Result<()> {
    let text = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": why },
    })
    .to_string();
    write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn malformed_bodies_are_named_and_the_next_message_is_read() {
        let mut input = Vec::new();
        input.extend(frame(b"not json"));
        input.extend(frame(b"[1,2]"));
        input.extend(frame(&[0xff, 0xfe]));
        input.extend(frame(br#"{"jsonrpc":"2.0","nothing":1}"#));
        input.extend(b"garbage line\r\n\r\n");
        input.extend(frame(br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
        let mut delivered = vec![];
        read_messages(&mut input.as_slice(), |m| {
            delivered.push(m);
            true
        });
        assert_eq!(delivered.len(), 1);
        assert!(matches!(&delivered[0], Message::Notification(n) if n.method == "initialized"));
        assert_eq!(parse(b"not json").unwrap_err().0, PARSE_ERROR);
        assert_eq!(parse(&[0xff]).unwrap_err().0, PARSE_ERROR);
        assert_eq!(parse(b"[1]").unwrap_err().0, INVALID_REQUEST);
        assert_eq!(parse(b"{}").unwrap_err().0, INVALID_REQUEST);
    }

    #[test]
    fn an_error_answer_is_a_frame_with_a_null_id() {
        let mut out = Vec::new();
        answer_error(&mut out, PARSE_ERROR, "the message is not JSON").unwrap();
        let text = String::from_utf8(out).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert_eq!(head, format!("Content-Length: {}", body.len()));
        let value: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(value["id"], serde_json::Value::Null);
        assert_eq!(value["error"]["code"], PARSE_ERROR);
    }
}
