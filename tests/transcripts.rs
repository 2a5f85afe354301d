//! Every game in games/ has a snapshot transcript with a fixed seed, and the
//! redacted views hide what each seat may not see.

mod common;

use common::{games, load, play};
use rpsdsl::scenario::Scenario;
use rpsdsl::transcript::{Header, Transcript, Viewer};

fn transcript(path: &str, seed: u64, viewer: Viewer) -> String {
    let def = load(path);
    let record = play(&def, seed, &Scenario::default()).unwrap();
    let header = Header {
        about: None,
        rules: path,
        seed,
        options: vec![],
        agents: vec!["random".into(); def.players()],
    };
    Transcript::new(&def, header, &record, viewer).to_text()
}

fn stem(path: &str) -> String {
    std::path::Path::new(path)
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_game_has_a_snapshot_transcript() {
    for game in games() {
        let name = format!("transcript__{}", stem(&game));
        common::snap::assert_snapshot!(name.clone(), transcript(&game, 7, Viewer::All));
        // With CI=true insta already refuses a missing snapshot; this names the game.
        assert!(
            std::path::Path::new(&format!("snapshots/{name}.snap")).exists(),
            "{game} has no snapshot transcript: run this test locally and review the new snapshot"
        );
    }
}

#[test]
fn seat_views_are_redacted() {
    let game = "games/rubber_paper_scissors.rules";
    for seat in 0..2u8 {
        let text = transcript(game, 7, Viewer::Seat(seat));
        // Face-down tokens and the tokens left out are never named to a seat
        // until they are claimed.
        assert!(text.contains("a hidden piece: bag -> face_down of shop 1"), "{text}");
        assert!(text.contains("a hidden piece: bag -> out_of_play"), "{text}");
        assert!(text.contains("shuffle bag (22 pieces, unseen)"), "{text}");
        common::snap::assert_snapshot!(format!("transcript__{}__view_{}", stem(game), seat + 1), text);
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    for game in games() {
        assert_eq!(
            transcript(&game, 11, Viewer::All),
            transcript(&game, 11, Viewer::All),
            "{game}"
        );
    }
}
