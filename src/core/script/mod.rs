//! rhai hooks: compiled once, run in a sandbox, errors mapped back to the
//! `.rules` file.
//!
//! A hook sees the game through one object, `game`, whose methods are the
//! whole API (see docs/language.md, "Hooks"). The sandbox has no file or
//! module access, no `eval`, no clock, nothing that blocks (`sleep`), and
//! explicit limits on operations, call depth, expression depth and data
//! sizes. The operation limit counts every operation of a call, those run
//! by callbacks (a `sort` comparer, a `map` function) included.

use std::cell::Cell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::Arc;

use rhai::packages::Package;
use rhai::{AST, Array, Dynamic, Engine, EvalAltResult, FnPtr, ImmutableString, NativeCallContext, Position, Scope};

use crate::diagnostic::{Code, Diagnostic, Span};
use crate::ir::{FamilyIndex, GameDef, HookArg, PieceId, VarEach, ZoneId};
use crate::syntax::ast::{HookDecl, HookType};

mod returns;

/// The sandbox limits, documented in docs/language.md.
pub(crate) const MAX_OPERATIONS: u64 = 100_000;
pub(crate) const MAX_CALL_LEVELS: usize = 32;
pub(crate) const MAX_EXPR_DEPTH: usize = 64;
pub(crate) const MAX_STRING_SIZE: usize = 1024;
pub(crate) const MAX_ARRAY_SIZE: usize = 1024;
pub(crate) const MAX_MAP_SIZE: usize = 256;

/// Every hook of a game, compiled.
pub(crate) struct Script {
    engine: Engine,
    hooks: Vec<CompiledHook>,
    tables: Arc<ApiTables>,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script").field("hooks", &self.hooks.len()).finish()
    }
}

struct CompiledHook {
    name: String,
    ast: AST,
    /// Where the body starts in the `.rules` file, and the length of the
    /// generated header on the body's first line.
    body_span: Span,
    header_len: usize,
    /// Byte offset of each line of the body within the `.rules` file.
    line_starts: Vec<u32>,
    body: String,
}

/// Names the API resolves, built once per game.
#[derive(Default)]
struct ApiTables {
    families: HashMap<String, (ZoneId, FamilyIndex, u16)>,
    types: HashMap<String, u16>,
    /// What `count_in` and `total` may count: piece types, groups, kinds
    /// and sets of kinds, by name.
    filters: HashMap<String, PieceFilter>,
    /// The names of each sort, sorted, for the error that lists them.
    filter_names: Vec<(&'static str, Vec<String>)>,
    piece_types: Vec<u16>,
    piece_kinds: Vec<Option<u16>>,
    piece_values: Vec<i64>,
    /// Each variable's first slot, and what it is kept for.
    vars: HashMap<String, (u16, VarEach, usize)>,
    options: HashMap<String, usize>,
    kinds: Vec<String>,
    /// Kind and piece-type names as a hook receives them: shared, so that
    /// passing one to a hook copies no text.
    kind_names: Vec<ImmutableString>,
    type_names: Vec<ImmutableString>,
    /// `beats[a * kinds + b]`, as in the game definition.
    beats: Vec<bool>,
    players: usize,
    box_zone: ZoneId,
}

/// Which pieces a count takes: those of some piece types, or of some kinds.
#[derive(Clone)]
enum PieceFilter {
    Types(Vec<u16>),
    Kinds(Vec<u16>),
}

impl PieceFilter {
    fn takes(&self, ty: u16, kind: Option<u16>) -> bool {
        match self {
            PieceFilter::Types(types) => types.contains(&ty),
            PieceFilter::Kinds(kinds) => kind.is_some_and(|k| kinds.contains(&k)),
        }
    }
}

/// The `game` object a hook receives: a read-only snapshot.
#[derive(Clone)]
pub(crate) struct GameApi {
    tables: Arc<ApiTables>,
    state: Arc<Snapshot>,
}

/// The part of the game state a hook reads, copied at each call.
#[derive(Default)]
struct Snapshot {
    /// The zone of every piece, indexed by the face it shows: one flat copy
    /// per call instead of a copy of every zone's list. A hook reads pieces
    /// through their faces (the ids it receives are faces too), so in a
    /// sampled world, where the faces a seat cannot see are dealt afresh, it
    /// counts the world's pieces, not the real game's.
    piece_zone: Vec<ZoneId>,
    vars: Vec<i64>,
    options: Vec<i64>,
}

impl Snapshot {
    /// This thread's snapshot holding these values. The buffers of the
    /// previous call are refilled when nothing holds them any more (a hook
    /// cannot keep `game` past its call, but its answer may be `game`
    /// itself); otherwise fresh ones are made.
    fn take(faces: &[PieceId], piece_zone: &[ZoneId], vars: &[i64], options: &[i64]) -> Arc<Snapshot> {
        let mut state = SPARE_SNAPSHOT.with(Cell::take).unwrap_or_default();
        if Arc::get_mut(&mut state).is_none() {
            state = Arc::default();
        }
        let buffers = Arc::get_mut(&mut state).expect("a snapshot no one else holds");
        for (buffer, values) in [(&mut buffers.vars, vars), (&mut buffers.options, options)] {
            buffer.clear();
            buffer.extend_from_slice(values);
        }
        // The faces are a permutation of the pieces (the identity in a real game).
        buffers.piece_zone.clear();
        buffers.piece_zone.resize(piece_zone.len(), 0);
        for (piece, &zone) in piece_zone.iter().enumerate() {
            let face = faces.get(piece).map_or(piece, |&f| f as usize);
            buffers.piece_zone[face] = zone;
        }
        state
    }

