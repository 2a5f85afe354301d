//! `rpsdsl render`: every shipped game drawn at seed 7, for the full view
//! and for each seat; a seat's picture never names a face that seat does
//! not know; bad positions and views are refused with a diagnostic.

mod common;

use common::cli::{rpsdsl, stderr as err, stdout as out};
use common::snap::assert_snapshot;
use common::walk::{Stop, random_walk};
use proptest::prelude::*;
use rpsdsl::engine::View;
use rpsdsl::render::{self, Frame, face_title};

fn stem(path: &str) -> String {
    std::path::Path::new(path)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_shipped_game_is_drawn_for_every_view() {
    let games = common::shipped_games();
    assert!(games.len() >= 12, "{games:?}");
    for game in &games {
        let def = common::load(game);
        let views = std::iter::once("all".to_string()).chain((1..=def.players()).map(|s| s.to_string()));
        for view in views {
            let output = rpsdsl(&["render", game, "--seed", "7", "--view", &view]);
            assert!(output.status.success(), "{game} --view {view}: {}", err(&output));
            let svg = out(&output);
            // A document a browser opens: well-formed XML with an <svg> root.
            let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{game} --view {view}: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            assert_snapshot!(format!("render__{}__{view}", stem(game)), svg);
        }
    }
}

#[test]
fn a_seat_s_picture_never_names_the_seed_and_the_full_one_does() {
    let seat = out(&rpsdsl(&[
        "render",
        "games/rps3.rules",
        "--seed",
        "4242",
        "--view",
        "Dark",
    ]));
    assert!(!seat.contains("4242"), "{seat}");
    assert!(seat.contains("As Dark sees it"), "{seat}");
    let all = out(&rpsdsl(&["render", "games/rps3.rules", "--seed", "4242"]));
    assert!(all.contains("seed 4242"), "{all}");
}

#[test]
fn the_picture_follows_at_and_draws_the_position_after_setup() {
    let start = out(&rpsdsl(&[
        "render",
        "games/classic/tic_tac_toe.rules",
        "--seed",
        "7",
        "--at",
        "0",
    ]));
    assert!(start.contains("after setup, before any decision"), "{start}");
    // No mark on the board yet: every mark is still in a supply.
    assert!(!start.contains("(mark of cells"), "{start}");
    let two = out(&rpsdsl(&[
        "render",
        "games/classic/tic_tac_toe.rules",
        "--seed",
        "7",
        "--at",
        "2",
    ]));
    assert!(two.contains("after 2 decisions"), "{two}");
    assert_eq!(two.matches("(mark of cells").count(), 2, "{two}");
}

#[test]
fn a_transcript_and_its_seed_draw_the_same_picture() {
    let dir = std::env::temp_dir().join(format!("rpsdsl-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("game.json");
    let json = out(&rpsdsl(&["run", "games/rps3.rules", "--seed", "11", "--json"]));
    std::fs::write(&transcript, json).unwrap();
    let followed = rpsdsl(&[
        "render",
        "games/rps3.rules",
        "--transcript",
        transcript.to_str().unwrap(),
        "--at",
        "25",
        "--view",
        "2",
    ]);
    assert!(followed.status.success(), "{}", err(&followed));
    let played = out(&rpsdsl(&[
        "render",
        "games/rps3.rules",
        "--seed",
        "11",
        "--at",
        "25",
        "--view",
        "2",
    ]));
    assert_eq!(out(&followed), played);
    // `-o` writes the same document as standard output.
    let file = dir.join("rps3.svg");
    let written = rpsdsl(&[
        "render",
        "games/rps3.rules",
        "--seed",
        "11",
        "--at",
        "25",
        "--view",
        "2",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(
        written.status.success() && out(&written).is_empty(),
        "{}",
        err(&written)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim_end(), played.trim_end());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_position_past_the_end_is_refused_with_the_range() {
    let output = rpsdsl(&[
        "render",
        "games/classic/tic_tac_toe.rules",
        "--seed",
        "7",
        "--at",
        "500",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let text = err(&output);
    assert!(text.contains("position-not-reached"), "{text}");
    assert!(text.contains("`--at 500`: the game took only 7 decisions"), "{text}");
    assert!(text.contains("give --at from 0"), "{text}");
    assert!(out(&output).is_empty());
    let output = rpsdsl(&["render", "games/classic/tic_tac_toe.rules", "--at", "last"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(err(&output).contains("--at"), "{}", err(&output));
}

#[test]
fn an_unknown_view_is_refused_with_the_seats() {
    let output = rpsdsl(&["render", "games/rps3.rules", "--seed", "7", "--view", "Grey"]);
    assert_eq!(output.status.code(), Some(2));
    let text = err(&output);
    assert!(text.contains("`--view Grey`"), "{text}");
    assert!(text.contains("Light, Dark"), "{text}");
    let output = rpsdsl(&["render", "games/rps3.rules", "--seed", "7", "--view", "3"]);
    assert_eq!(output.status.code(), Some(2));
}

/// Every text of the document, one string per text node.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.is_text())
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect()
}

/// The titles of the faces `seat` does not know in this position, less
/// those of faces it does know (two equal pieces: one known, one not).
fn secret_titles(def: &rpsdsl::ir::GameDef, full: &View, view: &View) -> Vec<String> {
    let mut known = vec![];
    let mut secret = vec![];
    for (truth, seen) in full.zones.iter().zip(&view.zones) {
        for (t, s) in truth.iter().zip(seen) {
            let t = t.expect("the full view knows every piece");
            match s {
                Some(face) if face.kind == t.kind && face.value == t.value => known.push(face_title(def, face)),
                Some(face) => {
                    known.push(face_title(def, face));
                    secret.push(face_title(def, &t));
                }
                None => secret.push(face_title(def, &t)),
            }
        }
    }
    secret.retain(|s| !known.contains(s));
    secret.sort();
    secret.dedup();
    secret
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Across random positions of every shipped game, a seat's picture
    /// holds no title or text naming a face that seat does not know, and a
    /// piece drawn from its back shows nothing but `?`.
    #[test]
    fn a_seat_s_picture_names_no_face_it_does_not_know(game in 0usize..12, seed in 0u64..1_000_000, steps in 0usize..80) {
        let games = common::shipped_games();
        let def = common::load(&games[game % games.len()]);
        let state = random_walk(&def, &def.default_options(), seed, steps, Stop::AfterSteps);
        for seat in 0..def.players() as u8 {
            let view = state.view(&def, seat);
            let full = state.full_view(&def, seat);
            let svg = render::svg(&def, &view, &Frame { viewer: Some(seat), caption: &[] });
            let texts = texts(&svg);
            for secret in secret_titles(&def, &full, &view) {
                // A piece's title is "Card paper 7 (hand of Ann)", or "... x3 (...)" for several.
                let names = |t: &String| {
                    *t == secret || t.starts_with(&format!("{secret} (")) || t.starts_with(&format!("{secret} x"))
                };
                prop_assert!(!texts.iter().any(names), "seat {seat} of {} sees `{secret}`", def.name);
            }
            let doc = roxmltree::Document::parse(&svg).unwrap();
            for piece in doc.descendants().filter(|n| n.attribute("class") == Some("piece")) {
                let title = piece.children().find(|n| n.has_tag_name("title")).and_then(|t| t.text()).unwrap_or_default().trim();
                if title.contains("(hidden)") || title.starts_with("a hidden piece") {
                    for text in piece.descendants().filter(|n| n.has_tag_name("text")) {
                        let shown = text.text().unwrap_or_default().trim();
                        let plain = shown == "?" || shown.starts_with('×') || def.piece_types.iter().any(|t| t == shown);
                        prop_assert!(plain, "a back in {} shows `{shown}`", def.name);
                    }
                }
            }
        }
    }
}

/// A scratch folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rpsdsl-render-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn game_path(rel: &str) -> String {
    format!("{}/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn play_keeps_the_picture_of_the_seat_s_view() {
    let dir = scratch("play-svg");
    let rules = game_path("games/rps3.rules");
    // Deploy three pawns, then leave without saving.
    let output = common::cli::rpsdsl_in(
        &dir,
        &["play", &rules, "--seed", "5", "--agents", "random", "--svg", "view.svg"],
        b"1\n1\n1\nq\n\n",
    );
    assert!(output.status.success(), "{}", err(&output));
    let svg = std::fs::read_to_string(dir.join("view.svg")).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    assert!(svg.contains("As Light sees it · after 3 decisions"), "{svg}");
    assert!(svg.contains("Light (you)"), "{svg}");
    // Three of Light's pawns are on the ring, and as many of Dark's, face down.
    assert_eq!(svg.matches("of Light (spot of outer").count(), 3, "{svg}");
    assert_eq!(svg.matches("Pawn of Dark (hidden) (spot of outer").count(), 3, "{svg}");
    assert!(!svg.contains("seed"), "{svg}");
    assert!(!dir.join("view.svg.partial").exists());
    // An .html file is a page that reloads itself around the same picture.
    let output = common::cli::rpsdsl_in(
        &dir,
        &[
            "play",
            &rules,
            "--seed",
            "5",
            "--agents",
            "random",
            "--svg",
            "view.html",
        ],
        b"q\n\n",
    );
    assert!(output.status.success(), "{}", err(&output));
    let html = std::fs::read_to_string(dir.join("view.html")).unwrap();
    assert!(html.contains("http-equiv=\"refresh\""), "{html}");
    assert!(
        html.contains("<svg") && html.contains("after setup, before any decision"),
        "{html}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_terminal_grid_names_owners_and_keeps_its_borders_straight() {
    let dir = scratch("grid");
    let rules = game_path("games/classic/breakthrough.rules");
    let output = common::cli::rpsdsl_in(&dir, &["play", &rules, "--seed", "3", "--agents", "random"], b"q\n\n");
    let text = out(&output);
    let grid: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Board field:"))
        .skip(1)
        .take_while(|l| l.starts_with("  ┌") || l.starts_with("  │") || l.starts_with("  ├") || l.starts_with("  └"))
        .collect();
    assert_eq!(grid.len(), 17, "{text}");
    // Every cell says whose pawn it holds, uncut.
    assert_eq!(grid[1].matches("│ black  ").count(), 8, "{text}");
    assert_eq!(grid[15].matches("│ white  ").count(), 8, "{text}");
    assert!(!text.contains('…'), "{text}");
    // Every line of the grid is as wide as the others, counted in columns.
    let widths: Vec<usize> = grid.iter().map(|l| l.chars().count()).collect();
    assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}\n{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The pictures in `docs/boards/`, and the position each shows (seed 7,
/// as the first seat sees it, after this many decisions).
const DOC_BOARDS: [(&str, u32); 12] = [
    ("games/rps3.rules", 40),
    ("games/rock.rules", 10),
    ("games/janken_deck.rules", 20),
    ("games/rps_poker.rules", 20),
    ("games/rubber_paper_scissors.rules", 20),
    ("games/classic/breakthrough.rules", 30),
    ("games/classic/connect_four.rules", 8),
    ("games/classic/goofspiel.rules", 6),
    ("games/classic/kuhn_poker.rules", 1),
    ("games/classic/leduc_poker.rules", 2),
    ("games/classic/liars_dice.rules", 2),
    ("games/classic/tic_tac_toe.rules", 5),
];

#[test]
fn the_board_pictures_in_the_docs_are_what_render_draws() {
    for (game, at) in DOC_BOARDS {
        let at = at.to_string();
        let drawn = out(&rpsdsl(&["render", game, "--seed", "7", "--view", "1", "--at", &at]));
        let path = format!("docs/boards/{}.svg", stem(game));
        let kept = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(
            kept.trim_end(),
            drawn.trim_end(),
            "{path} is out of date: rpsdsl render {game} --seed 7 --view 1 --at {at} -o {path}"
        );
    }
    let pictures = std::fs::read_dir("docs/boards").unwrap().count();
    assert_eq!(pictures, DOC_BOARDS.len(), "one picture per game in DOC_BOARDS");
}

/// A copy of Tic-Tac-Toe with `extra` declared after its players.
fn tic_tac_toe_with(extra: &str, name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let rules = std::fs::read_to_string("games/classic/tic_tac_toe.rules").unwrap();
    let rules = rules.replacen("players 2: x, o\n", &format!("players 2: x, o\n{extra}\n"), 1);
    assert!(rules.contains(extra));
    let path = dir.join("hinted.rules");
    std::fs::write(&path, rules).unwrap();
    path
}

#[test]
fn a_colour_hint_colours_the_seat() {
    let path = tic_tac_toe_with("display o in colour \"#2A9\"", "hint");
    let plain = out(&rpsdsl(&["render", "games/classic/tic_tac_toe.rules", "--seed", "7"]));
    let hinted = out(&rpsdsl(&["render", path.to_str().unwrap(), "--seed", "7"]));
    assert!(!plain.contains("#22aa99"));
    // The seat's pieces, its panel and its key, in the colour of the hint.
    assert!(hinted.matches("fill=\"#22aa99\"").count() >= 3, "{hinted}");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_colour_hint_colours_a_kind_face_up_and_never_its_back() {
    let dir = scratch("kind-hint");
    let rules = std::fs::read_to_string("tests/games/weighed_hands.rules").unwrap();
    let rules = rules.replacen(
        "kinds Hand = rock | paper | scissors\n",
        "kinds Hand = rock | paper | scissors\ndisplay paper in colour \"#2A9\"\n",
        1,
    );
    assert!(rules.contains("display paper"), "the kinds line moved");
    let path = dir.join("hinted.rules");
    std::fs::write(&path, rules).unwrap();
    let path = path.to_str().unwrap();
    // Nine paper cards: the three in the deck are hidden from everyone,
    // each hand's are face up to all.
    let all = out(&rpsdsl(&["render", path, "--seed", "7", "--view", "all"]));
    let paper_face_up = all.matches("fill=\"#22aa99\"").count();
    assert!(paper_face_up >= 1, "{all}");
    // Ann sees her own hand only: Ben's paper shows its back, in Ben's colour.
    let ann = out(&rpsdsl(&["render", path, "--seed", "7", "--view", "Ann"]));
    let ann_paper = ann.matches("fill=\"#22aa99\"").count();
    assert!(ann_paper < paper_face_up, "Ann sees {ann_paper} of {paper_face_up}");
    let plain = out(&rpsdsl(&[
        "render",
        "tests/games/weighed_hands.rules",
        "--seed",
        "7",
        "--view",
        "all",
    ]));
    assert!(!plain.contains("#22aa99"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_piece_says_what_it_does_where_the_rules_say_and_its_kind_only_face_up() {
    let dir = scratch("texts");
    let rules = std::fs::read_to_string("tests/games/weighed_hands.rules").unwrap();
    let rules = rules.replacen(
        "kinds Hand = rock | paper | scissors\n",
        "kinds Hand = rock | paper | scissors\ndisplay paper with text \"Worth three\"\n\
         display Card with text \"Counts toward its holder's hand\"\n",
        1,
    );
    assert!(rules.contains("display paper"), "the kinds line moved");
    let path = dir.join("described.rules");
    std::fs::write(&path, rules).unwrap();
    let path = path.to_str().unwrap();
    let all = out(&rpsdsl(&["render", path, "--seed", "7", "--view", "all"]));
    assert!(all.contains("Counts toward its holder's hand"), "{all}");
    let paper = all.matches("Worth three").count();
    assert!(paper >= 1, "{all}");
    // Ann does not see Ben's paper: its text is not in her picture.
    let ann = out(&rpsdsl(&["render", path, "--seed", "7", "--view", "Ann"]));
    assert!(ann.matches("Worth three").count() < paper, "{ann}");
    // A name that is neither a piece type nor a kind is refused, with the nearest.
    let wrong = std::fs::read_to_string(path)
        .unwrap()
        .replace("display paper with", "display papper with");
    std::fs::write(path, wrong).unwrap();
    let output = rpsdsl(&["check", path]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(
        text.contains("unknown piece type or kind `papper`") && text.contains("did you mean `paper`?"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_colour_hint_must_name_a_seat_and_a_colour() {
    let path = tic_tac_toe_with("display q in colour \"#2A9\"\ndisplay o in colour \"blue\"", "bad-hint");
    let output = rpsdsl(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(
        text.contains("rpsdsl::unknown-name") && text.contains("unknown player or kind `q`"),
        "{text}"
    );
    assert!(
        text.contains("rpsdsl::bad-colour") && text.contains("`blue` is not a colour"),
        "{text}"
    );
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn names_are_escaped_in_the_picture() {
    let dir = scratch("escape");
    let rules = std::fs::read_to_string("games/classic/tic_tac_toe.rules").unwrap();
    let rules = rules.replacen("game \"Tic-Tac-Toe\"", "game \"Tic & <Tac> 'Toe'\"", 1);
    assert!(rules.contains("Tic & <Tac>"), "the game line moved");
    let path = dir.join("named.rules");
    std::fs::write(&path, rules).unwrap();
    let svg = out(&rpsdsl(&["render", path.to_str().unwrap(), "--seed", "7"]));
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{e}\n{svg}"));
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("text"))
        .and_then(|n| n.text())
        .unwrap();
    assert_eq!(title.trim(), "Tic & <Tac> 'Toe'");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// RPS3 with its centre space moved by an `at (x, y)` hint.
fn rps3_with_centre(hint: &str, name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let rules = std::fs::read_to_string("games/rps3.rules").unwrap();
    let rules = rules.replacen("  space centre\n", &format!("  space centre {hint}\n"), 1);
    assert!(rules.contains(hint), "the centre's declaration moved");
    // The copy lives elsewhere: its `use` names the shipped prelude.
    let prelude = format!("use \"{}/games/prelude/", env!("CARGO_MANIFEST_DIR"));
    let rules = rules.replace("use \"prelude/", &prelude);
    let path = dir.join("placed.rules");
    std::fs::write(&path, rules).unwrap();
    path
}

/// Where each space's name is written: (name, x, y).
fn name_positions(svg: &str) -> Vec<(String, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let coordinate = |a| n.attribute(a)?.parse::<f64>().ok();
            Some((n.text()?.trim().to_string(), coordinate("x")?, coordinate("y")?))
        })
        .collect()
}

#[test]
fn a_position_hint_places_a_single_space() {
    let outer = |names: &[(String, f64, f64)]| -> Vec<(f64, f64)> {
        names
            .iter()
            .filter(|(n, _, _)| n.starts_with("outer "))
            .map(|&(_, x, y)| (x, y))
            .collect()
    };
    let centre = |names: &[(String, f64, f64)]| {
        let found: Vec<_> = names.iter().filter(|(n, _, _)| n == "centre").collect();
        assert_eq!(found.len(), 1, "one label `centre`");
        (found[0].1, found[0].2)
    };
    // Without a hint the lone space sits in the middle of the rings.
    let plain = name_positions(&out(&rpsdsl(&[
        "render",
        "games/rps3.rules",
        "--seed",
        "7",
        "--at",
        "0",
    ])));
    let ring = outer(&plain);
    let middle_x = ring.iter().map(|p| p.0).sum::<f64>() / ring.len() as f64;
    let top = ring.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let (x, y) = centre(&plain);
    assert!((x - middle_x).abs() < 1.0 && y > top, "({x}, {y})");

    // `at (0, -150)`: straight above the middle, beyond the outer ring.
    let path = rps3_with_centre("at (0, -150)", "placed");
    let svg = out(&rpsdsl(&["render", path.to_str().unwrap(), "--seed", "7", "--at", "0"]));
    let placed = name_positions(&svg);
    let ring = outer(&placed);
    let middle_x = ring.iter().map(|p| p.0).sum::<f64>() / ring.len() as f64;
    let top = ring.iter().map(|p| p.1).fold(f64::MAX, f64::min);
    let (x, y) = centre(&placed);
    assert!((x - middle_x).abs() < 1.0, "centre at x {x}, middle {middle_x}");
    assert!(y < top, "centre at y {y}, above the outer ring's top label at {top}");
    // Play never reads the hint: the same seed gives the same game.
    let moves = |file: &str| out(&rpsdsl(&["run", file, "--seed", "7"]));
    assert_eq!(
        moves("games/rps3.rules").lines().skip(1).collect::<Vec<_>>(),
        moves(path.to_str().unwrap()).lines().skip(1).collect::<Vec<_>>()
    );
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_position_hint_too_far_out_is_refused() {
    let path = rps3_with_centre("at (5000, 0)", "placed-far");
    let output = rpsdsl(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(
        text.contains("rpsdsl::bad-board") && text.contains("too far out to draw"),
        "{text}"
    );
    assert!(text.contains("-1000 to 1000"), "{text}");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_board_without_rings_is_laid_out_by_its_hints() {
    let svg = out(&rpsdsl(&[
        "render",
        "tests/games/placed_spaces.rules",
        "--seed",
        "7",
        "--at",
        "0",
    ]));
    let names = name_positions(&svg);
    let at = |space: &str| {
        let found: Vec<_> = names.iter().filter(|(n, _, _)| n == space).collect();
        assert_eq!(found.len(), 1, "one label `{space}`: {names:?}");
        (found[0].1, found[0].2)
    };
    let (harbour, market, castle, wood) = (at("harbour"), at("market"), at("castle"), at("wood"));
    // x to the right and y down, as the hints say.
    assert!(harbour.0 < market.0 && market.0 < castle.0, "{names:?}");
    assert!(castle.1 < market.1 && market.1 < harbour.1, "{names:?}");
    // The space without a hint does not take the middle, where `market` is.
    let apart = (wood.0 - market.0).hypot(wood.1 - market.1);
    assert!(apart > 60.0, "wood {wood:?} on top of market {market:?}");
}

/// `display NAME fanned` draws every piece of a zone in its order, one
/// card each, as a column; `display NAME off the table` draws nothing of a
/// zone the rules keep for themselves, in pictures and on the play screen.
#[test]
fn a_zone_may_be_fanned_or_kept_off_the_table() {
    let dir = scratch("layouts");
    let plain = "game \"Columns\"\nplayers 2: Ann, Ben\n\
                 pieces {\n  Card x3 per player in column\n  Marker x2 in tally\n}\n\
                 zones {\n  column per player public\n  tally public\n}\n\
                 flow {\n  Ann chooses n from 1..2\n}\n";
    let laid_out = plain.replace("flow {", "display column fanned\ndisplay tally off the table\n\nflow {");
    let draw = |name: &str, rules: &str| {
        let path = dir.join(name);
        std::fs::write(&path, rules).unwrap();
        let path = path.to_str().unwrap().to_string();
        (
            path.clone(),
            out(&rpsdsl(&["render", &path, "--seed", "1", "--view", "all"])),
        )
    };
    let (_, trays) = draw("plain.rules", plain);
    let (fanned_path, fanned) = draw("fanned.rules", &laid_out);
    // Gathered, a column is one card with a badge; fanned, three cards.
    assert!(trays.contains("×3"), "{trays}");
    assert!(!fanned.contains("×3"), "{fanned}");
    assert_eq!(
        fanned.matches("<g class=\"piece\"").count(),
        trays.matches("<g class=\"piece\"").count() + 2 * 2 - 1,
        "two columns of three cards each, and no tally:\n{fanned}"
    );
    assert!(trays.contains("tally") && !fanned.contains("tally"), "{fanned}");
    // The play screen leaves the tally out too.
    let screen = rpsdsl_in_with_input(&fanned_path, "q\n\n");
    assert!(screen.contains("column") && !screen.contains("tally"), "{screen}");
    // A layout for a name that is no zone is refused, with the nearest.
    let wrong = laid_out.replace("display tally off", "display tallies off");
    let path = dir.join("wrong.rules");
    std::fs::write(&path, wrong).unwrap();
    let output = rpsdsl(&["check", path.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(
        text.contains("unknown zone `tallies`") && text.contains("did you mean `tally`?"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// What `rpsdsl play FILE` prints, fed `input`.
fn rpsdsl_in_with_input(file: &str, input: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rpsdsl"))
        .args(["play", file, "--seed", "1", "--agents", "random"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `display NAME with shape S`: a piece on a board is drawn as the shape,
/// a card carries it; a kind's only face up; an unknown shape is refused
/// with the list.
#[test]
fn a_piece_may_have_a_shape() {
    let dir = scratch("shapes");
    let rules = std::fs::read_to_string("games/classic/breakthrough.rules")
        .unwrap()
        .replacen("pieces {", "display Pawn with shape triangle\n\npieces {", 1);
    let path = dir.join("shaped.rules");
    std::fs::write(&path, &rules).unwrap();
    let path = path.to_str().unwrap();
    let plain = out(&rpsdsl(&[
        "render",
        "games/classic/breakthrough.rules",
        "--seed",
        "3",
        "--view",
        "all",
    ]));
    let shaped = out(&rpsdsl(&["render", path, "--seed", "3", "--view", "all"]));
    // Every pawn a triangle (a polygon of three corners) instead of a disc.
    let triangles = shaped.matches("<polygon").count();
    assert!(triangles >= 20, "{triangles}");
    assert_eq!(plain.matches("<polygon").count(), 0);
    assert!(shaped.matches("<circle").count() + 20 <= plain.matches("<circle").count());
    // A kind's shape is not drawn on a card seen from the back.
    let cards = std::fs::read_to_string("docs/examples/moonlight.rules").unwrap();
    assert!(cards.contains("display stars with shape star"));
    let all = out(&rpsdsl(&[
        "render",
        "docs/examples/moonlight.rules",
        "--seed",
        "3",
        "--view",
        "all",
        "--at",
        "0",
    ]));
    let ann = out(&rpsdsl(&[
        "render",
        "docs/examples/moonlight.rules",
        "--seed",
        "3",
        "--view",
        "Ann",
        "--at",
        "0",
    ]));
    assert!(
        ann.matches("<polygon").count() < all.matches("<polygon").count(),
        "{ann}"
    );
    // The print-and-play card carries it too.
    let sheet = out(&rpsdsl(&["print", "docs/examples/moonlight.rules"]));
    assert!(sheet.matches("<polygon").count() >= 10, "stars and moons");
    // An unknown shape: refused, with the shapes listed.
    std::fs::write(path, rules.replace("shape triangle", "shape triangel")).unwrap();
    let output = rpsdsl(&["check", path]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(
        text.contains("unknown shape `triangel`") && text.contains("did you mean `triangle`?"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `display NAME with picture "file.svg"`: the SVG file, beside the rules,
/// drawn on the pieces of that kind seen face up (never on a back), on
/// the printed cards too, and always as an image of a data URL, so that
/// nothing in the file runs in the page. A file that can't be read, or is
/// not an SVG picture, is refused where the rules name it.
#[test]
fn a_piece_may_have_a_picture() {
    use base64::Engine;
    let dir = scratch("pictures");
    let moon = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" fill="#eee"/><script>alert(1)</script></svg>"##;
    std::fs::create_dir_all(dir.join("art")).unwrap();
    std::fs::write(dir.join("art/moon.svg"), moon).unwrap();
    let rules = std::fs::read_to_string("docs/examples/moonlight.rules")
        .unwrap()
        .replacen(
            "kinds Suit",
            "display moons with picture \"art/moon.svg\"\n\nkinds Suit",
            1,
        );
    let path = dir.join("pictured.rules");
    std::fs::write(&path, &rules).unwrap();
    let path = path.to_str().unwrap();
    let encoded = base64::engine::general_purpose::STANDARD.encode(moon);
    let drawn = |view: &str| {
        let output = rpsdsl(&["render", path, "--seed", "3", "--view", view, "--at", "0"]);
        assert!(output.status.success(), "{}", err(&output));
        out(&output)
    };
    // Every moon once (five cards) in the full view, each a data URL of the file.
    let all = drawn("all");
    assert_eq!(all.matches("data:image/svg+xml;base64,").count(), 5, "{all}");
    assert_eq!(all.matches(&encoded).count(), 5);
    // The file's script stays inside the image: the page holds none.
    assert!(!all.contains("<script"), "{all}");
    // A seat sees only its own hand's moons: the deck and the other hand are backs.
    let ben = drawn("Ben");
    // Ben's panel is drawn first.
    let moons_in_ben_hand = all.split("class=\"panel\"").nth(1).unwrap().matches(&encoded).count();
    assert!((1..5).contains(&moons_in_ben_hand), "{all}");
    assert_eq!(ben.matches(&encoded).count(), moons_in_ben_hand, "{ben}");
    // Each printed moon card carries it.
    let sheet = out(&rpsdsl(&["print", path]));
    assert_eq!(sheet.matches(&encoded).count(), 5);
    // A missing file, and a file that is not a picture, are refused at the path.
    std::fs::write(dir.join("pictured.rules"), rules.replace("art/moon.svg", "art/mon.svg")).unwrap();
    let output = rpsdsl(&["check", path]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(text.contains("cannot read") && text.contains("art/mon.svg"), "{text}");
    assert!(text.contains("the picture named here"), "{text}");
    std::fs::write(dir.join("art/moon.svg"), "moons are round").unwrap();
    std::fs::write(dir.join("pictured.rules"), &rules).unwrap();
    let output = rpsdsl(&["check", path]);
    assert_eq!(output.status.code(), Some(1));
    let text = err(&output);
    assert!(text.contains("rpsdsl::not-a-picture"), "{text}");
    assert!(text.contains("`art/moon.svg` is not an SVG picture"), "{text}");
    assert!(text.contains("display moons with shape circle"), "{text}");
    std::fs::remove_dir_all(dir).unwrap();
}
