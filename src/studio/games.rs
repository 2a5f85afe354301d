//! Loading a game for the studio: the rules files it reads, which the game
//! owns from then on, and the game made ready to play.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::config::Config;
use super::files::RootLoader;
use crate::check::{OptionSetting, SourceLoader};
use crate::diagnostic::Diagnostic;

/// The rules files a game began with.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct OwnedRules {
    /// The studio's folder then: the game's description names files from it.
    pub(super) root: PathBuf,
    /// The file played (a `.rules` file or a house-rules `.toml` file).
    pub(super) main: PathBuf,
    /// Every file read, with its text, in the order they were read.
    pub(super) files: Vec<(PathBuf, String)>,
}

impl OwnedRules {
    /// The rules as kept (JSON).
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Whether any file the game began with reads otherwise now (edited,
    /// moved or deleted).
    pub(crate) fn edited(&self) -> bool {
        self.files
            .iter()
            .any(|(path, text)| crate::input::read_text(path, crate::input::SOURCE_LIMIT).ok().as_ref() != Some(text))
    }

    /// Whether the game read `path`.
    pub(crate) fn reads(&self, path: &Path) -> bool {
        self.files.iter().any(|(p, _)| p == path)
    }
}

/// Reads from the studio's folder, as [`RootLoader`] does, and notes every
/// file read with its text.
pub(crate) struct Recording<'a> {
    inner: RootLoader<'a>,
    read: Mutex<Vec<(PathBuf, String)>>,
}

impl<'a> Recording<'a> {
    pub(crate) fn new(root: &'a Path) -> Recording<'a> {
        Recording {
            inner: RootLoader {
                root,
                edited: Path::new(""),
                text: "",
            },
            read: Mutex::new(vec![]),
        }
    }

    /// The rules read, with `main` the file played.
    pub(crate) fn owned(self, main: &Path) -> OwnedRules {
        OwnedRules {
            root: self.inner.root.to_path_buf(),
            main: main.to_path_buf(),
            files: self.read.into_inner().unwrap_or_else(|e| e.into_inner()),
        }
    }
}

impl SourceLoader for Recording<'_> {
    fn load(&self, path: &Path) -> io::Result<String> {
        let text = self.inner.load(path)?;
        self.read
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((path.to_path_buf(), text.clone()));
        Ok(text)
    }
}

/// Reads only the texts a game owns.
pub(super) struct Owned<'a>(pub(super) HashMap<&'a Path, &'a str>);

impl SourceLoader for Owned<'_> {
    fn load(&self, path: &Path) -> io::Result<String> {
        self.0
            .get(path)
            .map(|t| t.to_string())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not among the files the game began with"))
    }
}

/// A game from a file under PATH (already resolved), with `extra`
/// settings, and the files it read, which it owns from now on.
pub(super) fn load(
    config: &Config,
    path: &Path,
    extra: impl FnOnce(&mut crate::diagnostic::Sources) -> Result<Vec<OptionSetting>, Vec<Diagnostic>>,
) -> Result<(crate::load::LoadedGame, OwnedRules), String> {
    let root = &config.root;
    let loader = Recording::new(root);
    let game = loaded(config, path, root, &loader, extra)?;
    Ok((game, loader.owned(path)))
}

/// The game at `path`, read through `loader`, with `extra` settings, made
/// ready to play; its description names files from `root`, as a
/// transcript's `rules` does, so that `rpsdsl replay` run there finds the same.
pub(super) fn loaded(
    config: &Config,
    path: &Path,
    root: &Path,
    loader: &dyn crate::check::SourceLoader,
    extra: impl FnOnce(&mut crate::diagnostic::Sources) -> Result<Vec<OptionSetting>, Vec<Diagnostic>>,
) -> Result<crate::load::LoadedGame, String> {
    // Files are named from the studio's folder, in a failure shown to the
    // seats as in a refusal to load: a page never shows the server's paths.
    let mut game = crate::load::load_game(path, loader, extra).map_err(|mut f| {
        f.sources.name_from(root);
        crate::diagnostic::render(&f.diagnostics, &f.sources, false)
    })?;
    game.def.sources.name_from(root);
    crate::text::printable_def(&mut game.def);
    // What the compiled tier leaves to the interpreter plays the same.
    game.def.use_engine(config.engine);
    game.description = game
        .description
        .replace(&format!("{}{}", root.display(), std::path::MAIN_SEPARATOR), "");
    Ok(game)
}
