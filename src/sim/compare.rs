//! Two reports side by side: base and variant, played on the same seeds
//! ("common random numbers"), with the differences that are statistically
//! significant at 95% marked, and a summary in plain words.
//!
//! Rates are compared with the pooled two-proportion z-test and means with
//! Welch's t-test. Both treat the two runs as independent samples; because
//! the runs share seeds their differences are less noisy than that, so the
//! tests are conservative: a marked difference is real.

use serde::Serialize;

use super::render::{number, percent, ratio, setup_line, table};
use super::report::{Report, ReportJson, Summary};
use super::stats::{Moments, Test, two_proportion, welch};
use crate::ir::GameDef;

/// How a row's figures are compared and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Measure {
    /// A share of games or rounds, tested with the two-proportion z-test.
    Rate,
    /// A mean over games, tested with Welch's t-test.
    Mean,
    /// A derived figure with no test.
    Figure,
    /// A derived share with no test, shown as a percentage.
    Share,
    /// A whole number with no test (a median).
    Whole,
}

/// One line of the comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The heading it is shown under ("Outcomes", "Length", "Decisions", ...).
    pub section: &'static str,
    /// What it measures: "Blue win rate", "balance", a rule's coverage title.
    pub metric: String,
    /// How it is compared and shown.
    pub measure: Measure,
    /// `None` where the metric does not exist on that side (a rule only the variant has).
    pub base: Option<f64>,
    /// The variant's figure; `None` where the metric does not exist on that side.
    pub variant: Option<f64>,
    /// How many games (or rounds) the base figure is over; `None` where the
    /// metric does not exist. A figure over 0 is `None` and shown as n/a.
    pub base_n: Option<u64>,
    /// How many games (or rounds) the variant figure is over.
    pub variant_n: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) test: Option<Test>,
}

impl Row {
    /// Whether the difference is significant at 95% (never, for a row with no test).
    pub fn significant(&self) -> bool {
        self.test.is_some_and(|t| t.significant)
    }
}

/// A comparison of two runs on the same seeds.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The base run.
    pub base: Report,
    /// The variant run, on the same seeds.
    pub variant: Report,
    /// The figures side by side, grouped by section in display order.
    pub rows: Vec<Row>,
    /// The comparison in plain words, most important first.
    pub summary: Vec<String>,
}

/// Counts of something out of a total, on one side.
type Count = Option<(u64, u64)>;

fn rate_row(section: &'static str, metric: String, base: Count, variant: Count) -> Row {
    let test = match (base, variant) {
        (Some((x1, n1)), Some((x2, n2))) => Some(two_proportion(x1, n1, x2, n2)),
        _ => None,
    };
    Row {
        section,
        metric,
        measure: Measure::Rate,
        base: base.filter(|&(_, n)| n > 0).map(|(x, n)| ratio(x, n)),
        variant: variant.filter(|&(_, n)| n > 0).map(|(x, n)| ratio(x, n)),
        base_n: base.map(|(_, n)| n),
        variant_n: variant.map(|(_, n)| n),
        test,
    }
}

fn mean_row(section: &'static str, metric: String, base: Option<&Moments>, variant: Option<&Moments>) -> Row {
    Row {
        section,
        metric,
        measure: Measure::Mean,
        base: base.filter(|m| m.count > 0).map(Moments::mean),
        variant: variant.filter(|m| m.count > 0).map(Moments::mean),
        base_n: base.map(|m| m.count),
        variant_n: variant.map(|m| m.count),
        test: match (base, variant) {
            (Some(a), Some(b)) => Some(welch(a, b)),
            _ => None,
        },
    }
}

/// A figure over `n` games or decisions on each side: `None` (n/a) when there are none.
type Figure = (Option<f64>, u64);

fn figure_row(section: &'static str, metric: &str, base: Figure, variant: Figure) -> Row {
    shown_as(Measure::Figure, section, metric, base, variant)
}

