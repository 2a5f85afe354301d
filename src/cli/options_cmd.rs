//! `rpsdsl options`: a game's options, typed and described.

use std::path::Path;
use std::process::ExitCode;

use rpsdsl::check;

use super::load;

pub fn options(file: &Path) -> ExitCode {
    let Some(checked) = load(file) else {
        return ExitCode::from(1);
    };
    let def = checked.def;
    if def.options.is_empty() {
        say!("{} has no options", def.name);
    }
    for option in &def.options {
        say!(
            "{:20} {:40} default {:10} {}",
            option.name,
            check::describe_option_type(&option.ty),
            option.default.render(&option.ty),
            option.description
        );
    }
    ExitCode::SUCCESS
}
