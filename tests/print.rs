//! `rpsdsl print`: a print-and-play sheet holds every piece the game of
//! these options has, each face whole, with what the rules say it does,
//! nine cards to an A4 page.

mod common;

use common::cli::{rpsdsl, scratch, stderr as err, stdout as out};

/// How many text elements of the sheet read exactly `text`.
fn shown(sheet: &str, text: &str) -> usize {
    sheet.matches(&format!(">\n{text}\n<")).count()
}

/// Cards drawn in a sheet.
fn cards(sheet: &str) -> usize {
    sheet.matches("class=\"card\"").count()
}

#[test]
fn every_piece_of_the_game_is_a_card_nine_to_a_page() {
    let sheet = out(&rpsdsl(&["print", "docs/examples/moonlight.rules"]));
    assert_eq!(cards(&sheet), 15, "{sheet}");
    // Every face once: three suits of five.
    for suit in ["moons", "suns", "stars"] {
        assert_eq!(shown(&sheet, suit), 5, "{suit}");
    }
    assert!(
        sheet.contains("Moonlight: 15 components to cut out, page 2 of 2"),
        "{sheet}"
    );
    // Two A4 pages, each its own millimetre-sized document.
    assert_eq!(sheet.matches("viewBox=\"0 0 210 297\"").count(), 2);
}

/// The options decide which pieces are in the game: a module's tokens are
/// printed only when it is on.
#[test]
fn the_options_in_force_decide_the_pieces() {
    let base = out(&rpsdsl(&["print", "games/rubber_paper_scissors.rules"]));
    let goggles = out(&rpsdsl(&[
        "print",
        "games/rubber_paper_scissors.rules",
        "--set",
        "goggles=true",
    ]));
    assert_eq!(cards(&goggles), cards(&base) + 4, "two Goggles a player");
    assert!(shown(&base, "Goggles") == 0 && shown(&goggles, "Goggles") == 4);
    // A house-rules file prints as its options say.
    let house = out(&rpsdsl(&["print", "games/house/both_modules.toml"]));
    assert_eq!(shown(&house, "Goggles"), 4);
}

/// A card carries what its type and its kind do, whose it is, and a die
/// its faces; the HTML sheet prints a page per sheet.
#[test]
fn a_card_says_what_it_does_whose_it_is_and_a_die_its_faces() {
    let dir = scratch("print");
    let rules = "game \"Marked\"\nplayers 2: Ann, Ben\nkinds Hand = rock | paper\n\
                 display paper with text \"Wraps the rock, and scores twice\"\n\
                 display Card with text \"Play one a turn\"\n\
                 pieces {\n  Card of each Hand with value 1..2 in deck\n  Die with faces 1..6 per player in cup\n}\n\
                 zones {\n  deck hidden\n  cup per player owner\n}\nflow {\n}\n";
    let path = dir.join("marked.rules");
    std::fs::write(&path, rules).unwrap();
    let path = path.to_str().unwrap();
    let sheet = out(&rpsdsl(&["print", path]));
    assert_eq!(cards(&sheet), 6, "{sheet}");
    assert_eq!(sheet.matches("Play one a turn").count(), 4, "every Card says it");
    assert_eq!(sheet.matches("Wraps the rock").count(), 2, "the papers only");
    assert_eq!(shown(&sheet, "Ann's") + shown(&sheet, "Ben's"), 2, "{sheet}");
    assert_eq!(shown(&sheet, "1–6"), 2, "each die shows its faces");
    let html = dir.join("sheet.html");
    let output = rpsdsl(&["print", path, "-o", html.to_str().unwrap()]);
    assert!(output.status.success(), "{}", err(&output));
    assert!(
        err(&output).contains("print: 6 components on 1 page in"),
        "{}",
        err(&output)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!doctype html>") && page.contains("@page { size: A4"));
    assert_eq!(page.matches("<div class=\"page\">").count(), 1);
    // Text from the rules is escaped, never markup.
    let hostile = std::fs::read_to_string(path)
        .unwrap()
        .replace("Play one a turn", "<script>alert(1)</script>");
    std::fs::write(path, hostile).unwrap();
    let sheet = out(&rpsdsl(&["print", path]));
    assert!(
        !sheet.contains("<script>") && sheet.contains("&lt;script&gt;"),
        "{sheet}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_game_that_does_not_check_prints_nothing() {
    let output = rpsdsl(&["print", "tests/fixtures/unknown_name_typo.rules"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(out(&output).is_empty());
    assert!(err(&output).contains("rpsdsl::unknown-name"), "{}", err(&output));
}

/// The sheet the tutorial shows is the one `print` draws today.
#[test]
fn the_sheet_in_the_docs_is_what_print_draws() {
    let drawn = out(&rpsdsl(&["print", "docs/examples/moonlight.rules"]));
    let kept = std::fs::read_to_string("docs/sheets/moonlight.svg").unwrap();
    assert_eq!(
        kept.trim_end(),
        drawn.trim_end(),
        "docs/sheets/moonlight.svg is out of date: rpsdsl print docs/examples/moonlight.rules -o docs/sheets/moonlight.svg"
    );
}
