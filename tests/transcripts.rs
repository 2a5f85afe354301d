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

// ------------------------------------------------ what a transcript says

const JANKEN: &str = "games/janken_deck.rules";

/// Janken Deck: a round ends when a player cannot play; the line right
/// before the round's Token says so, naming the loser of the round.
#[test]
fn a_player_who_cannot_play_is_named_before_the_token() {
    let def = load(JANKEN);
    let mut rounds = 0;
    for seed in 0..10 {
        let record = play(&def, seed, &Scenario::default()).unwrap();
        let lines = common::lines(&def, &record);
        for (i, line) in lines.iter().enumerate() {
            let Some(winner) = line.strip_prefix("  Token: token_pool -> tokens of ") else {
                continue;
            };
            let loser = if winner == "Ann" { "Ben" } else { "Ann" };
            assert_eq!(
                lines[i - 1],
                format!("{loser} has no legal choice for play"),
                "seed {seed}, line {i}"
            );
            rounds += 1;
        }
    }
    assert!(rounds >= 10, "only {rounds} rounds in 10 games");
}

/// Tie-breakers are not points: Janken Deck's discards are shown apart and
/// left out of the total, while the result may still rank by them.
#[test]
fn tie_breakers_are_shown_apart_from_points() {
    let def = load(JANKEN);
    let record = play(&def, 7, &Scenario::default()).unwrap();
    let lines = common::lines(&def, &record);
    let n = lines.len();
    assert_eq!(
        lines[n - 3..],
        [
            "score Ann: tokens 2 = 2; tie-breakers: discards 22",
            "score Ben: tokens 2 = 2; tie-breakers: discards 14",
            "result: Ann wins (most discards)",
        ]
    );
    // The points are the tokens alone; the discards still decide the tie.
    assert_eq!(record.scores, [vec![2, 22], vec![2, 14]]);
    assert_eq!(def.points(&record.scores[0]), 2);
}

/// When every result key ties, the duel of the result's `else` decides: the
/// transcript shows the scores, says that they tie, shows the duel, and
/// names the tie-break as the reason (not "the flow").
#[test]
fn the_result_tie_break_is_named_as_such() {
    let def = load(JANKEN);
    let record = play(&def, 106, &Scenario::default()).unwrap();
    let outcome = record.outcome.clone().unwrap();
    assert!(
        matches!(outcome.reason, rpsdsl::engine::EndReason::TieBreak(..)),
        "{:?}",
        outcome.reason
    );
    let lines = common::lines(&def, &record);
    let n = lines.len();
    assert_eq!(
        lines[n - 6..],
        [
            "score Ann: tokens 2 = 2; tie-breakers: discards 19",
            "score Ben: tokens 2 = 2; tie-breakers: discards 19",
            "tied on every result key: the result's tie-break decides",
            "Ann chooses throw: paper  [of 3]",
            "Ben chooses throw: rock  [of 3]",
            "result: Ann wins (takes the deciding round of Rock Paper Scissors, after a tie on every result key)",
        ]
    );
}

// ------------------------------------------------------------ scenarios

/// A silence in a race is no call: a time written after it is refused,
/// not silently ignored, and a transcript writes silence without one.
#[test]
fn a_silence_with_a_time_is_refused() {
    let def = load("games/rock.rules");
    let scenario = common::scenario(&[], &["North: silence @ 20ms", "South: rock @ 300ms"]);
    let failure = play(&def, 1, &scenario).unwrap_err();
    assert_eq!(failure.diagnostic.code.as_str(), "bad-scenario");
    assert_eq!(
        failure.diagnostic.message,
        "`silence` is no call, so it has no reaction time"
    );
    assert_eq!(
        failure.diagnostic.help.as_deref(),
        Some("write `North: silence` without `@ 20ms`")
    );
    let record = play(&def, 7, &Scenario::default()).unwrap();
    let silent: Vec<&String> = record.decisions.iter().filter(|d| d.contains("silence")).collect();
    assert!(!silent.is_empty());
    assert!(silent.iter().all(|d| d.ends_with(": silence")), "{silent:?}");
    // And the record plays again as a scenario.
    let decisions: Vec<&str> = record.decisions.iter().map(String::as_str).collect();
    let again = play(&def, 7, &common::scenario(&[], &decisions)).unwrap();
    assert_eq!(common::lines(&def, &again), common::lines(&def, &record));
}

