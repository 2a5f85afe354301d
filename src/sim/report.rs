//! The simulation report: sufficient statistics only (counts, integer sums,
//! exact histograms), so shards and chunks merge exactly, in any order.
//!
//! Every figure shown (rates, intervals, means) is derived from these
//! integers when the report is written, by [`Report::summary`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::stats::{Histogram, Moments, Rate};

/// The `format` field of every JSON report this version writes.
/// Version 2 added `rules_hash`, so a merge can tell the same rules apart.
/// Version 3 added `by_agent` (agents that differ by seat, and seats that
/// rotate among them) and `agent_notes` (no longer written: an agent that
/// would have needed one is refused), and shows a figure over no
/// finished game as `null`. Version 4 added `seal`, so a merge refuses a
/// shard that was edited after it was written.
pub const FORMAT: &str = "rpsdsl-simulate/4";

/// What a run plays: the same plan gives the same games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The rules file as the user named it (shown, not compared on merge).
    pub rules: String,
    /// The run's seed; game `i` plays with `game_seed(seed, i)`.
    pub seed: u64,
    /// The agent spec, e.g. `random` or `random,random`.
    pub agents: String,
    /// Options that differ from their defaults, as `name = value`.
    pub options: Vec<(String, String)>,
    /// Games in the whole run, across every shard.
    pub games: u64,
    /// The game indices this run plays, half-open.
    pub range: (u64, u64),
    /// When the seats' agents differ, rotate them: game `i` seats agent `a`
    /// at seat `(a + i) mod seats`, and the games of one rotation share a
    /// seed, so each agent plays each seat on the same deals (`--no-rotate`
    /// turns it off). No effect when every seat has the same agent.
    pub rotate_seats: bool,
}

/// Results of a set of games. Build one with [`simulate`](super::simulate);
/// combine shards with [`Report::merge`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// Always [`FORMAT`] for a report this version writes.
    pub format: String,
    /// The game's name.
    pub game: String,
    /// The rules file as the user named it (shown, not compared on merge).
    pub rules: String,
    /// A hash of the text of every file the game was read from (the rules
    /// files and a house-rules file), so shards of different rules never
    /// merge: `fnv1a64:` and 16 hex digits.
    pub rules_hash: String,
    /// The run's seed; game `i` plays with `game_seed(seed, i)`.
    pub seed: u64,
    /// The agent spec, e.g. `random` or `random,random`.
    pub agents: String,
    /// Options that differ from their defaults, as `name = value`.
    pub options: Vec<(String, String)>,
    /// Games in the whole run, across every shard.
    pub planned: u64,
    /// The game indices included: sorted, disjoint, half-open ranges.
    pub ranges: Vec<(u64, u64)>,
    /// Games included.
    pub games: u64,
    /// Seat names, in seat order.
    pub seats: Vec<String>,
    /// Games won, per seat.
    pub wins: Vec<u64>,
    /// Games drawn.
    pub draws: u64,
    /// Games stopped by an error, by diagnostic code (`game-too-long`, ...).
    pub stopped: BTreeMap<String, Stop>,
    /// Games by how they ended (`trigger all_sets`, `most score`, ...).
    pub ends: BTreeMap<String, u64>,
    /// Per game: how many times the game waited for decisions.
    pub decision_points: Histogram,
    /// Per game: individual decisions (a simultaneous throw by two players is two).
    pub decisions: Histogram,
    /// Sum over decisions of the number of legal choices offered.
    pub offered: u64,
    /// Decisions that offered more than one choice.
    pub real_choices: u64,
    /// Per decision of the rules: how often several seats chose at once, and
    /// how often they all chose the same.
    pub together: Vec<Together>,
    /// Present when the game has score terms.
    pub scores: Option<Scores>,
    /// How often each part of the rules fired.
    pub coverage: Vec<Coverage>,
    /// Present when the seats' agents differ: who played where, and won.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_agent: Option<ByAgent>,
}

/// Results per agent, for a run whose seats have different agents.
///
/// Agent `a` is the `a`-th agent of the spec. In arrangement `r` it sits at
/// seat `(a + r) mod seats`; without rotation every game is arrangement 0,
/// where agent `a` sits at seat `a`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByAgent {
    /// Each agent's spec, in the order given (`mcts`, `random`).
    pub agents: Vec<String>,
    /// Whether seats rotate among the agents ([`Plan::rotate_seats`]).
    pub rotated: bool,
    /// Games played in each arrangement (one entry per seat when rotated, else one).
    pub arrangements: Vec<u64>,
    /// `wins[a][s]`: games agent `a` won sitting at seat `s`.
    pub wins: Vec<Vec<u64>>,
}

