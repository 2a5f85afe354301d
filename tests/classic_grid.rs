//! Connect Four and Breakthrough (games/classic): scripted games for the rules
//! that matter (wins along each line, a full board, reaching the far row,
//! capturing every pawn, captures only diagonally) and invariants under
//! random play.

mod common;

use common::{load, scenario};
use rpsdsl::engine::Game;
use rpsdsl::engine::{Choice, State};
use rpsdsl::ir::{FamilyIndex, Seat, ZoneId};
use rpsdsl::session::{self, Failure, Record};

const CONNECT_FOUR: &str = "games/classic/connect_four.rules";
const BREAKTHROUGH: &str = "games/classic/breakthrough.rules";

fn play_script(def: &Game, decisions: &[String]) -> Result<Record, Box<Failure>> {
    let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    session::play(def, &def.default_options(), 1, &scenario(&[], &decisions), &mut agents)
}

fn winner(def: &Game, record: &Record) -> Option<String> {
    let outcome = record.outcome.as_ref().expect("the game ended");
    outcome.winner.map(|s| def.seats[s as usize].clone())
}

/// Connect Four moves as columns 1 to 7, x first.
fn drops(columns: &[u8]) -> Vec<String> {
    columns
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}: {c}", if i % 2 == 0 { "x" } else { "o" }))
        .collect()
}

/// The zone of slot `slot` on space `space` of the game's board.
fn slot_zone(def: &Game, slot: &str, space: u16) -> ZoneId {
    let family = def
        .families
        .iter()
        .find(|f| f.name == slot && matches!(f.by, FamilyIndex::PerSpace(_)))
        .expect("the slot exists");
    family.first + space
}

/// Who owns the piece on each space (top piece), by space.
fn owners(def: &Game, state: &State, slot: &str) -> Vec<Option<Seat>> {
    (0..def.boards[0].spaces())
        .map(|s| {
            state
                .zone(slot_zone(def, slot, s))
                .next()
                .and_then(|p| def.pieces[p as usize].owner)
        })
        .collect()
}

/// Plays one game with random agents straight on the engine; `check` sees
/// the state before every decision. Returns the final state.
fn random_game(def: &Game, seed: u64, check: &mut dyn FnMut(&State)) -> State {
    let mut agents = rpsdsl::agents::from_spec("random", def.players(), seed).unwrap();
    let mut events = vec![];
    let mut state = State::start(def, &def.default_options(), seed, vec![], &mut events).unwrap();
    while let Some(pending) = state.pending() {
        check(&state);
        let decision = pending.decision();
        let step: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                session::agent_choice(def, &state, decision, seat, legal, agents[seat as usize].as_mut())
            })
            .collect();
        state.apply(def, &step, &mut events).unwrap();
    }
    state
}

// ------------------------------------------------------------ Connect Four

#[test]
fn connect_four_vertical_win() {
    let def = load(CONNECT_FOUR);
    let record = play_script(&def, &drops(&[1, 2, 1, 2, 1, 2, 1])).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("x"));
    assert_eq!(record.decisions.len(), 7);
}

#[test]
fn connect_four_horizontal_win() {
    let def = load(CONNECT_FOUR);
    let record = play_script(&def, &drops(&[1, 1, 2, 2, 3, 3, 4])).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("x"));
    // Three in a row is not enough: o's third disc did not end the game.
    let record = play_script(&def, &drops(&[1, 1, 2, 2, 7, 3, 7, 4])).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("o"));
}

#[test]
fn connect_four_diagonal_win() {
    let def = load(CONNECT_FOUR);
    // x ends on rows 6, 5, 4, 3 of columns 1 to 4: a rising diagonal.
    let record = play_script(&def, &drops(&[1, 2, 2, 3, 3, 4, 3, 4, 4, 7, 4])).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("x"));
    assert_eq!(record.decisions.len(), 11);
    // And a falling one for o: rows 3, 4, 5, 6 of columns 4 to 7.
    let record = play_script(&def, &drops(&[7, 6, 6, 5, 5, 4, 5, 4, 1, 4, 1, 4])).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("o"));
}

