//! The page of `rpsdsl verdict --html`: the answers on top, the players and
//! whether they differ, then each question's figures, base and variant side
//! by side with their intervals, and the difference between them.

use maud::{Markup, html};

use super::charts::{IntervalRow, interval_chart};
use super::page::{ChartError, figure, shell};
use crate::sim::render::METRICS_DOC;
use crate::sim::verdict::{ChoiceFigures, ChoiceWorth, Choices, Detail, Interval, Question, Verdict};

/// Styles the verdict page adds to the shared ones.
const STYLE: &str = r#"
table.answers { border-collapse: collapse; margin: 8px 0; font-size: 1.05em; }
table.answers td { padding: 5px 12px; border-bottom: 1px solid #e4e4e4; }
td.answer span { display: inline-block; padding: 1px 8px; border-radius: 3px; font-weight: 600; }
td.answer span.better { background: #e3f1e3; color: #1f6b1f; }
td.answer span.worse { background: #f9e1e1; color: rgb(192, 40, 40); }
td.answer span.unclear { background: #eeeeee; color: #555; }
td.answer span.shift { background: #e2ecf7; color: #1d4f91; }
p.caution { background: #fff4e0; border-left: 4px solid #de7d2c; padding: 8px 12px; }
table.choices { border-collapse: collapse; margin: 8px 0; }
table.choices th, table.choices td { padding: 4px 10px; border-bottom: 1px solid #e4e4e4; text-align: left; }
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
        p.meta { "strong " code { (v.strong) } ", weak " code { (v.weak) }
            @if let Some(why) = &v.players_why { " (" (why) ")" }
            " · seed " (v.seed) " · "
            (v.self_play_deals) " deals of self-play, " (v.matchup_deals) " of matchups, the same deals in both games · "
            (format!("{:.1} s of {:.0}", v.seconds, v.budget_seconds)) ": " (v.stopped) }
        p.meta { "Every figure is defined in " code { (METRICS_DOC) } " (\"The verdict\")." }
        @if v.saturation.doubts() {
            p.caution { (v.saturation.sentence("--time")) }
        } @else {
            p.meta { (v.saturation.sentence("--time")) }
        }
        @if !unseparated.is_empty() {
            p.caution { "Caution: the strong player was not shown to beat both the weak one and random in the "
                (unseparated.join(" and the ")) "; the skill answer is withheld." }
        }
        section.summary {
            h2 { "The answers" }
            table.answers {
                @for q in &v.questions { (answer_row(q)) }
                (choices_answer(&v.choices))
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
                (figure(interval_chart(&question_rows(q), &q.measure)?, "Means per deal with their 95% confidence sequences."))
                @for d in &q.details {
                    (figure(interval_chart(&detail_rows(d), &d.measure)?, "Base and variant, with their 95% confidence sequences."))
                }
            }
        }
        @if !v.choices.rows.is_empty() {
            section {
                h2 { "The choices" }
                p { "What the strong player takes in self-play, and what each choice is worth to it: the edge it \
                    loses, seats rotated, when it is kept from the choice and plays on at its best (restricted play). "
                    (v.choices.deals) " deals; the intervals hold at 95% jointly over the choices." }
                table.choices {
                    tr { th { "decision" } th { "choice" } th { "taken: base" } th { "variant" } th { "worth shift" } }
                    @for r in &v.choices.rows { (choice_row(r)) }
                }
                @if v.choices.rows.iter().any(|r| worth_of(&r.base).or(worth_of(&r.variant)).is_some()) {
                    (figure(interval_chart(&worth_rows(&v.choices.rows), "the edge lost when kept from the choice")?,
                        "Each choice's worth in the base and in the variant."))
                }
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

/// The choices' line among the answers.
fn choices_answer(c: &Choices) -> Markup {
    let (answer, why) = c.answer();
    let class = if answer == "shifted" { "shift" } else { "unclear" };
    html! {
        tr { td { strong { "choices" } } td.answer { span class=(class) { (answer) } } td { (why) } }
    }
}

fn worth_of(f: &Option<ChoiceFigures>) -> Option<&Interval> {
    f.as_ref().and_then(|f| f.worth.as_ref())
}

fn choice_row(r: &ChoiceWorth) -> Markup {
    let taken = |f: &Option<ChoiceFigures>| {
        f.as_ref()
            .map_or_else(|| "–".to_string(), |f| format!("{:.0}%", 100.0 * f.taken.rate))
    };
    let shift = r.shift.as_ref().map_or_else(
        || "–".to_string(),
        |s| format!("{:+.3} ({:+.3} to {:+.3})", s.estimate, s.low, s.high),
    );
    html! {
        tr { td { (r.decision) } td { (r.choice) } td { (taken(&r.base)) } td { (taken(&r.variant)) } td { (shift) } }
    }
}

fn worth_rows(rows: &[ChoiceWorth]) -> Vec<IntervalRow> {
    rows.iter()
        .flat_map(|r| {
            [(&r.base, "base", 0), (&r.variant, "variant", 1)]
                .into_iter()
                .filter_map(move |(f, game, run)| {
                    worth_of(f).map(|i| row(&format!("{}: {} ({game})", r.decision, r.choice), i, run))
                })
        })
        .collect()
}

fn detail_rows(d: &Detail) -> Vec<IntervalRow> {
    [(&d.base, "base", 0), (&d.variant, "variant", 1)]
        .into_iter()
        .filter_map(|(i, label, run)| i.as_ref().map(|i| row(label, i, run)))
        .collect()
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
