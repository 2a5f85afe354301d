//! The `solve` player's training: `rpsdsl solve`'s solver, wired into the
//! players ([`crate::agents::set_trainer`]) so that any command's `--agents
//! solve:time=10` trains within its budget and hands the strategy on.

use std::time::Duration;

use crate::agents::{PolicyFile, Training};
use crate::engine::Game;
use crate::ir::OptionValue;
use crate::solve::{self, Limits, Method, Payoff, Settings};

/// The exploitability at which training stops early, as `rpsdsl solve`'s default.
const TARGET: f64 = 0.0005;

/// `time` cut to what is left of the deadline: the solver's threads do not
/// see this thread's own (a server's bound on one agent's thinking), so it
/// is passed on as time. A command's deadline bounds a timed training only:
/// one bounded by iterations gives the same strategy on every machine. The
/// tree is chosen as for the time asked, so a bound never changes how a
/// game is solved, only how long.
fn within_deadline(time: Option<Duration>) -> Option<Duration> {
    let left = |at: std::time::Instant| at.saturating_duration_since(std::time::Instant::now());
    match (crate::budget::thinking_deadline(), crate::budget::deadline(), time) {
        (Some(at), _, time) => Some(time.map_or(left(at), |t| t.min(left(at)))),
        (None, Some(at), Some(time)) => Some(time.min(left(at))),
        (None, _, time) => time,
    }
}

/// Solves `def` with `options` within `training`, saying so on stderr, and
/// saves the strategy where asked.
pub(crate) fn train(def: &Game, options: &[OptionValue], training: &Training) -> Result<PolicyFile, String> {
    let budget = match (training.time, training.iterations) {
        (Some(time), Some(n)) => format!("up to {time} s or {n} iterations"),
        (Some(time), None) => format!("up to {time} s"),
        (None, Some(n)) => format!("{n} iterations"),
        (None, None) => "until the target".to_string(),
    };
    eprintln!("solve: training a strategy for {} ({budget})", def.name);
    let time = training.time.map(Duration::from_secs_f64);
    let settings = Settings {
        limits: Limits {
            nodes: solve::nodes_for(time),
            depth: None,
        },
        payoff: if training.wins { Payoff::Win } else { Payoff::Score },
        iterations: training.iterations,
        time: within_deadline(time),
        target: Some(TARGET),
        method: Method::Auto,
        seed: training.seed,
        jobs: 0,
        sampling: None,
        memory: training.memory,
    };
    let solution = solve::solve(def, options, &settings, &mut |_| {}).map_err(|d| match &d.help {
        Some(help) => format!("{}; {help}", d.message),
        None => d.message.clone(),
    })?;
    let how = match (solution.exploitability, &solution.sampled) {
        (Some(e), _) => format!("exploitability {e:.6}"),
        (None, Some(run)) => match run.trained {
            Some(trained) => format!("sampled, {:.0}% of play in situations it trained", 100.0 * trained),
            None => "sampled".to_string(),
        },
        (None, None) => "exploitability not measured".to_string(),
    };
    eprintln!(
        "solve: trained {} in {:.1} s: {} iterations, {} situations, {how}",
        def.name,
        solution.build_seconds + solution.solve_seconds,
        solution.iterations,
        solution.strategy.len()
    );
    let file = solve::policy_file(def, options, &solution);
    if let Some(path) = &training.save {
        file.save(path)
            .map_err(|e| format!("cannot write the policy file {}: {e}", path.display()))?;
        eprintln!(
            "solve: saved the strategy to {}; `--agents policy:{}` plays it again",
            path.display(),
            path.display()
        );
    }
    Ok(file)
}
