//! Setting a game up and moving it on: [`State::start`], the choices a
//! decision offers and [`State::apply`], and positions built or scored
//! outside the flow.

use std::collections::HashSet;

use super::chance::Chance;
use super::events::Event;
use super::game::Game;
use super::state::{
    Ask, Choice, EngineError, ForcedShuffle, IllegalAction, Outcome, Pending, RuntimeError, State, Status,
};
use super::tally::Tally;
use super::zones::Zones;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{
    ChoiceKind, ChoiceValue, DecisionId, GameDef, MenuPieces, OptionValue, PieceId, ProcId, Seat, VarEach, ZoneId,
    id_from_value,
};

impl State {
    /// Sets up a game and runs it to the first decision.
    pub fn start(
        def: &Game,
        options: &[OptionValue],
        seed: u64,
        forced: Vec<ForcedShuffle>,
        events: &mut Vec<Event>,
    ) -> Result<State, RuntimeError> {
        // A start that draws nothing by chance is the same for every seed:
        // it is set up once (dealing every piece to its place, the setup's
        // moves) and copied for every later game of the same options.
        let unforced = forced.is_empty();
        if unforced && let Some(state) = def.prepared_start(options, seed, events) {
            return Ok(state);
        }
        let mut state = State::new(def, options, Chance::seeded(seed), forced);
        let before = events.len();
        state.set_up(def, events)?;
        if unforced && state.chance.drawn() == Some(0) {
            def.keep_start(options, &state, &events[before..]);
        }
        Ok(state)
    }

    /// A game not yet set up, drawing from `chance`: [`State::set_up`]
    /// sets it up. (An exact enumeration keeps the state of a setup that
    /// failed, to read which draws it made.)
    pub fn new(def: &GameDef, options: &[OptionValue], chance: Chance, forced: Vec<ForcedShuffle>) -> State {
        let option_values: Vec<i64> = options.iter().map(OptionValue::as_i64).collect();
        State {
            rolled: State::start_values(def, &option_values),
            forced_rolls: vec![],
            forced_rolls_next: 0,
            chance,
            zones: Zones::new(def.zones.len()),
            piece_zone: vec![0; def.pieces.len()],
            tally: Tally::default(),
            stale_triggers: u64::MAX,
            trigger_steps: vec![0; def.triggers.len()],
            face: def.piece_ids().collect(),
            known: vec![0; def.pieces.len()],
            vars: vec![0; def.var_slots],
            options: option_values,
            stack: Vec::with_capacity(32),
            locals: Vec::with_capacity(64),
            frames: Vec::with_capacity(8),
            offers: vec![vec![]; def.players()],
            status: Status::Running,
            triggers_checked: false,
            decisions: 0,
            steps: 0,
            forced,
            forced_next: 0,
            scores: vec![],
            scored: false,
            lists: options
                .iter()
                .map(|o| match o {
                    OptionValue::IntList(list) => list.clone(),
                    _ => vec![],
                })
                .collect(),
            interrupted: vec![],
            offer_pc: 0,
        }
    }