impl ByAgent {
    /// The seat agent `agent` sits at in arrangement `arrangement`.
    pub fn seat_of(&self, agent: usize, arrangement: usize) -> usize {
        (agent + arrangement) % self.agents.len().max(1)
    }

    /// Games agent `agent` played at seat `seat`.
    pub fn games_at(&self, agent: usize, seat: usize) -> u64 {
        (0..self.arrangements.len())
            .filter(|&r| self.seat_of(agent, r) == seat)
            .map(|r| self.arrangements[r])
            .sum()
    }

    /// The spec seating the agents as in game `index` of the run: `random,mcts`.
    pub fn spec_for_game(&self, index: u64) -> String {
        let seats = self.agents.len().max(1);
        let arrangement = if self.rotated {
            (index % seats as u64) as usize
        } else {
            0
        };
        (0..seats)
            .map(|seat| self.agents[(seat + seats - arrangement) % seats].as_str())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Games stopped with one diagnostic code, and the first of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stop {
    /// Games stopped with this code.
    pub games: u64,
    /// The lowest game index that stopped this way, its seed and message.
    pub first_game: u64,
    /// The seed of that game.
    pub first_seed: u64,
    /// The error message of that game.
    pub message: String,
}

/// How often several seats chose at once at one decision of the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Together {
    /// The decision's name.
    pub decision: String,
    /// Decision points where two or more seats chose at the same time.
    pub rounds: u64,
    /// Of those, the ones where every seat made the same choice (a tie in a throw).
    pub alike: u64,
}

/// Score totals, for a game with score terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    /// The score terms' names, in definition order.
    pub terms: Vec<String>,
    /// Games that reached the result and were scored. The other finished
    /// games ended before scoring (a trigger or a `win` in the flow).
    pub scored: u64,
    /// Final total per seat.
    pub(crate) totals: Vec<Moments>,
    /// The leader's total minus the runner-up's.
    pub(crate) margin: Moments,
}

/// What kind of rule a coverage line counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    /// A decision (`each player chooses throw`).
    Decision,
    /// An entry of a draft, chosen.
    Action,
    /// An `anytime` action, taken.
    Anytime,
    /// A trigger that did something.
    Trigger,
    /// A rhai hook, called.
    Hook,
    /// A score term that gave a seat nonzero points.
    Score,
}

impl Part {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Part::Decision => "decision",
            Part::Action => "action",
            Part::Anytime => "anytime",
            Part::Trigger => "trigger",
            Part::Hook => "hook",
            Part::Score => "score",
        }
    }
}

/// How often one part of the rules fired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    /// What kind of rule it is.
    pub part: Part,
    /// Its name: a decision, trigger, hook or score term name, or an action's label.
    pub name: String,
    /// Where it is in the rules, `prelude/rps.rules:14` (shown for parts that never fired).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Games in which it fired at least once.
    pub games: u64,
    /// Times it fired in all games (for a score term: seats scored nonzero).
    pub times: u64,
    /// For a hook that answers yes or no: the calls that answered yes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yes: Option<u64>,
    /// For a part that is not always there: how often it was. An `anytime`
    /// action: times offered; a score term with `when`: seats it counted for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub available: Option<u64>,
}

impl Coverage {
    /// "trigger all_sets", "action \"take the top card\"".
    pub fn title(&self) -> String {
        match self.part {
            Part::Action | Part::Anytime => format!("{} \"{}\"", self.part.word(), self.name),
            _ => format!("{} {}", self.part.word(), self.name),
        }
    }
}

/// Why a report cannot be read, or two reports cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Reports of different rules, games, seeds, agents, options or run
    /// sizes: a shard of `-n 100 --seed 1` and one of `--seed 2`.
    #[error("`{field}` is {theirs} here but {ours} in the reports before it: they are not shards of one run")]
    Different {
        /// The field that differs.
        field: &'static str,
        /// Its value in the reports merged so far.
        ours: String,
        /// Its value in this report.
        theirs: String,
    },
    /// Two shards that include the same game: one shard named twice.
    #[error("games {0}..{1} are in more than one report")]
    Overlap(u64, u64),
    /// A report written by another version: `"format": "rpsdsl-simulate/1"`.
    #[error("unknown report format `{0}` (expected `{FORMAT}`)")]
    Format(String),
    /// Not JSON, or not the fields of a report: a text report.
    #[error("{0}")]
    Unreadable(String),
    /// A field out of range, counts that do not add up, or sums too large
    /// to add: `"wins": [1000, 3]` in a report of 500 games.
    #[error("`{field}`: {problem}")]
    Invalid {
        /// The field, by name (`wins`, `scores.margin`).
        field: String,
        /// What is wrong with it.
        problem: String,
    },
}

