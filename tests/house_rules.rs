//! House rules and variants: TOML overlays, `extends`, `--explain-diff`, and
//! the Rubber Paper Scissors modules behind options.

mod common;

use std::path::{Path, PathBuf};

use common::{lines, scenario};
use rpsdsl::check::{FsLoader, OptionSetting};
use rpsdsl::diagnostic::Span;
use rpsdsl::engine::{Choice, EndReason, State};
use rpsdsl::ir::{ChoiceKind, GameDef, OptionValue, PieceId};
use rpsdsl::load::{LoadedGame, load_game};
use rpsdsl::scenario::Scenario;
use rpsdsl::session::{self, Record};
use rpsdsl::transcript::{Header, Transcript, Viewer, render_events};

const RULES: &str = "games/rubber_paper_scissors.rules";

fn settings(pairs: &[(&str, &str)]) -> Vec<OptionSetting> {
    pairs
        .iter()
        .map(|(n, v)| OptionSetting {
            name: n.to_string(),
            value: v.to_string(),
            name_span: Span::default(),
            value_span: Span::default(),
        })
        .collect()
}

fn game(path: &str, set: &[(&str, &str)]) -> LoadedGame {
    let set = settings(set);
    load_game(Path::new(path), &FsLoader, |_| Ok(set))
        .unwrap_or_else(|f| panic!("{}", rpsdsl::diagnostic::render(&f.diagnostics, &f.sources, false)))
}

fn play(game: &LoadedGame, seed: u64, scenario: &Scenario) -> Record {
    let mut agents = rpsdsl::agents::from_spec("random", game.def.players(), seed).unwrap();
    session::play(&game.def, &game.options, seed, scenario, &mut agents)
        .unwrap_or_else(|f| panic!("{}", f.diagnostic.message))
}

fn snapshot(name: &str, text: String) {
    common::snap::assert_snapshot!(name.to_string(), text);
}

#[test]
fn both_modules_transcript() {
    let game = game("games/house/both_modules.toml", &[]);
    let record = play(&game, 7, &Scenario::default());
    let header = Header {
        rules: "games/house/both_modules.toml",
        about: Some(&game.description),
        seed: 7,
        options: vec![
            ("equipment_bonus".into(), "true".into()),
            ("goggles".into(), "true".into()),
        ],
        agents: vec!["random".into(); 2],
    };
    let text = Transcript::new(&game.def, header, &record, Viewer::All).to_text();
    assert!(
        text.contains("TapeBonus") || text.contains("CrownBonus"),
        "the Equipment Bonus tokens are in play"
    );
    assert!(!text.contains("\n  Bonus: "), "the +2 Bonus tokens stay in the box");
    snapshot("transcript__rubber_paper_scissors__both_modules", text);
}

/// Round one of a game with Goggles: Orange spends one before throwing and
/// peeks at shop 5; the throws are then asked again.
fn peek_first(game: &LoadedGame) -> Record {
    let decisions = [
        "Orange: spend Goggles",
        "Blue: scissors", // discarded: the throw is asked again after the peek
        "Orange: shop 5",
        "Orange: rock",
        "Blue: scissors",
    ];
    // Crown lies face down on shop 5.
    let top = ["Tape", "Tape", "Tape", "Tape", "Crown"];
    play(game, 1, &scenario(&[("bag", &top)], &decisions))
}

#[test]
fn a_peek_is_seen_only_by_the_peeker() {
    let game = game(RULES, &[("goggles", "true")]);
    let record = peek_first(&game);
    let def = &game.def;
    let orange = render_events(def, &record.events, Viewer::Seat(0));
    let blue = render_events(def, &record.events, Viewer::Seat(1));
    assert!(orange.contains(&"  reveal Crown to Orange".to_string()), "{orange:#?}");
    assert!(
        blue.contains(&"  reveal a hidden piece to Orange".to_string()),
        "{blue:#?}"
    );
    // Blue learns that a Goggle was spent, and where, but not how many
    // choices Orange had (the face-down tokens are hidden from Blue).
    assert!(blue.contains(&"Orange chooses: spend Goggles".to_string()), "{blue:#?}");
    assert!(blue.contains(&"Orange chooses peek: shop 5".to_string()), "{blue:#?}");
    assert!(
        orange.contains(&"Orange chooses peek: shop 5  [of 9]".to_string()),
        "{orange:#?}"
    );
    assert!(blue.contains(&"  Goggles of Orange: goggle_supply of Orange -> spent_goggles".to_string()));

    // The same through the engine's views, right after the peek.
    let mut events = vec![];
    let mut state = State::start(
        def,
        &game.options,
        1,
        forced(def, &["Tape", "Tape", "Tape", "Tape", "Crown"]),
        &mut events,
    )
    .unwrap();
    let spend = -1; // the first anytime action
    state
        .apply(def, &[Choice::new(0, spend), Choice::new(1, 2)], &mut events)
        .unwrap();
    let peek = state.pending().unwrap();
    let shop5 = *peek
        .legal(0)
        .iter()
        .find(|&&v| def.choice_label(peek.decision(), v) == "shop 5")
        .unwrap();
    state.apply(def, &[Choice::new(0, shop5)], &mut events).unwrap();
    let face_down_5 = def.families.iter().find(|f| f.name == "face_down").unwrap().first + 4;
    assert!(
        state.view(def, 0).zones[face_down_5 as usize][0].is_some(),
        "Orange saw it"
    );
    assert!(
        state.view(def, 1).zones[face_down_5 as usize][0].is_none(),
        "Blue did not"
    );
    // And the throw is asked again.
    let again = state.pending().unwrap();
    assert_eq!(again.who(), &[0, 1]);
    assert!(again.legal(0).iter().all(|&v| v != spend || state.decisions() > 0));
}