#[test]
fn connect_four_full_board_is_a_draw() {
    let def = load(CONNECT_FOUR);
    let columns = [
        7, 5, 7, 3, 4, 1, 1, 3, 2, 7, 7, 3, 5, 7, 5, 6, 4, 7, 2, 6, 2, 4, 1, 6, 3, 2, 3, 1, 3, 4, 6, 5, 2, 2, 5, 4, 6,
        5, 4, 6, 1, 1,
    ];
    let record = play_script(&def, &drops(&columns)).unwrap();
    let outcome = record.outcome.as_ref().unwrap();
    assert_eq!(outcome.winner, None);
    assert_eq!(record.decisions.len(), 42);
}

#[test]
fn connect_four_refuses_a_full_column() {
    let def = load(CONNECT_FOUR);
    let failure = play_script(&def, &drops(&[1, 1, 1, 1, 1, 1, 1])).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "illegal-action");
}

/// Under random play a win always has four in a row of the winner's discs,
/// and a draw fills the board with four in a row for no one.
#[test]
fn connect_four_wins_have_four_in_a_row() {
    let def = load(CONNECT_FOUR);
    let board = &def.boards[0];
    for seed in 0..300 {
        let state = random_game(&def, seed, &mut |_| {});
        let cells = owners(&def, &state, "cell");
        let run = |seat: Seat| board.longest_run(|s| cells[s as usize] == Some(seat));
        match state.outcome().unwrap().winner {
            Some(w) => {
                assert!(run(w) >= 4, "seed {seed}: the winner has no four in a row");
                assert!(run(1 - w) < 4, "seed {seed}: the loser had four in a row first");
            }
            None => {
                assert!(
                    cells.iter().all(Option::is_some),
                    "seed {seed}: a draw before the board is full"
                );
                assert!(run(0) < 4 && run(1) < 4, "seed {seed}: a draw with four in a row");
            }
        }
    }
}

// ------------------------------------------------------------ Breakthrough

/// Space name of row `r`, column `c` (from 1) on the 8 x 8 field.
fn sq(r: u16, c: u16) -> String {
    format!("field {}", (r - 1) * 8 + c)
}

fn step(seat: &str, from: (u16, u16), to: (u16, u16)) -> String {
    format!("{seat}: {} to {}", sq(from.0, from.1), sq(to.0, to.1))
}

fn take(seat: &str, from: (u16, u16), to: (u16, u16)) -> String {
    format!("{seat}: {} takes {}", sq(from.0, from.1), sq(to.0, to.1))
}

/// Black walks a pawn down column 1 while white shuffles on column 8;
/// black then captures diagonally twice, the second time onto row 8.
fn black_breaks_through() -> Vec<String> {
    vec![
        step("black", (2, 1), (3, 1)),
        step("white", (7, 8), (6, 8)),
        step("black", (3, 1), (4, 1)),
        step("white", (6, 8), (5, 8)),
        step("black", (4, 1), (5, 1)),
        step("white", (5, 8), (4, 8)),
        step("black", (5, 1), (6, 1)),
        step("white", (8, 8), (7, 8)),
        take("black", (6, 1), (7, 2)),
        step("white", (7, 8), (6, 8)),
        take("black", (7, 2), (8, 1)),
    ]
}

#[test]
fn breakthrough_black_starts_and_wins_on_the_far_row() {
    let def = load(BREAKTHROUGH);
    let record = play_script(&def, &black_breaks_through()).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("black"));
    assert_eq!(record.decisions.len(), 11);
    // White may not move first: the scenario is out of turn.
    let failure = play_script(&def, &[step("white", (7, 1), (6, 1))]).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "bad-scenario");
}