impl MergeError {
    /// The report field the error is about, if it is about one.
    pub(crate) fn field(&self) -> Option<&str> {
        match self {
            MergeError::Different { field, .. } => Some(field),
            MergeError::Overlap(..) => Some("ranges"),
            MergeError::Format(_) => Some("format"),
            MergeError::Unreadable(_) => None,
            MergeError::Invalid { field, .. } => Some(field),
        }
    }
}

fn invalid<T>(field: impl Into<String>, problem: impl Into<String>) -> Result<T, MergeError> {
    Err(MergeError::Invalid {
        field: field.into(),
        problem: problem.into(),
    })
}

/// `a + b`, or an error naming `field` if the sum passes `u64::MAX`.
fn add(a: u64, b: u64, field: &str) -> Result<u64, MergeError> {
    a.checked_add(b)
        .map_or_else(|| invalid(field, "the sum is too large to count"), Ok)
}

/// The sum of `values`, or an error naming `field` if it passes `u64::MAX`.
fn sum(values: impl IntoIterator<Item = u64>, field: &str) -> Result<u64, MergeError> {
    values.into_iter().try_fold(0, |total, v| add(total, v, field))
}

pub(crate) use crate::ir::rules_hash;

impl Report {
    /// An empty report for `plan` with the given rows; `merge` adds games.
    pub(crate) fn empty(
        game: &str,
        rules_hash: String,
        seats: Vec<String>,
        plan: &Plan,
        together: Vec<Together>,
        scores: Option<Scores>,
        coverage: Vec<Coverage>,
    ) -> Report {
        Report {
            format: FORMAT.into(),
            game: game.into(),
            rules: plan.rules.clone(),
            rules_hash,
            seed: plan.seed,
            agents: plan.agents.clone(),
            options: plan.options.clone(),
            planned: plan.games,
            ranges: vec![],
            games: 0,
            wins: vec![0; seats.len()],
            seats,
            draws: 0,
            stopped: BTreeMap::new(),
            ends: BTreeMap::new(),
            decision_points: Histogram::default(),
            decisions: Histogram::default(),
            offered: 0,
            real_choices: 0,
            together,
            scores,
            coverage,
            by_agent: None,
        }
    }

    /// The seed game `index` is played with: rotated seats play in groups
    /// of one game per seat on one seed.
    pub fn seed_of(&self, index: u64) -> u64 {
        super::stats::game_seed(self.seed, self.deal_of(index))
    }

    /// Which deal (seed index) game `index` plays.
    fn deal_of(&self, index: u64) -> u64 {
        match &self.by_agent {
            Some(b) if b.rotated => index / b.agents.len().max(1) as u64,
            _ => index,
        }
    }

    /// Games that ended with a winner or a draw (not stopped by an error).
    pub fn finished(&self) -> u64 {
        self.wins.iter().sum::<u64>() + self.draws
    }

    /// Games stopped by a limit or an error.
    pub fn stopped_games(&self) -> u64 {
        self.stopped.values().map(|s| s.games).sum()
    }

    /// The `--agents` spec that replays game `index` with `rpsdsl run`.
    pub fn agents_for_game(&self, index: u64) -> String {
        match &self.by_agent {
            Some(b) => b.spec_for_game(index),
            None => self.agents.clone(),
        }
    }

