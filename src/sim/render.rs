//! The text form of a report: plain tables a designer can read.

use comfy_table::{CellAlignment, ContentArrangement, Table, presets};

use super::report::Report;
use super::stats::Rate;

/// Where every figure is defined.
pub const METRICS_DOC: &str = "docs/metrics.md";

/// A borderless table: the first row is the header, the first column is
/// left-aligned and the others right-aligned, three spaces apart. Widths
/// are terminal columns (`comfy-table` measures them), so names with wide
/// or combining characters still line up.
pub(crate) fn table(rows: &[Vec<String>], indent: &str) -> String {
    let Some((header, body)) = rows.split_first() else {
        return String::new();
    };
    let mut t = Table::new();
    t.load_style(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header(header.clone());
    for row in body {
        t.add_row(row.clone());
    }
    for (c, column) in t.column_iter_mut().enumerate() {
        if c == 0 {
            column.set_padding((0, 0));
        } else {
            column.set_padding((3, 0)).set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = String::new();
    for line in t.lines() {
        out.push_str(format!("{indent}{line}").trim_end());
        out.push('\n');
    }
    out
}

pub(crate) fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

pub(crate) fn interval(r: &Rate) -> String {
    format!("{} to {}", percent(r.low), percent(r.high))
}

/// A figure that may not exist (over no games): "n/a" then.
pub(crate) fn or_na(x: Option<f64>, show: impl Fn(f64) -> String) -> String {
    x.map_or_else(|| "n/a".into(), show)
}

pub(crate) fn number(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// What a one-seat game's "wins" mean: a ranking of one seat puts it first
/// whatever it scored, so its result is its score (a blackjack's punter
/// who loses on average still "wins" every ranked game). One sentence,
/// without its full stop, for the text report and the page alike.
pub(crate) fn one_seat_words(report: &Report, s: &super::report::Summary) -> String {
    let score = match s.scores.as_ref().and_then(|ss| ss.totals.first()) {
        Some(spread) if spread.n > 0 => format!("(mean {} over {} scored games)", or_na(spread.mean, number), spread.n),
        _ if report.scores.is_some() => "(no game reached scoring)".to_string(),
        _ => "(the game keeps none: give it a `score` section)".to_string(),
    };
    format!(
        "one seat: a ranking puts it first whatever it scores, so a win here says only that the game ended by \
         the result section or by `win`; its result is its score {score}"
    )
}

/// "seed 1, agents random, options rounds=3".
pub(crate) fn setup_line(report: &Report) -> String {
    let options = crate::text::options_phrase(&report.options);
    let seating = match &report.by_agent {
        Some(b) if b.rotated => ", seats rotated",
        Some(_) => ", seats not rotated",
        None => "",
    };
    format!("seed {}, agents {}{seating}, {options}", report.seed, report.agents)
}

impl Report {
    /// The report as text, with a pointer to the metric definitions.
    pub fn to_text(&self) -> String {
        let s = self.summary();
        let mut out = format!("{}: {} games of {}\n", self.game, self.games, self.rules);
        out.push_str(&setup_line(self));
        out.push('\n');
        if !self.is_complete() {
            let ranges: Vec<String> = self.ranges.iter().map(|(a, b)| format!("{a}..{b}")).collect();
            out.push_str(&format!(
                "part of a run of {} games: games {} (`rpsdsl merge` combines the parts)\n",
                self.planned,
                if ranges.is_empty() {
                    "none".into()
                } else {
                    ranges.join(", ")
                }
            ));
        }
        out.push_str(&format!("Every figure is defined in {METRICS_DOC}.\n"));

        out.push_str("\nOutcomes\n");
        let mut rows = vec![vec!["".into(), "games".into(), "rate".into(), "95% CI".into()]];
        for (seat, rate) in self.seats.iter().zip(&s.win_rates) {
            rows.push(rate_row(&format!("{seat} wins"), rate));
        }
        rows.push(rate_row("draws", &s.draw_rate));
        rows.push(rate_row("stopped by a limit or error", &s.stopped_rate));
        out.push_str(&table(&rows, "  "));
        out.push_str(&format!(
            "  balance {}; first-player advantage {}{}\n",
            or_na(s.balance, |b| format!("{b:.3}")),
            or_na(s.first_player_advantage, |a| format!("{:+.1} points", 100.0 * a)),
            if self.seats.len() == 1 {
                " (one seat)"
            } else if s.finished == 0 {
                " (no game finished)"
            } else {
                ""
            }
        ));
        if self.seats.len() == 1 {
            out.push_str(&format!("  {}\n", one_seat_words(self, &s)));
        }
        if let (Some(b), Some(agents)) = (&self.by_agent, &s.by_agent) {
            out.push_str(&agents_section(self, b, agents));
        }

        out.push_str(&self.length_section(&s));

        out.push_str(&self.scores_section(&s));

        out.push_str("\nDecisions\n");
        out.push_str(&format!(
            "  branching factor {} legal choices per decision\n",
            or_na(s.branching_factor, |b| format!("{b:.2}"))
        ));
        out.push_str(&format!(
            "  more than one choice in {} of decisions\n",
            or_na(s.real_choice_share, percent)
        ));
        for t in self.together.iter().filter(|t| t.rounds > 0) {
            let alike = Rate::new(t.alike, t.rounds);
            out.push_str(&format!(
                "  {}: chosen at once {} times, all alike in {} (95% CI {})\n",
                t.decision,
                t.rounds,
                percent(alike.rate),
                interval(&alike)
            ));
        }

        out.push_str("\nHow games end\n");
        let mut ends: Vec<(&String, &u64)> = self.ends.iter().collect();
        ends.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut rows = vec![vec!["".into(), "games".into(), "rate".into()]];
        for (end, &count) in ends {
            rows.push(vec![end.clone(), count.to_string(), percent(ratio(count, self.games))]);
        }
        out.push_str(&table(&rows, "  "));

        out.push_str(&self.coverage_section(&s));

        out.push_str(&self.stopped_section());
        out
    }

    /// "Length per game": decision points and decisions, with a histogram.
    fn length_section(&self, s: &super::report::Summary) -> String {
        let mut out = String::new();
        out.push_str("\nLength per game\n");
        let mut rows = vec![vec![
            "".into(),
            "mean".into(),
            "sd".into(),
            "median".into(),
            "p10".into(),
            "p90".into(),
        ]];
        for (name, l) in [("decision points", &s.decision_points), ("decisions", &s.decisions)] {
            rows.push(vec![
                name.into(),
                number(l.mean),
                number(l.sd),
                l.median.to_string(),
                l.p10.to_string(),
                l.p90.to_string(),
            ]);
        }
        out.push_str(&table(&rows, "  "));
        let bars = self.decision_points.render(12, 40);
        if !bars.is_empty() {
            out.push_str("  decision points per game:\n");
            for bar in bars {
                out.push_str(&format!("    {bar}\n"));
            }
        }
        out
    }

    /// "Scores", when the game scores: each seat's total and the margin.
    fn scores_section(&self, s: &super::report::Summary) -> String {
        let mut out = String::new();
        if let (Some(scores), Some(ss)) = (&self.scores, &s.scores) {
            out.push_str(&format!(
                "\nScores (over the {} games that reached scoring; {} ended before it, {} stopped)\n",
                scores.scored,
                ss.ended_before_scoring,
                self.stopped_games()
            ));
            let mut rows = vec![vec!["".into(), "n".into(), "mean".into(), "sd".into()]];
            let spread_row = |name: String, spread: &super::report::Spread| {
                vec![
                    name,
                    spread.n.to_string(),
                    or_na(spread.mean, number),
                    or_na(spread.sd, number),
                ]
            };
            for (seat, spread) in self.seats.iter().zip(&ss.totals) {
                rows.push(spread_row(format!("{seat} total"), spread));
            }
            rows.push(spread_row("margin, first to second".into(), &ss.margin));
            out.push_str(&table(&rows, "  "));
        }
        out
    }

    /// "Rule coverage": how often each part of the rules fired, and which never did.
    fn coverage_section(&self, s: &super::report::Summary) -> String {
        let mut out = String::new();
        out.push_str("\nRule coverage\n");
        let mut rows = vec![vec!["".into(), "in games".into(), "times".into()]];
        for c in &self.coverage {
            let mut times = c.times.to_string();
            if let Some(yes) = c.yes {
                times.push_str(&format!(" (yes {yes})"));
            }
            rows.push(vec![c.title(), percent(ratio(c.games, self.games)), times]);
        }
        out.push_str(&table(&rows, "  "));
        if s.never_fired.is_empty() {
            out.push_str("  Every part of the rules fired.\n");
        } else {
            out.push_str("  Never fired:\n");
            for part in &s.never_fired {
                out.push_str(&format!("    {part}\n"));
            }
        }
        out
    }

    /// "Stopped games": each error with the command that replays its first game.
    fn stopped_section(&self) -> String {
        let mut out = String::new();
        if !self.stopped.is_empty() {
            out.push_str("\nStopped games\n");
            for (code, stop) in &self.stopped {
                out.push_str(&format!(
                    "  {code}: {} games; the first is game {} (seed {}): {}\n",
                    stop.games, stop.first_game, stop.first_seed, stop.message
                ));
                out.push_str(&format!(
                    "    replay it: rpsdsl run {} --seed {} --agents {}{}\n",
                    self.rules,
                    stop.first_seed,
                    self.agents_for_game(stop.first_game),
                    self.options
                        .iter()
                        .map(|(k, v)| format!(" --set {k}={v}"))
                        .collect::<String>()
                ));
            }
        }
        out
    }
}

/// "Agents": each agent's win rate over all its games, and at each seat.
fn agents_section(report: &Report, b: &super::report::ByAgent, s: &super::report::AgentSummary) -> String {
    let mut out = String::from("\nAgents\n");
    if b.rotated {
        out.push_str(
            "  Seats rotate: each agent plays each seat in turn on the same seeds,\n  \
             so the seat rates above measure the seats, not the agents.\n",
        );
        let seats = b.agents.len().max(1) as u64;
        if !report.planned.is_multiple_of(seats) {
            out.push_str(&format!(
                "  ({} games is not a multiple of {seats} seats: the last deal is not played from every seat.)\n",
                report.planned
            ));
        }
    } else {
        out.push_str(
            "  Seats not rotated (--no-rotate): each agent keeps its seat, so the seat\n  \
             rates above mix the seats' advantage with the agents' skill.\n",
        );
    }
    let mut header = vec![
        "".to_string(),
        "games".into(),
        "wins".into(),
        "rate".into(),
        "95% CI".into(),
    ];
    header.extend(report.seats.iter().map(|seat| format!("as {seat}")));
    let mut rows = vec![header];
    for (a, name) in b.agents.iter().enumerate() {
        let overall = &s.overall[a];
        let mut row = vec![
            format!("{} (agent {})", name, a + 1),
            overall.of.to_string(),
            overall.count.to_string(),
            percent(overall.rate),
            interval(overall),
        ];
        row.extend(s.at_seat[a].iter().map(|r| {
            if r.of == 0 {
                "-".to_string()
            } else {
                format!("{} of {}", percent(r.rate), r.of)
            }
        }));
        rows.push(row);
    }
    out.push_str(&table(&rows, "  "));
    out
}

fn rate_row(name: &str, r: &Rate) -> Vec<String> {
    vec![name.into(), r.count.to_string(), percent(r.rate), interval(r)]
}

pub(crate) fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_measure_widths_in_terminal_columns() {
        // "日本" is two characters but four columns wide.
        let rows = vec![
            vec!["".to_string(), "n".into()],
            vec!["日本".into(), "1".into()],
            vec!["abcd".into(), "22".into()],
        ];
        assert_eq!(table(&rows, "  "), "          n\n  日本    1\n  abcd   22\n");
    }
}