/// The three-Crowns example of docs/scenarios.md, without the decisions the
/// game leaves no way around (`[of 1]`): with `skip_forced` it plays the
/// same game as the full script.
#[test]
fn skip_forced_leaves_out_single_choice_decisions() {
    let def = load("games/rubber_paper_scissors.rules");
    let full = [
        "Orange: rubber",
        "Blue: scissors",
        "Orange: claim the face-down token",
        "Blue: claim the face-up token",
        "Orange: place a Squad Member",
        "Orange: paper",
        "Blue: paper",
        "Orange: rock",
        "Blue: scissors",
        "Orange: claim the face-down token",
        "Blue: place a Squad Member",
        "Orange: claim the face-up token",
        "Orange: scissors",
        "Blue: paper",
        "Orange: claim the face-down token",
    ];
    let crowns: &[&str] = &["Crown", "Crown", "Crown"];
    let scripted = play(&def, 7, &common::scenario(&[("bag", crowns)], &full)).unwrap();
    let forced = ["Orange: place a Squad Member", "Orange: claim the face-up token"];
    let short: Vec<&str> = full
        .iter()
        .enumerate()
        .filter(|(i, d)| !(forced.contains(d) && [4, 11].contains(i)))
        .map(|(_, d)| *d)
        .collect();
    assert_eq!(short.len(), full.len() - 2);
    let mut skipping = common::scenario(&[("bag", crowns)], &short);
    // Without `skip_forced` the short script answers the wrong decision.
    let refused = play(&def, 7, &skipping).unwrap_err();
    assert_eq!(refused.diagnostic.code.as_str(), "illegal-action");
    skipping.skip_forced = true;
    let skipped = play(&def, 7, &skipping).unwrap();
    assert_eq!(common::lines(&def, &skipped), common::lines(&def, &scripted));
    assert_eq!(
        skipped.decisions, scripted.decisions,
        "the record still lists every decision"
    );
}

