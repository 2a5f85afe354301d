//! Pieces in compiled code: loops over a zone's or a board's pieces, and
//! the ops that read pieces (counting them, their attributes, a zone's top
//! or bottom piece), from the engine's buffers of pieces and faces and the
//! tables of piece definitions.

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I8, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};

use super::{FACE, Function, PIECE_ZONE, ZONE_PIECES, ZONE_STARTS, trusted};
use crate::ir::{Attr, MatchBy, Matcher, PIECE_RANGE, PieceFilter};

impl Function<'_, '_> {
    /// A loop step over pieces: the engine moves the loop's locals, and
    /// says whether a piece is left.
    pub(super) fn piece_loop(&mut self, pc: u32, exit: u32) {
        let next_pc = self.call_helper(pc, self.helpers.run_loop);
        let taken = self.b.ins().icmp_imm_s(IntCC::Equal, next_pc, i64::from(exit as i32));
        let (jump, next) = (self.block(exit), self.block(pc + 1));
        self.b.ins().brif(taken, jump, &[], next, &[]);
    }

    /// Whether a loop over `board`'s pieces with `filter` runs in compiled
    /// code: a board of one slot a space, and a filter by type (or none)
    /// and maybe owner. Others call the engine a step at a time.
    pub(super) fn scans_natively(&self, board: u16, filter: u16) -> bool {
        self.def.boards[board as usize].slots.len() == 1 && self.filters_natively(filter)
    }

    /// `NextOnBoard` as `State::next_on_board` does it on a board of one
    /// slot a space: from the cursor (zone on the board << 16 | place from
    /// the top), the next piece that passes the filter, an emptied space
    /// left at once for the next space holding a piece (found through the
    /// piece that begins it in the buffer, as `Zones::first_holding`).
    pub(super) fn board_scan(&mut self, pc: u32, board: u16, (cursor, value): (u16, u16), filter: u16, exit: u32) {
        let b = &self.def.boards[board as usize];
        let first = i64::from(self.def.families[b.slots[0] as usize].first);
        let end = first + i64::from(b.spaces());
        let filter = self.def.filters[filter as usize];
        let locals = self.b.use_var(self.locals);
        let cursor_at = i32::from(cursor) * 8;
        let [piece_here, skip, leap, test, onward, found] = self.blocks();
        let done = self.block(exit);
        // scan(at): the zone and the place the cursor names.
        let (scan, at) = self.scan_from(locals, cursor);
        let k = self.b.ins().sshr_imm_s(at, 16);
        let place = self.b.ins().band_imm_s(at, 0xFFFF);
        let zone = self.b.ins().iadd_imm_s(k, first);
        let on_board = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, zone, end);
        self.b.ins().brif(on_board, piece_here, &[], done, &[]);

        // Does the zone hold a piece at that place?
        self.b.switch_to_block(piece_here);
        let (starts, to, inside) = self.zone_holds(zone, place);
        self.b.ins().brif(inside, test, &[], skip, &[]);

