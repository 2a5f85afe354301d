//! One line per game, kept only when a run is asked for them (`--csv`,
//! `--html`): the report itself keeps only counts, so its memory stays flat.

/// How one game came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The seat (by index) that won.
    Win(usize),
    /// Nobody won.
    Draw,
    /// A runtime error stopped the game, by diagnostic code (`game-too-long`).
    Stopped(String),
}

/// One game of a run, as it was counted in the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's index in the run.
    pub index: u64,
    /// The seed it was played with (`rpsdsl run --seed` replays it).
    pub seed: u64,
    /// The agent in each seat, in seat order, as `--agents` names it
    /// (they differ from game to game when seats rotate).
    pub agents: Vec<String>,
    /// Times the game waited for decisions.
    pub decision_points: u64,
    /// Individual decisions made.
    pub decisions: u64,
    /// Who won, a draw, or the error that stopped it.
    pub result: GameResult,
    /// How it ended: exactly its key in the report's `ends`.
    pub end: String,
    /// Final total per seat, for a game that was scored (counted in the report's `scores`).
    pub scores: Option<Vec<i64>>,
}
