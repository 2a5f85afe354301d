//! `--html`: a report as one self-contained page (no scripts, no network,
//! charts as inline SVG) to read in a browser or paste into a design note.
//!
//! The page shows what the text report says, in the same words: the plain
//! summary first ([`Comparison::summary`], or the headline figures of
//! [`Report::summary`]), then a chart per question (who wins, how long, what
//! scores, how games end, which rules fire), then the whole text report.
//! Every name from the rules is escaped: maud escapes the page, plotters
//! the text inside the charts.

mod analyze;
pub(crate) mod charts;
mod page;
mod sweep;
mod verdict;

use std::collections::BTreeMap;

use maud::{Markup, html};

use self::charts::{Bar, BarRow, Distribution, Drawn, bar_chart, distribution_chart, value_span};
use super::compare::Comparison;
use super::record::GameRecord;
use super::render::{METRICS_DOC, interval, number, or_na, percent, setup_line};
use super::report::{Part, Report};
use super::stats::Rate;

pub use self::analyze::analyze_page;
pub use self::page::ChartError;
pub(crate) use self::page::{figure, shell};
pub use self::sweep::sweep_page;
pub use self::verdict::verdict_page;

/// One run on the page: its report and its games.
struct Run<'a> {
    report: &'a Report,
    games: &'a [GameRecord],
}

/// The page of `rpsdsl simulate --html`.
pub fn simulate_page(report: &Report, games: &[GameRecord]) -> Result<String, ChartError> {
    let runs = [Run { report, games }];
    let title = format!("{}: {} games", report.game, report.games);
    let intro = html! {
        h1 { (title) }
        p.meta { code { (report.rules) } " · " (setup_line(report)) }
    };
    let summary = simulate_summary(report);
    page(&title, intro, &summary, &runs, &report.to_text())
}

/// The page of `rpsdsl compare --html`: base and variant in two colours on every chart.
pub fn compare_page(
    comparison: &Comparison,
    base_games: &[GameRecord],
    variant_games: &[GameRecord],
) -> Result<String, ChartError> {
    let (base, variant) = (&comparison.base, &comparison.variant);
    let runs = [
        Run {
            report: base,
            games: base_games,
        },
        Run {
            report: variant,
            games: variant_games,
        },
    ];
    let title = format!("{} against {}", base.rules, variant.rules);
    let intro = html! {
        h1 { "Compare " (base.game) }
        p.key {
            span.swatch.base {} "base " code { (base.rules) }
            span.swatch.variant {} "variant " code { (variant.rules) }
        }
        p.meta {
            (base.games) " games each on the same seeds; " (setup_line(base))
            @if variant.options != base.options { br; "variant: " (setup_line(variant)) }
        }
    };
    page(&title, intro, &comparison.summary, &runs, &comparison.to_text())
}

/// The headline figures of one run, in the text report's words.
fn simulate_summary(report: &Report) -> Vec<String> {
    let s = report.summary();
    let mut lines = vec![];
    if s.finished == 0 {
        // Rates and balance over no finished game would say nothing true.
        lines.push(format!(
            "No game finished: all {} were stopped by a limit or error (see the text report below).",
            report.games
        ));
        return lines;
    }
    let wins: Vec<String> = report
        .seats
        .iter()
        .zip(&s.win_rates)
        .map(|(seat, r)| format!("{seat} wins {} (95% CI {})", percent(r.rate), interval(r)))
        .collect();
    lines.push(format!("{}; draws {}.", wins.join(", "), percent(s.draw_rate.rate)));
    if report.seats.len() == 1 {
        let mut words = crate::sim::render::one_seat_words(report, &s);
        words[..1].make_ascii_uppercase();
        lines.push(format!("{words}."));
    }
    lines.push(format!(
        "Balance {} (1 is perfectly even); first-player advantage {}.",
        or_na(s.balance, |b| format!("{b:.3}")),
        or_na(s.first_player_advantage, |a| format!("{:+.1} points", 100.0 * a))
    ));
    if s.stopped_rate.count > 0 {
        lines.push(format!(
            "{} of games were stopped by a limit or error (see the text report below).",
            percent(s.stopped_rate.rate)
        ));
    }
    let l = &s.decision_points;
    lines.push(format!(
        "Games last {} decision points on average (median {}, 10% to 90% of games: {} to {}).",
        number(l.mean),
        l.median,
        l.p10,
        l.p90
    ));
    if s.never_fired.is_empty() {
        lines.push("Every part of the rules fired.".into());
    } else {
        lines.push(format!(
            "{} part{} of the rules never fired (marked in red under Rule coverage).",
            s.never_fired.len(),
            if s.never_fired.len() == 1 { "" } else { "s" }
        ));
    }
    lines
}

