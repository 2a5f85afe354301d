//! What a player may use: an [`Observation`] of the real game, and
//! [`World`]s sampled from it.
//!
//! The types are the guarantee that an agent never sees what its seat may
//! not know. An agent is handed an `Observation`, whose fields are private:
//! it can read the seat's [`View`], name and key the seat's legal choices, and
//! sample worlds. A sampled `World` is a whole game the agent may play out,
//! but everything the seat cannot see in it was dealt afresh, and it too
//! offers only moves, keys and results, never piece numbers.
//!
//! # Determinisation
//! In this engine every secret is a piece's face: a face-down card, a marker
//! whose kind is hidden, the order of a deck (the faces at its positions).
//! A secret choice is always of a piece, and variables are public. So a
//! world consistent with a seat's view is the real game with
//!
//! - the faces of the pieces the seat does not know dealt again at random
//!   among the pieces that look alike to it: a marker whose kind is hidden
//!   shows its back (type and owner), anything else unknown shows nothing
//!   (a token in a bag, a card face down); the pieces stay where they are,
//!   so every piece number the flow holds stays valid, and the counts of
//!   every face are conserved;
//! - the pieces in the box (left out by the options, which are public) kept;
//! - chance reseeded, so the real future shuffles stay unknown;
//! - the pending decision's offers rebuilt by running again the code that
//!   made them, since what others may choose can depend on their hidden
//!   pieces.
//!
//! The deal does not depend on which piece really had which face: the faces
//! of a group are sorted before they are shuffled. Two games that differ
//! only in what a seat cannot see therefore give that seat the same worlds
//! for the same random stream.

use std::cell::OnceCell;

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::Game;
use super::key::{StepKey, mix};
use super::state::Status;
use super::{Chance, Choice, EngineError, Event, Memory, Outcome, Recall, RuntimeError, State, View};
use crate::ir::{ChoiceKind, ChoiceValue, DecisionId, GameDef, KindId, PieceChoice, PieceId, Seat};

/// One seat's observation of the real game at one of its decisions.
pub struct Observation<'a> {
    def: &'a Game,
    state: &'a State,
    seat: Seat,
    view: OnceCell<View>,
    /// The keys of the seat's choices, built on first use.
    keys: OnceCell<Vec<u64>>,
}

/// How many deals to try for a world in which the seat is offered what it
/// really is offered (see [`Observation::sample`]).
const SAMPLE_TRIES: usize = 16;

impl<'a> Observation<'a> {
    /// `seat`'s observation of `state`, which must be waiting for `seat`.
    pub fn new(def: &'a Game, state: &'a State, seat: Seat) -> Self {
        Observation {
            def,
            state,
            seat,
            view: OnceCell::new(),
            keys: OnceCell::new(),
        }
    }

    /// The seat whose view this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// The decision being asked.
    pub fn decision(&self) -> DecisionId {
        self.state.pending().map_or(0, |p| p.decision())
    }

    /// Every seat answering this decision, in seat order.
    pub fn who(&self) -> &[Seat] {
        self.state.pending().map_or(&[], |p| p.who())
    }

    /// Whether several seats answer at once.
    pub fn is_simultaneous(&self) -> bool {
        self.who().len() > 1
    }

    /// What the seat recalls here, after recalling `before`: the position
    /// itself where it is public, else `before` and its view now (see
    /// [`State::public_position`]).
    pub fn recall_here(&self, before: Recall, memory: Memory) -> Recall {
        // Digested straight from the state, never building the view: the
        // same digest (`State::view_fingerprint`), for a fraction of the cost.
        self.state.recall_here(self.def, self.seat, before, memory)
    }

    /// Everything the seat may know, built on first use.
    pub fn view(&self) -> &View {
        self.view.get_or_init(|| self.state.view(self.def, self.seat))
    }

    fn legal_values(&self) -> &[i64] {
        self.state.pending().map_or(&[], |p| p.legal(self.seat))
    }

    /// How many choices the seat has.
    pub fn legal_len(&self) -> usize {
        self.legal_values().len()
    }

    /// The kind choice `i` names, when the decision is a choice of kinds
    /// (a throw).
    pub fn kind(&self, i: usize) -> Option<KindId> {
        let value = *self.legal_values().get(i)?;
        let kind = KindId::try_from(value).ok()?;
        (self.def.decisions[self.decision() as usize].kind == ChoiceKind::Kind
            && usize::from(kind) < self.def.kinds.len())
        .then_some(kind)
    }

    /// Whether choice `i` is an `anytime` action offered beside the decision.
    pub fn is_anytime(&self, i: usize) -> bool {
        self.legal_values()
            .get(i)
            .is_some_and(|&v| ChoiceValue::from_raw(v).is_anytime())
    }

    /// Choice `i` as the seat reads it: pieces it does not know by their backs.
    pub fn label(&self, i: usize) -> String {
        let value = self.legal_values()[i];
        let piece = |p: PieceId| piece_label_for(self.def, self.state, self.seat, p);
        self.def.choice_label_with(self.decision(), value, &piece)
    }

