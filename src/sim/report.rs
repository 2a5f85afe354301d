//! The simulation report: sufficient statistics only (counts, integer sums,
//! exact histograms), so shards and chunks merge exactly, in any order.
//!
//! Every figure shown (rates, intervals, means) is derived from these
//! integers when the report is written, by [`Report::summary`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::stats::{Histogram, Moments, Rate};

/// The `format` field of every JSON report this version writes.
pub const FORMAT: &str = "rpsdsl-simulate/1";

/// What a run plays: the same plan gives the same games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The rules file as the user named it (shown, not compared on merge).
    pub rules: String,
    pub seed: u64,
    /// The agent spec, e.g. `random` or `random,random`.
    pub agents: String,
    /// Options that differ from their defaults, as `name = value`.
    pub options: Vec<(String, String)>,
    /// Games in the whole run, across every shard.
    pub games: u64,
    /// The game indices this run plays, half-open.
    pub range: (u64, u64),
}

/// Results of a set of games. Build one with [`simulate`](super::simulate);
/// combine shards with [`Report::merge`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub format: String,
    pub game: String,
    pub rules: String,
    pub seed: u64,
    pub agents: String,
    pub options: Vec<(String, String)>,
    /// Games in the whole run, across every shard.
    pub planned: u64,
    /// The game indices included: sorted, disjoint, half-open ranges.
    pub ranges: Vec<(u64, u64)>,
    /// Games included.
    pub games: u64,
    pub seats: Vec<String>,
    /// Games won, per seat.
    pub wins: Vec<u64>,
    pub draws: u64,
    /// Games stopped by an error, by diagnostic code (`game-too-long`, ...).
    pub stopped: BTreeMap<String, Stop>,
    /// Games by how they ended (`trigger all_crowns`, `most score`, ...).
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
}