#[test]
fn breakthrough_captures_only_diagonally() {
    let def = load(BREAKTHROUGH);
    // At row 6 the pawn faces a white pawn straight ahead on row 7.
    let mut script = black_breaks_through()[..8].to_vec();
    for blocked in [take("black", (6, 1), (7, 1)), step("black", (6, 1), (7, 1))] {
        script.push(blocked);
        let failure = play_script(&def, &script).unwrap_err();
        assert_eq!(
            failure.diagnostic.code.as_str(),
            "illegal-action",
            "{:?}",
            script.last()
        );
        script.pop();
    }
    // Nor sideways or backwards, even to an empty square.
    script.push(step("black", (6, 1), (5, 1)));
    assert!(play_script(&def, &script).is_err());
    script.pop();
    // A diagonal step onto an empty square is a plain move, not a capture.
    script.push(take("black", (1, 2), (2, 1)));
    assert!(play_script(&def, &script).is_err(), "nothing to capture there");
    script.pop();
    script.push(step("black", (1, 2), (2, 1)));
    assert!(play_script(&def, &script).is_ok(), "a diagonal step to an empty square");
}

/// The seat to move, and its legal choices with their labels.
fn labels(def: &Game, state: &State) -> (Seat, Vec<(i64, String)>) {
    let pending = state.pending().unwrap();
    let seat = pending.who()[0];
    let legal = pending
        .legal(seat)
        .iter()
        .map(|&v| (v, def.choice_label(pending.decision(), v)))
        .collect();
    (seat, legal)
}

/// Black captures whenever it can, else steps a back pawn forward; white
/// never captures and walks its pawns into black's reach, so black takes
/// all sixteen and wins without reaching row 8.
#[test]
fn breakthrough_capturing_every_pawn_wins() {
    let def = load(BREAKTHROUGH);
    let mut events = vec![];
    let mut state = State::start(&def, &def.default_options(), 1, vec![], &mut events).unwrap();
    let mut turn = 0usize;
    while state.pending().is_some() {
        let (seat, legal) = labels(&def, &state);
        let pick = if seat == 0 {
            legal
                .iter()
                .find(|(_, l)| l.contains("takes"))
                // Otherwise a pawn from the back rows steps out, slowly.
                .or_else(|| legal.iter().find(|(_, l)| l.contains(" to ")))
        } else {
            // White moves from its far-right pawns first, straight ahead.
            legal.iter().filter(|(_, l)| !l.contains("takes")).nth(turn % 3)
        };
        let (value, _) = pick.expect("a move");
        state
            .apply(
                &def,
                &[Choice {
                    seat,
                    value: *value,
                    reaction_ms: 0,
                }],
                &mut events,
            )
            .unwrap();
        turn += 1;
    }
    let outcome = state.outcome().unwrap();
    let cells = owners(&def, &state, "square");
    let white_left = cells.iter().filter(|o| **o == Some(1)).count();
    let black_on_row_8 = cells[56..].contains(&Some(0));
    assert_eq!(outcome.winner, Some(0));
    assert!(
        white_left == 0 || black_on_row_8,
        "black won without reaching row 8 or taking every pawn"
    );
    assert_eq!(white_left, 0, "this policy ends with every white pawn taken");
}

/// Under random play a breakthrough game goes on while no pawn stands on
/// its far row and both sides have pawns, and ends as soon as one does not.
#[test]
fn breakthrough_ends_at_the_far_row_or_with_no_pawns() {
    let def = load(BREAKTHROUGH);
    for seed in 0..300 {
        let mut before = 0;
        let state = random_game(&def, seed, &mut |state| {
            before += 1;
            let cells = owners(&def, state, "square");
            assert!(
                !cells[56..].contains(&Some(0)),
                "seed {seed}: black on row 8 and the game goes on"
            );
            assert!(
                !cells[..8].contains(&Some(1)),
                "seed {seed}: white on row 1 and the game goes on"
            );
            assert!(cells.contains(&Some(0)) && cells.contains(&Some(1)));
        });
        let cells = owners(&def, &state, "square");
        let w = state.outcome().unwrap().winner.expect("breakthrough has no draws");
        let far_row = if w == 0 { &cells[56..] } else { &cells[..8] };
        let reached = far_row.contains(&Some(w));
        let wiped = !cells.contains(&Some(1 - w));
        assert!(reached || wiped, "seed {seed}: the game ended without a reason");
        assert!(before > 0);
    }
}

// ------------------------------------------------------------ the grid forms

