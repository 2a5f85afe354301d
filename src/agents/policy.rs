//! `policy:FILE`: a player that plays a saved strategy, such as the
//! equilibrium `rpsdsl solve --save FILE` writes.
//!
//! A policy file names, per information set, the probability of each
//! action. Sets are keyed by what the seat recalls ([`Recall`]): every view
//! it had at a decision point and every step as it saw it. The player keeps
//! its own recall as the game goes (it is told every step, see
//! [`Agent::before_step`]), so it finds its set without ever seeing what its
//! seat may not.
//!
//! A file is tied to its game: the rules' text (its hash), every option's
//! value and the build that wrote it. Any other game or build is refused
//! when the player is built, never half-played. A situation the file does
//! not hold (the solver never met it, or cut the game before it) is played
//! uniformly at random, and the player counts those.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::agent::{Agent, ForGame, Reaction, SEED_PARAM, draw, seat_rng};
use super::error::AgentError;
use super::spec::{AgentInfo, AgentSpec, Domain, ParamInfo, Params};
use crate::diagnostic::Code;
use crate::engine::{Choice, Game, Memory, Observation, Recall};
use crate::ir::{GameDef, OptionValue, Seat};

/// What a policy file says it is.
pub const FORMAT: &str = "rpsdsl policy";

/// The version of the file's layout and of its keys ([`Recall`]): a file of
/// another version is refused.
pub const VERSION: u32 = 2;

/// The build that writes and reads policy files.
pub const BUILD: &str = env!("CARGO_PKG_VERSION");

/// A saved strategy for every seat of one game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PolicyFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] when written.
    pub version: u32,
    /// [`BUILD`] when written.
    pub build: String,
    /// The game's name.
    pub game: String,
    /// The hash of the rules' text ([`rules_identity`]).
    pub rules_hash: String,
    /// Every option, `name = value`, in the rules' order.
    pub options: Vec<(String, String)>,
    /// The seats, in order.
    pub seats: Vec<String>,
    /// How the strategy was found, e.g. `CFR+, 1024 iterations`.
    pub method: String,
    /// Its exploitability, when it was measured.
    pub exploitability: Option<f64>,
    /// What its situations keep of the past: `all` (the game's information
    /// sets) or `now` (what the seat sees now, an abstraction).
    #[serde(default)]
    pub memory: Memory,
    /// The strategy, one entry per information set.
    pub situations: Vec<PolicySituation>,
}

impl PolicyFile {
    /// Writes the file to `path` as compact JSON, streamed (a strategy of
    /// many situations is never held twice in memory).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        use std::io::Write as _;
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        serde_json::to_writer(&mut out, self)?;
        out.write_all(b"\n")?;
        out.flush()
    }
}

/// One information set's strategy.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PolicySituation {
    /// The set's key, in hex ([`Recall::infoset`]).
    pub key: String,
    /// The deciding seat's name.
    pub seat: String,
    /// The decision's name.
    pub decision: String,
    /// What the seat knows there, in the game's words (for people reading
    /// the file; the key is what is matched). Written for the likeliest
    /// situations only, to keep files small; empty for the rest.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub situation: String,
    /// Each action and its probability.
    pub actions: Vec<PolicyAction>,
}

/// One action of a situation.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PolicyAction {
    /// The action, as the seat reads it (written where the situation's
    /// words are; empty elsewhere).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub action: String,
    /// The action's key, in hex: the same move in every position of the set.
    pub key: String,
    /// Its probability.
    pub p: f64,
}

/// The rules' identity a policy file is tied to: a hash of the text of every
/// rules file the game was read from (house-rules files and command-line
/// settings are options, compared as such), and every option's value.
pub fn rules_identity(def: &GameDef, options: &[OptionValue]) -> (String, Vec<(String, String)>) {
    let hash = crate::ir::rules_hash(
        def.sources
            .files
            .iter()
            .filter(|f| f.name != "command line" && !f.name.ends_with(".toml"))
            .map(|f| &*f.text),
    );
    let options = def
        .options
        .iter()
        .zip(options)
        .map(|(o, v)| (o.name.clone(), v.render(&o.ty)))
        .collect();
    (hash, options)
}

