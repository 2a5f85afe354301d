//! `rpsdsl analyze`: what a designer asks of a game beyond who wins under
//! random play. Does skill matter (a strong search player against a weak
//! one and against random, seats rotated, seeds paired)? Which choices do
//! strong players make, and which never pay? Does the lead change hands?
//! Built on `sim`'s seeds and `agents`; every figure is defined in
//! `docs/metrics.md`.

mod choices;
mod play;
mod tension;

use rayon::prelude::*;
use serde::Serialize;

pub use self::play::Stops;
pub use choices::ChoiceRow;
pub use tension::{GameTension, TensionSummary};

pub(crate) use self::choices::choice_group;
use self::choices::{ChoiceTally, Role};
pub(crate) use self::play::{Pick, Played, Restriction, counters, effect_labels, play, play_restricted, running_lead};
use self::tension::Tension;
use super::run::MAX_JOBS;
use super::sequential::{ALPHA, Bets, ConfidenceSequence, Goal, batch_after, check_goal};
use super::stats::Rate;
use super::stats::game_seed;
use super::strength::{NOT_SCALABLE, Saturation, scaled};
use crate::agents::spec::{AgentSpec, parse_spec};
use crate::engine::Game;
use crate::ir::OptionValue;

/// Positions `exact` may visit before `analyze` samples random play instead.
pub const EXACT_BUDGET: u64 = 200_000;

/// Random games the default budget plays first, to measure the game's length.
pub const PILOT_GAMES: u64 = 16;
/// The most games per matchup by default: its least and its most. Without
/// `-n` each matchup stops as soon as its edge is significant, so the most
/// is played only where the answer stays unclear. The least, 32 deals of a
/// two-seat game, is enough for an edge's interval to leave out 0 when the
/// strong player wins nearly every game (it cannot before 16 deals).
pub const DEFAULT_GAMES: (u64, u64) = (64, 400);
/// The default budget: games per matchup times the square of random play's
/// mean choices per game (a search player's work per game grows with the
/// choices it makes times the length of each playout). Measured on the
/// shipped games with the default players, the slowest game per choice²
/// plays a matchup of this budget in about a minute on one core.
pub const WORK_BUDGET: f64 = 7.5e5;

/// The most games per matchup when `-n` is not given: [`DEFAULT_GAMES`]'s
/// most for a game whose random play makes at most `sqrt(WORK_BUDGET / 400)`
/// (about 43) choices, fewer as games grow longer, never fewer than its
/// least; a whole number of deals. Returns the games and random play's mean
/// choices per game.
pub fn default_games(def: &Game, options: &[OptionValue], seed: u64) -> (u64, f64) {
    let random = parse_spec("random").expect("random is an agent");
    let specs = vec![random[0].clone(); def.players()];
    let choices: usize = (0..PILOT_GAMES)
        .into_par_iter()
        .map(|i| play(def, options, game_seed(seed, i), &specs).picks.len())
        .sum();
    let length = choices as f64 / PILOT_GAMES as f64;
    let (least, most) = DEFAULT_GAMES;
    let games = (WORK_BUDGET / length.max(1.0).powi(2)).clamp(least as f64, most as f64) as u64;
    let seats = def.players().max(1) as u64;
    ((games / seats).max(1) * seats, length)
}

/// What to analyse with.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The strong player (`mcts:iterations=80`).
    pub strong: String,
    /// The weak player (`mcts:iterations=20`).
    pub weak: String,
    /// Games per matchup.
    pub games: u64,
    /// Game `i` of a matchup is played on `game_seed(seed, i / seats)`: the
    /// same deals in every matchup.
    pub seed: u64,
    /// Threads (0: one per core).
    pub jobs: usize,
    /// When `games` is [`default_games`]'s choice: random play's mean
    /// choices per game it was chosen for (the report says so).
    pub chosen_for: Option<f64>,
    /// Stop each matchup as soon as its question is answered; `games` is
    /// then the most it plays.
    pub goal: Option<Goal>,
}

/// Deals a sequential matchup plays before it first looks, and at least
/// between looks: search players' games are slow, and an edge needs about
/// 16 deals before its interval can leave out 0 however large it is.
pub const LEAST_BATCH_DEALS: u64 = 8;

/// Why a sequential matchup stopped.
#[derive(Clone, Debug, Serialize)]
pub struct MatchupStop {
    /// What it waited for.
    pub goal: Goal,
    /// The most games it could play.
    pub cap: u64,
    /// Whether the question was answered (`false`: it reached the cap first).
    pub answered: bool,
}

