//! The solve loop: which algorithm, when to check, when to stop.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cfr::Cfr;
use super::mccfr::TreeMccfr;
use super::profile::Profile;
use super::sample::{EXTERNAL_LIMIT, Sampler, Sampling};
use super::tree::Tree;
use super::{
    CUT_TOLERANCE, Checkpoint, Method, Progress, SAMPLED_DEPTH, SampledRun, Settings, Situation, Solution, TreeSize,
};
use crate::diagnostic::{Code, Diagnostic};
use crate::engine::{GLANCE_LEVELS, Game, Memory, REFINED_VISITS};
use crate::ir::OptionValue;

/// How far past the node budget the probe's estimate of a tree may be
/// before the tree is not even tried: the estimate is rough.
const PROBE_MARGIN: f64 = 10.0;

/// About what putting one sampled set into the answer takes (its
/// `Situation`, its seat's and decision's names, its probabilities),
/// measured on a sampled card game of a million sets.
const ANSWER_BYTES_PER_SET: usize = 160;

/// Games played with a sampled strategy to estimate what it is worth.
const ESTIMATE_GAMES: u64 = 16_384;

/// Solves `def` until `settings` says stop: CFR+ on the whole tree when it
/// fits (and `settings.method` allows), external-sampling MCCFR otherwise.
pub fn solve(
    def: &Game,
    options: &[OptionValue],
    settings: &Settings,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, Box<Diagnostic>> {
    let started = Instant::now();
    // The whole run keeps `--time`: building, iterating and estimating.
    let deadline = settings.time.map(|time| started + time);
    // Whether the whole tree fits is a matter of counts (the node budget,
    // and a seeded probe of its size: a tree estimated far past the budget
    // is not built at all) and of the memory cap, never of the clock. A
    // tree the time cannot build ends the run with `time-budget`; it never
    // turns silently into sampling.
    if def.decisions.iter().any(|d| d.race) {
        return raced(def, options, settings, deadline, progress);
    }
    let estimated = super::estimate::tree_size(def, options);
    let built = if settings.method != Method::Whole && estimated > PROBE_MARGIN * settings.limits.nodes as f64 {
        Err(Box::new(Diagnostic::error(
            Code::SolveBudget,
            format!(
                "a probe of uniform play estimates the whole tree at about {estimated:.1e} decision points, more \
                 than {PROBE_MARGIN} times the tree's budget of {} nodes",
                settings.limits.nodes
            ),
        )))
    } else if settings.memory == Memory::Glance {
        // Glances are sampled, never solved on a tree; the game's own tree,
        // with a position per information set to glance at, measures them.
        Tree::build_with_examples(def, options, settings.limits, settings.payoff, deadline)
    } else {
        Tree::build_by(
            def,
            options,
            settings.limits,
            settings.payoff,
            deadline,
            settings.memory,
        )
    };
    let build_seconds = started.elapsed().as_secs_f64();
    let tree = match built {
        Ok(tree) => Ok(tree),
        // Too large, or too big for memory: the refusals sampling can answer.
        Err(d) if matches!(d.code, Code::SolveBudget | Code::MemoryBudget) && settings.method != Method::Whole => {
            Err(d.message)
        }
        Err(d) => return Err(d),
    };
    // An abstraction's strategy is measured in the game itself: on the
    // same tree with every seat's information sets whole.
    let exact = match (&tree, settings.memory) {
        (Ok(_), Memory::Now) => Some(Tree::build_by(
            def,
            options,
            settings.limits,
            settings.payoff,
            deadline,
            Memory::All,
        )?),
        _ => None,
    };
    let run = Run {
        settings,
        deadline,
        build_seconds,
        exact: exact.as_ref(),
    };
    if settings.memory == Memory::Glance {
        let why = "glances are sampled (`--recall glance`)".to_string();
        return match tree {
            // A cut tree cannot measure a strategy that plays past the cut.
            Ok(tree) => match too_deep(&tree, settings) {
                None => sampled(def, options, Some(&tree), why, &run, progress),
                Some(cut) => sampled(def, options, None, cut, &run, progress),
            },
            Err(cause) => sampled(def, options, None, cause, &run, progress),
        };
    }
    match (settings.method, tree) {
        (Method::Whole, Ok(tree)) => whole(def, &tree, &run, progress),
        (Method::Whole, Err(_)) => unreachable!("a whole tree's refusal was returned"),
        (Method::Auto, Ok(tree)) => match too_deep(&tree, settings) {
            None => whole(def, &tree, &run, progress),
            // A cut tree cannot measure a strategy that plays past the cut.
            Some(why) => sampled(def, options, None, why, &run, progress),
        },
        (Method::Auto, Err(why)) => sampled(def, options, None, why, &run, progress),
        (Method::Sampled, Ok(tree)) if too_deep(&tree, settings).is_none() => {
            sampled_on_tree(def, &tree, &run, progress)
        }
        (Method::Sampled, Ok(tree)) => {
            let why = too_deep(&tree, settings).expect("the arm above takes a tree that is deep enough");
            sampled(def, options, None, why, &run, progress)
        }
        (Method::Sampled, Err(why)) => sampled(def, options, None, why, &run, progress),
    }
}

/// A game with a race has no tree (who answers first depends on reaction
/// times, drawn from a continuous distribution), so it is sampled, each
/// answer's reaction time drawn from the players' default model; CFR+ on
/// the whole tree refuses it.
fn raced(
    def: &Game,
    options: &[OptionValue],
    settings: &Settings,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, Box<Diagnostic>> {
    if settings.method == Method::Whole {
        super::tree::refuse_races(def)?;
    }
    let run = Run {
        settings,
        deadline,
        build_seconds: 0.0,
        exact: None,
    };
    let why = "a race has no tree (who answers first depends on reaction times); each answer's reaction time is \
               drawn from the players' default model, 250 ms and an exponential delay of mean 250 ms"
        .to_string();
    sampled(def, options, None, why, &run, progress)
}

/// What every part of one solve shares: its settings, the deadline of the
/// whole run, and the time the tree took.
struct Run<'s> {
    settings: &'s Settings,
    deadline: Option<Instant>,
    build_seconds: f64,
    /// The game's own tree, where the solver's tree is an abstraction's.
    exact: Option<&'s Tree>,
}

impl Run<'_> {
    /// NashConv of `profile`, found on `tree`, in the game itself.
    fn nash_conv(&self, tree: &Tree, profile: &Profile) -> f64 {
        match self.exact {
            Some(exact) => exact.nash_conv(&exact.profile_from(tree, profile)),
            None => tree.nash_conv(profile),
        }
    }

    /// Why the loop must stop now, if a budget says so: the deadline, or
    /// the memory cap.
    fn out_of_budget(&self) -> Option<&'static str> {
        if crate::budget::expired_by(self.deadline) {
            Some("time")
        } else if crate::budget::over_memory() {
            Some("memory")
        } else {
            None
        }
    }
}

