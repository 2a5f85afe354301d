//! Dice and liar's dice: scripted rolls and bids (a true bid, a false bid,
//! the wild face), "liar" withheld before the first bid, rolls in
//! transcripts and replays, hidden dice rolled afresh in sampled worlds, and
//! `simulate` against `exact`.

mod common;

use common::cli::{rpsdsl, scratch, stderr, stdout};
use rpsdsl::engine::Game;
use rpsdsl::engine::State;
use rpsdsl::exact::{self, DEFAULT_BUDGET};
use rpsdsl::ir::PieceId;
use rpsdsl::scenario::Scenario;

const LIARS_DICE: &str = "games/classic/liars_dice.rules";

/// A scenario fixing the first rolls and decisions.
fn scenario(rolls: &[&str], decisions: &[&str]) -> Scenario {
    let mut s = common::scenario(&[], decisions);
    s.rolls = rolls.iter().map(|r| rpsdsl::session::roll_spec(r)).collect();
    s
}

/// The transcript lines and the final scores of a scripted game.
fn played(def: &Game, rolls: &[&str], decisions: &[&str]) -> (Vec<String>, Vec<i64>) {
    let record =
        common::play(def, 1, &scenario(rolls, decisions)).unwrap_or_else(|f| panic!("{}", f.diagnostic.message));
    let totals = record.scores.iter().map(|terms| terms.iter().sum()).collect();
    (common::lines(def, &record), totals)
}

/// Bid 9 is OpenSpiel's bid 8: quantity 2, face 3 ("two 3s").
#[test]
fn a_true_bid_makes_the_caller_lose() {
    let def = common::load(LIARS_DICE);
    let (lines, totals) = played(&def, &["Die of Ann: 3", "Die of Ben: 3"], &["Ann: 9", "Ben: liar"]);
    assert!(
        lines.contains(&"roll Die of Ann in cup of Ann: 3".to_string()),
        "{lines:#?}"
    );
    assert!(lines.contains(&"  quantity = 2".to_string()) && lines.contains(&"  face = 3".to_string()));
    assert!(
        lines.contains(&"  Die of Ben showing 3: cup of Ben -> table".to_string()),
        "{lines:#?}"
    );
    assert_eq!(totals, [1, -1]);
}

#[test]
fn a_false_bid_makes_the_bidder_lose() {
    let def = common::load(LIARS_DICE);
    let (_, totals) = played(&def, &["Die of Ann: 3", "Die of Ben: 4"], &["Ann: 9", "Ben: liar"]);
    assert_eq!(totals, [-1, 1]);
    // A bid of one 4 (bid 4) holds with Ben's 4, whoever calls it.
    let (_, totals) = played(&def, &["Die of Ann: 3", "Die of Ben: 4"], &["Ann: 4", "Ben: liar"]);
    assert_eq!(totals, [1, -1]);
}

#[test]
fn a_six_is_wild() {
    let def = common::load(LIARS_DICE);
    // Two 3s with a 3 and a 6: the 6 counts as a 3.
    let (_, totals) = played(&def, &["Die of Ann: 3", "Die of Ben: 6"], &["Ann: 9", "Ben: liar"]);
    assert_eq!(totals, [1, -1]);
    // Two 6s (bid 12) with a 6 and a 5: false; Ben bid it, Ann called.
    let (_, totals) = played(
        &def,
        &["Die of Ann: 5", "Die of Ben: 6"],
        &["Ann: 1", "Ben: 12", "Ann: liar"],
    );
    assert_eq!(totals, [1, -1]);
    // With more faces, the highest face is the wild one: a 6 of 8 is not.
    let mut options = def.default_options();
    options[def.option_index("faces").unwrap()] = rpsdsl::ir::OptionValue::Int(8);
    let mut players = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    let script = scenario(&["Die of Ann: 3", "Die of Ben: 6"], &["Ann: 11", "Ben: liar"]);
    let record = rpsdsl::session::play(&def, &options, 1, &script, &mut players).unwrap();
    let totals: Vec<i64> = record.scores.iter().map(|t| t.iter().sum()).collect();
    // Bid 11 with 8 faces: quantity 2, face 3; the 6 does not count.
    assert_eq!(totals, [-1, 1]);
}

