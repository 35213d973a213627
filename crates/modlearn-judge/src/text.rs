//! The text of a message's `content`, as Letta's harness reads it.

use serde_json::Value;

/// A string as itself; an array as the concatenation of its parts' text;
/// an object with `text` as that text; anything else as JSON.
pub(crate) fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts.iter().map(part_text).collect(),
        Value::Object(map) => match map.get("text") {
            Some(Value::String(text)) => text.clone(),
            _ => content.to_string(),
        },
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn part_text(part: &Value) -> String {
    match part {
        Value::String(text) => text.clone(),
        Value::Object(map) => match map.get("text") {
            Some(Value::String(text)) => text.clone(),
            Some(other) => content_text(other),
            None => map.get("content").map(content_text).unwrap_or_default(),
        },
        Value::Array(_) => content_text(part),
        _ => String::new(),
    }
}
