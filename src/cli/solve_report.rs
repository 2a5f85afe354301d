//! A solution in words (`rpsdsl solve`) and as a page (`--html`): the game's
//! value per seat, how exploitable the strategy is, and the strategy
//! situation by situation, the likeliest first.

use maud::html;

use crate::engine::Memory;
use crate::sim::html::charts::falling_chart;
use crate::sim::html::{figure, shell};
use crate::solve::{Payoff, SampledRun, Sampling, Situation, Solution, TRAINED_VISITS};

/// Situations shown per seat unless `--all`.
const SHOWN: usize = 12;

/// The solution as `rpsdsl solve` prints it.
pub(crate) fn write_text(
    out: &mut dyn std::io::Write,
    name: &str,
    rules: &str,
    options: &[(String, String)],
    s: &Solution,
    all: bool,
) -> std::io::Result<()> {
    out.write_all(header_text(name, rules, options, s).as_bytes())?;
    writeln!(out, "\nStrategy, by situation (the likeliest first)")?;
    // A row at a time: with `--all`, a sampled answer's rows run to
    // hundreds of megabytes.
    for seat in &s.seats {
        let (rows, total) = rows_of(s, seat, all);
        writeln!(out, "{seat} ({total} situations)")?;
        for r in &rows {
            let said: Vec<String> = ranked(r)
                .iter()
                .map(|(a, p)| format!("{a} {:.1}%", 100.0 * p))
                .collect();
            writeln!(
                out,
                "  {} ({}, {})\n      {}",
                r.situation,
                r.decision,
                reach_text(r.reach),
                said.join(", ")
            )?;
        }
        if rows.len() < total {
            writeln!(
                out,
                "  ... {} more (`--all` shows every one, `--json` gives them all)",
                total - rows.len()
            )?;
        }
    }
    Ok(())
}

/// The report above the strategy: the game, the method, the values and
/// the exploitability.
fn header_text(name: &str, rules: &str, options: &[(String, String)], s: &Solution) -> String {
    let mut out = format!(
        "{name}: an equilibrium of {rules}, {}\n",
        crate::text::options_phrase(options)
    );
    out.push_str(&size_line(s));
    out.push('\n');
    tree_notes(s, &mut out);
    let why = match s.stopped_by.as_str() {
        "target" => "reached the target exploitability",
        "iterations" => "ran the iterations asked for",
        "budget" => "the information sets met filled the budget",
        "memory" => "stopped at the memory cap; set another with --memory",
        _ => "ran out of time",
    };
    match &s.sampled {
        None => out.push_str(&format!(
            "CFR+ on the whole tree: {} iterations in {:.2} s ({why})\n",
            s.iterations, s.solve_seconds
        )),
        Some(run) => {
            out.push_str(&format!("sampled: {}\n", run.why));
            out.push_str(&format!(
                "{}: {} iterations ({} traversals, seed {}) in {:.2} s ({why})\n",
                sampling_name(run),
                s.iterations,
                run.traversals,
                run.seed,
                s.solve_seconds
            ));
            if run.sampling == Sampling::Outcome {
                out.push_str(&format!(
                    "  one game per traversal: trying every choice of a seat would visit about {:.0e} positions each\n",
                    run.positions_per_traversal
                ));
            }
            if run.cut > 0 || run.stopped > 0 {
                out.push_str(&format!(
                    "  {} branches went past decision point {} and {} stopped on an error; they count as a draw\n",
                    run.cut, run.depth, run.stopped
                ));
            }
        }
    }
    let payoff = match s.payoff {
        Payoff::Score => "the game's score, or 1 for a win when it has none",
        Payoff::Win => "1 for a win, shared out of the losers'",
    };
    out.push_str(&format!("payoff: {payoff}\n\n"));
    match (&s.value_margins, &s.sampled) {
        (Some(margins), Some(run)) => {
            out.push_str(&format!(
                "Value per game, when every seat plays the strategy below (from {} games, with 95% intervals)\n",
                run.estimate_games
            ));
            for ((seat, &v), m) in s.seats.iter().zip(&s.values).zip(margins) {
                out.push_str(&format!("  {seat:<20} {:+.4} ± {m:.4}\n", shown(v)));
            }
            if let Some(trained) = run.trained {
                out.push_str(&format!(
                    "  {:.1}% of those games' decisions were in situations sampling met at least {TRAINED_VISITS} times{}\n",
                    100.0 * trained,
                    if trained < 0.5 {
                        "; the rest are barely trained and play close to uniformly: give it more time, or make the \
                         game smaller with `--set`"
                    } else {
                        ""
                    }
                ));
            }
            levels_line(run, &mut out);
        }
        _ => {
            out.push_str("Value per game, when every seat plays the strategy below\n");
            for (seat, &v) in s.seats.iter().zip(&s.values) {
                out.push_str(&format!("  {seat:<20} {:+.4}\n", shown(v)));
            }
            if let Some(run) = &s.sampled {
                levels_line(run, &mut out);
            }
        }
    }
    match (s.exploitability, s.nash_conv) {
        (Some(e), Some(n)) => out.push_str(&format!(
            "exploitability {e:.6} (NashConv {n:.6}): what a best response gains per game, averaged over the seats\n"
        )),
        _ => out.push_str(
            "exploitability not measured: a best response needs the whole tree, which does not fit; the strategy \
             is what sampling learnt, not a certified equilibrium\n",
        ),
    }
    if s.seats.len() == 2 && s.zero_sum {
        if s.exploitability.is_some() {
            out.push_str(
                "  two seats, zero-sum: this is an approximate Nash equilibrium, and the values are the game's\n",
            );
        } else {
            out.push_str(
                "  two seats, zero-sum: sampling converges to a Nash equilibrium; the values are those of the \
                 strategy found, estimated by play\n",
            );
        }
    } else {
        out.push_str(
            "  caveat: with more than two seats, or payoffs that do not sum to zero, CFR promises no Nash \
             equilibrium; the strategy is the average of regret minimisation, and the exploitability says how \
             much each seat could still gain alone\n",
        );
    }
    out
}