/// The page: header, summary, a section per question, the text report.
fn page(title: &str, intro: Markup, summary: &[String], runs: &[Run], text: &str) -> Result<String, ChartError> {
    let compare = runs.len() > 1;
    let never_fired = never_fired(runs);
    let score_charts = score_charts(runs)?;
    let body = html! {
                (intro)
                p.meta { "Every figure is defined in " code { (METRICS_DOC) } "." }
                section.summary {
                    h2 { "Summary" }
                    ul { @for line in summary { li { (line) } } }
                }
                section {
                    h2 { "Who wins" }
                    (figure(bar_chart(&win_rows(runs), "share of games")?,
                        "Bars: share of games; whiskers: 95% confidence interval (Wilson)."))
                }
                section {
                    h2 { "How long games last" }
                    (figure(length_chart(runs)?, if compare {
                        "Decision points per game: base as bars, variant as an outline; vertical lines mark the means."
                    } else {
                        "Decision points per game; the vertical line marks the mean."
                    }))
                }
                @if !score_charts.is_empty() {
                    section {
                        h2 { "Final scores" }
                        p.note { "Per seat, over the games that were scored (a game won by a trigger is not scored)." }
                        @for (seat, svg) in &score_charts {
                            h3 { (seat) }
                            (figure(svg.clone(), ""))
                        }
                    }
                }
                section {
                    h2 { "How games end" }
                    (figure(bar_chart(&end_rows(runs), "share of games")?,
                        "Bars: share of games; whiskers: 95% confidence interval (Wilson)."))
                }
                section {
                    h2 { "Rule coverage" }
                    (figure(bar_chart(&coverage_rows(runs), "share of games in which it fired")?,
                        "Share of games in which each part of the rules fired at least once; never fired in red."))
                    @for (heading, parts) in &never_fired {
                        div.warn {
                            strong { (heading) ":" }
                            ul { @for part in parts { li { (part) } } }
                        }
                    }
                }
                details {
                    summary { "The text report" }
                    pre { (text) }
                }
    };
    Ok(shell(title, "", body))
}

/// The "Never fired" lists: one per run, or one for both when the same
/// parts never fired in either.
fn never_fired(runs: &[Run]) -> Vec<(String, Vec<String>)> {
    let silent = |r: &Report| {
        r.coverage
            .iter()
            .filter(|c| c.games == 0 || c.yes == Some(0))
            .map(|c| c.title())
            .collect::<Vec<_>>()
    };
    let lists: Vec<Vec<String>> = runs.iter().map(|r| r.report.never_fired()).collect();
    if runs.len() == 2 && silent(runs[0].report) == silent(runs[1].report) {
        return lists
            .into_iter()
            .take(1)
            .filter(|l| !l.is_empty())
            .map(|l| ("Never fired in either run".to_string(), l))
            .collect();
    }
    lists
        .into_iter()
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(k, l)| {
            let heading = match (runs.len(), k) {
                (1, _) => "Never fired".to_string(),
                (_, 0) => "Never fired in base".to_string(),
                _ => "Never fired in variant".to_string(),
            };
            (heading, l)
        })
        .collect()
}

/// Labels of every run, the first run's order first.
fn union(lists: impl IntoIterator<Item = Vec<String>>) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for list in lists {
        for label in list {
            if !out.contains(&label) {
                out.push(label);
            }
        }
    }
    out
}

fn rate_bar(rate: &Rate) -> Bar {
    Bar {
        value: rate.rate,
        interval: Some((rate.low, rate.high)),
        note: None,
    }
}

/// A seat's wins, then draws, then stopped games where any run has some.
fn win_rows(runs: &[Run]) -> Vec<BarRow> {
    let summaries: Vec<_> = runs.iter().map(|r| r.report.summary()).collect();
    let seats = union(runs.iter().map(|r| r.report.seats.clone()));
    let mut rows: Vec<BarRow> = seats
        .iter()
        .map(|seat| BarRow {
            label: format!("{seat} wins"),
            warn: false,
            bars: runs
                .iter()
                .zip(&summaries)
                .map(|(run, s)| {
                    let at = run.report.seats.iter().position(|x| x == seat)?;
                    Some(rate_bar(&s.win_rates[at]))
                })
                .collect(),
        })
        .collect();
    rows.push(BarRow {
        label: "draws".into(),
        warn: false,
        bars: summaries.iter().map(|s| Some(rate_bar(&s.draw_rate))).collect(),
    });
    if summaries.iter().any(|s| s.stopped_rate.count > 0) {
        rows.push(BarRow {
            label: "stopped by a limit or error".into(),
            warn: false,
            bars: summaries.iter().map(|s| Some(rate_bar(&s.stopped_rate))).collect(),
        });
    }
    rows
}

