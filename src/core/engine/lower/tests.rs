//! The lowering's tests: each fusion, and that the fused program runs as
//! the checker's program does.

use super::*;
use crate::ir::{MatchBy, Matcher, Op};

/// The program of `code` with the run `code[1..end]` fused where it
/// starts, as a loop's test opens its body; every other op alone.
fn with_test_fused(code: &[Op], end: usize) -> Vec<Ins> {
    let mut program = singles(code);
    program[1] = fuse(&code[1..end]).expect("the test fuses");
    program
}

/// Each op as its own instruction, before any fusion.
fn singles(code: &[Op]) -> Vec<Ins> {
    code.iter().map(|&op| single(op)).collect()
}

#[test]
fn fuses_the_longest_run_and_keeps_numbering() {
    let run = [Op::Load(3), Op::Push(7), Op::Lt, Op::JumpIfFalse(9)];
    assert_eq!(
        fuse(&run),
        Some(Ins::LocalCmpConstJump {
            slot: 3,
            cmp: Cmp::Lt,
            when: false,
            value: 7,
            target: 9
        })
    );
    assert_eq!(fuse(&[Op::Load(1), Op::Push(1), Op::Add, Op::Store(2)]), None);
    assert_eq!(fuse(&[Op::Push(i64::MAX), Op::Add]), None);
    let empty_space = [
        Op::Load(2),
        Op::ZoneOf(1),
        Op::Size,
        Op::Push(0),
        Op::Eq,
        Op::JumpIfFalse(40),
    ];
    assert!(matches!(
        fuse(&empty_space),
        Some(Ins::LocalZoneSizeJump {
            slot: 2,
            family: 1,
            value: 0,
            target: 40,
            ..
        })
    ));
}

#[test]
fn a_loops_jump_back_takes_its_step() {
    let code = [
        Op::Next {
            value: 0,
            last: 1,
            exit: 3,
        },
        Op::Jump(0),
        Op::Jump(3),
        Op::Return,
    ];
    let program = singles(&code);
    assert_eq!(
        thread_back_jump(&code, &program, &[], 1),
        Some(Ins::JumpNext {
            value: 0,
            last: 1,
            exit: 3,
            head: 0
        })
    );
    // A jump forward stays a jump.
    assert_eq!(thread_back_jump(&code, &program, &[], 2), None);
}

#[test]
fn a_loops_jump_back_takes_its_zone_test_along() {
    // for cell in 0..8 where size of mark of cell == 0 { offer cell }
    let code = [
        Op::Next {
            value: 0,
            last: 1,
            exit: 10,
        },
        Op::Load(0),
        Op::ZoneOf(1),
        Op::Size,
        Op::Push(0),
        Op::Eq,
        Op::JumpIfFalse(9),
        Op::Load(0),
        Op::Pop,
        Op::Jump(0),
        Op::Return,
    ];
    let mut program = with_test_fused(&code, 7);
    assert_eq!(
        thread_back_jump(&code, &program, &[], 9),
        Some(Ins::JumpNextTested {
            value: 0,
            last: 1,
            exit: 10,
            head: 0
        })
    );
    // A test that leaves the loop elsewhere is left to itself.
    let mut elsewhere = code;
    elsewhere[6] = Op::JumpIfFalse(10);
    program[1] = fuse(&elsewhere[1..7]).expect("the test fuses");
    assert!(matches!(
        thread_back_jump(&elsewhere, &program, &[], 9),
        Some(Ins::JumpNext { .. })
    ));
}