fn forced(def: &GameDef, top: &[&str]) -> Vec<rpsdsl::engine::ForcedShuffle> {
    common::scenario(&[("bag", top)], &[]).forced_shuffles(def).unwrap()
}

#[test]
fn unspent_goggles_score_one_each() {
    let game = game(RULES, &[("goggles", "true")]);
    let top = [
        "Glue", "Glue", "Glue", "Tape", "Tape", "Crown", "Bonus", "Bonus", "Bonus", // face down
        "Tape", "Tape", "Tape", "Glue", "Glue", "Crown", "Crown", "Bonus", "Ruler", // face up
    ];
    let winners = [
        "Orange", "Orange", "Orange", "Blue", "Blue", "Blue", "Blue", "Blue", "Blue",
    ];
    let mut decisions = vec![
        "Orange: spend Goggles".to_string(),
        "Blue: rock".into(),
        "Orange: shop 9".into(),
    ];
    decisions.extend(winners.iter().flat_map(|w| common::rps_round(w)));
    let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
    let record = play(&game, 1, &scenario(&[("bag", &top)], &decisions));
    let terms: Vec<&str> = game.def.score_terms.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(terms, ["lines", "sets", "bonus", "equipment_bonus", "goggles"]);
    // Orange spent one of two Goggles, Blue none.
    assert_eq!(record.scores[0], [3, 8, 6, 0, 1]);
    assert_eq!(record.scores[1], [6, 9, 2, 0, 2]);
    let text = lines(&game.def, &record);
    assert_eq!(
        text[text.len() - 3],
        "score Orange: lines 3 + sets 8 + bonus 6 + goggles 1 = 18"
    );
    assert_eq!(
        text[text.len() - 2],
        "score Blue: lines 6 + sets 9 + bonus 2 + goggles 2 = 19"
    );
    assert_eq!(record.outcome.unwrap().reason, EndReason::Rank(0));
}

/// Scores a position where each player holds the named tokens.
fn score_position(game: &LoadedGame, holdings: [&[&str]; 2]) -> Vec<Vec<i64>> {
    let def = &game.def;
    let mut events = vec![];
    let mut state = State::start(def, &game.options, 1, vec![], &mut events).unwrap();
    let claimed = def.families.iter().find(|f| f.name == "claimed").unwrap().first;
    let mut used: Vec<PieceId> = vec![];
    for (seat, tokens) in holdings.iter().enumerate() {
        for token in *tokens {
            let piece = (0..def.pieces.len() as PieceId)
                .find(|p| def.piece_label(*p) == *token && !used.contains(p))
                .unwrap_or_else(|| panic!("no {token} left"));
            used.push(piece);
            state.relocate(def, piece, claimed + seat as u16, &mut events);
        }
    }
    state.score_now(def, &mut events).unwrap()
}

#[test]
fn equipment_bonus_tokens_score_with_a_match() {
    // "Each Tape/Glue/Ruler Equipment Bonus token is worth an additional 1 point.
    //  Each Crown Equipment Bonus token is worth an additional 2 points."
    let game = game(RULES, &[("equipment_bonus", "true")]);
    let scores = score_position(
        &game,
        [
            &["TapeBonus", "Tape", "CrownBonus", "Crown"],
            &["GlueBonus", "RulerBonus", "Ruler"],
        ],
    );
    let bonus = |seat: usize| scores[seat][3];
    assert_eq!(bonus(0), 1 + 2, "Tape bonus beside a Tape, Crown bonus beside a Crown");
    assert_eq!(bonus(1), 1, "the Glue bonus has no Glue beside it; the Ruler bonus has");
    assert_eq!(scores[0][2], 0, "no +2 Bonus tokens in this module");
    // They are their own category: not part of any set.
    assert_eq!(
        scores[0][1], 1,
        "one Tape scores 1; the Tape bonus adds nothing to the set"
    );

    let lenient = game_with(&[("equipment_bonus", "true"), ("bonus_needs_match", "false")]);
    let scores = score_position(&lenient, [&["GlueBonus"], &["CrownBonus"]]);
    assert_eq!(
        (scores[0][3], scores[1][3]),
        (1, 2),
        "without `bonus_needs_match` every bonus scores"
    );
}