fn shown_as(measure: Measure, section: &'static str, metric: &str, base: Figure, variant: Figure) -> Row {
    Row {
        section,
        metric: metric.into(),
        measure,
        base: base.0,
        variant: variant.0,
        base_n: Some(base.1),
        variant_n: Some(variant.1),
        test: None,
    }
}

/// Why two games cannot be compared, or `None` when they can: they must
/// have the same seats (names, in order) and decide their results the same
/// way (the same `result` keys, in order; none for a game that ends only by
/// `win` or `draw` in its flow). A house rule or a variant keeps both.
pub fn unrelated(base: &GameDef, variant: &GameDef) -> Option<String> {
    if base.seats != variant.seats {
        return Some(format!(
            "the seats differ: {} in the base, {} in the variant",
            base.seats.join(", "),
            variant.seats.join(", ")
        ));
    }
    let keys = |d: &GameDef| -> Vec<String> {
        d.rank_keys
            .iter()
            .map(|k| format!("{} {}", if k.most { "most" } else { "fewest" }, k.label))
            .collect()
    };
    let (b, v) = (keys(base), keys(variant));
    if b != v {
        let show = |k: &[String]| {
            if k.is_empty() {
                "no result keys (it ends by `win` or `draw` in the flow)".to_string()
            } else {
                k.join(", ")
            }
        };
        return Some(format!(
            "the outcomes differ: the base ranks by {}, the variant by {}",
            show(&b),
            show(&v)
        ));
    }
    None
}

/// Names from both sides: the base's order, then the variant's new ones.
fn union<'a>(a: impl IntoIterator<Item = &'a str>, b: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = a.into_iter().collect();
    for name in b {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

impl Comparison {
    /// Compares two runs: every figure of either side, tested where a test applies, and the summary.
    pub fn new(base: Report, variant: Report) -> Comparison {
        let (bs, vs) = (base.summary(), variant.summary());
        let mut rows = outcome_rows(&base, &variant, &bs, &vs);
        rows.extend(length_rows(&base, &variant, &bs, &vs));
        rows.extend(score_rows(&base, &variant));
        rows.extend(decision_rows(&base, &variant, &bs, &vs));
        rows.extend(ending_and_coverage_rows(&base, &variant));
        let summary = summarise(&base, &variant, &rows);
        Comparison {
            base,
            variant,
            rows,
            summary,
        }
    }

    /// The text form: a header, a table per section (`*` marking significant differences), and the summary.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "Compare {} (base) with {} (variant)\n",
            self.base.rules, self.variant.rules
        );
        out.push_str(&format!(
            "{} games each on the same seeds; {}\n",
            self.base.games,
            setup_line(&self.base)
        ));
        if self.variant.options != self.base.options {
            out.push_str(&format!("variant: {}\n", setup_line(&self.variant)));
        }
        out.push_str(&format!(
            "* marks a difference significant at 95% (rates: two-proportion z-test; means: Welch's t-test).\n\
             Every figure is defined in {}.\n",
            super::render::METRICS_DOC
        ));
        let mut section = "";
        let mut rows: Vec<Vec<String>> = vec![];
        let flush = |out: &mut String, section: &str, rows: &mut Vec<Vec<String>>| {
            if !rows.is_empty() {
                out.push_str(&format!("\n{section}\n"));
                out.push_str(&table(rows, "  "));
                rows.clear();
            }
        };
        for row in &self.rows {
            if row.section != section {
                flush(&mut out, section, &mut rows);
                section = row.section;
                rows.push(vec![String::new(), "base".into(), "variant".into(), "change".into()]);
            }
            rows.push(vec![
                row.metric.clone(),
                cell(row.measure, row.base, row.base_n),
                cell(row.measure, row.variant, row.variant_n),
                format!("{}{}", change(row), if row.significant() { " *" } else { "  " }),
            ]);
        }
        flush(&mut out, section, &mut rows);
        out.push_str("\nSummary\n");
        for line in &self.summary {
            out.push_str(&format!("  {line}\n"));
        }
        out
    }

    pub(crate) fn to_json(&self) -> String {
        #[derive(Serialize)]
        struct Json<'a> {
            base: ReportJson<'a>,
            variant: ReportJson<'a>,
            rows: &'a [Row],
            summary: &'a [String],
        }
        let mut text = serde_json::to_string_pretty(&Json {
            base: ReportJson {
                report: &self.base,
                summary: self.base.summary(),
                seal: self.base.seal(),
            },
            variant: ReportJson {
                report: &self.variant,
                summary: self.variant.summary(),
                seal: self.variant.seal(),
            },
            rows: &self.rows,
            summary: &self.summary,
        })
        .expect("a comparison serialises");
        text.push('\n');
        text
    }
}

