//! Exact answers: the outcome probabilities of uniform random play, found by
//! enumerating every chance outcome and every choice of a game.
//!
//! Uniform random play is what `--agents random` plays: at each decision,
//! every deciding seat picks uniformly among its legal choices (its
//! `anytime` actions and named no-choice included), all deciding seats
//! independently at a simultaneous decision. Chance goes through the
//! engine's [`Chance`]: the walk runs each step with scripted draws and runs
//! it again for every other outcome of a draw it met (see [`Walk::step`]).
//!
//! The walk is depth first and counts every position it reaches; past its
//! budget it stops with `rpsdsl::exact-budget`. A race cannot be enumerated
//! (reaction times are continuous) and is refused with
//! `rpsdsl::not-enumerable`.

use serde::Serialize;

use crate::diagnostic::{Code, Diagnostic};
use crate::engine::Game;
use crate::engine::{Chance, Choice, EngineError, Event, RuntimeError, State};
use crate::ir::OptionValue;

/// Positions visited before an enumeration gives up, unless told otherwise.
pub const DEFAULT_BUDGET: u64 = 10_000_000;

/// The exact outcome rates of a game under uniform random play.
#[derive(Clone, Debug, Serialize)]
pub struct Exact {
    /// The seats, in order.
    pub seats: Vec<String>,
    /// Per seat, the probability that it wins.
    pub wins: Vec<f64>,
    /// The probability of a draw.
    pub draws: f64,
    /// The probability that a game stops on an error or a limit (as
    /// `simulate` counts "stopped by a limit or error").
    pub stopped: f64,
    /// Expected decision points (times the game waits for choices) per game.
    pub mean_decision_points: f64,
    /// Expected decisions (one per seat that answers) per game.
    pub mean_decisions: f64,
    /// The probability that a game is scored (ends through `score` and
    /// `result`), and then each seat's expected total score; `None` for a
    /// game without score terms.
    pub scores: Option<Scores>,
    /// Positions visited: every state the walk reached, setup included.
    pub positions: u64,
    /// Distinct ways a game can go, from setup to its end.
    pub games: u64,
}

/// Expected scores, over the games that are scored.
#[derive(Clone, Debug, Serialize)]
pub struct Scores {
    /// The probability that a game is scored.
    pub scored: f64,
    /// Per seat, the expected total score of a scored game.
    pub mean_totals: Vec<f64>,
}

/// A position reached, with the probability of reaching it and how long
/// the game has been.
struct Node {
    state: State,
    probability: f64,
    decision_points: u32,
    decisions: u32,
}

struct Walk<'a> {
    def: &'a Game,
    budget: u64,
    positions: u64,
    events: Vec<Event>,
    /// Nodes still to expand: the walk's stack.
    open: Vec<Node>,
    totals: Totals,
}

#[derive(Default)]
struct Totals {
    wins: Vec<f64>,
    draws: f64,
    stopped: f64,
    decision_points: f64,
    decisions: f64,
    scored: f64,
    score_totals: Vec<f64>,
    games: u64,
}

/// What running one step from a position gives.
pub(crate) type Step<'s> = dyn Fn(&mut State, &mut Vec<Event>) -> Result<(), RuntimeError> + 's;