/// A policy file read and checked, ready to play.
#[derive(Debug)]
pub struct Policy {
    /// Per set key, its action keys and their probabilities.
    sets: HashMap<u64, (Vec<u64>, Vec<f64>)>,
    /// The strategy's exploitability, when the solver measured it.
    exploitability: Option<f64>,
    /// What its situations keep of the past.
    memory: Memory,
}

impl Policy {
    /// Reads the file at `path` and checks that it was written for `def`
    /// with `options` by this build.
    pub fn load(path: &Path, def: &GameDef, options: &[OptionValue]) -> Result<Policy, AgentError> {
        let shown = path.display();
        let refused = |message: String| AgentError::new(Code::BadPolicyFile, message, shown.to_string());
        // The careful reader: a device (`/dev/zero`) or a named pipe is
        // refused before it is opened, and no file is read past the cap.
        let text = crate::input::read_text(path, crate::input::RECORD_LIMIT)
            .map_err(|e| refused(format!("cannot read the policy file {shown}: {e}")))?;
        let file: PolicyFile = serde_json::from_str(&text).map_err(|e| {
            refused(format!("{shown} is not a policy file: {e}"))
                .help(format!("`rpsdsl solve RULES --save {shown}` writes one"))
        })?;
        Policy::from_file(&file, def, options).map_err(|e| AgentError {
            message: format!("{shown}: {}", e.message),
            at: shown.to_string(),
            ..e
        })
    }

    /// Checks `file` against `def` with `options` and this build.
    pub fn from_file(file: &PolicyFile, def: &GameDef, options: &[OptionValue]) -> Result<Policy, AgentError> {
        let refused = |message: String| AgentError::new(Code::BadPolicyFile, message, "");
        if file.format != FORMAT {
            return Err(refused(format!("not a policy file: its format is `{}`", file.format)));
        }
        if file.version != VERSION || file.build != BUILD {
            return Err(refused(format!(
                "written by rpsdsl {} (policy version {}), and this is rpsdsl {BUILD} (policy version {VERSION})",
                file.build, file.version
            ))
            .help("solve the game again with this build"));
        }
        let (hash, now) = rules_identity(def, options);
        if file.rules_hash != hash {
            return Err(refused(format!(
                "solved for `{}` with other rules than `{}` has now (the rules' text differs)",
                file.game, def.name
            ))
            .help("solve the game again, or play the rules it was solved for"));
        }
        if file.options != now {
            let differ: Vec<String> = now
                .iter()
                .filter(|o| !file.options.contains(o))
                .map(|(name, value)| {
                    let then = file
                        .options
                        .iter()
                        .find(|(n, _)| n == name)
                        .map_or("none", |(_, v)| v.as_str());
                    format!("{name} is {value} here but {then} in the file")
                })
                .collect();
            return Err(refused(format!("solved with other options ({})", differ.join("; ")))
                .help("play with the options it was solved for, or solve again"));
        }
        let mut sets = HashMap::with_capacity(file.situations.len());
        for s in &file.situations {
            let key = parse_key(&s.key).map_err(refused)?;
            let keys = s
                .actions
                .iter()
                .map(|a| parse_key(&a.key))
                .collect::<Result<Vec<_>, _>>()
                .map_err(refused)?;
            let probs: Vec<f64> = s.actions.iter().map(|a| a.p).collect();
            let total: f64 = probs.iter().sum();
            // A file written by hand may sum to 1 only roughly.
            if probs.iter().any(|p| !p.is_finite() || *p < 0.0) || (total - 1.0).abs() > 1e-4 {
                return Err(refused(format!(
                    "the situation `{}` has probabilities that are not a distribution (they sum to {total})",
                    if s.situation.is_empty() { &s.key } else { &s.situation }
                )));
            }
            sets.insert(key, (keys, probs.iter().map(|p| p / total).collect()));
        }
        Ok(Policy {
            sets,
            exploitability: file.exploitability,
            memory: file.memory,
        })
    }

