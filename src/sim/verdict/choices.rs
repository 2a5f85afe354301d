//! The verdict's choices: which choices the strong player makes in each
//! game, what each is worth, and what shifted from the base to the variant.
//!
//! A choice's worth is measured restricted-play style (Jaffe et al. 2012):
//! the strong player at one seat is kept from the choice whenever it has
//! another, against the strong player everywhere else, and what it loses is
//! the choice's worth. Equal players in every seat make an edge of exactly
//! 0 over the seats, so the kept seat's edge, seats rotated, is the worth
//! with its sign turned: no unrestricted games need be played beside it.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::Serialize;

use super::basis::{BATCH_DEALS, Deadline, Side, Watch, either_way, share};
use crate::agents::spec::AgentSpec;
use crate::ir::GameDef;
use crate::sim::analyze::{Pick, Restriction, choice_group, play_restricted};
use crate::sim::sequential::ALPHA;
use crate::sim::stats::Interval;
use crate::sim::stats::{Rate, game_seed};

/// Choices measured per game (see [`Tally::most_offered`]).
const MOST_CHOICES: usize = 6;

/// Keeps the choices' deals apart from the questions' (both derive from the seed).
const CHOICE_DEALS: u64 = 0x4348_4f49_4345;

/// The strong player's choices in self-play, in one game: per decision and
/// choice, how often it was offered with something else and how often taken.
pub(super) struct Tally<'a> {
    def: &'a GameDef,
    labels: HashMap<(u16, i64), String>,
    counts: BTreeMap<(u16, String), (u64, u64)>,
    games: u64,
}

impl<'a> Tally<'a> {
    pub(super) fn new(def: &'a GameDef) -> Self {
        Tally {
            def,
            labels: HashMap::new(),
            counts: BTreeMap::new(),
            games: 0,
        }
    }

    /// Counts one self-play game's picks.
    pub(super) fn add(&mut self, picks: &[Pick]) {
        self.games += 1;
        for pick in picks {
            let mut offered: Vec<String> = pick.offered.iter().map(|&v| self.label(pick.decision, v)).collect();
            offered.sort_unstable();
            offered.dedup();
            if offered.len() < 2 {
                // A forced choice tells nothing about preference.
                continue;
            }
            let taken = self.label(pick.decision, pick.taken);
            for label in offered {
                let counts = self.counts.entry((pick.decision, label.clone())).or_default();
                counts.0 += 1;
                counts.1 += u64::from(label == taken);
            }
        }
    }

    fn label(&mut self, decision: u16, value: i64) -> String {
        let def = self.def;
        self.labels
            .entry((decision, value))
            .or_insert_with(|| choice_group(def, decision, value))
            .clone()
    }

    /// The choices to measure, as (decision name, choice): each decision's
    /// most offered choice first, then each one's next, and so on, so that a
    /// decision met often (a card to discard) does not crowd out one met
    /// rarely (a bet).
    fn most_offered(&self) -> Vec<(String, String)> {
        let mut by_decision: BTreeMap<u16, Vec<(u64, &String)>> = BTreeMap::new();
        for ((decision, label), &(offered, _)) in &self.counts {
            by_decision.entry(*decision).or_default().push((offered, label));
        }
        let mut decisions: Vec<(u16, Vec<(u64, &String)>)> = by_decision.into_iter().collect();
        for (_, choices) in &mut decisions {
            choices.sort_by_key(|&(offered, _)| std::cmp::Reverse(offered));
        }
        decisions.sort_by_key(|(_, choices)| std::cmp::Reverse(choices.iter().map(|c| c.0).sum::<u64>()));
        let deepest = decisions.iter().map(|(_, c)| c.len()).max().unwrap_or(0);
        (0..deepest)
            .flat_map(|rank| {
                decisions.iter().filter_map(move |(decision, choices)| {
                    let (_, label) = choices.get(rank)?;
                    Some((self.def.decisions[*decision as usize].name.clone(), (*label).clone()))
                })
            })
            .take(MOST_CHOICES)
            .collect()
    }

    /// How a choice fared in self-play: the decision's id, the take rate,
    /// and the offers per game. `None` when it was never offered with another.
    fn find(&self, decision: &str, choice: &str) -> Option<(u16, Rate, f64)> {
        let id = self.def.decisions.iter().position(|d| d.name == decision)? as u16;
        let &(offered, taken) = self.counts.get(&(id, choice.to_string()))?;
        Some((id, Rate::new(taken, offered), offered as f64 / self.games.max(1) as f64))
    }
}

