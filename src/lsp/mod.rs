//! `rpsdsl lsp`: a language server over stdio (rust-analyzer's
//! `lsp-server` scaffold) that gives an editor the diagnostics `rpsdsl
//! check` gives, as the designer types.
//!
//! Each open document is checked in full on every change (the documents
//! are small): a `.rules` file as `check` checks it, a house-rules `.toml`
//! file as `run` loads it, with its errors placed in the TOML. A file the
//! document names (`use`, `extends`, a house file's `rules`) is read from
//! the editor when it is open there, else from disk. A diagnostic keeps its
//! code, its help (after the message) and its other labels (as related
//! information).

mod position;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, PublishDiagnosticsParams,
    ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};

use crate::check::SourceLoader;
use crate::diagnostic::{Diagnostic, Sources};

/// Serves the editor on stdin and stdout until it says `exit`.
pub fn serve_stdio() -> Result<(), String> {
    let (connection, io_threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        ..ServerCapabilities::default()
    };
    let capabilities = serde_json::to_value(capabilities).map_err(|e| e.to_string())?;
    connection
        .initialize(capabilities)
        .map_err(|e| format!("the editor did not start the session: {e}"))?;
    let mut server = Server::default();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    break;
                }
                // Nothing else is offered yet: an unknown method is answered as such.
                let answer = lsp_server::Response::new_err(
                    request.id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("rpsdsl lsp does not offer `{}`", request.method),
                );
                let _ = connection.sender.send(answer.into());
            }
            Message::Notification(notification) => {
                for published in server.notified(notification) {
                    let _ = connection.sender.send(published.into());
                }
            }
            Message::Response(_) => {}
        }
    }
    drop(connection);
    io_threads
        .join()
        .map_err(|e| format!("the connection to the editor broke: {e}"))
}

/// The documents the editor has open, by path.
#[derive(Default)]
struct Server {
    open: HashMap<PathBuf, String>,
}

impl Server {
    /// Handles one notification; the diagnostics to publish.
    fn notified(&mut self, notification: Notification) -> Vec<Notification> {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(notification.params)
                else {
                    return vec![];
                };
                self.changed(params.text_document.uri, params.text_document.text)
            }
            DidChangeTextDocument::METHOD => {
                let Ok(mut params) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(notification.params)
                else {
                    return vec![];
                };
                // Full sync: the last change is the whole text.
                match params.content_changes.pop() {
                    Some(change) => self.changed(params.text_document.uri, change.text),
                    None => vec![],
                }
            }
            DidCloseTextDocument::METHOD => {
                let Ok(params) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(notification.params)
                else {
                    return vec![];
                };
                if let Some(path) = path_of(&params.text_document.uri) {
                    self.open.remove(&path);
                }
                vec![publish(params.text_document.uri, vec![])]
            }
            _ => vec![],
        }
    }

    /// A document's new text: it is checked, and so is every open
    /// document, since one may name another.
    fn changed(&mut self, uri: Uri, text: String) -> Vec<Notification> {
        let Some(path) = path_of(&uri) else {
            return vec![];
        };
        self.open.insert(path, text);
        let mut published = vec![];
        for path in self.open.keys() {
            let Some(uri) = uri_of(path) else { continue };
            published.push(publish(uri, self.diagnostics(path)));
        }
        published
    }

    /// The diagnostics of the open document at `path`, placed in it.
    fn diagnostics(&self, path: &Path) -> Vec<lsp_types::Diagnostic> {
        let loader = Overlay { open: &self.open };
        let (diagnostics, sources) = match crate::load::load_game(path, &loader, |_| Ok(vec![])) {
            Ok(game) => (game.warnings, game.def.sources.clone()),
            Err(failed) => (failed.diagnostics, failed.sources),
        };
        let name = path.display().to_string();
        diagnostics.iter().map(|d| placed(d, &sources, &name)).collect()
    }
}

/// Reads an open document from the editor, any other file from disk.
struct Overlay<'a> {
    open: &'a HashMap<PathBuf, String>,
}

impl SourceLoader for Overlay<'_> {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        match self.open.get(path) {
            Some(text) => Ok(text.clone()),
            None => crate::input::read_text(path, crate::input::SOURCE_LIMIT),
        }
    }
}

/// A diagnostic as the editor shows it in the file `name`: at its first
/// label there, with its other labels as related information. One that
/// points nowhere in that file (the whole file, or only into a file it
/// names) is shown at its start.
fn placed(d: &Diagnostic, sources: &Sources, name: &str) -> lsp_types::Diagnostic {
    let here = d.labels.iter().find(|l| sources.file(l.span.file).name == name);
    let range_of = |label: &crate::diagnostic::Label| {
        let file = sources.file(label.span.file);
        position::range(&file.text, label.span.start as usize, label.span.end as usize)
    };
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter(|l| here.is_none_or(|h| !std::ptr::eq(*l, h)))
        .filter_map(|l| {
            let uri = uri_of(Path::new(&sources.file(l.span.file).name))?;
            Some(DiagnosticRelatedInformation {
                location: Location {
                    uri,
                    range: range_of(l),
                },
                message: if l.text.is_empty() {
                    d.message.clone()
                } else {
                    l.text.clone()
                },
            })
        })
        .collect();
    let mut message = d.message.clone();
    if let Some(here) = here
        && !here.text.is_empty()
        && here.text != d.message
    {
        message.push_str(&format!(": {}", here.text));
    }
    if let Some(help) = &d.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    lsp_types::Diagnostic {
        range: here.map(range_of).unwrap_or_default(),
        severity: Some(if d.is_error() {
            DiagnosticSeverity::ERROR
        } else {
            DiagnosticSeverity::WARNING
        }),
        code: Some(NumberOrString::String(format!("rpsdsl::{}", d.code))),
        source: Some("rpsdsl".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lsp_types::Diagnostic::default()
    }
}

fn publish(uri: Uri, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

/// The path of a `file:` URI; `None` for any other.
fn path_of(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The `file:` URI of an absolute path.
fn uri_of(path: &Path) -> Option<Uri> {
    url::Url::from_file_path(path).ok()?.as_str().parse().ok()
}
