//! `rpsdsl replay`: re-run a JSON transcript, stop at the first divergence.

use std::path::Path;
use std::process::ExitCode;

use crate::agents;
use crate::check::{FsLoader, OptionSetting};
use crate::diagnostic::{Code, Diagnostic, Sources, Span};
use crate::session;
use crate::text::printable;
use crate::transcript::{FORMAT, FORMAT_1, FORMAT_2, Format, Header, ReplayScript, Transcript, UNFINISHED, Viewer};

use super::report;
use super::setup::printable_game;
use crate::load::changed_options;

pub(crate) fn replay(path: &Path, rules_given: Option<&Path>) -> ExitCode {
    let text = match super::read_record(
        path,
        Code::NotATranscript,
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
    let mut sources = Sources::default();
    let file = sources.add(path.display().to_string(), text.clone());
    // A field of the transcript, underlined in the file.
    let field = |name: &str| field_span(&text, file, name);
    let refuse = |d: Diagnostic, sources: &Sources| {
        report(&[d], sources);
        ExitCode::from(1)
    };
    let (format, script, seed) = match replayable(&recorded, &field) {
        Ok(found) => found,
        Err(d) => return refuse(*d, &sources),
    };
    let settings = OptionSetting::recorded(&recorded.options);
    let rules = match rules_given {
        Some(given) => given.to_path_buf(),
        None => rules_of(&recorded.rules, path),
    };
    let mut game = match crate::load::load_game(&rules, &FsLoader, |_| Ok(settings)) {
        Ok(mut game) => {
            super::setup::use_engine(&mut game.def);
            game
        }
        Err(failed) => {
            report(&failed.diagnostics, &failed.sources);
            if failed
                .diagnostics
                .iter()
                .any(|d| matches!(d.code, Code::UnknownOption | Code::BadOptionValue))
            {
                return refuse(
                    bad_field(
                        "options",
                        "the transcript's `options` do not fit the rules",
                        field("options"),
                    )
                    .help("`options` lists `[name, value]` pairs the rules declare, as `rpsdsl run` wrote them"),
                    &sources,
                );
            }
            return ExitCode::from(1);
        }
    };
    printable_game(&mut game);
    let (def, options) = (&game.def, &game.options);
    if let Some(d) = check_header(&recorded, &game, &field) {
        return refuse(d, &sources);
    }
    let mut scenario = script.to_scenario(seed);
    scenario.silence_times = format == Format::V1;
    let mut agents = agents::for_game("random", def, options, seed).unwrap_or_default();
    // A game left unfinished (a person quit `rpsdsl play`) is checked as far
    // as it went: past its decisions the agents play on, or the rules stop.
    let unfinished = recorded.result == UNFINISHED;
    let replayed = match session::play(def, options, seed, &scenario, &mut agents) {
        Ok(record) => record,
        Err(failure) if unfinished => failure.record,
        Err(failure) => {
            eprintln!("replay diverged: the recorded decisions no longer fit the rules");
            report(&[failure.diagnostic], &def.sources);
            return ExitCode::from(1);
        }
    };
    // A decision recorded after the game ended is not this game's: the
    // record was edited, or belongs to another game.
    if let Some(leftover) = replayed.warnings.iter().find(|w| w.code == Code::ScenarioMismatch) {
        eprintln!(
            "replay diverged: the transcript records {} decisions, and the game ended after {}",
            script.decisions.len(),
            replayed.decisions.len()
        );
        report(std::slice::from_ref(leftover), &sources);
        return ExitCode::from(1);
    }
    let header = Header {
        about: None,
        rules: &recorded.rules,
        seed,
        options: recorded.options.clone(),
        agents: recorded.agents.clone(),
    };
    // Compared as the transcript's own format writes the game.
    let mut again = Transcript::in_format(def, header, &replayed, Viewer::All, format);
    if unfinished && again.lines.len() >= recorded.lines.len() {
        again.lines.truncate(recorded.lines.len());
        again.result = UNFINISHED.into();
    }
    if let Some(message) = crate::transcript::first_divergence(&recorded, &again) {
        eprintln!("replay diverged: {message}");
        return ExitCode::from(1);
    }
    // Every shuffle was forced from the record; the seed must deal them too,
    // or it is not this game's seed.
    if !script.shuffles_fixed
        && let Some(d) = check_seed(def, options, seed, script, format, &field)
    {
        return refuse(d, &sources);
    }
    say!("replay matches: {} lines, {}", again.lines.len(), again.result);
    ExitCode::SUCCESS
}

/// The fields a replay needs, checked: a format this version reads, the
/// view of every seat, the record of shuffles and decisions, the seed, and a
/// rules file; the first that is missing or wrong is the error.
fn replayable<'a>(
    recorded: &'a Transcript,
    field: &dyn Fn(&str) -> Option<Span>,
) -> Result<(Format, &'a ReplayScript, u64), Box<Diagnostic>> {
    let Some(format) = Format::parse(&recorded.format) else {
        return Err(Box::new(
            bad_field(
                "format",
                format!(
                    "this transcript's format is `{}`, which this version of rpsdsl does not read",
                    printable(&recorded.format)
                ),
                field("format"),
            )
            .help(format!(
                "this version reads `{FORMAT}`, `{FORMAT_2}` and `{FORMAT_1}` (a transcript without a `format` field)"
            )),
        ));
    };
    if recorded.view != "all" {
        return Err(Box::new(
            bad_field(
                "view",
                format!(
                    "this transcript was written for view `{}`: a seat's view cannot be replayed, only a `--view all` transcript can",
                    printable(&recorded.view)
                ),
                field("view"),
            )
            .help("replay a `--view all` transcript: `rpsdsl run ... --json` writes one"),
        ));
    }
    let Some(script) = &recorded.replay else {
        return Err(Box::new(
            bad_field(
                "replay",
                "this transcript has no `replay` field: nothing records its shuffles and decisions",
                field("view"),
            )
            .help("replay a transcript as `rpsdsl run ... --json` wrote it"),
        ));
    };
    let Some(seed) = recorded.seed else {
        return Err(Box::new(
            bad_field("seed", "this transcript has no `seed`", field("view"))
                .help("a `--view all` transcript names its seed; replay one as `rpsdsl run ... --json` wrote it"),
        ));
    };
    let rules = Path::new(&recorded.rules);
    if !rules
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("rules") || e.eq_ignore_ascii_case("toml"))
    {
        return Err(Box::new(
            bad_field(
                "rules",
                format!(
                    "`{}` is not a `.rules` or house-rules `.toml` file",
                    printable(&recorded.rules)
                ),
                field("rules"),
            )
            .help("`rules` names the file the game was played from, as given to `rpsdsl run`"),
        ));
    }
    Ok((format, script, seed))
}

