//! The command line: clap commands, file I/O and printing. No game logic.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

/// Like `println!`, but a closed pipe (`rpsdsl ... | head`) ends quietly
/// instead of panicking, and any other failure to write (a full disk) is
/// said and ends the command with exit code 1: see [`stdout_failed`].
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        if let Err(error) = writeln!(out, $($arg)*).and_then(|()| out.flush()) {
            $crate::cli::stdout_failed(&error);
        }
    }};
}

mod output;

pub(crate) use output::{print_bytes, read_record, report, stdout_failed};

mod analyze_cmd;
mod check_cmd;
mod compare_cmd;
mod exact_cmd;
mod exploit_cmd;
mod fmt_cmd;
mod merge_cmd;
mod options_cmd;
mod play_cmd;
mod print_cmd;
mod render_cmd;
mod replay_cmd;
mod run_cmd;
mod screen;
mod setup;
// The studio writes transcripts with the same header as the command line.
mod simulate_cmd;
mod solve_cmd;
mod solve_report;
mod studio_cmd;
mod sweep_cmd;
mod term;
mod train_cmd;
mod verdict_cmd;

use crate::agents;

#[derive(Parser)]
#[command(
    name = "rpsdsl",
    version,
    about = "Write a game's rules, check them, play them, simulate them."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The back end that plays the games: the compiled tier, or the
    /// interpreter, the reference. Both give byte-identical results; a game
    /// the compiled tier can't run falls back to the interpreter, and says so.
    #[arg(long, global = true, value_enum, default_value_t = EngineArg::Compiled)]
    engine: EngineArg,
    /// The most memory a command may hold (`512M`, `2G`): a long run that
    /// reaches it stops, says so, and keeps what it has. docs/budgets.md
    /// says what each command does at the cap.
    #[arg(long, global = true, value_name = "SIZE", default_value = "1G", value_parser = crate::budget::parse_memory)]
    memory: usize,
}

/// `--engine`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum EngineArg {
    Compiled,
    Interpreter,
}

