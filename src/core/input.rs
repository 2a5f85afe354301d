//! Reading input files safely: only regular files, never more than a cap, and
//! text that is not UTF-8 reported at the exact byte.
//!
//! Every file rpsdsl reads (rules, house rules, scenarios, transcripts,
//! reports) goes through [`read_text`]. It refuses a directory, a device such
//! as `/dev/zero` or a named pipe before opening it (so nothing blocks or
//! reads forever), reads at most `limit + 1` bytes (so a file that grows, or
//! reports a wrong size, is still read with a bound), and reports bytes that
//! are not UTF-8 with their offset, line and column.
//!
//! Its errors are `std::io::Error`s carrying a [`ReadError`], so a
//! [`SourceLoader`](crate::check::SourceLoader) keeps its plain signature;
//! [`unreadable`] turns any of them into the right diagnostic.

use std::fmt;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::diagnostic::{Code, Diagnostic, Sources, Span};

/// The most a rules, house-rules or scenario file may hold: 4 MiB, far more
/// than any game needs (the largest shipped game is a few kilobytes).
pub const SOURCE_LIMIT: u64 = 4 * 1024 * 1024;

/// The most a transcript or a simulation report may hold: 64 MiB (a
/// transcript of a long game is well under a megabyte).
pub const RECORD_LIMIT: u64 = 64 * 1024 * 1024;

/// Why a file was not read, beyond the operating system's own errors.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// `/dev/zero`, a directory, a named pipe (`mkfifo`), a socket.
    NotRegular { what: &'static str },
    /// A file over the limit for its kind, such as a 5 MiB rules file.
    TooLarge { limit: u64 },
    /// Bytes that are not UTF-8, such as a Latin-1 `é` (0xE9) in a comment.
    InvalidUtf8 {
        /// The file with each bad sequence shown as U+FFFD, so a label can
        /// point at the first one.
        lossy: String,
        /// Byte offset of the first bad byte (also its offset in `lossy`).
        offset: usize,
        byte: u8,
        line: usize,
        column: usize,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular { what } => write!(f, "it is {what}, not a regular file"),
            ReadError::TooLarge { limit } => write!(f, "it is larger than {}", size(*limit)),
            ReadError::InvalidUtf8 {
                offset,
                byte,
                line,
                column,
                ..
            } => write!(
                f,
                "it is not valid UTF-8: byte {offset} (line {line}, column {column}) is 0x{byte:02X}"
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// "4 MiB", "512 bytes".
fn size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{bytes} bytes")
    }
}

fn refuse(error: ReadError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, error)
}

/// What kind of thing a path names, when it is not a regular file.
fn not_regular(file_type: std::fs::FileType) -> Option<&'static str> {
    if file_type.is_file() {
        return None;
    }
    if file_type.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return Some("a named pipe");
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return Some("a device");
        }
        if file_type.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Reads the regular file at `path` as UTF-8 text of at most `limit` bytes.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    // Looked at before opening: opening a named pipe would wait for a writer.
    let metadata = std::fs::metadata(path)?;
    if let Some(what) = not_regular(metadata.file_type()) {
        return Err(refuse(ReadError::NotRegular { what }));
    }
    if metadata.len() > limit {
        return Err(refuse(ReadError::TooLarge { limit }));
    }
    let file = std::fs::File::open(path)?;
    // The path may have been replaced since it was looked at.
    if let Some(what) = not_regular(file.metadata()?.file_type()) {
        return Err(refuse(ReadError::NotRegular { what }));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(refuse(ReadError::TooLarge { limit }));
    }
    String::from_utf8(bytes).map_err(|error| {
        let offset = error.utf8_error().valid_up_to();
        let bytes = error.as_bytes();
        let before = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        refuse(ReadError::InvalidUtf8 {
            lossy: String::from_utf8_lossy(bytes).into_owned(),
            offset,
            byte: bytes[offset],
            line,
            column,
        })
    })
}