/// At a glance, how much of play was at each level of its situations.
fn levels_line(run: &SampledRun, out: &mut String) {
    let Some(levels) = &run.by_level else {
        return;
    };
    let names = ["at a glance", "at a bare glance", "by the moves alone"];
    let shares: Vec<String> = names
        .iter()
        .zip(levels)
        .map(|(name, share)| format!("{name} {:.1}%", 100.0 * share))
        .collect();
    out.push_str(&format!(
        "  played {} (each situation at the finest level sampling met at least {} times)\n",
        shares.join(", "),
        crate::engine::REFINED_VISITS
    ));
}

/// What the report says under its size line: an abstraction, a cut,
/// play that never ends, endings stopped on an error.
fn tree_notes(s: &Solution, out: &mut String) {
    if s.endless_mass > 1e-9 {
        out.push_str(&format!(
            "  play never ends with probability {:.3}: it goes round positions met again for ever (the engine \
             would stop such a game at its decision limit); that counts as a draw\n",
            s.endless_mass
        ));
    }
    let measured = if s.exploitability.is_some() {
        "its exploitability is measured in the game itself, where each seat remembers everything"
    } else {
        "its cost cannot be measured here, since the game's own tree does not fit"
    };
    match s.memory {
        Memory::All => {}
        Memory::Now => out.push_str(&format!(
            "  abstraction (--recall now): a situation is only what the seat sees now and the choices it has, \
             so situations it could tell apart by remembering are one; {measured}\n"
        )),
        Memory::Glance => out.push_str(&format!(
            "  abstraction (--recall glance): a situation is only what the seat sees at a glance (every number \
             and zone size by its order of magnitude; of pieces, only those in its own zones that the rules \
             read and the top of each public pile) and its moves by what they move (alike moves are one, played \
             at random among them; each situation is shown as it was first met); {measured}\n"
        )),
    }
    if let Some(tree) = &s.tree
        && let Some(cut) = tree.cut_at
    {
        out.push_str(&format!(
            "  cut at decision point {}: {} positions there count as a draw; play reaches them with probability {:.2e}\n",
            cut + 1,
            tree.cut_nodes,
            s.cut_mass
        ));
    }
    if let Some(tree) = &s.tree
        && tree.stopped > 0
    {
        out.push_str(&format!(
            "  {} endings stopped on an error in the rules; they count as a draw\n",
            tree.stopped
        ));
    }
}

