//! `rpsdsl replay`: re-run a JSON transcript, stop at the first divergence.

use std::path::Path;
use std::process::ExitCode;

use rpsdsl::agents;
use rpsdsl::check::{FsLoader, OptionSetting};
use rpsdsl::diagnostic::Span;
use rpsdsl::session;
use rpsdsl::transcript::{Header, Transcript, UNFINISHED, Viewer};

use super::report;

pub fn replay(path: &Path) -> ExitCode {
    let text = match super::read_record(
        path,
        "not-a-transcript",
        "a transcript",
        "`rpsdsl run --json --view all` writes one",
    ) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let recorded: Transcript = match serde_json::from_str(&text) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "error: `{}` is not a JSON transcript: {e} (line {}, column {})",
                path.display(),
                e.line(),
                e.column()
            );
            return ExitCode::from(1);
        }
    };
    let Some(script) = &recorded.replay else {
        eprintln!(
            "error: this transcript was written for view `{}`; only a `--view all` transcript can be replayed",
            recorded.view
        );
        return ExitCode::from(1);
    };
    let settings: Vec<OptionSetting> = recorded
        .options
        .iter()
        .map(|(name, value)| OptionSetting {
            name: name.clone(),
            value: value.clone(),
            name_span: Span::default(),
            value_span: Span::default(),
        })
        .collect();
    let game = match rpsdsl::house::load_game(Path::new(&recorded.rules), &FsLoader, |_| Ok(settings)) {
        Ok(game) => game,
        Err(failed) => {
            report(&failed.diagnostics, &failed.sources);
            return ExitCode::from(1);
        }
    };
    let (def, options) = (game.def, game.options);
    let scenario = script.to_scenario(recorded.seed);
    let mut agents = agents::from_spec("random", def.players(), recorded.seed).unwrap_or_default();
    // A game left unfinished (a person quit `rpsdsl play`) is checked as far
    // as it went: past its decisions the agents play on, or the rules stop.
    let unfinished = recorded.result == UNFINISHED;
    let replayed = match session::play(&def, &options, recorded.seed, &scenario, &mut agents) {
        Ok(record) => record,
        Err(failure) if unfinished => failure.record,
        Err(failure) => {
            eprintln!("replay diverged: the recorded decisions no longer fit the rules");
            report(&[failure.diagnostic], &def.sources);
            return ExitCode::from(1);
        }
    };
    let header = Header {
        about: None,
        rules: &recorded.rules,
        seed: recorded.seed,
        options: recorded.options.clone(),
        agents: recorded.agents.clone(),
    };
    let mut again = Transcript::new(&def, header, &replayed, Viewer::All);
    if unfinished && again.lines.len() >= recorded.lines.len() {
        again.lines.truncate(recorded.lines.len());
        again.result = UNFINISHED.into();
    }
    match rpsdsl::transcript::first_divergence(&recorded, &again) {
        None => {
            say!("replay matches: {} lines, {}", again.lines.len(), again.result);
            ExitCode::SUCCESS
        }
        Some(message) => {
            eprintln!("replay diverged: {message}");
            ExitCode::from(1)
        }
    }
}
