//! Cranelift code for one region: a block per op, the stack's values in
//! variables (so in registers), the locals, variables and options in the
//! engine's memory.

use std::mem::offset_of;

use cranelift_codegen::Context;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{
    AbiParam, Block, InstBuilder, JumpTableData, MemFlagsData, Signature, UserFuncName, Value,
};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module};

mod pieces;

use super::depth::{Effect, effect};
use super::machine::{FAULT, Helpers, Machine, RELOAD, exit_kind};
use super::tables::Tables;
use crate::ir::grid::{DIRECTIONS, NO_SPACE};
use crate::ir::{ChoiceKind, GameDef, Op, Runs};

/// Whether the engine may resume a frame at `op` or after it: the ops the
/// interpreter runs on its slow path (a call, a decision, a move, the end),
/// and the end of a procedure.
pub(super) fn leaves_to_engine(op: Op) -> bool {
    matches!(op.facts().runs, Runs::Slow | Runs::Return)
}

/// The ops that move values: machine code, with no table.
fn moves_values(op: Op) -> bool {
    op.facts().runs == Runs::Values
}

/// One procedure's code, ready to emit.
pub(super) struct Region {
    /// The procedure's name, for messages.
    pub name: String,
    pub start: u32,
    pub end: u32,
    /// The number of the procedure's locals.
    pub locals: u16,
    /// Per op of the region, the stack depth there, if it can run.
    pub depths: Vec<Option<u32>>,
    /// The pcs the engine may start the region at, with their depths.
    pub entries: Vec<(u32, u32)>,
    pub max_depth: u32,
}

/// Emits regions into one module.
pub(super) struct Emitter<'m> {
    module: &'m mut JITModule,
    context: Context,
    builder: FunctionBuilderContext,
    helpers: Helpers,
    round_limit: u64,
    emitted: u32,
    /// The tables the code reads; they must live as long as it.
    pub(super) tables: Tables,
}

/// Where the fields of [`Machine`] are.
const STACK: i32 = offset_of!(Machine, stack) as i32;
const STACK_LEN: i32 = offset_of!(Machine, stack_len) as i32;
const LOCALS: i32 = offset_of!(Machine, locals) as i32;
const VARS: i32 = offset_of!(Machine, vars) as i32;
const OPTIONS: i32 = offset_of!(Machine, options) as i32;
const STEPS: i32 = offset_of!(Machine, steps) as i32;
const ZONE_STARTS: i32 = offset_of!(Machine, zone_starts) as i32;
const PIECE_ZONE: i32 = offset_of!(Machine, piece_zone) as i32;
const ZONE_PIECES: i32 = offset_of!(Machine, zone_pieces) as i32;
const FACE: i32 = offset_of!(Machine, face) as i32;
const OFFERS: i32 = offset_of!(Machine, offers) as i32;
const OFFERS_LEN: i32 = offset_of!(Machine, offers_len) as i32;
const OFFERS_CAP: i32 = offset_of!(Machine, offers_cap) as i32;
const OFFERS_SEAT: i32 = offset_of!(Machine, offers_seat) as i32;

impl<'m> Emitter<'m> {
    pub(super) fn new(module: &'m mut JITModule, helpers: Helpers, round_limit: u64) -> Emitter<'m> {
        let context = module.make_context();
        Emitter {
            module,
            context,
            builder: FunctionBuilderContext::new(),
            helpers,
            round_limit,
            emitted: 0,
            tables: Tables::default(),
        }
    }

    /// Emits one region; `Err` says why it stays with the interpreter.
    pub(super) fn region(&mut self, def: &GameDef, region: &Region) -> Result<FuncId, String> {
        check_slots(def, region)?;
        let pointer = self.module.target_config().pointer_type();
        let mut signature = self.module.make_signature();
        signature.params.push(AbiParam::new(pointer));
        signature.params.push(AbiParam::new(I32));
        signature.returns.push(AbiParam::new(I64));
        let mut helper = self.module.make_signature();
        helper.params.push(AbiParam::new(pointer));
        helper.params.push(AbiParam::new(I32));
        helper.returns.push(AbiParam::new(I32));

        self.module.clear_context(&mut self.context);
        self.context.func.signature = signature.clone();
        self.context.func.name = UserFuncName::user(0, self.emitted);
        let name = format!("region{}", self.emitted);
        self.emitted += 1;
        let id = self
            .module
            .declare_function(&name, Linkage::Local, &signature)
            .map_err(|e| e.to_string())?;
        {
            let b = FunctionBuilder::new(&mut self.context.func, &mut self.builder);
            let mut f = Function::start(b, def, region, helper, self.helpers, self.round_limit, &mut self.tables);
            f.ops();
            f.finish(self.module.target_config());
        }
        self.module
            .define_function(id, &mut self.context)
            .map_err(|e| format!("`{}`: {e}", region.name))?;
        Ok(id)
    }
}

/// Refuses a region whose ops name a local, variable or option that does
/// not exist: compiled code does not check its indexes.
fn check_slots(def: &GameDef, region: &Region) -> Result<(), String> {
    let locals = usize::from(region.locals);
    let options = def.options.len();
    for pc in region.start..region.end {
        let ok = match def.code[pc as usize] {
            Op::Load(slot) | Op::Store(slot) => usize::from(slot) < locals,
            Op::Next { value, last, .. } => usize::from(value.max(last)) < locals,
            Op::LoadVar(slot) => usize::from(slot) < def.var_slots,
            Op::LoadOption(i) => usize::from(i) < options,
            _ => true,
        };
        if !ok {
            return Err(format!("`{}`: op {pc} names a slot that does not exist", region.name));
        }
    }
    Ok(())
}

/// One region's function as it is built.
struct Function<'a, 'f> {
    b: FunctionBuilder<'f>,
    def: &'a GameDef,
    tables: &'a mut Tables,
    region: &'a Region,
    helpers: Helpers,
    helper: cranelift_codegen::ir::SigRef,
    call_conv: cranelift_codegen::isa::CallConv,
    round_limit: u64,
    machine: Value,
    /// The frame's locals (they move when a helper's call grows them).
    locals: Variable,
    vars: Value,
    options: Value,
    /// The stack's values, bottom first, above the frame's base.
    stack: Vec<Variable>,
    /// The stack's buffer (it moves when a helper grows it).
    buffer: Variable,
    /// The index of the frame's first stack value in the buffer.
    base: Variable,
    /// The engine's buffers of pieces that compiled code reads, by their
    /// offset in [`Machine`]: read once at an entry and again after each
    /// call into the engine (a move may reallocate them), so a loop over
    /// pieces keeps them in registers instead of reading the machine at
    /// every piece.
    piece_buffers: [(i32, Variable); 4],
    /// Per op of the region, its block (ops that can't run have none).
    blocks: Vec<Option<Block>>,
}

fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

impl<'a, 'f> Function<'a, 'f> {
    /// The entry: loads the machine, then jumps by the pc asked for.
    fn start(
        mut b: FunctionBuilder<'f>,
        def: &'a GameDef,
        region: &'a Region,
        helper: Signature,
        helpers: Helpers,
        round_limit: u64,
        tables: &'a mut Tables,
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let machine = b.block_params(entry)[0];
        let pc = b.block_params(entry)[1];
        let locals = b.declare_var(I64);
        let first_locals = b.ins().load(I64, trusted(), machine, LOCALS);
        b.def_var(locals, first_locals);
        let vars = b.ins().load(I64, trusted(), machine, VARS);
        let options = b.ins().load(I64, trusted(), machine, OPTIONS);
        let call_conv = helper.call_conv;
        let helper = b.import_signature(helper);
        let stack = (0..region.max_depth).map(|_| b.declare_var(I64)).collect();
        let buffer = b.declare_var(I64);
        let base = b.declare_var(I64);
        let piece_buffers = [ZONE_PIECES, FACE, PIECE_ZONE, ZONE_STARTS].map(|field| (field, b.declare_var(I64)));
        let blocks = region.depths.iter().map(|d| d.map(|_| b.create_block())).collect();
        let mut f = Function {
            b,
            def,
            tables,
            region,
            helpers,
            helper,
            call_conv,
            round_limit,
            machine,
            locals,
            vars,
            options,
            stack,
            buffer,
            base,
            piece_buffers,
            blocks,
        };
        f.dispatch(pc);
        f
    }

