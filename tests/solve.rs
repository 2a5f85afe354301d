//! `rpsdsl solve`: equilibria and exploitability, checked against
//! OpenSpiel's published and test values (its `cfr_test.py`,
//! `exploitability_test.py` and the Leduc figures of its docs).

mod common;

use common::cli::rpsdsl;
use common::load;
use rpsdsl::solve::{self, Cfr, Limits, Method, Payoff, Settings, Tree};

const KUHN_POKER: &str = "games/classic/kuhn_poker.rules";
const LEDUC_POKER: &str = "games/classic/leduc_poker.rules";

fn tree_of(path: &str, limits: Limits) -> Tree {
    let def = load(path);
    Tree::build(&def, &def.default_options(), limits, Payoff::Score).unwrap()
}

fn whole(nodes: usize) -> Limits {
    Limits { nodes, depth: None }
}

/// CFR+ until NashConv is at most `target` (checked every 64 iterations).
fn solve_to(tree: &Tree, target: f64, most: u64) -> (Vec<f64>, f64, u64) {
    let mut cfr = Cfr::new(tree);
    loop {
        for _ in 0..64 {
            cfr.iterate();
        }
        let average = cfr.average();
        let nash_conv = tree.nash_conv(&average);
        if nash_conv <= target || cfr.iterations() >= most {
            return (tree.values(&average).0, nash_conv, cfr.iterations());
        }
    }
}

/// The best response itself: against uniform random play, NashConv is
/// 0.916667 in Kuhn poker and 4.747222 in Leduc poker.
#[test]
fn uniform_play_has_openspiels_nash_conv() {
    let kuhn = tree_of(KUHN_POKER, whole(10_000));
    assert!((kuhn.nash_conv(&kuhn.uniform()) - 0.916_667).abs() < 1e-6);
    let leduc = tree_of(LEDUC_POKER, whole(100_000));
    assert!((leduc.nash_conv(&leduc.uniform()) - 4.747_222).abs() < 1e-6);
}

/// Kuhn poker: the first seat's value is -1/18, and CFR+ gets NashConv to
/// 1e-3; 12 information sets, 6 a seat, as in OpenSpiel.
#[test]
fn kuhn_poker_is_worth_minus_one_eighteenth_to_the_first_seat() {
    let tree = tree_of(KUHN_POKER, whole(10_000));
    assert_eq!(tree.infosets_per_seat(), [6, 6]);
    assert_eq!(tree.cut_at, None);
    let (values, nash_conv, _) = solve_to(&tree, 1e-3, 10_000);
    assert!(nash_conv <= 1e-3, "NashConv {nash_conv}");
    assert!((values[0] + 1.0 / 18.0).abs() < 1e-3, "value {}", values[0]);
    assert!((values[0] + values[1]).abs() < 1e-9, "zero-sum");
}

/// Leduc poker: the first seat's value is -0.085606424078, NashConv 1e-3.
#[test]
fn leduc_poker_has_openspiels_value() {
    let tree = tree_of(LEDUC_POKER, whole(100_000));
    assert_eq!(tree.cut_at, None);
    let (values, nash_conv, iterations) = solve_to(&tree, 1e-3, 20_000);
    assert!(nash_conv <= 1e-3, "NashConv {nash_conv} after {iterations} iterations");
    assert!((values[0] + 0.085_606_424_078).abs() < 2e-3, "value {}", values[0]);
}

/// Merging is lossless on Leduc poker: its two cards of a rank are
/// interchangeable in every rule, so a seat's situations are 144, not the
/// 468 of a twin whose rules read a suit that decides nothing (OpenSpiel's
/// 936 in all); solved, both are worth the same. Kuhn poker has nothing to
/// merge (three different cards) and keeps OpenSpiel's 12 sets (above).
#[test]
fn merged_situations_keep_leducs_value() {
    let merged = tree_of(LEDUC_POKER, whole(100_000));
    let apart = tree_of("tests/games/leduc_poker_suited.rules", whole(200_000));
    assert_eq!(merged.infosets_per_seat(), [144, 144]);
    assert_eq!(apart.infosets_per_seat(), [468, 468]);
    let (merged_values, merged_nash_conv, _) = solve_to(&merged, 1e-3, 20_000);
    let (apart_values, apart_nash_conv, _) = solve_to(&apart, 1e-3, 20_000);
    assert!(merged_nash_conv <= 1e-3 && apart_nash_conv <= 1e-3);
    // Each is within 1e-3 of an equilibrium: the values agree to that.
    for (m, a) in merged_values.iter().zip(&apart_values) {
        assert!((m - a).abs() < 2e-3, "merged {merged_values:?}, apart {apart_values:?}");
    }
}

/// Classic RPS: a tied throw is thrown again, so the tree has no depth
/// bound; built to a depth, it is worth 0 and its equilibrium is uniform,
/// and the mass past the cut is reported.
/// Rock paper scissors throws a tie again, forever if need be: its tree
/// never ends, but its positions do. A tied throw comes back to the very
/// position it left (public: both seats know everything), which is played
/// on as the first time, so the game is solved exactly with no depth: worth
/// 0, each throw a third, at every length of match.
#[test]
fn rock_paper_scissors_is_solved_exactly_with_no_depth() {
    let def = load("games/rps.rules");
    for best_of in [1, 3] {
        let mut options = def.default_options();
        let at = def.options.iter().position(|o| o.name == "best_of").unwrap();
        options[at] = rpsdsl::ir::OptionValue::Int(best_of);
        let settings = Settings {
            limits: Limits {
                nodes: 2_000_000,
                depth: None,
            },
            payoff: Payoff::Score,
            iterations: Some(1000),
            time: None,
            target: Some(1e-3),
            method: Method::Auto,
            seed: 1,
            jobs: 1,
            sampling: None,
            memory: rpsdsl::engine::Memory::All,
        };
        let s = solve::solve(&def, &options, &settings, &mut |_| {}).unwrap();
        let tree = s.tree.as_ref().expect("the whole tree fits");
        assert_eq!(tree.cut_at, None, "best of {best_of}");
        assert_eq!(s.cut_mass, 0.0);
        // Best of one: 9 throws, 3 of them ties, each the start again.
        if best_of == 1 {
            assert_eq!((tree.nodes, tree.terminals, tree.repeats), (13, 6, 3));
        }
        assert!(tree.repeats > 0);
        assert!(s.values.iter().all(|v| v.abs() < 1e-4), "{:?}", s.values);
        assert!(s.exploitability.unwrap() <= 1e-3);
        for row in &s.strategy {
            for (throw, p) in &row.actions {
                assert!(
                    (p - 1.0 / 3.0).abs() < 1e-3,
                    "best of {best_of}: {} {throw} {p}",
                    row.situation
                );
            }
        }
        // The first throw comes round again after each tie: play meets it
        // 1 + 1/3 + 1/9 + ... = 1.5 times a game.
        let first = s.strategy.iter().find(|r| r.depth == 0).unwrap();
        assert_eq!(first.situation, "at the start");
        assert!((first.reach - 1.5).abs() < 1e-9, "{}", first.reach);
    }
}

