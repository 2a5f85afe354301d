//! `rpsdsl analyze`: the skill index is 0 where no skill can help (plain
//! RPS) and large where it does (ROCK!, where greedy calls the flip); the
//! tension figures of a see-saw game match the answers worked out by hand
//! in its file; the report is the same at any `--jobs`.

mod common;

use common::cli::{rpsdsl, stderr, stdout};
use common::runs::{analysis, analysis_until};
use rpsdsl::sim::analyze::{Config, analyze};
use rpsdsl::sim::sequential::Goal;

#[test]
fn plain_rps_shows_no_skill() {
    let def = common::load("games/rps.rules");
    let a = analyze(
        &def,
        &def.default_options(),
        "games/rps.rules",
        &analysis("mcts:iterations=40", "random", 400),
        &|_| {},
    )
    .unwrap();
    assert!(
        a.skill_low <= 0.0 && 0.0 <= a.skill_high,
        "{} to {}",
        a.skill_low,
        a.skill_high
    );
    assert!(a.skill_index.abs() < 0.2, "{}", a.skill_index);
    assert!(
        a.skill_high - a.skill_low < 0.4,
        "an interval this wide says nothing: {} to {}",
        a.skill_low,
        a.skill_high
    );
    // Each throw is taken about a third of the time by both.
    assert_eq!(a.choices.len(), 3, "{:?}", a.choices);
    for c in &a.choices {
        assert!(
            c.strong_taken.low < 1.0 / 3.0 && 1.0 / 3.0 < c.strong_taken.high,
            "{c:?}"
        );
        assert_eq!(c.flag, None);
    }
}

#[test]
fn skill_shows_where_it_matters() {
    let def = common::load("games/rock.rules");
    let a = analyze(
        &def,
        &def.default_options(),
        "games/rock.rules",
        &analysis("greedy", "random", 100),
        &|_| {},
    )
    .unwrap();
    assert!(a.skill_low > 0.5, "{} to {}", a.skill_low, a.skill_high);
    assert_eq!(a.luck.count, 0, "random never beats greedy in ROCK!");
    // Every deal came out the same (greedy won both games), yet 50 deals
    // are not certainty: the interval stays open below the estimate.
    assert_eq!(a.skill_index, 1.0);
    assert!(
        a.skill_low < 0.95 && a.skill_high == 1.0,
        "{} to {}",
        a.skill_low,
        a.skill_high
    );
    // The luck rate's Wilson interval does not collapse at 0 either.
    assert!(a.luck.high > 0.02, "{:?}", a.luck);
}

#[test]
fn tension_of_a_see_saw_matches_the_hand_worked_answers() {
    let def = common::load("tests/games/seesaw.rules");
    let a = analyze(
        &def,
        &def.default_options(),
        "tests/games/seesaw.rules",
        &analysis("random", "random", 4),
        &|_| {},
    )
    .unwrap();
    let t = a.tension.expect("a game with score terms");
    assert_eq!(t.games, 4);
    assert_eq!(t.lead_changes, Some(2.0));
    assert_eq!(t.decided_at, Some(0.8));
    assert_eq!(t.never_led_alone.count, 0);
    assert_eq!(t.end_margin, Some(1.0));
    assert_eq!(t.drama, Some(0.2));
    assert_eq!(t.comebacks.count, 4);
    assert!(a.choices.is_empty(), "every choice is forced");
    // Up wins every game whoever sits there: no player is better. Every
    // deal's edge is 0, and two deals still leave the interval wide.
    assert_eq!(a.skill_index, 0.0);
    assert!(
        a.skill_low < -0.5 && a.skill_high > 0.5,
        "{} to {}",
        a.skill_low,
        a.skill_high
    );
}

