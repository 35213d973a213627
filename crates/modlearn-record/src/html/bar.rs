//! Horizontal bar charts: one labelled bar per item, value printed at its end.

use super::color::Color;
use super::escape::{Markup, escape};
use super::{coord, shorten, text_width};

/// The longest label drawn in full; longer ones are shortened (full text in
/// the tooltip).
const MAX_LABEL: usize = 36;
/// The page's content width (`max-width` less the padding, see `page.rs`):
/// charts use all of it, and shrink with the window (`svg{max-width:100%}`).
pub(crate) const WIDTH: f64 = 1052.0;
const ROW: f64 = 24.0;
const BAR: f64 = 16.0;
const TOP: f64 = 6.0;

/// One bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    label: String,
    value: f64,
    value_label: Option<String>,
    color: Option<Color>,
}

impl Bar {
    /// A bar of length `value` (negative and NaN values draw as empty).
    pub fn new(label: &str, value: f64) -> Self {
        Self { label: label.to_string(), value, value_label: None, color: None }
    }

    /// Text printed after the bar instead of the bare number (e.g. "75%" or "$0.12").
    pub fn value_label(mut self, text: &str) -> Self {
        self.value_label = Some(text.to_string());
        self
    }

    /// The bar's fill; by default bars take the palette in order.
    pub fn color(mut self, color: Color) -> Self {
        self.color = Some(color);
        self
    }
}

/// A horizontal bar chart, rendered as inline SVG inside a `<figure>`.
#[derive(Debug, Clone, PartialEq)]
pub struct BarChart {
    title: String,
    max: Option<f64>,
    max_mark: Option<String>,
    bars: Vec<Bar>,
}

impl BarChart {
    /// An empty chart with a caption.
    pub fn new(title: &str) -> Self {
        Self { title: title.to_string(), max: None, max_mark: None, bars: Vec::new() }
    }

    /// The value of a full-width bar; by default the largest value.
    pub fn max(mut self, max: f64) -> Self {
        self.max = Some(max);
        self
    }

    /// Draws the maximum as a dashed line labelled `label` (e.g. "max 11"),
    /// so a bar's length reads against the full scale.
    pub fn mark_max(mut self, label: &str) -> Self {
        self.max_mark = Some(label.to_string());
        self
    }

    /// Adds a bar (bars are drawn top to bottom in the order added).
    pub fn bar(mut self, bar: Bar) -> Self {
        self.bars.push(bar);
        self
    }