/// Why a tree that was cut is not enough, if it is not: uniform play goes
/// past the cut more often than [`CUT_TOLERANCE`], and no depth was asked for.
fn too_deep(tree: &Tree, settings: &Settings) -> Option<String> {
    let cut_at = tree.cut_at?;
    if settings.limits.depth.is_some() {
        return None;
    }
    let (_, mass) = tree.values(&tree.uniform());
    (mass > CUT_TOLERANCE).then(|| {
        format!(
            "the whole tree passes {} nodes by decision point {}, and play goes past that point {:.1}% of the time",
            settings.limits.nodes,
            cut_at + 1,
            100.0 * mass
        )
    })
}

/// A solver that iterates on a whole tree.
trait OnTree {
    /// One iteration.
    fn iterate(&mut self);
    /// Iterations done.
    fn iterations(&self) -> u64;
    /// The average strategy so far.
    fn average(&self) -> Profile;
    /// Iterations between two looks at the clock and the memory: an
    /// iteration that costs little is not slowed by them, and one that
    /// costs much is never repeated past a budget.
    fn stride(&self) -> u64;
}

impl OnTree for Cfr<'_> {
    fn iterate(&mut self) {
        Cfr::iterate(self);
    }
    fn iterations(&self) -> u64 {
        Cfr::iterations(self)
    }
    fn average(&self) -> Profile {
        Cfr::average(self)
    }
    fn stride(&self) -> u64 {
        1
    }
}