/// End reasons, the most frequent first.
fn by_count(r: &Report) -> Vec<&str> {
    let mut ends: Vec<(&String, &u64)> = r.ends.iter().collect();
    ends.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    ends.into_iter().map(|(e, _)| e.as_str()).collect()
}

/// A figure in the table: "-" where the metric does not exist on that
/// side, "n/a" where it is over no games, and every mean with its n.
fn cell(measure: Measure, value: Option<f64>, n: Option<u64>) -> String {
    match (value, n) {
        (None, None) => "-".into(),
        (None, Some(_)) => "n/a".into(),
        (Some(_), Some(n)) if measure == Measure::Mean => format!("{} (n={n})", show(measure, value)),
        _ => show(measure, value),
    }
}

fn show(measure: Measure, value: Option<f64>) -> String {
    match (measure, value) {
        (_, None) => "-".into(),
        (Measure::Rate | Measure::Share, Some(v)) => percent(v),
        (Measure::Whole, Some(v)) => format!("{v:.0}"),
        (Measure::Figure, Some(v)) => format!("{v:.3}"),
        (Measure::Mean, Some(v)) => number(v),
    }
}

fn change(row: &Row) -> String {
    let (Some(a), Some(b)) = (row.base, row.variant) else {
        return match (row.base_n, row.variant_n) {
            (None, Some(_)) => "new".into(),
            (Some(_), None) => "gone".into(),
            _ => "n/a".into(),
        };
    };
    match row.measure {
        Measure::Rate | Measure::Share => format!("{:+.1} pts", 100.0 * (b - a)),
        Measure::Mean if a != 0.0 => format!("{} ({:+.1}%)", signed(b - a), 100.0 * (b - a) / a.abs()),
        Measure::Whole => format!("{:+.0}", b - a),
        Measure::Figure => format!("{:+.3}", b - a),
        Measure::Mean => signed(b - a),
    }
}

fn signed(x: f64) -> String {
    let text = number(x);
    if x >= 0.0 { format!("+{text}") } else { text }
}

fn find<'a>(rows: &'a [Row], section: &str, metric: &str) -> Option<&'a Row> {
    rows.iter().find(|r| r.section == section && r.metric == metric)
}

fn verdict(row: &Row) -> &'static str {
    if row.significant() {
        "significant"
    } else {
        "not significant"
    }
}

/// The index of the seat called `name` in `r`, if it has one.
fn seat_of(r: &Report, name: &str) -> Option<usize> {
    r.seats.iter().position(|s| s == name)
}

