//! How long the compiled tier takes to turn each game into machine code
//! (issue 35: at most 100 ms for any game in `games/`, so the tier pays off
//! inside a short study). Median of 5 compilations a game, one thread.
//!
//! `cargo bench --bench compile`

use std::path::{Path, PathBuf};
use std::time::Instant;

use rpsdsl::check::FsLoader;
use rpsdsl::engine::Engine;

/// Every `.rules` and house-rules `.toml` file under `dir`, in order.
fn game_files(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("games/ exists")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            game_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rules" || e == "toml") {
            files.push(path);
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    game_files(&root.join("games"), &mut files);
    println!("{:<48} {:>8} {:>12} {:>10}", "game", "ops", "compile ms", "skipped");
    let mut worst = 0.0f64;
    for path in files {
        let Ok(mut loaded) = rpsdsl::load::load_game(&path, &FsLoader, |_| Ok(vec![])) else {
            continue; // a prelude: no game of its own
        };
        let mut times = vec![];
        let mut skipped = 0;
        for _ in 0..5 {
            let started = Instant::now();
            skipped = loaded.def.use_engine(Engine::Compiled).len();
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        worst = worst.max(times[2]);
        let shown = path.strip_prefix(root).unwrap_or(&path).display().to_string();
        println!(
            "{shown:<48} {:>8} {:>12.2} {:>10}",
            loaded.def.code.len(),
            times[2],
            skipped
        );
    }
    println!("slowest: {worst:.2} ms (goal: at most 100 ms)");
}
