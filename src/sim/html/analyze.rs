//! The page of `rpsdsl analyze --html`: the skill figures (each matchup's
//! wins and edge), the choice table with its flags, and tension, with the
//! same look and charts as the `simulate` and `compare` pages.

use maud::{Markup, html};

use super::charts::{Bar, BarRow, EdgeRow, bar_chart, edge_chart};
use super::page::{ChartError, figure, shell};
use crate::sim::analyze::{Analysis, ChoiceRow};
use crate::sim::render::{METRICS_DOC, percent};
use crate::sim::stats::Rate;

/// Styles the analyze page adds to the shared ones.
const STYLE: &str = r#"
table.figures { border-collapse: collapse; margin: 8px 0; font-size: 0.92em; width: 100%; }
table.figures th, table.figures td { padding: 4px 8px; border-bottom: 1px solid #e4e4e4; text-align: right; }
table.figures th:first-child, table.figures td:first-child { text-align: left; }
table.figures td { white-space: nowrap; }
table.figures td.why, table.figures th.why { text-align: left; white-space: normal; }
table.figures th { color: #555; font-weight: 600; }
td.flag span { display: inline-block; padding: 1px 6px; border-radius: 3px; font-size: 0.9em; font-weight: 600; }
td.flag span.dominant { background: #e3f1e3; color: #1f6b1f; }
td.flag span.never { background: #f9e1e1; color: rgb(192, 40, 40); }
p.verdict { font-size: 1.1em; margin: 8px 0; }
"#;

/// The page of `rpsdsl analyze --html`.
pub fn analyze_page(a: &Analysis) -> Result<String, ChartError> {
    let title = format!("{}: analysis", a.game);
    let body = html! {
        h1 { (title) }
        p.meta { code { (a.rules) } " · strong " code { (a.strong) } ", weak " code { (a.weak) }
            " · seed " (a.seed) " · seats rotated, the same deals in every matchup" }
        p.meta { (games_line(a)) }
        p.meta { "Every figure is defined in " code { (METRICS_DOC) } "." }
        section.summary {
            h2 { "Summary" }
            ul { @for line in a.summary_lines() { li { (line) } } }
        }
        (skill(a)?)
        (choices(a)?)
        (tension(a))
        details {
            summary { "The text report" }
            pre { (a.to_text()) }
        }
    };
    Ok(shell(&title, STYLE, body))
}

fn games_line(a: &Analysis) -> String {
    let played: Vec<String> = a.matchups.iter().map(|m| m.games.to_string()).collect();
    match a.goal {
        None => format!("{} games per matchup.", a.games_per_matchup),
        Some(goal) => format!(
            "Each matchup stopped as soon as its question was answered ({}), after at most {} games; they played {}.",
            goal.flag(),
            a.games_per_matchup,
            played.join(", ")
        ),
    }
}

fn wilson(r: &Rate) -> String {
    if r.of == 0 {
        return "n/a".into();
    }
    format!(
        "{} ({:.0}–{:.0}%) of {}",
        percent(r.rate),
        100.0 * r.low,
        100.0 * r.high,
        r.of
    )
}

fn rate_bar(r: &Rate) -> Option<Bar> {
    (r.of > 0).then_some(Bar {
        value: r.rate,
        interval: Some((r.low, r.high)),
        note: None,
    })
}

fn skill(a: &Analysis) -> Result<Markup, ChartError> {
    let edges: Vec<EdgeRow> = a
        .matchups
        .iter()
        .map(|m| EdgeRow {
            label: format!("{} vs {}", m.first, m.second),
            value: m.edge,
            interval: (m.edge_low, m.edge_high),
        })
        .collect();
    let wins: Vec<BarRow> = a
        .matchups
        .iter()
        .map(|m| BarRow {
            label: format!("{} vs {}", m.first, m.second),
            warn: false,
            bars: vec![rate_bar(&m.first_wins), rate_bar(&m.second_wins)],
        })
        .collect();
    Ok(html! {
        section {
            h2 { "Skill" }
            p.verdict { "Skill index " strong { (format!("{:+.3}", a.skill_index)) }
                (format!(" (95% CI {:+.3} to {:+.3}): {}.", a.skill_low, a.skill_high, a.verdict())) }
            (figure(edge_chart(&edges, "edge of the first player (0: neither plays better)")?,
                "Each matchup's edge: dot at the mean per deal, whiskers its 95% confidence sequence. \
                 The first row is the skill index."))
            h3 { "Who wins each matchup" }
            p.key {
                span.swatch.base {} "first player (one seat, rotating)"
                span.swatch.variant {} "second (every other seat)"
            }
            (figure(bar_chart(&wins, "share of games")?,
                "Bars: share of games; whiskers: 95% confidence interval (Wilson)."))
            table.figures {
                thead { tr { th { "matchup" } th { "games" } th { "edge (95% CI)" } th.why { "stopped because" } } }
                tbody {
                    @for m in &a.matchups {
                        tr {
                            td { (m.first) " vs " (m.second) }
                            td { (m.games) }
                            td { (format!("{:+.3} ({:+.3} to {:+.3})", m.edge, m.edge_low, m.edge_high)) }
                            td.why { (m.stopping.as_ref().map_or("it played every game asked for".to_string(), |s| s.reason())) }
                        }
                    }
                }
            }
            p { "Luck: random still beats strong in " (wilson(&a.luck)) " games." }
            @if let Some(exact) = &a.exact_random {
                p { "Random against random, exactly (rpsdsl exact, " (exact.positions) " positions): "
                    @for (seat, w) in a.seats.iter().zip(&exact.wins) { (seat) " " (percent(*w)) ", " }
                    "draws " (percent(exact.draws)) "." }
            }
        }
    })
}

fn flag_class(flag: &str) -> &'static str {
    if flag == "dominant" { "dominant" } else { "never" }
}

fn choices(a: &Analysis) -> Result<Markup, ChartError> {
    let label = |c: &ChoiceRow| match c.flag {
        Some(flag) => format!("{}: {} ({flag})", c.decision, c.choice),
        None => format!("{}: {}", c.decision, c.choice),
    };
    let rows: Vec<BarRow> = a
        .choices
        .iter()
        .map(|c| BarRow {
            label: label(c),
            warn: c.flag.is_some(),
            bars: vec![rate_bar(&c.strong_taken), rate_bar(&c.random_taken)],
        })
        .collect();
    Ok(html! {
        section {
            h2 { "Choices" }
            p.note { "Strong " code { (a.strong) } " against random: at each decision where a choice was offered with another, how often each took it." }
            @if a.choices.is_empty() {
                p { "No choice was ever offered with another." }
            } @else {
                p.key {
                    span.swatch.base {} "strong takes it"
                    span.swatch.variant {} "random takes it"
                }
                (figure(bar_chart(&rows, "share of the offers at which it was taken")?,
                    "Bars: share of offers taken; whiskers: 95% confidence interval (Wilson). Flagged choices in red."))
                table.figures {
                    thead { tr { th { "decision: choice" } th { "strong takes it" } th { "random takes it" }
                        th { "strong wins after taking" } th { "flag" } } }
                    tbody {
                        @for c in &a.choices {
                            tr {
                                td { (c.decision) ": " (c.choice) }
                                td { (wilson(&c.strong_taken)) }
                                td { (wilson(&c.random_taken)) }
                                td { (wilson(&c.strong_wins_after)) }
                                td.flag { @if let Some(flag) = c.flag { span class=(flag_class(flag)) { (flag) } } }
                            }
                        }
                    }
                }
            }
        }
    })
}

fn tension(a: &Analysis) -> Markup {
    let num = |x: Option<f64>| x.map_or("n/a".to_string(), |x| format!("{x:.2}"));
    let share = |x: Option<f64>| x.map_or("n/a".to_string(), percent);
    html! {
        section {
            h2 { "Tension" }
            @match &a.tension {
                None => p { "The game has no score terms." },
                Some(t) => {
                    p.note { (a.strong) " against " (a.weak) ", over the " (t.games) " games with a winner." }
                    table.figures {
                        tbody {
                            tr { td { "lead changes per game" } td { (num(t.lead_changes)) } }
                            tr { td { "winner leads for good after (mean share of the game)" } td { (share(t.decided_at)) } }
                            tr { td { "winners who never led alone on points" } td { (percent(t.never_led_alone.rate)) } }
                            tr { td { "end margin, winner over the next" } td { (num(t.end_margin)) } }
                            tr { td { "drama: decision points with the winner behind (mean)" } td { (share(t.drama)) } }
                            tr { td { "games in which the winner was ever behind" } td { (percent(t.comebacks.rate)) } }
                        }
                    }
                }
            }
        }
    }
}