#[test]
fn liar_is_withheld_before_the_first_bid() {
    let def = common::load(LIARS_DICE);
    let mut players = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    let first = rpsdsl::session::play(
        &def,
        &def.default_options(),
        1,
        &scenario(&[], &["Ann: liar"]),
        &mut players,
    )
    .unwrap_err();
    assert!(
        first.diagnostic.message.contains("liar") && !first.diagnostic.help.as_deref().unwrap_or("").contains("liar"),
        "{:?}",
        first.diagnostic
    );
    // Before any bid: the twelve bids and nothing else; then "liar" joins.
    let (lines, _) = played(
        &def,
        &["Die of Ann: 1", "Die of Ben: 1"],
        &["Ann: 11", "Ben: 12", "Ann: liar"],
    );
    assert!(
        lines.contains(&"Ann chooses bid: 11  [of 12]".to_string()),
        "{lines:#?}"
    );
    assert!(lines.contains(&"Ben chooses bid: 12  [of 2]".to_string()), "{lines:#?}");
    // After the highest bid, calling is all that is left.
    assert!(
        lines.contains(&"Ann chooses bid: liar  [of 1]".to_string()),
        "{lines:#?}"
    );
}

/// The die of `seat`'s cup, by where it lies.
fn die_in_cup(def: &Game, state: &State, owner: &str) -> PieceId {
    let cup = def
        .zone_ids()
        .find(|&z| def.zone_name(z) == format!("cup of {owner}"))
        .unwrap();
    state.zone(cup).next().unwrap()
}

/// A sampled world keeps the seat's own die and rolls the other afresh.
#[test]
fn a_hidden_die_is_rolled_afresh_in_a_redeal() {
    let def = common::load(LIARS_DICE);
    let mut events = vec![];
    let state = State::start(&def, &def.default_options(), 5, vec![], &mut events).unwrap();
    let (ann, ben) = (die_in_cup(&def, &state, "Ann"), die_in_cup(&def, &state, "Ben"));
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let world = state.redeal_hidden(&def, 0, seed).unwrap();
        assert_eq!(world.value_of(&def, ann), state.value_of(&def, ann));
        assert_eq!(world.view(&def, 0), state.view(&def, 0));
        seen.insert(world.value_of(&def, ben));
    }
    assert_eq!(seen.len(), 6, "Ben's die takes every face: {seen:?}");
}

