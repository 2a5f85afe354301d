//! The report's charts, drawn with plotters' SVG backend: horizontal bars
//! (rates with their confidence intervals, shares of games) and
//! distributions (one run as bars, a second overlaid as an outline).
//!
//! The browser draws the text, so plotters never needs a font file; it
//! writes text at 1/1.24 of the size asked for, so [`font`] asks for more.

use std::collections::BTreeMap;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A chart, or why plotters could not draw it.
pub(crate) type Drawn = Result<String, Box<dyn std::error::Error>>;

/// The colour of the first (or only) run.
pub(crate) const BASE: RGBColor = RGBColor(59, 110, 165);
/// The colour of the variant.
pub(crate) const VARIANT: RGBColor = RGBColor(222, 125, 44);
/// Labels of rules that never fired.
const WARN: RGBColor = RGBColor(192, 40, 40);
const INK: RGBColor = RGBColor(40, 40, 40);
const FAINT: RGBColor = RGBColor(110, 110, 110);

/// Chart width in pixels; the page lays charts out at this width.
pub(crate) const WIDTH: u32 = 820;

/// A text style of `px` pixels as the browser will draw it.
fn font(px: f64) -> TextStyle<'static> {
    ("sans-serif", px * 1.24).into_font().color(&INK)
}

fn bold(px: f64) -> TextStyle<'static> {
    ("sans-serif", px * 1.24, FontStyle::Bold).into_font().color(&INK)
}

fn percent_label(x: &f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// One run's bar in a bar chart.
pub(crate) struct Bar {
    /// A share, 0 to 1.
    pub value: f64,
    /// Its 95% interval, drawn as a whisker.
    pub interval: Option<(f64, f64)>,
    /// Written after the bar instead of the value ("never fired").
    pub note: Option<String>,
}

/// One row of a bar chart: a label and a bar per run (`None`: the run does not have it).
pub(crate) struct BarRow {
    pub label: String,
    /// Drawn in red: a rule that never fired.
    pub warn: bool,
    pub bars: Vec<Option<Bar>>,
}

/// Labels longer than this are cut, so one long name does not squeeze the bars.
const MAX_LABEL: usize = 44;

fn short(label: &str) -> String {
    if label.chars().count() <= MAX_LABEL {
        label.to_string()
    } else {
        let cut: String = label.chars().take(MAX_LABEL - 1).collect();
        format!("{cut}…")
    }
}

/// Horizontal bars from 0% to 100%, one group per row, one bar per run in
/// the run colours, with whiskers for intervals and the figure at the end.
pub(crate) fn bar_chart(rows: &[BarRow], x_desc: &str) -> Drawn {
    let runs = rows.iter().map(|r| r.bars.len()).max().unwrap_or(1).max(1);
    let row_height = if runs == 1 { 30 } else { 44 };
    let plot_height = row_height * rows.len().max(1) as u32;
    let height = plot_height + 60;
    let longest = rows.iter().map(|r| short(&r.label).chars().count()).max().unwrap_or(0);
    // About 8 px a character at the labels' size, so a long label is not clipped.
    let label_width = (longest as u32 * 8 + 24).clamp(80, 380);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin_top(12)
            .margin_right(70)
            .x_label_area_size(44)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0f64..1f64, 0f64..rows.len().max(1) as f64)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(11)
            .x_label_formatter(&percent_label)
            .x_desc(x_desc)
            .axis_desc_style(font(13.0))
            .x_label_style(font(12.0))
            .max_light_lines(2)
            .light_line_style(RGBColor(242, 242, 242))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        let n = rows.len() as f64;
        let band = 0.76 / runs as f64;
        for (i, row) in rows.iter().enumerate() {
            // The first row at the top.
            let top = n - i as f64 - 0.12;
            let (lx, ly) = chart.backend_coord(&(0.0, n - i as f64 - 0.5));
            let style = if row.warn { bold(14.0).color(&WARN) } else { font(14.0) };
            let style = style.pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(short(&row.label), (lx - 8, ly), style))?;
            for (k, bar) in row.bars.iter().enumerate() {
                let run_colour = if k == 0 { BASE } else { VARIANT };
                let (y1, y0) = (top - k as f64 * band, top - (k + 1) as f64 * band + 0.04);
                let mid = (y0 + y1) / 2.0;
                let Some(bar) = bar else {
                    let (x, y) = chart.backend_coord(&(0.0, mid));
                    let style = font(11.0).color(&FAINT).pos(Pos::new(HPos::Left, VPos::Center));
                    root.draw(&Text::new("not in this game", (x + 4, y), style))?;
                    continue;
                };
                let value = bar.value.clamp(0.0, 1.0);
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y0), (value, y1)],
                    run_colour.filled(),
                )))?;
                let mut end = value;
                if let Some((low, high)) = bar.interval {
                    let (low, high) = (low.clamp(0.0, 1.0), high.clamp(0.0, 1.0));
                    let whisker = INK.stroke_width(1);
                    let cap = (y1 - y0) * 0.3;
                    chart.draw_series([
                        PathElement::new(vec![(low, mid), (high, mid)], whisker),
                        PathElement::new(vec![(low, mid - cap), (low, mid + cap)], whisker),
                        PathElement::new(vec![(high, mid - cap), (high, mid + cap)], whisker),
                    ])?;
                    end = end.max(high);
                }
                let (x, y) = chart.backend_coord(&(end, mid));
                let style = font(12.0).pos(Pos::new(HPos::Left, VPos::Center));
                match &bar.note {
                    None => root.draw(&Text::new(format!("{:.1}%", 100.0 * bar.value), (x + 5, y), style))?,
                    Some(note) => {
                        // No bar to show the run's colour: a swatch says which run it is.
                        root.draw(&Rectangle::new([(x + 2, y - 5), (x + 12, y + 5)], run_colour.filled()))?;
                        root.draw(&Text::new(note.clone(), (x + 17, y), style.color(&WARN)))?;
                    }
                }
            }
        }
        root.present()?;
    }
    Ok(svg)
}

