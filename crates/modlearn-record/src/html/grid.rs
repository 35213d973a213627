//! Heat maps: a grid of coloured cells (rows × columns) with a legend, e.g.
//! candidates × checks coloured pass/fail, or models × specs coloured by
//! pass rate.

use super::color::Color;
use super::escape::{Markup, escape};
use super::{coord, shorten, text_width};

const CELL: f64 = 28.0;
const GAP: f64 = 2.0;
const MAX_LABEL: usize = 40;
const LEGEND_ROW: f64 = 18.0;

/// One cell: its fill, a short text drawn inside (may be empty), and a
/// tooltip.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatCell {
    fill: Color,
    text: String,
    tooltip: String,
}

impl HeatCell {
    /// A cell with an explicit colour, inner text and tooltip.
    pub fn new(fill: Color, text: &str, tooltip: &str) -> Self {
        Self { fill, text: text.to_string(), tooltip: tooltip.to_string() }
    }

    /// A passed check: [`Color::PASS`] with a check mark.
    pub fn pass(tooltip: &str) -> Self {
        Self::new(Color::PASS, "✓", tooltip)
    }

    /// A failed check: [`Color::FAIL`] with a cross.
    pub fn fail(tooltip: &str) -> Self {
        Self::new(Color::FAIL, "✗", tooltip)
    }

    /// A check that errored or could not run: [`Color::ERROR`] with "!".
    pub fn error(tooltip: &str) -> Self {
        Self::new(Color::ERROR, "!", tooltip)
    }

    /// No data for this row and column: [`Color::EMPTY`], no text.
    pub fn empty(tooltip: &str) -> Self {
        Self::new(Color::EMPTY, "", tooltip)
    }

    /// A ratio in `0..=1` on the [`Color::ratio`] scale, with `text` inside
    /// (e.g. "75" for 75%).
    pub fn ratio(value: f64, text: &str, tooltip: &str) -> Self {
        Self::new(Color::ratio(value), text, tooltip)
    }
}

/// One legend entry: a swatch and what it means.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// The swatch colour.
    pub color: Color,
    /// What the colour means.
    pub label: String,
}

impl LegendEntry {
    /// A legend entry.
    pub fn new(color: Color, label: &str) -> Self {
        Self { color, label: label.to_string() }
    }

    /// The legend for [`HeatCell::pass`], [`HeatCell::fail`],
    /// [`HeatCell::error`] and [`HeatCell::empty`].
    pub fn outcomes() -> Vec<Self> {
        vec![
            Self::new(Color::PASS, "passed"),
            Self::new(Color::FAIL, "failed"),
            Self::new(Color::ERROR, "error / not judged"),
            Self::new(Color::EMPTY, "no data"),
        ]
    }

    /// A five-step legend for [`HeatCell::ratio`] cells, labelled 0%–100%.
    pub fn ratio_scale() -> Vec<Self> {
        (0..=4)
            .map(|step| {
                let value = f64::from(step) / 4.0;
                Self::new(Color::ratio(value), &format!("{}%", step * 25))
            })
            .collect()
    }
}

/// A grid of coloured cells with row and column labels and a legend,
/// rendered as inline SVG inside a `<figure>`. Column labels are drawn
/// slanted so many narrow columns fit.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    title: String,
    columns: Vec<String>,
    rows: Vec<(String, Vec<HeatCell>)>,
    legend: Vec<LegendEntry>,
}

impl HeatMap {
    /// A grid with these column labels.
    pub fn new<S: AsRef<str>>(title: &str, columns: &[S]) -> Self {
        Self {
            title: title.to_string(),
            columns: columns.iter().map(|c| c.as_ref().to_string()).collect(),
            rows: Vec::new(),
            legend: Vec::new(),
        }
    }

    /// Adds a row; missing cells draw as [`HeatCell::empty`], extra ones are
    /// ignored.
    pub fn row(mut self, label: &str, cells: Vec<HeatCell>) -> Self {
        self.rows.push((label.to_string(), cells));
        self
    }

    /// Sets the legend drawn below the grid.
    pub fn legend(mut self, legend: Vec<LegendEntry>) -> Self {
        self.legend = legend;
        self
    }