    /// The names a person may type for choice `i`: its label and, for a
    /// kind, the kind's own name.
    pub fn names(&self, i: usize) -> Vec<String> {
        let mut names = vec![self.label(i)];
        if let Some(kind) = self.kind(i) {
            names.push(self.def.kinds[kind as usize].name.clone());
        }
        names
    }

    /// A key for choice `i` that names the same move in every sampled world
    /// (see [`World::key`]).
    pub fn key(&self, i: usize) -> u64 {
        self.keys()[i]
    }

    /// The state observed, for the glance to read what the seat sees.
    pub(super) fn state(&self) -> &State {
        self.state
    }

    /// The game observed.
    pub(super) fn game(&self) -> &Game {
        self.def
    }

    fn keys(&self) -> &[u64] {
        self.keys.get_or_init(|| {
            let decision = self.decision();
            self.legal_values()
                .iter()
                .map(|&v| move_key(self.def, self.state, self.seat, decision, v))
                .collect()
        })
    }

    /// Decisions taken in the game so far: a step applies one.
    pub fn decisions_taken(&self) -> u32 {
        self.state.decisions()
    }

    /// How this seat sees the step about to be taken at the pending
    /// decision, `choices` being every answering seat's (see [`StepKey`]);
    /// `None` when a seat's choice is missing or was not offered. The seat
    /// need not be answering itself.
    pub fn step_key(&self, choices: &[Choice]) -> Option<StepKey> {
        let pending = self.state.pending()?;
        let decision = pending.decision();
        let secret = self.def.decisions[decision as usize].secret;
        let mut key = StepKey::new(decision);
        for &seat in pending.who() {
            let choice = choices.iter().find(|c| c.seat == seat)?;
            if !pending.legal(seat).contains(&choice.value) {
                return None;
            }
            let seen = seat == self.seat || !secret || ChoiceValue::from_raw(choice.value).is_anytime();
            key = key.then(seen.then(|| move_key(self.def, self.state, self.seat, decision, choice.value)));
        }
        Some(key)
    }

    /// A world the seat cannot tell from the real game, dealt with `rng`, in
    /// which the seat has the choices it really has. `None` when no such deal
    /// was found (the rules make the seat's own choices depend on pieces it
    /// cannot see, and every deal changed them).
    pub fn sample(&self, rng: &mut ChaCha8Rng) -> Option<World> {
        let mut world = None;
        self.sample_into(rng, &mut world, &mut Vec::new())
            .then(|| world.expect("sampled"))
    }

    /// [`Observation::sample`] into `world`, reusing its buffers (`None`: a
    /// world made afresh); the same deal for the same `rng`. Returns whether a
    /// world was found; if so, it is in `world` and the seat's keys in it are
    /// this observation's ([`Observation::key`]). `keys` is scratch space.
    pub fn sample_into(&self, rng: &mut ChaCha8Rng, world: &mut Option<World>, keys: &mut Vec<u64>) -> bool {
        let mine = self.keys();
        for _ in 0..SAMPLE_TRIES {
            let world = match world {
                Some(world) => {
                    // Everything but chance, which the deal reseeds.
                    world.state.copy_but_chance(self.state);
                    world.observer = self.seat;
                    world
                }
                None => world.insert(World {
                    state: self.state.clone(),
                    observer: self.seat,
                    deal: Deal::default(),
                }),
            };
            let dealt = match world.state.deal_hidden(self.def, self.seat, rng, &mut world.deal) {
                Ok(dealt) => dealt,
                Err(_) => continue,
            };
            // Nothing dealt again: the world is the real game, its offers
            // and so the seat's keys the observation's.
            let same = !dealt
                || world.pending().is_some_and(|(d, _)| d == self.decision()) && {
                    keys.clear();
                    world.extend_keys(self.def, self.seat, keys);
                    keys[..] == mine[..]
                };
            if same {
                return true;
            }
        }
        false
    }
}

/// A piece named for `seat`: by its face if the seat knows it, else by its back.
fn piece_label_for(def: &GameDef, state: &State, seat: Seat, piece: PieceId) -> String {
    if state.knows(seat, piece) {
        def.piece_label(state.face_of(piece))
    } else {
        def.piece_back_label(state.face_of(piece))
    }
}

/// One seat's answer in a [`World`]: an index into its legal choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The answering seat.
    pub seat: Seat,
    /// Its choice: an index into the seat's legal choices.
    pub index: usize,
    /// In a race, the answer's reaction time.
    pub reaction_ms: u32,
}

/// A whole game consistent with one seat's observation, to search in.
#[derive(Debug)]
pub struct World {
    state: State,
    /// The seat whose observation this world was sampled from: its keys name
    /// moves as this seat sees them.
    observer: Seat,
    /// Scratch space for dealing the hidden faces again.
    deal: Deal,
}

impl Clone for World {
    fn clone(&self) -> Self {
        World {
            state: self.state.clone(),
            observer: self.observer,
            deal: Deal::default(),
        }
    }
}

