//! The slow path: the ops the inner loop of `exec` hands over, one match
//! over them. They move pieces, call procedures and hooks, ask, end the game
//! and read boards in ways too rare or too large for an instruction of
//! their own. (One match, not a dispatch to each family's function: the
//! second match measured a few percent slower on random playouts.)

use super::super::Game;
use super::super::events::{EndReason, Event};
use super::super::state::{Ask, Seats, Status};
use super::super::{RuntimeError, State};
use super::flow::Flow;
use super::table_entry;
use crate::diagnostic::{Code, Diagnostic};
use crate::ir::{Board, ChoiceKind, ChoiceValue, Op, Seat, id_from_value};

impl State {
    /// Runs one op that the inner loop of [`State::exec`] does not: the
    /// frame's counter already points past it. Returns [`Flow::Reload`]
    /// when the op may have changed the frames or the status.
    pub(super) fn step(
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
                self.store_var(def, slot, v, events);
            }
            Op::StoreVarAt(base) => {
                let index = self.pop();
                let v = self.pop();
                if !self.store_var_at(def, base, index, v, events) {
                    return Err(self.no_var_value(def, base));
                }
            }
            Op::Inlined(_) => self.count_step(def)?,
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
            Op::Chain {
                board,
                family,
                matcher,
                from,
                to,
            } => {
                let (key, owner) = self.pop_matcher(matcher);
                let joins = self.chain_joins(def, board, family, matcher, key, owner, (from, to));
                self.stack.push(i64::from(joins));
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
            Op::SwapZones => {
                let b = self.pop_zone();
                let a = self.pop_zone();
                if a != b {
                    // Bottom first, so each stack keeps its order on the other zone.
                    let from_a = self.zones[a as usize].to_vec();
                    let from_b = self.zones[b as usize].to_vec();
                    for piece in from_a {
                        self.place(def, piece, b, events);
                    }
                    for piece in from_b {
                        self.place(def, piece, a, events);
                    }
                }
            }
            Op::Deal => {
                let to = self.pop_zone();
                let from = self.pop_zone();
                let n = self.pop();
                let available = self.zones.len(from as usize) as i64;
                if n < 0 {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::NegativeCount,
                            format!("cannot deal {n} from `{}`: a count below zero", def.zone_name(from)),
                        )
                        .label(self.span(def), "dealt here")
                        .help("deal 0 or more pieces; check how the count is computed"),
                    ));
                }
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
            Op::Win(because) => {
                let seat = self.pop() as Seat;
                let reason = match self.running_trigger(def) {
                    Some(t) => EndReason::Trigger(t, because),
                    None if self.in_result_section(def) => EndReason::TieBreak(self.span(def), because),
                    None => EndReason::Win(self.span(def), because),
                };
                self.end_game(Some(seat), reason, events);
                return Ok(Flow::Reload);
            }
            Op::Say(line) => {
                let said = &def.says[line as usize];
                let to = match said.to_one {
                    true => 1u32 << self.pop(),
                    false => def.all_seats_mask(),
                };
                let mut values = vec![(0, 0); said.values.len()];
                for (slot, kind) in values.iter_mut().zip(&said.values).rev() {
                    let value = self.pop();
                    let knowers = match kind {
                        // A piece chosen "as" a kind carries the kind above its id.
                        ChoiceKind::Piece => self.known.get(usize::from(id_from_value(value))).copied().unwrap_or(0),
                        _ => def.all_seats_mask(),
                    };
                    *slot = (value, knowers);
                }
                events.push(Event::Said { line, values, to });
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
                    Some(t) => EndReason::Trigger(t, reason),
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
            // A list holds at most a few thousand items.
            Op::OptionLength(option) => self.stack.push(self.lists[option as usize].len() as i64),
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
            // `Op::facts` says the inner loop of `exec` runs the others, and
            // lowers them to instructions of their own (a test holds the two alike).
            _ => unreachable!("the inner loop of `exec` runs {op:?}"),
        }
        Ok(Flow::Continue)
    }
}
