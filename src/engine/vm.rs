//! The interpreter loop: executes ops until a decision is needed, the game
//! ends, or a nested call (trigger, score term) returns.

use super::Game;
use super::events::{EndReason, Event};
use super::lower::{BoardCount, CellTest, Ins, KIND_OFFER_LEN, MAX_OFFER_PARAMS, Operand};
use super::{Ask, Frame, MAX_STEPS_BETWEEN_DECISIONS, Outcome, RuntimeError, Seats, State, Status};
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::grid::NO_SPACE;
use crate::ir::{
    Attr, Board, ChoiceKind, ChoiceValue, FamilyIndex, GameDef, KeyReads, MAX_PLAYERS, MatchBy, Matcher, Op,
    PieceFilter, PieceId, ProcId, Seat, ZoneId, id_from_index, id_from_value,
};

/// Entry `n` of a table (`table set_values at n`) or of a list option: read
/// from 1; 0 below it (and in an empty list), the last value past its end.
fn table_entry(values: &[i64], n: i64) -> i64 {
    match values.last() {
        Some(&last) if n > 0 => values.get(n as usize - 1).copied().unwrap_or(last),
        _ => 0,
    }
}

/// What [`State::step`] leaves [`State::exec`] to do.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    /// Go on with the next op.
    Continue,
    /// The op may have changed the frames or the status: look at them again.
    Reload,
}

/// What `exec` stopped for.
enum Stop {
    /// The frames dropped to the requested depth.
    Returned,
    /// Waiting for a decision, or the game is over.
    Suspended,
}

impl State {
    /// Pushes a frame for `proc`; its arguments are the top `params` values.
    pub(super) fn enter(&mut self, def: &GameDef, proc: ProcId, _depth: usize) -> Result<(), RuntimeError> {
        let p = &def.procs[proc as usize];
        if self.frames.len() > 200 {
            return Err(self.error(
                def,
                Code::TooDeep,
                format!("procedures called each other more than 200 deep (in `{}`)", p.name),
            ));
        }
        let locals_base = self.locals.len();
        self.locals.resize(locals_base + p.locals as usize, 0);
        let args_start = self.stack.len() - p.params as usize;
        for (i, v) in self.stack.drain(args_start..).enumerate() {
            self.locals[locals_base + i] = v;
        }
        self.frames.push(Frame {
            pc: p.entry,
            locals_base: locals_base as u32,
            stack_base: self.stack.len() as u32,
            proc,
        });
        Ok(())
    }

    /// Runs a procedure that asks no one (triggers, scoring, start values)
    /// to completion and returns its first `N` results (zeros past the
    /// ones it has). An array, not a vector: triggers run after every
    /// action, and a search plays millions of those.
    pub(super) fn call_sync<const N: usize>(
        &mut self,
        def: &Game,
        proc: ProcId,
        args: &[i64],
        events: &mut Vec<Event>,
    ) -> Result<[i64; N], RuntimeError> {
        let depth = self.frames.len();
        self.stack.extend_from_slice(args);
        self.enter(def, proc, depth)?;
        let mut results = [0; N];
        match self.exec(def, events, depth)? {
            Stop::Returned => {
                let n = def.procs[proc as usize].returns as usize;
                let start = self.stack.len() - n;
                for (to, &v) in results.iter_mut().zip(&self.stack[start..]) {
                    *to = v;
                }
                self.stack.truncate(start);
                Ok(results)
            }
            Stop::Suspended => {
                if matches!(self.status, Status::Waiting(_)) {
                    self.status = Status::Failed;
                    return Err(self.error(
                        def,
                        Code::DecisionNotAllowed,
                        "a decision was asked where none may be".into(),
                    ));
                }
                // The game ended inside (e.g. a trigger's `win`): unwind.
                self.frames.truncate(depth);
                Ok(results)
            }
        }
    }

    /// Runs the main flow until it waits or ends.
    pub(super) fn run(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        match self.exec(def, events, 0) {
            Ok(_) => Ok(()),
            Err(e) => {
                self.status = Status::Failed;
                Err(e)
            }
        }
    }

    fn span(&self, def: &GameDef) -> Span {
        let pc = self.frames.last().map_or(0, |f| f.pc.saturating_sub(1));
        def.spans.get(pc as usize).copied().unwrap_or_default()
    }

    pub(super) fn error(&self, def: &GameDef, code: Code, message: String) -> RuntimeError {
        Box::new(Diagnostic::error(code, message).label(self.span(def), "while running this"))
    }

    /// Using a space that is not there: a step past the edge of a grid.
    fn off_board(&self, def: &GameDef) -> RuntimeError {
        self.error(
            def,
            Code::NoSuchSpace,
            "there is no space there: it is off the board (test it first with `exists`)".into(),
        )
    }

    /// The space of `board` that `piece` stands on, or `None` when it is
    /// elsewhere.
    fn space_of(&self, def: &GameDef, board: u16, piece: PieceId) -> Option<i64> {
        let zone = &def.zones[self.piece_zone[piece as usize] as usize];
        (def.families[zone.family as usize].by == FamilyIndex::PerSpace(board)).then_some(zone.index as i64)
    }

    /// Asking for the space of a piece that is not on the board.
    fn not_on_board(&self, def: &GameDef, board: u16, piece: PieceId) -> RuntimeError {
        self.error(
            def,
            Code::NotOnBoard,
            format!(
                "{} is in `{}`, not on board `{}`",
                def.piece_label(self.face[piece as usize]),
                def.zone_name(self.piece_zone[piece as usize]),
                def.boards[board as usize].name
            ),
        )
    }

    /// An action value that cannot be packed.
    fn bad_action(&self, def: &GameDef) -> RuntimeError {
        self.error(
            def,
            Code::BadAction,
            "an action's number parameter is outside 0 to 65535".into(),
        )
    }

    fn pop(&mut self) -> i64 {
        self.stack.pop().expect("the checker balances the stack")
    }

    /// Pops a piece value: a piece chosen "as" a kind is still that piece.
    fn pop_piece(&mut self) -> PieceId {
        ChoiceValue::from_raw(self.pop()).piece_id()
    }

    fn pop_zone(&mut self) -> ZoneId {
        id_from_value(self.pop())
    }

    fn top_piece(&self, def: &GameDef, zone: ZoneId, from_bottom: bool) -> Result<PieceId, RuntimeError> {
        let pieces = &self.zones[zone as usize];
        let piece = if from_bottom { pieces.first() } else { pieces.last() };
        piece.copied().ok_or_else(|| {
            Box::new(
                Diagnostic::error(Code::EmptyZone, format!("`{}` is empty", def.zone_name(zone)))
                    .label(self.span(def), "there is no piece to take here")
                    .help("check `size of` the zone first, or make sure it is filled before this point"),
            )
        })
    }

    #[inline]
    fn matches(&self, def: &GameDef, m: Matcher, piece: PieceId, key: i64, owner: i64) -> bool {
        self.matches_inlined(def, m, piece, key, owner)
    }

    /// [`State::matches`], always inlined: in the loops of the counts it is
    /// all the work. Elsewhere a call keeps the interpreter's loop small.
    #[inline(always)]
    fn matches_inlined(&self, def: &GameDef, m: Matcher, piece: PieceId, key: i64, owner: i64) -> bool {
        let p = &def.pieces[self.face[piece as usize] as usize];
        let by = match m.by {
            MatchBy::Any => true,
            MatchBy::Type(t) => p.ty == t,
            MatchBy::Group(g) => def.groups[g as usize].types.contains(&p.ty),
            MatchBy::TypeOnStack => p.ty as i64 == key,
            MatchBy::KindOnStack => p.kind.map(i64::from) == Some(key),
        };
        by && (!m.owner || p.owner.map(i64::from) == Some(owner))
    }

    /// Whether `piece` passes a loop's filter, whose arguments are in locals.
    fn passes(&self, def: &GameDef, filter: PieceFilter, locals_base: usize, piece: PieceId) -> bool {
        let key = self.locals[locals_base + filter.key as usize];
        let owner = self.locals[locals_base + filter.owner as usize];
        self.matches(def, filter.matcher, piece, key, owner)
    }

    /// A piece attribute of a piece value (a piece, or a piece chosen "as"
    /// a kind), or `None` when the piece has no such attribute.
    fn attribute(&self, def: &GameDef, attr: Attr, value: i64) -> Option<i64> {
        let value = ChoiceValue::from_raw(value);
        let piece = &def.pieces[self.face[value.piece_id() as usize] as usize];
        match attr {
            // A piece chosen "as" a kind has that kind.
            Attr::Kind => value.declared_kind().or(piece.kind).map(i64::from),
            Attr::Value => Some(self.value_of(def, value.piece_id())),
            Attr::Owner => piece.owner.map(i64::from),
            Attr::Type => Some(piece.ty as i64),
        }
    }

    /// Pops a matcher's stack arguments: `(key, owner)`.
    fn pop_matcher(&mut self, m: Matcher) -> (i64, i64) {
        let owner = if m.owner { self.pop() } else { -1 };
        let key = if matches!(m.by, MatchBy::TypeOnStack | MatchBy::KindOnStack) {
            self.pop()
        } else {
            -1
        };
        (key, owner)
    }