impl OnTree for TreeMccfr<'_> {
    fn iterate(&mut self) {
        TreeMccfr::iterate(self);
    }
    fn iterations(&self) -> u64 {
        TreeMccfr::iterations(self)
    }
    fn average(&self) -> Profile {
        TreeMccfr::average(self)
    }
    fn stride(&self) -> u64 {
        // A traversal visits each node at most once: 64 iterations on a
        // small tree, down to one on a tree of a million nodes or more.
        (1_000_000 / self.tree_len().max(1) as u64).clamp(1, 64)
    }
}

/// CFR+ on the whole tree.
fn whole(
    def: &Game,
    tree: &Tree,
    run: &Run<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, Box<Diagnostic>> {
    iterate_on_tree(def, tree, run, progress, Cfr::new(tree))
}

/// Monte Carlo CFR on the whole tree, where sampling was asked for and the
/// tree fits: the traversals walk the tree built, not the engine.
fn sampled_on_tree(
    def: &Game,
    tree: &Tree,
    run: &Run<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, Box<Diagnostic>> {
    let positions = tree.external_positions();
    let sampling = match run.settings.sampling {
        Some(sampling) => sampling,
        None if positions > EXTERNAL_LIMIT => Sampling::Outcome,
        None => Sampling::External,
    };
    let mccfr = TreeMccfr::new(tree, sampling, run.settings.seed);
    let mut solution = iterate_on_tree(def, tree, run, progress, mccfr)?;
    solution.method = "mccfr".into();
    solution.sampled = Some(SampledRun {
        why: "sampling was asked for (`--method mccfr`); the whole tree fits, so the traversals walk it".into(),
        sampling,
        positions_per_traversal: positions,
        traversals: solution.iterations * tree.seats as u64,
        seed: run.settings.seed,
        depth: run.settings.limits.depth.unwrap_or(SAMPLED_DEPTH),
        cut: 0,
        stopped: 0,
        estimate_games: 0,
        trained: None,
        by_level: None,
    });
    Ok(solution)
}

/// Iterates `solver` on `tree` until a budget, the target or the
/// iterations asked for say stop.
fn iterate_on_tree<S: OnTree>(
    def: &Game,
    tree: &Tree,
    run: &Run<'_>,
    progress: &mut dyn FnMut(&Progress),
    mut solver: S,
) -> Result<Solution, Box<Diagnostic>> {
    let (settings, build_seconds) = (run.settings, run.build_seconds);
    let started = Instant::now();
    let mut convergence = vec![];
    let mut next_check = 1;
    let stopped_by = loop {
        solver.iterate();
        let done = solver.iterations();
        let out_of_iterations = settings.iterations.is_some_and(|most| done >= most);
        let out_of_budget = match done.is_multiple_of(solver.stride()) {
            true => run.out_of_budget(),
            false => None,
        };
        // Checks cost about as much as an iteration or two: at powers of
        // two, and at the end.
        if done >= next_check || out_of_iterations || out_of_budget.is_some() {
            next_check = (done * 2).max(next_check);
            let exploitability = run.nash_conv(tree, &solver.average()) / tree.seats as f64;
            if let Some(stop) = check(
                &mut convergence,
                done,
                started,
                Some(exploitability),
                settings,
                tree.infosets.len(),
                progress,
            ) {
                break stop;
            }
        }
        if out_of_iterations {
            break "iterations";
        }
        if let Some(budget) = out_of_budget {
            break budget;
        }
    };
    let average = solver.average();
    let (values, cut_mass) = tree.values(&average);
    let endless_mass = tree.endless(&average);
    let nash_conv = run.nash_conv(tree, &average);
    let strategy = situations_on_tree(def, tree, &average);
    Ok(Solution {
        endless_mass,
        memory: settings.memory,
        seats: def.seats.clone(),
        payoff: tree.payoff,
        zero_sum: tree.zero_sum,
        method: "cfr+".into(),
        infosets: tree.infosets_per_seat(),
        tree: Some(tree_size(tree)),
        sampled: None,
        iterations: solver.iterations(),
        build_seconds,
        solve_seconds: started.elapsed().as_secs_f64(),
        values,
        value_margins: None,
        nash_conv: Some(nash_conv),
        exploitability: Some(nash_conv / tree.seats as f64),
        cut_mass,
        convergence,
        strategy,
        stopped_by: stopped_by.to_string(),
    })
}

/// External-sampling MCCFR; measured on `tree` when there is one.
fn sampled(
    def: &Game,
    options: &[OptionValue],
    tree: Option<&Tree>,
    why: String,
    run: &Run<'_>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Solution, Box<Diagnostic>> {
    let (settings, build_seconds) = (run.settings, run.build_seconds);
    let started = Instant::now();
    let seats = def.players();
    let depth = settings.limits.depth.unwrap_or(SAMPLED_DEPTH);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs)
        .build()
        .map_err(|e| {
            Box::new(Diagnostic::error(
                Code::SolveBudget,
                format!("cannot start threads: {e}"),
            ))
        })?;
    let sampler = Sampler::new(def, options, settings.payoff, settings.seed, depth).with_memory(settings.memory);
    let mut sampler = match settings.sampling {
        Some(sampling) => sampler.with_sampling(sampling),
        None => sampler,
    };
    // Without a tree to measure on, the strategy's values are estimated by
    // play afterwards: the last quarter of the time left is theirs.
    let iterate_until = run.deadline.map(|end| {
        let left = end.saturating_duration_since(started);
        if tree.is_some() {
            end
        } else {
            started + left.mul_f64(0.75)
        }
    });
    let mut convergence = vec![];
    let mut batches = 0u64;
    let mut next_check = 1;
    let stopped_by = loop {
        // A batch that a budget cuts short is discarded whole, so what is
        // kept never depends on how far the threads had got.
        if !sampler.batch(&pool, iterate_until)? {
            // The clock never goes back: a batch cut short before the
            // deadline was cut by the memory cap.
            break if crate::budget::expired_by(iterate_until) {
                "time"
            } else {
                "memory"
            };
        }
        batches += 1;
        let done = sampler.traversals() / seats as u64;
        let out_of_iterations = settings.iterations.is_some_and(|most| done >= most);
        let out_of_time = crate::budget::expired_by(iterate_until);
        // The answer is put together after the loop, a `Situation` per set:
        // room for it is kept under the cap.
        let answer = sampler.sets().len().saturating_mul(ANSWER_BYTES_PER_SET);
        let out_of_memory = crate::budget::over_memory_with(answer);
        if batches >= next_check || out_of_iterations || out_of_time || out_of_memory {
            next_check = (batches * 2).max(next_check);
            let exploitability = tree.map(|t| run.nash_conv(t, &sampler.profile_on(t)) / seats as f64);
            if let Some(stop) = check(
                &mut convergence,
                done,
                started,
                exploitability,
                settings,
                sampler.sets().len(),
                progress,
            ) {
                break stop;
            }
        }
        if out_of_iterations {
            break "iterations";
        }
        if out_of_time {
            break "time";
        }
        if out_of_memory {
            break "memory";
        }
        if sampler.sets().len() >= settings.limits.nodes {
            break "budget";
        }
    };
    let iterations = sampler.traversals() / seats as u64;
    let (cut, stopped) = sampler.cut_and_stopped();
    let infosets = situations_per_seat(&sampler, seats);
    let endless_mass = tree.map_or(0.0, |t| t.endless(&sampler.profile_on(t)));
    let (values, value_margins, nash_conv, cut_mass, strategy, estimate_games, trained) = match tree {
        // The tree measures a strategy over glances exactly, but its
        // situations are the game's own: the strategy kept is the glances',
        // and how often play meets each is found by play.
        Some(tree) if settings.memory == Memory::Glance => {
            let average = sampler.profile_on(tree);
            let (values, cut_mass) = tree.values(&average);
            let nash_conv = run.nash_conv(tree, &average);
            let (_, _, _, _, strategy, games, trained) = by_play(def, &mut sampler, &pool, run);
            (values, None, Some(nash_conv), cut_mass, strategy, games, trained)
        }
        Some(tree) => {
            let average = sampler.profile_on(tree);
            let (values, cut_mass) = tree.values(&average);
            let nash_conv = run.nash_conv(tree, &average);
            let strategy = situations_on_tree(def, tree, &average);
            (values, None, Some(nash_conv), cut_mass, strategy, 0, (None, None))
        }
        None => by_play(def, &mut sampler, &pool, run),
    };
    Ok(Solution {
        endless_mass,
        memory: settings.memory,
        seats: def.seats.clone(),
        payoff: settings.payoff,
        zero_sum: sampler.zero_sum() && tree.is_none_or(|t| t.zero_sum),
        method: "mccfr".into(),
        infosets,
        tree: tree.map(tree_size),
        sampled: Some(SampledRun {
            why,
            sampling: sampler.sampling().0,
            positions_per_traversal: sampler.sampling().1,
            traversals: sampler.traversals(),
            seed: settings.seed,
            depth,
            cut,
            stopped,
            estimate_games,
            trained: trained.0,
            by_level: trained.1,
        }),
        iterations,
        build_seconds,
        solve_seconds: started.elapsed().as_secs_f64(),
        values,
        value_margins,
        nash_conv,
        exploitability: nash_conv.map(|n| n / seats as f64),
        cut_mass,
        convergence,
        strategy,
        stopped_by: stopped_by.to_string(),
    })
}

/// The situations sampling met, per seat: at a glance, the glances (their
/// coarser levels are not counted).
fn situations_per_seat(sampler: &Sampler<'_>, seats: usize) -> Vec<usize> {
    let mut infosets = vec![0; seats];
    for set in sampler.sets().iter().filter(|set| set.coarse == 0) {
        infosets[set.seat as usize] += 1;
    }
    infosets
}

/// A sampled strategy without a tree to measure it on: its values estimated
/// by play (with intervals), and its situations, each with how often play
/// reached it.
type ByPlay = (
    Vec<f64>,
    Option<Vec<f64>>,
    Option<f64>,
    f64,
    Vec<Situation>,
    u64,
    (Option<f64>, Option<Vec<f64>>),
);

fn by_play(def: &Game, sampler: &mut Sampler<'_>, pool: &rayon::ThreadPool, run: &Run<'_>) -> ByPlay {
    // Four tenths of what is left stay for the answer to be put together
    // and printed: with many situations, that takes a while.
    let estimate_until = run.deadline.map(|end| {
        let now = Instant::now();
        now + end.saturating_duration_since(now).mul_f64(0.6)
    });
    let estimate = sampler.play_average(pool, ESTIMATE_GAMES, run.settings.seed, estimate_until);
    let games = estimate.games;
    // The sets are moved into the answer, not copied: they are most of the
    // run's memory.
    // A level of a glance that training met too seldom is never played (a
    // coarser one is): it is no part of the strategy. The coarsest always is.
    let strategy = sampler
        .take_sets()
        .into_iter()
        .filter(|set| {
            run.settings.memory != Memory::Glance
                || usize::from(set.coarse) == GLANCE_LEVELS - 1
                || set.visits >= REFINED_VISITS
        })
        .map(|set| {
            let average = set.average();
            Situation {
                seat: def.seats[set.seat as usize].clone(),
                decision: def.decisions[set.decision as usize].name.clone(),
                situation: set.situation,
                depth: set.depth,
                reach: estimate.visits.get(&set.key).copied().unwrap_or(0) as f64 / games as f64,
                key: set.key,
                keys: set.keys,
                actions: set.actions.iter().cloned().zip(average).collect(),
            }
        })
        .collect();
    let cut_mass = estimate.cut as f64 / games as f64;
    (
        estimate.means,
        Some(estimate.margins),
        None,
        cut_mass,
        strategy,
        games,
        (Some(estimate.trained), estimate.by_level),
    )
}

/// Records a check and tells `progress`; says `target` when it is reached.
fn check(
    convergence: &mut Vec<Checkpoint>,
    iterations: u64,
    started: Instant,
    exploitability: Option<f64>,
    settings: &Settings,
    infosets: usize,
    progress: &mut dyn FnMut(&Progress),
) -> Option<&'static str> {
    let elapsed = started.elapsed();
    convergence.push(Checkpoint {
        iterations,
        seconds: elapsed.as_secs_f64(),
        exploitability,
    });
    progress(&Progress {
        iterations,
        elapsed,
        exploitability,
        infosets,
        left: time_left(convergence, settings),
    });
    let reached = exploitability
        .zip(settings.target)
        .is_some_and(|(e, target)| e <= target);
    reached.then_some("target")
}

