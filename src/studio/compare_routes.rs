//! The routes of `compare` from the page (the studio's key only): start a
//! comparison, follow its progress, stop it, and read its HTML report.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::access::{is_key, is_owner};
use super::compare::{self, Job, Outcome, Sides};
use super::files;
use super::games::load;
use super::reply::{Shared, forbidden, refuse};

#[derive(Deserialize)]
pub(super) struct CompareAsk {
    base: String,
    variant: String,
    /// Games per side (at most [`compare::MAX_GAMES`]).
    games: u64,
    /// The agents, as `--agents` (default `random`).
    #[serde(default)]
    agents: Option<String>,
    /// The run's seed, as `--seed` (default 1, as `compare`'s).
    #[serde(default)]
    seed: Option<u64>,
}

/// Starts a comparison: both files are loaded and checked first, so a bad
/// file is answered at once with its diagnostic.
pub(super) async fn start_compare(State(studio): Shared, headers: HeaderMap, Json(ask): Json<CompareAsk>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    if !(1..=compare::MAX_GAMES).contains(&ask.games) {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("play from 1 to {} games per side", compare::MAX_GAMES),
        );
    }
    let mut paths = vec![];
    for rel in [&ask.base, &ask.variant] {
        match files::resolve(&studio.config.root, rel) {
            Ok(p) => paths.push(p),
            Err(files::Refused(why)) => return refuse(StatusCode::BAD_REQUEST, why),
        }
    }
    let studio2 = Arc::clone(&studio);
    let loaded = tokio::task::spawn_blocking(move || -> Result<Sides, String> {
        let (base, _) = load(&studio2.config, &paths[0], |_| Ok(vec![]))?;
        let (variant, _) = load(&studio2.config, &paths[1], |_| Ok(vec![]))?;
        if let Some(why) = crate::sim::unrelated(&base.def, &variant.def) {
            return Err(format!(
                "`{}` and `{}` are not two versions of one game: {why}",
                ask.base, ask.variant
            ));
        }
        let agents = ask
            .agents
            .clone()
            .filter(|a| !a.trim().is_empty())
            .unwrap_or_else(|| "random".into());
        crate::agents::for_game(&agents, &base.def, &base.options, 0)?;
        Ok(Sides {
            base: (ask.base.clone(), base),
            variant: (ask.variant.clone(), variant),
            games: ask.games,
            agents,
            seed: ask.seed.unwrap_or(1),
        })
    })
    .await;
    let sides = match loaded {
        Ok(Ok(sides)) => sides,
        Ok(Err(why)) => return refuse(StatusCode::UNPROCESSABLE_ENTITY, why),
        Err(_) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, "loading stopped"),
    };
    let id = match super::host::token() {
        Ok(id) => id,
        Err(why) => return refuse(StatusCode::INTERNAL_SERVER_ERROR, why),
    };
    let job = Arc::new(Job::new(sides.games));
    studio.keep_job(id.clone(), Arc::clone(&job));
    tokio::task::spawn_blocking(move || job.run(&sides));
    Json(serde_json::json!({ "job": id })).into_response()
}

#[derive(Deserialize)]
pub(super) struct KeyQuery {
    #[serde(default)]
    key: String,
}

/// Where a comparison's stream of events stands.
#[derive(Clone, Copy)]
enum Stage {
    /// Sending its progress as it goes.
    Live,
    /// It has ended, and its last progress is sent: its outcome is next.
    Closing,
    Ended,
}

/// The comparison's progress, live: `progress` events (`{done, total}`),
/// always at least one, the last with the counts as it ended; then one of
/// `done` (`{text}`, the report as `compare` prints it), `stopped` or
/// `failed` (`{error}`).
pub(super) async fn compare_events(
    State(studio): Shared,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<KeyQuery>,
) -> Response {
    if !is_key(&studio, &q.key) {
        return forbidden();
    }
    let Some(job) = studio.job(&id) else {
        return refuse(StatusCode::NOT_FOUND, "no such comparison here");
    };
    let changes = job.changed.subscribe();
    let stream = futures_util::stream::unfold((job, changes, Stage::Live), |(job, mut changes, stage)| async move {
        let progress = || {
            SseEvent::default()
                .event("progress")
                .data(serde_json::json!({ "done": job.done(), "total": job.total, "deals": job.deals() }).to_string())
        };
        // One look at the outcome for both the event and whether it is the
        // last: a comparison ending between two looks would end the stream
        // on a `progress` event, and the page would wait forever.
        let outcome = job.outcome();
        let (event, next) = match (stage, outcome) {
            (Stage::Ended, _) => return None,
            (Stage::Live, None) => {
                // Until the next chunk or the end; the first event is sent at once.
                let event = progress();
                let _ = changes.changed().await;
                (event, Stage::Live)
            }
            // The counts as the comparison ended come first, so a page that
            // looks late (or a comparison quicker than its first chunk)
            // still sees where it got to.
            (Stage::Live, Some(_)) => (progress(), Stage::Closing),
            // An outcome, once there, stays; were it gone, the stream goes on.
            (Stage::Closing, None) => (progress(), Stage::Live),
            (Stage::Closing, Some(Outcome::Done { text, .. })) => (
                SseEvent::default()
                    .event("done")
                    .data(serde_json::json!({ "text": text }).to_string()),
                Stage::Ended,
            ),
            (Stage::Closing, Some(Outcome::Stopped)) => (SseEvent::default().event("stopped").data("{}"), Stage::Ended),
            (Stage::Closing, Some(Outcome::Failed(why))) => (
                SseEvent::default()
                    .event("failed")
                    .data(serde_json::json!({ "error": why }).to_string()),
                Stage::Ended,
            ),
        };
        Some((Ok::<_, Infallible>(event), (job, changes, next)))
    });
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

pub(super) async fn stop_compare(State(studio): Shared, headers: HeaderMap, UrlPath(id): UrlPath<String>) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    match studio.job(&id) {
        Some(job) => {
            job.stop();
            Json(serde_json::json!({ "stopping": id })).into_response()
        }
        None => refuse(StatusCode::NOT_FOUND, "no such comparison here"),
    }
}

/// The `compare --html` page of a finished comparison, for a sandboxed
/// frame: it runs no script and loads nothing.
pub(super) async fn compare_report(
    State(studio): Shared,
    UrlPath(id): UrlPath<String>,
    Query(q): Query<KeyQuery>,
) -> Response {
    if !is_key(&studio, &q.key) {
        return forbidden();
    }
    match studio.job(&id).and_then(|job| job.outcome()) {
        Some(Outcome::Done { html, .. }) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-store"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
                ),
            ],
            html,
        )
            .into_response(),
        _ => refuse(StatusCode::NOT_FOUND, "no finished comparison here"),
    }
}
