//! The events since a seat's last choice as a person reads them: the
//! transcript's lines for their seat, tidied, with who beat whom.

use crate::engine::{Event, Seen, SeenDecision};
use crate::ir::{ChoiceKind, GameDef, KindId, Seat};
use crate::transcript::{Viewer, render_events_from};

/// The events from `from` on, as `seat` saw them, tidied for reading (see
/// [`tidy`]). `steps` are where each step (one decision applied) began in
/// `events`: the clash of a step's throws is told right after them.
pub(crate) fn seen_lines(def: &GameDef, events: &[Event], steps: &[usize], from: usize, seat: Seat) -> Vec<String> {
    let end = events.len();
    let mut bounds = vec![from];
    bounds.extend(steps.iter().copied().filter(|&b| b > from && b < end));
    bounds.push(end);
    let mut lines = vec![];
    // Step by step, so that the outcome of a step's throws follows them.
    for step in bounds.windows(2) {
        let (start, end) = (step[0], step[1]);
        // The clash reads best right after the choices, before what
        // they caused.
        let split = events[start..end]
            .iter()
            .rposition(|e| matches!(e, Event::Decision { .. }))
            .map_or(start, |i| start + i + 1);
        let viewer = Viewer::Seat(seat);
        // The events before each slice number the phases it begins.
        lines.extend(render_events_from(def, &events[..split], start, viewer));
        lines.extend(clash(def, &events[start..end], seat));
        lines.extend(render_events_from(def, &events[..end], split, viewer));
    }
    tidy(lines, def.seat_name(seat))
}

/// When two seats chose kinds at once in one step and the person saw both,
/// who beat whom ("Ben's fire beats your ice") or the tie, read from
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

/// Runs of moves of like pieces from one zone read as one line, where
/// they go to one place ("a hidden piece x5: deck -> hand of Ben x5") or
/// are a deal of three or more ("a hidden piece x9: bag -> slot of space 1
/// … slot of space 9"). Two like pieces going two ways stay two lines: a
/// card burned and a card dealt are two things that happened.
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
        if j - i == 2 && to.len() == 2 {
            // Two moves, two places: each its own line.
            out.extend(lines[i..j].iter().cloned());
        } else if j - i == 1 {
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

    #[test]
    fn tidy_speaks_to_the_person_and_joins_runs() {
        let lines = vec![
            "Ann chooses hand: left  [of 3]".to_string(),
            "Ben chooses hand: (secret)".to_string(),
            "  a hidden piece: pile -> row 1".to_string(),
            "  a hidden piece: pile -> row 2".to_string(),
            "  a hidden piece: pile -> row 3".to_string(),
            "  Token: pile -> row 3".to_string(),
            "  Guard 1: deck -> burned".to_string(),
            "  Guard 1: deck -> hand of Ann".to_string(),
            "  Guard 1: deck -> hand of Ben".to_string(),
            "  Guard 1: deck -> hand of Ben".to_string(),
        ];
        assert_eq!(
            tidy(lines, "Ann"),
            vec![
                "You choose hand: left",
                "Ben chooses hand: (secret)",
                "  a hidden piece x3: pile -> row 1, row 2, row 3",
                "  Token: pile -> row 3",
                "  Guard 1 x4: deck -> burned, hand of Ann, hand of Ben x2",
            ]
        );
        // Two like cards going two ways are two lines; going one way, one.
        let two_ways = vec![
            "  Guard 1: deck -> burned".to_string(),
            "  Guard 1: deck -> hand of Ann".to_string(),
        ];
        assert_eq!(tidy(two_ways.clone(), "Ann"), two_ways);
        let one_way = vec![
            "  Guard 1: deck -> hand of Ann".to_string(),
            "  Guard 1: deck -> hand of Ann".to_string(),
        ];
        assert_eq!(tidy(one_way, "Ann"), vec!["  Guard 1 x2: deck -> hand of Ann x2"]);
    }
}