impl From<EngineArg> for crate::engine::Engine {
    fn from(arg: EngineArg) -> Self {
        match arg {
            EngineArg::Compiled => crate::engine::Engine::Compiled,
            EngineArg::Interpreter => crate::engine::Engine::Interpreter,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Check rules files: every error at once, with where and why.
    Check {
        /// `.rules` files, or house-rules `.toml` files.
        #[arg(required_unless_present = "explain_diff")]
        files: Vec<PathBuf>,
        /// Machine-readable diagnostics.
        #[arg(long)]
        json: bool,
        /// Say in plain words what VARIANT changes in BASE.
        #[arg(long, num_args = 2, value_names = ["BASE", "VARIANT"])]
        explain_diff: Option<Vec<PathBuf>>,
        /// Print the compiled program of each file that checks: every op, the
        /// names behind its ids, and the line it came from.
        #[arg(long, conflicts_with = "json")]
        dump_ir: bool,
    },
    /// Play one game with computer players and print its transcript.
    Run {
        /// A `.rules` file, or a house-rules `.toml` file.
        #[arg(required_unless_present = "house")]
        file: Option<PathBuf>,
        /// House rules (TOML) naming the rules file and setting options.
        #[arg(long, conflicts_with = "file")]
        house: Option<PathBuf>,
        /// The game's seed; by default one drawn from the operating system
        /// (the full view's header names it, so the game can be run again).
        #[arg(long)]
        seed: Option<u64>,
        /// One agent per seat (or one for all), e.g. `mcts:iterations=500,random`;
        /// `rpsdsl agents` lists them.
        #[arg(long, default_value = "random")]
        agents: String,
        /// Set an option: `--set rounds=3` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        settings: Vec<String>,
        /// Whose view to print: `all`, a seat number or a seat name.
        #[arg(long, default_value = "all")]
        view: String,
        /// A scenario (TOML) fixing shuffles and decisions; see docs/scenarios.md.
        #[arg(long)]
        scenario: Option<PathBuf>,
        /// Print the transcript as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play a game yourself at the terminal, against computer agents.
    Play {
        /// A `.rules` file, or a house-rules `.toml` file.
        file: PathBuf,
        /// Your seat: a number from 1, or a seat name.
        #[arg(long, default_value = "1")]
        seat: String,
        /// The other seats' agents: one for all, or one per seat with `human`
        /// at yours (`human,random`); `rpsdsl agents` lists them [default:
        /// human-like:fallback=mcts(iterations=300) in a game of simultaneous
        /// throws, mcts:iterations=300 in any other].
        #[arg(long)]
        agents: Option<String>,
        /// The game's seed; by default one drawn from the operating system. It is never shown.
        #[arg(long)]
        seed: Option<u64>,
        /// Set an option: `--set rounds=3` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        settings: Vec<String>,
        /// Keep a picture of your view in this file, redrawn after every
        /// step (an `.html` file reloads itself in a browser).
        #[arg(long, value_name = "FILE.svg")]
        svg: Option<PathBuf>,
    },
    /// Draw a position as SVG: played as `run` plays it, or as a scenario or transcript says.
    Render {
        /// A `.rules` file, or a house-rules `.toml` file.
        file: PathBuf,
        /// The game's seed; by default one drawn from the operating system
        /// (the full view's caption names it).
        #[arg(long, conflicts_with = "transcript")]
        seed: Option<u64>,
        /// One agent per seat (or one for all), as for `run`.
        #[arg(long, default_value = "random")]
        agents: String,
        /// Set an option: `--set rounds=3` (repeatable).
        #[arg(long = "set", value_name = "NAME=VALUE")]
        settings: Vec<String>,
        /// A scenario (TOML) fixing shuffles and decisions; see docs/scenarios.md.
        #[arg(long, conflicts_with = "transcript")]
        scenario: Option<PathBuf>,
        /// A `--view all` JSON transcript to follow.
        #[arg(long)]
        transcript: Option<PathBuf>,
        /// Draw the position after this many decisions (0: after setup);
        /// by default the final position.
        #[arg(long, value_name = "K")]
        at: Option<u32>,
        /// Whose view to draw: `all`, a seat number or a seat name.
        #[arg(long, default_value = "all")]
        view: String,
        /// Write the SVG here instead of to standard output.
        #[arg(short = 'o', long = "output", value_name = "OUT.svg")]
        out: Option<PathBuf>,
    },
    /// A print-and-play sheet: every component of the game, a card each, on A4 pages with cut marks.
    Print {
        /// A `.rules` file, or a house-rules `.toml` file.
        file: PathBuf,
        /// Set an option: `--set rounds=3` (repeatable); the pieces these
        /// options leave out are not printed.
        #[arg(long = "set", value_name = "NAME=VALUE")]
        settings: Vec<String>,
        /// Write the sheet here (`.html`: a page that prints a sheet per
        /// page; else SVG, the pages one under another) instead of to
        /// standard output.
        #[arg(short = 'o', long = "output", value_name = "OUT.html")]
        out: Option<PathBuf>,
    },
    /// Re-run a JSON transcript and stop at the first divergence.
    Replay {
        transcript: PathBuf,
        /// The rules to replay it against. By default the transcript's
        /// `rules`, found from this folder or else from the transcript's.
        #[arg(long, value_name = "FILE")]
        rules: Option<PathBuf>,
    },
    /// List a game's options with their types, defaults and descriptions.
    Options { file: PathBuf },
    /// List the agents and their parameters.
    Agents,
    /// Play many games in parallel and report balance, length, endings and rule coverage.
    Simulate {
        /// A `.rules` file, or a house-rules `.toml` file.
        #[arg(required_unless_present = "house")]
        file: Option<PathBuf>,
        /// House rules (TOML) naming the rules file and setting options.
        #[arg(long, conflicts_with = "file")]
        house: Option<PathBuf>,
        #[command(flatten)]
        run: simulate_cmd::RunArgs,
        /// Play only slice I of N of the games (`--shard 2/4`); combine the JSON reports with `rpsdsl merge`.
        #[arg(long, value_name = "I/N")]
        shard: Option<String>,
    },
    /// Simulate a base game and a variant on the same seeds and compare them.
    Compare {
        /// A `.rules` file, a variant, or a house-rules `.toml` file.
        base: PathBuf,
        /// A `.rules` file, a variant, or a house-rules `.toml` file.
        variant: PathBuf,
        #[command(flatten)]
        run: compare_cmd::CompareArgs,
    },
    /// Did the variant make the game fairer, shorter, more decisive, more skill-driven, more tense?
    Verdict(verdict_cmd::VerdictArgs),
    /// Play a game over the values of its options and find the best for a question.
    Sweep(sweep_cmd::SweepArgs),
    /// Does skill matter, which choices do strong players make, does the lead change hands?
    Analyze {
        /// A `.rules` file, or a house-rules `.toml` file.
        #[arg(required_unless_present = "house")]
        file: Option<PathBuf>,
        /// House rules (TOML) naming the rules file and setting options.
        #[arg(long, conflicts_with = "file")]
        house: Option<PathBuf>,
        #[command(flatten)]
        args: analyze_cmd::AnalyzeArgs,
    },
    /// An equilibrium strategy, the game's value and the strategy's exploitability, by CFR+ on the whole tree.
    Solve(solve_cmd::SolveArgs),
    /// How strong are my players? What a best response wins against the agents given, seat by seat.
    Exploit(exploit_cmd::ExploitArgs),
    /// The exact outcome rates of random play, by enumerating every chance outcome and choice.
    Exact {
        /// A `.rules` file, or a house-rules `.toml` file.
        file: PathBuf,
        /// Set an option: `--set rounds=3` (repeatable).
        #[arg(long = "set", alias = "option", value_name = "NAME=VALUE")]
        settings: Vec<String>,
        /// Positions to visit at most before giving up.
        #[arg(long, default_value_t = crate::exact::DEFAULT_BUDGET)]
        budget: u64,
        /// Print the rates as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Combine JSON reports of `rpsdsl simulate --shard` into the report of the whole run.
    Merge {
        #[arg(required = true)]
        reports: Vec<PathBuf>,
        /// Print the merged report as JSON.
        #[arg(long)]
        json: bool,
        /// Exit 0 even when games stopped on an error (the report counts them either way).
        #[arg(long)]
        allow_errors: bool,
    },
    /// Start the web studio: edit rules with live diagnostics, play in the browser, one link per seat.
    Studio(studio_cmd::StudioArgs),
    /// Serve an editor over stdin and stdout (the Language Server Protocol): errors as you type, hover, completion, rename, formatting.
    Lsp,
    /// Lay `.rules` files out canonically, in place: indent, spacing and
    /// comments (every comment is kept, and the meaning never changes).
    Fmt {
        /// `.rules` files, or folders to format every `.rules` file under;
        /// `-` reads standard input and writes the result to standard output.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Change nothing: print a diff of each file that is not formatted,
        /// and exit with 1 if there is any.
        #[arg(long)]
        check: bool,
    },
    /// Print a shell completion script: `rpsdsl completions bash > ~/.local/share/bash-completion/completions/rpsdsl`.
    Completions {
        /// The shell to complete in.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command into a folder.
    Man {
        /// Write `rpsdsl.1` and a page per command (`rpsdsl-check.1`...) into
        /// this folder, e.g. `~/.local/share/man/man1`, instead of printing
        /// the first.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

/// Wires the solver into the players, as the command line does, so that a
/// `solve:time=10` player trains (a benchmark or an embedding calls it).
pub fn wire_solver() {
    crate::agents::set_trainer(train_cmd::train);
}

/// Runs the `rpsdsl` command line: parses the arguments, runs the command, and returns its exit code.
pub fn main() -> ExitCode {
    wire_solver();
    let cli = Cli::parse();
    setup::choose_engine(cli.engine.into());
    crate::budget::set_memory_cap(cli.memory);
    match cli.command {
        Command::Check {
            explain_diff: Some(pair),
            ..
        } => check_cmd::explain_diff(&pair[0], &pair[1]),
        Command::Check {
            files, dump_ir: true, ..
        } => check_cmd::dump_ir(&files),
        Command::Check { files, json, .. } => check_cmd::check_files(&files, json),
        Command::Run {
            file,
            house,
            seed,
            agents,
            settings,
            view,
            scenario,
            json,
        } => {
            let file = house.or(file).expect("clap requires a file or --house");
            run_cmd::run(&file, seed, &agents, &settings, &view, scenario.as_deref(), json)
        }
        Command::Play {
            file,
            seat,
            agents,
            seed,
            settings,
            svg,
        } => play_cmd::play(&file, &seat, agents.as_deref(), seed, &settings, svg),
        Command::Render {
            file,
            seed,
            agents,
            settings,
            scenario,
            transcript,
            at,
            view,
            out,
        } => render_cmd::render(&render_cmd::RenderArgs {
            file: &file,
            seed,
            agents: &agents,
            settings: &settings,
            scenario: scenario.as_deref(),
            transcript: transcript.as_deref(),
            at,
            view: &view,
            out: out.as_ref(),
        }),
        Command::Print { file, settings, out } => print_cmd::print(&file, &settings, out.as_ref()),
        Command::Replay { transcript, rules } => replay_cmd::replay(&transcript, rules.as_deref()),
        Command::Options { file } => options_cmd::options(&file),
        Command::Simulate {
            file,
            house,
            run,
            shard,
        } => {
            let file = house.or(file).expect("clap requires a file or --house");
            simulate_cmd::simulate(&file, &run, shard.as_deref())
        }
        Command::Compare { base, variant, run } => compare_cmd::compare(&base, &variant, &run),
        Command::Analyze { file, house, args } => analyze_cmd::analyze(&analyze_cmd::file(file, house), &args),
        Command::Verdict(args) => verdict_cmd::verdict(&args),
        Command::Sweep(args) => sweep_cmd::sweep(&args),
        Command::Solve(args) => solve_cmd::solve(&args),
        Command::Exploit(args) => exploit_cmd::exploit(&args),
        Command::Exact {
            file,
            settings,
            budget,
            json,
        } => exact_cmd::exact(&file, &settings, budget, json),
        Command::Merge {
            reports,
            json,
            allow_errors,
        } => merge_cmd::merge(&reports, json, allow_errors),
        Command::Studio(args) => studio_cmd::studio(&args),
        Command::Lsp => match crate::lsp::serve_stdio() {
            Ok(()) => ExitCode::SUCCESS,
            Err(why) => {
                eprintln!("error: {why}");
                ExitCode::from(1)
            }
        },
        Command::Fmt { files, check } => fmt_cmd::fmt(
            &files,
            if check {
                fmt_cmd::Mode::Check
            } else {
                fmt_cmd::Mode::Write
            },
        ),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rpsdsl", &mut out);
            print_bytes(&out)
        }
        Command::Man { dir } => man(dir.as_deref()),
        Command::Agents => {
            say!("{}", agents_listing().trim_end());
            ExitCode::SUCCESS
        }
    }
}

/// `rpsdsl man`: the manual page on stdout, or every command's page in `dir`.
fn man(dir: Option<&std::path::Path>) -> ExitCode {
    let written = match dir {
        None => {
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut out)
                .map(|()| print_bytes(&out))
        }
        Some(dir) => std::fs::create_dir_all(dir)
            .and_then(|()| clap_mangen::generate_to(Cli::command(), dir))
            .map(|()| ExitCode::SUCCESS),
    };
    written.unwrap_or_else(|error| {
        let place = dir.map_or("stdout".to_string(), |d| format!("`{}`", d.display()));
        eprintln!("error: cannot write the manual pages to {place}: {error}");
        ExitCode::from(1)
    })
}

/// `rpsdsl agents`: every agent with its parameters and defaults.
fn agents_listing() -> String {
    let mut out = String::from(
        "Agents, one per seat or one for all: --agents mcts:iterations=2000,human-like\n\
         Parameters follow the name after colons (name:key=value:key=value), or in\n\
         parentheses where an agent is a parameter's value: fallback=mcts(iterations=200).\n",
    );
    for agent in agents::AGENTS {
        out.push_str(&format!("\n{}\n", agent.name));
        out.push_str(&term::wrap(agent.about, "    "));
        for p in agent.params {
            out.push_str(&format!("    {}={}\n", p.name, p.default));
            out.push_str(&term::wrap(p.about, "        "));
            out.push_str(&term::wrap(&format!("values: {}", p.domain), "        "));
        }
    }
    out
}
