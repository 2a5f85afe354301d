//! `rpsdsl play`: a person plays one seat at the terminal against agents.
//!
//! The person sees only their seat's [`View`](crate::engine::View) and the
//! events as their seat saw them (see [`screen`]). The loop reads answers
//! from a line editor at a terminal, or plain lines from a pipe (see
//! [`input`]), and writes to any `Write`, so tests drive it through stdin.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use crate::agents::Agent;
use crate::engine::{Choice, Observation, State};
use crate::ir::{GameDef, Seat};
use crate::load::LoadedGame;
use crate::present::{self, Input, Prompt};
use crate::session::{self, Asked, Paused, Record, Seats, Turns};
use crate::transcript::{Header, Transcript, Viewer, describe_end, without_seed};

mod input;
mod seats;
mod typed;

use input::{Answers, Lines, Terminal};
use seats::{parse_seat, players};
use typed::{Typed, parse_typed};

use super::report;
use super::screen;
use super::setup::load_game;
use crate::load::changed_options;

/// Lines of "what happened" shown before a prompt; `log` shows them all.
const RECENT_LINES: usize = 40;

pub(crate) fn play(
    file: &Path,
    seat: &str,
    agent_spec: Option<&str>,
    seed: Option<u64>,
    settings: &[String],
    svg: Option<PathBuf>,
) -> ExitCode {
    let (game, _) = match load_game(file, settings, None) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let human = match parse_seat(&game.def, seat) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    // The seed deals the game and drives the agents: the screen never shows
    // it, and by default no one can guess it.
    let seed = match super::setup::seed_or_os(seed) {
        Ok(seed) => seed,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let agent_spec = agent_spec.unwrap_or_else(|| crate::agents::default_opponent(&game.def));
    let players = match players(&game.def, &game.options, human, agent_spec, seed) {
        Ok(p) => p,
        Err(error) => return super::output::agents_refused(agent_spec, &error),
    };
    let stdin = io::stdin();
    // The line editor only where both ends are the terminal. Typed input is
    // not echoed through a pipe; echo it so the screen reads as a conversation.
    let terminal = stdin.is_terminal() && io::stdout().is_terminal();
    let input: Box<dyn Answers> = match terminal.then(Terminal::new).flatten() {
        Some(editor) => Box::new(editor),
        None => Box::new(Lines {
            input: stdin.lock(),
            echo: !stdin.is_terminal(),
        }),
    };
    let rules = crate::text::printable_string(&file.display().to_string());
    let mut table = Table {
        game: &game,
        rules: &rules,
        human,
        seed,
        agents: players,
        input,
        out: io::stdout().lock(),
        shown: 0,
        prompted: false,
        svg,
    };
    // A closed terminal or pipe: nothing more to say.
    table.run().unwrap_or(ExitCode::SUCCESS)
}

/// How a prompt ended.
enum Reply {
    Choice(Choice),
    Quit,
    /// The input ended: no one is there to ask about saving.
    Gone,
}

/// Why the person's game stopped before its end.
enum Left {
    /// They quit.
    Quit,
    /// The input ended.
    Gone,
    /// The terminal could not be written or read.
    Io(io::Error),
}

/// A game in progress between the person and the agents.
struct Table<'a, W> {
    game: &'a LoadedGame,
    rules: &'a str,
    human: Seat,
    seed: u64,
    agents: Vec<Box<dyn Agent>>,
    input: Box<dyn Answers + 'a>,
    out: W,
    /// How many events the person has been shown.
    shown: usize,
    /// Whether the person has been shown anything yet.
    prompted: bool,
    /// Where to keep the picture of the person's view (`--svg`).
    svg: Option<PathBuf>,
}

