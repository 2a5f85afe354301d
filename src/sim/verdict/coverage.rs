//! Coverage: how often each effect of the rules fired in the strong
//! player's self-play, base and variant side by side: each way a game
//! ended, each trigger, each `say` line. A designer reads what a house rule
//! changed in play ("a Guard ends the round in 40% of games, not 25%"),
//! where the questions say only whether the game got fairer or shorter.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::engine::{EndReason, Game};
use crate::sim::analyze::effect_labels;
use crate::sim::run::end_label;

/// One game's effects, counted over its self-play deals.
pub(super) struct Tally {
    /// The effects `SelfPlay::effects` counts, named.
    labels: Vec<String>,
    /// Per effect: games it fired in, and times.
    fired: Vec<(u64, u64)>,
    /// Per way of ending met: its line (worked out once), and games that
    /// ended so.
    ends: Vec<(EndReason, String, u64)>,
    games: u64,
}

impl Tally {
    pub(super) fn new(def: &Game) -> Tally {
        let labels = effect_labels(def);
        Tally {
            fired: vec![(0, 0); labels.len()],
            labels,
            ends: vec![],
            games: 0,
        }
    }

    /// Counts one self-play game: the times each effect fired in it
    /// (`analyze::Played::effects`), and how it ended.
    pub(super) fn add(&mut self, def: &Game, effects: &[u32], end: Option<&EndReason>) {
        self.games += 1;
        for (fired, &times) in self.fired.iter_mut().zip(effects) {
            fired.0 += u64::from(times > 0);
            fired.1 += u64::from(times);
        }
        if let Some(end) = end {
            match self.ends.iter_mut().find(|(reason, _, _)| reason == end) {
                Some((_, _, games)) => *games += 1,
                None => self
                    .ends
                    .push((end.clone(), format!("ends: {}", end_label(def, end)), 1)),
            }
        }
    }

    /// Every effect counted, by name: games it fired in, and times (two
    /// ways of ending that read alike count together).
    fn by_name(&self) -> BTreeMap<&str, (u64, u64)> {
        let ends = self
            .ends
            .iter()
            .map(|(_, label, games)| (label.as_str(), (*games, *games)));
        let mut counts = BTreeMap::new();
        for (name, (games, times)) in self
            .labels
            .iter()
            .map(String::as_str)
            .zip(self.fired.iter().copied())
            .chain(ends)
        {
            let sum: &mut (u64, u64) = counts.entry(name).or_default();
            sum.0 += games;
            sum.1 += times;
        }
        counts
    }
}

/// How often one effect fired in one game's self-play.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Fired {
    /// The share of games it fired in.
    pub games: f64,
    /// Times per game.
    pub per_game: f64,
}

/// One effect, base and variant (`None` where that game has no such effect).
#[derive(Clone, Debug, Serialize)]
pub struct CoverageRow {
    /// `ends: win: ...`, `trigger NAME` or `say "..."`.
    pub effect: String,
    /// In the base game.
    pub base: Option<Fired>,
    /// In the variant.
    pub variant: Option<Fired>,
}

/// The rows of both games' tallies: the endings first, then the triggers
/// and `say` lines, each in name order.
pub(super) fn rows(tallies: &[Tally; 2]) -> Vec<CoverageRow> {
    let [base, variant] = [&tallies[0], &tallies[1]].map(|t| (t.by_name(), t.games));
    let fired = |(counts, games): &(BTreeMap<&str, (u64, u64)>, u64), name: &str| {
        let games = (*games).max(1) as f64;
        counts.get(name).map(|&(fired, times)| Fired {
            games: fired as f64 / games,
            per_game: times as f64 / games,
        })
    };
    let mut names: Vec<&str> = base.0.keys().chain(variant.0.keys()).copied().collect();
    names.sort_by_key(|name| (!name.starts_with("ends: "), *name));
    names.dedup();
    names
        .into_iter()
        .map(|name| CoverageRow {
            effect: name.to_string(),
            base: fired(&base, name),
            variant: fired(&variant, name),
        })
        .collect()
}

/// The section of the text report: every row, as shares of games and times
/// per game.
pub(super) fn text(rows: &[CoverageRow], deals: u64) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let width = rows.iter().map(|r| r.effect.chars().count()).max().unwrap_or(0);
    let mut out = format!(
        "\nCoverage (the strong player's self-play, {deals} deals: the share of games each effect fired in, and \
         times per game)\n"
    );
    let show = |f: &Option<Fired>| {
        f.map_or_else(
            || "-".to_string(),
            |f| format!("{:>4.0}% {:>6.2}", 100.0 * f.games, f.per_game),
        )
    };
    for row in rows {
        out.push_str(&format!(
            "  {:<width$}  base {:>12}   variant {:>12}\n",
            row.effect,
            show(&row.base),
            show(&row.variant)
        ));
    }
    out
}