    pub(super) fn place(&mut self, def: &Game, piece: PieceId, to: ZoneId, events: &mut Vec<Event>) {
        let from = self.piece_zone[piece as usize];
        self.zones.move_to_top(piece, from, to);
        let face = self.face[piece as usize];
        self.tally.moved(&def.program.tally, face, from, to);
        self.stale_triggers |= def.program.watch.counting(def.pieces[usize::from(face)].ty);
        self.piece_zone[piece as usize] = to;
        self.known[piece as usize] |= def.piece_viewers(piece, to);
        events.push(Event::Move {
            piece,
            from,
            to,
            seen_by: self.known[piece as usize],
            value: self.die_value(def, piece),
        });
    }

    fn shuffle(&mut self, def: &GameDef, zone: ZoneId, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        let viewers = def.zone_viewers(zone);
        let forced = match self.forced.get(self.forced_next) {
            Some(f) if f.zone == zone => {
                self.forced_next += 1;
                Some((f.top.clone(), f.bottom.clone()))
            }
            Some(f) => {
                return Err(self.error(
                    def,
                    Code::ScenarioMismatch,
                    format!(
                        "the scenario fixes a shuffle of `{}`, but the game shuffles `{}` here",
                        def.zone_name(f.zone),
                        def.zone_name(zone)
                    ),
                ));
            }
            None => None,
        };
        self.shuffle_pieces(def, zone);
        if let Some((top, bottom)) = forced {
            // Reordered on the side: the zone keeps its pieces, in another order.
            let mut pieces = self.zones[zone as usize].to_vec();
            // Bring the wanted identities to the top, in order, then to the
            // bottom, keeping the random order of the rest.
            let mut chosen = Vec::with_capacity(top.len() + bottom.len());
            for (wanted, place) in top
                .iter()
                .map(|p| (p, "on top of"))
                .chain(bottom.iter().map(|p| (p, "at the bottom of")))
            {
                let Some(at) = pieces.iter().position(|&p| def.same_identity(p, *wanted)) else {
                    let name = def.piece_label(*wanted);
                    return Err(self.error(
                        def,
                        Code::ScenarioMismatch,
                        format!(
                            "the scenario wants another {name} {place} `{}`, but there is none left",
                            def.zone_name(zone)
                        ),
                    ));
                };
                chosen.push(pieces.remove(at));
            }
            // `pieces` runs from the bottom up.
            let at_bottom = chosen.split_off(top.len());
            let mut on_top = chosen;
            on_top.reverse();
            pieces.splice(0..0, at_bottom);
            pieces.extend(on_top);
            self.zones[zone as usize].copy_from_slice(&pieces);
        }
        let pieces = &self.zones[zone as usize];
        for &p in pieces.iter() {
            self.known[p as usize] &= def.piece_viewers(p, zone);
        }
        let order = pieces.iter().rev().copied().collect();
        events.push(Event::Shuffle {
            zone,
            order,
            seen_by: viewers,
        });
        Ok(())
    }

    fn end_game(&mut self, winner: Option<Seat>, reason: EndReason, events: &mut Vec<Event>) {
        events.push(Event::End {
            winner,
            reason: reason.clone(),
        });
        self.status = Status::Over(Outcome { winner, reason });
    }

    /// Whether the flow has reached the result section (every result key
    /// tied, its `else` block runs), perhaps inside a procedure it called.
    fn in_result_section(&self, def: &GameDef) -> bool {
        // The result section is compiled at the end of the main procedure,
        // from `result_pc` on; the bottom frame's counter is kept up to date.
        self.frames
            .first()
            .is_some_and(|main| main.proc == def.main && main.pc > def.result_pc)
    }

