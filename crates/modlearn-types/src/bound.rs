//! Size bounds for text a candidate controls: messages, console lines and the
//! values reports quote. A long value is cut with a marker saying how much
//! was cut, so no candidate can make a report (or a run directory) huge.

use serde_json::Value;

/// The largest candidate judged: Letta's mods are a few KiB; a source past this is refused
/// before it reaches a transpiler or an engine, and a model's answer longer than this is not
/// cached (such answers are the refused ones, and the largest to keep).
pub const CANDIDATE_BYTES: u64 = 1 << 20;

/// The most of a model's answer (the HTTP body) read: a candidate, its prose and the JSON
/// around them fit many times over; past this the answer is refused unread.
pub const ANSWER_BYTES: usize = 4 << 20;

/// The longest message kept whole (a diagnostic's or a check's).
pub const MESSAGE_LIMIT: usize = 4000;

/// The longest string kept whole inside a value a report quotes.
pub const VALUE_STRING_LIMIT: usize = 16 * 1024;

/// The most a value a report quotes may hold in all, roughly as JSON bytes:
/// one string can be short and still be repeated thousands of times.
pub const VALUE_TOTAL_LIMIT: usize = 128 * 1024;

/// At most `limit` bytes of `text` as a JSON artifact writes it (cut at a character
/// boundary), with a marker saying how many bytes of `text` were cut. Escapes count at their
/// written size: a control character is six bytes on disk, not one.
pub fn cut(text: &str, limit: usize) -> String {
    if written_len(text) <= limit {
        return text.to_owned();
    }
    let mut written = 0;
    let mut end = 0;
    for (index, character) in text.char_indices() {
        written += written_char_len(character);
        if written > limit {
            break;
        }
        end = index + character.len_utf8();
    }
    format!("{}… [{} more bytes cut]", &text[..end], text.len() - end)
}

/// How many bytes `text` takes inside a JSON string (serde_json's escapes), without quotes.
pub fn written_len(text: &str) -> usize {
    // Most text has nothing to escape: its UTF-8 length is what is written.
    if text.bytes().all(|byte| byte >= b' ' && byte != b'"' && byte != b'\\') {
        return text.len();
    }
    text.chars().map(written_char_len).sum()
}

fn written_char_len(character: char) -> usize {
    match character {
        '"' | '\\' | '\u{8}' | '\u{c}' | '\n' | '\r' | '\t' => 2,
        control if control < ' ' => 6,
        other => other.len_utf8(),
    }
}

/// `value` with every string longer than `limit` cut as [`cut`] does.
pub fn bound_strings(value: &mut Value, limit: usize) {
    match value {
        Value::String(text) if written_len(text) > limit => *text = cut(text, limit),
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
                *left = left.saturating_sub(written_len(key) + 4);
                trim(item, left);
                true
            });
            if cut > 0 {
                map.insert("…".to_owned(), Value::String(format!("[{cut} more entries cut]")));
            }
        }
        Value::String(text) => {
            let written = written_len(text) + 2;
            if written > *left {
                *text = cut(text, left.saturating_sub(2));
                *left = 0;
            } else {
                *left -= written;
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
    fn escapes_count_at_their_written_size() {
        let controls = "\u{1}".repeat(100);
        assert_eq!(written_len(&controls), 600);
        assert_eq!(written_len("a\"b\\\n"), 8);
        assert_eq!(written_len("é"), 2);
        assert_eq!(cut(&controls, 60), format!("{}… [90 more bytes cut]", "\u{1}".repeat(10)));
        let mut value = serde_json::json!({ "a": controls });
        bound_total(&mut value, 100);
        assert!(serde_json::to_string(&value).unwrap().len() <= 140, "{value}");
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
