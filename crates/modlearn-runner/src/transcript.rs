//! The session's transcript as the eval model is shown it. Input items the mods added at
//! `turn_start` with a role other than `user` (Letta's reminders are `system` items) become user
//! messages in `<system-reminder>` tags, where they were added: Anthropic has no system messages
//! inside a conversation, and a reminder must reach the model next to the turn it was added to.

use modlearn_judge::content_text;
use modlearn_propose::{ChatMessage, ToolCall};
use serde_json::Value;

/// The transcript's messages, tool calls and tool results as chat messages. An assistant text and
/// the tool calls after it are one assistant message, as the model sent them.
pub(crate) fn chat_messages(transcript: &[Value]) -> Vec<ChatMessage> {
    let mut messages: Vec<ChatMessage> = Vec::new();
    for entry in transcript {
        if let Some(call) = entry.get("toolCall") {
            let call = ToolCall {
                id: text_of(&call["id"]),
                name: text_of(&call["name"]),
                arguments: call.get("args").cloned().unwrap_or(Value::Null),
            };
            match messages.last_mut() {
                Some(ChatMessage::Assistant { tool_calls, .. }) => tool_calls.push(call),
                _ => messages.push(ChatMessage::Assistant { text: String::new(), tool_calls: vec![call] }),
            }
            continue;
        }
        let content = entry.get("content").map(content_text).unwrap_or_default();
        match entry.get("role").and_then(Value::as_str) {
            Some("assistant") => messages.push(ChatMessage::Assistant { text: content, tool_calls: Vec::new() }),
            Some("tool") => {
                messages.push(ChatMessage::tool_result(text_of(&entry["toolCallId"]), content, entry["status"].as_str() == Some("error")))
            }
            Some("user") => messages.push(ChatMessage::user(content)),
            // An input item without a role is not a message; the host passes it on, the model
            // sees it as the harness's.
            Some(_) | None => {
                let text = if entry.get("content").is_some() { content } else { entry.to_string() };
                messages.push(ChatMessage::user(format!("<system-reminder>\n{text}\n</system-reminder>")));
            }
        }
    }
    messages
}

fn text_of(value: &Value) -> String {
    value.as_str().map_or_else(|| if value.is_null() { String::new() } else { value.to_string() }, str::to_owned)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn reminders_tool_calls_and_results_keep_their_places() {
        let transcript = [
            json!({ "type": "message", "role": "user", "content": "Install requests" }),
            json!({ "type": "message", "role": "system", "content": [{ "type": "text", "text": "Use uv." }] }),
            json!({ "role": "assistant", "content": "On it." }),
            json!({ "role": "assistant", "toolCall": { "id": "c1", "name": "Bash", "args": { "command": "pip install requests" } } }),
            json!({ "role": "assistant", "toolCall": { "id": "c2", "name": "Read", "args": { "file_path": "a" } } }),
            json!({ "role": "tool", "toolCallId": "c1", "toolName": "Bash", "status": "success", "content": "ok" }),
            json!({ "role": "tool", "toolCallId": "c2", "toolName": "Read", "status": "error", "content": { "output": 1 } }),
            json!({ "type": "note", "data": 1 }),
        ];
        let messages = chat_messages(&transcript);
        assert_eq!(
            messages,
            vec![
                ChatMessage::user("Install requests"),
                ChatMessage::user("<system-reminder>\nUse uv.\n</system-reminder>"),
                ChatMessage::Assistant {
                    text: "On it.".into(),
                    tool_calls: vec![
                        ToolCall { id: "c1".into(), name: "Bash".into(), arguments: json!({ "command": "pip install requests" }) },
                        ToolCall { id: "c2".into(), name: "Read".into(), arguments: json!({ "file_path": "a" }) },
                    ],
                },
                ChatMessage::tool_result("c1", "ok", false),
                ChatMessage::tool_result("c2", "{\"output\":1}", true),
                ChatMessage::user("<system-reminder>\n{\"type\":\"note\",\"data\":1}\n</system-reminder>"),
            ]
        );
    }
}