/// Games stopped with one diagnostic code, and the first of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stop {
    pub games: u64,
    /// The lowest game index that stopped this way, its seed and message.
    pub first_game: u64,
    pub first_seed: u64,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Together {
    pub decision: String,
    /// Decision points where two or more seats chose at the same time.
    pub rounds: u64,
    /// Of those, the ones where every seat made the same choice (a tie in a throw).
    pub alike: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scores {
    pub terms: Vec<String>,
    /// Games that reached the result and were scored.
    pub scored: u64,
    /// Final total per seat.
    pub totals: Vec<Moments>,
    /// The leader's total minus the runner-up's.
    pub margin: Moments,
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
    pub fn word(self) -> &'static str {
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Coverage {
    pub part: Part,
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
    /// "trigger all_crowns", "action \"claim the face-up token\"".
    pub fn title(&self) -> String {
        match self.part {
            Part::Action | Part::Anytime => format!("{} \"{}\"", self.part.word(), self.name),
            _ => format!("{} {}", self.part.word(), self.name),
        }
    }
}

/// Why two reports cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Reports of different games, seeds, agents, options or run sizes.
    #[error("the reports are not shards of one run: {0}")]
    Different(String),
    /// Two shards that include the same game.
    #[error("games {0}..{1} are in more than one report")]
    Overlap(u64, u64),
    /// A report written by another version.
    #[error("unknown report format `{0}` (expected `{FORMAT}`)")]
    Format(String),
}

impl Report {
    /// An empty report for `plan` with the given rows; `merge` adds games.
    pub fn empty(
        game: &str,
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
        }
    }

    /// Adds `other`'s games to this report. Exact: merging shards in any
    /// order gives the report of one run over all their games.
    pub fn merge(&mut self, other: &Report) -> Result<(), MergeError> {
        self.same_run(other)?;
        self.ranges = join_ranges(&self.ranges, &other.ranges)?;
        self.games += other.games;
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
        self.draws += other.draws;
        for (code, stop) in &other.stopped {
            match self.stopped.get_mut(code) {
                Some(mine) => {
                    mine.games += stop.games;
                    if stop.first_game < mine.first_game {
                        mine.first_game = stop.first_game;
                        mine.first_seed = stop.first_seed;
                        mine.message = stop.message.clone();
                    }
                }
                None => {
                    self.stopped.insert(code.clone(), stop.clone());
                }
            }
        }
        for (end, count) in &other.ends {
            *self.ends.entry(end.clone()).or_insert(0) += count;
        }
        self.decision_points.merge(&other.decision_points);
        self.decisions.merge(&other.decisions);
        self.offered += other.offered;
        self.real_choices += other.real_choices;
        for (t, o) in self.together.iter_mut().zip(&other.together) {
            t.rounds += o.rounds;
            t.alike += o.alike;
        }
        if let (Some(s), Some(o)) = (&mut self.scores, &other.scores) {
            s.scored += o.scored;
            for (t, ot) in s.totals.iter_mut().zip(&o.totals) {
                t.merge(ot);
            }
            s.margin.merge(&o.margin);
        }
        for (c, o) in self.coverage.iter_mut().zip(&other.coverage) {
            c.games += o.games;
            c.times += o.times;
            if let (Some(y), Some(oy)) = (&mut c.yes, o.yes) {
                *y += oy;
            }
            if let (Some(a), Some(oa)) = (&mut c.available, o.available) {
                *a += oa;
            }
        }
        Ok(())
    }

    fn same_run(&self, other: &Report) -> Result<(), MergeError> {
        for format in [&self.format, &other.format] {
            if format != FORMAT {
                return Err(MergeError::Format(format.clone()));
            }
        }
        let differ = |what: &str, a: String, b: String| -> Result<(), MergeError> {
            if a == b {
                Ok(())
            } else {
                Err(MergeError::Different(format!("{what} `{a}` vs `{b}`")))
            }
        };
        differ("game", self.game.clone(), other.game.clone())?;
        differ("seed", self.seed.to_string(), other.seed.to_string())?;
        differ("agents", self.agents.clone(), other.agents.clone())?;
        differ("options", format!("{:?}", self.options), format!("{:?}", other.options))?;
        differ("games in the run", self.planned.to_string(), other.planned.to_string())?;
        differ("seats", self.seats.join(","), other.seats.join(","))?;
        let shape = |r: &Report| {
            let mut parts: Vec<String> = r.coverage.iter().map(Coverage::title).collect();
            parts.extend(r.together.iter().map(|t| t.decision.clone()));
            if let Some(s) = &r.scores {
                parts.extend(s.terms.iter().cloned());
            }
            parts.join(", ")
        };
        differ("rules", shape(self), shape(other))
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
        let gap = match (
            rates.iter().copied().reduce(f64::max),
            rates.iter().copied().reduce(f64::min),
        ) {
            (Some(hi), Some(lo)) => hi - lo,
            _ => 0.0,
        };
        let others = rates.len().saturating_sub(1).max(1) as f64;
        let first_player_advantage = match rates.split_first() {
            Some((first, rest)) => first - rest.iter().sum::<f64>() / others,
            None => 0.0,
        };
        let stopped: u64 = self.stopped.values().map(|s| s.games).sum();
        let decisions_total = self.decisions.moments().sum as u64;
        Summary {
            win_rates,
            draw_rate: Rate::new(self.draws, n),
            stopped_rate: Rate::new(stopped, n),
            balance: 1.0 - gap,
            first_player_advantage,
            decision_points: Length::of(&self.decision_points),
            decisions: Length::of(&self.decisions),
            branching_factor: ratio(self.offered, decisions_total),
            real_choice_share: ratio(self.real_choices, decisions_total),
            scores: self.scores.as_ref().map(|s| ScoreSummary {
                totals: s.totals.iter().map(Spread::of).collect(),
                margin: Spread::of(&s.margin),
            }),
            never_fired: self.never_fired(),
        }
    }

    /// Parts of the rules that never fired, as "trigger all_crowns".
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

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
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
    pub win_rates: Vec<Rate>,
    pub draw_rate: Rate,
    pub stopped_rate: Rate,
    pub balance: f64,
    pub first_player_advantage: f64,
    pub decision_points: Length,
    pub decisions: Length,
    pub branching_factor: f64,
    pub real_choice_share: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scores: Option<ScoreSummary>,
    pub never_fired: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Length {
    pub mean: f64,
    pub sd: f64,
    pub median: u64,
    pub p10: u64,
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

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub mean: f64,
    pub sd: f64,
}

impl Spread {
    fn of(m: &Moments) -> Spread {
        Spread {
            mean: if m.count == 0 { 0.0 } else { m.mean() },
            sd: m.sd(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreSummary {
    pub totals: Vec<Spread>,
    pub margin: Spread,
}

/// A report as written with `--json`: the counts, and the figures derived
/// from them (ignored when the file is read back).
#[derive(Serialize)]
pub struct ReportJson<'a> {
    #[serde(flatten)]
    pub report: &'a Report,
    pub summary: Summary,
}

impl Report {
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(&ReportJson {
            report: self,
            summary: self.summary(),
        })
        .expect("a report serialises");
        text.push('\n');
        text
    }

    /// Reads a report written by [`Report::to_json`].
    pub fn from_json(text: &str) -> Result<Report, String> {
        let report: Report = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if report.format != FORMAT {
            return Err(MergeError::Format(report.format).to_string());
        }
        // Every name in a report read from a file is made printable before
        // it can reach a terminal.
        let mut value = serde_json::to_value(&report).map_err(|e| e.to_string())?;
        crate::text::printable_json(&mut value);
        serde_json::from_value(value).map_err(|e| e.to_string())
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