/// The diagnostic for a file that could not be read. A file that is not
/// UTF-8 joins `sources` (shown lossily) so the label points at its first bad
/// byte; `help` is the advice for an ordinary failure (a missing file).
pub fn unreadable(path: &Path, error: &io::Error, sources: &mut Sources, help: &str) -> Diagnostic {
    let name = path.display();
    let Some(read_error) = error.get_ref().and_then(|e| e.downcast_ref::<ReadError>()) else {
        return Diagnostic::error(Code::UnreadableFile, format!("cannot read `{name}`: {error}")).help(help);
    };
    match read_error {
        ReadError::NotRegular { what } => Diagnostic::error(
            Code::NotARegularFile,
            format!("cannot read `{name}`: it is {what}, not a regular file"),
        )
        .help("rpsdsl reads only regular files; give the path of a file saved on disk"),
        ReadError::TooLarge { limit } => Diagnostic::error(
            Code::InputTooLarge,
            format!("cannot read `{name}`: it is larger than {}", size(*limit)),
        )
        .help(format!(
            "rules, house-rules and scenario files may hold up to {}, transcripts and reports up to {}",
            size(SOURCE_LIMIT),
            size(RECORD_LIMIT)
        )),
        ReadError::InvalidUtf8 { lossy, offset, .. } => {
            let file = sources.add(name.to_string(), lossy.as_str());
            let width = lossy[*offset..].chars().next().map_or(0, char::len_utf8);
            Diagnostic::error(Code::InvalidUtf8, format!("cannot read `{name}`: {read_error}"))
                .label(Span::new(file, *offset, offset + width), "this byte is not UTF-8")
                .help("save the file as UTF-8 text")
        }
    }
}

/// Whether a file that does not parse as TOML is no TOML file at all, so it
/// is named without showing any of it: the error is on its first line of
/// content, and either its name does not end in `.toml` or no line of it
/// looks like a TOML key (`name = ...`) or table (`[options]`).
pub fn not_toml(path: &Path, text: &str) -> bool {
    let Err(error) = text.parse::<toml::Table>() else {
        return false;
    };
    let at = error.span().map_or(0, |r| r.start);
    let first_content = text
        .lines()
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len() + 1;
            Some((start, line))
        })
        .find(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'));
    let on_first_line = first_content.is_none_or(|(start, line)| at <= start + line.len());
    let looks_like_toml = text.lines().map(str::trim).any(|line| {
        line.starts_with('[')
            || line.split_once('=').is_some_and(|(key, _)| {
                let key = key.trim();
                !key.is_empty()
                    && key
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '"' | ' '))
            })
    });
    on_first_line && (path.extension().is_none_or(|e| e != "toml") || !looks_like_toml)
}

/// The file `rel` names under `root` (canonical), for reading or writing:
/// refused unless `rel` is relative with no `..` or `.`, its folder exists
/// and resolves (symlinks followed) inside `root`, and the file is absent
/// (a new file) or resolves inside `root` too. `place` names the folder in
/// the refusal ("the studio's folder").
pub fn inside_folder(root: &Path, rel: &str, place: &str) -> Result<PathBuf, String> {
    let path = Path::new(rel);
    if rel.is_empty() || path.is_absolute() {
        return Err(format!("`{rel}` is not a path relative to {place}"));
    }
    if !path.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
        return Err(format!(
            "`{rel}` leaves or re-enters a folder (`..`, `.`); name the file from {place}"
        ));
    }
    let full = root.join(path);
    let parent = full.parent().unwrap_or(root);
    let inside = |p: &Path| p.canonicalize().is_ok_and(|p| p.starts_with(root));
    if !inside(parent) {
        return Err(format!("`{rel}`: its folder is not inside {place}"));
    }
    match full.symlink_metadata() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(full),
        Err(e) => Err(format!("`{rel}`: {e}")),
        Ok(_) if inside(&full) => Ok(full),
        Ok(_) => Err(format!("`{rel}` points outside {place}")),
    }
}

/// `games/house/../x.rules` as `games/x.rules`: `..` resolved by name, so
/// paths read well in headers and diagnostics.
pub(crate) fn tidy_path(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir if out.file_name().is_some() && !out.ends_with("..") => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