/// About how long until the target or the time budget: the last two
/// checks give how fast the exploitability falls (as a power of time, as
/// CFR's bounds have it), extrapolated to the target and capped by the
/// time left.
fn time_left(convergence: &[Checkpoint], settings: &Settings) -> Option<Duration> {
    let last = convergence.last()?;
    let budget = settings.time.map(|t| (t.as_secs_f64() - last.seconds).max(0.0));
    let to_target = (|| {
        let before = convergence.get(convergence.len().checked_sub(2)?)?;
        let (e0, e1) = (before.exploitability?, last.exploitability?);
        let target = settings.target?;
        if e1 <= target {
            return Some(0.0);
        }
        if before.seconds <= 0.0 || e0 <= e1 || e1 <= 0.0 || target <= 0.0 {
            return None;
        }
        let slope = (e1 / e0).ln() / (last.seconds / before.seconds).ln();
        let at = last.seconds * (target / e1).powf(1.0 / slope);
        (at.is_finite()).then_some((at - last.seconds).max(0.0))
    })();
    let left = match (to_target, budget) {
        (Some(t), Some(b)) => t.min(b),
        (Some(t), None) => t,
        (None, b) => b?,
    };
    // A slope that barely falls puts the target past any clock: no estimate.
    Duration::try_from_secs_f64(left).ok()
}

/// Each of `tree`'s information sets and the strategy `profile` plays there.
fn situations_on_tree(def: &Game, tree: &Tree, profile: &Profile) -> Vec<Situation> {
    let reach = tree.reach(profile, None).reach;
    tree.infosets
        .iter()
        .enumerate()
        .map(|(i, set)| Situation {
            seat: def.seats[set.seat as usize].clone(),
            decision: def.decisions[set.decision as usize].name.clone(),
            situation: set.situation.clone(),
            depth: set.depth,
            reach: set.nodes.iter().map(|&n| reach[n as usize]).sum(),
            key: set.key,
            keys: set.keys.as_slice().into(),
            actions: set
                .actions
                .iter()
                .map(|a| Arc::from(a.as_str()))
                .zip(profile.at(tree, i).iter().copied())
                .collect(),
        })
        .collect()
}

fn tree_size(tree: &Tree) -> TreeSize {
    TreeSize {
        nodes: tree.len(),
        terminals: tree.terminals(),
        repeats: tree.repeats(),
        infosets: tree.infosets_per_seat(),
        cut_at: tree.cut_at,
        cut_nodes: tree.cuts(),
        stopped: tree.stopped,
    }
}
