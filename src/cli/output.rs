//! What every command's output goes through: standard output that may be
//! a closed pipe, diagnostics on standard error (coloured at a terminal),
//! and the JSON records commands read back.

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::diagnostic::{self, Code, Diagnostic, Sources};

/// Ends the process after a write to standard output failed. A reader that
/// went away (`| head`) is not an error of ours: the command ends quietly
/// with success, as `cat` does under a shell that ignores SIGPIPE. Any other
/// failure (a full disk, a device error) means the output is lost, so it is
/// said, and the exit code is 1: a failure is never reported as success.
pub(crate) fn stdout_failed(error: &std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write to standard output: {error}");
    std::process::exit(1);
}

/// Writes generated text (a completion script, a man page) to stdout; a
/// closed pipe ends quietly, as with `say!`.
pub(crate) fn print_bytes(bytes: &[u8]) -> ExitCode {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    if let Err(error) = out.write_all(bytes).and_then(|()| out.flush()) {
        stdout_failed(&error);
    }
    ExitCode::SUCCESS
}

pub(crate) fn color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

pub(crate) fn report(diagnostics: &[Diagnostic], sources: &Sources) {
    eprint!("{}", diagnostic::render(diagnostics, sources, color()));
}

/// Says why `--agents SPEC` builds no agent, underlining the words at
/// fault; the exit code is 2, a usage error's.
pub(crate) fn agents_refused(spec: &str, error: &crate::agents::AgentError) -> ExitCode {
    let mut sources = Sources::default();
    let diagnostic = error.diagnostic("--agents", spec, &mut sources);
    report(&[diagnostic], &sources);
    ExitCode::from(2)
}

/// Reads a JSON record (a transcript, a report): a file that cannot be read,
/// or is not JSON at all, is reported without showing any of it.
pub(crate) fn read_record(path: &std::path::Path, code: Code, what: &str, source: &str) -> Result<String, ExitCode> {
    let mut sources = Sources::default();
    let text = crate::input::read_text(path, crate::input::RECORD_LIMIT).map_err(|error| {
        report(
            &[crate::input::unreadable(path, &error, &mut sources, "check the path")],
            &sources,
        );
        ExitCode::from(1)
    })?;
    if let Err(error) = serde_json::from_str::<serde::de::IgnoredAny>(&text) {
        let diagnostic = Diagnostic::error(
            code,
            format!(
                "`{}` is not {what}: it is not JSON (line {}, column {})",
                path.display(),
                error.line(),
                error.column()
            ),
        )
        .help(format!("give the JSON file of {what}; {source}"));
        report(&[diagnostic], &sources);
        return Err(ExitCode::from(1));
    }
    Ok(text)
}