/// "Outcomes": each seat's and each agent's win rate, draws, stops, balance and the first player's advantage.
fn outcome_rows(base: &Report, variant: &Report, bs: &Summary, vs: &Summary) -> Vec<Row> {
    let mut rows = vec![];
    for name in union(
        base.seats.iter().map(String::as_str),
        variant.seats.iter().map(String::as_str),
    ) {
        rows.push(rate_row(
            "Outcomes",
            format!("{name} win rate"),
            seat_of(base, name).map(|s| (base.wins[s], base.games)),
            seat_of(variant, name).map(|s| (variant.wins[s], variant.games)),
        ));
    }
    rows.push(rate_row(
        "Outcomes",
        "draw rate".into(),
        Some((base.draws, base.games)),
        Some((variant.draws, variant.games)),
    ));
    rows.push(rate_row(
        "Outcomes",
        "stopped by a limit or error".into(),
        Some((bs.stopped_rate.count, base.games)),
        Some((vs.stopped_rate.count, variant.games)),
    ));
    rows.push(figure_row(
        "Outcomes",
        "balance",
        (bs.balance, bs.finished),
        (vs.balance, vs.finished),
    ));
    rows.push(figure_row(
        "Outcomes",
        "first-player advantage (pts)",
        (bs.first_player_advantage.map(|a| 100.0 * a), bs.finished),
        (vs.first_player_advantage.map(|a| 100.0 * a), vs.finished),
    ));
    let agent_names = |r: &Report| -> Vec<String> {
        r.by_agent.as_ref().map_or_else(Vec::new, |b| {
            b.agents
                .iter()
                .enumerate()
                .map(|(a, name)| format!("{name} (agent {})", a + 1))
                .collect()
        })
    };
    let (ba, va) = (agent_names(base), agent_names(variant));
    for name in union(ba.iter().map(String::as_str), va.iter().map(String::as_str)) {
        let wins = |r: &Report, names: &[String]| {
            let a = names.iter().position(|n| n == name)?;
            let b = r.by_agent.as_ref()?;
            Some((b.wins[a].iter().sum(), r.games))
        };
        rows.push(rate_row(
            "Outcomes",
            format!("{name} win rate"),
            wins(base, &ba),
            wins(variant, &va),
        ));
    }
    rows
}

/// "Length": decision points and decisions per game.
fn length_rows(base: &Report, variant: &Report, bs: &Summary, vs: &Summary) -> Vec<Row> {
    vec![
        mean_row(
            "Length",
            "decision points per game, mean".into(),
            Some(&base.decision_points.moments()),
            Some(&variant.decision_points.moments()),
        ),
        mean_row(
            "Length",
            "decisions per game, mean".into(),
            Some(&base.decisions.moments()),
            Some(&variant.decisions.moments()),
        ),
        shown_as(
            Measure::Whole,
            "Length",
            "decisions per game, median",
            (Some(bs.decisions.median as f64), base.games),
            (Some(vs.decisions.median as f64), variant.games),
        ),
    ]
}

/// "Scores", when either side scores: how many games reached scoring, each seat's final score and the margin.
fn score_rows(base: &Report, variant: &Report) -> Vec<Row> {
    let mut rows = vec![];
    if base.scores.is_some() || variant.scores.is_some() {
        // The means below are over the games that reached scoring only;
        // how many did is part of what a rule changes.
        let scored = |r: &Report| r.scores.as_ref().map(|s| (s.scored, r.games));
        rows.push(rate_row(
            "Scores",
            "games that reached scoring".into(),
            scored(base),
            scored(variant),
        ));
        let before = |r: &Report| {
            r.scores
                .as_ref()
                .map(|s| (r.finished().saturating_sub(s.scored), r.games))
        };
        rows.push(rate_row(
            "Scores",
            "games that ended before scoring".into(),
            before(base),
            before(variant),
        ));
        let total = |r: &Report, name: &str| {
            let s = seat_of(r, name)?;
            r.scores.as_ref().map(|sc| sc.totals[s])
        };
        for name in union(
            base.seats.iter().map(String::as_str),
            variant.seats.iter().map(String::as_str),
        ) {
            rows.push(mean_row(
                "Scores",
                format!("{name} final score, mean"),
                total(base, name).as_ref(),
                total(variant, name).as_ref(),
            ));
        }
        rows.push(mean_row(
            "Scores",
            "margin, first to second, mean".into(),
            base.scores.as_ref().map(|s| &s.margin),
            variant.scores.as_ref().map(|s| &s.margin),
        ));
    }
    rows
}

