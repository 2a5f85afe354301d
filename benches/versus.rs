//! rpsdsl side by side with OpenSpiel's C++ engine and hand-written Rust, in
//! one run (issue 15): random playouts per second and MCTS iterations per
//! second, per game, with the ratios; and CFR+ iterations per second
//! (`rpsdsl solve`) on Kuhn and Leduc poker.
//!
//! `cargo bench --bench versus -- [SECONDS] [GAME...] [--iterations N] [--reps N] [--no-openspiel] [--only random|mcts|cfr]`
//!
//! - SECONDS: the budget of each measurement (default 1). MCTS measures
//!   whole self-play games, so one can run over the budget.
//! - GAME: any of the names in [`GAMES`] (default: all of them).
//! - `--iterations N`: MCTS iterations (OpenSpiel: simulations) per
//!   decision, the same on both sides (default 400).
//! - `--reps N`: interleaved repetitions per measurement (default 3); the
//!   table shows medians, and ratios of medians.
//! - `--no-openspiel`: rpsdsl and the native baselines only.
//! - `--only random`, `--only mcts` or `--only cfr`: one of the measures
//!   (for a profile of one of them).
//! - `--workflow`: also time the designer's workflow on both back ends:
//!   `compare` of Rubber Paper Scissors against a variant between
//!   `mcts:iterations=200` players (`--workflow-games N`, default 2000), and
//!   one RPS3 game between such players.
//!
//! rpsdsl is measured on both back ends: the compiled tier (the default)
//! and the interpreter (`--engine interpreter`, the reference).
//!
//! OpenSpiel runs in `benches/versus/openspiel_rates.py`, in a venv that
//! `benches/versus/setup.sh` creates once in `target/versus-venv` (python3
//! and, the first time, the network for `pip install open-spiel`). See
//! `benches/README.md`.

#[path = "versus/goals.rs"]
mod goals;
#[path = "versus/native/connect_four.rs"]
mod native_connect_four;
#[path = "versus/native/rps3.rs"]
mod native_rps3;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use serde_json::Value;

use rpsdsl::agents;
use rpsdsl::check::{self, FsLoader};
use rpsdsl::engine::{Choice, Engine, Game, State};
use rpsdsl::ir::OptionValue;
use rpsdsl::session;
use rpsdsl::solve;

/// A hand-written baseline: random games until the budget has passed,
/// returning (games, decisions, wall time, [first seat's wins, second
/// seat's wins, draws]).
type Native = fn(Duration, u64) -> (u64, u64, Duration, [u64; 3]);

/// One game as both engines play it.
struct Versus {
    name: &'static str,
    rules: &'static str,
    /// The game as `pyspiel.load_game` takes it, every parameter that
    /// matters spelled out (`None`: OpenSpiel has no such game).
    openspiel: Option<&'static str>,
    /// rpsdsl options and the values OpenSpiel's parameters above mean. An
    /// option whose default differs is set to the value, and the run says so.
    options: &'static [(&'static str, i64)],
    native: Option<Native>,
    /// Whether to measure MCTS (RPS3 has no OpenSpiel counterpart, and a
    /// whole RPS3 game between search players takes many seconds).
    mcts: bool,
}

