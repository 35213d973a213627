//! Turns cached by content: the key covers the model, the whole
//! conversation so far, the tools and the sampling parameters, so a
//! conversation replayed with the same tool results asks nothing twice.

use serde_json::json;

use super::{AssistantTurn, ToolChat, TurnRequest};
use crate::cache::digest;
use crate::{BoxFuture, ProposeError, ResponseCache};

impl ResponseCache {
    /// The hex SHA-256 of a turn request's canonical JSON (provider, model,
    /// messages, tools, max_tokens, temperature, seed). Disjoint from
    /// [`ResponseCache::key`]: the canonical JSON has its own `kind`.
    pub fn turn_key(request: &TurnRequest) -> String {
        digest(&json!({
            "version": 1,
            "kind": "tool-turn",
            "provider": request.model.provider,
            "model": request.model.name,
            "messages": request.messages,
            "tools": request.tools,
            "maxTokens": request.max_tokens,
            "temperature": request.temperature,
            "seed": request.seed,
        }))
    }
}

/// A [`ToolChat`] that answers from a [`ResponseCache`] when it can. A hit
/// comes back with `cached: true`, no attempts and zero latency; usage and
/// cost are the original answer's. Failures are not cached.
pub struct CachedToolChat {
    inner: Box<dyn ToolChat>,
    cache: ResponseCache,
}

impl CachedToolChat {
    /// Wraps `inner` with `cache`.
    pub fn new(inner: Box<dyn ToolChat>, cache: ResponseCache) -> CachedToolChat {
        CachedToolChat { inner, cache }
    }

    /// The cache.
    pub fn cache(&self) -> &ResponseCache {
        &self.cache
    }
}

impl ToolChat for CachedToolChat {
    fn turn<'a>(&'a self, request: &'a TurnRequest) -> BoxFuture<'a, Result<AssistantTurn, ProposeError>> {
        Box::pin(async move {
            let key = ResponseCache::turn_key(request);
            if let Some(hit) = self.cache.load::<AssistantTurn>(&key) {
                return Ok(AssistantTurn { cached: true, attempts: Vec::new(), latency_ms: 0, ..hit });
            }
            let turn = self.inner.turn(request).await?;
            if let Err(error) = self.cache.store(&key, &turn) {
                tracing::warn!("cannot store a response in `{}`: {error}", self.cache.dir().display());
            }
            Ok(turn)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchat::{ChatMessage, ToolCall, ToolSpec};
    use crate::{CompletionRequest, Message, ModelRef, Role};

    fn request() -> TurnRequest {
        TurnRequest {
            model: ModelRef::parse("openai:gpt-4.1").unwrap(),
            messages: vec![ChatMessage::user("hi")],
            tools: vec![ToolSpec { name: "list".into(), description: "d".into(), parameters: json!({"type": "object"}) }],
            max_tokens: 10,
            temperature: 0.7,
            seed: 1,
        }
    }

    #[test]
    fn the_key_covers_tools_and_the_conversation() {
        let key = ResponseCache::turn_key(&request());
        assert_eq!(key, ResponseCache::turn_key(&request()));
        let mut changed = vec![request(), request(), request(), request()];
        changed[0].tools[0].description = "other".into();
        changed[1].tools.clear();
        changed[2].messages.push(ChatMessage::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall { id: "a".into(), name: "list".into(), arguments: json!({}) }],
        });
        changed[3].messages.push(ChatMessage::tool_result("a", "x", false));
        for other in changed {
            assert_ne!(key, ResponseCache::turn_key(&other), "{other:?}");
        }
        // A plain completion of the same text is another entry.
        let completion = CompletionRequest {
            model: request().model,
            messages: vec![Message { role: Role::User, content: "hi".into() }],
            max_tokens: 10,
            temperature: 0.7,
            seed: 1,
        };
        assert_ne!(key, ResponseCache::key(&completion));
    }
}
