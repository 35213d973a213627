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

/// One tool result a request carried back.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolResult {
    /// The call it answers.
    pub call_id: String,
    /// Its text.
    pub content: String,
    /// Anthropic's `is_error` (always false on OpenAI, which has no such field).
    pub is_error: bool,
}

impl RecordedRequest {
    /// Which assistant turn this request asks for: earlier assistant
    /// messages in the conversation, plus one.
    pub fn turn(&self) -> usize {
        self.messages().iter().filter(|message| message.get("role").and_then(Value::as_str) == Some("assistant")).count() + 1
    }

    /// The names of the tools offered.
    pub fn tool_names(&self) -> Vec<String> {
        let tools = self.body.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        tools
            .iter()
            .filter_map(|tool| tool.pointer("/function/name").or_else(|| tool.get("name")).and_then(Value::as_str))
            .map(str::to_owned)
            .collect()
    }

    /// Every tool result in the conversation, in order (OpenAI `role: "tool"`
    /// messages, Anthropic `tool_result` blocks).
    pub fn tool_results(&self) -> Vec<ToolResult> {
        tool_results(self.messages())
    }

    /// The tool results after the last assistant message: the answers to
    /// the calls of the previous turn.
    pub fn last_tool_results(&self) -> Vec<ToolResult> {
        let messages = self.messages();
        let last_assistant = messages.iter().rposition(|message| message.get("role").and_then(Value::as_str) == Some("assistant"));
        tool_results(&messages[last_assistant.map_or(0, |index| index + 1)..])
    }

    fn messages(&self) -> &[Value] {
        self.body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
    }
}

fn tool_results(messages: &[Value]) -> Vec<ToolResult> {
    let mut results = Vec::new();
    for message in messages {
        let text = |value: Option<&Value>| match value {
            Some(Value::String(text)) => text.clone(),
            Some(other @ Value::Array(_)) => {
                let mut parts = Vec::new();
                collect_text(other, &mut parts);
                parts.join("\n")
            }
            _ => String::new(),
        };
        if message.get("role").and_then(Value::as_str) == Some("tool") {
            results.push(ToolResult {
                call_id: message.get("tool_call_id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                content: text(message.get("content")),
                is_error: false,
            });
        }
        for block in message.get("content").and_then(Value::as_array).into_iter().flatten() {
            if block.get("type").and_then(Value::as_str) == Some("tool_result") {
                results.push(ToolResult {
                    call_id: block.get("tool_use_id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    content: text(block.get("content")),
                    is_error: block.get("is_error").and_then(Value::as_bool).unwrap_or(false),
                });
            }
        }
    }
    results
}

/// As the real APIs do, refuses a conversation in which a tool call is not
/// answered by a result right after it, or a result answers no call.
pub(crate) fn check_tool_protocol(api: Api, body: &Value) -> Result<(), String> {
    let messages = body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let role = |message: &Value| message.get("role").and_then(Value::as_str).unwrap_or_default().to_owned();
    let calls_of = |message: &Value| -> Vec<String> {
        match api {
            Api::Openai => message
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|call| call.get("id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect(),
            Api::Anthropic => message
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"))
                .filter_map(|block| block.get("id").and_then(Value::as_str))
                .map(str::to_owned)
                .collect(),
        }
    };
    let mut index = 0;
    while index < messages.len() {
        let message = &messages[index];
        index += 1;
        if role(message) != "assistant" {
            if !tool_results(std::slice::from_ref(message)).is_empty() {
                return Err(format!("messages[{}]: a tool result that follows no tool call", index - 1));
            }
            continue;
        }
        let calls = calls_of(message);
        if calls.is_empty() {
            continue;
        }
        // OpenAI: the `tool` messages that follow; Anthropic: the next user message.
        let answered: Vec<String> = match api {
            Api::Openai => {
                let start = index;
                while index < messages.len() && role(&messages[index]) == "tool" {
                    index += 1;
                }
                tool_results(&messages[start..index]).into_iter().map(|result| result.call_id).collect()
            }
            Api::Anthropic => {
                let next = messages.get(index).filter(|next| role(next) == "user");
                index += usize::from(next.is_some());
                next.map(|next| tool_results(std::slice::from_ref(next)).into_iter().map(|result| result.call_id).collect())
                    .unwrap_or_default()
            }
        };
        for call in &calls {
            if !answered.contains(call) {
                return Err(format!("tool call `{call}` has no tool result right after it"));
            }
        }
        if let Some(stray) = answered.iter().find(|id| !calls.contains(id)) {
            return Err(format!("tool result for `{stray}` answers no call of the message before it"));
        }
    }
    Ok(())
}