    /// Sets the game up (start values, pieces, the setup) and runs it to
    /// the first decision.
    pub fn set_up(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        let read = |state: &State, shaped: &crate::ir::ShapedBy| shaped.read_running(&state.options, &state.lists);
        if let Some(shaped) = def.shaped_by.iter().find(|s| read(self, s) != s.value) {
            let option = &def.options[usize::from(shaped.option)];
            let what = if shaped.length { "the length of " } else { "" };
            return Err(Box::new(
                Diagnostic::error(
                    Code::BadOptionValue,
                    format!(
                        "the rules were checked for {what}`{}` at {}, and this game sets it to {}",
                        option.name,
                        shaped.value,
                        read(self, shaped)
                    ),
                )
                .label(option.span, "this option sizes a board or the players")
                .help(
                    "load the game with the value set (`--set`, a house-rules file), so its rules are checked for it",
                ),
            ));
        }
        let players = def.players();
        for var in &def.vars {
            let slot = var.slot as usize;
            if var.each == VarEach::Player {
                for seat in 0..players {
                    let value = self.call_sync::<1>(def, var.init, &[seat as i64], events)?;
                    self.vars[slot + seat] = value[0];
                }
            } else {
                // Kept per space or per piece: every one starts alike.
                let value = self.call_sync::<1>(def, var.init, &[], events)?;
                self.vars[slot..slot + def.var_width(var)].fill(value[0]);
            }
        }
        let box_zone = def.families[0].first;
        // Nothing changes while the pieces are placed, so a procedure that
        // many pieces share (one piece entry's count, its condition) gives
        // every one of them the same answer: each is asked once.
        let mut asked: Vec<(ProcId, [i64; 3])> = vec![];
        let mut ask = |state: &mut State, proc: ProcId, events: &mut Vec<Event>| {
            if let Some(&(_, answer)) = asked.iter().find(|(p, _)| *p == proc) {
                return Ok(answer);
            }
            let answer = state.call_sync::<3>(def, proc, &[], events)?;
            asked.push((proc, answer));
            Ok::<_, RuntimeError>(answer)
        };
        for (id, piece) in def.piece_ids().zip(&def.pieces) {
            let mut in_game = match piece.when {
                Some(cond) => ask(self, cond, events)?[0] != 0,
                None => true,
            };
            if let Some(counted) = piece.counted
                && in_game
            {
                let bounds = ask(self, counted.bounds, events)?;
                in_game = (bounds[0]..=bounds[1]).contains(&piece.value) && i64::from(counted.copy) < bounds[2];
            }
            let zone = if in_game { piece.home } else { box_zone };
            self.piece_zone[id as usize] = zone;
            self.known[id as usize] = def.piece_viewers(id, zone);
        }
        self.zones = Zones::dealt(def.zones.len(), &self.piece_zone);
        self.tally = Tally::of(&def.program.tally, def.zones.len(), &self.piece_zone, &self.face);
        self.enter(def, def.main, 0)?;
        self.run(def, events)
    }

