//! Who may do what: the studio's key, and a seat's own link.

use std::sync::Arc;

use axum::http::HeaderMap;

use super::state::{Live, Studio};
use crate::ir::Seat;

/// Whether the request carries the studio's key.
pub(super) fn is_owner(studio: &Studio, headers: &HeaderMap) -> bool {
    headers
        .get("x-studio-key")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|k| is_key(studio, k))
}

/// Whether `key` is the studio's key. A page's `EventSource` and an
/// `iframe` cannot send a header, so those routes take it as `?key=`.
pub(super) fn is_key(studio: &Studio, key: &str) -> bool {
    super::table::same(key.as_bytes(), studio.key.as_bytes())
}

/// The game and seat a seat's link names, or `None` (answered 403).
pub(super) fn seated(studio: &Studio, game: &str, token: &str) -> Option<(Arc<Live>, Seat)> {
    let live = studio.game(game)?;
    let seat = live.table.lock().unwrap_or_else(|e| e.into_inner()).seat_of(token)?;
    Some((live, seat))
}
