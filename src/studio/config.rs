//! What the studio is started with: its folder, its agents, its engine,
//! its data folder and its bound on thinking.

use std::path::PathBuf;

/// How large a request body may be: a rules file being edited, at most.
pub const BODY_LIMIT: usize = 1024 * 1024;

/// What the studio serves.
pub struct Config {
    /// The folder whose rules are edited and played; nothing outside it is read or written.
    pub root: PathBuf,
    /// The agents for seats no person takes, as `--agents` spells them;
    /// `None`: each game's own opponent ([`crate::agents::default_opponent`]).
    pub agents: Option<String>,
    /// The back end that plays the studio's games.
    pub engine: crate::engine::Engine,
    /// The folder the studio keeps its games and key in.
    pub data: PathBuf,
    /// How long an agent may think for one decision, or train when it
    /// sits down (`--think`): past it, it answers with what it has.
    pub think: std::time::Duration,
}
