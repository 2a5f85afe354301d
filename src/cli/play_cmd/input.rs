//! Where the person's answers come from: a line editor at a terminal
//! (history, editing, Tab to complete a choice's name), or plain lines from a
//! pipe or a file, echoed so the output reads as a conversation.

use std::borrow::Cow;
use std::io::{self, BufRead, Write};

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::MemHistory;
use rustyline::validate::Validator;
use rustyline::{Config, Context, Editor, Helper};

use super::typed::completions;

/// Reads the person's answers, one line at a time.
pub(crate) trait Answers {
    /// Shows `prompt` and returns the next line typed, `choices` being what
    /// Tab may complete; `None` when the input has ended.
    fn answer(&mut self, out: &mut dyn Write, prompt: &str, choices: &[String]) -> io::Result<Option<String>>;
}

/// Lines from a pipe or a file, each echoed after the prompt when `echo`
/// (the input is not a terminal, so nothing else shows what was typed).
pub(crate) struct Lines<R> {
    pub(crate) input: R,
    pub(crate) echo: bool,
}

impl<R: BufRead> Answers for Lines<R> {
    fn answer(&mut self, out: &mut dyn Write, prompt: &str, _: &[String]) -> io::Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut bytes = vec![];
        if self.input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        // Bytes that are not UTF-8 become `�`, to be refused like any other
        // bad entry.
        let line = String::from_utf8_lossy(&bytes).into_owned();
        if self.echo {
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(Some(line))
    }
}

/// A line editor on the terminal: arrows, Ctrl-R and the other readline keys
/// edit the line and recall earlier answers; Tab completes a choice's name.
pub(crate) struct Terminal {
    editor: Editor<ChoiceNames, MemHistory>,
}

impl Terminal {
    /// A line editor, or `None` where the terminal cannot have one.
    pub(crate) fn new() -> Option<Self> {
        let config = Config::builder().auto_add_history(true).build();
        let mut editor = Editor::with_history(config, MemHistory::new()).ok()?;
        editor.set_helper(Some(ChoiceNames(vec![])));
        Some(Self { editor })
    }
}

impl Answers for Terminal {
    fn answer(&mut self, out: &mut dyn Write, prompt: &str, choices: &[String]) -> io::Result<Option<String>> {
        // What was printed before the prompt must show before the editor
        // takes the terminal.
        out.flush()?;
        if let Some(helper) = self.editor.helper_mut() {
            helper.0 = choices.to_vec();
        }
        match self.editor.readline(prompt) {
            Ok(line) => Ok(Some(line)),
            // Ctrl-D and Ctrl-C: the person has gone, as at the end of a pipe.
            Err(ReadlineError::Eof | ReadlineError::Interrupted) => Ok(None),
            Err(ReadlineError::Io(error)) => Err(error),
            Err(other) => Err(io::Error::other(other)),
        }
    }
}

/// The names of the choices at the prompt, for Tab.
struct ChoiceNames(Vec<String>);

impl Completer for ChoiceNames {
    type Candidate = String;

    fn complete(&self, line: &str, pos: usize, _: &Context<'_>) -> rustyline::Result<(usize, Vec<String>)> {
        // A name may have spaces ("claim the face-up token"): the whole line
        // up to the cursor is the start of one.
        Ok((0, completions(&self.0, &line[..pos])))
    }
}

impl Hinter for ChoiceNames {
    type Hint = String;
}

impl Highlighter for ChoiceNames {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(&'s self, prompt: &'p str, _: bool) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for ChoiceNames {}

impl Helper for ChoiceNames {}
