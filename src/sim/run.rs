//! The parallel driver: plays games in fixed chunks on a rayon pool, folds
//! each game into a chunk's report as it ends, and merges the chunk reports
//! in game order. No transcript is kept, and a per-game record only when
//! asked for ([`simulate_games`]), so memory stays flat in the number of games.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use rayon::prelude::*;

use super::record::{GameRecord, GameResult};
use super::report::{ByAgent, Coverage, Part, Plan, Report, Scores, Stop, Together, rules_hash};
use super::stats::game_seed;
use crate::agents::spec::{AgentSpec, parse_spec};
use crate::agents::{self, Agent};
use crate::diagnostic::{Code, Span};
use crate::engine::{Choice, EndReason, EngineError, Event, State};
use crate::ir::reach::reach;
use crate::ir::{ChoiceKind, ChoiceValue, GameDef, LabelPart, OptionValue};
use crate::session;

/// Games per chunk at most: a chunk is the unit of parallel work and of
/// progress.
const CHUNK: u64 = 256;

/// Chunks per thread at least, so a short run of slow games (a few hundred
/// with a searching player) still keeps every thread busy.
const CHUNKS_PER_THREAD: u64 = 8;

/// Games per chunk for `games` games on `threads` threads. Every count is
/// an integer and chunk reports merge exactly, so the chunk size never
/// changes the report.
fn chunk_size(games: u64, threads: usize) -> u64 {
    (games / (threads as u64 * CHUNKS_PER_THREAD).max(1)).clamp(1, CHUNK)
}

/// The most threads a run may ask for (`--jobs`).
pub const MAX_JOBS: usize = 256;

/// Threads for `games` games when `jobs` were asked for (0: one per core):
/// never more than there are games, so no thread waits with nothing to do.
fn thread_count(jobs: usize, games: u64) -> usize {
    let wanted = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    wanted.clamp(1, MAX_JOBS).min(games.clamp(1, MAX_JOBS as u64) as usize)
}

/// The game indices of shard `i` of `n` (1-based) in a run of `games`:
/// contiguous slices that together cover `0..games` exactly once.
pub fn shard_range(games: u64, i: u64, n: u64) -> (u64, u64) {
    let cut = |k: u64| (games as u128 * k as u128 / n.max(1) as u128) as u64;
    (cut(i - 1), cut(i))
}

/// Plays the games of `plan.range` with up to `jobs` threads (0: one per
/// core) and returns their report. `progress` is told how many games have
/// just finished, from any thread. The report is the same for every `jobs`.
pub fn simulate(
    def: &crate::engine::Game,
    options: &[OptionValue],
    plan: &Plan,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, String> {
    drive(def, options, plan, jobs, progress, false).map(|(report, _)| report)
}

/// [`simulate`], and a record of every game in index order (for `--csv`
/// and `--html`). The records are the same for every `jobs`.
pub fn simulate_games(
    def: &crate::engine::Game,
    options: &[OptionValue],
    plan: &Plan,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(Report, Vec<GameRecord>), String> {
    drive(def, options, plan, jobs, progress, true)
}

fn drive(
    def: &crate::engine::Game,
    options: &[OptionValue],
    plan: &Plan,
    jobs: usize,
    progress: &(dyn Fn(u64) + Sync),
    keep_games: bool,
) -> Result<(Report, Vec<GameRecord>), String> {
    agents::for_game(&plan.agents, def, options, 0)?;
    let seating = Seating::new(def, plan)?;
    let (start, end) = plan.range;
    if start > end || end > plan.games {
        return Err(format!("games {start}..{end} are not part of a run of {}", plan.games));
    }
    if jobs > MAX_JOBS {
        return Err(format!("{jobs} threads asked for; at most {MAX_JOBS}"));
    }
    let (mut template, layout) = blank(def, plan);
    template.by_agent = seating.by_agent();
    let threads = thread_count(jobs, end - start);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let chunk = chunk_size(end - start, pool.current_num_threads());
    let chunks = (end - start).div_ceil(chunk);
    let (total, mut games) = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let from = start + c * chunk;
                let to = (from + chunk).min(end);
                let mut report = template.clone();
                let mut records = vec![];
                let mut game = Game::new(template.coverage.len(), def.players(), &layout, keep_games);
                for index in from..to {
                    let record = game.play(def, options, plan, &seating, index, &mut report);
                    records.extend(record);
                }
                report.ranges = vec![(from, to)];
                progress(to - from);
                (report, records)
            })
            .reduce(
                || (template.clone(), vec![]),
                |(mut a, mut a_games), (b, b_games)| {
                    a.merge(&b).expect("chunks of one run merge");
                    a_games.extend(b_games);
                    (a, a_games)
                },
            )
    });
    games.sort_unstable_by_key(|g| g.index);
    debug_assert!(start == end || total.check().is_ok(), "{:?}", total.check());
    Ok((total, games))
}