/// `run --json` records the rolls; `replay` plays them again, and a
/// changed roll no longer fits.
#[test]
fn a_transcript_with_rolls_replays() {
    let dir = scratch("dice-replay");
    let path = dir.join("game.json");
    let out = rpsdsl(&["run", LIARS_DICE, "--seed", "11", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::write(&path, &out.stdout).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rolls = json["replay"]["rolls"].as_array().unwrap();
    assert_eq!(rolls.len(), 2, "{json}");
    assert!(rolls[0].as_str().unwrap().starts_with("Die of Ann: "));
    let out = rpsdsl(&["replay", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("replay matches"), "{}", stdout(&out));

    // Another face for Ann's die: the roll line no longer matches.
    let mut changed = json.clone();
    let face: i64 = rolls[0].as_str().unwrap()["Die of Ann: ".len()..].parse().unwrap();
    let other = if face == 1 { 2 } else { 1 };
    changed["replay"]["rolls"][0] = format!("Die of Ann: {other}").into();
    std::fs::write(&path, serde_json::to_string_pretty(&changed).unwrap()).unwrap();
    let out = rpsdsl(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("replay diverged"), "{}", stderr(&out));
}

/// A scenario file fixes rolls as `"Die of Ann: 6"`, in the order the game rolls.
#[test]
fn a_scenario_file_scripts_rolls() {
    let dir = scratch("dice-scenario");
    let path = dir.join("rolls.toml");
    std::fs::write(
        &path,
        "rolls = [\"Die of Ann: 6\", \"Die of Ben: 2\"]\ndecisions = [\"Ann: 7\", \"Ben: liar\"]\n",
    )
    .unwrap();
    let out = rpsdsl(&["run", LIARS_DICE, "--scenario", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("roll Die of Ann in cup of Ann: 6"), "{text}");
    assert!(text.contains("roll Die of Ben in cup of Ben: 2"), "{text}");
    // Two 1s: Ann's 6 is wild, Ben's 2 is not.
    assert!(text.contains("result: Ben wins"), "{text}");
    // Ben's view: Ann's roll is unseen until the cups are lifted.
    let out = rpsdsl(&["run", LIARS_DICE, "--scenario", path.to_str().unwrap(), "--view", "Ben"]);
    let text = stdout(&out);
    assert!(text.contains("roll a hidden piece in cup of Ann (unseen)"), "{text}");
    assert!(text.contains("Die of Ann showing 6: cup of Ann -> table"), "{text}");

    // A face the die does not have is refused.
    std::fs::write(&path, "rolls = [\"Die of Ann: 7\"]\n").unwrap();
    let out = rpsdsl(&["run", LIARS_DICE, "--scenario", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("whose faces are 1..6"), "{}", stderr(&out));
}

/// `exact` draws each roll among its six faces: 36 rolls, each followed by
/// every rising sequence of the 12 bids that ends in a call (4095 of them).
#[test]
fn simulate_agrees_with_exact() {
    let def = common::load(LIARS_DICE);
    let exact = exact::enumerate(&def, &def.default_options(), DEFAULT_BUDGET).unwrap();
    assert_eq!(exact.games, 36 * 4095);
    assert_eq!(exact.positions, 294_876);
    assert!((exact.wins.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    common::agree::simulate_agrees_with_exact(LIARS_DICE, &def, &def.default_options(), &[], &exact, 4000);
}

/// One die, rolled once: `exact` gives each face 1/6.
#[test]
fn exact_enumerates_a_roll() {
    let dir = scratch("dice-exact");
    let rules = dir.join("high.rules");
    std::fs::write(
        &rules,
        "game \"High Roll\"\nplayers 2: Ann, Ben\npieces {\n  Die with faces 1..6 x1 in tray\n}\n\
         zones {\n  tray public\n}\nflow {\n  roll top of tray\n  if value of top of tray >= 5 { win Ann }\n  win Ben\n}\n",
    )
    .unwrap();
    let out = rpsdsl(&["exact", rules.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let wins = json["exact"]["wins"].as_array().unwrap();
    assert!((wins[0].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-12, "{json}");
    assert_eq!(json["exact"]["games"].as_u64(), Some(6));
}

/// A named no-choice withheld by its condition leaves nothing to choose
/// when the domain is empty: the `else` block runs, and without one the
/// game stops with `nothing-to-choose`.
#[test]
fn a_withheld_no_choice_leaves_the_else_or_nothing_to_choose() {
    let dir = scratch("dice-or-when");
    let game = |otherwise: &str| {
        format!(
            "game \"Pass\"\nplayers 2: Ann, Ben\nvar passes = 0\nflow {{\n  \
             Ann chooses n from 1..3 where n > 5, or pass when passes > 0{otherwise}\n  win Ann\n}}\n"
        )
    };
    let with_else = dir.join("else.rules");
    std::fs::write(&with_else, game(" else { win Ben }")).unwrap();
    let out = rpsdsl(&["run", with_else.to_str().unwrap(), "--seed", "1"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("result: Ben wins"), "{}", stdout(&out));
    let without = dir.join("without.rules");
    std::fs::write(&without, game("")).unwrap();
    let out = rpsdsl(&["run", without.to_str().unwrap(), "--seed", "1"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("nothing-to-choose"), "{}", stderr(&out));
}