    /// Which trigger (if any) the current frame stack is running.
    fn running_trigger(&self, def: &GameDef) -> Option<u16> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| def.triggers.iter().position(|t| t.proc == f.proc).map(id_from_index))
    }

    /// One score term for one seat, or `None` when its `when` condition is off.
    pub(super) fn term_points(
        &mut self,
        def: &Game,
        term: usize,
        seat: Seat,
        events: &mut Vec<Event>,
    ) -> Result<Option<i64>, RuntimeError> {
        let guard = def.program.term_guards[term];
        let term = &def.score_terms[term];
        let applies = match (guard, term.when) {
            (Some(test), _) => test.holds(&self.options),
            (None, Some(when)) => self.call_sync::<1>(def, when, &[], events)?[0] != 0,
            (None, None) => true,
        };
        if !applies {
            return Ok(None);
        }
        Ok(Some(self.call_sync::<1>(def, term.proc, &[seat as i64], events)?[0]))
    }

    /// Adds the `anytime` actions each deciding seat may take now, as
    /// negative values after its real choices.
    fn offer_anytime(&mut self, def: &Game, who: &[Seat], events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        // An anytime action is not interrupted by another one. Most games
        // have none, or only ones their options switch off: every decision
        // asks, so that is found before looking at each seat.
        let any_on = (0..def.anytime.len()).any(|i| !self.anytime_switched_off(def, i));
        if !self.interrupted.is_empty() || !any_on {
            return Ok(());
        }
        for &seat in who {
            for (i, action) in def.anytime.iter().enumerate() {
                if self.anytime_switched_off(def, i) {
                    continue;
                }
                if self.call_sync::<1>(def, action.when, &[seat as i64], events)?[0] != 0 {
                    self.offers[seat as usize].push(ChoiceValue::anytime(i).raw());
                }
            }
        }
        Ok(())
    }

    /// Whether anytime action `i` is off in this game: its condition
    /// starts with an option that is off.
    pub(super) fn anytime_switched_off(&self, def: &Game, i: usize) -> bool {
        def.program.anytime_guards[i].is_some_and(|option| self.options[usize::from(option)] == 0)
    }

    /// Runs the triggers once before the op at `pc` (an ask, or the
    /// ranking), unless they ran since the last decision. Returns
    /// [`Flow::Reload`] when one ended the game: the op then does not run,
    /// and the frame points at it. Otherwise the op goes on at once.
    fn run_triggers_before(&mut self, def: &Game, pc: u32, events: &mut Vec<Event>) -> Result<Flow, RuntimeError> {
        if self.triggers_checked {
            return Ok(Flow::Continue);
        }
        self.triggers_checked = true;
        let frame = self.frames.len() - 1;
        self.frames[frame].pc = pc;
        self.run_triggers(def, events)?;
        if !matches!(self.status, Status::Running) {
            return Ok(Flow::Reload);
        }
        self.frames[frame].pc = pc + 1;
        Ok(Flow::Continue)
    }

    fn run_triggers(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        for (t, trigger) in def.triggers.iter().enumerate() {
            let watched = def.program.watch.is_watched(t);
            if watched && self.stale_triggers & (1 << t) == 0 {
                // Nothing it counts moved since it ran and did nothing: it
                // would do nothing again, in as many rounds.
                let steps = self.steps + u64::from(self.trigger_steps[t]);
                if steps <= MAX_STEPS_BETWEEN_DECISIONS {
                    #[cfg(debug_assertions)]
                    self.assert_quiet(def, t, steps, events);
                    self.steps = steps;
                    continue;
                }
            }
            let before = events.len();
            let steps_before = self.steps;
            self.call_sync::<0>(def, trigger.proc, &[], events)?;
            if watched && !self.is_over() {
                self.stale_triggers &= !(1 << t);
                self.trigger_steps[t] = u32::try_from(self.steps - steps_before).unwrap_or(u32::MAX);
            }
            // A trigger that changed something fired: say so before what it did.
            if events[before..].iter().any(|e| !matches!(e, Event::Hook { .. })) {
                let trigger = id_from_index(t);
                events.insert(before, Event::Trigger { trigger });
            }
            if self.is_over() {
                break;
            }
        }
        Ok(())
    }

    /// Test builds run a skipped trigger anyway and check that it would
    /// have done nothing, in the rounds counted for it: the whole test
    /// suite then checks which triggers the pieces' moves mark stale.
    #[cfg(debug_assertions)]
    fn assert_quiet(&mut self, def: &Game, t: usize, steps_after: u64, events: &mut Vec<Event>) {
        let (status, steps, events_before) = (self.status.clone(), self.steps, events.len());
        let ran = self.call_sync::<0>(def, def.triggers[t].proc, &[], events);
        assert!(
            ran.is_ok() && !self.is_over() && events.len() == events_before && self.steps == steps_after,
            "trigger `{}` was skipped, but running it changes the game",
            def.triggers[t].name
        );
        (self.status, self.steps) = (status, steps);
    }

    fn rank(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
        let players = def.players();
        // In place: a search ranks at the end of every playout.
        self.scores.resize_with(players, Vec::new);
        for row in &mut self.scores {
            row.clear();
            row.resize(def.score_terms.len(), 0);
        }
        self.scored = true;
        let steps_before = self.steps;
        for seat in 0..players {
            for t in 0..def.score_terms.len() {
                let Some(points) = self.term_points(def, t, seat as Seat, events)? else {
                    continue;
                };
                self.scores[seat][t] = points;
                events.push(Event::Score {
                    seat: seat as Seat,
                    term: id_from_index(t),
                    points,
                });
            }
        }
        // Keys that are `score` or a term's name would run the terms again
        // and find what they just gave, when the terms only read the game.
        // The rounds of their loops and calls count towards an endless
        // flow, at most the scoring's again and two calls per term and
        // seat for each key: only when that cannot reach the limit are the
        // points read instead.
        let reuse_points = def.program.keys_read_points && {
            let per_key = (self.steps - steps_before) + 2 * (def.score_terms.len() * players) as u64;
            self.steps + per_key * def.rank_keys.len() as u64 <= MAX_STEPS_BETWEEN_DECISIONS
        };
        if !self.rank_by_keys(def, events, reuse_points)? && reuse_points {
            // No one leads and the flow goes on: rank again computing each
            // key (no key ran yet), for the rounds to count as they always
            // did.
            self.rank_by_keys(def, events, false)?;
        }
        Ok(())
    }

    /// Test builds compute a key read from the points anyway and check
    /// that it gives the same, and nothing else: the whole test suite then
    /// checks which keys may read them.
    #[cfg(debug_assertions)]
    fn assert_key_reads(&mut self, def: &Game, key: ProcId, seat: Seat, read: i64, events: &mut Vec<Event>) {
        let (steps, events_before) = (self.steps, events.len());
        let computed = self.call_sync::<1>(def, key, &[seat as i64], events).map(|[v]| v);
        assert!(
            computed.as_ref().is_ok_and(|&v| v == read) && events.len() == events_before,
            "a result key read {read} from the points, but computes {computed:?}"
        );
        self.steps = steps;
    }

    /// Ranks the seats by the result keys, in turn, and ends the game when
    /// one leads; returns whether one did. With `reuse_points`, a key that
    /// is `score` or a term's name reads the points just scored.
    fn rank_by_keys(&mut self, def: &Game, events: &mut Vec<Event>, reuse_points: bool) -> Result<bool, RuntimeError> {
        // Seats still level, in seat order, and their values for the key
        // being compared: a search ends every playout here, so on the stack.
        let mut candidates = [0 as Seat; MAX_PLAYERS];
        let mut values = [0i64; MAX_PLAYERS];
        let mut level = def.players().min(MAX_PLAYERS);
        for (seat, c) in candidates.iter_mut().enumerate().take(level) {
            *c = seat as Seat;
        }
        for (k, key) in def.rank_keys.iter().enumerate() {
            for i in 0..level {
                let seat = candidates[i];
                let stored = match key.reads {
                    _ if !reuse_points => None,
                    KeyReads::Points => self.scores[seat as usize]
                        .iter()
                        .zip(&def.score_terms)
                        .filter(|(_, term)| !term.tie_breaker)
                        // Added in the key's order: an overflow is left to it to report.
                        .try_fold(0i64, |sum, (&points, _)| sum.checked_add(points)),
                    KeyReads::Term(t) => Some(self.scores[seat as usize][usize::from(t)]),
                    KeyReads::Other => None,
                };
                #[cfg(debug_assertions)]
                if let Some(value) = stored {
                    self.assert_key_reads(def, key.proc, seat, value, events);
                }
                values[i] = match stored {
                    Some(value) => value,
                    None => self.call_sync::<1>(def, key.proc, &[seat as i64], events)?[0],
                };
            }
            let values = &values[..level];
            let best = if key.most {
                values.iter().max()
            } else {
                values.iter().min()
            }
            .copied()
            .unwrap_or(0);
            let mut kept = 0;
            for i in 0..level {
                if values[i] == best {
                    candidates[kept] = candidates[i];
                    kept += 1;
                }
            }
            level = kept;
            if level == 1 {
                self.end_game(Some(candidates[0]), EndReason::Rank(id_from_index(k)), events);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Counts one round of a loop whose jump back is the op before `pc`:
    /// the frame's counter is written back only when the flow is stuck,
    /// for the error to point at the jump.
    #[inline(always)]
    fn count_round(&mut self, def: &GameDef, pc: usize) -> Result<(), RuntimeError> {
        if self.steps < MAX_STEPS_BETWEEN_DECISIONS {
            self.steps += 1;
            return Ok(());
        }
        self.frames.last_mut().expect("frame").pc = pc as u32;
        self.count_step(def)
    }

    /// Counts one loop round or call; a flow that makes too many of them
    /// without asking anyone is stuck.
    fn count_step(&mut self, def: &GameDef) -> Result<(), RuntimeError> {
        self.steps += 1;
        if self.steps > MAX_STEPS_BETWEEN_DECISIONS {
            return Err(Box::new(
                Diagnostic::error(
                    Code::EndlessFlow,
                    format!(
                        "the flow went round its loops {MAX_STEPS_BETWEEN_DECISIONS} times without asking for a decision"
                    ),
                )
                .label(self.span(def), "still running here")
                .help("a loop that never asks anyone and never ends? give it a way out"),
            ));
        }
        Ok(())
    }

    /// [`Op::NextNeighbour`]: moves the loop to the next space the `from`
    /// space touches; false when none is left, `None` when `from` is off
    /// the board.
    fn next_neighbour(&mut self, def: &GameDef, locals_base: usize, board: u16, from: u16, value: u16) -> Option<bool> {
        let from = self.locals[locals_base + from as usize];
        let slot = locals_base + value as usize;
        let after = self.locals[slot];
        let near = def.boards[board as usize].adjacent.get(usize::try_from(from).ok()?)?;
        Some(match near.iter().find(|&&t| t as i64 > after) {
            Some(&t) => {
                self.locals[slot] = t as i64;
                true
            }
            None => false,
        })
    }

    /// [`Op::NextPiece`]: moves the loop to the next piece of the zone that
    /// passes the filter; false when none is left.
    #[inline(always)]
    fn next_piece(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        zone: u16,
        index: u16,
        value: u16,
        filter: u16,
    ) -> bool {
        let filter = def.filters[filter as usize];
        let pieces = &self.zones[self.locals[locals_base + zone as usize] as usize];
        let start = (self.locals[locals_base + index as usize] + 1) as usize;
        let found = (start..pieces.len())
            .map(|i| (i, pieces[pieces.len() - 1 - i]))
            .find(|&(_, p)| self.passes(def, filter, locals_base, p));
        match found {
            Some((i, piece)) => {
                self.locals[locals_base + index as usize] = i as i64;
                self.locals[locals_base + value as usize] = piece as i64;
                true
            }
            None => false,
        }
    }

    /// [`Op::NextOnBoard`]: moves the loop to the next piece on the board
    /// that passes the filter; false when none is left. The cursor is
    /// (zone number on the board) << 16 | (place in the zone).
    #[inline(always)]
    fn next_on_board(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        board: u16,
        cursor: u16,
        value: u16,
        filter: u16,
    ) -> bool {
        let filter = def.filters[filter as usize];
        let board = &def.boards[board as usize];
        let slots = board.slots.len() as i64;
        let zones = board.spaces() as i64 * slots;
        let mut at = self.locals[locals_base + cursor as usize] + 1;
        loop {
            let (k, i) = (at >> 16, (at & 0xFFFF) as usize);
            if k >= zones {
                return false;
            }
            // Most boards have one slot per space: no division then.
            let (space, slot) = if slots == 1 { (k, 0) } else { (k / slots, k % slots) };
            let family = &def.families[board.slots[slot as usize] as usize];
            let pieces = &self.zones[(family.first as i64 + space) as usize];
            if i >= pieces.len() {
                at = (k + 1) << 16;
                continue;
            }
            let piece = pieces[pieces.len() - 1 - i];
            if self.passes(def, filter, locals_base, piece) {
                self.locals[locals_base + value as usize] = piece as i64;
                self.locals[locals_base + cursor as usize] = at;
                return true;
            }
            at += 1;
        }
    }

    /// A loop's jump back to its [`Op::NextNeighbour`] at `head`: the next
    /// space, or false when none is left; an error pointing at the loop
    /// when the space it goes round is off the board.
    #[inline(always)]
    fn step_neighbour(
        &mut self,
        def: &GameDef,
        locals_base: usize,
        board: u16,
        from: u16,
        value: u16,
        head: u32,
    ) -> Result<bool, RuntimeError> {
        self.next_neighbour(def, locals_base, board, from, value)
            .ok_or_else(|| {
                self.frames.last_mut().expect("frame").pc = head + 1;
                self.off_board(def)
            })
    }

    /// After a tested loop's step (see [`Ins::JumpNextTested`]): where
    /// the round goes on, or `None` when its test at `head + 1` sends it
    /// back for the next step. Past the test when it passes; the test itself
    /// when its space is off the board, for the test to say so.
    #[inline(always)]
    fn after_loop_test(&self, def: &Game, program: &[Ins], head: usize, locals_base: usize) -> Option<usize> {
        let test = head + 1;
        let (size, cmp, when, value) = match program[test] {
            Ins::LocalZoneSizeJump {
                slot,
                family,
                cmp,
                when,
                value,
                ..
            } => (
                self.zone_size(def, family, self.locals[locals_base + slot as usize]),
                cmp,
                when,
                i64::from(value),
            ),
            Ins::CellTestJump(at) => {
                let cell = &def.program.cell_tests[at as usize];
                (
                    self.cell_zone_size(def, cell, locals_base),
                    cell.cmp,
                    cell.when,
                    cell.value,
                )
            }
            Ins::LocalVarCmpJump {
                slot, var, cmp, when, ..
            } => (
                Some(self.locals[locals_base + slot as usize]),
                cmp,
                when,
                self.vars[var as usize],
            ),
            _ => unreachable!("a tested loop opens with its test (see `thread_back_jump`)"),
        };
        let Some(size) = size else {
            return Some(test);
        };
        (cmp.holds(size, value) != when).then_some(test + program[test].len())
    }

    /// How many pieces the zone of a [`CellTest`]'s cell holds, or `None`
    /// when the row and column are off the board.
    #[inline(always)]
    fn cell_zone_size(&self, def: &GameDef, test: &CellTest, locals_base: usize) -> Option<i64> {
        let value = |operand| match operand {
            Operand::Number(v) => v,
            Operand::Local(slot) => self.locals[locals_base + slot as usize],
        };
        let space = def.boards[test.board as usize].cell(value(test.row), value(test.column));
        self.zone_size(def, test.family, space)
    }

    /// The pieces matching `matcher` in every slot of `board`.
    #[inline(never)]
    fn count_on_board(&self, def: &Game, board: u16, matcher: Matcher, key: i64, owner: i64) -> i64 {
        let n = match &def.program.counts[board as usize] {
            BoardCount::ByPieces(on_board) => self
                .piece_zone
                .iter()
                .enumerate()
                .filter(|&(piece, &zone)| {
                    on_board[zone as usize] && self.matches_inlined(def, matcher, piece as PieceId, key, owner)
                })
                .count(),
            BoardCount::ByZones => def.boards[board as usize]
                .slots
                .iter()
                .flat_map(|&family| {
                    let f = &def.families[family as usize];
                    f.first..f.first + f.len
                })
                .map(|zone| self.count_in_zone(def, zone as usize, matcher, key, owner))
                .sum(),
        };
        n as i64
    }

    /// The zone `index` of a family, or `None` when there is no such zone
    /// (only a space off the board, a step past the edge, gets there).
    fn zone_of(&self, def: &GameDef, family: u16, index: i64) -> Option<usize> {
        let f = &def.families[family as usize];
        (0..f.len as i64)
            .contains(&index)
            .then(|| (f.first as i64 + index) as usize)
    }

    /// How many pieces of a zone the matcher takes, its type and owner
    /// popped from the stack. Kept out of line: the inner loop has two
    /// callers, and a copy in each costs every other instruction registers.
    #[inline(never)]
    fn count_matching(&mut self, def: &Game, zone: usize, m: Matcher) -> i64 {
        let (key, owner) = self.pop_matcher(m);
        self.count_in_zone(def, zone, m, key, owner) as i64
    }

    /// How many pieces of the game the matcher takes, its type and owner
    /// popped from the stack.
    #[inline(never)]
    fn count_in_game(&mut self, def: &Game, m: Matcher) -> i64 {
        let (key, owner) = self.pop_matcher(m);
        // Every piece the definition has, less those in the box.
        let in_box = self.count_in_zone(def, usize::from(def.families[0].first), m, key, owner);
        def.program.totals.of_matcher(def, m, key, owner) - in_box as i64
    }

    /// How many lines of `board` hold a piece the matcher takes on every
    /// space, in the zones of `family`. A score counts them at the end of
    /// every playout.
    #[inline(never)]
    fn full_lines(&self, def: &Game, board: u16, family: u16, m: Matcher, key: i64, owner: i64) -> i64 {
        let lines = &def.boards[board as usize].lines;
        let full = if def.families[family as usize].len <= 64 {
            // Each space is asked once, however many lines cross it.
            let mask = self.held_bits(def, family, m, key, owner, |space| Some(space as u8));
            lines
                .iter()
                .filter(|line| line.iter().all(|&space| mask >> space & 1 == 1))
                .count()
        } else {
            let first = def.families[family as usize].first;
            let held = |space: u16| self.count_in_zone(def, usize::from(first + space), m, key, owner) > 0;
            lines
                .iter()
                .filter(|line| line.iter().all(|&space| held(space)))
                .count()
        };
        full as i64
    }

    /// The spaces of a board's family that hold a piece the matcher takes,
    /// as bits (`bit_of` gives a space's bit, if it has one): found from the
    /// pieces on the board, not space by space, as a board is mostly empty.
    /// A loop, not an iterator: this runs once a move in a line game's
    /// search, and the iterator's closures were not inlined.
    #[inline(always)]
    fn held_bits(
        &self,
        def: &GameDef,
        family: u16,
        m: Matcher,
        key: i64,
        owner: i64,
        bit_of: impl Fn(u16) -> Option<u8>,
    ) -> u64 {
        let family = &def.families[family as usize];
        let zones = family.first as usize..(family.first + family.len) as usize;
        let mut bits = 0u64;
        for &piece in self.zones.of_zones(zones) {
            if self.matches_inlined(def, m, piece, key, owner)
                && let Some(bit) = bit_of(self.piece_zone[piece as usize] - family.first)
            {
                bits |= 1 << bit;
            }
        }
        bits
    }

    /// Returns from the current frame: its results move down to where its
    /// stack began, and its locals go.
    fn leave(&mut self, def: &GameDef) {
        let frame = self.frames.pop().expect("frame");
        let n = def.procs[frame.proc as usize].returns as usize;
        let (results, base) = (self.stack.len() - n, frame.stack_base as usize);
        // Mostly one result, or none: not worth a call to memmove.
        for i in 0..n {
            self.stack[base + i] = self.stack[results + i];
        }
        self.stack.truncate(base + n);
        self.locals.truncate(frame.locals_base as usize);
    }

    /// How many pieces of a zone the matcher takes: from the zone's tally
    /// when it counts the matcher's type, else piece by piece with the test
    /// inlined (it is all of that count's work).
    fn count_in_zone(&self, def: &Game, zone: usize, m: Matcher, key: i64, owner: i64) -> usize {
        let counted = || {
            self.zones[zone]
                .iter()
                .filter(|&&p| self.matches_inlined(def, m, p, key, owner))
                .count()
        };
        match self.tally.count(&def.program.tally, zone, m, key, owner) {
            Some(n) => {
                debug_assert_eq!(n, counted(), "the tally of zone {zone} agrees with its pieces");
                n
            }
            None => counted(),
        }
    }

    /// How many pieces zone `index` of a family holds, or `None` when there
    /// is no such zone (see [`State::zone_of`]).
    fn zone_size(&self, def: &GameDef, family: u16, index: i64) -> Option<i64> {
        self.zone_of(def, family, index).map(|zone| self.zones.len(zone) as i64)
    }

    /// The error of a checked arithmetic op that failed.
    fn arithmetic_error(&self, def: &GameDef, op: Op, a: i64, b: i64) -> RuntimeError {
        if b == 0 && matches!(op, Op::Div | Op::Rem) {
            self.error(def, Code::DivisionByZero, "division by zero".into())
        } else {
            self.error(def, Code::Overflow, format!("{a} and {b} overflow a number"))
        }
    }

    /// Runs ops until the frames drop to `stop_depth`, a decision is
    /// asked, or the game ends.
    ///
    /// The inner loop keeps the program counter and the frame's locals base
    /// in registers and runs the ops that only touch the value stack, the
    /// locals and the variables, and jumps, in place. Every other op goes
    /// through [`State::step`] with the counter written back to the frame
    /// (errors point at it); an op that may change the frames or the status
    /// ends the inner loop, so the outer one looks at them again.
    fn exec(&mut self, def: &Game, events: &mut Vec<Event>, stop_depth: usize) -> Result<Stop, RuntimeError> {
        debug_assert_eq!(
            def.program.ins.len(),
            def.code.len(),
            "the program is lowered from this code"
        );
        let program = &def.program.ins[..];
        loop {
            if self.frames.len() <= stop_depth {
                return Ok(Stop::Returned);
            }
            if !matches!(self.status, Status::Running) {
                return Ok(Stop::Suspended);
            }
            let frame = self.frames.last().expect("checked above");
            let mut pc = frame.pc as usize;
            let locals_base = frame.locals_base as usize;
            loop {
                // Matched in place: each arm reads only its own fields, not
                // a copy of the whole instruction first.
                let ins = &program[pc];
                pc += 1;
                match *ins {
                    Ins::Push(v) => self.stack.push(v),
                    Ins::Pop => {
                        self.pop();
                    }
                    Ins::Dup => {
                        let v = *self.stack.last().expect("balanced");
                        self.stack.push(v);
                    }
                    Ins::Load(slot) => self.stack.push(self.locals[locals_base + slot as usize]),
                    Ins::Store(slot) => {
                        let v = self.pop();
                        self.locals[locals_base + slot as usize] = v;
                    }
                    Ins::LoadAt(base) => {
                        let i = self.pop();
                        self.stack.push(self.locals[locals_base + base as usize + i as usize]);
                    }
                    Ins::LoadVar(slot) => self.stack.push(self.vars[slot as usize]),
                    Ins::LoadVarAt(base) => {
                        let seat = self.pop();
                        self.stack.push(self.vars[base as usize + seat as usize]);
                    }
                    Ins::LoadOption(i) => self.stack.push(self.options[i as usize]),
                    Ins::Arith(arith) => {
                        let b = self.pop();
                        let a = self.pop();
                        match arith.apply(a, b) {
                            Some(v) => self.stack.push(v),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                return Err(self.arithmetic_error(def, arith.op(), a, b));
                            }
                        }
                    }
                    Ins::Cmp(cmp) => {
                        let b = self.pop();
                        let a = self.pop();
                        self.stack.push(i64::from(cmp.holds(a, b)));
                    }
                    Ins::Not => {
                        let v = self.pop();
                        self.stack.push(i64::from(v == 0));
                    }
                    Ins::Neg => {
                        let v = self.pop();
                        self.stack.push(v.wrapping_neg());
                    }
                    Ins::NextSeat => {
                        let seat = self.pop();
                        self.stack.push((seat + 1) % def.players() as i64);
                    }
                    Ins::Jump(t) => {
                        // Every loop jumps back: count the rounds, not every op.
                        if (t as usize) < pc {
                            self.count_round(def, pc)?;
                        }
                        pc = t as usize;
                    }
                    Ins::JumpNext {
                        value,
                        last,
                        exit,
                        head,
                    } => {
                        self.count_round(def, pc)?;
                        let v = &mut self.locals[locals_base + value as usize];
                        *v += 1;
                        pc = if *v > self.locals[locals_base + last as usize] {
                            exit as usize
                        } else {
                            head as usize + 1
                        };
                    }
                    Ins::JumpNextNeighbour {
                        board,
                        from,
                        value,
                        exit_after,
                        head,
                    } => {
                        self.count_round(def, pc)?;
                        pc = match self.step_neighbour(def, locals_base, board, from, value, head)? {
                            true => head as usize + 1,
                            false => head as usize + exit_after as usize,
                        };
                    }
                    Ins::JumpNextTested {
                        value,
                        last,
                        exit,
                        head,
                    } => {
                        let head = head as usize;
                        pc = loop {
                            self.count_round(def, pc)?;
                            let v = &mut self.locals[locals_base + value as usize];
                            *v += 1;
                            if *v > self.locals[locals_base + last as usize] {
                                break exit as usize;
                            }
                            if let Some(next) = self.after_loop_test(def, program, head, locals_base) {
                                break next;
                            }
                        };
                    }
                    Ins::JumpNextNeighbourTested {
                        board,
                        from,
                        value,
                        exit_after,
                        head,
                    } => {
                        let head = head as usize;
                        pc = loop {
                            self.count_round(def, pc)?;
                            if !self.step_neighbour(def, locals_base, board, from, value, head as u32)? {
                                break head + exit_after as usize;
                            }
                            if let Some(next) = self.after_loop_test(def, program, head, locals_base) {
                                break next;
                            }
                        };
                    }
                    Ins::LocalZoneSizeJump {
                        slot,
                        family,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let index = self.locals[locals_base + slot as usize];
                        let Some(size) = self.zone_size(def, family, index) else {
                            // Point at the `ZoneOf`, the second op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        pc = if cmp.holds(size, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 5
                        };
                    }
                    Ins::LocalVarCmpJump {
                        slot,
                        var,
                        cmp,
                        when,
                        target,
                    } => {
                        let (a, b) = (self.locals[locals_base + slot as usize], self.vars[var as usize]);
                        pc = if cmp.holds(a, b) == when {
                            target as usize
                        } else {
                            pc + 3
                        };
                    }
                    Ins::CellTestJump(at) => {
                        let test = &def.program.cell_tests[at as usize];
                        let Some(size) = self.cell_zone_size(def, test, locals_base) else {
                            // Point at the `ZoneOf`, the fourth op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 3) as u32;
                            return Err(self.off_board(def));
                        };
                        pc = if test.cmp.holds(size, test.value) == test.when {
                            test.target as usize
                        } else {
                            pc + 7
                        };
                    }
                    Ins::CellZoneSizeJump {
                        board,
                        family,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let column = self.pop();
                        let row = self.pop();
                        let space = def.boards[board as usize].cell(row, column);
                        let Some(size) = self.zone_size(def, family, space) else {
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        pc = if cmp.holds(size, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 5
                        };
                    }
                    Ins::JumpIfFalse(t) => {
                        if self.pop() == 0 {
                            pc = t as usize;
                        }
                    }
                    Ins::JumpIfTrue(t) => {
                        if self.pop() != 0 {
                            pc = t as usize;
                        }
                    }
                    Ins::Next { value, last, exit } => {
                        let v = &mut self.locals[locals_base + value as usize];
                        *v += 1;
                        if *v > self.locals[locals_base + last as usize] {
                            pc = exit as usize;
                        }
                    }
                    Ins::NextPiece {
                        zone,
                        index,
                        value,
                        filter,
                        exit,
                    } => {
                        if !self.next_piece(def, locals_base, zone, index, value, filter) {
                            pc = exit as usize;
                        }
                    }
                    Ins::NextOnBoard {
                        board,
                        cursor,
                        value,
                        filter,
                        exit,
                    } => {
                        if !self.next_on_board(def, locals_base, board, cursor, value, filter) {
                            pc = exit as usize;
                        }
                    }
                    Ins::NextNeighbour {
                        board,
                        from,
                        value,
                        exit,
                    } => match self.next_neighbour(def, locals_base, board, from, value) {
                        Some(true) => {}
                        Some(false) => pc = exit as usize,
                        None => {
                            self.frames.last_mut().expect("frame").pc = pc as u32;
                            return Err(self.off_board(def));
                        }
                    },
                    Ins::ZoneOf(family) => {
                        let index = self.pop();
                        match self.zone_of(def, family, index) {
                            Some(zone) => self.stack.push(zone as i64),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                return Err(self.off_board(def));
                            }
                        }
                    }
                    Ins::Size => {
                        let zone = self.pop();
                        self.stack.push(self.zones.len(zone as usize) as i64);
                    }
                    Ins::ChoiceAdd => {
                        let value = self.pop();
                        let seat = self.pop();
                        self.offers[seat as usize].push(value);
                    }
                    Ins::CellAt(board) => {
                        let column = self.pop();
                        let row = self.pop();
                        self.stack.push(def.boards[board as usize].cell(row, column));
                    }
                    Ins::Step(board) => {
                        let direction = self.pop();
                        let space = self.pop();
                        self.stack
                            .push(def.program.steps[board as usize].step(space, direction));
                    }
                    Ins::Forward { board, backward } => {
                        let seat = self.pop();
                        let ahead = def.boards[board as usize].forward[seat as usize];
                        let d = if backward {
                            crate::ir::grid::opposite(ahead)
                        } else {
                            ahead
                        };
                        self.stack.push(d as i64);
                    }
                    Ins::ActionEntry(decision) => {
                        let value = ChoiceValue::from_raw(self.pop());
                        let entry = match &def.decisions[decision as usize].kind {
                            ChoiceKind::Actions(actions) => value.action_entry(actions),
                            _ => 0,
                        };
                        self.stack.push(entry as i64);
                    }
                    Ins::ActionParam { decision, entry, param } => {
                        let value = ChoiceValue::from_raw(self.pop());
                        let ChoiceKind::Actions(actions) = &def.decisions[decision as usize].kind else {
                            unreachable!("the checker gives action values to action decisions")
                        };
                        let param = value.action_param(actions, entry as usize, param as usize);
                        self.stack.push(param);
                    }
                    Ins::KindAt(set) => {
                        let i = self.pop();
                        self.stack.push(def.kind_sets[set as usize].members[i as usize] as i64);
                    }
                    Ins::TypeAt(group) => {
                        let i = self.pop();
                        self.stack.push(def.groups[group as usize].types[i as usize] as i64);
                    }
                    Ins::Beats => {
                        let b = id_from_value(self.pop());
                        let a = id_from_value(self.pop());
                        self.stack.push(i64::from(def.beats(a, b)));
                    }
                    Ins::LoadLoad(a, b) => {
                        self.stack.push(self.locals[locals_base + a as usize]);
                        self.stack.push(self.locals[locals_base + b as usize]);
                        pc += 1;
                    }
                    Ins::LoadConst { slot, value } => {
                        self.stack.push(self.locals[locals_base + slot as usize]);
                        self.stack.push(i64::from(value));
                        pc += 1;
                    }
                    Ins::StoreLoad { store, load } => {
                        let v = self.pop();
                        self.locals[locals_base + store as usize] = v;
                        self.stack.push(self.locals[locals_base + load as usize]);
                        pc += 1;
                    }
                    Ins::Copy { from, to } => {
                        self.locals[locals_base + to as usize] = self.locals[locals_base + from as usize];
                        pc += 1;
                    }
                    Ins::SetLocal { slot, value } => {
                        self.locals[locals_base + slot as usize] = i64::from(value);
                        pc += 1;
                    }
                    Ins::OfferKinds(at) => {
                        let offer = def.program.kind_offers[at as usize];
                        let rounds = u64::from(offer.count);
                        // Each round's jump back counts towards an endless
                        // flow: rounds that could reach the limit run one by
                        // one, to stop where they would.
                        if self.steps + rounds <= MAX_STEPS_BETWEEN_DECISIONS {
                            let members = &def.kind_sets[offer.set as usize].members[..usize::from(offer.count)];
                            let seat = self.locals[locals_base + offer.seat as usize];
                            self.offers[seat as usize].extend(members.iter().map(|&kind| i64::from(kind)));
                            self.locals[locals_base + offer.index as usize] = i64::from(offer.count);
                            if let Some(&last) = members.last() {
                                self.locals[locals_base + offer.kind as usize] = i64::from(last);
                            }
                            self.steps += rounds;
                            pc += KIND_OFFER_LEN - 1;
                        } else {
                            self.locals[locals_base + offer.index as usize] = 0;
                            pc += 1;
                        }
                    }
                    Ins::AddToLocal { slot, value } => {
                        let at = locals_base + slot as usize;
                        let a = self.locals[at];
                        match a.checked_add(i64::from(value)) {
                            Some(v) => self.locals[at] = v,
                            None => {
                                // Point at the `Add`, the third op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                                return Err(self.arithmetic_error(def, Op::Add, a, i64::from(value)));
                            }
                        }
                        pc += 3;
                    }
                    Ins::SubFromLocal { slot, value } => {
                        let at = locals_base + slot as usize;
                        let a = self.locals[at];
                        match a.checked_sub(i64::from(value)) {
                            Some(v) => self.locals[at] = v,
                            None => {
                                // Point at the `Sub`, the third op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                                return Err(self.arithmetic_error(def, Op::Sub, a, i64::from(value)));
                            }
                        }
                        pc += 3;
                    }
                    Ins::ArithConst { arith, value } => {
                        let a = self.pop();
                        match arith.apply(a, i64::from(value)) {
                            Some(v) => self.stack.push(v),
                            None => {
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.arithmetic_error(def, arith.op(), a, i64::from(value)));
                            }
                        }
                        pc += 1;
                    }
                    Ins::CmpJump { cmp, when, target } => {
                        let b = self.pop();
                        let a = self.pop();
                        pc = if cmp.holds(a, b) == when {
                            target as usize
                        } else {
                            pc + 1
                        };
                    }
                    Ins::CmpConstJump {
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let a = self.pop();
                        pc = if cmp.holds(a, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 2
                        };
                    }
                    Ins::LocalCmpConstJump {
                        slot,
                        cmp,
                        when,
                        value,
                        target,
                    } => {
                        let a = self.locals[locals_base + slot as usize];
                        pc = if cmp.holds(a, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc + 3
                        };
                    }
                    Ins::LocalZoneSize { slot, family } => {
                        let index = self.locals[locals_base + slot as usize];
                        match self.zone_size(def, family, index) {
                            Some(size) => self.stack.push(size),
                            None => {
                                // Point at the `ZoneOf`, the second op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.off_board(def));
                            }
                        }
                        pc += 2;
                    }
                    Ins::ZoneOfLocal { slot, family, to } => {
                        let index = self.locals[locals_base + slot as usize];
                        match self.zone_of(def, family, index) {
                            Some(zone) => self.locals[locals_base + to as usize] = zone as i64,
                            None => {
                                // Point at the `ZoneOf`, the second op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.off_board(def));
                            }
                        }
                        pc += 2;
                    }
                    Ins::ZoneSize(family) => {
                        let index = self.pop();
                        match self.zone_size(def, family, index) {
                            Some(size) => self.stack.push(size),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                return Err(self.off_board(def));
                            }
                        }
                        pc += 1;
                    }
                    Ins::Count(m) => {
                        let zone = self.pop_zone();
                        let n = self.count_matching(def, zone as usize, m);
                        self.stack.push(n);
                    }
                    Ins::Attr(attr) => {
                        let value = self.pop();
                        match self.attribute(def, attr, value) {
                            Some(v) => self.stack.push(v),
                            None => {
                                self.frames.last_mut().expect("frame").pc = pc as u32;
                                let what = if attr == Attr::Kind { "kind" } else { "owner" };
                                return Err(self.error(
                                    def,
                                    Code::MissingAttribute,
                                    format!("this piece has no {what}"),
                                ));
                            }
                        }
                    }
                    Ins::Table(table) => {
                        let n = self.pop();
                        self.stack.push(table_entry(&def.tables[table as usize], n));
                    }
                    Ins::CountInLocalZone { slot, family, matcher } => {
                        let index = self.locals[locals_base + slot as usize];
                        let Some(zone) = self.zone_of(def, family, index) else {
                            // Point at the `ZoneOf`, the second op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        let n = self.count_matching(def, zone, matcher);
                        self.stack.push(n);
                        pc += 2;
                    }
                    Ins::CountInGame(m) => {
                        let n = self.count_in_game(def, m);
                        self.stack.push(n);
                    }
                    Ins::Return => {
                        self.leave(def);
                        break;
                    }
                    Ins::CountOnBoard { board, matcher } => {
                        let (key, owner) = self.pop_matcher(matcher);
                        let n = self.count_on_board(def, board, matcher, key, owner);
                        self.stack.push(n);
                    }
                    Ins::LoadLoadArith { a, b, arith } => {
                        let x = self.locals[locals_base + a as usize];
                        let y = self.locals[locals_base + b as usize];
                        match arith.apply(x, y) {
                            Some(v) => self.stack.push(v),
                            None => {
                                // Point at the arithmetic, the third op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                                return Err(self.arithmetic_error(def, arith.op(), x, y));
                            }
                        }
                        pc += 2;
                    }
                    Ins::ArithConstStore { arith, value, slot } => {
                        let a = self.pop();
                        match arith.apply(a, i64::from(value)) {
                            Some(v) => self.locals[locals_base + slot as usize] = v,
                            None => {
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.arithmetic_error(def, arith.op(), a, i64::from(value)));
                            }
                        }
                        pc += 2;
                    }
                    Ins::StepLocal {
                        board,
                        space,
                        direction,
                        to,
                    } => {
                        let space = self.locals[locals_base + space as usize];
                        let direction = self.locals[locals_base + direction as usize];
                        self.locals[locals_base + to as usize] =
                            def.program.steps[board as usize].step(space, direction);
                        pc += 3;
                    }
                    Ins::StepLocalJump {
                        board,
                        space,
                        direction,
                        to,
                        off_board,
                    } => {
                        let space = self.locals[locals_base + space as usize];
                        let direction = self.locals[locals_base + direction as usize];
                        let there = def.program.steps[board as usize].step(space, direction);
                        self.locals[locals_base + to as usize] = there;
                        pc = if there == NO_SPACE { off_board as usize } else { pc + 7 };
                    }
                    Ins::ArithChainStore { a, b, c, d, ops, to } => {
                        let mut v = self.locals[locals_base + a as usize];
                        let operands = [self.locals[locals_base + b as usize], i64::from(c), i64::from(d)];
                        for (k, (arith, operand)) in ops.into_iter().zip(operands).enumerate() {
                            match arith.apply(v, operand) {
                                Some(result) => v = result,
                                None => {
                                    // Point at this arithmetic: the run's third, fifth or seventh op.
                                    self.frames.last_mut().expect("frame").pc = (pc + 2 + 2 * k) as u32;
                                    return Err(self.arithmetic_error(def, arith.op(), v, operand));
                                }
                            }
                        }
                        self.locals[locals_base + to as usize] = v;
                        pc += 7;
                    }
                    Ins::SpaceOfLocal { board, piece, to } => {
                        let piece = ChoiceValue::from_raw(self.locals[locals_base + piece as usize]).piece_id();
                        match self.space_of(def, board, piece) {
                            Some(space) => self.locals[locals_base + to as usize] = space,
                            None => {
                                // Point at the `SpaceOf`, the second op of the run.
                                self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                                return Err(self.not_on_board(def, board, piece));
                            }
                        }
                        pc += 2;
                    }
                    Ins::OfferAction { offer, len } => {
                        let offer = &def.program.offers[offer as usize];
                        let mut params = [0; MAX_OFFER_PARAMS];
                        for (param, &slot) in params.iter_mut().zip(&offer.params) {
                            *param = self.locals[locals_base + slot as usize];
                        }
                        let ChoiceKind::Actions(actions) = &def.decisions[offer.decision as usize].kind else {
                            unreachable!("the checker gives action values to action decisions")
                        };
                        match ChoiceValue::action(actions, offer.entry as usize, &params[..offer.params.len()]) {
                            Some(value) => {
                                let seat = self.locals[locals_base + offer.seat as usize];
                                self.offers[seat as usize].push(value.raw());
                            }
                            None => {
                                // Point at the `ActionValue`, the run's last op but one.
                                self.frames.last_mut().expect("frame").pc = (pc + len as usize - 2) as u32;
                                return Err(self.bad_action(def));
                            }
                        }
                        pc += len as usize - 1;
                    }
                    Ins::AddJumpLocalCmp {
                        slot,
                        add,
                        cmp,
                        when,
                        value,
                        target,
                        back,
                    } => {
                        let at = locals_base + slot as usize;
                        let a = self.locals[at];
                        let Some(v) = a.checked_add(i64::from(add)) else {
                            // Point at the `Add`, the third op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 2) as u32;
                            return Err(self.arithmetic_error(def, Op::Add, a, i64::from(add)));
                        };
                        self.locals[at] = v;
                        // Then the jump back, four ops on, as `JumpLocalCmp` runs it.
                        let jumped = pc + 4;
                        self.count_round(def, jumped)?;
                        pc = if cmp.holds(v, i64::from(value)) == when {
                            target as usize
                        } else {
                            jumped - 1 - back as usize + 4
                        };
                    }
                    Ins::EnterPieces {
                        slot,
                        family,
                        zone,
                        index,
                        value,
                        filter,
                        exit_after,
                    } => {
                        let space = self.locals[locals_base + slot as usize];
                        let Some(kept) = self.zone_of(def, family, space) else {
                            // Point at the `ZoneOf`, the second op of the run.
                            self.frames.last_mut().expect("frame").pc = (pc + 1) as u32;
                            return Err(self.off_board(def));
                        };
                        self.locals[locals_base + zone as usize] = kept as i64;
                        self.locals[locals_base + index as usize] = -1;
                        // The step is the sixth op, at `pc + 4`; its body follows it.
                        pc = if self.next_piece(def, locals_base, zone, index, value, filter) {
                            pc + 5
                        } else {
                            pc + 4 + exit_after as usize
                        };
                    }
                    Ins::JumpCellTest { test, back } => {
                        self.count_round(def, pc)?;
                        let head = pc - 1 - back as usize;
                        let cell = &def.program.cell_tests[test as usize];
                        pc = match self.cell_zone_size(def, cell, locals_base) {
                            Some(size) if cell.cmp.holds(size, cell.value) == cell.when => cell.target as usize,
                            Some(_) => head + 8,
                            // Off the board: the test itself says so.
                            None => head,
                        };
                    }
                    Ins::JumpNextPiece {
                        zone,
                        index,
                        value,
                        filter,
                        back,
                        exit,
                    } => {
                        self.count_round(def, pc)?;
                        pc = if self.next_piece(def, locals_base, zone, index, value, filter) {
                            pc - back as usize
                        } else {
                            exit as usize
                        };
                    }
                    Ins::JumpNextOnBoard {
                        board,
                        cursor,
                        value,
                        filter,
                        back,
                        exit,
                    } => {
                        self.count_round(def, pc)?;
                        pc = if self.next_on_board(def, locals_base, board, cursor, value, filter) {
                            pc - back as usize
                        } else {
                            exit as usize
                        };
                    }
                    Ins::OfferLocal { seat, value } => {
                        let seat = self.locals[locals_base + seat as usize];
                        self.offers[seat as usize].push(self.locals[locals_base + value as usize]);
                        pc += 2;
                    }
                    Ins::JumpLocalCmp {
                        slot,
                        cmp,
                        when,
                        value,
                        target,
                        back,
                    } => {
                        self.count_round(def, pc)?;
                        let a = self.locals[locals_base + slot as usize];
                        // The test is four ops long, from `back` ops before the jump.
                        pc = if cmp.holds(a, i64::from(value)) == when {
                            target as usize
                        } else {
                            pc - 1 - back as usize + 4
                        };
                    }
                    Ins::Slow => {
                        let op = def.code[pc - 1];
                        self.frames.last_mut().expect("frame").pc = pc as u32;
                        if self.step(def, events, op, (pc - 1) as u32, stop_depth)? == Flow::Reload {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Runs one op that the inner loop of [`State::exec`] does not: the
    /// frame's counter already points past it. Returns [`Flow::Reload`]
    /// when the op may have changed the frames or the status.
    fn step(
        &mut self,
        def: &Game,
        events: &mut Vec<Event>,
        op: Op,
        pc: u32,
        stop_depth: usize,
    ) -> Result<Flow, RuntimeError> {
        match op {
            Op::StoreVar(slot) => {
                let v = self.pop();
                self.vars[slot as usize] = v;
                if let Some(var) = def.vars.iter().position(|d| d.slot == slot) {
                    events.push(Event::Var {
                        var: id_from_index(var),
                        seat: None,
                        value: v,
                    });
                }
            }
            Op::StoreVarAt(base) => {
                let seat = self.pop();
                let v = self.pop();
                self.vars[base as usize + seat as usize] = v;
                if let Some(var) = def.vars.iter().position(|d| d.slot == base) {
                    events.push(Event::Var {
                        var: id_from_index(var),
                        seat: Some(seat as Seat),
                        value: v,
                    });
                }
            }
            Op::Call(proc) => {
                self.count_step(def)?;
                self.enter(def, proc, stop_depth)?;
                return Ok(Flow::Reload);
            }
            Op::CallHook(site) => {
                let argc = def.hook_calls[site as usize].args.len();
                let args = self.stack.split_off(self.stack.len() - argc);
                let script = def.script.as_ref().expect("a game with hook calls has a script");
                let value = script.call(
                    def,
                    site,
                    &args,
                    &self.face,
                    &self.piece_zone,
                    &self.vars,
                    &self.options,
                )?;
                events.push(Event::Hook {
                    hook: def.hook_calls[site as usize].hook,
                    value,
                });
                self.stack.push(value);
            }
            Op::Top | Op::Bottom => {
                let zone = self.pop_zone();
                let piece = self.top_piece(def, zone, op == Op::Bottom)?;
                self.stack.push(piece as i64);
            }
            Op::First(m) => {
                let zone = self.pop_zone();
                let (key, owner) = self.pop_matcher(m);
                let found = self.zones[zone as usize]
                    .iter()
                    .rev()
                    .find(|&&p| self.matches(def, m, p, key, owner));
                match found {
                    Some(&p) => self.stack.push(p as i64),
                    None => {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::NoSuchPiece,
                                format!("`{}` holds no such piece", def.zone_name(zone)),
                            )
                            .label(self.span(def), "nothing to take here"),
                        ));
                    }
                }
            }
            Op::HasOffers(decision) => {
                let seat = self.pop();
                let any = !self.offers[seat as usize].is_empty();
                if !any {
                    events.push(Event::NoChoice {
                        seat: seat as Seat,
                        decision,
                    });
                }
                self.stack.push(i64::from(any));
            }
            Op::Matches(m) => {
                let piece = self.pop_piece();
                let (key, owner) = self.pop_matcher(m);
                let r = self.matches(def, m, piece, key, owner);
                self.stack.push(i64::from(r));
            }
            Op::Lines { board, family, matcher } => {
                let (key, owner) = self.pop_matcher(matcher);
                let full = self.full_lines(def, board, family, matcher, key, owner);
                self.stack.push(full);
            }
            Op::SpaceOf(board) => {
                let piece = self.pop_piece();
                match self.space_of(def, board, piece) {
                    Some(space) => self.stack.push(space),
                    None => return Err(self.not_on_board(def, board, piece)),
                }
            }
            Op::SpaceIn { first, len } => {
                let i = self.pop();
                if !(0..len as i64).contains(&i) {
                    return Err(self.error(
                        def,
                        Code::NoSuchSpace,
                        format!("there is no space {i} here: the spaces are 0 to {}", len as i64 - 1),
                    ));
                }
                self.stack.push(first as i64 + i);
            }
            Op::Coordinate { board, column } => {
                let space = self.pop();
                let b = &def.boards[board as usize];
                if !(0..b.spaces() as i64).contains(&space) {
                    return Err(self.off_board(def));
                }
                let (r, c) = b.coordinates(crate::ir::id_from_value(space));
                self.stack.push(if column { c } else { r });
            }
            Op::LongestRun { board, family, matcher } => {
                let (key, owner) = self.pop_matcher(matcher);
                let grid = &def.boards[board as usize];
                let run = match &def.program.run_bits[board as usize] {
                    Some(bit) => {
                        let bits = self.held_bits(def, family, matcher, key, owner, |space| {
                            bit.get(usize::from(space)).copied()
                        });
                        Board::longest_run_of_bits(bits, usize::from(grid.cols) + 1)
                    }
                    None => {
                        let family = &def.families[family as usize];
                        let zones = family.first as usize..(family.first + family.len) as usize;
                        grid.longest_run_of(
                            self.zones
                                .of_zones(zones)
                                .iter()
                                .filter(|&&p| self.matches_inlined(def, matcher, p, key, owner))
                                .map(|&p| self.piece_zone[p as usize] - family.first),
                        )
                    }
                };
                self.stack.push(run);
            }
            Op::ActionValue { decision, entry } => {
                let ChoiceKind::Actions(actions) = &def.decisions[decision as usize].kind else {
                    unreachable!("the checker gives action values to action decisions")
                };
                let n = actions[entry as usize].params.len();
                let at = self.stack.len() - n;
                let value = ChoiceValue::action(actions, entry as usize, &self.stack[at..]);
                self.stack.truncate(at);
                match value {
                    Some(v) => self.stack.push(v.raw()),
                    None => return Err(self.bad_action(def)),
                }
            }
            Op::Move => {
                let zone = self.pop_zone();
                let piece = self.pop_piece();
                self.place(def, piece, zone, events);
            }
            Op::MoveAll => {
                let to = self.pop_zone();
                let from = self.pop_zone();
                while let Some(&piece) = self.zones[from as usize].last() {
                    self.place(def, piece, to, events);
                }
            }
            Op::Deal => {
                let to = self.pop_zone();
                let from = self.pop_zone();
                let n = self.pop();
                let available = self.zones.len(from as usize) as i64;
                if n > available {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::EmptyZone,
                            format!("cannot deal {n} from `{}`: only {available} left", def.zone_name(from)),
                        )
                        .label(self.span(def), "dealt here")
                        .help("check `size of` the zone first, or decide what happens when it runs out"),
                    ));
                }
                for _ in 0..n {
                    let piece = *self.zones[from as usize].last().expect("counted above");
                    self.place(def, piece, to, events);
                }
            }
            Op::Shuffle => {
                let zone = self.pop_zone();
                self.shuffle(def, zone, events)?;
            }
            Op::Reveal { to_one } => {
                let mask = if to_one {
                    1u32 << self.pop()
                } else {
                    def.all_seats_mask()
                };
                let piece = self.pop_piece();
                self.known[piece as usize] |= mask;
                events.push(Event::Reveal {
                    piece,
                    value: self.die_value(def, piece),
                    to: mask,
                    seen_by: self.known[piece as usize],
                });
            }
            Op::Win => {
                let seat = self.pop() as Seat;
                let reason = match self.running_trigger(def) {
                    Some(t) => EndReason::Trigger(t),
                    None if self.in_result_section(def) => EndReason::TieBreak(self.span(def)),
                    None => EndReason::Win(self.span(def)),
                };
                self.end_game(Some(seat), reason, events);
                return Ok(Flow::Reload);
            }
            Op::Hide => {
                let piece = self.pop_piece();
                events.push(Event::Hide {
                    piece,
                    seen_by: self.known[piece as usize],
                });
            }
            Op::DeclareDraw(reason) => {
                let trigger = self.running_trigger(def);
                if trigger.is_none() && !self.triggers_checked {
                    // The last action may have won the game: triggers
                    // look at it before the flow calls it a draw.
                    self.frames.last_mut().expect("frame").pc = pc;
                    self.triggers_checked = true;
                    self.run_triggers(def, events)?;
                    return Ok(Flow::Reload);
                }
                let reason = match trigger {
                    Some(t) => EndReason::Trigger(t),
                    None => EndReason::Draw(self.span(def), reason),
                };
                self.end_game(None, reason, events);
                return Ok(Flow::Reload);
            }
            Op::EndGame => {
                // Leave every procedure and go to scoring.
                let main = &self.frames[0];
                self.stack.truncate(main.stack_base as usize);
                self.locals
                    .truncate(main.locals_base as usize + def.procs[def.main as usize].locals as usize);
                self.frames.truncate(1);
                self.frames[0].pc = def.result_pc;
                return Ok(Flow::Reload);
            }
            Op::ChoiceReset => {
                self.offer_pc = pc;
                for offers in &mut self.offers {
                    offers.clear();
                }
            }
            Op::Ask(decision) | Op::AskEach(decision, _) => {
                // Triggers see the state every decision is made in.
                if self.run_triggers_before(def, pc, events)? == Flow::Reload {
                    return Ok(Flow::Reload);
                }
                let (who, each_base) = match op {
                    Op::Ask(_) => (Seats::one(self.pop() as Seat), None),
                    Op::AskEach(_, base) => (Seats::all(def.players()), Some(base)),
                    _ => unreachable!(),
                };
                self.dedupe_offers(def, decision);
                if let Some(&empty) = who.iter().find(|&&s| self.offers[s as usize].is_empty()) {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::NothingToChoose,
                            format!("{} has nothing to choose from", def.seat_name(empty)),
                        )
                        .label(def.decisions[decision as usize].span, "asked here")
                        .help("a decision needs at least one choice; check the condition or the zone first"),
                    ));
                }
                self.offer_anytime(def, &who, events)?;
                self.status = Status::Waiting(Ask {
                    decision,
                    who,
                    each_base,
                    offer_pc: self.offer_pc,
                });
                return Ok(Flow::Reload);
            }
            Op::Rank => {
                if self.run_triggers_before(def, pc, events)? == Flow::Reload {
                    return Ok(Flow::Reload);
                }
                self.rank(def, events)?;
                return Ok(Flow::Reload);
            }
            Op::OptionTable(option) => {
                let n = self.pop();
                self.stack.push(table_entry(&self.lists[option as usize], n));
            }
            Op::ResumeAsk => {
                let frame = self.frames.pop().expect("frame");
                self.stack.truncate(frame.stack_base as usize);
                self.locals.truncate(frame.locals_base as usize);
                let Some(ask) = self.interrupted.pop() else {
                    return Err(self.error(
                        def,
                        Code::RuntimeError,
                        "an anytime action ended outside a decision".into(),
                    ));
                };
                // Ask the interrupted decision again, building its offers
                // afresh: the action may have changed what is legal, and
                // the anytime actions are offered again. Its triggers ran.
                self.frames.last_mut().expect("the asking frame").pc = ask.offer_pc;
                self.triggers_checked = true;
                return Ok(Flow::Reload);
            }
            Op::Roll => {
                let piece = self.pop_piece();
                self.roll(def, piece, events)?;
            }
            Op::RollAll => {
                let zone = self.pop_zone();
                self.roll_all(def, zone, events)?;
            }
            Op::Fail(message) => {
                return Err(self.error(def, Code::RuntimeError, def.messages[message as usize].clone()));
            }
            Op::Push(_)
            | Op::Pop
            | Op::Dup
            | Op::Load(_)
            | Op::Store(_)
            | Op::LoadAt(_)
            | Op::LoadVar(_)
            | Op::LoadVarAt(_)
            | Op::LoadOption(_)
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Rem
            | Op::Eq
            | Op::Ne
            | Op::Lt
            | Op::Le
            | Op::Gt
            | Op::Ge
            | Op::Not
            | Op::Neg
            | Op::Opponent
            | Op::NextSeat
            | Op::Jump(_)
            | Op::JumpIfFalse(_)
            | Op::JumpIfTrue(_)
            | Op::Next { .. }
            | Op::NextPiece { .. }
            | Op::NextOnBoard { .. }
            | Op::NextNeighbour { .. }
            | Op::ChoiceAdd
            | Op::ZoneOf(_)
            | Op::CellAt(_)
            | Op::Step(_)
            | Op::Forward { .. }
            | Op::ActionEntry(_)
            | Op::ActionParam { .. }
            | Op::KindAt(_)
            | Op::TypeAt(_)
            | Op::Beats
            | Op::Size
            | Op::Count(_)
            | Op::CountOnBoard { .. }
            | Op::CountInGame(_)
            | Op::Attr(_)
            | Op::Table(_)
            | Op::Return => unreachable!("the inner loop of `exec` runs {op:?}"),
        }
        Ok(Flow::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Choice;

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

    /// Counting a board piece by piece gives what counting it zone by zone
    /// gives, for every matcher, all through a game.
    #[test]
    fn counting_by_pieces_agrees_with_counting_by_zones() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/ring_guards.rules");
        let mut game = crate::check::check_file(&path, &crate::check::FsLoader)
            .expect("the game checks")
            .def;
        assert!(matches!(game.program.counts[0], BoardCount::ByPieces(_)));
        let mut other = BoardCount::ByZones;
        std::mem::swap(&mut game.program.counts[0], &mut other);
        let mut events = vec![];
        let options = game.def.default_options();
        let mut state = State::start(&game, &options, 11, vec![], &mut events).expect("the game starts");
        let types = game.def.pieces.iter().map(|p| p.ty).max().expect("pieces") as i64;
        let matchers = [
            (MatchBy::Any, false),
            (MatchBy::Any, true),
            (MatchBy::TypeOnStack, true),
            (MatchBy::KindOnStack, true),
            (MatchBy::KindOnStack, false),
        ];
        let mut counted_some = false;
        for turn in 0..120 {
            for (by, owner) in matchers {
                for key in -1..=types.max(3) {
                    for seat in 0..2 {
                        let matcher = Matcher { by, owner };
                        let zones = state.count_on_board(&game, 0, matcher, key, seat);
                        std::mem::swap(&mut game.program.counts[0], &mut other);
                        let pieces = state.count_on_board(&game, 0, matcher, key, seat);
                        std::mem::swap(&mut game.program.counts[0], &mut other);
                        assert_eq!(zones, pieces, "turn {turn}: {matcher:?} {key} {seat}");
                        counted_some |= pieces > 0;
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
            state.apply(&game, &choices, &mut events).expect("a legal move");
        }
        assert!(counted_some, "the board held matching pieces");
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
}
