//! The command line: clap commands, file I/O and printing. No game logic.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use rpsdsl::agents;
use rpsdsl::check::{self, Checked, FsLoader, OptionSetting};
use rpsdsl::diagnostic::{self, Diagnostic, Sources, Span};
use rpsdsl::ir::{GameDef, OptionValue};
use rpsdsl::scenario::{Scenario, ScriptedDecision, ShuffleSpec};
use rpsdsl::session;
use rpsdsl::transcript::{Header, Transcript, Viewer};

#[derive(Parser)]
#[command(
    name = "rpsdsl",
    version,
    about = "Write a game's rules, check them, play them, simulate them."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check rules files: every error at once, with where and why.
    Check {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Machine-readable diagnostics.
        #[arg(long)]
        json: bool,
    },
    /// Play one game with computer players and print its transcript.
    Run {
        file: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// One agent per seat (or one for all), e.g. `random,random`.
        #[arg(long, default_value = "random")]
        agents: String,
        /// Set an option: `--set best_of=3` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        settings: Vec<String>,
        /// Whose view to print: `all`, a seat number or a seat name.
        #[arg(long, default_value = "all")]
        view: String,
        /// A scenario (TOML) fixing shuffles and decisions; see docs/scenarios.md.
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// Print the transcript as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Re-run a JSON transcript and stop at the first divergence.
    Replay { transcript: PathBuf },
    /// List a game's options with their types, defaults and descriptions.
    Options { file: PathBuf },
    /// List the available agents.
    Agents,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Check { files, json } => check_files(&files, json),
        Command::Run {
            file,
            seed,
            agents,
            settings,
            view,
            scenario,
            json,
        } => run(&file, seed, &agents, &settings, &view, scenario.as_deref(), json),
        Command::Replay { transcript } => replay(&transcript),
        Command::Options { file } => options(&file),
        Command::Agents => {
            for (name, about) in agents::AGENT_NAMES {
                println!("{name:10} {about}");
            }
            ExitCode::SUCCESS
        }
    }
}

/// Quick random games `check` plays to catch runtime errors.
const PLAYTEST_GAMES: u64 = 20;

fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

fn report(diagnostics: &[Diagnostic], sources: &Sources) {
    eprint!("{}", diagnostic::render(diagnostics, sources, color()));
}

/// Loads and checks a rules file, printing diagnostics on failure.
fn load(file: &Path) -> Option<Checked> {
    match check::check_file(file, &FsLoader) {
        Ok(checked) => {
            report(&checked.warnings, &checked.def.sources);
            Some(checked)
        }
        Err(failed) => {
            report(&failed.diagnostics, &failed.sources);
            None
        }
    }
}

fn check_files(files: &[PathBuf], json: bool) -> ExitCode {
    let mut failed = false;
    let mut all_json = vec![];
    for file in files {
        let (diagnostics, sources) = rpsdsl::playtest::check_and_playtest(file, &FsLoader, PLAYTEST_GAMES);
        failed |= diagnostics.iter().any(Diagnostic::is_error);
        if json {
            all_json.push(serde_json::json!({
                "file": file.display().to_string(),
                "diagnostics": diagnostics.iter().map(|d| d.to_json(&sources)).collect::<Vec<_>>(),
            }));
        } else {
            report(&diagnostics, &sources);
            if !diagnostics.iter().any(Diagnostic::is_error) {
                eprintln!("{}: ok", file.display());
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&all_json).unwrap_or_default());
    }
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// `--set` arguments as settings; their spans point into a pseudo-file that
/// holds the command line, so a bad value is underlined where it was typed.
fn cli_settings(settings: &[String], sources: &mut Sources) -> Result<Vec<OptionSetting>, Vec<Diagnostic>> {
    let text: String = settings.iter().map(|s| format!("--set {s}\n")).collect();
    let file = sources.add("command line", text.clone());
    let mut out = vec![];
    let mut errors = vec![];
    let mut offset = 0;
    for setting in settings {
        let start = offset + "--set ".len();
        match setting.split_once('=') {
            Some((name, value)) => out.push(OptionSetting {
                name: name.trim().to_string(),
                value: value.to_string(),
                name_span: Span::new(file, start, start + name.len()),
                value_span: Span::new(file, start + name.len() + 1, start + setting.len()),
            }),
            None => errors.push(
                Diagnostic::error("bad-option-value", format!("`{setting}` is not NAME=VALUE"))
                    .label(Span::new(file, start, start + setting.len()), "here")
                    .help("write e.g. `--set best_of=3`"),
            ),
        }
        offset += setting.len() + "--set \n".len();
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

fn parse_viewer(def: &GameDef, view: &str) -> Result<Viewer, String> {
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

fn changed_options(def: &GameDef, values: &[OptionValue]) -> Vec<(String, String)> {
    def.options
        .iter()
        .zip(values)
        .filter(|(o, v)| o.default != **v)
        .map(|(o, v)| (o.name.clone(), v.render(&o.ty)))
        .collect()
}

fn run(
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

fn replay(path: &Path) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", path.display());
            return ExitCode::from(1);
        }
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
    let Some(checked) = load(Path::new(&recorded.rules)) else {
        return ExitCode::from(1);
    };
    let def = checked.def;
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
    let options = match check::resolve_settings(&def, &settings) {
        Ok(o) => o,
        Err(d) => {
            report(&d, &def.sources);
            return ExitCode::from(1);
        }
    };
    let scenario = Scenario {
        seed: Some(recorded.seed),
        options: vec![],
        shuffles: script
            .shuffles
            .iter()
            .map(|s| ShuffleSpec {
                zone: s.zone.clone(),
                top: s.top.clone(),
                span: None,
            })
            .collect(),
        decisions: script
            .decisions
            .iter()
            .map(|d| ScriptedDecision {
                text: d.clone(),
                span: None,
            })
            .collect(),
    };
    let mut agents = agents::from_spec("random", def.players(), recorded.seed).unwrap_or_default();
    let replayed = match session::play(&def, &options, recorded.seed, &scenario, &mut agents) {
        Ok(record) => record,
        Err(failure) => {
            eprintln!("replay diverged: the recorded decisions no longer fit the rules");
            report(&[failure.diagnostic], &def.sources);
            return ExitCode::from(1);
        }
    };
    let header = Header {
        rules: &recorded.rules,
        seed: recorded.seed,
        options: recorded.options.clone(),
        agents: recorded.agents.clone(),
    };
    let again = Transcript::new(&def, header, &replayed, Viewer::All);
    match rpsdsl::transcript::first_divergence(&recorded, &again) {
        None => {
            println!("replay matches: {} lines, {}", again.lines.len(), again.result);
            ExitCode::SUCCESS
        }
        Some(message) => {
            eprintln!("replay diverged: {message}");
            ExitCode::from(1)
        }
    }
}

fn options(file: &Path) -> ExitCode {
    let Some(checked) = load(file) else {
        return ExitCode::from(1);
    };
    let def = checked.def;
    if def.options.is_empty() {
        println!("{} has no options", def.name);
    }
    for option in &def.options {
        println!(
            "{:20} {:40} default {:10} {}",
            option.name,
            check::describe_option_type(&option.ty),
            option.default.render(&option.ty),
            option.description
        );
    }
    ExitCode::SUCCESS
}
