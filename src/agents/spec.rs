//! The `--agents` spec: `mcts:iterations=2000,human-like` or `random,greedy`.
//!
//! ```text
//! spec   = agent ("," agent)*             one per seat, or one for every seat
//! agent  = name (":" param)*              mcts:iterations=500:c=1.2
//!        | name "(" param (":" param)* ")"  mcts(iterations=500:c=1.2)
//! param  = key "=" value                  a value may itself be an agent
//!                                         in parentheses form: fallback=mcts(iterations=200)
//! ```

use super::error::AgentError;
use crate::diagnostic::Code;

/// How deep agents may nest as parameters' values
/// (`human-like:fallback=human-like(fallback=...)`). The spec is checked
/// for this before any agent is built, so building never recurses deeper.
pub const MAX_NESTING: usize = 8;

/// One agent of a spec: its name and its parameters, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent's name (`mcts`).
    pub name: String,
    /// Its parameters, `(key, value)` in the order written; a value may be an agent spec itself.
    pub params: Vec<(String, String)>,
}

impl AgentSpec {
    /// The spec back in text, as a transcript names the agent.
    pub(crate) fn to_text(&self) -> String {
        if self.params.is_empty() {
            return self.name.clone();
        }
        let params: Vec<String> = self.params.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{}:{}", self.name, params.join(":"))
    }
}

/// Splits `text` at `sep` where it is not inside parentheses; refuses
/// parentheses nested deeper than [`MAX_NESTING`].
fn split_top(text: &str, sep: char) -> Result<Vec<&str>, AgentError> {
    let mut parts = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth as usize > MAX_NESTING {
                    let shown: String = text.chars().take(40).collect();
                    let more = if shown.len() < text.len() { "..." } else { "" };
                    return Err(AgentError::new(
                        Code::BadAgentSpec,
                        format!("`{shown}{more}`: agents are nested more than {MAX_NESTING} deep"),
                        text,
                    )
                    .help(format!(
                        "a parameter's agent may hold another at most {MAX_NESTING} levels down"
                    )));
                }
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err(AgentError::new(
                        Code::BadAgentSpec,
                        format!("`{text}`: a `)` without its `(`"),
                        text,
                    ));
                }
            }
            c if c == sep && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(
            AgentError::new(Code::BadAgentSpec, format!("`{text}`: a `(` is not closed"), text)
                .help("close it: `mcts(iterations=500)`"),
        );
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// Parses one agent: `mcts:iterations=500` or `mcts(iterations=500)`.
pub(crate) fn parse_agent(text: &str) -> Result<AgentSpec, AgentError> {
    let text = text.trim();
    let (name, params): (&str, Vec<&str>) = if let Some(open) = text.find('(')
        && text.find(':').is_none_or(|colon| open < colon)
    {
        if !text.ends_with(')') {
            return Err(AgentError::new(
                Code::BadAgentSpec,
                format!("`{text}`: expected `name(key=value:...)`"),
                text,
            ));
        }
        let inner = &text[open + 1..text.len() - 1];
        (&text[..open], split_top(inner, ':')?)
    } else {
        let mut parts = split_top(text, ':')?;
        let name = parts.remove(0);
        (name, parts)
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(
            AgentError::new(Code::BadAgentSpec, format!("`{text}`: an agent needs a name"), text)
                .help("name an agent first, e.g. `mcts:iterations=500`; `rpsdsl agents` lists them"),
        );
    }
    let mut out = AgentSpec {
        name: name.to_string(),
        params: vec![],
    };
    for (i, param) in params.into_iter().map(str::trim).filter(|p| !p.is_empty()).enumerate() {
        // `policy:FILE`: a player of a file names it first, without a key.
        if i == 0 && name == "policy" && !param.contains('=') {
            out.params.push(("file".into(), param.to_string()));
            continue;
        }
        let Some((key, value)) = param.split_once('=') else {
            return Err(AgentError::new(
                Code::BadAgentSpec,
                format!("`{param}` in `{text}` is not key=value"),
                param,
            )
            .help(format!("write e.g. `{name}:seed=7`")));
        };
        out.params.push((key.trim().to_string(), value.trim().to_string()));
    }
    Ok(out)
}

/// Parses a whole spec into one agent per entry.
pub(crate) fn parse_spec(spec: &str) -> Result<Vec<AgentSpec>, AgentError> {
    let parts = split_top(spec, ',')?;
    let agents: Vec<AgentSpec> = parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .map(parse_agent)
        .collect::<Result<_, _>>()?;
    if agents.is_empty() {
        return Err(AgentError::new(Code::BadAgentSpec, "no agent given", "")
            .help("e.g. `--agents random` or `--agents mcts,random`"));
    }
    Ok(agents)
}