/// Who sits where: one agent spec per seat, and whether the seats rotate.
struct Seating {
    /// The agents in the order given, one per seat (one given for all is repeated).
    specs: Vec<AgentSpec>,
    /// The seats' agents differ.
    mixed: bool,
    /// Game `i` is arrangement `i mod seats`, on the deal of `i / seats`.
    rotate: bool,
}

impl Seating {
    fn new(def: &GameDef, plan: &Plan) -> Result<Seating, String> {
        let mut specs = parse_spec(&plan.agents)?;
        if specs.len() == 1 {
            specs = vec![specs[0].clone(); def.players()];
        }
        let mixed = specs.iter().any(|s| *s != specs[0]);
        Ok(Seating {
            mixed,
            rotate: mixed && plan.rotate_seats,
            specs,
        })
    }

    /// The report's table of results per agent, when the agents differ.
    fn by_agent(&self) -> Option<ByAgent> {
        let seats = self.specs.len();
        self.mixed.then(|| ByAgent {
            agents: self.specs.iter().map(AgentSpec::to_text).collect(),
            rotated: self.rotate,
            arrangements: vec![0; if self.rotate { seats } else { 1 }],
            wins: vec![vec![0; seats]; seats],
        })
    }

    /// Game `index`'s deal (the index its seed derives from) and arrangement.
    fn of_game(&self, index: u64) -> (u64, usize) {
        if self.rotate {
            let seats = self.specs.len() as u64;
            (index / seats, (index % seats) as usize)
        } else {
            (index, 0)
        }
    }

    /// The agent at `seat` in `arrangement` (agent `a` sits at `(a + r) mod seats`).
    fn agent_at(&self, seat: usize, arrangement: usize) -> usize {
        let seats = self.specs.len();
        (seat + seats - arrangement) % seats
    }

    fn agents(
        &self,
        def: &crate::engine::Game,
        options: &[OptionValue],
        arrangement: usize,
        seed: u64,
    ) -> Vec<Box<dyn Agent>> {
        (0..self.specs.len())
            .map(|seat| {
                agents::build(
                    &self.specs[self.agent_at(seat, arrangement)],
                    Some((def, options)),
                    seat as u8,
                    seed,
                )
                .expect("the spec was checked")
            })
            .collect()
    }
}

/// How a decision's choices land in coverage rows.
#[derive(Clone, Copy)]
enum Rows {
    /// The game never asks it (a `use`d library's decision it never calls): no row.
    Unreached,
    /// One row for the whole decision.
    One(usize),
    /// One row per entry, from `first`: a draft's entries (the value is the
    /// entry), or an action menu's (the value packs the entry with its
    /// parameters, the entry being the value modulo `count`).
    Entries { first: usize, count: usize, packed: bool },
}

/// Where each event lands in the report's rows.
struct Layout {
    /// Per decision: its coverage rows.
    decision_rows: Vec<Rows>,
    trigger_rows: Vec<usize>,
    /// Per `anytime` action (offered as choice `-1 - index`).
    anytime_rows: Vec<usize>,
    /// Per hook: its row, `None` for a hook only unreachable code calls.
    hook_rows: Vec<Option<usize>>,
    score_rows: Vec<usize>,
}

