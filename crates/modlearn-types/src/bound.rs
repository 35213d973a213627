//! Size bounds for text a candidate controls: messages, console lines and the
//! values reports quote. A long value is cut with a marker saying how much
//! was cut, so no candidate can make a report (or a run directory) huge.

use serde_json::Value;

/// The longest message kept whole (a diagnostic's or a check's).
pub const MESSAGE_LIMIT: usize = 4000;

/// The longest string kept whole inside a value a report quotes.
pub const VALUE_STRING_LIMIT: usize = 16 * 1024;

/// The most a value a report quotes may hold in all, roughly as JSON bytes:
/// one string can be short and still be repeated thousands of times.
pub const VALUE_TOTAL_LIMIT: usize = 128 * 1024;

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

/// `value` cut to about `limit` bytes of JSON in all: once the budget is
/// spent, the rest of an array becomes one marker item saying how many items
/// were cut, the rest of an object one `"…"` entry saying how many entries
/// were, and a string that would overrun it is cut as [`cut`] does.
pub fn bound_total(value: &mut Value, limit: usize) {
    let mut left = limit;
    trim(value, &mut left);
}

fn trim(value: &mut Value, left: &mut usize) {
    match value {
        Value::Array(items) => {
            *left = left.saturating_sub(2);
            let mut kept = 0;
            for item in items.iter_mut() {
                if *left == 0 {
                    break;
                }
                trim(item, left);
                kept += 1;
            }
            if kept < items.len() {
                let cut = items.len() - kept;
                items.truncate(kept);
                items.push(Value::String(format!("… [{cut} more items cut]")));
            }
        }
        Value::Object(map) => {
            *left = left.saturating_sub(2);
            let mut cut = 0usize;
            map.retain(|key, item| {
                if *left == 0 {
                    cut += 1;
                    return false;
                }
                *left = left.saturating_sub(key.len() + 4);
                trim(item, left);
                true
            });
            if cut > 0 {
                map.insert("…".to_owned(), Value::String(format!("[{cut} more entries cut]")));
            }
        }
        Value::String(text) => {
            if text.len() + 2 > *left {
                *text = cut(text, left.saturating_sub(2));
                *left = 0;
            } else {
                *left -= text.len() + 2;
            }
        }
        other => *left = left.saturating_sub(other.to_string().len()),
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

    #[test]
    fn wide_values_are_cut_to_a_total_with_markers() {
        let mut small = serde_json::json!({ "a": ["xy", "z"], "b": { "c": 1 } });
        let before = small.clone();
        bound_total(&mut small, 1000);
        assert_eq!(small, before);
        let mut wide = serde_json::json!({ "input": vec!["x".repeat(10); 100], "after": 1 });
        bound_total(&mut wide, 100);
        let items = wide["input"].as_array().unwrap();
        assert!(items.len() < 100, "{wide}");
        assert!(items.last().unwrap().as_str().unwrap().ends_with("more items cut]"), "{wide}");
        assert!(serde_json::to_string(&wide).unwrap().len() < 200, "{wide}");
        assert_eq!(wide["…"], "[1 more entries cut]");
    }
}
