//! The code lens on a game's `game "..."` line: "▶ check", "simulate 1,000
//! games" and "open in studio", run as `rpsdsl` itself runs them (a child
//! process of the same binary, on the saved file), off the editor's
//! thread. When a simulation ends its result is told to the editor and
//! shown in the lens ("Left 54% · Right 46% · draws 0% · 1.6 turns"), which
//! the editor is asked to refresh.
//!
//! Also the inlay hints: beside an option's declaration, the value each
//! house-rules file of the workspace gives it.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};

use lsp_server::{Message, Notification, Request, RequestId};
use lsp_types::{
    CodeLens, CodeLensParams, Command as LensCommand, ExecuteCommandParams, InlayHint, InlayHintLabel, InlayHintParams,
    MessageType, ShowMessageParams,
};

use super::index::NameKind;
use super::position;
use super::server::{Server, path_of};
use crate::syntax::tokens::TokenKind;

/// The commands the lens runs, as the editor is told at the start.
pub(super) const COMMANDS: &[&str] = &["rpsdsl.check", "rpsdsl.simulate", "rpsdsl.studio"];

/// Games a lens simulation plays.
const SIMULATED: u64 = 1000;

pub(super) fn lenses(server: &Server, params: CodeLensParams) -> Option<Vec<CodeLens>> {
    let (_, analysis) = server.document(&params.text_document.uri)?;
    let file = &analysis.index.files[analysis.file];
    // The `game` word that begins a line: the game's own declaration.
    let game = file.tokens.iter().find(|t| {
        t.kind == TokenKind::Word
            && t.text(&file.text) == "game"
            && file.text[..t.start]
                .rsplit('\n')
                .next()
                .is_some_and(|b| b.trim().is_empty())
    })?;
    let range = position::range(&file.text, game.start, game.end);
    let argument = serde_json::to_value(&params.text_document.uri).ok()?;
    let result = server.running.results.lock().ok()?.get(&file.path).cloned();
    let simulate_title = match result {
        Some(summary) => format!("simulate {SIMULATED_SHOWN} games: {summary}"),
        None => format!("simulate {SIMULATED_SHOWN} games"),
    };
    let lens = |title: String, command: &str| CodeLens {
        range,
        command: Some(LensCommand {
            title,
            command: command.to_string(),
            arguments: Some(vec![argument.clone()]),
        }),
        data: None,
    };
    Some(vec![
        lens("▶ check".into(), "rpsdsl.check"),
        lens(simulate_title, "rpsdsl.simulate"),
        lens("open in studio".into(), "rpsdsl.studio"),
    ])
}

/// How long "open in studio" waits for the studio's link.
const STUDIO_START: std::time::Duration = std::time::Duration::from_secs(20);

/// [`SIMULATED`] as a person reads it.
const SIMULATED_SHOWN: &str = "1,000";

