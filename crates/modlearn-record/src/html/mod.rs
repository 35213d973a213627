//! Self-contained HTML pages with inline SVG charts.
//!
//! Everything here renders to a string with no JavaScript, no external
//! stylesheet, font or image, and no network access, so a page can be
//! attached to a CI run, mailed, or opened from disk years later and look
//! the same. Output is deterministic (fixed number formatting, no clocks),
//! so pages can be snapshot-tested and diffed.
//!
//! Text given to any builder is escaped; only [`Markup`] values are inserted
//! as they are. Charts produce [`Markup`] that a [`Page`] embeds:
//!
//! ```
//! use modlearn_record::html::{Bar, BarChart, Page};
//!
//! let chart = BarChart::new("Pass rate")
//!     .max(1.0)
//!     .bar(Bar::new("model <a>", 0.75).value_label("75%"))
//!     .render();
//! let page = Page::new("Leaderboard").heading(2, "Pass rate").markup(chart).render();
//! assert!(page.contains("model &lt;a&gt;"));
//! assert!(!page.contains("<script"));
//! ```

mod bar;
mod color;
mod escape;
mod grid;
mod page;
mod series;

pub use bar::{Bar, BarChart};
pub use color::Color;
pub use escape::{Markup, escape};
pub use grid::{HeatCell, HeatMap, LegendEntry};
pub use page::{Page, Table};
pub use series::{LineChart, Series};

/// Formats an SVG coordinate with one decimal, so output never depends on
/// float printing quirks and stays short.
fn coord(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    // `-0.0` would print as "-0.0"; SVG accepts it but snapshots should not churn.
    if rounded == 0.0 {
        "0".to_string()
    } else if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded:.1}")
    }
}

/// Approximate pixel width of `text` in the pages' 12px sans-serif font;
/// used to size margins for labels, since SVG cannot measure text itself.
fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * 7.0
}

/// Shortens `text` to at most `max` characters with an ellipsis, so a long
/// model or check name cannot push a chart off the page (the full text goes
/// into a `<title>` tooltip).
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(max.saturating_sub(1)).collect();
        short.push('…');
        short
    }
}

/// Formats an axis tick value without trailing zeros.
fn tick_label(value: f64) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_are_short_and_stable() {
        assert_eq!(coord(0.0), "0");
        assert_eq!(coord(-0.01), "0");
        assert_eq!(coord(12.0), "12");
        assert_eq!(coord(12.345), "12.3");
    }

    #[test]
    fn long_text_is_shortened_with_an_ellipsis() {
        assert_eq!(shorten("abcdef", 4), "abc…");
        assert_eq!(shorten("abc", 4), "abc");
    }

    #[test]
    fn tick_labels_drop_trailing_zeros() {
        assert_eq!(tick_label(0.5), "0.5");
        assert_eq!(tick_label(1.0), "1");
        assert_eq!(tick_label(0.25), "0.25");
    }
}
