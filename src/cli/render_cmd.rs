//! `rpsdsl render`: one position of a game, drawn as SVG.
//!
//! The game is played as `rpsdsl run` plays it (same agents, options and
//! seed), or as a scenario or a transcript says, up to the position asked
//! for; the picture is drawn by [`crate::render`] from the view asked for.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::agents;
use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::engine::State;
use crate::render::{self, Frame};
use crate::session::{self, Until};
use crate::transcript::{Transcript, Viewer, describe_end};

use super::report;
use super::setup::{load_game, parse_viewer};

/// What `rpsdsl render` was asked for.
pub(crate) struct RenderArgs<'a> {
    pub file: &'a Path,
    pub seed: Option<u64>,
    pub agents: &'a str,
    pub settings: &'a [String],
    pub scenario: Option<&'a Path>,
    pub transcript: Option<&'a Path>,
    pub at: Option<u32>,
    pub view: &'a str,
    pub out: Option<&'a PathBuf>,
}

pub(crate) fn render(args: &RenderArgs<'_>) -> ExitCode {
    // A transcript brings its options, seed and decisions.
    let mut settings: Vec<String> = vec![];
    let mut recorded = None;
    if let Some(path) = args.transcript {
        match read_transcript(path) {
            Ok(t) => {
                settings.extend(t.options.iter().map(|(k, v)| format!("{k}={v}")));
                recorded = Some(t);
            }
            Err(code) => return code,
        }
    }
    settings.extend(args.settings.iter().cloned());
    let (game, mut scenario) = match load_game(args.file, &settings, args.scenario) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let def = &game.def;
    let viewer = match parse_viewer(def, args.view) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = match &recorded {
        Some(t) => t.seed.unwrap_or_default(),
        None => match super::setup::seed_or_os(scenario.seed.or(args.seed)) {
            Ok(seed) => seed,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
        },
    };
    if let Some(script) = recorded.as_ref().and_then(|t| t.replay.as_ref()) {
        scenario = script.to_scenario(seed);
    }
    let mut agents = match agents::for_game(args.agents, def, &game.options, seed) {
        Ok(a) => a,
        Err(error) => return super::output::agents_refused(args.agents, &error),
    };
    // A transcript is followed as far as it goes, and no further.
    let until = match (args.at, recorded.is_some()) {
        (Some(at), _) => Until::Decisions(at),
        (None, true) => Until::ScriptEnds,
        (None, false) => Until::End,
    };
    let state = match session::play_until(def, &game.options, seed, &scenario, &mut agents, until) {
        Ok((_, state)) => state,
        Err(failure) => {
            report(&[failure.diagnostic], &def.sources);
            return ExitCode::from(1);
        }
    };
    if let Some(at) = args.at
        && state.decisions() < at
    {
        let taken = state.decisions();
        let diagnostic = Diagnostic::error(
            Code::PositionNotReached,
            format!("`--at {at}`: the game took only {taken} decisions"),
        )
        .help(format!(
            "give --at from 0 (the position after setup) to {taken} (the final position), or leave it out for the final position"
        ));
        report(&[diagnostic], &Sources::default());
        return ExitCode::from(2);
    }
    let caption = caption(def, &state, viewer, seed);
    let frame = Frame {
        viewer: match viewer {
            Viewer::All | Viewer::Public { .. } => None,
            Viewer::Seat(s) => Some(s),
        },
        caption: &caption,
    };
    let view = match viewer {
        Viewer::All => state.full_view(def, 0),
        Viewer::Seat(s) => state.view(def, s),
        Viewer::Public { .. } => state.public_view(def),
    };
    let svg = render::svg(def, &view, &frame);
    match args.out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, svg) {
                eprintln!("error: cannot write `{}`: {e}", path.display());
                return ExitCode::from(1);
            }
        }
        None => say!("{}", svg.trim_end()),
    }
    ExitCode::SUCCESS
}

/// The lines under the game's name: whose view, which position, the result.
/// A seat's view never names the seed (it would deal the game again).
pub(crate) fn caption(def: &crate::ir::GameDef, state: &State, viewer: Viewer, seed: u64) -> Vec<String> {
    let whose = match viewer {
        Viewer::All => format!("Everything, as no player sees it (seed {seed})"),
        Viewer::Seat(s) => format!("As {} sees it", def.seat_name(s)),
        Viewer::Public { .. } => "As every player sees it".to_string(),
    };
    let decisions = match state.decisions() {
        1 => "1 decision".to_string(),
        n => format!("{n} decisions"),
    };
    let when = match state.outcome() {
        Some(outcome) => format!(
            "final position after {decisions}: {}",
            describe_end(def, outcome.winner, &outcome.reason)
        ),
        None if state.decisions() == 0 => "after setup, before any decision".to_string(),
        None => format!("after {decisions}"),
    };
    vec![format!("{whose} · {when}")]
}

/// A `--view all` JSON transcript, with what replays it.
fn read_transcript(path: &Path) -> Result<Transcript, ExitCode> {
    let text = super::read_record(
        path,
        Code::NotATranscript,
        "a transcript",
        "`rpsdsl run --json --view all` writes one",
    )?;
    let refuse = |message: String| {
        let d = Diagnostic::error(Code::BadTranscript, message)
            .help("give a transcript as `rpsdsl run ... --json` (view all) or `rpsdsl play` saved it");
        report(&[d], &Sources::default());
        ExitCode::from(1)
    };
    let transcript: Transcript = serde_json::from_str(&text)
        .map_err(|e| refuse(format!("`{}` is not a JSON transcript: {e}", path.display())))?;
    if transcript.replay.is_none() || transcript.seed.is_none() {
        return Err(refuse(format!(
            "`{}` is a seat's view (`{}`): only a `--view all` transcript records the decisions to follow",
            path.display(),
            crate::text::printable(&transcript.view)
        )));
    }
    Ok(transcript)
}
