//! Turning command-line arguments into a game setup: options, viewer.

use crate::check::OptionSetting;
use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::ir::GameDef;
use crate::transcript::Viewer;

/// `--set` arguments as settings; their spans point into a pseudo-file that
/// holds the command line, so a bad value is underlined where it was typed.
pub(crate) fn cli_settings(settings: &[String], sources: &mut Sources) -> Result<Vec<OptionSetting>, Vec<Diagnostic>> {
    OptionSetting::parse_all(settings, "--set ", "command line", sources)
}

/// Every name of a loaded game made printable (see [`crate::text`]).
pub(crate) fn printable_game(game: &mut crate::load::LoadedGame) {
    crate::text::printable_def(&mut game.def);
    game.description = crate::text::printable_string(&game.description);
}

pub(crate) fn parse_viewer(def: &GameDef, view: &str) -> Result<Viewer, String> {
    if view == "all" {
        return Ok(Viewer::All);
    }
    if let Ok(n) = view.parse::<usize>()
        && (1..=def.players()).contains(&n)
    {
        return Ok(Viewer::Seat((n - 1) as u8));
    }
    def.seats
        .iter()
        .position(|s| s.eq_ignore_ascii_case(view))
        .map(|s| Viewer::Seat(s as u8))
        .ok_or_else(|| {
            format!(
                "`--view {view}`: expected all, a seat number from 1 to {}, or a seat name ({})",
                def.players(),
                def.seats.join(", ")
            )
        })
}

/// The seed given, or one drawn from the operating system's random source:
/// a seat's view never shows the seed, and a seed from the clock or a small
/// default could be guessed, which would deal the whole game again.
pub(crate) fn seed_or_os(seed: Option<u64>) -> Result<u64, String> {
    use rand::TryRng as _;
    match seed {
        Some(seed) => Ok(seed),
        None => rand::rngs::SysRng
            .try_next_u64()
            .map_err(|e| format!("cannot draw a seed from the operating system ({e}); give one with --seed N")),
    }
}

/// The back end `--engine` chose, for every game the command loads.
static ENGINE: std::sync::OnceLock<crate::engine::Engine> = std::sync::OnceLock::new();

/// Sets the back end for the games this run loads (once, from `--engine`).
pub(crate) fn choose_engine(engine: crate::engine::Engine) {
    let _ = ENGINE.set(engine);
}

/// The back end `--engine` chose.
pub(crate) fn engine() -> crate::engine::Engine {
    ENGINE.get().copied().unwrap_or_default()
}

/// Puts `game` on the chosen back end, and says once on stderr what the
/// compiled tier leaves to the interpreter.
pub(crate) fn use_engine(game: &mut crate::engine::Game) {
    let left = game.use_engine(engine());
    if !left.is_empty() {
        eprintln!(
            "note: the compiled tier leaves part of `{}` to the interpreter (same results, slower): {}",
            game.name,
            left.join("; ")
        );
    }
}

/// A game from a `.rules` or house-rules `.toml` file, with a scenario's
/// options and `--set` settings applied on top, in that order. Problems are
/// reported; the error is the exit code to use.
pub(crate) fn load_game(
    file: &std::path::Path,
    settings: &[String],
    scenario_path: Option<&std::path::Path>,
) -> Result<(crate::load::LoadedGame, crate::scenario::Scenario), std::process::ExitCode> {
    let mut scenario = crate::scenario::Scenario::default();
    let loaded = crate::load::load_game(file, &crate::check::FsLoader, |sources| {
        let mut all = vec![];
        if let Some(path) = scenario_path {
            let text = crate::input::read_text(path, crate::input::SOURCE_LIMIT)
                .map_err(|e| vec![crate::input::unreadable(path, &e, sources, "check the scenario's path")])?;
            if crate::input::not_toml(path, &text) {
                return Err(vec![
                    Diagnostic::error(
                        Code::NotAScenarioFile,
                        format!("`{}` is not a scenario file", path.display()),
                    )
                    .help("a scenario is a TOML file; see docs/scenarios.md for the format"),
                ]);
            }
            let id = sources.add(path.display().to_string(), text.clone());
            scenario = crate::scenario::Scenario::from_toml(id, &text).map_err(|d| vec![*d])?;
            all.extend(scenario.options.clone());
        }
        all.extend(cli_settings(settings, sources)?);
        Ok(all)
    });
    match loaded {
        Ok(mut game) => {
            super::report(&game.warnings, &game.def.sources);
            printable_game(&mut game);
            use_engine(&mut game.def);
            Ok((game, scenario))
        }
        Err(failed) => {
            super::report(&failed.diagnostics, &failed.sources);
            let usage = failed
                .diagnostics
                .iter()
                .all(|d| matches!(d.code, Code::UnknownOption | Code::BadOptionValue));
            Err(std::process::ExitCode::from(if usage { 2 } else { 1 }))
        }
    }
}
