//! Lifecycle steps: conversation open/close, compaction and model requests, with the payloads
//! Letta's host sends. Counts (messages, tool calls, tokens) come from the session itself; time
//! is virtual, so durations are 0.

use modlearn_engine::EngineError;
use serde_json::{Value, json};

use super::Action;
use super::host::Session;

impl Session<'_> {
    /// Carries out a lifecycle action (anything but messages, tool calls and turn ends).
    pub(super) fn lifecycle(&mut self, action: Action) -> Result<(), EngineError> {
        let (agent, conversation) = (self.host.agent_id.clone(), self.host.conversation_id.clone());
        match action {
            Action::ConversationOpen { reason, previous_conversation_id } => {
                let mut payload = json!({
                    "agentId": agent, "agentName": self.host.agent_name, "conversationId": conversation, "reason": reason,
                });
                if let Some(previous) = previous_conversation_id {
                    payload["previousConversationId"] = json!(previous);
                }
                self.emit("conversation_open", payload)?;
            }
            Action::ConversationClose { reason } => {
                let payload = json!({
                    "agentId": agent, "conversationId": conversation, "durationMs": 0,
                    "messageCount": self.transcript.len(), "reason": reason, "toolCallCount": self.tool_calls,
                });
                self.emit("conversation_close", payload)?;
            }
            Action::Compact { trigger, keep_messages } => {
                self.emit("compact_start", json!({ "agentId": agent, "conversationId": conversation, "trigger": trigger }))?;
                let before = self.transcript.len();
                let tokens_before = tokens(&self.transcript);
                if before > keep_messages {
                    let kept = self.transcript.split_off(before - keep_messages);
                    let summary =
                        json!({ "role": "system", "content": format!("Summary of {} earlier message(s).", before - keep_messages) });
                    self.transcript = std::iter::once(summary).chain(kept).collect();
                }
                let payload = json!({
                    "agentId": agent, "conversationId": conversation, "trigger": trigger,
                    "messagesBefore": before, "messagesAfter": self.transcript.len(),
                    "contextTokensBefore": tokens_before, "contextTokensAfter": tokens(&self.transcript),
                });
                self.emit("compact_end", payload)?;
            }
            Action::Llm { stop_reason, error } => {
                let model = self.host.model.clone();
                let start = json!({
                    "agentId": agent, "conversationId": conversation, "model": model,
                    "messageCount": self.transcript.len(), "contextWindow": self.host.context_window,
                });
                self.emit("llm_start", start)?;
                let prompt = tokens(&self.transcript);
                let completion = self
                    .transcript
                    .iter()
                    .rev()
                    .find(|message| message["role"] == "assistant")
                    .map_or(0, |message| tokens(std::slice::from_ref(message)));
                let mut end = json!({
                    "agentId": agent, "conversationId": conversation, "model": model, "stopReason": stop_reason,
                    "usage": { "promptTokens": prompt, "completionTokens": completion, "totalTokens": prompt + completion },
                    "durationMs": 0,
                });
                if let Some(message) = error {
                    end["usage"] = Value::Null;
                    end["error"] = json!({ "message": message, "detail": null, "errorType": "llm_error", "retryable": false });
                }
                self.emit("llm_end", end)?;
            }
            Action::User(_) | Action::Assistant(_) | Action::Tool(_) | Action::EndTurn | Action::End | Action::Stop(_) => {
                unreachable!("handled by the session")
            }
        }
        Ok(())
    }
}

/// A rough token count (4 characters a token), stable across runs.
fn tokens(messages: &[Value]) -> u64 {
    let characters: usize = messages.iter().map(|message| message.to_string().chars().count()).sum();
    characters.div_ceil(4) as u64
}
