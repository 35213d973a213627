//! What the server saw.

use std::time::Instant;

use serde_json::Value;

use crate::Api;

/// One request as it arrived.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Which API it was sent to.
    pub api: Api,
    /// The request path (`/v1/chat/completions`, `/v1/messages`).
    pub path: String,
    /// Headers, names lowercased, values as sent (API keys included, so
    /// tests can check authentication).
    pub headers: Vec<(String, String)>,
    /// The body parsed as JSON (`Null` if it was not JSON).
    pub body: Value,
    /// The body as sent.
    pub raw_body: String,
    /// When it arrived.
    pub received: Instant,
    /// Requests in flight when it arrived, itself included.
    pub in_flight: usize,
}

impl RecordedRequest {
    /// The first header of this name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(key, _)| *key == name).map(|(_, value)| value.as_str())
    }

    /// The `model` field of the body.
    pub fn model(&self) -> Option<&str> {
        self.body.get("model").and_then(Value::as_str)
    }

    /// Every prompt text (Anthropic's `system` first, then each message's
    /// content), joined by newlines, for responders that answer by content.
    pub fn prompt_text(&self) -> String {
        let mut parts = Vec::new();
        if let Some(system) = self.body.get("system") {
            collect_text(system, &mut parts);
        }
        for message in self.body.get("messages").and_then(Value::as_array).into_iter().flatten() {
            if let Some(content) = message.get("content") {
                collect_text(content, &mut parts);
            }
        }
        parts.join("\n")
    }
}

/// Content is a string or an array of `{type: "text", text}` parts on both APIs.
fn collect_text(content: &Value, parts: &mut Vec<String>) {
    match content {
        Value::String(text) => parts.push(text.clone()),
        Value::Array(items) => {
            for item in items {
                if let Some(text) = item.get("text").and_then(Value::as_str) {
                    parts.push(text.to_owned());
                }
            }
        }
        _ => {}
    }
}
