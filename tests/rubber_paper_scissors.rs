//! The rules of Rubber Paper Scissors that matter, with fixed deals and
//! scripted decisions.

mod common;

use common::{lines, load, play, scenario};
use rpsdsl::engine::{EndReason, State};
use rpsdsl::ir::GameDef;

const RULES: &str = "games/rubber_paper_scissors.rules";

fn seat(def: &GameDef, name: &str) -> u8 {
    def.seats.iter().position(|s| s == name).unwrap() as u8
}

fn full_game(bag_top: &[&str], winners: &[&str]) -> (rpsdsl::engine::Game, rpsdsl::session::Record) {
    let def = load(RULES);
    let decisions: Vec<String> = winners.iter().flat_map(|w| common::rps_round(w)).collect();
    let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
    let record = play(&def, 1, &scenario(&[("bag", bag_top)], &decisions)).unwrap();
    (def, record)
}

#[test]
fn third_crown_taken_mid_round_wins_at_once() {
    let def = load(RULES);
    // face_down of shop 1 and 2 hold Crowns; the third Crown is face up on shop 3.
    let top = [
        "Crown", "Crown", "Tape", "Tape", "Tape", "Tape", "Tape", "Glue", "Glue", "Glue", "Glue", "Crown",
    ];
    let decisions = [
        "Orange: rock",
        "Blue: scissors",
        "Orange: claim the face-down token",
        "Blue: claim the face-up token",
        "Orange: place a Squad Member",
        "Orange: rubber",
        "Blue: scissors",
        "Orange: claim the face-down token",
        "Blue: claim the face-up token",
        "Orange: place a Squad Member",
        // Round 3: Blue wins the duel, so Orange picks second and takes the Crown.
        "Orange: scissors",
        "Blue: rock",
        "Blue: claim the face-down token",
        "Orange: claim the face-up token",
    ];
    let record = play(&def, 1, &scenario(&[("bag", &top)], &decisions)).unwrap();
    let outcome = record.outcome.clone().unwrap();
    assert_eq!(outcome.winner, Some(seat(&def, "Orange")));
    assert!(
        matches!(outcome.reason, EndReason::Trigger(0, Some(_))),
        "{:?}",
        outcome.reason
    );
    // Blue's last action of the round was never asked for.
    assert_eq!(record.decisions.len(), decisions.len());
    let text = lines(&def, &record);
    let last = text.len() - 1;
    assert_eq!(text[last], "result: Orange wins (claims all 3 Crown tokens)");
    assert_eq!(text[last - 1], "trigger all_crowns fires");
    assert_eq!(text[last - 2], "  Crown: face_up of shop 3 -> claimed of Orange");
    assert!(record.scores.is_empty(), "an instant win skips scoring");
}

#[test]
fn a_tied_duel_is_thrown_again() {
    let def = load(RULES);
    let decisions = [
        "Orange: rubber",
        "Blue: rubber",
        "Orange: paper",
        "Blue: paper",
        "Orange: paper",
        "Blue: scissors",
    ];
    let record = play(&def, 3, &scenario(&[], &decisions)).unwrap();
    let text = lines(&def, &record);
    let throws: Vec<&String> = text.iter().filter(|l| l.contains("chooses throw")).take(6).collect();
    assert_eq!(throws.len(), 6, "two ties then a decisive throw");
    // After the third throw, Blue (scissors beats paper) picks first.
    let first_pick = text
        .iter()
        .find(|l| l.starts_with("Blue chooses: ") || l.starts_with("Orange chooses: "));
    assert!(first_pick.unwrap().starts_with("Blue chooses: "), "{first_pick:?}");
}