/// End causes, the most frequent first (in the first run).
fn end_rows(runs: &[Run]) -> Vec<BarRow> {
    let by_count = |r: &Report| {
        let mut ends: Vec<(&String, &u64)> = r.ends.iter().collect();
        ends.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        ends.into_iter().map(|(e, _)| e.clone()).collect::<Vec<_>>()
    };
    union(runs.iter().map(|r| by_count(r.report)))
        .into_iter()
        .map(|end| BarRow {
            bars: runs
                .iter()
                .map(|run| {
                    Some(rate_bar(&Rate::new(
                        run.report.ends.get(&end).copied().unwrap_or(0),
                        run.report.games,
                    )))
                })
                .collect(),
            label: end,
            warn: false,
        })
        .collect()
}

/// Every part of the rules, in the rules' order; a part that never fired (or
/// a yes/no hook that never said yes) is red.
fn coverage_rows(runs: &[Run]) -> Vec<BarRow> {
    let titles = union(
        runs.iter()
            .map(|r| r.report.coverage.iter().map(|c| c.title()).collect()),
    );
    titles
        .into_iter()
        .map(|title| {
            let bars: Vec<Option<Bar>> = runs
                .iter()
                .map(|run| {
                    let r = run.report;
                    let c = r.coverage.iter().find(|c| c.title() == title)?;
                    let note = if c.games == 0 {
                        Some(match (c.part, c.available) {
                            (Part::Anytime, Some(0)) => "never fired (never offered)".to_string(),
                            (Part::Score, Some(0)) => "never fired (its `when` never held)".to_string(),
                            _ => "never fired".to_string(),
                        })
                    } else if c.yes == Some(0) {
                        Some("never answered yes".to_string())
                    } else {
                        None
                    };
                    Some(Bar {
                        value: if r.games == 0 {
                            0.0
                        } else {
                            c.games as f64 / r.games as f64
                        },
                        interval: None,
                        note,
                    })
                })
                .collect();
            BarRow {
                warn: bars.iter().flatten().any(|b| b.note.is_some()),
                label: title,
                bars,
            }
        })
        .collect()
}

fn run_name(runs: &[Run], k: usize) -> String {
    match (runs.len(), k) {
        (1, _) => "all games".into(),
        (_, 0) => "base".into(),
        _ => "variant".into(),
    }
}

fn length_chart(runs: &[Run]) -> Drawn {
    let counts: Vec<BTreeMap<i64, u64>> = runs
        .iter()
        .map(|run| {
            run.report
                .decision_points
                .0
                .iter()
                .map(|(&v, &c)| (i64::try_from(v).unwrap_or(i64::MAX), c))
                .collect()
        })
        .collect();
    let distributions: Vec<Distribution> = runs
        .iter()
        .zip(&counts)
        .enumerate()
        .map(|(k, (run, counts))| Distribution {
            name: run_name(runs, k),
            counts,
            mean: (run.report.games > 0).then(|| run.report.summary().decision_points.mean),
            n: None,
        })
        .collect();
    distribution_chart(&distributions, "decision points per game", None)
}

/// A chart per seat of the final scores, for a game with score terms.
fn score_charts(runs: &[Run]) -> Result<Vec<(String, String)>, ChartError> {
    if runs.iter().all(|r| r.report.scores.is_none()) {
        return Ok(vec![]);
    }
    let seats = union(runs.iter().map(|r| r.report.seats.clone()));
    let mut charts = vec![];
    for seat in seats {
        let mut counts: Vec<BTreeMap<i64, u64>> = vec![];
        let mut means = vec![];
        let mut ns = vec![];
        for run in runs {
            let at = run.report.seats.iter().position(|s| *s == seat);
            let mut seen = BTreeMap::new();
            for scores in run.games.iter().filter_map(|g| g.scores.as_ref()) {
                if let Some(&total) = at.and_then(|at| scores.get(at)) {
                    *seen.entry(total).or_insert(0) += 1;
                }
            }
            let summary = run.report.summary();
            let scores = summary.scores.as_ref();
            means.push(at.and_then(|at| scores.and_then(|s| s.totals[at].mean)));
            // Every mean says how many games it is over.
            ns.push(scores.map_or(0, |s| s.scored));
            counts.push(seen);
        }
        charts.push((seat, counts, means, ns));
    }
    // One x axis for every seat, so their charts line up.
    let span = value_span(charts.iter().flat_map(|(_, counts, _, _)| counts));
    let mut out = vec![];
    for (seat, counts, means, ns) in charts {
        let distributions: Vec<Distribution> = counts
            .iter()
            .zip(means)
            .zip(ns)
            .enumerate()
            .map(|(k, ((counts, mean), n))| Distribution {
                name: run_name(runs, k),
                counts,
                mean,
                n: Some(n),
            })
            .collect();
        let svg = distribution_chart(&distributions, &format!("{seat}: final score"), span)?;
        out.push((seat, svg));
    }
    Ok(out)
}