        // No: the next zone holding a piece, if any is left on the board.
        self.b.switch_to_block(skip);
        let last = self.b.ins().uload32(trusted(), starts, (end * 4) as i32);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, to, last);
        self.b.ins().brif(more, leap, &[], done, &[]);
        self.b.switch_to_block(leap);
        let next_piece = self.piece_at(to);
        let piece_zone = self.piece_buffer(PIECE_ZONE);
        let offset = self.b.ins().ishl_imm_s(next_piece, 1);
        let slot = self.b.ins().iadd(piece_zone, offset);
        let next_zone = self.b.ins().uload16(I64, trusted(), slot, 0);
        let k = self.b.ins().iadd_imm_s(next_zone, -first);
        let next_at = self.b.ins().ishl_imm_s(k, 16);
        self.b.ins().jump(scan, &[BlockArg::Value(next_at)]);

        // Yes: the piece, counted from the top, and the filter's test.
        self.b.switch_to_block(test);
        let piece = self.piece_below_top(to, place);
        let passes = self.passes(piece, filter, locals);
        self.b.ins().brif(passes, found, &[], onward, &[]);
        self.b.switch_to_block(onward);
        let after = self.b.ins().iadd_imm_s(at, 1);
        self.b.ins().jump(scan, &[BlockArg::Value(after)]);

        self.b.switch_to_block(found);
        self.b.ins().store(trusted(), piece, locals, i32::from(value) * 8);
        self.b.ins().store(trusted(), at, locals, cursor_at);
        self.next(pc);
    }

    /// Whether `piece` passes a loop's filter (by type, or none, and maybe
    /// owner), its owner read from the locals.
    pub(super) fn passes(&mut self, piece: Value, filter: PieceFilter, locals: Value) -> Value {
        let owner = filter
            .matcher
            .owner
            .then(|| self.b.ins().load(I64, trusted(), locals, i32::from(filter.owner) * 8));
        self.piece_matches(piece, filter.matcher.by, None, owner)
            .expect("a loop's filter compiled natively is by type")
    }

    /// Whether `piece` is one that `by` (with the type or kind `key` from
    /// the stack) and `owner` take, as `State::matches` tests it: by the
    /// definition of the face it shows. `None` for a group, which the
    /// engine tests.
    fn piece_matches(&mut self, piece: Value, by: MatchBy, key: Option<Value>, owner: Option<Value>) -> Option<Value> {
        let offset = self.face_offset(piece);
        let mut passes = self.b.ins().iconst(I8, 1);
        match (by, key) {
            (MatchBy::Any, _) => {}
            (MatchBy::Type(ty), _) => {
                let its = {
                    let table = self.tables.piece_types(self.def);
                    self.piece_table_u16(table, offset)
                };
                passes = self.b.ins().icmp_imm_s(IntCC::Equal, its, i64::from(ty));
            }
            (MatchBy::TypeOnStack, Some(key)) => {
                let its = {
                    let table = self.tables.piece_types(self.def);
                    self.piece_table_u16(table, offset)
                };
                passes = self.b.ins().icmp(IntCC::Equal, its, key);
            }
            (MatchBy::KindOnStack, Some(key)) => {
                // A piece of no kind (-1) has none, whatever the key.
                let its = {
                    let table = self.tables.piece_kinds(self.def);
                    self.piece_table_i16(table, offset)
                };
                passes = self.same_and_some(its, key);
            }
            _ => return None,
        }
        if let Some(owner) = owner {
            // A piece of no one (-1) is nobody's, whatever the owner asked.
            let its = {
                let table = self.tables.piece_owners(self.def);
                self.piece_table_i16(table, offset)
            };
            let both = self.same_and_some(its, owner);
            passes = self.b.ins().band(passes, both);
        }
        Some(passes)
    }

    /// `its == wanted`, and `its` is not -1 (none).
    fn same_and_some(&mut self, its: Value, wanted: Value) -> Value {
        let same = self.b.ins().icmp(IntCC::Equal, its, wanted);
        let some = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, its, 0);
        self.b.ins().band(same, some)
    }

    /// The offset, in a table of 16-bit entries per piece definition, of
    /// the definition `piece` shows.
    fn face_offset(&mut self, piece: Value) -> Value {
        let faces = self.piece_buffer(FACE);
        let offset = self.b.ins().ishl_imm_s(piece, 1);
        let slot = self.b.ins().iadd(faces, offset);
        let face = self.b.ins().uload16(I64, trusted(), slot, 0);
        self.b.ins().ishl_imm_s(face, 1)
    }

    fn piece_table_u16(&mut self, table: *const u16, offset: Value) -> Value {
        let base = self.b.ins().iconst(I64, table as i64);
        let slot = self.b.ins().iadd(base, offset);
        self.b.ins().uload16(I64, trusted(), slot, 0)
    }

    fn piece_table_i16(&mut self, table: *const i16, offset: Value) -> Value {
        let base = self.b.ins().iconst(I64, table as i64);
        let slot = self.b.ins().iadd(base, offset);
        self.b.ins().sload16(I64, trusted(), slot, 0)
    }

    /// A zone's first and past-last places in the buffer of pieces, in a
    /// block reached only for a zone that exists; the engine runs the op
    /// for any other.
    fn zone_bounds(&mut self, pc: u32, depth: u32, zone: Value) -> (Value, Value) {
        let zones = self.def.zones.len() as i64;
        let known = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, zone, zones);
        let [valid, slow] = self.blocks();
        self.b.ins().brif(known, valid, &[], slow, &[]);
        self.b.switch_to_block(slow);
        self.hand_to_engine(pc, depth);
        self.b.switch_to_block(valid);
        let starts = self.piece_buffer(ZONE_STARTS);
        let offset = self.b.ins().ishl_imm_s(zone, 2);
        let entry = self.b.ins().iadd(starts, offset);
        let from = self.b.ins().uload32(trusted(), entry, 0);
        let to = self.b.ins().uload32(trusted(), entry, 4);
        (from, to)
    }

    /// The stack values a matcher reads below what it tests: `(key,
    /// owner)` and how many there are.
    fn matcher_args(&mut self, depth: u32, m: Matcher, above: u32) -> (Option<Value>, Option<Value>, u32) {
        let owner = m.owner.then(|| self.top(depth, above));
        let on_stack = matches!(m.by, MatchBy::TypeOnStack | MatchBy::KindOnStack);
        let key = on_stack.then(|| self.top(depth, above + u32::from(m.owner)));
        (key, owner, u32::from(m.owner) + u32::from(on_stack))
    }

    /// `Count`: the pieces of a zone the matcher takes, counted in the
    /// buffer of pieces (a group's test is the engine's).
    pub(super) fn count(&mut self, pc: u32, depth: u32, m: Matcher) {
        if matches!(m.by, MatchBy::Group(_)) {
            return self.hand_to_engine(pc, depth);
        }
        let zone = self.top(depth, 0);
        let (key, owner, args) = self.matcher_args(depth, m, 1);
        let (from, to) = self.zone_bounds(pc, depth, zone);
        let at = depth - 1 - args;
        if m.by == MatchBy::Any && owner.is_none() {
            let n = self.b.ins().isub(to, from);
            self.set(at, n);
            return self.next(pc);
        }
        let [head, body, done] = self.blocks();
        self.b.append_block_param(head, I64);
        self.b.append_block_param(head, I64);
        self.b.append_block_param(done, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(head, &[BlockArg::Value(from), BlockArg::Value(zero)]);
        self.b.switch_to_block(head);
        let (i, n) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
        let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, i, to);
        self.b.ins().brif(inside, body, &[], done, &[BlockArg::Value(n)]);
        self.b.switch_to_block(body);
        let piece = self.piece_at(i);
        let passes = self.piece_matches(piece, m.by, key, owner).expect("not a group");
        let one = self.b.ins().uextend(I64, passes);
        let n = self.b.ins().iadd(n, one);
        let i = self.b.ins().iadd_imm_s(i, 1);
        self.b.ins().jump(head, &[BlockArg::Value(i), BlockArg::Value(n)]);
        self.b.switch_to_block(done);
        let n = self.b.block_params(done)[0];
        self.set(at, n);
        self.next(pc);
    }

    /// `First`: the first piece of a zone from the top that the matcher
    /// takes; none (or a group's test) is the engine's, which fails (or
    /// tests) as the interpreter does.
    pub(super) fn first_piece(&mut self, pc: u32, depth: u32, m: Matcher) {
        if matches!(m.by, MatchBy::Group(_)) {
            return self.hand_to_engine(pc, depth);
        }
        let zone = self.top(depth, 0);
        let (key, owner, args) = self.matcher_args(depth, m, 1);
        let (from, to) = self.zone_bounds(pc, depth, zone);
        let [head, body, found, none] = self.blocks();
        // `past` is one past the place to test: the scan goes down from the top.
        self.b.append_block_param(head, I64);
        self.b.append_block_param(found, I64);
        self.b.ins().jump(head, &[BlockArg::Value(to)]);
        self.b.switch_to_block(head);
        let past = self.b.block_params(head)[0];
        let more = self.b.ins().icmp(IntCC::UnsignedGreaterThan, past, from);
        self.b.ins().brif(more, body, &[], none, &[]);
        self.b.switch_to_block(body);
        let i = self.b.ins().iadd_imm_s(past, -1);
        let piece = self.piece_at(i);
        let passes = self.piece_matches(piece, m.by, key, owner).expect("not a group");
        self.b
            .ins()
            .brif(passes, found, &[BlockArg::Value(piece)], head, &[BlockArg::Value(i)]);
        self.b.switch_to_block(found);
        let piece = self.b.block_params(found)[0];
        self.set(depth - 1 - args, piece);
        self.next(pc);
        self.b.switch_to_block(none);
        self.hand_to_engine(pc, depth);
    }

    /// `CountOnBoard`: the pieces the matcher takes in the board's slots.
    /// A family's zones lie next to each other in the buffer of pieces, so
    /// each slot family's pieces are tested in one slice: the work is what
    /// the board holds, not its size nor the game's pieces. A zone the
    /// board lists twice is counted twice, as the engine counts it; a
    /// group's test is the engine's.
    pub(super) fn count_on_board(&mut self, pc: u32, depth: u32, board: u16, m: Matcher) {
        if matches!(m.by, MatchBy::Group(_)) {
            return self.hand_to_engine(pc, depth);
        }
        let (key, owner, args) = self.matcher_args(depth, m, 0);
        let mut n = self.b.ins().iconst(I64, 0);
        for &family in &self.def.boards[board as usize].slots {
            let f = &self.def.families[family as usize];
            let (first, end) = (i32::from(f.first), i32::from(f.first + f.len));
            let starts = self.piece_buffer(ZONE_STARTS);
            let from = self.b.ins().uload32(trusted(), starts, first * 4);
            let to = self.b.ins().uload32(trusted(), starts, end * 4);
            let [head, body, done] = self.blocks();
            self.b.append_block_param(head, I64);
            self.b.append_block_param(head, I64);
            self.b.append_block_param(done, I64);
            self.b.ins().jump(head, &[BlockArg::Value(from), BlockArg::Value(n)]);
            self.b.switch_to_block(head);
            let (at, counted) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
            let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, to);
            self.b.ins().brif(more, body, &[], done, &[BlockArg::Value(counted)]);
            self.b.switch_to_block(body);
            let piece = self.piece_at(at);
            let passes = self.piece_matches(piece, m.by, key, owner).expect("not a group");
            let one = self.b.ins().uextend(I64, passes);
            let counted = self.b.ins().iadd(counted, one);
            let at = self.b.ins().iadd_imm_s(at, 1);
            self.b
                .ins()
                .jump(head, &[BlockArg::Value(at), BlockArg::Value(counted)]);
            self.b.switch_to_block(done);
            n = self.b.block_params(done)[0];
        }
        self.set(depth - args, n);
        self.next(pc);
    }

    /// `LongestRun` on a board that fits in 64 bits with a guard column
    /// (`Board::run_bits`): the spaces holding a piece the matcher takes,
    /// as bits, from the pieces on the board; then, per line (east, south,
    /// southeast, southwest), how many rounds of `held &= held >> shift`
    /// leave a bit, as `Board::longest_run_of_bits` works it out. A larger
    /// board, or a group's test, is the engine's.
    pub(super) fn longest_run(&mut self, pc: u32, depth: u32, (board, family): (u16, u16), m: Matcher) {
        let bits = self.tables.run_bits(self.def, board);
        let (Some((table, spaces)), false) = (bits, matches!(m.by, MatchBy::Group(_))) else {
            return self.hand_to_engine(pc, depth);
        };
        let width = i64::from(self.def.boards[board as usize].cols) + 1;
        let f = &self.def.families[family as usize];
        let (first, end) = (i32::from(f.first), i32::from(f.first + f.len));
        let spaces = spaces as i64;
        let (key, owner, args) = self.matcher_args(depth, m, 0);
        let starts = self.piece_buffer(ZONE_STARTS);
        let from = self.b.ins().uload32(trusted(), starts, first * 4);
        let to = self.b.ins().uload32(trusted(), starts, end * 4);
        let [head, body, done] = self.blocks();
        self.b.append_block_param(head, I64);
        self.b.append_block_param(head, I64);
        self.b.append_block_param(done, I64);
        let none = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(head, &[BlockArg::Value(from), BlockArg::Value(none)]);
        self.b.switch_to_block(head);
        let (at, held) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
        let more = self.b.ins().icmp(IntCC::UnsignedLessThan, at, to);
        self.b.ins().brif(more, body, &[], done, &[BlockArg::Value(held)]);
        // A piece's space is its zone's place in the family.
        self.b.switch_to_block(body);
        let piece = self.piece_at(at);
        let passes = self.piece_matches(piece, m.by, key, owner).expect("not a group");
        let piece_zone = self.piece_buffer(PIECE_ZONE);
        let offset = self.b.ins().ishl_imm_s(piece, 1);
        let slot = self.b.ins().iadd(piece_zone, offset);
        let zone = self.b.ins().uload16(I64, trusted(), slot, 0);
        let space = self.b.ins().iadd_imm_s(zone, -i64::from(first));
        let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, space, spaces);
        let space = self.clamp(inside, space);
        let bit = self.table_entry(table, space);
        let one = self.b.ins().iconst(I64, 1);
        let mask = self.b.ins().ishl(one, bit);
        let counts = self.b.ins().band(passes, inside);
        let mask = self.b.ins().select(counts, mask, none);
        let held = self.b.ins().bor(held, mask);
        let at = self.b.ins().iadd_imm_s(at, 1);
        self.b.ins().jump(head, &[BlockArg::Value(at), BlockArg::Value(held)]);
        self.b.switch_to_block(done);
        let held = self.b.block_params(done)[0];
        let mut best = none;
        for shift in [1, width, width + 1, width - 1] {
            let [head, body, done] = self.blocks();
            self.b.append_block_param(head, I64);
            self.b.append_block_param(head, I64);
            self.b.append_block_param(done, I64);
            self.b.ins().jump(head, &[BlockArg::Value(held), BlockArg::Value(none)]);
            self.b.switch_to_block(head);
            let (starts, run) = (self.b.block_params(head)[0], self.b.block_params(head)[1]);
            self.b.ins().brif(starts, body, &[], done, &[BlockArg::Value(run)]);
            self.b.switch_to_block(body);
            let shifted = self.b.ins().ushr_imm_u(starts, shift);
            let starts = self.b.ins().band(starts, shifted);
            let run = self.b.ins().iadd_imm_s(run, 1);
            self.b
                .ins()
                .jump(head, &[BlockArg::Value(starts), BlockArg::Value(run)]);
            self.b.switch_to_block(done);
            let run = self.b.block_params(done)[0];
            let longer = self.b.ins().icmp(IntCC::SignedGreaterThan, run, best);
            best = self.b.ins().select(longer, run, best);
        }
        self.set(depth - args, best);
        self.next(pc);
    }

    /// `Move`: the engine moves the piece (from the values compiled code
    /// holds) and records it; a piece or zone that does not exist has the
    /// engine run the op.
    pub(super) fn move_piece(&mut self, pc: u32, depth: u32) {
        let (piece, zone) = (self.top(depth, 1), self.top(depth, 0));
        self.light_call(pc, depth, self.helpers.move_piece as usize, &[piece, zone]);
    }

    /// `Matches`: whether a piece is one the matcher takes.
    pub(super) fn matches(&mut self, pc: u32, depth: u32, m: Matcher) {
        if matches!(m.by, MatchBy::Group(_)) {
            return self.hand_to_engine(pc, depth);
        }
        let raw = self.top(depth, 0);
        let (key, owner, args) = self.matcher_args(depth, m, 1);
        let piece = self.piece_of(raw);
        let valid = self.is_piece(piece);
        self.guarded(pc, depth, valid, |f| {
            let passes = f.piece_matches(piece, m.by, key, owner).expect("not a group");
            let v = f.b.ins().uextend(I64, passes);
            f.set(depth - 1 - args, v);
        });
    }

    /// The piece a piece value names (without the kind it was chosen as).
    fn piece_of(&mut self, raw: Value) -> Value {
        self.b.ins().band_imm_s(raw, PIECE_RANGE - 1)
    }

    /// Whether `piece` is a piece of the game.
    fn is_piece(&mut self, piece: Value) -> Value {
        let pieces = self.def.pieces.len() as i64;
        self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, piece, pieces)
    }

    /// `Attr`: a piece's kind (the one it was chosen as, if any), owner or
    /// type; its value, and a piece with no such attribute, are the
    /// engine's.
    pub(super) fn attr(&mut self, pc: u32, depth: u32, attr: Attr) {
        if attr == Attr::Value {
            return self.hand_to_engine(pc, depth);
        }
        let raw = self.top(depth, 0);
        let piece = self.piece_of(raw);
        let valid = self.is_piece(piece);
        let [known, slow] = self.blocks();
        self.b.ins().brif(valid, known, &[], slow, &[]);
        self.b.switch_to_block(slow);
        self.hand_to_engine(pc, depth);
        self.b.switch_to_block(known);
        let offset = self.face_offset(piece);
        let v = match attr {
            Attr::Type => {
                let table = self.tables.piece_types(self.def);
                self.piece_table_u16(table, offset)
            }
            Attr::Owner => {
                let table = self.tables.piece_owners(self.def);
                self.piece_table_i16(table, offset)
            }
            _ => {
                let kind = {
                    let table = self.tables.piece_kinds(self.def);
                    self.piece_table_i16(table, offset)
                };
                let declared = self.b.ins().ushr_imm_s(raw, i64::from(PIECE_RANGE.trailing_zeros()));
                let declared = self.b.ins().band_imm_s(declared, PIECE_RANGE - 1);
                let as_kind = self.b.ins().iadd_imm_s(declared, -1);
                self.b.ins().select(declared, as_kind, kind)
            }
        };
        let some = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, v, 0);
        self.guarded(pc, depth, some, |f| f.set(depth - 1, v));
    }

    /// `Top` and `Bottom`: the piece at the top (or bottom) of a zone; an
    /// empty zone is the engine's, which fails.
    pub(super) fn end_piece(&mut self, pc: u32, depth: u32, bottom: bool) {
        let zone = self.top(depth, 0);
        let (from, to) = self.zone_bounds(pc, depth, zone);
        let holds = self.b.ins().icmp(IntCC::UnsignedLessThan, from, to);
        self.guarded(pc, depth, holds, |f| {
            let at = if bottom { from } else { f.b.ins().iadd_imm_s(to, -1) };
            let piece = f.piece_at(at);
            f.set(depth - 1, piece);
        });
    }

    /// `N` new blocks.
    pub(super) fn blocks<const N: usize>(&mut self) -> [Block; N] {
        std::array::from_fn(|_| self.b.create_block())
    }

    /// The head of a scan that goes on from the local `local` plus one: a
    /// block with the position as its one parameter, jumped to and entered.
    pub(super) fn scan_from(&mut self, locals: Value, local: u16) -> (Block, Value) {
        let was = self.b.ins().load(I64, trusted(), locals, i32::from(local) * 8);
        let start = self.b.ins().iadd_imm_s(was, 1);
        let scan = self.b.create_block();
        self.b.append_block_param(scan, I64);
        self.b.ins().jump(scan, &[BlockArg::Value(start)]);
        self.b.switch_to_block(scan);
        (scan, self.b.block_params(scan)[0])
    }

    /// Whether `zone` holds a piece at `place` (counted from the top): the
    /// zone starts' table, where the zone ends in the buffer of pieces,
    /// and the answer.
    pub(super) fn zone_holds(&mut self, zone: Value, place: Value) -> (Value, Value, Value) {
        let starts = self.piece_buffer(ZONE_STARTS);
        let offset = self.b.ins().ishl_imm_s(zone, 2);
        let entry = self.b.ins().iadd(starts, offset);
        let from = self.b.ins().uload32(trusted(), entry, 0);
        let to = self.b.ins().uload32(trusted(), entry, 4);
        let len = self.b.ins().isub(to, from);
        let inside = self.b.ins().icmp(IntCC::UnsignedLessThan, place, len);
        (starts, to, inside)
    }

    /// The piece `place` places below the top of a zone that ends at `to`
    /// in the buffer of pieces.
    pub(super) fn piece_below_top(&mut self, to: Value, place: Value) -> Value {
        let below_top = self.b.ins().iadd_imm_s(to, -1);
        let index = self.b.ins().isub(below_top, place);
        self.piece_at(index)
    }

    /// The piece at `index` of the buffer of pieces.
    pub(super) fn piece_at(&mut self, index: Value) -> Value {
        let pieces = self.piece_buffer(ZONE_PIECES);
        let offset = self.b.ins().ishl_imm_s(index, 1);
        let slot = self.b.ins().iadd(pieces, offset);
        self.b.ins().uload16(I64, trusted(), slot, 0)
    }

    /// Whether a loop over a zone's pieces with `filter` runs in compiled
    /// code: a filter by type (or none) and maybe owner.
    pub(super) fn filters_natively(&self, filter: u16) -> bool {
        matches!(
            self.def.filters[filter as usize].matcher.by,
            MatchBy::Any | MatchBy::Type(_)
        )
    }

    /// `NextPiece` as `State::next_piece` does it: from the place after the
    /// one in `index` (counted from the top), the next piece of the zone in
    /// the local `zone` that passes the filter. A zone out of range goes to
    /// the engine, which fails as the interpreter does.
    pub(super) fn zone_scan(&mut self, pc: u32, (zone, index, value): (u16, u16, u16), filter: u16, exit: u32) {
        let filter = self.def.filters[filter as usize];
        let zones = self.def.zones.len() as i64;
        let locals = self.b.use_var(self.locals);
        let zone = self.b.ins().load(I64, trusted(), locals, i32::from(zone) * 8);
        let known = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, zone, zones);
        let (fast, slow) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(known, fast, &[], slow, &[]);
        self.b.switch_to_block(slow);
        self.piece_loop(pc, exit);

        self.b.switch_to_block(fast);
        let [test, onward, found] = self.blocks();
        let done = self.block(exit);
        let (scan, place) = self.scan_from(locals, index);
        let (_, to, inside) = self.zone_holds(zone, place);
        self.b.ins().brif(inside, test, &[], done, &[]);

        self.b.switch_to_block(test);
        let piece = self.piece_below_top(to, place);
        let passes = self.passes(piece, filter, locals);
        self.b.ins().brif(passes, found, &[], onward, &[]);
        self.b.switch_to_block(onward);
        let after = self.b.ins().iadd_imm_s(place, 1);
        self.b.ins().jump(scan, &[BlockArg::Value(after)]);

        self.b.switch_to_block(found);
        self.b.ins().store(trusted(), place, locals, i32::from(index) * 8);
        self.b.ins().store(trusted(), piece, locals, i32::from(value) * 8);
        self.next(pc);
    }
}