    /// Keeps the snapshot for this thread's next call.
    fn give_back(state: Arc<Snapshot>) {
        SPARE_SNAPSHOT.with(|spare| spare.set(Some(state)));
    }
}

/// A hook failure, already pointed at the `.rules` file.
pub(crate) type HookError = Box<Diagnostic>;

thread_local! {
    /// Operations run by the hook call in progress on this thread. rhai
    /// counts a callback's operations (a `sort` comparer, a `map` function)
    /// on a copy of its counter that it then drops; this one sees them all.
    static OPERATIONS: Cell<u64> = const { Cell::new(0) };
    /// The snapshot of the last hook call on this thread, kept so that the
    /// next call reuses its buffers instead of allocating three.
    static SPARE_SNAPSHOT: Cell<Option<Arc<Snapshot>>> = const { Cell::new(None) };
}

/// The rhai engine hooks run in.
///
/// It holds rhai's standard library without its language-core package,
/// which is where `sleep` (blocks the thread; `sleep(1.0e300)` panics),
/// `exit` and `parse_json` live; the crate's `no_time` feature leaves out
/// `timestamp`. Nothing left blocks, reads the clock, reads a file or calls
/// out: `eval`, `import` and `export` are refused when a hook is compiled,
/// modules do not resolve, and `print` and `debug` go nowhere. The array
/// functions that call back into the hook and would swallow the callback's
/// errors (`sort`, `order`, `dedup`) are replaced by ones that stop at the
/// first error.
fn sandbox() -> Engine {
    use rhai::packages::{
        ArithmeticPackage, BasicArrayPackage, BasicBlobPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
        BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
    };
    // One module holding the whole library, instead of one per package:
    // every function call that misses rhai's per-call cache searches the
    // global modules one by one, and a hook's calls nearly all miss. A later
    // package's function replaces an earlier one's of the same signature,
    // as when each package was registered in turn (the last registered was
    // searched first).
    let mut library = rhai::Module::new();
    for package in [
        ArithmeticPackage::new().as_shared_module(),
        BasicStringPackage::new().as_shared_module(),
        BasicIteratorPackage::new().as_shared_module(),
        BasicFnPackage::new().as_shared_module(),
        BitFieldPackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        BasicMathPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicBlobPackage::new().as_shared_module(),
        BasicMapPackage::new().as_shared_module(),
        MoreStringPackage::new().as_shared_module(),
    ] {
        library.combine(rhai::Shared::unwrap_or_clone(package));
    }
    library.build_index();
    let mut engine = Engine::new_raw();
    engine.register_global_module(library.into());
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    for symbol in ["eval", "import", "export"] {
        engine.disable_symbol(symbol);
    }
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.on_progress(|_| {
        OPERATIONS.with(|n| {
            let ran = n.get() + 1;
            n.set(ran);
            (ran > MAX_OPERATIONS).then_some(Dynamic::UNIT)
        })
    });
    engine.set_max_operations(MAX_OPERATIONS);
    engine.set_max_call_levels(MAX_CALL_LEVELS);
    engine.set_max_expr_depths(MAX_EXPR_DEPTH, MAX_EXPR_DEPTH);
    engine.set_max_string_size(MAX_STRING_SIZE);
    engine.set_max_array_size(MAX_ARRAY_SIZE);
    engine.set_max_map_size(MAX_MAP_SIZE);
    engine.set_strict_variables(true);
    register_api(&mut engine);
    register_callbacks(&mut engine);
    engine
}

/// `sort`, `order` and `dedup` with a callback, in place of rhai's, which
/// turn a callback's error (a thrown error, a broken limit) into "equal"
/// and carry on. These stop at the first error and return it.
fn register_callbacks(engine: &mut Engine) {
    for name in ["sort", "sort_by"] {
        engine.register_fn(
            name,
            |ctx: NativeCallContext, array: &mut Array, comparer: FnPtr| -> Result<(), Box<EvalAltResult>> {
                let items = std::mem::take(array);
                *array = merge_sort(&ctx, &comparer, items)?;
                Ok(())
            },
        );
    }
    for name in ["order", "order_by"] {
        engine.register_fn(
            name,
            |ctx: NativeCallContext, array: &mut Array, comparer: FnPtr| -> Result<Array, Box<EvalAltResult>> {
                merge_sort(&ctx, &comparer, array.clone())
            },
        );
    }
    engine.register_fn(
        "dedup",
        |ctx: NativeCallContext, array: &mut Array, comparer: FnPtr| -> Result<(), Box<EvalAltResult>> {
            dedup(array, |kept, next| {
                let same = comparer.call_raw(&ctx, None, [kept.clone(), next.clone()])?;
                same.as_bool().map_err(|t| {
                    api_error(format!(
                        "the function given to `dedup` returned {}; it must return a bool",
                        language_type(t)
                    ))
                })
            })
        },
    );
    engine.register_fn(
        "dedup",
        |ctx: NativeCallContext, array: &mut Array| -> Result<(), Box<EvalAltResult>> {
            dedup(array, |kept, next| {
                let differ = kept.type_id() != next.type_id();
                match ctx.call_native_fn::<bool>("==", (kept.clone(), next.clone())) {
                    Err(e) if differ && matches!(*e, EvalAltResult::ErrorFunctionNotFound(..)) => Ok(false),
                    other => other,
                }
            })
        },
    );
}

/// Keeps the first of each run of items that `same(kept, next)` says are alike.
fn dedup(
    array: &mut Array,
    mut same: impl FnMut(&Dynamic, &Dynamic) -> Result<bool, Box<EvalAltResult>>,
) -> Result<(), Box<EvalAltResult>> {
    let mut kept: Array = Vec::with_capacity(array.len());
    for item in std::mem::take(array) {
        match kept.last() {
            Some(last) if same(last, &item)? => {}
            _ => kept.push(item),
        }
    }
    *array = kept;
    Ok(())
}

/// What a comparer says of `a` and `b`: a number (negative: `a` first) or a
/// bool (true: `a` first), as rhai's own `sort` reads it.
fn compare(
    ctx: &NativeCallContext,
    comparer: &FnPtr,
    a: &Dynamic,
    b: &Dynamic,
) -> Result<Ordering, Box<EvalAltResult>> {
    let answer = comparer.call_raw(ctx, None, [a.clone(), b.clone()])?;
    if let Ok(n) = answer.as_int() {
        return Ok(n.cmp(&0));
    }
    match answer.as_bool() {
        Ok(true) => Ok(Ordering::Less),
        Ok(false) => Ok(Ordering::Greater),
        Err(t) => Err(api_error(format!(
            "the function given to `sort` returned {}; it must return a number or a bool",
            language_type(t)
        ))),
    }
}

/// A stable bottom-up merge sort that calls the comparer through the hook's
/// context and stops at its first error. It never loops on a comparer that
/// is not a total order: every pass does a fixed amount of work.
fn merge_sort(ctx: &NativeCallContext, comparer: &FnPtr, items: Array) -> Result<Array, Box<EvalAltResult>> {
    let n = items.len();
    let mut from = items;
    let mut width = 1;
    while width < n {
        let mut to: Array = Vec::with_capacity(n);
        let mut rest = from.into_iter().peekable();
        while rest.peek().is_some() {
            let left: Vec<Dynamic> = rest.by_ref().take(width).collect();
            let right: Vec<Dynamic> = rest.by_ref().take(width).collect();
            let (mut l, mut r) = (left.into_iter().peekable(), right.into_iter().peekable());
            while let (Some(a), Some(b)) = (l.peek(), r.peek()) {
                if compare(ctx, comparer, a, b)? == Ordering::Greater {
                    to.extend(r.next());
                } else {
                    to.extend(l.next());
                }
            }
            to.extend(l);
            to.extend(r);
        }
        from = to;
        width *= 2;
    }
    Ok(from)
}

/// What a variable is kept per, in a hook's error: "player", "space", "piece".
fn each_word(each: VarEach) -> &'static str {
    match each {
        VarEach::Game => "game",
        VarEach::Player => "player",
        VarEach::Space(_) => "space",
        VarEach::Piece => "piece",
    }
}

