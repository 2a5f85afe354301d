//! `rpsdsl lsp`: a language server over stdio (rust-analyzer's
//! `lsp-server` scaffold): `rpsdsl check`'s diagnostics as the designer
//! types, and what an editor asks of a language: hover, completion, go to
//! definition, references, highlight, rename, the outline, semantic
//! colouring, folding, quick fixes and formatting.
//!
//! Each open document is checked in full on every change (the documents
//! are small): a `.rules` file as `check` checks it, a house-rules `.toml`
//! file as `run` loads it, with its errors placed in the TOML. A file the
//! document names (`use`, `extends`, a house file's `rules`) is read from
//! the editor when it is open there, else from disk. A diagnostic keeps its
//! code, its help (after the message) and its other labels (as related
//! information). The same pass indexes the names of the game's files
//! (`lsp::index`), which every other request reads.

mod actions;
mod complete;
mod docs;
mod hover;
mod index;
mod lens;
mod navigate;
mod outline;
mod position;
mod server;
mod transport;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_server::{ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _, PublishDiagnostics,
};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, PublishDiagnosticsParams,
    ServerCapabilities, Uri,
};

use crate::check::SourceLoader;
use crate::diagnostic::{Diagnostic, Sources};
use index::{GameIndex, IndexedFile};
use server::{Analysis, Running, Server, path_of, uri_of};

/// Serves the editor on stdin and stdout until it says `exit`.
pub fn serve_stdio() -> Result<(), String> {
    let (connection, io_threads) = transport::stdio();
    let (id, params) = connection
        .initialize_start()
        .map_err(|e| format!("the editor did not start the session: {e}"))?;
    let roots = workspace_roots(&params);
    let refresh = params["capabilities"]["workspace"]["codeLens"]["refreshSupport"] == true;
    let capabilities = serde_json::to_value(capabilities()).map_err(|e| e.to_string())?;
    connection
        .initialize_finish(id, serde_json::json!({ "capabilities": capabilities, "serverInfo": { "name": "rpsdsl", "version": env!("CARGO_PKG_VERSION") } }))
        .map_err(|e| format!("the editor did not start the session: {e}"))?;
    let sender = connection.sender.clone();
    let mut server = Server {
        roots,
        running: Running {
            refresh,
            outbox: Some(Arc::new(move |message| {
                let _ = sender.send(message);
            })),
            results: Default::default(),
            studios: Default::default(),
        },
        ..Server::default()
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                    break;
                }
                let _ = connection.sender.send(server.answer(request).into());
            }
            Message::Notification(notification) => {
                // A fault in one document's analysis costs its diagnostics,
                // not the session.
                let published =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.notified(notification)))
                        .unwrap_or_default();
                for published in published {
                    let _ = connection.sender.send(published.into());
                }
            }
            Message::Response(_) => {}
        }
    }
    // The server holds a sender for messages from its threads: it goes
    // first, so that the writer sees every sender gone and ends.
    drop(server);
    drop(connection);
    io_threads
        .join()
        .map_err(|e| format!("the connection to the editor broke: {e}"))
}

/// What the server offers.
fn capabilities() -> ServerCapabilities {
    use lsp_types::*;
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![" ".into(), "\n".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: outline::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..SemanticTokensOptions::default()
            },
        )),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: lens::COMMANDS.iter().map(|c| c.to_string()).collect(),
            ..ExecuteCommandOptions::default()
        }),
        inlay_hint_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// The folders the editor opened, where rename looks for the games that
/// use a file.
fn workspace_roots(params: &serde_json::Value) -> Vec<PathBuf> {
    let Ok(params) = serde_json::from_value::<lsp_types::InitializeParams>(params.clone()) else {
        return vec![];
    };
    let mut roots: Vec<PathBuf> = params
        .workspace_folders
        .unwrap_or_default()
        .iter()
        .filter_map(|folder| path_of(&folder.uri))
        .collect();
    #[allow(deprecated)] // older editors send only `rootUri`
    if roots.is_empty()
        && let Some(root) = params.root_uri.as_ref().and_then(path_of)
    {
        roots.push(root);
    }
    roots
}