/// "Decisions": the branching factor, real choices, and how often simultaneous choices are all alike.
fn decision_rows(base: &Report, variant: &Report, bs: &Summary, vs: &Summary) -> Vec<Row> {
    let mut rows = vec![];
    let decisions = |r: &Report| r.decisions.moments().sum as u64;
    rows.push(figure_row(
        "Decisions",
        "branching factor",
        (bs.branching_factor, decisions(base)),
        (vs.branching_factor, decisions(variant)),
    ));
    rows.push(shown_as(
        Measure::Share,
        "Decisions",
        "share with more than one choice",
        (bs.real_choice_share, decisions(base)),
        (vs.real_choice_share, decisions(variant)),
    ));
    let alike = |r: &Report, name: &str| {
        r.together
            .iter()
            .find(|t| t.decision == name && t.rounds > 0)
            .map(|t| (t.alike, t.rounds))
    };
    for name in union(
        base.together
            .iter()
            .filter(|t| t.rounds > 0)
            .map(|t| t.decision.as_str()),
        variant
            .together
            .iter()
            .filter(|t| t.rounds > 0)
            .map(|t| t.decision.as_str()),
    ) {
        rows.push(rate_row(
            "Decisions",
            format!("{name}: all alike"),
            alike(base, name),
            alike(variant, name),
        ));
    }
    rows
}

/// "How games end" and "Rule coverage": each ending's rate and each part of the rules' share of games.
fn ending_and_coverage_rows(base: &Report, variant: &Report) -> Vec<Row> {
    let mut rows = vec![];
    for end in union(by_count(base), by_count(variant)) {
        let count = |r: &Report| Some((r.ends.get(end).copied().unwrap_or(0), r.games));
        rows.push(rate_row("How games end", end.to_string(), count(base), count(variant)));
    }

    let titles = |r: &Report| r.coverage.iter().map(|c| c.title()).collect::<Vec<_>>();
    let (bt, vt) = (titles(base), titles(variant));
    for title in union(bt.iter().map(String::as_str), vt.iter().map(String::as_str)) {
        let fired = |r: &Report, titles: &[String]| {
            titles
                .iter()
                .position(|t| t == title)
                .map(|i| (r.coverage[i].games, r.games))
        };
        rows.push(rate_row(
            "Rule coverage (share of games)",
            title.to_string(),
            fired(base, &bt),
            fired(variant, &vt),
        ));
    }
    rows
}

/// The comparison in plain words, most important first.
fn summarise(base: &Report, variant: &Report, rows: &[Row]) -> Vec<String> {
    let mut lines = outcome_lines(rows);
    lines.extend(length_and_score_lines(rows));
    lines.extend(ending_and_coverage_lines(rows));
    if !rows.iter().any(Row::significant) {
        lines.push("No difference is significant at 95%.".into());
    }
    if base.games != variant.games {
        lines.push(format!(
            "Warning: the runs have different sizes ({} and {} games).",
            base.games, variant.games
        ));
    }
    lines
}

/// Who wins, the balance, draws and stops, in words.
fn outcome_lines(rows: &[Row]) -> Vec<String> {
    let mut lines = vec![];
    let wins: Vec<&Row> = rows
        .iter()
        .filter(|r| r.section == "Outcomes" && r.metric.ends_with(" win rate"))
        .collect();
    let changed: Vec<String> = wins
        .iter()
        .filter(|r| r.significant())
        .map(|r| {
            format!(
                "{} {} -> {} (significant)",
                r.metric,
                show(r.measure, r.base),
                show(r.measure, r.variant)
            )
        })
        .collect();
    if changed.is_empty() {
        let all: Vec<String> = wins
            .iter()
            .map(|r| {
                format!(
                    "{} {} -> {}",
                    r.metric,
                    show(r.measure, r.base),
                    show(r.measure, r.variant)
                )
            })
            .collect();
        lines.push(format!("No significant change in who wins: {}.", all.join(", ")));
    } else {
        lines.push(format!("{}.", capitalise(&changed.join("; "))));
    }
    if let Some(b) = find(rows, "Outcomes", "balance") {
        let figure = |v: Option<f64>| v.map_or_else(|| "n/a (no game finished)".into(), |v| format!("{v:.3}"));
        lines.push(format!(
            "Balance {} -> {} (1 is perfectly even).",
            figure(b.base),
            figure(b.variant)
        ));
    }
    for metric in ["draw rate", "stopped by a limit or error"] {
        if let Some(r) = find(rows, "Outcomes", metric)
            && (r.significant() || (metric != "draw rate" && r.variant.unwrap_or(0.0) > 0.0))
        {
            let name = if metric == "draw rate" {
                "Draw rate"
            } else {
                "Games stopped"
            };
            lines.push(format!(
                "{name} {} -> {} ({}).",
                show(r.measure, r.base),
                show(r.measure, r.variant),
                verdict(r)
            ));
        }
    }
    lines
}