/// Pieces that look alike to a seat: `None`, seen as nothing; `Some((type,
/// owner))`, a back.
type Back = Option<(u16, Option<Seat>)>;

/// What [`State::deal_hidden`] works in, kept between deals so that dealing
/// allocates nothing.
#[derive(Debug, Default)]
struct Deal {
    /// The looks of the groups of alike pieces, in order of first piece.
    backs: Vec<Back>,
    /// Every piece dealt again, with its group, by group then piece.
    members: Vec<(u32, PieceId)>,
    faces: Vec<PieceId>,
}

impl World {
    /// The whole game of this world.
    pub(super) fn state(&self) -> &State {
        &self.state
    }

    /// `seat`'s observation of this world, as if it were the real game: what
    /// a player of the world's seat would be shown there (a search asks a
    /// trained strategy what it would play in a world it samples).
    pub fn observation<'a>(&'a self, def: &'a Game, seat: Seat) -> Observation<'a> {
        Observation::new(def, &self.state, seat)
    }

    /// This world's figures as `seat` reads them (see [`FeatureLayout`]).
    ///
    /// [`FeatureLayout`]: super::FeatureLayout
    pub fn features(&self, def: &GameDef, layout: &super::FeatureLayout, seat: Seat, out: &mut Vec<f32>) {
        self.state.features(def, layout, seat, out);
    }

    /// The decision asked and who answers it, or `None` when the game is over.
    pub fn pending(&self) -> Option<(DecisionId, &[Seat])> {
        self.state.pending().map(|p| (p.decision(), p.who()))
    }

    /// How many choices `seat` has at the pending decision (0 when it is not deciding or the game is over).
    pub fn legal_len(&self, seat: Seat) -> usize {
        self.state.pending().map_or(0, |p| p.legal(seat).len())
    }

    /// A key for `seat`'s choice `i` as the observer sees it: a piece the
    /// observer knows by its face, one it does not by where it lies, anything
    /// else by its value. The same move has the same key in every world
    /// sampled from one observation.
    pub fn key(&self, def: &GameDef, seat: Seat, i: usize) -> u64 {
        let Some(pending) = self.state.pending() else {
            return 0;
        };
        move_key(
            def,
            &self.state,
            self.observer,
            pending.decision(),
            pending.legal(seat)[i],
        )
    }

    /// Appends the keys of all of `seat`'s choices ([`World::key`]), in
    /// order, to `out`.
    pub fn extend_keys(&self, def: &GameDef, seat: Seat, out: &mut Vec<u64>) {
        let Some(pending) = self.state.pending() else {
            return;
        };
        let keyer = Keyer::new(def, &self.state, self.observer, pending.decision());
        out.extend(pending.legal(seat).iter().map(|&v| keyer.key(v)));
    }

    /// Whether the observer sees what `seat` chose with choice `i` when it is
    /// made (a secret choice of another seat is not seen).
    pub fn sees_choice(&self, def: &GameDef, seat: Seat, i: usize) -> bool {
        let Some(pending) = self.state.pending() else {
            return true;
        };
        seat == self.observer
            || !def.decisions[pending.decision() as usize].secret
            || ChoiceValue::from_raw(pending.legal(seat)[i]).is_anytime()
    }

    /// Applies one pick per answering seat and runs to the next decision.
    /// The decisions themselves are not recorded in `events` (no search reads
    /// them; see [`State::apply_quiet`]); what the flow records is.
    pub fn apply(&mut self, def: &Game, picks: &[Pick], events: &mut Vec<Event>) -> Result<(), EngineError> {
        let Some(pending) = self.state.pending() else {
            return Err(super::IllegalAction::NotWaiting.into());
        };
        let mut choices = [Choice {
            seat: 0,
            value: 0,
            reaction_ms: 0,
        }; 8];
        let n = picks.len().min(choices.len());
        for (c, p) in choices.iter_mut().zip(&picks[..n]) {
            let legal = pending.legal(p.seat);
            *c = Choice {
                seat: p.seat,
                value: legal.get(p.index).copied().unwrap_or(i64::MIN),
                reaction_ms: p.reaction_ms,
            };
        }
        // One pick per asked seat, in the order asked, each among its
        // offers: the choices are the offers themselves.
        let who = pending.who();
        let offered = picks.len() == who.len()
            && who
                .iter()
                .zip(picks)
                .all(|(&seat, p)| p.seat == seat && p.index < pending.legal(seat).len());
        if offered {
            self.state.apply_offered(def, &choices[..n], events)
        } else {
            self.state.apply_quiet(def, &choices[..n], events)
        }
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.state.outcome()
    }

    /// The position as the observer sees it ([`State::searched_position`]):
    /// a search's key for a position it may meet by more than one path.
    pub fn searched_position(&self, def: &GameDef) -> u64 {
        self.state.searched_position(def, self.observer)
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.is_over()
    }

    /// The observer's view of this world (the same as of the real game it
    /// was sampled from, until the world moves on).
    pub fn view(&self, def: &GameDef) -> View {
        self.state.view(def, self.observer)
    }

