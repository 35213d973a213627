//! Size bounds for text a candidate controls: messages, console lines and the
//! values reports quote. A long value is cut with a marker saying how much
//! was cut, so no candidate can make a report (or a run directory) huge.

use serde_json::Value;

/// The longest message kept whole (a diagnostic's or a check's).
pub const MESSAGE_LIMIT: usize = 4000;

/// The longest string kept whole inside a value a report quotes.
pub const VALUE_STRING_LIMIT: usize = 16 * 1024;

/// At most `limit` bytes of `text` (cut at a character boundary), with a
/// marker saying how many bytes were cut.
pub fn cut(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_owned();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… [{} more bytes cut]", &text[..end], text.len() - end)
}

/// `value` with every string longer than `limit` cut as [`cut`] does.
pub fn bound_strings(value: &mut Value, limit: usize) {
    match value {
        Value::String(text) if text.len() > limit => *text = cut(text, limit),
        Value::Array(items) => items.iter_mut().for_each(|item| bound_strings(item, limit)),
        Value::Object(map) => map.values_mut().for_each(|item| bound_strings(item, limit)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_at_a_character_boundary_with_a_marker() {
        assert_eq!(cut("short", 10), "short");
        assert_eq!(cut("ééé", 3), "é… [4 more bytes cut]");
        let mut value = serde_json::json!({ "a": ["x".repeat(20)], "b": 1 });
        bound_strings(&mut value, 5);
        assert_eq!(value, serde_json::json!({ "a": ["xxxxx… [15 more bytes cut]"], "b": 1 }));
    }
}