/// Enumerates `def` with `options` under uniform random play, visiting at
/// most `budget` positions.
pub fn enumerate(def: &Game, options: &[OptionValue], budget: u64) -> Result<Exact, Box<Diagnostic>> {
    let players = def.players();
    let mut walk = Walk {
        def,
        budget,
        positions: 0,
        events: vec![],
        open: vec![],
        totals: Totals {
            wins: vec![0.0; players],
            score_totals: vec![0.0; players],
            ..Totals::default()
        },
    };
    let root = Node {
        state: State::new(def, options, Chance::scripted(vec![]), vec![]),
        probability: 1.0,
        decision_points: 0,
        decisions: 0,
    };
    walk.step(&root, 1.0, &|state, events| state.set_up(def, events))?;
    while let Some(node) = walk.open.pop() {
        walk.expand(node)?;
    }
    let t = walk.totals;
    Ok(Exact {
        seats: def.seats.clone(),
        wins: t.wins,
        draws: t.draws,
        stopped: t.stopped,
        mean_decision_points: t.decision_points,
        mean_decisions: t.decisions,
        scores: (!def.score_terms.is_empty()).then(|| Scores {
            scored: t.scored,
            mean_totals: t
                .score_totals
                .iter()
                .map(|&s| if t.scored > 0.0 { s / t.scored } else { 0.0 })
                .collect(),
        }),
        positions: walk.positions,
        games: t.games,
    })
}

impl Walk<'_> {
    /// Every joint choice of the decision `node` waits for, each as likely
    /// as uniform random play makes it; a finished game is counted.
    fn expand(&mut self, node: Node) -> Result<(), Box<Diagnostic>> {
        let def = self.def;
        let Some(pending) = node.state.pending() else {
            self.settle(&node, false);
            return Ok(());
        };
        let decision = &def.decisions[pending.decision() as usize];
        if decision.race {
            return Err(Box::new(
                Diagnostic::error(Code::NotEnumerable, "a race cannot be enumerated exactly")
                    .label(decision.span, "each answer here comes with a reaction time")
                    .help(
                        "reaction times are drawn from a continuous distribution, so a race has no finite \
                         list of outcomes; use `rpsdsl simulate` for this game",
                    ),
            ));
        }
        let who = pending.who().to_vec();
        let legal: Vec<Vec<i64>> = who.iter().map(|&seat| pending.legal(seat).to_vec()).collect();
        let joint: f64 = legal.iter().map(|l| l.len() as f64).product();
        let probability = node.probability / joint;
        // An odometer over the seats' choices.
        let mut at = vec![0usize; who.len()];
        loop {
            let choices: Vec<Choice> = who
                .iter()
                .zip(&legal)
                .zip(&at)
                .map(|((&seat, values), &i)| Choice::new(seat, values[i]))
                .collect();
            self.step(&node, probability, &|state, events| {
                state.apply(def, &choices, events).map_err(|e| match e {
                    EngineError::Runtime(d) => d,
                    EngineError::Illegal(illegal) => {
                        Box::new(Diagnostic::error(Code::IllegalAction, illegal.to_string()))
                    }
                })
            })?;
            let Some(seat) = (0..at.len()).rev().find(|&s| at[s] + 1 < legal[s].len()) else {
                return Ok(());
            };
            at[seat] += 1;
            at[seat + 1..].fill(0);
        }
    }

    /// Runs `step` from `from` (reached with `probability` times the
    /// probability of the choices), once for every outcome of every draw it
    /// meets (see [`each_outcome`]), and puts each position it reaches on
    /// the stack.
    fn step(&mut self, from: &Node, probability: f64, step: &Step<'_>) -> Result<(), Box<Diagnostic>> {
        let mut events = std::mem::take(&mut self.events);
        let walked = each_outcome(
            self,
            &from.state,
            &mut events,
            step,
            |walk, count| {
                if count > walk.budget.saturating_sub(walk.positions) {
                    let count = outcomes_text(count);
                    return Err(Box::new(walk.over_budget(format!(
                        "a shuffle after {} positions has {count} distinct outcomes, more than the budget of {} \
                         leaves",
                        walk.positions, walk.budget
                    ))));
                }
                Ok(())
            },
            |walk, state, chance, result, events| {
                let decisions = events.iter().filter(|e| matches!(e, Event::Decision { .. })).count() as u32;
                let node = Node {
                    state,
                    probability: probability * chance,
                    decision_points: from.decision_points + u32::from(from.state.pending().is_some()),
                    decisions: from.decisions + decisions,
                };
                walk.positions += 1;
                if walk.positions > walk.budget {
                    return Err(Box::new(walk.over_budget(format!(
                        "{} positions visited, and the budget is {}",
                        walk.budget, walk.budget
                    ))));
                }
                match result {
                    Ok(()) => walk.open.push(node),
                    Err(_) => walk.settle(&node, true),
                }
                Ok(())
            },
        );
        self.events = events;
        walked
    }

    /// Counts a game that ended (or stopped, when `stopped` is set).
    fn settle(&mut self, node: &Node, stopped: bool) {
        let def = self.def;
        let t = &mut self.totals;
        let p = node.probability;
        t.games += 1;
        t.decision_points += p * node.decision_points as f64;
        t.decisions += p * node.decisions as f64;
        match node.state.outcome().filter(|_| !stopped) {
            Some(outcome) => match outcome.winner {
                Some(seat) => t.wins[seat as usize] += p,
                None => t.draws += p,
            },
            None => t.stopped += p,
        }
        let scores = node.state.scores();
        if !stopped && !scores.is_empty() {
            t.scored += p;
            for (total, terms) in t.score_totals.iter_mut().zip(scores) {
                *total += p * def.points(terms) as f64;
            }
        }
    }

    /// The budget's diagnostic, saying `why` the walk stopped.
    fn over_budget(&self, why: String) -> Diagnostic {
        Diagnostic::error(Code::ExactBudget, format!("the game is too large to enumerate: {why}")).help(format!(
            "raise the budget with `--budget N` (say `--budget {}`), make the game smaller with `--set`, \
             or use `rpsdsl simulate`; a game that can go on forever (a duel thrown again on a tie) \
             never fits any budget",
            self.budget.saturating_mul(10)
        ))
    }
}