/// A parameter's documentation, for `rpsdsl agents`.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// The key (`iterations`).
    pub name: &'static str,
    /// The value used when the parameter is not given.
    pub default: &'static str,
    /// What the parameter does, in one line.
    pub about: &'static str,
    /// The values it accepts: what is checked, and what `rpsdsl agents` shows.
    pub domain: Domain,
}

/// The values a parameter accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Domain {
    /// A whole number from the first to the second, both included.
    Whole(u64, u64),
    /// A number from the first to the second, both included.
    Number(f64, f64),
    /// Three shares written `a/b/c`, each 0 or more and not all 0.
    Shares,
    /// `true` or `false`.
    Bool,
    /// Another agent's spec.
    Agent,
    /// A file's path.
    Path,
    /// One of these words.
    OneOf(&'static [&'static str]),
}

impl std::fmt::Display for Domain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Domain::Whole(0, u64::MAX) => write!(f, "any whole number from 0"),
            Domain::Whole(lo, hi) => write!(f, "a whole number from {lo} to {hi}"),
            Domain::Number(lo, hi) => write!(f, "a number from {lo} to {hi}"),
            Domain::Shares => write!(f, "three numbers written a/b/c, each 0 or more, e.g. .5/.25/.25"),
            Domain::Bool => write!(f, "true or false"),
            Domain::Agent => write!(f, "an agent, e.g. greedy or mcts(iterations=200)"),
            Domain::Path => write!(f, "a file's path"),
            Domain::OneOf(words) => write!(f, "one of {}", words.join(", ")),
        }
    }
}

/// An agent's documentation, for `rpsdsl agents`.
#[derive(Clone, Copy, Debug)]
pub struct AgentInfo {
    /// The name an `--agents` spec uses (`mcts`).
    pub name: &'static str,
    /// What the agent does, in one line.
    pub about: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// Reads typed parameter values, refusing unknown keys.
pub(crate) struct Params<'a> {
    agent: &'a str,
    known: &'static [ParamInfo],
    given: &'a [(String, String)],
}

impl<'a> Params<'a> {
    pub(crate) fn new(spec: &'a AgentSpec, info: &AgentInfo) -> Result<Self, AgentError> {
        for (key, _) in &spec.params {
            if !info.params.iter().any(|p| p.name == key) {
                let names: Vec<&str> = info.params.iter().map(|p| p.name).collect();
                let near = names
                    .iter()
                    .map(|n| (strsim::levenshtein(n, key), *n))
                    .min()
                    .filter(|(d, _)| *d <= 2)
                    .map(|(_, n)| format!("did you mean `{n}`? "))
                    .unwrap_or_default();
                let help = if names.is_empty() {
                    format!("`{}` takes no parameters", info.name)
                } else {
                    format!("{near}its parameters are {}", names.join(", "))
                };
                return Err(AgentError::new(
                    Code::BadAgentParameter,
                    format!("`{}` has no parameter `{key}`", info.name),
                    key.as_str(),
                )
                .help(help));
            }
        }
        Ok(Params {
            agent: info.name,
            known: info.params,
            given: &spec.params,
        })
    }

    /// The value written for `key`, if any.
    pub(crate) fn raw(&self, key: &str) -> Option<&'a str> {
        debug_assert!(self.known.iter().any(|p| p.name == key), "undocumented parameter {key}");
        self.given.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// A file parameter (`Domain::Path`) as the path to open: as given,
    /// unless [`confine_files`] set a folder, where it must stay inside it
    /// ([`crate::input::inside_folder`]) and is taken from it.
    pub(crate) fn path(&self, key: &str) -> Result<Option<std::path::PathBuf>, AgentError> {
        let Some(value) = self.raw(key) else {
            return Ok(None);
        };
        match FILE_ROOT.get() {
            None => Ok(Some(std::path::PathBuf::from(value))),
            Some(root) => crate::input::inside_folder(root, value, "the studio's folder")
                .map(Some)
                .map_err(|why| {
                    AgentError::new(
                        Code::BadAgentParameter,
                        format!("`{}:{key}={value}`: {why}", self.agent),
                        value,
                    )
                }),
        }
    }

    fn bad(&self, key: &str, value: &str, wanted: &str) -> AgentError {
        AgentError::new(
            Code::BadAgentParameter,
            format!("`{}:{key}={value}`: {key} must be {wanted}", self.agent),
            format!("{key}={value}"),
        )
        .help("`rpsdsl agents` lists every parameter's values")
    }

    /// The documented domain of `key`.
    fn domain(&self, key: &str) -> Domain {
        self.known
            .iter()
            .find(|p| p.name == key)
            .map(|p| p.domain)
            .expect("a documented parameter")
    }