fn game_with(set: &[(&str, &str)]) -> LoadedGame {
    game(RULES, set)
}

#[test]
fn a_bonus_crown_does_not_count_toward_three_crowns() {
    let game = game(RULES, &[("equipment_bonus", "true")]);
    // Orange wins the first three duels and claims the face-down tokens:
    // Crown, Crown and the Crown Equipment Bonus.
    let top = ["Crown", "Crown", "CrownBonus"];
    let mut decisions = vec![];
    for _ in 0..3 {
        decisions.extend(["Orange: rock", "Blue: scissors", "Orange: claim the face-down token"]);
        decisions.extend(["Blue: claim the face-up token", "Orange: place a Squad Member"]);
    }
    let record = play(&game, 5, &scenario(&[("bag", &top)], &decisions));
    let outcome = record.outcome.unwrap();
    assert!(!matches!(outcome.reason, EndReason::Trigger(..)), "no instant win");
    assert!(
        record.decisions.len() > decisions.len(),
        "the game went on past round three"
    );
}

// ---------------------------------------------------------------- diagnostics

fn house_fixtures() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir("tests/fixtures/house")
        .unwrap()
        .map(|e| Path::new("tests/fixtures/house").join(e.unwrap().file_name()))
        .collect();
    paths.sort();
    paths
}

#[test]
fn bad_house_rules_and_variants_are_diagnosed() {
    let expected = [
        ("cycle_a", "extends-cycle"),
        ("cycle_b", "extends-cycle"),
        ("missing_base", "unreadable-file"),
        ("missing_base_variant", "unreadable-file"),
        ("negative_blind", "bad-option-value"),
        ("out_of_range", "bad-option-value"),
        ("override_missing", "override-missing"),
        ("override_missing_phase", "override-missing"),
        ("redefined_without_override", "duplicate-definition"),
        ("unknown_key", "bad-house-rules"),
        ("unknown_option", "unknown-option"),
        ("wrong_type", "bad-option-value"),
    ];
    let fixtures = house_fixtures();
    assert_eq!(fixtures.len(), expected.len(), "every fixture has an expected code");
    for path in fixtures {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (diagnostics, sources) = rpsdsl::playtest::check_and_playtest(&path, &FsLoader, 5);
        let code = expected.iter().find(|(s, _)| *s == stem).map(|(_, c)| *c).unwrap();
        assert!(
            diagnostics.iter().any(|d| d.is_error() && d.code.as_str() == code),
            "{stem}: expected {code}, got {:?}",
            diagnostics.iter().map(|d| d.code.as_str()).collect::<Vec<_>>()
        );
        snapshot(
            &format!("house__{stem}"),
            rpsdsl::diagnostic::render(&diagnostics, &sources, false),
        );
    }
}

// ---------------------------------------------------------------- explain-diff

#[test]
fn explain_diff_for_every_shipped_variant() {
    let mut files: Vec<PathBuf> = ["games/variants", "games/house"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let variant = game(file.to_str().unwrap(), &[]);
        let base_path = match &variant.def.base {
            Some(base) => base.clone(),
            None => {
                // A house-rules file: its base is the rules file it names.
                let text = std::fs::read_to_string(&file).unwrap();
                let house = rpsdsl::house::HouseRules::parse(0, &file, &text).unwrap();
                house.rules.display().to_string()
            }
        };
        let base = game(&base_path, &[]);
        let lines = rpsdsl::explain::explain_diff(&base, &variant);
        assert!(
            !lines.iter().any(|l| l == "no differences in meaning"),
            "{}",
            file.display()
        );
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        snapshot(
            &format!("explain__{stem}"),
            format!("{base_path} -> {}\n{}", file.display(), lines.join("\n")),
        );
    }
}

#[test]
fn the_fourth_token_variant_scores_six() {
    let base = game(RULES, &[]);
    let variant = game("games/variants/fourth_token_six.rules", &[]);
    assert_eq!(variant.def.base.as_deref(), Some(RULES));
    let four_rulers: [&[&str]; 2] = [&["Ruler", "Ruler", "Ruler", "Ruler"], &[]];
    assert_eq!(score_position(&base, four_rulers)[0][1], 3);
    assert_eq!(score_position(&variant, four_rulers)[0][1], 6);
}

#[test]
fn option_values_and_kinds() {
    let game = game(RULES, &[("goggles", "true")]);
    let goggles = game.def.option_index("goggles").unwrap();
    assert_eq!(game.options[goggles], OptionValue::Bool(true));
    let anytime = &game.def.anytime[0];
    assert_eq!(anytime.label, "spend Goggles");
    assert!(game.def.decisions.iter().any(|d| d.kind == ChoiceKind::Space(0)));
}