/// Runs `step` from `from` once for every outcome of every draw it meets,
/// and hands `visit` each position reached, with the probability of the
/// draws that led there, the step's result and its events. `allow` hears
/// of each draw met (its number of outcomes) before its outcomes are
/// walked, and may refuse it. Both get `context` to work on.
///
/// A run takes the outcomes its script names and outcome 0 past them, and
/// tells how many outcomes each draw had. So a run that met a draw beyond
/// its script is run again once per outcome of that draw, with that outcome
/// added to the script; the draws after it are found the same way. Each run
/// repeats the step from the start: a draw happens in the middle of the
/// engine's work, and the engine cannot stop there. Outcomes are visited in
/// order, outcome 0 first.
pub(crate) fn each_outcome<C, E>(
    context: &mut C,
    from: &State,
    events: &mut Vec<Event>,
    step: &Step<'_>,
    allow: impl Fn(&mut C, u64) -> Result<(), E>,
    visit: impl Fn(&mut C, State, f64, Result<(), RuntimeError>, &[Event]) -> Result<(), E>,
) -> Result<(), E> {
    let mut scripts: Vec<Vec<u64>> = vec![vec![]];
    while let Some(path) = scripts.pop() {
        let mut state = from.clone();
        state.set_chance(Chance::scripted(path.clone()));
        events.clear();
        let result = step(&mut state, events);
        let outcomes = &state.chance().script().expect("scripted above").outcomes;
        if let Some(&count) = outcomes.get(path.len()) {
            allow(context, count)?;
            // Pushed last first, so outcome 0 is walked first.
            for outcome in (0..count).rev() {
                let mut longer = path.clone();
                longer.push(outcome);
                scripts.push(longer);
            }
            continue;
        }
        let chance: f64 = outcomes.iter().map(|&k| 1.0 / k as f64).product();
        visit(context, state, chance, result, events)?;
    }
    Ok(())
}

/// A draw's number of outcomes in words: the engine counts up to
/// `u64::MAX - 1`, and `u64::MAX` stands for more.
pub(crate) fn outcomes_text(count: u64) -> String {
    match count {
        // The count saturates: past it, only the order of magnitude is known.
        u64::MAX => "more than 10^19".to_string(),
        count => count.to_string(),
    }
}