    /// Adds `other`'s games to this report. Exact: merging shards in any
    /// order gives the report of one run over all their games. Every sum is
    /// checked; on an error `self` is unchanged.
    pub fn merge(&mut self, other: &Report) -> Result<(), MergeError> {
        self.same_run(other)?;
        let mut out = self.clone();
        out.ranges = join_ranges(&self.ranges, &other.ranges)?;
        out.games = add(self.games, other.games, "games")?;
        for (w, o) in out.wins.iter_mut().zip(&other.wins) {
            *w = add(*w, *o, "wins")?;
        }
        out.draws = add(self.draws, other.draws, "draws")?;
        for (code, stop) in &other.stopped {
            match out.stopped.get_mut(code) {
                Some(mine) => {
                    mine.games = add(mine.games, stop.games, "stopped")?;
                    if stop.first_game < mine.first_game {
                        mine.first_game = stop.first_game;
                        mine.first_seed = stop.first_seed;
                        mine.message = stop.message.clone();
                    }
                }
                None => {
                    out.stopped.insert(code.clone(), stop.clone());
                }
            }
        }
        for (end, count) in &other.ends {
            let mine = out.ends.entry(end.clone()).or_insert(0);
            *mine = add(*mine, *count, "ends")?;
        }
        let histogram = |field: &str, a: &Histogram, b: &Histogram| {
            a.checked_merge(b)
                .map_or_else(|| invalid(field, "a count is too large to add"), Ok)
        };
        out.decision_points = histogram("decision_points", &self.decision_points, &other.decision_points)?;
        out.decisions = histogram("decisions", &self.decisions, &other.decisions)?;
        out.offered = add(self.offered, other.offered, "offered")?;
        out.real_choices = add(self.real_choices, other.real_choices, "real_choices")?;
        for (t, o) in out.together.iter_mut().zip(&other.together) {
            t.rounds = add(t.rounds, o.rounds, "together")?;
            t.alike = add(t.alike, o.alike, "together")?;
        }
        let moments = |field: &str, a: &Moments, b: &Moments| {
            a.checked_merge(b)
                .map_or_else(|| invalid(field, "the sums are too large to add"), Ok)
        };
        if let (Some(s), Some(o)) = (&mut out.scores, &other.scores) {
            s.scored = add(s.scored, o.scored, "scores.scored")?;
            for (t, ot) in s.totals.iter_mut().zip(&o.totals) {
                *t = moments("scores.totals", t, ot)?;
            }
            s.margin = moments("scores.margin", &s.margin, &o.margin)?;
        }
        if let (Some(b), Some(o)) = (&mut out.by_agent, &other.by_agent) {
            for (g, og) in b.arrangements.iter_mut().zip(&o.arrangements) {
                *g = add(*g, *og, "by_agent.arrangements")?;
            }
            for (row, orow) in b.wins.iter_mut().zip(&o.wins) {
                for (w, ow) in row.iter_mut().zip(orow) {
                    *w = add(*w, *ow, "by_agent.wins")?;
                }
            }
        }
        for (c, o) in out.coverage.iter_mut().zip(&other.coverage) {
            c.games = add(c.games, o.games, "coverage")?;
            c.times = add(c.times, o.times, "coverage")?;
            if let (Some(y), Some(oy)) = (&mut c.yes, o.yes) {
                *y = add(*y, oy, "coverage")?;
            }
            if let (Some(a), Some(oa)) = (&mut c.available, o.available) {
                *a = add(*a, oa, "coverage")?;
            }
        }
        *self = out;
        Ok(())
    }