    /// The score terms now, per seat and term (see [`State::score_now`]).
    pub fn score_now(&self, def: &Game, events: &mut Vec<Event>) -> Result<Vec<Vec<i64>>, RuntimeError> {
        self.state.clone().score_now(def, events)
    }

    /// [`World::score_now`], run on `spare` made this world again in its
    /// own buffers: an evaluation that scores every world it reads
    /// allocates no state for it.
    pub fn score_now_in(
        &self,
        def: &Game,
        spare: &mut Option<World>,
        events: &mut Vec<Event>,
    ) -> Result<Vec<Vec<i64>>, RuntimeError> {
        self.copy_into(spare).state.score_now(def, events)
    }

    /// [`World::result_keys_now`], run on `spare` as [`World::score_now_in`] is.
    pub fn result_keys_now_in(
        &self,
        def: &Game,
        spare: &mut Option<World>,
        events: &mut Vec<Event>,
    ) -> Result<Vec<Vec<i64>>, RuntimeError> {
        self.copy_into(spare).state.result_keys_now(def, events)
    }

    /// This world again in `spare`, reusing its buffers (`None`: a copy
    /// made afresh): what a clone gives, without allocating once `spare`
    /// has held a world of the game.
    pub fn copy_into<'a>(&self, spare: &'a mut Option<World>) -> &'a mut World {
        match spare {
            Some(world) => {
                world.state.copy_from(&self.state);
                world.observer = self.observer;
                world
            }
            None => spare.insert(self.clone()),
        }
    }

    /// The result keys now, per key and seat (see [`State::result_keys_now`]).
    pub fn result_keys_now(&self, def: &Game, events: &mut Vec<Event>) -> Result<Vec<Vec<i64>>, RuntimeError> {
        self.state.clone().result_keys_now(def, events)
    }
}

/// `value` offered at `decision`, keyed as `observer` sees it.
fn move_key(def: &GameDef, state: &State, observer: Seat, decision: DecisionId, value: i64) -> u64 {
    Keyer::new(def, state, observer, decision).key(value)
}

/// Keys the values offered at one decision as one observer sees them (see
/// [`move_key`]), with what all of them share worked out once.
struct Keyer<'a> {
    def: &'a GameDef,
    state: &'a State,
    observer: Seat,
    kind: &'a ChoiceKind,
    /// The decision mixed with 1, 2 and 3: the start of a plain value's key,
    /// a piece's and an action's.
    plain: u64,
    piece: u64,
    action: u64,
}

impl<'a> Keyer<'a> {
    fn new(def: &'a GameDef, state: &'a State, observer: Seat, decision: DecisionId) -> Self {
        let h = mix(0x5EED, decision as u64);
        Keyer {
            def,
            state,
            observer,
            kind: &def.decisions[decision as usize].kind,
            plain: mix(h, 1),
            piece: mix(h, 2),
            action: mix(h, 3),
        }
    }

    /// The key of `value`: what [`ChoiceValue::decode`] reads it as, mixed,
    /// without unpacking an action's parameters into a list.
    fn key(&self, value: i64) -> u64 {
        let v = ChoiceValue::from_raw(value);
        if v.is_answer() {
            match self.kind {
                ChoiceKind::Piece => {
                    let choice = PieceChoice {
                        piece: v.piece_id(),
                        declared: v.declared_kind(),
                    };
                    return mix(self.piece, piece_key(self.def, self.state, self.observer, choice));
                }
                ChoiceKind::Actions(actions) if !actions.is_empty() => {
                    let entry = v.action_entry(actions);
                    let mut rest = value / actions.len() as i64;
                    let mut k = mix(self.action, entry as u64);
                    for (kind, radix) in &actions[entry].params {
                        let p = rest % radix;
                        rest /= radix;
                        k = mix(
                            k,
                            match (kind, ChoiceValue::from_raw(p).as_piece()) {
                                (ChoiceKind::Piece, Some(choice)) => {
                                    piece_key(self.def, self.state, self.observer, choice)
                                }
                                _ => p as u64,
                            },
                        );
                    }
                    return k;
                }
                _ => {}
            }
        }
        mix(self.plain, value as u64)
    }
}

/// A piece value (with its declared kind, if any): by face when `observer`
/// knows the piece, else by where it lies.
fn piece_key(def: &GameDef, state: &State, observer: Seat, choice: PieceChoice) -> u64 {
    let piece = choice.piece;
    // The declared kind as packed (`kind + 1`, 0 for none), so keys stay as
    // they always were.
    let declared = choice.declared.map_or(0, |k| u64::from(k) + 1);
    if state.knows(observer, piece) {
        let p = &def.pieces[state.face_of(piece) as usize];
        let face = mix(
            mix(
                mix(p.ty as u64, p.kind.map_or(u64::MAX, u64::from)),
                state.value_of(def, piece) as u64,
            ),
            p.owner.map_or(u64::MAX, u64::from),
        );
        mix(mix(1, face), declared)
    } else {
        let zone = state.piece_zone[piece as usize];
        let from_top = state.zones[zone as usize]
            .iter()
            .rev()
            .position(|&p| p == piece)
            .unwrap_or(0);
        mix(mix(mix(2, zone as u64), from_top as u64), declared)
    }
}

