//! The agent proposer: instead of one completion, the model works through a
//! bounded tool-calling loop over the run directory (`list`, `read`,
//! `search`, all read-only and confined to it) and delivers the candidate
//! with `write_candidate`, as Letta's proposer does with its shell. Every
//! turn, call and (truncated) result is kept in a transcript.

mod tools;
mod workspace;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::cache::digest;
use crate::toolchat::{ChatMessage, ToolCall, ToolChat, TurnRequest};
use crate::{CompletionRequest, HttpAttempt, ProposeError, ResponseCache, Usage};

pub use tools::{WRITE_CANDIDATE, agent_tools};
pub use workspace::Workspace;

/// The transcript's file name in a candidate's directory.
pub const TRANSCRIPT_FILE: &str = "agent-transcript.jsonl";

/// Characters of a tool result (or of a long argument) kept in the transcript.
const TRANSCRIPT_CLIP: usize = 2_000;

/// How far one session may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentLimits {
    /// Model turns at most.
    pub max_steps: u32,
    /// Tokens (in and out, over all turns) at most; checked before each turn.
    pub max_session_tokens: u64,
}

impl Default for AgentLimits {
    fn default() -> AgentLimits {
        AgentLimits { max_steps: 12, max_session_tokens: 500_000 }
    }
}

/// Why a session ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum AgentEnd {
    /// `write_candidate` was called with a usable source.
    Written,
    /// The step bound came first.
    StepBound {
        /// The bound.
        max_steps: u32,
    },
    /// The token bound came first.
    TokenBound {
        /// Tokens used.
        used: u64,
        /// The bound.
        max: u64,
    },
    /// The caller's budget ran out.
    Budget,
    /// A turn got no answer (after retries).
    ModelFailed {
        /// Why.
        message: String,
    },
}

impl AgentEnd {
    /// Why no candidate came of the session, if none did.
    pub fn failure(&self) -> Option<String> {
        match self {
            AgentEnd::Written => None,
            AgentEnd::StepBound { max_steps } => Some(format!("the agent did not call `{WRITE_CANDIDATE}` within {max_steps} steps")),
            AgentEnd::TokenBound { used, max } => {
                Some(format!("the agent used {used} tokens (bound {max}) without calling `{WRITE_CANDIDATE}`"))
            }
            AgentEnd::Budget => Some(format!("the budget was spent before the agent called `{WRITE_CANDIDATE}`")),
            AgentEnd::ModelFailed { message } => Some(format!("no answer from the model: {message}")),
        }
    }
}

/// One line of the transcript.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum TranscriptEntry {
    /// A model turn.
    Turn {
        /// 1-based step.
        step: u32,
        /// Its text.
        text: String,
        /// Its calls (long argument strings cut).
        tool_calls: Vec<ToolCall>,
        /// Why the model stopped.
        stop_reason: Option<String>,
        /// Tokens.
        usage: Usage,
        /// USD.
        cost_usd: f64,
        /// Milliseconds.
        latency_ms: u64,
        /// From the response cache.
        cached: bool,
        /// HTTP attempts.
        http_attempts: Vec<HttpAttempt>,
    },
    /// A tool call and its result.
    Tool {
        /// 1-based step.
        step: u32,
        /// The call id.
        call_id: String,
        /// The tool.
        name: String,
        /// Its arguments (long strings cut).
        arguments: Value,
        /// Whether it succeeded.
        ok: bool,
        /// The result sent back, cut to 2000 characters.
        result: String,
        /// The full result's length in characters.
        result_chars: usize,
    },
    /// Something the loop told the model.
    Note {
        /// 1-based step.
        step: u32,
        /// The text sent.
        text: String,
    },
}

/// A finished session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentSession {
    /// The candidate's source, when `write_candidate` delivered one.
    pub source: Option<String>,
    /// Why the session ended.
    pub end: AgentEnd,
    /// Model turns taken.
    pub steps: u32,
    /// Tokens over all turns.
    pub usage: Usage,
    /// USD over all turns.
    pub cost_usd: f64,
    /// Model wall time over all turns, in milliseconds.
    pub latency_ms: u64,
    /// HTTP attempts over all turns.
    pub http_attempts: usize,
    /// Replayed whole from the response cache.
    pub cached: bool,
    /// Every turn, call and note, in order.
    pub transcript: Vec<TranscriptEntry>,
}