/// Whether games got shorter or longer, and what changed in the scores.
fn length_and_score_lines(rows: &[Row]) -> Vec<String> {
    let mut lines = vec![];
    if let Some(r) = find(rows, "Length", "decisions per game, mean")
        && let (Some(a), Some(b)) = (r.base, r.variant)
    {
        let pct = if a == 0.0 { 0.0 } else { 100.0 * (b - a) / a };
        if r.significant() {
            let word = if b < a { "shorter" } else { "longer" };
            lines.push(format!(
                "Games are {:.0}% {word} ({} -> {} decisions on average; significant).",
                pct.abs(),
                number(a),
                number(b)
            ));
        } else {
            lines.push(format!(
                "Game length did not change significantly ({} -> {} decisions on average).",
                number(a),
                number(b)
            ));
        }
    }
    let reached = find(rows, "Scores", "games that reached scoring");
    if let Some(r) = reached
        && r.significant()
    {
        lines.push(format!(
            "Games that reach scoring {} -> {} (significant): score means are over different games.",
            show(r.measure, r.base),
            show(r.measure, r.variant)
        ));
    }
    for r in rows
        .iter()
        .filter(|r| r.section == "Scores" && r.measure == Measure::Mean && r.significant())
    {
        let (a, b) = (r.base.unwrap_or(0.0), r.variant.unwrap_or(0.0));
        let what = r.metric.trim_end_matches(", mean");
        let pct = if a == 0.0 {
            String::new()
        } else {
            format!(", {:+.0}%", 100.0 * (b - a) / a.abs())
        };
        let over = match (r.base_n.unwrap_or(0), r.variant_n.unwrap_or(0)) {
            (a, b) if a == b => format!("the {a} games that reached scoring in each"),
            (a, b) => format!("the {a} and {b} games that reached scoring"),
        };
        let mut line = format!(
            "{} {} -> {} on average ({}{pct}; significant), over {over}",
            capitalise(what),
            number(a),
            number(b),
            if b > a { "up" } else { "down" },
        );
        if reached.is_some_and(Row::significant) {
            line.push_str(": this mixes the rule's effect with which games got scored");
        }
        line.push('.');
        lines.push(line);
    }
    lines
}