impl MatchupStop {
    /// Why, in words.
    pub fn reason(&self) -> String {
        match (self.answered, self.goal) {
            (true, Goal::Significant) => "its edge's interval leaves out 0".into(),
            (true, Goal::Precision(p)) => format!("its edge is known within ±{p}"),
            (false, Goal::Significant) => "reached the most games with the edge's interval still covering 0".into(),
            (false, Goal::Precision(p)) => format!("reached the most games before the edge was known within ±{p}"),
        }
    }
}

/// One pairing of two players over the same deals, seats rotated.
#[derive(Clone, Debug, Serialize)]
pub struct Matchup {
    /// The player who takes one seat, rotating through all of them.
    pub first: String,
    /// The player in every other seat.
    pub second: String,
    /// Games played.
    pub games: u64,
    /// Games the first won.
    pub first_wins: Rate,
    /// Games a second player won.
    pub second_wins: Rate,
    /// Drawn games.
    pub draws: Rate,
    /// Games stopped by a runtime error.
    pub stopped: u64,
    /// Per deal, the first's win share minus a second seat's mean win
    /// share: its mean (in `[-1, 1]`) and 95% interval (an empirical
    /// Bernstein one, valid for bounded values; `docs/metrics.md`).
    pub edge: f64,
    /// The interval's low end.
    pub edge_low: f64,
    /// Its high end.
    pub edge_high: f64,
    /// With `--until-significant` or `--precision`: why it stopped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopping: Option<MatchupStop>,
}

impl Matchup {
    /// Whether the matchup's question is answered.
    fn answers(&self, goal: Goal) -> bool {
        match goal {
            Goal::Significant => self.edge_low > 0.0 || self.edge_high < 0.0,
            Goal::Precision(p) => (self.edge_high - self.edge_low) / 2.0 <= p,
        }
    }
}

/// Random play's exact outcome rates, when the game is small enough.
#[derive(Clone, Debug, Serialize)]
pub struct ExactNote {
    /// Positions `exact` visited.
    pub positions: u64,
    /// Per seat, the probability that it wins.
    pub wins: Vec<f64>,
    /// The probability of a draw.
    pub draws: f64,
}

/// How much a perfect opponent wins against each player, measured on the
/// game's whole tree (`rpsdsl exploit`): whether the strong player really
/// plays better.
#[derive(Clone, Debug, Serialize)]
pub struct Strength {
    /// Per player (strong, weak, random): its spec, the exploitability of
    /// every seat playing it (a best response's gain per game, averaged over
    /// the seats), and whether that is exact (else estimated from sampled answers).
    pub players: Vec<(String, f64, bool)>,
}

/// The whole analysis.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    /// The game's name.
    pub game: String,
    /// The rules file as the user named it.
    pub rules: String,
    /// Seat names, in order.
    pub seats: Vec<String>,
    /// The strong player's spec.
    pub strong: String,
    /// The weak player's spec.
    pub weak: String,
    /// Games in each matchup; with `--until-significant` or `--precision`,
    /// the most each may play.
    pub games_per_matchup: u64,
    /// With `--until-significant` or `--precision`: what each matchup waited for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<Goal>,
    /// When the games were the default's choice: random play's mean choices per game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub games_chosen_for: Option<f64>,
    /// The seed the deals derive from.
    pub seed: u64,
    /// Strong vs random, weak vs random, strong vs weak.
    pub matchups: Vec<Matchup>,
    /// How exploitable each player is, where the game's tree fits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<Strength>,
    /// Why the players' exploitability was not measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength_note: Option<String>,
    /// Whether the strong player is shown to be strong: the same search at
    /// four times its budget against it, on the same deals, seats rotated,
    /// does no better by more than 0.05 in score.
    pub saturation: Saturation,
    /// The skill index: strong's edge over random (0: no skill can help).
    pub skill_index: f64,
    /// Its 95% interval's low end.
    pub skill_low: f64,
    /// Its high end.
    pub skill_high: f64,
    /// How often random still beats strong.
    pub luck: Rate,
    /// Random against random, exactly, when `exact` can enumerate the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact_random: Option<ExactNote>,
    /// Strong against random: what each takes.
    pub choices: Vec<ChoiceRow>,
    /// Over strong-vs-weak games with a winner; `None` without score terms
    /// or a running lead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tension: Option<TensionSummary>,
    /// The running lead tension is read in, where the game has no score
    /// terms: the first count or variable per player a winning condition
    /// reads (`GameDef::leads`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tension_lead: Option<String>,
}

