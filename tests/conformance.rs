//! Generic checks over every game in games/: random playouts end, a clone
//! continues identically, a JSON transcript replays, and no view leaks a
//! piece its seat may not know.

mod common;

use common::{games, load, play};
use rpsdsl::engine::Game;
use rpsdsl::engine::PieceFace;
use rpsdsl::engine::{Choice, Event, State};
use rpsdsl::ir::{GameDef, Seat};
use rpsdsl::scenario::Scenario;
use rpsdsl::transcript::{Header, Transcript, Viewer};

#[test]
fn a_thousand_random_playouts_end() {
    for game in games() {
        let def = load(&game);
        for seed in 0..1000 {
            let record = play(&def, seed, &Scenario::default())
                .unwrap_or_else(|f| panic!("{game} seed {seed}: {}", f.diagnostic.message));
            assert!(record.outcome.is_some(), "{game} seed {seed} did not end");
        }
    }
}

/// Replays a record's decisions straight into the engine, cloning at
/// `split` and checking the clone produces the same events.
#[test]
fn a_clone_mid_game_continues_identically() {
    for game in games() {
        let def = load(&game);
        for seed in 0..20 {
            let (choices, all_events) = play_steps(&def, seed);
            let split = choices.len() / 2;
            let mut events = vec![];
            let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
            for step in &choices[..split] {
                state.apply(&def, step, &mut events).unwrap();
            }
            let mut twin = state.clone();
            let (mut a, mut b) = (vec![], vec![]);
            for step in &choices[split..] {
                state.apply(&def, step, &mut a).unwrap();
                twin.apply(&def, step, &mut b).unwrap();
            }
            assert_eq!(a, b, "{game} seed {seed}");
            assert!(state.is_over() && twin.is_over());
            assert_eq!(state.outcome(), twin.outcome());
            events.extend(a);
            assert_eq!(
                events, all_events,
                "{game} seed {seed}: the decisions reproduce the game"
            );
        }
    }
}

/// Plays a game with random agents straight on the engine, returning every
/// step's choices (as submitted together) and all events.
fn play_steps(def: &Game, seed: u64) -> (Vec<Vec<Choice>>, Vec<Event>) {
    let mut agents = rpsdsl::agents::from_spec("random", def.players(), seed).unwrap();
    let mut events = vec![];
    let mut state = State::start(def, &def.default_options(), seed, vec![], &mut events).unwrap();
    let mut steps = vec![];
    while let Some(pending) = state.pending() {
        let decision = pending.decision();
        let step: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                rpsdsl::session::agent_choice(def, &state, decision, seat, legal, agents[seat as usize].as_mut())
            })
            .collect();
        state.apply(def, &step, &mut events).unwrap();
        steps.push(step);
    }
    (steps, events)
}

#[test]
fn a_json_transcript_replays() {
    for game in games() {
        let def = load(&game);
        for seed in 0..10 {
            let record = play(&def, seed, &Scenario::default()).unwrap();
            let transcript = |record| {
                let header = Header {
                    about: None,
                    rules: &game,
                    seed,
                    options: vec![],
                    agents: vec!["random".into(); def.players()],
                };
                Transcript::new(&def, header, record, Viewer::All)
            };
            let written = transcript(&record);
            let json = serde_json::to_string(&written).unwrap();
            let read: Transcript = serde_json::from_str(&json).unwrap();
            let script = read.replay.clone().unwrap();
            let scenario = script.to_scenario(seed);
            // A different seed: the transcript alone must fix every chance outcome.
            let replayed = play(&def, seed + 1000, &scenario).unwrap();
            let again = transcript(&replayed);
            assert_eq!(
                rpsdsl::transcript::first_divergence(&read, &again),
                None,
                "{game} seed {seed}"
            );
        }
    }
}

/// Tracks, from the events alone, which pieces each seat has been shown.
struct Knowledge {
    known: Vec<u32>,
}

impl Knowledge {
    fn observe(&mut self, def: &GameDef, event: &Event) {
        match event {
            Event::Move { piece, to, .. } => self.known[*piece as usize] |= def.piece_viewers(*piece, *to),
            Event::Reveal { piece, to, .. } => self.known[*piece as usize] |= to,
            Event::Shuffle { zone, order, .. } => {
                for p in order {
                    self.known[*p as usize] &= def.piece_viewers(*p, *zone);
                }
            }
            _ => {}
        }
    }
}