/// Endings whose rate changed, and parts of the rules that fire more, less,
/// newly or no more.
fn ending_and_coverage_lines(rows: &[Row]) -> Vec<String> {
    let mut lines = vec![];
    for r in rows.iter().filter(|r| r.section == "How games end" && r.significant()) {
        lines.push(format!(
            "Games that end by \"{}\": {} -> {} (significant).",
            r.metric,
            show(r.measure, r.base),
            show(r.measure, r.variant)
        ));
    }
    let mut shifts: Vec<&Row> = rows
        .iter()
        .filter(|r| r.section.starts_with("Rule coverage") && r.significant())
        .filter(|r| r.base.unwrap_or(0.0) > 0.0 && r.variant.unwrap_or(0.0) > 0.0)
        .collect();
    shifts.sort_by(|a, b| {
        let gap = |r: &Row| (r.variant.unwrap_or(0.0) - r.base.unwrap_or(0.0)).abs();
        gap(b).total_cmp(&gap(a))
    });
    for r in shifts.iter().take(5) {
        lines.push(format!(
            "The {} fires in {} -> {} of games (significant).",
            r.metric,
            show(r.measure, r.base),
            show(r.measure, r.variant)
        ));
    }
    for r in rows.iter().filter(|r| r.section.starts_with("Rule coverage")) {
        match (r.base, r.variant) {
            (None, Some(v)) if v > 0.0 => {
                lines.push(format!("The new {} fired in {} of games.", r.metric, percent(v)));
            }
            (None, Some(_)) => lines.push(format!("The new {} never fired: check it.", r.metric)),
            (Some(b), Some(v)) if b > 0.0 && v == 0.0 => lines.push(format!(
                "The {} never fires in the variant (it did in {} of base games).",
                r.metric,
                percent(b)
            )),
            (Some(b), Some(v)) if b == 0.0 && v > 0.0 => {
                lines.push(format!("The {} now fires, in {} of games.", r.metric, percent(v)))
            }
            _ => {}
        }
    }
    lines
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::report::{Plan, Scores};

    /// A report of `games` games of two seats, all won by the first seat,
    /// of which `scored` reached scoring with a total of `points` each.
    fn report(games: u64, scored: u64, points: i64) -> Report {
        let plan = Plan {
            rules: "x.rules".into(),
            seed: 1,
            agents: "random".into(),
            options: vec![],
            games,
            range: (0, games),
            rotate_seats: true,
        };
        let mut totals = vec![Moments::default(); 2];
        let mut margin = Moments::default();
        for i in 0..scored {
            // A little spread, so the t-test has variance to work with.
            totals[0].add(points + (i % 3) as i64);
            totals[1].add(0);
            margin.add(points + (i % 3) as i64);
        }
        let scores = Scores {
            terms: vec!["points".into()],
            scored,
            totals,
            margin,
        };
        let mut r = Report::empty(
            "G",
            "h".into(),
            vec!["A".into(), "B".into()],
            &plan,
            vec![],
            Some(scores),
            vec![],
        );
        r.games = games;
        r.wins = vec![games, 0];
        r.ranges = vec![(0, games)];
        r
    }

    #[test]
    fn a_score_change_over_different_games_says_so() {
        // The variant scores fewer games (a trigger ends most of them first)
        // and higher totals in those it does.
        let comparison = Comparison::new(report(400, 300, 5), report(400, 100, 9));
        let reached = find(&comparison.rows, "Scores", "games that reached scoring").unwrap();
        assert!(reached.significant());
        let text = comparison.summary.join("\n");
        assert!(
            text.contains(
                "Games that reach scoring 75.0% -> 25.0% (significant): score means are over different games."
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "A final score 6.00 -> 9.99 on average (up, +66%; significant), over the 300 and 100 games \
                 that reached scoring: this mixes the rule's effect with which games got scored."
            ),
            "{text}"
        );
        // Every mean carries its n.
        let table = comparison.to_text();
        assert!(
            table.contains("6.00 (n=300)") && table.contains("9.99 (n=100)"),
            "{table}"
        );
    }

    #[test]
    fn figures_over_no_finished_game_are_na() {
        let mut none = report(10, 0, 0);
        none.wins = vec![0, 0];
        none.stopped.insert(
            "game-too-long".into(),
            crate::sim::report::Stop {
                games: 10,
                first_game: 0,
                first_seed: 0,
                message: String::new(),
            },
        );
        let comparison = Comparison::new(none.clone(), none);
        let balance = find(&comparison.rows, "Outcomes", "balance").unwrap();
        assert_eq!((balance.base, balance.base_n), (None, Some(0)));
        let text = comparison.to_text();
        let words = |line: &str| line.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let lines: Vec<Vec<String>> = text.lines().map(words).collect();
        for row in [
            "balance n/a n/a n/a",
            "first-player advantage (pts) n/a n/a n/a",
            "A final score, mean n/a n/a n/a",
        ] {
            assert!(lines.contains(&words(row)), "{row}: {text}");
        }
    }
}
