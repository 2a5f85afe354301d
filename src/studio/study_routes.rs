//! The route that starts a study from the page (the studio's key only):
//! `simulate`, `verdict` or `sweep` on files under PATH. Its progress, its
//! Stop and its report are a comparison's routes, under `/api/studies/`.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::access::is_owner;
use super::compare::{self, Job};
use super::files;
use super::games::load;
use super::reply::{Shared, forbidden, refuse};
use super::study::{MOST_SECONDS, Run, Study};
use crate::check::OptionSetting;
use crate::sim::sweep::{self, Target};

/// What the page asks for: the command and its flags.
#[derive(Deserialize)]
pub(super) struct StudyAsk {
    /// `simulate`, `verdict` or `sweep`.
    study: String,
    /// The game (the base, for a verdict).
    file: String,
    /// A verdict's variant or house rules.
    #[serde(default)]
    variant: Option<String>,
    /// A sweep's option and values, as `--vary` (`rounds=1..5`).
    #[serde(default)]
    vary: Option<String>,
    /// A sweep's question: `fair`, `short`, `decisive` or `skill`.
    #[serde(default)]
    target: Option<String>,
    /// A simulation's games (at most [`compare::MAX_GAMES`]).
    #[serde(default)]
    games: Option<u64>,
    /// A verdict's or a sweep's seconds (default 60, at most [`MOST_SECONDS`]).
    #[serde(default)]
    seconds: Option<f64>,
    /// As `--agents`: a simulation's players; a verdict's or a sweep's
    /// strong and weak one (`STRONG,WEAK`; by default chosen to fit the time).
    #[serde(default)]
    agents: Option<String>,
    /// A verdict's or a sweep's most deals (as `--deals`).
    #[serde(default)]
    deals: Option<u64>,
    #[serde(default)]
    seed: Option<u64>,
}

/// Starts a study: its files are loaded and checked first, so a bad file
/// or flag is answered at once with why.
pub(super) async fn start_study(State(studio): Shared, headers: HeaderMap, Json(ask): Json<StudyAsk>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let studio2 = Arc::clone(&studio);
    let built = tokio::task::spawn_blocking(move || build(&studio2.config, &ask)).await;
    let study = match built {
        Ok(Ok(study)) => study,
        Ok(Err((status, why))) => return refuse(status, why),
        Err(_) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "loading stopped"),
    };
    let id = match super::host::token() {
        Ok(id) => id,
        Err(why) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, why),
    };
    let job = Arc::new(Job::of(study.total()));
    studio.keep_job(id.clone(), Arc::clone(&job));
    tokio::task::spawn_blocking(move || study.run(&job));
    Json(serde_json::json!({ "job": id })).into_response()
}

type Refusal = (StatusCode, String);

fn bad(why: impl Into<String>) -> Refusal {
    (StatusCode::BAD_REQUEST, why.into())
}

/// The study `ask` names, its files loaded and its flags checked.
fn build(config: &super::config::Config, ask: &StudyAsk) -> Result<Study, Refusal> {
    let seed = ask.seed.unwrap_or(1);
    let open = |rel: &str, settings: &[String]| {
        let path = files::resolve(&config.root, rel).map_err(|files::Refused(why)| bad(why))?;
        let settings = settings.to_vec();
        load(config, &path, move |sources| {
            OptionSetting::parse_all(&settings, "--vary ", "the page", sources)
        })
        .map(|(game, _)| (rel.to_string(), game))
        .map_err(|why| (StatusCode::UNPROCESSABLE_ENTITY, why))
    };
    match ask.study.as_str() {
        "simulate" => {
            let games = ask.games.unwrap_or(200);
            if !(1..=compare::MAX_GAMES).contains(&games) {
                return Err(bad(format!("play from 1 to {} games", compare::MAX_GAMES)));
            }
            let file = open(&ask.file, &[])?;
            let agents = ask
                .agents
                .clone()
                .filter(|a| !a.trim().is_empty())
                .unwrap_or_else(|| "random".into());
            crate::agents::for_game(&agents, &file.1.def, &file.1.options, 0).map_err(|e| bad(e.to_string()))?;
            Ok(Study::Simulate {
                file: Box::new(file),
                games,
                agents,
                seed,
            })
        }
        "verdict" => {
            let run = run_of(ask)?;
            let variant = ask
                .variant
                .as_deref()
                .ok_or_else(|| bad("a verdict needs a `variant`"))?;
            let sides = Box::new([open(&ask.file, &[])?, open(variant, &[])?]);
            Ok(Study::Verdict { sides, run })
        }
        "sweep" => {
            let run = run_of(ask)?;
            let vary = ask
                .vary
                .as_deref()
                .ok_or_else(|| bad("a sweep needs `vary`, such as rounds=1..5"))?;
            let varied = sweep::varied(&[vary.to_string()]).map_err(bad)?;
            let mut points = vec![];
            for point in sweep::combinations(&varied) {
                let settings: Vec<String> = point.iter().map(|(n, v)| format!("{n}={v}")).collect();
                let (_, game) = open(&ask.file, &settings)?;
                points.push((settings.join(" "), game));
            }
            let target = match ask.target.as_deref().filter(|t| !t.is_empty()) {
                None => None,
                Some("fair") => Some(Target::Fair),
                Some("short") => Some(Target::Short),
                Some("decisive") => Some(Target::Decisive),
                Some("skill") => Some(Target::Skill),
                Some(other) => {
                    return Err(bad(format!(
                        "`{other}` is not a target: fair, short, decisive or skill"
                    )));
                }
            };
            Ok(Study::Sweep {
                file: crate::text::printable_string(&ask.file),
                points,
                target,
                run,
            })
        }
        other => Err(bad(format!(
            "`{other}` is not a study the page runs: simulate, verdict or sweep"
        ))),
    }
}

/// A verdict's or a sweep's budget and players, checked.
fn run_of(ask: &StudyAsk) -> Result<Run, Refusal> {
    let seconds = ask.seconds.unwrap_or(60.0);
    if !(1.0..=MOST_SECONDS).contains(&seconds) {
        return Err(bad(format!("give from 1 to {MOST_SECONDS:.0} seconds")));
    }
    let players = match ask.agents.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
        None => None,
        Some(agents) => match agents.split_once(',') {
            Some((strong, weak)) if !weak.contains(',') => {
                for spec in [strong, weak] {
                    crate::agents::spec::parse_agent(spec).map_err(|e| bad(format!("`{spec}`: {e}")))?;
                }
                Some((strong.to_string(), weak.to_string()))
            }
            _ => {
                return Err(bad(
                    "give the strong and the weak player, e.g. mcts:iterations=200,mcts:iterations=50",
                ));
            }
        },
    };
    Ok(Run {
        seconds,
        players,
        deals: ask.deals.unwrap_or(100_000).max(1),
        seed: ask.seed.unwrap_or(1),
    })
}