/// One choice in one game.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceFigures {
    /// How often the strong player took it when offered it with something
    /// else, in self-play.
    pub taken: Rate,
    /// Times per game it was offered with something else.
    pub offered_per_game: f64,
    /// The edge the strong player loses when kept from it, seats rotated,
    /// per game (`None` when the time ran out before it was measured).
    pub worth: Option<Interval>,
}

/// One choice, base and variant.
#[derive(Clone, Debug, Serialize)]
pub struct ChoiceWorth {
    /// The decision's name.
    pub decision: String,
    /// The choice, as the transcript names it (an action without its parameters).
    pub choice: String,
    /// In the base (`None`: not offered there with another choice).
    pub base: Option<ChoiceFigures>,
    /// In the variant.
    pub variant: Option<ChoiceFigures>,
    /// The worth's change, variant minus base, paired by deal (when both were measured).
    pub shift: Option<Interval>,
    /// +1: worth more in the variant; -1: less; 0: no clear shift.
    pub direction: i8,
}

/// The choice study.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Choices {
    /// The choices, the base's most offered first.
    pub rows: Vec<ChoiceWorth>,
    /// Deals played to measure their worth (each choice, each game).
    pub deals: u64,
    /// Why worths were not measured, when they were not.
    pub skipped: Option<String>,
}

impl Choices {
    /// The study in a line: `shifted`, `no clear shift` or `not measured`,
    /// and what stands behind it (the choices that shifted, how much was
    /// measured, or why nothing was).
    pub fn answer(&self) -> (&'static str, String) {
        let shifted: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.direction != 0)
            .map(|r| {
                let way = if r.direction > 0 { "worth more" } else { "worth less" };
                format!("{}: {} {way}", r.decision, r.choice)
            })
            .collect();
        match (&self.skipped, shifted.is_empty()) {
            (Some(why), _) => ("not measured", why.clone()),
            (None, true) => (
                "no clear shift",
                format!("{} choices measured on {} deals", self.rows.len(), self.deals),
            ),
            (None, false) => ("shifted", shifted.join("; ")),
        }
    }
}

/// One choice to keep the strong player from, in one game.
struct Kept {
    row: usize,
    game: usize,
    decision: u16,
    choice: String,
    worth: Watch,
}

