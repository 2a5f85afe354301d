//! `simulate --csv` and `compare --csv`: one row per game that parses back
//! and adds up to the report's counts, the same bytes for every thread count.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::cli::rpsdsl;
use rpsdsl::sim::{self, Plan, Report};

const BASE: &str = "games/rubber_paper_scissors.rules";
const VARIANT: &str = "games/variants/fourth_token_six.rules";

fn read_csv(path: &Path) -> (csv::StringRecord, Vec<csv::StringRecord>) {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    let rows = reader.records().collect::<Result<Vec<_>, _>>().unwrap();
    (header, rows)
}

fn column(header: &csv::StringRecord, name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column `{name}` in {header:?}"))
}

/// Every count of `report` is the sum of the rows that belong to it.
fn assert_rows_add_up(header: &csv::StringRecord, rows: &[&csv::StringRecord], report: &Report) {
    let at = |name: &str| column(header, name);
    let (game, seed, result, winner, end) = (at("game"), at("seed"), at("result"), at("winner"), at("end"));
    assert_eq!(rows.len() as u64, report.games, "one row per game");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[game].parse::<u64>().unwrap(), i as u64, "rows in game order");
        let seed: u64 = row[seed].parse().unwrap();
        assert_eq!(
            seed,
            sim::game_seed(report.seed, i as u64),
            "the seed that replays the game"
        );
    }
    for (s, name) in report.seats.iter().enumerate() {
        let won = rows
            .iter()
            .filter(|r| &r[result] == "win" && &r[winner] == name)
            .count() as u64;
        assert_eq!(won, report.wins[s], "{name} wins");
    }
    let draws = rows.iter().filter(|r| &r[result] == "draw").count() as u64;
    assert_eq!(draws, report.draws);
    let stopped = rows.iter().filter(|r| &r[result] == "stopped").count() as u64;
    assert_eq!(stopped, report.stopped.values().map(|s| s.games).sum::<u64>());
    let mut ends: BTreeMap<String, u64> = BTreeMap::new();
    for row in rows {
        *ends.entry(row[end].to_string()).or_insert(0) += 1;
    }
    assert_eq!(ends, report.ends, "end causes");
    for (name, histogram) in [
        ("decision_points", &report.decision_points),
        ("decisions", &report.decisions),
    ] {
        let c = at(name);
        let mut lengths: BTreeMap<u64, u64> = BTreeMap::new();
        for row in rows {
            *lengths.entry(row[c].parse().unwrap()).or_insert(0) += 1;
        }
        assert_eq!(lengths, histogram.0, "{name} per game");
    }
    if report.scores.is_none() {
        assert!(
            !header.iter().any(|h| h.starts_with("score ")),
            "no score terms, no score columns"
        );
        return;
    }
    // Score totals are private counts: read them as the JSON report writes them.
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let scores = &json["scores"];
    for (s, name) in report.seats.iter().enumerate() {
        let c = at(&format!("score {name}"));
        let cells: Vec<i64> = rows
            .iter()
            .filter(|r| !r[c].is_empty())
            .map(|r| r[c].parse().unwrap())
            .collect();
        assert_eq!(
            cells.len() as u64,
            scores["scored"].as_u64().unwrap(),
            "{name}: scored games"
        );
        assert_eq!(
            cells.iter().sum::<i64>(),
            scores["totals"][s]["sum"].as_i64().unwrap(),
            "{name}: score total"
        );
        let squares: i64 = cells.iter().map(|x| x * x).sum();
        assert_eq!(squares, scores["totals"][s]["sum_squares"].as_i64().unwrap());
    }
}

