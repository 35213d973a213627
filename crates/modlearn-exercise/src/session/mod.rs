//! Headless agent sessions: a simulated Letta Code host (`letta -p`) that plays turns against the
//! loaded candidate, as Letta's host would, and writes down what it saw.
//!
//! A [`SessionDriver`] decides what the agent does next (a user message, an assistant message, a
//! tool call, a lifecycle step, the end of a turn); the session carries it out the way Letta's
//! headless host does: `turn_start` (injected messages, cancel), for each tool call the mods'
//! permission overlays, `tool_start` (argument rewrites, synthesized results), execution (the
//! candidate's registered tools inside its engine, dispatched first; the environment's tools
//! otherwise) and `tool_end` (result rewrites), and `turn_end` (`continue`). The environment's
//! tools act on the candidate's machine (Bash runs there, Read/Write/Edit are its files), never
//! on the host.
//!
//! [`ScriptDriver`] plays a fixed script; a model-driven driver sees the same
//! [`SessionView`] (transcript and tool schemas) and answers with the same [`Action`]s.

mod calls;
mod host;
mod lifecycle;
mod script;
mod tools;
mod trace;

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use modlearn_types::{Diagnostic, Dialect};

pub use host::run_session;
pub use script::ScriptDriver;
pub use tools::SessionMachine;

/// Everything a session needs besides the engine.
#[derive(Clone, Debug, Default)]
pub struct SessionPlan {
    /// Who decides the agent's actions.
    pub driver: DriverPlan,
    /// The simulated environment.
    pub env: SessionEnv,
    /// The scenario's memory directory on the machine (`$MEMORY_DIR`), which the exercise stage
    /// fills with the scenario's memory files before it runs.
    pub memory_dir: String,
    /// The environment the agent's Bash commands run with.
    pub command_env: Vec<(String, String)>,
    /// Turns the session may have in all; a `continue` past it is dropped.
    pub max_turns: u32,
}

/// Which driver runs the session.
#[derive(Clone, Debug)]
pub enum DriverPlan {
    /// A fixed list of actions (a spec's `script`).
    Script(Vec<Action>),
    /// A driver made by a later stage (a model acting as the agent), which this crate cannot build.
    External(Arc<dyn DriverFactory>),
}

/// Makes the driver of one session; shared across the exercise stage's threads.
pub trait DriverFactory: Send + Sync + std::fmt::Debug {
    /// A fresh driver for one session.
    fn driver(&self) -> Box<dyn SessionDriver>;
}

impl Default for DriverPlan {
    fn default() -> DriverPlan {
        DriverPlan::Script(Vec::new())
    }
}

impl DriverPlan {
    /// A fresh driver for one session.
    pub fn driver(&self) -> Box<dyn SessionDriver> {
        match self {
            DriverPlan::Script(actions) => Box::new(ScriptDriver::new(actions.clone())),
            DriverPlan::External(factory) => factory.driver(),
        }
    }
}

/// The simulated environment of a session.
#[derive(Clone, Debug, Default)]
pub struct SessionEnv {
    /// The environment's name (for the trace).
    pub name: String,
    /// The ctx values the engine was configured with (the harness defaults fill the rest);
    /// [`exercise`](crate::exercise) sets it from the scenario's host settings.
    pub context: Option<Value>,
    /// Built-in tools besides the candidate's.
    pub tools: Vec<EnvTool>,
    /// Whether an overlay's `ask` lets the call run (nobody can answer in a headless session).
    pub ask_allows: bool,
    /// Whose tools these are: the host that names their arguments and words their results.
    pub dialect: Dialect,
}

/// One built-in tool.
#[derive(Clone, Debug)]
pub struct EnvTool {
    /// The name the agent calls it by.
    pub name: String,
    /// What it does.
    pub kind: ToolKind,
    /// Shown to a model-driven agent.
    pub description: String,
    /// JSON Schema of its arguments.
    pub parameters: Value,
    /// What Bash tells the agent when the call names no output (empty: the command's own output).
    pub default_output: String,
}

/// What an environment tool does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolKind {
    /// Runs the command in bash on the machine.
    Bash,
    /// Reads a file on the machine.
    Read,
    /// Writes a file on the machine.
    Write,
    /// Replaces text in a file on the machine.
    Edit,
}

