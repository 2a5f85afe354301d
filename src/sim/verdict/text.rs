//! The verdict in words, as `rpsdsl verdict` prints it and the studio
//! shows it: who played and how strong they are shown to be, the answers,
//! then how the players fared, then the figures and the choices.

use super::{ChoiceFigures, Choices, Interval, Verdict};

impl Verdict {
    /// The verdict as text.
    pub fn to_text(&self) -> String {
        to_text(self)
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
pub(super) fn to_text(v: &Verdict) -> String {
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
    out.push_str(&super::coverage::text(&v.coverage, v.self_play_deals));
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