    fn same_run(&self, other: &Report) -> Result<(), MergeError> {
        for format in [&self.format, &other.format] {
            if format != FORMAT {
                return Err(MergeError::Format(format.clone()));
            }
        }
        let differ = |field: &'static str, ours: String, theirs: String| -> Result<(), MergeError> {
            if ours == theirs {
                Ok(())
            } else {
                Err(MergeError::Different { field, ours, theirs })
            }
        };
        let quoted = |s: &str| format!("`{s}`");
        differ("rules_hash", quoted(&self.rules_hash), quoted(&other.rules_hash))?;
        differ("game", quoted(&self.game), quoted(&other.game))?;
        differ("seed", self.seed.to_string(), other.seed.to_string())?;
        differ("agents", quoted(&self.agents), quoted(&other.agents))?;
        differ("options", format!("{:?}", self.options), format!("{:?}", other.options))?;
        differ("planned", self.planned.to_string(), other.planned.to_string())?;
        differ("seats", quoted(&self.seats.join(", ")), quoted(&other.seats.join(", ")))?;
        let names = |rows: &mut dyn Iterator<Item = String>| quoted(&rows.collect::<Vec<_>>().join(", "));
        differ(
            "coverage",
            names(&mut self.coverage.iter().map(Coverage::title)),
            names(&mut other.coverage.iter().map(Coverage::title)),
        )?;
        differ(
            "together",
            names(&mut self.together.iter().map(|t| t.decision.clone())),
            names(&mut other.together.iter().map(|t| t.decision.clone())),
        )?;
        let terms = |r: &Report| r.scores.as_ref().map(|s| s.terms.join(", "));
        differ("scores", format!("{:?}", terms(self)), format!("{:?}", terms(other)))?;
        let seating = |r: &Report| r.by_agent.as_ref().map(|b| (b.agents.join(","), b.rotated));
        differ(
            "by_agent",
            format!("{:?}", seating(self)),
            format!("{:?}", seating(other)),
        )
    }

    /// Checks that a report read from a file is one `simulate` could have
    /// written: its ranges are in order, disjoint, non-empty and within the
    /// run; its counts add up (every game won, drawn or stopped, and ended
    /// one way; a histogram entry per game; shares within their totals);
    /// and every figure derived from it is computed without overflow. The
    /// error names the first field that is wrong.
    pub(crate) fn check(&self) -> Result<(), MergeError> {
        if self.format != FORMAT {
            return Err(MergeError::Format(self.format.clone()));
        }
        if self.planned == 0 {
            return invalid("planned", "a run has at least 1 game");
        }
        self.check_ranges()?;
        let won = self.check_outcomes()?;
        self.check_decisions()?;
        self.check_scores(won)?;
        self.check_by_agent()?;
        self.check_coverage()
    }

    /// The ranges: in order, disjoint, non-empty, within the run, and holding `games`.
    fn check_ranges(&self) -> Result<(), MergeError> {
        if self.ranges.is_empty() {
            return invalid("ranges", "no games: a report covers at least one game");
        }
        let mut covered = 0u64;
        let mut last_end = 0u64;
        for (i, &(start, end)) in self.ranges.iter().enumerate() {
            let field = format!("ranges[{i}]");
            if start >= end {
                return invalid(
                    field,
                    format!("[{start}, {end}) holds no games (the start must be below the end)"),
                );
            }
            if end > self.planned {
                return invalid(
                    field,
                    format!("[{start}, {end}) reaches past the run's {} games", self.planned),
                );
            }
            if i > 0 && start < last_end {
                return invalid(
                    field,
                    format!("[{start}, {end}) overlaps or comes before the range ending at {last_end}"),
                );
            }
            covered += end - start;
            last_end = end;
        }
        if self.games != covered {
            return invalid("games", format!("{} games, but the ranges hold {covered}", self.games));
        }
        Ok(())
    }

    /// Every game won, drawn or stopped, and ended one way; returns the games won.
    fn check_outcomes(&self) -> Result<u64, MergeError> {
        if self.seats.is_empty() {
            return invalid("seats", "no seats");
        }
        if self.wins.len() != self.seats.len() {
            return invalid(
                "wins",
                format!("{} entries for {} seats", self.wins.len(), self.seats.len()),
            );
        }
        let won = sum(self.wins.iter().copied(), "wins")?;
        let stopped = sum(self.stopped.values().map(|s| s.games), "stopped")?;
        let outcomes = add(add(won, self.draws, "draws")?, stopped, "stopped")?;
        if outcomes != self.games {
            return invalid(
                "wins",
                format!(
                    "wins ({won}) + draws ({}) + stopped games ({stopped}) = {outcomes}, but there are {} games",
                    self.draws, self.games
                ),
            );
        }
        for (code, stop) in &self.stopped {
            let field = format!("stopped.{code}");
            if stop.games == 0 {
                return invalid(field, "no games stopped this way");
            }
            if !self.ranges.iter().any(|&(s, e)| (s..e).contains(&stop.first_game)) {
                return invalid(
                    field,
                    format!("first_game {} is not a game of this report", stop.first_game),
                );
            }
            if stop.first_seed != self.seed_of(stop.first_game) {
                return invalid(
                    field,
                    format!(
                        "first_seed {} is not the seed of game {}",
                        stop.first_seed, stop.first_game
                    ),
                );
            }
        }
        let ended = sum(self.ends.values().copied(), "ends")?;
        if ended != self.games {
            return invalid("ends", format!("{ended} games ended, but there are {}", self.games));
        }
        Ok(won)
    }

    /// A length entry per game, and the decisions' shares within their totals.
    fn check_decisions(&self) -> Result<(), MergeError> {
        let mut decisions = 0;
        for (field, h) in [
            ("decision_points", &self.decision_points),
            ("decisions", &self.decisions),
        ] {
            match (h.checked_count(), h.checked_moments()) {
                (Some(n), Some(m)) if n == self.games => {
                    decisions = u64::try_from(m.sum).or_else(|_| invalid(field, "its sum is too large"))?;
                }
                (Some(n), Some(_)) => {
                    return invalid(field, format!("{n} games counted, but there are {}", self.games));
                }
                _ => return invalid(field, "its counts are too large to add up"),
            }
        }
        if self.real_choices > decisions {
            return invalid(
                "real_choices",
                format!(
                    "{} decisions with a real choice, of only {decisions} decisions",
                    self.real_choices
                ),
            );
        }
        if self.offered < decisions {
            return invalid(
                "offered",
                format!(
                    "{} choices offered over {decisions} decisions (at least one each)",
                    self.offered
                ),
            );
        }
        let points = self
            .decision_points
            .checked_moments()
            .and_then(|m| u64::try_from(m.sum).ok())
            .unwrap_or(u64::MAX);
        for t in &self.together {
            let field = format!("together.{}", t.decision);
            if t.alike > t.rounds || t.rounds > points {
                return invalid(
                    field,
                    format!(
                        "{} alike of {} rounds, in {points} decision points (alike <= rounds <= decision points)",
                        t.alike, t.rounds
                    ),
                );
            }
        }
        Ok(())
    }

    /// The scores: no more games scored than ended (`won` and drawn), a total per seat.
    fn check_scores(&self, won: u64) -> Result<(), MergeError> {
        if let Some(s) = &self.scores {
            if s.scored > add(won, self.draws, "draws")? {
                return invalid(
                    "scores.scored",
                    format!("{} games scored, of {} that ended", s.scored, won + self.draws),
                );
            }
            if s.totals.len() != self.seats.len() {
                return invalid(
                    "scores.totals",
                    format!("{} entries for {} seats", s.totals.len(), self.seats.len()),
                );
            }
            for (field, m) in s
                .totals
                .iter()
                .map(|m| ("scores.totals", m))
                .chain([("scores.margin", &s.margin)])
            {
                if m.count != s.scored {
                    return invalid(
                        field,
                        format!("{} games counted, but {} were scored", m.count, s.scored),
                    );
                }
                if !m.is_consistent() {
                    return invalid(field, "its sums cannot come from that many games, or are too large");
                }
            }
            if s.margin.sum < 0 {
                return invalid("scores.margin", "a margin is never negative");
            }
        }
        Ok(())
    }

    /// The per-agent tables fit the seats and add up to the totals.
    fn check_by_agent(&self) -> Result<(), MergeError> {
        if let Some(b) = &self.by_agent {
            let seats = self.seats.len();
            let shape_ok = b.agents.len() == seats
                && b.arrangements.len() == if b.rotated { seats } else { 1 }
                && b.wins.len() == seats
                && b.wins.iter().all(|row| row.len() == seats);
            if !shape_ok {
                return invalid("by_agent", format!("its tables do not fit {seats} seats"));
            }
            if sum(b.arrangements.iter().copied(), "by_agent.arrangements")? != self.games {
                return invalid(
                    "by_agent.arrangements",
                    format!("they do not add up to {} games", self.games),
                );
            }
            for seat in 0..seats {
                let won = sum(b.wins.iter().map(|row| row[seat]), "by_agent.wins")?;
                if won != self.wins[seat] {
                    return invalid(
                        "by_agent.wins",
                        format!("{won} wins at seat {}, but `wins` says {}", seat + 1, self.wins[seat]),
                    );
                }
                for (agent, row) in b.wins.iter().enumerate() {
                    if row[seat] > b.games_at(agent, seat) {
                        return invalid("by_agent.wins", "more wins than games at a seat");
                    }
                }
            }
        }
        Ok(())
    }

    /// Each part of the rules fired at most in every game, and at least once a game it fired in.
    fn check_coverage(&self) -> Result<(), MergeError> {
        for c in &self.coverage {
            let field = format!("coverage.{}", c.title());
            if c.games > self.games || c.times < c.games || c.yes.is_some_and(|y| y > c.times) {
                return invalid(
                    field,
                    format!(
                        "fired {} times in {} of {} games{} (games <= times, yes <= times)",
                        c.times,
                        c.games,
                        self.games,
                        c.yes.map(|y| format!(", {y} yes")).unwrap_or_default()
                    ),
                );
            }
        }
        Ok(())
    }

    /// Whether this report covers every game of its run.
    pub fn is_complete(&self) -> bool {
        self.ranges == [(0, self.planned)] || (self.planned == 0 && self.ranges.is_empty())
    }

    /// The rates and figures a reader wants, derived from the counts.
    pub fn summary(&self) -> Summary {
        let n = self.games;
        let win_rates: Vec<Rate> = self.wins.iter().map(|&w| Rate::new(w, n)).collect();
        let rates: Vec<f64> = win_rates.iter().map(|r| r.rate).collect();
        // With no finished game, or a single seat, there is nothing to be
        // even or uneven about.
        let finished = self.finished() > 0 && self.seats.len() > 1;
        let gap = match (
            rates.iter().copied().reduce(f64::max),
            rates.iter().copied().reduce(f64::min),
        ) {
            (Some(hi), Some(lo)) if finished => Some(hi - lo),
            _ => None,
        };
        let others = rates.len().saturating_sub(1).max(1) as f64;
        let first_player_advantage = match rates.split_first() {
            Some((first, rest)) if finished => Some(first - rest.iter().sum::<f64>() / others),
            _ => None,
        };
        let decisions_total = self.decisions.moments().sum as u64;
        Summary {
            win_rates,
            draw_rate: Rate::new(self.draws, n),
            stopped_rate: Rate::new(self.stopped_games(), n),
            finished: self.finished(),
            balance: gap.map(|g| 1.0 - g),
            first_player_advantage,
            decision_points: Length::of(&self.decision_points),
            decisions: Length::of(&self.decisions),
            branching_factor: ratio(self.offered, decisions_total),
            real_choice_share: ratio(self.real_choices, decisions_total),
            scores: self.scores.as_ref().map(|s| ScoreSummary {
                scored: s.scored,
                ended_before_scoring: self.finished().saturating_sub(s.scored),
                totals: s.totals.iter().map(Spread::of).collect(),
                margin: Spread::of(&s.margin),
            }),
            by_agent: self.by_agent.as_ref().map(|b| AgentSummary::of(b, n)),
            never_fired: self.never_fired(),
        }
    }

    /// Parts of the rules that never fired, as "trigger all_sets".
    pub fn never_fired(&self) -> Vec<String> {
        let mut out = vec![];
        for c in &self.coverage {
            let mut notes = vec![];
            if let Some(at) = &c.at {
                notes.push(at.clone());
            }
            if c.games == 0 {
                match (c.part, c.available) {
                    (Part::Anytime, Some(0)) => notes.push("never offered".into()),
                    (Part::Score, Some(0)) => notes.push("its `when` never held".into()),
                    _ => {}
                }
            } else if c.yes == Some(0) {
                notes.push("never answered yes".into());
            } else {
                continue;
            }
            out.push(format!("{} ({})", c.title(), notes.join(", ")));
        }
        out
    }
}

