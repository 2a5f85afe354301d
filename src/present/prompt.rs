//! The prompt of a seat's decision: whose, what kind of decision, a note
//! on how it is taken, and each legal choice as the seat reads it, with
//! the places on the table it points at (for a face that can be clicked).

use crate::engine::Game;
use crate::engine::{Observation, State};
use crate::ir::{ChoiceKind, ChoiceValue, DecodedChoice, FamilyIndex, GameDef, PieceId, Seat, ZoneId};

/// One seat's decision, as the seat reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// The seat asked.
    pub seat: Seat,
    /// The seat's name.
    pub seat_name: String,
    /// "choose an action:", "choose hand:", "call flip!".
    pub what: String,
    /// How the decision is taken, when that is worth saying (in secret, at once, a race).
    pub note: Option<Note>,
    /// Whether the decision is a race: the answer's reaction time counts.
    pub race: bool,
    /// Whether the choices are numbers (typed, not picked from a list).
    pub numbers: bool,
    /// The legal choices, in the engine's order (an answer is an index into them).
    pub offers: Vec<Offer>,
}

/// How a decision is taken, when that is worth saying.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// A race: the reaction time counts.
    Race,
    /// Every seat asked chooses at once, and nobody sees the others' choices.
    AtOnceInSecret,
    /// Every seat asked chooses at once; the choices are seen after.
    AtOnce,
    /// Only the seat sees its choice.
    Secret,
}

/// How a person answers the prompt: the note says how a race's clock stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Typing, then Enter (the terminal's `play`).
    Keyboard,
    /// Clicking (the studio).
    Pointer,
}

impl Note {
    /// The note as a person answering with `input` reads it.
    pub fn text(self, input: Input) -> &'static str {
        match (self, input) {
            (Note::Race, Input::Keyboard) => "a race: the clock runs from this prompt until you press Enter",
            (Note::Race, Input::Pointer) => "a race: the clock runs from this prompt until you click",
            (Note::AtOnceInSecret, _) => "everyone chooses at once, in secret",
            (Note::AtOnce, _) => "everyone chooses at once; you see the others' choices after",
            (Note::Secret, _) => "secret: only you see it",
        }
    }
}

/// One legal choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// The choice as the seat reads it: pieces it does not know by their backs.
    pub label: String,
    /// The names a person may type for it: its label and, for a kind, the kind's own name.
    pub names: Vec<String>,
    /// An `anytime` action offered beside the decision.
    pub anytime: bool,
    /// The places it points at, in the order it names them, without
    /// repeats: the pieces it moves or takes, the spaces it names.
    pub places: Vec<Place>,
}

/// A place on the table a choice can point at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// A space of a board (and whatever lies on it).
    Space {
        /// The board.
        board: u16,
        /// The space.
        space: u16,
    },
    /// A piece's position in a zone that is not on a board, top first.
    Slot {
        /// The zone.
        zone: ZoneId,
        /// The position, top first, as in the seat's view.
        index: usize,
    },
}

impl Place {
    /// The name the pictures give this place (see
    /// [`crate::render::space_target`] and [`crate::render::slot_target`]).
    pub fn target(&self) -> String {
        match *self {
            Place::Space { board, space } => crate::render::space_target(board, space),
            Place::Slot { zone, index } => crate::render::slot_target(zone, index),
        }
    }
}

impl Prompt {
    /// `seat`'s prompt at the decision `state` is waiting for.
    pub fn new(def: &Game, state: &State, seat: Seat) -> Prompt {
        let obs = Observation::new(def, state, seat);
        let decision = obs.decision();
        let d = &def.decisions[decision as usize];
        let what = match (&d.kind, d.race) {
            (_, true) => format!("call {}!", d.name),
            (ChoiceKind::Menu(_) | ChoiceKind::Actions(_), _) => "choose an action:".to_string(),
            _ => format!("choose {}:", d.name),
        };
        let note = match (d.race, obs.is_simultaneous(), d.secret) {
            (true, _, _) => Some(Note::Race),
            (false, true, true) => Some(Note::AtOnceInSecret),
            (false, true, false) => Some(Note::AtOnce),
            (false, false, true) => Some(Note::Secret),
            (false, false, false) => None,
        };
        let legal = state.pending().map_or(&[][..], |p| p.legal(seat));
        let offers = (0..obs.legal_len())
            .map(|i| Offer {
                label: obs.label(i),
                names: obs.names(i),
                anytime: obs.is_anytime(i),
                places: places(def, state, decision, legal[i]),
            })
            .collect();
        Prompt {
            seat,
            seat_name: def.seat_name(obs.seat()).to_string(),
            what,
            note,
            race: d.race,
            numbers: d.kind == ChoiceKind::Number,
            offers,
        }
    }
}

/// The places a legal value points at: its pieces where they lie, its
/// spaces, in the order the choice names them, each once.
fn places(def: &GameDef, state: &State, decision: u16, value: i64) -> Vec<Place> {
    let kind = &def.decisions[decision as usize].kind;
    let mut out = vec![];
    match ChoiceValue::from_raw(value).decode(kind) {
        DecodedChoice::Piece(choice) => out.extend(piece_place(def, state, choice.piece)),
        DecodedChoice::Action { action, params, .. } => {
            for ((kind, _), &p) in action.params.iter().zip(&params) {
                out.extend(plain_place(def, state, kind, p));
            }
        }
        DecodedChoice::Plain(v) => out.extend(plain_place(def, state, kind, v)),
        DecodedChoice::None | DecodedChoice::Anytime(_) => {}
    }
    out.dedup();
    out
}

/// The place one parameter of a choice names, if it names one.
fn plain_place(def: &GameDef, state: &State, kind: &ChoiceKind, value: i64) -> Option<Place> {
    match kind {
        ChoiceKind::Piece => piece_place(def, state, ChoiceValue::from_raw(value).as_piece()?.piece),
        ChoiceKind::Space(board) => Some(Place::Space {
            board: *board,
            space: u16::try_from(value).ok()?,
        }),
        _ => None,
    }
}

/// Where a piece lies: its board space when its zone is a space's slot,
/// else its position in its zone. Only the position, which every seat's
/// view shows, never what the piece is.
fn piece_place(def: &GameDef, state: &State, piece: PieceId) -> Option<Place> {
    let (zone, index) = def
        .zone_ids()
        .find_map(|z| state.zone(z).position(|p| p == piece).map(|i| (z, i)))?;
    let family = def
        .families
        .iter()
        .find(|f| (f.first..f.first + f.len).contains(&zone))?;
    Some(match family.by {
        FamilyIndex::PerSpace(board) => Place::Space {
            board,
            space: zone - family.first,
        },
        _ => Place::Slot { zone, index },
    })
}

#[cfg(test)]
mod tests {
    use super::{Input, Note};

    #[test]
    fn a_race_note_says_how_the_clock_stops_for_each_input() {
        // The terminal's wording is pinned by `play`'s transcripts; the
        // studio's differs only where the answer is given differently.
        assert_eq!(
            Note::Race.text(Input::Keyboard),
            "a race: the clock runs from this prompt until you press Enter"
        );
        assert_eq!(
            Note::Race.text(Input::Pointer),
            "a race: the clock runs from this prompt until you click"
        );
        for note in [Note::AtOnceInSecret, Note::AtOnce, Note::Secret] {
            assert_eq!(note.text(Input::Keyboard), note.text(Input::Pointer));
        }
    }
}
