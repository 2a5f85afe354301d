//! The studio's routes: the page and its assets, the owner's API (files,
//! checking, saving, starting games; the studio's key), and each seat's API
//! (its screen, its live updates, its choices; the seat's token).

use std::path::Path;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;

use super::access::{is_owner, seated};
use super::compare_routes::{compare_events, compare_report, start_compare, stop_compare};
use super::games::load;
use super::keep::{begin, keep_table, seat_layout, seated_by};
use super::reply::{Shared, Watcher, answer, forbidden, json_text, live_screens, refuse, screen_json, unfinished};
use super::state::Studio;
use super::study_routes::start_study;
use super::table::{Refused, Table};
use super::{BODY_LIMIT, files, keep, lobby};
use crate::check::OptionSetting;
use crate::diagnostic::Diagnostic;
use crate::transcript::{Transcript, Viewer};

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/studio.js");
const STYLE: &str = include_str!("assets/studio.css");
/// The studio's HTTP API, described (`tests/studio_studies.rs` holds it to
/// the router: every route in it, and nothing else).
const OPENAPI: &str = include_str!("assets/openapi.json");

/// Every route of the studio over `studio`.
pub(crate) fn router(studio: Arc<Studio>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/play/{game}/{token}", get(page))
        .route("/watch/{game}/{token}", get(page))
        .route(
            "/studio.js",
            get(|| async { asset(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route("/studio.css", get(|| async { asset(STYLE, "text/css; charset=utf-8") }))
        .route(
            "/api/openapi.json",
            get(|| async { asset(OPENAPI, "application/json") }),
        )
        .route("/api/files", get(list_files))
        .route("/api/file", get(read_file))
        .route("/api/check", post(check))
        .route("/api/save", post(save))
        .route("/api/games", post(start_game))
        .route("/api/games/{game}/transcript", get(owner_transcript))
        .route("/api/games/{game}/fork", post(fork_game))
        .route("/api/games/{game}/again", post(lobby::play_again))
        .route("/api/games/{game}", axum::routing::delete(lobby::delete_game))
        .route("/api/games/{game}/seats/{seat}", post(lobby::reseat))
        .route("/api/lobby", get(lobby::lobby))
        .route("/api/watch/{game}/{token}", get(lobby::watch_screen))
        .route("/api/watch/{game}/{token}/events", get(lobby::watch_events))
        .route("/api/transcripts", post(load_transcript))
        .route("/api/compare", post(start_compare))
        .route("/api/compare/{job}/events", get(compare_events))
        .route("/api/compare/{job}/stop", post(stop_compare))
        .route("/api/compare/{job}/report", get(compare_report))
        .route("/api/studies", post(start_study))
        .route("/api/studies/{job}/events", get(compare_events))
        .route("/api/studies/{job}/stop", post(stop_compare))
        .route("/api/studies/{job}/report", get(compare_report))
        .route("/api/play/{game}/{token}", get(seat_screen))
        .route("/api/play/{game}/{token}/at/{step}", get(seat_screen_at))
        .route("/api/play/{game}/{token}/events", get(seat_events))
        .route("/api/play/{game}/{token}/choose", post(seat_choose))
        .route("/api/play/{game}/{token}/takeback", post(seat_take_back))
        .route("/api/play/{game}/{token}/transcript", get(seat_transcript))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(studio)
}

/// The one page: the editor at `/`, a seat's table at its own link. It
/// loads only its own script and style.
async fn page() -> Response {
    let mut response = asset(PAGE, "text/html; charset=utf-8");
    response.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"),
    );
    response
}

fn asset(body: &'static str, kind: &'static str) -> Response {
    (
        [(header::CONTENT_TYPE, kind), (header::CACHE_CONTROL, "no-cache")],
        body,
    )
        .into_response()
}

async fn list_files(State(studio): Shared, headers: HeaderMap) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    Json(serde_json::json!({
        "files": files::list(&studio.config.root),
        "agents": studio.config.agents,
    }))
    .into_response()
}

#[derive(Deserialize)]
struct FileQuery {
    path: String,
}

async fn read_file(State(studio): Shared, headers: HeaderMap, Query(q): Query<FileQuery>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let path = match files::resolve(&studio.config.root, &q.path) {
        Ok(p) => p,
        Err(files::Refused(why)) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    match crate::input::read_text(&path, crate::input::SOURCE_LIMIT) {
        Ok(text) => Json(serde_json::json!({ "path": q.path, "text": text })).into_response(),
        Err(e) => refuse(StatusCode::NOT_FOUND, format!("cannot read {}: {e}", q.path)),
    }
}

#[derive(Deserialize)]
struct Edited {
    path: String,
    text: String,
}

async fn check(State(studio): Shared, headers: HeaderMap, Json(edited): Json<Edited>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let path = match files::resolve(&studio.config.root, &edited.path) {
        Ok(p) => p,
        Err(files::Refused(why)) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    let root = studio.config.root.clone();
    // Checking compiles hooks: off the async workers.
    let shown = tokio::task::spawn_blocking(move || files::check(&root, &path, &edited.text)).await;
    match shown {
        Ok(diagnostics) => Json(serde_json::json!({ "diagnostics": diagnostics })).into_response(),
        Err(e) => unfinished(&e, "the checker stopped"),
    }
}

async fn save(State(studio): Shared, headers: HeaderMap, Json(edited): Json<Edited>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let path = match files::resolve(&studio.config.root, &edited.path) {
        Ok(p) => p,
        Err(files::Refused(why)) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    // Written beside and renamed over, so the file is whole or untouched.
    let mut partial = path.clone().into_os_string();
    partial.push(".partial");
    let written = std::fs::write(&partial, &edited.text).and_then(|()| std::fs::rename(&partial, &path));
    match written {
        Ok(()) => {
            // The pages of games that began with this file say it was edited.
            for live in studio.lives() {
                if live.rules.reads(&path) {
                    live.changed.send_modify(|n| *n += 1);
                }
            }
            Json(serde_json::json!({ "saved": edited.path })).into_response()
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot write {}: {e}", edited.path),
            )
        }
    }
}

#[derive(Deserialize)]
struct NewGame {
    path: String,
    /// One spec per seat, `human` for a person (`human,mcts`); or one spec,
    /// which seats a person at seat 1 and that agent everywhere else.
    #[serde(default)]
    seats: Option<String>,
    /// Option settings, `name=value`.
    #[serde(default)]
    settings: Vec<String>,
    /// The seed, to play a deal again; by default one from the operating
    /// system. Only the key holder starts games, and no seat is told it.
    #[serde(default)]
    seed: Option<u64>,
}

async fn start_game(State(studio): Shared, headers: HeaderMap, Json(new): Json<NewGame>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let path = match files::resolve(&studio.config.root, &new.path) {
        Ok(p) => p,
        Err(files::Refused(why)) => return refuse(StatusCode::BAD_REQUEST, why),
    };
    let studio2 = Arc::clone(&studio);
    let started = tokio::task::spawn_blocking(move || start(&studio2, &path, &new)).await;
    match started {
        Ok(Ok(body)) => Json(body).into_response(),
        Ok(Err(why)) => refuse(StatusCode::UNPROCESSABLE_ENTITY, why),
        Err(e) => unfinished(&e, "the game stopped while setting up"),
    }
}

/// Loads the game, seats people and agents, and keeps the game: its id
/// and each person's link.
fn start(studio: &Studio, path: &Path, new: &NewGame) -> Result<serde_json::Value, String> {
    let (game, rules) = load(&studio.config, path, |sources| settings(&new.settings, sources))?;
    let others = studio.config.agents.as_deref();
    let spec = new
        .seats
        .clone()
        .filter(|seats| !seats.trim().is_empty())
        .unwrap_or_else(|| format!("human,{}", others.unwrap_or(crate::agents::default_opponent(&game.def))));
    let layout = seat_layout(&spec, &game.def)?;
    let seed = match new.seed {
        Some(seed) => seed,
        None => super::host::seed()?,
    };
    begin(studio, (new.path.clone(), game, rules), layout, seed)
}

#[derive(Deserialize)]
struct Fork {
    /// The step to fork at: the moves before it are the new game's scenario.
    at: u64,
    /// Who sits where in the new game, as when starting one; by default as
    /// in the game forked (each person gets a new link).
    #[serde(default)]
    seats: Option<String>,
}

/// A new game from any point of a game: only with the studio's key, since
/// it hands out new seat links (see docs/studio.md, "Time travel").
async fn fork_game(
    State(studio): Shared,
    headers: HeaderMap,
    UrlPath(game): UrlPath<String>,
    Json(fork): Json<Fork>,
) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let Some(live) = studio.game(&game) else {
        return refuse(StatusCode::NOT_FOUND, "no such game here");
    };
    let studio2 = Arc::clone(&studio);
    let forked = tokio::task::spawn_blocking(move || {
        let table = live.table.lock().unwrap_or_else(|e| e.into_inner());
        let layout = match &fork.seats {
            Some(spec) => seat_layout(spec, table.def())?,
            None => table.layout(),
        };
        let id = super::host::token()?;
        let forked = table.fork(fork.at, seated_by(&studio2, &id, layout), super::host::seed()?)?;
        drop(table);
        keep_table(&studio2, &id, forked, live.rules.clone())
    })
    .await;
    answer(forked)
}

/// The whole transcript of a game, seed and every face: the studio's key only.
async fn owner_transcript(State(studio): Shared, headers: HeaderMap, UrlPath(game): UrlPath<String>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let Some(live) = studio.game(&game) else {
        return refuse(StatusCode::NOT_FOUND, "no such game here");
    };
    let table = live.table.lock().unwrap_or_else(|e| e.into_inner());
    transcript_file(&table.transcript(Viewer::All))
}

#[derive(Deserialize)]
struct TranscriptQuery {
    /// `all` for the whole transcript, which a seat gets only once nothing
    /// is hidden any more; by default the seat's own view.
    #[serde(default)]
    view: Option<String>,
}

/// A seat's transcript: its own view, or the whole one once the game is
/// over and nothing in it was hidden from anyone.
async fn seat_transcript(
    State(studio): Shared,
    UrlPath((game, token)): UrlPath<(String, String)>,
    Query(q): Query<TranscriptQuery>,
) -> Response {
    let Some((live, seat)) = seated(&studio, &game, &token) else {
        return forbidden();
    };
    let table = live.table.lock().unwrap_or_else(|e| e.into_inner());
    match q.view.as_deref() {
        None | Some("seat") => transcript_file(&table.transcript(Viewer::Seat(seat))),
        Some("all") if table.nothing_hidden() => transcript_file(&table.transcript(Viewer::All)),
        Some("all") => refuse(
            StatusCode::FORBIDDEN,
            "the whole transcript holds the seed and every hidden face: only the studio's link saves it while anything is hidden",
        ),
        Some(other) => refuse(
            StatusCode::BAD_REQUEST,
            format!("`view={other}`: ask for `seat` (your own view) or `all`"),
        ),
    }
}

/// A transcript as `rpsdsl run --json` prints it, offered as a file.
fn transcript_file(transcript: &Transcript) -> Response {
    let text = serde_json::to_string_pretty(transcript).unwrap_or_default() + "\n";
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
            (header::CONTENT_DISPOSITION, "attachment; filename=\"transcript.json\""),
        ],
        text,
    )
        .into_response()
}

#[derive(Deserialize)]
struct Loaded {
    /// The transcript's text, as `rpsdsl run --json` wrote it.
    text: String,
    /// The rules file under PATH to play it with; by default the transcript's `rules`.
    #[serde(default)]
    path: Option<String>,
}

/// A `--view all` transcript played again as a new game, every seat a
/// person's link, so each seat's view can be stepped through; an
/// unfinished game goes on from where it stopped.
async fn load_transcript(State(studio): Shared, headers: HeaderMap, Json(loaded): Json<Loaded>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let studio2 = Arc::clone(&studio);
    let done = tokio::task::spawn_blocking(move || replay_as_game(&studio2, &loaded)).await;
    answer(done)
}

fn replay_as_game(studio: &Studio, loaded: &Loaded) -> Result<serde_json::Value, String> {
    use crate::transcript::Format;
    let recorded: Transcript = serde_json::from_str(&loaded.text).map_err(|e| {
        format!(
            "this is not a JSON transcript: {e} (line {}, column {})",
            e.line(),
            e.column()
        )
    })?;
    let format = Format::parse(&recorded.format).ok_or_else(|| {
        format!(
            "this transcript's format is `{}`, which this version of rpsdsl does not read",
            crate::text::printable(&recorded.format)
        )
    })?;
    let (Some(script), Some(seed)) = (&recorded.replay, recorded.seed) else {
        return Err(format!(
            "this transcript was written for view `{}`: only a whole (`--view all`) transcript holds the seed and decisions that play it again",
            crate::text::printable(&recorded.view)
        ));
    };
    let rel = loaded.path.clone().unwrap_or_else(|| recorded.rules.clone());
    let path = files::resolve(&studio.config.root, &rel).map_err(|files::Refused(why)| why)?;
    let settings = OptionSetting::recorded(&recorded.options);
    let (game, rules) = load(&studio.config, &path, |_| Ok(settings))?;
    if game.def.name != recorded.game {
        return Err(format!(
            "this transcript is a game of `{}`, but `{rel}` is `{}`",
            crate::text::printable(&recorded.game),
            game.def.name
        ));
    }
    let mut scenario = script.to_scenario(seed);
    scenario.silence_times = format == Format::V1;
    let layout = vec![None; game.def.players()];
    let id = super::host::token()?;
    let table = Table::start(Arc::new(game), rel, seated_by(studio, &id, layout), seed, &scenario)?;
    keep_table(studio, &id, table, rules)
}

/// `name=value` settings from the page, as [`OptionSetting::parse_all`]
/// reads them.
fn settings(
    settings: &[String],
    sources: &mut crate::diagnostic::Sources,
) -> Result<Vec<OptionSetting>, Vec<Diagnostic>> {
    OptionSetting::parse_all(settings, "", "settings", sources)
}

async fn seat_screen(State(studio): Shared, UrlPath((game, token)): UrlPath<(String, String)>) -> Response {
    match seated(&studio, &game, &token) {
        Some((live, seat)) => json_text(screen_json(&live, Watcher::Seat(seat)).0),
        None => forbidden(),
    }
}

/// The seat's screen as it was after step `step`: time travel, through the
/// seat's own view then.
async fn seat_screen_at(
    State(studio): Shared,
    UrlPath((game, token, step)): UrlPath<(String, String, u64)>,
) -> Response {
    let Some((live, seat)) = seated(&studio, &game, &token) else {
        return forbidden();
    };
    let table = live.table.lock().unwrap_or_else(|e| e.into_inner());
    json_text(serde_json::to_string(&table.screen_at(seat, step)).unwrap_or_default())
}

/// The seat's screen now, then again each time the game changes. Each
/// event's id is the game's revision, which a restart keeps: a page that
/// reconnects with the revision it last saw (`Last-Event-ID`) is sent
/// nothing until the game changes again.
async fn seat_events(
    State(studio): Shared,
    headers: HeaderMap,
    UrlPath((game, token)): UrlPath<(String, String)>,
) -> Response {
    let Some((live, seat)) = seated(&studio, &game, &token) else {
        return forbidden();
    };
    live_screens(live, Watcher::Seat(seat), &headers)
}

#[derive(Deserialize)]
struct Chosen {
    /// The step the choice answers (the screen's `turn`).
    turn: u64,
    /// An index into the seat's offers.
    index: usize,
    /// In a race, the time from the prompt shown to the click, measured in
    /// the browser: believed only within the network allowance below the
    /// server's own measure (`Table::choose_now`).
    #[serde(default)]
    reaction_ms: u32,
}

async fn seat_choose(
    State(studio): Shared,
    UrlPath((game, token)): UrlPath<(String, String)>,
    Json(chosen): Json<Chosen>,
) -> Response {
    let Some((live, seat)) = seated(&studio, &game, &token) else {
        return forbidden();
    };
    // The agents answer next, and a search takes a while: off the async workers.
    let live2 = Arc::clone(&live);
    let studio2 = Arc::clone(&studio);
    let done = tokio::task::spawn_blocking(move || {
        let mut table = live2.table.lock().unwrap_or_else(|e| e.into_inner());
        let from = table.turn();
        table
            .choose_now(seat, chosen.turn, chosen.index, chosen.reaction_ms)
            .map_err(Err)?;
        // Kept before it is answered: an acknowledged move survives a crash.
        keep::commit(&studio2, &game, &mut table, from).map_err(Ok)
    })
    .await;
    match done {
        Ok(Ok(())) => {
            live.touch();
            live.changed.send_modify(|n| *n += 1);
            json_text(screen_json(&live, Watcher::Seat(seat)).0)
        }
        Ok(Err(Ok(why))) => {
            // Played again from what is kept: the pages show it as it stands.
            live.changed.send_modify(|n| *n += 1);
            refuse(
                StatusCode::INSUFFICIENT_STORAGE,
                format!("your move was not kept, so it was not made: {why}"),
            )
        }
        Ok(Err(Err(Refused::Stale))) => refuse(StatusCode::CONFLICT, "that choice answers an earlier decision"),
        Ok(Err(Err(Refused::NotAsked))) => refuse(StatusCode::CONFLICT, "you are not asked anything now"),
        Ok(Err(Err(Refused::NoSuchChoice))) => refuse(StatusCode::BAD_REQUEST, "there is no such choice"),
        Err(e) => unfinished(&e, "the game stopped"),
    }
}

/// The seat takes back its last decision, if BGA's policy allows: no other
/// seat has acted since, nothing was revealed since, and no chance outcome
/// was drawn since. Otherwise 409, saying which of these stops it.
async fn seat_take_back(State(studio): Shared, UrlPath((game, token)): UrlPath<(String, String)>) -> Response {
    let Some((live, seat)) = seated(&studio, &game, &token) else {
        return forbidden();
    };
    let live2 = Arc::clone(&live);
    let studio2 = Arc::clone(&studio);
    let done = tokio::task::spawn_blocking(move || {
        let mut table = live2.table.lock().unwrap_or_else(|e| e.into_inner());
        keep::take_back(&studio2, &game, &mut table, seat)
    })
    .await;
    match done {
        Ok(Ok(())) => {
            live.changed.send_modify(|n| *n += 1);
            json_text(screen_json(&live, Watcher::Seat(seat)).0)
        }
        Ok(Err(keep::NotTaken::Refused(no))) => {
            refuse(StatusCode::CONFLICT, format!("you cannot take that back: {}", no.why()))
        }
        Ok(Err(keep::NotTaken::NotKept(why))) => refuse(
            StatusCode::INSUFFICIENT_STORAGE,
            format!("the take-back was not kept, so it was not made: {why}"),
        ),
        Err(e) => unfinished(&e, "the game stopped"),
    }
}