/// An empty report with a row for every part of the rules, and the map
/// from ids to rows.
fn blank(def: &GameDef, plan: &Plan) -> (Report, Layout) {
    let mut coverage = vec![];
    let mut row = |part: Part, name: String, span: Span, yes: Option<u64>, available: Option<u64>| {
        coverage.push(Coverage {
            part,
            name,
            at: Some(place(def, span)),
            games: 0,
            times: 0,
            yes,
            available,
        });
        coverage.len() - 1
    };
    let reached = reach(def);
    let decision_names = unique_names(def, def.decisions.iter().map(|d| (d.name.clone(), d.span)).collect());
    let mut decision_rows = vec![];
    let mut together = vec![];
    for (d, decision) in def.decisions.iter().enumerate() {
        together.push(Together {
            decision: decision_names[d].clone(),
            rounds: 0,
            alike: 0,
        });
        let entries: Option<(Vec<String>, bool)> = match &decision.kind {
            ChoiceKind::Menu(labels) => Some((labels.clone(), false)),
            ChoiceKind::Actions(actions) => Some((actions.iter().map(action_title).collect(), true)),
            _ => None,
        };
        let rows = match entries {
            _ if !reached.decisions[d] => Rows::Unreached,
            Some((labels, packed)) if !labels.is_empty() => {
                let names = distinct(unique_names(
                    def,
                    labels.iter().map(|l| (l.clone(), decision.span)).collect(),
                ));
                let count = names.len();
                let first = names
                    .into_iter()
                    .map(|name| row(Part::Action, name, decision.span, None, None))
                    .min()
                    .expect("at least one entry");
                Rows::Entries { first, count, packed }
            }
            _ => Rows::One(row(
                Part::Decision,
                decision_names[d].clone(),
                decision.span,
                None,
                None,
            )),
        };
        decision_rows.push(rows);
    }
    let trigger_rows = def
        .triggers
        .iter()
        .map(|t| {
            row(
                Part::Trigger,
                t.name.clone(),
                def.procs[t.proc as usize].span,
                None,
                None,
            )
        })
        .collect();
    let anytime_rows = def
        .anytime
        .iter()
        .map(|a| {
            row(
                Part::Anytime,
                a.label.clone(),
                def.procs[a.body as usize].span,
                None,
                Some(0),
            )
        })
        .collect();
    let hook_rows = def
        .hooks
        .iter()
        .zip(&reached.hooks)
        .map(|(h, &reached)| {
            reached.then(|| row(Part::Hook, h.name.clone(), h.span, h.returns_bool.then_some(0), None))
        })
        .collect();
    let score_rows = def
        .score_terms
        .iter()
        .map(|t| {
            row(
                Part::Score,
                t.name.clone(),
                def.procs[t.proc as usize].span,
                None,
                t.when.map(|_| 0),
            )
        })
        .collect();
    let scores = (!def.score_terms.is_empty()).then(|| Scores {
        terms: def.score_terms.iter().map(|t| t.name.clone()).collect(),
        scored: 0,
        totals: vec![Default::default(); def.players()],
        margin: Default::default(),
    });
    // The command line's `--set` settings are a pseudo-file of the sources;
    // they are compared on merge as `options`, so they are not hashed.
    let hash = rules_hash(
        def.sources
            .files
            .iter()
            .filter(|f| f.name != "command line")
            .map(|f| &*f.text),
    );
    let report = Report::empty(&def.name, hash, def.seats.clone(), plan, together, scores, coverage);
    let layout = Layout {
        decision_rows,
        trigger_rows,
        anytime_rows,
        hook_rows,
        score_rows,
    };
    (report, layout)
}

/// An action's title in coverage: its label with each parameter shown by
/// what it is, `challenge from <space> to <space>`.
pub(crate) fn action_title(action: &crate::ir::ActionDef) -> String {
    action
        .label
        .iter()
        .map(|part| match part {
            LabelPart::Text(text) => text.clone(),
            LabelPart::Param(k) => match action.params.get(*k as usize).map(|(kind, _)| kind) {
                Some(ChoiceKind::Kind) => "<kind>".into(),
                Some(ChoiceKind::Player) => "<player>".into(),
                Some(ChoiceKind::Number) => "<number>".into(),
                Some(ChoiceKind::Space(_)) => "<space>".into(),
                Some(ChoiceKind::PieceType) => "<type>".into(),
                Some(ChoiceKind::Piece) => "<piece>".into(),
                Some(ChoiceKind::Direction) => "<direction>".into(),
                Some(ChoiceKind::Menu(_) | ChoiceKind::Actions(_)) | None => "<choice>".into(),
            },
        })
        .collect()
}

/// Entry names that are still alike (two entries of one decision with the
/// same label) told apart by their position, `(entry 2)`.
fn distinct(names: Vec<String>) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if names.iter().filter(|n| *n == name).count() > 1 {
                format!("{name} (entry {})", i + 1)
            } else {
                name.clone()
            }
        })
        .collect()
}

/// Names made unique: a repeated name gets its place in the rules, `(rps.rules:14)`.
fn unique_names(def: &GameDef, names: Vec<(String, Span)>) -> Vec<String> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (name, _) in &names {
        *seen.entry(name.as_str()).or_insert(0) += 1;
    }
    names
        .iter()
        .map(|(name, span)| {
            if seen[name.as_str()] > 1 {
                format!("{name} ({})", place(def, *span))
            } else {
                name.clone()
            }
        })
        .collect()
}

