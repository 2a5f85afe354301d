//! RPS3: the rulebook's examples, the three challenge outcomes, illegal
//! moves, elimination, the turn limit, redacted transcripts, and a property:
//! no seat ever sees the kind of an enemy pawn that was not revealed to it.

mod common;

use common::{lines, load, scenario};
use proptest::prelude::*;
use rpsdsl::agents::{Agent, RandomAgent};
use rpsdsl::engine::{Choice, EndReason, EngineError, Event, IllegalAction, Observation, State};
use rpsdsl::ir::{OptionValue, PieceId, Seat, ZoneId};
use rpsdsl::scenario::Scenario;
use rpsdsl::session::{self, Record};
use rpsdsl::transcript::{Header, Transcript, Viewer};

const RULES: &str = "games/rps3.rules";
const LIGHT: Seat = 0;
const DARK: Seat = 1;

fn kind_name(letter: char) -> &'static str {
    match letter {
        'R' => "rock",
        'P' => "paper",
        _ => "scissors",
    }
}

/// The deployment, space by space (outer 1..9 for Light, 10..18 for Dark),
/// then a duel won at once by `first`.
fn opening(light: &str, dark: &str, first: Seat) -> Vec<String> {
    let mut decisions = vec![];
    for (l, d) in light.chars().zip(dark.chars()) {
        decisions.push(format!("Light: Pawn {} of Light", kind_name(l)));
        decisions.push(format!("Dark: Pawn {} of Dark", kind_name(d)));
    }
    let (l, d) = if first == LIGHT {
        ("rock", "scissors")
    } else {
        ("scissors", "rock")
    };
    decisions.push(format!("Light: {l}"));
    decisions.push(format!("Dark: {d}"));
    decisions
}

fn play_script(def: &rpsdsl::engine::Game, options: &[OptionValue], decisions: &[String]) -> Record {
    let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
    let mut agents = rpsdsl::agents::from_spec("random", 2, 1).unwrap();
    session::play(def, options, 1, &scenario(&[], &decisions), &mut agents)
        .unwrap_or_else(|f| panic!("{}: {}", f.diagnostic.message, f.diagnostic.help.unwrap_or_default()))
}

/// Drives the engine directly: the state, and the events so far.
struct Game {
    def: rpsdsl::engine::Game,
    state: State,
    events: Vec<Event>,
}

impl Game {
    /// Both players deploy (outer 1..9 for Light, 10..18 for Dark); the game
    /// then waits for the duel, so a test may set a position up before the
    /// first turn is offered.
    fn new(light: &str, dark: &str) -> Game {
        Game::with_options(light, dark, &[])
    }

    fn with_options(light: &str, dark: &str, set: &[(&str, i64)]) -> Game {
        let def = load(RULES);
        let mut options = def.default_options();
        for (name, value) in set {
            options[def.option_index(name).unwrap()] = OptionValue::Int(*value);
        }
        let mut events = vec![];
        let state = State::start(&def, &options, 1, vec![], &mut events).unwrap();
        let mut game = Game { def, state, events };
        for (l, d) in light.chars().zip(dark.chars()) {
            game.both(
                &format!("Pawn {} of Light", kind_name(l)),
                &format!("Pawn {} of Dark", kind_name(d)),
            );
        }
        game
    }

    /// The duel: `first` wins it at once and moves first.
    fn first(&mut self, first: Seat) {
        if first == LIGHT {
            self.both("rock", "scissors");
        } else {
            self.both("scissors", "rock");
        }
    }

    fn both(&mut self, light: &str, dark: &str) {
        let choices = [
            Choice {
                seat: LIGHT,
                value: self
                    .value(LIGHT, light)
                    .unwrap_or_else(|| panic!("Light cannot choose {light}")),
                reaction_ms: 0,
            },
            Choice {
                seat: DARK,
                value: self
                    .value(DARK, dark)
                    .unwrap_or_else(|| panic!("Dark cannot choose {dark}")),
                reaction_ms: 0,
            },
        ];
        self.state.apply(&self.def, &choices, &mut self.events).unwrap();
    }

    /// The legal value `seat` may choose that reads `label`.
    fn value(&self, seat: Seat, label: &str) -> Option<i64> {
        let pending = self.state.pending()?;
        pending
            .legal(seat)
            .iter()
            .copied()
            .find(|&v| self.def.choice_label(pending.decision(), v) == label)
    }