#[test]
fn a_loops_jump_back_takes_its_piece_step_and_a_plain_offer_fuses() {
    // for card in hand of player { offer card }, then the same on a board
    let piece_loop = [
        Op::NextPiece {
            zone: 0,
            index: 1,
            value: 2,
            filter: 0,
            exit: 5,
        },
        Op::Load(3),
        Op::Load(2),
        Op::ChoiceAdd,
        Op::Jump(0),
        Op::Return,
    ];
    let program = singles(&piece_loop);
    assert_eq!(
        thread_back_jump(&piece_loop, &program, &[], 4),
        Some(Ins::JumpNextPiece {
            zone: 0,
            index: 1,
            value: 2,
            filter: 0,
            back: 4,
            exit: 5,
        })
    );
    assert_eq!(fuse(&piece_loop[1..4]), Some(Ins::OfferLocal { seat: 3, value: 2 }));
    let mut board_loop = piece_loop;
    board_loop[0] = Op::NextOnBoard {
        board: 1,
        cursor: 0,
        value: 2,
        filter: 0,
        exit: 5,
    };
    assert_eq!(
        thread_back_jump(&board_loop, &program, &[], 4),
        Some(Ins::JumpNextOnBoard {
            board: 1,
            cursor: 0,
            value: 2,
            filter: 0,
            back: 4,
            exit: 5,
        })
    );
}

#[test]
fn a_counted_loops_step_joins_its_jump_back_on_the_same_local() {
    let jump_back = |slot| Ins::JumpLocalCmp {
        slot,
        cmp: Cmp::Lt,
        when: false,
        value: 3,
        target: 9,
        back: 8,
    };
    let step = Ins::AddToLocal { slot: 0, value: 1 };
    let mut program = vec![Ins::Slow; 10];
    program[4] = step;
    program[8] = jump_back(0);
    join_counted_steps(&mut program);
    assert_eq!(
        program[4],
        Ins::AddJumpLocalCmp {
            slot: 0,
            add: 1,
            cmp: Cmp::Lt,
            when: false,
            value: 3,
            target: 9,
            back: 8,
        }
    );
    assert_eq!(program[8], jump_back(0), "the jump stays for other ways in");
    // A jump back that tests another local is left alone.
    let mut program = vec![Ins::Slow; 10];
    program[4] = step;
    program[8] = jump_back(1);
    join_counted_steps(&mut program);
    assert_eq!(program[4], step);
}

#[test]
fn a_count_in_a_kept_spaces_zone_fuses() {
    let matcher = Matcher {
        by: MatchBy::Any,
        owner: true,
    };
    assert_eq!(
        fuse(&[Op::Load(4), Op::ZoneOf(1), Op::Count(matcher)]),
        Some(Ins::CountInLocalZone {
            slot: 4,
            family: 1,
            matcher
        })
    );
}

#[test]
fn a_loops_jump_back_takes_a_cell_test_or_a_test_against_a_variable_along() {
    // for column in 1..7 where size of cell of rack[1, column] == 0 { .. }
    let mut code = vec![
        Op::Next {
            value: 0,
            last: 1,
            exit: 12,
        },
        Op::Push(1),
        Op::Load(0),
        Op::CellAt(0),
        Op::ZoneOf(1),
        Op::Size,
        Op::Push(0),
        Op::Eq,
        Op::JumpIfFalse(11),
        Op::Load(0),
        Op::Pop,
        Op::Jump(0),
        Op::Return,
    ];
    let test = CellTest::of(&code[1..9]).expect("the test is a cell test");
    assert_eq!(
        (test.row, test.column, test.value, test.target),
        (Operand::Number(1), Operand::Local(0), 0, 11)
    );
    let mut program = singles(&code);
    program[1] = Ins::CellTestJump(0);
    assert!(matches!(
        thread_back_jump(&code, &program, &[test], 11),
        Some(Ins::JumpNextTested { head: 0, .. })
    ));
    // A row that is neither a number nor a local is no cell test.
    code[1] = Op::LoadVar(0);
    assert_eq!(CellTest::of(&code[1..9]), None);
    // for bid in 1..6 where bid > current { .. }
    let code = [
        Op::Next {
            value: 0,
            last: 1,
            exit: 8,
        },
        Op::Load(0),
        Op::LoadVar(2),
        Op::Gt,
        Op::JumpIfFalse(7),
        Op::Load(0),
        Op::Pop,
        Op::Jump(0),
        Op::Return,
    ];
    let program = with_test_fused(&code, 5);
    assert_eq!(
        program[1],
        Ins::LocalVarCmpJump {
            slot: 0,
            var: 2,
            cmp: Cmp::Gt,
            when: false,
            target: 7
        }
    );
    assert!(matches!(
        thread_back_jump(&code, &program, &[], 7),
        Some(Ins::JumpNextTested { head: 0, .. })
    ));
}

