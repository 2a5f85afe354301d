//! `rpsdsl verdict`: the answers, against crafted variants whose answer is
//! known, and the check that the strong player really is stronger.

mod common;

use common::cli::rpsdsl;

const BEST_OF_THREE: &str = "tests/games/rps_best_of_three.rules";

/// The verdict as JSON, with a small search against random so that a test
/// stays quick; `--deals` bounds it whatever the machine's speed.
fn verdict(base: &str, variant: &str, agents: &str, deals: &str) -> serde_json::Value {
    let out = rpsdsl(&[
        "verdict", base, variant, "--agents", agents, "--deals", deals, "--time", "120", "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn answer<'v>(v: &'v serde_json::Value, question: &str) -> &'v serde_json::Value {
    v["questions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["question"] == question)
        .unwrap()
}

/// A variant that hands Left a duel before play reads "less fair"; a single
/// duel instead of a best of three reads "shorter"; neither changes draws.
#[test]
fn a_head_start_is_less_fair_and_a_single_duel_is_shorter() {
    let head_start = verdict(
        BEST_OF_THREE,
        "tests/games/rps_head_start.rules",
        "mcts:iterations=10,random",
        "600",
    );
    let fair = answer(&head_start, "fair");
    assert_eq!(fair["answer"], "less fair", "{fair}");
    assert_eq!(fair["direction"], -1);
    assert!(fair["variant"]["low"].as_f64().unwrap() > 0.3, "{fair}");

    let single = verdict(BEST_OF_THREE, "games/rps.rules", "mcts:iterations=10,random", "160");
    let short = answer(&single, "short");
    assert_eq!(short["answer"], "shorter", "{short}");
    assert!(short["difference"]["high"].as_f64().unwrap() < 0.0);
    assert_eq!(answer(&single, "fair")["answer"], "no clear change");
    assert_eq!(answer(&single, "decisive")["answer"], "no clear change");
    // Both keep their lead in `wins`, which their winning condition reads:
    // tension is judged in it. A single duel never changes hands.
    let tension = answer(&single, "tension");
    assert_ne!(tension["answer"], "not judged", "{tension}");
    assert_ne!(tension["direction"], 1, "{tension}");
    assert!(tension["measure"].as_str().unwrap().contains("`wins`"), "{tension}");
    assert!(tension["base"]["low"].as_f64().unwrap() > 0.0, "{tension}");
    assert_eq!(tension["variant"]["estimate"].as_f64().unwrap(), 0.0, "{tension}");
}

/// In rock-paper-scissors no player beats random: the verdict says so
/// first, and withholds the skill answer. In tic-tac-toe a search does.
#[test]
fn the_skill_answer_needs_players_shown_to_differ() {
    let out = rpsdsl(&[
        "verdict",
        BEST_OF_THREE,
        "games/rps.rules",
        "--agents",
        "mcts:iterations=10,random",
        "--deals",
        "64",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // After the players' line and the one on the strong player's strength.
    assert!(
        lines[3].starts_with("caution: the strong player was not shown to beat"),
        "{text}"
    );
    assert!(text.contains("  skill     not judged"), "{text}");

    let ttt = "games/classic/tic_tac_toe.rules";
    let v = verdict(ttt, ttt, "mcts:iterations=200,random", "160");
    for side in v["separation"].as_array().unwrap() {
        assert_eq!(side["separated"], true, "{side}");
    }
    assert_eq!(answer(&v, "skill")["answer"], "no clear change");
}

/// Games that are not versions of one game are refused, as `compare`
/// refuses them; so is an --agents that is not a strong and a weak player.
#[test]
fn unrelated_games_and_bad_players_are_refused() {
    let out = rpsdsl(&[
        "verdict",
        BEST_OF_THREE,
        "games/classic/tic_tac_toe.rules",
        "--deals",
        "8",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rpsdsl::unrelated-games") && err.contains("--force"),
        "{err}"
    );

    let out = rpsdsl(&[
        "verdict",
        BEST_OF_THREE,
        "games/rps.rules",
        "--agents",
        "mcts,random,greedy",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the strong and the weak player"));
    let out = rpsdsl(&["verdict", BEST_OF_THREE, "games/rps.rules", "--agents", "mcst,random"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `mcts`?"));
}

/// `sweep` plays every value on the same deals and names the best for a
/// target: a single duel is the shortest rock-paper-scissors match.
#[test]
fn a_sweep_names_the_shortest_match() {
    let page = common::cli::scratch("verdict/sweep").join("sweep.html");
    let out = rpsdsl(&[
        "sweep",
        "games/rps.rules",
        "--vary",
        "best_of=1..3",
        "--target",
        "short",
        "--agents",
        "mcts:iterations=10,random",
        "--deals",
        "400",
        "--json",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let sweep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let labels: Vec<&str> = sweep["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["best_of=1", "best_of=2", "best_of=3"]);
    assert_eq!(sweep["best"]["label"], "best_of=1");
    assert_eq!(sweep["best"]["not_clearly_better_than"], serde_json::json!([]));
    assert_eq!(sweep["deals"], 400);
    // The page: the best value on top and marked in the table, and a chart
    // per question (fair, short, decisive, skill, and tension in `wins`).
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Best for short: <strong>best_of=1</strong>"), "{html}");
    assert!(html.contains(r#"<tr class="best"><td>best_of=1</td>"#), "{html}");
    assert_eq!(html.matches("<svg").count(), 5);

    let out = rpsdsl(&["sweep", "games/rps.rules", "--vary", "best_of"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not NAME=VALUES"));
    let out = rpsdsl(&["sweep", "games/rps.rules", "--vary", "best_of=5..1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = rpsdsl(&["sweep", "games/rps.rules", "--vary", "best_ov=1,3", "--deals", "8"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("best_of"),
        "a did-you-mean for the option"
    );
}

/// `--html` writes the verdict as a page: the answers first, then a chart
/// of the players and one per question judged on deals.
#[test]
fn the_verdict_draws_a_page() {
    let page = common::cli::scratch("verdict/html").join("verdict.html");
    let out = rpsdsl(&[
        "verdict",
        BEST_OF_THREE,
        "tests/games/rps_head_start.rules",
        "--agents",
        "mcts:iterations=10,random",
        "--deals",
        "64",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    for needle in [
        "The answers",
        "The players",
        "Caution: the strong player was not shown",
        "<h2>short: ",
        "The choices",
    ] {
        assert!(html.contains(needle), "no {needle:?} in the page");
    }
    // The players, then fair, short and its counter (`wins` a game),
    // decisive with the winner's margin and how early games are decided (in
    // `wins`, the lead the rules decide the winner by), skill and tension,
    // then the choices' worth.
    assert_eq!(html.matches("<svg").count(), 10);
    assert!(html.contains("`wins` per game"), "the counter's chart");
}

/// A throw that beats every other is worth most of a game: kept from it, the
/// strong player loses to one who throws it. Where paper beats it, it is
/// worth little, and the verdict reads the shift; the other throws' worth
/// stays in doubt, and no shift is claimed for them.
#[test]
fn restricted_play_prices_a_choice_and_sees_its_worth_shift() {
    let v = verdict(
        "tests/games/rps_dynamite.rules",
        "tests/games/rps_dynamite_fizzles.rules",
        "mcts:iterations=30,random",
        "300",
    );
    let rows = v["choices"]["rows"].as_array().unwrap();
    let row = |choice: &str| rows.iter().find(|r| r["choice"] == choice).unwrap();
    let dynamite = row("dynamite");
    assert_eq!(dynamite["decision"], "throw");
    assert!(dynamite["base"]["worth"]["low"].as_f64().unwrap() > 0.5, "{dynamite}");
    assert!(
        dynamite["variant"]["worth"]["high"].as_f64().unwrap() < 0.5,
        "{dynamite}"
    );
    assert!(dynamite["shift"]["high"].as_f64().unwrap() < 0.0, "{dynamite}");
    assert_eq!(dynamite["direction"], -1);
    // The strong player takes dynamite far more often where nothing beats it.
    let taken = |game: &str| dynamite[game]["taken"]["rate"].as_f64().unwrap();
    assert!(taken("base") > taken("variant") + 0.2, "{dynamite}");
    for throw in ["rock", "scissors"] {
        assert_eq!(row(throw)["direction"], 0, "{}", row(throw));
    }
    assert_eq!(v["choices"]["deals"], 300);
    assert!(v["choices"]["skipped"].is_null());
}

/// A player that cannot be kept from a choice leaves the worths unmeasured,
/// and the verdict says why instead of guessing.
#[test]
fn a_player_that_cannot_be_restricted_is_named() {
    let out = rpsdsl(&[
        "verdict",
        "tests/games/rps_best_of_three.rules",
        "tests/games/rps_head_start.rules",
        "--agents",
        "human_like,random",
        "--deals",
        "16",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.trim_start().starts_with("choices")).unwrap();
    assert!(line.contains("not measured"), "{line}");
    assert!(line.contains("cannot be kept from a choice"), "{line}");
}

/// Where both games' whole trees are small, the strong player is their
/// solved strategy, playing to win, and the verdict gives its
/// exploitability; a search is the weak player.
#[test]
fn a_small_game_is_judged_with_its_solved_strategy() {
    let kuhn = "games/classic/kuhn_poker.rules";
    let out = rpsdsl(&["verdict", kuhn, kuhn, "--time", "10", "--deals", "64", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["strong"].as_str().unwrap().starts_with("solve:"), "{}", v["strong"]);
    assert!(v["strong"].as_str().unwrap().contains("wins=true"), "{}", v["strong"]);
    assert!(v["weak"].as_str().unwrap().starts_with("mcts:"), "{}", v["weak"]);
    for e in v["strong_exploitability"].as_array().unwrap() {
        let e = e.as_f64().unwrap();
        assert!((0.0..0.01).contains(&e), "{e}");
    }
    // The solved strategy beats random at winning hands.
    for side in v["separation"].as_array().unwrap() {
        assert!(side["strong_vs_random"]["low"].as_f64().unwrap() > 0.0, "{side}");
    }
}

/// The saturation check (issue: players shown to be strong). A search four
/// times as large as the strong player beats it clearly on connect four:
/// the verdict refuses to call it strong and says by how much. On Rock
/// Paper Scissors, where no search does better than another, the check
/// shows the strong player strong, within ±0.05.
#[test]
fn the_strong_player_is_called_strong_only_when_a_larger_search_does_no_better() {
    let saturation = |game: &str, deals: &str| -> (serde_json::Value, String) {
        let args = [
            "verdict",
            game,
            game,
            "--force",
            "--agents",
            "mcts:iterations=2,random",
            "--time",
            "60",
            "--deals",
            deals,
        ];
        let json = rpsdsl(&[&args[..], &["--json"]].concat());
        assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        let text = String::from_utf8(rpsdsl(&args).stdout).unwrap();
        (v["saturation"].clone(), text)
    };
    let (weak, text) = saturation("games/classic/connect_four.rules", "64");
    assert_eq!(weak["stronger"], "mcts:iterations=8", "{weak}");
    assert_eq!(weak["shown"], false, "{weak}");
    assert!(weak["gain"]["low"].as_f64().unwrap() > 0.05, "{weak}");
    // The players first, then how strong the strong one is shown to be.
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("players: strong mcts:iterations=2, weak random"),
        "{text}"
    );
    let header = text.lines().nth(2).unwrap();
    assert!(
        header.starts_with("strong player not shown strong: mcts:iterations=8 (4× its budget)"),
        "{text}"
    );
    assert!(header.contains("more than 0.05 better"), "{text}");

    let (even, text) = saturation("games/rps.rules", "4000");
    assert_eq!(even["shown"], true, "{even}");
    let gain = &even["gain"];
    assert!(
        gain["low"].as_f64().unwrap() > -0.05 && gain["high"].as_f64().unwrap() < 0.05,
        "{even}"
    );
    assert!(
        text.lines().nth(2).unwrap().starts_with("strong player shown strong:"),
        "{text}"
    );
}

/// Where no tree fits, the verdict lets challengers meet the search that
/// fits its time, and takes one where it scores at least an even share: on
/// ROCK!, whose race a search of a few iterations plays badly, the
/// one-step lookahead (or the search reading a learnt evaluation, where
/// that measured at least as strong on the machine's timing) replaces the
/// plain search, and the players' line says why. On connect four, which
/// has no score for it to look ahead by, the lookahead on the score never
/// plays; a search does, or the lookahead on a learnt evaluation where that
/// measured at least as strong.
#[test]
fn the_lookahead_plays_where_it_is_as_strong_as_the_search() {
    let chosen = |game: &str| -> serde_json::Value {
        let out = rpsdsl(&["verdict", game, game, "--time", "10", "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let rock = chosen("games/rock.rules");
    let strong = rock["strong"].as_str().unwrap();
    let why = rock["players_why"].as_str().unwrap();
    let challenger = if strong == "greedy" {
        assert_eq!(rock["weak"], "greedy:samples=1");
        "the one-step lookahead on the game's own score"
    } else if strong.starts_with("learned:") {
        "the one-step lookahead on that evaluation"
    } else {
        assert!(strong.contains(":value=learned("), "{strong}: {why}");
        "the search reading an evaluation learnt in self-play"
    };
    assert!(
        why.starts_with(&format!("{challenger}: against mcts:iterations=")),
        "{strong}: {why}"
    );
    // At least even where its games fit the budget, shown better where
    // they take longer (a loaded machine may time them so).
    assert!(
        why.contains("at least even") || why.contains("deals, more, and") || why.contains("within 0.05 of even"),
        "{why}"
    );

    let connect_four = chosen("games/classic/connect_four.rules");
    let strong = connect_four["strong"].as_str().unwrap();
    let why = connect_four["players_why"].as_str().unwrap();
    // No score to look ahead by: never `greedy`. A search, plain or reading
    // an evaluation it learnt, or the lookahead on that evaluation, as
    // measured on the machine's timing.
    assert!(
        strong.starts_with("mcts:") || strong.starts_with("learned:"),
        "{strong}: {why}"
    );
    assert!(
        why == "the strongest search whose games fit the time"
            || why.starts_with("the search reading an evaluation learnt in self-play: against mcts:")
            || why.starts_with("the one-step lookahead on that evaluation: against mcts:"),
        "{why}"
    );
}

/// A game an error stops is no one's win, and never passes unsaid: the
/// verdict and the sweep count such games per game or value, name the
/// error, and exit 1 unless `--allow-errors`, as `simulate` does.
#[test]
fn games_stopped_by_an_error_are_counted_named_and_fail_the_run() {
    const STUCK: &str = "tests/games/sometimes_stuck.rules";
    let out = rpsdsl(&[
        "verdict",
        STUCK,
        STUCK,
        "--set",
        "strict=true",
        "--agents",
        "mcts:iterations=5,random",
        "--deals",
        "40",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    for game in ["the base", "the variant"] {
        let line = text
            .lines()
            .find(|l| l.starts_with("caution: ") && l.contains(&format!("games of {game} stopped")))
            .unwrap_or_else(|| panic!("no caution for {game}:\n{text}"));
        assert!(
            line.contains("rpsdsl::nothing-to-choose: Ben has nothing to choose from"),
            "{line}"
        );
        assert!(line.contains(" of 200 games"), "40 deals of 5 games each: {line}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("pass --allow-errors"));

    let sweep = |allow: bool| {
        let mut args = vec![
            "sweep",
            STUCK,
            "--vary",
            "strict=false,true",
            "--agents",
            "mcts:iterations=5,random",
            "--deals",
            "40",
            "--json",
        ];
        if allow {
            args.push("--allow-errors");
        }
        rpsdsl(&args)
    };
    let out = sweep(true);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let [lenient, strict] = [0, 1].map(|i| json["points"][i]["stops"].clone());
    assert_eq!(lenient["stopped"], 0, "{lenient}");
    assert_eq!(lenient["games"], 200);
    assert!(strict["stopped"].as_u64().unwrap() > 0, "{strict}");
    assert!(
        strict["first"]
            .as_str()
            .unwrap()
            .starts_with("rpsdsl::nothing-to-choose"),
        "{strict}"
    );
    assert_eq!(sweep(false).status.code(), Some(1));
}

/// "Short" in the game's own units too: each counter both games keep,
/// every seat's summed at a game's end (Moonlight's tricks: 3 to 5 a game).
#[test]
fn the_length_is_also_told_in_the_games_own_counters() {
    let v = verdict(
        "docs/examples/moonlight.rules",
        "docs/examples/moonlight_trumps.toml",
        "mcts:iterations=20,random",
        "120",
    );
    let short = answer(&v, "short");
    let tricks = short["details"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["measure"] == "`tricks` per game: every seat's at the end, summed")
        .unwrap_or_else(|| panic!("{short}"));
    for game in ["base", "variant"] {
        let estimate = tricks[game]["estimate"].as_f64().unwrap();
        assert!((3.0..=5.0).contains(&estimate), "{tricks}");
    }
    // Best of three counts its duels won: one such figure.
    let rps = verdict(
        BEST_OF_THREE,
        "tests/games/rps_head_start.rules",
        "mcts:iterations=10,random",
        "40",
    );
    let details = answer(&rps, "short")["details"].as_array().map_or(0, Vec::len);
    assert_eq!(details, 1, "best of three keeps `wins`: {}", answer(&rps, "short"));
}

/// The coverage table says how often each effect of the rules fired in the
/// strong player's self-play: every way a game ended (their shares add up
/// to every game), and each trigger, base and variant side by side.
#[test]
fn the_coverage_table_counts_each_ending_and_trigger() {
    let v = verdict(
        "games/rubber_paper_scissors.rules",
        "games/variants/fourth_token_six.rules",
        "mcts:iterations=10,random",
        "32",
    );
    let rows = v["coverage"].as_array().unwrap();
    let row = |effect: &str| {
        rows.iter()
            .find(|r| r["effect"] == effect)
            .unwrap_or_else(|| panic!("{effect}: {rows:?}"))
    };
    let crowns = row("trigger all_crowns");
    // The trigger ends the game where it fires: as often as that ending.
    assert_eq!(crowns["base"], row("ends: trigger all_crowns")["base"], "{rows:?}");
    for game in ["base", "variant"] {
        let ended: f64 = rows
            .iter()
            .filter(|r| r["effect"].as_str().unwrap().starts_with("ends: "))
            .filter_map(|r| r[game]["games"].as_f64())
            .sum();
        assert!((ended - 1.0).abs() < 1e-9, "{game}: {ended} {rows:?}");
    }
    let text = String::from_utf8_lossy(
        &rpsdsl(&[
            "verdict",
            "games/rubber_paper_scissors.rules",
            "games/variants/fourth_token_six.rules",
            "--agents",
            "mcts:iterations=10,random",
            "--deals",
            "32",
        ])
        .stdout,
    )
    .to_string();
    let section = text.split("\nCoverage (").nth(1).expect("a coverage section");
    assert!(
        section.starts_with("the strong player's self-play, 32 deals"),
        "{section}"
    );
    assert!(section.contains("  trigger all_crowns"), "{section}");
}
