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
    /// Waits until the gate opens (an event of the test's, not a time), then gives the inner reply.
    Held(Gate, Box<Reply>),
    /// A 200 whose body is cut-off JSON, as from a flaky proxy.
    BrokenJson,
    /// A 200 whose answer is prose with no code in it.
    NoCode,
    /// A 200 whose answer calls tools (OpenAI `tool_calls`, Anthropic
    /// `tool_use` blocks), with optional text. Call ids are
    /// `call_<turn>_<n>`, so a replayed conversation gets the same ids.
    ToolCalls {
        /// Text beside the calls (may be empty).
        text: String,
        /// `(tool name, arguments)` in order.
        calls: Vec<(String, Value)>,
        /// `(input, output)` tokens to report, if not the estimate.
        usage: Option<(u64, u64)>,
    },
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

    /// A 200 whose answer calls `name` with `arguments`.
    pub fn tool_call(name: impl Into<String>, arguments: Value) -> Reply {
        Reply::tool_calls(vec![(name.into(), arguments)])
    }

    /// A 200 whose answer makes several calls, in order.
    pub fn tool_calls(calls: Vec<(String, Value)>) -> Reply {
        Reply::ToolCalls { text: String::new(), calls, usage: None }
    }

    /// Sets the text beside a tool-call reply. Panics on others.
    pub fn with_text(self, text: impl Into<String>) -> Reply {
        match self {
            Reply::ToolCalls { calls, usage, .. } => Reply::ToolCalls { text: text.into(), calls, usage },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.with_text(text))),
            Reply::Held(gate, inner) => Reply::Held(gate, Box::new(inner.with_text(text))),
            other => panic!("with_text() applies to Reply::tool_calls, not {other:?}"),
        }
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

    /// This reply once `gate` is open: a test orders replies by what happened, not by a race.
    pub fn held_until(self, gate: &Gate) -> Reply {
        Reply::Held(gate.clone(), Box::new(self))
    }

    /// Sets the usage a text reply reports. Panics on other replies: a
    /// mistake in the test, not a condition to survive.
    pub fn usage(self, input_tokens: u64, output_tokens: u64) -> Reply {
        match self {
            Reply::Text { text, .. } => Reply::Text { text, usage: Some((input_tokens, output_tokens)) },
            Reply::ToolCalls { text, calls, .. } => Reply::ToolCalls { text, calls, usage: Some((input_tokens, output_tokens)) },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.usage(input_tokens, output_tokens))),
            Reply::Held(gate, inner) => Reply::Held(gate, Box::new(inner.usage(input_tokens, output_tokens))),
            other => panic!("usage() applies to Reply::text, not {other:?}"),
        }
    }

    /// Sets `Retry-After` (seconds) on a status reply. Panics on others.
    pub fn retry_after(self, seconds: u64) -> Reply {
        match self {
            Reply::Status { code, body, .. } => Reply::Status { code, retry_after: Some(seconds), body },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.retry_after(seconds))),
            Reply::Held(gate, inner) => Reply::Held(gate, Box::new(inner.retry_after(seconds))),
            other => panic!("retry_after() applies to Reply::status, not {other:?}"),
        }
    }

    /// Sets the body of a status reply. Panics on others.
    pub fn body(self, body: impl Into<String>) -> Reply {
        match self {
            Reply::Status { code, retry_after, .. } => Reply::Status { code, retry_after, body: Some(body.into()) },
            Reply::Delay(delay, inner) => Reply::Delay(delay, Box::new(inner.body(body))),
            Reply::Held(gate, inner) => Reply::Held(gate, Box::new(inner.body(body))),
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

/// Renders a (non-delay) reply for `api`; `prompt_chars` feeds the usage
/// estimate, `turn` the tool call ids.
pub(crate) fn render(reply: &Reply, api: Api, model: &str, prompt_chars: usize, turn: usize) -> Rendered {
    match reply {
        Reply::ToolCalls { text, calls, usage } => {
            let arguments: usize = calls.iter().map(|(name, args)| name.len() + args.to_string().len()).sum();
            let (input, output) = usage.unwrap_or((estimate(prompt_chars), estimate(text.chars().count() + arguments)));
            let calls: Vec<(String, &str, &Value)> =
                calls.iter().enumerate().map(|(n, (name, args))| (format!("call_{turn}_{}", n + 1), name.as_str(), args)).collect();
            Rendered { status: 200, retry_after: None, body: tool_answer(api, model, text, &calls, input, output).to_string() }
        }
        Reply::Text { text, usage } => {
            let (input, output) = usage.unwrap_or((estimate(prompt_chars), estimate(text.chars().count())));
            Rendered { status: 200, retry_after: None, body: answer(api, model, text, input, output).to_string() }
        }
        Reply::NoCode => render(&Reply::text(NO_CODE_TEXT), api, model, prompt_chars, turn),
        Reply::BrokenJson => {
            let full = answer(api, model, "```js\nexport function activate() {}\n```", 1, 1).to_string();
            Rendered { status: 200, retry_after: None, body: full[..full.len() / 2].to_owned() }
        }
        Reply::Status { code, retry_after, body } => Rendered {
            status: *code,
            retry_after: *retry_after,
            body: body.clone().unwrap_or_else(|| error_body(api, *code, &format!("testserver: scripted HTTP {code}")).to_string()),
        },
        Reply::Delay(_, inner) | Reply::Held(_, inner) => render(inner, api, model, prompt_chars, turn),
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

fn tool_answer(api: Api, model: &str, text: &str, calls: &[(String, &str, &Value)], input: u64, output: u64) -> Value {
    match api {
        Api::Openai => {
            let tool_calls: Vec<Value> = calls
                .iter()
                .map(|(id, name, args)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}}))
                .collect();
            let content = if text.is_empty() { Value::Null } else { json!(text) };
            json!({
                "id": "chatcmpl-test",
                "object": "chat.completion",
                "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content, "tool_calls": tool_calls}, "finish_reason": "tool_calls"}],
                "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output},
            })
        }
        Api::Anthropic => {
            let mut content: Vec<Value> = Vec::new();
            if !text.is_empty() {
                content.push(json!({"type": "text", "text": text}));
            }
            content.extend(calls.iter().map(|(id, name, args)| json!({"type": "tool_use", "id": id, "name": name, "input": args})));
            json!({
                "id": "msg_test",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": content,
                "stop_reason": "tool_use",
                "usage": {"input_tokens": input, "output_tokens": output},
            })
        }
    }
}

fn estimate(chars: usize) -> u64 {
    (chars as u64).div_ceil(4).max(1)
}

/// A gate replies wait at until the test opens it.
#[derive(Clone, Debug, Default)]
pub struct Gate(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl PartialEq for Gate {
    /// The same gate.
    fn eq(&self, other: &Gate) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Gate {
    /// A closed gate.
    pub fn new() -> Gate {
        Gate::default()
    }

    /// Lets every reply held at it go.
    pub fn open(&self) {
        self.0.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Whether it is open.
    pub fn is_open(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}
