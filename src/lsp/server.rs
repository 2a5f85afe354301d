//! What the server holds: the documents the editor has open and what was
//! found in them, what runs beside it (simulations, studios), and the
//! paths behind `file:` URIs. Every request's file reads it; the
//! dispatch in `lsp` is its only writer.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::sync::{Arc, Mutex};

use lsp_server::Message;
use lsp_types::Uri;

use super::index::{GameIndex, IndexedFile};

/// One open document, checked and indexed.
pub(super) struct Analysis {
    pub(super) diagnostics: Vec<lsp_types::Diagnostic>,
    pub(super) index: GameIndex,
    /// The document among the index's files.
    pub(super) file: usize,
}

/// The documents the editor has open, by path, and what was found in them.
#[derive(Default)]
pub(super) struct Server {
    pub(super) open: HashMap<PathBuf, String>,
    pub(super) analyses: HashMap<PathBuf, Analysis>,
    pub(super) roots: Vec<PathBuf>,
    pub(super) running: Running,
    /// Every file indexed so far, by path, as last read.
    pub(super) indexed: std::cell::RefCell<HashMap<PathBuf, Arc<IndexedFile>>>,
}

/// What runs beside the server: simulations' results, and studios started.
#[derive(Default)]
pub(super) struct Running {
    /// The last simulation's summary, by file.
    pub(super) results: Arc<Mutex<HashMap<PathBuf, String>>>,
    /// The studio started for each folder, kept until the server ends.
    pub(super) studios: Mutex<HashMap<PathBuf, Child>>,
    /// Whether the editor takes `workspace/codeLens/refresh`.
    pub(super) refresh: bool,
    /// Sends a message to the editor from any thread.
    pub(super) outbox: Option<Arc<dyn Fn(Message) + Send + Sync>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(studios) = self.studios.get_mut() {
            for child in studios.values_mut() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// The path of a `file:` URI; `None` for any other.
pub(super) fn path_of(uri: &Uri) -> Option<PathBuf> {
    url::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The `file:` URI of an absolute path.
pub(super) fn uri_of(path: &Path) -> Option<Uri> {
    url::Url::from_file_path(path).ok()?.as_str().parse().ok()
}
