//! `--csv`: one row per game, for a spreadsheet. `compare` writes both arms
//! with an `arm` column. The rows add up to the report's counts: wins per
//! seat, draws, stopped games, `ends`, lengths and score totals.

use super::compare::Comparison;
use super::record::{GameRecord, GameResult};
use super::report::Report;

/// The columns after `arm`: the game, then one final score per seat (none
/// for a game without score terms).
fn header(seats: &[&str]) -> Vec<String> {
    let mut row: Vec<String> = [
        "game",
        "seed",
        "agents",
        "decision_points",
        "decisions",
        "result",
        "winner",
        "end",
    ]
    .map(String::from)
    .into();
    row.extend(seats.iter().map(|s| format!("score {s}")));
    row
}

/// One game's cells; `seats` are the file's score columns, which may hold
/// seats this game does not have (left empty).
fn row(game: &GameRecord, report: &Report, seats: &[&str]) -> Vec<String> {
    let (result, winner) = match &game.result {
        GameResult::Win(seat) => ("win", report.seats.get(*seat).cloned().unwrap_or_default()),
        GameResult::Draw => ("draw", String::new()),
        GameResult::Stopped(_) => ("stopped", String::new()),
    };
    let mut row = vec![
        game.index.to_string(),
        game.seed.to_string(),
        game.agents.join(","),
        game.decision_points.to_string(),
        game.decisions.to_string(),
        result.to_string(),
        winner,
        game.end.clone(),
    ];
    for name in seats {
        let seat = report.seats.iter().position(|s| s == name);
        let score = match (seat, &game.scores) {
            (Some(seat), Some(scores)) => scores.get(seat).map(i64::to_string),
            _ => None,
        };
        row.push(score.unwrap_or_default());
    }
    row
}

/// The seats of every report, in order, if any of them has score terms.
fn score_seats<'a>(reports: &[&'a Report]) -> Vec<&'a str> {
    let mut seats: Vec<&str> = vec![];
    for report in reports.iter().filter(|r| r.scores.is_some()) {
        for seat in &report.seats {
            if !seats.contains(&seat.as_str()) {
                seats.push(seat);
            }
        }
    }
    seats
}

fn finish(writer: csv::Writer<Vec<u8>>) -> Result<String, csv::Error> {
    let bytes = writer.into_inner().map_err(|e| csv::Error::from(e.into_error()))?;
    // Every cell is a Rust string, so the bytes are UTF-8.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The games of one run, one row each, in game order.
pub fn simulate_csv(report: &Report, games: &[GameRecord]) -> Result<String, csv::Error> {
    let seats: Vec<&str> = score_seats(&[report]);
    let mut writer = csv::Writer::from_writer(vec![]);
    writer.write_record(header(&seats))?;
    for game in games {
        writer.write_record(row(game, report, &seats))?;
    }
    finish(writer)
}

/// Both arms of a comparison: the base's games, then the variant's, each row
/// starting with its arm (`base` or `variant`). Score columns cover the seats
/// of either side.
pub fn compare_csv(
    comparison: &Comparison,
    base_games: &[GameRecord],
    variant_games: &[GameRecord],
) -> Result<String, csv::Error> {
    let seats = score_seats(&[&comparison.base, &comparison.variant]);
    let mut writer = csv::Writer::from_writer(vec![]);
    let mut head = vec!["arm".to_string()];
    head.extend(header(&seats));
    writer.write_record(head)?;
    for (arm, report, games) in [
        ("base", &comparison.base, base_games),
        ("variant", &comparison.variant, variant_games),
    ] {
        for game in games {
            let mut cells = vec![arm.to_string()];
            cells.extend(row(game, report, &seats));
            writer.write_record(cells)?;
        }
    }
    finish(writer)
}