/// Runs a lens's command; what it finds is told to the editor as a message.
pub(super) fn execute(server: &Server, params: ExecuteCommandParams) -> Result<Option<serde_json::Value>, String> {
    let uri: lsp_types::Uri = params
        .arguments
        .first()
        .and_then(|a| serde_json::from_value(a.clone()).ok())
        .ok_or("the command needs the file's URI")?;
    let path = path_of(&uri).ok_or("the command works on files only")?;
    let outbox = server.running.outbox.clone().ok_or("no editor to tell")?;
    let binary = std::env::current_exe().map_err(|e| format!("cannot find rpsdsl itself: {e}"))?;
    match params.command.as_str() {
        "rpsdsl.check" => {
            std::thread::spawn(move || {
                let out = Command::new(&binary)
                    .arg("check")
                    .arg(&path)
                    .env("NO_COLOR", "1")
                    .output();
                let (kind, said) = match out {
                    Ok(out) if out.status.success() => (MessageType::INFO, format!("{}: ok", path.display())),
                    Ok(out) => (MessageType::ERROR, String::from_utf8_lossy(&out.stderr).into_owned()),
                    Err(e) => (MessageType::ERROR, format!("cannot run rpsdsl check: {e}")),
                };
                tell(&*outbox, kind, said);
            });
        }
        "rpsdsl.simulate" => {
            let results = server.running.results.clone();
            let refresh = server.running.refresh;
            std::thread::spawn(move || {
                let out = Command::new(&binary)
                    .args(["simulate", "--json", "-n", &SIMULATED.to_string()])
                    .arg(&path)
                    .output();
                let summary = match out {
                    Ok(out) if out.status.success() => summarize(&String::from_utf8_lossy(&out.stdout)),
                    Ok(out) => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
                    Err(e) => Err(format!("cannot run rpsdsl simulate: {e}")),
                };
                match summary {
                    Ok(summary) => {
                        tell(
                            &*outbox,
                            MessageType::INFO,
                            format!("{}: {SIMULATED_SHOWN} games: {summary}", path.display()),
                        );
                        if let Ok(mut results) = results.lock() {
                            results.insert(path, summary);
                        }
                        if refresh {
                            outbox(Message::Request(Request::new(
                                RequestId::from("rpsdsl-lens-refresh".to_string()),
                                "workspace/codeLens/refresh".into(),
                                serde_json::Value::Null,
                            )));
                        }
                    }
                    Err(why) => tell(&*outbox, MessageType::ERROR, why),
                }
            });
        }
        "rpsdsl.studio" => open_studio(server, &binary, &path)?,
        other => return Err(format!("rpsdsl lsp has no command `{other}`")),
    }
    Ok(None)
}

/// Starts a studio on the file's folder (once per folder) and asks the
/// editor to open its link.
fn open_studio(server: &Server, binary: &Path, path: &Path) -> Result<(), String> {
    use std::io::BufRead;
    let folder = path.parent().ok_or("the file has no folder")?.to_path_buf();
    let mut studios = server
        .running
        .studios
        .lock()
        .map_err(|_| "the studio list is unusable")?;
    if studios.contains_key(&folder) {
        return Ok(());
    }
    let mut child = Command::new(binary)
        .args(["studio", "--port", "0"])
        .arg(&folder)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start the studio: {e}"))?;
    // The studio's first line is its link; it comes once the kept games
    // are played again. The editor waits for it, but not without end.
    let (tx, rx) = std::sync::mpsc::channel();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut reader = std::io::BufReader::new(out);
            let mut line = String::new();
            let _ = reader.read_line(&mut line);
            let _ = tx.send(line);
            // Keep reading, so the studio never blocks on a full pipe.
            let _ = std::io::copy(&mut reader, &mut std::io::sink());
        });
    }
    let link = rx.recv_timeout(STUDIO_START).unwrap_or_default().trim().to_string();
    if !link.starts_with("http") {
        let _ = child.kill();
        let _ = child.wait();
        return Err(format!(
            "the studio did not start within 20 s (is one already using its data folder?): run `rpsdsl studio {}` to see why",
            folder.display()
        ));
    }
    studios.insert(folder, child);
    if let Some(outbox) = &server.running.outbox {
        outbox(Message::Request(Request::new(
            RequestId::from("rpsdsl-studio".to_string()),
            "window/showDocument".into(),
            serde_json::json!({ "uri": link, "external": true }),
        )));
        tell(&**outbox, MessageType::INFO, format!("the studio is at {link}"));
    }
    Ok(())
}

fn tell(outbox: &(dyn Fn(Message) + Send + Sync), kind: MessageType, message: String) {
    let params = ShowMessageParams { typ: kind, message };
    if let Ok(params) = serde_json::to_value(params) {
        outbox(Message::Notification(Notification::new(
            "window/showMessage".into(),
            params,
        )));
    }
}