#[test]
fn views_never_show_a_piece_hidden_from_the_seat() {
    for game in games() {
        let def = load(&game);
        for seed in 0..50 {
            let (choices, _) = play_steps(&def, seed);
            let mut events = vec![];
            let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
            // Every piece starts in its home zone, seen by whoever sees that zone;
            // from there on, only the events tell who learnt what.
            let mut knowledge = Knowledge {
                known: (0..def.pieces.len() as u16)
                    .map(|p| def.piece_viewers(p, def.pieces[p as usize].home))
                    .collect(),
            };
            for event in &events {
                knowledge.observe(&def, event);
            }
            check_views(&def, &state, &knowledge, &game);
            for step in &choices {
                let mut new_events = vec![];
                state.apply(&def, step, &mut new_events).unwrap();
                for event in &new_events {
                    knowledge.observe(&def, event);
                }
                check_views(&def, &state, &knowledge, &game);
            }
        }
    }
}

fn check_views(def: &GameDef, state: &State, knowledge: &Knowledge, game: &str) {
    for seat in 0..def.players() as Seat {
        let view = state.view(def, seat);
        for zone in 0..def.zones.len() as u16 {
            for (i, piece) in state.zone(zone).enumerate() {
                let face = view.zones[zone as usize][i];
                let shown = face == Some(PieceFace::of(def, piece));
                let allowed = knowledge.known[piece as usize] & (1 << seat) != 0;
                assert!(
                    !shown || allowed,
                    "{game}: {} sees {} in {} without having been shown it",
                    def.seat_name(seat),
                    def.piece_label(piece),
                    def.zone_name(zone)
                );
                // Without knowing it, a seat sees at most its back, and only where it looks.
                assert!(
                    face.is_none() || shown || def.zone_visible_to(zone, seat),
                    "{game}: {} sees the back of {} in {}, a zone it cannot see",
                    def.seat_name(seat),
                    def.piece_label(piece),
                    def.zone_name(zone)
                );
            }
        }
    }
}

/// Piece counts and values from options: the pieces in play follow the
/// options in force; the rest stay in the box, out of every choice.
#[test]
fn pieces_counted_from_options_follow_the_options_in_force() {
    let text = "game \"Counts\"\nplayers 2: Ann, Ben\n\
                option n: int in 1..9 = 3\nconstant decks = 2\n\
                pieces {\n  Card with value 1..n per player in hand\n  Chip x (decks * n) in pot\n}\n\
                zones {\n  hand per player public\n  pot public\n}\n\
                flow {\n  Ann chooses pick from Card in hand of Ann\n  \
                if value of pick == n and count Chip in pot == 2 * n { win Ann }\n  win Ben\n}\n";
    let def = match rpsdsl::check::check_source("counts.rules", text, &rpsdsl::check::FsLoader) {
        Ok(checked) => checked.def,
        Err(failed) => panic!(
            "{}",
            rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
        ),
    };
    for n in [1i64, 3, 9] {
        let options = vec![rpsdsl::ir::OptionValue::Int(n)];
        let top = format!("Ann: Card {n} of Ann");
        let scenario = common::scenario(&[], &[top.as_str()]);
        let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
        let record = rpsdsl::session::play(&def, &options, 1, &scenario, &mut agents)
            .unwrap_or_else(|f| panic!("n = {n}: {}", f.diagnostic.message));
        let text = common::lines(&def, &record);
        assert_eq!(
            text[0],
            format!("Ann chooses pick: Card {n} of Ann  [of {n}]"),
            "{text:#?}"
        );
        assert_eq!(record.outcome.unwrap().winner, Some(0), "n = {n}: {text:#?}");
    }
    // A card beyond the option in force is not in play.
    let scenario = common::scenario(&[], &["Ann: Card 3 of Ann"]);
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    let failure =
        rpsdsl::session::play(&def, &[rpsdsl::ir::OptionValue::Int(2)], 1, &scenario, &mut agents).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "illegal-action");
}

