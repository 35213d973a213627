//! Escaping, and the [`Markup`] type that marks a string as already safe.

use std::fmt;

/// Escapes `text` for use in HTML or SVG text content and in double- or
/// single-quoted attribute values.
///
/// Characters XML 1.0 cannot carry (C0 controls other than tab, newline and
/// carriage return, DEL, U+FFFE and U+FFFF) become U+FFFD, so an SVG in a
/// page or a JUnit report stays well-formed even when a diagnostic message
/// contains them: one such character makes a whole CI report unparseable.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if (c as u32) < 0x20 || matches!(c, '\u{7f}' | '\u{FFFE}' | '\u{FFFF}') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A fragment of HTML or SVG that is safe to insert into a page as it is.
///
/// Build one from plain text with [`Markup::text`] (escapes) or from markup
/// you produced yourself with [`Markup::trusted`]; charts return `Markup`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Markup(String);

impl Markup {
    /// Plain text, escaped.
    pub fn text(text: &str) -> Self {
        Self(escape(text))
    }

    /// Markup the caller vouches for: it is inserted without escaping.
    /// Never pass text that came from a model, a mod or a file through this.
    pub fn trusted(markup: impl Into<String>) -> Self {
        Self(markup.into())
    }

    /// The markup as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The markup as an owned string.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Markup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(escape(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    }

    #[test]
    fn replaces_characters_xml_cannot_carry() {
        assert_eq!(escape("a\u{1}b\tc\n"), "a\u{FFFD}b\tc\n");
    }

    #[test]
    fn text_markup_is_escaped_and_trusted_markup_is_not() {
        assert_eq!(Markup::text("<b>").as_str(), "&lt;b&gt;");
        assert_eq!(Markup::trusted("<b>").to_string(), "<b>");
    }
}