/// A transcript field that does not fit: code `bad-transcript`.
fn bad_field(name: &str, message: impl Into<String>, span: Option<Span>) -> Diagnostic {
    let d = Diagnostic::error(Code::BadTranscript, message);
    match span {
        Some(span) => d.label(span, format!("this `{name}`")),
        None => d,
    }
}

/// Where `"name":` is in the transcript's text, to the end of its line.
fn field_span(text: &str, file: crate::diagnostic::FileId, name: &str) -> Option<Span> {
    let start = text.find(&format!("\"{name}\":"))?;
    let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    Some(Span::new(file, start, end.max(start + 1)))
}

/// Where the transcript at `transcript` names its rules `recorded`: as
/// written, from this folder, when that is a file; else from the
/// transcript's own folder (a transcript kept beside a copy of its game);
/// else as written, for the load to say it is missing.
fn rules_of(recorded: &str, transcript: &Path) -> std::path::PathBuf {
    let written = Path::new(recorded);
    if written.is_file() || written.is_absolute() {
        return written.to_path_buf();
    }
    match transcript.parent().map(|folder| folder.join(written)) {
        Some(beside) if beside.is_file() => beside,
        _ => written.to_path_buf(),
    }
}

/// The header facts the rules decide: the game's name, what the file is,
/// the options that differ from their defaults, one known agent per seat.
fn check_header(
    recorded: &Transcript,
    game: &crate::load::LoadedGame,
    field: &dyn Fn(&str) -> Option<Span>,
) -> Option<Diagnostic> {
    let def = &game.def;
    let rules = printable(&recorded.rules);
    if recorded.game != def.name {
        return Some(
            bad_field(
                "game",
                format!(
                    "the transcript's `game` is `{}`, but `{rules}` is the game `{}`",
                    printable(&recorded.game),
                    def.name
                ),
                field("game"),
            )
            .help("replay the transcript against the rules it was written from"),
        );
    }
    if let Some(about) = &recorded.about
        && *about != game.description
    {
        return Some(
            bad_field(
                "about",
                format!(
                    "the transcript's `about` is `{}`, but `{rules}` is `{}`",
                    printable(about),
                    game.description
                ),
                field("about"),
            )
            .help("replay the transcript against the rules it was written from"),
        );
    }
    let changed = changed_options(def, &game.options);
    if recorded.options != changed {
        let show = |o: &[(String, String)]| {
            let set: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}={}", printable(k), printable(v)))
                .collect();
            if set.is_empty() {
                "none".to_string()
            } else {
                set.join(" ")
            }
        };
        return Some(
            bad_field(
                "options",
                format!(
                    "the transcript's `options` ({}) are not the options that differ from their defaults ({})",
                    show(&recorded.options),
                    show(&changed)
                ),
                field("options"),
            )
            .help("`options` lists each changed option once, as `rpsdsl run` wrote it"),
        );
    }
    if recorded.agents.len() != def.players() {
        return Some(
            bad_field(
                "agents",
                format!(
                    "the transcript names {} agents, but {} has {} seats",
                    recorded.agents.len(),
                    def.name,
                    def.players()
                ),
                field("agents"),
            )
            .help("`agents` names one agent per seat, as `rpsdsl run` wrote it"),
        );
    }
    for (seat, agent) in recorded.agents.iter().enumerate() {
        let known = agent.eq_ignore_ascii_case("human")
            || agents::spec::parse_agent(agent)
                .and_then(|spec| agents::build(&spec, Some((def, &game.options)), seat as u8, 0))
                .is_ok();
        if !known {
            return Some(
                bad_field(
                    "agents",
                    format!(
                        "the transcript's agent for {} is `{}`, which is not an agent",
                        def.seat_name(seat as u8),
                        printable(agent)
                    ),
                    field("agents"),
                )
                .help("`rpsdsl agents` lists the agents; `human` is a person at `rpsdsl play`"),
            );
        }
    }
    None
}