    /// Jumps to the entry block of the pc asked for; any other pc returns
    /// [`super::Exit::NoEntry`].
    fn dispatch(&mut self, pc: Value) {
        // The entry blocks are filled after the jump table: a block is
        // finished before the next one starts.
        let no_entry = self.b.create_block();
        let mut entry_blocks = vec![no_entry; self.region.depths.len()];
        let entries: Vec<(Block, u32, u32)> = self
            .region
            .entries
            .iter()
            .map(|&(at, depth)| {
                let block = self.b.create_block();
                entry_blocks[(at - self.region.start) as usize] = block;
                (block, at, depth)
            })
            .collect();
        let index = self.b.ins().iadd_imm_s(pc, -i64::from(self.region.start));
        let default = self.b.func.dfg.block_call(no_entry, &[]);
        let table: Vec<_> = entry_blocks
            .iter()
            .map(|&block| self.b.func.dfg.block_call(block, &[]))
            .collect();
        let jump_table = self.b.create_jump_table(JumpTableData::new(default, &table));
        self.b.ins().br_table(index, jump_table);
        self.b.switch_to_block(no_entry);
        self.leave(exit_kind::NO_ENTRY, 0);
        for (block, at, depth) in entries {
            self.b.switch_to_block(block);
            self.load_stack(depth);
            self.read_piece_buffers();
            let target = self.block(at);
            self.b.ins().jump(target, &[]);
        }
    }

    /// At an entry: the frame's `depth` values come off the engine's stack
    /// into variables.
    fn load_stack(&mut self, depth: u32) {
        let buffer = self.b.ins().load(I64, trusted(), self.machine, STACK);
        let len = self.b.ins().load(I64, trusted(), self.machine, STACK_LEN);
        let base = self.b.ins().iadd_imm_s(len, -i64::from(depth));
        self.b.def_var(self.buffer, buffer);
        self.b.def_var(self.base, base);
        self.reload(0, depth);
    }

    /// Reads where the engine's buffers of pieces are now.
    fn read_piece_buffers(&mut self) {
        for (field, var) in self.piece_buffers {
            let v = self.b.ins().load(I64, trusted(), self.machine, field);
            self.b.def_var(var, v);
        }
    }

    /// The engine's buffer at `field` of [`Machine`] (one of
    /// [`Function::piece_buffers`]).
    fn piece_buffer(&mut self, field: i32) -> Value {
        let (_, var) = *self
            .piece_buffers
            .iter()
            .find(|(f, _)| *f == field)
            .expect("a buffer of pieces");
        self.b.use_var(var)
    }

    /// Reads stack values `from..to` back from the engine's stack.
    fn reload(&mut self, from: u32, to: u32) {
        if from >= to {
            return;
        }
        let bottom = self.bottom();
        for i in from..to {
            let v = self.b.ins().load(I64, trusted(), bottom, (8 * i) as i32);
            self.b.def_var(self.stack[i as usize], v);
        }
    }

    /// The address of the frame's first stack value.
    fn bottom(&mut self) -> Value {
        let buffer = self.b.use_var(self.buffer);
        let base = self.b.use_var(self.base);
        let offset = self.b.ins().ishl_imm_s(base, 3);
        self.b.ins().iadd(buffer, offset)
    }

    /// Writes the `depth` values to the engine's stack and sets its length,
    /// as the interpreter would have them.
    fn flush(&mut self, depth: u32) {
        let bottom = self.bottom();
        for i in 0..depth {
            let v = self.b.use_var(self.stack[i as usize]);
            self.b.ins().store(trusted(), v, bottom, (8 * i) as i32);
        }
        let base = self.b.use_var(self.base);
        let len = self.b.ins().iadd_imm_s(base, i64::from(depth));
        self.b.ins().store(trusted(), len, self.machine, STACK_LEN);
    }

