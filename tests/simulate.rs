//! Simulation: known answers (golden tests with tolerances derived from N),
//! determinism across thread counts, exact shard merging, and snapshots of
//! the reports a designer reads.

mod common;

use common::cli::rpsdsl;
use rpsdsl::engine::Event;
use rpsdsl::engine::Game;
use rpsdsl::sim::{self, Comparison, Plan, Report};

/// A plan of uniform random players.
fn plan(rules: &str, games: u64, seed: u64) -> Plan {
    common::runs::plan(rules, "random", games, seed)
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
        agents: "mcts:iterations=30,greedy:samples=2".into(),
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
    for game in ["rps", "rubber_paper_scissors", "rps3"] {
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
    let bad = rpsdsl(&["simulate", "games/rps.rules", "--agents", "random,mcts:iterations=0"]);
    assert_eq!(bad.status.code(), Some(2));
    // It is a diagnostic with its code, underlining the words at fault
    // where they stand on the command line.
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(said.contains("rpsdsl::bad-agent-parameter"), "{said}");
    let typed = said
        .lines()
        .find(|l| l.contains("--agents random,mcts:iterations=0"))
        .unwrap_or_else(|| panic!("{said}"));
    let underline = said
        .lines()
        .find(|l| l.contains('─') && !l.contains('╭') && !l.contains('╰'))
        .unwrap_or_else(|| panic!("{said}"));
    let column = |line: &str, needle: &str| line.find(needle).map(|b| line[..b].chars().count());
    assert_eq!(column(underline, "─"), column(typed, "iterations=0"), "{said}");
}

// ---- Reports that tell the truth (issue 17) ----

#[test]
fn a_run_where_every_game_stopped_shows_na_and_fails() {
    let args = ["simulate", "tests/games/always_endless.rules", "-n", "2", "--jobs", "1"];
    let out = rpsdsl(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        text.contains("balance n/a; first-player advantage n/a (no game finished)"),
        "{text}"
    );
    assert!(!text.contains("balance 1.000"), "{text}");
    assert!(
        err.contains("error: 2 games stopped on an error (game-too-long)") && err.contains("--allow-errors"),
        "{err}"
    );
    // The report is still printed in full, and `--allow-errors` accepts it.
    let allowed = rpsdsl(&[&args[..], &["--allow-errors", "--json"]].concat());
    assert_eq!(allowed.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&allowed.stdout).unwrap();
    assert_eq!(json["format"], "rpsdsl-simulate/4");
    assert!(json["summary"]["balance"].is_null(), "{json}");
    assert!(json["summary"]["first_player_advantage"].is_null());
    assert_eq!(json["summary"]["finished"], 0);
    // `compare` fails the same way.
    let compared = rpsdsl(&[
        "compare",
        "tests/games/always_endless.rules",
        "tests/games/always_endless.rules",
        "-n",
        "1",
    ]);
    assert_eq!(compared.status.code(), Some(1));
    let text = String::from_utf8_lossy(&compared.stdout);
    assert!(
        text.contains("Balance n/a (no game finished) -> n/a (no game finished)"),
        "{text}"
    );
    // So does `merge` of shards that hold stopped games.
    let dir = common::cli::scratch("simulate/merge_stopped");
    let mut shards = vec![];
    for shard in ["1/2", "2/2"] {
        let shard_args = [&args[..], &["--json", "--allow-errors", "--shard", shard]].concat();
        let out = rpsdsl(&shard_args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let path = dir.join(format!("shard{}.json", shards.len() + 1));
        std::fs::write(&path, &out.stdout).unwrap();
        shards.push(path.to_str().unwrap().to_string());
    }
    let merge_args: Vec<&str> = ["merge"].into_iter().chain(shards.iter().map(String::as_str)).collect();
    let merged = rpsdsl(&merge_args);
    assert_eq!(merged.status.code(), Some(1));
    let err = String::from_utf8_lossy(&merged.stderr);
    assert!(
        err.contains("error: 2 games stopped on an error (game-too-long)"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&merged.stdout).contains("balance n/a"));
    let merged = rpsdsl(&[&merge_args[..], &["--allow-errors"]].concat());
    assert_eq!(merged.status.code(), Some(0));
    // A run where games finish exits 0 without the flag.
    assert_eq!(
        rpsdsl(&["simulate", "games/rps.rules", "-n", "5"]).status.code(),
        Some(0)
    );
}

#[test]
fn mixed_agents_rotate_seats_on_paired_seeds() {
    let def = common::load("games/rock.rules");
    let n = 40;
    let mixed = Plan {
        agents: "random:seed=3,random".into(),
        ..plan("games/rock.rules", n, 2)
    };
    let report = simulate(&def, &mixed, 2);
    let by_agent = report.by_agent.clone().expect("the agents differ by seat");
    assert!(by_agent.rotated);
    assert_eq!(by_agent.agents, ["random:seed=3", "random"]);
    // Each agent plays each seat equally, on the same seeds.
    assert_eq!(by_agent.arrangements, [n / 2, n / 2]);
    for agent in 0..2 {
        for seat in 0..2 {
            assert_eq!(by_agent.games_at(agent, seat), n / 2);
        }
    }
    for k in 0..n / 2 {
        assert_eq!(report.seed_of(2 * k), report.seed_of(2 * k + 1));
        assert_ne!(report.seed_of(2 * k), report.seed_of(2 * k + 2));
    }
    for seat in 0..2 {
        assert_eq!(by_agent.wins[0][seat] + by_agent.wins[1][seat], report.wins[seat]);
    }
    // The same for any thread count, and through a JSON round trip.
    assert_eq!(simulate(&def, &mixed, 1).to_json(), report.to_json());
    assert_eq!(Report::from_json(&report.to_json()).unwrap(), report);
    let text = report.to_text();
    assert!(text.contains("seats rotated"), "{text}");
    assert!(text.contains("\nAgents\n"), "{text}");
    assert!(text.contains("random:seed=3 (agent 1)"), "{text}");
    assert!(text.contains("as North"), "{text}");
    // Game 1 put agent 2 in the first seat: `rpsdsl run` replays it so.
    assert_eq!(report.agents_for_game(1), "random,random:seed=3");
    let single = simulate(
        &def,
        &Plan {
            range: (1, 2),
            ..mixed.clone()
        },
        1,
    );
    let seed = report.seed_of(1).to_string();
    let run = rpsdsl(&[
        "run",
        "games/rock.rules",
        "--seed",
        &seed,
        "--agents",
        "random,random:seed=3",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let winner = &def.seats[single.wins.iter().position(|&w| w == 1).expect("rock has a winner")];
    assert!(
        json["result"].as_str().unwrap().starts_with(&format!("{winner} wins")),
        "{json}"
    );

    // `--no-rotate`: each agent keeps its seat.
    let fixed = simulate(
        &def,
        &Plan {
            rotate_seats: false,
            ..mixed.clone()
        },
        2,
    );
    let by_agent = fixed.by_agent.clone().unwrap();
    assert!(!by_agent.rotated);
    assert_eq!(by_agent.arrangements, [n]);
    assert_eq!((by_agent.wins[0][1], by_agent.wins[1][0]), (0, 0));
    assert_eq!(fixed.seed_of(1), sim::game_seed(2, 1));
    assert!(fixed.to_text().contains("Seats not rotated (--no-rotate)"));
    // Identical agents: nothing to rotate, nothing per agent.
    assert!(simulate(&def, &plan("games/rock.rules", 4, 2), 1).by_agent.is_none());
}

#[test]
fn compare_shows_n_for_every_mean_and_the_games_that_reached_scoring() {
    let rules = "games/rubber_paper_scissors.rules";
    let def = common::load(rules);
    let base = simulate(&def, &plan(rules, 60, 1), 2);
    let scored = base.scores.as_ref().unwrap().scored;
    let finished = base.finished();
    assert!(scored < finished, "some games end by a trigger before scoring");
    let comparison = Comparison::new(base.clone(), base.clone());
    let row = |metric: &str| comparison.rows.iter().find(|r| r.metric == metric).unwrap();
    let reached = row("games that reached scoring");
    assert_eq!(reached.base, Some(scored as f64 / 60.0));
    assert_eq!(reached.base_n, Some(60));
    let before = row("games that ended before scoring");
    assert_eq!(before.base, Some((finished - scored) as f64 / 60.0));
    // Every mean says how many games it is over: scores over the scored games.
    let means: Vec<_> = comparison
        .rows
        .iter()
        .filter(|r| r.measure == sim::Measure::Mean)
        .collect();
    assert!(means.len() >= 5);
    for r in &means {
        let n = if r.section == "Scores" { scored } else { 60 };
        assert_eq!((r.base_n, r.variant_n), (Some(n), Some(n)), "{}", r.metric);
    }
    let text = comparison.to_text();
    assert!(text.contains(&format!("(n={scored})")), "{text}");
    assert!(text.contains("games that ended before scoring"), "{text}");
    let simulated = base.to_text();
    assert!(
        simulated.contains(&format!(
            "Scores (over the {scored} games that reached scoring; {} ended before it, 0 stopped)",
            finished - scored
        )),
        "{simulated}"
    );
}

#[test]
fn compare_refuses_unrelated_games_unless_forced() {
    let out = rpsdsl(&["compare", "games/rps.rules", "games/rps3.rules", "-n", "5"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("rpsdsl::unrelated-games"), "{err}");
    // miette wraps the message to the terminal's width.
    let err = err
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        err.contains("the seats differ: Left, Right in the base, Light, Dark in the variant"),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert!(out.stdout.is_empty(), "nothing was simulated");
    let forced = rpsdsl(&["compare", "games/rps.rules", "games/rps3.rules", "-n", "5", "--force"]);
    assert_eq!(
        forced.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    // Every variant and house-rules file in games/ is related to its base.
    for (base, variant) in [
        ("games/rps3.rules", "games/variants/rps3_small.rules"),
        ("games/janken_deck.rules", "games/variants/janken_three_wilds.rules"),
        (
            "games/rubber_paper_scissors.rules",
            "games/variants/fourth_token_six.rules",
        ),
    ] {
        let (b, v) = (common::load(base), common::load(variant));
        assert_eq!(sim::unrelated(&b, &v), None, "{base} and {variant}");
    }
    let (rps, rubber) = (
        common::load("games/rps.rules"),
        common::load("games/rubber_paper_scissors.rules"),
    );
    assert!(sim::unrelated(&rps, &rubber).is_some());
    // The same game under another file name is related.
    assert_eq!(
        sim::unrelated(&rps, &common::load("tests/games/sometimes_endless.rules")),
        None
    );
}

#[test]
fn each_entry_of_an_action_menu_is_counted() {
    // RPS3's turn is a menu of two actions: move, or challenge.
    let path = "games/rps3.rules";
    let def = common::load(path);
    let games = 30;
    let report = simulate(&def, &plan(path, games, 4), 2);
    let titles: Vec<String> = report.coverage.iter().map(|c| c.title()).collect();
    let challenge = "action \"challenge from <space> to <space>\"";
    let moves = "action \"move <piece> from <space> to <space>\"";
    assert!(titles.iter().any(|t| t == challenge), "{titles:?}");
    assert!(!titles.iter().any(|t| t == "decision action"), "{titles:?}");
    // The counts agree with the decisions of the same games.
    let menu = def.decisions.iter().position(|d| d.name == "action").unwrap();
    let rpsdsl::ir::ChoiceKind::Actions(entries) = &def.decisions[menu].kind else {
        panic!("the turn is an action menu")
    };
    let mut counts = vec![0u64; entries.len()];
    for index in 0..games {
        let record = common::play(&def, sim::game_seed(4, index), &Default::default()).unwrap();
        for e in &record.events {
            if let Event::Decision { decision, value, .. } = e
                && *decision as usize == menu
            {
                counts[(*value as usize) % entries.len()] += 1;
            }
        }
    }
    let times = |title: &str| report.coverage.iter().find(|c| c.title() == title).unwrap().times;
    assert_eq!(times(moves), counts[0]);
    assert_eq!(times(challenge), counts[1]);
    assert!(counts[1] > 0, "challenges happen");
}

#[test]
fn a_preludes_parts_the_game_never_calls_are_not_listed() {
    // ROCK! uses the prelude for its kinds, but never calls its duel: the
    // duel's `throw` is not a rule of ROCK!, so it is neither a coverage row
    // nor "never fired".
    let def = common::load("games/rock.rules");
    let report = simulate(&def, &plan("games/rock.rules", 20, 1), 2);
    assert!(
        !report.coverage.iter().any(|c| c.title() == "decision throw"),
        "{:?}",
        report.coverage
    );
    assert!(report.never_fired().is_empty(), "{:?}", report.never_fired());
    // A game that calls the duel still counts its throws.
    let rps = common::load("games/rps.rules");
    let report = simulate(&rps, &plan("games/rps.rules", 20, 1), 2);
    assert!(
        report
            .coverage
            .iter()
            .any(|c| c.title() == "decision throw" && c.times > 0)
    );
}

#[test]
fn human_like_is_refused_where_it_cannot_throw_by_its_model() {
    // Five kinds (rpsls), cards thrown instead of kinds (RPS Poker), a race
    // (ROCK!): it would play exactly as its fallback, so it is refused and
    // the message names the agent to use instead.
    for path in ["tests/games/rpsls.rules", "games/rps_poker.rules", "games/rock.rules"] {
        let out = rpsdsl(&["simulate", path, "-n", "4", "--agents", "human-like:fallback=greedy"]);
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("`human-like` adds nothing in this game"), "{path}: {err}");
        assert!(err.contains("use `greedy` itself"), "{path}: {err}");
    }
    // Where it can throw, it plays: Janken Deck's opening duel is a throw.
    let out = rpsdsl(&[
        "simulate",
        "games/janken_deck.rules",
        "-n",
        "4",
        "--agents",
        "human-like",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let rps = common::load("games/rps.rules");
    let fine = simulate(
        &rps,
        &Plan {
            agents: "human-like".into(),
            ..plan("games/rps.rules", 4, 1)
        },
        1,
    );
    assert_eq!(fine.games, 4);
    // `play` seats each game's own opponent when none is named.
    let out = rpsdsl(&["play", "games/rps_poker.rules", "--seed", "1"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(mcts:iterations=300)"), "{text}");
}
