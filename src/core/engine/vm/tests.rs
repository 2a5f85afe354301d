//! The interpreter's tests: fused and joined instructions run as the ops
//! they stand for.

use super::*;
use crate::engine::state::MAX_STEPS_BETWEEN_DECISIONS;
use crate::engine::{Choice, Engine};

/// Both players pick a sign, after the flow has gone round `rounds` times.
fn signs_after(rounds: u64, signs: &str) -> Game {
    let source = format!(
        r#"
game "Signs"
players 2: A, B
kinds Sign = circle | square | star | moon
flow {{
  repeat {rounds} times {{ }}
  each player chooses sign from {signs}
}}
"#
    );
    crate::engine::test_game("signs.rules", &source)
}

/// The same game with its kind offers left as the loops they are.
fn loops_unjoined(mut game: Game) -> Game {
    for at in 0..game.program.ins.len() {
        if let Ins::OfferKinds(k) = game.program.ins[at] {
            let slot = game.program.kind_offers[k as usize].index;
            game.program.ins[at] = Ins::SetLocal { slot, value: 0 };
        }
    }
    game
}

/// A kind offer runs as one instruction and offers what its loop
/// offers; near the limit of an endless flow it runs round by round and
/// stops where the loop stops.
#[test]
fn a_kind_offer_runs_as_its_loop_does() {
    let game = signs_after(1, "Sign");
    assert_eq!(game.program.kind_offers.len(), 2, "a loop per seat");
    assert!(game.program.kind_offers.iter().all(|offer| offer.count == 4));
    let mut events = vec![];
    let state = State::start(&game, &game.default_options(), 1, vec![], &mut events).unwrap();
    for seat in 0..2 {
        assert_eq!(state.offers[seat], [0, 1, 2, 3]);
    }
    // A condition makes another loop, left alone.
    let filtered = signs_after(1, "Sign where sign != moon");
    assert!(filtered.program.kind_offers.is_empty());

    let (mut stopped, mut asked) = (0, 0);
    for short in 0..12 {
        let rounds = MAX_STEPS_BETWEEN_DECISIONS - short;
        let joined = signs_after(rounds, "Sign");
        let unjoined = loops_unjoined(signs_after(rounds, "Sign"));
        let run = |game: &Game| {
            let mut events = vec![];
            State::start(game, &game.default_options(), 1, vec![], &mut events)
                .map(|state| (state.offers.clone(), state.steps))
                .map_err(|error| format!("{error:?}"))
        };
        let (by_instruction, by_rounds) = (run(&joined), run(&unjoined));
        assert_eq!(by_instruction, by_rounds, "{short} rounds short of the limit");
        match by_instruction {
            Ok(_) => asked += 1,
            Err(_) => stopped += 1,
        }
    }
    assert!(stopped > 0 && asked > 0, "the limit falls among the loops' rounds");
}

/// Counting a board's pieces (in one slice while it is mostly empty, zone
/// by zone once it fills) gives what counting every zone gives, for every
/// matcher, all through a game.
#[test]
fn counting_a_board_agrees_with_counting_its_zones() {
    // 13 spaces for 6 pieces: always counted in one slice.
    let path =
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/games/ring_guards.rules");
    let rings = crate::check::check_file(&path, &crate::check::FsLoader).expect("the game checks");
    board_counts_agree("rings", &rings.def);
    // 3 spaces that stack up to 16 pieces: a slice, then zone by zone.
    let stacks = r#"
game "Stacks"
players 2: A, B
board heaps: graph { ring heap 3 wraps
  pile public }
zones { supply per player public }
pieces {
  Stone x6 per player in supply
  Gem x2 per player in supply
}
group Token = Stone | Gem
flow {
  let mover = A
  repeat 16 times {
    mover chooses piece from Token of mover in supply of mover
    mover chooses place from heap
    move piece to pile of place
    set mover = opponent of mover
  }
  declare draw "no more turns"
}
"#;
    board_counts_agree("stacks", &crate::engine::test_game("stacks.rules", stacks));
}