/// "Left 54% · Right 46% · draws 0% · 1.6 decision points" from a
/// `simulate --json` report.
fn summarize(report: &str) -> Result<String, String> {
    let report: serde_json::Value =
        serde_json::from_str(report).map_err(|e| format!("simulate's report did not read: {e}"))?;
    let games = report["games"]
        .as_f64()
        .filter(|g| *g > 0.0)
        .ok_or("no games were played")?;
    let percent = |n: f64| format!("{:.0}%", 100.0 * n / games);
    let mut parts: Vec<String> = vec![];
    if let (Some(seats), Some(wins)) = (report["seats"].as_array(), report["wins"].as_array()) {
        for (seat, won) in seats.iter().zip(wins) {
            parts.push(format!(
                "{} {}",
                seat.as_str().unwrap_or("?"),
                percent(won.as_f64().unwrap_or(0.0))
            ));
        }
    }
    parts.push(format!("draws {}", percent(report["draws"].as_f64().unwrap_or(0.0))));
    if let Some(lengths) = report["decision_points"].as_object() {
        let total: f64 = lengths
            .iter()
            .map(|(length, n)| length.parse::<f64>().unwrap_or(0.0) * n.as_f64().unwrap_or(0.0))
            .sum();
        parts.push(format!("{:.1} decision points a game", total / games));
    }
    Ok(parts.join(" · "))
}

/// Beside each option the document declares: the value each house-rules
/// file of the workspace that names this file gives it.
pub(super) fn inlay_hints(server: &Server, params: InlayHintParams) -> Option<Vec<InlayHint>> {
    let (_, analysis) = server.document(&params.text_document.uri)?;
    let file = &analysis.index.files[analysis.file];
    if file.path.extension().is_none_or(|e| e != "rules") {
        return None;
    }
    let settings = house_settings(server, &file.path);
    let mut hints = vec![];
    for (name, declared) in &analysis.index.globals {
        let Some(option) = declared
            .iter()
            .find(|d| d.kind == NameKind::Option && d.at.file == analysis.file)
        else {
            continue;
        };
        let given: Vec<String> = settings
            .iter()
            .filter_map(|(house, options)| options.get(name).map(|v| format!("{house}: {v}")))
            .collect();
        if given.is_empty() {
            continue;
        }
        let line_end = file.text[option.at.range.start..]
            .find('\n')
            .map_or(file.text.len(), |n| option.at.range.start + n);
        // Before a comment at the line's end, if there is one.
        let end = file
            .tokens
            .iter()
            .find(|t| t.kind == TokenKind::Comment && t.start > option.at.range.start && t.start < line_end)
            .map_or(line_end, |t| file.text[..t.start].trim_end().len());
        hints.push(InlayHint {
            position: position::position(&file.text, end),
            label: InlayHintLabel::String(format!("  {}", given.join(", "))),
            kind: None,
            text_edits: None,
            tooltip: None,
            padding_left: Some(true),
            padding_right: None,
            data: None,
        });
    }
    hints.sort_by_key(|h| (h.position.line, h.position.character));
    Some(hints)
}

/// The `[options]` of every house-rules file in the workspace whose `rules`
/// is `rules`, by the house file's name.
fn house_settings(server: &Server, rules: &Path) -> Vec<(String, HashMap<String, String>)> {
    let wanted = super::navigate::canonical(rules);
    let mut found = vec![];
    for house in super::navigate::workspace_files(server, rules, "toml") {
        let text = match server.open.get(&house) {
            Some(text) => text.clone(),
            None => match crate::input::read_text(&house, crate::input::SOURCE_LIMIT) {
                Ok(text) => text,
                Err(_) => continue,
            },
        };
        let Ok(table) = text.parse::<toml::Table>() else {
            continue;
        };
        let Some(named) = table.get("rules").and_then(|r| r.as_str()) else {
            continue;
        };
        let Some(folder) = house.parent() else { continue };
        if super::navigate::canonical(&folder.join(named)) != wanted {
            continue;
        }
        let options = table
            .get("options")
            .and_then(|o| o.as_table())
            .map(|o| o.iter().map(|(k, v)| (k.clone(), v.to_string())).collect())
            .unwrap_or_default();
        let shown = house
            .file_name()
            .map_or_else(|| house.display().to_string(), |n| n.to_string_lossy().into_owned());
        found.push((shown, options));
    }
    found
}