impl State {
    /// This game with everything `seat` cannot see dealt afresh from `seed`:
    /// a game `seat` cannot tell from this one (the same deal a [`World`]
    /// gets). For testing that players do not peek.
    pub fn redeal_hidden(&self, def: &Game, seat: Seat, seed: u64) -> Result<State, RuntimeError> {
        let mut state = self.clone();
        state.deal_hidden(def, seat, &mut ChaCha8Rng::seed_from_u64(seed), &mut Deal::default())?;
        Ok(state)
    }

    /// Makes this state `src` again, reusing its buffers: a solver's
    /// traversal keeps spare states, so that a step does not allocate.
    pub fn copy_from(&mut self, src: &State) {
        self.copy_but_chance(src);
        self.chance.clone_from(&src.chance);
    }

    /// Makes this state `src` again, reusing its buffers, all but the chance
    /// stream, which stays as it was: for a deal ([`State::deal_hidden`]),
    /// which reseeds it. Every field is named, so a new one cannot be missed.
    fn copy_but_chance(&mut self, src: &State) {
        let State {
            chance: _,
            zones,
            piece_zone,
            tally,
            stale_triggers,
            trigger_steps,
            face,
            known,
            vars,
            options,
            stack,
            locals,
            frames,
            offers,
            status,
            triggers_checked,
            decisions,
            steps,
            forced,
            forced_next,
            scores,
            scored,
            lists,
            interrupted,
            offer_pc,
            rolled,
            forced_rolls,
            forced_rolls_next,
        } = src;
        self.zones.clone_from(zones);
        self.piece_zone.clone_from(piece_zone);
        self.tally.clone_from(tally);
        self.stale_triggers = *stale_triggers;
        self.trigger_steps.clone_from(trigger_steps);
        self.face.clone_from(face);
        self.known.clone_from(known);
        self.vars.clone_from(vars);
        self.options.clone_from(options);
        self.stack.clone_from(stack);
        self.locals.clone_from(locals);
        self.frames.clone_from(frames);
        self.offers.clone_from(offers);
        self.status.clone_from(status);
        self.triggers_checked = *triggers_checked;
        self.decisions = *decisions;
        self.steps = *steps;
        self.forced.clone_from(forced);
        self.forced_next = *forced_next;
        // Row by row, never dropping one: a search's world is scored at
        // the end of every playout, from a game not yet scored, and would
        // otherwise give its rows up here and allocate them again there.
        if self.scores.len() < scores.len() {
            self.scores.resize_with(scores.len(), Vec::new);
        }
        for (to, from) in self.scores.iter_mut().zip(scores) {
            to.clone_from(from);
        }
        self.scored = *scored;
        self.lists.clone_from(lists);
        self.interrupted.clone_from(interrupted);
        self.offer_pc = *offer_pc;
        self.rolled.clone_from(rolled);
        self.forced_rolls.clone_from(forced_rolls);
        self.forced_rolls_next = *forced_rolls_next;
    }

    /// Deals again the faces `seat` does not know and reseeds chance (see the
    /// module documentation), then rebuilds the pending decision's offers.
    /// Chance is reseeded whatever happens, before anything can draw from it.
    ///
    /// Returns whether anything was dealt again. When `seat` knows every
    /// piece in play (a game of perfect information) nothing is, and the
    /// offers are not rebuilt: the world is the real game but for chance,
    /// and the code that builds offers reads the pieces, variables and
    /// locals, which are as they were. (Only offer code that itself shuffles
    /// or rolls, through a procedure a `where` calls, could build others;
    /// the real game's offers are then one fair draw of them.) The random
    /// stream is drawn from as when they are rebuilt, so later draws do not
    /// move.
    fn deal_hidden(
        &mut self,
        def: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        deal: &mut Deal,
    ) -> Result<bool, RuntimeError> {
        let box_zone = def.families[0].first;
        // Pieces that look alike to the seat, in piece order: a hidden-kind
        // piece it sees shows its back (type and owner); anything else it
        // does not know shows nothing at all, like a token in a bag.
        let Deal { backs, members, faces } = deal;
        backs.clear();
        members.clear();
        // Where the seat knows every piece (any game without secrets), there
        // is nothing to deal: one pass over the knowledge, without looking
        // up where each piece lies.
        let seat_bit = 1u32 << seat;
        let knows_all = self.known.iter().all(|&known| known & seat_bit != 0);
        if !knows_all {
            for piece in def.piece_ids() {
                let zone = self.piece_zone[piece as usize];
                if self.knows(seat, piece) || zone == box_zone {
                    continue;
                }
                let p = &def.pieces[self.face_of(piece) as usize];
                let back = (p.kind_hidden && def.zone_visible_to(zone, seat)).then_some((p.ty, p.owner));
                let group = match backs.iter().position(|b| *b == back) {
                    Some(g) => g,
                    None => {
                        backs.push(back);
                        backs.len() - 1
                    }
                };
                members.push((group as u32, piece));
            }
        }
        // By group, in order of each group's first piece, and by piece within
        // a group (the pairs are all different, so this sort is stable).
        members.sort_unstable();
        for pieces in members.chunk_by(|a, b| a.0 == b.0) {
            faces.clear();
            faces.extend(pieces.iter().map(|&(_, p)| self.face_of(p)));
            // Sorted first, so the deal depends only on which faces are
            // hidden, not on where they really are.
            faces.sort_unstable();
            faces.shuffle(rng);
            for (&(_, piece), &face) in pieces.iter().zip(faces.iter()) {
                let zone = self.piece_zone[piece as usize];
                let old = self.face[piece as usize];
                self.tally.refaced(&def.program.tally, zone, old, face);
                self.stale_triggers |= def.program.watch.counting(def.pieces[usize::from(old)].ty)
                    | def.program.watch.counting(def.pieces[usize::from(face)].ty);
                self.face[piece as usize] = face;
            }
            // A die the seat does not know shows a face rolled afresh.
            if !self.rolled.is_empty() {
                self.reroll_hidden(def, faces, rng);
            }
        }
        self.chance = Chance::seeded(rng.random());
        self.forced.clear();
        self.forced_next = 0;
        self.force_rolls(vec![]);
        if members.is_empty() {
            return Ok(false);
        }
        if self.offers_blind_to_deal(def) {
            #[cfg(debug_assertions)]
            self.assert_offers_survive_deal(def);
            return Ok(true);
        }
        self.rebuild_offers(def).map(|()| true)
    }