    /// The grid as a `<figure>` holding an `<svg>`.
    pub fn render(&self) -> Markup {
        let caption = format!("<figcaption>{}</figcaption>", escape(&self.title));
        if self.rows.is_empty() || self.columns.is_empty() {
            return Markup::trusted(format!("<figure>{caption}<p class=\"muted\">No data.</p></figure>\n"));
        }
        let row_labels: Vec<String> = self.rows.iter().map(|(label, _)| shorten(label, MAX_LABEL)).collect();
        let column_labels: Vec<String> = self.columns.iter().map(|c| shorten(c, MAX_LABEL)).collect();
        let left = row_labels.iter().map(|l| text_width(l)).fold(20.0, f64::max) + 12.0;
        // Labels slant at 45°, so they rise by width / √2.
        let longest_column = column_labels.iter().map(|l| text_width(l)).fold(0.0, f64::max);
        let top = 8.0 + longest_column * std::f64::consts::FRAC_1_SQRT_2 + 8.0;
        let grid_width = self.columns.len() as f64 * (CELL + GAP);
        let grid_bottom = top + self.rows.len() as f64 * (CELL + GAP);
        let legend_top = grid_bottom + 24.0;
        let width = (left + grid_width + longest_column * std::f64::consts::FRAC_1_SQRT_2 + 16.0).max(320.0);
        let height = legend_top + LEGEND_ROW * self.legend.len() as f64;

        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{t}\">\n\
",
            w = coord(width),
            h = coord(height),
            t = escape(&self.title),
        );
        for (index, label) in column_labels.iter().enumerate() {
            let x = left + index as f64 * (CELL + GAP) + CELL / 2.0;
            let y = top - 6.0;
            svg.push_str(&format!(
                "<text x=\"{x}\" y=\"{y}\" transform=\"rotate(-45 {x} {y})\"><title>{full}</title>{label}</text>\n",
                x = coord(x),
                y = coord(y),
                full = escape(&self.columns[index]),
                label = escape(label),
            ));
        }
        for (row_index, (label, cells)) in self.rows.iter().enumerate() {
            let y = top + row_index as f64 * (CELL + GAP);
            svg.push_str(&format!(
                "<text x=\"{x}\" y=\"{ty}\" text-anchor=\"end\"><title>{full}</title>{label}</text>\n",
                x = coord(left - 6.0),
                ty = coord(y + CELL / 2.0 + 4.0),
                full = escape(label),
                label = escape(&row_labels[row_index]),
            ));
            for column in 0..self.columns.len() {
                let fallback;
                let cell = match cells.get(column) {
                    Some(cell) => cell,
                    None => {
                        fallback = HeatCell::empty("");
                        &fallback
                    }
                };
                let x = left + column as f64 * (CELL + GAP);
                let tooltip = if cell.tooltip.is_empty() { format!("{label} × {}", self.columns[column]) } else { cell.tooltip.clone() };
                svg.push_str(&format!(
                    "<g><title>{tooltip}</title><rect x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\" fill=\"{fill}\"/>",
                    tooltip = escape(&tooltip),
                    x = coord(x),
                    y = coord(y),
                    c = coord(CELL),
                    fill = cell.fill,
                ));
                if !cell.text.is_empty() {
                    svg.push_str(&format!(
                        "<text x=\"{tx}\" y=\"{ty}\" text-anchor=\"middle\" style=\"fill:{ink}\">{text}</text>",
                        tx = coord(x + CELL / 2.0),
                        ty = coord(y + CELL / 2.0 + 4.0),
                        ink = cell.fill.text_on(),
                        text = escape(&shorten(&cell.text, 4)),
                    ));
                }
                svg.push_str("</g>\n");
            }
        }
        for (index, entry) in self.legend.iter().enumerate() {
            let y = legend_top + LEGEND_ROW * index as f64;
            svg.push_str(&format!(
                "<rect x=\"{x}\" y=\"{ry}\" width=\"12\" height=\"12\" fill=\"{fill}\" stroke=\"#9ca3af\"/>\
                 <text x=\"{tx}\" y=\"{y}\">{label}</text>\n",
                x = coord(left),
                ry = coord(y - 10.0),
                fill = entry.color,
                tx = coord(left + 18.0),
                y = coord(y),
                label = escape(&entry.label),
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
    fn draws_a_cell_per_row_and_column_with_legend() {
        let svg = HeatMap::new("Checks", &["loads", "tool <x>"])
            .row("candidate 1", vec![HeatCell::pass(""), HeatCell::fail("tool <x> failed: boom")])
            .row("candidate 2", vec![HeatCell::error("crashed")])
            .legend(LegendEntry::outcomes())
            .render();
        let svg = svg.as_str();
        // 4 grid cells + 4 legend swatches.
        assert_eq!(svg.matches("<rect").count(), 8, "{svg}");
        assert!(svg.contains("<title>candidate 1 × loads</title>"), "default tooltip: {svg}");
        assert!(svg.contains("tool &lt;x&gt; failed: boom"));
        assert!(svg.contains(&format!("fill=\"{}\"", Color::EMPTY)), "missing cell drawn empty");
        assert!(svg.contains(">✓</text>") && svg.contains(">✗</text>") && svg.contains(">!</text>"));
        assert!(svg.contains(">passed</text>") && svg.contains(">no data</text>"));
        assert!(svg.contains("rotate(-45"));
    }

    #[test]
    fn ratio_cells_use_the_scale_and_readable_ink() {
        let svg = HeatMap::new("Pass rate", &["spec"])
            .row("model", vec![HeatCell::ratio(1.0, "100", "")])
            .legend(LegendEntry::ratio_scale())
            .render();
        assert!(svg.as_str().contains(&format!("fill=\"{}\"", Color::PASS)));
        assert!(svg.as_str().contains("style=\"fill:#ffffff\""), "white text on dark green: {svg}");
        assert!(svg.as_str().contains(">100%</text>") && svg.as_str().contains(">0%</text>"));
    }

    #[test]
    fn empty_grid_says_so() {
        assert!(HeatMap::new("t", &["a"]).render().as_str().contains("No data."));
        assert!(HeatMap::new::<&str>("t", &[]).row("r", vec![]).render().as_str().contains("No data."));
    }
}