#[test]
fn a_loop_over_a_spaces_pieces_is_entered_and_stepped_at_once() {
    // for defender in Stone in spot of there { offer defender }
    let code = [
        Op::Load(0),
        Op::ZoneOf(1),
        Op::Store(2),
        Op::Push(-1),
        Op::Store(3),
        Op::NextPiece {
            zone: 2,
            index: 3,
            value: 4,
            filter: 0,
            exit: 10,
        },
        Op::Load(5),
        Op::Load(4),
        Op::ChoiceAdd,
        Op::Jump(5),
        Op::Return,
    ];
    let mut program = vec![Ins::Slow; code.len()];
    program[0] = fuse(&code[0..3]).expect("the zone is kept");
    program[3] = fuse(&code[3..5]).expect("the place is reset");
    join_piece_loop_entries(&code, &mut program);
    assert_eq!(
        program[0],
        Ins::EnterPieces {
            slot: 0,
            family: 1,
            zone: 2,
            index: 3,
            value: 4,
            filter: 0,
            exit_after: 5,
        }
    );
    // A step over another zone is not this loop's.
    let mut other = code;
    other[5] = Op::NextPiece {
        zone: 7,
        index: 3,
        value: 4,
        filter: 0,
        exit: 10,
    };
    program[0] = fuse(&code[0..3]).expect("the zone is kept");
    join_piece_loop_entries(&other, &mut program);
    assert!(matches!(program[0], Ins::ZoneOfLocal { .. }));
}

#[test]
fn a_while_loops_jump_back_runs_its_cell_test_and_its_step_down_fuses() {
    // while size of cell of g[row, 1] == 0 { set row = row - 1 }
    let code = [
        Op::Load(0),
        Op::Push(1),
        Op::CellAt(0),
        Op::ZoneOf(1),
        Op::Size,
        Op::Push(0),
        Op::Eq,
        Op::JumpIfFalse(13),
        Op::Load(0),
        Op::Push(1),
        Op::Sub,
        Op::Store(0),
        Op::Jump(0),
        Op::Return,
    ];
    assert_eq!(fuse(&code[8..12]), Some(Ins::SubFromLocal { slot: 0, value: 1 }));
    let test = CellTest::of(&code[0..8]).expect("the test is a cell test");
    let mut program = singles(&code);
    program[0] = Ins::CellTestJump(0);
    assert_eq!(
        thread_back_jump(&code, &program, &[test], 12),
        Some(Ins::JumpCellTest { test: 0, back: 12 })
    );
}

#[test]
fn a_loops_jump_back_runs_its_fused_test() {
    // while i < 3 { set i = i + 1 }
    let code = [
        Op::Load(0),
        Op::Push(3),
        Op::Lt,
        Op::JumpIfFalse(9),
        Op::Load(0),
        Op::Push(1),
        Op::Add,
        Op::Store(0),
        Op::Jump(0),
        Op::Return,
    ];
    let mut program = singles(&code);
    program[0] = fuse(&code[0..4]).expect("the test fuses");
    assert_eq!(
        thread_back_jump(&code, &program, &[], 8),
        Some(Ins::JumpLocalCmp {
            slot: 0,
            cmp: Cmp::Lt,
            when: false,
            value: 3,
            target: 9,
            back: 8,
        })
    );
    // A test whose number does not fit stays a plain jump.
    program[0] = Ins::LocalCmpConstJump {
        slot: 0,
        cmp: Cmp::Lt,
        when: false,
        value: 1 << 20,
        target: 9,
    };
    assert_eq!(thread_back_jump(&code, &program, &[], 8), None);
}

