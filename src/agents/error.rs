//! Why no agent could be built: a diagnostic code, what is wrong, the words
//! of the spec at fault and how to fix it. The command line turns it into a
//! diagnostic that underlines those words where they stand in `--agents`;
//! anywhere else it reads as one line.

use crate::diagnostic::{Code, Diagnostic, Sources, Span};

/// An `--agents` spec that builds no agent.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentError {
    /// What kind of mistake: `bad-agent-spec`, `unknown-agent`,
    /// `bad-agent-parameter`, `bad-policy-file` or `agent-refused`.
    pub code: Code,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The words of the spec at fault, as written (empty: the whole spec).
    pub at: String,
    /// How to fix it, when there is something to say.
    pub help: Option<String>,
}

impl AgentError {
    /// A mistake of `code` in the words `at`.
    pub(crate) fn new(code: Code, message: impl Into<String>, at: impl Into<String>) -> Self {
        AgentError {
            code,
            message: message.into(),
            at: at.into(),
            help: None,
        }
    }

    /// The same, with how to fix it.
    pub(crate) fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The diagnostic for `flag SPEC` as typed (`--agents mcts:iterations=0`):
    /// the words at fault are underlined in a pseudo-file holding the
    /// command line, as a bad `--set` is.
    pub fn diagnostic(&self, flag: &str, spec: &str, sources: &mut Sources) -> Diagnostic {
        let typed = format!("{flag} {spec}");
        let offset = flag.len() + 1;
        let (start, len) = match spec.find(self.at.as_str()) {
            Some(at) if !self.at.is_empty() => (offset + at, self.at.len()),
            _ => (offset, spec.len()),
        };
        let file = sources.add("command line", typed);
        let mut diagnostic = Diagnostic::error(self.code, self.message.clone())
            .label(Span::new(file, start, start + len), label_of(self.code));
        if let Some(help) = &self.help {
            diagnostic = diagnostic.help(help.clone());
        }
        diagnostic
    }
}

/// What the underline under the words at fault says.
fn label_of(code: Code) -> &'static str {
    match code {
        Code::UnknownAgent => "no such agent",
        Code::BadAgentParameter => "this parameter",
        Code::BadPolicyFile => "this file",
        Code::AgentRefused => "this agent",
        _ => "here",
    }
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.help {
            Some(help) => write!(f, "{}; {help}", self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for AgentError {}

/// Where a caller has only a line to say, the error is its one line.
impl From<AgentError> for String {
    fn from(error: AgentError) -> String {
        error.to_string()
    }
}