    /// The probabilities of the set `key`'s actions, in the order of
    /// `actions` (the keys of the moves offered); `None` when the file does
    /// not hold the set, or holds other moves for it.
    pub fn probabilities(&self, key: u64, actions: &[u64]) -> Option<Vec<f64>> {
        let (keys, probs) = self.sets.get(&key)?;
        if keys.len() != actions.len() {
            return None;
        }
        actions
            .iter()
            .map(|a| keys.iter().position(|k| k == a).map(|i| probs[i]))
            .collect()
    }

    /// Information sets in the file.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    /// Whether the file holds no set.
    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

/// A key written in hex.
pub fn key_text(key: u64) -> String {
    format!("{key:016x}")
}

fn parse_key(text: &str) -> Result<u64, String> {
    u64::from_str_radix(text, 16).map_err(|_| format!("`{text}` is not a key (16 hex digits)"))
}

/// Policies read in this process, by path: a simulation builds a player per
/// game, and reads each file once (again when it changes on disk).
fn cached(path: &Path, def: &GameDef, options: &[OptionValue]) -> Result<Arc<Policy>, AgentError> {
    type Cache = Mutex<HashMap<(PathBuf, Option<std::time::SystemTime>, String), Arc<Policy>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let stamp = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let (hash, options_now) = rules_identity(def, options);
    let identity = format!("{hash} {options_now:?}");
    let key = (path.to_path_buf(), stamp, identity);
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(policy) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(policy.clone());
    }
    let policy = Arc::new(Policy::load(path, def, options)?);
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, policy.clone());
    Ok(policy)
}

/// The `policy` agent's documentation.
pub(crate) const INFO: AgentInfo = AgentInfo {
    name: "policy",
    about: "plays a saved strategy (`rpsdsl solve FILE --save P` writes one): `policy:P` or `policy(file=P)`",
    params: &[
        ParamInfo {
            name: "file",
            default: "(required)",
            about: "the policy file",
            domain: Domain::Path,
        },
        SEED_PARAM,
    ],
};

/// Plays a saved strategy.
pub struct PolicyAgent {
    /// The spec that builds it again (`policy:FILE`).
    name: String,
    policy: Arc<Policy>,
    seat: Seat,
    /// What the seat recalls, up to the last step.
    recall: Recall,
    rng: ChaCha8Rng,
    /// Decisions in situations the file does not hold (shared with
    /// whoever asked for [`PolicyAgent::missed`]).
    missed: Arc<AtomicU64>,
}

impl PolicyAgent {
    /// The player of `policy` at `seat`; `name` is the spec that builds it
    /// again (`policy:FILE`).
    pub fn new(name: String, policy: Arc<Policy>, seat: Seat, seed: u64) -> Self {
        PolicyAgent {
            name,
            policy,
            seat,
            recall: Recall::default(),
            rng: seat_rng(seed, seat),
            missed: Arc::default(),
        }
    }

    pub(crate) fn from_params(
        params: &Params<'_>,
        game: ForGame<'_>,
        seat: Seat,
        seed: u64,
    ) -> Result<Self, AgentError> {
        let (Some(path), Some(file)) = (params.raw("file"), params.path("file")?) else {
            return Err(
                AgentError::new(Code::BadAgentParameter, "`policy` needs its file", "policy")
                    .help("write `policy:FILE`; `rpsdsl solve RULES --save FILE` writes one"),
            );
        };
        let Some((def, options)) = game else {
            return Err(AgentError::new(
                Code::AgentRefused,
                "`policy` plays the strategy of one game, and no game is given here",
                "policy",
            ));
        };
        let policy = cached(&file, def, options)?;
        // `policy:FILE` unless the path would not read back that way.
        let name = if path.contains([':', ',', '=', '(', ')']) {
            AgentSpec {
                name: "policy".into(),
                params: vec![("file".into(), path.to_string())],
            }
            .to_text()
        } else {
            format!("policy:{path}")
        };
        Ok(PolicyAgent::new(name, policy, seat, seed))
    }

