use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Diagnostic;

/// What one event emission did: Letta's emission result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Emission {
    /// Diagnostics recorded by handlers of this emission.
    pub diagnostics: Vec<Diagnostic>,
    /// Registrations dispatched to (skipped aborted owners included, as in Letta).
    pub handler_count: usize,
    /// The event name.
    pub name: String,
    /// Every non-null handler return value, valid or not.
    pub results: Vec<Value>,
}

/// A registered tool as the host sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredTool {
    /// Tool name.
    pub name: String,
    /// Description shown to the model.
    pub description: String,
    /// JSON Schema of its arguments.
    pub parameters: Value,
    /// `auto`, `ask` or `alwaysAsk`.
    pub approval_policy: String,
    /// Whether a call needs approval.
    pub requires_approval: bool,
    /// Whether calls may run in parallel.
    pub parallel_safe: bool,
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
}

/// A registered slash command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredCommand {
    /// Command id (without `/`).
    pub id: String,
    /// Description.
    pub description: String,
    /// Sort order, as the mod gave it (Letta takes any value; 250 when none).
    pub order: Value,
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
}

/// The state of an engine's registry at one moment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistrySnapshot {
    /// Load generation.
    pub generation: u64,
    /// Mods that activated.
    pub loaded_paths: Vec<String>,
    /// Every diagnostic of this generation so far.
    pub diagnostics: Vec<Diagnostic>,
    /// Handler count per event name.
    pub events: std::collections::BTreeMap<String, usize>,
    /// Registered tools.
    pub tools: Vec<RegisteredTool>,
    /// Registered commands.
    pub commands: Vec<RegisteredCommand>,
    /// Registered permission overlays (`id`, `description`, `mod`).
    pub permissions: Vec<Value>,
    /// Registered providers (`name`, `mod`).
    pub providers: Vec<Value>,
    /// Open panels (`id`, `order`, `mod`).
    pub panels: Vec<Value>,
    /// Timers still scheduled.
    pub timers: usize,
    /// `letta.ui.notify` messages so far.
    pub notifications: Vec<Value>,
    /// Dialogs a Pi extension opened (`confirm`, `select`, `input`, `editor`), which the headless
    /// UI answered as Pi's does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prompts: Vec<Value>,
    /// DSH plugins parked PENDING (`mod`, `plugin`, `state`, `missing`: the injected services
    /// nobody provides).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Value>,
    /// The services the loaded DSH plugin injects and those it read through its contexts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub services: Option<ServiceUse>,
    /// What the mods asked of their platform so far, and (at a scenario's end) the machine's
    /// record of it.
    #[serde(default)]
    pub world: Box<crate::WorldState>,
}

/// One line the candidate printed with `console.*`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsoleLine {
    /// `log`, `info`, `warn`, `error`, ...
    pub level: String,
    /// The formatted text.
    pub text: String,
}

/// A DSH plugin's services: what its `inject` declares and what it read through its own
/// contexts (`ctx.tools`, and the contexts of plugins it started), so far.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceUse {
    /// Names in `inject`, in order.
    pub declared: Vec<String>,
    /// Names read, in first-read order.
    pub used: Vec<String>,
    /// Reads past the engine's log bound went unrecorded: `used` may lack some.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub incomplete: bool,
}