/// "external-sampling MCCFR" or "outcome-sampling MCCFR".
fn sampling_name(run: &SampledRun) -> &'static str {
    match run.sampling {
        Sampling::External => "external-sampling MCCFR",
        Sampling::Outcome => "outcome-sampling MCCFR",
    }
}

/// How often play meets a situation: "reached 40.0%", or, where a
/// position comes round again, "met 1.50 times a game".
fn reach_text(reach: f64) -> String {
    if reach > 1.0 + 1e-9 {
        format!("met {reach:.2} times a game")
    } else {
        format!("reached {:.1}%", 100.0 * reach)
    }
}

/// A situation's reach in the page's table: "40.0%", or "1.50× a game"
/// where a position comes round again.
fn reach_cell(reach: f64) -> String {
    if reach > 1.0 + 1e-9 {
        format!("{reach:.2}× a game")
    } else {
        format!("{:.1}%", 100.0 * reach)
    }
}

/// What rounds to zero shows as +0.0000, never -0.0000.
fn shown(v: f64) -> f64 {
    if v.abs() < 5e-5 { 0.0 } else { v }
}

/// "tree: 58 nodes, 30 endings; information sets: first 6, second 6".
fn size_line(s: &Solution) -> String {
    let sets: Vec<String> = s
        .seats
        .iter()
        .zip(&s.infosets)
        .map(|(seat, n)| format!("{seat} {n}"))
        .collect();
    match (&s.tree, &s.sampled) {
        (Some(tree), _) => {
            let repeats = match tree.repeats {
                0 => String::new(),
                1 => ", 1 position met again (played on as the first time)".to_string(),
                n => format!(", {n} positions met again (played on as the first time)"),
            };
            format!(
                "tree: {} nodes, {} endings{repeats}; information sets: {}",
                tree.nodes,
                tree.terminals,
                sets.join(", ")
            )
        }
        (None, _) => format!("information sets met by sampling: {}", sets.join(", ")),
    }
}

/// A seat's situations, the likeliest first (the first [`SHOWN`] that play
/// reaches, unless `all`), and how many it has.
fn rows_of<'a>(s: &'a Solution, seat: &str, all: bool) -> (Vec<&'a Situation>, usize) {
    let mut rows: Vec<&Situation> = s.strategy.iter().filter(|r| r.seat == seat).collect();
    rows.sort_by(|a, b| b.reach.total_cmp(&a.reach).then(a.depth.cmp(&b.depth)));
    let total = rows.len();
    if !all {
        rows.retain(|r| r.reach > 1e-9);
        rows.truncate(SHOWN);
    }
    (rows, total)
}

/// A situation's actions, the likeliest first, without those it never plays.
fn ranked(r: &Situation) -> Vec<(String, f64)> {
    let mut actions: Vec<(String, f64)> = r.actions.iter().map(|(a, p)| (a.to_string(), *p)).collect();
    actions.sort_by(|a, b| b.1.total_cmp(&a.1));
    actions.retain(|(_, p)| *p >= 0.0005);
    actions
}