    fn act(&mut self, seat: Seat, label: &str) {
        let value = self.value(seat, label).unwrap_or_else(|| {
            let pending = self.state.pending().expect("the game is over");
            let legal: Vec<String> = pending
                .legal(seat)
                .iter()
                .map(|&v| self.def.choice_label(pending.decision(), v))
                .collect();
            panic!("{label} is not legal; the choices are {legal:?}")
        });
        self.state
            .apply(
                &self.def,
                &[Choice {
                    seat,
                    value,
                    reaction_ms: 0,
                }],
                &mut self.events,
            )
            .unwrap();
    }

    fn space(&self, name: &str) -> u16 {
        self.def.boards[0].space_named(name).unwrap()
    }

    fn family(&self, name: &str) -> ZoneId {
        self.def.families.iter().find(|f| f.name == name).unwrap().first
    }

    fn spot(&self, space: &str) -> ZoneId {
        self.family("spot") + self.space(space)
    }

    fn taken(&self) -> ZoneId {
        self.family("taken")
    }

    fn taken_labels(&self) -> Vec<String> {
        self.state.zone(self.taken()).map(|p| self.def.piece_label(p)).collect()
    }

    /// "Pawn rock of Light" standing on `space`, if any.
    fn on(&self, space: &str) -> Option<String> {
        self.state
            .zone(self.spot(space))
            .next()
            .map(|p| self.def.piece_label(p))
    }

    /// Pawns of `owner` of `kind` still on the board.
    fn pawns(&self, owner: Seat, kind: &str) -> Vec<PieceId> {
        let label = format!("Pawn {kind} of {}", self.def.seat_name(owner));
        (0..self.def.boards[0].spaces())
            .flat_map(|s| self.state.zone(self.family("spot") + s).collect::<Vec<_>>())
            .filter(|&p| self.def.piece_label(p) == label)
            .collect()
    }

    /// Sets a position up by hand, as a designer studying one would.
    fn put(&mut self, piece: PieceId, zone: ZoneId) {
        self.state.relocate(&self.def, piece, zone, &mut self.events);
    }

    fn text(&self) -> Vec<String> {
        rpsdsl::transcript::render_events(&self.def, &self.events, Viewer::All)
    }
}

const LAYOUT: &str = "RRRPPPSSS";

/// A layout of three of each kind whose outer 9 (for Light) holds `last`.
fn ending_with(last: char) -> String {
    let mut rest: String = LAYOUT.into();
    rest.remove(rest.find(last).unwrap());
    rest.push(last);
    rest
}

/// A layout of three of each kind whose first space holds `first`.
fn starting_with(first: char) -> String {
    let mut rest: String = LAYOUT.into();
    rest.remove(rest.find(first).unwrap());
    rest.insert(0, first);
    rest
}

// ---------------------------------------------------------------- the rulebook's examples

#[test]
fn example_1_rock_into_the_centre_after_every_light_paper_is_taken() {
    // "Ex.1: Dark moves a Rock pawn into the center ring after taking all of
    //  Light's Paper pawns. Without a Paper pawn it is impossible for Light to
    //  take Dark's Rock. Dark wins."
    let mut g = Game::new(LAYOUT, LAYOUT);
    let taken = g.taken();
    for paper in g.pawns(LIGHT, "paper") {
        g.put(paper, taken);
    }
    let rock = g.pawns(DARK, "rock")[0];
    let inner = g.spot("inner 5");
    g.put(rock, inner);
    g.first(DARK);
    assert!(!g.state.is_over());
    g.act(DARK, "move Pawn rock of Dark from inner 5 to centre");
    let outcome = g.state.outcome().expect("Dark wins at once");
    assert_eq!(outcome.winner, Some(DARK));
    assert!(
        matches!(outcome.reason, EndReason::Trigger(0, _)),
        "{:?}",
        outcome.reason
    );
    let text = g.text();
    assert_eq!(text[text.len() - 2], "trigger centre_cannot_be_taken fires");
    assert_eq!(
        text[text.len() - 1],
        "result: Dark wins (holds the center ring with a pawn that cannot be taken)"
    );
}