    /// What the game waits for, or `None` when it is over.
    pub fn pending(&self) -> Option<Pending<'_>> {
        match &self.status {
            Status::Waiting(ask) => Some(Pending { state: self, ask }),
            _ => None,
        }
    }

    /// How the game ended, once it is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        match &self.status {
            Status::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// Whether the game has ended (with a win or a draw, not an error).
    pub fn is_over(&self) -> bool {
        matches!(self.status, Status::Over(_))
    }

    /// Final scores per seat and score term (empty before the game is scored).
    pub fn scores(&self) -> &[Vec<i64>] {
        if self.scored { &self.scores } else { &[] }
    }

    /// Decisions taken so far.
    pub fn decisions(&self) -> u32 {
        self.decisions
    }

    /// The value in variable slot `slot` (see [`crate::ir::VarDef::slot`]);
    /// 0 past the last.
    pub fn var_value(&self, slot: usize) -> i64 {
        self.vars.get(slot).copied().unwrap_or(0)
    }

    /// Pieces in a zone, top first.
    pub fn zone(&self, zone: ZoneId) -> impl Iterator<Item = PieceId> + '_ {
        self.zones[zone as usize].iter().rev().copied()
    }

    /// The definition of the face `piece` shows.
    pub fn face_of(&self, piece: PieceId) -> PieceId {
        self.face[piece as usize]
    }

    /// How many choices `seat` is offered now. A decision offers at most
    /// one value per step between decisions (`MAX_STEPS_BETWEEN_DECISIONS`)
    /// plus the `anytime` actions, far below `u32::MAX`.
    fn offered(&self, seat: Seat) -> u32 {
        u32::try_from(self.offers[seat as usize].len()).unwrap_or(u32::MAX)
    }

    /// Who may know how many choices `seat` is offered now: `seat` itself,
    /// and every seat that knows every piece in play. Anyone else cannot
    /// tell that the count does not depend on a piece hidden from it.
    /// Every piece lies in some zone (the box included), so this reads the
    /// pieces in number order. It runs at every decision, so it stops at
    /// the first piece that leaves no other seat knowing everything: the
    /// pieces read after it could not add a seat.
    fn count_seen_by(&self, def: &GameDef, seat: Seat) -> u32 {
        let own = 1 << seat;
        let mut everything = def.all_seats_mask();
        // A chunk at a time, without a branch inside (so the compiler can
        // use vector instructions): in a game of open information every
        // piece is looked at, at every decision.
        for chunk in self.known.chunks(64) {
            everything &= chunk.iter().fold(everything, |all, &known| all & known);
            if everything & !own == 0 {
                break;
            }
        }
        everything | own
    }

    /// Whether `seat` knows what `piece` is.
    pub fn knows(&self, seat: Seat, piece: PieceId) -> bool {
        self.known[piece as usize] & (1 << seat) != 0
    }

    /// Whether some seat knows a piece now that it did not know in
    /// `before` (an earlier state of the same game): something was revealed.
    pub fn learned_since(&self, before: &State) -> bool {
        self.known.iter().zip(&before.known).any(|(now, then)| now & !then != 0)
    }

    /// Applies one choice from each deciding seat, then runs to the next
    /// decision. An illegal action leaves the state unchanged.
    pub fn apply(&mut self, def: &Game, choices: &[Choice], events: &mut Vec<Event>) -> Result<(), EngineError> {
        self.apply_checked(def, choices, events, true, true)
    }

    /// [`State::apply`] without the decisions' own events, for a search's
    /// sampled worlds, where nobody reads them: building one costs a scan
    /// of the pieces (`count_seen_by`) and a list of the pieces it names.
    /// What the flow records as it runs on is still recorded (triggers read
    /// it), and the game goes on exactly as with `apply`.
    pub fn apply_quiet(&mut self, def: &Game, choices: &[Choice], events: &mut Vec<Event>) -> Result<(), EngineError> {
        self.apply_checked(def, choices, events, false, true)
    }

    /// [`State::apply_quiet`] for choices taken from the offers themselves,
    /// one per asked seat (see [`World::apply`]): they are legal by
    /// construction, so they are not looked up among the offers again (a
    /// search applies a move at every step of every playout).
    pub fn apply_offered(
        &mut self,
        def: &Game,
        choices: &[Choice],
        events: &mut Vec<Event>,
    ) -> Result<(), EngineError> {
        self.apply_checked(def, choices, events, false, false)
    }

    /// Applies the choices: `record` adds the decisions' own events, `check`
    /// looks each choice up among the offers first.
    fn apply_checked(
        &mut self,
        def: &Game,
        choices: &[Choice],
        events: &mut Vec<Event>,
        record: bool,
        check: bool,
    ) -> Result<(), EngineError> {
        if !matches!(self.status, Status::Waiting(_)) {
            return Err(IllegalAction::NotWaiting.into());
        }
        // Taken, not cloned (this runs at every decision); put back when
        // the choices are refused, so the state is unchanged.
        let Status::Waiting(ask) = std::mem::replace(&mut self.status, Status::Running) else {
            unreachable!("checked above")
        };
        debug_assert!(
            check || self.validate(def, &ask, choices).is_ok(),
            "choices taken from the offers are legal"
        );
        if check && let Err(refused) = self.validate(def, &ask, choices) {
            self.status = Status::Waiting(ask);
            return Err(refused.into());
        }
        if let Some((choice, action)) = ask
            .who
            .iter()
            .filter_map(|s| choices.iter().find(|c| c.seat == *s))
            .find_map(|c| Some((*c, ChoiceValue::from_raw(c.value).anytime_index()?)))
        {
            // An `anytime` action: run it, then ask the same decision again.
            // Other players' simultaneous choices were never applied, so they
            // simply choose again.
            return self
                .start_anytime(def, ask, choice, action, events)
                .map_err(EngineError::Runtime);
        }
        let kind = &def.decisions[ask.decision as usize];
        for &seat in ask.who.iter() {
            let choice = choices.iter().find(|c| c.seat == seat).expect("validated");
            // Silence is no call, so it has no reaction time: whatever time
            // came with it is dropped, and a replay scripts it without one.
            let reaction_ms = match ChoiceValue::from_raw(choice.value).is_none() {
                true => 0,
                false => choice.reaction_ms,
            };
            if record {
                let seen_by = if kind.secret { 1 << seat } else { def.all_seats_mask() };
                let pieces = def
                    .choice_pieces(ask.decision, choice.value)
                    .into_iter()
                    .map(|p| (p, self.known[p as usize]))
                    .collect();
                events.push(Event::Decision {
                    seat,
                    decision: ask.decision,
                    value: choice.value,
                    offered: self.offered(seat),
                    count_seen_by: self.count_seen_by(def, seat),
                    seen_by,
                    reaction_ms: kind.race.then_some(reaction_ms),
                    pieces,
                });
            }
            match ask.each_base {
                Some(base) => {
                    let frame = self.frames.last().expect("a decision is asked inside a procedure");
                    let at = frame.locals_base as usize + base as usize + seat as usize;
                    self.locals[at] = choice.value;
                    if kind.race {
                        // Reaction times follow the choices (see `choose_each`).
                        self.locals[at + def.players()] = reaction_ms as i64;
                    }
                }
                None => self.stack.push(choice.value),
            }
        }
        self.status = Status::Running;
        self.triggers_checked = false;
        self.decisions += 1;
        self.steps = 0;
        if self.decisions > def.max_decisions {
            self.status = Status::Failed;
            let span = def.procs[def.main as usize].span;
            return Err(EngineError::Runtime(Box::new(
                Diagnostic::error(
                    Code::GameTooLong,
                    format!("the game did not end within {} decisions", def.max_decisions),
                )
                .label(span, "this flow keeps asking")
                .help("make sure every loop in the flow ends, or add a limit such as a round counter"),
            )));
        }
        self.run(def, events).map_err(EngineError::Runtime)
    }

    fn start_anytime(
        &mut self,
        def: &Game,
        ask: Ask,
        choice: Choice,
        action: usize,
        events: &mut Vec<Event>,
    ) -> Result<(), RuntimeError> {
        events.push(Event::Decision {
            seat: choice.seat,
            decision: ask.decision,
            value: choice.value,
            offered: self.offered(choice.seat),
            count_seen_by: self.count_seen_by(def, choice.seat),
            seen_by: def.all_seats_mask(),
            reaction_ms: None,
            pieces: vec![],
        });
        let action = &def.anytime[action];
        self.interrupted.push(ask);
        self.status = Status::Running;
        self.triggers_checked = false;
        self.decisions += 1;
        self.steps = 0;
        self.stack.push(choice.seat as i64);
        let depth = self.frames.len();
        self.enter(def, action.body, depth)?;
        self.run(def, events)
    }

    fn validate(&self, def: &GameDef, ask: &Ask, choices: &[Choice]) -> Result<(), IllegalAction> {
        for choice in choices {
            if !ask.who.contains(&choice.seat) {
                return Err(IllegalAction::NotYourTurn {
                    seat: def
                        .seats
                        .get(choice.seat as usize)
                        .cloned()
                        .unwrap_or_else(|| format!("seat {}", choice.seat)),
                });
            }
        }
        for &seat in ask.who.iter() {
            let mut mine = choices.iter().filter(|c| c.seat == seat);
            let (Some(choice), None) = (mine.next(), mine.next()) else {
                return Err(IllegalAction::WrongChoices {
                    expected: ask.who.iter().map(|&s| def.seat_name(s)).collect::<Vec<_>>().join(", "),
                });
            };
            let offered = &self.offers[seat as usize];
            if !offered.contains(&choice.value) {
                // Named as the chooser knows the pieces: an error must not
                // tell them what they may not know.
                let piece = |p: PieceId| {
                    if self.knows(seat, p) {
                        def.piece_label(self.face_of(p))
                    } else {
                        def.piece_back_label(self.face_of(p))
                    }
                };
                return Err(IllegalAction::NotOffered {
                    seat: def.seat_name(seat).to_string(),
                    choice: def.choice_label_with(ask.decision, choice.value, &piece),
                    legal: offered
                        .iter()
                        .map(|&v| def.choice_label_with(ask.decision, v, &piece))
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
        }
        Ok(())
    }

    /// Removes offers identical to one already offered: choosing either is
    /// the same move. Two offers are identical when they name alike pieces
    /// (see [`State::alike_for`]) where they differ, as a piece choice or as
    /// the piece parameters of one action of a menu. The first of each is
    /// kept, so the order of the offers, and what a seeded agent picks,
    /// depend only on the state.
    pub(super) fn dedupe_offers(&mut self, def: &Game, decision: DecisionId) {
        match &def.decisions[decision as usize].kind {
            ChoiceKind::Piece => {
                for seat in 0..self.offers.len() {
                    // Deduplicated in place: the kept offers move to the front.
                    let mut offers = std::mem::take(&mut self.offers[seat]);
                    let mut kept = 0;
                    // Without a twin among them, two offers are the same
                    // move only when they are the same value (a piece choice
                    // is its piece and declared kind, nothing else): a
                    // plain comparison then, as for cards that all differ.
                    let twinned = |value: i64| {
                        ChoiceValue::from_raw(value)
                            .as_piece()
                            .is_some_and(|c| def.twinned[self.face[c.piece as usize] as usize])
                    };
                    if !offers.iter().any(|&value| twinned(value)) {
                        for at in 0..offers.len() {
                            let value = offers[at];
                            if !offers[..kept].contains(&value) {
                                offers[kept] = value;
                                kept += 1;
                            }
                        }
                        offers.truncate(kept);
                        self.offers[seat] = offers;
                        continue;
                    }
                    for at in 0..offers.len() {
                        let value = offers[at];
                        let this = ChoiceValue::from_raw(value).as_piece();
                        // A piece with no twin is alike no other piece.
                        let twinned = twinned(value);
                        let same = |k: i64| {
                            k == value
                                || ChoiceValue::from_raw(k).as_piece().zip(this).is_some_and(|(a, b)| {
                                    a.declared == b.declared
                                        && (a.piece == b.piece
                                            || (twinned && self.alike_for(def, seat as Seat, a.piece, b.piece)))
                                })
                        };
                        if !offers[..kept].iter().any(|&k| same(k)) {
                            offers[kept] = value;
                            kept += 1;
                        }
                    }
                    offers.truncate(kept);
                    self.offers[seat] = offers;
                }
            }
            kind @ ChoiceKind::Actions(_) if kind.names_pieces() => {
                for seat in 0..self.offers.len() {
                    let offers = std::mem::take(&mut self.offers[seat]);
                    let pieces = &def.menu_pieces[decision as usize];
                    self.offers[seat] = self.dedupe_action_offers(def, kind, pieces, seat as Seat, offers);
                }
            }
            _ => {}
        }
    }

    /// [`State::dedupe_offers`] for an action menu: each piece parameter is
    /// replaced by the first alike piece met, and an offer whose action and
    /// parameters, so replaced, were met before is dropped. Each piece is
    /// compared once, with the pieces met before it, and nothing is hashed
    /// unless some piece stands for another (this runs at every decision of
    /// a board game, where usually no two pieces are alike).
    fn dedupe_action_offers(
        &self,
        def: &GameDef,
        kind: &ChoiceKind,
        pieces: &[MenuPieces],
        seat: Seat,
        offers: Vec<i64>,
    ) -> Vec<i64> {
        let ChoiceKind::Actions(actions) = kind else {
            return offers;
        };
        // Two offers merge only through two pieces in one zone (see
        // `alike_for`): when every piece offered lies alone in its zone, as
        // on a board of one piece per space, each offer stands for itself.
        if !offers.iter().any(|&value| self.piece_param_has_company(pieces, value)) {
            return offers;
        }
        const UNMET: PieceId = PieceId::MAX;
        // The piece each piece stands for, and the pieces that stand for themselves.
        let mut stands_for: Vec<PieceId> = vec![UNMET; def.pieces.len()];
        let mut met: Vec<PieceId> = vec![];
        let mut keys: Vec<i64> = Vec::with_capacity(offers.len());
        let mut merged_any = false;
        let menu = actions.len() as i64;
        for &value in &offers {
            let choice = ChoiceValue::from_raw(value);
            let mut key = value;
            if value >= 0 && !choice.is_none() && menu > 0 {
                let entry = choice.action_entry(actions);
                // The value is mixed-radix: entry first, then each parameter.
                let (mut rest, mut weight) = (value / menu, menu);
                for (param_kind, radix) in &actions[entry].params {
                    let param = rest % radix;
                    rest /= radix;
                    if *param_kind == ChoiceKind::Piece {
                        let piece = id_from_value(param);
                        if stands_for[piece as usize] == UNMET {
                            let zone = self.piece_zone[piece as usize];
                            stands_for[piece as usize] = match met.iter().find(|&&other| {
                                self.piece_zone[other as usize] == zone && self.alike_for(def, seat, other, piece)
                            }) {
                                Some(&other) => other,
                                None => {
                                    met.push(piece);
                                    piece
                                }
                            };
                        }
                        key += (i64::from(stands_for[piece as usize]) - param) * weight;
                    }
                    weight *= radix;
                }
            }
            merged_any |= key != value;
            keys.push(key);
        }
        if !merged_any {
            return offers;
        }
        let mut seen: HashSet<i64> = HashSet::with_capacity(offers.len());
        offers
            .into_iter()
            .zip(keys)
            .filter(|&(_, key)| seen.insert(key))
            .map(|(value, _)| value)
            .collect()
    }

    /// Whether a piece parameter of the action offer `value` shares its
    /// zone with another piece.
    fn piece_param_has_company(&self, pieces: &[MenuPieces], value: i64) -> bool {
        let choice = ChoiceValue::from_raw(value);
        if value < 0 || choice.is_none() || pieces.is_empty() {
            return false;
        }
        // Offers are never negative (checked above).
        let value = value as u64;
        let entry = (value % pieces.len() as u64) as usize;
        pieces[entry].0.iter().any(|&(weight, radix)| {
            let piece = radix.rem(weight.div(value));
            self.piece_zone
                .get(piece as usize)
                .is_some_and(|&zone| self.zones.len(zone as usize) > 1)
        })
    }

    /// Whether `seat` sees pieces `a` and `b` as one: both known to the
    /// seat, alike in everything but their number, and in the same zone.
    /// Only known pieces are merged: two face-down pieces are different
    /// moves to someone who cannot tell them apart, and merging them would
    /// tell the chooser they are alike. Pieces in different zones are
    /// different moves (a marker on one space or another).
    fn alike_for(&self, def: &GameDef, seat: Seat, a: PieceId, b: PieceId) -> bool {
        a == b
            || (self.knows(seat, a)
                && self.knows(seat, b)
                && self.piece_zone[a as usize] == self.piece_zone[b as usize]
                && def.same_identity(self.face[a as usize], self.face[b as usize])
                && self.value_of(def, a) == self.value_of(def, b))
    }
}

impl State {
    /// Moves a piece to a zone outside the flow: for building a position to
    /// study (tests, what-if scoring). Emits the move event like the flow does.
    pub fn relocate(&mut self, def: &Game, piece: PieceId, zone: ZoneId, events: &mut Vec<Event>) {
        self.place(def, piece, zone, events);
    }

    /// The result keys (`most score`, `then most lines`) for the current
    /// position, per key and seat, without ending the game.
    pub fn result_keys_now(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<Vec<Vec<i64>>, RuntimeError> {
        let status = std::mem::replace(&mut self.status, Status::Running);
        let keys = def
            .rank_keys
            .iter()
            .map(|key| {
                (0..def.players())
                    .map(|seat| Ok(self.call_sync::<1>(def, key.proc, &[seat as i64], events)?[0]))
                    .collect::<Result<Vec<i64>, RuntimeError>>()
            })
            .collect();
        self.status = status;
        keys
    }

    /// Scores the current position with the game's score terms, per seat and
    /// term, without ending the game.
    pub fn score_now(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<Vec<Vec<i64>>, RuntimeError> {
        let mut scores = vec![vec![0; def.score_terms.len()]; def.players()];
        // Score terms run like triggers, in a running state; the decision
        // being waited for is restored afterwards.
        let status = std::mem::replace(&mut self.status, Status::Running);
        let mut result = Ok(());
        'seats: for (seat, row) in scores.iter_mut().enumerate() {
            for (t, points) in row.iter_mut().enumerate() {
                match self.term_points(def, t, seat as Seat, events) {
                    Ok(v) => *points = v.unwrap_or(0),
                    Err(e) => {
                        result = Err(e);
                        break 'seats;
                    }
                }
            }
        }
        self.status = status;
        result.map(|()| scores)
    }
}
