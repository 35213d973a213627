//! The propose stage: ask a model for a candidate mod.
//!
//! A [`Proposer`] turns a [`CompletionRequest`] into a [`Completion`]
//! (text, token usage, cost, every HTTP attempt). Providers: OpenAI-compatible
//! Chat Completions (`openai:NAME`), Anthropic Messages (`anthropic:NAME`) and
//! an embedded llama.cpp model (`local:smollm2-135m`). Around them: retries
//! with backoff, a content-addressed response cache, a price table, code
//! extraction, and redaction of API keys. Prompts are built in [`prompt`].
#![deny(missing_docs)]

pub mod agent;
mod anthropic;
mod cache;
mod extract;
mod http;
#[cfg(feature = "local-model")]
mod local;
mod model;
mod openai;
mod pricing;
pub mod prompt;
mod providers;
mod redact;
mod retry;
pub mod toolchat;

pub use agent::{AgentEnd, AgentLimits, AgentProposer, AgentSession, TRANSCRIPT_FILE, TranscriptEntry, Workspace};
pub use cache::{CachedProposer, ResponseCache};
pub use extract::extract_code;
#[cfg(feature = "local-model")]
pub use local::{LOCAL_MODELS, LocalProposer, local_model_path};
pub use model::{
    BoxFuture, Completion, CompletionRequest, HttpAttempt, Message, ModelRef, ProposeError, Proposer, ProviderKind, Role, Usage,
};
pub use pricing::{Price, PriceTable};
pub use providers::{ProviderSettings, http_proposer, http_tool_chat};
pub use redact::redact;
pub use retry::RetryPolicy;
pub use toolchat::{AssistantTurn, CachedToolChat, ChatMessage, ToolCall, ToolChat, ToolSpec, TurnRequest};