#[test]
fn a_pawn_in_the_centre_that_can_still_be_taken_does_not_win() {
    let mut g = Game::new(LAYOUT, LAYOUT);
    let rock = g.pawns(DARK, "rock")[0];
    let inner = g.spot("inner 5");
    g.put(rock, inner);
    g.first(DARK);
    g.act(DARK, "move Pawn rock of Dark from inner 5 to centre");
    assert!(!g.state.is_over(), "Light still has Paper pawns");
    assert_eq!(g.state.pending().unwrap().who(), [LIGHT]);
}

#[test]
fn example_2_a_capture_elsewhere_wins_for_the_centre() {
    // "Ex. 2: Light has a Scissors in the center ring and challenges Dark
    //  somewhere else on the board taking Dark's last Rock. Light's Scissors
    //  is now unable to be taken, ending play. Light wins."
    // Light's outer 9 holds Paper; Dark's outer 10 holds a Rock.
    let mut g = Game::new(&ending_with('P'), &starting_with('R'));
    let (centre, taken) = (g.spot("centre"), g.taken());
    let scissors = g.pawns(LIGHT, "scissors")[0];
    g.put(scissors, centre);
    // Dark's other Rocks are gone already; the last one stands on outer 10.
    let last_rock = g.state.zone(g.spot("outer 10")).next().unwrap();
    for rock in g.pawns(DARK, "rock") {
        if rock != last_rock {
            g.put(rock, taken);
        }
    }
    assert_eq!(g.on("outer 9").as_deref(), Some("Pawn paper of Light"));
    g.first(LIGHT);
    assert!(!g.state.is_over(), "Dark still has a Rock");
    g.act(LIGHT, "challenge from outer 9 to outer 10");
    let outcome = g.state.outcome().expect("Light wins at once");
    assert_eq!(outcome.winner, Some(LIGHT));
    assert!(
        matches!(outcome.reason, EndReason::Trigger(0, _)),
        "{:?}",
        outcome.reason
    );
    assert_eq!(g.on("outer 10").as_deref(), Some("Pawn paper of Light"));
    assert_eq!(g.on("centre").as_deref(), Some("Pawn scissors of Light"));
}

// ---------------------------------------------------------------- challenges

/// Light opens by challenging Dark's outer 10 from outer 9.
fn challenge(light_9: char, dark_10: char) -> Game {
    let mut g = Game::new(&ending_with(light_9), &starting_with(dark_10));
    g.first(LIGHT);
    g.act(LIGHT, "challenge from outer 9 to outer 10");
    g
}

#[test]
fn the_attacker_wins_takes_and_moves_in() {
    // "If the attacker's pawn beats the defender's pawn, the attacker takes the
    //  defender's pawn and moves into the space that had been occupied by the defender."
    let g = challenge('R', 'S');
    assert_eq!(g.on("outer 9"), None);
    assert_eq!(g.on("outer 10").as_deref(), Some("Pawn rock of Light"));
    assert_eq!(g.taken_labels(), ["Pawn scissors of Dark"]);
    let text = g.text();
    let at = text
        .iter()
        .position(|l| l == "Light chooses: challenge from outer 9 to outer 10  [of 11]");
    let at = at.unwrap_or_else(|| panic!("{text:#?}"));
    assert_eq!(
        text[at + 1..at + 6],
        [
            "  reveal Pawn rock of Light to everyone",
            "  reveal Pawn scissors of Dark to everyone",
            "  Pawn scissors of Dark: spot of outer 10 -> taken",
            "  Pawn rock of Light: spot of outer 9 -> spot of outer 10",
            "  hide Pawn rock of Light",
        ]
    );
    assert_eq!(g.state.pending().unwrap().who(), [DARK]);
}

#[test]
fn the_defender_wins_takes_and_stays() {
    // "If the defender beats the attacker, the defender takes the attacker's
    //  pawn and remains in place."
    let g = challenge('P', 'S');
    assert_eq!(g.on("outer 9"), None);
    assert_eq!(g.on("outer 10").as_deref(), Some("Pawn scissors of Dark"));
    assert_eq!(g.taken_labels(), ["Pawn paper of Light"]);
    assert!(g.text().contains(&"  hide Pawn scissors of Dark".to_string()));
}

