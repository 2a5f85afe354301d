//! `rpsdsl print`: a print-and-play sheet of every component of a game,
//! laid out by [`crate::render::sheet`] on A4 pages.
//!
//! The components are the pieces a game of these options holds once it is
//! set up (a piece its `when` or the options leave out is not printed),
//! each face shown whole, in the order the rules declare them.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::engine::{PieceFace, State};
use crate::ir::PieceId;
use crate::render::{self, Component};

use super::report;
use super::setup::load_game;

/// The pages as the file's extension asks: one HTML page that prints a
/// sheet per page (`.html`), or one SVG with the pages one under another.
fn document(pages: &[String], title: &str, html: bool) -> String {
    if html {
        let body: String = pages
            .iter()
            .map(|page| format!("<div class=\"page\">{page}</div>\n"))
            .collect();
        return format!(
            "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{}</title>\n<style>\n@page {{ size: A4; \
             margin: 0 }}\nbody {{ margin: 0; background: #ddd }}\n.page {{ width: 210mm; height: 297mm; margin: 0 \
             auto 8mm; background: #fff; break-after: page }}\n.page svg {{ display: block }}\n@media print {{ body \
             {{ background: none }} .page {{ margin: 0 }} }}\n</style></head><body>\n{body}</body></html>\n",
            escape(title)
        );
    }
    // One document, the pages stacked, each keeping its own size.
    let (width, height) = (210.0, 297.0);
    let gap = 10.0;
    let total = pages.len() as f64 * height + (pages.len().saturating_sub(1)) as f64 * gap;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}mm\" height=\"{total}mm\" viewBox=\"0 0 {width} \
         {total}\">\n<rect width=\"{width}\" height=\"{total}\" fill=\"#dddddd\"/>\n"
    );
    for (i, page) in pages.iter().enumerate() {
        let y = i as f64 * (height + gap);
        // A page is a whole <svg> document: nested, it keeps its viewBox,
        // and its size is in the outer document's units (millimetres).
        let nested = page
            .replacen("<svg ", &format!("<svg x=\"0\" y=\"{y}\" "), 1)
            .replacen("height=\"297mm\"", "height=\"297\"", 1)
            .replacen("width=\"210mm\"", "width=\"210\"", 1);
        out.push_str(&nested);
        out.push('\n');
    }
    out.push_str("</svg>\n");
    out
}

/// `<`, `>`, `&` and `"` as HTML writes them.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

pub(crate) fn print(file: &Path, settings: &[String], out: Option<&PathBuf>) -> ExitCode {
    let (game, _) = match load_game(file, settings, None) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let def = &game.def;
    // The pieces in the game: set up, every one not left in the box.
    let state = match State::start(def, &game.options, 1, vec![], &mut vec![]) {
        Ok(state) => state,
        Err(diagnostic) => {
            report(&[*diagnostic], &def.sources);
            return ExitCode::from(1);
        }
    };
    let boxed = def.families[0].first;
    let mut pieces: Vec<PieceId> = def
        .zone_ids()
        .filter(|&z| z != boxed)
        .flat_map(|z| state.zone(z).collect::<Vec<_>>())
        .collect();
    pieces.sort_unstable();
    let option_values: Vec<i64> = game.options.iter().map(|o| o.as_i64()).collect();
    let components: Vec<Component> = pieces
        .iter()
        .map(|&piece| {
            let p = &def.pieces[piece as usize];
            Component {
                face: PieceFace::of(def, piece),
                die: p
                    .faces
                    .map(|(low, high)| (low.resolve(&option_values), high.resolve(&option_values))),
            }
        })
        .collect();
    let source = crate::text::printable_string(&file.display().to_string());
    let pages = render::sheet(def, &components, &source);
    let html = out.is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("html")));
    let text = document(&pages, &def.name, html);
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("error: cannot write `{}`: {e}", path.display());
                return ExitCode::from(1);
            }
            eprintln!(
                "print: {} component{} on {} page{} in {}",
                components.len(),
                if components.len() == 1 { "" } else { "s" },
                pages.len(),
                if pages.len() == 1 { "" } else { "s" },
                path.display()
            );
        }
        None => say!("{}", text.trim_end()),
    }
    ExitCode::SUCCESS
}
