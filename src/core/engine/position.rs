//! Public positions: where every seat knows everything, the past stops
//! mattering.
//!
//! A position waiting for a decision in which every seat knows every piece
//! (variables and options are public), in a game where nothing is ever
//! hidden but for the moment of a simultaneous choice (no hidden zone, no
//! hidden kind, no secret decision: else the flow's own values could hold
//! what a seat never saw, such as a card's place before it was revealed),
//! is the root of a subgame that every seat sees whole: what happens from it depends on the position alone, not
//! on how play got there. So a solver, and the strategies it saves, may key a
//! seat's information there by the position itself instead of by everything
//! the seat has seen. That merges, losslessly, a position reached by two
//! orders of moves (a transposition) and a position that comes round again
//! (a tied throw thrown again): the second is the first, and a game whose
//! ties repeat forever has a finite game graph.
//!
//! The digest reads everything the flow's future depends on: the zones in
//! order, each piece's face and who knows it, variables, options, list
//! options, dice, the flow's stack, locals and frames, and the decision
//! asked. It leaves out what only guards or speeds the run (the counts of
//! decisions and loop rounds, which triggers are known to be quiet), the
//! chance source, and the slots where a simultaneous decision is about to
//! store each seat's answer: the answer overwrites them before anything
//! reads them, and they hold the answers of the last time round.

use super::state::{Ask, Frame, Status};
use super::{Memory, Recall, State, mix};
use crate::ir::{GameDef, Seat};

/// A tag mixed first, so a position's digest never equals a seat's recall
/// built from views.
const POSITION_TAG: u64 = 0x504F_5349_5449_4F4E;

/// The same for a position as one seat sees it ([`State::searched_position`]).
const SEARCH_TAG: u64 = 0x5345_4152_4348_4544;

impl State {
    /// The position's digest when it is public: a game of open
    /// information (`GameDef::open_information`) waits for a decision and
    /// every seat knows every piece. `None` elsewhere.
    pub fn public_position(&self, def: &GameDef) -> Option<u64> {
        if !def.open_information {
            return None;
        }
        let Status::Waiting(ask) = &self.status else {
            return None;
        };
        // Pieces in the box (family 0) are out of the game.
        let everyone = def.all_seats_mask();
        let box_zone = def.families[0].first;
        let unknown = |(&known, &zone): (&u32, &crate::ir::ZoneId)| zone != box_zone && known & everyone != everyone;
        if self.known.iter().zip(&self.piece_zone).any(unknown) {
            return None;
        }
        let mut h = mix(POSITION_TAG, def.zones.len() as u64);
        for zone in def.zone_ids() {
            h = mix(h, u64::MAX);
            for piece in self.zone(zone) {
                h = mix(h, u64::from(piece));
                h = mix(h, u64::from(self.face[piece as usize]));
            }
        }
        for &v in self.vars.iter().chain(&self.options).chain(&self.rolled) {
            h = mix(h, v as u64);
        }
        for list in &self.lists {
            h = mix(h, list.len() as u64);
            for &v in list {
                h = mix(h, v as u64);
            }
        }
        h = self.control_digest(def, ask, h);
        for offer in &self.offers {
            h = mix(h, offer.len() as u64);
            for &v in offer {
                h = mix(h, v as u64);
            }
        }
        Some(h)
    }

    /// `h` mixed with where the flow stands: its stack, its locals (but
    /// the slots a simultaneous decision is about to answer into), its
    /// frames and the decisions asked or interrupted. Not what is offered.
    fn control_digest(&self, def: &GameDef, ask: &Ask, mut h: u64) -> u64 {
        h = mix(h, self.stack.len() as u64);
        for &v in &self.stack {
            h = mix(h, v as u64);
        }
        // Pcs and locals as the program `check` wrote has them: a frame's
        // own locals, not those of the procedures the compiled tier
        // inlined into it (which hold nothing while anyone is asked), so
        // that both back ends name a position alike.
        // (Read from the definition per frame, not gathered first: a
        // search keys a position this way at every new step.)
        let answers = answer_slots(def, ask, &self.frames);
        let own_locals = |frame: &Frame| def.plain_locals(frame.proc);
        h = mix(h, self.frames.iter().map(own_locals).sum::<usize>() as u64);
        for frame in &self.frames {
            let own = own_locals(frame);
            let base = frame.locals_base as usize;
            for at in base..(base + own).min(self.locals.len()) {
                if !answers.contains(&at) {
                    h = mix(h, self.locals[at] as u64);
                }
            }
        }
        let mut plain_base = 0;
        for frame in &self.frames {
            let own = own_locals(frame);
            h = mix(h, u64::from(def.plain_pc(frame.pc)));
            h = mix(h, u64::from(frame.proc));
            h = mix(h, plain_base as u64);
            h = mix(h, u64::from(frame.stack_base));
            plain_base += own;
        }
        for ask in std::iter::once(ask).chain(&self.interrupted) {
            h = mix(h, u64::from(ask.decision));
            h = mix(h, u64::from(def.plain_pc(ask.offer_pc)));
            for &seat in ask.who.iter() {
                h = mix(h, u64::from(seat));
            }
        }
        h
    }

    /// The position as `seat` sees it, for a search that merges what it
    /// meets twice (`mcts:transpose`): the seat's view (pieces it knows by
    /// face, the rest by their backs; variables and options), dice, and
    /// where the flow stands. What other seats are offered is left out:
    /// it may hang on what the seat cannot see, and the search keys each
    /// move as the seat sees it anyway. Imperfect recall: two positions
    /// the seat could tell apart only by remembering are one.
    pub fn searched_position(&self, def: &GameDef, seat: Seat) -> u64 {
        let mut h = mix(SEARCH_TAG, self.view_fingerprint(def, seat));
        for &v in &self.rolled {
            h = mix(h, v as u64);
        }
        match &self.status {
            Status::Waiting(ask) => self.control_digest(def, ask, h),
            _ => mix(h, u64::MAX),
        }
    }

    /// What `seat` recalls here, after recalling `before`, kept as
    /// `memory` says: at a glance, its glance; else the position itself
    /// where it is public, else `before` and the seat's view now.
    pub fn recall_here(&self, def: &GameDef, seat: Seat, before: Recall, memory: Memory) -> Recall {
        if memory == Memory::Glance {
            return before.after_seeing(self.glance_fingerprint(def, seat), memory);
        }
        match self.public_position(def) {
            Some(position) => Recall::of_position(position),
            None => before.after_seeing(self.view_fingerprint(def, seat), memory),
        }
    }
}

/// The locals a simultaneous decision's answers (and reaction times) are
/// about to be written to.
fn answer_slots(def: &GameDef, ask: &Ask, frames: &[Frame]) -> std::ops::Range<usize> {
    match (ask.each_base, frames.last()) {
        (Some(base), Some(frame)) => {
            let start = frame.locals_base as usize + base as usize;
            let per = if def.decisions[ask.decision as usize].race {
                2
            } else {
                1
            };
            start..start + per * def.players()
        }
        _ => 0..0,
    }
}
