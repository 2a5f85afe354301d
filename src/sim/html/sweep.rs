//! The page of `rpsdsl sweep --html`: the best value on top, the table of
//! every value's figures, then a chart per question with one row per value,
//! so that the value a designer wants stands out from the others.

use maud::html;

use super::charts::{IntervalRow, interval_chart};
use super::page::{ChartError, figure, shell};
use crate::sim::render::METRICS_DOC;
use crate::sim::sweep::{Point, Sweep, Target};
use crate::sim::verdict::Interval;

/// Styles the sweep page adds to the shared ones.
const STYLE: &str = r#"
table.values { border-collapse: collapse; margin: 8px 0; }
table.values th, table.values td { padding: 4px 10px; border-bottom: 1px solid #e4e4e4; text-align: left; }
table.values tr.best td { background: #e3f1e3; font-weight: 600; }
p.best { background: #e3f1e3; border-left: 4px solid #1f6b1f; padding: 8px 12px; font-size: 1.05em; }
"#;

/// One question's figure of a value.
type Figure = fn(&Point) -> Option<&Interval>;

/// The questions charted, with the figure each reads.
const QUESTIONS: [(&str, &str, Figure); 5] = [
    ("fair", "the first seat's edge (0 is fair)", |p| Some(&p.fair)),
    ("short", "decision points per game", |p| Some(&p.length)),
    ("decisive", "the share of games drawn", |p| Some(&p.draws)),
    ("skill", "the strong player's edge over random", |p| Some(&p.skill)),
    ("tension", "lead changes per game", |p| p.lead_changes.as_ref()),
];

/// The page of `rpsdsl sweep --html`; `text` is the text report.
pub fn sweep_page(s: &Sweep, text: &str) -> Result<String, ChartError> {
    let title = format!("Sweep of {}", s.rules);
    let best = s.best.as_ref().map(|b| b.label.as_str());
    let cell = |i: &Interval| format!("{:.3} ({:.3} to {:.3})", i.estimate, i.low, i.high);
    let mut charts = vec![];
    for (question, measure, read) in QUESTIONS {
        let rows: Vec<IntervalRow> = s
            .points
            .iter()
            .filter_map(|p| {
                read(p).map(|i| IntervalRow {
                    label: p.label.clone(),
                    value: i.estimate,
                    interval: (i.low, i.high),
                    run: usize::from(Some(p.label.as_str()) == best),
                })
            })
            .collect();
        if !rows.is_empty() {
            charts.push((
                question,
                figure(
                    interval_chart(&rows, measure)?,
                    "Each value's mean per deal with its 95% confidence sequence.",
                ),
            ));
        }
    }
    let body = html! {
        h1 { (title) }
        p.meta { "strong " code { (s.strong) } ", weak " code { (s.weak) } " · " (s.deals) " deals with every value, the same deals for each · "
            (format!("{:.1} s of {:.0}", s.seconds, s.budget_seconds)) ": " (s.stopped) }
        p.meta { "Every figure is defined in " code { (METRICS_DOC) } " (\"The verdict\")." }
        @if let Some(b) = &s.best {
            p.best { "Best for " (target_name(b.target)) ": " strong { (b.label) } ", " (cell(&b.interval))
                @if b.not_clearly_better_than.is_empty() { ", better than every other value." }
                @else { "; not clearly better than " (b.not_clearly_better_than.join(", ")) "." } }
        }
        section {
            h2 { "The values" }
            table.values {
                tr { th { "value" } th { "fair" } th { "short" } th { "decisive" } th { "skill" } th { "players separated" } }
                @for p in &s.points {
                    tr class=(if Some(p.label.as_str()) == best { "best" } else { "" }) {
                        td { (p.label) } td { (cell(&p.fair)) } td { (cell(&p.length)) } td { (cell(&p.draws)) }
                        td { (cell(&p.skill)) } td { (if p.separated { "yes" } else { "no" }) }
                    }
                }
            }
        }
        @for (question, chart) in charts {
            section { h2 { (question) } (chart) }
        }
        details {
            summary { "The text report" }
            pre { (text) }
        }
    };
    Ok(shell(&title, STYLE, body))
}

fn target_name(target: Target) -> &'static str {
    match target {
        Target::Fair => "fair",
        Target::Short => "short",
        Target::Decisive => "decisive",
        Target::Skill => "skill",
    }
}