#[test]
fn simulate_csv_has_a_row_per_game_that_adds_up_to_the_report() {
    let dir = tempdir("simulate");
    let out = dir.join("games.csv");
    let run = rpsdsl(&[
        "simulate",
        BASE,
        "-n",
        "150",
        "--seed",
        "4",
        "--json",
        "--csv",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let report = Report::from_json(&String::from_utf8(run.stdout).unwrap()).unwrap();
    let (header, rows) = read_csv(&out);
    assert_eq!(
        header.iter().collect::<Vec<_>>(),
        [
            "game",
            "seed",
            "agents",
            "decision_points",
            "decisions",
            "result",
            "winner",
            "end",
            "score Orange",
            "score Blue"
        ]
    );
    let rows: Vec<&csv::StringRecord> = rows.iter().collect();
    assert_rows_add_up(&header, &rows, &report);
    // A game won by a trigger is not scored: its score cells are empty.
    let end = column(&header, "end");
    let trigger = rows
        .iter()
        .find(|r| r[end].starts_with("trigger "))
        .expect("some game ends by a trigger");
    assert_eq!(&trigger[column(&header, "score Orange")], "");
}

#[test]
fn compare_csv_holds_both_arms_each_adding_up_to_its_report() {
    let dir = tempdir("compare");
    let out = dir.join("both.csv");
    let run = rpsdsl(&[
        "compare",
        BASE,
        VARIANT,
        "-n",
        "120",
        "--json",
        "--csv",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let (header, rows) = read_csv(&out);
    assert_eq!(&header[0], "arm");
    let mut arms = rows.iter().map(|r| r[0].to_string()).collect::<Vec<_>>();
    arms.dedup();
    assert_eq!(arms, ["base", "variant"], "the base's rows, then the variant's");
    for arm in ["base", "variant"] {
        let report = Report::from_json(&json[arm].to_string()).unwrap();
        let mine: Vec<&csv::StringRecord> = rows.iter().filter(|r| &r[0] == arm).collect();
        assert_rows_add_up(&header, &mine, &report);
    }
}

#[test]
fn games_stopped_by_a_limit_are_rows_too() {
    let path = "tests/games/sometimes_endless.rules";
    let def = common::load(path);
    let plan = Plan {
        rotate_seats: false,
        ..common::runs::plan(path, "random", 4, 1)
    };
    let (report, games) = sim::simulate_games(&def, &def.default_options(), &plan, 2, &|_| {}).unwrap();
    assert!(report.stopped.contains_key("game-too-long"), "seed 1 stops a game");
    let text = sim::csv::simulate_csv(&report, &games).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let rows = reader.records().collect::<Result<Vec<_>, _>>().unwrap();
    let rows: Vec<&csv::StringRecord> = rows.iter().collect();
    assert_rows_add_up(&header, &rows, &report);
    let stopped = rows
        .iter()
        .find(|r| &r[column(&header, "result")] == "stopped")
        .unwrap();
    assert_eq!(&stopped[column(&header, "end")], "stopped: game-too-long");
}

#[test]
fn the_same_seed_gives_the_same_csv_whatever_the_thread_count() {
    let dir = tempdir("threads");
    let mut files = vec![];
    for jobs in ["1", "3"] {
        let out = dir.join(format!("jobs{jobs}.csv"));
        let run = rpsdsl(&[
            "compare",
            BASE,
            VARIANT,
            "-n",
            "90",
            "--jobs",
            jobs,
            "--csv",
            out.to_str().unwrap(),
        ]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        files.push(std::fs::read(&out).unwrap());
    }
    assert!(!files[0].is_empty());
    assert_eq!(files[0], files[1]);
}

#[test]
fn records_are_the_same_for_every_thread_count_and_match_the_plain_report() {
    let def = common::load(BASE);
    let plan = Plan {
        rotate_seats: false,
        ..common::runs::plan(BASE, "random", 60, 9)
    };
    let options = def.default_options();
    let (one, games_one) = sim::simulate_games(&def, &options, &plan, 1, &|_| {}).unwrap();
    let (four, games_four) = sim::simulate_games(&def, &options, &plan, 4, &|_| {}).unwrap();
    assert_eq!(one, four);
    assert_eq!(games_one, games_four);
    assert_eq!(one, sim::simulate(&def, &options, &plan, 2, &|_| {}).unwrap());
    assert_eq!(
        games_one.iter().map(|g| g.index).collect::<Vec<_>>(),
        (0..60).collect::<Vec<_>>()
    );
}

/// A fresh folder under the target directory for one test's files.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report_csv_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn rotated_seats_show_in_the_agents_column_and_add_up_per_agent() {
    let dir = tempdir("rotate");
    let out = dir.join("rotated.csv");
    let run = rpsdsl(&[
        "simulate",
        "games/rps.rules",
        "-n",
        "40",
        "--agents",
        "random,human-like",
        "--json",
        "--csv",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let report = Report::from_json(&String::from_utf8(run.stdout).unwrap()).unwrap();
    let by_agent = report.by_agent.clone().expect("mixed agents are reported per agent");
    let (header, rows) = read_csv(&out);
    let (agents, seed, winner) = (
        column(&header, "agents"),
        column(&header, "seed"),
        column(&header, "winner"),
    );
    // Each agent plays each seat on the same deal: games 2k and 2k+1 share a seed.
    for pair in rows.chunks(2) {
        assert_eq!(&pair[0][agents], "random,human-like");
        assert_eq!(&pair[1][agents], "human-like,random");
        assert_eq!(pair[0][seed], pair[1][seed]);
    }
    for (a, agent) in by_agent.agents.iter().enumerate() {
        for (s, seat) in report.seats.iter().enumerate() {
            let won = rows
                .iter()
                .filter(|r| &r[winner] == seat && r[agents].split(',').nth(s) == Some(agent.as_str()))
                .count() as u64;
            assert_eq!(won, by_agent.wins[a][s], "{agent} winning as {seat}");
        }
    }
}
