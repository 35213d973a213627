use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Diagnostic;

/// What calling a registered tool's `run(ctx)` gave, as Letta's host
/// executes a mod tool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum ToolRun {
    /// No tool of that name is registered.
    NotRegistered {
        /// The tool names that are registered.
        registered: Vec<String>,
    },
    /// The tool is registered but hidden from the model: `isEnabled(ctx)`
    /// returned a falsy value or threw, or its mod was disposed.
    Unavailable {
        /// Why, in words.
        reason: String,
        /// The `tool.isEnabled` diagnostic, when it threw or was stopped.
        diagnostics: Vec<Diagnostic>,
    },
    /// `run(ctx)` ran; a throw is an `error` result.
    Ran {
        /// `success` or `error`, by Letta's status rule.
        status: String,
        /// The flattened result: a string, or text and image blocks.
        output: Value,
        /// `stdout` lines the tool returned, passed on beside the output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stdout: Option<Vec<String>>,
        /// `stderr` lines the tool returned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stderr: Option<Vec<String>>,
        /// The `tool.run` diagnostic, when it threw or was stopped.
        diagnostics: Vec<Diagnostic>,
    },
}

/// One overlay's part in a permission check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PermissionConsultation {
    /// The overlay id.
    pub id: String,
    /// Its owner id.
    #[serde(rename = "mod")]
    pub owner: String,
    /// `decided`, `no_opinion`, `disabled`, `enable_failed`, `failed`,
    /// `escaped` (its answer made the whole check throw), `skipped` (its mod
    /// was aborted) or `not_reached` (an earlier check failed).
    pub outcome: String,
    /// Its decision, when it gave a valid one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<String>,
    /// The reason it gave with its decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Value>,
}

/// The decision the permission overlays reached together.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PermissionDecision {
    /// `allow`, `ask`, `alwaysAsk` or `deny`.
    pub decision: String,
    /// `mod permission:<id>` of the overlay whose decision won.
    pub matched_rule: String,
    /// The reason given with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Value>,
}

/// What asking the permission overlays about one tool call gave, as
/// Letta's `checkModPermissions` composes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum PermissionCheck {
    /// The overlays were asked; `decision` is `None` when none had an opinion.
    Decided {
        /// The composed decision.
        decision: Option<PermissionDecision>,
        /// The check event the overlays saw.
        event: Value,
        /// Each overlay in registration order.
        consulted: Vec<PermissionConsultation>,
        /// `permission.isEnabled` and `permission.check` diagnostics.
        diagnostics: Vec<Diagnostic>,
    },
    /// The composition itself threw (an overlay answered `null`), as it
    /// would out of Letta's `checkModPermissions`.
    Threw {
        /// The error.
        message: String,
        /// The check event the overlays saw.
        event: Value,
        /// Each overlay in registration order.
        consulted: Vec<PermissionConsultation>,
        /// Diagnostics recorded before it threw.
        diagnostics: Vec<Diagnostic>,
    },
}

/// The ctx fields a slash command was run with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CommandInvocation {
    /// The whole input, `/<id> <args>`.
    pub raw_input: String,
    /// The command id, without `/`.
    pub command: String,
    /// The raw text after the command.
    pub args: String,
    /// `args` split as Letta splits it (quotes and backslash escapes).
    pub argv: Vec<String>,
}

/// What running a registered slash command gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CommandRun {
    /// No command of that id is registered (also: the profile has commands off).
    NotRegistered {
        /// What would have been run.
        invocation: CommandInvocation,
        /// The command ids that are registered.
        registered: Vec<String>,
    },
    /// `run(ctx)` returned a valid result.
    Ran {
        /// The normalised result: `{type: "prompt", content, systemReminder?}`,
        /// `{type: "output", output, success?}` or `{type: "handled"}`.
        result: Value,
        /// What it puts in front of the agent or user: the prompt (wrapped in
        /// `<system-reminder>` unless `systemReminder` is false) or the
        /// output; `None` for `handled`.
        text: Option<String>,
        /// The ctx fields it ran with.
        invocation: CommandInvocation,
    },
    /// `run(ctx)` threw, returned an invalid result, timed out or was stopped.
    Failed {
        /// The error message.
        message: String,
        /// The ctx fields it ran with.
        invocation: CommandInvocation,
        /// The `command.run` diagnostic.
        diagnostics: Vec<Diagnostic>,
    },
}
