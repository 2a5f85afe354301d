//! The end of a game: a win or a draw recorded, score terms read, and
//! the seats ranked by the result's keys.

use super::super::events::{EndReason, Event};
use super::super::state::{MAX_STEPS_BETWEEN_DECISIONS, Status};
use super::super::{Game, Outcome, RuntimeError, State};
use crate::ir::{GameDef, KeyReads, MAX_PLAYERS, Seat, id_from_index};

impl State {
    pub(super) fn end_game(&mut self, winner: Option<Seat>, reason: EndReason, events: &mut Vec<Event>) {
        events.push(Event::End {
            winner,
            reason: reason.clone(),
        });
        self.status = Status::Over(Outcome { winner, reason });
    }

    /// Whether the flow has reached the result section (every result key
    /// tied, its `else` block runs), perhaps inside a procedure it called.
    pub(super) fn in_result_section(&self, def: &GameDef) -> bool {
        // The result section is compiled at the end of the main procedure,
        // from `result_pc` on; the bottom frame's counter is kept up to date.
        self.frames
            .first()
            .is_some_and(|main| main.proc == def.main && main.pc > def.result_pc)
    }

    /// Which trigger (if any) the current frame stack is running.
    pub(super) fn running_trigger(&self, def: &GameDef) -> Option<u16> {
        self.frames
            .iter()
            .rev()
            .find_map(|f| def.triggers.iter().position(|t| t.proc == f.proc).map(id_from_index))
    }

    /// One score term for one seat, or `None` when its `when` condition is off.
    pub(in crate::engine) fn term_points(
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

    pub(super) fn rank(&mut self, def: &Game, events: &mut Vec<Event>) -> Result<(), RuntimeError> {
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
    pub(super) fn assert_key_reads(
        &mut self,
        def: &Game,
        key: crate::ir::ProcId,
        seat: Seat,
        read: i64,
        events: &mut Vec<Event>,
    ) {
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
    pub(super) fn rank_by_keys(
        &mut self,
        def: &Game,
        events: &mut Vec<Event>,
        reuse_points: bool,
    ) -> Result<bool, RuntimeError> {
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
}
