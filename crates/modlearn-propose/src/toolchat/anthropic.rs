//! Tool calling on Anthropic Messages: `tools` with `input_schema`,
//! `tool_use` blocks in assistant messages, and `tool_result` blocks in the
//! user message that follows (consecutive results and user text merged into
//! one message, as the API wants alternating roles).

use serde::Deserialize;
use serde_json::{Value, json};

use super::{ChatMessage, ParsedTurn, ToolCall, TurnRequest};
use crate::Usage;
use crate::http::snippet;

/// The request body: system messages to the top-level `system`, no seed.
pub(crate) fn body(request: &TurnRequest) -> Value {
    let mut system: Vec<&str> = Vec::new();
    let mut messages: Vec<Value> = Vec::new();
    for message in &request.messages {
        let (role, blocks) = match message {
            ChatMessage::System { content } => {
                system.push(content);
                continue;
            }
            ChatMessage::User { content } => ("user", vec![json!({"type": "text", "text": content})]),
            ChatMessage::Assistant { text, tool_calls } => {
                let mut blocks = Vec::new();
                if !text.is_empty() {
                    blocks.push(json!({"type": "text", "text": text}));
                }
                for call in tool_calls {
                    // `input` must be an object; raw non-JSON arguments cannot come from this API.
                    let input = if call.arguments.is_object() { call.arguments.clone() } else { json!({}) };
                    blocks.push(json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}));
                }
                ("assistant", blocks)
            }
            ChatMessage::Tool { call_id, content, is_error } => {
                let mut block = json!({"type": "tool_result", "tool_use_id": call_id, "content": content});
                if *is_error {
                    block["is_error"] = json!(true);
                }
                ("user", vec![block])
            }
        };
        match messages.last_mut() {
            Some(last) if last["role"] == role => last["content"].as_array_mut().expect("content is an array").extend(blocks),
            _ => messages.push(json!({"role": role, "content": blocks})),
        }
    }
    let mut body = json!({
        "model": request.model.name,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "messages": messages,
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| json!({"name": tool.name, "description": tool.description, "input_schema": tool.parameters}))
            .collect();
        body["tools"] = json!(tools);
    }
    body
}

#[derive(Deserialize)]
struct Response {
    content: Vec<Block>,
    stop_reason: Option<String>,
    usage: Option<ResponseUsage>,
}

#[derive(Deserialize)]
struct Block {
    #[serde(rename = "type")]
    kind: String,
    text: Option<String>,
    id: Option<String>,
    name: Option<String>,
    input: Option<Value>,
}

#[derive(Deserialize)]
struct ResponseUsage {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
}

/// Text blocks joined, `tool_use` blocks as calls, and usage.
pub(crate) fn parse(body: &str) -> Result<ParsedTurn, String> {
    let response: Response = serde_json::from_str(body)
        .map_err(|error| format!("the response is not valid Messages JSON: {error} (body: {})", snippet(body)))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for block in response.content {
        match block.kind.as_str() {
            "text" => text.push_str(block.text.as_deref().unwrap_or_default()),
            "tool_use" => {
                let (Some(id), Some(name)) = (block.id, block.name) else {
                    return Err(format!("a tool_use block lacks its id or name (body: {})", snippet(body)));
                };
                tool_calls.push(ToolCall { id, name, arguments: block.input.unwrap_or_else(|| json!({})) });
            }
            _ => {}
        }
    }
    let usage = response.usage.map_or_else(Usage::default, |usage| Usage {
        input_tokens: usage.input_tokens.unwrap_or(0),
        output_tokens: usage.output_tokens.unwrap_or(0),
    });
    Ok(ParsedTurn { text, tool_calls, stop_reason: response.stop_reason, refusal: None, usage })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ModelRef;
    use crate::toolchat::ToolSpec;

    #[test]
    fn tool_results_share_a_user_message_and_system_goes_on_top() {
        let request = TurnRequest {
            model: ModelRef::parse("anthropic:claude-sonnet-4-5").unwrap(),
            messages: vec![
                ChatMessage::system("s"),
                ChatMessage::user("u"),
                ChatMessage::Assistant {
                    text: "let me look".into(),
                    tool_calls: vec![
                        ToolCall { id: "t1".into(), name: "list".into(), arguments: json!({}) },
                        ToolCall { id: "t2".into(), name: "read".into(), arguments: json!({"path": "x"}) },
                    ],
                },
                ChatMessage::tool_result("t1", "a\nb", false),
                ChatMessage::tool_result("t2", "error: no such file", true),
                ChatMessage::user("2 steps left"),
            ],
            tools: vec![ToolSpec { name: "list".into(), description: "Lists".into(), parameters: json!({"type": "object"}) }],
            max_tokens: 10,
            temperature: 0.0,
            seed: 1,
        };
        let body = body(&request);
        assert_eq!(body["system"], "s");
        assert_eq!(body["messages"].as_array().unwrap().len(), 3);
        assert_eq!(body["messages"][1]["content"][1], json!({"type": "tool_use", "id": "t1", "name": "list", "input": {}}));
        assert_eq!(
            body["messages"][2],
            json!({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": "a\nb"},
                {"type": "tool_result", "tool_use_id": "t2", "content": "error: no such file", "is_error": true},
                {"type": "text", "text": "2 steps left"},
            ]})
        );
        assert_eq!(body["tools"], json!([{"name": "list", "description": "Lists", "input_schema": {"type": "object"}}]));
        assert!(body.get("seed").is_none());
    }

    #[test]
    fn parses_tool_use_blocks() {
        let body = r#"{"content":[{"type":"text","text":"reading"},{"type":"tool_use","id":"t","name":"read","input":{"path":"a"}}],
                       "stop_reason":"tool_use","usage":{"input_tokens":3,"output_tokens":4}}"#;
        let turn = parse(body).unwrap();
        assert_eq!(turn.text, "reading");
        assert_eq!(turn.tool_calls, [ToolCall { id: "t".into(), name: "read".into(), arguments: json!({"path": "a"}) }]);
        assert_eq!(turn.stop_reason.as_deref(), Some("tool_use"));
        assert!(parse(r#"{"content":[{"type":"tool_use","name":"x"}]}"#).unwrap_err().starts_with("a tool_use block lacks"));
    }
}