#[test]
fn the_report_is_the_same_at_any_jobs_and_says_what_it_found() {
    let run = |jobs: &str| {
        rpsdsl(&[
            "analyze",
            "tests/games/seesaw.rules",
            "-n",
            "6",
            "--agents",
            "greedy,random",
            "--jobs",
            jobs,
        ])
    };
    let (one, two) = (run("1"), run("2"));
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(stdout(&one), stdout(&two));
    let text = stdout(&one);
    for line in [
        "skill index +0.000 (95% CI -1.000 to +1.000): too few games to tell: the interval covers 0 but is wider than 1",
        "lead changes per game          2.00",
        "winner leads for good after    80.0% of the game",
        "end margin, winner over next   1.00",
        "drama: winner behind           20.0% of decision points (mean); in 100.0% of games at least once",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let json = rpsdsl(&[
        "analyze",
        "tests/games/seesaw.rules",
        "-n",
        "2",
        "--agents",
        "random,random",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(json["tension"]["lead_changes"], 2.0);
    let bad = rpsdsl(&["analyze", "games/rps.rules", "--agents", "random"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("give the strong and the weak player"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn house_rules_change_the_analysed_game() {
    let decisions = |args: &[&str]| {
        let mut all = vec!["analyze", "-n", "4", "--agents", "random,random", "--json"];
        all.extend_from_slice(args);
        let out = rpsdsl(&all);
        assert!(out.status.success(), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let mut names: Vec<String> = json["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["decision"].as_str().unwrap().to_string())
            .collect();
        names.dedup();
        (json["game"].as_str().unwrap().to_string(), json["rules"].clone(), names)
    };
    let (base, _, base_decisions) = decisions(&["games/rubber_paper_scissors.rules"]);
    let (house, rules, house_decisions) = decisions(&["--house", "games/house/both_modules.toml"]);
    assert_eq!(base, "Rubber Paper Scissors");
    assert_eq!(house, "Rubber Paper Scissors (both modules)");
    assert_eq!(rules, "games/house/both_modules.toml");
    // The goggles module the house file switches on adds a decision.
    assert!(!base_decisions.contains(&"peek".to_string()), "{base_decisions:?}");
    assert!(house_decisions.contains(&"peek".to_string()), "{house_decisions:?}");
}

#[test]
fn the_default_budget_shrinks_for_long_games() {
    use rpsdsl::sim::analyze::{DEFAULT_GAMES, default_games};
    let short = common::load("games/rps.rules");
    let (games, length) = default_games(&short, &short.default_options(), 1);
    assert_eq!(games, DEFAULT_GAMES.1, "RPS is short: {length} choices a game");
    let middle = common::load("games/rubber_paper_scissors.rules");
    let (games, length) = default_games(&middle, &middle.default_options(), 1);
    assert!(
        DEFAULT_GAMES.0 < games && games < DEFAULT_GAMES.1,
        "{games} games for {length} choices a game"
    );
    let long = common::load("games/rps3.rules");
    let (games, length) = default_games(&long, &long.default_options(), 1);
    assert!(length > 100.0, "{length}");
    assert!(
        (DEFAULT_GAMES.0..DEFAULT_GAMES.1).contains(&games) && games % long.players() as u64 == 0,
        "{games} games for {length} choices a game"
    );
}

#[test]
fn until_significant_stops_a_matchup_as_soon_as_its_skill_is_clear() {
    let def = common::load("games/rock.rules");
    let a = analyze(
        &def,
        &def.default_options(),
        "games/rock.rules",
        &analysis_until("greedy", "random", 400, Goal::Significant),
        &|_| {},
    )
    .unwrap();
    // Greedy calls the flip and wins every game: far fewer than 400 games
    // show it, and the interval that stopped the run lies above 0.
    let skill = &a.matchups[0];
    let stop = skill
        .stopping
        .as_ref()
        .expect("a sequential matchup says why it stopped");
    assert!(stop.answered && stop.cap == 400, "{stop:?}");
    assert!(
        skill.games < 100 && skill.games.is_multiple_of(2),
        "{} games",
        skill.games
    );
    assert!(a.skill_low > 0.0, "{} to {}", a.skill_low, a.skill_high);
    // Random against random is no better than random: that matchup plays
    // on until its interval leaves out 0 or it reaches -n.
    let weak = &a.matchups[1];
    assert_eq!(weak.stopping.as_ref().unwrap().answered, weak.games < 400, "{weak:?}");
    // The figures of a run that stopped after g games are those of `-n g`.
    let fixed = analyze(
        &def,
        &def.default_options(),
        "games/rock.rules",
        &Config {
            // The bets of the stopped run were sized for 400 games; a fixed
            // run sizes them for its own, so only the counts must agree.
            ..analysis("greedy", "random", skill.games)
        },
        &|_| {},
    )
    .unwrap();
    assert_eq!(fixed.matchups[0].first_wins.count, skill.first_wins.count);
    assert_eq!(fixed.matchups[0].edge, skill.edge);
}

#[test]
fn until_significant_runs_to_the_cap_where_nobody_plays_better() {
    // Every see-saw choice is forced: every deal's edge is exactly 0, so no
    // interval can ever leave out 0 and each matchup plays all its games.
    let def = common::load("tests/games/seesaw.rules");
    let a = analyze(
        &def,
        &def.default_options(),
        "tests/games/seesaw.rules",
        &analysis_until("greedy", "random", 60, Goal::Significant),
        &|_| {},
    )
    .unwrap();
    for m in &a.matchups {
        assert_eq!(m.games, 60, "{m:?}");
        let stop = m.stopping.as_ref().unwrap();
        assert!(!stop.answered, "{m:?}");
        assert!(m.edge_low < 0.0 && m.edge_high > 0.0, "{m:?}");
    }
}

#[test]
fn precision_stops_when_the_edge_is_known_that_well() {
    // RPS with a practice duel: no skill, and a per-deal edge that varies,
    // so the interval narrows with the games and stops at ±0.3.
    let def = common::load("tests/games/rps_practice.rules");
    let a = analyze(
        &def,
        &def.default_options(),
        "tests/games/rps_practice.rules",
        &analysis_until("mcts:iterations=20", "random", 2000, Goal::Precision(0.3)),
        &|_| {},
    )
    .unwrap();
    for m in &a.matchups {
        let stop = m.stopping.as_ref().unwrap();
        assert!(stop.answered, "{m:?}");
        assert!(m.games < 2000, "{m:?}");
        assert!((m.edge_high - m.edge_low) / 2.0 <= 0.3, "{m:?}");
    }
    // Asked for a precision it cannot reach in 40 games, it plays them all.
    let capped = analyze(
        &def,
        &def.default_options(),
        "tests/games/rps_practice.rules",
        &analysis_until("mcts:iterations=20", "random", 40, Goal::Precision(0.05)),
        &|_| {},
    )
    .unwrap();
    for m in &capped.matchups {
        assert_eq!(m.games, 40, "{m:?}");
        assert!(!m.stopping.as_ref().unwrap().answered, "{m:?}");
    }
}

#[test]
fn the_command_line_says_how_many_games_each_matchup_played_and_why() {
    let run = |jobs: &str| {
        rpsdsl(&[
            "analyze",
            "games/rock.rules",
            "-n",
            "300",
            "--until-significant",
            "--agents",
            "greedy,random",
            "--jobs",
            jobs,
        ])
    };
    let (one, two) = (run("1"), run("2"));
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(
        stdout(&one),
        stdout(&two),
        "the stopping point is the same at any --jobs"
    );
    let text = stdout(&one);
    assert!(text.contains("at most 300 games per matchup"), "{text}");
    assert!(
        text.contains("each matchup stops as soon as its edge's interval leaves out 0 (--until-significant"),
        "{text}"
    );
    assert!(text.contains("games: its edge's interval leaves out 0"), "{text}");
    let json = rpsdsl(&[
        "analyze",
        "tests/games/seesaw.rules",
        "-n",
        "20",
        "--precision",
        "0.1",
        "--agents",
        "random,random",
        "--json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(json["goal"]["precision"], 0.1, "{json}");
    assert_eq!(json["matchups"][2]["games"], 20);
    assert_eq!(json["matchups"][2]["stopping"]["answered"], false);
    let bad = rpsdsl(&["analyze", "games/rps.rules", "--precision", "2"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("is not a precision"), "{}", stderr(&bad));
}

#[test]
fn without_n_each_matchup_stops_as_soon_as_it_is_sure() {
    let out = rpsdsl(&["analyze", "games/rock.rules", "--agents", "greedy,random"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // The default budget is the most; the skill is clear long before it.
    let most = text
        .lines()
        .find(|l| l.contains("games per matchup by default"))
        .and_then(|l| l.split("at most ").nth(1)?.split(' ').next())
        .unwrap_or_else(|| panic!("no default budget line in\n{text}"));
    let most: u64 = most.parse().unwrap();
    assert!(
        text.contains("(--until-significant; a 95% confidence sequence"),
        "{text}"
    );
    let played: u64 = text
        .split("played ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no games played line in\n{text}"));
    assert!(played < most / 2, "{played} of {most}\n{text}");
    assert!(text.contains("skill matters"), "{text}");
}

#[test]
fn a_drafts_first_pick_is_counted_apart_from_the_later_ones() {
    let out = rpsdsl(&[
        "analyze",
        "games/rubber_paper_scissors.rules",
        "-n",
        "4",
        "--agents",
        "random,random",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = |decision: &str| -> Vec<(String, u64)> {
        json["choices"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["decision"] == decision)
            .map(|c| {
                (
                    c["choice"].as_str().unwrap().to_string(),
                    c["strong_taken"]["of"].as_u64().unwrap(),
                )
            })
            .collect()
    };
    // The duel winner picks first from all three actions, the loser from
    // the two left; the last action is forced and not counted.
    let first = rows("draft (3 offered)");
    let names: Vec<&str> = first.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        names,
        [
            "claim the face-down token",
            "claim the face-up token",
            "place a Squad Member"
        ]
    );
    // Every first pick offers all three: each row counts the same offers.
    assert!(first.iter().all(|(_, of)| *of == first[0].1 && *of > 0), "{first:?}");
    assert!(!rows("draft (2 offered)").is_empty());
    assert!(rows("draft (1 offered)").is_empty() && rows("draft").is_empty());
}

/// Where the whole tree fits, `analyze` measures how exploitable each
/// player is, and says when the "strong" one is not closer to best play:
/// in Rock Paper Scissors uniform random play cannot be beaten, and a
/// search can. Random play's figure is exact (half of Kuhn poker's uniform
/// NashConv, 0.916667); a game whose tree does not fit says why.
#[test]
fn analyze_checks_its_players_against_a_perfect_opponent() {
    let run = |args: &[&str]| {
        let out = rpsdsl(args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let kuhn = run(&[
        "analyze",
        "games/classic/kuhn_poker.rules",
        "-n",
        "40",
        "--agents",
        "mcts:iterations=40,random",
    ]);
    assert!(
        kuhn.contains(
            "exploitability (what a perfect opponent wins per game, averaged over the seats): mcts:iterations=40 "
        ) && kuhn.contains("(estimated), random 0.458\n"),
        "{kuhn}"
    );
    let rps = run(&[
        "analyze",
        "games/rps.rules",
        "-n",
        "40",
        "--agents",
        "mcts:iterations=40,random",
    ]);
    assert!(rps.contains(", random 0.000\n"), "{rps}");
    assert!(
        rps.contains("caution: the strong player is no less exploitable than the weak one"),
        "{rps}"
    );
    let janken = run(&["analyze", "games/janken_deck.rules", "-n", "8"]);
    assert!(
        janken.contains("exploitability not measured: a draw of the game has"),
        "{janken}"
    );
}

/// A game without score terms still keeps a lead where its rules decide
/// the winner by a number per seat: a variable or a count of a seat's
/// pieces that a winning condition reads, or a result key. Tension is read
/// in it: a best of three changes hands only when the seat behind wins the
/// last two duels. A race to a line reads neither, and has no tension.
#[test]
fn tension_reads_the_lead_a_game_decides_its_winner_by() {
    let leads = |path: &str| -> Vec<String> { common::load(path).leads.iter().map(|(n, _)| n.clone()).collect() };
    assert_eq!(leads("tests/games/rps_best_of_three.rules"), ["wins"]);
    assert_eq!(leads("games/janken_deck.rules"), ["Token in tokens"]);
    assert_eq!(leads("games/rubber_paper_scissors.rules")[0], "Crown in claimed");
    // `most points of player` in the result.
    assert_eq!(leads("games/classic/goofspiel.rules"), ["points"]);
    assert!(leads("games/classic/connect_four.rules").is_empty());

    let path = "tests/games/rps_best_of_three.rules";
    let def = common::load(path);
    let a = analyze(
        &def,
        &def.default_options(),
        path,
        &analysis("random", "random", 400),
        &|_| {},
    )
    .unwrap();
    assert_eq!(a.tension_lead.as_deref(), Some("wins"));
    let t = a.tension.as_ref().expect("tension, read in `wins`");
    // A quarter of the games in theory: 1-1 after two duels, then the seat
    // that fell behind first wins.
    let changes = t.lead_changes.unwrap();
    assert!((0.15..0.35).contains(&changes), "{changes}");
    assert!(a.to_text().contains("the lead, in `wins`"), "{}", a.to_text());

    let path = "games/classic/connect_four.rules";
    let def = common::load(path);
    let a = analyze(
        &def,
        &def.default_options(),
        path,
        &analysis("random", "random", 8),
        &|_| {},
    )
    .unwrap();
    assert!(a.tension.is_none() && a.tension_lead.is_none());
}
