//! Line charts: one or more series over shared x positions (rounds).

use super::color::Color;
use super::escape::{Markup, escape};
use super::{coord, shorten, tick_label};

/// The page's content width, as for bar charts.
const WIDTH: f64 = super::bar::WIDTH;
const PLOT_HEIGHT: f64 = 200.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 10.0;
const LEGEND_ROW: f64 = 18.0;
/// At most this many steps between y-axis ticks.
const TICK_STEPS: f64 = 5.0;

/// Tick values on a 1-2-5 step (0, 5, 10 rather than 0, 2.75, 5.5), from
/// the first multiple of the step at or above `min` up to `max`.
fn ticks(min: f64, max: f64) -> Vec<f64> {
    let raw = (max - min) / TICK_STEPS;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(10.0 * magnitude);
    let first = (min / step).ceil();
    // Multiplying (not adding) and rounding keeps 0.6 from printing as 0.6000000000000001.
    (0..).map(|i| ((first + f64::from(i)) * step * 1e9).round() / 1e9).take_while(|value| *value <= max + step * 1e-9).collect()
}

/// A named line: one value per x position, `None` where it has no value
/// (the line breaks there).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    name: String,
    points: Vec<Option<f64>>,
    color: Option<Color>,
}

impl Series {
    /// A series with one optional value per x position.
    pub fn new(name: &str, points: Vec<Option<f64>>) -> Self {
        Self { name: name.to_string(), points, color: None }
    }

    /// The line's colour; by default series take the palette in order.
    pub fn color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }
}

/// A line chart with labelled x positions (e.g. "round 1", "round 2"),
/// rendered as inline SVG inside a `<figure>`, with a legend below.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    title: String,
    x_labels: Vec<String>,
    y_range: Option<(f64, f64)>,
    series: Vec<Series>,
}

impl LineChart {
    /// A chart over these x positions.
    pub fn new<S: AsRef<str>>(title: &str, x_labels: &[S]) -> Self {
        Self {
            title: title.to_string(),
            x_labels: x_labels.iter().map(|l| l.as_ref().to_string()).collect(),
            y_range: None,
            series: Vec::new(),
        }
    }

    /// Fixes the y axis (e.g. `(0.0, 1.0)` for scores); by default it spans
    /// the data, widened to include zero.
    pub fn y_range(mut self, min: f64, max: f64) -> Self {
        self.y_range = Some((min, max));
        self
    }

    /// Adds a series.
    pub fn series(mut self, series: Series) -> Self {
        self.series.push(series);
        self
    }

    fn range(&self) -> (f64, f64) {
        if let Some((min, max)) = self.y_range.filter(|(a, b)| a.is_finite() && b.is_finite() && b > a) {
            return (min, max);
        }
        let values = self.series.iter().flat_map(|s| s.points.iter().flatten().copied()).filter(|v| v.is_finite());
        let (min, max) = values.fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        if max > min { (min, max) } else { (min, min + 1.0) }
    }

