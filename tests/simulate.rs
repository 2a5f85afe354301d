//! Simulation: known answers (golden tests with tolerances derived from N),
//! determinism across thread counts, exact shard merging, and snapshots of
//! the reports a designer reads.

mod common;

use common::cli::rpsdsl;
use rpsdsl::engine::Event;
use rpsdsl::game::Game;
use rpsdsl::sim::{self, Comparison, Plan, Report};

fn plan(rules: &str, games: u64, seed: u64) -> Plan {
    Plan {
        rules: rules.into(),
        seed,
        agents: "random".into(),
        options: vec![],
        games,
        range: (0, games),
        rotate_seats: true,
    }
}

fn simulate(def: &Game, plan: &Plan, jobs: usize) -> Report {
    sim::simulate(def, &def.default_options(), plan, jobs, &|_| {}).unwrap()
}

/// |observed - expected| within `k` standard errors of a proportion.
fn within(observed: u64, n: u64, p: f64, k: f64) -> bool {
    let se = (p * (1.0 - p) / n as f64).sqrt();
    (observed as f64 / n as f64 - p).abs() <= k * se
}

#[test]
fn classic_rps_is_balanced_and_ties_a_third_of_throws() {
    let def = common::load("games/rps.rules");
    let n = 3000;
    let report = simulate(&def, &plan("games/rps.rules", n, 7), 2);
    assert_eq!(report.games, n);
    assert_eq!(report.wins.iter().sum::<u64>(), n, "every classic game has a winner");
    // Each seat wins with p = 1/2, so the gap between them has a standard
    // error of 1/sqrt(n); allow 4 of them.
    let balance = report.summary().balance.unwrap();
    assert!(balance >= 1.0 - 4.0 / (n as f64).sqrt(), "balance {balance}");
    assert!(within(report.wins[0], n, 0.5, 4.0));
    // A throw ties when both hands are the same: 1/3 for random players.
    let throws = report.together.iter().find(|t| t.decision == "throw").unwrap();
    assert!(throws.rounds >= n, "at least one throw per game");
    assert!(
        within(throws.alike, throws.rounds, 1.0 / 3.0, 4.0),
        "{} ties in {} throws",
        throws.alike,
        throws.rounds
    );
}

#[test]
fn rock_with_identical_agents_is_a_coin_flip() {
    // ROCK!: two random players; every decided game is won by either seat
    // with probability 1/2.
    let def = common::load("games/rock.rules");
    let report = simulate(&def, &plan("games/rock.rules", 1000, 5), 2);
    let decided = report.wins[0] + report.wins[1];
    assert_eq!(decided + report.draws, report.games);
    assert!(
        within(report.wins[0], decided, 0.5, 4.0),
        "North won {} of {decided}",
        report.wins[0]
    );
    let balance = report.summary().balance.unwrap();
    assert!(balance >= 1.0 - 4.0 / (report.games as f64).sqrt(), "balance {balance}");
}

#[test]
fn throw_ties_match_the_decision_events_of_each_game() {
    // The report's count of throws and ties equals what the raw events of
    // the same games (seed derived from the run's seed and the game index) say.
    let def = common::load("games/rps.rules");
    let games = 200;
    let report = simulate(&def, &plan("games/rps.rules", games, 3), 1);
    let (mut pairs, mut ties) = (0, 0);
    for index in 0..games {
        let record = common::play(&def, sim::game_seed(3, index), &Default::default()).unwrap();
        let throws: Vec<(u8, i64)> = record
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Decision {
                    seat, decision, value, ..
                } if def.decisions[*decision as usize].name == "throw" => Some((*seat, *value)),
                _ => None,
            })
            .collect();
        for pair in throws.chunks(2) {
            assert_eq!((pair[0].0, pair[1].0), (0, 1), "a throw is one hand from each seat");
            pairs += 1;
            ties += u64::from(pair[0].1 == pair[1].1);
        }
    }
    let throws = report.together.iter().find(|t| t.decision == "throw").unwrap();
    assert_eq!((throws.rounds, throws.alike), (pairs, ties));
}