    /// Whether the pending decision's offers, with the `anytime` actions
    /// offered beside them, read no face of a piece: then a deal that gives
    /// hidden pieces other faces leaves them as they are, and building them
    /// again (which runs the offer code) would give the same offers. Such
    /// code draws no chance either, so skipping it moves no random stream.
    fn offers_blind_to_deal(&self, def: &Game) -> bool {
        let Status::Waiting(ask) = &self.status else {
            return false;
        };
        let program = &def.program;
        program.blind_offers[ask.offer_pc as usize]
            && (!self.interrupted.is_empty()
                || (0..def.anytime.len()).all(|i| program.blind_anytime[i] || self.anytime_switched_off(def, i)))
    }

    /// Test builds check every skipped rebuild: building the offers again
    /// gives the same offers and the same decision.
    #[cfg(debug_assertions)]
    fn assert_offers_survive_deal(&self, def: &Game) {
        let mut rebuilt = self.clone();
        if rebuilt.rebuild_offers(def).is_err() {
            panic!("offers that read no face failed to build again");
        }
        assert_eq!(rebuilt.offers, self.offers, "a deal changed offers that read no face");
        let (Status::Waiting(a), Status::Waiting(b)) = (&rebuilt.status, &self.status) else {
            panic!("offers that read no face did not lead to the same decision");
        };
        assert_eq!(
            (a.decision, a.offer_pc, a.each_base),
            (b.decision, b.offer_pc, b.each_base),
            "a deal changed the decision asked"
        );
        assert!(a.who.iter().eq(b.who.iter()), "a deal changed who is asked");
    }

    /// Runs the pending decision's offer code again, so every seat's choices
    /// fit the pieces as they now are. Triggers already ran for it.
    fn rebuild_offers(&mut self, def: &Game) -> Result<(), RuntimeError> {
        let Status::Waiting(ask) = &self.status else {
            return Ok(());
        };
        let offer_pc = ask.offer_pc;
        // At the ask, the stack is as it was at the `ChoiceReset`: the code
        // between pushes only what the offers and the ask consume.
        if let Some(frame) = self.frames.last_mut() {
            frame.pc = offer_pc;
        }
        self.status = Status::Running;
        self.triggers_checked = true;
        let mut events = vec![];
        self.run(def, &mut events)
    }
}

/// What one seat saw happen in one step of the game.
pub struct Seen<'a> {
    def: &'a GameDef,
    events: &'a [Event],
    seat: Seat,
}

/// A decision as a seat saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenDecision {
    /// The deciding seat.
    pub seat: Seat,
    /// The decision asked: an index into [`GameDef::decisions`].
    pub decision: DecisionId,
    /// The value chosen, when the seat saw it and it names no piece (a kind,
    /// a number, a menu entry, an `anytime` action when negative).
    pub value: Option<i64>,
}

impl<'a> Seen<'a> {
    /// What `seat` saw of `events`, the events of one step.
    pub fn new(def: &'a GameDef, events: &'a [Event], seat: Seat) -> Self {
        Seen { def, events, seat }
    }