/// Whether `seed` deals the recorded shuffles, given the same decisions.
fn check_seed(
    def: &crate::engine::Game,
    options: &[crate::ir::OptionValue],
    seed: u64,
    script: &crate::transcript::ReplayScript,
    format: Format,
    field: &dyn Fn(&str) -> Option<Span>,
) -> Option<Diagnostic> {
    if script.shuffles.is_empty() && script.rolls.is_empty() {
        return None;
    }
    let mut unforced = script.to_scenario(seed);
    unforced.silence_times = format == Format::V1;
    unforced.shuffles.clear();
    unforced.rolls.clear();
    let mut agents = agents::for_game("random", def, options, seed).unwrap_or_default();
    let (dealt, rolled) = match session::play(def, options, seed, &unforced, &mut agents) {
        Ok(record) => (record.shuffles, record.rolls),
        Err(failure) => (failure.record.shuffles, failure.record.rolls),
    };
    // The seed also rolls the dice: a roll it does not give is not this game's.
    if rolled != script.rolls {
        let first_wrong = script
            .rolls
            .iter()
            .zip(rolled.iter().map(Some).chain(std::iter::repeat(None)))
            .position(|(recorded, rolled)| rolled != Some(recorded))
            .unwrap_or(script.rolls.len());
        return Some(
            bad_field(
                "seed",
                format!(
                    "the seed {seed} does not roll the recorded dice: roll {} differs",
                    first_wrong + 1
                ),
                field("seed"),
            )
            .help(
                "the seed is the one the game was played with; a transcript whose seed was changed cannot be replayed",
            ),
        );
    }
    let first_wrong = script
        .shuffles
        .iter()
        .zip(dealt.iter().map(Some).chain(std::iter::repeat(None)))
        .position(|(recorded, dealt)| dealt.is_none_or(|d| d.zone != recorded.zone || d.top != recorded.top))?;
    Some(
        bad_field(
            "seed",
            format!(
                "the seed {seed} does not deal the recorded shuffles: shuffle {} of {} differs",
                first_wrong + 1,
                printable(&script.shuffles[first_wrong].zone)
            ),
            field("seed"),
        )
        .help("the seed is the one the game was played with; a transcript whose seed was changed cannot be replayed"),
    )
}