    /// Returns to the engine.
    fn leave(&mut self, kind: u64, pc: u32) {
        let raw = self.b.ins().iconst(I64, ((kind << 32) | u64::from(pc)) as i64);
        self.b.ins().return_(&[raw]);
    }

    fn block(&self, pc: u32) -> Block {
        self.blocks[(pc - self.region.start) as usize].expect("the depth pass reached every successor")
    }

    fn top(&mut self, depth: u32, below: u32) -> Value {
        self.b.use_var(self.stack[(depth - 1 - below) as usize])
    }

    fn set(&mut self, at: u32, v: Value) {
        self.b.def_var(self.stack[at as usize], v);
    }

    /// Every op's block.
    fn ops(&mut self) {
        for i in 0..self.region.depths.len() {
            let Some(depth) = self.region.depths[i] else { continue };
            let pc = self.region.start + i as u32;
            let block = self.block(pc);
            self.b.switch_to_block(block);
            self.op(pc, depth);
        }
    }

    fn next(&mut self, pc: u32) {
        let next = self.block(pc + 1);
        self.b.ins().jump(next, &[]);
    }

    /// The code of the op at `pc`, run with `depth` values on the stack.
    fn op(&mut self, pc: u32, depth: u32) {
        let op = self.def.code[pc as usize];
        match op {
            Op::Jump(_) | Op::JumpIfFalse(_) | Op::JumpIfTrue(_) | Op::Next { .. } => self.flow_op(pc, depth, op),
            Op::ZoneOf(_) | Op::Size | Op::CellAt(_) | Op::Step(_) | Op::Forward { .. } => self.board_op(pc, depth, op),
            Op::NextNeighbour { .. } | Op::SpaceOf(_) | Op::ActionValue { .. } => self.board_op(pc, depth, op),
            Op::ChoiceAdd => self.offer(pc, depth),
            Op::HasOffers(_) => self.has_offers(pc, depth),
            Op::Inlined(_) => self.count_call(pc, depth, op),
            Op::StoreVar(_) | Op::StoreVarAt(_) => self.store_var(pc, depth, op),
            Op::SpaceIn { first, len } => self.space_in(pc, depth, first, len),
            Op::Coordinate { board, column } => self.coordinate(pc, depth, board, column),
            Op::Count(m) => self.count(pc, depth, m),
            Op::First(m) => self.first_piece(pc, depth, m),
            Op::Move => self.move_piece(pc, depth),
            Op::CountOnBoard { board, matcher } => self.count_on_board(pc, depth, board, matcher),
            Op::LongestRun { board, family, matcher } => self.longest_run(pc, depth, (board, family), matcher),
            Op::Matches(m) => self.matches(pc, depth, m),
            Op::Attr(attr) => self.attr(pc, depth, attr),
            Op::Top | Op::Bottom => self.end_piece(pc, depth, op == Op::Bottom),
            Op::ChoiceReset => self.reset_offers(pc),
            Op::Beats | Op::KindAt(_) | Op::TypeAt(_) => self.lookup(pc, depth, op),
            Op::LoadAt(_) | Op::LoadVarAt(_) => self.indexed_load(pc, depth, op),
            Op::ActionEntry(_) | Op::ActionParam { .. } => self.action_part(pc, depth, op),
            Op::NextOnBoard {
                board,
                cursor,
                value,
                filter,
                exit,
            } if self.scans_natively(board, filter) => self.board_scan(pc, board, (cursor, value), filter, exit),
            Op::NextPiece {
                zone,
                index,
                value,
                filter,
                exit,
            } if self.filters_natively(filter) => self.zone_scan(pc, (zone, index, value), filter, exit),
            Op::NextPiece { exit, .. } | Op::NextOnBoard { exit, .. } => self.piece_loop(pc, exit),
            _ if moves_values(op) => self.value_op(pc, depth, op),
            Op::Return => {
                self.flush(depth);
                self.leave(exit_kind::RETURN, pc);
            }
            _ => {
                let e = effect(self.def, op).expect("the depth pass knew this op");
                let helper = self.helper_for(op);
                self.call_engine(pc, depth, e, helper);
            }
        }
    }

    /// The ops that move values: the stack, locals, variables, options, arithmetic and comparisons.
    fn value_op(&mut self, pc: u32, depth: u32, op: Op) {
        let word = |i: u16| i32::from(i) * 8;
        let locals = self.b.use_var(self.locals);
        match op {
            Op::Push(v) => {
                let v = self.b.ins().iconst(I64, v);
                self.set(depth, v);
                self.next(pc);
            }
            Op::Pop => self.next(pc),
            Op::Dup => {
                let v = self.top(depth, 0);
                self.set(depth, v);
                self.next(pc);
            }
            Op::Load(slot) => {
                let v = self.b.ins().load(I64, trusted(), locals, word(slot));
                self.set(depth, v);
                self.next(pc);
            }
            Op::Store(slot) => {
                let v = self.top(depth, 0);
                self.b.ins().store(trusted(), v, locals, word(slot));
                self.next(pc);
            }
            Op::LoadVar(slot) => {
                let v = self.b.ins().load(I64, trusted(), self.vars, word(slot));
                self.set(depth, v);
                self.next(pc);
            }
            Op::LoadOption(i) => {
                let v = self.b.ins().load(I64, trusted(), self.options, word(i));
                self.set(depth, v);
                self.next(pc);
            }
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Rem => self.arithmetic(pc, depth, op),
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => {
                let cc = match op {
                    Op::Eq => IntCC::Equal,
                    Op::Ne => IntCC::NotEqual,
                    Op::Lt => IntCC::SignedLessThan,
                    Op::Le => IntCC::SignedLessThanOrEqual,
                    Op::Gt => IntCC::SignedGreaterThan,
                    _ => IntCC::SignedGreaterThanOrEqual,
                };
                let (a, b) = (self.top(depth, 1), self.top(depth, 0));
                let holds = self.b.ins().icmp(cc, a, b);
                let v = self.b.ins().uextend(I64, holds);
                self.set(depth - 2, v);
                self.next(pc);
            }
            Op::Not => {
                let v = self.top(depth, 0);
                let zero = self.b.ins().icmp_imm_s(IntCC::Equal, v, 0);
                let v = self.b.ins().uextend(I64, zero);
                self.set(depth - 1, v);
                self.next(pc);
            }
            Op::Neg => {
                let v = self.top(depth, 0);
                let v = self.b.ins().ineg(v);
                self.set(depth - 1, v);
                self.next(pc);
            }
            Op::Opponent | Op::NextSeat => {
                // `(seat + 1) % players`, as the interpreter computes it.
                let v = self.top(depth, 0);
                let v = self.b.ins().iadd_imm_s(v, 1);
                let players = self.b.ins().iconst(I64, self.def.players() as i64);
                let v = self.b.ins().srem(v, players);
                self.set(depth - 1, v);
                self.next(pc);
            }
            _ => unreachable!("{op:?} is not a value op"),
        }
    }