    /// A count of the decisions this player makes in situations the file
    /// does not hold (it plays them uniformly), which goes on counting
    /// after the player is handed to a game.
    pub fn missed(&self) -> Arc<AtomicU64> {
        self.missed.clone()
    }

    /// A player kept from one game to the next starts recalling afresh at
    /// a game's first decision point.
    fn new_game_at(&mut self, obs: &Observation<'_>) {
        if obs.decisions_taken() == 0 {
            self.recall = Recall::default();
        }
    }

    /// The probabilities at `obs`, where the seat recalls `recall` (its
    /// view there included).
    fn probabilities(&self, obs: &Observation<'_>, recall: Recall) -> Option<Vec<f64>> {
        let memory = self.policy.memory;
        if memory == Memory::Glance {
            // The strategy is over glances: the finest level of the
            // situation the file holds (it holds a finer level only where
            // training met it often). Moves that read alike share their
            // glance's probability.
            let at = obs.glance_situation();
            return at
                .levels
                .iter()
                .rev()
                .find_map(|&key| self.policy.probabilities(key, &at.moves.keys))
                .map(|p| at.moves.spread(&p));
        }
        let actions: Vec<u64> = (0..obs.legal_len()).map(|i| obs.key(i)).collect();
        let key = recall.situation(obs.decision(), self.seat, &actions, memory);
        self.policy.probabilities(key, &actions)
    }
}

impl Agent for PolicyAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, _def: &Game, obs: &Observation<'_>) -> usize {
        self.new_game_at(obs);
        let recall = obs.recall_here(self.recall, self.policy.memory);
        let p = self.probabilities(obs, recall).unwrap_or_else(|| {
            self.missed.fetch_add(1, Ordering::Relaxed);
            vec![1.0 / obs.legal_len() as f64; obs.legal_len()]
        });
        draw(&p, &mut self.rng)
    }

    fn choose_allowed(&mut self, def: &Game, obs: &Observation<'_>, allowed: &[bool]) -> Option<usize> {
        self.new_game_at(obs);
        let recall = obs.recall_here(self.recall, self.policy.memory);
        let mut p = self.policy(def, obs, recall)?;
        for (q, &ok) in p.iter_mut().zip(allowed) {
            if !ok {
                *q = 0.0;
            }
        }
        // The strategy's weight on what is left, renormalised; when it put
        // none there, the allowed choices alike.
        let total: f64 = p.iter().sum();
        if total > 0.0 {
            p.iter_mut().for_each(|q| *q /= total);
        } else {
            let count = allowed.iter().filter(|&&a| a).count().max(1) as f64;
            p = allowed.iter().map(|&a| if a { 1.0 / count } else { 0.0 }).collect();
        }
        Some(draw(&p, &mut self.rng))
    }

    fn exploitability(&self) -> Option<f64> {
        self.policy.exploitability
    }

    /// In a race, as fast as the model the solver trained with says (see
    /// `solve::run`), drawn afresh each time.
    fn reaction_ms(&mut self, _def: &GameDef, _obs: &Observation<'_>, _index: usize) -> u32 {
        Reaction::default().sample(&mut self.rng)
    }

    fn policy(&mut self, _def: &Game, obs: &Observation<'_>, recall: Recall) -> Option<Vec<f64>> {
        // Asking is not playing: only decisions count as missed.
        let n = obs.legal_len();
        // `recall` is everything the seat has seen; a strategy that keeps
        // only what the seat sees now keys it from the view alone.
        let recall = match self.policy.memory {
            Memory::All => recall,
            memory @ (Memory::Now | Memory::Glance) => obs.recall_here(Recall::default(), memory),
        };
        Some(
            self.probabilities(obs, recall)
                .unwrap_or_else(|| vec![1.0 / n as f64; n]),
        )
    }

    fn before_step(&mut self, _def: &Game, obs: &Observation<'_>, choices: &[Choice]) {
        self.new_game_at(obs);
        let memory = self.policy.memory;
        self.recall = obs
            .recall_here(self.recall, memory)
            .after_step(obs.step_key(choices), memory);
    }
}
