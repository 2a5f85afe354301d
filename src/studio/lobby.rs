//! The lobby and the key holder's hand on games in progress: the list of
//! games (who sits where, who is connected, whose turn, the last move),
//! play again, delete a finished game, hand a quiet seat to an agent and
//! take it back; and the spectators' pages, which show only what every
//! seat may see.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Json;
use axum::extract::Path as UrlPath;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::access::is_owner;
use super::reply::{Shared, Watcher, answer, forbidden, json_text, live_screens, refuse, screen_json};
use super::state::{Live, Studio};
use super::{files, games, keep, table};
use crate::check::OptionSetting;
use crate::ir::Seat;

/// The spectator link's secret for `game`: derived from the studio's key.
pub(super) fn watch_token(studio: &Studio, game: &str) -> String {
    keep::derived(&studio.key, &format!("watch\u{0}{game}"))
}

/// The game a spectator's link names, or `None` (answered 403).
fn watched(studio: &Studio, game: &str, token: &str) -> Option<Arc<Live>> {
    let live = studio.game(game)?;
    table::same(watch_token(studio, game).as_bytes(), token.as_bytes()).then_some(live)
}

/// Every game, in progress first, then the most recently moved: what the
/// studio's page lists.
pub(super) async fn lobby(axum::extract::State(studio): Shared, headers: HeaderMap) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    // A record the lobby cannot read shows no count; the games still show.
    let take_backs = studio.store.take_backs().unwrap_or_default();
    let mut games: Vec<(bool, i64, serde_json::Value)> = studio
        .live_games()
        .into_iter()
        .map(|(id, live)| {
            let edited = live.rules.edited();
            let table = live.table.lock().unwrap_or_else(|e| e.into_inner());
            let def = table.def();
            let seats: Vec<serde_json::Value> = table
                .sitters()
                .iter()
                .enumerate()
                .map(|(s, sitter)| {
                    serde_json::json!({
                        "seat": def.seat_name(s as Seat),
                        "person": sitter.person.is_some(),
                        "agent": sitter.agent.as_ref().map(|a| a.to_text()),
                        "link": sitter.person.map(|_| format!("/play/{id}/{}", studio.seat_token(&id, s))),
                        "connected": live.present[s].load(Ordering::Relaxed),
                    })
                })
                .collect();
            let updated = live.updated.load(Ordering::Relaxed);
            let done = table.is_done();
            let entry = serde_json::json!({
                "id": id,
                "game": def.name,
                "rules": table.rules(),
                "turn": table.turn(),
                "done": done,
                "ending": table.ending(),
                "waiting_for": table.waiting_for(),
                "updated": updated,
                "rules_edited": edited,
                "take_backs": take_backs.get(&id).copied().unwrap_or(0),
                "seats": seats,
                "spectators": live.present[def.players()].load(Ordering::Relaxed),
                "watch": format!("/watch/{id}/{}", watch_token(&studio, &id)),
            });
            (done, updated, entry)
        })
        .collect();
    games.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    Json(serde_json::json!({
        "games": games.into_iter().map(|g| g.2).collect::<Vec<_>>(),
        // Kept games a restart has not brought back yet.
        "coming_back": studio.asleep_count(),
        // What the last start found acknowledged and no longer kept.
        "losses": studio.store.losses,
    }))
    .into_response()
}

/// A new game with the same seats (each person gets a new link) and
/// options, from the rules file as it is now.
pub(super) async fn play_again(
    axum::extract::State(studio): Shared,
    headers: HeaderMap,
    UrlPath(game): UrlPath<String>,
) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let Some(live) = studio.game(&game) else {
        return refuse(StatusCode::NOT_FOUND, "no such game here");
    };
    let studio2 = Arc::clone(&studio);
    let done = tokio::task::spawn_blocking(move || again(&studio2, &live)).await;
    answer(done)
}