impl AgentSession {
    /// The transcript as JSON Lines: a `session` summary line, then one line
    /// per entry.
    pub fn transcript_jsonl(&self) -> String {
        let summary = json!({
            "kind": "session",
            "end": self.end,
            "failure": self.end.failure(),
            "steps": self.steps,
            "usage": self.usage,
            "costUsd": self.cost_usd,
            "latencyMs": self.latency_ms,
            "httpAttempts": self.http_attempts,
            "cached": self.cached,
        });
        let mut out = format!("{summary}\n");
        for entry in &self.transcript {
            out.push_str(&serde_json::to_string(entry).expect("transcript entries serialize"));
            out.push('\n');
        }
        out
    }
}

/// Runs agent sessions with a [`ToolChat`]; whole finished sessions are
/// cached (when a cache is given), so a resumed run replays them.
pub struct AgentProposer {
    chat: std::sync::Arc<dyn ToolChat>,
    limits: AgentLimits,
    sessions: Option<ResponseCache>,
}

impl AgentProposer {
    /// Sessions with `chat`, within `limits`.
    pub fn new(chat: std::sync::Arc<dyn ToolChat>, limits: AgentLimits) -> AgentProposer {
        AgentProposer { chat, limits, sessions: None }
    }

    /// Also keeps finished sessions in `cache`.
    pub fn with_session_cache(mut self, cache: ResponseCache) -> AgentProposer {
        self.sessions = Some(cache);
        self
    }

    /// The limits.
    pub fn limits(&self) -> AgentLimits {
        self.limits
    }

    /// The session cache key: the opening request, the tools and the limits.
    pub fn session_key(&self, request: &CompletionRequest) -> String {
        digest(&json!({
            "version": 1,
            "kind": "agent-session",
            "provider": request.model.provider,
            "model": request.model.name,
            "messages": request.messages,
            "tools": agent_tools(),
            "maxTokens": request.max_tokens,
            "temperature": request.temperature,
            "seed": request.seed,
            "limits": self.limits,
        }))
    }

    /// One session: `request` opens the conversation (its `max_tokens` caps
    /// each turn); the tools work on `workspace`. `spend(cost)` is told each
    /// turn's cost and says whether another turn may be taken.
    ///
    /// Errors are only those that should stop a run (`Auth`, `Config`); a
    /// turn that fails after retries ends the session with
    /// [`AgentEnd::ModelFailed`], its transcript kept.
    pub async fn propose(
        &self,
        request: &CompletionRequest,
        workspace: &Workspace,
        spend: &(dyn Fn(f64) -> bool + Send + Sync),
    ) -> Result<AgentSession, ProposeError> {
        let key = self.session_key(request);
        if let Some(hit) = self.sessions.as_ref().and_then(|cache| cache.load::<AgentSession>(&key)) {
            return Ok(AgentSession { cached: true, latency_ms: 0, ..hit });
        }
        let session = self.run(request, workspace, spend).await?;
        // Budget and model failures depend on more than the request: not cached.
        let settled = matches!(session.end, AgentEnd::Written | AgentEnd::StepBound { .. } | AgentEnd::TokenBound { .. });
        if let (Some(cache), true) = (&self.sessions, settled)
            && let Err(error) = cache.store(&key, &session)
        {
            tracing::warn!("cannot store an agent session in `{}`: {error}", cache.dir().display());
        }
        Ok(session)
    }