/// Decisions left over when the game has ended are reported as a warning
/// that counts them and points at the first.
#[test]
fn leftover_decisions_are_warned_about() {
    let def = load("games/rps.rules");
    let record = play(
        &def,
        1,
        &common::scenario(&[], &["Left: rock", "Right: scissors", "Left: paper", "Right: rock"]),
    )
    .unwrap();
    assert_eq!(record.warnings.len(), 1);
    let warning = &record.warnings[0];
    assert!(!warning.is_error());
    assert_eq!(warning.code.as_str(), "scenario-mismatch");
    assert_eq!(
        warning.message,
        "the game ended before the scenario did: 2 scripted decisions were never asked"
    );
    let exact = play(&def, 1, &common::scenario(&[], &["Left: rock", "Right: scissors"])).unwrap();
    assert!(exact.warnings.is_empty());
    // `run` prints the warning on stderr, pointing into the scenario, and
    // still succeeds.
    let path = std::env::temp_dir().join(format!("rpsdsl-leftover-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "decisions = [\"Left: rock\", \"Right: scissors\", \"Left: paper\", \"Right: rock\"]\n",
    )
    .unwrap();
    let run = common::cli::rpsdsl(&["run", "games/rps.rules", "--scenario", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("rpsdsl::scenario-mismatch"), "{stderr}");
    assert!(stderr.contains("the first decision never asked"), "{stderr}");
}

// ------------------------------------------------------------ format

/// Transcripts name their format; one written before the field existed
/// (format 1) still replays: it is compared as format 1 wrote the game.
#[test]
fn transcripts_name_their_format_and_old_ones_still_replay() {
    use common::cli::rpsdsl;
    let run = rpsdsl(&["run", "games/rock.rules", "--seed", "7", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(json["format"], rpsdsl::transcript::FORMAT);
    for old in ["format_1_rock", "format_1_janken_deck"] {
        let path = format!("tests/fixtures/transcripts/{old}.json");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("\"format\""), "{old} is a format-1 transcript");
        let replay = rpsdsl(&["replay", &path]);
        assert_eq!(
            replay.status.code(),
            Some(0),
            "{old}: {}",
            String::from_utf8_lossy(&replay.stderr)
        );
    }
    // The old Janken Deck transcript has the tie-break duel, as "the flow".
    let old = std::fs::read_to_string("tests/fixtures/transcripts/format_1_janken_deck.json").unwrap();
    assert!(old.contains("\"result\": \"Ann wins (the flow)\""));
    // An unknown format is refused, naming the ones this version reads.
    let mut future = json.clone();
    future["format"] = "rpsdsl-transcript/99".into();
    let path = std::env::temp_dir().join(format!("rpsdsl-future-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&future).unwrap()).unwrap();
    let refused = rpsdsl(&["replay", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("this transcript's format is `rpsdsl-transcript/99`"),
        "{stderr}"
    );
}

/// A `set` that leaves a variable as it was changes nothing, so this
/// version's transcripts (format 3) leave it out; a format-2 transcript,
/// which shows it, still replays.
#[test]
fn unchanged_variables_are_not_shown_and_format_2_still_replays() {
    use rpsdsl::transcript::{FORMAT, FORMAT_2, Format};
    let def = load("games/janken_deck.rules");
    let record = play(&def, 7, &Scenario::default()).unwrap();
    let header = || Header {
        rules: "games/janken_deck.rules",
        about: None,
        seed: 7,
        options: vec![],
        agents: vec!["random".into(); def.players()],
    };
    let now = Transcript::new(&def, header(), &record, Viewer::All);
    let mut before = Transcript::in_format(&def, header(), &record, Viewer::All, Format::V2);
    assert_eq!(now.format, FORMAT);
    before.format = FORMAT_2.into();
    let lines = |t: &Transcript| -> Vec<String> { t.to_text().lines().map(str::to_string).collect() };
    let (now_lines, before_lines) = (lines(&now), lines(&before));
    // Janken Deck sets the round's kind at every play, often to what it was:
    // only format 2 shows those.
    let kinds = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| l.trim_start().starts_with("round_kind = "))
            .count()
    };
    assert!(kinds(&now_lines) < kinds(&before_lines), "{now_lines:#?}");
    let others = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .filter(|l| !l.trim_start().starts_with("round_") && !l.contains("transcript/") && !l.starts_with("--- "))
            .cloned()
            .collect()
    };
    assert_eq!(others(&now_lines), others(&before_lines));
    let path = std::env::temp_dir().join(format!("rpsdsl-format-2-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&before).unwrap()).unwrap();
    let replay = common::cli::rpsdsl(&["replay", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        replay.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}

/// ROCK! deals its whole deck, so the first flips are the last cards dealt:
/// a shuffle's `bottom` (bottom first) fixes them without listing all 60
/// cards, as docs/scenarios.md shows.
#[test]
fn a_shuffle_bottom_fixes_rocks_first_flips() {
    let def = load("games/rock.rules");
    let mut scenario = Scenario::default();
    scenario.shuffles.push(rpsdsl::scenario::ShuffleSpec {
        zone: "deck".into(),
        top: vec![],
        bottom: ["Card scissors", "Card rock", "Card paper", "Card paper"]
            .map(String::from)
            .to_vec(),
        span: None,
    });
    for seed in [1, 2, 3] {
        let record = play(&def, seed, &scenario).unwrap();
        let flips: Vec<String> = common::lines(&def, &record)
            .into_iter()
            .filter(|l| l.contains("-> centre"))
            .take(4)
            .collect();
        assert_eq!(
            flips,
            [
                "  Card rock: draw_pile of North -> centre",
                "  Card scissors: draw_pile of South -> centre",
                "  Card paper: draw_pile of North -> centre",
                "  Card paper: draw_pile of South -> centre",
            ],
            "seed {seed}"
        );
    }
}

/// Each time a `phase` begins, the transcript heads it with the phase's
/// name and count: Janken Deck's rounds are numbered 1, 2, ... in order,
/// one per Token won, each before the round's first play. A transcript of
/// format 3, written before the headings, still replays.
#[test]
fn each_phase_begun_is_headed_and_format_3_still_replays() {
    use rpsdsl::transcript::{FORMAT_3, Format};
    let def = load(JANKEN);
    let record = play(&def, 7, &Scenario::default()).unwrap();
    let header = || Header {
        rules: JANKEN,
        about: None,
        seed: 7,
        options: vec![],
        agents: vec!["random".into(); def.players()],
    };
    let now = Transcript::new(&def, header(), &record, Viewer::All);
    let headings: Vec<(usize, &String)> = now
        .lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("--- "))
        .collect();
    let tokens = now
        .lines
        .iter()
        .filter(|l| l.contains("Token: token_pool -> tokens"))
        .count();
    assert!(tokens >= 2, "{:#?}", now.lines);
    let expected: Vec<String> = (1..=tokens).map(|n| format!("--- round {n} ---")).collect();
    assert_eq!(
        headings.iter().map(|(_, l)| l.to_string()).collect::<Vec<_>>(),
        expected
    );
    for (at, _) in &headings {
        assert!(now.lines[at + 1].contains("chooses play:"), "{:#?}", now.lines);
    }
    // A seat's view numbers the rounds alike: the heading is no secret.
    let seat = Transcript::new(&def, header(), &record, Viewer::Seat(1));
    assert_eq!(
        seat.lines.iter().filter(|l| l.starts_with("--- round ")).count(),
        tokens
    );

    let mut before = Transcript::in_format(&def, header(), &record, Viewer::All, Format::V3);
    before.format = FORMAT_3.into();
    assert!(
        !before.lines.iter().any(|l| l.starts_with("--- ")),
        "{:#?}",
        before.lines
    );
    let without: Vec<&String> = now.lines.iter().filter(|l| !l.starts_with("--- ")).collect();
    assert_eq!(without, before.lines.iter().collect::<Vec<_>>());
    let path = std::env::temp_dir().join(format!("rpsdsl-format-3-{}.json", std::process::id()));
    std::fs::write(&path, serde_json::to_string_pretty(&before).unwrap()).unwrap();
    let replay = common::cli::rpsdsl(&["replay", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        replay.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
}