/// Hooks count by kind and set of kinds as well as by piece type and group;
/// a name that is none of these is refused with the names that would do.
#[test]
fn hooks_count_by_kind_as_well_as_by_type() {
    let game = |hook: &str| {
        format!(
            "game \"Hook kinds\"\nplayers 2: Ann, Ben\nkinds Hand = rock | paper | scissors\n\
             pieces {{\n  Card of each Hand x2 in deck\n  Wild x1 in deck\n}}\n\
             group Any = Card | Wild\nzones {{\n  deck public\n  hand per player public\n}}\n\
             hook counted() -> int rhai {{\n  {hook}\n}}\n\
             flow {{\n  move first Card in deck to hand of Ben\n  if counted() == 1 {{ win Ann }}\n  win Ben\n}}\n"
        )
    };
    let play = |hook: &str| {
        let def = match rpsdsl::check::check_source("kinds.rules", &game(hook), &rpsdsl::check::FsLoader) {
            Ok(checked) => checked.def,
            Err(failed) => panic!(
                "{}",
                rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
            ),
        };
        let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
        rpsdsl::session::play(&def, &def.default_options(), 1, &Default::default(), &mut agents)
    };
    // Ben holds the first Card, a scissors; the deck keeps 2 rocks, 2 papers,
    // 1 scissors and the Wild.
    for hook in [
        "game.count_in(\"hand\", 2, \"scissors\")",
        "game.count_in(\"hand\", \"Hand\")",
        "game.count_in(\"deck\", \"Card\", \"scissors\")",
        "game.count_in(\"deck\", \"rock\") - game.count_in(\"deck\", \"paper\") + 1",
        "game.total(\"Hand\") - game.total(\"Any\") + 2",
        "game.total(\"Card\", \"paper\") - 1",
        "game.count_in(\"deck\", \"Wild\")",
    ] {
        let record = play(hook).unwrap_or_else(|f| panic!("{hook}: {}", f.diagnostic.message));
        assert_eq!(record.outcome.unwrap().winner, Some(0), "{hook}");
    }
    let failure = play("game.count_in(\"deck\", \"rocks\")").unwrap_err();
    assert_eq!(
        failure.diagnostic.message,
        "hook `counted` failed: no piece type, group, kind or set of kinds named \"rocks\"; did you mean \"rock\"? \
         there are piece types [\"Card\", \"Wild\"], groups [\"Any\"], kinds [\"paper\", \"rock\", \"scissors\"], \
         sets of kinds [\"Hand\"]"
    );
}

/// `count F` alone counts every matching piece in the game, wherever it
/// lies: by type, group, kind and owner, and never a piece an option left
/// out.
#[test]
fn a_count_without_a_zone_counts_the_whole_game() {
    let game = |condition: &str| {
        format!(
            "game \"Whole game\"\nplayers 2: Ann, Ben\nkinds Hand = rock | paper | scissors\n\
             option extra: bool = false\n\
             pieces {{\n  Card of each Hand x2 in deck\n  Wild x1 in deck when extra\n  Chip x2 per player in supply\n}}\n\
             group Any = Card | Wild\nzones {{\n  deck public\n  hand per player public\n  supply per player public\n}}\n\
             flow {{\n  move first Card in deck to hand of Ben\n  move first Chip in supply of Ann to hand of Ben\n  \
             if {condition} {{ win Ann }}\n  win Ben\n}}\n"
        )
    };
    let winner = |condition: &str, extra: bool| {
        let def = match rpsdsl::check::check_source("whole.rules", &game(condition), &rpsdsl::check::FsLoader) {
            Ok(checked) => checked.def,
            Err(failed) => panic!(
                "{}",
                rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
            ),
        };
        let options = vec![rpsdsl::ir::OptionValue::Bool(extra)];
        let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
        let record = rpsdsl::session::play(&def, &options, 1, &Default::default(), &mut agents)
            .unwrap_or_else(|f| panic!("{condition}: {}", f.diagnostic.message));
        record.outcome.unwrap().winner
    };
    for (condition, extra) in [
        ("count Card == 6", false),
        ("count Card == 6", true),
        ("count Wild == 0", false),
        ("count Wild == 1", true),
        ("count Any == 6", false),
        ("count Any == 7", true),
        ("count rock == 2", false),
        ("count Chip == 4", false),
        ("count Chip of Ann == 2", false),
        // Ben's hand holds a Card and one of Ann's Chips: some, not all.
        (
            "count Chip of Ann in hand of Ben == 1 and count Card in hand of Ben < count Card",
            false,
        ),
    ] {
        assert_eq!(winner(condition, extra), Some(0), "{condition} (extra = {extra})");
    }
    // The same counts, wrong, lose: the test can fail.
    for (condition, extra) in [
        ("count Wild == 1", false),
        ("count Card == 1", false),
        ("count Any == 6", true),
    ] {
        assert_eq!(winner(condition, extra), Some(1), "{condition} (extra = {extra})");
    }
}

