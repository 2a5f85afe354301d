//! What the studio answers: refusals, a set-up's links, and a page's
//! screens, once or as a stream while the page is open.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use tokio::sync::watch;

use super::state::{Live, Studio};
use crate::ir::Seat;

pub(super) type Shared = State<Arc<Studio>>;

/// A refusal with a reason the page shows.
pub(super) fn refuse(status: StatusCode, why: impl Into<String>) -> Response {
    (status, Json(serde_json::json!({ "error": why.into() }))).into_response()
}

/// The answer when the work behind a request did not finish: the studio
/// is stopping (the work was cancelled, and nothing was changed), or the
/// work itself failed.
pub(super) fn unfinished(error: &tokio::task::JoinError, what: &str) -> Response {
    if error.is_cancelled() {
        refuse(
            StatusCode::SERVICE_UNAVAILABLE,
            "the studio is stopping: nothing was changed; try again once it is back",
        )
    } else {
        refuse(StatusCode::INTERNAL_SERVER_ERROR, what)
    }
}

pub(super) fn forbidden() -> Response {
    refuse(
        StatusCode::FORBIDDEN,
        "this needs the link the studio printed, or a seat's own link",
    )
}

/// A set-up's answer: the game's links, or why it was refused.
pub(super) fn answer(done: Result<Result<serde_json::Value, String>, tokio::task::JoinError>) -> Response {
    match done {
        Ok(Ok(body)) => Json(body).into_response(),
        Ok(Err(why)) => refuse(StatusCode::UNPROCESSABLE_ENTITY, why),
        Err(e) => unfinished(&e, "the game stopped while setting up"),
    }
}

/// Who a page is for: a seat, or a spectator.
#[derive(Clone, Copy)]
pub(super) enum Watcher {
    Seat(Seat),
    Spectator,
}

/// A page's screen as JSON text, and the revision it shows.
pub(super) fn screen_json(live: &Live, watcher: Watcher) -> (String, u64) {
    let edited = live.rules.edited();
    let mut table = live.table.lock().unwrap_or_else(|e| e.into_inner());
    let mut screen = match watcher {
        Watcher::Seat(seat) => {
            table.prompt_sent(seat);
            table.screen(seat)
        }
        Watcher::Spectator => table.public_screen(),
    };
    screen.rules_edited = edited;
    (serde_json::to_string(&screen).unwrap_or_default(), table.revision())
}

pub(super) fn json_text(text: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
        .into_response()
}

/// A page's event stream: its screen now, then again each time the game
/// changes, each numbered by the game's revision; counted as present
/// while it is open.
pub(super) fn live_screens(live: Arc<Live>, watcher: Watcher, headers: &HeaderMap) -> Response {
    let seen = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    let changes = live.changed.subscribe();
    let here = Present::new(live, watcher);
    Sse::new(screens(here, changes, seen))
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// A page connected to a game: counted while its stream is open.
struct Present {
    live: Arc<Live>,
    watcher: Watcher,
}

impl Present {
    fn slot(live: &Live, watcher: Watcher) -> &std::sync::atomic::AtomicUsize {
        let spectators = live.present.len() - 1;
        match watcher {
            Watcher::Seat(seat) => &live.present[(seat as usize).min(spectators)],
            Watcher::Spectator => &live.present[spectators],
        }
    }

    fn new(live: Arc<Live>, watcher: Watcher) -> Present {
        Present::slot(&live, watcher).fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Present { live, watcher }
    }
}

impl Drop for Present {
    fn drop(&mut self) {
        Present::slot(&self.live, self.watcher).fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
    }
}

fn screens(
    here: Present,
    changes: watch::Receiver<u64>,
    seen: Option<u64>,
) -> impl Stream<Item = Result<SseEvent, Infallible>> {
    futures_util::stream::unfold((here, changes, seen), move |(here, mut changes, seen)| async move {
        loop {
            let (screen, revision) = screen_json(&here.live, here.watcher);
            // Sent unless the page has it; a page that has it waits for a change.
            if seen != Some(revision) || changes.has_changed().unwrap_or(false) {
                changes.mark_unchanged();
                let event = SseEvent::default()
                    .event("screen")
                    .id(revision.to_string())
                    .data(screen);
                return Some((Ok(event), (here, changes, Some(revision))));
            }
            if changes.changed().await.is_err() {
                return None;
            }
        }
    })
}
