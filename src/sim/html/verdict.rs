//! The page of `rpsdsl verdict --html`: the answers on top, the players and
//! whether they differ, then each question's figures, base and variant side
//! by side with their intervals, and the difference between them.

use maud::{Markup, html};

use super::charts::{IntervalRow, interval_chart};
use super::{ChartError, figure, shell};
use crate::sim::render::METRICS_DOC;
use crate::sim::verdict::{Interval, Question, Verdict};

/// Styles the verdict page adds to the shared ones.
const STYLE: &str = r#"
table.answers { border-collapse: collapse; margin: 8px 0; font-size: 1.05em; }
table.answers td { padding: 5px 12px; border-bottom: 1px solid #e4e4e4; }
td.answer span { display: inline-block; padding: 1px 8px; border-radius: 3px; font-weight: 600; }
td.answer span.better { background: #e3f1e3; color: #1f6b1f; }
td.answer span.worse { background: #f9e1e1; color: rgb(192, 40, 40); }
td.answer span.unclear { background: #eeeeee; color: #555; }
p.caution { background: #fff4e0; border-left: 4px solid #de7d2c; padding: 8px 12px; }
"#;

/// The page of `rpsdsl verdict --html`.
pub fn verdict_page(v: &Verdict, text: &str) -> Result<String, ChartError> {
    let title = format!("Verdict: {} against {}", v.variant, v.base);
    let unseparated: Vec<&str> = v
        .separation
        .iter()
        .zip(["base", "variant"])
        .filter(|(s, _)| !s.separated)
        .map(|(_, name)| name)
        .collect();
    let body = html! {
        h1 { (title) }
        p.meta { "strong " code { (v.strong) } ", weak " code { (v.weak) } " · seed " (v.seed) " · "
            (v.self_play_deals) " deals of self-play, " (v.matchup_deals) " of matchups, the same deals in both games · "
            (format!("{:.1} s of {:.0}", v.seconds, v.budget_seconds)) ": " (v.stopped) }
        p.meta { "Every figure is defined in " code { (METRICS_DOC) } " (\"The verdict\")." }
        @if !unseparated.is_empty() {
            p.caution { "Caution: the strong player was not shown to beat both the weak one and random in the "
                (unseparated.join(" and the ")) "; the skill answer is withheld." }
        }
        section.summary {
            h2 { "The answers" }
            table.answers {
                @for q in &v.questions { (answer_row(q)) }
            }
        }
        section {
            h2 { "The players" }
            (figure(interval_chart(&separation_rows(v), "the strong player's edge (0: no better)")?,
                "Each game's matchups, seats rotated: the strong player must lie above 0 against both."))
        }
        @for q in v.questions.iter().filter(|q| q.deals > 0) {
            section {
                h2 { (q.question) ": " (q.answer) }
                (figure(interval_chart(&question_rows(q), q.measure)?, "Means per deal with their 95% confidence sequences."))
            }
        }
        details {
            summary { "The text report" }
            pre { (text) }
        }
    };
    Ok(shell(&title, STYLE, body))
}

fn answer_row(q: &Question) -> Markup {
    let class = match (q.direction, &q.skipped) {
        (_, Some(_)) | (0, None) => "unclear",
        (1, None) => "better",
        _ => "worse",
    };
    let why = match (&q.difference, &q.skipped) {
        (_, Some(why)) => why.clone(),
        (Some(d), None) => format!(
            "variant minus base {:+.3} ({:+.3} to {:+.3})",
            d.estimate, d.low, d.high
        ),
        (None, None) => format!(
            "base {:+.3} ({:+.3} to {:+.3}), variant {:+.3} ({:+.3} to {:+.3})",
            q.base.estimate, q.base.low, q.base.high, q.variant.estimate, q.variant.low, q.variant.high
        ),
    };
    html! {
        tr { td { strong { (q.question) } } td.answer { span class=(class) { (q.answer) } } td { (why) } }
    }
}

fn row(label: &str, i: &Interval, run: usize) -> IntervalRow {
    IntervalRow {
        label: label.to_string(),
        value: i.estimate,
        interval: (i.low, i.high),
        run,
    }
}

fn question_rows(q: &Question) -> Vec<IntervalRow> {
    let mut rows = vec![row("base", &q.base, 0), row("variant", &q.variant, 1)];
    if let Some(d) = &q.difference {
        rows.push(row("variant minus base", d, 2));
    }
    rows
}

fn separation_rows(v: &Verdict) -> Vec<IntervalRow> {
    let [b, w] = &v.separation;
    vec![
        row("base: over weak", &b.strong_vs_weak, 0),
        row("base: over random", &b.strong_vs_random, 0),
        row("variant: over weak", &w.strong_vs_weak, 1),
        row("variant: over random", &w.strong_vs_random, 1),
    ]
}
