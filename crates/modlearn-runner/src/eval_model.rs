//! The eval model: a tool-calling model acting as the agent of Letta's `prompt` scenarios, in the
//! same simulated headless session as scripted scenarios. Each assistant turn is one request with
//! the conversation as the host has it (the mods' injected messages and rewritten results
//! included) and the tools the session offers; its text and tool calls become the session's
//! actions, so tool calls go through permissions, `tool_start`, execution and `tool_end` exactly
//! as a script's do.
//!
//! Sessions run on the exercise stage's threads, each engine with a current-thread runtime of its
//! own, so a request is never awaited there: it is spawned on the caller's multi-thread runtime
//! and its answer waited for on a channel, for at most the time the session has left.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use modlearn_exercise::session::{Action, DriverFactory, SessionDriver, SessionView, ToolCall};
use modlearn_propose::{AssistantTurn, ChatMessage, ModelRef, ProposeError, ToolChat, ToolSpec, TurnRequest, Usage};
use modlearn_types::EvalUsage;
use serde_json::{Value, json};

use crate::transcript::chat_messages;

/// Output token cap of one eval-model turn.
const MAX_TOKENS: u32 = 4096;

/// Actions one session may take before it counts as runaway (tool calls of a model that never
/// stops calling tools, within `maxTurns`).
const MAX_STEPS: usize = 256;

/// The eval model shared by every session of a run: the client, the runtime its requests run on,
/// the budget, and the error that stops the run (a refused key).
pub struct EvalModel {
    chat: Arc<dyn ToolChat>,
    model: ModelRef,
    runtime: tokio::runtime::Handle,
    max_usd: Option<f64>,
    spent: Arc<Mutex<f64>>,
    halted: AtomicBool,
    fatal: Mutex<Option<ProposeError>>,
}

impl std::fmt::Debug for EvalModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalModel").field("model", &self.model.to_string()).field("max_usd", &self.max_usd).finish_non_exhaustive()
    }
}

impl EvalModel {
    /// `chat` answering as `model`; requests run on `runtime` (a multi-thread runtime that
    /// outlives the evaluation).
    pub fn new(chat: Arc<dyn ToolChat>, model: ModelRef, runtime: tokio::runtime::Handle) -> EvalModel {
        EvalModel {
            chat,
            model,
            runtime,
            max_usd: None,
            spent: Arc::new(Mutex::new(0.0)),
            halted: AtomicBool::new(false),
            fatal: Mutex::new(None),
        }
    }

    /// Stops asking once the run's spending (see [`EvalModel::spent`]) reaches `max_usd`.
    pub fn with_budget(mut self, max_usd: Option<f64>) -> EvalModel {
        self.max_usd = max_usd;
        self
    }

    /// The model.
    pub fn model(&self) -> &ModelRef {
        &self.model
    }

    /// The run's spending ledger (USD), eval turns and proposals together.
    pub fn spent(&self) -> Arc<Mutex<f64>> {
        Arc::clone(&self.spent)
    }

    /// Whether the API refused the key: no session asks anything after that.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::SeqCst)
    }

    /// The error that halted the eval model, once (later calls get `None`).
    pub fn take_fatal(&self) -> Option<ProposeError> {
        self.fatal.lock().unwrap_or_else(PoisonError::into_inner).take()
    }

    fn budget_spent(&self) -> bool {
        self.max_usd.is_some_and(|max| *self.spent.lock().unwrap_or_else(PoisonError::into_inner) >= max)
    }

    /// Asks for one turn on the shared runtime, waiting at most `limit`.
    fn ask(&self, request: TurnRequest, limit: Duration) -> Result<AssistantTurn, Asked> {
        let (sender, answer) = channel();
        let chat = Arc::clone(&self.chat);
        let task = self.runtime.spawn(async move {
            let _ = sender.send(chat.turn(&request).await);
        });
        match answer.recv_timeout(limit) {
            Ok(Ok(turn)) => Ok(turn),
            Ok(Err(error @ ProposeError::Auth { .. })) => {
                let message = error.to_string();
                self.halted.store(true, Ordering::SeqCst);
                self.fatal.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(error);
                Err(Asked::Failed(format!("the eval model's API refused the key: {message}")))
            }
            Ok(Err(error)) => Err(Asked::Failed(format!("the eval model failed: {error}"))),
            Err(RecvTimeoutError::Timeout) => {
                task.abort();
                Err(Asked::TimedOut)
            }
            Err(RecvTimeoutError::Disconnected) => Err(Asked::Failed("the eval model's request was dropped".to_owned())),
        }
    }

    fn spend(&self, cost: f64) {
        *self.spent.lock().unwrap_or_else(PoisonError::into_inner) += cost;
    }
}

