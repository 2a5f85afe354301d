//! The studio in a real browser: headless Chromium driven through
//! chromedriver (WebDriver) by fantoccini. A whole RPS3 game played by
//! clicking; a typo in the editor shown at its line; two people playing
//! Janken Deck in two separate browsers, neither shown the other's hand;
//! stepping back and forward through a game and forking it; a comparison
//! run from the page with its report shown in it; a verdict run from the
//! page; the lobby, and a take-back offered then refused.
//!
//! Without `chromium` and `chromedriver` these tests say so and pass; under
//! `CI=true` a missing browser fails them (`.ci/run` installs it).

mod common;

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::studio::{Studio, games_dir, names};
use fantoccini::{Client, ClientBuilder, Locator};

/// chromedriver in its own process group, which is ended on drop so that no
/// Chromium outlives the test.
struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group we started: its id is the child's (`process_group(0)`).
        let group = self.child.id();
        if group > 1 {
            let _ = Command::new("kill")
                .args(["-s", "TERM", "--", &format!("-{group}")])
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn which(name: &str) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .map(|p| p.display().to_string())
}

/// chromedriver, started and ready, or `None` (with the reason printed)
/// when it or Chromium is not installed; under CI that is a failure.
fn driver() -> Option<Driver> {
    let found = which("chromedriver").zip(which("chromium").or_else(|| which("chromium-browser")));
    let Some((chromedriver, _)) = found else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true but chromium or chromedriver is missing: install the Debian packages chromium and chromium-driver"
        );
        say("browser tests skipped: chromium or chromedriver is not installed");
        return None;
    };
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("chromedriver starts");
    let driver = Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::{Read, Write};
            // chromedriver answers only a local Host.
            let ask = format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
            let _ = s.write_all(ask.as_bytes());
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            // Read until the end of the JSON: the socket is not closed.
            let mut seen = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = s.read(&mut buf) {
                if n == 0 {
                    break;
                }
                seen.extend_from_slice(&buf[..n]);
                if seen.ends_with(b"}}") || seen.len() > 65536 {
                    break;
                }
            }
            if String::from_utf8_lossy(&seen).contains("\"ready\":true") {
                return Some(driver);
            }
        }
        assert!(Instant::now() < deadline, "chromedriver did not get ready");
        std::thread::sleep(Duration::from_millis(100));
    }
}

async fn browser(driver: &Driver) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), serde_json::json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({ "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1300,1000"] }),
    );
    ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&driver.url)
        .await
        .expect("a browser session")
}

/// Where screenshots go when `STUDIO_SHOTS` names a folder.
async fn shot(client: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("STUDIO_SHOTS") {
        let png = client.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join(format!("studio_{name}.png")), png).unwrap();
    }
}

/// The page's current turn (`body[data-turn]`) and whether the game is over.
async fn turn_and_over(client: &Client) -> (String, bool) {
    let v = client
        .execute(
            "return [document.body.dataset.turn || '', !document.getElementById('over').hidden || !document.getElementById('failure').hidden]",
            vec![],
        )
        .await
        .unwrap();
    (v[0].as_str().unwrap().to_string(), v[1].as_bool().unwrap())
}

/// Clicks the first of the elements `css` finds that a person could click:
/// drawn with a size, and on top where its middle is (a space's circle
/// under its pawn is clicked through the pawn).
async fn click_first(client: &Client, css: &str) -> bool {
    let script = format!(
        "const all = [...document.querySelectorAll(\"{css}\")]; \
         for (let i = 0; i < all.length; i++) {{ \
           let r = all[i].getBoundingClientRect(); if (r.width < 2 || r.height < 2) continue; \
           all[i].scrollIntoView({{block: 'center'}}); r = all[i].getBoundingClientRect(); \
           const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2); \
           const at = hit && hit.closest('[data-target]'); \
           if (at && at.getAttribute('data-target') === all[i].getAttribute('data-target')) return i; \
         }} return -1;"
    );
    let index = client.execute(&script, vec![]).await.unwrap().as_i64().unwrap_or(-1);
    let all = client.find_all(Locator::Css(css)).await.unwrap_or_default();
    if let Some(element) = usize::try_from(index).ok().and_then(|i| all.get(i))
        && element.click().await.is_ok()
    {
        return true;
    }
    // Else each in turn, as WebDriver finds them clickable.
    for element in all {
        if element.click().await.is_ok() {
            return true;
        }
    }
    false
}