#[test]
fn fuses_the_move_generators_runs() {
    assert_eq!(
        fuse(&[Op::Load(7), Op::Load(8), Op::Step(0), Op::Store(11)]),
        Some(Ins::StepLocal {
            board: 0,
            space: 7,
            direction: 8,
            to: 11
        })
    );
    assert_eq!(
        fuse(&[Op::Load(5), Op::SpaceOf(0), Op::Store(7)]),
        Some(Ins::SpaceOfLocal {
            board: 0,
            piece: 5,
            to: 7
        })
    );
    assert_eq!(
        fuse(&[Op::Load(10), Op::Load(9), Op::Add]),
        Some(Ins::LoadLoadArith {
            a: 10,
            b: 9,
            arith: Arith::Add
        })
    );
    assert_eq!(
        fuse(&[Op::Push(8), Op::Rem, Op::Store(8)]),
        Some(Ins::ArithConstStore {
            arith: Arith::Rem,
            value: 8,
            slot: 8
        })
    );
    assert_eq!(
        fuse(&[Op::Load(10), Op::ZoneOf(1), Op::Store(15)]),
        Some(Ins::ZoneOfLocal {
            slot: 10,
            family: 1,
            to: 15
        })
    );
    // `Load Load` then a comparison is left to the shorter runs.
    assert_eq!(fuse(&[Op::Load(1), Op::Load(2), Op::Lt]), None);
}

#[test]
fn fuses_a_step_with_its_test_and_a_turned_direction() {
    let step_and_test = |tested| {
        fuse(&[
            Op::Load(7),
            Op::Load(8),
            Op::Step(0),
            Op::Store(11),
            Op::Load(tested),
            Op::Push(-1),
            Op::Eq,
            Op::JumpIfTrue(30),
        ])
    };
    assert_eq!(
        step_and_test(11),
        Some(Ins::StepLocalJump {
            board: 0,
            space: 7,
            direction: 8,
            to: 11,
            off_board: 30
        })
    );
    // The test must read the space just stepped to.
    assert_eq!(step_and_test(12), None);
    let turn = |third| {
        fuse(&[
            Op::Load(10),
            Op::Load(9),
            Op::Add,
            Op::Push(7),
            Op::Add,
            Op::Push(8),
            third,
            Op::Store(8),
        ])
    };
    assert_eq!(
        turn(Op::Rem),
        Some(Ins::ArithChainStore {
            a: 10,
            b: 9,
            c: 7,
            d: 8,
            ops: [Arith::Add, Arith::Add, Arith::Rem],
            to: 8
        })
    );
    assert_eq!(turn(Op::Lt), None);
}

/// Each candidate move's step to its target, and the turning of its
/// direction, is one instruction in a grid mover's lowered program.
#[test]
fn a_grid_movers_steps_and_turns_are_fused() {
    let game = grid_mover();
    let (def, program) = (&game.def, &game.program);
    // The instruction each op of the checker's program runs in.
    let mut runs_in: Vec<Option<Ins>> = vec![None; def.code.len()];
    let mut pc = 0;
    while pc < def.code.len() {
        let ins = program.ins[pc];
        runs_in[pc..pc + ins.len()].fill(Some(ins));
        pc += ins.len();
    }
    let mut fused = (0, 0);
    for (pc, op) in def.code.iter().enumerate() {
        match (op, def.code.get(pc + 1), runs_in[pc]) {
            // A generator's step stores its target; `exists` tests it at once.
            (Op::Step(_), Some(Op::Store(_)), Some(Ins::StepLocalJump { .. })) => fused.0 += 1,
            (Op::Rem, _, Some(Ins::ArithChainStore { .. })) => fused.1 += 1,
            (Op::Step(_), Some(Op::Store(_)), other) | (Op::Rem, _, other) => {
                panic!("{op:?} at {pc} runs in {other:?}")
            }
            _ => {}
        }
    }
    assert_eq!(fused, (2, 2), "both menu entries step and turn");
}

/// A test game that moves pieces over a grid, checked and lowered.
fn grid_mover() -> crate::engine::Game {
    checked("tests/games/march.rules")
}