#[test]
fn rulebook_scoring_example_howard_13_coco_7() {
    // "Howard (Blue) has claimed 2 complete lines ... a set of 3 Tape tokens ... a set of
    //  2 Glue tokens ... and 1 Crown token ... Howard's total is 13 points.
    //  Coco (Orange) has claimed no complete lines ... 4 Ruler tokens ... 1 Glue token ...
    //  1 Tape token ... and 1 +2 Bonus token ... Coco's total is 7 points."
    let def = load(RULES);
    let mut events = vec![];
    let mut state = State::start(&def, &def.default_options(), 1, vec![], &mut events).unwrap();
    let (orange, blue) = (seat(&def, "Orange"), seat(&def, "Blue"));
    let family = |name: &str| def.families.iter().find(|f| f.name == name).unwrap().clone();
    let claimed = family("claimed");
    let squads = family("squad");
    let take = |state: &mut State, ty: &str, n: usize, owner: u8, events: &mut Vec<_>| {
        let ty = def.piece_types.iter().position(|t| t == ty).unwrap() as u16;
        let pieces: Vec<u16> = (0..def.pieces.len() as u16)
            .filter(|&p| def.pieces[p as usize].ty == ty && def.pieces[p as usize].owner.is_none_or(|o| o == owner))
            .filter(|&p| !(0..def.players() as u16).any(|s| state.zone(claimed.first + s).any(|q| q == p)))
            .take(n)
            .collect();
        assert_eq!(pieces.len(), n);
        for p in pieces {
            state.relocate(&def, p, claimed.first + owner as u16, events);
        }
    };
    take(&mut state, "Tape", 3, blue, &mut events);
    take(&mut state, "Glue", 2, blue, &mut events);
    take(&mut state, "Crown", 1, blue, &mut events);
    take(&mut state, "Ruler", 4, orange, &mut events);
    take(&mut state, "Glue", 1, orange, &mut events);
    take(&mut state, "Tape", 1, orange, &mut events);
    take(&mut state, "Bonus", 1, orange, &mut events);
    // Two lines for Howard: the top row and the left column (spaces 1, 2, 3, 4, 7).
    let squad_type = def.piece_types.iter().position(|t| t == "Squad").unwrap() as u16;
    let howard_squads: Vec<u16> = (0..def.pieces.len() as u16)
        .filter(|&p| def.pieces[p as usize].ty == squad_type && def.pieces[p as usize].owner == Some(blue))
        .collect();
    for (space, piece) in [0u16, 1, 2, 3, 6].iter().zip(howard_squads) {
        state.relocate(&def, piece, squads.first + space, &mut events);
    }
    let scores = state.score_now(&def, &mut events).unwrap();
    let terms: Vec<&str> = def.score_terms.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(terms, ["lines", "sets", "bonus", "equipment_bonus", "goggles"]);
    assert_eq!(
        scores[blue as usize],
        [6, 5 + 2, 0, 0, 0],
        "Howard: 6 lines + 5 (3 Tape) + 2 (2 Glue) + 0 (Crown)"
    );
    assert_eq!(
        scores[orange as usize],
        [0, 3 + 1 + 1, 2, 0, 0],
        "Coco: 3 (4 Ruler) + 1 + 1 + 2"
    );
    assert_eq!(scores[blue as usize].iter().sum::<i64>(), 13);
    assert_eq!(scores[orange as usize].iter().sum::<i64>(), 7);
}

#[test]
fn a_points_tie_is_broken_by_lines() {
    // Face-down tokens (the loser's) for shops 1..9, then face-up tokens (the winner's).
    let top = [
        "Glue", "Glue", "Glue", "Tape", "Tape", "Crown", "Bonus", "Bonus", "Bonus", // face down
        "Tape", "Tape", "Tape", "Glue", "Glue", "Crown", "Crown", "Bonus", "Ruler", // face up
    ];
    let winners = [
        "Orange", "Orange", "Orange", "Blue", "Blue", "Blue", "Blue", "Blue", "Blue",
    ];
    let (def, record) = full_game(&top, &winners);
    // Orange: the top row (3) + 5 Tape (8) + 3 Bonus (6) = 17.
    // Blue: rows two and three (6) + 5 Glue (8) + 1 Ruler (1) + 1 Bonus (2) = 17.
    assert_eq!(record.scores[0], [3, 8, 6, 0, 0]);
    assert_eq!(record.scores[1], [6, 9, 2, 0, 0]);
    let outcome = record.outcome.clone().unwrap();
    assert_eq!(outcome.winner, Some(seat(&def, "Blue")));
    assert_eq!(outcome.reason, EndReason::Rank(1), "decided by the second key, lines");
    assert_eq!(lines(&def, &record).last().unwrap(), "result: Blue wins (most lines)");
}

#[test]
fn a_tie_on_points_and_lines_is_a_draw() {
    let top = [
        "Glue", "Glue", "Glue", "Glue", "Tape", "Crown", "Bonus", "Ruler", "Ruler", // face down
        "Tape", "Tape", "Tape", "Tape", "Glue", "Crown", "Crown", "Bonus", "Bonus", // face up
    ];
    let winners = [
        "Orange", "Orange", "Orange", "Orange", "Blue", "Blue", "Blue", "Blue", "Blue",
    ];
    let (def, record) = full_game(&top, &winners);
    // Orange: top row (3) + 5 Tape (8) + 2 Ruler (2) + 1 Bonus (2) = 15.
    // Blue: bottom row (3) + 5 Glue (8) + 2 Bonus (4) = 15.
    assert_eq!(record.scores[0], [3, 10, 2, 0, 0]);
    assert_eq!(record.scores[1], [3, 8, 4, 0, 0]);
    let outcome = record.outcome.clone().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(
        lines(&def, &record).last().unwrap(),
        "result: draw (tied on every result key)"
    );
}

#[test]
fn an_illegal_scripted_choice_names_the_legal_ones() {
    let def = load(RULES);
    let decisions = [
        "Orange: rock",
        "Blue: scissors",
        "Orange: claim the face-up token",
        "Blue: claim the face-up token",
    ];
    let failure = play(&def, 1, &scenario(&[], &decisions)).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "illegal-action");
    assert_eq!(
        failure.diagnostic.message,
        "Blue cannot choose `claim the face-up token` here"
    );
    assert_eq!(
        failure.diagnostic.help.as_deref(),
        Some("the legal choices are claim the face-down token, place a Squad Member")
    );
    // Nothing is lost: the decisions before the bad one are kept.
    assert_eq!(failure.record.decisions.len(), 3);
}