fn api_error(message: String) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(message.into(), Position::NONE))
}

impl GameApi {
    fn family(&self, name: &str) -> Result<(ZoneId, FamilyIndex, u16), Box<EvalAltResult>> {
        self.tables.families.get(name).copied().ok_or_else(|| {
            let mut names: Vec<&String> = self.tables.families.keys().filter(|n| *n != "box").collect();
            names.sort();
            api_error(format!("no zone named \"{name}\"; the zones are {names:?}"))
        })
    }

    /// A piece type, group, kind or set of kinds, by name; the error names
    /// every name that would do.
    fn filter(&self, name: &str) -> Result<&PieceFilter, Box<EvalAltResult>> {
        self.tables.filters.get(name).ok_or_else(|| {
            let valid: Vec<String> = self
                .tables
                .filter_names
                .iter()
                .filter(|(_, names)| !names.is_empty())
                .map(|(what, names)| format!("{what} {names:?}"))
                .collect();
            let guess = crate::diagnostic::nearest(name, self.tables.filters.keys().map(String::as_str))
                .map(|n| format!("did you mean \"{n}\"? "))
                .unwrap_or_default();
            api_error(format!(
                "no piece type, group, kind or set of kinds named \"{name}\"; {guess}there are {}",
                valid.join(", ")
            ))
        })
    }

