//! The studio's files: the rules under PATH, read, checked and saved.
//! Nothing outside PATH is ever read or written: a path from the page is
//! relative, has no `..`, and resolves (symlinks followed) inside PATH.

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::check::SourceLoader;
use crate::diagnostic::Diagnostic;

/// How deep below PATH the file list looks.
const MAX_DEPTH: usize = 4;
/// How many files the list shows at most.
const MAX_FILES: usize = 500;

/// Why a path from the page was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refused(pub String);

/// The file `rel` names under `root` (canonical), for reading or writing.
/// Refuses absolute paths, `..` and `.`, names other than `.rules` and
/// `.toml` files, and anything that resolves outside `root` (a symlink
/// out, or a directory that is one).
pub(crate) fn resolve(root: &Path, rel: &str) -> Result<PathBuf, Refused> {
    let full = crate::input::inside_folder(root, rel, "the studio's folder").map_err(Refused)?;
    if !full.extension().is_some_and(|e| e == "rules" || e == "toml") {
        return Err(Refused(format!("`{rel}` is not a `.rules` or `.toml` file")));
    }
    Ok(full)
}

/// The `.rules` and `.toml` files under `root`, as paths relative to it,
/// sorted; hidden folders and `target` are skipped.
pub(crate) fn list(root: &Path) -> Vec<String> {
    let mut out = vec![];
    walk(root, root, 0, &mut out);
    out.sort();
    out.truncate(MAX_FILES);
    out
}

fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "target" || out.len() >= MAX_FILES {
            continue;
        }
        let path = entry.path();
        // Symlinks are not followed: the list shows only what is inside.
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && depth < MAX_DEPTH {
            walk(root, &path, depth + 1, out);
        } else if kind.is_file()
            && path.extension().is_some_and(|e| e == "rules" || e == "toml")
            && let Ok(rel) = path.strip_prefix(root)
        {
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// Reads the text being edited for the file it is edited as, and any other
/// file the rules name (`use`, `extends`) from inside `root` only.
pub(crate) struct RootLoader<'a> {
    pub root: &'a Path,
    pub edited: &'a Path,
    pub text: &'a str,
}

impl SourceLoader for RootLoader<'_> {
    fn load(&self, path: &Path) -> io::Result<String> {
        if path == self.edited {
            return Ok(self.text.to_string());
        }
        let real = path.canonicalize()?;
        if !real.starts_with(self.root) {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "outside the studio's folder",
            ));
        }
        crate::input::read_text(&real, crate::input::SOURCE_LIMIT)
    }
}

/// One diagnostic as the editor shows it.
#[derive(Serialize)]
pub(crate) struct Shown {
    code: String,
    severity: String,
    message: String,
    help: Option<String>,
    /// Where it points in the edited file: line and column from 1, and the
    /// label's text. `None` when it points into another file (or nowhere).
    line: Option<usize>,
    column: Option<usize>,
    label: Option<String>,
    /// The other file it points into, if so.
    elsewhere: Option<String>,
}

/// The diagnostics of the rules `text`, edited as the file `edited`.
pub(crate) fn check(root: &Path, edited: &Path, text: &str) -> Vec<Shown> {
    let loader = RootLoader { root, edited, text };
    let name = edited.display().to_string();
    let (diagnostics, sources) = match crate::check::check_source(&name, text, &loader) {
        Ok(checked) => (checked.warnings, checked.def.sources.clone()),
        Err(failed) => (failed.diagnostics, failed.sources),
    };
    diagnostics.iter().map(|d| shown(d, &sources, &name)).collect()
}

fn shown(d: &Diagnostic, sources: &crate::diagnostic::Sources, name: &str) -> Shown {
    let json = d.to_json(sources);
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    let label = json["labels"].as_array().and_then(|l| l.first()).cloned();
    let here = label.as_ref().filter(|l| l["file"].as_str() == Some(name));
    Shown {
        code: text(&json["code"]).unwrap_or_default(),
        severity: text(&json["severity"]).unwrap_or_default(),
        message: text(&json["message"]).unwrap_or_default(),
        help: text(&json["help"]),
        line: here.and_then(|l| l["line"].as_u64()).map(|n| n as usize),
        column: here.and_then(|l| l["column"].as_u64()).map(|n| n as usize),
        label: here.and_then(|l| text(&l["text"])),
        elsewhere: label.as_ref().filter(|_| here.is_none()).and_then(|l| text(&l["file"])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder() -> (PathBuf, PathBuf) {
        let base = std::env::temp_dir().join(format!("rpsdsl-studio-files-{}", std::process::id()));
        let root = base.join("root");
        std::fs::create_dir_all(root.join("games")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/secret.rules"), "x").unwrap();
        (base.canonicalize().unwrap(), root.canonicalize().unwrap())
    }

    #[test]
    fn only_paths_inside_the_folder_resolve() {
        let (base, root) = folder();
        assert_eq!(resolve(&root, "games/new.rules"), Ok(root.join("games/new.rules")));
        for bad in [
            "../outside/secret.rules",
            "games/../../outside/secret.rules",
            "./games/a.rules",
            "/etc/passwd.rules",
            "",
            "games/a.txt",
            "nofolder/a.rules",
        ] {
            assert!(resolve(&root, bad).is_err(), "{bad} resolved");
        }
        #[cfg(unix)]
        {
            let link = root.join("games/out.rules");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(base.join("outside/secret.rules"), &link).unwrap();
            assert!(resolve(&root, "games/out.rules").is_err(), "a symlink out resolved");
            let dir = root.join("linked");
            let _ = std::fs::remove_file(&dir);
            std::os::unix::fs::symlink(base.join("outside"), &dir).unwrap();
            assert!(
                resolve(&root, "linked/secret.rules").is_err(),
                "a folder symlinked out resolved"
            );
            assert!(
                resolve(&root, "linked/new.rules").is_err(),
                "a new file in a folder symlinked out resolved"
            );
            // The list does not follow either link.
            assert!(list(&root).iter().all(|f| !f.contains("secret")));
        }
        let _ = std::fs::remove_dir_all(&base);
    }
}
