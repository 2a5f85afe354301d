//! `rpsdsl options`: a game's options, typed and described, with the values a
//! house-rules file sets.

use std::path::Path;
use std::process::ExitCode;

use comfy_table::{ContentArrangement, Table, presets};

use crate::check;

use super::setup::load_game;
use super::term;

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
    let rows = def.options.iter().zip(&game.options).map(|(option, value)| {
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
    });
    let mut table = Table::new();
    table
        .load_style(presets::NOTHING)
        .set_header(["option", "type", "value", "description"])
        .add_rows(rows);
    // On a terminal the descriptions wrap to its width; in a pipe or a file
    // every option stays on one line, whatever the width.
    if let Some(width) = term::stdout_width() {
        table
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(u16::try_from(width).unwrap_or(u16::MAX));
    }
    for column in table.column_iter_mut() {
        column.set_padding((0, 2));
    }
    say!("{}", table.trim_fmt());
    ExitCode::SUCCESS
}