fn board_counts_agree(file: &str, game: &Game) {
    let mut events = vec![];
    let options = game.def.default_options();
    let mut state = State::start(game, &options, 11, vec![], &mut events).expect("the game starts");
    let types = game.def.pieces.iter().map(|p| p.ty).max().expect("pieces") as i64;
    let matchers = [
        (MatchBy::Any, false),
        (MatchBy::Any, true),
        (MatchBy::TypeOnStack, true),
        (MatchBy::KindOnStack, true),
        (MatchBy::KindOnStack, false),
    ];
    let board_zones = game.def.boards[0].slots.iter().flat_map(|&family| {
        let f = &game.def.families[family as usize];
        usize::from(f.first)..usize::from(f.first + f.len)
    });
    let mut counted_some = false;
    for turn in 0..120 {
        for (by, owner) in matchers {
            for key in -1..=types.max(3) {
                for seat in 0..2 {
                    let matcher = Matcher { by, owner };
                    let on_board = state.count_on_board(game, 0, matcher, key, seat);
                    let by_zones: usize = board_zones
                        .clone()
                        .map(|zone| state.count_in_zone(game, zone, matcher, key, seat))
                        .sum();
                    assert_eq!(
                        on_board, by_zones as i64,
                        "{file}, turn {turn}: {matcher:?} {key} {seat}"
                    );
                    counted_some |= on_board > 0;
                }
            }
        }
        let Some(pending) = state.pending() else { break };
        let choices: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                Choice::new(seat, legal[(turn * 7 + seat as usize) % legal.len()])
            })
            .collect();
        state.apply(game, &choices, &mut events).expect("a legal move");
    }
    assert!(counted_some, "{file}: the board held matching pieces");
}

/// `lines of` gives what checking every space of every line gives, on a
/// board of up to 64 spaces (each space asked once) and on a larger one.
#[test]
fn full_lines_agree_with_checking_every_space() {
    for size in [3, 9] {
        let ending = "if lines of Mark of A in mark of cells > lines of Mark of B in mark of cells { win A }";
        let game = crate::engine::marks_game(size, 40, (size * size).min(40), ending);
        let mut events = vec![];
        let mut state = State::start(&game, &game.def.default_options(), 5, vec![], &mut events).unwrap();
        let (board, family) = (0, game.def.boards[0].slots[0]);
        // Marks of a seat (tallied), and any marks (not).
        let matchers = [(MatchBy::TypeOnStack, true), (MatchBy::Any, false)];
        let mut full_seen = 0;
        for turn in 0..40 {
            for ((by, owner), seat) in matchers.into_iter().flat_map(|m| [(m, 0), (m, 1)]) {
                let matcher = Matcher { by, owner };
                let first = game.def.families[family as usize].first;
                let naive = game.def.boards[0]
                    .lines
                    .iter()
                    .filter(|line| {
                        line.iter().all(|&space| {
                            state.zones[(first + space) as usize]
                                .iter()
                                .any(|&p| state.matches(&game, matcher, p, 0, seat))
                        })
                    })
                    .count() as i64;
                assert_eq!(
                    state.full_lines(&game, board, family, matcher, 0, seat),
                    naive,
                    "turn {turn}"
                );
                full_seen += naive;
            }
            let Some(pending) = state.pending() else { break };
            let seat = pending.who()[0];
            let legal = pending.legal(seat);
            // In space order: rows fill up, and A takes a diagonal of 3 x 3.
            let choice = Choice::new(seat, legal[0]);
            state.apply(&game, &[choice], &mut events).unwrap();
        }
        assert!(full_seen > 0, "a {size} x {size} board had a full line");
    }
}

/// The table of op facts holds on every op met, and compiled code asks the
/// engine for an op in place exactly when the interpreter's inner loop runs
/// it in place (else the slow path would meet
/// an op it leaves to the inner loop, or the reverse), checked on every op
/// of every game in `games/` and `tests/games/`.
#[test]
fn compiled_code_and_the_interpreter_split_the_ops_alike() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut seen = std::collections::BTreeSet::new();
    for dir in ["games", "games/classic", "games/variants", "tests/games"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("the folder exists") {
            let path = entry.expect("an entry").path();
            if path.extension().is_none_or(|e| e != "rules") {
                continue;
            }
            let Ok(checked) = crate::check::check_file(&path, &crate::check::FsLoader) else {
                continue;
            };
            for &op in &checked.def.code {
                let in_place = !matches!(crate::engine::lower::single(op), Ins::Slow);
                assert_eq!(op.runs_in_place(), in_place, "{op:?} in {}", path.display());
                // The table's columns agree with one another: nothing runs
                // after an op that ends its path unless the engine stops
                // there or it jumps, and an op that moves values reads no piece.
                let facts = op.facts();
                assert!(facts.falls_through || facts.pauses || op.target().is_some(), "{op:?}");
                if facts.runs == crate::ir::Runs::Values {
                    assert!(!facts.pauses && facts.reach != crate::ir::Reach::Changes, "{op:?}");
                }
                seen.insert(format!("{op:?}").split(['(', ' ']).next().map(str::to_string));
            }
        }
    }
    assert!(seen.len() > 40, "only {} kinds of op met", seen.len());
}

