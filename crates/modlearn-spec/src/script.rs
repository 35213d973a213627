//! Scripted scenarios: a list of steps played against the loaded candidate in a simulated headless
//! agent session, with no model. Each step is an object with exactly one kind key (`user`,
//! `assistant`, `tool`, `conversationOpen`, `conversationClose`, `compact`, `llm`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::assertion::ToolStatus;

/// One step of a script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ScriptStep {
    /// A user message: ends the current turn (turn_end) and starts a new one (turn_start).
    User(UserStep),
    /// An assistant message in the current turn; the last one is the session's result text.
    Assistant(AssistantStep),
    /// A tool call in the current turn: tool_start, permission checks, execution, tool_end.
    Tool(ToolStep),
    /// Emits `conversation_open`.
    ConversationOpen(ConversationOpenStep),
    /// Emits `conversation_close`.
    ConversationClose(ConversationCloseStep),
    /// Compacts the transcript between `compact_start` and `compact_end`.
    Compact(CompactStep),
    /// One model request: `llm_start`, then `llm_end`.
    Llm(LlmStep),
}

impl ScriptStep {
    /// The key that names each kind of step, in the order they are documented.
    pub const KINDS: &'static [&'static str] = &["user", "assistant", "tool", "conversationOpen", "conversationClose", "compact", "llm"];

    /// The kind key of this step.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::User(_) => "user",
            Self::Assistant(_) => "assistant",
            Self::Tool(_) => "tool",
            Self::ConversationOpen(_) => "conversationOpen",
            Self::ConversationClose(_) => "conversationClose",
            Self::Compact(_) => "compact",
            Self::Llm(_) => "llm",
        }
    }
}

/// `{ "user": "Install requests" }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct UserStep {
    /// The user message; `$MEMORY_DIR` and `${MEMORY_DIR}` become the scenario directory.
    pub user: String,
}

/// `{ "assistant": "Installed." }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct AssistantStep {
    /// The assistant's message.
    pub assistant: String,
}

/// `{ "tool": "Bash", "args": { "command": "pip install requests" }, "output": "ok" }`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolStep {
    /// The tool the agent calls: one the candidate registered (those are dispatched first, as in
    /// Letta) or one of the environment's tools.
    pub tool: String,
    /// The call's arguments; `$MEMORY_DIR` in string values becomes the scenario directory.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub args: Map<String, Value>,
    /// What a Bash call tells the agent (the command still runs on the machine); the
    /// environment's default output, else the command's own, when unset. Only Bash-kind
    /// environment tools use it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Status of the Bash result the agent is told; when unset, `success` with an `output` and
    /// otherwise from the command's exit status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolStatus>,
    /// The call's id; `call-<n>` (counting calls from 1) when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
}

/// Why a conversation opens, as Letta's host says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpenReason {
    /// The agent started.
    Startup,
    /// A new conversation.
    New,
    /// A resumed conversation.
    Resume,
    /// A forked conversation.
    Fork,
    /// Mods were reloaded.
    Reload,
}

/// Why a conversation closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CloseReason {
    /// The agent quit.
    Quit,
    /// A new conversation replaces it.
    New,
    /// Another conversation is resumed.
    Resume,
    /// It was forked.
    Fork,
    /// Mods were reloaded.
    Reload,
}

/// What started a compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CompactTrigger {
    /// `/compact`.
    Manual,
    /// The context window overflowed.
    ContextWindowOverflow,
    /// The context window reached its limit.
    ContextWindowLimit,
}

macro_rules! reason_str {
    ($($type:ident { $($variant:ident => $text:literal),* })*) => {$(
        impl $type {
            /// The value as Letta's host sends it.
            pub fn as_str(self) -> &'static str {
                match self { $(Self::$variant => $text),* }
            }
        }
    )*};
}

reason_str! {
    OpenReason { Startup => "startup", New => "new", Resume => "resume", Fork => "fork", Reload => "reload" }
    CloseReason { Quit => "quit", New => "new", Resume => "resume", Fork => "fork", Reload => "reload" }
    CompactTrigger {
        Manual => "manual", ContextWindowOverflow => "context_window_overflow", ContextWindowLimit => "context_window_limit"
    }
}

/// `{ "conversationOpen": "startup" }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ConversationOpenStep {
    /// The event's `reason`.
    pub conversation_open: OpenReason,
    /// The event's `previousConversationId`, for `resume` and `fork`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_conversation_id: Option<String>,
}

/// `{ "conversationClose": "quit" }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ConversationCloseStep {
    /// The event's `reason`; `messageCount` and `toolCallCount` come from the session.
    pub conversation_close: CloseReason,
}

/// `{ "compact": "manual", "keepMessages": 2 }`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct CompactStep {
    /// The events' `trigger`.
    pub compact: CompactTrigger,
    /// Messages kept (the newest ones) after a summary message; 2 when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_messages: Option<u32>,
}

/// `{ "llm": "end_turn" }`: one model request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct LlmStep {
    /// `llm_end`'s `stopReason`.
    pub llm: String,
    /// Makes the request fail: `llm_end` carries `error` with this message and no usage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Finds the kind keys present in a step object: exactly one is valid.
pub(crate) fn kinds_in(object: &Map<String, Value>) -> Vec<&'static str> {
    ScriptStep::KINDS.iter().copied().filter(|kind| object.contains_key(*kind)).collect()
}
