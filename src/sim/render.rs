//! The text form of a report: plain tables a designer can read.

use super::report::Report;
use super::stats::Rate;

/// Where every figure is defined.
pub const METRICS_DOC: &str = "docs/metrics.md";

/// Lines of cells, padded to column widths: the first column left-aligned,
/// the others right-aligned.
pub(crate) fn table(rows: &[Vec<String>], indent: &str) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::from(indent);
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c].saturating_sub(cell.chars().count());
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("   ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
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

pub(crate) fn number(x: f64) -> String {
    if x.abs() >= 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// "seed 1, agents random, options best_of=3".
pub(crate) fn setup_line(report: &Report) -> String {
    let options = if report.options.is_empty() {
        "default options".to_string()
    } else {
        let set: Vec<String> = report.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("options {}", set.join(" "))
    };
    format!("seed {}, agents {}, {options}", report.seed, report.agents)
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
            "  balance {:.3}; first-player advantage {:+.1} points\n",
            s.balance,
            100.0 * s.first_player_advantage
        ));

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

        if let (Some(scores), Some(ss)) = (&self.scores, &s.scores) {
            out.push_str(&format!("\nScores ({} games scored)\n", scores.scored));
            let mut rows = vec![vec!["".into(), "mean".into(), "sd".into()]];
            for (seat, spread) in self.seats.iter().zip(&ss.totals) {
                rows.push(vec![format!("{seat} total"), number(spread.mean), number(spread.sd)]);
            }
            rows.push(vec![
                "margin, first to second".into(),
                number(ss.margin.mean),
                number(ss.margin.sd),
            ]);
            out.push_str(&table(&rows, "  "));
        }

        out.push_str("\nDecisions\n");
        out.push_str(&format!(
            "  branching factor {:.2} legal choices per decision\n",
            s.branching_factor
        ));
        out.push_str(&format!(
            "  more than one choice in {} of decisions\n",
            percent(s.real_choice_share)
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
                    self.agents,
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

fn rate_row(name: &str, r: &Rate) -> Vec<String> {
    vec![name.into(), r.count.to_string(), percent(r.rate), interval(r)]
}

pub(crate) fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}
