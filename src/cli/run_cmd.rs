//! `rpsdsl run`: one game, printed as a transcript.

use std::path::Path;
use std::process::ExitCode;

use crate::agents;
use crate::session;
use crate::transcript::{Header, Transcript};

use super::report;
use super::setup::{load_game, parse_viewer};
use crate::load::changed_options;

#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    file: &Path,
    seed: Option<u64>,
    agent_spec: &str,
    settings: &[String],
    view: &str,
    scenario_path: Option<&Path>,
    json: bool,
) -> ExitCode {
    let (game, scenario) = match load_game(file, settings, scenario_path) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let (def, options) = (&game.def, &game.options);
    let seed = match super::setup::seed_or_os(scenario.seed.or(seed)) {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let viewer = match parse_viewer(def, view) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut agents = match agents::for_game(agent_spec, def, options, seed) {
        Ok(a) => a,
        Err(error) => return super::output::agents_refused(agent_spec, &error),
    };
    let agent_names: Vec<String> = agents.iter().map(|a| a.name()).collect();
    let (record, failure) = match session::play(def, options, seed, &scenario, &mut agents) {
        Ok(record) => (record, None),
        Err(failure) => (failure.record, Some(failure.diagnostic)),
    };
    let rules = file.display().to_string();
    let header = Header {
        rules: &rules,
        about: Some(&game.description),
        seed,
        options: changed_options(def, options),
        agents: agent_names,
    };
    let transcript = Transcript::new(def, header, &record, viewer);
    if json {
        say!("{}", serde_json::to_string_pretty(&transcript).unwrap_or_default());
    } else {
        say!("{}", transcript.to_text().trim_end_matches('\n'));
    }
    if !record.warnings.is_empty() {
        report(&record.warnings, &def.sources);
    }
    match failure {
        Some(d) => {
            report(&[d], &def.sources);
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
