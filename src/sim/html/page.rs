//! The frame every HTML report shares: the page's head and styles, a
//! figure with its caption, and the error a chart may end in.

use maud::{DOCTYPE, Markup, PreEscaped, html};

/// A chart, or why it could not be drawn.
pub type ChartError = Box<dyn std::error::Error>;

/// The styles every report shares.
const STYLE: &str = r#"
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #282828; background: #f4f5f7; margin: 0; }
main { max-width: 880px; margin: 0 auto; padding: 24px 24px 48px; background: #fff; }
h1 { font-size: 1.6em; margin: 0 0 6px; }
h2 { font-size: 1.2em; margin: 32px 0 4px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
p.meta { color: #555; margin: 4px 0; }
p.note { color: #555; margin: 2px 0 8px; font-size: 0.92em; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.95em; }
p.key { margin: 8px 0; font-size: 1.05em; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 2px; margin: 0 6px 0 18px; vertical-align: -2px; }
.swatch:first-child { margin-left: 0; }
.swatch.base { background: rgb(59, 110, 165); }
.swatch.variant { background: rgb(222, 125, 44); }
section.summary { background: #f0f5fb; border-left: 4px solid rgb(59, 110, 165); padding: 4px 16px 8px; margin-top: 16px; }
section.summary h2 { border: none; margin-top: 8px; }
h3 { font-size: 1em; margin: 16px 0 0; }
section.summary li { margin: 4px 0; line-height: 1.4; }
figure.chart { margin: 8px 0 0; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.92em; margin: 2px 0 0; }
div.warn { color: rgb(192, 40, 40); margin-top: 8px; }
div.warn ul { margin: 4px 0; }
details { margin-top: 32px; }
pre { font-size: 12px; overflow-x: auto; background: #f7f7f7; padding: 12px; }
"#;

/// A whole page: the head every report shares (with `style` added to the
/// shared styles) and `body` in its `main`.
pub(crate) fn shell(title: &str, style: &str, body: Markup) -> String {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                style { (PreEscaped(STYLE)) (PreEscaped(style)) }
            }
            body { main { (body) } }
        }
    };
    let mut out = markup.into_string();
    out.push('\n');
    out
}

/// A chart in a figure, with its caption if any.
pub(crate) fn figure(svg: String, caption: &str) -> Markup {
    html! {
        figure.chart {
            (PreEscaped(svg))
            @if !caption.is_empty() { figcaption { (caption) } }
        }
    }
}