#[test]
fn a_tie_leaves_both_in_place_and_ends_the_turn() {
    // "If both pawns are of the same type they remain in place and the
    //  attacker's turn ends."
    let g = challenge('S', 'S');
    assert_eq!(g.on("outer 9").as_deref(), Some("Pawn scissors of Light"));
    assert_eq!(g.on("outer 10").as_deref(), Some("Pawn scissors of Dark"));
    assert!(g.taken_labels().is_empty());
    assert_eq!(g.state.pending().unwrap().who(), [DARK], "Dark's turn now");
    // "After the challenge is over, pawns still in play are turned around so
    //  that their type becomes hidden again" -- but Dark remembers.
    let text = g.text();
    assert!(text.contains(&"  hide Pawn scissors of Light".to_string()));
    let view = g.state.view(&g.def, DARK);
    let face = view.zones[g.spot("outer 9") as usize][0].unwrap();
    assert_eq!(
        face.kind.map(|k| g.def.kinds[k as usize].name.as_str()),
        Some("scissors")
    );
    let unrevealed = view.zones[g.spot("outer 8") as usize][0].unwrap();
    assert_eq!(unrevealed.kind, None, "outer 8 was never revealed to Dark");
    assert_eq!(unrevealed.owner, Some(LIGHT));
}

// ---------------------------------------------------------------- illegal moves

#[test]
fn illegal_moves_are_rejected_with_the_legal_choices() {
    let def = load(RULES);
    for (bad, why) in [
        ("move Pawn rock of Light from outer 3 to inner 1", "diagonal"),
        (
            "move Pawn rock of Light from outer 1 to outer 2",
            "occupied by Light's own pawn",
        ),
        (
            "move Pawn scissors of Light from outer 9 to outer 10",
            "occupied by Dark's pawn",
        ),
        ("move Pawn rock of Light from outer 1 to outer 5", "not adjacent"),
        ("challenge from outer 1 to outer 2", "not an enemy"),
    ] {
        let mut decisions = opening("RRRPPPSSS", "RRRPPPSSS", LIGHT);
        decisions.push(format!("Light: {bad}"));
        let decisions: Vec<&str> = decisions.iter().map(String::as_str).collect();
        let failure = common::play(&def, 1, &scenario(&[], &decisions)).unwrap_err();
        assert_eq!(failure.diagnostic.code.as_str(), "illegal-action", "{why}");
        assert_eq!(
            failure.diagnostic.message,
            format!("Light cannot choose `{bad}` here"),
            "{why}"
        );
        let help = failure.diagnostic.help.unwrap();
        assert!(help.starts_with("the legal choices are "), "{why}: {help}");
        assert!(
            help.contains("move Pawn rock of Light from outer 3 to inner 2"),
            "{why}: {help}"
        );
        assert!(help.contains("challenge from outer 9 to outer 10"), "{why}: {help}");
        // Dark's pawns are named by their backs only.
        assert!(!help.contains("of Dark"), "{why}: {help}");
    }
}

#[test]
fn an_illegal_move_leaves_the_state_unchanged() {
    let mut g = Game::new(LAYOUT, LAYOUT);
    g.first(LIGHT);
    let decision = g.state.pending().unwrap().decision();
    let rock = g.state.zone(g.spot("outer 1")).next().unwrap();
    let move_ = |g: &Game, there: &str| {
        let params = [rock as i64, g.space("outer 1") as i64, g.space(there) as i64];
        g.def.action_value(decision, 0, &params).unwrap()
    };
    let before = format!("{:?}", g.state);
    for there in ["inner 2", "outer 2", "outer 5"] {
        let value = move_(&g, there);
        let error = g
            .state
            .clone()
            .apply(
                &g.def,
                &[Choice {
                    seat: LIGHT,
                    value,
                    reaction_ms: 0,
                }],
                &mut vec![],
            )
            .unwrap_err();
        let EngineError::Illegal(IllegalAction::NotOffered { seat, choice, legal }) = error else {
            panic!("{error}")
        };
        assert_eq!(seat, "Light");
        assert_eq!(choice, format!("move Pawn rock of Light from outer 1 to {there}"));
        assert!(
            legal.contains("move Pawn rock of Light from outer 1 to inner 1"),
            "{legal}"
        );
        let mut events = vec![];
        assert!(
            g.state
                .apply(
                    &g.def,
                    &[Choice {
                        seat: LIGHT,
                        value,
                        reaction_ms: 0
                    }],
                    &mut events
                )
                .is_err()
        );
        assert!(events.is_empty());
        assert_eq!(format!("{:?}", g.state), before, "the state is unchanged");
    }
    // Dark may not move in Light's turn.
    let value = move_(&g, "inner 1");
    let error = g.state.apply(
        &g.def,
        &[Choice {
            seat: DARK,
            value,
            reaction_ms: 0,
        }],
        &mut vec![],
    );
    assert!(matches!(
        error,
        Err(EngineError::Illegal(IllegalAction::NotYourTurn { .. }))
    ));
    assert_eq!(format!("{:?}", g.state), before);
    g.act(LIGHT, "move Pawn rock of Light from outer 1 to inner 1");
}