/// `rps.rules:14`, `prelude/rps.rules:14`: the file relative to the folder
/// of the game the rules start from (the end of the `extends` chain, so a
/// base and its variant, wherever each was named from, name a line of the
/// base alike, and reports do not depend on where they were run) and the line.
fn place(def: &GameDef, span: Span) -> String {
    let main = normalise(Path::new(&def.sources.file(def.root_file).name));
    let here = normalise(Path::new(&def.sources.file(span.file).name));
    let dir: Vec<Component> = main.parent().map(|p| p.components().collect()).unwrap_or_default();
    let file: Vec<Component> = here.components().collect();
    let common = dir.iter().zip(&file).take_while(|(a, b)| a == b).count();
    let mut relative = PathBuf::new();
    for _ in common..dir.len() {
        relative.push("..");
    }
    for c in &file[common..] {
        relative.push(c);
    }
    let (line, _) = def.sources.line_col(span.file, span.start);
    format!("{}:{line}", relative.display())
}

/// `games/variants/../prelude/x.rules` as `games/prelude/x.rules`.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// How one game ended, as its line in "How games end".
pub(crate) fn end_label(def: &GameDef, reason: &EndReason) -> String {
    match reason {
        EndReason::Win(span, None) => format!("win in the flow ({})", place(def, *span)),
        EndReason::Win(span, Some(m)) => format!("win: {} ({})", def.messages[*m as usize], place(def, *span)),
        EndReason::Trigger(t, _) => format!("trigger {}", def.triggers[*t as usize].name),
        EndReason::TieBreak(span, _) => format!("tie-break in the result section ({})", place(def, *span)),
        EndReason::Rank(k) => {
            let key = &def.rank_keys[*k as usize];
            format!("{} {}", if key.most { "most" } else { "fewest" }, key.label)
        }
        EndReason::Draw(_, Some(reason)) => format!("draw: {}", def.messages[*reason as usize]),
        EndReason::Draw(_, None) if !def.rank_keys.is_empty() => "draw: tied on every result key".into(),
        EndReason::Draw(span, None) => format!("draw declared ({})", place(def, *span)),
    }
}

/// One thread's game player: the buffers it reuses from game to game.
struct Game<'a> {
    layout: &'a Layout,
    events: Vec<Event>,
    choices: Vec<Choice>,
    /// Per coverage row: times fired in this game, and yes answers.
    fired: Vec<u64>,
    yes: Vec<u64>,
    touched: Vec<usize>,
    decision_points: u64,
    decisions: u64,
    end_labels: Vec<(EndReason, String)>,
    /// Whether [`play`](Self::play) returns a record of each game.
    keep: bool,
}