/// A game whose small procedures the compiled tier writes into their
/// callers: a one-line one, one that reads pieces, returns from inside a
/// loop and calls another, and one that moves a piece.
const HELPERS: &str = r#"
game "Helpers"
players 2: Ann, Ben
kinds Shape = circle | square | star
pieces {
  Card of each Shape x2 in deck
}
zones {
  deck hidden
  hand per player public
  pile public
}
var points per player = 0
setup {
  shuffle deck
  for p in players { deal 3 from deck to hand of p }
}
flow {
  repeat 3 times {
    for p in players {
      p chooses card from Card in hand of p
      give(card)
      add worth(p) to points of p
    }
  }
}
procedure bonus(p: player) -> (b) {
  return if p == Ann then 1 else 2
}
procedure worth(p: player) -> (w) {
  let total = sum c in Card in pile { if kind of c == square then 1 else 0 }
  if any c in Card in pile where kind of c == circle { return (total + bonus(p)) }
  let i = 0
  while i < 3 {
    if i == total { return (10 * i) }
    set i = i + 1
  }
  return (total)
}
procedure give(card: piece) {
  move card to pile
}
score per player {
  points: points of player
}
result {
  most score
  else draw
}
"#;

/// Plays `game` with each seat taking its `(turn + seat) % n`-th choice;
/// what happened, as text, or the error.
fn played(game: &Game, seed: u64) -> String {
    let mut events = vec![];
    let mut state = match State::start(game, &game.def.default_options(), seed, vec![], &mut events) {
        Ok(state) => state,
        Err(error) => return format!("{events:?}\n{error:?}"),
    };
    for turn in 0..100 {
        let Some(pending) = state.pending() else { break };
        let choices: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                Choice::new(seat, legal[(turn + seat as usize) % legal.len()])
            })
            .collect();
        if let Err(error) = state.apply(game, &choices, &mut events) {
            return format!("{events:?}\n{error:?}");
        }
    }
    format!("{events:?}\n{:?}", state.status)
}

/// Inlined procedures play as the calls they replace, on every deal; the
/// interpreter keeps the plain program.
#[test]
fn inlined_procedures_play_as_calls_do() {
    let mut compiled = crate::engine::test_game("helpers.rules", HELPERS);
    let plain = crate::engine::test_game("helpers.rules", HELPERS);
    let inlined = crate::native::inline(&compiled.def).expect("the helpers are inlined");
    // `bonus` into `worth`, then `worth` and `give` into the flow (and
    // the set-up's own procedure into it).
    assert!(inlined.calls >= 3, "{} calls inlined", inlined.calls);
    let helpers: Vec<ProcId> = ["bonus", "worth", "give"]
        .iter()
        .map(|name| {
            compiled
                .def
                .procs
                .iter()
                .position(|p| p.name == *name)
                .expect("declared") as ProcId
        })
        .collect();
    let called = |code: &[Op]| {
        code.iter()
            .filter(|op| matches!(op, Op::Call(p) if helpers.contains(p)))
            .count()
    };
    assert_eq!(called(&compiled.def.code), 3);
    assert_eq!(called(&inlined.code), 0);
    compiled.use_engine(Engine::Compiled);
    assert!(compiled.plain.is_some());
    for seed in 0..20 {
        assert_eq!(played(&compiled, seed), played(&plain, seed), "seed {seed}");
    }
    // Back to the interpreter: the plain program again.
    compiled.use_engine(Engine::Interpreter);
    assert!(compiled.plain.is_none());
    assert_eq!(compiled.def.code, plain.def.code);
}

/// A flow stuck in its loops inside an inlined procedure fails at the same
/// step and points at the same place as with calls; recursion is left as
/// calls.
#[test]
fn inlined_calls_count_as_calls() {
    let stuck = r#"
game "Stuck"
players 2: Ann, Ben
var n = 0
flow {
  loop { set n = bump(n) }
}
procedure bump(x: number) -> (y) {
  return x + 1
}
"#;
    let mut compiled = crate::engine::test_game("stuck.rules", stuck);
    let plain = crate::engine::test_game("stuck.rules", stuck);
    compiled.use_engine(Engine::Compiled);
    assert!(compiled.plain.is_some(), "`bump` is inlined");
    let failed = played(&compiled, 1);
    assert!(failed.contains("EndlessFlow"), "{failed}");
    assert_eq!(failed, played(&plain, 1));

    let recursive = stuck.replace("return x + 1", "if x > 3 { return x }\n  return bump(x + 1)");
    let game = crate::engine::test_game("recursive.rules", &recursive);
    assert!(crate::native::inline(&game.def).is_none());
}
