//! The text of a message's `content`, as Letta's harness reads it.

use modlearn_spec::StringOrList;
use serde_json::Value;

/// Letta's `stringifyMessageContent`: a string as itself, an array as its items' text joined,
/// an object with a string `text` as that text, null as nothing, anything else as
/// `JSON.stringify` writes it.
pub fn content_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(parts) => parts.iter().map(content_text).collect(),
        Value::Object(map) => match map.get("text") {
            Some(Value::String(text)) => text.clone(),
            _ => js_json(content),
        },
        Value::Null => String::new(),
        other => js_json(other),
    }
}

/// `JSON.stringify` of a JSON value, numbers printed as JavaScript prints them (`0.000001`,
/// `1e-7`, `1e+21`), keys in their order.
fn js_json(value: &Value) -> String {
    match value {
        Value::Number(number) => number.as_f64().map_or_else(|| number.to_string(), js_number),
        Value::Array(items) => format!("[{}]", items.iter().map(js_json).collect::<Vec<_>>().join(",")),
        Value::Object(map) => {
            let members: Vec<String> = map.iter().map(|(key, item)| format!("{}:{}", Value::String(key.clone()), js_json(item))).collect();
            format!("{{{}}}", members.join(","))
        }
        other => other.to_string(),
    }
}

/// ECMAScript's Number::toString for a finite number: the shortest digits that round-trip,
/// plain from 1e-6 up to 1e21, in exponent form outside.
fn js_number(number: f64) -> String {
    if number == 0.0 {
        return "0".to_owned();
    }
    // `{:e}` gives the shortest round-trip digits: "1.5e-7", "4.2e1".
    let scientific = format!("{:e}", number.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    let n = exponent.parse::<i64>().unwrap_or(0) + 1;
    let sign = if number < 0.0 { "-" } else { "" };
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let exponent = if n - 1 < 0 { format!("-{}", 1 - n) } else { format!("+{}", n - 1) };
        if k == 1 { format!("{digits}e{exponent}") } else { format!("{}.{}e{exponent}", &digits[..1], &digits[1..]) }
    };
    format!("{sign}{body}")
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

#[cfg(test)]
mod tests {
    use super::{content_text, js_number};
    use serde_json::json;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        let cases = [
            (0.000001, "0.000001"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (123.456, "123.456"),
            (1e21, "1e+21"),
            (1.2345e22, "1.2345e+22"),
            (1e20, "100000000000000000000"),
            (-42.0, "-42"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5e-324, "5e-324"),
        ];
        for (number, text) in cases {
            assert_eq!(js_number(number), text, "{number:e}");
        }
    }

    #[test]
    fn content_reads_as_letta_reads_it() {
        assert_eq!(content_text(&json!("plain")), "plain");
        assert_eq!(content_text(&json!([{ "type": "text", "text": "a" }, "b", null, 42, true])), "ab42true");
        // A part without a string `text` is its JSON, nested `content` or not.
        assert_eq!(content_text(&json!([{ "type": "note", "content": "x" }])), r#"{"type":"note","content":"x"}"#);
        assert_eq!(content_text(&json!({ "text": 1, "n": 0.000001 })), r#"{"text":1,"n":0.000001}"#);
        assert_eq!(content_text(&json!(null)), "");
    }
}