async fn wait_until(client: &Client, script: &str, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        if client.execute(script, vec![]).await.unwrap().as_bool() == Some(true) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

/// A whole RPS3 game against a random agent, every choice a click: pawns
/// from the reserve, throws from the menu, moves on the board (the pawn's
/// space, then where it goes).
async fn rps3_by_clicking(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("rps3.rules", "human,random", &["max_turns=6"]);
    let client = browser(driver).await;
    client
        .goto(&format!("{}{}", studio.base, links[0].as_ref().unwrap()))
        .await
        .unwrap();
    wait_until(&client, "return !!document.body.dataset.turn", "the first screen").await;
    let (mut board_clicks, mut menu_clicks) = (0, 0);
    let mut shot_taken = false;
    for step in 0..400 {
        let (turn, over) = turn_and_over(&client).await;
        if over {
            break;
        }
        assert!(step < 399, "the game did not end");
        let asked = client.find_all(Locator::Css("#prompt button.offer")).await.unwrap();
        if asked.is_empty() {
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        }
        if client.find_all(Locator::Css("#board .can")).await.unwrap().is_empty() {
            asked[0].click().await.unwrap();
            menu_clicks += 1;
        } else {
            assert!(
                click_first(&client, "#board .can").await,
                "nothing on the board takes a click"
            );
            board_clicks += 1;
            if !client.find_all(Locator::Css("#board .next")).await.unwrap().is_empty() {
                if !shot_taken {
                    // A pawn picked, where it may go outlined.
                    client.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
                    shot(&client, "board_mid_game").await;
                    shot_taken = true;
                }
                assert!(click_first(&client, "#board .next").await, "no target takes a click");
                board_clicks += 1;
            }
        }
        let script =
            format!("return document.body.dataset.turn !== '{turn}' || !document.getElementById('over').hidden");
        wait_until(&client, &script, "the next decision").await;
    }
    let over = client.find(Locator::Id("over")).await.unwrap().text().await.unwrap();
    assert!(over.starts_with("Game over:"), "{over}");
    let log = client
        .find(Locator::Id("happened"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(log.contains("You choose"), "{log}");
    // Nine pawns placed from the reserve, and moves made on the board.
    assert!(board_clicks >= 9 + 2, "{board_clicks} clicks on the board");
    assert!(menu_clicks >= 1, "the throw is a menu");
    shot(&client, "board_end").await;
    client.close().await.unwrap();
}

/// A typo typed in the editor: its diagnostic appears at its line, in the
/// list and in the gutter, shortly after typing stops.
async fn typo_in_the_editor(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let client = browser(driver).await;
    client
        .goto(&format!("{}/?key={}&file=rps.rules", studio.base, studio.key))
        .await
        .unwrap();
    wait_until(
        &client,
        "return !!document.querySelector('#diagnostics .diag.ok')",
        "a clean check",
    )
    .await;
    let text = std::fs::read_to_string(games_dir().join("rps.rules")).unwrap();
    let line = 1 + text
        .lines()
        .position(|l| l.starts_with("flow"))
        .expect("rps.rules has a flow");
    // The caret at the start of that line, then a typo typed there.
    client
        .execute(
            &format!(
                "const c = document.getElementById('code'); const lines = c.value.split('\\n'); \
                 let at = 0; for (let i = 0; i < {line} - 1; i++) at += lines[i].length + 1; \
                 c.focus(); c.setSelectionRange(at, at); return at"
            ),
            vec![],
        )
        .await
        .unwrap();
    client
        .find(Locator::Id("code"))
        .await
        .unwrap()
        .send_keys("x")
        .await
        .unwrap();
    let css = format!("#diagnostics .diag.error[data-line='{line}']");
    wait_until(
        &client,
        &format!("return !!document.querySelector(\"{css}\")"),
        "the typo's diagnostic",
    )
    .await;
    let shown = client.find(Locator::Css(&css)).await.unwrap().text().await.unwrap();
    assert!(shown.contains(&format!("line {line}, column 1")), "{shown}");
    assert!(shown.contains("rpsdsl::"), "{shown}");
    let gutter = client
        .execute(
            "return [...document.querySelectorAll('#gutter .bad')].map(s => s.textContent)",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(gutter, serde_json::json!([line.to_string()]));
    shot(&client, "editor_diagnostic").await;
    client.close().await.unwrap();
}

/// Every card title in the seat's picture that names a piece in `zone`.
async fn titles(client: &Client) -> Vec<String> {
    let v = client
        .execute(
            "return [...document.querySelectorAll('#board title')].map(t => t.textContent)",
            vec![],
        )
        .await
        .unwrap();
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// Two people, two browsers: each page's DOM and each response its seat
/// receives never hold the other's cards in hand.
async fn two_seats_of_janken(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("janken_deck.rules", "human,human", &[]);
    let (ann_link, ben_link) = (links[0].clone().unwrap(), links[1].clone().unwrap());
    let ann = browser(driver).await;
    let ben = browser(driver).await;
    ann.goto(&format!("{}{ann_link}", studio.base)).await.unwrap();
    ben.goto(&format!("{}{ben_link}", studio.base)).await.unwrap();
    let seats = [(&ann, "Ann", &ann_link), (&ben, "Ben", &ben_link)];
    for (client, _, _) in &seats {
        wait_until(client, "return !!document.body.dataset.turn", "the first screen").await;
    }
    let mut checked = 0;
    for _ in 0..6 {
        for (me, other) in [(0, 1), (1, 0)] {
            let (client, name, link) = seats[me];
            let (other_client, other_name, _) = seats[other];
            // The other's hand, as the other sees it: faces, not backs.
            let hand: Vec<String> = titles(other_client)
                .await
                .iter()
                .filter_map(|t| t.strip_suffix(&format!(" (hand of {other_name})")))
                .map(|t| t.split(" x").next().unwrap().to_string())
                .filter(|t| t.starts_with("Card "))
                .collect();
            let dom = client.source().await.unwrap();
            let (_, response) = common::studio::request(&studio.base, "GET", &format!("/api{link}"), &[], None);
            for card in &hand {
                assert!(!names(&dom, card), "{name}'s page shows {other_name}'s {card}");
                assert!(!names(&response, card), "{name} was sent {other_name}'s {card}");
                checked += 1;
            }
        }
        // Whoever is asked answers with the first choice.
        for (client, _, _) in &seats {
            if let Ok(button) = client.find(Locator::Css("#prompt button.offer")).await {
                let (turn, _) = turn_and_over(client).await;
                if button.click().await.is_ok() {
                    let script = format!(
                        "return document.body.dataset.turn !== '{turn}' || !!document.getElementById('waiting').textContent"
                    );
                    wait_until(client, &script, "the choice to be taken").await;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    assert!(checked >= 10, "only {checked} cards checked");
    ann.close().await.unwrap();
    ben.close().await.unwrap();
}

/// The text of the element `id`.
async fn text_of(client: &Client, id: &str) -> String {
    client.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// Back and forward through a game, then a fork from an earlier step: the
/// studio's page opened first in this browser lets the seat's page fork.
async fn time_travel_and_fork(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("janken_deck.rules", "human,random", &[]);
    let client = browser(driver).await;
    client
        .goto(&format!("{}/?key={}&file=janken_deck.rules", studio.base, studio.key))
        .await
        .unwrap();
    wait_until(&client, "return !!document.querySelector('#files option')", "the files").await;
    client
        .goto(&format!("{}{}", studio.base, links[0].as_ref().unwrap()))
        .await
        .unwrap();
    wait_until(&client, "return !!document.body.dataset.turn", "the first screen").await;
    // Three of Ann's decisions, by clicking.
    for _ in 0..3 {
        let (turn, over) = turn_and_over(&client).await;
        assert!(!over);
        wait_until(
            &client,
            "return !!document.querySelector('#prompt button.offer')",
            "a prompt",
        )
        .await;
        client
            .find(Locator::Css("#prompt button.offer"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let script = format!("return document.body.dataset.turn !== '{turn}'");
        wait_until(&client, &script, "the next decision").await;
    }
    let (turn, _) = turn_and_over(&client).await;
    let turn: u64 = turn.parse().unwrap();
    assert!(text_of(&client, "time-at").await.contains("(now)"));
    let lines_now = client.find_all(Locator::Css("#happened li")).await.unwrap().len();
    client
        .find(Locator::Id("time-back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let back = format!("looking back: step {} of {turn}", turn - 1);
    let script = format!("return document.getElementById('time-at').textContent === '{back}'");
    wait_until(&client, &script, "one step back").await;
    // The past asks nothing, and shows less of what happened.
    assert!(
        client
            .find_all(Locator::Css("#prompt button.offer"))
            .await
            .unwrap()
            .is_empty()
    );
    assert!(client.find_all(Locator::Css("#happened li")).await.unwrap().len() < lines_now);
    client
        .find(Locator::Id("time-back"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let script = format!(
        "return document.getElementById('time-at').textContent.startsWith('looking back: step {} ')",
        turn - 2
    );
    wait_until(&client, &script, "two steps back").await;
    client
        .find(Locator::Id("time-forward"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let script = format!("return document.getElementById('time-at').textContent === '{back}'");
    wait_until(&client, &script, "one step forward").await;
    client.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    shot(&client, "time_travel").await;
    // A fork from here: a new game, its links listed; Ann's opens at this step.
    client.find(Locator::Id("fork")).await.unwrap().click().await.unwrap();
    wait_until(
        &client,
        "return !!document.querySelector('#forked a.seat-link')",
        "the fork's links",
    )
    .await;
    shot(&client, "fork").await;
    let link = client
        .find(Locator::Css("#forked a.seat-link"))
        .await
        .unwrap()
        .attr("href")
        .await
        .unwrap()
        .unwrap();
    assert!(!link.ends_with(links[0].as_ref().unwrap()), "a new game");
    client.goto(&link).await.unwrap();
    // At that step, or past it when the studio's agent was asked there.
    let script = format!("return Number(document.body.dataset.turn) >= {}", turn - 1);
    wait_until(&client, &script, "the fork at its step").await;
    assert!(text_of(&client, "time-at").await.contains("(now)"));
    client.close().await.unwrap();
}

/// A comparison run from the studio's page: progress, then the report in
/// the page's frame.
async fn compare_in_the_page(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let client = browser(driver).await;
    client
        .goto(&format!("{}/?key={}&file=janken_deck.rules", studio.base, studio.key))
        .await
        .unwrap();
    wait_until(
        &client,
        "return !!document.querySelector('#compare-base option')",
        "the files",
    )
    .await;
    client
        .execute(
            "document.getElementById('compare-base').value = 'janken_deck.rules';              document.getElementById('compare-variant').value = 'variants/janken_three_wilds.rules';              document.getElementById('compare-games').value = '300';",
            vec![],
        )
        .await
        .unwrap();
    client
        .find(Locator::Id("compare-run"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(
        &client,
        "return !document.getElementById('compare-pane').hidden",
        "the comparison",
    )
    .await;
    assert_eq!(text_of(&client, "compare-status").await, "Done.");
    assert!(text_of(&client, "compare-text").await.contains("janken_three_wilds"));
    // The report in the frame (sandboxed: read through its own URL).
    let src = client
        .execute("return document.getElementById('compare-report').src", vec![])
        .await
        .unwrap();
    let path = src.as_str().unwrap().trim_start_matches(&studio.base).to_string();
    let (status, html) = common::studio::request(&studio.base, "GET", &path, &[], None);
    assert_eq!(status, 200);
    assert!(html.contains("Compare Janken Deck"));
    // Time for the frame to draw its charts.
    tokio::time::sleep(Duration::from_millis(400)).await;
    client.execute("window.scrollTo(0, 0)", vec![]).await.unwrap();
    shot(&client, "compare_panel").await;
    client
        .execute("document.getElementById('compare-pane').scrollIntoView()", vec![])
        .await
        .unwrap();
    shot(&client, "compare_report").await;
    client.close().await.unwrap();
}

/// A verdict run from the page: the study's own fields shown, progress,
/// then the answers on top and the report with its charts below.
async fn verdict_in_the_page(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let client = browser(driver).await;
    client
        .goto(&format!("{}/?key={}&file=janken_deck.rules", studio.base, studio.key))
        .await
        .unwrap();
    wait_until(
        &client,
        "return !!document.querySelector('#study-file option')",
        "the files",
    )
    .await;
    // A sweep asks for what to vary, not for a variant.
    let shown = |id: &str| format!("return !document.getElementById('{id}').closest('label').hidden");
    client
        .execute(
            "const k = document.getElementById('study-kind'); k.value = 'sweep'; k.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(client.execute(&shown("study-vary"), vec![]).await.unwrap(), true);
    assert_eq!(client.execute(&shown("study-variant"), vec![]).await.unwrap(), false);
    client
        .execute(
            "const k = document.getElementById('study-kind'); k.value = 'verdict'; k.dispatchEvent(new Event('change'));\
             document.getElementById('study-file').value = 'janken_deck.rules';\
             document.getElementById('study-variant').value = 'variants/janken_three_wilds.rules';\
             document.getElementById('study-agents').value = 'greedy:samples=1,random';\
             document.getElementById('study-seconds').value = '6';",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(client.execute(&shown("study-variant"), vec![]).await.unwrap(), true);
    client
        .find(Locator::Id("study-run"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_until(
        &client,
        "return !document.getElementById('compare-pane').hidden",
        "the verdict",
    )
    .await;
    assert_eq!(text_of(&client, "study-status").await, "Done.");
    assert_eq!(text_of(&client, "report-title").await, "Verdict");
    let text = text_of(&client, "compare-text").await;
    assert!(
        text.starts_with("Verdict: variants/janken_three_wilds.rules against janken_deck.rules"),
        "{text}"
    );
    assert!(text.contains("  fair  "), "{text}");
    let src = client
        .execute("return document.getElementById('compare-report').src", vec![])
        .await
        .unwrap();
    let path = src.as_str().unwrap().trim_start_matches(&studio.base).to_string();
    let (status, html) = common::studio::request(&studio.base, "GET", &path, &[], None);
    assert_eq!(status, 200);
    assert!(html.contains("janken_three_wilds"));
    tokio::time::sleep(Duration::from_millis(400)).await;
    client
        .execute("document.getElementById('study-kind').scrollIntoView()", vec![])
        .await
        .unwrap();
    shot(&client, "verdict_panel").await;
    client
        .execute("document.getElementById('compare-pane').scrollIntoView()", vec![])
        .await
        .unwrap();
    shot(&client, "verdict_report").await;
    client.close().await.unwrap();
}

/// The lobby and a take-back, in the page: a seat's tab says "Your turn";
/// its take-back is offered, then refused once the other seat has
/// answered, saying so; the studio's page lists both games, who is
/// connected, and deletes the finished one.
async fn lobby_and_take_back(driver: &Driver) {
    let studio = Studio::start(&games_dir(), "random");
    let links = studio.start_game("classic/tic_tac_toe.rules", "human,human", &[]);
    let (x, o) = (links[0].clone().unwrap(), links[1].clone().unwrap());
    let finished = studio.start_game("rps.rules", "human,random", &[]);
    let rps = finished[0].clone().unwrap();
    // Played to its end (a tie with the agent's throw goes on).
    for _ in 0..100 {
        let (_, screen) = common::studio::get_json(&studio, &format!("/api{rps}"));
        if !screen["over"].is_null() {
            break;
        }
        let body = format!(r#"{{"turn":{},"index":0}}"#, screen["turn"]);
        let (status, _) = common::studio::request(&studio.base, "POST", &format!("/api{rps}/choose"), &[], Some(&body));
        assert_eq!(status, 200);
    }

    let client = browser(driver).await;
    client.goto(&format!("{}{x}", studio.base)).await.unwrap();
    wait_until(
        &client,
        "return document.title.startsWith('Your turn')",
        "'Your turn' in the title",
    )
    .await;
    assert!(click_first(&client, "#prompt button.offer").await);
    wait_until(
        &client,
        "return !document.title.startsWith('Your turn')",
        "the title without 'Your turn'",
    )
    .await;
    wait_until(
        &client,
        "return !document.getElementById('take-back').disabled",
        "the take-back offered",
    )
    .await;
    // The other seat answers: the take-back is refused, with the reason.
    let (status, _) = common::studio::request(
        &studio.base,
        "POST",
        &format!("/api{o}/choose"),
        &[],
        Some(r#"{"turn":1,"index":0}"#),
    );
    assert_eq!(status, 200);
    wait_until(
        &client,
        "return document.getElementById('take-back-why').textContent.includes('another seat has acted since')",
        "the reason a take-back is refused",
    )
    .await;
    shot(&client, "take_back_refused").await;

    // The lobby, in the studio's page, while the seat's page is open in another tab.
    let seat_tab = client.window().await.unwrap();
    let lobby_tab = client.new_window(true).await.unwrap();
    client.switch_to_window(lobby_tab.handle).await.unwrap();
    client
        .goto(&format!("{}/?key={}", studio.base, studio.key))
        .await
        .unwrap();
    wait_until(
        &client,
        "return document.querySelectorAll('#lobby tbody tr').length === 2",
        "two games in the lobby",
    )
    .await;
    let text = client.find(Locator::Css("#lobby")).await.unwrap().text().await.unwrap();
    assert!(
        text.contains("Tic-Tac-Toe") && text.contains("Rock Paper Scissors"),
        "{text}"
    );
    assert!(
        text.contains("resume") && text.contains("watch") && text.contains("play again"),
        "{text}"
    );
    assert!(text.contains("x to play"), "whose turn: {text}");
    wait_until(
        &client,
        "return document.querySelectorAll('#lobby .presence.on').length >= 1",
        "the open seat shown connected",
    )
    .await;
    client
        .execute("document.getElementById('lobby-pane').scrollIntoView()", vec![])
        .await
        .unwrap();
    shot(&client, "lobby").await;
    let delete = client
        .find(Locator::Css("#lobby tr.finished button:last-of-type"))
        .await
        .unwrap();
    assert_eq!(delete.text().await.unwrap(), "delete");
    delete.click().await.unwrap();
    wait_until(
        &client,
        "return document.querySelectorAll('#lobby tbody tr').length === 1",
        "the finished game deleted",
    )
    .await;
    client.close_window().await.unwrap();
    client.switch_to_window(seat_tab).await.unwrap();
    client.close().await.unwrap();
}

#[test]
fn the_studio_in_a_browser() {
    let Some(driver) = driver() else { return };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let started = Instant::now();
    let lap = |what: &str, from: Instant| say(&format!("  {what}: {:.1}s", from.elapsed().as_secs_f64()));
    runtime.block_on(async {
        let t = Instant::now();
        rps3_by_clicking(&driver).await;
        lap("a whole RPS3 game by clicking", t);
        let t = Instant::now();
        typo_in_the_editor(&driver).await;
        lap("a typo in the editor", t);
        let t = Instant::now();
        two_seats_of_janken(&driver).await;
        lap("two seats of Janken Deck", t);
        let t = Instant::now();
        time_travel_and_fork(&driver).await;
        lap("back, forward and a fork", t);
        let t = Instant::now();
        compare_in_the_page(&driver).await;
        lap("a comparison in the page", t);
        let t = Instant::now();
        verdict_in_the_page(&driver).await;
        lap("a verdict in the page", t);
        let t = Instant::now();
        lobby_and_take_back(&driver).await;
        lap("the lobby and a take-back", t);
    });
    say(&format!(
        "browser tests: 7 ran in {:.1}s",
        started.elapsed().as_secs_f64()
    ));
}

/// Writes a line to the real standard error: the test harness captures
/// `eprintln!` of a passing test, and how many browser tests ran (or that
/// they were skipped) must show in `cargo test`'s output.
fn say(line: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "{line}");
}
