//! `rpsdsl sweep`: one game over the values of its options, every value
//! played on the same deals with the verdict's players, and, for a target
//! question, the best value with its interval.
//!
//! Each value gets the verdict's self-play figures (the first seat's edge,
//! length, draws, lead changes) and its matchups (the strong player's edge
//! over random and over the weak one), each a 95% confidence sequence.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use super::analyze::Stops;
use super::stats::game_seed;
use super::verdict::{
    BATCH_DEALS, Config, Deal, Interval, Players, Scales, Side, Watch, either_way, games_per_deal, one, play_deal,
    players_for,
};

/// The most values a sweep plays.
pub const MOST_POINTS: usize = 64;

/// What a sweep may look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The first seat's edge closest to 0.
    Fair,
    /// The fewest decision points.
    Short,
    /// The fewest draws.
    Decisive,
    /// The strong player's largest edge over random.
    Skill,
}

/// One value (or combination of values) of the options swept.
#[derive(Clone, Debug, Serialize)]
pub struct Point {
    /// The settings, as `name=value`.
    pub label: String,
    /// The first seat's edge, the strong player in every seat.
    pub fair: Interval,
    /// Decision points per game, the strong player in every seat.
    pub length: Interval,
    /// The share of games drawn, the strong player in every seat.
    pub draws: Interval,
    /// Lead changes per game (games with score terms).
    pub lead_changes: Option<Interval>,
    /// The strong player's edge over random, seats rotated.
    pub skill: Interval,
    /// The strong player's edge over the weak one.
    pub strong_vs_weak: Interval,
    /// Both edges' intervals lie above 0.
    pub separated: bool,
    /// The games played with this value, and those an error stopped.
    pub stops: Stops,
}

/// The best value for a target.
#[derive(Clone, Debug, Serialize)]
pub struct Best {
    /// The question.
    pub target: Target,
    /// The best value's settings.
    pub label: String,
    /// Its figure for the target.
    pub interval: Interval,
    /// The other values its interval does not beat outright (they may be as good).
    pub not_clearly_better_than: Vec<String>,
}

/// The whole sweep.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The rules file.
    pub rules: String,
    /// The strong player.
    pub strong: String,
    /// The weak player.
    pub weak: String,
    /// Whether the players were chosen to fit the budget.
    pub players_chosen: bool,
    /// Why they were chosen, when they were.
    pub players_why: Option<String>,
    /// Deals played with every value.
    pub deals: u64,
    /// The budget, in seconds.
    pub budget_seconds: f64,
    /// Time spent.
    pub seconds: f64,
    /// Why the run stopped.
    pub stopped: String,
    /// One per value, in the order given.
    pub points: Vec<Point>,
    /// The best value, when a target was asked for.
    pub best: Option<Best>,
}

