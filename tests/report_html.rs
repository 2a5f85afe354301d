//! `simulate --html` and `compare --html`: a page that parses, starts with
//! the report's own summary, holds one inline SVG per chart, marks the rules
//! that never fired, loads nothing from elsewhere, escapes every name, and
//! comes out the same for every thread count.

mod common;

use std::path::{Path, PathBuf};

use common::cli::rpsdsl;
use rpsdsl::sim::Report;
use scraper::{ElementRef, Html, Selector};

const BASE: &str = "games/rubber_paper_scissors.rules";
const VARIANT: &str = "games/variants/fourth_token_six.rules";

fn select<'a>(doc: &'a Html, css: &str) -> Vec<ElementRef<'a>> {
    doc.select(&Selector::parse(css).unwrap()).collect()
}

fn text(e: &ElementRef) -> String {
    e.text().collect::<String>()
}

fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report_html_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `rpsdsl args... --json --html FILE`; the JSON on stdout and the page.
fn run_with_page(args: &[&str], dir: &Path) -> (serde_json::Value, String) {
    let out = dir.join("report.html");
    let mut all = args.to_vec();
    all.extend(["--json", "--html", out.to_str().unwrap()]);
    let run = rpsdsl(&all);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let json = serde_json::from_slice(&run.stdout).unwrap();
    (json, std::fs::read_to_string(out).unwrap())
}

/// One `<svg>` in each chart's figure, and no other.
fn assert_one_svg_per_chart(doc: &Html, charts: usize) {
    let figures = select(doc, "figure.chart");
    assert_eq!(figures.len(), charts, "charts");
    for figure in &figures {
        let svgs = figure.select(&Selector::parse("svg").unwrap()).count();
        assert_eq!(
            svgs,
            1,
            "one svg in {}",
            figure.html().chars().take(200).collect::<String>()
        );
    }
    assert_eq!(select(doc, "svg").len(), charts, "no svg outside a chart");
}

/// Nothing is fetched: no scripts, stylesheets, images or frames, and no
/// address but the SVG namespace.
fn assert_self_contained(page: &str, doc: &Html) {
    for tag in ["script", "link", "img", "iframe", "object", "embed"] {
        assert!(select(doc, tag).is_empty(), "a <{tag}> in the page");
    }
    assert!(
        select(doc, "[src], [href]").is_empty(),
        "an attribute that loads something"
    );
    let addresses = page.matches("http").count();
    let namespaces = page.matches("http://www.w3.org/2000/svg").count();
    assert_eq!(addresses, namespaces, "an address other than the SVG namespace");
}

fn summary_lines(doc: &Html) -> Vec<String> {
    select(doc, "section.summary li").iter().map(text).collect()
}

