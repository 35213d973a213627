//! OpenAI Chat Completions, which every OpenAI-compatible server (vLLM,
//! llama.cpp, Ollama) also speaks.

use serde_json::{Value, json};

use crate::{CompletionRequest, Usage};

/// `{base}/chat/completions`; the base includes `/v1`, as `OPENAI_BASE_URL` does.
pub(crate) fn url(base: &str) -> String {
    format!("{}/chat/completions", base.trim_end_matches('/'))
}

/// Bearer auth; a keyless local server gets no `Authorization` header.
pub(crate) fn header_pairs(api_key: Option<&str>) -> Vec<(&'static str, String)> {
    api_key.map(|key| ("authorization", format!("Bearer {key}"))).into_iter().collect()
}

/// The request body. OpenAI's reasoning models refuse `max_tokens` and any
/// temperature but the default, so they get `max_completion_tokens` and none.
pub(crate) fn body(request: &CompletionRequest) -> Value {
    base_body(&request.model.name, json!(request.messages), request.max_tokens, request.temperature, request.seed)
}

/// A request body around `messages`, with the sampling fields the model takes.
pub(crate) fn base_body(name: &str, messages: Value, max_tokens: u32, temperature: f32, seed: u64) -> Value {
    let mut body = json!({"model": name, "messages": messages});
    let reasoning = ["o1", "o3", "o4", "gpt-5"].iter().any(|prefix| name.starts_with(prefix));
    if reasoning {
        body["max_completion_tokens"] = json!(max_tokens);
    } else {
        body["max_tokens"] = json!(max_tokens);
        body["temperature"] = json!(temperature);
    }
    body["seed"] = json!(seed);
    body
}

/// The answer text (`choices[0].message.content`, a string or text parts)
/// and usage, read as a tool-calling turn without tools. An error says why
/// there is no answer.
pub(crate) fn parse(body: &str) -> Result<(String, Usage), String> {
    let turn = crate::toolchat::openai::parse(body)?;
    if turn.text.trim().is_empty() {
        return Err(match (turn.refusal, turn.stop_reason) {
            (Some(refusal), _) => format!("the model refused: {refusal}"),
            (None, Some(reason)) => format!("the response has no content (finish_reason `{reason}`)"),
            (None, None) => "the response has no content".to_owned(),
        });
    }
    Ok((turn.text, turn.usage))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Message, ModelRef, Role};

    fn request(model: &str) -> CompletionRequest {
        CompletionRequest {
            model: ModelRef::parse(model).unwrap(),
            messages: vec![Message { role: Role::System, content: "be brief".into() }, Message { role: Role::User, content: "hi".into() }],
            max_tokens: 100,
            temperature: 0.5,
            seed: 3,
        }
    }

    #[test]
    fn body_for_chat_and_reasoning_models() {
        assert_eq!(
            body(&request("openai:gpt-4.1")),
            json!({"model": "gpt-4.1", "messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}],
                   "max_tokens": 100, "temperature": 0.5, "seed": 3})
        );
        let reasoning = body(&request("openai:o4-mini"));
        assert_eq!(reasoning["max_completion_tokens"], 100);
        assert!(reasoning.get("max_tokens").is_none() && reasoning.get("temperature").is_none());
    }

    #[test]
    fn parses_string_and_part_content() {
        let body = r#"{"choices":[{"message":{"content":"hi"}}],"usage":{"prompt_tokens":3,"completion_tokens":4}}"#;
        assert_eq!(parse(body).unwrap(), ("hi".to_owned(), Usage { input_tokens: 3, output_tokens: 4 }));
        let parts = r#"{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}]}"#;
        assert_eq!(parse(parts).unwrap(), ("ab".to_owned(), Usage::default()));
    }

    #[test]
    fn says_why_there_is_no_answer() {
        assert!(parse("{\"choices\": [").unwrap_err().starts_with("the response is not valid Chat Completions JSON"));
        assert!(parse(r#"{"error":{"message":"x"}}"#).unwrap_err().starts_with("the response has no choices"));
        let cut = r#"{"choices":[{"message":{"content":null},"finish_reason":"length"}]}"#;
        assert_eq!(parse(cut).unwrap_err(), "the response has no content (finish_reason `length`)");
        let refused = r#"{"choices":[{"message":{"content":null,"refusal":"no"}}]}"#;
        assert_eq!(parse(refused).unwrap_err(), "the model refused: no");
    }
}
