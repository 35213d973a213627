//! Anthropic Messages.

use serde_json::{Value, json};

use crate::{CompletionRequest, Role, Usage};

/// The API version modlearn's requests and parsing follow.
pub(crate) const VERSION: &str = "2023-06-01";

/// `{base}/v1/messages`; the base has no `/v1`, as `ANTHROPIC_BASE_URL`.
pub(crate) fn url(base: &str) -> String {
    format!("{}/v1/messages", base.trim_end_matches('/'))
}

/// `x-api-key` (left out for a keyless compatible server) and the version.
pub(crate) fn header_pairs(api_key: Option<&str>) -> Vec<(&'static str, String)> {
    let mut pairs = vec![("anthropic-version", VERSION.to_owned())];
    pairs.extend(api_key.map(|key| ("x-api-key", key.to_owned())));
    pairs
}

/// The request body: system messages go to the top-level `system` field
/// (joined by blank lines); Anthropic takes no seed.
pub(crate) fn body(request: &CompletionRequest) -> Value {
    let system: Vec<&str> = request.messages.iter().filter(|m| m.role == Role::System).map(|m| m.content.as_str()).collect();
    let messages: Vec<Value> =
        request.messages.iter().filter(|m| m.role != Role::System).map(|m| json!({"role": m.role, "content": m.content})).collect();
    let mut body = json!({
        "model": request.model.name,
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "messages": messages,
    });
    if !system.is_empty() {
        body["system"] = json!(system.join("\n\n"));
    }
    body
}

/// The text blocks of `content`, joined, and usage, read as a tool-calling
/// turn without tools.
pub(crate) fn parse(body: &str) -> Result<(String, Usage), String> {
    let turn = crate::toolchat::anthropic::parse(body)?;
    if turn.text.trim().is_empty() {
        return Err(match turn.stop_reason {
            Some(reason) => format!("the response has no text content (stop_reason `{reason}`)"),
            None => "the response has no text content".to_owned(),
        });
    }
    Ok((turn.text, turn.usage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Message, ModelRef};

    #[test]
    fn system_messages_go_to_the_top_level() {
        let request = CompletionRequest {
            model: ModelRef::parse("anthropic:claude-sonnet-4-5").unwrap(),
            messages: vec![
                Message { role: Role::System, content: "one".into() },
                Message { role: Role::System, content: "two".into() },
                Message { role: Role::User, content: "hi".into() },
            ],
            max_tokens: 50,
            temperature: 0.0,
            seed: 9,
        };
        assert_eq!(
            body(&request),
            json!({"model": "claude-sonnet-4-5", "max_tokens": 50, "temperature": 0.0,
                   "messages": [{"role": "user", "content": "hi"}], "system": "one\n\ntwo"})
        );
    }

    #[test]
    fn joins_text_blocks_and_skips_others() {
        let body = r#"{"content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"a"},{"type":"text","text":"b"}],
                       "usage":{"input_tokens":5,"output_tokens":6}}"#;
        assert_eq!(parse(body).unwrap(), ("ab".to_owned(), Usage { input_tokens: 5, output_tokens: 6 }));
        let empty = r#"{"content":[],"stop_reason":"max_tokens"}"#;
        assert_eq!(parse(empty).unwrap_err(), "the response has no text content (stop_reason `max_tokens`)");
        assert!(parse("<html>").unwrap_err().starts_with("the response is not valid Messages JSON"));
    }
}