#[test]
fn each_game_replays_with_its_derived_seed() {
    let def = common::load("games/rubber_paper_scissors.rules");
    let whole = plan("games/rubber_paper_scissors.rules", 12, 5);
    for index in 0..whole.games {
        let one = Plan {
            range: (index, index + 1),
            ..whole.clone()
        };
        let report = simulate(&def, &one, 1);
        let record = common::play(&def, sim::game_seed(5, index), &Default::default()).unwrap();
        let outcome = record.outcome.unwrap();
        match outcome.winner {
            Some(seat) => assert_eq!(report.wins[seat as usize], 1, "game {index}"),
            None => assert_eq!(report.draws, 1, "game {index}"),
        }
        assert_eq!(report.decisions.count(), 1);
        assert_eq!(report.decisions.max(), Some(record.decisions.len() as u64));
    }
}

#[test]
fn results_are_identical_for_every_thread_count() {
    let def = common::load("games/rubber_paper_scissors.rules");
    // 300 games: more than one chunk, and not a multiple of the chunk size.
    let p = plan("games/rubber_paper_scissors.rules", 300, 11);
    let one = simulate(&def, &p, 1);
    let two = simulate(&def, &p, 2);
    assert_eq!(one, two);
    assert_eq!(one.to_json(), two.to_json());
    assert_eq!(one.to_text(), two.to_text());
    assert_eq!(one.games, 300);
    assert!(one.is_complete());
}

#[test]
fn search_players_give_identical_results_for_every_thread_count() {
    // Each game's agents draw from streams of that game's seed, so a search
    // player's choices do not depend on which thread plays the game.
    let def = common::load("games/janken_deck.rules");
    let p = Plan {
        agents: "mcts:iterations=30,human-like:fallback=greedy(samples=2)".into(),
        ..plan("games/janken_deck.rules", 10, 5)
    };
    let one = simulate(&def, &p, 1);
    let two = simulate(&def, &p, 2);
    assert_eq!(one.to_json(), two.to_json());
    assert_eq!(one.games, 10);
}

#[test]
fn merged_shards_equal_one_run() {
    let def = common::load("games/rubber_paper_scissors.rules");
    let whole = plan("games/rubber_paper_scissors.rules", 300, 2);
    let single = simulate(&def, &whole, 2);
    let shards: Vec<Report> = (1..=3)
        .map(|i| {
            let shard = Plan {
                range: sim::shard_range(300, i, 3),
                ..whole.clone()
            };
            simulate(&def, &shard, 1)
        })
        .collect();
    assert!(!shards[0].is_complete());
    // Any order gives the same report.
    let mut merged = shards[2].clone();
    merged.merge(&shards[0]).unwrap();
    merged.merge(&shards[1]).unwrap();
    assert_eq!(merged, single);
    assert_eq!(merged.to_json(), single.to_json());
    // And through JSON files, as `rpsdsl merge` reads them.
    let mut from_json = Report::from_json(&shards[0].to_json()).unwrap();
    for shard in &shards[1..] {
        from_json.merge(&Report::from_json(&shard.to_json()).unwrap()).unwrap();
    }
    assert_eq!(from_json, single);

    // A shard twice, or a shard of another run, is refused.
    let mut twice = shards[0].clone();
    assert!(twice.merge(&shards[0]).is_err());
    let other = simulate(
        &def,
        &Plan {
            seed: 3,
            ..whole.clone()
        },
        1,
    );
    let mut mixed = shards[0].clone();
    assert!(mixed.merge(&other).is_err());
}

#[test]
fn games_stopped_by_the_decision_limit_are_counted_and_replayable() {
    let path = "tests/games/sometimes_endless.rules";
    let def = common::load(path);
    let report = simulate(&def, &plan(path, 4, 1), 2);
    let stop = &report.stopped["game-too-long"];
    let won: u64 = report.wins.iter().sum();
    assert!(stop.games > 0 && won > 0, "seed 1 gives both kinds of game");
    assert_eq!(won + report.draws + stop.games, report.games);
    assert_eq!(report.ends["stopped: game-too-long"], stop.games);
    assert_eq!(stop.first_seed, sim::game_seed(1, stop.first_game));
    let replay = common::play(&def, stop.first_seed, &Default::default()).unwrap_err();
    assert_eq!(replay.diagnostic.code.as_str(), "game-too-long");
    let text = report.to_text();
    assert!(text.contains(&format!("rpsdsl run {path} --seed {}", stop.first_seed)));
}