/// One run's values for a distribution chart.
pub(crate) struct Distribution<'a> {
    /// "base", "variant", or the run's name.
    pub name: String,
    /// Games per value.
    pub counts: &'a BTreeMap<i64, u64>,
    /// The run's mean, marked with a vertical line.
    pub mean: Option<f64>,
    /// Games the mean is over, when that is not every game of the run.
    pub n: Option<u64>,
}

/// The lowest and highest value of any of the counts.
pub(crate) fn value_span<'a>(counts: impl Iterator<Item = &'a BTreeMap<i64, u64>>) -> Option<(i64, i64)> {
    counts
        .flat_map(|c| c.keys().next().into_iter().chain(c.keys().next_back()))
        .fold(None, |span, &v| match span {
            None => Some((v, v)),
            Some((lo, hi)) => Some((v.min(lo), v.max(hi))),
        })
}

/// Most bins a distribution is drawn with: wider bins beyond that.
const MAX_BINS: i128 = 40;

/// Share of games per bin: the first run as filled bars, a second as an
/// outline on top, each run's mean as a vertical line. Shares are of each
/// run's own games, so runs of different sizes compare.
/// The x axis spans at least `span` (so charts of several seats line up).
pub(crate) fn distribution_chart(runs: &[Distribution], x_desc: &str, span: Option<(i64, i64)>) -> Drawn {
    let (lo, hi) = value_span(runs.iter().map(|r| r.counts)).unwrap_or((0, 0));
    let (lo, hi) = match span {
        Some((a, b)) => (lo.min(a), hi.max(b)),
        None => (lo, hi),
    };
    // In i128: a hostile game's scores may span all of i64.
    let (lo, hi) = (i128::from(lo), i128::from(hi));
    let width = (hi - lo + MAX_BINS) / MAX_BINS;
    let bins = (hi - lo) / width + 1;
    let shares: Vec<Vec<f64>> = runs
        .iter()
        .map(|run| {
            let total: u64 = run.counts.values().sum();
            let mut bins = vec![0u64; bins as usize];
            for (&v, &c) in run.counts {
                bins[((i128::from(v) - lo) / width) as usize] += c;
            }
            bins.iter()
                .map(|&c| if total == 0 { 0.0 } else { c as f64 / total as f64 })
                .collect()
        })
        .collect();
    let top = shares.iter().flatten().copied().fold(0.0, f64::max).max(0.01) * 1.25;
    // The legend goes in the upper corner over the lower bars.
    let highest = |range: std::ops::Range<usize>| {
        shares
            .iter()
            .flat_map(|s| s[range.clone()].iter().copied())
            .fold(0.0, f64::max)
    };
    let third = (bins as usize).div_ceil(3);
    let corner = if highest(bins as usize - third..bins as usize) > highest(0..third) {
        SeriesLabelPosition::UpperLeft
    } else {
        SeriesLabelPosition::UpperRight
    };
    let (x0, x1) = (lo as f64 - 0.5, (lo + bins * width) as f64 - 0.5);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 300)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin_top(12)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, 0f64..top)?;
        chart
            .configure_mesh()
            .x_labels(12)
            .y_labels(6)
            .x_label_formatter(&|x| format!("{}", x.round() as i64))
            .y_label_formatter(&percent_label)
            .x_desc(x_desc)
            .y_desc("share of games")
            .axis_desc_style(font(13.0))
            .label_style(font(12.0))
            .max_light_lines(1)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()?;
        let edge = |b: usize| (lo + b as i128 * width) as f64 - 0.5;
        for (k, (run, shares)) in runs.iter().zip(&shares).enumerate() {
            let colour = if k == 0 { BASE } else { VARIANT };
            let n = run.n.map(|n| format!(", n={n}")).unwrap_or_default();
            let label = match run.mean {
                Some(mean) => format!("{} (mean {}{n})", run.name, super::super::render::number(mean)),
                None => format!("{} (no game{n})", run.name),
            };
            if k == 0 {
                let bars = shares
                    .iter()
                    .enumerate()
                    .map(|(b, &s)| Rectangle::new([(edge(b), 0.0), (edge(b + 1), s)], colour.mix(0.55).filled()));
                chart
                    .draw_series(bars)?
                    .label(label)
                    .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 16, y + 6)], colour.mix(0.55).filled()));
            } else {
                // The outline of the bars, as one step line.
                let mut points = vec![(x0, 0.0)];
                for (b, &s) in shares.iter().enumerate() {
                    points.push((edge(b), s));
                    points.push((edge(b + 1), s));
                }
                points.push((x1, 0.0));
                chart
                    .draw_series(std::iter::once(PathElement::new(points, colour.stroke_width(3))))?
                    .label(label)
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3)));
            }
            if let Some(mean) = run.mean {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(mean, 0.0), (mean, top)],
                    colour.stroke_width(2),
                )))?;
            }
        }
        chart
            .configure_series_labels()
            .position(corner)
            .label_font(font(12.5))
            .background_style(WHITE.mix(0.9))
            .border_style(RGBColor(200, 200, 200))
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