const GAMES: &[Versus] = &[
    Versus {
        name: "tic_tac_toe",
        rules: "games/classic/tic_tac_toe.rules",
        openspiel: Some("tic_tac_toe"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "connect_four",
        rules: "games/classic/connect_four.rules",
        openspiel: Some("connect_four(rows=6,columns=7,x_in_row=4)"),
        options: &[],
        native: Some(native_connect_four::random_playouts),
        mcts: true,
    },
    Versus {
        name: "breakthrough",
        rules: "games/classic/breakthrough.rules",
        openspiel: Some("breakthrough(rows=8,columns=8)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "kuhn_poker",
        rules: "games/classic/kuhn_poker.rules",
        openspiel: Some("kuhn_poker(players=2)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "leduc_poker",
        rules: "games/classic/leduc_poker.rules",
        openspiel: Some("leduc_poker(players=2,action_mapping=false,suit_isomorphism=false)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "goofspiel",
        rules: "games/classic/goofspiel.rules",
        openspiel: Some(
            "goofspiel(players=2,num_cards=13,points_order=random,returns_type=win_loss,imp_info=false,num_turns=-1)",
        ),
        options: &[("num_cards", 13)],
        native: None,
        mcts: true,
    },
    Versus {
        name: "liars_dice",
        rules: "games/classic/liars_dice.rules",
        openspiel: Some("liars_dice(players=2,numdice=1,dice_sides=6,bidding_rule=reset-face)"),
        options: &[("dice", 1), ("faces", 6)],
        native: None,
        mcts: true,
    },
    Versus {
        name: "nim",
        rules: "games/classic/nim.rules",
        openspiel: Some("nim(pile_sizes=1;3;5;7,is_misere=true)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "pig",
        rules: "games/classic/pig.rules",
        openspiel: Some("pig(players=2,winscore=100,diceoutcomes=6,horizon=1000,piglet=false)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "mancala",
        rules: "games/classic/mancala.rules",
        openspiel: Some("mancala"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "othello",
        rules: "games/classic/othello.rules",
        openspiel: Some("othello"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "clobber",
        rules: "games/classic/clobber.rules",
        openspiel: Some("clobber(rows=5,columns=6)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "dots_and_boxes",
        rules: "games/classic/dots_and_boxes.rules",
        openspiel: Some("dots_and_boxes(num_rows=2,num_cols=2,utility_margin=false)"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "hex",
        rules: "games/classic/hex.rules",
        openspiel: Some("hex"),
        options: &[],
        native: None,
        mcts: true,
    },
    Versus {
        name: "rps3",
        rules: "games/rps3.rules",
        openspiel: None,
        options: &[("max_turns", 200)],
        native: Some(native_rps3::random_playouts),
        mcts: false,
    },
];

struct Args {
    seconds: f64,
    iterations: u32,
    reps: usize,
    openspiel: bool,
    /// Run only this measure (`random` or `mcts`).
    only: Option<String>,
    games: Vec<&'static Versus>,
    /// Games of the workflow's compare, if it is timed.
    workflow: Option<u64>,
}

fn usage(problem: &str) -> ! {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    eprintln!("versus: {problem}");
    eprintln!(
        "usage: cargo bench --bench versus -- [SECONDS] [GAME...] [--iterations N] [--reps N] [--no-openspiel] [--only random|mcts|cfr] [--workflow] [--workflow-games N]"
    );
    eprintln!("games: {}", names.join(" "));
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut args = Args {
        seconds: 1.0,
        iterations: 400,
        reps: 3,
        openspiel: true,
        only: None,
        games: vec![],
        workflow: None,
    };
    let mut it = std::env::args().skip(1).filter(|a| a != "--bench");
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        let mut value = |name: &str| -> u64 {
            inline
                .clone()
                .or_else(|| it.next())
                .and_then(|v| v.parse().ok())
                .filter(|&v| v > 0)
                .unwrap_or_else(|| usage(&format!("{name} takes a whole number above 0")))
        };
        match flag.as_str() {
            "--iterations" => args.iterations = value("--iterations") as u32,
            "--reps" => args.reps = value("--reps") as usize,
            "--no-openspiel" => args.openspiel = false,
            "--workflow" => args.workflow = Some(args.workflow.unwrap_or(2000)),
            "--workflow-games" => args.workflow = Some(value("--workflow-games")),
            "--only" => match inline.clone().or_else(|| it.next()).as_deref() {
                Some(m @ ("random" | "mcts" | "cfr")) => args.only = Some(m.to_string()),
                _ => usage("--only takes `random`, `mcts` or `cfr`"),
            },
            "-h" | "--help" => usage("help"),
            _ if arg.parse::<f64>().is_ok_and(|s| s > 0.0) => args.seconds = arg.parse().unwrap(),
            _ => match GAMES.iter().find(|g| g.name == arg) {
                Some(g) => args.games.push(g),
                None => usage(&format!("unknown game or flag `{arg}`")),
            },
        }
    }
    // In the table's order, each once.
    args.games = GAMES
        .iter()
        .filter(|g| args.games.is_empty() || args.games.iter().any(|a| a.name == g.name))
        .collect();
    args
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A game checked and put on `engine`, with the options both engines play
/// it with, and notes on options that had to be set.
fn load(v: &Versus, engine: Engine) -> (Game, Vec<OptionValue>, Vec<String>) {
    let path = root().join(v.rules);
    let mut def = match check::check_file(&path, &FsLoader) {
        Ok(c) => c.def,
        Err(_) => {
            eprintln!("versus: {} does not check; run `rpsdsl check` on it", v.rules);
            std::process::exit(1);
        }
    };
    let mut notes: Vec<String> = def
        .use_engine(engine)
        .into_iter()
        .map(|left| format!("{}: the compiled tier left {left}", v.name))
        .collect();
    let mut options = def.default_options();
    for &(name, want) in v.options {
        let Some(i) = def.options.iter().position(|o| o.name == name) else {
            eprintln!(
                "versus: {} has no option `{name}`; update GAMES in benches/versus.rs",
                v.rules
            );
            std::process::exit(1);
        };
        if options[i] != OptionValue::Int(want) {
            notes.push(format!(
                "{}: option {name} set to {want} (default {:?}) to play the same game",
                v.name, options[i]
            ));
            options[i] = OptionValue::Int(want);
        }
    }
    (def, options, notes)
}

/// One measurement: a rate, and the games and decisions behind it.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    rate: f64,
    games: u64,
    decisions: u64,
}

/// rpsdsl's random playouts: the loop OpenSpiel's `evaluate_bots` runs,
/// through the library API, uniform over the legal answers.
fn rpsdsl_random(def: &Game, options: &[OptionValue], budget: Duration, seed: u64) -> (Run, [u64; 3]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut events = Vec::with_capacity(256);
    let mut choices: Vec<Choice> = Vec::with_capacity(def.players());
    let (mut games, mut decisions) = (0u64, 0u64);
    // Wins of the first seat, of the second, draws (and unfinished games).
    let mut results = [0u64; 3];
    let started = Instant::now();
    loop {
        events.clear();
        let mut state = State::start(def, options, seed.wrapping_add(games), vec![], &mut events)
            .unwrap_or_else(|e| panic!("the game does not start: {}", e.message));
        while let Some(pending) = state.pending() {
            choices.clear();
            for &seat in pending.who() {
                let legal = pending.legal(seat);
                choices.push(Choice::new(seat, legal[rng.random_range(0..legal.len())]));
            }
            decisions += choices.len() as u64;
            events.clear();
            if let Err(e) = state.apply(def, &choices, &mut events) {
                panic!("a random game failed: {e}");
            }
        }
        match state.outcome().and_then(|o| o.winner) {
            Some(w) if (w as usize) < 2 => results[w as usize] += 1,
            _ => results[2] += 1,
        }
        games += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    let run = Run {
        rate: games as f64 / started.elapsed().as_secs_f64(),
        games,
        decisions,
    };
    (run, results)
}

/// rpsdsl's MCTS: whole self-play games between two `mcts` agents with
/// `iterations` a decision and c = 1 (OpenSpiel's uct_c 2 on rewards of
/// -1..1 is c = 1 on rpsdsl's 0..1), until the budget has passed.
/// Iterations are counted as the searches made times `iterations`: the agent
/// searches every decision with more than one legal answer, exactly
/// `iterations` times.
fn rpsdsl_mcts(def: &Game, options: &[OptionValue], budget: Duration, iterations: u32, seed: u64) -> Run {
    let spec = format!("mcts:iterations={iterations}:c=1");
    let (mut games, mut decisions, mut searches) = (0u64, 0u64, 0u64);
    let mut events = vec![];
    let started = Instant::now();
    loop {
        let game_seed = seed.wrapping_add(1000 * games);
        let mut players = agents::from_spec(&spec, def.players(), game_seed).expect("the mcts agent exists");
        events.clear();
        let mut state = State::start(def, options, game_seed, vec![], &mut events)
            .unwrap_or_else(|e| panic!("the game does not start: {}", e.message));
        session::tell_agents(def, &events, &mut players);
        while let Some(pending) = state.pending() {
            let decision = pending.decision();
            let choices: Vec<Choice> = pending
                .who()
                .iter()
                .map(|&seat| {
                    let legal = pending.legal(seat);
                    if legal.len() > 1 {
                        searches += 1;
                    }
                    session::agent_choice(def, &state, decision, seat, legal, players[seat as usize].as_mut())
                })
                .collect();
            decisions += choices.len() as u64;
            events.clear();
            if let Err(e) = state.apply(def, &choices, &mut events) {
                panic!("an MCTS game failed: {e}");
            }
            session::tell_agents(def, &events, &mut players);
        }
        games += 1;
        if started.elapsed() >= budget {
            break;
        }
    }
    Run {
        rate: (searches * u64::from(iterations)) as f64 / started.elapsed().as_secs_f64(),
        games,
        decisions,
    }
}

/// The Python process that measures OpenSpiel, one JSON command a line.
struct OpenSpiel {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    version: String,
}

impl OpenSpiel {
    fn start() -> Result<OpenSpiel, String> {
        let setup = root().join("benches/versus/setup.sh");
        let out = Command::new("sh")
            .arg(&setup)
            .stderr(Stdio::inherit())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", setup.display()))?;
        if !out.status.success() {
            return Err(format!("{} failed ({})", setup.display(), out.status));
        }
        let python = String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .map(|l| PathBuf::from(l.trim()))
            .ok_or("setup.sh printed no python")?;
        let script = root().join("benches/versus/openspiel_rates.py");
        let mut child = Command::new(&python)
            .arg(&script)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        let mut os = OpenSpiel {
            child,
            input,
            output,
            version: String::new(),
        };
        let ready = os.read()?;
        os.version = ready["pyspiel"].as_str().unwrap_or("?").to_string();
        Ok(os)
    }

    fn read(&mut self) -> Result<Value, String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err("openspiel_rates.py exited".into()),
            Ok(_) => serde_json::from_str(&line).map_err(|e| format!("bad answer `{}`: {e}", line.trim())),
            Err(e) => Err(format!("reading openspiel_rates.py: {e}")),
        }
    }

    /// Runs one command; the answer's fields, or why there are none.
    fn ask(&mut self, command: Value) -> Result<Value, String> {
        writeln!(self.input, "{command}").map_err(|e| format!("writing to openspiel_rates.py: {e}"))?;
        self.input.flush().map_err(|e| e.to_string())?;
        let answer = self.read()?;
        if answer["ok"].as_bool() == Some(true) {
            Ok(answer)
        } else {
            Err(answer["error"].as_str().unwrap_or("failed").to_string())
        }
    }

    fn run(&mut self, command: Value) -> Result<Run, String> {
        let a = self.ask(command)?;
        let games = a["games"].as_u64().unwrap_or(0);
        Ok(Run {
            rate: a["rate"].as_f64().ok_or("no rate")?,
            games,
            decisions: (a["decisions_per_game"].as_f64().unwrap_or(0.0) * games as f64).round() as u64,
        })
    }
}

impl Drop for OpenSpiel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The repetitions of one measure on one side.
#[derive(Default)]
struct Side {
    runs: Vec<Run>,
    error: Option<String>,
}

impl Side {
    fn push(&mut self, result: Result<Run, String>) {
        match result {
            Ok(run) => self.runs.push(run),
            Err(e) => self.error = Some(e),
        }
    }

    fn median(&self) -> Option<f64> {
        if self.error.is_some() || self.runs.is_empty() {
            return None;
        }
        let mut rates: Vec<f64> = self.runs.iter().map(|r| r.rate).collect();
        rates.sort_by(f64::total_cmp);
        let n = rates.len();
        Some(if n % 2 == 1 {
            rates[n / 2]
        } else {
            (rates[n / 2 - 1] + rates[n / 2]) / 2.0
        })
    }

    fn length(&self) -> Option<f64> {
        let games: u64 = self.runs.iter().map(|r| r.games).sum();
        let decisions: u64 = self.runs.iter().map(|r| r.decisions).sum();
        (games > 0 && decisions > 0).then(|| decisions as f64 / games as f64)
    }
}

/// One game's row in a table.
struct Row {
    name: &'static str,
    /// rpsdsl on the compiled tier.
    rpsdsl: Side,
    /// rpsdsl on the interpreter.
    interpreter: Side,
    openspiel: Side,
    native: Side,
    /// OpenSpiel's mean decisions per game under random play (measured apart).
    openspiel_length: Option<f64>,
    /// Wins of the first seat, of the second, draws: rpsdsl and native.
    results: [[u64; 3]; 2],
    bot: Option<String>,
}

impl Row {
    /// A row for `name` with nothing measured yet.
    fn new(name: &'static str) -> Row {
        Row {
            name,
            rpsdsl: Side::default(),
            interpreter: Side::default(),
            openspiel: Side::default(),
            native: Side::default(),
            openspiel_length: None,
            results: [[0; 3]; 2],
            bot: None,
        }
    }
}

fn rate(x: Option<f64>) -> String {
    match x {
        Some(r) if r >= 100.0 => format!("{r:.0}"),
        Some(r) => format!("{r:.1}"),
        None => "n/a".into(),
    }
}

fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 && a / b < 0.1 => format!("{:.3}x", a / b),
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "-".into(),
    }
}

fn length(x: Option<f64>) -> String {
    x.map_or("-".into(), |l| format!("{l:.2}"))
}

fn main() {
    let args = parse_args();
    let budget = Duration::from_secs_f64(args.seconds);
    let want_openspiel = args.openspiel && args.games.iter().any(|g| g.openspiel.is_some());
    let mut openspiel = match want_openspiel {
        true => match OpenSpiel::start() {
            Ok(os) => Some(os),
            Err(e) => {
                eprintln!("versus: OpenSpiel is not available ({e}); its columns show n/a");
                None
            }
        },
        false => None,
    };
    let mut notes = vec![];
    let loaded: Vec<(&Versus, Game, Vec<OptionValue>)> = args
        .games
        .iter()
        .map(|v| {
            let (def, options, n) = load(v, Engine::Compiled);
            notes.extend(n);
            (*v, def, options)
        })
        .collect();
    let reference: Vec<Game> = args.games.iter().map(|v| load(v, Engine::Interpreter).0).collect();
    let mut played = vec![];
    for (v, def, options) in &loaded {
        let set: Vec<String> = def
            .options
            .iter()
            .zip(options)
            .map(|(o, value)| format!("{}={}", o.name, value.render(&o.ty)))
            .collect();
        let set = if set.is_empty() {
            "no options".to_string()
        } else {
            set.join(",")
        };
        played.push(format!(
            "{}: {} ({set}) vs OpenSpiel {}",
            v.name,
            v.rules,
            v.openspiel.unwrap_or("-")
        ));
    }

    println!(
        "rpsdsl versus OpenSpiel {} (C++ through pyspiel) and hand-written Rust; one thread each, \
         {} s a measurement, median of {} interleaved repetitions",
        openspiel.as_ref().map_or("(not run)", |o| o.version.as_str()),
        args.seconds,
        args.reps
    );
    let started = Instant::now();

    // Random playouts.
    let mut random_rows = vec![];
    let wants = |measure: &str| args.only.as_ref().is_none_or(|m| m == measure);
    for ((v, def, options), reference) in loaded.iter().zip(&reference).filter(|_| wants("random")) {
        eprint!("random playouts: {} ", v.name);
        let mut row = Row::new(v.name);
        for rep in 0..args.reps {
            let seed = 1 + rep as u64 * 1_000_003;
            let (run, results) = rpsdsl_random(def, options, budget, seed);
            row.rpsdsl.push(Ok(run));
            row.interpreter
                .push(Ok(rpsdsl_random(reference, options, budget, seed).0));
            (0..3).for_each(|i| row.results[0][i] += results[i]);
            match (v.openspiel, openspiel.as_mut()) {
                (Some(name), Some(os)) => row.openspiel.push(os.run(serde_json::json!({
                    "measure": "random", "game": name, "seconds": args.seconds, "seed": seed,
                }))),
                (Some(_), None) => row.openspiel.error = Some("not run".into()),
                (None, _) => row.openspiel.error = Some("no such game".into()),
            }
            if let Some(native) = v.native {
                let (games, decisions, took, results) = native(budget, seed);
                (0..3).for_each(|i| row.results[1][i] += results[i]);
                row.native.push(Ok(Run {
                    rate: games as f64 / took.as_secs_f64(),
                    games,
                    decisions,
                }));
            }
            eprint!(".");
        }
        if let (Some(name), Some(os)) = (v.openspiel, openspiel.as_mut()) {
            let length = os.ask(serde_json::json!({
                "measure": "length", "game": name, "seconds": 0.5, "seed": 7,
            }));
            row.openspiel_length = length.ok().and_then(|a| a["decisions_per_game"].as_f64());
        }
        eprintln!();
        random_rows.push(row);
    }

    // MCTS.
    let mut mcts_rows = vec![];
    for ((v, def, options), reference) in loaded
        .iter()
        .zip(&reference)
        .filter(|((v, _, _), _)| v.mcts && wants("mcts"))
    {
        eprint!("MCTS: {} ", v.name);
        let mut row = Row::new(v.name);
        for rep in 0..args.reps {
            let seed = 1 + rep as u64 * 1_000_003;
            row.rpsdsl
                .push(Ok(rpsdsl_mcts(def, options, budget, args.iterations, seed)));
            row.interpreter
                .push(Ok(rpsdsl_mcts(reference, options, budget, args.iterations, seed)));
            match (v.openspiel, openspiel.as_mut()) {
                (Some(name), Some(os)) => {
                    let answer = os.ask(serde_json::json!({
                        "measure": "mcts", "game": name, "seconds": args.seconds, "seed": seed,
                        "sims": args.iterations,
                    }));
                    if let Ok(a) = &answer {
                        row.bot = a["bot"].as_str().map(str::to_string);
                    }
                    row.openspiel.push(answer.and_then(|a| {
                        let games = a["games"].as_u64().unwrap_or(0);
                        Ok(Run {
                            rate: a["rate"].as_f64().ok_or("no rate")?,
                            games,
                            decisions: a["decisions"].as_u64().unwrap_or(0),
                        })
                    }));
                }
                (Some(_), None) => row.openspiel.error = Some("not run".into()),
                (None, _) => row.openspiel.error = Some("no such game".into()),
            }
            eprint!(".");
        }
        eprintln!();
        mcts_rows.push(row);
    }
    // CFR+ on the whole tree, where OpenSpiel's solver runs in time.
    let mut cfr_rows = vec![];
    let mut mccfr_rows = vec![];
    for (v, def, options) in loaded
        .iter()
        .filter(|(v, _, _)| CFR_GAMES.contains(&v.name) && wants("cfr"))
    {
        eprint!("CFR+: {} ", v.name);
        let mut ours = vec![];
        let mut theirs = vec![];
        for _ in 0..args.reps {
            ours.push(rpsdsl_cfr(def, options, budget));
            if let (Some(name), Some(os)) = (v.openspiel, openspiel.as_mut()) {
                theirs.push(os.ask(serde_json::json!({
                    "measure": "cfr", "game": name, "seconds": args.seconds,
                })));
            }
            eprint!(".");
        }
        eprintln!();
        cfr_rows.push((v.name, ours, theirs));
        eprint!("MCCFR: {} ", v.name);
        for (sampling, word) in [
            (solve::Sampling::External, "external"),
            (solve::Sampling::Outcome, "outcome"),
        ] {
            let (mut ours, mut by_engine) = (vec![], vec![]);
            let mut theirs = vec![];
            for _ in 0..args.reps {
                ours.push(rpsdsl_mccfr(def, options, budget, sampling));
                by_engine.push(rpsdsl_mccfr_by_engine(def, options, budget, sampling));
                if let (Some(name), Some(os)) = (v.openspiel, openspiel.as_mut()) {
                    theirs.push(os.ask(serde_json::json!({
                        "measure": "mccfr", "sampling": word, "game": name, "seconds": args.seconds,
                    })));
                }
                eprint!(".");
            }
            mccfr_rows.push((v.name, word, ours, theirs.clone()));
            let word = if sampling == solve::Sampling::External {
                "ext/engine"
            } else {
                "out/engine"
            };
            mccfr_rows.push((v.name, word, by_engine, theirs));
        }
        eprintln!();
    }
    drop(openspiel);
    let workflow = args.workflow.map(workflow);

    print_random(&random_rows);
    print_mcts(&mcts_rows, args.iterations);
    goals::print_goals(&random_rows, &mcts_rows);
    print_cfr(&cfr_rows);
    print_mccfr(&mccfr_rows);
    if let Some(lines) = workflow {
        println!();
        println!("the designer's workflow (wall time, one run each):");
        for line in lines {
            println!("  {line}");
        }
    }
    for row in random_rows.iter().chain(&mcts_rows) {
        for (side, e) in [("OpenSpiel", &row.openspiel.error), ("native", &row.native.error)] {
            if let Some(e) = e.as_ref().filter(|e| *e != "no such game" && *e != "not run") {
                notes.push(format!("{}: {side} failed: {e}", row.name));
            }
        }
    }
    println!();
    println!("games (rpsdsl file and options, and the OpenSpiel game with its parameters):");
    for line in &played {
        println!("  {line}");
    }
    println!();
    println!("notes:");
    for note in &notes {
        println!("  - {note}");
    }
    println!(
        "  - ratio = rpsdsl / OpenSpiel (1.00x or more: rpsdsl as fast or faster); \
         rpsdsl/native: the goal is 0.50x or more."
    );
    println!(
        "  - OpenSpiel's random playouts are one pyspiel.evaluate_bots call a game, with C++ uniform \
         random bots; Python only starts each game."
    );
    println!(
        "  - MCTS: OpenSpiel's MCTSBot searches the true state (liar's dice included: it sees both \
         dice); goofspiel is converted to turn-based for it. rpsdsl's mcts is IS-MCTS everywhere \
         (it samples what its seat cannot see) and searches both seats of a simultaneous move at once. \
         rpsdsl pays 1/0/0.5 for a win/loss/draw, OpenSpiel the game's returns (chips in poker)."
    );
    println!(
        "  - MCTS decisions/game count every answer; OpenSpiel searches forced ones too (and counts \
         their simulations), rpsdsl plays them without searching."
    );
    if !mccfr_rows.is_empty() {
        println!(
            "  - MCCFR: `external`/`outcome` are `solve --method mccfr` where the tree fits (the traversals walk \
             the tree built; its build is inside the budget); `ext/engine`/`out/engine` are the sampler a game too \
             big for its tree gets (every traversal plays the engine), beside the same OpenSpiel figures."
        );
    }
    if !cfr_rows.is_empty() {
        println!(
            "  - CFR+: rpsdsl's Leduc poker has no suits (the rules never read them), so its tree has 288 \
             information sets to OpenSpiel's 936; Kuhn poker's trees are the same size (12)."
        );
    }
    println!("  - total time {:.0} s", started.elapsed().as_secs_f64());
}

/// The games whose whole tree CFR+ solves in a bench's time.
const CFR_GAMES: [&str; 2] = ["kuhn_poker", "leduc_poker"];

/// CFR+ iterations per second on the whole tree (built first, not timed),
/// and the average strategy's NashConv at the end.
fn rpsdsl_cfr(def: &Game, options: &[OptionValue], budget: Duration) -> (f64, f64) {
    let limits = solve::Limits {
        nodes: solve::DEFAULT_NODES,
        depth: None,
    };
    let tree = solve::Tree::build(def, options, limits, solve::Payoff::Score).expect("the tree fits");
    let mut cfr = solve::Cfr::new(&tree);
    let started = Instant::now();
    while started.elapsed() < budget {
        cfr.iterate();
    }
    let rate = cfr.iterations() as f64 / started.elapsed().as_secs_f64();
    (rate, tree.nash_conv(&cfr.average()))
}

/// Monte Carlo CFR iterations per second (one traversal per seat each) on
/// one thread, as `solve --method mccfr` runs it where the tree fits (its
/// traversals walk the tree built), and the average strategy's NashConv
/// after the budget. The budget is wall time with the tree's build
/// counted in it (the rate is over the iterating alone).
fn rpsdsl_mccfr(def: &Game, options: &[OptionValue], budget: Duration, sampling: solve::Sampling) -> (f64, f64) {
    let limits = solve::Limits {
        nodes: solve::DEFAULT_NODES,
        depth: None,
    };
    let started = Instant::now();
    let tree = solve::Tree::build(def, options, limits, solve::Payoff::Score).expect("the tree fits");
    let mut mccfr = solve::TreeMccfr::new(&tree, sampling, 1);
    let iterating = Instant::now();
    while started.elapsed() < budget {
        for _ in 0..64 {
            mccfr.iterate();
        }
    }
    let rate = mccfr.iterations() as f64 / iterating.elapsed().as_secs_f64();
    (rate, tree.nash_conv(&mccfr.average()))
}

/// As [`rpsdsl_mccfr`], with the sampler that a game too big for its tree
/// needs: every traversal plays the engine from a fresh deal (the tree is
/// built, untimed, only to measure NashConv).
fn rpsdsl_mccfr_by_engine(
    def: &Game,
    options: &[OptionValue],
    budget: Duration,
    sampling: solve::Sampling,
) -> (f64, f64) {
    let limits = solve::Limits {
        nodes: solve::DEFAULT_NODES,
        depth: None,
    };
    let tree = solve::Tree::build(def, options, limits, solve::Payoff::Score).expect("the tree fits");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("one thread");
    let mut sampler =
        solve::Sampler::new(def, options, solve::Payoff::Score, 1, solve::SAMPLED_DEPTH).with_sampling(sampling);
    let started = Instant::now();
    while started.elapsed() < budget {
        sampler.batch(&pool, None).expect("the game samples");
    }
    let iterations = sampler.traversals() as f64 / def.players() as f64;
    let rate = iterations / started.elapsed().as_secs_f64();
    (rate, tree.nash_conv(&sampler.profile_on(&tree)))
}

/// A game, its sampling, and per repetition rpsdsl's (rate, NashConv) and
/// OpenSpiel's answer.
type MccfrRow = (&'static str, &'static str, Vec<(f64, f64)>, Vec<Result<Value, String>>);

fn print_mccfr(rows: &[MccfrRow]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "Monte Carlo CFR iterations/s (a traversal per seat each; one thread), median of the repetitions, and \
         NashConv after the budget"
    );
    println!(
        "{:<14} {:<10} {:>10} {:>14} {:>8} {:>13} {:>13}",
        "game", "sampling", "rpsdsl", "OpenSpiel C++", "ratio", "NashConv rs", "NashConv OS"
    );
    let median = |mut v: Vec<f64>| -> Option<f64> {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied()
    };
    for (name, sampling, ours, theirs) in rows {
        let rate = median(ours.iter().map(|r| r.0).collect()).unwrap_or(f64::NAN);
        let nash = median(ours.iter().map(|r| r.1).collect()).unwrap_or(f64::NAN);
        let field = |key: &str| {
            median(
                theirs
                    .iter()
                    .filter_map(|t| t.as_ref().ok()?.get(key)?.as_f64())
                    .collect(),
            )
        };
        let (os_rate, os_nash) = (field("rate"), field("nash_conv"));
        let shown = |v: Option<f64>, f: &dyn Fn(f64) -> String| v.map_or("n/a".to_string(), f);
        println!(
            "{name:<14} {sampling:<10} {rate:>10.0} {:>14} {:>8} {nash:>13.2e} {:>13}",
            shown(os_rate, &|r| format!("{r:.0}")),
            shown(os_rate, &|r| format!("{:.2}x", rate / r)),
            shown(os_nash, &|n| format!("{n:.2e}")),
        );
    }
}

type CfrRow = (&'static str, Vec<(f64, f64)>, Vec<Result<Value, String>>);

fn print_cfr(rows: &[CfrRow]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!("CFR+ iterations/s on the whole tree, median of the repetitions, and NashConv after the budget");
    println!(
        "{:<14} {:>10} {:>14} {:>8} {:>13} {:>13}",
        "game", "rpsdsl", "OpenSpiel C++", "ratio", "NashConv rs", "NashConv OS"
    );
    for (name, ours, theirs) in rows {
        let median = |mut v: Vec<f64>| -> Option<f64> {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        };
        let rate = median(ours.iter().map(|o| o.0).collect());
        let nash = median(ours.iter().map(|o| o.1).collect());
        let os_rate = median(
            theirs
                .iter()
                .filter_map(|a| a.as_ref().ok()?["rate"].as_f64())
                .collect(),
        );
        let os_nash = median(
            theirs
                .iter()
                .filter_map(|a| a.as_ref().ok()?["nash_conv"].as_f64())
                .collect(),
        );
        let show = |v: Option<f64>, digits: usize| v.map_or("n/a".to_string(), |v| format!("{v:.digits$}"));
        let ratio = match (rate, os_rate) {
            (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
            _ => "-".to_string(),
        };
        println!(
            "{name:<14} {:>10} {:>14} {ratio:>8} {:>13} {:>13}",
            show(rate, 0),
            show(os_rate, 0),
            nash.map_or("n/a".into(), |v| format!("{v:.2e}")),
            os_nash.map_or("n/a".into(), |v| format!("{v:.2e}"))
        );
    }
}

fn print_random(rows: &[Row]) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "random playouts (games/s), median of each side's repetitions; rpsdsl on the compiled tier, \
         then on the interpreter"
    );
    println!(
        "{:<14} {:>10} {:>14} {:>7} {:>10} {:>7} {:>10} {:>14}   {:>24}",
        "game",
        "compiled",
        "OpenSpiel C++",
        "ratio",
        "interp.",
        "ratio",
        "native",
        "rpsdsl/native",
        "decisions/game rs/OS/nat"
    );
    for row in rows {
        let (r, o, n) = (row.rpsdsl.median(), row.openspiel.median(), row.native.median());
        let i = row.interpreter.median();
        let lengths = format!(
            "{} / {} / {}",
            length(row.rpsdsl.length()),
            length(row.openspiel_length),
            length(row.native.length())
        );
        println!(
            "{:<14} {:>10} {:>14} {:>7} {:>10} {:>7} {:>10} {:>14}   {:>24}",
            row.name,
            rate(r),
            rate(o),
            ratio(r, o),
            rate(i),
            ratio(i, o),
            if row.native.runs.is_empty() {
                "-".into()
            } else {
                rate(n)
            },
            ratio(r, n),
            lengths
        );
    }
    let with_native: Vec<&Row> = rows.iter().filter(|r| !r.native.runs.is_empty()).collect();
    if !with_native.is_empty() {
        println!("results of random play, first seat wins / second seat wins / draws:");
        for row in with_native {
            let pct = |x: [u64; 3]| {
                let n = x.iter().sum::<u64>().max(1) as f64;
                format!(
                    "{:.1}% / {:.1}% / {:.1}%",
                    100.0 * x[0] as f64 / n,
                    100.0 * x[1] as f64 / n,
                    100.0 * x[2] as f64 / n
                )
            };
            println!(
                "  {:<12} rpsdsl {}   native {}",
                row.name,
                pct(row.results[0]),
                pct(row.results[1])
            );
        }
    }
}

fn print_mcts(rows: &[Row], iterations: u32) {
    if rows.is_empty() {
        return;
    }
    println!();
    println!("MCTS iterations/s at {iterations} iterations a decision, self-play, median of each side's repetitions");
    println!(
        "{:<14} {:>10} {:>14} {:>7} {:>10} {:>7}   {:<10} {:>22}",
        "game", "compiled", "OpenSpiel C++", "ratio", "interp.", "ratio", "OS bot", "decisions/game rs/OS"
    );
    for row in rows {
        let (r, o, i) = (row.rpsdsl.median(), row.openspiel.median(), row.interpreter.median());
        println!(
            "{:<14} {:>10} {:>14} {:>7} {:>10} {:>7}   {:<10} {:>22}",
            row.name,
            rate(r),
            rate(o),
            ratio(r, o),
            rate(i),
            ratio(i, o),
            row.bot.as_deref().unwrap_or("-"),
            format!("{} / {}", length(row.rpsdsl.length()), length(row.openspiel.length()))
        );
    }
}

/// Times the designer's workflow with the release binary, on both back
/// ends: `compare` between strong players, and one RPS3 game between them.
fn workflow(games: u64) -> Vec<String> {
    let binary = env!("CARGO_BIN_EXE_rpsdsl");
    let time = |args: &[String]| -> String {
        let started = Instant::now();
        let out = Command::new(binary).args(args).current_dir(root()).output();
        match out {
            Ok(out) if out.status.success() => format!("{:.2} s", started.elapsed().as_secs_f64()),
            Ok(out) => format!(
                "failed: {}",
                String::from_utf8_lossy(&out.stderr).lines().last().unwrap_or("")
            ),
            Err(e) => format!("cannot run {binary}: {e}"),
        }
    };
    let mut lines = vec![];
    for engine in ["compiled", "interpreter"] {
        eprintln!("workflow: {engine}");
        let compare: Vec<String> = [
            "compare",
            "games/rubber_paper_scissors.rules",
            "games/variants/fourth_token_six.rules",
            "-n",
            &games.to_string(),
            "--agents",
            "mcts:iterations=200",
            "--seed",
            "1",
            "--engine",
            engine,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        lines.push(format!(
            "{engine:<11} compare rubber_paper_scissors fourth_token_six -n {games} mcts:iterations=200: {}",
            time(&compare)
        ));
        let game: Vec<String> = [
            "run",
            "games/rps3.rules",
            "--agents",
            "mcts:iterations=200",
            "--seed",
            "1",
            "--engine",
            engine,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        lines.push(format!(
            "{engine:<11} one RPS3 game, mcts:iterations=200 both seats: {}",
            time(&game)
        ));
    }
    lines
}