    /// `LoadAt` and `LoadVarAt`: a local or variable of a row, by the
    /// index on the stack. An index inside the frame's locals (the
    /// variables) reads what the interpreter reads; any other goes to the
    /// engine, which reads or fails as the interpreter does.
    fn indexed_load(&mut self, pc: u32, depth: u32, op: Op) {
        let (base, slots, row) = match op {
            Op::LoadAt(base) => (base, usize::from(self.region.locals), self.b.use_var(self.locals)),
            Op::LoadVarAt(base) => (base, self.def.var_slots, self.vars),
            _ => unreachable!("{op:?} is not an indexed load"),
        };
        let index = self.top(depth, 0);
        let room = slots.saturating_sub(usize::from(base)) as i64;
        // Unsigned, so a negative index is outside too.
        let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, index, room);
        self.guarded(pc, depth, inside, |f| {
            let offset = f.b.ins().ishl_imm_u(index, 3);
            let address = f.b.ins().iadd(row, offset);
            let v = f.b.ins().load(I64, trusted(), address, i32::from(base) * 8);
            f.set(depth - 1, v);
        });
    }

    /// Jumps and counted loops.
    fn flow_op(&mut self, pc: u32, depth: u32, op: Op) {
        let word = |i: u16| i32::from(i) * 8;
        let locals = self.b.use_var(self.locals);
        match op {
            Op::Jump(target) => {
                if target <= pc {
                    self.count_round(pc, depth, target);
                } else {
                    let target = self.block(target);
                    self.b.ins().jump(target, &[]);
                }
            }
            Op::JumpIfFalse(target) | Op::JumpIfTrue(target) => {
                let v = self.top(depth, 0);
                let (jump, next) = (self.block(target), self.block(pc + 1));
                if matches!(op, Op::JumpIfTrue(_)) {
                    self.b.ins().brif(v, jump, &[], next, &[]);
                } else {
                    self.b.ins().brif(v, next, &[], jump, &[]);
                }
            }
            Op::Next { value, last, exit } => {
                let v = self.b.ins().load(I64, trusted(), locals, word(value));
                let v = self.b.ins().iadd_imm_s(v, 1);
                self.b.ins().store(trusted(), v, locals, word(value));
                let last = self.b.ins().load(I64, trusted(), locals, word(last));
                let past = self.b.ins().icmp(IntCC::SignedGreaterThan, v, last);
                let (exit, next) = (self.block(exit), self.block(pc + 1));
                self.b.ins().brif(past, exit, &[], next, &[]);
            }
            _ => unreachable!("{op:?} is not a flow op"),
        }
    }