    /// Pieces that pass every filter, in zones that `zone` takes.
    fn count_matching(&self, filters: &[&PieceFilter], zone: impl Fn(ZoneId) -> bool) -> i64 {
        self.state
            .piece_zone
            .iter()
            .enumerate()
            .filter(|&(piece, &z)| {
                let (ty, kind) = (self.tables.piece_types[piece], self.tables.piece_kinds[piece]);
                zone(z) && filters.iter().all(|f| f.takes(ty, kind))
            })
            .count() as i64
    }

    /// The zones `count_in(zone, player, ...)` counts in: that player's one.
    fn players_zone(&self, zone: &str, player: i64) -> Result<ZoneId, Box<EvalAltResult>> {
        let (first, by, _) = self.family(zone)?;
        if by != FamilyIndex::PerPlayer {
            return Err(api_error(format!(
                "\"{zone}\" is not a zone per player; call count_in(\"{zone}\", type)"
            )));
        }
        let seat = self.seat(player)?;
        Ok(crate::ir::id_from_index(usize::from(first) + seat))
    }

    /// The zones `count_in(zone, ...)` counts in: all of a family.
    fn all_zones(&self, zone: &str) -> Result<std::ops::Range<ZoneId>, Box<EvalAltResult>> {
        let (first, _, len) = self.family(zone)?;
        Ok(first..first + len)
    }

    fn piece(&self, piece: i64) -> Result<usize, Box<EvalAltResult>> {
        usize::try_from(piece)
            .ok()
            .filter(|&p| p < self.tables.piece_types.len())
            .ok_or_else(|| api_error(format!("no piece {piece}")))
    }

    fn seat(&self, player: i64) -> Result<usize, Box<EvalAltResult>> {
        if player < 1 || player as usize > self.tables.players {
            return Err(api_error(format!(
                "no player {player}; players are numbered 1 to {}",
                self.tables.players
            )));
        }
        Ok(player as usize - 1)
    }
}

