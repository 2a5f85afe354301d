//! Who sits where: the person's seat from `--seat`, agents for the others
//! from `--agents`.

use crate::agents::{self, Agent, AgentError};
use crate::diagnostic::Code;
use crate::engine::Game;
use crate::engine::Observation;
use crate::ir::{GameDef, Seat};

/// `--seat 2` or `--seat Blue`.
pub(crate) fn parse_seat(def: &GameDef, seat: &str) -> Result<Seat, String> {
    if let Ok(n) = seat.trim().parse::<usize>()
        && (1..=def.players()).contains(&n)
    {
        return Ok((n - 1) as Seat);
    }
    def.seats
        .iter()
        .position(|s| s.eq_ignore_ascii_case(seat.trim()))
        .map(|s| s as Seat)
        .ok_or_else(|| {
            format!(
                "`--seat {seat}`: expected a seat number from 1 to {}, or a seat name ({})",
                def.players(),
                def.seats.join(", ")
            )
        })
}

/// Stands in the person's seat among the agents, so that agents stay
/// indexed by seat for [`crate::session::tell_agents`]. Never asked to choose.
struct Person;

impl Agent for Person {
    fn name(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, _def: &Game, _obs: &Observation<'_>) -> usize {
        0
    }
}

/// One agent per seat from `--agents`: one spec for every other seat, or
/// one per seat with `human` at the person's.
pub(crate) fn players(
    def: &crate::engine::Game,
    options: &[crate::ir::OptionValue],
    human: Seat,
    spec: &str,
    seed: u64,
) -> Result<Vec<Box<dyn Agent>>, AgentError> {
    let specs = agents::spec::parse_spec(spec)?;
    let you = format!("seat {}, {}", human + 1, def.seat_name(human));
    let is_human = |s: &agents::AgentSpec| s.name.eq_ignore_ascii_case("human");
    let mistake = |message: String, at: &str| AgentError::new(Code::BadAgentSpec, message, at);
    if specs.len() == 1 && is_human(&specs[0]) {
        return Err(mistake(format!("you are the person here ({you})"), "")
            .help("name the agents for the other seats, e.g. `--agents random`"));
    }
    if specs.len() != 1 && specs.len() != def.players() {
        return Err(
            mistake(format!("{} agents for {} seats", specs.len(), def.players()), "").help(format!(
                "give one agent for every other seat, or one per seat with `human` for yours ({you})"
            )),
        );
    }
    if specs.len() > 1 {
        if !is_human(&specs[human as usize]) {
            return Err(mistake(format!("write `human` for your own seat ({you})"), "")
                .help(format!("e.g. `--agents {}`", example_spec(def, human))));
        }
        if let Some(s) = (0..specs.len()).find(|&s| s != human as usize && is_human(&specs[s])) {
            return Err(mistake(
                format!(
                    "only one person plays, at {you}; seat {} ({}) needs an agent",
                    s + 1,
                    def.seat_name(s as Seat)
                ),
                "",
            )
            .help("write an agent there, e.g. `random`; `rpsdsl agents` lists them"));
        }
    }
    (0..def.players())
        .map(|s| {
            if s == human as usize {
                return Ok(Box::new(Person) as Box<dyn Agent>);
            }
            let spec = specs.get(s).filter(|_| specs.len() > 1).unwrap_or(&specs[0]);
            agents::build(spec, Some((def, options)), s as Seat, seed)
        })
        .collect()
}

/// `human,random` with `human` at the person's seat.
fn example_spec(def: &GameDef, human: Seat) -> String {
    let seats: Vec<&str> = (0..def.players())
        .map(|s| if s == human as usize { "human" } else { "random" })
        .collect();
    seats.join(",")
}