/// `a / b`, or `None` (shown as n/a) when there is nothing to divide by.
fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

/// The union of two sets of half-open ranges, failing on overlap.
fn join_ranges(a: &[(u64, u64)], b: &[(u64, u64)]) -> Result<Vec<(u64, u64)>, MergeError> {
    let mut all: Vec<(u64, u64)> = a.iter().chain(b).copied().filter(|(s, e)| s < e).collect();
    all.sort_unstable();
    let mut out: Vec<(u64, u64)> = vec![];
    for (start, end) in all {
        match out.last_mut() {
            Some(last) if start < last.1 => return Err(MergeError::Overlap(start, end.min(last.1))),
            Some(last) if start == last.1 => last.1 = end,
            _ => out.push((start, end)),
        }
    }
    Ok(out)
}

/// Derived figures (see docs/metrics.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub(crate) win_rates: Vec<Rate>,
    pub(crate) draw_rate: Rate,
    pub(crate) stopped_rate: Rate,
    /// Games that ended with a winner or a draw.
    pub finished: u64,
    /// 1 minus the largest difference between two seats' win rates: 1 is
    /// even, 0 means one seat always wins. `None` (n/a) when no game finished.
    pub balance: Option<f64>,
    /// The first seat's win rate minus the mean win rate of the other seats
    /// (a fraction, shown in percentage points). `None` (n/a) when no game finished.
    pub first_player_advantage: Option<f64>,
    /// Decision points per game.
    pub decision_points: Length,
    /// Decisions per game.
    pub decisions: Length,
    /// Mean number of choices offered per decision (`anytime` actions
    /// included); `None` when no decision was made.
    pub branching_factor: Option<f64>,
    /// Share of decisions that offered more than one choice; `None` when no decision was made.
    pub real_choice_share: Option<f64>,
    /// Score totals and margins, for a game with score terms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<ScoreSummary>,
    /// Win rates per agent and per agent at each seat, when the seats' agents differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_agent: Option<AgentSummary>,
    /// Parts of the rules that fired in no game, as [`Report::never_fired`] lists them.
    pub never_fired: Vec<String>,
}