// ---------------------------------------------------------------- the end

/// Dark keeps one Scissors, on outer 10, where Light's outer 9 Rock can take it.
fn last_dark_pawn(set: &[(&str, i64)]) -> Game {
    let mut g = Game::with_options(&ending_with('R'), &starting_with('S'), set);
    let taken = g.taken();
    let last = g.state.zone(g.spot("outer 10")).next().unwrap();
    for kind in ["rock", "paper", "scissors"] {
        for pawn in g.pawns(DARK, kind) {
            if pawn != last {
                g.put(pawn, taken);
            }
        }
    }
    g.first(LIGHT);
    g
}

#[test]
fn a_player_without_pawns_loses() {
    let mut g = last_dark_pawn(&[]);
    g.act(LIGHT, "challenge from outer 9 to outer 10");
    let outcome = g.state.outcome().expect("Dark has no pawns left");
    assert_eq!(outcome.winner, Some(LIGHT));
    assert!(
        matches!(outcome.reason, EndReason::Trigger(1, _)),
        "{:?}",
        outcome.reason
    );
    assert_eq!(
        g.text().last().unwrap(),
        "result: Light wins (the other player has no pawns left)"
    );
}

#[test]
fn the_last_turn_before_the_limit_can_still_win() {
    // After the last turn the flow declares a draw, but the triggers look at
    // that turn's consequences first.
    let mut g = last_dark_pawn(&[("max_turns", 1)]);
    g.act(LIGHT, "challenge from outer 9 to outer 10");
    let outcome = g.state.outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(LIGHT));
    assert!(
        matches!(outcome.reason, EndReason::Trigger(1, _)),
        "{:?}",
        outcome.reason
    );
}

#[test]
fn the_turn_limit_is_a_draw_and_says_why() {
    let def = load(RULES);
    let mut options = def.default_options();
    options[def.option_index("max_turns").unwrap()] = OptionValue::Int(4);
    let mut decisions = opening(LAYOUT, LAYOUT, LIGHT);
    decisions.extend([
        "Light: move Pawn rock of Light from outer 1 to inner 1".to_string(),
        "Dark: move Pawn rock of Dark from outer 10 to inner 5".to_string(),
        "Light: move Pawn rock of Light from inner 1 to centre".to_string(),
        "Dark: move Pawn rock of Dark from inner 5 to inner 4".to_string(),
    ]);
    let record = play_script(&def, &options, &decisions);
    assert_eq!(
        record.decisions.len(),
        decisions.len(),
        "no decision after the fourth turn"
    );
    let outcome = record.outcome.clone().unwrap();
    assert_eq!(outcome.winner, None);
    assert!(matches!(outcome.reason, EndReason::Draw(_, Some(_))));
    assert_eq!(
        lines(&def, &record).last().unwrap(),
        "result: draw (no winner within max_turns turns)"
    );
}

// ---------------------------------------------------------------- transcripts

fn transcript(seed: u64, viewer: Viewer) -> String {
    let def = load(RULES);
    let record = common::play(&def, seed, &Scenario::default()).unwrap();
    let header = Header {
        about: None,
        rules: RULES,
        seed,
        options: vec![],
        agents: vec!["random".into(); 2],
    };
    Transcript::new(&def, header, &record, viewer).to_text()
}

#[test]
fn seat_views_hide_enemy_pawns_until_revealed() {
    let all = transcript(7, Viewer::All);
    assert!(all.contains("Dark chooses pawn: Pawn "), "{all}");
    for seat in [LIGHT, DARK] {
        let text = transcript(7, Viewer::Seat(seat));
        let (me, enemy) = if seat == LIGHT {
            ("Light", "Dark")
        } else {
            ("Dark", "Light")
        };
        assert!(text.contains(&format!("{enemy} chooses pawn: (secret)\n")), "{text}");
        assert!(
            text.contains(&format!(
                "  Pawn of {enemy} (hidden): reserve of {enemy} -> spot of outer "
            )),
            "{text}"
        );
        assert!(text.contains(&format!("{me} chooses pawn: Pawn ")), "{text}");
        // Before the first challenge, no enemy kind is ever named.
        let first_reveal = text.find("  reveal ").unwrap_or(text.len());
        for kind in ["rock", "paper", "scissors"] {
            assert!(
                !text[..first_reveal].contains(&format!("Pawn {kind} of {enemy}")),
                "{enemy}'s {kind} named to {me} before any reveal"
            );
        }
        common::snap::assert_snapshot!(format!("transcript__rps3__view_{}", seat + 1), text);
    }
}