    async fn run(
        &self,
        request: &CompletionRequest,
        workspace: &Workspace,
        spend: &(dyn Fn(f64) -> bool + Send + Sync),
    ) -> Result<AgentSession, ProposeError> {
        let mut turn_request = TurnRequest {
            model: request.model.clone(),
            messages: request.messages.iter().cloned().map(ChatMessage::from).collect(),
            tools: agent_tools(),
            max_tokens: request.max_tokens,
            temperature: request.temperature,
            seed: request.seed,
        };
        let max_steps = self.limits.max_steps.max(1);
        let mut session = AgentSession {
            source: None,
            end: AgentEnd::StepBound { max_steps },
            steps: 0,
            usage: Usage::default(),
            cost_usd: 0.0,
            latency_ms: 0,
            http_attempts: 0,
            cached: false,
            transcript: Vec::new(),
        };
        for step in 1..=max_steps {
            let used = session.usage.input_tokens + session.usage.output_tokens;
            if used >= self.limits.max_session_tokens {
                session.end = AgentEnd::TokenBound { used, max: self.limits.max_session_tokens };
                return Ok(session);
            }
            let turn = match self.chat.turn(&turn_request).await {
                Ok(turn) => turn,
                Err(ProposeError::Failed { message, attempts }) => {
                    session.http_attempts += attempts.len();
                    session.end = AgentEnd::ModelFailed { message: format!("step {step}: {message}") };
                    return Ok(session);
                }
                Err(fatal) => return Err(fatal),
            };
            session.steps = step;
            session.usage.input_tokens += turn.usage.input_tokens;
            session.usage.output_tokens += turn.usage.output_tokens;
            session.cost_usd += turn.cost_usd;
            session.latency_ms += turn.latency_ms;
            session.http_attempts += turn.attempts.len();
            session.transcript.push(TranscriptEntry::Turn {
                step,
                text: turn.text.clone(),
                tool_calls: turn
                    .tool_calls
                    .iter()
                    .map(|call| ToolCall { arguments: clip_value(&call.arguments), ..call.clone() })
                    .collect(),
                stop_reason: turn.stop_reason.clone(),
                usage: turn.usage,
                cost_usd: turn.cost_usd,
                latency_ms: turn.latency_ms,
                cached: turn.cached,
                http_attempts: turn.attempts.clone(),
            });
            turn_request.messages.push(turn.to_message());
            let may_continue = spend(turn.cost_usd);
            for call in &turn.tool_calls {
                let (ok, text) = match tools::run(call, workspace) {
                    tools::Outcome::Candidate(source) => {
                        session.transcript.push(tool_entry(step, call, true, "candidate written"));
                        session.source = Some(source);
                        session.end = AgentEnd::Written;
                        return Ok(session);
                    }
                    tools::Outcome::Result { ok, text } => (ok, text),
                };
                session.transcript.push(tool_entry(step, call, ok, &text));
                turn_request.messages.push(ChatMessage::tool_result(call.id.clone(), text, !ok));
            }
            if !may_continue {
                session.end = AgentEnd::Budget;
                return Ok(session);
            }
            let left = max_steps - step;
            let note = if turn.tool_calls.is_empty() && left > 0 {
                Some(format!("Call `{WRITE_CANDIDATE}` with the complete source of the mod; {left} step(s) left."))
            } else if left == 1 {
                Some(format!("1 step left: call `{WRITE_CANDIDATE}` with the complete source of the mod now."))
            } else {
                None
            };
            if let Some(text) = note {
                session.transcript.push(TranscriptEntry::Note { step, text: text.clone() });
                turn_request.messages.push(ChatMessage::user(text));
            }
        }
        Ok(session)
    }
}

fn tool_entry(step: u32, call: &ToolCall, ok: bool, result: &str) -> TranscriptEntry {
    TranscriptEntry::Tool {
        step,
        call_id: call.id.clone(),
        name: call.name.clone(),
        arguments: clip_value(&call.arguments),
        ok,
        result: workspace::clip(result, TRANSCRIPT_CLIP),
        result_chars: result.chars().count(),
    }
}

/// `value` with long strings cut (a candidate's source is saved in full elsewhere).
fn clip_value(value: &Value) -> Value {
    match value {
        Value::String(text) => Value::String(workspace::clip(text, TRANSCRIPT_CLIP)),
        Value::Array(items) => Value::Array(items.iter().map(clip_value).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(key, item)| (key.clone(), clip_value(item))).collect()),
        other => other.clone(),
    }
}
