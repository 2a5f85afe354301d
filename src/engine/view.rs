//! Per-player views: what one seat may know, and nothing else.

use super::State;
use crate::ir::{GameDef, KindId, PieceId, Seat, TypeId};

/// A piece as a player sees it. It carries no piece number, so a hidden
/// piece cannot be looked up in the definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceFace {
    pub ty: TypeId,
    pub kind: Option<KindId>,
    pub value: i64,
    pub owner: Option<Seat>,
}

/// One seat's observation of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub seat: Seat,
    /// Per zone, top first: `Some` for a piece the seat knows, `None` for a
    /// piece it does not.
    pub zones: Vec<Vec<Option<PieceFace>>>,
    pub vars: Vec<i64>,
    pub options: Vec<i64>,
}

impl State {
    /// Everything `seat` may know.
    pub fn view(&self, def: &GameDef, seat: Seat) -> View {
        let zones = (0..def.zones.len())
            .map(|z| {
                self.zone(z as u16)
                    .map(|p| self.knows(seat, p).then(|| face(def, p)))
                    .collect()
            })
            .collect();
        View {
            seat,
            zones,
            vars: self.vars.clone(),
            options: self.options.clone(),
        }
    }
}

fn face(def: &GameDef, piece: PieceId) -> PieceFace {
    let p = &def.pieces[piece as usize];
    PieceFace {
        ty: p.ty,
        kind: p.kind,
        value: p.value,
        owner: p.owner,
    }
}
