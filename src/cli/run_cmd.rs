//! `rpsdsl run`: one game, printed as a transcript.

use std::path::Path;
use std::process::ExitCode;

use rpsdsl::agents;
use rpsdsl::check;
use rpsdsl::scenario::Scenario;
use rpsdsl::session;
use rpsdsl::transcript::{Header, Transcript};

use super::setup::{changed_options, cli_settings, parse_viewer};
use super::{load, report};

pub fn run(
    file: &Path,
    seed: u64,
    agent_spec: &str,
    settings: &[String],
    view: &str,
    scenario_path: Option<&Path>,
    json: bool,
) -> ExitCode {
    let Some(checked) = load(file) else {
        return ExitCode::from(1);
    };
    let mut def = checked.def;
    let mut scenario = Scenario::default();
    if let Some(path) = scenario_path {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read scenario `{}`: {e}", path.display());
                return ExitCode::from(1);
            }
        };
        let id = def.sources.add(path.display().to_string(), text.clone());
        match Scenario::from_toml(id, &text) {
            Ok(s) => scenario = s,
            Err(d) => {
                report(&[*d], &def.sources);
                return ExitCode::from(1);
            }
        }
    }
    let seed = scenario.seed.unwrap_or(seed);
    let mut all_settings = scenario.options.clone();
    match cli_settings(settings, &mut def.sources) {
        Ok(s) => all_settings.extend(s),
        Err(d) => {
            report(&d, &def.sources);
            return ExitCode::from(2);
        }
    }
    let options = match check::resolve_settings(&def, &all_settings) {
        Ok(o) => o,
        Err(d) => {
            report(&d, &def.sources);
            return ExitCode::from(2);
        }
    };
    let viewer = match parse_viewer(&def, view) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut agents = match agents::from_spec(agent_spec, def.players(), seed) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let agent_names: Vec<String> = agents.iter().map(|a| a.name()).collect();
    let rules_name = file.display().to_string();
    let (record, failure) = match session::play(&def, &options, seed, &scenario, &mut agents) {
        Ok(record) => (record, None),
        Err(failure) => (failure.record, Some(failure.diagnostic)),
    };
    let transcript = Transcript::new(
        &def,
        Header {
            rules: &rules_name,
            seed,
            options: changed_options(&def, &options),
            agents: agent_names,
        },
        &record,
        viewer,
    );
    if json {
        println!("{}", serde_json::to_string_pretty(&transcript).unwrap_or_default());
    } else {
        print!("{}", transcript.to_text());
    }
    match failure {
        Some(d) => {
            report(&[d], &def.sources);
            ExitCode::from(1)
        }
        None => ExitCode::SUCCESS,
    }
}
