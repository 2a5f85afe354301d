//! `rpsdsl verdict`: did the variant make the game fairer, shorter, more
//! decisive, more skill-driven or more tense, with players who play well?
//! One line per question first, then the figures behind each.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::simulate_cmd::{load_game_input, parse_jobs};
use super::solve_cmd::parse_seconds;
use crate::diagnostic::{Code, Diagnostic, Sources};
use crate::sim::analyze::Stops;
use crate::sim::verdict::{self, ChoiceFigures, Choices, Config, Interval, Side, Verdict};

#[derive(clap::Args, Debug)]
pub(crate) struct VerdictArgs {
    /// The base game: a `.rules` file, or a house-rules `.toml` file.
    pub base: PathBuf,
    /// The variant: a `.rules` file, a variant that extends the base, or a house-rules `.toml` file.
    pub variant: PathBuf,
    /// The strong and the weak player, e.g. `mcts:iterations=200,mcts:iterations=50`; by default the strongest MCTS whose games fit the time, and a quarter of it.
    #[arg(long)]
    pub agents: Option<String>,
    /// Seconds the verdict may take, all told.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_seconds)]
    pub time: f64,
    /// The most deals to play (each is played in both games, in every matchup).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub deals: u64,
    /// Set an option in both games: `--set rounds=3` (repeatable).
    #[arg(long = "set", alias = "option", value_name = "NAME=VALUE")]
    pub settings: Vec<String>,
    /// The seed the deals derive from; both games play the same deals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (0: one per core).
    #[arg(long, default_value_t = 0, value_parser = parse_jobs)]
    pub jobs: usize,
    /// Judge even games that do not share seats and outcomes.
    #[arg(long)]
    pub force: bool,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
    /// Exit 0 even when games stopped on an error (the verdict counts them either way).
    #[arg(long)]
    pub allow_errors: bool,
    /// Also write the verdict as a self-contained HTML page with charts.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

pub(crate) fn verdict(args: &VerdictArgs) -> ExitCode {
    let mut inputs = vec![];
    for path in [&args.base, &args.variant] {
        match load_game_input(path, &args.settings) {
            Ok(input) => inputs.push(input),
            Err(code) => return code,
        }
    }
    if !args.force
        && let Some(why) = crate::sim::unrelated(&inputs[0].def, &inputs[1].def)
    {
        let diagnostic = Diagnostic::error(
            Code::UnrelatedGames,
            format!(
                "`{}` and `{}` are not two versions of one game: {why}",
                inputs[0].label, inputs[1].label
            ),
        )
        .help("judge a game against a variant or house rules of it (the same seats and outcomes); pass --force to judge them anyway");
        super::report(&[diagnostic], &Sources::default());
        return ExitCode::from(2);
    }
    let players = match strong_and_weak(args.agents.as_deref()) {
        Ok(players) => players,
        Err(code) => return code,
    };
    // No game, however its players stall, may outlast the budget.
    crate::budget::set_deadline(std::time::Instant::now() + Duration::from_secs_f64(args.time));
    let config = Config {
        players,
        time: Duration::from_secs_f64(args.time),
        most_deals: args.deals,
        seed: args.seed,
        jobs: args.jobs,
    };
    let sides: Vec<Side<'_>> = inputs
        .iter()
        .map(|input| Side {
            def: &input.def,
            options: &input.options,
            label: input.label.clone(),
        })
        .collect();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("verdict {spinner} {elapsed} of {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(format!("{:.0} s: choosing the players", args.time));
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let budget = args.time;
    let result = verdict::verdict(&sides[0], &sides[1], &config, &|deals, open| {
        if let Some(bar) = &bar {
            bar.set_message(format!("{budget:.0} s: {deals} deals, open: {}", open.join(", ")));
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let verdict = match result {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let text = to_text(&verdict);
    if args.json {
        say!(
            "{}",
            serde_json::to_string_pretty(&verdict).expect("plain data serializes")
        );
    } else {
        say!("{}", text.trim_end());
    }
    if let Some(path) = &args.html {
        let page = crate::sim::html::verdict_page(&verdict, &text).map_err(|e| e.to_string());
        if let Err(code) = super::simulate_cmd::files::write("HTML report", path, page) {
            return code;
        }
    }
    stopped_status(&verdict.stops, args.allow_errors)
}

/// The exit status after a verdict or a sweep: 1 when any game stopped on
/// an error (the report, which says so, is printed first), unless
/// `--allow-errors`, as `simulate` does.
pub(crate) fn stopped_status(stops: &[Stops], allow_errors: bool) -> ExitCode {
    let stopped: u64 = stops.iter().map(|s| s.stopped).sum();
    if stopped == 0 || allow_errors {
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "error: {stopped} game{} stopped on an error (the report's cautions say which); pass --allow-errors to \
         exit 0 anyway.",
        if stopped == 1 { "" } else { "s" }
    );
    ExitCode::from(1)
}

/// `--agents STRONG,WEAK` as the two specs (`None`: chosen to fit the
/// time); anything else is refused with the form it takes.
pub(crate) fn strong_and_weak(agents: Option<&str>) -> Result<Option<(String, String)>, ExitCode> {
    match agents.map(|spec| spec.split_once(',')) {
        None => Ok(None),
        Some(Some((strong, weak))) if !weak.contains(',') => Ok(Some((strong.to_string(), weak.to_string()))),
        Some(_) => {
            eprintln!(
                "error: --agents: give the strong and the weak player, e.g. `mcts:iterations=200,mcts:iterations=50`"
            );
            Err(ExitCode::from(2))
        }
    }
}

fn shown(i: &Interval) -> String {
    format!("{:.3} ({:.3} to {:.3})", i.estimate, i.low, i.high)
}

fn signed(i: &Interval) -> String {
    format!("{:+.3} ({:+.3} to {:+.3})", i.estimate, i.low, i.high)
}

/// The verdict in words: who played and how strong they are shown to be,
/// the answers, then how the players fared, then the figures.
pub(crate) fn to_text(v: &Verdict) -> String {
    let mut out = format!("Verdict: {} against {}\n", v.variant, v.base);
    // Which players, and why these: first, since every answer rests on them.
    out.push_str(&format!(
        "players: strong {}, weak {}{}\n",
        v.strong,
        v.weak,
        v.players_why.as_ref().map_or(String::new(), |why| format!(" ({why})"))
    ));
    out.push_str(&format!("{}\n", v.saturation.sentence("--time")));
    let unseparated: Vec<&str> = v
        .separation
        .iter()
        .zip(["base", "variant"])
        .filter(|(s, _)| !s.separated)
        .map(|(_, name)| name)
        .collect();
    if !unseparated.is_empty() {
        out.push_str(&format!(
            "caution: the strong player was not shown to beat both the weak one and random in the {}; the \
             skill answer is withheld, and the others rest on players that may not play well (give more --time, \
             or --agents)\n",
            unseparated.join(" and the ")
        ));
    }
    for (stops, game) in v.stops.iter().zip(["the base", "the variant"]) {
        if let Some(caution) = stops.caution(game) {
            out.push_str(&format!("caution: {caution}\n"));
        }
    }
    out.push('\n');
    for q in &v.questions {
        let because = match (&q.difference, &q.skipped) {
            (_, Some(why)) => why.clone(),
            (Some(d), None) => format!("variant minus base {}", signed(d)),
            (None, None) => format!("base {}, variant {}", signed(&q.base), signed(&q.variant)),
        };
        out.push_str(&format!("  {:<9} {:<18} {because}\n", q.question, q.answer));
    }
    out.push_str(&choices_line(&v.choices));
    let open: Vec<&str> = v
        .questions
        .iter()
        .filter(|q| q.direction == 0 && q.skipped.is_none())
        .map(|q| q.question)
        .collect();
    out.push_str(&format!(
        "\nstopped after {:.1} s of {:.0}: {}; {} deals with the strong player in every seat, {} in the matchups, \
         the same deals in both games\n",
        v.seconds, v.budget_seconds, v.stopped, v.self_play_deals, v.matchup_deals
    ));
    let judged = v.questions.iter().filter(|q| q.skipped.is_none()).count();
    if open.len() == judged && v.stopped.contains("time ran out") {
        out.push_str(&format!(
            "  nothing settled in {:.0} s: try `--time {:.0}`\n",
            v.budget_seconds,
            4.0 * v.budget_seconds
        ));
    } else if !open.is_empty() {
        out.push_str(&format!(
            "  no clear change in: {} (each interval still covers no change; more --time narrows it)\n",
            open.join(", ")
        ));
    }
    out.push_str("the players' edges, seats rotated:\n");
    if let [Some(base), Some(variant)] = v.strong_exploitability {
        out.push_str(&format!(
            "  the strong player's exploitability: {base:.4} in the base, {variant:.4} in the variant (0: it \
             cannot be beaten on average)\n"
        ));
    }
    for (s, name) in v.separation.iter().zip(["base", "variant"]) {
        out.push_str(&format!(
            "  {name:<8} strong over weak {}, strong over random {}\n",
            signed(&s.strong_vs_weak),
            signed(&s.strong_vs_random)
        ));
    }
    out.push_str("\nThe figures (mean per deal, and its 95% confidence sequence)\n");
    for q in &v.questions {
        if q.deals == 0 {
            continue;
        }
        out.push_str(&format!("  {}: {}\n", q.question, q.measure));
        out.push_str(&format!(
            "    base     {}\n    variant  {}\n",
            shown(&q.base),
            shown(&q.variant)
        ));
        for d in &q.details {
            let figure = |i: &Option<Interval>| i.as_ref().map_or_else(|| "no game counted".to_string(), shown);
            out.push_str(&format!(
                "    {}\n      base     {}\n      variant  {}\n",
                d.measure,
                figure(&d.base),
                figure(&d.variant)
            ));
        }
    }
    out.push_str(&choices_table(&v.choices));
    out
}

/// The choices' line in the opening verdict: which choices' worth shifted.
fn choices_line(c: &Choices) -> String {
    let (answer, because) = c.answer();
    let because = if answer == "no clear shift" {
        format!("{because} (below)")
    } else {
        because
    };
    format!("  {:<9} {answer:<18} {because}\n", "choices")
}

/// The choice table: per choice, how often the strong player takes it and
/// what it is worth, in both games.
fn choices_table(c: &Choices) -> String {
    if c.rows.is_empty() {
        return String::new();
    }
    let mut out = format!(
        "\nChoices (the strong player's, in self-play; worth: the edge it loses, seats rotated, when kept from the \
         choice; {} deals)\n",
        c.deals
    );
    let taken = |f: &Option<ChoiceFigures>| {
        f.as_ref()
            .map_or_else(|| "-".to_string(), |f| format!("{:.0}%", 100.0 * f.taken.rate))
    };
    let worth = |f: &Option<ChoiceFigures>| {
        f.as_ref()
            .and_then(|f| f.worth.as_ref())
            .map_or_else(|| "-".to_string(), signed)
    };
    for r in &c.rows {
        out.push_str(&format!(
            "  {}: {}\n    taken    base {:>4}, variant {:>4}\n    worth    base {}, variant {}\n",
            r.decision,
            r.choice,
            taken(&r.base),
            taken(&r.variant),
            worth(&r.base),
            worth(&r.variant)
        ));
        if let Some(shift) = &r.shift {
            out.push_str(&format!("    shift    {}\n", signed(shift)));
        }
    }
    out
}
