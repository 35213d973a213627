use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{CommandRun, Emission, PermissionCheck, RegistrySnapshot, ToolRun};

/// Something to do to a loaded candidate so that an assertion can be
/// judged: the judge asks for probes, the exercise stage runs them in a
/// real engine and hands back one [`Observation`] per probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "probe", rename_all = "snake_case")]
pub enum Probe {
    /// Read the registry (loaded mods, diagnostics, registrations).
    Snapshot,
    /// Emit an event with this payload.
    Emit {
        /// Event name.
        event: String,
        /// The event object passed to the handlers.
        payload: Value,
    },
    /// Run a registered tool's `run(ctx)` (after its `isEnabled(ctx)`).
    RunTool {
        /// The tool's name.
        tool_name: String,
        /// `ctx.args`.
        args: Value,
        /// `ctx.toolCallId`.
        tool_call_id: String,
    },
    /// Ask every permission overlay about one tool call and compose their answers.
    CheckPermissions {
        /// The check event; `cwd`, `workingDirectory` and `permissionMode`
        /// default to the engine's ctx when absent.
        event: Value,
    },
    /// Run a registered slash command.
    RunCommand {
        /// The command id, without `/`.
        command: String,
        /// The raw text after the command.
        args: String,
    },
}

/// What a probe observed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "observation", rename_all = "snake_case")]
pub enum Observation {
    /// The registry at that moment.
    Snapshot {
        /// The snapshot.
        snapshot: RegistrySnapshot,
    },
    /// An emission and the event before and after it.
    Emitted {
        /// The payload as sent.
        before: Value,
        /// The shared event object after every handler ran.
        after: Value,
        /// Letta's emission result.
        emission: Emission,
    },
    /// A tool run.
    ToolRan {
        /// What it gave.
        run: ToolRun,
    },
    /// A permission check.
    PermissionChecked {
        /// What the overlays decided.
        check: PermissionCheck,
    },
    /// A slash command run.
    CommandRan {
        /// What it gave.
        run: CommandRun,
    },
    /// The emission itself failed (Letta's `emit` rejects), e.g. on input
    /// that is not an array.
    Rejected {
        /// Why.
        message: String,
    },
    /// The engine could not run the probe (it was left unusable).
    EngineFailure {
        /// Why.
        message: String,
    },
}