/// The distribution of a per-game count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Length {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation.
    pub sd: f64,
    /// Median (nearest rank, the lower one for an even count).
    pub median: u64,
    /// 10th percentile (nearest rank).
    pub p10: u64,
    /// 90th percentile (nearest rank).
    pub p90: u64,
}

impl Length {
    fn of(h: &Histogram) -> Length {
        let m = h.moments();
        Length {
            mean: if m.count == 0 { 0.0 } else { m.mean() },
            sd: m.sd(),
            median: h.quantile(0.5).unwrap_or(0),
            p10: h.quantile(0.1).unwrap_or(0),
            p90: h.quantile(0.9).unwrap_or(0),
        }
    }
}

/// Mean and standard deviation of a score, over the `n` games scored.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// Games the figures are over.
    pub n: u64,
    /// Mean; `None` (n/a) over no game.
    pub mean: Option<f64>,
    /// Sample standard deviation; `None` (n/a) over no game.
    pub sd: Option<f64>,
}

impl Spread {
    pub(crate) fn of(m: &Moments) -> Spread {
        Spread {
            n: m.count,
            mean: (m.count > 0).then(|| m.mean()),
            sd: (m.count > 0).then(|| m.sd()),
        }
    }
}

/// Win rates per agent, for a run whose seats have different agents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AgentSummary {
    /// Per agent: its wins over all its games.
    pub overall: Vec<Rate>,
    /// `at_seat[a][s]`: agent `a`'s wins over its games at seat `s`.
    pub at_seat: Vec<Vec<Rate>>,
}