    /// The chart as a `<figure>` holding an `<svg>`. A chart with no bars
    /// says so in text rather than drawing an empty frame.
    pub fn render(&self) -> Markup {
        let caption = format!("<figcaption>{}</figcaption>", escape(&self.title));
        if self.bars.is_empty() {
            return Markup::trusted(format!("<figure>{caption}<p class=\"muted\">No data.</p></figure>\n"));
        }
        let clean = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
        let largest = self.bars.iter().map(|bar| clean(bar.value)).fold(0.0, f64::max);
        let max = self.max.filter(|m| m.is_finite() && *m > 0.0).unwrap_or(largest);
        let labels: Vec<String> = self.bars.iter().map(|bar| shorten(&bar.label, MAX_LABEL)).collect();
        let left = labels.iter().map(|l| text_width(l)).fold(40.0, f64::max) + 12.0;
        let value_texts: Vec<String> =
            self.bars.iter().map(|bar| bar.value_label.clone().unwrap_or_else(|| super::tick_label(bar.value))).collect();
        let right = value_texts.iter().map(|t| text_width(t)).fold(0.0, f64::max) + 12.0;
        let span = (WIDTH - left - right).max(60.0);
        // Room above the bars for the maximum's label.
        let top = if self.max_mark.is_some() { TOP + 16.0 } else { TOP };
        let height = top + ROW * self.bars.len() as f64 + 8.0;

        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\">\n\
",
            w = coord(WIDTH),
            h = coord(height),
            t = escape(&self.title),
        );
        svg.push_str(&format!(
            "<line x1=\"{x}\" y1=\"{y1}\" x2=\"{x}\" y2=\"{y2}\" stroke=\"#9ca3af\"/>\n",
            x = coord(left),
            y1 = coord(top - 4.0),
            y2 = coord(height - 4.0)
        ));
        if let Some(mark) = &self.max_mark {
            svg.push_str(&format!(
                "<line x1=\"{x}\" y1=\"{y1}\" x2=\"{x}\" y2=\"{y2}\" stroke=\"#6b7280\" stroke-dasharray=\"4 3\"/>\
                 <text x=\"{x}\" y=\"{ty}\" text-anchor=\"middle\">{label}</text>\n",
                x = coord(left + span),
                y1 = coord(top - 4.0),
                y2 = coord(height - 4.0),
                ty = coord(top - 8.0),
                label = escape(mark),
            ));
        }
        for (index, bar) in self.bars.iter().enumerate() {
            let y = top + ROW * index as f64;
            let length = if max > 0.0 { (clean(bar.value) / max).min(1.0) * span } else { 0.0 };
            let fill = bar.color.unwrap_or_else(|| Color::series(index));
            let label_y = coord(y + BAR / 2.0 + 4.0);
            svg.push_str(&format!(
                "<g><title>{full}: {value}</title>\
                 <text x=\"{lx}\" y=\"{label_y}\" text-anchor=\"end\">{label}</text>\
                 <rect x=\"{x}\" y=\"{y}\" width=\"{len}\" height=\"{bh}\" fill=\"{fill}\"/>\
                 <text x=\"{vx}\" y=\"{label_y}\">{value}</text></g>\n",
                full = escape(&bar.label),
                value = escape(&value_texts[index]),
                lx = coord(left - 6.0),
                label = escape(&labels[index]),
                x = coord(left),
                y = coord(y),
                len = coord(length),
                bh = coord(BAR),
                vx = coord(left + length + 6.0),
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
    fn bars_scale_to_the_largest_value_and_carry_labels() {
        let svg = BarChart::new("Cost").bar(Bar::new("a", 2.0)).bar(Bar::new("b", 1.0).value_label("$1")).render();
        let svg = svg.as_str();
        assert!(svg.contains("<figcaption>Cost</figcaption>"));
        assert!(svg.contains(">a</text>") && svg.contains(">b</text>"));
        assert!(svg.contains(">$1</text>"), "custom value label: {svg}");
        assert!(svg.contains(">2</text>"), "default value label: {svg}");
        // Bar a is full span, bar b half of it.
        let widths: Vec<f64> = svg
            .match_indices("<rect ")
            .map(|(at, _)| {
                let rest = &svg[at..];
                let start = rest.find("width=\"").unwrap() + 7;
                rest[start..start + rest[start..].find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(widths.len(), 2);
        assert!((widths[0] - 2.0 * widths[1]).abs() < 0.2, "{widths:?}");
    }

    #[test]
    fn explicit_maximum_caps_bars_and_bad_values_draw_empty() {
        let svg =
            BarChart::new("Rate").max(1.0).bar(Bar::new("over", 3.0)).bar(Bar::new("nan", f64::NAN)).bar(Bar::new("neg", -1.0)).render();
        assert_eq!(svg.as_str().matches("width=\"0\"").count(), 2, "{svg}");
        assert!(!svg.as_str().contains("NaN\""), "no NaN coordinates: {svg}");
    }

    #[test]
    fn labels_are_escaped_and_long_ones_shortened() {
        let long = format!("<{}>", "m".repeat(60));
        let svg = BarChart::new("t").bar(Bar::new(&long, 1.0).color(Color::PASS)).render();
        assert!(svg.as_str().contains("&lt;mmm"));
        assert!(svg.as_str().contains('…'));
        assert!(svg.as_str().contains(&escape(&long)), "full label in tooltip");
        assert!(svg.as_str().contains("fill=\"#1b9e77\""));
        assert!(!svg.as_str().contains("<mmm"));
    }

    #[test]
    fn the_maximum_is_marked_at_the_end_of_the_scale() {
        let svg = BarChart::new("Score").max(11.0).mark_max("max 11").bar(Bar::new("#1", 11.0)).render();
        let svg = svg.as_str();
        assert!(svg.contains(">max 11</text>"), "{svg}");
        // The dashed line sits where a full bar ends.
        let rect = regex_free_attr(svg, "<rect ", "width");
        let left = regex_free_attr(svg, "<rect ", "x");
        let line = regex_free_attr(svg, "stroke-dasharray", "x1");
        assert!((left + rect - line).abs() < 0.2, "{svg}");
    }

    /// The value of attribute `name` in the first tag at or after `marker`.
    fn regex_free_attr(svg: &str, marker: &str, name: &str) -> f64 {
        let at = svg.find(marker).unwrap();
        let tag_start = svg[..=at].rfind('<').unwrap();
        let tag = &svg[tag_start..tag_start + svg[tag_start..].find('>').unwrap()];
        let key = format!(" {name}=\"");
        let start = tag.find(&key).unwrap() + key.len();
        tag[start..start + tag[start..].find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn empty_chart_says_so() {
        assert!(BarChart::new("t").render().as_str().contains("No data."));
    }
}