enum Asked {
    TimedOut,
    Failed(String),
}

/// What the eval model spent on one candidate, filled in by its sessions.
pub(crate) type Ledger = Arc<Mutex<EvalUsage>>;

/// A new ledger for one candidate.
pub(crate) fn ledger(model: &EvalModel) -> Ledger {
    Arc::new(Mutex::new(EvalUsage { model: model.model.to_string(), ..EvalUsage::default() }))
}

/// One prompt scenario's session settings: makes a fresh driver per session.
#[derive(Clone, Debug)]
pub(crate) struct PromptSession {
    pub(crate) model: Arc<EvalModel>,
    pub(crate) ledger: Ledger,
    /// The scenario's prompt; the session replaces `$MEMORY_DIR` in it.
    pub(crate) prompt: String,
    /// Where the scenario directory is mounted, for the system prompt.
    pub(crate) cwd: String,
    /// Assistant turns at most (`maxTurns`).
    pub(crate) max_turns: u32,
    /// Wall time of the whole session (`timeoutMs`).
    pub(crate) timeout: Duration,
}

impl DriverFactory for PromptSession {
    fn driver(&self) -> Box<dyn SessionDriver> {
        Box::new(ModelDriver {
            session: self.clone(),
            started: None,
            prompted: false,
            pending: VecDeque::new(),
            turns: 0,
            steps: 0,
            usage: Usage::default(),
            cost_usd: 0.0,
            end: None,
        })
    }
}

/// The system prompt: a headless coding agent's, brief; the tools describe themselves.
pub(crate) fn system_prompt(cwd: &str) -> String {
    format!(
        "You are a coding agent running headless (non-interactive) in the workspace {cwd}. \
         Nobody can answer questions: act on the user's request with the tools you have, then reply \
         with a short final message saying what you did. Tool calls run through the harness, which \
         may change a call or refuse it; each result says what happened. \
         Text in <system-reminder> tags comes from the harness, not the user."
    )
}

struct ModelDriver {
    session: PromptSession,
    started: Option<Instant>,
    prompted: bool,
    pending: VecDeque<Action>,
    turns: u32,
    steps: usize,
    usage: Usage,
    cost_usd: f64,
    /// How the session ended, for the trace.
    end: Option<String>,
}

impl ModelDriver {
    fn stop(&mut self, reason: String) -> Action {
        self.end = Some(reason.clone());
        Action::Stop(reason)
    }

    fn finish_with(&mut self, end: &str) -> Action {
        self.end.get_or_insert_with(|| end.to_owned());
        Action::End
    }

    fn request(&self, view: &SessionView<'_>) -> TurnRequest {
        let mut messages = vec![ChatMessage::system(system_prompt(&self.session.cwd))];
        messages.extend(chat_messages(view.transcript));
        TurnRequest {
            model: self.session.model.model.clone(),
            messages,
            tools: view
                .tools
                .iter()
                .map(|tool| ToolSpec {
                    name: tool.name.clone(),
                    description: tool.description.clone(),
                    parameters: tool.parameters.clone(),
                })
                .collect(),
            max_tokens: MAX_TOKENS,
            // Greedy and seeded: a re-evaluation asks the same and the cache answers it.
            temperature: 0.0,
            seed: 0,
        }
    }