impl Server {
    /// Answers one request; an unknown method or bad parameters get an
    /// error. A fault of the server in one request is answered as an
    /// error too, and the server goes on.
    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let method = request.method.clone();
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.dispatch(request)));
        match answered {
            Ok(Ok(result)) => Response::new_ok(id, result),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                ErrorCode::InternalError as i32,
                format!("rpsdsl lsp failed on `{method}`; this is a fault of rpsdsl, please report it"),
            ),
        }
    }

    fn dispatch(&mut self, request: Request) -> Result<serde_json::Value, (ErrorCode, String)> {
        use lsp_types::request::*;
        fn params<P: serde::de::DeserializeOwned>(request: &lsp_server::Request) -> Result<P, (ErrorCode, String)> {
            serde_json::from_value(request.params.clone())
                .map_err(|e| (ErrorCode::InvalidParams, format!("`{}`: {e}", request.method)))
        }
        let answer = |value: Result<serde_json::Value, serde_json::Error>| {
            value.map_err(|e| (ErrorCode::InternalError, e.to_string()))
        };
        match request.method.as_str() {
            HoverRequest::METHOD => answer(serde_json::to_value(hover::hover(self, params(&request)?))),
            GotoDefinition::METHOD => answer(serde_json::to_value(navigate::definition(self, params(&request)?))),
            References::METHOD => answer(serde_json::to_value(navigate::references(self, params(&request)?))),
            DocumentHighlightRequest::METHOD => {
                answer(serde_json::to_value(navigate::highlight(self, params(&request)?)))
            }
            PrepareRenameRequest::METHOD => {
                let found =
                    navigate::prepare_rename(self, params(&request)?).map_err(|e| (ErrorCode::RequestFailed, e))?;
                answer(serde_json::to_value(found))
            }
            Rename::METHOD => {
                let edit = navigate::rename(self, params(&request)?).map_err(|e| (ErrorCode::RequestFailed, e))?;
                answer(serde_json::to_value(edit))
            }
            Completion::METHOD => answer(serde_json::to_value(complete::complete(self, params(&request)?))),
            DocumentSymbolRequest::METHOD => answer(serde_json::to_value(outline::symbols(self, params(&request)?))),
            SemanticTokensFullRequest::METHOD => {
                answer(serde_json::to_value(outline::semantic_tokens(self, params(&request)?)))
            }
            FoldingRangeRequest::METHOD => answer(serde_json::to_value(outline::folding(self, params(&request)?))),
            CodeActionRequest::METHOD => answer(serde_json::to_value(actions::code_actions(self, params(&request)?))),
            Formatting::METHOD => answer(serde_json::to_value(actions::formatting(self, params(&request)?))),
            CodeLensRequest::METHOD => answer(serde_json::to_value(lens::lenses(self, params(&request)?))),
            ExecuteCommand::METHOD => {
                let done = lens::execute(self, params(&request)?).map_err(|e| (ErrorCode::RequestFailed, e))?;
                answer(serde_json::to_value(done))
            }
            InlayHintRequest::METHOD => answer(serde_json::to_value(lens::inlay_hints(self, params(&request)?))),
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("rpsdsl lsp does not offer `{}`", request.method),
            )),
        }
    }

    /// The open document at `uri` and its analysis.
    fn document(&self, uri: &Uri) -> Option<(&str, &Analysis)> {
        let path = path_of(uri)?;
        Some((self.open.get(&path)?.as_str(), self.analyses.get(&path)?))
    }

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
                    self.analyses.remove(&path);
                }
                vec![publish(params.text_document.uri, vec![])]
            }
            _ => vec![],
        }
    }

    /// A document's new text: it is checked, and so is every open
    /// document whose game reads it (a prelude a game uses).
    fn changed(&mut self, uri: Uri, text: String) -> Vec<Notification> {
        let Some(changed) = path_of(&uri) else {
            return vec![];
        };
        self.open.insert(changed.clone(), text);
        let mut published = vec![];
        let paths: Vec<PathBuf> = self
            .open
            .keys()
            .filter(|path| {
                **path == changed
                    || self
                        .analyses
                        .get(*path)
                        .is_none_or(|a| a.index.files.iter().any(|f| lexical(&f.path) == lexical(&changed)))
            })
            .cloned()
            .collect();
        for path in paths {
            let analysis = self.analyze(&path);
            if let Some(uri) = uri_of(&path) {
                published.push(publish(uri, analysis.diagnostics.clone()));
            }
            self.analyses.insert(path, analysis);
        }
        published
    }

    /// Checks and indexes the game of the file at `path` (open or not).
    fn analyze(&self, path: &Path) -> Analysis {
        let loader = Overlay { open: &self.open };
        let (diagnostics, sources) = match crate::load::load_game(path, &loader, |_| Ok(vec![])) {
            Ok(game) => (game.warnings, game.def.sources.clone()),
            Err(failed) => (failed.diagnostics, failed.sources),
        };
        let name = path.display().to_string();
        let diagnostics = diagnostics.iter().map(|d| placed(d, &sources, &name)).collect();
        // The document first, then every other file the game read.
        let mut files: Vec<(PathBuf, Arc<str>)> = vec![];
        let text: Arc<str> = match self.open.get(path) {
            Some(text) => text.as_str().into(),
            None => sources
                .files
                .iter()
                .find(|f| f.name == name)
                .map_or_else(|| "".into(), |f| f.text.clone()),
        };
        files.push((path.to_path_buf(), text));
        for file in &sources.files {
            if file.name != name && file.name.ends_with(".rules") {
                files.push((PathBuf::from(&file.name), file.text.clone()));
            }
        }
        // A file whose text is as it was is not read again: typing in one
        // document leaves its preludes' indexes as they were.
        let mut cache = self.indexed.borrow_mut();
        let files = files
            .into_iter()
            .map(|(path, text)| match cache.get(&path) {
                Some(known) if known.text == text => known.clone(),
                _ => {
                    let fresh = Arc::new(IndexedFile::new(path.clone(), text));
                    cache.insert(path, fresh.clone());
                    fresh
                }
            })
            .collect();
        Analysis {
            diagnostics,
            index: GameIndex::new(files),
            file: 0,
        }
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

/// `path` with its `.` and `..` parts worked out, without asking the disk
/// (`games/variants/../prelude/x.rules` is `games/prelude/x.rules`).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