    /// A whole number within the parameter's [`Domain::Whole`] range.
    pub(crate) fn u64(&self, key: &str) -> Result<Option<u64>, AgentError> {
        let domain = self.domain(key);
        let Domain::Whole(lo, hi) = domain else {
            unreachable!("`{key}` is not a whole number");
        };
        self.raw(key)
            .map(|v| match v.trim_end_matches("ms").replace('_', "").parse::<u64>() {
                Ok(x) if (lo..=hi).contains(&x) => Ok(x),
                _ => Err(self.bad(key, v, &domain.to_string())),
            })
            .transpose()
    }

    /// A number within the parameter's [`Domain::Number`] range.
    pub(crate) fn f64(&self, key: &str) -> Result<Option<f64>, AgentError> {
        let domain = self.domain(key);
        let Domain::Number(lo, hi) = domain else {
            unreachable!("`{key}` is not a number");
        };
        self.raw(key)
            .map(|v| match v.parse::<f64>() {
                Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(x),
                _ => Err(self.bad(key, v, &domain.to_string())),
            })
            .transpose()
    }

    pub(crate) fn bool(&self, key: &str) -> Result<Option<bool>, AgentError> {
        self.raw(key)
            .map(|v| match v {
                "true" | "yes" | "on" | "1" => Ok(true),
                "false" | "no" | "off" | "0" => Ok(false),
                _ => Err(self.bad(key, v, "true or false")),
            })
            .transpose()
    }

    /// One of the words of the parameter's [`Domain::OneOf`].
    pub(crate) fn word(&self, key: &str) -> Result<Option<&'a str>, AgentError> {
        let Domain::OneOf(words) = self.domain(key) else {
            unreachable!("`{key}` is not one of some words");
        };
        self.raw(key)
            .map(|v| {
                words
                    .contains(&v)
                    .then_some(v)
                    .ok_or_else(|| self.bad(key, v, &format!("one of {}", words.join(", "))))
            })
            .transpose()
    }

    /// Three probabilities written `a/b/c`; they are normalised to sum to 1.
    pub(crate) fn triple(&self, key: &str) -> Result<Option<[f64; 3]>, AgentError> {
        let Some(v) = self.raw(key) else {
            return Ok(None);
        };
        let parts: Vec<f64> = v
            .split('/')
            .map(|p| p.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| self.bad(key, v, &Domain::Shares.to_string()))?;
        let sum: f64 = parts.iter().sum();
        if parts.len() != 3 || parts.iter().any(|p| !p.is_finite() || *p < 0.0) || !(sum > 0.0 && sum.is_finite()) {
            return Err(self.bad(key, v, &Domain::Shares.to_string()));
        }
        Ok(Some([parts[0] / sum, parts[1] / sum, parts[2] / sum]))
    }
}

/// The folder every agent's file must lie in, when one is set.
static FILE_ROOT: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Confines the files agents read and write (`policy:FILE`, `solve:save=`)
/// to `root`, for the rest of the process. The studio sets it at start, so
/// a request can never make it read or write outside its folder; the
/// command line does not, and reads and writes where its user says.
pub fn confine_files(root: &std::path::Path) {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let _ = FILE_ROOT.set(root);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_by_seat_and_parameter() {
        let agents = parse_spec("mcts:iterations=2000:c=0.5,human-like").unwrap();
        assert_eq!(agents.len(), 2);
        assert_eq!(agents[0].name, "mcts");
        assert_eq!(
            agents[0].params,
            vec![("iterations".into(), "2000".into()), ("c".into(), "0.5".into())]
        );
        assert_eq!(agents[1].name, "human-like");
        let nested = parse_spec("human-like:fallback=mcts(iterations=50:c=1),random").unwrap();
        assert_eq!(nested[0].params[0].1, "mcts(iterations=50:c=1)");
        let inner = parse_agent(&nested[0].params[0].1).unwrap();
        assert_eq!(inner.name, "mcts");
        assert_eq!(inner.params.len(), 2);
        assert!(parse_spec("mcts(iterations=5").is_err());
        assert!(parse_spec("mcts:iterations").is_err());
    }

    #[test]
    fn nesting_is_refused_past_the_limit_without_recursing() {
        let nest = |depth: usize| {
            let mut spec = "random".to_string();
            for _ in 0..depth {
                spec = format!("human-like(fallback={spec})");
            }
            spec
        };
        assert!(parse_spec(&nest(MAX_NESTING)).is_ok());
        let error = parse_spec(&nest(100_000)).unwrap_err();
        assert!(
            error.message.contains(&format!("more than {MAX_NESTING} deep")),
            "{error}"
        );
    }
}