    fn record(&mut self, turn: &AssistantTurn) {
        self.turns += 1;
        self.usage.input_tokens += turn.usage.input_tokens;
        self.usage.output_tokens += turn.usage.output_tokens;
        self.cost_usd += turn.cost_usd;
        // Counted like a proposal's cost, cached or not, so a resumed run stops where it stopped.
        self.session.model.spend(turn.cost_usd);
        let mut ledger = self.session.ledger.lock().unwrap_or_else(PoisonError::into_inner);
        ledger.turns += 1;
        ledger.cached_turns += usize::from(turn.cached);
        ledger.input_tokens += turn.usage.input_tokens;
        ledger.output_tokens += turn.usage.output_tokens;
        ledger.cost_usd += turn.cost_usd;
    }
}

impl SessionDriver for ModelDriver {
    fn next_action(&mut self, view: &SessionView<'_>) -> Action {
        let started = *self.started.get_or_insert_with(Instant::now);
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return self.stop(format!("the eval model took more than {MAX_STEPS} steps"));
        }
        if let Some(action) = self.pending.pop_front() {
            return action;
        }
        if !self.prompted {
            self.prompted = true;
            return Action::User(self.session.prompt.clone());
        }
        if !view.in_turn {
            // The model ended its turn and no mod continued it, or a mod cancelled the turn.
            return self.finish_with("done");
        }
        if self.turns >= self.session.max_turns {
            return self.finish_with("maxTurns");
        }
        let model = Arc::clone(&self.session.model);
        if model.halted() {
            return self.stop("the eval model's API refused the key".to_owned());
        }
        if model.budget_spent() {
            return self.stop("the --max-usd budget is spent".to_owned());
        }
        let timeout = self.session.timeout;
        let Some(left) = timeout.checked_sub(started.elapsed()).filter(|left| !left.is_zero()) else {
            return self.stop(format!("the {} ms of timeoutMs ran out", timeout.as_millis()));
        };
        let turn = match model.ask(self.request(view), left) {
            Ok(turn) => turn,
            Err(Asked::TimedOut) => return self.stop(format!("the {} ms of timeoutMs ran out", timeout.as_millis())),
            Err(Asked::Failed(reason)) => return self.stop(reason),
        };
        self.record(&turn);
        let stop_reason = if turn.tool_calls.is_empty() { "end_turn" } else { "tool_use" };
        self.pending.push_back(Action::Llm { stop_reason: stop_reason.to_owned(), error: None });
        if !turn.text.trim().is_empty() {
            self.pending.push_back(Action::Assistant(turn.text.clone()));
        }
        for call in &turn.tool_calls {
            self.pending.push_back(Action::Tool(ToolCall {
                name: call.name.clone(),
                args: call.arguments.clone(),
                tool_call_id: Some(call.id.clone()),
                ..ToolCall::default()
            }));
        }
        if turn.tool_calls.is_empty() {
            self.pending.push_back(Action::EndTurn);
        }
        self.pending.pop_front().unwrap_or(Action::EndTurn)
    }

    fn finish(&mut self) -> Option<Value> {
        self.session.ledger.lock().unwrap_or_else(PoisonError::into_inner).sessions += 1;
        // No latency and no cache flag: the trace must be the same on a re-evaluation.
        Some(json!({
            "driver": "model",
            "model": self.session.model.model.to_string(),
            "modelTurns": self.turns,
            "maxTurns": self.session.max_turns,
            "end": self.end.clone().unwrap_or_else(|| "stopped".to_owned()),
            "usage": { "inputTokens": self.usage.input_tokens, "outputTokens": self.usage.output_tokens },
            // Rounded to a millionth of a dollar, so float noise stays out of the trace.
            "costUsd": (self.cost_usd * 1e6).round() / 1e6,
        }))
    }
}