#[test]
fn simulate_page_parses_with_one_svg_per_chart_and_never_fired_in_red() {
    let dir = tempdir("simulate");
    let (json, page) = run_with_page(&["simulate", BASE, "-n", "120"], &dir);
    let report = Report::from_json(&json.to_string()).unwrap();
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    assert_self_contained(&page, &doc);
    // Who wins, length, a score chart per seat, end causes, coverage.
    assert_one_svg_per_chart(&doc, 4 + report.seats.len());

    // The summary comes first, in the report's words and figures.
    let first = select(&doc, "main > section").into_iter().next().unwrap();
    assert_eq!(first.value().attr("class"), Some("summary"));
    let lines = summary_lines(&doc);
    let s = &json["summary"];
    let orange = &s["win_rates"][0];
    assert!(
        lines[0].starts_with(&format!(
            "Orange wins {:.1}% (95% CI {:.1}% to {:.1}%)",
            100.0 * orange["rate"].as_f64().unwrap(),
            100.0 * orange["low"].as_f64().unwrap(),
            100.0 * orange["high"].as_f64().unwrap()
        )),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("Balance {:.3}", s["balance"].as_f64().unwrap())))
    );

    // Every part that never fired is listed, and drawn in red in the chart.
    let never: Vec<String> = s["never_fired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert!(!never.is_empty(), "this game has parts that never fire");
    let listed: Vec<String> = select(&doc, "div.warn li").iter().map(text).collect();
    assert_eq!(listed, never);
    let coverage = select(&doc, "figure.chart").pop().unwrap();
    let red: Vec<String> = coverage
        .select(&Selector::parse(r#"text[font-weight="bold"]"#).unwrap())
        .map(|t| text(&t).trim().to_string())
        .collect();
    let silent: Vec<String> = report
        .coverage
        .iter()
        .filter(|c| c.games == 0 || c.yes == Some(0))
        .map(|c| c.title())
        .collect();
    assert_eq!(red, silent, "the labels in bold red are the parts that never fired");
    let fired = report.coverage.iter().find(|c| c.games > 0).unwrap();
    assert!(!red.contains(&fired.title()));

    // The whole text report is on the page too.
    let pre = text(&select(&doc, "details pre")[0]);
    assert_eq!(pre, report.to_text());
}

#[test]
fn compare_page_shows_base_and_variant_on_every_chart() {
    let dir = tempdir("compare");
    let (json, page) = run_with_page(&["compare", BASE, VARIANT, "-n", "100"], &dir);
    let doc = Html::parse_document(&page);
    assert!(doc.errors.is_empty(), "{:?}", doc.errors);
    assert_self_contained(&page, &doc);
    assert_one_svg_per_chart(&doc, 6);
    // The comparison's own plain-words summary, line for line.
    let summary: Vec<String> = json["summary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(summary_lines(&doc), summary);
    // Every chart draws both runs: the base's colour and the variant's.
    for figure in select(&doc, "figure.chart") {
        let svg = figure.html();
        assert!(svg.contains("#3B6EA5"), "base colour missing");
        assert!(svg.contains("#DE7D2C"), "variant colour missing");
    }
    let key = text(&select(&doc, "p.key")[0]);
    assert!(key.contains(BASE) && key.contains(VARIANT), "{key}");
}

#[test]
fn names_from_the_rules_are_escaped() {
    let dir = tempdir("escape");
    // A copy of classic RPS, with its prelude beside it, under a name full of markup.
    std::fs::create_dir_all(dir.join("prelude")).unwrap();
    std::fs::copy("games/prelude/rps.rules", dir.join("prelude/rps.rules")).unwrap();
    let rules = std::fs::read_to_string("games/rps.rules").unwrap().replace(
        "game \"Rock Paper Scissors\"",
        "game \"R<b>P</b>S & <script>x</script>\"",
    );
    let path = dir.join("a<b>.rules");
    std::fs::write(&path, rules).unwrap();
    let (json, page) = run_with_page(&["simulate", path.to_str().unwrap(), "-n", "20"], &dir);
    assert_eq!(json["game"], "R<b>P</b>S & <script>x</script>");
    let doc = Html::parse_document(&page);
    assert!(select(&doc, "b").is_empty() && select(&doc, "script").is_empty());
    assert!(text(&select(&doc, "h1")[0]).contains("R<b>P</b>S & <script>x</script>"));
    assert!(text(&select(&doc, "p.meta code")[0]).ends_with("a<b>.rules"));
}

#[test]
fn the_same_seed_gives_the_same_page_whatever_the_thread_count() {
    let dir = tempdir("threads");
    let mut pages = vec![];
    for jobs in ["1", "3"] {
        let out = dir.join(format!("jobs{jobs}.html"));
        let run = rpsdsl(&[
            "compare",
            BASE,
            VARIANT,
            "-n",
            "80",
            "--jobs",
            jobs,
            "--html",
            out.to_str().unwrap(),
        ]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
        pages.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(pages[0], pages[1]);
}

#[test]
fn an_output_in_a_missing_folder_is_refused_before_the_run() {
    let run = rpsdsl(&["simulate", BASE, "-n", "1000000", "--html", "no/such/folder/r.html"]);
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains(
            "cannot write the HTML report to `no/such/folder/r.html`: the folder `no/such/folder` does not exist"
        ),
        "{err}"
    );
    assert!(run.stdout.is_empty(), "no games were played");
}

#[test]
fn analyze_page_shows_skill_choices_with_their_flags_and_tension() {
    let dir = tempdir("analyze");
    let out = dir.join("analysis.html");
    let args = [
        "analyze",
        "tests/games/sure_pick.rules",
        "-n",
        "40",
        "--agents",
        "greedy,random",
    ];
    let mut all = args.to_vec();
    all.extend(["--html", out.to_str().unwrap()]);
    let run = rpsdsl(&all);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let page = std::fs::read_to_string(&out).unwrap();
    let doc = Html::parse_document(&page);
    assert_self_contained(&page, &doc);
    // The edge chart, who wins each matchup, and the choices.
    assert_one_svg_per_chart(&doc, 3);
    let summary = summary_lines(&doc);
    assert!(
        summary[0].starts_with("Skill index +0.975 (95% CI +0.220 to +1.000): skill matters"),
        "{summary:?}"
    );
    assert!(
        summary[1].starts_with("Luck: random still beats strong in 0.0%"),
        "{summary:?}"
    );
    assert_eq!(
        summary[2], "Flagged choices: pick: 1 (never worth it); pick: 2 (never worth it); pick: 3 (dominant).",
        "{summary:?}"
    );
    assert!(
        summary[3].starts_with("Tension: 1.31 lead changes a game"),
        "{summary:?}"
    );
    // The choice table: every choice with its flag visible as a badge.
    let flags: Vec<(String, String)> = select(&doc, "table.figures tr")
        .iter()
        .filter_map(|row| {
            let cells: Vec<String> = row.select(&Selector::parse("td").unwrap()).map(|c| text(&c)).collect();
            let flag = row.select(&Selector::parse("td.flag span").unwrap()).next()?;
            let class = flag.value().attr("class").unwrap_or_default().to_string();
            Some((cells[0].clone(), format!("{} {class}", text(&flag))))
        })
        .collect();
    assert_eq!(
        flags,
        [
            ("pick: 1".to_string(), "never worth it never".to_string()),
            ("pick: 2".to_string(), "never worth it never".to_string()),
            ("pick: 3".to_string(), "dominant dominant".to_string()),
        ]
    );
    // Tension's figures, and each matchup's games and why it stopped.
    let cells: Vec<String> = select(&doc, "table.figures td").iter().map(text).collect();
    let after = |label: &str| {
        let at = cells
            .iter()
            .position(|c| c == label)
            .unwrap_or_else(|| panic!("{label} in {cells:?}"));
        cells[at + 1].clone()
    };
    assert_eq!(after("lead changes per game"), "1.31");
    assert_eq!(after("end margin, winner over the next"), "5.00");
    assert_eq!(after("greedy vs random"), "40");
    assert!(
        cells.contains(&"it played every game asked for".to_string()),
        "{cells:?}"
    );
    // The page ends with the text report, word for word.
    let text_run = rpsdsl(&args);
    let pre = select(&doc, "details pre");
    assert_eq!(
        text(&pre[0]).trim_end(),
        String::from_utf8_lossy(&text_run.stdout).trim_end()
    );
    // A folder that does not exist is refused before any game is played.
    let bad = rpsdsl(&["analyze", "games/rps.rules", "--html", "/no/such/folder/x.html"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("the folder `/no/such/folder` does not exist"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
