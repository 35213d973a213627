//! Colours for charts: a categorical palette and a red-to-green ratio scale.

use std::fmt;

/// An sRGB colour; prints as `#rrggbb`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
}

/// The Okabe–Ito palette: distinguishable with the common colour-vision
/// deficiencies, which matters for pass/fail colours most of all.
const PALETTE: [Color; 8] = [
    Color::rgb(0x00, 0x72, 0xb2),
    Color::rgb(0xe6, 0x9f, 0x00),
    Color::rgb(0x00, 0x9e, 0x73),
    Color::rgb(0xcc, 0x79, 0xa7),
    Color::rgb(0x56, 0xb4, 0xe9),
    Color::rgb(0xd5, 0x5e, 0x00),
    Color::rgb(0xf0, 0xe4, 0x42),
    Color::rgb(0x00, 0x00, 0x00),
];

impl Color {
    /// A colour from its components.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Self { r, g, b }
    }

    /// Passed: bluish green.
    pub const PASS: Color = Color::rgb(0x1b, 0x9e, 0x77);
    /// Failed: vermilion.
    pub const FAIL: Color = Color::rgb(0xd5, 0x5e, 0x00);
    /// Errored or could not be judged: amber.
    pub const ERROR: Color = Color::rgb(0xe6, 0x9f, 0x00);
    /// No data: light grey.
    pub const EMPTY: Color = Color::rgb(0xe5, 0xe7, 0xeb);

    /// The `index`-th colour of a categorical palette (cycles after eight),
    /// for series and bars that need telling apart.
    pub fn series(index: usize) -> Self {
        PALETTE[index % PALETTE.len()]
    }

    /// A colour on a diverging scale for a ratio in `0.0..=1.0` (clamped):
    /// vermilion at 0, pale yellow at 0.5, bluish green at 1. NaN is
    /// [`Color::EMPTY`].
    pub fn ratio(value: f64) -> Self {
        if value.is_nan() {
            return Self::EMPTY;
        }
        let value = value.clamp(0.0, 1.0);
        let mid = Color::rgb(0xf7, 0xf1, 0xc4);
        let (from, to, t) = if value < 0.5 { (Self::FAIL, mid, value * 2.0) } else { (mid, Self::PASS, (value - 0.5) * 2.0) };
        let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Self::rgb(mix(from.r, to.r), mix(from.g, to.g), mix(from.b, to.b))
    }

    /// Black or white, whichever reads better on this colour as a background.
    pub fn text_on(self) -> Self {
        let luma = 0.299 * f64::from(self.r) + 0.587 * f64::from(self.g) + 0.114 * f64::from(self.b);
        if luma > 150.0 { Self::rgb(0x11, 0x18, 0x27) } else { Self::rgb(0xff, 0xff, 0xff) }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_as_hex() {
        assert_eq!(Color::rgb(1, 2, 255).to_string(), "#0102ff");
    }

    #[test]
    fn ratio_scale_ends_at_fail_and_pass_and_clamps() {
        assert_eq!(Color::ratio(0.0), Color::FAIL);
        assert_eq!(Color::ratio(1.0), Color::PASS);
        assert_eq!(Color::ratio(7.0), Color::PASS);
        assert_eq!(Color::ratio(f64::NAN), Color::EMPTY);
    }

    #[test]
    fn palette_cycles() {
        assert_eq!(Color::series(0), Color::series(8));
        assert_ne!(Color::series(0), Color::series(1));
    }

    #[test]
    fn text_contrasts_with_background() {
        assert_eq!(Color::EMPTY.text_on(), Color::rgb(0x11, 0x18, 0x27));
        assert_eq!(Color::rgb(0, 0, 0).text_on(), Color::rgb(0xff, 0xff, 0xff));
    }
}
