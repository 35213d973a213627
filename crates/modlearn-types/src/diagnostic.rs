use serde::{Deserialize, Serialize};

/// A problem a mod caused, in the shape of Letta Code's diagnostics report
/// entries, plus modlearn's [`Fault`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    /// The capability involved (an event, tool, panel, API...), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability: Option<Capability>,
    /// The JavaScript error's name (`TypeError`, `TimeoutError`, ...).
    pub error_name: String,
    /// What to do about it, when there is a known fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The mod the diagnostic belongs to.
    #[serde(rename = "mod", default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<ModOwner>,
    /// The error message.
    pub message: String,
    /// Where in the mod's life it happened (`import`, `activate`, `event`, ...).
    pub phase: String,
    /// Effective severity, by Letta's rules.
    pub severity: Severity,
    /// The candidate's own stack frames, when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stack: Option<String>,
    /// When it happened, on the engine's virtual clock (reproducible).
    pub timestamp: String,
    /// What kind of failure it was.
    pub fault: Fault,
}

/// The capability a diagnostic is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capability {
    /// Its id: an event name, tool name, API path...
    pub id: String,
    /// `api`, `command`, `event`, `permission`, `provider`, `tool`, `panel`...
    pub kind: String,
}

/// Who a diagnostic belongs to: one loaded mod file in one load generation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModOwner {
    /// `<scope>:<path>`.
    pub id: String,
    /// The mod file.
    pub path: String,
    /// Where it was loaded from (`global` for candidates).
    pub scope: String,
    /// The load generation.
    pub generation: u64,
}

/// Letta's two severities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Counts against the mod.
    Error,
    /// Worth fixing; Letta's learning harness still fails `mod_loads` on it.
    Warning,
}

/// The kind of failure behind a diagnostic. Letta only knows exceptions;
/// modlearn also stops mods that would hang or exhaust the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// The mod threw (or reported a problem itself).
    Exception,
    /// The mod's code ran past its time budget and was stopped.
    Timeout,
    /// The mod allocated past the engine's memory cap.
    OutOfMemory,
    /// The mod recursed past the stack limit.
    StackOverflow,
    /// The host awaited a promise that nothing could ever settle.
    NeverSettled,
    /// The mod reached for the filesystem, network, environment or process.
    HostAccess,
    /// A promise the mod created rejected with nothing to handle it.
    UnhandledRejection,
    /// The mod uses an API Letta Code removed.
    Deprecated,
    /// The mod reported the problem itself (`letta.diagnostics.report`).
    Reported,
    /// The mod called through a handle of a generation that is gone.
    StaleHandle,
    /// The mod's command overrides a built-in command.
    Override,
    /// The mod's engine process died of a signal (a crash in native code,
    /// such as a parser overflowing its stack).
    Crashed,
}

impl Fault {
    /// The snake_case name used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::Exception => "exception",
            Fault::Timeout => "timeout",
            Fault::OutOfMemory => "out_of_memory",
            Fault::StackOverflow => "stack_overflow",
            Fault::NeverSettled => "never_settled",
            Fault::HostAccess => "host_access",
            Fault::UnhandledRejection => "unhandled_rejection",
            Fault::Deprecated => "deprecated",
            Fault::Reported => "reported",
            Fault::StaleHandle => "stale_handle",
            Fault::Override => "override",
            Fault::Crashed => "crashed",
        }
    }
}