fn register_api(engine: &mut Engine) {
    engine.register_type_with_name::<GameApi>("Game");
    engine.register_fn("players", |g: &mut GameApi| g.tables.players as i64);
    // `what` is a piece type, a group, a kind or a set of kinds; with two,
    // a piece counts when it is of both (`"Card", "fire"`).
    engine.register_fn(
        "count_in",
        |g: &mut GameApi, zone: &str, player: i64, what: &str| -> Result<i64, Box<EvalAltResult>> {
            let zone = g.players_zone(zone, player)?;
            Ok(g.count_matching(&[g.filter(what)?], |z| z == zone))
        },
    );
    engine.register_fn(
        "count_in",
        |g: &mut GameApi, zone: &str, player: i64, what: &str, and: &str| -> Result<i64, Box<EvalAltResult>> {
            let zone = g.players_zone(zone, player)?;
            Ok(g.count_matching(&[g.filter(what)?, g.filter(and)?], |z| z == zone))
        },
    );
    engine.register_fn(
        "count_in",
        |g: &mut GameApi, zone: &str, what: &str| -> Result<i64, Box<EvalAltResult>> {
            // A family of zones counts over all of them.
            let zones = g.all_zones(zone)?;
            Ok(g.count_matching(&[g.filter(what)?], |z| zones.contains(&z)))
        },
    );
    engine.register_fn(
        "count_in",
        |g: &mut GameApi, zone: &str, what: &str, and: &str| -> Result<i64, Box<EvalAltResult>> {
            let zones = g.all_zones(zone)?;
            Ok(g.count_matching(&[g.filter(what)?, g.filter(and)?], |z| zones.contains(&z)))
        },
    );
    engine.register_fn(
        "total",
        |g: &mut GameApi, what: &str| -> Result<i64, Box<EvalAltResult>> {
            let box_zone = g.tables.box_zone;
            Ok(g.count_matching(&[g.filter(what)?], |z| z != box_zone))
        },
    );
    engine.register_fn(
        "total",
        |g: &mut GameApi, what: &str, and: &str| -> Result<i64, Box<EvalAltResult>> {
            let box_zone = g.tables.box_zone;
            Ok(g.count_matching(&[g.filter(what)?, g.filter(and)?], |z| z != box_zone))
        },
    );
    engine.register_fn(
        "type_of",
        |g: &mut GameApi, piece: i64| -> Result<String, Box<EvalAltResult>> {
            let piece = g.piece(piece)?;
            let ty = g.tables.piece_types[piece];
            Ok(g.tables
                .types
                .iter()
                .find(|(_, t)| **t == ty)
                .map(|(name, _)| name.clone())
                .unwrap_or_default())
        },
    );
    engine.register_fn(
        "value_of",
        |g: &mut GameApi, piece: i64| -> Result<i64, Box<EvalAltResult>> {
            let piece = g.piece(piece)?;
            Ok(g.tables.piece_values[piece])
        },
    );
    engine.register_fn(
        "variable",
        |g: &mut GameApi, name: &str| -> Result<i64, Box<EvalAltResult>> {
            match g.tables.vars.get(name) {
                Some(&(slot, VarEach::Game, _)) => Ok(g.state.vars[slot as usize]),
                Some(&(_, each, _)) => Err(api_error(format!(
                    "\"{name}\" is kept per {}; call variable(\"{name}\", {})",
                    each_word(each),
                    each_word(each)
                ))),
                None => Err(api_error(format!("no variable named \"{name}\""))),
            }
        },
    );
    engine.register_fn(
        "variable",
        |g: &mut GameApi, name: &str, index: i64| -> Result<i64, Box<EvalAltResult>> {
            match g.tables.vars.get(name) {
                Some(&(slot, VarEach::Player, _)) => {
                    let seat = g.seat(index)?;
                    Ok(g.state.vars[slot as usize + seat])
                }
                Some(&(slot, each @ (VarEach::Space(_) | VarEach::Piece), width)) => {
                    let at = usize::try_from(index).ok().filter(|&i| i < width).ok_or_else(|| {
                        api_error(format!(
                            "no {} {index} (they are numbered 0 to {})",
                            each_word(each),
                            width - 1
                        ))
                    })?;
                    Ok(g.state.vars[slot as usize + at])
                }
                Some(_) => Err(api_error(format!("\"{name}\" is one value; call variable(\"{name}\")"))),
                None => Err(api_error(format!("no variable named \"{name}\""))),
            }
        },
    );
    engine.register_fn(
        "option",
        |g: &mut GameApi, name: &str| -> Result<i64, Box<EvalAltResult>> {
            g.tables
                .options
                .get(name)
                .map(|&i| g.state.options[i])
                .ok_or_else(|| api_error(format!("no option named \"{name}\"")))
        },
    );
    engine.register_fn(
        "beats",
        |g: &mut GameApi, a: &str, b: &str| -> Result<bool, Box<EvalAltResult>> {
            let kind = |name: &str| {
                g.tables
                    .kinds
                    .iter()
                    .position(|k| k == name)
                    .ok_or_else(|| api_error(format!("no kind named \"{name}\"")))
            };
            let (a, b) = (kind(a)?, kind(b)?);
            Ok(g.tables.beats[a * g.tables.kinds.len() + b])
        },
    );
    engine.register_fn(
        "kind_of",
        |g: &mut GameApi, piece: i64| -> Result<String, Box<EvalAltResult>> {
            let kind = g.tables.piece_kinds.get(piece as usize).copied().flatten();
            kind.map(|k| g.tables.kinds[k as usize].clone())
                .ok_or_else(|| api_error(format!("piece {piece} has no kind")))
        },
    );
}