/// A game whose throws come round for ever is solved, and says so: play
/// never ends, which counts as a draw. Rock paper scissors ends for sure.
#[test]
fn play_that_never_ends_is_said() {
    let out = rpsdsl(&["solve", "tests/games/always_endless.rules"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("play never ends with probability 1.000"), "{text}");
    let def = load("games/rps.rules");
    let s = solve::solve(
        &def,
        &def.default_options(),
        &settings(Method::Auto, 100, 1, None),
        &mut |_| {},
    )
    .unwrap();
    assert!(s.endless_mass < 1e-9, "{}", s.endless_mass);
}

/// A long match of duels: a tie ends its branch of an external-sampling
/// traversal, but the wins go on duel after duel, so a traversal that tries
/// every throw would never end. The probe sees it and samples by outcome.
#[test]
fn a_long_match_is_sampled_by_outcome() {
    let def = load("games/rps.rules");
    let mut options = def.default_options();
    let at = def.options.iter().position(|o| o.name == "best_of").unwrap();
    options[at] = rpsdsl::ir::OptionValue::Int(99);
    let sampler = solve::Sampler::new(&def, &options, Payoff::Score, 1, solve::SAMPLED_DEPTH);
    let (sampling, positions) = sampler.sampling();
    assert_eq!(
        sampling,
        solve::Sampling::Outcome,
        "{positions:e} positions a traversal"
    );
}

/// A lopsided duel (Left's paper over rock is only a draw), thrown again on
/// a tie: its equilibrium is not uniform, and a tie is worth the game's own
/// value `v`. The solution is checked against the game's matrix, not
/// against itself: against the other seat's strategy, every throw a seat
/// plays earns `v` (ties counted at `v`), and none earns more.
#[test]
fn a_tie_thrown_again_is_worth_the_game_itself() {
    let def = load("tests/games/lopsided_duel.rules");
    let options = def.default_options();
    let tree = Tree::build(&def, &options, whole(10_000), Payoff::Score).unwrap();
    assert_eq!((tree.len(), tree.repeats()), (13, 3));
    let (values, nash_conv, iterations) = solve_to(&tree, 1e-4, 100_000);
    assert!(nash_conv <= 1e-4, "NashConv {nash_conv} after {iterations} iterations");
    let v = values[0];
    assert!(v < -0.2 && v > -0.3, "the draw costs Left: {v}");
    // Left's payoffs, rows Left's throw, columns Right's (rock, paper,
    // scissors); `None` is a tie.
    let payoff = [
        [None, Some(-1.0), Some(1.0)],
        [Some(0.0), None, Some(-1.0)],
        [Some(-1.0), Some(1.0), None],
    ];
    let mut cfr = Cfr::new(&tree);
    for _ in 0..iterations {
        cfr.iterate();
    }
    let profile = cfr.average();
    let (left, right) = (profile.at(&tree, 0).to_vec(), profile.at(&tree, 1).to_vec());
    for (throw, row) in payoff.iter().enumerate() {
        let earns: f64 = row.iter().zip(&right).map(|(pay, q)| q * pay.unwrap_or(v)).sum();
        assert!(earns <= v + 1e-3, "Left's throw {throw} earns {earns} > {v}");
        if left[throw] > 0.01 {
            assert!(
                (earns - v).abs() < 1e-3,
                "Left plays throw {throw}, which earns {earns}, not {v}"
            );
        }
    }
    for throw in 0..3 {
        let earns: f64 = left
            .iter()
            .zip(&payoff)
            .map(|(p, row)| p * row[throw].unwrap_or(v))
            .sum();
        assert!(earns >= v - 1e-3, "Right's throw {throw} holds Left to {earns} < {v}");
    }

    // External sampling comes round the same loop (a tie is worth what
    // traversals found the throw worth) and learns it: far less
    // exploitable than uniform play.
    let uniform = tree.nash_conv(&tree.uniform()) / 2.0;
    let s = solve::solve(
        &def,
        &options,
        &settings(Method::Sampled, 20_000, 2, Some(solve::Sampling::External)),
        &mut |_| {},
    )
    .unwrap();
    let learnt = s.exploitability.unwrap();
    assert!(learnt < uniform / 2.5, "sampled {learnt}, uniform {uniform}");
    assert!(
        (s.values[0] - v).abs() < 0.05,
        "sampled value {:?}, exact {v}",
        s.values
    );
    // What a repeat is worth is read as it stood when the batch began, so
    // the threads change nothing.
    let one = solve::solve(
        &def,
        &options,
        &settings(Method::Sampled, 20_000, 1, Some(solve::Sampling::External)),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(strategy_of(&one), strategy_of(&s));
}

/// A secret throw hides nothing in a piece, only in the flow's own value:
/// a position where every seat knows every piece is not known whole in
/// such a game, so Ben's throw is one situation (he cannot tell Ann's
/// throw), not three, and the game is worth nothing.
#[test]
fn a_secret_answer_keeps_positions_from_being_public() {
    let def = load("tests/games/secret_first.rules");
    let tree = Tree::build(&def, &def.default_options(), whole(10_000), Payoff::Score).unwrap();
    assert_eq!(tree.infosets_per_seat(), vec![1, 1]);
    assert_eq!(tree.repeats(), 0);
    let (values, nash_conv, _) = solve_to(&tree, 1e-6, 10_000);
    assert!(nash_conv <= 1e-6 && values[0].abs() < 1e-6, "{values:?} {nash_conv}");
}

/// A hand whose order no rule reads is one situation however its cards
/// lie: Two Card Duel deals two of six cards to each seat, so a seat holds
/// one of 9 ordered hands but only 6 different ones. Its twin reads the
/// hand's order (a `top of` that never changes anything), so every order
/// stays apart. Merged or not, the game is worth the same and each solution
/// is an equilibrium of it.
#[test]
fn hands_in_another_order_are_one_situation() {
    let merged = load("tests/games/two_card_duel.rules");
    let apart = load("tests/games/two_card_duel_ordered.rules");
    let hand = |def: &rpsdsl::engine::Game| def.families.iter().find(|f| f.name == "hand").unwrap().order_read;
    assert!(!hand(&merged), "no rule reads the hand's order");
    assert!(hand(&apart), "`top of hand` reads it");
    let solved = |def: &rpsdsl::engine::Game| {
        let tree = Tree::build(def, &def.default_options(), whole(100_000), Payoff::Score).unwrap();
        let (values, nash_conv, iterations) = solve_to(&tree, 1e-6, 100_000);
        assert!(nash_conv <= 1e-6, "NashConv {nash_conv} after {iterations} iterations");
        (tree.infosets_per_seat(), values)
    };
    let (merged_sets, merged_values) = solved(&merged);
    let (apart_sets, apart_values) = solved(&apart);
    assert_eq!(merged_sets, vec![6, 6]);
    assert_eq!(apart_sets, vec![9, 9]);
    assert!(
        merged_values[0] > 0.1,
        "Ann wins the same card twice: {merged_values:?}"
    );
    for (m, a) in merged_values.iter().zip(&apart_values) {
        assert!((m - a).abs() < 1e-5, "merged {merged_values:?}, apart {apart_values:?}");
    }
}

/// Which zones' contents the rules read, beyond how many pieces they hold:
/// the glance keeps the others by their size. Janken Deck's discard piles
/// are only moved onto and counted (`size of`), and the centre only moved
/// onto and emptied into them; its hands are chosen from, its tokens
/// counted by type, and its deck dealt into hands. ROCK!'s stacks are only
/// counted; a variable that holds a zone reads it.
#[test]
fn zones_whose_contents_no_rule_reads_are_known() {
    let read = |path: &str| {
        let def = load(path);
        let mut read: Vec<(String, bool)> = def
            .families
            .iter()
            .filter(|f| f.name != "box")
            .map(|f| (f.name.clone(), f.contents_read))
            .collect();
        read.sort();
        read
    };
    let janken = read("games/janken_deck.rules");
    let unread: Vec<&str> = janken.iter().filter(|(_, r)| !r).map(|(n, _)| n.as_str()).collect();
    assert_eq!(unread, ["centre", "discard"], "{janken:?}");
    let rock = read("games/rock.rules");
    let unread: Vec<&str> = rock.iter().filter(|(_, r)| !r).map(|(n, _)| n.as_str()).collect();
    assert_eq!(unread, ["centre", "stack"], "{rock:?}");
}

/// A designer may say that a zone's order never matters (`unordered`),
/// where the checker would otherwise keep it: here the cards lie in a slot
/// of a board's space. The checker holds the rules to the word
/// (`tests/fixtures/unordered_*.rules`), so merging stays lossless: the
/// same values as the twin that keeps every order apart.
#[test]
fn a_zone_the_designer_calls_unordered_is_merged() {
    let said = load("tests/games/table_duel.rules");
    let unsaid = load("tests/games/table_duel_ordered.rules");
    let cards = |def: &rpsdsl::engine::Game| def.families.iter().find(|f| f.name == "cards").unwrap().order_read;
    assert!(!cards(&said), "the designer said the order never matters");
    assert!(cards(&unsaid), "a slot of a board's space is taken as read");
    let solved = |def: &rpsdsl::engine::Game| {
        let tree = Tree::build(def, &def.default_options(), whole(100_000), Payoff::Score).unwrap();
        let (values, nash_conv, iterations) = solve_to(&tree, 1e-6, 100_000);
        assert!(nash_conv <= 1e-6, "NashConv {nash_conv} after {iterations} iterations");
        (tree.infosets_per_seat(), values)
    };
    let (said_sets, said_values) = solved(&said);
    let (unsaid_sets, unsaid_values) = solved(&unsaid);
    assert_eq!(said_sets, vec![21, 33]);
    assert_eq!(unsaid_sets, vec![54, 96]);
    for (m, a) in said_values.iter().zip(&unsaid_values) {
        assert!((m - a).abs() < 1e-5, "merged {said_values:?}, apart {unsaid_values:?}");
    }
}

/// `--recall now` keys a situation by what the seat sees now and the
/// choices it has: an abstraction, whose cost is measured in the game
/// itself. Kuhn poker loses nothing by it (every bet is in the pot each
/// seat sees); Leduc poker forgets how the first round's betting went, and
/// the report says how much a best response wins from that.
#[test]
fn what_a_seat_sees_now_is_an_abstraction_measured_in_the_game() {
    let mut now = settings(Method::Auto, 2000, 1, None);
    now.memory = rpsdsl::engine::Memory::Now;
    now.target = Some(1e-3);
    let def = load(KUHN_POKER);
    let s = solve::solve(&def, &def.default_options(), &now, &mut |_| {}).unwrap();
    assert_eq!(s.infosets, vec![6, 6]);
    assert!(s.exploitability.unwrap() <= 1e-3, "{:?}", s.exploitability);
    assert!((s.values[0] + 1.0 / 18.0).abs() < 2e-3, "{:?}", s.values);

    let def = load(LEDUC_POKER);
    now.iterations = Some(200);
    let s = solve::solve(&def, &def.default_options(), &now, &mut |_| {}).unwrap();
    assert!(
        s.infosets[0] < 144,
        "fewer situations than the game's 144: {:?}",
        s.infosets
    );
    let exploitability = s.exploitability.unwrap();
    assert!(exploitability > 0.05, "forgetting the betting costs: {exploitability}");

    let out = rpsdsl(&["solve", LEDUC_POKER, "--recall", "now", "--iterations", "50"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("abstraction (--recall now)"), "{text}");
    assert!(text.contains("measured in the game itself"), "{text}");
}

/// `--recall glance` keeps less still: numbers and zone sizes by order of
/// magnitude, what the seat alone holds, the top of each public pile off
/// the board, and moves by what they move. It is always sampled, gives the
/// same answer on any threads, and is measured in the game itself where
/// the tree fits: Kuhn poker loses nothing by it (a seat knows its one card
/// and the pot), Leduc poker loses much (it forgets the betting, and bets
/// read by order of magnitude). A tree's CFR+ cannot solve it, and says so.
#[test]
fn a_glance_is_sampled_and_measured_in_the_game() {
    let mut glance = settings(Method::Auto, 20_000, 1, Some(solve::Sampling::External));
    glance.memory = rpsdsl::engine::Memory::Glance;
    let def = load(KUHN_POKER);
    let options = def.default_options();
    let one = solve::solve(&def, &options, &glance, &mut |_| {}).unwrap();
    assert_eq!(one.method, "mccfr");
    assert_eq!(one.infosets, vec![6, 6]);
    let e = one.exploitability.unwrap();
    assert!(e < 0.02, "exploitability {e}");
    glance.jobs = 2;
    let two = solve::solve(&def, &options, &glance, &mut |_| {}).unwrap();
    assert_eq!(strategy_of(&one), strategy_of(&two));

    let def = load(LEDUC_POKER);
    glance.iterations = Some(2_000);
    let s = solve::solve(&def, &def.default_options(), &glance, &mut |_| {}).unwrap();
    assert!(
        s.infosets[0] < 144,
        "fewer situations than the game's 144: {:?}",
        s.infosets
    );
    let e = s.exploitability.unwrap();
    assert!(e > 0.05, "a glance at Leduc poker costs: {e}");

    let out = rpsdsl(&["solve", KUHN_POKER, "--recall", "glance", "--iterations", "200"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("abstraction (--recall glance)"), "{text}");
    assert!(text.contains("measured in the game itself"), "{text}");
    assert!(text.contains("played at a glance "), "{text}");
    let page = std::env::temp_dir().join(format!("rpsdsl-glance-{}.html", std::process::id()));
    let page_arg = page.to_string_lossy().to_string();
    let out = rpsdsl(&[
        "solve",
        KUHN_POKER,
        "--recall",
        "glance",
        "--iterations",
        "200",
        "--html",
        &page_arg,
    ]);
    assert!(out.status.success());
    let html = std::fs::read_to_string(&page).unwrap();
    std::fs::remove_file(&page).ok();
    assert!(html.contains("abstraction (--recall glance)"), "the page says it too");
    let out = rpsdsl(&["solve", KUHN_POKER, "--recall", "glance", "--method", "cfr+"]);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("`--recall glance` is solved by sampling"), "{said}");
}

/// A situation at a glance learns first by its moves alone, then at a
/// bare glance, then at the glance itself, each level once training met
/// the one below it often, and plays the finest level met often: on RPS
/// Poker, where hands and chips make the glances many, nearly all of play
/// is trained within a few seconds, most of it finer than the moves alone;
/// the report says how much was played at each level.
#[test]
fn a_glance_plays_the_finest_level_training_met_often() {
    let mut glance = settings(Method::Auto, 6_000, 2, None);
    glance.memory = rpsdsl::engine::Memory::Glance;
    let def = load("games/rps_poker.rules");
    let s = solve::solve(&def, &def.default_options(), &glance, &mut |_| {}).unwrap();
    let run = s.sampled.as_ref().unwrap();
    let trained = run.trained.unwrap();
    assert!(trained > 0.9, "trained {trained}");
    let levels = run.by_level.as_ref().unwrap();
    assert_eq!(levels.len(), 3);
    assert!((levels.iter().sum::<f64>() - 1.0).abs() < 0.01, "{levels:?}");
    assert!(
        levels[2] < 0.5,
        "most of play is finer than the moves alone: {levels:?}"
    );
    let coarse: Vec<&str> = s.strategy.iter().map(|r| r.situation.as_str()).collect();
    assert!(
        coarse
            .iter()
            .any(|w| w.starts_with("by its moves alone, first met as: ")),
        "the coarsest level is part of the strategy"
    );
}

/// The same game with its declarations in another order has the same
/// value and the same number of information sets.
#[test]
fn the_value_does_not_depend_on_how_the_rules_are_written() {
    let plain = tree_of(KUHN_POKER, whole(10_000));
    let reordered = tree_of("tests/games/kuhn_poker_reordered.rules", whole(10_000));
    assert_eq!(plain.infosets_per_seat(), reordered.infosets_per_seat());
    let (a, _, _) = solve_to(&plain, 1e-4, 100_000);
    let (b, _, _) = solve_to(&reordered, 1e-4, 100_000);
    assert!((a[0] - b[0]).abs() < 1e-3, "{} against {}", a[0], b[0]);
}

/// The command tells the strategy in the game's words.
#[test]
fn the_command_reads_like_the_rulebook() {
    let out = rpsdsl(&["solve", KUHN_POKER]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  Ann                  -0.0556"), "{text}");
    assert!(
        text.contains("two seats, zero-sum: this is an approximate Nash equilibrium"),
        "{text}"
    );
    // Holding the king, facing a bet: always call.
    assert!(
        text.contains("  hand of Ben: Card king; after Ann bet (answer, reached ")
            && text.contains("      bet 100.0%\n"),
        "{text}"
    );
    let out = rpsdsl(&["solve", KUHN_POKER, "--json", "--iterations", "50"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["solution"]["tree"]["infosets"], serde_json::json!([6, 6]));
    assert_eq!(json["solution"]["strategy"].as_array().unwrap().len(), 12);
}

/// A game of three seats is solved with the caveat that CFR+ promises no
/// Nash equilibrium there.
#[test]
fn more_than_two_seats_come_with_a_caveat() {
    let out = rpsdsl(&["solve", "tests/games/odd_one_out.rules"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("caveat: with more than two seats"), "{text}");
    assert!(!text.contains("approximate Nash equilibrium,"), "{text}");
}

/// A race has no tree, so `solve` samples it: each answer's reaction time
/// is drawn from the players' default model, and the report says so. At a
/// glance, nearly all of ROCK!'s play is trained within a few thousand
/// iterations; remembering everything, almost none.
#[test]
fn a_race_is_sampled_with_the_players_reaction_times() {
    let out = rpsdsl(&[
        "solve",
        "games/rock.rules",
        "--iterations",
        "3000",
        "--recall",
        "glance",
        "--jobs",
        "2",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("a race has no tree"), "{text}");
    assert!(
        text.contains("reaction time is drawn from the players' default model"),
        "{text}"
    );
    let trained = text
        .lines()
        .find_map(|l| {
            l.trim()
                .split_once("% of those games' decisions were in situations sampling met")
        })
        .map(|(share, _)| share.parse::<f64>().unwrap())
        .expect("the trained share");
    assert!(trained > 90.0, "{text}");
}

/// What cannot be solved says why: a race on a whole tree, and, when the whole tree is
/// asked for (`--method cfr+`), a draw too large for the budget or a tree
/// too large for it.
#[test]
fn what_cannot_be_solved_says_why() {
    let out = rpsdsl(&["solve", "games/rock.rules", "--method", "cfr+"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rpsdsl::not-enumerable") && err.contains("a game with a race cannot be solved"),
        "{err}"
    );
    assert!(err.contains("rock.rules:44:5"), "{err}");

    let out = rpsdsl(&["solve", "games/janken_deck.rules", "--method", "cfr+"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rpsdsl::solve-budget") && err.contains("distinct outcomes"),
        "{err}"
    );

    let out = rpsdsl(&[
        "solve",
        LEDUC_POKER,
        "--budget",
        "3000",
        "--method",
        "cfr+",
        "--time",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rpsdsl::solve-budget") && err.contains("--depth") && err.contains("--method mccfr"),
        "{err}"
    );
}

/// `rpsdsl exploit` against uniform random play: the gains add up to the
/// uniform strategy's NashConv, 0.916667 in Kuhn poker, and it is exact.
#[test]
fn exploit_measures_random_play_exactly() {
    let out = rpsdsl(&["exploit", KUHN_POKER, "--agents", "random", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &json["exploit"];
    let gains: f64 = e["gains"].as_array().unwrap().iter().map(|g| g.as_f64().unwrap()).sum();
    assert!((gains - 0.916_667).abs() < 1e-6, "{gains}");
    assert_eq!(e["exact"], serde_json::json!([true, true]));
    // Random play is worth +1/8 to the first seat.
    assert!((e["values"][0].as_f64().unwrap() - 0.125).abs() < 1e-9);
}

/// A searching player is asked in every situation; in Kuhn poker MCTS
/// leaves less on the table than random play does, and its figures say
/// they are estimated. The same seed gives the same figures.
#[test]
fn exploit_estimates_a_search_player() {
    let run = || {
        let out = rpsdsl(&[
            "exploit",
            KUHN_POKER,
            "--agents",
            "mcts:iterations=100",
            "--samples",
            "8",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run();
    assert_eq!(text, run(), "deterministic for a seed");
    assert!(
        text.contains("estimated: the agents of Ann, Ben were asked 8 times"),
        "{text}"
    );
    let lineup: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("exploitability of the lineup "))
        .and_then(|rest| rest.split(':').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        lineup < 0.916_667 / 2.0,
        "MCTS should be less exploitable than random: {lineup}"
    );

    let out = rpsdsl(&["exploit", KUHN_POKER, "--agents", "mcst"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `mcts`?"));
}

/// Every tree keeps perfect recall: a seat never forgets what it did.
#[test]
fn information_sets_have_perfect_recall() {
    for (path, setting) in [
        (KUHN_POKER, None),
        (LEDUC_POKER, None),
        ("games/classic/goofspiel.rules", Some(("num_cards", 3))),
    ] {
        let def = load(path);
        let mut options = def.default_options();
        if let Some((name, value)) = setting {
            let at = def.options.iter().position(|o| o.name == name).unwrap();
            options[at] = rpsdsl::ir::OptionValue::Int(value);
        }
        let tree = Tree::build(&def, &options, whole(100_000), Payoff::Score).unwrap();
        assert_eq!(tree.recall_breaks(), None, "{path}");
    }
}

/// Goofspiel (three cards): simultaneous bids over a hidden order of
/// prizes. The seats are alike, so the game is worth 0, and CFR+ gets
/// NashConv under 1e-3. (A best response that makes a move the others
/// never make meets the seat's average strategy there: the average must
/// follow it even where the others' reach is 0, or NashConv stalls.)
#[test]
fn goofspiel_converges_to_its_value() {
    let def = load("games/classic/goofspiel.rules");
    let mut options = def.default_options();
    let at = def.options.iter().position(|o| o.name == "num_cards").unwrap();
    options[at] = rpsdsl::ir::OptionValue::Int(3);
    let tree = Tree::build(&def, &options, whole(100_000), Payoff::Score).unwrap();
    let (values, nash_conv, iterations) = solve_to(&tree, 1e-3, 5_000);
    assert!(nash_conv <= 1e-3, "NashConv {nash_conv} after {iterations} iterations");
    assert!(values[0].abs() < 1e-3, "value {}", values[0]);
}

fn settings(method: Method, iterations: u64, jobs: usize, sampling: Option<solve::Sampling>) -> Settings {
    Settings {
        limits: whole(solve::DEFAULT_NODES),
        payoff: Payoff::Score,
        iterations: Some(iterations),
        time: None,
        target: None,
        method,
        seed: 7,
        jobs,
        sampling,
        memory: rpsdsl::engine::Memory::All,
    }
}

/// The strategy as plain numbers, to compare two runs exactly.
fn strategy_of(s: &solve::Solution) -> Vec<(String, Vec<(String, f64)>)> {
    s.strategy
        .iter()
        .map(|r| {
            let actions = r.actions.iter().map(|(a, p)| (a.to_string(), *p)).collect();
            (r.situation.clone(), actions)
        })
        .collect()
}

/// External-sampling MCCFR gives the very same strategy (to the last bit)
/// on one thread and on two, and on Kuhn poker it approaches the
/// equilibrium; its exploitability is measured on the whole tree.
#[test]
fn external_sampling_is_the_same_on_any_threads_and_learns_kuhn() {
    let def = load(KUHN_POKER);
    let options = def.default_options();
    let run = |jobs| {
        let s = settings(Method::Sampled, 10_000, jobs, Some(solve::Sampling::External));
        solve::solve(&def, &options, &s, &mut |_| {}).unwrap()
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(strategy_of(&one), strategy_of(&two));
    assert_eq!(one.values, two.values);
    assert_eq!(one.method, "mccfr");
    let sampled = one.sampled.as_ref().unwrap();
    assert_eq!(sampled.sampling, solve::Sampling::External);
    assert!(sampled.why.contains("the traversals walk it"), "{}", sampled.why);
    assert_eq!(sampled.traversals, 20_000);
    let e = one.exploitability.unwrap();
    assert!(e < 0.01, "exploitability {e}");
    assert!((one.values[0] + 1.0 / 18.0).abs() < 0.01, "{:?}", one.values);
}

/// The sampler a game too big for its tree gets plays the engine from a
/// fresh deal every traversal: the same strategy on one thread and on two,
/// and on Kuhn poker (measured on the tree, which it never reads) it
/// approaches the same equilibrium as the walk of the tree.
#[test]
fn the_engine_sampler_is_the_same_on_any_threads_and_learns_kuhn() {
    let def = load(KUHN_POKER);
    let options = def.default_options();
    let tree = Tree::build(&def, &options, whole(1_000), Payoff::Score).unwrap();
    let run = |jobs| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().unwrap();
        let mut sampler = solve::Sampler::new(&def, &options, Payoff::Score, 7, solve::SAMPLED_DEPTH)
            .with_sampling(solve::Sampling::External);
        while sampler.traversals() < 20_000 {
            assert!(sampler.batch(&pool, None).unwrap());
        }
        sampler.profile_on(&tree)
    };
    let (one, two) = (run(1), run(2));
    assert_eq!(format!("{one:?}"), format!("{two:?}"));
    let e = tree.nash_conv(&one) / 2.0;
    assert!(e < 0.035, "exploitability {e}");
}

/// Outcome sampling follows one game per traversal, and learns Kuhn poker
/// too, more slowly per iteration.
#[test]
fn outcome_sampling_learns_kuhn() {
    let def = load(KUHN_POKER);
    let s = settings(Method::Sampled, 100_000, 2, Some(solve::Sampling::Outcome));
    let solution = solve::solve(&def, &def.default_options(), &s, &mut |_| {}).unwrap();
    assert_eq!(solution.sampled.as_ref().unwrap().sampling, solve::Sampling::Outcome);
    let e = solution.exploitability.unwrap();
    assert!(e < 0.02, "exploitability {e}");
}

/// A tree past its budget is sampled instead, and the answer says what it
/// cannot promise: no exploitability, values estimated with intervals.
#[test]
fn a_tree_past_its_budget_is_sampled_and_says_so() {
    let def = load(LEDUC_POKER);
    let mut s = settings(Method::Auto, 2_000, 2, None);
    s.limits = whole(1_000);
    let solution = solve::solve(&def, &def.default_options(), &s, &mut |_| {}).unwrap();
    assert_eq!(solution.method, "mccfr");
    assert!(solution.tree.is_none(), "a cut tree cannot measure it");
    assert!(solution.exploitability.is_none());
    let run = solution.sampled.as_ref().unwrap();
    assert!(run.why.contains("passes 1000 nodes"), "{}", run.why);
    let margins = solution.value_margins.as_ref().unwrap();
    assert!(margins.iter().all(|m| *m > 0.0 && *m < 0.2), "{margins:?}");
    // Leduc has 144 information sets per seat; sampling meets them all.
    assert_eq!(solution.infosets, vec![144, 144]);
    assert!(run.trained.unwrap() > 0.9, "{:?}", run.trained);

    // Asked for the whole tree, it refuses instead.
    s.method = Method::Whole;
    s.limits = whole(100);
    let err = solve::solve(&def, &def.default_options(), &s, &mut |_| {})
        .err()
        .unwrap();
    assert_eq!(err.code.as_str(), "solve-budget");
}

/// A saved strategy plays through `policy:FILE`: the player follows the
/// game step by step and finds every situation in the file; `exploit`
/// measures it exactly as `solve` did; another game, other options or
/// another build are refused with the reason.
#[test]
fn a_saved_strategy_plays_every_situation_and_is_refused_elsewhere() {
    use rpsdsl::agents::{Agent, Policy, PolicyAgent};
    use std::sync::Arc;
    use std::sync::atomic::Ordering;

    let dir = common::cli::scratch("solve/policy");
    let file = dir.join("kuhn.policy.json");
    let out = rpsdsl(&[
        "solve",
        KUHN_POKER,
        "--target-exploitability",
        "0.001",
        "--save",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let solved: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let exploitability = solved["solution"]["exploitability"].as_f64().unwrap();

    let def = load(KUHN_POKER);
    let options = def.default_options();
    let policy = Arc::new(Policy::load(&file, &def, &options).unwrap());
    assert_eq!(policy.len(), 12);
    let players: Vec<PolicyAgent> = (0..2)
        .map(|seat| PolicyAgent::new(file.display().to_string(), policy.clone(), seat, 3))
        .collect();
    let missed: Vec<_> = players.iter().map(|p| p.missed()).collect();
    let mut agents: Vec<Box<dyn Agent>> = players.into_iter().map(|p| Box::new(p) as Box<dyn Agent>).collect();
    for seed in 0..200 {
        rpsdsl::session::play(&def, &options, seed, &Default::default(), &mut agents).unwrap();
    }
    assert_eq!(
        missed.iter().map(|m| m.load(Ordering::Relaxed)).collect::<Vec<_>>(),
        vec![0, 0],
        "every decision was in a situation the file holds"
    );

    let spec = format!("policy:{}", file.display());
    let out = rpsdsl(&["exploit", KUHN_POKER, "--agents", &spec, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gains: f64 = json["exploit"]["gains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_f64().unwrap())
        .sum();
    assert!(
        (gains / 2.0 - exploitability).abs() < 1e-9,
        "{gains} against {exploitability}"
    );
    assert_eq!(json["exploit"]["exact"], serde_json::json!([true, true]));

    let refused = |args: &[&str], why: &str| {
        let out = rpsdsl(args);
        let err = common::cli::stderr_unwrapped(&out);
        assert!(!out.status.success(), "{args:?} was played");
        assert!(
            err.contains("rpsdsl::bad-policy-file") || err.contains("rpsdsl::bad-agent-parameter"),
            "{err}"
        );
        assert!(err.contains(why), "{args:?}: {err}");
    };
    refused(
        &["run", LEDUC_POKER, "--agents", &spec],
        "other rules than `Leduc Poker`",
    );
    let goofspiel = dir.join("goofspiel.policy.json");
    let out = rpsdsl(&[
        "solve",
        "games/classic/goofspiel.rules",
        "--set",
        "num_cards=3",
        "--save",
        goofspiel.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let spec3 = format!("policy:{}", goofspiel.display());
    refused(
        &[
            "simulate",
            "games/classic/goofspiel.rules",
            "--set",
            "num_cards=4",
            "--agents",
            &spec3,
        ],
        "num_cards is 4 here but 3 in the file",
    );
    let out = rpsdsl(&[
        "run",
        "games/classic/goofspiel.rules",
        "--set",
        "num_cards=3",
        "--agents",
        &spec3,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let text = std::fs::read_to_string(&file).unwrap();
    let old = dir.join("old.policy.json");
    let build = format!("\"build\":\"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(text.contains(&build));
    std::fs::write(&old, text.replace(&build, "\"build\":\"0.0.0\"")).unwrap();
    refused(
        &["run", KUHN_POKER, "--agents", &format!("policy:{}", old.display())],
        "written by rpsdsl 0.0.0",
    );
    refused(&["run", KUHN_POKER, "--agents", "policy"], "`policy` needs its file");
}

/// `--html` draws the solution: values, the convergence chart, and each
/// seat's likeliest situations as a table of bars.
#[test]
fn solve_draws_a_page() {
    let dir = common::cli::scratch("solve/html");
    let page = dir.join("kuhn.html");
    let out = rpsdsl(&["solve", KUHN_POKER, "--html", page.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    for needle in [
        "Kuhn Poker: an equilibrium",
        "How it converged",
        "Ann: the likeliest situations",
        "Ben: the likeliest situations",
        "-0.0556",
    ] {
        assert!(html.contains(needle), "no {needle:?} in the page");
    }
    assert_eq!(html.matches("<svg").count(), 1, "the convergence chart");
    // Each seat's table: every situation in full, and each action's bar.
    assert_eq!(html.matches("<table class=\"strategy\">").count(), 2);
    assert!(
        html.contains("<td>hand of Ann: Card jack; after Ann pass, Ben bet</td>"),
        "{html}"
    );
    assert!(html.contains("<span class=\"name\">pass</span>"));
}

/// Where the tree does not fit, `exploit` learns a best response by play
/// and measures it on fresh deals. In Kuhn poker against random play it
/// finds the exact gains (0.375 and 0.541667), within its intervals, and
/// says that they are lower bounds.
#[test]
fn exploit_learns_a_best_response_where_the_tree_does_not_fit() {
    let out = rpsdsl(&[
        "exploit", KUHN_POKER, "--agents", "random", "--budget", "10", "--games", "20000", "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &json["exploit"];
    assert_eq!(e["method"], "sampled");
    assert!(e["why_sampled"].as_str().unwrap().contains("10 nodes"), "{e}");
    for (seat, exact) in [0.375, 0.541_667].into_iter().enumerate() {
        let learnt = &e["learnt"][seat];
        let gain = learnt["gain"]["mean"].as_f64().unwrap();
        let margin = learnt["gain"]["margin"].as_f64().unwrap();
        assert!(margin > 0.0 && margin < 0.05, "{learnt}");
        assert!(
            (gain - exact).abs() < margin + 0.01,
            "seat {seat}: {gain} ± {margin} against {exact}"
        );
        assert_eq!(learnt["measured_games"], rpsdsl::solve::MEASURE_FIXED);
        assert!(learnt["trained"].as_f64().unwrap() > 0.99, "{learnt}");
    }

    let out = rpsdsl(&[
        "exploit", KUHN_POKER, "--agents", "random", "--method", "sampled", "--games", "2000",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("learnt by play: learning by play was asked for"),
        "{text}"
    );
    assert!(text.contains("exploitability of the lineup at least "), "{text}");
    assert!(text.contains("each gain is at least what is shown"), "{text}");
}

/// A learnt response is the same for any number of threads, even against
/// a searching player, and a race is refused as `solve` refuses it.
#[test]
fn a_learnt_response_is_deterministic_and_a_race_is_refused() {
    let run = |jobs: &str| {
        let out = rpsdsl(&[
            "exploit",
            KUHN_POKER,
            "--agents",
            "mcts:iterations=10",
            "--method",
            "sampled",
            "--games",
            "640",
            "--jobs",
            jobs,
            "--json",
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    assert_eq!(run("1"), run("2"));

    let out = rpsdsl(&["exploit", "games/rock.rules", "--method", "sampled", "--games", "64"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("a game with a race cannot be solved"), "{err}");

    let out = rpsdsl(&["exploit", KUHN_POKER, "--method", "tree", "--budget", "10"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("rpsdsl::solve-budget"));
}

/// `--agents solve:...` trains once per game within its budget, then plays
/// the strategy found: `exploit` finds it as unexploitable as `solve`'s
/// own, and `save=` hands on a policy file that plays the same.
#[test]
fn the_solve_player_trains_once_and_plays_the_equilibrium() {
    let saved = common::cli::scratch("solve-player").join("kuhn.policy.json");
    let spec = format!("solve:iterations=4000:save={}", saved.display());
    let out = rpsdsl(&["exploit", KUHN_POKER, "--agents", &spec, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("solve: trained Kuhn Poker").count(), 1, "{err}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gains: f64 = json["exploit"]["gains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g.as_f64().unwrap())
        .sum();
    assert!(gains < 2e-3, "NashConv of the trained player {gains}");
    assert!((json["exploit"]["values"][0].as_f64().unwrap() + 1.0 / 18.0).abs() < 2e-3);
    assert_eq!(json["exploit"]["agents"][0], spec);

    let replayed = rpsdsl(&[
        "exploit",
        KUHN_POKER,
        "--agents",
        &format!("policy:{}", saved.display()),
        "--json",
    ]);
    let again: serde_json::Value = serde_json::from_slice(&replayed.stdout).unwrap();
    assert_eq!(again["exploit"]["gains"], json["exploit"]["gains"]);

    // A simulation builds players for every game and seat: one training.
    let out = rpsdsl(&[
        "simulate",
        KUHN_POKER,
        "--agents",
        "solve:iterations=300,random",
        "-n",
        "300",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("solve: training a strategy").count(), 1, "{err}");

    // A race has no tree, but is sampled, each answer's reaction time
    // drawn from the players' default model.
    let out = rpsdsl(&[
        "simulate",
        "games/rock.rules",
        "--agents",
        "solve:iterations=10",
        "-n",
        "2",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("solve: trained ROCK!"));
    let out = rpsdsl(&["simulate", KUHN_POKER, "--agents", "solve:time=0", "-n", "2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("time must be a number from 0.01"));
}

/// `exploit`'s figure for one agent spec on Kuhn poker, 256 answers a situation.
fn kuhn_exploitability(agents: &str) -> f64 {
    let out = rpsdsl(&["exploit", KUHN_POKER, "--agents", agents, "--samples", "256", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let gains = json["exploit"]["gains"].as_array().unwrap();
    gains.iter().map(|g| g.as_f64().unwrap()).sum::<f64>() / gains.len() as f64
}

/// A search led by a trained strategy (`mcts:prior=...`) tries its moves
/// in proportion to the strategy: with one iteration it plays the
/// strategy itself, so it is about as unexploitable as the equilibrium,
/// where the same search unled is not. It needs to know what its seat
/// recalls, which `exploit` (asking out of the order of play) tells it.
/// Only a strategy's player can lead a search.
#[test]
fn a_search_leans_on_a_trained_strategy() {
    let led = kuhn_exploitability("mcts(iterations=1:prior=solve(iterations=4000))");
    let unled = kuhn_exploitability("mcts:iterations=1");
    assert!(led < 0.05, "led by the equilibrium: {led}");
    assert!(unled > 0.3, "unled: {unled}");

    let out = rpsdsl(&["simulate", KUHN_POKER, "--agents", "mcts(prior=greedy)", "-n", "2"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rpsdsl::bad-agent-parameter"), "{err}");
    assert!(
        err.contains("`prior` takes a trained strategy, and `greedy` is not one"),
        "{err}"
    );
    assert!(err.contains("policy(file=P)"), "{err}");
}

/// A solver keys each decision point by the view's fingerprint, found
/// straight from the state (`State::view_fingerprint`) without building
/// the view: it is the built view's fingerprint, for every seat at every
/// decision point of random games, hidden hands, unordered zones, kinds
/// hidden on a board and all.
#[test]
fn a_view_is_fingerprinted_alike_built_or_not() {
    use rand::{RngExt, SeedableRng};
    use rpsdsl::engine::{Choice, State};
    for path in [
        "games/rps_poker.rules",
        "games/janken_deck.rules",
        "games/rubber_paper_scissors.rules",
        "games/rps3.rules",
        "games/classic/leduc_poker.rules",
        "tests/games/table_duel.rules",
    ] {
        let def = load(path);
        let options = def.default_options();
        let mut checked = 0;
        for seed in 0..4 {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
            let mut events = vec![];
            let mut state = State::start(&def, &options, seed, vec![], &mut events).unwrap();
            for _ in 0..300 {
                let Some(pending) = state.pending() else { break };
                for seat in 0..def.players() as u8 {
                    assert_eq!(
                        state.view_fingerprint(&def, seat),
                        state.view(&def, seat).fingerprint(&def),
                        "{path}, seed {seed}, seat {seat}"
                    );
                    checked += 1;
                }
                let choices: Vec<Choice> = pending
                    .who()
                    .iter()
                    .map(|&seat| {
                        let legal = pending.legal(seat);
                        Choice::new(seat, legal[rng.random_range(0..legal.len())])
                    })
                    .collect();
                state.apply(&def, &choices, &mut events).unwrap();
            }
        }
        assert!(checked >= 16, "{path}: {checked} views");
    }
}