/// What the agent does next.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// A user message: ends a running turn (`turn_end`) and starts a new one (`turn_start`).
    User(String),
    /// An assistant message in the running turn.
    Assistant(String),
    /// A tool call in the running turn.
    Tool(ToolCall),
    /// `conversation_open` with this reason.
    ConversationOpen {
        /// `startup`, `new`, `resume`, `fork` or `reload`.
        reason: String,
        /// For `resume` and `fork`.
        previous_conversation_id: Option<String>,
    },
    /// `conversation_close` with this reason.
    ConversationClose {
        /// `quit`, `new`, `resume`, `fork` or `reload`.
        reason: String,
    },
    /// `compact_start`, compaction of the transcript, `compact_end`.
    Compact {
        /// `manual`, `context_window_overflow` or `context_window_limit`.
        trigger: String,
        /// Newest messages kept after the summary.
        keep_messages: usize,
    },
    /// `llm_start` and `llm_end` of one model request.
    Llm {
        /// `llm_end`'s `stopReason`.
        stop_reason: String,
        /// A failed request's error message.
        error: Option<String>,
    },
    /// The agent is done with the running turn (`turn_end`).
    EndTurn,
    /// The session is over (a running turn ends first).
    End,
    /// The session stops at once, unfinished, for this reason (a model driver's time limit, the
    /// model failing); its markers are not judged.
    Stop(String),
}

/// A tool call the agent makes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// Its arguments (an object).
    pub args: Value,
    /// What a Bash call tells the agent, instead of the command's own output (it still runs).
    pub output: Option<String>,
    /// The status a Bash call reports, instead of its exit code's.
    pub status: Option<String>,
    /// The call's id; `call-<n>` when unset.
    pub tool_call_id: Option<String>,
}

/// A tool the agent can call, as a model would be shown it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSchema {
    /// Its name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// JSON Schema of its arguments.
    pub parameters: Value,
    /// `mod` for the candidate's tools (dispatched first), `env` for the environment's.
    pub source: &'static str,
}

/// What a driver sees before choosing its next action.
#[derive(Clone, Copy, Debug)]
pub struct SessionView<'a> {
    /// The conversation so far: `{role, content}` messages, tool calls and tool results.
    pub transcript: &'a [Value],
    /// The tools the agent can call now.
    pub tools: &'a [ToolSchema],
    /// Whether a turn is running.
    pub in_turn: bool,
    /// Whether the running turn was started by a mod's `continue`.
    pub continuation: bool,
    /// Turns started so far.
    pub turns: u32,
    /// The most turns the session may have.
    pub max_turns: u32,
}

/// Decides what the agent does next. Synchronous: sessions run on the exercise stage's threads.
pub trait SessionDriver {
    /// The next action, given the session so far.
    fn next_action(&mut self, view: &SessionView<'_>) -> Action;

    /// What the driver has to say about the session when it is over (a `driver` trace entry).
    fn finish(&mut self) -> Option<Value> {
        None
    }
}

/// What a session left behind.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionOutcome {
    /// Every event as the host saw it after the mods acted, tool calls with their effective
    /// args, permission decisions, results, messages; one JSON object per entry.
    pub trace: Vec<Value>,
    /// The last assistant message (Letta's result text).
    pub result: String,
    /// The conversation at the end.
    pub transcript: Vec<Value>,
    /// The memory directory at the end (relative path, contents).
    pub files: Vec<(String, String)>,
    /// Diagnostics the candidate caused during the session.
    pub diagnostics: Vec<Diagnostic>,
    /// What the candidate asked of its platform during the session (a fresh load: its process
    /// starts again; the machine is the scenario's, and its record the scenario's).
    pub world: modlearn_types::WorldState,
    /// Why the session stopped early (the engine failed, the driver never ended).
    pub error: Option<String>,
}

impl SessionOutcome {
    /// The trace as JSON Lines, the text trace markers are checked against.
    pub fn trace_jsonl(&self) -> String {
        self.trace.iter().map(|entry| format!("{entry}\n")).collect()
    }
}