    /// The decisions taken in this step.
    pub fn decisions(&self) -> impl Iterator<Item = SeenDecision> + '_ {
        self.events.iter().filter_map(|event| match *event {
            Event::Decision {
                seat,
                decision,
                value,
                seen_by,
                ..
            } => {
                let names_pieces = ChoiceValue::from_raw(value).is_answer()
                    && matches!(
                        self.def.decisions[decision as usize].kind,
                        ChoiceKind::Piece | ChoiceKind::Actions(_)
                    );
                let saw = seen_by & (1 << self.seat) != 0 && !names_pieces;
                Some(SeenDecision {
                    seat,
                    decision,
                    value: saw.then_some(value),
                })
            }
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{self, FsLoader};

    /// Marks on a 2 x 2 board, every piece public: nothing is hidden.
    const OPEN: &str = r#"
game "Open"
players 2: A, B
board cells: grid 2 x 2 {
  mark public
}
zones {
  supply per player public
}
pieces {
  Mark x2 per player in supply
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

    #[test]
    fn a_world_of_perfect_information_is_the_game_itself_and_draws_one_seed() {
        let def = crate::engine::test_game("open.rules", OPEN);
        let mut events = vec![];
        let mut state = State::start(&def, &def.default_options(), 1, vec![], &mut events).unwrap();
        state.apply(&def, &[Choice::new(0, 2)], &mut events).unwrap();
        let obs = Observation::new(&def, &state, 1);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut world, mut keys) = (None, vec![]);
        for _ in 0..3 {
            assert!(obs.sample_into(&mut rng, &mut world, &mut keys));
            let world = world.as_ref().unwrap();
            // The same offers, keyed as the observation keys them.
            assert_eq!(world.state.offers, state.offers);
            keys.clear();
            world.extend_keys(&def, 1, &mut keys);
            assert_eq!(keys, (0..obs.legal_len()).map(|i| obs.key(i)).collect::<Vec<_>>());
        }
        // Each sample drew one number, chance's new seed, as a deal that
        // rebuilds the offers does: the stream goes on where it always did.
        let mut expected = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3 {
            let _: u64 = expected.random();
        }
        assert_eq!(rng.random::<u64>(), expected.random::<u64>());
    }

    /// A world copied again from a game not yet scored is not scored, though
    /// it keeps the rows its last playout scored into (a search would
    /// otherwise allocate them at every playout).
    #[test]
    fn a_world_copied_again_forgets_its_last_scores() {
        let scored = OPEN.replace(
            "  declare draw \"the board is full\"\n}",
            "}\nscore per player {\n  left: count Mark in supply of player\n  placed: 2 - count Mark in supply of player\n}\nresult {\n  most score\n  else draw\n}",
        );
        let def = crate::engine::test_game("scored.rules", &scored);
        let mut events = vec![];
        let state = State::start(&def, &def.default_options(), 1, vec![], &mut events).unwrap();
        let obs = Observation::new(&def, &state, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut world, mut keys) = (None, vec![]);
        for _ in 0..2 {
            assert!(obs.sample_into(&mut rng, &mut world, &mut keys));
            let world = world.as_mut().unwrap();
            assert!(world.state.scores().is_empty(), "not scored yet");
            while let Some((_, who)) = world.pending() {
                let picks: Vec<Pick> = who
                    .iter()
                    .map(|&seat| Pick {
                        seat,
                        index: 0,
                        reaction_ms: 0,
                    })
                    .collect();
                world.apply(&def, &picks, &mut events).unwrap();
            }
            assert_eq!(world.state.scores(), [vec![0, 2], vec![0, 2]]);
        }
    }

    /// Two hidden cards each; whoever holds both Aces wins at once. Players
    /// bid, which moves nothing.
    const ACES: &str = r#"
game "Aces"
players 2: A, B
kinds Bid = low | high
pieces {
  Ace x2 in deck
  Blank x6 in deck
}
zones {
  deck hidden
  cards per player owner
}
setup {
  shuffle deck
  for p in players { deal 2 from deck to cards of p }
}
flow {
  repeat 3 times {
    for p in players { p chooses bid from Bid }
  }
  declare draw "no one holds both Aces"
}
trigger both_aces after every action {
  for p in players {
    if count Ace in cards of p == 2 { win p }
  }
}
"#;

    /// A trigger that did nothing in the real game runs again in a world
    /// whose deal hands the other player both Aces: dealing afresh changes
    /// what it counts. (Test builds also check every skipped trigger.)
    #[test]
    fn a_sampled_world_runs_the_triggers_its_deal_concerns() {
        let def = crate::engine::test_game("aces.rules", ACES);
        let mut events = vec![];
        // A deal where no one holds both Aces, or the game is already over.
        let state = (0..)
            .map(|seed| State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap())
            .find(|state| state.pending().is_some())
            .expect("a deal");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut won_by_the_trigger = 0;
        for _ in 0..200 {
            let mut world = Observation::new(&def, &state, 0).sample(&mut rng).expect("a world");
            let first_bid = world.state.pending().expect("a decision").legal(0)[0];
            world
                .state
                .apply(&def, &[Choice::new(0, first_bid)], &mut events)
                .unwrap();
            if let Some(outcome) = world.state.outcome() {
                assert!(
                    matches!(outcome.reason, super::super::EndReason::Trigger(..)),
                    "{outcome:?}"
                );
                assert_eq!(outcome.winner, Some(1), "only B's cards and the deck are dealt afresh");
                won_by_the_trigger += 1;
            }
        }
        // One world in 15 or 28, by how many Aces A holds.
        assert!(won_by_the_trigger > 0, "no world dealt B both Aces");
    }

    /// Two hidden cards each, and decisions whose offers read the faces or
    /// not; an `anytime` action's condition reads them too, when its
    /// option is on.
    const OFFERS: &str = r#"
game "Offers"
players 2: A, B
kinds Bid = low | high
option show_rule: bool = false "Anyone holding an Ace may show it"
var rounds = 0
pieces {
  Ace x2 in deck
  Blank x6 in deck
}
group Card = Ace | Blank
zones {
  deck hidden
  cards per player owner
}
setup {
  shuffle deck
  for p in players { deal 2 from deck to cards of p }
}
flow {
  repeat 3 times {
    A chooses bid from Bid
    B chooses amount from 1..3 where amount > rounds
    A chooses call from Bid where call == low or count Ace in cards of A > 0
    B chooses card from Card in cards of B
    add 1 to rounds
  }
  declare draw "done"
}
anytime "tap" when rounds < 2 {
  add 1 to rounds
}
anytime "show" when show_rule and count Ace in cards of actor > 0 {
  add 1 to rounds
}
"#;

    /// Offers that read no face are kept by a sampled world; those that
    /// read one, or offer pieces, are built again for the world's deal.
    #[test]
    fn a_sampled_world_builds_again_only_the_offers_its_deal_concerns() {
        let def = crate::engine::test_game("offers.rules", OFFERS);
        let resets: Vec<usize> = (0..def.code.len())
            .filter(|&pc| def.code[pc] == crate::ir::Op::ChoiceReset)
            .collect();
        let blind: Vec<bool> = resets.iter().map(|&pc| def.program.blind_offers[pc]).collect();
        // Kinds, and numbers against a variable; a count of Aces; pieces.
        // (The anytime actions' own decisions would come after.)
        assert_eq!(blind[..4], [true, true, false, false]);
        assert_eq!(def.program.blind_anytime, [true, false]);
        let mut events = vec![];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        // A real game where A holds an Ace, at A's first call.
        for seed in 0.. {
            let mut state = State::start(&def, &def.default_options(), seed, vec![], &mut events).unwrap();
            // The first bid keeps its offers: the `show` action is off.
            assert!(state.offers_blind_to_deal(&def));
            let mut on = def.default_options();
            on[0] = crate::ir::OptionValue::Bool(true);
            let shown = State::start(&def, &on, seed, vec![], &mut events).unwrap();
            assert!(!shown.offers_blind_to_deal(&def), "`show` reads the faces when on");
            for answer in [0, 0] {
                let seat = state.pending().expect("a decision").who()[0];
                let value = state.pending().unwrap().legal(seat)[answer];
                state.apply(&def, &[Choice::new(seat, value)], &mut events).unwrap();
            }
            assert!(!state.offers_blind_to_deal(&def));
            let cards = def.families.iter().find(|f| f.name == "cards").expect("cards");
            let ace = def.piece_types.iter().position(|t| t == "Ace").expect("Ace");
            if !state
                .zone(cards.first)
                .any(|p| usize::from(def.pieces[state.face_of(p) as usize].ty) == ace)
            {
                continue;
            }
            assert_eq!(state.pending().unwrap().legal(0).len(), 3, "low, high and tap");
            // B's worlds where A was dealt no Ace offer A only `low` (and tap).
            let narrowed = (0..200)
                .filter(|_| {
                    let world = Observation::new(&def, &state, 1).sample(&mut rng).expect("a world");
                    world.state.pending().expect("a decision").legal(0).len() == 2
                })
                .count();
            assert!(narrowed > 0, "no world dealt A without an Ace built its offers again");
            return;
        }
    }

    /// The tally of each zone's types follows the faces a sampled world deals
    /// afresh, as it follows the moves of the game.
    #[test]
    fn a_sampled_world_keeps_its_tally_true() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("games/rubber_paper_scissors.rules");
        let def = check::check_file(&path, &FsLoader).expect("the game checks").def;
        let mut events = vec![];
        let mut state = State::start(&def, &def.default_options(), 3, vec![], &mut events).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let (mut decisions, mut nonzero) = (0, 0);
        while let Some(pending) = state.pending() {
            let choices: Vec<Choice> = pending
                .who()
                .iter()
                .map(|&seat| {
                    let legal = pending.legal(seat);
                    Choice::new(seat, legal[rng.random_range(0..legal.len())])
                })
                .collect();
            for seat in 0..2 {
                let world = Observation::new(&def, &state, seat).sample(&mut rng).expect("a world");
                nonzero += world.state.assert_tally_agrees(&def);
            }
            state.apply(&def, &choices, &mut events).unwrap();
            state.assert_tally_agrees(&def);
            decisions += 1;
        }
        assert!(
            decisions > 10 && nonzero > 100,
            "{decisions} decisions, {nonzero} counts"
        );
    }
}