    /// The chart as a `<figure>` holding an `<svg>`.
    pub fn render(&self) -> Markup {
        let caption = format!("<figcaption>{}</figcaption>", escape(&self.title));
        let has_points = self.series.iter().any(|s| s.points.iter().flatten().any(|v| v.is_finite()));
        if self.x_labels.is_empty() || !has_points {
            return Markup::trusted(format!("<figure>{caption}<p class=\"muted\">No data.</p></figure>\n"));
        }
        let (min, max) = self.range();
        let span = WIDTH - LEFT - RIGHT;
        let slots = self.x_labels.len();
        let x_at = |i: usize| LEFT + span * (i as f64 + 0.5) / slots as f64;
        let y_at = |v: f64| TOP + PLOT_HEIGHT * (1.0 - ((v.clamp(min, max) - min) / (max - min)));
        let bottom = TOP + PLOT_HEIGHT;
        let legend_top = bottom + 36.0;
        let height = legend_top + LEGEND_ROW * self.series.len() as f64;

        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\">\n\
",
            w = coord(WIDTH),
            h = coord(height),
            t = escape(&self.title),
        );
        let mut values = ticks(min, max);
        // The top of the range is a maximum (a spec's max score): it gets its own
        // tick and label unless a round tick is within a label's height of it.
        if values.last().is_some_and(|last| PLOT_HEIGHT * (max - last) / (max - min) >= 14.0) {
            values.push(max);
        }
        for value in values {
            let y = coord(y_at(value));
            svg.push_str(&format!(
                "<line x1=\"{l}\" y1=\"{y}\" x2=\"{r}\" y2=\"{y}\" stroke=\"#e5e7eb\"/>\
                 <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>\n",
                l = coord(LEFT),
                r = coord(WIDTH - RIGHT),
                tx = coord(LEFT - 6.0),
                ty = coord(y_at(value) + 4.0),
                label = tick_label(value),
            ));
        }
        svg.push_str(&format!(
            "<line x1=\"{l}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\" stroke=\"#9ca3af\"/>\n",
            l = coord(LEFT),
            r = coord(WIDTH - RIGHT),
            b = coord(bottom)
        ));
        // Show every label when they fit, else every n-th so they never overlap.
        let every = (slots as f64 * 60.0 / span).ceil().max(1.0) as usize;
        for (i, label) in self.x_labels.iter().enumerate() {
            if i % every == 0 {
                svg.push_str(&format!(
                    "<text x=\"{x}\" y=\"{y}\" text-anchor=\"middle\">{label}</text>\n",
                    x = coord(x_at(i)),
                    y = coord(bottom + 18.0),
                    label = escape(&shorten(label, 10)),
                ));
            }
        }
        for (index, series) in self.series.iter().enumerate() {
            let color = series.color.unwrap_or_else(|| Color::series(index));
            svg.push_str(&format!("<g stroke=\"{color}\" fill=\"{color}\">"));
            // A `None` (or non-finite value) ends one polyline and starts the next.
            let mut segment: Vec<String> = Vec::new();
            let flush = |segment: &mut Vec<String>, svg: &mut String| {
                if segment.len() > 1 {
                    svg.push_str(&format!("<polyline fill=\"none\" stroke-width=\"2\" points=\"{}\"/>", segment.join(" ")));
                }
                segment.clear();
            };
            for (i, point) in series.points.iter().enumerate().take(slots) {
                match point.filter(|v| v.is_finite()) {
                    Some(value) => segment.push(format!("{},{}", coord(x_at(i)), coord(y_at(value)))),
                    None => flush(&mut segment, &mut svg),
                }
            }
            flush(&mut segment, &mut svg);
            for (i, point) in series.points.iter().enumerate().take(slots) {
                if let Some(value) = point.filter(|v| v.is_finite()) {
                    svg.push_str(&format!(
                        "<circle cx=\"{x}\" cy=\"{y}\" r=\"3.5\"><title>{name}, {label}: {value}</title></circle>",
                        x = coord(x_at(i)),
                        y = coord(y_at(value)),
                        name = escape(&series.name),
                        label = escape(&self.x_labels[i]),
                        value = tick_label(value),
                    ));
                }
            }
            svg.push_str("</g>\n");
            let ly = legend_top + LEGEND_ROW * index as f64;
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"12\" height=\"12\" fill=\"{color}\"/>\
                 <text x=\"{tx}\" y=\"{ty}\">{name}</text>\n",
                x = coord(LEFT),
                y = coord(ly - 10.0),
                tx = coord(LEFT + 18.0),
                ty = coord(ly),
                name = escape(&shorten(&series.name, 60)),
            ));
        }
        svg.push_str("</svg>");
        Markup::trusted(format!("<figure>{caption}\n{svg}\n</figure>\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_polyline_per_unbroken_stretch_and_a_marker_per_point() {
        let svg = LineChart::new("Scores", &["r1", "r2", "r3", "r4"])
            .y_range(0.0, 1.0)
            .series(Series::new("best", vec![Some(0.2), Some(0.5), None, Some(1.0)]))
            .render();
        let svg = svg.as_str();
        assert_eq!(svg.matches("<polyline").count(), 1, "a lone point after a gap has no line: {svg}");
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("best, r2: 0.5"));
        assert!(svg.contains(">r1</text>") && svg.contains(">r4</text>"));
    }

    #[test]
    fn y_axis_maps_range_top_to_bottom() {
        let svg = LineChart::new("t", &["a", "b"]).y_range(0.0, 1.0).series(Series::new("s", vec![Some(0.0), Some(1.0)])).render();
        // 0 sits on the plot's bottom edge (TOP + PLOT_HEIGHT), 1 on its top.
        assert!(svg.as_str().contains("cy=\"210\""), "{svg}");
        assert!(svg.as_str().contains("cy=\"10\""), "{svg}");
    }

    #[test]
    fn the_top_of_the_range_is_labelled() {
        let svg = LineChart::new("t", &["a"]).y_range(0.0, 11.0).series(Series::new("s", vec![Some(9.0)])).render();
        for label in [">0</text>", ">5</text>", ">10</text>", ">11</text>"] {
            assert!(svg.as_str().contains(label), "{label}: {svg}");
        }
        // A round tick already at the top is not drawn twice.
        let svg = LineChart::new("t", &["a"]).y_range(0.0, 10.0).series(Series::new("s", vec![Some(9.0)])).render();
        assert_eq!(svg.as_str().matches(">10</text>").count(), 1, "{svg}");
    }

    #[test]
    fn ticks_fall_on_round_numbers() {
        assert_eq!(ticks(0.0, 11.0), [0.0, 5.0, 10.0]);
        assert_eq!(ticks(0.0, 1.0), [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        assert_eq!(ticks(0.0, 4.0), [0.0, 1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn default_range_includes_zero_and_survives_flat_data() {
        let chart = LineChart::new("t", &["a"]).series(Series::new("s", vec![Some(3.0)]));
        assert_eq!(chart.range(), (0.0, 3.0));
        let flat = LineChart::new("t", &["a"]).series(Series::new("s", vec![Some(0.0)]));
        assert_eq!(flat.range(), (0.0, 1.0));
        assert!(!flat.render().as_str().contains("NaN"));
    }

    #[test]
    fn legend_names_are_escaped_and_empty_chart_says_so() {
        let svg = LineChart::new("t", &["a"]).series(Series::new("<s>", vec![Some(1.0)])).render();
        assert!(svg.as_str().contains(">&lt;s&gt;</text>"));
        assert!(LineChart::new("t", &["a"]).series(Series::new("s", vec![None])).render().as_str().contains("No data."));
    }
}