/// One row of an edge chart: a difference in `[-1, 1]` and its interval.
pub(crate) struct EdgeRow {
    pub label: String,
    pub value: f64,
    pub interval: (f64, f64),
}

/// Differences from -1 to +1, one row each: a dot at the value, a whisker
/// for its interval, and a line at 0 (no difference) to read them against.
pub(crate) fn edge_chart(rows: &[EdgeRow], x_desc: &str) -> Drawn {
    let row_height = 34;
    let height = row_height * rows.len().max(1) as u32 + 60;
    let longest = rows.iter().map(|r| short(&r.label).chars().count()).max().unwrap_or(0);
    // About 8 px a character at the labels' size, so a long label is not clipped.
    let label_width = (longest as u32 * 8 + 24).clamp(80, 380);
    let n = rows.len().max(1) as f64;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin_top(12)
            .margin_right(70)
            .x_label_area_size(44)
            .y_label_area_size(label_width)
            .build_cartesian_2d(-1f64..1f64, 0f64..n)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(11)
            .x_label_formatter(&|x| format!("{x:+.1}"))
            .x_desc(x_desc)
            .axis_desc_style(font(13.0))
            .x_label_style(font(12.0))
            .max_light_lines(1)
            .light_line_style(RGBColor(242, 242, 242))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (0.0, n)],
            FAINT.stroke_width(2),
        )))?;
        for (i, row) in rows.iter().enumerate() {
            let mid = n - i as f64 - 0.5;
            let (lx, ly) = chart.backend_coord(&(-1.0, mid));
            let style = font(14.0).pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(short(&row.label), (lx - 8, ly), style))?;
            let (low, high) = (row.interval.0.clamp(-1.0, 1.0), row.interval.1.clamp(-1.0, 1.0));
            let value = row.value.clamp(-1.0, 1.0);
            // Blue when the interval lies off 0 (the difference is clear), grey when it covers 0.
            let colour = if low > 0.0 || high < 0.0 { BASE } else { FAINT };
            let cap = 0.18;
            chart.draw_series([
                PathElement::new(vec![(low, mid), (high, mid)], colour.stroke_width(3)),
                PathElement::new(vec![(low, mid - cap), (low, mid + cap)], colour.stroke_width(2)),
                PathElement::new(vec![(high, mid - cap), (high, mid + cap)], colour.stroke_width(2)),
            ])?;
            chart.draw_series(std::iter::once(Circle::new((value, mid), 6, colour.filled())))?;
            let (x, y) = chart.backend_coord(&(high, mid));
            let style = font(12.0).pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(format!("{value:+.2}"), (x + 10, y), style))?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// One row of an interval chart: a mean and its interval, in a run's colour.
pub(crate) struct IntervalRow {
    pub label: String,
    pub value: f64,
    pub interval: (f64, f64),
    /// 0: the base's colour; 1: the variant's; 2: ink (a difference).
    pub run: usize,
}

