//! `rpsdsl play`: a person plays one seat at the terminal against agents.
//!
//! The person sees only their seat's [`View`](rpsdsl::engine::View) and the
//! events as their seat saw them (see [`screen`]). The loop reads lines from
//! any `BufRead` and writes to any `Write`, so tests drive it through stdin;
//! it needs no raw mode, so it works the same in a terminal and a pipe.

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use rpsdsl::agents::{self, Agent};
use rpsdsl::engine::{Choice, EngineError, Event, Observation, Seen, SeenDecision, State};
use rpsdsl::house::LoadedGame;
use rpsdsl::ir::{ChoiceKind, GameDef, KindId, Seat};
use rpsdsl::session::{self, Record};
use rpsdsl::transcript::{Header, Transcript, Viewer, describe_end, render_events};

use super::report;
use super::screen;
use super::setup::{changed_options, load_game};

/// What `--agents` means when it is not given: throws like a person, and
/// a short search for everything else, quick enough not to keep anyone
/// waiting.
pub const DEFAULT_AGENTS: &str = "human-like:fallback=mcts(iterations=300)";

/// Lines of "what happened" shown before a prompt; `log` shows them all.
const RECENT_LINES: usize = 40;

pub fn play(file: &Path, seat: &str, agent_spec: &str, seed: Option<u64>, settings: &[String]) -> ExitCode {
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
    // A seed from the clock is printed, so the game can be played again.
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000)
    });
    let players = match players(&game.def, human, agent_spec, seed) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin();
    // Typed input is not echoed through a pipe; echo it so the screen reads
    // as a conversation.
    let echo = !stdin.is_terminal();
    let rules = file.display().to_string();
    let mut table = Table {
        game: &game,
        rules: &rules,
        human,
        seed,
        agents: players,
        input: stdin.lock(),
        out: io::stdout().lock(),
        echo,
        events: vec![],
        decisions: vec![],
        steps: vec![],
        shown: 0,
        prompted: false,
    };
    // A closed terminal or pipe: nothing more to say.
    table.run().unwrap_or(ExitCode::SUCCESS)
}

/// `--seat 2` or `--seat Blue`.
fn parse_seat(def: &GameDef, seat: &str) -> Result<Seat, String> {
    if let Ok(n) = seat.trim().parse::<usize>()
        && (1..=def.players()).contains(&n)
    {
        return Ok((n - 1) as Seat);
    }
    def.seats
        .iter()
        .position(|s| s.eq_ignore_ascii_case(seat.trim()))
        .map(|s| s as Seat)
        .ok_or_else(|| {
            format!(
                "`--seat {seat}`: expected a seat number from 1 to {}, or a seat name ({})",
                def.players(),
                def.seats.join(", ")
            )
        })
}

/// Stands in the person's seat among the agents, so that agents stay
/// indexed by seat for [`session::tell_agents`]. Never asked to choose.
struct Person;

impl Agent for Person {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, _def: &GameDef, _obs: &Observation<'_>) -> usize {
        0
    }
}

/// One agent per seat from `--agents`: one spec for every other seat, or
/// one per seat with `human` at the person's.
fn players(def: &GameDef, human: Seat, spec: &str, seed: u64) -> Result<Vec<Box<dyn Agent>>, String> {
    let specs = agents::spec::parse_spec(spec)?;
    let you = format!("seat {}, {}", human + 1, def.seat_name(human));
    let is_human = |s: &agents::AgentSpec| s.name.eq_ignore_ascii_case("human");
    if specs.len() == 1 && is_human(&specs[0]) {
        return Err(format!(
            "`--agents {spec}`: you are the person here ({you}); name the agents for the other seats, e.g. `--agents random`"
        ));
    }
    if specs.len() != 1 && specs.len() != def.players() {
        return Err(format!(
            "`--agents {spec}`: {} agents for {} seats; give one agent for every other seat, or one per seat with `human` for yours ({you})",
            specs.len(),
            def.players()
        ));
    }
    if specs.len() > 1 {
        if !is_human(&specs[human as usize]) {
            return Err(format!(
                "`--agents {spec}`: write `human` for your own seat ({you}), e.g. `--agents {}`",
                example_spec(def, human)
            ));
        }
        if let Some(s) = (0..specs.len()).find(|&s| s != human as usize && is_human(&specs[s])) {
            return Err(format!(
                "`--agents {spec}`: only one person plays, at {you}; seat {} ({}) needs an agent",
                s + 1,
                def.seat_name(s as Seat)
            ));
        }
    }
    (0..def.players())
        .map(|s| {
            if s == human as usize {
                return Ok(Box::new(Person) as Box<dyn Agent>);
            }
            let spec = specs.get(s).filter(|_| specs.len() > 1).unwrap_or(&specs[0]);
            agents::build(spec, s as Seat, seed)
        })
        .collect()
}