#[test]
fn house_rules_anytime_actions_and_conditional_scores_are_covered() {
    let loaded = rpsdsl::load::load_game(
        std::path::Path::new("games/house/both_modules.toml"),
        &rpsdsl::check::FsLoader,
        |_| Ok(vec![]),
    )
    .unwrap_or_else(|failed| panic!("{:?}", failed.diagnostics));
    let p = plan("games/house/both_modules.toml", 100, 1);
    let report = sim::simulate(&loaded.def, &loaded.options, &p, 2, &|_| {}).unwrap();
    let row = |title: &str| report.coverage.iter().find(|c| c.title() == title).unwrap();
    let goggles = row("anytime \"spend Goggles\"");
    assert!(goggles.games > 0 && goggles.available.unwrap() >= goggles.times);
    // Equipment bonus replaces the +2 Bonus term, whose `when` is then off.
    assert_eq!(row("score bonus").available, Some(0));
    assert!(
        report
            .never_fired()
            .iter()
            .any(|n| n.starts_with("score bonus (rubber_paper_scissors.rules:")
                && n.ends_with(", its `when` never held)")),
        "{:?}",
        report.never_fired()
    );
}

fn snapshot(name: &str, text: &str) {
    common::snap::assert_snapshot!(name, text);
}

#[test]
fn report_snapshots() {
    for game in ["rps", "rubber_paper_scissors"] {
        let rules = format!("games/{game}.rules");
        let def = common::load(&rules);
        let report = simulate(&def, &plan(&rules, 200, 1), 2);
        snapshot(&format!("simulate__{game}_report"), &report.to_text());
    }
}

#[test]
fn compare_marks_real_differences_and_summarises() {
    // Best of 5 against best of 1: the same seeds, much longer games, and no
    // change in who wins.
    let def = common::load("games/rps.rules");
    let base = simulate(&def, &plan("games/rps.rules", 400, 1), 2);
    let setting = rpsdsl::check::OptionSetting {
        name: "best_of".into(),
        value: "5".into(),
        name_span: Default::default(),
        value_span: Default::default(),
    };
    let options = rpsdsl::check::resolve_settings(&def, &[setting]).unwrap();
    let variant_plan = Plan {
        options: vec![("best_of".into(), "5".into())],
        ..plan("games/rps.rules", 400, 1)
    };
    let variant = sim::simulate(&def, &options, &variant_plan, 2, &|_| {}).unwrap();
    let comparison = Comparison::new(base, variant);
    let length = comparison
        .rows
        .iter()
        .find(|r| r.metric == "decisions per game, mean")
        .unwrap();
    assert!(length.significant());
    let text = comparison.to_text();
    assert!(text.contains("Games are "), "{text}");
    assert!(text.contains("longer"), "{text}");
    snapshot("simulate__compare_rps_best_of_5", &text);
}

#[test]
fn cli_shards_merge_into_the_single_run() {
    let dir = std::env::temp_dir().join(format!("rpsdsl-sim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let common_args = ["simulate", "games/rps.rules", "-n", "500", "--seed", "9", "--json"];
    let single = rpsdsl(&common_args);
    assert_eq!(
        single.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&single.stderr)
    );
    let mut files = vec![];
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let mut args = common_args.to_vec();
        args.extend(["--shard", &shard, "--jobs", "1"]);
        let out = rpsdsl(&args);
        assert_eq!(out.status.code(), Some(0));
        let file = dir.join(format!("shard{i}.json"));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file.display().to_string());
    }
    let merged = rpsdsl(&["merge", "--json", &files[1], &files[0]]);
    assert_eq!(
        merged.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&merged.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&single.stdout)
    );
    // Text reports agree too, and point at the metric definitions.
    let text = rpsdsl(&["merge", &files[0], &files[1]]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("docs/metrics.md"));
    // A bad shard is a usage error.
    let bad = rpsdsl(&["simulate", "games/rps.rules", "--shard", "3/2"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn cli_compares_a_base_game_with_house_rules() {
    let out = rpsdsl(&[
        "compare",
        "games/rubber_paper_scissors.rules",
        "games/house/both_modules.toml",
        "-n",
        "60",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("anytime \"spend Goggles\""), "{text}");
    assert!(text.contains("\nSummary\n"), "{text}");
    let json = rpsdsl(&["compare", "games/rps.rules", "games/rps.rules", "-n", "50", "--json"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(value["base"]["games"], 50);
    assert_eq!(
        value["base"]["wins"], value["variant"]["wins"],
        "the same seeds give the same games"
    );
    // An unknown agent is a usage error.
    let bad = rpsdsl(&["simulate", "games/rps.rules", "--agents", "nobody"]);
    assert_eq!(bad.status.code(), Some(2));
}