/// Styles the solve page adds to the shared ones.
const STYLE: &str = r#"
table.values { border-collapse: collapse; margin: 8px 0; }
table.values td, table.values th { padding: 4px 12px; border-bottom: 1px solid #e4e4e4; text-align: right; }
table.values th:first-child, table.values td:first-child { text-align: left; }
p.verdict { font-size: 1.1em; margin: 8px 0; }
table.strategy { border-collapse: collapse; margin: 8px 0; width: 100%; }
table.strategy th { text-align: left; padding: 4px 8px; border-bottom: 2px solid #d7d7d7; }
table.strategy td { padding: 6px 8px; border-bottom: 1px solid #e4e4e4; vertical-align: top; }
table.strategy td.reach { text-align: right; white-space: nowrap; }
div.action { display: flex; align-items: center; gap: 6px; white-space: nowrap; }
div.action span.name { min-width: 5em; }
div.action span.bar { display: inline-block; height: 12px; background: #3a6ea5; }
div.action span.p { font-variant-numeric: tabular-nums; }
"#;

/// The page of `rpsdsl solve --html`: the values and exploitability, how
/// it converged, and each seat's likeliest situations as bars.
pub(crate) fn to_html(name: &str, rules: &str, options: &[(String, String)], s: &Solution) -> String {
    let title = format!("{name}: an equilibrium");
    let mut text = vec![];
    write_text(&mut text, name, rules, options, s, false).expect("a vector takes every byte");
    let text = String::from_utf8_lossy(&text);
    let convergence: Vec<(f64, f64)> = s
        .convergence
        .iter()
        .filter_map(|c| c.exploitability.map(|e| (c.iterations as f64, e)))
        .collect();
    // A log scale has no room for 0: an answer exact at once has no curve.
    let exact_at_once = convergence.iter().all(|&(_, e)| e <= 0.0);
    let chart = |drawn: Result<String, Box<dyn std::error::Error>>| match drawn {
        Ok(svg) => svg,
        Err(e) => format!(
            "<p>(the chart could not be drawn: {})</p>",
            crate::text::printable_string(&e.to_string())
        ),
    };
    let method = match &s.sampled {
        None => format!(
            "CFR+ on the whole tree, {} iterations in {:.2} s",
            s.iterations, s.solve_seconds
        ),
        Some(run) => format!(
            "{}, {} iterations in {:.2} s (seed {}): {}",
            sampling_name(run),
            s.iterations,
            s.solve_seconds,
            run.seed,
            run.why
        ),
    };
    // What the text says under its size line (an abstraction, a cut,
    // play that never ends) is said on the page too.
    let mut notes = String::new();
    tree_notes(s, &mut notes);
    let body = html! {
        h1 { (title) }
        p.meta { code { (rules) } " · " (crate::text::options_phrase(options)) " · " (size_line(s)) }
        @for note in notes.lines() {
            p.meta { (note.trim()) }
        }
        p.meta { (method) }
        section.summary {
            h2 { "Value and exploitability" }
            table.values {
                tr { th { "seat" } th { "value per game" } @if s.value_margins.is_some() { th { "95% interval" } } }
                @for (k, seat) in s.seats.iter().enumerate() {
                    tr {
                        td { (seat) }
                        td { (format!("{:+.4}", shown(s.values[k]))) }
                        @if let Some(m) = &s.value_margins { td { (format!("± {:.4}", m[k])) } }
                    }
                }
            }
            @match s.exploitability {
                Some(e) => p.verdict { "Exploitability " strong { (format!("{e:.6}")) }
                    ": what a best response would gain per game, averaged over the seats." },
                None => p.verdict { "Exploitability not measured: the whole tree does not fit, so no best response was computed." },
            }
        }
        @if !convergence.is_empty() {
            section {
                h2 { "How it converged" }
                @if exact_at_once {
                    p { "Exact at every check (exploitability 0): there is no curve to draw." }
                } @else {
                    (figure(chart(falling_chart(&convergence, "iterations", "exploitability", None)),
                        "Exploitability after each check, on log scales."))
                }
            }
        }
        @for seat in &s.seats {
            @let (rows, total) = rows_of(s, seat, false);
            section {
                h2 { (seat) ": the likeliest situations" }
                p.note { (rows.len()) " of " (total) " situations, the likeliest first; a bar is an action's probability there." }
                table.strategy {
                    tr { th { "situation" } th { "reached" } th { "strategy" } }
                    @for r in &rows {
                        tr {
                            td { (r.situation) }
                            td.reach { (reach_cell(r.reach)) }
                            td {
                                @for (action, p) in ranked(r) {
                                    div.action {
                                        span.name { (action) }
                                        span.bar style=(format!("width: {:.0}px", (160.0 * p).max(1.0))) {}
                                        span.p { (format!("{:.1}%", 100.0 * p)) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        details {
            summary { "The text report" }
            pre { (text) }
        }
    };
    shell(&title, STYLE, body)
}