/// `human,random` with `human` at the person's seat.
fn example_spec(def: &GameDef, human: Seat) -> String {
    let seats: Vec<&str> = (0..def.players())
        .map(|s| if s == human as usize { "human" } else { "random" })
        .collect();
    seats.join(",")
}

/// What the person typed at a prompt.
#[derive(Debug, PartialEq, Eq)]
enum Typed {
    Choice(usize),
    Help,
    Log,
    Quit,
    Bad(String),
}

/// Reads one answer among the choices, each given by the names a person may
/// type for it (the first is the one shown). Where the choices are numbers,
/// a number typed is a value, not a position in the list.
fn parse_typed(line: &str, names: &[Vec<String>], numbers_are_values: bool) -> Typed {
    let text = line.trim();
    let lower = text.to_lowercase();
    match lower.as_str() {
        "" => return Typed::Bad("type the number of a choice, or its name".into()),
        "?" | "help" => return Typed::Help,
        "q" | "quit" | "exit" => return Typed::Quit,
        "log" => return Typed::Log,
        _ => {}
    }
    let exact: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].iter().any(|n| n.to_lowercase() == lower))
        .collect();
    if numbers_are_values {
        return match exact.first() {
            Some(&i) => Typed::Choice(i),
            None => Typed::Bad(format!("{text} is not one of the numbers you may choose")),
        };
    }
    if let Ok(n) = lower.parse::<usize>() {
        return if (1..=names.len()).contains(&n) {
            Typed::Choice(n - 1)
        } else {
            Typed::Bad(format!("there is no choice {n}; type 1 to {}", names.len()))
        };
    }
    // Equal labels (two alike pieces) name the same move: the first will do.
    if let Some(&i) = exact.first() {
        return Typed::Choice(i);
    }
    let starts: Vec<usize> = (0..names.len())
        .filter(|&i| names[i].iter().any(|n| n.to_lowercase().starts_with(&lower)))
        .collect();
    let distinct = |list: &[usize]| {
        let mut shown: Vec<&str> = vec![];
        for &i in list {
            if !shown.contains(&names[i][0].as_str()) {
                shown.push(&names[i][0]);
            }
        }
        shown
    };
    match distinct(&starts).len() {
        1 => Typed::Choice(starts[0]),
        0 => {
            let near = names
                .iter()
                .flatten()
                .map(|n| (strsim::levenshtein(&n.to_lowercase(), &lower), n))
                .min()
                .filter(|(d, _)| *d <= 3)
                .map(|(_, n)| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            Typed::Bad(format!("`{text}` is not one of the choices{near}"))
        }
        _ => Typed::Bad(format!(
            "`{text}` could be {}; type more of it, or its number",
            distinct(&starts).join(" or ")
        )),
    }
}

/// How a prompt ended.
enum Answer {
    Choice(Choice),
    Quit,
    /// The input ended: no one is there to ask about saving.
    Gone,
}

/// A game in progress between the person and the agents.
struct Table<'a, R, W> {
    game: &'a LoadedGame,
    rules: &'a str,
    human: Seat,
    seed: u64,
    agents: Vec<Box<dyn Agent>>,
    input: R,
    out: W,
    echo: bool,
    events: Vec<Event>,
    /// Every decision as a scenario scripts it, for the transcript.
    decisions: Vec<String>,
    /// Where each step (one decision applied) began in `events`.
    steps: Vec<usize>,
    /// How many events the person has been shown.
    shown: usize,
    /// Whether the person has been shown anything yet.
    prompted: bool,
}