impl Script {
    /// Compiles every hook; a syntax error in one is reported and the rest
    /// are still checked.
    pub(crate) fn compile(def: &GameDef, hooks: &[&HookDecl]) -> Result<Script, Vec<Diagnostic>> {
        let engine = sandbox();
        let mut compiled = vec![];
        let mut diags = vec![];
        for hook in hooks {
            let mut params = vec!["game".to_string()];
            params.extend(hook.params.iter().map(|p| p.name.name.clone()));
            let header = format!("fn {}({}) {{", hook.name.name, params.join(", "));
            let source = format!("{header}{}\n}}", hook.body);
            let text = &def.sources.file(hook.body_span.file).text;
            let mut line_starts = vec![hook.body_span.start];
            for (i, c) in text[hook.body_span.start as usize..hook.body_span.end as usize].char_indices() {
                if c == '\n' {
                    line_starts.push(hook.body_span.start + i as u32 + 1);
                }
            }
            let mut entry = CompiledHook {
                name: hook.name.name.clone(),
                ast: AST::empty(),
                body_span: hook.body_span,
                header_len: header.len(),
                line_starts,
                body: hook.body.clone(),
            };
            match engine.compile(&source) {
                Ok(ast) => {
                    entry.ast = ast.clone_functions_only();
                    diags.extend(wrong_return_diagnostics(hook, &entry));
                }
                Err(error) => {
                    let span = entry.span_of(error.position());
                    diags.push(
                        Diagnostic::error(
                            Code::HookSyntax,
                            format!("hook `{}` is not valid rhai: {}", hook.name.name, error.err_type()),
                        )
                        .label(span, error.err_type().to_string())
                        .help("hooks are written in rhai; see https://rhai.rs/book/"),
                    );
                }
            }
            compiled.push(entry);
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        Ok(Script {
            engine,
            hooks: compiled,
            tables: Arc::new(ApiTables::new(def)),
        })
    }

    /// Runs a hook call site with flow values; returns the value as an i64
    /// (booleans as 0/1).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call(
        &self,
        def: &GameDef,
        call: u16,
        args: &[i64],
        faces: &[PieceId],
        piece_zone: &[ZoneId],
        vars: &[i64],
        options: &[i64],
    ) -> Result<i64, HookError> {
        let site = &def.hook_calls[call as usize];
        let hook = &self.hooks[site.hook as usize];
        let decl = &def.hooks[site.hook as usize];
        let state = Snapshot::take(faces, piece_zone, vars, options);
        let api = GameApi {
            tables: self.tables.clone(),
            state: state.clone(),
        };
        let mut values: Vec<Dynamic> = vec![Dynamic::from(api)];
        for (value, kind) in args.iter().zip(&site.args) {
            values.push(match kind {
                HookArg::Int => Dynamic::from(*value),
                // A hook reads a piece through its face: in a sampled world
                // the faces a seat cannot see are dealt afresh.
                HookArg::Piece => Dynamic::from(faces.get(*value as usize).map_or(*value, |&f| f as i64)),
                HookArg::Bool => Dynamic::from(*value != 0),
                HookArg::Player => Dynamic::from(*value + 1),
                HookArg::Kind => Dynamic::from(self.tables.kind_names[*value as usize].clone()),
                HookArg::PieceType => Dynamic::from(self.tables.type_names[*value as usize].clone()),
            });
        }
        let mut scope = Scope::new();
        OPERATIONS.with(|n| n.set(0));
        let result = self
            .engine
            .call_fn::<Dynamic>(&mut scope, &hook.ast, &hook.name, values);
        Snapshot::give_back(state);
        let fail = |message: String, span: Span| {
            Box::new(
                Diagnostic::error(Code::HookFailed, format!("hook `{}` failed: {message}", hook.name))
                    .label(span, "here")
                    .label(site.span, "called here"),
            )
        };
        match result {
            Ok(value) => {
                let answer = if decl.returns_bool {
                    value.as_bool().map(i64::from)
                } else {
                    value.as_int()
                };
                answer.map_err(|rhai_type| {
                    let declared = if decl.returns_bool { "bool" } else { "int" };
                    let mut diag = fail(
                        format!(
                            "it returned {}, but it is declared `-> {declared}`",
                            language_type(rhai_type)
                        ),
                        hook.body_span,
                    );
                    diag.help = Some(wrong_type_help(decl.returns_bool, rhai_type));
                    diag
                })
            }
            Err(error) => {
                let mut span = hook.span_of(error.position());
                // An error in a callback (a `sort` comparer) arrives wrapped
                // in the call that ran it: say what went wrong inside.
                let mut cause = &*error;
                while let EvalAltResult::ErrorInFunctionCall(_, _, inner, _) = cause {
                    cause = inner;
                }
                let runaway = matches!(
                    cause,
                    EvalAltResult::ErrorTooManyOperations(_) | EvalAltResult::ErrorTerminated(..)
                );
                // Runaway errors carry no position: point at the likely culprit.
                if error.position().is_none() {
                    let culprit = match cause {
                        _ if runaway => ["loop", "while", "for", "do"].iter().find_map(|k| hook.find_word(k)),
                        EvalAltResult::ErrorStackOverflow(_) => hook.find_word(&format!("{}(", hook.name)),
                        _ => None,
                    };
                    span = culprit.unwrap_or(span);
                }
                let message = match cause {
                    _ if runaway => format!("it ran more than {MAX_OPERATIONS} operations (an endless loop?)"),
                    EvalAltResult::ErrorStackOverflow(_) => {
                        format!("it called itself deeper than {MAX_CALL_LEVELS} levels (endless recursion?)")
                    }
                    EvalAltResult::ErrorDataTooLarge(what, _) => {
                        format!("{what} grew past the sandbox limit")
                    }
                    EvalAltResult::ErrorRuntime(value, _) => value.to_string(),
                    EvalAltResult::ErrorFunctionNotFound(signature, _) => {
                        format!("there is no function `{signature}` in a hook's sandbox")
                    }
                    other => other.to_string().split(" (line").next().unwrap_or_default().to_string(),
                };
                let mut diag = fail(message, span);
                match cause {
                    _ if runaway => {
                        diag.help = Some("hooks must finish quickly; make sure every loop ends".into());
                    }
                    EvalAltResult::ErrorStackOverflow(_) => {
                        diag.help = Some("make sure the hook stops calling itself (a base case)".into());
                    }
                    EvalAltResult::ErrorFunctionNotFound(..) => {
                        diag.help = Some(
                            "hooks run in a sandbox: they cannot sleep, read the clock, read files or load \
                             modules; they call rhai's arithmetic, string, array and map functions and the \
                             `game` API (docs/language.md, \"Hooks\")"
                                .into(),
                        );
                    }
                    _ => {}
                }
                Err(diag)
            }
        }
    }
}

