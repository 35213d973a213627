//! The text of a message's `content`, as Letta's harness reads it.

use modlearn_spec::StringOrList;
use serde_json::Value;

/// A string as itself; an array as the concatenation of its parts' text;
/// an object with `text` as that text; anything else as JSON.
pub fn content_text(content: &Value) -> String {
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

/// The text of a tool output: a string as itself; content blocks as their
/// text blocks joined by newlines (images have no text).
pub(crate) fn tool_output_text(output: &Value) -> String {
    match output {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Substring expectations on one text: which `contains` are missing and
/// which `notContains` are present.
pub(crate) struct Substrings<'a> {
    /// `contains` items not found.
    pub(crate) missing: Vec<&'a str>,
    /// `notContains` items found.
    pub(crate) forbidden: Vec<&'a str>,
}

impl<'a> Substrings<'a> {
    pub(crate) fn check(text: &str, contains: Option<&'a StringOrList>, not_contains: Option<&'a StringOrList>) -> Self {
        let items = |list: Option<&'a StringOrList>| list.map(StringOrList::items).unwrap_or_default();
        Substrings {
            missing: items(contains).into_iter().filter(|item| !text.contains(item)).collect(),
            forbidden: items(not_contains).into_iter().filter(|item| text.contains(item)).collect(),
        }
    }

    /// Why the text fails, naming `what` it is; `None` when it passes.
    pub(crate) fn failure(&self, what: &str) -> Option<String> {
        if !self.missing.is_empty() {
            Some(format!("{what} lacks {}", quoted(&self.missing)))
        } else if !self.forbidden.is_empty() {
            Some(format!("{what} contains forbidden {}", quoted(&self.forbidden)))
        } else {
            None
        }
    }
}

/// `a`, `b` as a readable list.
pub(crate) fn quoted(items: &[&str]) -> String {
    items.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")
}

/// At most `limit` characters of `text`, for messages.
pub(crate) fn excerpt(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    let cut: String = text.chars().take(limit).collect();
    format!("{cut}…")
}