    /// The board's geometry and the sizes of zones, from tables built from `ir`.
    fn board_op(&mut self, pc: u32, depth: u32, op: Op) {
        match op {
            Op::ZoneOf(family) => {
                let f = &self.def.families[family as usize];
                let (first, len) = (i64::from(f.first), i64::from(f.len));
                let index = self.top(depth, 0);
                let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, index, len);
                self.guarded(pc, depth, inside, |f| {
                    let zone = f.b.ins().iadd_imm_s(index, first);
                    f.set(depth - 1, zone);
                });
            }
            Op::Size => {
                let zone = self.top(depth, 0);
                let zones = self.def.zones.len() as i64;
                let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, zone, zones);
                self.guarded(pc, depth, inside, |f| {
                    let starts = f.piece_buffer(ZONE_STARTS);
                    let offset = f.b.ins().ishl_imm_s(zone, 2);
                    let at = f.b.ins().iadd(starts, offset);
                    let start = f.b.ins().uload32(trusted(), at, 0);
                    let end = f.b.ins().uload32(trusted(), at, 4);
                    let size = f.b.ins().isub(end, start);
                    f.set(depth - 1, size);
                });
            }
            Op::CellAt(board) => {
                let b = &self.def.boards[board as usize];
                let (rows, cols) = (i64::from(b.rows), i64::from(b.cols));
                let (row, column) = (self.top(depth, 1), self.top(depth, 0));
                // `Board::cell`: rows and columns from 1, else no space.
                let row0 = self.b.ins().iadd_imm_s(row, -1);
                let column0 = self.b.ins().iadd_imm_s(column, -1);
                let row_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, row0, rows);
                let column_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, column0, cols);
                let inside = self.b.ins().band(row_in, column_in);
                let across = self.b.ins().imul_imm_s(row0, cols);
                let space = self.b.ins().iadd(across, column0);
                let none = self.b.ins().iconst(I64, NO_SPACE);
                let v = self.b.ins().select(inside, space, none);
                self.set(depth - 2, v);
                self.next(pc);
            }
            Op::Step(board) => {
                let table = self.tables.steps(self.def, board);
                let spaces = i64::from(self.def.boards[board as usize].spaces());
                let (space, direction) = (self.top(depth, 1), self.top(depth, 0));
                let space_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, space, spaces);
                let direction_in = self
                    .b
                    .ins()
                    .icmp_imm_u(IntCC::UnsignedLessThan, direction, DIRECTIONS.len() as i64);
                let inside = self.b.ins().band(space_in, direction_in);
                // Clamped into the table, then the answer thrown away if
                // it was outside: no branch.
                let space = self.clamp(inside, space);
                let direction = self.clamp(inside, direction);
                let row = self.b.ins().imul_imm_s(space, DIRECTIONS.len() as i64);
                let index = self.b.ins().iadd(row, direction);
                let to = self.table_entry(table, index);
                let none = self.b.ins().iconst(I64, NO_SPACE);
                let v = self.b.ins().select(inside, to, none);
                self.set(depth - 2, v);
                self.next(pc);
            }
            Op::Forward { board, backward } => {
                let table = self.tables.forward(self.def, board, backward);
                let seats = self.def.boards[board as usize].forward.len() as i64;
                let seat = self.top(depth, 0);
                let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, seat, seats);
                self.guarded(pc, depth, inside, |f| {
                    let base = f.b.ins().iconst(I64, table as i64);
                    let at = f.b.ins().iadd(base, seat);
                    let direction = f.b.ins().uload8(I64, trusted(), at, 0);
                    f.set(depth - 1, direction);
                });
            }
            Op::NextNeighbour {
                board,
                from,
                value,
                exit,
            } => self.next_neighbour(pc, depth, board, from, value, exit),
            Op::SpaceOf(board) => {
                let spaces = self.tables.spaces_of_zones(self.def, board);
                let piece = self.top(depth, 0);
                let pieces = self.def.pieces.len() as i64;
                let known = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, piece, pieces);
                // A piece's zone, then the zone's space on this board (or
                // -1): off the board, the engine reports where it is.
                let clamped = self.clamp(known, piece);
                let piece_zone = self.piece_buffer(PIECE_ZONE);
                let offset = self.b.ins().ishl_imm_s(clamped, 1);
                let at = self.b.ins().iadd(piece_zone, offset);
                let zone = self.b.ins().uload16(I64, trusted(), at, 0);
                let space = self.table_entry(spaces, zone);
                let on_board = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, space, 0);
                let found = self.b.ins().band(known, on_board);
                self.guarded(pc, depth, found, |f| f.set(depth - 1, space));
            }
            Op::ActionValue { decision, entry } => self.action_value(pc, depth, decision, entry),
            _ => unreachable!("{op:?} is not a board op"),
        }
    }

    /// `Beats`, `KindAt` and `TypeAt`: a look-up in a table of the
    /// definition's (indexes out of range go to the engine, which fails as
    /// the interpreter does).
    fn lookup(&mut self, pc: u32, depth: u32, op: Op) {
        let (table, len, index, pops) = match op {
            Op::Beats => {
                let kinds = self.def.kinds.len() as i64;
                let (a, b) = (self.top(depth, 1), self.top(depth, 0));
                let a_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, a, kinds);
                let b_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, b, kinds);
                let inside = self.b.ins().band(a_in, b_in);
                let row = self.b.ins().imul_imm_s(a, kinds);
                let index = self.b.ins().iadd(row, b);
                let table = self.tables.list(self.def.beats.iter().map(|&beats| i16::from(beats)));
                self.read_table(pc, depth, table, inside, index, 2);
                return;
            }
            Op::KindAt(set) => {
                let members = &self.def.kind_sets[set as usize].members;
                (
                    self.tables.list(members.iter().map(|&k| k as i16)),
                    members.len(),
                    self.top(depth, 0),
                    1,
                )
            }
            Op::TypeAt(group) => {
                let types = &self.def.groups[group as usize].types;
                (
                    self.tables.list(types.iter().map(|&t| t as i16)),
                    types.len(),
                    self.top(depth, 0),
                    1,
                )
            }
            _ => unreachable!("{op:?} is no look-up"),
        };
        let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, index, len as i64);
        self.read_table(pc, depth, table, inside, index, pops);
    }

    /// `table[index]` replaces the top `pops` values when `inside`; else
    /// the engine runs the op.
    fn read_table(&mut self, pc: u32, depth: u32, table: *const i16, inside: Value, index: Value, pops: u32) {
        self.guarded(pc, depth, inside, |f| {
            let v = f.table_entry(table, index);
            f.set(depth - pops, v);
        });
    }

    /// `ChoiceAdd`: appended to the bound seat's offers where there is
    /// room (a decision's menu offers to one seat, dozens of times);
    /// otherwise the seat and the value go to the engine's helper as
    /// arguments, not through its stack, and it binds the seat.
    fn offer(&mut self, pc: u32, depth: u32) {
        let (seat, value) = (self.top(depth, 1), self.top(depth, 0));
        let bound = self.b.ins().load(I64, trusted(), self.machine, OFFERS_SEAT);
        let len = self.b.ins().load(I64, trusted(), self.machine, OFFERS_LEN);
        let cap = self.b.ins().load(I64, trusted(), self.machine, OFFERS_CAP);
        let same = self.b.ins().icmp(IntCC::Equal, seat, bound);
        let room = self.b.ins().icmp(IntCC::UnsignedLessThan, len, cap);
        let fits = self.b.ins().band(same, room);
        let (fast, slow) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(fits, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let offers = self.b.ins().load(I64, trusted(), self.machine, OFFERS);
        let at = self.b.ins().ishl_imm_u(len, 3);
        let slot = self.b.ins().iadd(offers, at);
        self.b.ins().store(trusted(), value, slot, 0);
        let longer = self.b.ins().iadd_imm_s(len, 1);
        self.b.ins().store(trusted(), longer, self.machine, OFFERS_LEN);
        self.next(pc);
        self.b.switch_to_block(slow);
        self.light_call(pc, depth, self.helpers.offer as usize, &[seat, value]);
    }

    /// `HasOffers`: true when the seat has offers; when it has none (the
    /// engine records that), or is no seat, the engine runs the op.
    fn has_offers(&mut self, pc: u32, depth: u32) {
        let seat = self.top(depth, 0);
        self.light_call_then(pc, depth, self.helpers.has_offers as usize, &[seat], |f| {
            let yes = f.b.ins().iconst(I64, 1);
            f.set(depth - 1, yes);
        });
    }

    /// `SpaceIn`: space `i` of a ring, `first + i`; out of the ring, the
    /// engine runs the op, and fails.
    fn space_in(&mut self, pc: u32, depth: u32, first: u16, len: u16) {
        let i = self.top(depth, 0);
        let inside = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, i, i64::from(len));
        self.guarded(pc, depth, inside, |f| {
            let space = f.b.ins().iadd_imm_s(i, i64::from(first));
            f.set(depth - 1, space);
        });
    }

    /// `Coordinate`: a grid space's row or column, from 1, as
    /// `Board::coordinates` gives them; no space (or any number that is not
    /// a space) has the engine run the op, and fail.
    fn coordinate(&mut self, pc: u32, depth: u32, board: u16, column: bool) {
        let b = &self.def.boards[board as usize];
        let (spaces, cols) = (i64::from(b.spaces()), i64::from(b.cols.max(1)));
        let space = self.top(depth, 0);
        let inside = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, space, spaces);
        self.guarded(pc, depth, inside, |f| {
            let v = if column {
                f.b.ins().urem_imm_u(space, cols)
            } else {
                f.b.ins().udiv_imm_u(space, cols)
            };
            let v = f.b.ins().iadd_imm_s(v, 1);
            f.set(depth - 1, v);
        });
    }

    /// `StoreVar` and `StoreVarAt`: the engine sets the variable and
    /// records it, from the values compiled code holds; an index that
    /// names no slot has the engine run the op, and fail.
    fn store_var(&mut self, pc: u32, depth: u32, op: Op) {
        let (index, value) = match op {
            Op::StoreVarAt(_) => (self.top(depth, 0), self.top(depth, 1)),
            _ => (self.b.ins().iconst(I64, 0), self.top(depth, 0)),
        };
        let at = self.b.ins().iconst(I64, i64::from(pc));
        self.light_call(pc, depth, self.helpers.store_var as usize, &[at, index, value]);
    }

    /// Calls a light helper at address `helper` with the machine and
    /// `args` (values compiled code holds, so no stack is handed over):
    /// on 0 the code goes on; else the engine runs the op, as the
    /// interpreter does (and fails where it fails).
    fn light_call(&mut self, pc: u32, depth: u32, helper: usize, args: &[Value]) {
        self.light_call_then(pc, depth, helper, args, |_| {});
    }

    /// [`Function::light_call`], with `fast` run where the helper answers 0
    /// (to set what the op leaves on the stack).
    fn light_call_then(&mut self, pc: u32, depth: u32, helper: usize, args: &[Value], fast: impl FnOnce(&mut Self)) {
        let mut signature = Signature::new(self.call_conv);
        signature.params.push(AbiParam::new(I64));
        signature.params.extend(args.iter().map(|_| AbiParam::new(I64)));
        signature.returns.push(AbiParam::new(I32));
        let signature = self.b.import_signature(signature);
        let callee = self.b.ins().iconst(I64, helper as i64);
        let mut values = vec![self.machine];
        values.extend_from_slice(args);
        let call = self.b.ins().call_indirect(signature, callee, &values);
        let answer = self.b.inst_results(call)[0];
        self.read_piece_buffers();
        let done = self.b.ins().icmp_imm_s(IntCC::Equal, answer, 0);
        let (fast_block, slow) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(done, fast_block, &[], slow, &[]);
        self.b.switch_to_block(fast_block);
        fast(self);
        self.next(pc);
        self.b.switch_to_block(slow);
        self.hand_to_engine(pc, depth);
    }

    /// The engine runs the op at `pc` (to fail, or for what compiled code
    /// does not do), then compiled code goes on where it says.
    fn hand_to_engine(&mut self, pc: u32, depth: u32) {
        let op = self.def.code[pc as usize];
        let e = effect(self.def, op).expect("the depth pass knew this op");
        let helper = self.helper_for(op);
        self.call_engine(pc, depth, e, helper);
    }

    /// `ChoiceReset`: the engine clears the offers; the stack stays in
    /// compiled code's hands.
    fn reset_offers(&mut self, pc: u32) {
        let mut signature = Signature::new(self.call_conv);
        signature.params.extend([AbiParam::new(I64), AbiParam::new(I32)]);
        let signature = self.b.import_signature(signature);
        let callee = self.b.ins().iconst(I64, self.helpers.reset_offers as usize as i64);
        let at = self.b.ins().iconst(I32, i64::from(pc));
        self.b.ins().call_indirect(signature, callee, &[self.machine, at]);
        self.read_piece_buffers();
        self.next(pc);
    }

    /// Entry `index` of a table of `i16`s kept with the code.
    fn table_entry(&mut self, table: *const i16, index: Value) -> Value {
        let offset = self.b.ins().ishl_imm_s(index, 1);
        let base = self.b.ins().iconst(I64, table as i64);
        let at = self.b.ins().iadd(base, offset);
        self.b.ins().sload16(I64, trusted(), at, 0)
    }

    /// `value` where `inside`, else 0: an index safe to read a table at,
    /// whose answer is thrown away when it was outside.
    fn clamp(&mut self, inside: Value, value: Value) -> Value {
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().select(inside, value, zero)
    }

    /// `NextNeighbour`: a table gives, for a space and the neighbour the
    /// loop stands at, the next neighbour (as `Board::adjacent` lists them).
    fn next_neighbour(&mut self, pc: u32, depth: u32, board: u16, from: u16, value: u16, exit: u32) {
        let spaces = i64::from(self.def.boards[board as usize].spaces());
        let Some(table) = self.tables.neighbours(self.def, board) else {
            let e = effect(self.def, self.def.code[pc as usize]).expect("a loop step");
            self.call_engine(pc, depth, e, self.helpers.run_op);
            return;
        };
        let locals = self.b.use_var(self.locals);
        let from = self.b.ins().load(I64, trusted(), locals, i32::from(from) * 8);
        let after = self.b.ins().load(I64, trusted(), locals, i32::from(value) * 8);
        // The loop starts at -1: the row's first column.
        let column = self.b.ins().iadd_imm_s(after, 1);
        let from_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, from, spaces);
        let column_in = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, column, spaces + 1);
        let inside = self.b.ins().band(from_in, column_in);
        let (fast, slow) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(inside, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let row = self.b.ins().imul_imm_s(from, spaces + 1);
        let index = self.b.ins().iadd(row, column);
        let next = self.table_entry(table, index);
        let found = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, next, 0);
        let (store, exit_block) = (self.b.create_block(), self.block(exit));
        self.b.ins().brif(found, store, &[], exit_block, &[]);
        self.b.switch_to_block(store);
        self.b.ins().store(trusted(), next, locals, i32::from(value) * 8);
        self.next(pc);
        self.b.switch_to_block(slow);
        let e = effect(self.def, self.def.code[pc as usize]).expect("a loop step");
        self.call_engine(pc, depth, e, self.helpers.run_op);
    }

    /// `ActionValue`: the parameters in mixed radix, then the action. When
    /// no value in range can overflow, a parameter out of range is the only
    /// failure, and the engine reports it.
    fn action_value(&mut self, pc: u32, depth: u32, decision: u16, entry: u16) {
        let e = effect(self.def, self.def.code[pc as usize]).expect("an action value");
        let ChoiceKind::Actions(actions) = &self.def.decisions[decision as usize].kind else {
            self.call_engine(pc, depth, e, self.helpers.run_step);
            return;
        };
        let radixes: Vec<i64> = actions[entry as usize].params.iter().map(|&(_, radix)| radix).collect();
        let largest = radixes
            .iter()
            .try_fold(1i64, |product, &radix| product.checked_mul(radix))
            .and_then(|product| product.checked_mul(actions.len() as i64));
        if largest.is_none() || radixes.iter().any(|&radix| radix <= 0) {
            self.call_engine(pc, depth, e, self.helpers.run_step);
            return;
        }
        let n = radixes.len() as u32;
        let mut inside = self.b.ins().iconst(cranelift_codegen::ir::types::I8, 1);
        let mut value = self.b.ins().iconst(I64, 0);
        for (k, &radix) in radixes.iter().enumerate().rev() {
            let p = self.b.use_var(self.stack[(depth - n) as usize + k]);
            let in_range = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, p, radix);
            inside = self.b.ins().band(inside, in_range);
            let scaled = self.b.ins().imul_imm_s(value, radix);
            value = self.b.ins().iadd(scaled, p);
        }
        let scaled = self.b.ins().imul_imm_s(value, actions.len() as i64);
        let value = self.b.ins().iadd_imm_s(scaled, i64::from(entry));
        self.guarded(pc, depth, inside, |f| f.set(depth - n, value));
    }

    /// `ActionEntry` and `ActionParam`: which action an action value chose,
    /// or one of its parameters, by the divisions the interpreter makes
    /// (by constants, so multiplications in machine code). A definition
    /// whose divisions could fail leaves the op to the engine.
    fn action_part(&mut self, pc: u32, depth: u32, op: Op) {
        let decision = match op {
            Op::ActionEntry(decision) | Op::ActionParam { decision, .. } => decision,
            _ => unreachable!("{op:?} reads no action value"),
        };
        let value = self.top(depth, 0);
        let def = self.def;
        let part = match &def.decisions[decision as usize].kind {
            ChoiceKind::Actions(actions) => self.decode_action(value, actions, op),
            // Not an action decision: the entry is 0.
            _ if matches!(op, Op::ActionEntry(_)) => Some(self.b.ins().iconst(I64, 0)),
            _ => None,
        };
        match part {
            Some(part) => {
                self.set(depth - 1, part);
                self.next(pc);
            }
            None => {
                let e = effect(self.def, op).expect("an action value");
                self.call_engine(pc, depth, e, self.helpers.run_op);
            }
        }
    }

    /// The part of `value` that `op` reads, as `ChoiceValue::action_entry`
    /// and `ChoiceValue::action_param` compute it; `None` when a division
    /// there could fail.
    fn decode_action(&mut self, value: Value, actions: &[crate::ir::ActionDef], op: Op) -> Option<Value> {
        let n = i64::try_from(actions.len()).ok().filter(|&n| n > 0)?;
        match op {
            Op::ActionEntry(_) => Some(self.b.ins().srem_imm_s(value, n)),
            Op::ActionParam { entry, param, .. } => {
                let params = &actions.get(usize::from(entry))?.params;
                let radixes: Vec<i64> = params.get(..=usize::from(param))?.iter().map(|&(_, r)| r).collect();
                if radixes.iter().any(|&radix| radix <= 0) {
                    return None;
                }
                let (last, before) = radixes.split_last()?;
                let mut rest = self.b.ins().sdiv_imm_s(value, n);
                for &radix in before {
                    rest = self.b.ins().sdiv_imm_s(rest, radix);
                }
                Some(self.b.ins().srem_imm_s(rest, *last))
            }
            _ => None,
        }
    }

    /// An op whose machine code holds when `inside`; otherwise the engine
    /// runs it (and fails as the interpreter does).
    fn guarded(&mut self, pc: u32, depth: u32, inside: Value, fast: impl FnOnce(&mut Self)) {
        let (fast_block, slow_block) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(inside, fast_block, &[], slow_block, &[]);
        self.b.switch_to_block(fast_block);
        fast(self);
        self.next(pc);
        self.b.switch_to_block(slow_block);
        self.hand_to_engine(pc, depth);
    }

    /// The helper that runs `op` as the interpreter does.
    fn helper_for(&self, op: Op) -> super::Helper {
        if op.runs_in_place() {
            self.helpers.run_op
        } else {
            self.helpers.run_step
        }
    }

    /// Checked arithmetic; when it would fail, the engine runs the op and
    /// reports the error as the interpreter does.
    fn arithmetic(&mut self, pc: u32, depth: u32, op: Op) {
        let (a, b) = (self.top(depth, 1), self.top(depth, 0));
        if let Op::Add | Op::Sub | Op::Mul = op {
            let (v, overflow) = match op {
                Op::Add => self.b.ins().sadd_overflow(a, b),
                Op::Sub => self.b.ins().ssub_overflow(a, b),
                _ => self.b.ins().smul_overflow(a, b),
            };
            let fits = self.b.ins().icmp_imm_s(IntCC::Equal, overflow, 0);
            self.guarded(pc, depth, fits, |f| f.set(depth - 2, v));
            return;
        }
        // Division by zero, and MIN / -1, fail as `checked_div` does; the
        // division itself stays behind the test (it would trap).
        let zero = self.b.ins().icmp_imm_s(IntCC::Equal, b, 0);
        let minus_one = self.b.ins().icmp_imm_s(IntCC::Equal, b, -1);
        let min = self.b.ins().icmp_imm_s(IntCC::Equal, a, i64::MIN);
        let overflow = self.b.ins().band(minus_one, min);
        let fails = self.b.ins().bor(zero, overflow);
        let fits = self.b.ins().icmp_imm_s(IntCC::Equal, fails, 0);
        self.guarded(pc, depth, fits, |f| {
            let v = if op == Op::Div {
                f.b.ins().sdiv(a, b)
            } else {
                f.b.ins().srem(a, b)
            };
            f.set(depth - 2, v);
        });
    }

    /// A jump back: one loop round, counted as the interpreter counts it.
    fn count_round(&mut self, pc: u32, depth: u32, target: u32) {
        let steps = self.b.ins().load(I64, trusted(), self.machine, STEPS);
        let under = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, steps, self.round_limit as i64);
        let counted = self.b.create_block();
        let stuck = self.b.create_block();
        self.b.ins().brif(under, counted, &[], stuck, &[]);
        self.b.switch_to_block(counted);
        let steps = self.b.ins().iadd_imm_s(steps, 1);
        self.b.ins().store(trusted(), steps, self.machine, STEPS);
        let target_block = self.block(target);
        self.b.ins().jump(target_block, &[]);
        self.b.switch_to_block(stuck);
        let e = effect(self.def, Op::Jump(target)).expect("a jump");
        self.call_engine(pc, depth, e, self.helpers.run_op);
    }

    /// The start of an inlined call: one step counted, as the engine counts
    /// a call; at the limit the engine runs the op, and fails.
    fn count_call(&mut self, pc: u32, depth: u32, op: Op) {
        let steps = self.b.ins().load(I64, trusted(), self.machine, STEPS);
        let under = self
            .b
            .ins()
            .icmp_imm_s(IntCC::UnsignedLessThan, steps, self.round_limit as i64);
        let counted = self.b.create_block();
        let stuck = self.b.create_block();
        self.b.ins().brif(under, counted, &[], stuck, &[]);
        self.b.switch_to_block(counted);
        let steps = self.b.ins().iadd_imm_s(steps, 1);
        self.b.ins().store(trusted(), steps, self.machine, STEPS);
        self.next(pc);
        self.b.switch_to_block(stuck);
        let e = effect(self.def, op).expect("a step count");
        let helper = self.helper_for(op);
        self.call_engine(pc, depth, e, helper);
    }

    /// Calls `helper` for the op at `pc` and returns the pc it answers;
    /// when it answers [`FAULT`], returns to the engine, which holds the
    /// error.
    fn call_helper(&mut self, pc: u32, helper: super::Helper) -> Value {
        let callee = self.b.ins().iconst(I64, helper as usize as i64);
        let at = self.b.ins().iconst(I32, i64::from(pc));
        let call = self.b.ins().call_indirect(self.helper, callee, &[self.machine, at]);
        let next_pc = self.b.inst_results(call)[0];
        self.read_piece_buffers();
        let failed = self.b.ins().icmp_imm_s(IntCC::Equal, next_pc, i64::from(FAULT as i32));
        let (fault, went_on) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(failed, fault, &[], went_on, &[]);
        self.b.switch_to_block(fault);
        self.leave(exit_kind::FAULT, pc);
        self.b.switch_to_block(went_on);
        next_pc
    }

    /// Has the engine run the op at `pc` on its own stack, then goes on
    /// where it says: the next op, or the op's branch; or returns to the
    /// engine, when the op failed or may have changed the frames.
    fn call_engine(&mut self, pc: u32, depth: u32, e: Effect, helper: super::Helper) {
        self.flush(depth);
        let next_pc = self.call_helper(pc, helper);
        if !e.falls_through && e.branch.is_none() {
            // The game ended, or the flow left: the engine looks again.
            self.leave(exit_kind::RELOAD, pc);
            return;
        }
        let reloaded = self.b.create_block();
        let again = self.b.create_block();
        let reload = self.b.ins().icmp_imm_s(IntCC::Equal, next_pc, i64::from(RELOAD as i32));
        self.b.ins().brif(reload, again, &[], reloaded, &[]);
        self.b.switch_to_block(again);
        self.leave(exit_kind::RELOAD, pc);
        self.b.switch_to_block(reloaded);
        let buffer = self.b.ins().load(I64, trusted(), self.machine, STACK);
        self.b.def_var(self.buffer, buffer);
        let locals = self.b.ins().load(I64, trusted(), self.machine, LOCALS);
        self.b.def_var(self.locals, locals);
        let kept = depth - e.pops;
        self.reload(kept, kept + e.pushes);
        match (e.falls_through, e.branch) {
            (true, None) => self.next(pc),
            (false, Some(target)) => {
                let target = self.block(target);
                self.b.ins().jump(target, &[]);
            }
            (true, Some(target)) => {
                let taken = self.b.ins().icmp_imm_s(IntCC::Equal, next_pc, i64::from(target as i32));
                let (jump, next) = (self.block(target), self.block(pc + 1));
                self.b.ins().brif(taken, jump, &[], next, &[]);
            }
            (false, None) => unreachable!("handled above"),
        }
    }

    fn finish(mut self, config: cranelift_codegen::isa::TargetFrontendConfig) {
        self.b.seal_all_blocks();
        self.b.finalize(config);
    }
}
