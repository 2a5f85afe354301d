//! The steps every game loop shares: an agent's choice from its seat's
//! view, telling the agents what happens, and a decision written as a
//! scenario's line. [`super::Turns`] is made of them, and the fast loops of
//! `sim` and `solve` use them too.

use crate::agents::Agent;
use crate::engine::{Choice, Event, Game, Observation, Seen, State};
use crate::ir::{ChoiceValue, GameDef, Seat};

/// One decision as a scenario scripts it, `"Seat: choice"` (in a race
/// `"Seat: choice @ 420ms"`), for [`Record::decisions`].
pub(crate) fn decision_line(def: &GameDef, decision: u16, choice: &Choice) -> String {
    let mut line = format!(
        "{}: {}",
        def.seat_name(choice.seat),
        def.choice_label(decision, choice.value)
    );
    // Silence is no call and has no time (see `scripted_choice`).
    if def.decisions[decision as usize].race && !ChoiceValue::from_raw(choice.value).is_none() {
        line.push_str(&format!(" @ {}ms", choice.reaction_ms));
    }
    line
}

/// An agent's answer to a pending decision, with a reaction time in a race.
/// The agent sees only `seat`'s observation of `state`.
pub fn agent_choice(
    def: &Game,
    state: &State,
    decision: u16,
    seat: Seat,
    legal: &[i64],
    agent: &mut dyn Agent,
) -> Choice {
    let obs = Observation::new(def, state, seat);
    let index = agent.choose(def, &obs).min(legal.len() - 1);
    answer(def, &obs, decision, legal, index, agent)
}

/// [`agent_choice`] under restricted play: the agent picks among the
/// choices `allowed` marks, at least one of which must be. `None`: the
/// agent cannot be restricted ([`Agent::choose_allowed`]).
pub fn agent_choice_allowed(
    def: &Game,
    state: &State,
    (decision, seat): (u16, Seat),
    legal: &[i64],
    allowed: &[bool],
    agent: &mut dyn Agent,
) -> Option<Choice> {
    let obs = Observation::new(def, state, seat);
    let index = agent.choose_allowed(def, &obs, allowed)?.min(legal.len() - 1);
    Some(answer(def, &obs, decision, legal, index, agent))
}

/// The choice at `index`, with the agent's reaction time in a race.
fn answer(
    def: &Game,
    obs: &Observation<'_>,
    decision: u16,
    legal: &[i64],
    index: usize,
    agent: &mut dyn Agent,
) -> Choice {
    let reaction_ms = if def.decisions[decision as usize].race {
        agent.reaction_ms(def, obs, index)
    } else {
        0
    };
    Choice {
        seat: obs.seat(),
        value: legal[index],
        reaction_ms,
    }
}

/// Tells every agent the step about to be taken at `state`'s pending
/// decision, `choices` being every answering seat's: call it just before
/// `state.apply(choices)`.
pub fn tell_choices(def: &Game, state: &State, choices: &[Choice], agents: &mut [Box<dyn Agent>]) {
    for (seat, agent) in agents.iter_mut().enumerate() {
        agent.before_step(def, &Observation::new(def, state, seat as Seat), choices);
    }
}

/// Tells every agent what its seat saw in one step (`events`).
pub fn tell_agents(def: &GameDef, events: &[Event], agents: &mut [Box<dyn Agent>]) {
    for (seat, agent) in agents.iter_mut().enumerate() {
        agent.observe(def, &Seen::new(def, events, seat as Seat));
    }
}