#[test]
fn random_games_end_quickly() {
    let def = load(RULES);
    let limit = 200 + 9 * 2;
    for seed in 0..30 {
        let record = common::play(&def, seed, &Scenario::default()).unwrap();
        assert!(record.outcome.is_some());
        // Deployment (9 rounds of 2) + duels + at most max_turns turns.
        let turns = record
            .decisions
            .iter()
            .filter(|d| d.contains(": move ") || d.contains(": challenge "))
            .count();
        assert!(turns <= 200, "seed {seed}: {turns} turns");
        assert!(record.decisions.len() <= limit + 60, "seed {seed}");
    }
}

// ---------------------------------------------------------------- the property

/// Plays a random game straight on the engine and checks, before every
/// decision, that no seat's view shows the kind of an enemy pawn that was
/// never revealed to that seat.
fn no_unrevealed_enemy_kind_is_seen(seed: u64) -> Result<(), TestCaseError> {
    let def = load(RULES);
    let mut events = vec![];
    let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
    let mut agents: Vec<RandomAgent> = (0..2).map(|s| RandomAgent::new(seed, s)).collect();
    let mut revealed = vec![0u32; def.pieces.len()];
    let mut seen_events = 0;
    loop {
        for event in &events[seen_events..] {
            if let Event::Reveal { piece, to, .. } = event {
                revealed[*piece as usize] |= to;
            }
        }
        seen_events = events.len();
        for seat in [LIGHT, DARK] {
            let view = state.view(&def, seat);
            for (zone, faces) in view.zones.iter().enumerate() {
                for (face, piece) in faces.iter().zip(state.zone(zone as u16)) {
                    let p = &def.pieces[piece as usize];
                    let enemy = p.owner.is_some_and(|o| o != seat);
                    if enemy && face.is_some_and(|f| f.kind.is_some()) {
                        prop_assert!(
                            revealed[piece as usize] & (1 << seat) != 0,
                            "seed {seed}: {} sees {} in {} unrevealed",
                            def.seat_name(seat),
                            def.piece_label(piece),
                            def.zone_name(zone as u16)
                        );
                    }
                }
            }
        }
        let Some(pending) = state.pending() else { break };
        let choices: Vec<Choice> = pending
            .who()
            .iter()
            .map(|&seat| {
                let legal = pending.legal(seat);
                let i = agents[seat as usize].choose(&def, &Observation::new(&def, &state, seat));
                Choice {
                    seat,
                    value: legal[i],
                    reaction_ms: 0,
                }
            })
            .collect();
        state.apply(&def, &choices, &mut events).unwrap();
    }
    prop_assert!(state.is_over());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn views_never_show_an_unrevealed_enemy_kind(seed in any::<u64>()) {
        no_unrevealed_enemy_kind_is_seen(seed)?;
    }
}

// ---------------------------------------------------------------- the small board

#[test]
fn the_small_board_variant_plays_to_the_end() {
    let def = load("games/variants/rps3_small.rules");
    let board = &def.boards[0];
    assert_eq!(board.spaces(), 12 + 6 + 1);
    let centre = board.space_named("centre").unwrap();
    assert_eq!(board.adjacent[centre as usize].len(), 6);
    assert_eq!(def.pieces.len(), 12, "2 of each kind for each player");
    for seed in 0..20 {
        let record = common::play(&def, seed, &Scenario::default()).unwrap();
        assert!(record.outcome.is_some(), "seed {seed}");
        let deployed = record.decisions.iter().filter(|d| d.contains(": Pawn ")).count();
        assert_eq!(deployed, 12, "seed {seed}: each player places 6 pawns");
        let last_light = record
            .events
            .iter()
            .any(|e| matches!(e, Event::Move { to, .. } if def.zone_name(*to) == "spot of outer 6"));
        assert!(last_light, "seed {seed}: Light's half ends at outer 6");
    }
}