/// Plays every side (one per value) on the same deals until the time or
/// the deals run out; `progress` is told the deals played.
pub fn sweep(
    rules: &str,
    sides: &[Side<'_>],
    config: &Config,
    target: Option<Target>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Sweep, String> {
    let started = Instant::now();
    let Some(first) = sides.first() else {
        return Err("no values to sweep".into());
    };
    let seats = first.def.players();
    if seats < 2 {
        return Err("a sweep pits players against each other, and this game has one seat".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let all: Vec<&Side<'_>> = sides.iter().collect();
    let random = one("random")?;
    let lineup = players_for(&all, seats, (config, 0.8), &pool)?;
    let (strong, weak, chosen) = (&lineup.strong, &lineup.weak, lineup.chosen.clone());
    let per_deal =
        lineup.seconds_per_game * games_per_deal(seats, sides.len(), 1.0) / pool.current_num_threads() as f64;
    let horizon = ((config.time.as_secs_f64() / per_deal.max(1e-9)) as u64).clamp(16, config.most_deals.max(16));
    let mut watches: Vec<PointWatch> = sides.iter().map(|_| PointWatch::new(lineup.scales, horizon)).collect();
    let players = Players {
        strong,
        weak,
        random: &random,
    };
    let mut deal = 0;
    let mut per_batch = Duration::ZERO;
    let stopped = loop {
        if deal >= config.most_deals {
            break format!("it played the most deals asked for ({})", config.most_deals);
        }
        if config.halted() {
            break "it was asked to stop".to_string();
        }
        if deal > 0 && started.elapsed() + per_batch > config.time {
            break format!("the time ran out ({:.0} s)", config.time.as_secs_f64());
        }
        let to = (deal + BATCH_DEALS).min(config.most_deals);
        let batch_started = Instant::now();
        let played: Vec<Vec<Deal>> = pool.install(|| {
            (deal..to)
                .into_par_iter()
                .map(|d| {
                    let seed = game_seed(config.seed, d);
                    sides
                        .iter()
                        .map(|side| play_deal(side, seed, &players, true, true))
                        .collect()
                })
                .collect()
        });
        per_batch = batch_started.elapsed();
        for deals in &played {
            for (watch, deal) in watches.iter_mut().zip(deals) {
                watch.push(deal);
            }
        }
        deal = to;
        progress(deal);
    };
    let points: Vec<Point> = sides
        .iter()
        .zip(&watches)
        .map(|(side, w)| w.point(side.label.clone()))
        .collect();
    let best = target.map(|target| best(&points, target));
    Ok(Sweep {
        rules: rules.to_string(),
        strong: strong.to_text(),
        weak: weak.to_text(),
        players_chosen: chosen.is_some(),
        players_why: chosen,
        deals: deal,
        budget_seconds: config.time.as_secs_f64(),
        seconds: started.elapsed().as_secs_f64(),
        stopped,
        points,
        best,
    })
}

/// One value's watched figures.
struct PointWatch {
    fair: Watch,
    length: Watch,
    draws: Watch,
    lead_changes: Watch,
    skill: Watch,
    strong_vs_weak: Watch,
    stops: Stops,
}

impl PointWatch {
    fn new(scales: Scales, horizon: u64) -> PointWatch {
        PointWatch {
            fair: Watch::new(either_way(1.0), horizon),
            length: Watch::new((0.0, scales.length), horizon),
            draws: Watch::new((0.0, 1.0), horizon),
            lead_changes: Watch::new((0.0, scales.changes), horizon),
            skill: Watch::new(either_way(1.0), horizon),
            strong_vs_weak: Watch::new(either_way(1.0), horizon),
            stops: Stops::default(),
        }
    }

    fn push(&mut self, deal: &Deal) {
        self.stops.add(&deal.stops);
        if let Some(s) = &deal.self_play {
            self.fair.push(s.edge);
            self.length.push(s.length);
            self.draws.push(f64::from(u8::from(s.drawn)));
            if let Some(changes) = s.lead_changes {
                self.lead_changes.push(changes);
            }
        }
        if let Some((over_random, over_weak)) = deal.matchups {
            self.skill.push(over_random);
            self.strong_vs_weak.push(over_weak);
        }
    }

    fn point(&self, label: String) -> Point {
        let (skill, strong_vs_weak) = (self.skill.interval(), self.strong_vs_weak.interval());
        Point {
            label,
            fair: self.fair.interval(),
            length: self.length.interval(),
            draws: self.draws.interval(),
            lead_changes: (self.lead_changes.steps() > 0).then(|| self.lead_changes.interval()),
            skill,
            strong_vs_weak,
            separated: skill.low > 0.0 && strong_vs_weak.low > 0.0,
            stops: self.stops.clone(),
        }
    }
}

/// The value best for `target`, and the values it does not beat outright:
/// scored so that higher is better, as an interval `(low, estimate, high)`.
fn best(points: &[Point], target: Target) -> Best {
    let scored: Vec<(f64, f64, f64)> = points
        .iter()
        .map(|p| match target {
            // The size of the edge: the least and the most it may be.
            Target::Fair => {
                let i = p.fair;
                let most = i.low.abs().max(i.high.abs());
                let least = if i.low > 0.0 {
                    i.low
                } else if i.high < 0.0 {
                    -i.high
                } else {
                    0.0
                };
                (-most, -i.estimate.abs(), -least)
            }
            Target::Short => (-p.length.high, -p.length.estimate, -p.length.low),
            Target::Decisive => (-p.draws.high, -p.draws.estimate, -p.draws.low),
            Target::Skill => (p.skill.low, p.skill.estimate, p.skill.high),
        })
        .collect();
    let top = (0..points.len())
        .max_by(|&a, &b| scored[a].1.total_cmp(&scored[b].1))
        .expect("a sweep has at least one value");
    let not_clearly_better_than = (0..points.len())
        .filter(|&i| i != top && scored[i].2 >= scored[top].0)
        .map(|i| points[i].label.clone())
        .collect();
    let p = &points[top];
    Best {
        target,
        label: p.label.clone(),
        interval: match target {
            Target::Fair => p.fair,
            Target::Short => p.length,
            Target::Decisive => p.draws,
            Target::Skill => p.skill,
        },
        not_clearly_better_than,
    }
}

/// `name=1..5` or `name=a,b,c` as the name and its values, in order.
pub(crate) fn values_of(vary: &str) -> Result<(String, Vec<String>), String> {
    let Some((name, values)) = vary.split_once('=') else {
        return Err(format!(
            "`{vary}` is not NAME=VALUES, such as rounds=1..5 or rounds=10,20,40"
        ));
    };
    let name = name.trim().to_string();
    if let Some((low, high)) = values.split_once("..")
        && let (Ok(low), Ok(high)) = (low.trim().parse::<i64>(), high.trim().parse::<i64>())
    {
        if low > high || high - low >= MOST_POINTS as i64 {
            return Err(format!(
                "`{vary}`: a range runs from low to high, with at most {MOST_POINTS} values"
            ));
        }
        return Ok((name, (low..=high).map(|v| v.to_string()).collect()));
    }
    // Commas inside brackets belong to a list value: `schedule=[1,2],[2,4]`.
    let mut parts = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in values.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(values[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(values[start..].trim().to_string());
    if parts.iter().any(String::is_empty) {
        return Err(format!("`{vary}` has an empty value"));
    }
    Ok((name, parts))
}

/// Every `--vary` read, refused before a single combination is built when
/// an option is named twice or the combinations would be more than
/// [`MOST_POINTS`] (counted by multiplying, with no overflow: 14 ranges of
/// three values are refused at once, not after building 4.8 million points).
pub fn varied(vary: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut varied: Vec<(String, Vec<String>)> = vec![];
    let mut combinations: usize = 1;
    for one in vary {
        let (name, values) = values_of(one)?;
        if varied.iter().any(|(seen, _)| *seen == name) {
            return Err(format!(
                "`{name}` is varied twice; give all its values in one --vary, such as {name}=1,2,3"
            ));
        }
        combinations = combinations.saturating_mul(values.len());
        if combinations > MOST_POINTS {
            return Err(format!(
                "more than {MOST_POINTS} combinations (at `{one}`); vary fewer options or fewer values"
            ));
        }
        varied.push((name, values));
    }
    Ok(varied)
}

/// Every combination of the values `varied` names, the first option
/// changing slowest: each a list of `(name, value)`.
pub fn combinations(varied: &[(String, Vec<String>)]) -> Vec<Vec<(String, String)>> {
    let mut points: Vec<Vec<(String, String)>> = vec![vec![]];
    for (name, values) in varied {
        points = points
            .into_iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut p = p.clone();
                    p.push((name.clone(), v.clone()));
                    p
                })
            })
            .collect();
    }
    points
}

impl Sweep {
    /// The sweep in words: a row per value, then the best.
    pub fn to_text(&self) -> String {
        to_text(self)
    }
}

/// An edge, signed, or a count or share, not.
fn cell(i: &Interval, signed: bool) -> String {
    if signed {
        format!("{:+.3} ({:+.2} to {:+.2})", i.estimate, i.low, i.high)
    } else {
        format!("{:.3} ({:.2} to {:.2})", i.estimate, i.low, i.high)
    }
}

/// The sweep in words: a row per value, then the best.
fn to_text(s: &Sweep) -> String {
    let mut out = format!("Sweep of {}\n", s.rules);
    out.push_str(&format!(
        "players: strong {}, weak {}{}; {} deals with every value in {:.1} s of {:.0} ({})\n\n",
        s.strong,
        s.weak,
        s.players_why.as_ref().map_or(String::new(), |why| format!(" ({why})")),
        s.deals,
        s.seconds,
        s.budget_seconds,
        s.stopped
    ));
    let cautions: Vec<String> = s
        .points
        .iter()
        .filter_map(|p| p.stops.caution(&format!("`{}`", p.label)))
        .collect();
    for caution in &cautions {
        out.push_str(&format!("caution: {caution}\n"));
    }
    if !cautions.is_empty() {
        out.push('\n');
    }
    let width = s.points.iter().map(|p| p.label.len()).max().unwrap_or(5).max(5);
    let header = format!(
        "  {:<width$}  {:<26} {:<26} {:<26} {:<26}",
        "value", "fair: first seat's edge", "short: decision points", "decisive: draws", "skill: edge over random"
    );
    out.push_str(header.trim_end());
    out.push('\n');
    for p in &s.points {
        let mark = if p.separated { "" } else { "  (players not separated)" };
        let row = format!(
            "  {:<width$}  {:<26} {:<26} {:<26} {:<26}{mark}",
            p.label,
            cell(&p.fair, true),
            cell(&p.length, false),
            cell(&p.draws, false),
            cell(&p.skill, true)
        );
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out.push_str("  each: the mean per deal, and its 95% confidence sequence\n");
    if let Some(best) = &s.best {
        let (question, signed) = match best.target {
            Target::Fair => ("fair", true),
            Target::Short => ("short", false),
            Target::Decisive => ("decisive", false),
            Target::Skill => ("skill", true),
        };
        out.push_str(&format!(
            "\nbest for {question}: {} {}",
            best.label,
            cell(&best.interval, signed)
        ));
        if best.not_clearly_better_than.is_empty() {
            out.push_str(", better than every other value\n");
        } else {
            out.push_str(&format!(
                "; not clearly better than {} (their intervals overlap)\n",
                best.not_clearly_better_than.join(", ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vary(list: &[&str]) -> Result<Vec<(String, Vec<String>)>, String> {
        varied(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn too_many_combinations_are_refused_before_any_is_built() {
        // 3^14 = 4,782,969 combinations: counted, never built.
        let many: Vec<String> = (0..14).map(|i| format!("o{i}=1..3")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        let refused = vary(&many).unwrap_err();
        assert!(refused.contains("more than 64 combinations"), "{refused}");
        assert!(vary(&["a=1..8", "b=1..8"]).is_ok());
        assert!(vary(&["a=1..8", "b=1..9"]).is_err());
    }

    #[test]
    fn an_option_varied_twice_is_refused() {
        let refused = vary(&["size=1..3", "size=5,7"]).unwrap_err();
        assert!(refused.contains("`size` is varied twice"), "{refused}");
    }
}