/// A value's type as the rules language names it, from rhai's name for it
/// (`i64`, `string`, `()`): a designer reads "a whole number", not "i64".
fn language_type(rhai_type: &str) -> String {
    match rhai_type {
        "i64" | "i32" | "u64" | "u32" | "INT" => "a whole number (`int`)".into(),
        "bool" => "a bool (`true` or `false`)".into(),
        "string" | "&str" | "ImmutableString" | "String" => "a string".into(),
        "char" => "a single character".into(),
        "()" => "nothing".into(),
        "array" => "a list".into(),
        "map" => "a map".into(),
        "f64" | "f32" | "decimal" => "a fraction (rules numbers are whole)".into(),
        "Fn" => "a function".into(),
        other => format!("a value of rhai's type `{other}`"),
    }
}

/// What to do about a hook whose answer is not of its declared type.
fn wrong_type_help(returns_bool: bool, rhai_type: &str) -> String {
    match (returns_bool, rhai_type) {
        (_, "()") => "a hook answers with its last expression, written without a `;` (or with `return`)".into(),
        (true, _) => "a hook declared `-> bool` answers `true`, `false` or a comparison such as `n > 0`; \
                      or declare it `-> int`"
            .into(),
        (false, _) => "a hook declared `-> int` answers a whole number such as `n + 1`; \
                       or declare it `-> bool` for a yes or no"
            .into(),
    }
}

/// [`returns::wrong_returns`] of a hook that compiled, as diagnostics.
fn wrong_return_diagnostics(hook: &HookDecl, entry: &CompiledHook) -> Vec<Diagnostic> {
    let declared = match hook.returns {
        HookType::Bool => "bool",
        HookType::Int => "int",
    };
    returns::wrong_returns(&hook.body, hook.returns)
        .into_iter()
        .map(|wrong| {
            let span = entry.literal_span(wrong.offset);
            Diagnostic::error(
                Code::HookReturnType,
                format!(
                    "hook `{}` is declared `-> {declared}` but returns {}",
                    hook.name.name, wrong.found
                ),
            )
            .label(span, format!("{} is returned here", wrong.found))
            .label(hook.name.span, format!("declared `-> {declared}`"))
            .help(match hook.returns {
                HookType::Bool => "return `true` or `false` (or a comparison), or declare another type",
                HookType::Int => "return a whole number (`0`, `n + 1`), or declare `-> bool` for a yes or no",
            })
        })
        .collect()
}