impl<W: Write> Table<'_, W> {
    fn def(&self) -> &GameDef {
        &self.game.def
    }

    fn run(&mut self) -> io::Result<ExitCode> {
        self.welcome()?;
        let game = self.game;
        let def = &game.def;
        let mut events = vec![];
        let state = match State::start(def, &game.options, self.seed, vec![], &mut events) {
            Ok(s) => s,
            Err(d) => {
                report(&[*d], &def.sources);
                return Ok(ExitCode::from(1));
            }
        };
        // The agents answer beside the person, through the one turn loop.
        let mut agents = std::mem::take(&mut self.agents);
        session::tell_agents(def, &events, &mut agents);
        let mut turns = Turns::new(state, events);
        self.draw(&turns.state)?;
        let paused = turns.play(def, &mut agents, self);
        self.agents = agents;
        match paused {
            Paused::Over | Paused::Waiting => {}
            Paused::Stopped(Left::Quit) => {
                writeln!(self.out, "You left the game.")?;
                self.offer_save(&turns)?;
                return Ok(ExitCode::SUCCESS);
            }
            Paused::Stopped(Left::Gone) => {
                writeln!(self.out, "\nInput ended; you left the game without saving.")?;
                return Ok(ExitCode::SUCCESS);
            }
            Paused::Stopped(Left::Io(e)) => return Err(e),
            Paused::Failed { diagnostic, .. } => {
                self.out.flush()?;
                report(&[*diagnostic], &def.sources);
                return Ok(ExitCode::from(1));
            }
        }
        let state = &turns.state;
        self.rule()?;
        self.happened(&turns)?;
        let verdict = match state.outcome() {
            Some(o) if o.winner == Some(self.human) => format!("you win! ({})", describe_end(def, o.winner, &o.reason)),
            Some(o) if o.winner.is_none() => describe_end(def, o.winner, &o.reason),
            Some(o) => format!("you lose: {}", describe_end(def, o.winner, &o.reason)),
            None => "the game stopped unfinished".into(),
        };
        writeln!(self.out, "\nGame over: {verdict}")?;
        self.offer_save(&turns)?;
        Ok(ExitCode::SUCCESS)
    }

    /// Rewrites the picture of the person's view (`--svg FILE`), whole or
    /// not at all (see [`write_picture`]). A `.html` file is a page that
    /// reloads itself, to keep open beside the terminal.
    fn draw(&mut self, state: &State) -> io::Result<()> {
        let Some(path) = self.svg.clone() else {
            return Ok(());
        };
        let def = self.def();
        let viewer = Viewer::Seat(self.human);
        let caption = super::render_cmd::caption(def, state, viewer, self.seed);
        let frame = crate::render::Frame {
            viewer: Some(self.human),
            caption: &caption,
        };
        let svg = crate::render::svg(def, &state.view(def, self.human), &frame);
        let html = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"));
        let text = if html {
            format!(
                "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"2\">\
                 <title>{}</title></head>\n<body style=\"margin:0;background:#faf8f3\">\n{svg}</body></html>\n",
                escape_html(&def.name)
            )
        } else {
            svg
        };
        if let Err(e) = write_picture(&path, text.as_bytes()) {
            // The game goes on without its picture.
            writeln!(
                self.out,
                "Cannot write {}: {e}; the picture stops here.",
                path.display()
            )?;
            self.svg = None;
        }
        Ok(())
    }

    /// The next line typed after `prompt` (Tab completes one of
    /// `choices`); `None` at the end of input.
    fn read_line(&mut self, prompt: &str, choices: &[String]) -> io::Result<Option<String>> {
        self.input.answer(&mut self.out, prompt, choices)
    }

    fn rule(&mut self) -> io::Result<()> {
        writeln!(self.out, "{}", "─".repeat(78))
    }

    fn welcome(&mut self) -> io::Result<()> {
        let def = self.def();
        let others: Vec<String> = (0..def.players())
            .filter(|&s| s != self.human as usize)
            .map(|s| {
                let agent = crate::text::printable_string(&without_seed(&self.agents[s].name()));
                format!("{} ({agent})", def.seat_name(s as Seat))
            })
            .collect();
        let changed: Vec<String> = changed_options(def, &self.game.options)
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let mut text = format!("{} ({})\n", def.name, self.game.description);
        text.push_str(&format!(
            "You play {} (seat {}) against {}.\n",
            def.seat_name(self.human),
            self.human + 1,
            others.join(", ")
        ));
        if !changed.is_empty() {
            text.push_str(&format!("Options: {}\n", changed.join(" ")));
        }
        text.push_str("Type a choice's number or name; ? shows the rules and options; q quits.\n");
        self.rule()?;
        write!(self.out, "{text}")
    }

    /// Prints what the person's seat saw since the last time (at most the
    /// last [`RECENT_LINES`]).
    fn happened(&mut self, turns: &Turns) -> io::Result<()> {
        let lines = self.seen_lines(turns, self.shown);
        self.shown = turns.events.len();
        let title = if self.prompted {
            "Since your last choice:"
        } else {
            "So far:"
        };
        self.prompted = true;
        if lines.is_empty() {
            return Ok(());
        }
        writeln!(self.out, "{title}")?;
        let skip = lines.len().saturating_sub(RECENT_LINES);
        if skip > 0 {
            writeln!(self.out, "  … {skip} earlier lines (type log to see the whole game)")?;
        }
        for line in &lines[skip..] {
            writeln!(self.out, "  {line}")?;
        }
        Ok(())
    }

    /// The events from `from` on, as the person's seat saw them, tidied
    /// for reading (see [`present::seen_lines`]).
    fn seen_lines(&self, turns: &Turns, from: usize) -> Vec<String> {
        present::seen_lines(self.def(), &turns.events, &turns.steps, from, self.human)
    }

    /// Shows the table and asks the person for their choice; re-asks until
    /// the answer is a legal choice, so nothing typed wrong costs anything.
    fn ask(&mut self, turns: &Turns) -> io::Result<Reply> {
        let state = &turns.state;
        let game = self.game;
        let def = &game.def;
        let obs = Observation::new(def, state, self.human);
        let d = &def.decisions[obs.decision() as usize];
        let legal = state.pending().map_or(&[][..], |p| p.legal(self.human));
        if legal.is_empty() {
            // The engine never asks a seat with nothing to choose; if it
            // did, there would be no answer to give.
            return Ok(Reply::Gone);
        }
        // One choice and no clock: nothing to decide. It shows under "what
        // happened" at the next prompt.
        if legal.len() == 1 && !d.race {
            return Ok(Reply::Choice(Choice::new(self.human, legal[0])));
        }
        self.rule()?;
        self.happened(turns)?;
        write!(self.out, "{}", screen::table(def, obs.view()))?;
        if let Some(vars) = present::variables(def, obs.view()) {
            writeln!(self.out, "Counters: {vars}")?;
        }
        if let Some(scores) = present::scores_now(def, &obs) {
            writeln!(self.out, "Score if the game ended now: {scores}")?;
        }
        let asking = Prompt::new(def, state, self.human);
        let names: Vec<Vec<String>> = asking.offers.iter().map(|o| o.names.clone()).collect();
        let numbers = asking.numbers;
        write!(self.out, "\n{}", prompt(&asking))?;
        let hint = if numbers {
            "Type the number you choose".to_string()
        } else {
            format!("Type 1-{} or a name", names.len())
        };
        let choices: Vec<String> = names.iter().flatten().cloned().collect();
        let asked = Instant::now();
        let index = loop {
            let Some(line) = self.read_line("> ", &choices)? else {
                return Ok(Reply::Gone);
            };
            match parse_typed(&line, &names, numbers) {
                Typed::Choice(i) => break i,
                Typed::Help => {
                    let help = screen::rules_summary(def, &game.options, self.rules, self.human);
                    write!(self.out, "{help}")?;
                }
                Typed::Log => {
                    for l in self.seen_lines(turns, 0) {
                        writeln!(self.out, "  {l}")?;
                    }
                }
                Typed::Quit => return Ok(Reply::Quit),
                Typed::Bad(why) => {
                    let stop = if why.ends_with('?') { "" } else { "." };
                    writeln!(self.out, "{why}{stop} {hint}; ? for help, q to quit.")?;
                }
            }
        };
        // In a race the clock is the person's own: from the prompt to the
        // answer read, help and mistakes included.
        let reaction_ms = if d.race {
            asked.elapsed().as_millis().min(u32::MAX as u128) as u32
        } else {
            0
        };
        Ok(Reply::Choice(Choice {
            seat: self.human,
            value: legal[index],
            reaction_ms,
        }))
    }

    /// Offers to save the game as a JSON transcript that `rpsdsl replay`
    /// reads. Enter or the end of input skips.
    fn offer_save(&mut self, turns: &Turns) -> io::Result<()> {
        let state = &turns.state;
        // Not named after the seed: the name is shown before the game's
        // whole record is written.
        let default = (1..)
            .map(|n| format!("play-{n}.json"))
            .find(|name| !Path::new(name).exists())
            .unwrap_or_else(|| "play.json".into());
        loop {
            let question = format!("Save the transcript? Type a file name (y for {default}), or press Enter to skip: ");
            let Some(line) = self.read_line(&question, &[])? else {
                writeln!(self.out)?;
                return Ok(());
            };
            let name = match line.trim() {
                // `q` quits everywhere else; here it must not name a file.
                "" | "n" | "no" | "q" | "quit" | "exit" => return Ok(()),
                "y" | "yes" => default.clone(),
                name => name.to_string(),
            };
            if Path::new(&name).exists() {
                writeln!(self.out, "{name} already exists; type another name.")?;
                continue;
            }
            match std::fs::write(&name, self.transcript_json(turns)) {
                Ok(()) => {
                    writeln!(
                        self.out,
                        "Saved {name}; `rpsdsl replay {name}` checks it against the rules."
                    )?;
                    if !state.is_over() {
                        writeln!(
                            self.out,
                            "(The game is unfinished: replay checks it as far as you played.)"
                        )?;
                    }
                    return Ok(());
                }
                Err(e) => writeln!(self.out, "Cannot write {name}: {e}.")?,
            }
        }
    }

    /// The whole game as a `--view all` JSON transcript, which replays.
    fn transcript_json(&self, turns: &Turns) -> String {
        let def = self.def();
        let state = &turns.state;
        let record = Record {
            events: turns.events.clone(),
            outcome: state.outcome().cloned(),
            scores: state.scores().to_vec(),
            decisions: turns.decisions.clone(),
            shuffles: session::shuffles_of(def, &turns.events),
            rolls: session::rolls_of(def, &turns.events),
            shuffles_fixed: false,
            warnings: vec![],
        };
        let header = Header {
            rules: self.rules,
            about: Some(&self.game.description),
            seed: self.seed,
            options: changed_options(def, &self.game.options),
            agents: self.agents.iter().map(|a| a.name()).collect(),
        };
        let transcript = Transcript::new(def, header, &record, Viewer::All);
        serde_json::to_string_pretty(&transcript).unwrap_or_default() + "\n"
    }
}