#[test]
fn every_offered_move_is_one_instruction() {
    let game = grid_mover();
    let (def, program) = (&game.def, &game.program);
    let runs: Vec<(usize, &Offer)> = program
        .ins
        .iter()
        .enumerate()
        .filter_map(|(pc, ins)| match *ins {
            Ins::OfferAction { offer, len } => {
                // The run ends with the offer's `ActionValue` and `ChoiceAdd`.
                let end = pc + len as usize;
                assert!(matches!(def.code[end - 2], Op::ActionValue { .. }));
                assert_eq!(def.code[end - 1], Op::ChoiceAdd);
                Some((pc, &program.offers[offer as usize]))
            }
            _ => None,
        })
        .collect();
    let offered = def.code.iter().filter(|op| **op == Op::ChoiceAdd).count();
    assert_eq!(runs.len(), offered, "both menu entries are fused");
    for (pc, offer) in runs {
        // The seat first, then each parameter, as the run loads them.
        let loads: Vec<u16> = std::iter::once(offer.seat)
            .chain(offer.params.iter().copied())
            .collect();
        let code: Vec<u16> = def.code[pc..pc + loads.len()]
            .iter()
            .map(|op| match op {
                Op::Load(slot) => *slot,
                other => panic!("{other:?} in an offer's loads"),
            })
            .collect();
        assert_eq!(loads, code);
    }
}

#[test]
fn the_step_table_agrees_with_the_board() {
    let game = grid_mover();
    let (def, program) = (&game.def, &game.program);
    let board = &def.boards[0];
    let steps = &program.steps[0];
    for space in -2..i64::from(board.spaces()) + 2 {
        for direction in -1..10 {
            assert_eq!(
                steps.step(space, direction),
                board.step(space, direction),
                "{space} {direction}"
            );
        }
    }
}

fn checked(path: &str) -> crate::engine::Game {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(path);
    crate::check::check_file(&path, &crate::check::FsLoader)
        .expect("the game checks")
        .def
}

/// Two `anytime` actions of one module, tested first and last.
const MODULE: &str = r#"
game "Modules"
players 2: A, B
option extra: bool = false "An extra action"
board cells: grid 2 x 2 {
  mark public
}
zones {
  supply per player public
}
pieces {
  Mark x4 per player in supply
}
anytime "give a mark" when extra and count Mark in supply of actor > 1 {
  move first Mark in supply of actor to supply of opponent of actor
}
anytime "keep a mark" when count Mark in supply of actor > 1 and extra {
  move first Mark in supply of actor to supply of actor
}
flow {
  let mover = A
  repeat 4 times {
mover chooses cell from cells where size of mark of cell == 0
move first Mark in supply of mover to mark of cell
set mover = opponent of mover
  }
  declare draw "the board is full"
}
"#;

/// `when extra and ...` is false while the option is off, so it is not
/// run; `or`, or the option tested second, gives no such guard. Either
/// way the offers are those the conditions give.
#[test]
fn an_option_first_in_an_and_guards_the_condition() {
    let game = crate::engine::test_game("modules.rules", MODULE);
    assert_eq!(game.program.anytime_guards, [Some(0), None]);
    for (extra, offered) in [(false, 4), (true, 6)] {
        let options = [crate::ir::OptionValue::Bool(extra)];
        let state = crate::engine::State::start(&game, &options, 1, vec![], &mut vec![]).unwrap();
        let pending = state.pending().expect("a decision");
        assert_eq!(pending.legal(0).len(), offered, "extra = {extra}");
    }
    // `a and b and c`: the first jump lands on the second `and`.
    let and_and = [
        Op::LoadOption(2),
        Op::Dup,
        Op::JumpIfFalse(5),
        Op::Pop,
        Op::Load(0),
        Op::Dup,
        Op::JumpIfFalse(9),
        Op::Pop,
        Op::Push(1),
        Op::Return,
    ];
    assert_eq!(option_guard(&and_and, 0), Some(2));
    let or = [
        Op::LoadOption(2),
        Op::Dup,
        Op::JumpIfTrue(5),
        Op::Pop,
        Op::Load(0),
        Op::Return,
    ];
    assert_eq!(option_guard(&or, 0), None);
    let second = [
        Op::Load(0),
        Op::Dup,
        Op::JumpIfFalse(5),
        Op::Pop,
        Op::LoadOption(2),
        Op::Return,
    ];
    assert_eq!(option_guard(&second, 0), None);
    // A jump that lands on more work, not on the return.
    let more = [
        Op::LoadOption(2),
        Op::Dup,
        Op::JumpIfFalse(4),
        Op::Pop,
        Op::Not,
        Op::Return,
    ];
    assert_eq!(option_guard(&more, 0), None);
}