const GRID_WALK: &str = "tests/games/grid_walk.rules";

/// `directions` offers only the steps that stay on the board, by name;
/// `backward of` a seat is the opposite of its forward; `row of` and
/// `column of` count from 1.
#[test]
fn grid_walk_steps_by_direction_names() {
    let def = load(GRID_WALK);
    let walk = |moves: &[&str]| {
        let decisions: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        play_script(&def, &decisions)
    };
    // (2, 2) north to (1, 2), east to (1, 3), back west to (1, 2): row 1.
    let record = walk(&["left: north", "right: east"]).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("left"));
    // (2, 2) northeast to (1, 3), east to (1, 4), back west to (1, 3).
    let record = walk(&["left: northeast", "right: east"]).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("left"));
    // (2, 2) south to (3, 2): no further south.
    let failure = walk(&["left: south", "right: south"]).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "illegal-action");
    // (2, 2) west to (2, 1), northwest is off the board.
    let failure = walk(&["left: west", "right: northwest"]).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "illegal-action");
    let record = walk(&["left: west", "right: southeast"]).unwrap();
    assert_eq!(winner(&def, &record).as_deref(), Some("right"));
    assert!(lines_mention(&def, &record, "left chooses way: west"));
}

fn lines_mention(def: &Game, record: &Record, text: &str) -> bool {
    common::lines(def, record).iter().any(|l| l.contains(text))
}

// ------------------------------------------------- Breakthrough, other sizes

/// Breakthrough loaded as `rpsdsl run --set` loads it, with these settings.
fn breakthrough_with(settings: &[(&str, &str)]) -> rpsdsl::load::LoadedGame {
    let settings: Vec<(String, String)> = settings.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
    let settings = rpsdsl::check::OptionSetting::recorded(&settings);
    match rpsdsl::load::load_game(std::path::Path::new(BREAKTHROUGH), &rpsdsl::check::FsLoader, |_| {
        Ok(settings)
    }) {
        Ok(game) => game,
        Err(failed) => panic!(
            "{}",
            rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
        ),
    }
}

#[test]
fn breakthrough_is_played_on_the_board_its_options_give() {
    let game = breakthrough_with(&[("rows", "5"), ("columns", "3")]);
    let def = &game.def;
    assert_eq!((def.boards[0].rows, def.boards[0].cols), (5, 3));
    // Black on rows 1-2, white on rows 4-5, row 3 empty: field N is row
    // (N - 1) / 3 + 1, column (N - 1) % 3 + 1.
    let at = |r: u16, c: u16| format!("field {}", (r - 1) * 3 + c);
    let script = [
        format!("black: {} to {}", at(2, 1), at(3, 1)),
        format!("white: {} to {}", at(4, 3), at(3, 3)),
        format!("black: {} takes {}", at(3, 1), at(4, 2)),
        format!("white: {} to {}", at(5, 3), at(4, 3)),
        format!("black: {} takes {}", at(4, 2), at(5, 1)),
    ];
    let decisions: Vec<&str> = script.iter().map(String::as_str).collect();
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    let record = session::play(def, &game.options, 1, &scenario(&[], &decisions), &mut agents).unwrap();
    assert_eq!(winner(def, &record).as_deref(), Some("black"));
    assert_eq!(record.decisions.len(), 5);
    // Six pawns a side on the board at the start, none in reserve.
    let mut events = vec![];
    let state = State::start(def, &game.options, 1, vec![], &mut events).unwrap();
    let on_board: usize = (0..def.boards[0].spaces())
        .map(|s| state.zone(slot_zone(def, "square", s)).count())
        .sum();
    assert_eq!(on_board, 12);
}

#[test]
fn a_board_built_for_other_values_refuses_to_start() {
    let def = load(BREAKTHROUGH);
    let mut options = def.default_options();
    options[0] = rpsdsl::ir::OptionValue::Int(6);
    let error = State::start(&def, &options, 1, vec![], &mut vec![]).unwrap_err();
    assert_eq!(error.code.as_str(), "bad-option-value");
    assert!(error.message.contains("checked for `rows` at 8"), "{}", error.message);
}
