//! Tension: how the score race unfolds, from every seat's total after each
//! decision point (the game's score terms, as `score_now` counts them).
//! Every figure is defined in `docs/metrics.md` ("Tension").

use serde::Serialize;

use crate::sim::stats::{Moments, Rate};

/// The seat with strictly the most points, if one has.
fn sole_leader(totals: &[i64]) -> Option<usize> {
    let best = *totals.iter().max()?;
    let mut leaders = totals.iter().enumerate().filter(|&(_, &t)| t == best);
    let (seat, _) = leaders.next()?;
    leaders.next().is_none().then_some(seat)
}

/// One game's tension, from its standings (each seat's total after each
/// decision point, in order) and its winner.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTension {
    /// Times the sole leader became a different seat than the last sole leader.
    pub lead_changes: u64,
    /// The decision point (1-based) from which the winner led alone to the
    /// end, or `None` when the winner did not lead alone at the end.
    pub leads_for_good_from: Option<u64>,
    /// Decision points in the game.
    pub points: u64,
    /// The winner's final total minus the best other seat's.
    pub end_margin: i64,
    /// Decision points at which the winner had fewer points than some seat.
    pub winner_behind: u64,
}

impl GameTension {
    /// The tension of a game won by `winner`; `None` without standings.
    pub fn of(standings: &[Vec<i64>], winner: usize) -> Option<GameTension> {
        let last = standings.last()?;
        let mut lead_changes = 0;
        let mut previous: Option<usize> = None;
        let mut leads_for_good_from = None;
        let mut winner_behind = 0;
        for (i, totals) in standings.iter().enumerate() {
            let leader = sole_leader(totals);
            if let Some(seat) = leader {
                if previous.is_some_and(|p| p != seat) {
                    lead_changes += 1;
                }
                previous = Some(seat);
            }
            match leader {
                Some(seat) if seat == winner => {
                    leads_for_good_from.get_or_insert(i as u64 + 1);
                }
                _ => leads_for_good_from = None,
            }
            if totals.iter().any(|&t| t > totals[winner]) {
                winner_behind += 1;
            }
        }
        let best_other = last
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != winner)
            .map(|(_, &t)| t)
            .max()
            .unwrap_or(last[winner]);
        Some(GameTension {
            lead_changes,
            leads_for_good_from,
            points: standings.len() as u64,
            end_margin: last[winner] - best_other,
            winner_behind,
        })
    }
}

/// Tension over many games: sums that add up in any order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Tension {
    /// Games with a winner and standings.
    pub(crate) games: u64,
    pub(crate) lead_changes: Moments,
    /// Per game that the winner led alone at the end: the share of the game
    /// (in decision points) played before the winner led for good, in thousandths.
    pub(crate) decided_at: Moments,
    /// Games whose winner did not lead alone at the end (a trigger win while behind, a tie-break).
    pub(crate) never_led_alone: u64,
    pub(crate) end_margin: Moments,
    /// Per game: the share of decision points the winner was behind, in thousandths.
    pub(crate) behind_share: Moments,
    /// Games whose winner was behind at least once.
    pub(crate) comebacks: u64,
}

impl Tension {
    pub(crate) fn add(&mut self, game: &GameTension) {
        self.games += 1;
        self.lead_changes.add(game.lead_changes as i64);
        match game.leads_for_good_from {
            Some(from) => self.decided_at.add(thousandths(from - 1, game.points)),
            None => self.never_led_alone += 1,
        }
        self.end_margin.add(game.end_margin);
        self.behind_share.add(thousandths(game.winner_behind, game.points));
        self.comebacks += u64::from(game.winner_behind > 0);
    }

    /// The figures to show.
    pub(crate) fn summary(&self) -> TensionSummary {
        let mean = |m: &Moments| (m.count > 0).then(|| m.mean());
        TensionSummary {
            games: self.games,
            lead_changes: mean(&self.lead_changes),
            decided_at: mean(&self.decided_at).map(|x| x / 1000.0),
            never_led_alone: Rate::new(self.never_led_alone, self.games),
            end_margin: mean(&self.end_margin),
            drama: mean(&self.behind_share).map(|x| x / 1000.0),
            comebacks: Rate::new(self.comebacks, self.games),
        }
    }
}

fn thousandths(part: u64, whole: u64) -> i64 {
    (part * 1000).checked_div(whole).unwrap_or(0) as i64
}

/// Tension's figures: means over the games with a winner.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TensionSummary {
    /// Games counted: those with a winner.
    pub games: u64,
    /// Mean lead changes per game.
    pub lead_changes: Option<f64>,
    /// Mean share of the game played before the winner led for good (0: from the first decision).
    pub decided_at: Option<f64>,
    /// Games whose winner was not the sole leader on points at the end.
    pub never_led_alone: Rate,
    /// Mean final margin of the winner over the best other seat.
    pub end_margin: Option<f64>,
    /// Drama: the mean share of decision points at which the eventual winner was behind.
    pub drama: Option<f64>,
    /// Games whose winner was behind at least once.
    pub comebacks: Rate,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_see_saw_worked_out_by_hand() {
        // Up 2-0, Down 2-3, Up 4-3, tied 4-4, Up 5-4: Up wins.
        let standings = vec![vec![2, 0], vec![2, 3], vec![4, 3], vec![4, 4], vec![5, 4]];
        let t = GameTension::of(&standings, 0).unwrap();
        assert_eq!(t.lead_changes, 2, "Up, Down, Up; the tie changes nothing");
        assert_eq!(t.leads_for_good_from, Some(5), "the tie at 4 ends Up's lead");
        assert_eq!(t.end_margin, 1);
        assert_eq!(t.winner_behind, 1, "behind only at 2-3; a tie is not behind");
    }

    #[test]
    fn a_winner_by_trigger_while_behind_never_led_alone() {
        let standings = vec![vec![0, 0, 1], vec![0, 2, 1]];
        let t = GameTension::of(&standings, 0).unwrap();
        assert_eq!(t.leads_for_good_from, None);
        assert_eq!(t.lead_changes, 1);
        assert_eq!(t.end_margin, -2);
        assert_eq!(t.winner_behind, 2);
        let mut all = Tension::default();
        all.add(&t);
        all.add(&GameTension::of(&[vec![3, 0, 0]], 0).unwrap());
        let s = all.summary();
        assert_eq!(s.never_led_alone.count, 1);
        assert_eq!(s.decided_at, Some(0.0), "the second game's winner led from the start");
        assert_eq!(
            s.drama,
            Some(0.5),
            "behind at every point of one game, none of the other"
        );
        assert_eq!(s.comebacks.count, 1);
    }
}
