//! Tool calling on OpenAI Chat Completions: `tools` of type `function`,
//! `tool_calls` on assistant messages (arguments as a JSON string), and one
//! `role: "tool"` message per result.

use serde::Deserialize;
use serde_json::{Value, json};

use super::{ChatMessage, ParsedTurn, ToolCall, TurnRequest};
use crate::Usage;
use crate::http::snippet;

/// The request body.
pub(crate) fn body(request: &TurnRequest) -> Value {
    let messages: Vec<Value> = request.messages.iter().map(message).collect();
    let mut body = crate::openai::base_body(&request.model.name, json!(messages), request.max_tokens, request.temperature, request.seed);
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|tool| json!({"type": "function", "function": {"name": tool.name, "description": tool.description, "parameters": tool.parameters}}))
            .collect();
        body["tools"] = json!(tools);
    }
    body
}

fn message(message: &ChatMessage) -> Value {
    match message {
        ChatMessage::System { content } => json!({"role": "system", "content": content}),
        ChatMessage::User { content } => json!({"role": "user", "content": content}),
        ChatMessage::Assistant { text, tool_calls } => {
            let mut value = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
            if !tool_calls.is_empty() {
                let calls: Vec<Value> = tool_calls
                    .iter()
                    .map(|call| json!({"id": call.id, "type": "function", "function": {"name": call.name, "arguments": arguments_text(&call.arguments)}}))
                    .collect();
                value["tool_calls"] = json!(calls);
            }
            value
        }
        ChatMessage::Tool { call_id, content, .. } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
    }
}

/// Arguments go back as the JSON text they came as; raw text that was not
/// JSON goes back unchanged.
fn arguments_text(arguments: &Value) -> String {
    match arguments {
        Value::String(raw) => raw.clone(),
        other => other.to_string(),
    }
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<ResponseUsage>,
}

#[derive(Deserialize)]
struct Choice {
    message: Option<ChoiceMessage>,
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceMessage {
    content: Option<Value>,
    refusal: Option<String>,
    #[serde(default)]
    tool_calls: Vec<WireCall>,
}

#[derive(Deserialize)]
struct WireCall {
    id: String,
    function: WireFunction,
}

#[derive(Deserialize)]
struct WireFunction {
    name: String,
    #[serde(default)]
    arguments: String,
}

#[derive(Deserialize)]
struct ResponseUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

/// The first choice's text and tool calls, and usage.
pub(crate) fn parse(body: &str) -> Result<ParsedTurn, String> {
    let response: Response = serde_json::from_str(body)
        .map_err(|error| format!("the response is not valid Chat Completions JSON: {error} (body: {})", snippet(body)))?;
    let usage = response.usage.map_or_else(Usage::default, |usage| Usage {
        input_tokens: usage.prompt_tokens.unwrap_or(0),
        output_tokens: usage.completion_tokens.unwrap_or(0),
    });
    let choice = response.choices.into_iter().next().ok_or_else(|| format!("the response has no choices (body: {})", snippet(body)))?;
    let message = choice.message.ok_or("the response's first choice has no message")?;
    let text = match message.content {
        Some(Value::String(text)) => text,
        Some(Value::Array(parts)) => parts.iter().filter_map(|part| part.get("text").and_then(Value::as_str)).collect(),
        _ => String::new(),
    };
    let tool_calls = message
        .tool_calls
        .into_iter()
        .map(|call| {
            let arguments = if call.function.arguments.trim().is_empty() {
                json!({})
            } else {
                serde_json::from_str::<Value>(&call.function.arguments).unwrap_or(Value::String(call.function.arguments))
            };
            ToolCall { id: call.id, name: call.function.name, arguments }
        })
        .collect();
    Ok(ParsedTurn { text, tool_calls, stop_reason: choice.finish_reason, refusal: message.refusal, usage })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ModelRef;
    use crate::toolchat::ToolSpec;

    #[test]
    fn a_tool_conversation_in_chat_completions_shape() {
        let request = TurnRequest {
            model: ModelRef::parse("openai:gpt-4.1").unwrap(),
            messages: vec![
                ChatMessage::system("s"),
                ChatMessage::user("u"),
                ChatMessage::Assistant {
                    text: String::new(),
                    tool_calls: vec![
                        ToolCall { id: "c1".into(), name: "read".into(), arguments: json!({"path": "a"}) },
                        ToolCall { id: "c2".into(), name: "list".into(), arguments: json!("{broken") },
                    ],
                },
                ChatMessage::tool_result("c1", "text of a", false),
                ChatMessage::tool_result("c2", "error: bad arguments", true),
            ],
            tools: vec![ToolSpec { name: "read".into(), description: "Reads".into(), parameters: json!({"type": "object"}) }],
            max_tokens: 10,
            temperature: 0.0,
            seed: 1,
        };
        let body = body(&request);
        assert_eq!(
            body["messages"][2],
            json!({"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{\"path\":\"a\"}"}},
                {"id": "c2", "type": "function", "function": {"name": "list", "arguments": "{broken"}},
            ]})
        );
        assert_eq!(body["messages"][4], json!({"role": "tool", "tool_call_id": "c2", "content": "error: bad arguments"}));
        assert_eq!(
            body["tools"],
            json!([{"type": "function", "function": {"name": "read", "description": "Reads", "parameters": {"type": "object"}}}])
        );
    }

    #[test]
    fn parses_tool_calls_text_and_broken_arguments() {
        let body = r#"{"choices":[{"message":{"content":"looking","tool_calls":[
            {"id":"a","type":"function","function":{"name":"list","arguments":"{\"path\":\".\"}"}},
            {"id":"b","type":"function","function":{"name":"read","arguments":"{oops"}},
            {"id":"c","type":"function","function":{"name":"list","arguments":""}}]},
            "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":5,"completion_tokens":6}}"#;
        let turn = parse(body).unwrap();
        assert_eq!(turn.text, "looking");
        assert_eq!(turn.stop_reason.as_deref(), Some("tool_calls"));
        assert_eq!(turn.usage, Usage { input_tokens: 5, output_tokens: 6 });
        let arguments: Vec<&Value> = turn.tool_calls.iter().map(|call| &call.arguments).collect();
        assert_eq!(arguments, [&json!({"path": "."}), &json!("{oops"), &json!({})]);
        assert!(parse("{\"choices\": [").unwrap_err().starts_with("the response is not valid Chat Completions JSON"));
    }
}
