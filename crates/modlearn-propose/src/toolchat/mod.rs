//! Tool calling, provider-neutral: a conversation of system, user,
//! assistant and tool-result messages, a set of tools, and one assistant
//! turn at a time. OpenAI Chat Completions (`tools`, `tool_calls`,
//! `role: "tool"`) and Anthropic Messages (`tools`, `tool_use`,
//! `tool_result`) are mapped onto the same types, with the retries, timeout,
//! usage, cost and key redaction of the completion clients. The caller runs
//! the tools; this module only carries the conversation.

pub(crate) mod anthropic;
mod cache;
pub(crate) mod openai;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{BoxFuture, HttpAttempt, Message, ModelRef, ProposeError, Role, Usage};

pub use cache::CachedToolChat;

/// A tool the model may call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSpec {
    /// Its name (`[a-zA-Z0-9_-]{1,64}` on both APIs).
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// The JSON Schema of its arguments (an `object` schema).
    pub parameters: Value,
}

/// One call the model made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// The provider's id for the call; its result must carry it back.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments: a JSON object, or (when the model wrote arguments that
    /// are not JSON) the raw text as a string, sent back unchanged.
    pub arguments: Value,
}

/// One message of a tool-calling conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "camelCase")]
pub enum ChatMessage {
    /// Instructions (Anthropic: the top-level `system`).
    System {
        /// Text.
        content: String,
    },
    /// The user's words.
    User {
        /// Text.
        content: String,
    },
    /// An earlier assistant turn, sent back as it came.
    Assistant {
        /// Its text (may be empty).
        #[serde(default)]
        text: String,
        /// Its tool calls.
        #[serde(default, rename = "toolCalls", skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The result of one tool call (Anthropic: a `tool_result` block in a
    /// user message; consecutive results share one message).
    Tool {
        /// The [`ToolCall::id`] it answers.
        #[serde(rename = "callId")]
        call_id: String,
        /// The result text.
        content: String,
        /// Whether the call failed (Anthropic's `is_error`; OpenAI has no
        /// such field, so the text itself must say so).
        #[serde(default, rename = "isError")]
        is_error: bool,
    },
}

impl ChatMessage {
    /// A system message.
    pub fn system(content: impl Into<String>) -> ChatMessage {
        ChatMessage::System { content: content.into() }
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> ChatMessage {
        ChatMessage::User { content: content.into() }
    }

    /// A tool result.
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>, is_error: bool) -> ChatMessage {
        ChatMessage::Tool { call_id: call_id.into(), content: content.into(), is_error }
    }
}

impl From<Message> for ChatMessage {
    fn from(message: Message) -> ChatMessage {
        match message.role {
            Role::System => ChatMessage::System { content: message.content },
            Role::User => ChatMessage::User { content: message.content },
            Role::Assistant => ChatMessage::Assistant { text: message.content, tool_calls: Vec::new() },
        }
    }
}

/// A request for the next assistant turn. Everything that changes the
/// answer is in here (the conversation so far and the tools included), so
/// its hash is the response cache key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnRequest {
    /// The model.
    pub model: ModelRef,
    /// The conversation so far.
    pub messages: Vec<ChatMessage>,
    /// The tools offered.
    pub tools: Vec<ToolSpec>,
    /// Output token cap for this turn.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Seed, where the provider takes one.
    pub seed: u64,
}

/// One assistant turn: text, tool calls, and what it cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantTurn {
    /// The turn's text (may be empty when it only calls tools).
    pub text: String,
    /// The calls to run, in order.
    pub tool_calls: Vec<ToolCall>,
    /// Why the model stopped (`tool_calls`/`tool_use`, `stop`/`end_turn`,
    /// `length`/`max_tokens`), as the provider said it.
    pub stop_reason: Option<String>,
    /// Tokens in and out.
    pub usage: Usage,
    /// Cost in USD by the price table.
    pub cost_usd: f64,
    /// Wall time over all attempts, in milliseconds.
    pub latency_ms: u64,
    /// Every HTTP attempt, the successful one last (empty when cached).
    pub attempts: Vec<HttpAttempt>,
    /// Whether this came from the response cache.
    pub cached: bool,
}

impl AssistantTurn {
    /// The turn as a message to send back in the next request.
    pub fn to_message(&self) -> ChatMessage {
        ChatMessage::Assistant { text: self.text.clone(), tool_calls: self.tool_calls.clone() }
    }
}

/// Something that answers tool-calling conversations one turn at a time.
///
/// Errors are those of [`crate::Proposer`]: `Failed` after retries,
/// `Auth` when the API refuses the key, `Config` for a request it cannot send.
pub trait ToolChat: Send + Sync {
    /// Asks for the next assistant turn of `request.messages`.
    fn turn<'a>(&'a self, request: &'a TurnRequest) -> BoxFuture<'a, Result<AssistantTurn, ProposeError>>;
}

/// What the providers' parsers give back.
#[derive(Debug)]
pub(crate) struct ParsedTurn {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub stop_reason: Option<String>,
    /// Why the model declined to answer, where the API says so (OpenAI's `refusal`).
    pub refusal: Option<String>,
    pub usage: Usage,
}
