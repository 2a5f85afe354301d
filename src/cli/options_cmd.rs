//! `rpsdsl options`: a game's options, typed and described, with the values a
//! house-rules file sets.

use std::path::Path;
use std::process::ExitCode;

use crate::check;

use super::setup::load_game;

pub(crate) fn options(file: &Path) -> ExitCode {
    let (game, _) = match load_game(file, &[], None) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let def = &game.def;
    if def.options.is_empty() {
        say!("{} has no options", def.name);
        return ExitCode::SUCCESS;
    }
    let rows: Vec<[String; 4]> = def
        .options
        .iter()
        .zip(&game.options)
        .map(|(option, value)| {
            let mut shown = option.default.render(&option.ty);
            if *value != option.default {
                shown = format!("{} (default {shown})", value.render(&option.ty));
            }
            [
                option.name.clone(),
                check::describe_option_type(&option.ty),
                shown,
                option.description.clone(),
            ]
        })
        .collect();
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let (w0, w1, w2) = (width(0), width(1), width(2));
    say!("{:w0$}  {:w1$}  {:w2$}  description", "option", "type", "value");
    for [name, ty, value, description] in &rows {
        say!("{name:w0$}  {ty:w1$}  {value:w2$}  {description}");
    }
    ExitCode::SUCCESS
}