fn again(studio: &Studio, live: &Live) -> Result<serde_json::Value, String> {
    let (rules, layout, options) = {
        let table = live.table.lock().unwrap_or_else(|e| e.into_inner());
        let layout = table.layout();
        let options = crate::load::changed_options(table.def(), &table.game().options);
        (table.rules().to_string(), layout, options)
    };
    let path = files::resolve(&studio.config.root, &rules).map_err(|files::Refused(why)| why)?;
    let (game, owned) = games::load(&studio.config, &path, |_| Ok(OptionSetting::recorded(&options)))?;
    if game.def.players() != layout.len() {
        return Err(format!(
            "`{rules}` now has {} seats, not {}: start a new game from the editor",
            game.def.players(),
            layout.len()
        ));
    }
    keep::begin(studio, (rules, game, owned), layout, super::host::seed()?)
}

/// Forgets a finished game: from the database and from the lobby.
pub(super) async fn delete_game(
    axum::extract::State(studio): Shared,
    headers: HeaderMap,
    UrlPath(game): UrlPath<String>,
) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let Some(live) = studio.game(&game) else {
        return refuse(StatusCode::NOT_FOUND, "no such game here");
    };
    if !live.table.lock().unwrap_or_else(|e| e.into_inner()).is_done() {
        return refuse(
            StatusCode::CONFLICT,
            "this game is still being played: only a finished game can be deleted",
        );
    }
    match studio.store.delete_game(&game) {
        Ok(()) => {
            studio.forget(&game);
            Json(serde_json::json!({ "deleted": game })).into_response()
        }
        Err(why) => refuse(StatusCode::INSUFFICIENT_STORAGE, why),
    }
}

#[derive(Deserialize)]
pub(super) struct Reseat {
    /// The agent to play the seat, as `--agents` spells one; `null` gives
    /// the seat back to its person.
    agent: Option<String>,
}

/// Hands a person's seat to an agent (a player who went quiet), or gives
/// it back; the person's link still shows the game meanwhile.
pub(super) async fn reseat(
    axum::extract::State(studio): Shared,
    headers: HeaderMap,
    UrlPath((game, seat)): UrlPath<(String, usize)>,
    Json(reseat): Json<Reseat>,
) -> Response {
    if !is_owner(&studio, &headers) {
        return forbidden();
    }
    let Some(live) = studio.game(&game) else {
        return refuse(StatusCode::NOT_FOUND, "no such game here");
    };
    let live2 = Arc::clone(&live);
    let studio2 = Arc::clone(&studio);
    let done = tokio::task::spawn_blocking(move || -> Result<(), String> {
        let agent = match &reseat.agent {
            Some(text) => {
                let mut specs = crate::agents::spec::parse_spec(text)?;
                if specs.len() != 1 || specs[0].name.eq_ignore_ascii_case("human") {
                    return Err(format!("`{text}`: give one agent, e.g. `mcts`"));
                }
                specs.pop()
            }
            None => None,
        };
        let seat = Seat::try_from(seat.wrapping_sub(1)).map_err(|_| "seats are numbered from 1".to_string())?;
        let mut table = live2.table.lock().unwrap_or_else(|e| e.into_inner());
        let seats = table.reseated(seat, agent)?;
        keep::reseat(&studio2, &game, &mut table, &seats)
    })
    .await;
    match done {
        Ok(Ok(())) => {
            live.touch();
            live.changed.send_modify(|n| *n += 1);
            Json(serde_json::json!({ "reseated": true })).into_response()
        }
        Ok(Err(why)) => refuse(StatusCode::UNPROCESSABLE_ENTITY, why),
        Err(e) => super::reply::unfinished(&e, "the game stopped"),
    }
}

/// A spectator's screen: what every seat may see.
pub(super) async fn watch_screen(
    axum::extract::State(studio): Shared,
    UrlPath((game, token)): UrlPath<(String, String)>,
) -> Response {
    match watched(&studio, &game, &token) {
        Some(live) => json_text(screen_json(&live, Watcher::Spectator).0),
        None => forbidden(),
    }
}

/// A spectator's event stream.
pub(super) async fn watch_events(
    axum::extract::State(studio): Shared,
    headers: HeaderMap,
    UrlPath((game, token)): UrlPath<(String, String)>,
) -> Response {
    match watched(&studio, &game, &token) {
        Some(live) => live_screens(live, Watcher::Spectator, &headers),
        None => forbidden(),
    }
}