/// Plays games `from..to` of `first` in one seat (game `i` in seat `i mod
/// seats`) and `second` in the others, on the deals of `seed`; the games in
/// index order, each with the first player's seat.
fn matchup(
    def: &Game,
    options: &[OptionValue],
    (first, second): (&AgentSpec, &AgentSpec),
    (from, to): (u64, u64),
    config: &Config,
    pool: &rayon::ThreadPool,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<(Played, usize)> {
    let seats = def.players() as u64;
    pool.install(|| {
        (from..to)
            .into_par_iter()
            .map(|i| {
                let seat = (i % seats) as usize;
                let specs: Vec<AgentSpec> = (0..seats as usize)
                    .map(|s| if s == seat { first.clone() } else { second.clone() })
                    .collect();
                let played = play(def, options, game_seed(config.seed, i / seats), &specs);
                progress(1);
                (played, seat)
            })
            .collect()
    })
}

/// How a matchup's edge sequence sizes its bets: for a fixed number of
/// games, tightest at the deals played; for a sequential run, fixed before
/// the first game (at the cap, or for the precision asked), so that its
/// interval stays valid wherever the run stops.
fn bets(config: &Config, seats: u64) -> Bets {
    match config.goal {
        None | Some(Goal::Significant) => Bets::Horizon(config.games / seats),
        // The edge lies in [-1, 1]: twice the sequence's [0, 1] scale.
        Some(Goal::Precision(p)) => Bets::HalfWidth(p / 2.0),
    }
}

/// Plays a matchup: all of `config.games`, or, with a goal, in batches
/// until its question is answered or it reaches `config.games`.
fn play_matchup(
    def: &Game,
    options: &[OptionValue],
    pair: (&AgentSpec, &AgentSpec),
    config: &Config,
    pool: &rayon::ThreadPool,
    progress: &(dyn Fn(u64) + Sync),
) -> (Matchup, Vec<(Played, usize)>) {
    let seats = def.players() as u64;
    let bets = bets(config, seats);
    let Some(goal) = config.goal else {
        let games = matchup(def, options, pair, (0, config.games), config, pool, progress);
        return (summarise(pair.0, pair.1, &games, seats as usize, bets), games);
    };
    let mut games = vec![];
    loop {
        let played = games.len() as u64;
        let to = played + batch_after(played, config.games, seats, LEAST_BATCH_DEALS);
        games.extend(matchup(def, options, pair, (played, to), config, pool, progress));
        // Recomputed over every deal in order: the same sequence as one
        // fed deal by deal, read after this batch.
        let mut summary = summarise(pair.0, pair.1, &games, seats as usize, bets);
        let answered = summary.answers(goal);
        if answered || to >= config.games {
            summary.stopping = Some(MatchupStop {
                goal,
                cap: config.games,
                answered,
            });
            return (summary, games);
        }
    }
}

/// A matchup's figures.
fn summarise(first: &AgentSpec, second: &AgentSpec, games: &[(Played, usize)], seats: usize, bets: Bets) -> Matchup {
    let n = games.len() as u64;
    let (mut first_wins, mut second_wins, mut draws, mut stopped) = (0, 0, 0, 0);
    for (played, seat) in games {
        match played.winner {
            Some(w) if w == *seat => first_wins += 1,
            Some(_) => second_wins += 1,
            None if played.stopped => stopped += 1,
            None => draws += 1,
        }
    }
    // One observation per deal (the games of one rotation share a seed). The
    // interval is a confidence sequence's, read at the last deal: valid for
    // any values in [-1, 1] at this many deals, and never a point when every
    // deal came out the same (a normal interval would claim certainty).
    let deals: Vec<f64> = games
        .chunks(seats)
        .filter(|d| d.len() == seats)
        .map(|deal| {
            let edge: f64 = deal
                .iter()
                .map(|(played, seat)| match played.winner {
                    Some(w) if w == *seat => 1.0,
                    Some(_) => -1.0 / (seats as f64 - 1.0).max(1.0),
                    None => 0.0,
                })
                .sum();
            (edge / seats as f64).clamp(-1.0, 1.0)
        })
        .collect();
    let mut sequence = ConfidenceSequence::new(ALPHA, bets);
    for edge in &deals {
        sequence.push((edge + 1.0) / 2.0);
    }
    let (low, high) = sequence.interval();
    let mean = if deals.is_empty() {
        0.0
    } else {
        deals.iter().sum::<f64>() / deals.len() as f64
    };
    Matchup {
        first: first.to_text(),
        second: second.to_text(),
        games: n,
        first_wins: Rate::new(first_wins, n),
        second_wins: Rate::new(second_wins, n),
        draws: Rate::new(draws, n),
        stopped,
        edge: mean,
        edge_low: 2.0 * low - 1.0,
        edge_high: 2.0 * high - 1.0,
        stopping: None,
    }
}

/// Analyses a game: three matchups, the choice table and tension.
/// `progress` is told of every game played.
pub fn analyze(
    def: &Game,
    options: &[OptionValue],
    rules: &str,
    config: &Config,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Analysis, String> {
    let one = |text: &str| -> Result<AgentSpec, String> {
        let specs = parse_spec(text)?;
        match specs.as_slice() {
            [spec] => {
                crate::agents::build(spec, Some((def, options)), 0, 0)?;
                Ok(spec.clone())
            }
            _ => Err(format!("`{text}`: give one agent, e.g. `mcts:iterations=80`")),
        }
    };
    let (strong, weak, random) = (one(&config.strong)?, one(&config.weak)?, one("random")?);
    if def.players() < 2 {
        return Err("analyze pits players against each other, and this game has one seat".into());
    }
    if config.jobs > MAX_JOBS {
        return Err(format!("{} threads asked for; at most {MAX_JOBS}", config.jobs));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.jobs)
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    if let Some(goal) = config.goal {
        check_goal(goal)?;
    }
    let pairs = [(&strong, &random), (&weak, &random), (&strong, &weak)];
    let mut matchups = vec![];
    let mut played = vec![];
    for pair in pairs {
        let (summary, games) = play_matchup(def, options, pair, config, &pool, progress);
        matchups.push(summary);
        played.push(games);
    }
    let mut tally = ChoiceTally::new(def);
    for (game, strong_seat) in &played[0] {
        let won = game.winner == Some(*strong_seat);
        for pick in &game.picks {
            let role = if pick.seat == *strong_seat {
                Role::Strong
            } else {
                Role::Random
            };
            tally.add(pick, role, won);
        }
    }
    let tension_lead = running_lead(def).map(|(name, _)| name.clone());
    let tension = (!def.score_terms.is_empty() || tension_lead.is_some()).then(|| {
        let mut tension = Tension::default();
        for (game, _) in &played[2] {
            if let Some(t) = game.winner.and_then(|w| GameTension::of(&game.standings, w)) {
                tension.add(&t);
            }
        }
        tension.summary()
    });
    let exact_random = crate::exact::enumerate(def, options, EXACT_BUDGET)
        .ok()
        .map(|e| ExactNote {
            positions: e.positions,
            wins: e.wins,
            draws: e.draws,
        });
    let saturation = match scaled(&strong) {
        Some(stronger) => {
            let (m, _) = play_matchup(def, options, (&stronger, &strong), config, &pool, progress);
            let deals = m.games / def.players() as u64;
            Saturation::from_edge(&stronger, (m.edge, m.edge_low, m.edge_high), deals, def.players())
        }
        None => Saturation::not_played(NOT_SCALABLE),
    };
    let skill = &matchups[0];
    Ok(Analysis {
        game: def.name.clone(),
        rules: rules.into(),
        seats: def.seats.clone(),
        strong: strong.to_text(),
        weak: weak.to_text(),
        games_per_matchup: config.games,
        goal: config.goal,
        games_chosen_for: config.chosen_for,
        seed: config.seed,
        skill_index: skill.edge,
        skill_low: skill.edge_low,
        skill_high: skill.edge_high,
        luck: skill.second_wins,
        matchups,
        strength: None,
        strength_note: None,
        saturation,
        exact_random,
        choices: tally.rows(),
        tension,
        tension_lead,
    })
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn rate(r: &Rate) -> String {
    format!("{:>6} ({} to {})", pct(r.rate), pct(r.low), pct(r.high))
}

impl Analysis {
    /// What a seat's lead is counted in: `points`, or the running lead.
    fn lead_unit(&self) -> String {
        self.tension_lead
            .as_ref()
            .map_or_else(|| "points".to_string(), |lead| format!("`{lead}`"))
    }

    /// What the skill index's interval says.
    pub fn verdict(&self) -> &'static str {
        // An interval wider than half the scale covers 0 whatever the truth
        // is: saying "no sign of skill" from it would mislead.
        if self.skill_low <= 0.0 && self.skill_high >= 0.0 && self.skill_high - self.skill_low > 1.0 {
            "too few games to tell: the interval covers 0 but is wider than 1 (play more with -n)"
        } else if self.skill_low <= 0.0 && self.skill_high >= 0.0 {
            "no sign that skill matters: the interval covers 0"
        } else if self.skill_low > 0.0 {
            "skill matters: the strong player beats random more often than chance"
        } else {
            "the strong player does worse than random"
        }
    }

    /// The headline figures, one sentence each: skill, luck, the flagged
    /// choices, tension.
    pub fn summary_lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Skill index {:+.3} (95% CI {:+.3} to {:+.3}): {}.",
            self.skill_index,
            self.skill_low,
            self.skill_high,
            self.verdict()
        )];
        lines.push(format!(
            "Luck: random still beats strong in {} of games.",
            rate(&self.luck).trim_start()
        ));
        let flagged: Vec<String> = self
            .choices
            .iter()
            .filter_map(|c| Some(format!("{}: {} ({})", c.decision, c.choice, c.flag?)))
            .collect();
        lines.push(if flagged.is_empty() {
            "No choice is dominant or never worth it.".to_string()
        } else {
            format!("Flagged choices: {}.", flagged.join("; "))
        });
        let unit = self.lead_unit();
        lines.push(match &self.tension {
            None => "Tension: the game has no score terms, and its winning conditions read no count or variable per \
                     player."
                .to_string(),
            Some(t) => {
                let num = |x: Option<f64>| x.map_or("n/a".to_string(), |x| format!("{x:.2}"));
                format!(
                    "Tension: {} lead changes a game; the winner leads for good after {} of it, wins by {} {unit}, and was behind at {} of decision points.",
                    num(t.lead_changes),
                    t.decided_at.map_or("n/a".into(), pct),
                    num(t.end_margin),
                    t.drama.map_or("n/a".into(), pct),
                )
            }
        });
        lines
    }

    /// The report in plain text.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}: analysis of {}\n", self.game, self.rules);
        let per_matchup = match self.goal {
            None => format!("{} games per matchup", self.games_per_matchup),
            Some(_) => format!("at most {} games per matchup", self.games_per_matchup),
        };
        out += &format!(
            "strong {}, weak {}, {per_matchup}, seed {}, seats rotated, the same deals in every matchup\n",
            self.strong, self.weak, self.seed
        );
        if let Some(goal) = self.goal {
            let asked = match goal {
                Goal::Significant => "its edge's interval leaves out 0".to_string(),
                Goal::Precision(p) => format!("its edge is known within ±{p}"),
            };
            out += &format!(
                "each matchup stops as soon as {asked} ({}; a 95% confidence sequence, valid wherever it stops)\n",
                goal.flag()
            );
        }
        if let Some(length) = self.games_chosen_for {
            out += &format!(
                "{per_matchup} by default: random play makes {length:.1} choices a game (-n to choose; docs/metrics.md)\n"
            );
        }
        out += "Every figure is defined in docs/metrics.md.\n\n";
        out += "Skill\n";
        out += "  first player (one seat, rotating) against second (every other seat):\n";
        for m in &self.matchups {
            out += &format!(
                "  {} vs {}: first wins {}, second wins {}, draws {}{}\n",
                m.first,
                m.second,
                rate(&m.first_wins),
                rate(&m.second_wins),
                pct(m.draws.rate),
                if m.stopped > 0 {
                    format!(", {} stopped", m.stopped)
                } else {
                    String::new()
                }
            );
            out += &format!(
                "    edge {:+.3} (95% CI {:+.3} to {:+.3})\n",
                m.edge, m.edge_low, m.edge_high
            );
            if let Some(stop) = &m.stopping {
                out += &format!(
                    "    played {} of at most {} games: {}\n",
                    m.games,
                    stop.cap,
                    stop.reason()
                );
            }
        }
        let verdict = self.verdict();
        out += &format!(
            "  skill index {:+.3} (95% CI {:+.3} to {:+.3}): {verdict}\n",
            self.skill_index, self.skill_low, self.skill_high
        );
        out += &format!("  luck: random still beats strong in {} of games\n", rate(&self.luck));
        out += &format!("  {}\n", self.saturation.sentence("-n"));
        out += &self.strength_text();
        if let Some(exact) = &self.exact_random {
            let wins: Vec<String> = self
                .seats
                .iter()
                .zip(&exact.wins)
                .map(|(s, w)| format!("{s} {}", pct(*w)))
                .collect();
            out += &format!(
                "  random against random, exactly (rpsdsl exact, {} positions): {}, draws {}\n",
                exact.positions,
                wins.join(", "),
                pct(exact.draws)
            );
        }
        out += &format!(
            "\nChoices (strong {} against random; offered with another choice)\n",
            self.strong
        );
        if self.choices.is_empty() {
            out += "  no choice was ever offered with another\n";
        }
        let width = self
            .choices
            .iter()
            .map(|c| c.decision.len() + c.choice.len() + 3)
            .max()
            .unwrap_or(10)
            .min(48);
        out += &format!(
            "  {:<width$}  {:>26}  {:>26}  {:>26}\n",
            "decision: choice", "strong takes it", "random takes it", "strong wins after taking"
        );
        for c in &self.choices {
            let name = format!("{}: {}", c.decision, c.choice);
            let show = |r: &Rate| {
                if r.of == 0 {
                    "n/a".to_string()
                } else {
                    format!(
                        "{} ({:.0}-{:.0}) of {}",
                        pct(r.rate),
                        100.0 * r.low,
                        100.0 * r.high,
                        r.of
                    )
                }
            };
            out += &format!(
                "  {:<width$}  {:>26}  {:>26}  {:>26}{}\n",
                name,
                show(&c.strong_taken),
                show(&c.random_taken),
                show(&c.strong_wins_after),
                c.flag.map(|f| format!("  {f}")).unwrap_or_default()
            );
        }
        out += &self.tension_text();
        out
    }

    /// The tension section: how the lead changed hands, in points or the
    /// running lead the rules decide the winner by.
    fn tension_text(&self) -> String {
        let mut out = "\nTension".to_string();
        let unit = self.lead_unit();
        match &self.tension {
            None => {
                out +=
                    "\n  the game has no score terms, and its winning conditions read no count or variable per player\n"
            }
            Some(t) => {
                out += &format!(
                    " ({} vs {}, over the {} games with a winner)\n",
                    self.strong, self.weak, t.games
                );
                if self.tension_lead.is_some() {
                    out += &format!(
                        "  the lead, in {unit}: the rules decide the winner by it (the game has no score terms)\n"
                    );
                }
                let num = |x: Option<f64>, digits: usize| x.map_or("n/a".into(), |x| format!("{x:.digits$}"));
                out += &format!("  lead changes per game          {}\n", num(t.lead_changes, 2));
                out += &format!(
                    "  winner leads for good after    {} of the game (mean; {} of winners never led alone on {unit})\n",
                    t.decided_at.map_or("n/a".into(), pct),
                    pct(t.never_led_alone.rate)
                );
                out += &format!("  end margin, winner over next   {}\n", num(t.end_margin, 2));
                out += &format!(
                    "  drama: winner behind           {} of decision points (mean); in {} of games at least once\n",
                    t.drama.map_or("n/a".into(), pct),
                    pct(t.comebacks.rate)
                );
            }
        }
        out
    }

    /// The players' exploitability, or why it was not measured.
    fn strength_text(&self) -> String {
        if let Some(note) = &self.strength_note {
            return format!("  exploitability not measured: {note}\n");
        }
        let Some(strength) = &self.strength else {
            return String::new();
        };
        let said: Vec<String> = strength
            .players
            .iter()
            .map(|(spec, e, exact)| format!("{spec} {e:.3}{}", if *exact { "" } else { " (estimated)" }))
            .collect();
        let mut out = format!(
            "  exploitability (what a perfect opponent wins per game, averaged over the seats): {}\n",
            said.join(", ")
        );
        if let [(_, strong, _), (_, weak, _), ..] = strength.players.as_slice() {
            out += if strong < weak {
                "    the strong player is the less exploitable: it plays closer to best play\n"
            } else {
                "    caution: the strong player is no less exploitable than the weak one, so its wins over it say little about skill\n"
            };
        }
        out
    }

    /// The report as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("an analysis serialises") + "\n"
    }
}