/// A hook counts the pieces as the state deals them: in a world sampled for
/// a seat (the faces it cannot see dealt afresh), a hook's count agrees with
/// the language's own count, and never reads what the real game hides.
#[test]
fn a_hook_in_a_sampled_world_counts_that_world() {
    let text = "game \"Hidden crown\"\nplayers 2: Ann, Ben\n\
                zones {\n  bag hidden\n  hand per player owner\n}\n\
                pieces {\n  Crown x1 in bag\n  Stone x3 in bag\n}\n\
                hook crowns_of(p) -> int rhai {\n  game.count_in(\"hand\", p, \"Crown\")\n}\n\
                flow {\n  shuffle bag\n  move top of bag to hand of Ann\n  Ben chooses n from 1..2\n  \
                if crowns_of(Ann) == count Crown in hand of Ann { win Ann }\n  win Ben\n}\n";
    let def = match rpsdsl::check::check_source("hidden.rules", text, &rpsdsl::check::FsLoader) {
        Ok(checked) => checked.def,
        Err(failed) => panic!(
            "{}",
            rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
        ),
    };
    let mut events = vec![];
    for seed in 0..8 {
        let state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
        for deal in 0..16 {
            // Ben cannot see Ann's hand: his worlds deal it afresh.
            let mut world = state.redeal_hidden(&def, 1, deal).unwrap();
            world.apply(&def, &[Choice::new(1, 1)], &mut events).unwrap();
            let ann_wins = world.outcome().unwrap().winner == Some(0);
            assert!(ann_wins, "seed {seed}, deal {deal}: the hook and `count` disagree");
        }
    }
}

/// `count X` alone leaves out the pieces moved into the box during play, as
/// well as those the options leave there, and a world sampled for a seat
/// (hidden faces dealt afresh) counts the same as the real game.
#[test]
fn a_count_without_a_zone_leaves_out_the_box_in_real_and_sampled_worlds() {
    let game = |condition: &str| {
        format!(
            "game \"Boxed\"\nplayers 2: Ann, Ben\nkinds Hand = rock | paper | scissors\n\
             pieces {{\n  Card of each Hand x2 in deck\n  Chip x2 per player in supply\n}}\n\
             group Twice = Card | Card\n\
             zones {{\n  deck hidden\n  hand per player owner\n  supply per player public\n}}\n\
             flow {{\n  shuffle deck\n  move top of deck to box\n  move first Chip in supply of Ann to box\n  \
             move top of deck to hand of Ann\n  Ben chooses n from 1..2\n  \
             if {condition} {{ win Ann }}\n  win Ben\n}}\n"
        )
    };
    let ann_wins_every_world = |condition: &str| {
        let def = match rpsdsl::check::check_source("boxed.rules", &game(condition), &rpsdsl::check::FsLoader) {
            Ok(checked) => checked.def,
            Err(failed) => panic!(
                "{}",
                rpsdsl::diagnostic::render(&failed.diagnostics, &failed.sources, false)
            ),
        };
        let mut events = vec![];
        let mut wins = vec![];
        for seed in 0..6 {
            let state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
            let mut real = state.clone();
            real.apply(&def, &[Choice::new(1, 1)], &mut events).unwrap();
            wins.push(real.outcome().unwrap().winner == Some(0));
            for deal in 0..8 {
                // Ben sees neither the deck nor Ann's hand: both are dealt afresh.
                let mut world = state.redeal_hidden(&def, 1, deal).unwrap();
                world.apply(&def, &[Choice::new(1, 1)], &mut events).unwrap();
                wins.push(world.outcome().unwrap().winner == Some(0));
            }
        }
        wins
    };
    for condition in [
        "count Card == 5",
        "count Chip == 3",
        "count Chip of Ann == 1 and count Chip of Ben == 2",
        "count rock + count paper + count scissors == 5",
        "count Card in hand of Ann + count Card in deck == count Card",
        // A group that names a type twice counts each piece once.
        "count Twice == 5",
    ] {
        assert!(ann_wins_every_world(condition).iter().all(|&w| w), "{condition}");
    }
    // The counts of the whole set, wrong, lose: the test can fail.
    for condition in ["count Card == 6", "count Chip of Ann == 2", "count Chip == 4"] {
        assert!(ann_wins_every_world(condition).iter().all(|&w| !w), "{condition}");
    }
}