impl AgentSummary {
    fn of(b: &ByAgent, games: u64) -> AgentSummary {
        let seats = b.agents.len();
        AgentSummary {
            overall: b.wins.iter().map(|row| Rate::new(row.iter().sum(), games)).collect(),
            at_seat: (0..seats)
                .map(|a| (0..seats).map(|s| Rate::new(b.wins[a][s], b.games_at(a, s))).collect())
                .collect(),
        }
    }
}

/// Final scores of the games that were scored.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreSummary {
    /// Games that reached scoring: every figure below is over these.
    pub scored: u64,
    /// Finished games that ended before scoring (by a trigger or a `win` in
    /// the flow): they have no final score.
    pub ended_before_scoring: u64,
    /// Per seat: the final total.
    pub totals: Vec<Spread>,
    /// The leader's total minus the runner-up's.
    pub margin: Spread,
}

/// A report as written with `--json`: the counts, and the figures derived
/// from them (ignored when the file is read back).
#[derive(Serialize)]
pub struct ReportJson<'a> {
    /// The counts.
    #[serde(flatten)]
    pub report: &'a Report,
    /// The figures derived from them.
    pub summary: Summary,
    /// [`Report::seal`]: a digest of the counts and names, so that a merge
    /// notices a shard edited after it was written.
    pub seal: String,
}

impl Report {
    /// The report as written with `--json`: pretty JSON with its [`Summary`], ending in a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&ReportJson {
            report: self,
            summary: self.summary(),
            seal: self.seal(),
        })
        .expect("a report serialises");
        text.push('\n');
        text
    }

    /// A digest of every count and name of the report (SHA-256 of its
    /// compact JSON, without the summary derived from it). Counts that
    /// still add up can hide an edit (an ending's label renamed, games moved
    /// from one ending to another); the seal cannot.
    pub fn seal(&self) -> String {
        use sha2::Digest as _;
        let counts = serde_json::to_vec(self).expect("a report serialises");
        let digest = sha2::Sha256::digest(&counts);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        format!("sha256:{hex}")
    }

    /// Whether `text`, a report [`Report::from_json`] reads, still matches
    /// the seal written with it. Checked after every other check, so that
    /// a count that does not add up is named as such.
    pub fn check_seal(text: &str) -> Result<(), MergeError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| MergeError::Unreadable(e.to_string()))?;
        // The report exactly as written: its names not yet made printable.
        let written: Report =
            serde_json::from_value(value.clone()).map_err(|e| MergeError::Unreadable(e.to_string()))?;
        match value.get("seal").and_then(|s| s.as_str()) {
            Some(seal) if seal == written.seal() => Ok(()),
            Some(_) => invalid(
                "seal",
                "the counts or names do not match the seal `rpsdsl simulate` wrote with them",
            ),
            None => invalid("seal", "there is none"),
        }
    }

    /// Reads a report written by [`Report::to_json`] and [checks](Self::check) it.
    pub fn from_json(text: &str) -> Result<Report, MergeError> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| MergeError::Unreadable(e.to_string()))?;
        match value.get("format").and_then(|f| f.as_str()) {
            Some(FORMAT) => {}
            Some(other) => return Err(MergeError::Format(other.to_string())),
            None => return Err(MergeError::Unreadable("no `format` field".into())),
        }

        // Every name in a report read from a file is made printable before
        // it can reach a terminal.
        let mut value = value;
        crate::text::printable_json(&mut value);
        let report: Report = serde_json::from_value(value).map_err(|e| MergeError::Unreadable(e.to_string()))?;
        report.check()?;
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_join_and_refuse_overlaps() {
        assert_eq!(join_ranges(&[(5, 10)], &[(0, 5)]), Ok(vec![(0, 10)]));
        assert_eq!(join_ranges(&[(0, 3)], &[(5, 10)]), Ok(vec![(0, 3), (5, 10)]));
        assert_eq!(join_ranges(&[(0, 6)], &[(5, 10)]), Err(MergeError::Overlap(5, 6)));
    }
}
