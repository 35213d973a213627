use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};

/// Which API a model is reached through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// OpenAI-compatible Chat Completions (`POST {base}/chat/completions`).
    Openai,
    /// Anthropic Messages (`POST {base}/v1/messages`).
    Anthropic,
    /// An embedded llama.cpp model, run in-process.
    Local,
}

/// `PROVIDER:NAME`, as given to `--model`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ModelRef {
    /// The provider.
    pub provider: ProviderKind,
    /// The model name as the provider knows it.
    pub name: String,
}

impl ModelRef {
    /// Parses `openai:gpt-4.1`, `anthropic:claude-sonnet-4-5`, `local:smollm2-135m`.
    pub fn parse(text: &str) -> Result<ModelRef, String> {
        let (provider, name) = text.split_once(':').ok_or_else(|| {
            format!("`{text}` is not PROVIDER:NAME (e.g. openai:gpt-4.1-mini, anthropic:claude-sonnet-4-5, local:smollm2-135m)")
        })?;
        let provider = match provider {
            "openai" => ProviderKind::Openai,
            "anthropic" => ProviderKind::Anthropic,
            "local" => ProviderKind::Local,
            other => return Err(format!("unknown provider `{other}`; expected openai, anthropic or local")),
        };
        if name.trim().is_empty() {
            return Err(format!("`{text}` names no model"));
        }
        Ok(ModelRef { provider, name: name.to_owned() })
    }
}

impl std::fmt::Display for ModelRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let provider = match self.provider {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::Local => "local",
        };
        write!(f, "{provider}:{}", self.name)
    }
}

/// Who says a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Instructions.
    System,
    /// The request.
    User,
    /// The model's earlier replies.
    Assistant,
}

/// One chat message.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Message {
    /// Speaker.
    pub role: Role,
    /// Text.
    pub content: String,
}

/// A request for one completion. Everything that changes the answer is in
/// here, so its hash is the response cache key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CompletionRequest {
    /// The model.
    pub model: ModelRef,
    /// The conversation (system first).
    pub messages: Vec<Message>,
    /// Output token cap.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Seed, where the provider takes one; also distinguishes the N
    /// proposals of a round in the cache.
    pub seed: u64,
}

/// Tokens used by a completion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
}

/// One HTTP attempt (or in-process generation) made for a completion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpAttempt {
    /// HTTP status, if a response arrived.
    pub status: Option<u16>,
    /// What went wrong, if anything (never contains an API key).
    pub error: Option<String>,
    /// How long it took, in milliseconds.
    pub latency_ms: u64,
    /// The wait before the next attempt, in milliseconds.
    pub retry_after_ms: Option<u64>,
}

/// A model's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    /// The answer's text.
    pub text: String,
    /// Tokens in and out.
    pub usage: Usage,
    /// Cost in USD by the price table (0 for local models).
    pub cost_usd: f64,
    /// Wall time over all attempts, in milliseconds.
    pub latency_ms: u64,
    /// Every attempt, the successful one last.
    pub attempts: Vec<HttpAttempt>,
    /// Whether this came from the response cache (no request was made).
    pub cached: bool,
}

impl Completion {
    /// Whether the answer is longer than a candidate may be: such an answer is almost always
    /// refused and the largest to keep, so it is neither cached nor written down.
    pub fn is_longer_than_a_candidate(&self) -> bool {
        self.text.len() as u64 > modlearn_types::bound::CANDIDATE_BYTES
    }
}

/// Why no completion could be had. Faults of one proposal are data for the
/// run (a failed candidate); only configuration errors stop it.
#[derive(Debug, thiserror::Error)]
pub enum ProposeError {
    /// Missing key, bad base URL, unknown model for the local provider.
    #[error("{0}")]
    Config(String),
    /// The API refused the credentials (HTTP 401 or 403). No later request
    /// can succeed either, so a run stops at once instead of failing every
    /// candidate.
    #[error("{message}")]
    Auth {
        /// What the server said, naming the model (keys redacted).
        message: String,
        /// What to fix: the environment variable or flag.
        hint: String,
        /// Every attempt.
        attempts: Vec<HttpAttempt>,
    },
    /// Every attempt failed (the attempts say how).
    #[error("no completion after {} attempt(s): {message}", attempts.len())]
    Failed {
        /// Summary of the last failure.
        message: String,
        /// Every attempt.
        attempts: Vec<HttpAttempt>,
    },
}

/// A boxed future, so proposers can be trait objects.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Something that answers completion requests.
pub trait Proposer: Send + Sync {
    /// Asks for one completion.
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>>;
}