#[test]
fn counts_run_in_the_inner_loop() {
    let matcher = Matcher {
        by: crate::ir::MatchBy::TypeOnStack,
        owner: true,
    };
    assert_eq!(single(Op::Count(matcher)), Ins::Count(matcher));
    assert_eq!(single(Op::CountInGame(matcher)), Ins::CountInGame(matcher));
    assert_eq!(single(Op::Return), Ins::Return);
    assert_eq!(
        single(Op::CountOnBoard { board: 2, matcher }),
        Ins::CountOnBoard { board: 2, matcher }
    );
    assert_eq!(Ins::CountOnBoard { board: 2, matcher }.len(), 1);
}

/// Scoring with each kind of `when`, ranked by `keys`.
fn ranked_game(term_b: &str, keys: &str) -> crate::engine::Game {
    let source = format!(
        r#"
game "Ranked"
players 2: A, B
option bonus: bool = false "A bonus term"
zones {{
  pile per player public
}}
pieces {{
  Gem x2 per player in pile
}}
var gems = 0
flow {{
  A chooses n from 1..2
  set gems = n
}}
procedure taken(p: player) -> (n) {{
  {term_b}
  return (count Gem in pile of p)
}}
score per player {{
  gems: count Gem in pile of player
  extra: 1 when bonus
  less: 1 when not bonus
  held: taken(player) when gems > 1
  tie-breaker order: if player == A then 1 else 0
}}
result {{
  {keys}
  else draw
}}
"#
    );
    crate::engine::test_game("ranked.rules", &source)
}

const EVERY_KEY: &str = "most score then most gems then most held then most order then most gems + 1";
const READABLE_KEYS: &str = "most score then most gems then most order";

/// `score` and the name of a term without `when` read the points; an
/// option `when` is read without running. Another key, or a term that
/// moves a piece, makes every key compute again.
#[test]
fn result_keys_that_name_points_may_read_them() {
    use crate::ir::KeyReads;
    let game = ranked_game("", EVERY_KEY);
    let reads: Vec<KeyReads> = game.rank_keys.iter().map(|key| key.reads).collect();
    assert_eq!(
        reads,
        [
            KeyReads::Points,
            KeyReads::Term(0),
            KeyReads::Other,
            KeyReads::Term(4),
            KeyReads::Other
        ]
    );
    let guard = |option, when_on| Some(OptionTest { option, when_on });
    assert_eq!(
        game.program.term_guards,
        [None, guard(0, true), guard(0, false), None, None]
    );
    assert!(!game.program.keys_read_points);
    let readable = ranked_game("", READABLE_KEYS);
    assert!(readable.program.keys_read_points);
    let moving = ranked_game("move first Gem in pile of p to pile of opponent of p", READABLE_KEYS);
    assert!(!moving.program.keys_read_points);
    // Level on points (2 gems, 1 for the option or its absence, 2 held
    // or none), on gems and on held: the tie-breaker `order` decides.
    for (game, order_key) in [(&game, 3), (&readable, 2)] {
        for bonus in [false, true] {
            for n in [1, 2] {
                let mut events = vec![];
                let options = [crate::ir::OptionValue::Bool(bonus)];
                let mut state = super::super::State::start(game, &options, 1, vec![], &mut events).unwrap();
                let choice = super::super::Choice::new(0, n);
                state.apply(game, &[choice], &mut events).unwrap();
                let outcome = state.outcome().expect("the game is over");
                assert_eq!(outcome.winner, Some(0));
                assert!(
                    matches!(outcome.reason, super::super::EndReason::Rank(k) if k == order_key),
                    "{outcome:?}"
                );
                let held = if n > 1 { 2 } else { 0 };
                let scores = [
                    vec![2, i64::from(bonus), i64::from(!bonus), held, 1],
                    vec![2, i64::from(bonus), i64::from(!bonus), held, 0],
                ];
                assert_eq!(state.scores(), scores);
            }
        }
    }
}