impl<R: BufRead, W: Write> Table<'_, R, W> {
    fn def(&self) -> &GameDef {
        &self.game.def
    }

    fn run(&mut self) -> io::Result<ExitCode> {
        self.welcome()?;
        let game = self.game;
        let def = &game.def;
        let mut state = match State::start(def, &game.options, self.seed, vec![], &mut self.events) {
            Ok(s) => s,
            Err(d) => {
                report(&[*d], &def.sources);
                return Ok(ExitCode::from(1));
            }
        };
        session::tell_agents(def, &self.events, &mut self.agents);
        while let Some(pending) = state.pending() {
            let decision = pending.decision();
            let mut choices = vec![];
            for &seat in pending.who() {
                if seat == self.human {
                    match self.ask(&state)? {
                        Answer::Choice(c) => choices.push(c),
                        Answer::Quit => {
                            writeln!(self.out, "You left the game.")?;
                            self.offer_save(&state)?;
                            return Ok(ExitCode::SUCCESS);
                        }
                        Answer::Gone => {
                            writeln!(self.out, "\nInput ended; you left the game without saving.")?;
                            return Ok(ExitCode::SUCCESS);
                        }
                    }
                } else {
                    let agent = self.agents[seat as usize].as_mut();
                    choices.push(session::agent_choice(
                        def,
                        &state,
                        decision,
                        seat,
                        pending.legal(seat),
                        agent,
                    ));
                }
            }
            self.decisions
                .extend(choices.iter().map(|c| session::decision_line(def, decision, c)));
            let before = self.events.len();
            match state.apply(def, &choices, &mut self.events) {
                Ok(()) => {
                    session::tell_agents(def, &self.events[before..], &mut self.agents);
                    self.steps.push(before);
                }
                Err(e) => {
                    let d = match e {
                        EngineError::Runtime(d) => *d,
                        EngineError::Illegal(i) => {
                            rpsdsl::diagnostic::Diagnostic::error("illegal-action", i.to_string())
                        }
                    };
                    self.out.flush()?;
                    report(&[d], &def.sources);
                    return Ok(ExitCode::from(1));
                }
            }
        }
        self.rule()?;
        self.happened()?;
        let verdict = match state.outcome() {
            Some(o) if o.winner == Some(self.human) => format!("you win! ({})", describe_end(def, o.winner, &o.reason)),
            Some(o) if o.winner.is_none() => describe_end(def, o.winner, &o.reason),
            Some(o) => format!("you lose: {}", describe_end(def, o.winner, &o.reason)),
            None => "the game stopped unfinished".into(),
        };
        writeln!(self.out, "\nGame over: {verdict}")?;
        self.offer_save(&state)?;
        Ok(ExitCode::SUCCESS)
    }

    /// The next line typed, echoed when the input is not a terminal;
    /// `None` at the end of input. Bytes that are not UTF-8 become `�`, to
    /// be refused like any other bad entry.
    fn read_line(&mut self) -> io::Result<Option<String>> {
        let mut bytes = vec![];
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes).into_owned();
        if self.echo {
            writeln!(self.out, "{}", line.trim_end())?;
        }
        Ok(Some(line))
    }

    fn rule(&mut self) -> io::Result<()> {
        writeln!(self.out, "{}", "─".repeat(78))
    }

    fn welcome(&mut self) -> io::Result<()> {
        let def = self.def();
        let others: Vec<String> = (0..def.players())
            .filter(|&s| s != self.human as usize)
            .map(|s| format!("{} ({})", def.seat_name(s as Seat), self.agents[s].name()))
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
        text.push_str(&format!(
            "Seed {0}: --seed {0} deals this game again.\n\
             Type a choice's number or name; ? shows the rules and options; q quits.\n",
            self.seed
        ));
        self.rule()?;
        write!(self.out, "{text}")
    }

    /// Prints what the person's seat saw since the last time (at most the
    /// last [`RECENT_LINES`]).
    fn happened(&mut self) -> io::Result<()> {
        let lines = self.seen_lines(self.shown);
        self.shown = self.events.len();
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
    /// for reading (see [`tidy`]).
    fn seen_lines(&self, from: usize) -> Vec<String> {
        let def = self.def();
        let end = self.events.len();
        let mut bounds = vec![from];
        bounds.extend(self.steps.iter().copied().filter(|&b| b > from && b < end));
        bounds.push(end);
        let mut lines = vec![];
        // Step by step, so that the outcome of a step's throws follows them.
        for step in bounds.windows(2) {
            let events = &self.events[step[0]..step[1]];
            // The clash reads best right after the choices, before what
            // they caused.
            let split = events
                .iter()
                .rposition(|e| matches!(e, Event::Decision { .. }))
                .map_or(0, |i| i + 1);
            let seat = Viewer::Seat(self.human);
            lines.extend(render_events(def, &events[..split], seat));
            lines.extend(clash(def, events, self.human));
            lines.extend(render_events(def, &events[split..], seat));
        }
        tidy(lines, def.seat_name(self.human))
    }

    /// Shows the table and asks the person for their choice; re-asks until
    /// the answer is a legal choice, so nothing typed wrong costs anything.
    fn ask(&mut self, state: &State) -> io::Result<Answer> {
        let game = self.game;
        let def = &game.def;
        let obs = Observation::new(def, state, self.human);
        let d = &def.decisions[obs.decision() as usize];
        let legal = state.pending().map_or(&[][..], |p| p.legal(self.human));
        if legal.is_empty() {
            // The engine never asks a seat with nothing to choose; if it
            // did, there would be no answer to give.
            return Ok(Answer::Gone);
        }
        // One choice and no clock: nothing to decide. It shows under "what
        // happened" at the next prompt.
        if legal.len() == 1 && !d.race {
            return Ok(Answer::Choice(Choice::new(self.human, legal[0])));
        }
        self.rule()?;
        self.happened()?;
        write!(self.out, "{}", screen::table(def, obs.view()))?;
        if let Some(vars) = screen::variables(def, obs.view()) {
            writeln!(self.out, "Counters: {vars}")?;
        }
        if let Some(scores) = screen::scores_now(def, &obs) {
            writeln!(self.out, "Score if the game ended now: {scores}")?;
        }
        let names: Vec<Vec<String>> = (0..obs.legal_len()).map(|i| obs.names(i)).collect();
        let numbers = d.kind == ChoiceKind::Number;
        write!(self.out, "\n{}", prompt(def, &obs, numbers))?;
        let hint = if numbers {
            "Type the number you choose".to_string()
        } else {
            format!("Type 1-{} or a name", names.len())
        };
        let asked = Instant::now();
        let index = loop {
            write!(self.out, "> ")?;
            self.out.flush()?;
            let Some(line) = self.read_line()? else {
                return Ok(Answer::Gone);
            };
            match parse_typed(&line, &names, numbers) {
                Typed::Choice(i) => break i,
                Typed::Help => {
                    let help = screen::rules_summary(def, &game.options, self.rules, self.human);
                    write!(self.out, "{help}")?;
                }
                Typed::Log => {
                    for l in self.seen_lines(0) {
                        writeln!(self.out, "  {l}")?;
                    }
                }
                Typed::Quit => return Ok(Answer::Quit),
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
        Ok(Answer::Choice(Choice {
            seat: self.human,
            value: legal[index],
            reaction_ms,
        }))
    }

    /// Offers to save the game as a JSON transcript that `rpsdsl replay`
    /// reads. Enter or the end of input skips.
    fn offer_save(&mut self, state: &State) -> io::Result<()> {
        let default = format!("play-{}.json", self.seed);
        loop {
            write!(
                self.out,
                "Save the transcript? Type a file name (y for {default}), or press Enter to skip: "
            )?;
            self.out.flush()?;
            let Some(line) = self.read_line()? else {
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
            match std::fs::write(&name, self.transcript_json(state)) {
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
    fn transcript_json(&self, state: &State) -> String {
        let def = self.def();
        let record = Record {
            events: self.events.clone(),
            outcome: state.outcome().cloned(),
            scores: state.scores().to_vec(),
            decisions: self.decisions.clone(),
            shuffles: session::shuffles_of(def, &self.events),
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

/// The prompt: whose decision, what kind of decision, and the numbered
/// choices.
fn prompt(def: &GameDef, obs: &Observation<'_>, numbers: bool) -> String {
    let d = &def.decisions[obs.decision() as usize];
    let what = match (&d.kind, d.race) {
        (_, true) => format!("call {}!", d.name),
        (ChoiceKind::Menu(_) | ChoiceKind::Actions(_), _) => "choose an action:".to_string(),
        _ => format!("choose {}:", d.name),
    };
    let note = match (d.race, obs.is_simultaneous(), d.secret) {
        (true, _, _) => Some("a race: the clock runs from this prompt until you press Enter"),
        (false, true, true) => Some("everyone chooses at once, in secret"),
        (false, true, false) => Some("everyone chooses at once; you see the others' choices after"),
        (false, false, true) => Some("secret: only you see it"),
        (false, false, false) => None,
    };
    let mut out = format!("{} (you), {what}\n", def.seat_name(obs.seat()));
    if let Some(note) = note {
        out.push_str(&format!("({note})\n"));
    }
    let labels: Vec<String> = (0..obs.legal_len()).map(|i| obs.label(i)).collect();
    if numbers {
        out.push_str(&format!("  {}\n", labels.join(", ")));
        return out;
    }
    for (i, label) in labels.iter().enumerate() {
        let extra = if obs.is_anytime(i) { "   (extra action)" } else { "" };
        out.push_str(&format!("  {:>2}) {label}{extra}\n", i + 1));
    }
    out
}

/// When two seats chose kinds at once in one step and the person saw both,
/// who beat whom ("Blue's paper beats your rubber") or the tie, read from
/// the game's `beats` relation. Nothing for kinds outside that relation.
fn clash(def: &GameDef, events: &[Event], you: Seat) -> Option<String> {
    let seen: Vec<SeenDecision> = Seen::new(def, events, you).decisions().collect();
    let [a, b] = seen.as_slice() else {
        return None;
    };
    let kinds = def.kinds.len() as i64;
    let kind_of = |d: &SeenDecision| d.value.filter(|v| (0..kinds).contains(v)).map(|v| v as KindId);
    let (x, y) = (kind_of(a)?, kind_of(b)?);
    let kind = &def.decisions[a.decision as usize].kind;
    if a.decision != b.decision || *kind != ChoiceKind::Kind {
        return None;
    }
    let ranked = |k: KindId| (0..kinds as KindId).any(|o| def.beats(k, o) || def.beats(o, k));
    let whose = |d: &SeenDecision, k: KindId| {
        let name = &def.kinds[k as usize].display;
        if d.seat == you {
            format!("your {name}")
        } else {
            format!("{}'s {name}", def.seat_name(d.seat))
        }
    };
    let line = if def.beats(x, y) {
        format!("{} beats {}", whose(a, x), whose(b, y))
    } else if def.beats(y, x) {
        format!("{} beats {}", whose(b, y), whose(a, x))
    } else if x == y && ranked(x) {
        format!("a tie: both {}", def.kinds[x as usize].display)
    } else {
        return None;
    };
    // Capitalised, as the line starts a sentence.
    let mut chars = line.chars();
    let first = chars.next()?.to_uppercase().collect::<String>();
    Some(format!("  => {first}{}", chars.as_str()))
}

/// Transcript lines made easier to read at the table: the person's own
/// decisions in the second person, the transcript's "[of N]" counts dropped,
/// and runs of like moves from one zone on one line.
fn tidy(lines: Vec<String>, you: &str) -> Vec<String> {
    let lines = lines.into_iter().map(|line| {
        let line = match line.rsplit_once("  [of ") {
            Some((head, count)) if count.trim_end_matches(']').bytes().all(|b| b.is_ascii_digit()) => head.to_string(),
            _ => line,
        };
        for (verb, yours) in [("chooses", "choose"), ("calls", "call")] {
            if let Some(rest) = line.strip_prefix(&format!("{you} {verb}")) {
                return format!("You {yours}{rest}");
            }
        }
        line
    });
    collapse_moves(lines.collect())
}

/// Runs of moves of like pieces from one zone read as one line:
/// "a hidden piece x9: bag -> face_down of shop 1 … face_down of shop 9".
fn collapse_moves(lines: Vec<String>) -> Vec<String> {
    fn parts(line: &str) -> Option<(&str, &str, &str)> {
        let body = line.strip_prefix("  ")?;
        let (piece, rest) = body.split_once(": ")?;
        let (from, to) = rest.split_once(" -> ")?;
        Some((piece, from, to))
    }
    let mut out: Vec<String> = vec![];
    let mut i = 0;
    while i < lines.len() {
        let Some((piece, from, _)) = parts(&lines[i]) else {
            out.push(lines[i].clone());
            i += 1;
            continue;
        };
        let mut to: Vec<(&str, usize)> = vec![];
        let mut j = i;
        while let Some((p, f, t)) = lines.get(j).and_then(|l| parts(l)) {
            if p != piece || f != from {
                break;
            }
            match to.iter_mut().find(|(d, _)| *d == t) {
                Some((_, n)) => *n += 1,
                None => to.push((t, 1)),
            }
            j += 1;
        }
        if j - i == 1 {
            out.push(lines[i].clone());
        } else {
            let dests: Vec<String> = to
                .iter()
                .map(|(d, n)| if *n == 1 { d.to_string() } else { format!("{d} x{n}") })
                .collect();
            // A long run names its first and last places only.
            let dests = if dests.len() > 3 {
                format!("{} … {}", dests[0], dests[dests.len() - 1])
            } else {
                dests.join(", ")
            };
            out.push(format!("  {piece} x{}: {from} -> {dests}", j - i));
        }
        i = j;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&[&str]]) -> Vec<Vec<String>> {
        list.iter().map(|n| n.iter().map(|s| s.to_string()).collect()).collect()
    }

    #[test]
    fn typed_answers_by_number_name_kind_name_or_prefix() {
        let n = names(&[&["north", "alpha"], &["south"], &["northeast"], &["place a marker"]]);
        assert_eq!(parse_typed("2\n", &n, false), Typed::Choice(1));
        assert_eq!(parse_typed("South", &n, false), Typed::Choice(1));
        assert_eq!(parse_typed("ALPHA", &n, false), Typed::Choice(0));
        assert_eq!(parse_typed("pl", &n, false), Typed::Choice(3));
        assert_eq!(parse_typed(" ? ", &n, false), Typed::Help);
        assert_eq!(parse_typed("q", &n, false), Typed::Quit);
        assert_eq!(parse_typed("log", &n, false), Typed::Log);
        assert!(
            matches!(parse_typed("nor", &n, false), Typed::Bad(why) if why.contains("could be north or northeast"))
        );
        assert!(matches!(parse_typed("9", &n, false), Typed::Bad(why) if why.contains("no choice 9")));
        assert!(matches!(parse_typed("sotuh", &n, false), Typed::Bad(why) if why.contains("did you mean `south`")));
        assert!(matches!(parse_typed("", &n, false), Typed::Bad(_)));
        // Where the choices are numbers, a number is a value.
        let v = names(&[&["3"], &["1"]]);
        assert_eq!(parse_typed("1", &v, true), Typed::Choice(1));
        assert!(matches!(parse_typed("2", &v, true), Typed::Bad(_)));
        // Alike pieces share a label: the first is taken.
        let alike = names(&[&["Token"], &["Token"]]);
        assert_eq!(parse_typed("tok", &alike, false), Typed::Choice(0));
    }

    #[test]
    fn tidy_speaks_to_the_person_and_joins_runs() {
        let lines = vec![
            "Ann chooses hand: left  [of 3]".to_string(),
            "Ben chooses hand: (secret)".to_string(),
            "  a hidden piece: pile -> row 1".to_string(),
            "  a hidden piece: pile -> row 2".to_string(),
            "  Token: pile -> row 3".to_string(),
        ];
        assert_eq!(
            tidy(lines, "Ann"),
            vec![
                "You choose hand: left",
                "Ben chooses hand: (secret)",
                "  a hidden piece x2: pile -> row 1, row 2",
                "  Token: pile -> row 3",
            ]
        );
    }
}