/// The person answers their seat at the terminal; the agents the others.
/// The picture (`--svg`) is drawn again after every step.
impl<W: Write> Seats for Table<'_, W> {
    type Stop = Left;

    fn answer(&mut self, asked: &Asked<'_>, _: &mut [Box<dyn Agent>]) -> session::Answer<Left> {
        if asked.seat != self.human {
            return session::Answer::Agent;
        }
        match self.ask(asked.turns) {
            Ok(Reply::Choice(choice)) => session::Answer::Choice(choice),
            Ok(Reply::Quit) => session::Answer::Stop(Left::Quit),
            Ok(Reply::Gone) => session::Answer::Stop(Left::Gone),
            Err(e) => session::Answer::Stop(Left::Io(e)),
        }
    }

    fn stepped(&mut self, turns: &Turns) -> Result<(), Left> {
        self.draw(&turns.state).map_err(Left::Io)
    }
}

/// The prompt: whose decision, what kind of decision, and the numbered
/// choices.
fn prompt(asking: &Prompt) -> String {
    let mut out = format!("{} (you), {}\n", asking.seat_name, asking.what);
    if let Some(note) = asking.note {
        out.push_str(&format!("({})\n", note.text(Input::Keyboard)));
    }
    if asking.numbers {
        let labels: Vec<&str> = asking.offers.iter().map(|o| o.label.as_str()).collect();
        out.push_str(&format!("  {}\n", labels.join(", ")));
        return out;
    }
    for (i, offer) in asking.offers.iter().enumerate() {
        let extra = if offer.anytime { "   (extra action)" } else { "" };
        out.push_str(&format!("  {:>2}) {}{extra}\n", i + 1, offer.label));
    }
    out
}

/// Text made safe inside HTML.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Writes a picture to `path`. A regular file (or a new one) is written
/// beside and then renamed over the old one, so a browser never reads half
/// a picture. Anything else the person named is written through, in place:
/// a symbolic link keeps pointing where it pointed (its target is replaced
/// the same careful way), and a device or a pipe is written to, never
/// replaced by a regular file.
fn write_picture(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path)?,
        _ => path.to_path_buf(),
    };
    match std::fs::metadata(&target) {
        Ok(meta) if !meta.is_file() => return std::fs::write(&target, bytes),
        _ => {}
    }
    let mut partial = target.clone().into_os_string();
    partial.push(".partial");
    std::fs::write(&partial, bytes).and_then(|()| std::fs::rename(&partial, &target))
}