/// Measures the choices the two tallies found most offered until
/// `deadline`, the deals run out (`most_deals`), or the strong player
/// turns out not to be restrictable. `game_seconds` is a self-play
/// game's cost on one thread, to size the confidence sequences.
pub(super) fn measure(
    sides: [&Side<'_>; 2],
    tallies: &[Tally<'_>; 2],
    strong: &AgentSpec,
    (seed, most_deals): (u64, u64),
    (deadline, game_seconds): (Deadline<'_>, f64),
    pool: &rayon::ThreadPool,
) -> Choices {
    let mut rows: Vec<ChoiceWorth> = vec![];
    for (decision, choice) in tallies[0].most_offered().into_iter().chain(tallies[1].most_offered()) {
        if rows.iter().any(|r| r.decision == decision && r.choice == choice) {
            continue;
        }
        let [base, variant] = [0, 1].map(|g| {
            tallies[g]
                .find(&decision, &choice)
                .map(|(_, taken, offered_per_game)| ChoiceFigures {
                    taken,
                    offered_per_game,
                    worth: None,
                })
        });
        rows.push(ChoiceWorth {
            decision,
            choice,
            base,
            variant,
            shift: None,
            direction: 0,
        });
    }
    // Each (row, game) whose game offers the choice, with its decision's id.
    let targets: Vec<(usize, usize, u16)> =
        rows.iter()
            .enumerate()
            .flat_map(|(row, r)| {
                tallies.iter().enumerate().filter_map(move |(game, tally)| {
                    tally.find(&r.decision, &r.choice).map(|(id, _, _)| (row, game, id))
                })
            })
            .collect();
    let threads = pool.current_num_threads() as f64;
    let left = deadline.left().as_secs_f64();
    let expected = (left * threads / (game_seconds.max(1e-9) * targets.len().max(1) as f64)) as u64;
    let horizon = expected.clamp(16, most_deals.max(16));
    // Each family of intervals holds at 95% jointly (Bonferroni): among
    // several choices, one would otherwise seem to shift by chance alone.
    let worth_alpha = ALPHA / targets.len().max(1) as f64;
    let kept: Vec<Kept> = targets
        .into_iter()
        .map(|(row, game, decision)| Kept {
            row,
            game,
            decision,
            choice: rows[row].choice.clone(),
            worth: Watch::with_alpha(either_way(1.0), horizon, worth_alpha),
        })
        .collect();
    let both = |r: &ChoiceWorth| r.base.is_some() && r.variant.is_some();
    let shift_alpha = ALPHA / rows.iter().filter(|r| both(r)).count().max(1) as f64;
    let shifts: Vec<Option<Watch>> = rows
        .iter()
        .map(|r| both(r).then(|| Watch::with_alpha(either_way(2.0), horizon, shift_alpha)))
        .collect();
    let mut study = Study { kept, shifts };
    let per_deal = Duration::from_secs_f64(game_seconds * study.kept.len() as f64 / threads);
    let (deals, skipped) = study.run(sides, strong, (seed, most_deals), (deadline, per_deal), pool);
    for k in &study.kept {
        let figures = if k.game == 0 {
            &mut rows[k.row].base
        } else {
            &mut rows[k.row].variant
        };
        if let Some(f) = figures
            && k.worth.steps() > 0
        {
            f.worth = Some(k.worth.interval());
        }
    }
    for (row, shift) in rows.iter_mut().zip(&study.shifts) {
        if let Some(shift) = shift.as_ref().filter(|s| s.steps() > 0) {
            let interval = shift.interval();
            row.direction = if interval.low > 0.0 {
                1
            } else if interval.high < 0.0 {
                -1
            } else {
                0
            };
            row.shift = Some(interval);
        }
    }
    Choices { rows, deals, skipped }
}

/// The restricted games under way.
struct Study {
    kept: Vec<Kept>,
    /// Per row, the paired worth difference (when both games have the choice).
    shifts: Vec<Option<Watch>>,
}

impl Study {
    /// Plays batches of deals, every kept choice in each, until the
    /// deadline (a deal's cost first guessed as `per_deal`, then timed);
    /// returns the deals played and why worths went unmeasured.
    fn run(
        &mut self,
        sides: [&Side<'_>; 2],
        strong: &AgentSpec,
        (seed, most_deals): (u64, u64),
        (deadline, mut per_deal): (Deadline<'_>, Duration),
        pool: &rayon::ThreadPool,
    ) -> (u64, Option<String>) {
        if self.kept.is_empty() {
            return (0, Some("no choice was offered beside another".into()));
        }
        let mut deal = 0u64;
        while deal < most_deals {
            // As many deals as are expected to end by the deadline, at most
            // a batch; a deal's cost varies, so a quarter is kept in hand.
            let left = deadline.left();
            let fit = (left.as_secs_f64() / (1.25 * per_deal.as_secs_f64()).max(1e-9)) as u64;
            if fit == 0 {
                break;
            }
            let to = (deal + BATCH_DEALS.min(fit)).min(most_deals);
            let started = Instant::now();
            let jobs: Vec<(u64, usize)> = (deal..to)
                .flat_map(|d| (0..self.kept.len()).map(move |k| (d, k)))
                .collect();
            let kept = &self.kept;
            let played: Result<Vec<f64>, String> = pool.install(|| {
                jobs.par_iter()
                    .map(|&(d, k)| {
                        let side = sides[kept[k].game];
                        let seats = side.def.players();
                        let seat = (d % seats as u64) as usize;
                        let (decision, choice) = (kept[k].decision, kept[k].choice.as_str());
                        let def: &GameDef = side.def;
                        let forbids =
                            move |at: u16, value: i64| at == decision && choice_group(def, at, value) == choice;
                        let restriction = Restriction {
                            seat,
                            forbids: &forbids,
                        };
                        let specs = vec![strong.clone(); seats];
                        let seed = game_seed(seed ^ CHOICE_DEALS, d);
                        match play_restricted(side.def, side.options, seed, &specs, Some(&restriction))? {
                            played if played.cut_short => Err("the time ran out".to_string()),
                            played => Ok(-share(&played, seat, seats)),
                        }
                    })
                    .collect()
            });
            let worths = match played {
                Ok(worths) => worths,
                Err(why) => return (deal, Some(why)),
            };
            per_deal = started.elapsed().div_f64((to - deal) as f64);
            for per_deal_worths in worths.chunks(self.kept.len()) {
                self.push(per_deal_worths);
            }
            deal = to;
        }
        let skipped = (deal == 0).then(|| "no time was left to measure the choices".to_string());
        (deal, skipped)
    }

    /// Adds one deal's worths, one per kept choice.
    fn push(&mut self, worths: &[f64]) {
        let mut by_row: Vec<[Option<f64>; 2]> = vec![[None; 2]; self.shifts.len()];
        for (k, &worth) in self.kept.iter_mut().zip(worths) {
            k.worth.push(worth);
            by_row[k.row][k.game] = Some(worth);
        }
        for (shift, pair) in self.shifts.iter_mut().zip(by_row) {
            if let (Some(shift), [Some(base), Some(variant)]) = (shift, pair) {
                shift.push(variant - base);
            }
        }
    }
}