impl CompiledHook {
    /// The span of the literal that starts `offset` bytes into the body: up
    /// to its closing quote for a string, else to the end of the word.
    fn literal_span(&self, offset: usize) -> Span {
        let rest = self.body.get(offset..).unwrap_or_default();
        let len = if let Some(quoted) = rest.strip_prefix('"') {
            quoted.find('"').map_or(rest.len(), |end| end + 2)
        } else {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                .unwrap_or(rest.len())
                .max(1)
        };
        let start = self.body_span.start + offset as u32;
        Span {
            file: self.body_span.file,
            start,
            end: (start + len as u32).min(self.body_span.end),
        }
    }

    /// The span of the first whole-word occurrence of `word` in the body.
    fn find_word(&self, word: &str) -> Option<Span> {
        let bytes = self.body.as_bytes();
        let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        self.body.match_indices(word).map(|(i, _)| i).find_map(|i| {
            let before = i.checked_sub(1).map(|j| bytes[j]);
            let after = bytes.get(i + word.len()).copied();
            let word_ends_in_ident = word.ends_with(|c: char| c.is_alphanumeric());
            let whole = !before.is_some_and(is_ident) && (!word_ends_in_ident || !after.is_some_and(is_ident));
            whole.then(|| Span {
                file: self.body_span.file,
                start: self.body_span.start + i as u32,
                end: self.body_span.start + (i + word.trim_end_matches('(').len()) as u32,
            })
        })
    }

    /// Maps a position in the generated source back into the `.rules` file.
    fn span_of(&self, position: Position) -> Span {
        let (Some(line), Some(column)) = (position.line(), position.position()) else {
            return self.body_span;
        };
        let start = if line == 1 {
            self.body_span.start as i64 + column as i64 - 1 - self.header_len as i64
        } else {
            match self.line_starts.get(line - 1) {
                Some(&s) => s as i64 + column as i64 - 1,
                None => return self.body_span,
            }
        };
        let start = start.clamp(self.body_span.start as i64, self.body_span.end as i64) as u32;
        Span {
            file: self.body_span.file,
            start,
            end: (start + 1).min(self.body_span.end.max(start + 1)),
        }
    }
}

impl ApiTables {
    fn new(def: &GameDef) -> Self {
        let mut tables = ApiTables {
            players: def.players(),
            ..Default::default()
        };
        for family in &def.families {
            tables
                .families
                .insert(family.name.clone(), (family.first, family.by, family.len));
            if family.name == "box" {
                tables.box_zone = family.first;
            }
        }
        for (i, name) in def.piece_types.iter().enumerate() {
            tables.types.insert(name.clone(), crate::ir::id_from_index(i));
        }
        tables.piece_types = def.pieces.iter().map(|p| p.ty).collect();
        tables.piece_kinds = def.pieces.iter().map(|p| p.kind).collect();
        tables.piece_values = def.pieces.iter().map(|p| p.value).collect();
        let id = crate::ir::id_from_index;
        let mut sorts: Vec<(&'static str, Vec<(String, PieceFilter)>)> = vec![
            (
                "piece types",
                def.piece_types
                    .iter()
                    .enumerate()
                    .map(|(i, name)| (name.clone(), PieceFilter::Types(vec![id(i)])))
                    .collect(),
            ),
            (
                "groups",
                def.groups
                    .iter()
                    .map(|g| (g.name.clone(), PieceFilter::Types(g.types.clone())))
                    .collect(),
            ),
            (
                "kinds",
                def.kinds
                    .iter()
                    .enumerate()
                    .map(|(i, k)| (k.name.clone(), PieceFilter::Kinds(vec![id(i)])))
                    .collect(),
            ),
            (
                "sets of kinds",
                def.kind_sets
                    .iter()
                    .map(|s| (s.name.clone(), PieceFilter::Kinds(s.members.clone())))
                    .collect(),
            ),
        ];
        for (what, named) in &mut sorts {
            let mut names: Vec<String> = named.iter().map(|(n, _)| n.clone()).collect();
            names.sort();
            for (name, filter) in named.drain(..) {
                tables.filters.entry(name).or_insert(filter);
            }
            tables.filter_names.push((what, names));
        }
        tables.kinds = def.kinds.iter().map(|k| k.name.clone()).collect();
        tables.kind_names = tables.kinds.iter().map(|k| k.as_str().into()).collect();
        tables.type_names = def.piece_types.iter().map(|t| t.as_str().into()).collect();
        tables.beats = def.beats.clone();
        for var in &def.vars {
            tables
                .vars
                .insert(var.name.clone(), (var.slot, var.each, def.var_width(var)));
        }
        for (i, option) in def.options.iter().enumerate() {
            tables.options.insert(option.name.clone(), i);
        }
        tables
    }
}
