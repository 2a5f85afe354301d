//! Random playouts per game: `cargo bench --bench playouts [-- FILTER [GAMES]]`.
//!
//! Prints, for every game in games/ whose path contains FILTER, the mean
//! time of a whole random game (setup, every decision, the result) and the
//! mean number of decisions. On Linux it also prints the CPU time, which a
//! busy machine does not inflate.

use std::path::Path;
use std::time::Instant;

use rpsdsl::check::{FsLoader, check_file};
use rpsdsl::scenario::Scenario;
use rpsdsl::session;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let filter = args.first().cloned().unwrap_or_default();
    let games: u64 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2000);
    let mut paths: Vec<_> = std::fs::read_dir("games")
        .expect("run from the crate root")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .filter(|p| p.display().to_string().contains(&filter))
        .collect();
    paths.sort();
    for path in paths {
        let def = match check_file(Path::new(&path), &FsLoader) {
            Ok(checked) => checked.def,
            Err(_) => panic!("{} does not check", path.display()),
        };
        let options = def.default_options();
        let mut decisions = 0u64;
        let start = Instant::now();
        let cpu_start = cpu_ns();
        for seed in 0..games {
            let mut agents = rpsdsl::agents::from_spec("random", def.players(), seed).unwrap();
            let record = session::play(&def, &options, seed, &Scenario::default(), &mut agents)
                .unwrap_or_else(|f| panic!("{} seed {seed}: {}", path.display(), f.diagnostic.message));
            decisions += record.decisions.len() as u64;
        }
        let elapsed = start.elapsed();
        let cpu = match (cpu_start, cpu_ns()) {
            (Some(a), Some(b)) => format!(" ({:.1} µs CPU)", (b - a) as f64 / 1e3 / games as f64),
            _ => String::new(),
        };
        println!(
            "{:40} {:>9.1} µs/game{cpu} {:>7.1} decisions/game ({games} games)",
            path.display(),
            elapsed.as_secs_f64() * 1e6 / games as f64,
            decisions as f64 / games as f64
        );
    }
}

/// Time this thread has spent on a CPU, in nanoseconds (Linux only).
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
