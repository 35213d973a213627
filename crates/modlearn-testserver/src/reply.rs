//! What the server answers, and how an answer looks on each API.

use std::time::Duration;

use serde_json::{Value, json};

/// The API a request came in on; replies are rendered in its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// OpenAI Chat Completions (`POST /v1/chat/completions`).
    Openai,
    /// Anthropic Messages (`POST /v1/messages`).
    Anthropic,
}

/// One scripted answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A 200 with this answer text. Usage defaults to a rough estimate
    /// (characters / 4) of the prompt and the text.
    Text {
        /// The answer.
        text: String,
        /// `(input, output)` tokens to report, if not the estimate.
        usage: Option<(u64, u64)>,
    },
    /// An error status (429, 500, 400 ...), in the API's error shape.
    Status {
        /// HTTP status code.
        code: u16,
        /// `Retry-After` in seconds, if any.
        retry_after: Option<u64>,
        /// The body, if not the API's default error JSON.
        body: Option<String>,
    },
    /// Waits, then gives the inner reply (a wait past the client's
    /// timeout makes a timeout).
    Delay(Duration, Box<Reply>),
    /// A 200 whose body is cut-off JSON, as from a flaky proxy.
    BrokenJson,
    /// A 200 whose answer is prose with no code in it.
    NoCode,
}

/// The text of [`Reply::NoCode`].
pub const NO_CODE_TEXT: &str = "I'm sorry, but I can't help with writing that mod. Could you describe what it should do?";

impl Reply {
    /// A 200 with this answer text.
    pub fn text(text: impl Into<String>) -> Reply {
        Reply::Text { text: text.into(), usage: None }
    }

    /// An error status with the API's default error body.
    pub fn status(code: u16) -> Reply {
        Reply::Status { code, retry_after: None, body: None }
    }

    /// A 200 with cut-off JSON.
    pub fn broken_json() -> Reply {
        Reply::BrokenJson
    }

    /// A 200 with prose and no code.
    pub fn no_code() -> Reply {
        Reply::NoCode
    }

    /// This reply, given after `delay`.
    pub fn after(self, delay: Duration) -> Reply {
        Reply::Delay(delay, Box::new(self))
    }

    /// Sets the usage a text reply reports. Panics on other replies: a
    /// mistake in the test, not a condition to survive.
    pub fn usage(self, input_tokens: u64, output_tokens: u64) -> Reply {
        match self {
            Reply::Text { text, .. } => Reply::Text { text, usage: Some((input_tokens, output_tokens)) },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.usage(input_tokens, output_tokens))),
            other => panic!("usage() applies to Reply::text, not {other:?}"),
        }
    }

    /// Sets `Retry-After` (seconds) on a status reply. Panics on others.
    pub fn retry_after(self, seconds: u64) -> Reply {
        match self {
            Reply::Status { code, body, .. } => Reply::Status { code, retry_after: Some(seconds), body },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.retry_after(seconds))),
            other => panic!("retry_after() applies to Reply::status, not {other:?}"),
        }
    }

    /// Sets the body of a status reply. Panics on others.
    pub fn body(self, body: impl Into<String>) -> Reply {
        match self {
            Reply::Status { code, retry_after, .. } => Reply::Status { code, retry_after, body: Some(body.into()) },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.body(body))),
            other => panic!("body() applies to Reply::status, not {other:?}"),
        }
    }
}

/// A response ready to send: status, `Retry-After`, JSON body text.
pub(crate) struct Rendered {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub body: String,
}

/// Renders a (non-delay) reply for `api`; `prompt_chars` feeds the usage estimate.
pub(crate) fn render(reply: &Reply, api: Api, model: &str, prompt_chars: usize) -> Rendered {
    match reply {
        Reply::Text { text, usage } => {
            let (input, output) = usage.unwrap_or((estimate(prompt_chars), estimate(text.chars().count())));
            Rendered { status: 200, retry_after: None, body: answer(api, model, text, input, output).to_string() }
        }
        Reply::NoCode => render(&Reply::text(NO_CODE_TEXT), api, model, prompt_chars),
        Reply::BrokenJson => {
            let full = answer(api, model, "```js\nexport function activate() {}\n```", 1, 1).to_string();
            Rendered { status: 200, retry_after: None, body: full[..full.len() / 2].to_owned() }
        }
        Reply::Status { code, retry_after, body } => Rendered {
            status: *code,
            retry_after: *retry_after,
            body: body.clone().unwrap_or_else(|| error_body(api, *code, &format!("testserver: scripted HTTP {code}")).to_string()),
        },
        Reply::Delay(_, inner) => render(inner, api, model, prompt_chars),
    }
}

/// An error in the API's shape.
pub(crate) fn error_body(api: Api, code: u16, message: &str) -> Value {
    let kind = match code {
        429 => "rate_limit_error",
        400 => "invalid_request_error",
        401 => "authentication_error",
        404 => "not_found_error",
        _ => "api_error",
    };
    match api {
        Api::Openai => json!({"error": {"message": message, "type": kind, "code": null}}),
        Api::Anthropic => json!({"type": "error", "error": {"type": kind, "message": message}}),
    }
}

fn answer(api: Api, model: &str, text: &str, input: u64, output: u64) -> Value {
    match api {
        Api::Openai => json!({
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output},
        }),
        Api::Anthropic => json!({
            "id": "msg_test",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "usage": {"input_tokens": input, "output_tokens": output},
        }),
    }
}

fn estimate(chars: usize) -> u64 {
    (chars as u64).div_ceil(4).max(1)
}
