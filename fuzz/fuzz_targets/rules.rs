//! Any bytes as a rules file: check it, render its diagnostics as a person
//! would see them, and when it checks clean, play a few random games. Any
//! panic, overflow or stack exhaustion is a bug.
#![no_main]

use std::path::{Component, Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use rpsdsl::check::{SourceLoader, check_source};

/// The shipped files a mutant may `use` or `extend`, served from memory so
/// a run never touches the disk.
const SHIPPED: &[(&str, &str)] = &[
    ("games/prelude/rps.rules", include_str!("../../games/prelude/rps.rules")),
    ("games/prelude/betting.rules", include_str!("../../games/prelude/betting.rules")),
    ("games/rps.rules", include_str!("../../games/rps.rules")),
    ("games/rps3.rules", include_str!("../../games/rps3.rules")),
    ("games/rock.rules", include_str!("../../games/rock.rules")),
    ("games/janken_deck.rules", include_str!("../../games/janken_deck.rules")),
    ("games/rps_poker.rules", include_str!("../../games/rps_poker.rules")),
    ("games/rubber_paper_scissors.rules", include_str!("../../games/rubber_paper_scissors.rules")),
];

struct Shipped;

impl SourceLoader for Shipped {
    fn load(&self, path: &Path) -> std::io::Result<String> {
        let mut tidy = PathBuf::new();
        for part in path.components() {
            match part {
                Component::ParentDir => {
                    tidy.pop();
                }
                Component::CurDir => {}
                other => tidy.push(other),
            }
        }
        SHIPPED
            .iter()
            .find(|(name, _)| Path::new(name) == tidy)
            .map(|(_, text)| text.to_string())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not a shipped file"))
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match check_source("games/fuzzed.rules", text, &Shipped) {
        Ok(checked) => {
            let _ = rpsdsl::playtest::smoke_test(&checked.def, 2);
        }
        Err(failed) => {
            let _ = rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false);
        }
    }
});