impl<'a> Game<'a> {
    fn new(rows: usize, players: usize, layout: &'a Layout, keep: bool) -> Game<'a> {
        Game {
            layout,
            events: Vec::with_capacity(64),
            choices: Vec::with_capacity(players),
            fired: vec![0; rows],
            yes: vec![0; rows],
            touched: vec![],
            decision_points: 0,
            decisions: 0,
            end_labels: vec![],
            keep,
        }
    }

    fn hit(&mut self, row: usize, yes: bool) {
        if self.fired[row] == 0 {
            self.touched.push(row);
        }
        self.fired[row] += 1;
        self.yes[row] += u64::from(yes);
    }

    /// Plays game `index` and adds it to `report`; with `keep`, returns its record.
    fn play(
        &mut self,
        def: &crate::engine::Game,
        options: &[OptionValue],
        plan: &Plan,
        seating: &Seating,
        index: u64,
        report: &mut Report,
    ) -> Option<GameRecord> {
        let (deal, arrangement) = seating.of_game(index);
        let seed = game_seed(plan.seed, deal);
        let mut agents = seating.agents(def, options, arrangement, seed);
        self.decision_points = 0;
        self.decisions = 0;
        let mut record = None;
        let failure = match self.run(def, options, seed, &mut agents, report) {
            Ok(state) => {
                let winner = self.finish(def, &state, report);
                if let Some(by_agent) = &mut report.by_agent {
                    by_agent.arrangements[arrangement] += 1;
                    if let Some(seat) = winner {
                        by_agent.wins[seating.agent_at(seat, arrangement)][seat] += 1;
                    }
                }
                if self.keep {
                    record = self.record(def, &state, report.scores.is_some());
                }
                None
            }
            Err(stop) => {
                if let Some(by_agent) = &mut report.by_agent {
                    by_agent.arrangements[arrangement] += 1;
                }
                Some(stop)
            }
        };
        if let Some((code, message)) = failure {
            if self.keep {
                record = Some((GameResult::Stopped(code.to_string()), format!("stopped: {code}"), None));
            }
            let entry = report.stopped.entry(code.to_string()).or_insert(Stop {
                games: 0,
                first_game: index,
                first_seed: seed,
                message: message.clone(),
            });
            entry.games += 1;
            if index < entry.first_game {
                entry.first_game = index;
                entry.first_seed = seed;
                entry.message = message;
            }
            *report.ends.entry(format!("stopped: {code}")).or_insert(0) += 1;
        }
        report.games += 1;
        report.decision_points.add(self.decision_points);
        report.decisions.add(self.decisions);
        for &row in &self.touched {
            let c = &mut report.coverage[row];
            c.games += 1;
            c.times += self.fired[row];
            if let Some(y) = &mut c.yes {
                *y += self.yes[row];
            }
            self.fired[row] = 0;
            self.yes[row] = 0;
        }
        self.touched.clear();
        record.map(|(result, end, scores)| GameRecord {
            index,
            seed,
            agents: (0..def.players())
                .map(|seat| seating.specs[seating.agent_at(seat, arrangement)].to_text())
                .collect(),
            decision_points: self.decision_points,
            decisions: self.decisions,
            result,
            end,
            scores,
        })
    }

    /// A finished game's result, end label and final totals, as [`finish`](Self::finish) counted them.
    fn record(&mut self, def: &GameDef, state: &State, scored: bool) -> Option<(GameResult, String, Option<Vec<i64>>)> {
        let outcome = state.outcome()?;
        let result = outcome
            .winner
            .map_or(GameResult::Draw, |seat| GameResult::Win(seat as usize));
        let end = self.end_label(def, &outcome.reason).to_string();
        let scores = state.scores();
        let totals = (scored && !scores.is_empty()).then(|| scores.iter().map(|terms| terms.iter().sum()).collect());
        Some((result, end, totals))
    }

    /// The "How games end" line of `reason`, worked out once per run.
    fn end_label(&mut self, def: &GameDef, reason: &EndReason) -> &str {
        let at = match self.end_labels.iter().position(|(r, _)| r == reason) {
            Some(at) => at,
            None => {
                self.end_labels.push((reason.clone(), end_label(def, reason)));
                self.end_labels.len() - 1
            }
        };
        &self.end_labels[at].1
    }

    /// Runs the game to its end, counting as it goes; a failure gives its
    /// diagnostic code and message.
    fn run(
        &mut self,
        def: &crate::engine::Game,
        options: &[OptionValue],
        seed: u64,
        agents: &mut [Box<dyn Agent>],
        report: &mut Report,
    ) -> Result<State, (Code, String)> {
        self.events.clear();
        let started = State::start(def, options, seed, vec![], &mut self.events);
        self.count_events(report);
        let mut state = started.map_err(|d| (d.code, d.message.clone()))?;
        while let Some(pending) = state.pending() {
            let decision = pending.decision();
            self.choices.clear();
            for &seat in pending.who() {
                let legal = pending.legal(seat);
                // `anytime` actions are offered as negative values after the real choices.
                let anytime = legal
                    .iter()
                    .rev()
                    .map_while(|&v| ChoiceValue::from_raw(v).anytime_index());
                for action in anytime {
                    let c = &mut report.coverage[self.layout.anytime_rows[action]];
                    *c.available.get_or_insert(0) += 1;
                }
                // The same call as `session::play`, so a game here is the game `rpsdsl run` plays.
                let choice = session::agent_choice(def, &state, decision, seat, legal, agents[seat as usize].as_mut());
                self.choices.push(choice);
            }
            // A round interrupted by an `anytime` action is asked again: not a round.
            if pending.is_simultaneous() && self.choices.len() > 1 && self.choices.iter().all(|c| !c.is_anytime()) {
                let t = &mut report.together[decision as usize];
                t.rounds += 1;
                let first = self.choices[0].value;
                t.alike += u64::from(self.choices.iter().all(|c| c.value == first));
            }
            self.decision_points += 1;
            session::tell_choices(def, &state, &self.choices, agents);
            let applied = state.apply(def, &self.choices, &mut self.events);
            session::tell_agents(def, &self.events, agents);
            self.count_events(report);
            match applied {
                Ok(()) => {}
                Err(EngineError::Runtime(d)) => return Err((d.code, d.message.clone())),
                Err(EngineError::Illegal(illegal)) => return Err((Code::IllegalAction, illegal.to_string())),
            }
        }
        Ok(state)
    }

    /// Counts the events of the last step and forgets them.
    fn count_events(&mut self, report: &mut Report) {
        let events = std::mem::take(&mut self.events);
        for event in &events {
            match *event {
                Event::Decision {
                    decision,
                    value,
                    offered,
                    ..
                } => {
                    self.decisions += 1;
                    report.offered += u64::from(offered);
                    report.real_choices += u64::from(offered > 1);
                    let d = decision as usize;
                    let choice = ChoiceValue::from_raw(value);
                    let row = if let Some(action) = choice.anytime_index() {
                        Some(self.layout.anytime_rows[action])
                    } else {
                        match self.layout.decision_rows[d] {
                            Rows::Unreached => None,
                            Rows::One(row) => Some(row),
                            // `, or silence` and other values that name no entry count for none.
                            _ if choice.is_none() || value < 0 => None,
                            Rows::Entries { first, count, packed } => {
                                let count = count as u64;
                                let entry = if packed {
                                    Some(value as u64 % count)
                                } else {
                                    Some(value as u64)
                                };
                                entry.filter(|&e| e < count).map(|e| first + e as usize)
                            }
                        }
                    };
                    if let Some(row) = row {
                        self.hit(row, false);
                    }
                }
                Event::Score { term, .. } => {
                    let c = &mut report.coverage[self.layout.score_rows[term as usize]];
                    if let Some(a) = &mut c.available {
                        *a += 1;
                    }
                }
                Event::Trigger { trigger } => self.hit(self.layout.trigger_rows[trigger as usize], false),
                Event::Hook { hook, value } => {
                    if let Some(row) = self.layout.hook_rows[hook as usize] {
                        self.hit(row, value != 0);
                    }
                }
                _ => {}
            }
        }
        self.events = events;
        self.events.clear();
    }

    /// Counts the result of a finished game; returns the winning seat.
    fn finish(&mut self, def: &GameDef, state: &State, report: &mut Report) -> Option<usize> {
        let outcome = state.outcome()?;
        let winner = outcome.winner.map(|seat| seat as usize);
        match outcome.winner {
            Some(seat) => report.wins[seat as usize] += 1,
            None => report.draws += 1,
        }
        let label = self.end_label(def, &outcome.reason);
        match report.ends.get_mut(label) {
            Some(count) => *count += 1,
            None => {
                report.ends.insert(label.to_string(), 1);
            }
        }
        let scores = state.scores();
        if let (Some(s), false) = (&mut report.scores, scores.is_empty()) {
            s.scored += 1;
            let totals: Vec<i64> = scores.iter().map(|terms| def.points(terms)).collect();
            for (m, &t) in s.totals.iter_mut().zip(&totals) {
                m.add(t);
            }
            let mut sorted = totals.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            s.margin.add(sorted[0] - sorted.get(1).copied().unwrap_or(sorted[0]));
            for (t, &row) in self.layout.score_rows.iter().enumerate() {
                for seat_terms in scores {
                    if seat_terms[t] != 0 {
                        self.hit(row, false);
                    }
                }
            }
        }
        winner
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_game_once() {
        for (games, n) in [(10, 3), (7, 7), (1000, 4), (5, 8)] {
            let mut next = 0;
            for i in 1..=n {
                let (s, e) = shard_range(games, i, n);
                assert_eq!(s, next);
                next = e;
            }
            assert_eq!(next, games);
        }
    }

    #[test]
    fn game_seeds_differ_and_are_stable() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_eq!(game_seed(0, 0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn threads_never_outnumber_games_or_the_maximum() {
        assert_eq!(thread_count(4, 2), 2);
        assert_eq!(thread_count(4, 0), 1);
        assert_eq!(thread_count(MAX_JOBS * 10, u64::MAX), MAX_JOBS);
        assert_eq!(thread_count(3, 1000), 3);
        assert!(thread_count(0, 1000) >= 1);
    }

    #[test]
    fn short_runs_of_slow_games_are_split_for_every_thread() {
        // 200 games on 2 threads: 16 chunks of 12 and one of 8, not one of 200.
        assert_eq!(chunk_size(200, 2), 12);
        assert_eq!(chunk_size(3, 2), 1);
        assert_eq!(chunk_size(10_000_000, 2), CHUNK);
    }
}