/// Means with their intervals on a common axis spanning every interval
/// (and 0), one row each, with a line at 0 to read them against.
pub(crate) fn interval_chart(rows: &[IntervalRow], x_desc: &str) -> Drawn {
    let row_height = 34;
    let height = row_height * rows.len().max(1) as u32 + 60;
    let longest = rows.iter().map(|r| short(&r.label).chars().count()).max().unwrap_or(0);
    let label_width = (longest as u32 * 8 + 24).clamp(80, 380);
    let n = rows.len().max(1) as f64;
    let low = rows.iter().map(|r| r.interval.0).fold(0.0, f64::min);
    let high = rows.iter().map(|r| r.interval.1).fold(0.0, f64::max);
    let pad = ((high - low) * 0.05).max(1e-6);
    let (low, high) = (low - pad, high + pad);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin_top(12)
            .margin_right(80)
            .x_label_area_size(44)
            .y_label_area_size(label_width)
            .build_cartesian_2d(low..high, 0f64..n)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(0)
            .x_labels(9)
            .x_label_formatter(&|v| tick(*v, high - low))
            .x_desc(x_desc)
            .axis_desc_style(font(13.0))
            .x_label_style(font(12.0))
            .max_light_lines(1)
            .light_line_style(RGBColor(242, 242, 242))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, 0.0), (0.0, n)],
            FAINT.stroke_width(2),
        )))?;
        for (i, row) in rows.iter().enumerate() {
            let mid = n - i as f64 - 0.5;
            let (lx, ly) = chart.backend_coord(&(low, mid));
            let style = font(14.0).pos(Pos::new(HPos::Right, VPos::Center));
            root.draw(&Text::new(short(&row.label), (lx - 8, ly), style))?;
            let colour = match row.run {
                0 => BASE,
                1 => VARIANT,
                _ => INK,
            };
            let (from, to) = row.interval;
            let cap = 0.18;
            chart.draw_series([
                PathElement::new(vec![(from, mid), (to, mid)], colour.stroke_width(3)),
                PathElement::new(vec![(from, mid - cap), (from, mid + cap)], colour.stroke_width(2)),
                PathElement::new(vec![(to, mid - cap), (to, mid + cap)], colour.stroke_width(2)),
            ])?;
            chart.draw_series(std::iter::once(Circle::new((row.value, mid), 6, colour.filled())))?;
            let (x, y) = chart.backend_coord(&(to, mid));
            let style = font(12.0).pos(Pos::new(HPos::Left, VPos::Center));
            root.draw(&Text::new(format!("{:+.3}", row.value), (x + 10, y), style))?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// A tick's label: to six places, trailing zeros dropped, and a tick that
/// rounding put a hair off 0 shown as 0 (never "-0.0").
fn tick(value: f64, span: f64) -> String {
    let value = if value.abs() < span * 1e-9 { 0.0 } else { value };
    let text = format!("{value:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// A line on log-log axes: how a measure falls as work goes on (a solver's
/// exploitability by iteration), with a dashed line at `target`.
pub(crate) fn falling_chart(points: &[(f64, f64)], x_desc: &str, y_desc: &str, target: Option<f64>) -> Drawn {
    let positive: Vec<(f64, f64)> = points.iter().copied().filter(|&(x, y)| x > 0.0 && y > 0.0).collect();
    let x1 = positive.iter().map(|p| p.0).fold(1.0, f64::max) * 1.5;
    let mut ys: Vec<f64> = positive.iter().map(|p| p.1).collect();
    ys.extend(target.filter(|t| *t > 0.0));
    let y0 = ys.iter().copied().fold(f64::INFINITY, f64::min).min(1.0) / 2.0;
    let y1 = ys.iter().copied().fold(0.0, f64::max).max(y0 * 10.0) * 2.0;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 300)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .margin_top(12)
            .margin_right(24)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d((1f64..x1).log_scale(), (y0..y1).log_scale())?;
        chart
            .configure_mesh()
            .x_labels(10)
            .y_labels(8)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .x_desc(x_desc)
            .y_desc(y_desc)
            .axis_desc_style(font(13.0))
            .label_style(font(12.0))
            .max_light_lines(1)
            .bold_line_style(RGBColor(225, 225, 225))
            .draw()?;
        if let Some(target) = target.filter(|t| *t > 0.0) {
            // Dashes of equal length on the log scale.
            let dashes = (0..40).map(|k| {
                let at = |f: f64| x1.powf(f);
                PathElement::new(
                    vec![(at(k as f64 / 40.0), target), (at((k as f64 + 0.6) / 40.0), target)],
                    FAINT.stroke_width(1),
                )
            });
            chart.draw_series(dashes)?;
        }
        chart.draw_series(std::iter::once(PathElement::new(
            positive.clone(),
            BASE.stroke_width(2),
        )))?;
        chart.draw_series(positive.iter().map(|&p| Circle::new(p, 3, BASE.filled())))?;
        root.present()?;
    }
    Ok(svg)
}
