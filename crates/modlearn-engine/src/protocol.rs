//! The typed seam between Rust and the host modules in `js/`: every host
//! method and every operation is a variant here, mirrored by `js/protocol.js`
//! (the test `protocol_tables_agree` checks both sides list the same names).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A method of the host function `__modlearnHost(method, json)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HostMethod {
    /// Profile, ctx, seed and the names the host reserves.
    Configure,
    /// A new load generation with an empty registry.
    NewGeneration,
    /// Starts an [`Operation`]; replies with its step count.
    Start,
    /// Starts one step of the running operation.
    Step,
    /// Whether the running step settled.
    Poll,
    /// Fires the next virtual timer.
    Advance,
    /// Reports a step the Rust side stopped.
    Fail,
    /// Ends the running operation; replies with its result.
    Finish,
    /// The registry as it stands.
    Snapshot,
    /// Console output since the last call.
    TakeConsole,
    /// The names of the host's own tables (for the protocol test).
    Protocol,
    /// Locks the built-ins the host relies on; the last step of booting.
    Seal,
}

impl HostMethod {
    /// Every method, in declaration order.
    pub const ALL: [HostMethod; 12] = [
        HostMethod::Configure,
        HostMethod::NewGeneration,
        HostMethod::Start,
        HostMethod::Step,
        HostMethod::Poll,
        HostMethod::Advance,
        HostMethod::Fail,
        HostMethod::Finish,
        HostMethod::Snapshot,
        HostMethod::TakeConsole,
        HostMethod::Protocol,
        HostMethod::Seal,
    ];

    /// The name the JavaScript side dispatches on.
    pub fn as_str(self) -> &'static str {
        match self {
            HostMethod::Configure => "configure",
            HostMethod::NewGeneration => "newGeneration",
            HostMethod::Start => "start",
            HostMethod::Step => "step",
            HostMethod::Poll => "poll",
            HostMethod::Advance => "advance",
            HostMethod::Fail => "fail",
            HostMethod::Finish => "finish",
            HostMethod::Snapshot => "snapshot",
            HostMethod::TakeConsole => "takeConsole",
            HostMethod::Protocol => "protocol",
            HostMethod::Seal => "seal",
        }
    }
}

/// Which language a loaded candidate was written in (its transpile error's phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// `.js`, `.mjs`.
    Js,
    /// `.ts`, `.mts`, `.tsx`, `.jsx`.
    Ts,
}

/// Work that runs mod code, split into steps by the host (`start` → `step`s → `finish`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Operation {
    /// Scan, import and activate a candidate.
    Load {
        /// What to import (a file URL with the load generation's query).
        specifier: String,
        /// The owner's path.
        path: String,
        /// Raw text for the removed-API scan, only when it changed.
        source: Option<String>,
        /// Set when the source did not transpile or parse.
        transpile_error: Option<String>,
        /// Decides the phase of a transpile error.
        language: Language,
    },
    /// Letta's dispatch of one event.
    Emit {
        /// Event name.
        name: String,
        /// Its payload.
        event: Value,
        /// A comparison to make on the live event after dispatch.
        compare: Option<modlearn_types::LiveCompare>,
    },
    /// A registered tool's `isEnabled` and `run`.
    RunTool {
        /// The tool.
        tool_name: String,
        /// `ctx.args`.
        args: Value,
        /// `ctx.toolCallId`.
        tool_call_id: String,
    },
    /// Every permission overlay's `isEnabled` and `check`.
    CheckPermissions {
        /// The tool call asked about.
        event: Value,
    },
    /// A slash command.
    RunCommand {
        /// Its id, without the slash.
        command: String,
        /// The text after it.
        args: String,
    },
    /// Abort the signals, run the disposers.
    Dispose,
    /// A dispose that reports what the disposers left.
    CheckedDispose,
    /// Run the virtual clock on after a dispose.
    Settle {
        /// How far, in virtual milliseconds.
        window_ms: u64,
    },
    /// Timers, pending promises and globals mods left.
    Leaks,
    /// Move the clock, reseed, switch conversation (each only when given).
    Control {
        /// Virtual milliseconds to move on.
        #[serde(skip_serializing_if = "Option::is_none")]
        advance_ms: Option<u64>,
        /// New `Math.random` seed.
        #[serde(skip_serializing_if = "Option::is_none")]
        seed: Option<u32>,
        /// Conversation later runs belong to.
        #[serde(skip_serializing_if = "Option::is_none")]
        conversation_id: Option<String>,
    },
    /// The capability profile in force.
    Capabilities,
}

impl Operation {
    /// Every operation's name, as `js/operations.js` keys them.
    pub const NAMES: [&'static str; 11] = [
        "load",
        "emit",
        "runTool",
        "checkPermissions",
        "runCommand",
        "dispose",
        "checkedDispose",
        "settle",
        "leaks",
        "control",
        "capabilities",
    ];

    /// The name of this operation.
    pub fn name(&self) -> &'static str {
        match self {
            Operation::Load { .. } => "load",
            Operation::Emit { .. } => "emit",
            Operation::RunTool { .. } => "runTool",
            Operation::CheckPermissions { .. } => "checkPermissions",
            Operation::RunCommand { .. } => "runCommand",
            Operation::Dispose => "dispose",
            Operation::CheckedDispose => "checkedDispose",
            Operation::Settle { .. } => "settle",
            Operation::Leaks => "leaks",
            Operation::Control { .. } => "control",
            Operation::Capabilities => "capabilities",
        }
    }

    /// The diagnostic phase mod code runs in during this operation (for
    /// faults the host itself cannot record, such as a killed worker).
    pub fn phase(&self) -> &'static str {
        match self {
            Operation::Load { .. } => "activate",
            Operation::Emit { .. } => "event",
            Operation::RunTool { .. } => "tool",
            Operation::CheckPermissions { .. } => "permission",
            Operation::RunCommand { .. } => "command",
            Operation::Dispose | Operation::CheckedDispose => "dispose",
            Operation::Settle { .. } | Operation::Leaks | Operation::Control { .. } | Operation::Capabilities => "timer",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_names_match_their_serde_tags() {
        let examples = [
            Operation::Load { specifier: String::new(), path: String::new(), source: None, transpile_error: None, language: Language::Js },
            Operation::Emit { name: String::new(), event: Value::Null, compare: None },
            Operation::RunTool { tool_name: String::new(), args: Value::Null, tool_call_id: String::new() },
            Operation::CheckPermissions { event: Value::Null },
            Operation::RunCommand { command: String::new(), args: String::new() },
            Operation::Dispose,
            Operation::CheckedDispose,
            Operation::Settle { window_ms: 0 },
            Operation::Leaks,
            Operation::Control { advance_ms: None, seed: None, conversation_id: None },
            Operation::Capabilities,
        ];
        let tags: Vec<String> =
            examples.iter().map(|operation| serde_json::to_value(operation).unwrap()["op"].as_str().unwrap().to_owned()).collect();
        assert_eq!(tags, Operation::NAMES);
        for operation in &examples {
            assert_eq!(serde_json::to_value(operation).unwrap()["op"], operation.name());
        }
        for method in HostMethod::ALL {
            assert_eq!(serde_json::to_value(method).unwrap(), method.as_str());
        }
    }
}
