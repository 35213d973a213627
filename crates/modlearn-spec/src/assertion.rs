//! Executable assertions: checks run against a freshly loaded candidate without any model.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::de::{self, DeserializeOwned};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::lifecycle::{Deterministic, DisposesCleanly, IsolatedConversations, ReloadIdempotent, RunsUnderProfile};

/// Reads the payload (every field but `type`) of one assertion type; the loader implements it to
/// collect every field error with its path.
pub(crate) trait PayloadReader {
    fn read<T: DeserializeOwned>(self) -> Option<T>;
}

/// Declares every assertion type once: its doc, variant, payload struct and `type` tag. Adding a
/// type is one entry here plus its payload struct (and a validation rule if it needs one).
macro_rules! assertion_types {
    ($( $(#[$doc:meta])* $variant:ident($payload:ident) = $tag:literal, )*) => {
        /// An executable check run against a freshly loaded candidate, selected by `type`; each
        /// assertion is worth one point.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(tag = "type")]
        pub enum Assertion {
            $( $(#[$doc])* #[serde(rename = $tag)] $variant($payload), )*
        }

        impl Assertion {
            /// Every assertion `type`, in declaration order.
            pub const TYPE_NAMES: &'static [&'static str] = &[$($tag),*];

            /// The assertion's `type`, such as `tool_start_rewrites_args`.
            pub fn type_name(&self) -> &'static str {
                match self {
                    $( Self::$variant(_) => $tag, )*
                }
            }

            /// Reads the payload of assertion type `tag`; `None` when no type has that name.
            pub(crate) fn read_payload(tag: &str, reader: impl PayloadReader) -> Option<Option<Self>> {
                match tag {
                    $( $tag => Some(reader.read::<$payload>().map(Self::$variant)), )*
                    _ => None,
                }
            }
        }
    };
}

assertion_types! {
    /// The candidate loads with no diagnostic of any severity (a deprecation warning fails it) and
    /// at least one mod file loaded.
    ModLoads(ModLoads) = "mod_loads",
    /// A `turn_start` event gets at least one message appended (only appended items count) with
    /// the given role, whose text has every `contains` and no `notContains` substring, and the
    /// original input is left as it was.
    TurnStartInjectsMessage(TurnStartInjectsMessage) = "turn_start_injects_message",
    /// A `tool_start` event for `toolName` with `args` ends with every key of `expectArgs` equal
    /// in the event's args (other keys may differ).
    ToolStartRewritesArgs(ToolStartRewritesArgs) = "tool_start_rewrites_args",
    /// A `tool_start` event for `toolName` with `args` ends with the args unchanged; a mod with no
    /// `tool_start` or `turn_start` handler fails it.
    ToolStartPreservesArgs(ToolStartPreservesArgs) = "tool_start_preserves_args",
    /// A `tool_start` event for `toolName` with `args` is answered with a synthesized result, which
    /// stops the tool from running in Letta. Passes iff at least one `tool_start` handler is
    /// registered, no handler failed, and the event ends with `result` set to
    /// `{status: "success"|"error", output: string}`, whose status equals `status` and whose output
    /// contains every `contains` substring, when those are given.
    ToolStartBlocks(ToolStartBlocks) = "tool_start_blocks",
    /// A `tool_end` event `{agentId, conversationId, toolCallId, toolName, args, status, output}` gets
    /// its result replaced. Passes iff at least one `tool_end` handler is registered, no handler
    /// failed, and the event ends with `result` set to `{status: "success"|"error", output: string}`,
    /// whose status equals `expectStatus` (when given) and whose output contains every `contains`
    /// and no `notContains` substring.
    ToolEndRewritesResult(ToolEndRewritesResult) = "tool_end_rewrites_result",
    /// A `turn_start` event is cancelled. Passes iff the event ends with `cancel` set (the engine keeps
    /// only the first valid returned `{cancel: {reason}}`, trimmed, and ignores a directly assigned
    /// one) and its reason contains every `reasonContains` substring.
    TurnStartCancels(TurnStartCancels) = "turn_start_cancels",
    /// A `turn_end` event `{agentId, conversationId, stopReason, assistantMessage?}` asks for another
    /// turn. Passes iff the event ends with `continue` set to a non-empty string that contains every
    /// `contains` substring.
    TurnEndContinues(TurnEndContinues) = "turn_end_continues",
    /// After loading, a tool named `toolName` is registered. Passes iff it is, and each of
    /// `requiresApproval`, `approvalPolicy` and `parallelSafe` that is given equals the normalised
    /// registration, and every top-level key of `parameters` that is given deep-equals the same key
    /// of the registered parameter schema (keys not given are not compared).
    ToolRegistered(ToolRegistered) = "tool_registered",
    /// The registered tool `toolName` is run as Letta runs a mod tool: `isEnabled(ctx)` first, then
    /// `run(ctx)` with `ctx.args = args` and `ctx.toolCallId = "mod-learning-assertion-tool-call"`;
    /// the return value is normalised by Letta's rules (status `error` iff an object with
    /// `status: "error"`, `isError: true` or `success: false`; output by `flattenToolResponse`), and
    /// a throw gives status `error` with the error's message. Passes iff the tool is registered, is
    /// available (`isEnabled` neither returned a falsy value nor threw), the status equals `status`
    /// when given, the run recorded no diagnostic unless `status` is `error`, and the output text
    /// (text blocks joined by newlines) equals `equals`, contains every `contains` and no
    /// `notContains` substring, when those are given.
    ToolRunReturns(ToolRunReturns) = "tool_run_returns",
    /// The permission overlays are asked about a call of `toolName` with `args` as Letta's
    /// `checkModPermissions` asks them (registration order; `isEnabled(ctx) === false` skips; a
    /// throwing `check` denies at once), and their answers are composed: first `deny`, else first
    /// `alwaysAsk`, else first `ask`, else first `allow`. Passes iff the composed decision equals
    /// `decision` (`none`: no overlay had an opinion), no overlay recorded a diagnostic, and no
    /// overlay answered `null` (which makes Letta's check throw).
    PermissionDecides(PermissionDecides) = "permission_decides",
    /// After loading, a slash command `/<command>` is registered. Passes iff it is and its
    /// description contains `description`, when given. Commands do not exist under the headless
    /// profile.
    CommandRegistered(CommandRegistered) = "command_registered",
    /// The registered command `/<command> <args>` is run with ctx `{rawInput, command, args, argv,
    /// conversation}` (argv split as Letta splits it, honouring quotes and backslashes). Passes iff
    /// the command is registered, `run(ctx)` returned a valid result (`{type: "prompt", content}`,
    /// `{type: "output", output}` or `{type: "handled"}`) without throwing or timing out, its type
    /// equals `resultType` when given, and its text (the prompt, wrapped in `<system-reminder>`
    /// unless `systemReminder` is false, or the output) contains every `contains` substring.
    CommandRuns(CommandRuns) = "command_runs",
    /// In an engine of its own: load, run `steps`, dispose, then run the virtual clock for
    /// `settleMs`. Passes iff the candidate loaded, its disposer did not throw, the `letta.signal`
    /// it was handed is aborted, and nothing it started remains: no timer or interval of its own
    /// still scheduled, no promise it constructed (`new Promise`) still unresolved, no diagnostic
    /// after the dispose (a callback calling a stale handle, a timer that throws), and, with
    /// `requireOwnCleanup`, no registration its own disposer left for the host to remove.
    DisposesCleanly(DisposesCleanly) = "disposes_cleanly",
    /// In one engine, `cycles` times: load (a new generation, as `/reload` does; globals persist),
    /// run `steps`, dispose. Passes iff every cycle loads without diagnostics and has the same
    /// registrations (handler counts per event, tools, commands, permissions, providers, panels),
    /// the same step observations, no more timers or pending promises left behind than the first,
    /// and the same globals of the same size as cycle 1.
    ReloadIdempotent(ReloadIdempotent) = "reload_idempotent",
    /// Loads the candidate under capability profile `profile` and under the full profile. Passes iff
    /// it loads under `profile` with no diagnostic, registers under it everything it registers under
    /// the full profile that `profile` allows (a capability it lacks is a silent no-op, so nothing
    /// else should change), every `expectTools`, `expectCommands` and `expectEvents` entry is
    /// registered, and the `steps` record no diagnostic.
    RunsUnderProfile(RunsUnderProfile) = "runs_under_profile",
    /// Runs `steps` (or the scenario's other assertions' probes) twice: in a fresh engine, and again
    /// with what `vary` names changed (another `Math.random` seed, the clock a day later, a later
    /// generation of an engine that already ran the candidate). Passes iff both runs observe the
    /// same (diagnostic timestamps and load generations aside); the message names the first step
    /// that differs.
    Deterministic(Deterministic) = "deterministic",
    /// Runs `steps` for each conversation alone (a fresh engine each), then for all of them
    /// interleaved in one engine (step 1 of each, step 2 of each, ...). Passes iff every
    /// conversation observes in the interleaved run exactly what it observed alone; the message
    /// names the conversation and step that diverged.
    IsolatedConversations(IsolatedConversations) = "isolated_conversations",
    /// A modlearn extension (Letta's harness has no such assertion). Judged on the machine
    /// at the end of the scenario's assertions (after every other assertion's step ran; a scripted
    /// session starts again from the seeded world and does not count): passes iff the mod wrote
    /// the file at `path` (`~` is the virtual home `/home/user`, a relative path is under the
    /// working directory; a seeded file counts only once the mod rewrote it) and it is still
    /// there, and its text contains every `contains` and no `notContains` substring.
    WritesFile(WritesFile) = "writes_file",
    /// A modlearn extension (Letta's harness has no such assertion). Judged on the machine
    /// at the end of the scenario's assertions, like `writes_file`: passes iff some command the
    /// mod ran through `node:child_process` contains `pattern` (or matches it as a regular
    /// expression, with `regex`), as written, as a shell would read it (quotes and backslashes
    /// removed, one command per `;`/`&&`/`|`/`$(...)`, wrappers and assignments dropped, options
    /// before operands, `sh -c` scripts and git's options seen through) or as the virtual shell
    /// ran it (words expanded); with `never`, iff none did, no effect was past the log's cap, no
    /// command took its command word from a variable, `eval`, `xargs`, an interpreter, a task
    /// runner or a script piped into a shell, none may have run more than the virtual machine
    /// shows, and the mod wrote no file a program reads commands from (git's config, an rc file,
    /// package.json).
    RunsCommand(RunsCommand) = "runs_command",
    /// A modlearn extension for the `pi` and `dsh` dialects. A call of `toolName` with `args` asks
    /// for approval instead of deciding: DSH's final `tools/pre-execute` decision is `{kind: "ask"}`,
    /// or a Pi `tool_call` handler opened `ctx.ui.confirm`. The reason (DSH) or the dialog's title
    /// and message (Pi) must contain every `reasonContains` substring.
    AsksApproval(AsksApproval) = "asks_approval",
    /// A modlearn extension for the `dsh` dialect: the plugin is not parked PENDING (DSH parks a
    /// plugin whose `inject` names a service nobody provides, and reports nothing). The message
    /// names the services that have no provider.
    NoPendingPlugin(NoPendingPlugin) = "no_pending_plugin",
    /// A modlearn extension for the `pi` and `dsh` dialects. After `toolName` ran with `args` and
    /// returned `{status, output}`, the post-execute decision is `decision`: `accept` (the result
    /// goes to the model as the tool left it), `replace` (DSH's `accept` with new `content` or
    /// `value`; a Pi `tool_result` handler's content patch) or `block` (DSH's `{kind: "block",
    /// feedback}`, which turns the result into an error). The text the model then sees must
    /// contain every `contains` and no `notContains` substring, and DSH's `additionalContexts`
    /// every `contextContains`.
    PostExecuteDecides(PostExecuteDecides) = "post_execute_decides",
    /// A modlearn extension for the `dsh` dialect. Judged at the end of the scenario's
    /// assertions: passes iff the plugin loaded and its `inject` names exactly the services it
    /// read through its contexts (its own and those of plugins it started): nothing undeclared
    /// (Cordis throws `cannot get property ... without inject`) and nothing declared but unused
    /// (which only parks the plugin PENDING wherever that service is missing). Reads through
    /// `ctx.get` or `ctx.root` are not counted.
    DeclaresWhatItUses(DeclaresWhatItUses) = "declares_what_it_uses",
    /// A modlearn extension (Letta's harness has no such assertion). Judged on the machine
    /// at the end of the scenario's assertions, like `writes_file`: passes iff the mod deleted
    /// (`rm`, `unlink`, `rmdir`), renamed away or renamed another file over (or tried to) no
    /// file or directory under any of `paths`, nor a directory holding one (`~` is the virtual home, a relative
    /// path is under the working directory; every path when unset), and no effect was past the
    /// log's cap, so none can have gone unseen, and no command may have done more than the
    /// virtual machine shows (its shell stopped early, a non-POSIX shell, an environment that
    /// sets PATH, a refused `Bun.$`, a Worker). Writes that change a file's content are not
    /// counted: `writes_file` judges content.
    KeepsFiles(KeepsFiles) = "keeps_files",
}

impl Assertion {
    /// The tool an assertion is about, for the assertion types that name one.
    pub fn tool_name(&self) -> Option<&str> {
        match self {
            Self::ModLoads(_)
            | Self::TurnStartInjectsMessage(_)
            | Self::TurnStartCancels(_)
            | Self::TurnEndContinues(_)
            | Self::CommandRegistered(_)
            | Self::CommandRuns(_)
            | Self::DisposesCleanly(_)
            | Self::ReloadIdempotent(_)
            | Self::RunsUnderProfile(_)
            | Self::Deterministic(_)
            | Self::IsolatedConversations(_)
            | Self::WritesFile(_)
            | Self::RunsCommand(_)
            | Self::NoPendingPlugin(_)
            | Self::DeclaresWhatItUses(_)
            | Self::KeepsFiles(_) => None,
            Self::AsksApproval(assertion) => Some(&assertion.tool_name),
            Self::PostExecuteDecides(assertion) => Some(&assertion.tool_name),
            Self::ToolStartRewritesArgs(assertion) => Some(&assertion.tool_name),
            Self::ToolStartPreservesArgs(assertion) => Some(&assertion.tool_name),
            Self::ToolStartBlocks(assertion) => Some(&assertion.tool_name),
            Self::ToolEndRewritesResult(assertion) => Some(&assertion.tool_name),
            Self::ToolRegistered(assertion) => Some(&assertion.tool_name),
            Self::ToolRunReturns(assertion) => Some(&assertion.tool_name),
            Self::PermissionDecides(assertion) => Some(&assertion.tool_name),
        }
    }

    /// The slash command an assertion is about (id without `/`), for the command assertions.
    pub fn command(&self) -> Option<&str> {
        match self {
            Self::CommandRegistered(assertion) => Some(&assertion.command),
            Self::CommandRuns(assertion) => Some(&assertion.command),
            _ => None,
        }
    }

    /// Letta Code's check label, `"<index + 1>. <type>[ <toolName>]"`; command assertions name
    /// their command as `/<id>` in the same place, `writes_file` its path and `runs_command` its
    /// pattern (after `never` when it must not run).
    pub fn label(&self, index: usize) -> String {
        let subject = match self {
            Self::WritesFile(assertion) => Some(assertion.path.clone()),
            Self::RunsCommand(assertion) if assertion.never == Some(true) => Some(format!("never {}", assertion.pattern)),
            Self::RunsCommand(assertion) => Some(assertion.pattern.clone()),
            _ => None,
        };
        match (self.tool_name(), self.command(), subject) {
            (Some(tool_name), _, _) => format!("{}. {} {tool_name}", index + 1, self.type_name()),
            (None, Some(command), _) => format!("{}. {} /{command}", index + 1, self.type_name()),
            (None, None, Some(subject)) => format!("{}. {} {subject}", index + 1, self.type_name()),
            (None, None, None) => format!("{}. {}", index + 1, self.type_name()),
        }
    }
}

/// Fields of [`Assertion::AsksApproval`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct AsksApproval {
    /// The tool called, such as `write`.
    pub tool_name: String,
    /// Its arguments.
    pub args: Map<String, Value>,
    /// Substrings the reason (or the dialog's text) must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub reason_contains: Option<StringOrList>,
}

/// What a post-execute step decides about a tool's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PostExecuteDecision {
    /// The result goes on unchanged.
    Accept,
    /// The result's content (or value) is replaced; its status stays.
    Replace,
    /// The result becomes an error carrying the decision's feedback.
    Block,
}

impl PostExecuteDecision {
    /// The name specs use.
    pub fn as_str(self) -> &'static str {
        match self {
            PostExecuteDecision::Accept => "accept",
            PostExecuteDecision::Replace => "replace",
            PostExecuteDecision::Block => "block",
        }
    }
}

/// Fields of [`Assertion::PostExecuteDecides`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct PostExecuteDecides {
    /// The tool that ran, such as `bash`.
    pub tool_name: String,
    /// Its arguments.
    pub args: Map<String, Value>,
    /// Status of the tool's own result.
    pub status: ToolStatus,
    /// Output of the tool's own result.
    pub output: String,
    /// The decision expected.
    pub decision: PostExecuteDecision,
    /// Substrings the text the model sees must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
    /// Substrings the text the model sees must not contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<StringOrList>,
    /// Substrings the messages added for the next step (DSH's `additionalContexts`) must all
    /// contain, together.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub context_contains: Option<StringOrList>,
}

/// Fields of [`Assertion::DeclaresWhatItUses`]: none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct DeclaresWhatItUses {}

/// Fields of [`Assertion::NoPendingPlugin`]: none.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct NoPendingPlugin {}

/// Fields of [`Assertion::ModLoads`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ModLoads {
    /// Exact number of mod files that must load, when set; at least 1.
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "whole_count")]
    pub expected_loaded_count: Option<u32>,
}

/// A count written as a JSON number either way, `1` or `1.0`: JSON does not tell them apart,
/// and Letta compares it with `===`, which does not either.
fn whole_count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    match Value::deserialize(deserializer)? {
        Value::Number(number) => match number.as_f64() {
            Some(count) if count.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&count) => Ok(Some(count as u32)),
            _ => Err(de::Error::custom(format!("invalid value: {number}, expected a whole number of mods (1 or more)"))),
        },
        other => Err(de::Error::custom(format!(
            "invalid type: {}, expected a whole number of mods (1 or more); Letta would fail every mod_loads check with it",
            json_kind(&other)
        ))),
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Fields of [`Assertion::TurnStartInjectsMessage`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct TurnStartInjectsMessage {
    /// Role of the appended messages to inspect; `system` when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
    /// Substrings the appended messages' text must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
    /// Substrings the appended messages' text must not contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<StringOrList>,
    /// The turn's input items; one user message "Install a Python package." when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Vec<Value>>,
}

/// Fields of [`Assertion::ToolStartRewritesArgs`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolStartRewritesArgs {
    /// Tool name carried by the `tool_start` event, such as `Bash`.
    pub tool_name: String,
    /// Arguments the event starts with.
    pub args: Map<String, Value>,
    /// Arguments the event must end with; keys not listed are not compared.
    pub expect_args: Map<String, Value>,
}

/// Fields of [`Assertion::ToolStartPreservesArgs`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolStartPreservesArgs {
    /// Tool name carried by the `tool_start` event, such as `Bash`.
    pub tool_name: String,
    /// Arguments the event starts with and must end with.
    pub args: Map<String, Value>,
}

/// Fields of [`Assertion::ToolStartBlocks`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolStartBlocks {
    /// Tool name carried by the `tool_start` event, such as `Bash`.
    pub tool_name: String,
    /// Arguments the event carries.
    pub args: Map<String, Value>,
    /// Status the synthesized result must have, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolStatus>,
    /// Substrings the synthesized result's output must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
}

/// Fields of [`Assertion::ToolEndRewritesResult`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolEndRewritesResult {
    /// Tool name carried by the `tool_end` event.
    pub tool_name: String,
    /// Arguments the tool ran with.
    pub args: Map<String, Value>,
    /// Status of the tool's own result.
    pub status: ToolStatus,
    /// Output of the tool's own result.
    pub output: String,
    /// Status the replacement result must have, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_status: Option<ToolStatus>,
    /// Substrings the replacement output must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
    /// Substrings the replacement output must not contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<StringOrList>,
}

/// Fields of [`Assertion::TurnStartCancels`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct TurnStartCancels {
    /// The turn's input items; one user message "Install a Python package." when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<Vec<Value>>,
    /// Substrings the cancel reason must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub reason_contains: Option<StringOrList>,
}

/// Fields of [`Assertion::TurnEndContinues`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct TurnEndContinues {
    /// Why the turn ended; `end_turn` when unset (Letta emits `turn_end` only then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    /// The assistant's final message, when the event should carry one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assistant_message: Option<String>,
    /// Substrings the follow-up message must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
}

/// Fields of [`Assertion::ToolRegistered`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolRegistered {
    /// Name the tool must be registered under.
    pub tool_name: String,
    /// Whether calls must need approval (`false` only with approval policy `auto`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// The approval policy the registration must end up with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approval_policy: Option<ApprovalPolicy>,
    /// Whether calls must be marked safe to run in parallel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallel_safe: Option<bool>,
    /// Keys the parameter schema must have, each deep-equal; other keys are not compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Map<String, Value>>,
}

/// Fields of [`Assertion::ToolRunReturns`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ToolRunReturns {
    /// Name of the registered tool to run.
    pub tool_name: String,
    /// `ctx.args` of the call.
    pub args: Map<String, Value>,
    /// Status the normalised result must have, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ToolStatus>,
    /// Exact output text, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equals: Option<String>,
    /// Substrings the output text must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
    /// Substrings the output text must not contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<StringOrList>,
}

/// Fields of [`Assertion::PermissionDecides`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct PermissionDecides {
    /// Tool name of the call the overlays are asked about.
    pub tool_name: String,
    /// Arguments of the call.
    pub args: Map<String, Value>,
    /// The decision the overlays must reach together.
    pub decision: ExpectedDecision,
    /// When the check happens; `approval` when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<PermissionPhase>,
}

/// Fields of [`Assertion::CommandRegistered`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct CommandRegistered {
    /// Command id, without the leading `/`.
    pub command: String,
    /// A substring the command's description must contain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// Fields of [`Assertion::CommandRuns`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct CommandRuns {
    /// Command id, without the leading `/`.
    pub command: String,
    /// The raw text typed after the command; none when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<String>,
    /// The result type `run(ctx)` must return, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<CommandResultType>,
    /// Substrings the result's text must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
}

/// Fields of [`Assertion::WritesFile`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct WritesFile {
    /// The file's virtual path: absolute, `~/...` (the virtual home), or relative to the working
    /// directory; `.` and `..` are resolved as the virtual `node:fs` resolves them.
    pub path: String,
    /// Substrings the file's final text must all contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub contains: Option<StringOrList>,
    /// Substrings the file's final text must not contain.
    #[serde(default, deserialize_with = "written_text", skip_serializing_if = "Option::is_none")]
    pub not_contains: Option<StringOrList>,
}

/// Fields of [`Assertion::KeepsFiles`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct KeepsFiles {
    /// Files or directories (with everything under them) that must survive; all when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<StringOrList>,
}

/// Fields of [`Assertion::RunsCommand`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct RunsCommand {
    /// A substring of the command line (as the machine ran it: the program's arguments joined
    /// by spaces, quoted as a shell would need), or a regular expression with
    /// `regex`.
    pub pattern: String,
    /// Whether `pattern` is a regular expression (Rust's `regex` syntax, unanchored), as an
    /// environment's scripted commands have it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regex: Option<bool>,
    /// The mod must run no matching command (instead of at least one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub never: Option<bool>,
}

/// The status of a tool result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ToolStatus {
    /// The tool succeeded.
    Success,
    /// The tool failed.
    Error,
}

impl ToolStatus {
    /// The status as written in results (`success`, `error`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Success => "success",
            Self::Error => "error",
        }
    }
}

/// A tool's approval policy, after Letta's normalisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ApprovalPolicy {
    /// Runs without approval (`requiresApproval: false`).
    Auto,
    /// Asks unless the permission mode approves it.
    Ask,
    /// Always asks, even in unrestricted modes.
    AlwaysAsk,
}

impl ApprovalPolicy {
    /// The policy as Letta writes it (`auto`, `ask`, `alwaysAsk`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Ask => "ask",
            Self::AlwaysAsk => "alwaysAsk",
        }
    }
}

/// The decision a permission check must reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum ExpectedDecision {
    /// The call is allowed.
    Allow,
    /// The user is asked.
    Ask,
    /// The user is asked even in unrestricted modes.
    AlwaysAsk,
    /// The call is refused.
    Deny,
    /// No overlay had an opinion.
    None,
}

impl ExpectedDecision {
    /// The decision as Letta writes it; `none` for no opinion.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Allow => "allow",
            Self::Ask => "ask",
            Self::AlwaysAsk => "alwaysAsk",
            Self::Deny => "deny",
            Self::None => "none",
        }
    }
}

/// When a permission check happens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PermissionPhase {
    /// Before the call, deciding whether to ask the user.
    #[default]
    Approval,
    /// Just before running, on the final args; anything but `allow` blocks.
    Execution,
}

impl PermissionPhase {
    /// The phase as written in the check event.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Approval => "approval",
            Self::Execution => "execution",
        }
    }
}

/// The type of a slash command's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CommandResultType {
    /// Text sent to the agent as a prompt.
    Prompt,
    /// Text shown to the user.
    Output,
    /// The command did everything itself.
    Handled,
}

impl CommandResultType {
    /// The type as written in results.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Prompt => "prompt",
            Self::Output => "output",
            Self::Handled => "handled",
        }
    }
}

/// One string or a list of strings, as Letta Code accepts for `contains` and `notContains`.
/// Keeps the written shape so a spec serializes back as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StringOrList {
    /// A single string.
    One(String),
    /// A list of strings.
    Many(Vec<String>),
    /// Anything else, read as Letta's harness reads it: a value that is not a list is a list of
    /// one, and `text.includes(item)` searches for each item's JavaScript text (`42` for 42,
    /// `null` for null, `[object Object]` for an object).
    Text {
        /// The value as written.
        written: serde_json::Value,
        /// What is searched for.
        items: Vec<String>,
    },
}

impl StringOrList {
    /// The strings, in order.
    pub fn items(&self) -> Vec<&str> {
        match self {
            Self::One(item) => vec![item.as_str()],
            Self::Many(items) | Self::Text { items, .. } => items.iter().map(String::as_str).collect(),
        }
    }

    /// Reads any JSON value as Letta's `asStringArray` and `includes` do.
    fn from_written(written: serde_json::Value) -> StringOrList {
        match written {
            serde_json::Value::String(item) => StringOrList::One(item),
            serde_json::Value::Array(ref items) if items.iter().all(serde_json::Value::is_string) => {
                StringOrList::Many(items.iter().filter_map(|item| item.as_str().map(str::to_owned)).collect())
            }
            serde_json::Value::Array(ref items) => StringOrList::Text { items: items.iter().map(js_text).collect(), written },
            other => StringOrList::Text { items: vec![js_text(&other)], written: other },
        }
    }
}

/// `String(value)` in JavaScript, for a value JSON can hold.
fn js_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "null".to_owned(),
        serde_json::Value::Bool(flag) => flag.to_string(),
        serde_json::Value::Number(number) => js_number(number),
        serde_json::Value::String(text) => text.clone(),
        // An array's text joins its items' (null among them as nothing).
        serde_json::Value::Array(items) => {
            items.iter().map(|item| if item.is_null() { String::new() } else { js_text(item) }).collect::<Vec<_>>().join(",")
        }
        serde_json::Value::Object(_) => "[object Object]".to_owned(),
    }
}

/// A number's JavaScript text: integers as written, others in the shortest form that reads
/// back, with JavaScript's exponent (`1e+21`).
fn js_number(number: &serde_json::Number) -> String {
    if let Some(integer) = number.as_i64().filter(|integer| integer.unsigned_abs() < 1 << 53) {
        return integer.to_string();
    }
    let value = number.as_f64().unwrap_or(f64::NAN);
    if value == value.trunc() && value.abs() < 1e21 {
        return format!("{value:.0}");
    }
    let text = value.to_string();
    if value.abs() >= 1e21 || (value != 0.0 && value.abs() < 1e-6) {
        let formatted = format!("{value:e}");
        let (mantissa, exponent) = formatted.split_once('e').unwrap_or((&formatted, "0"));
        let sign = if exponent.starts_with('-') { "" } else { "+" };
        return format!("{mantissa}e{sign}{exponent}");
    }
    text
}

impl Serialize for StringOrList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::One(item) => serializer.serialize_str(item),
            Self::Many(items) => items.serialize(serializer),
            Self::Text { written, .. } => written.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for StringOrList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(StringOrList::from_written)
    }
}

/// A `contains`-style field as Letta reads it: written at all, it is checked, `null` included
/// (Letta searches for the text "null"); left out, it is not.
pub(crate) fn written_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<StringOrList>, D::Error> {
    StringOrList::deserialize(deserializer).map(Some)
}

impl JsonSchema for StringOrList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StringOrList".into()
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "One string or a list of strings. Any other value is read as Letta reads it: its JavaScript text (`42`, `null`).",
            "anyOf": [
                { "type": "string" },
                { "type": "array", "items": { "type": ["string", "number", "boolean", "null"] } },
                { "type": ["number", "boolean", "null"] }
            ]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_loaded_count_is_a_whole_number_however_it_is_written() {
        let count =
            |value| serde_json::from_value::<ModLoads>(json!({ "expectedLoadedCount": value })).map(|loads| loads.expected_loaded_count);
        assert_eq!(count(json!(1)).unwrap(), Some(1));
        assert_eq!(count(json!(1.0)).unwrap(), Some(1));
        assert_eq!(serde_json::from_value::<ModLoads>(json!({})).unwrap().expected_loaded_count, None);
        assert!(count(json!(1.5)).unwrap_err().to_string().contains("expected a whole number of mods"));
        assert!(count(json!(null)).unwrap_err().to_string().contains("invalid type: null"));
        assert!(count(json!("1")).unwrap_err().to_string().contains("invalid type: string"));
    }

    #[test]
    fn string_or_list_reads_both_shapes_and_round_trips() {
        let one: StringOrList = serde_json::from_value(json!("uv")).unwrap();
        let many: StringOrList = serde_json::from_value(json!(["a", "b"])).unwrap();
        assert_eq!(one.items(), ["uv"]);
        assert_eq!(many.items(), ["a", "b"]);
        assert_eq!(serde_json::to_value(&one).unwrap(), json!("uv"));
        assert_eq!(serde_json::to_value(&many).unwrap(), json!(["a", "b"]));
    }

    #[test]
    fn other_values_are_searched_for_as_letta_searches_for_them() {
        let text = |value: serde_json::Value| serde_json::from_value::<StringOrList>(value.clone()).unwrap();
        assert_eq!(text(json!(3)).items(), ["3"]);
        assert_eq!(text(json!(null)).items(), ["null"]);
        assert_eq!(text(json!([true, 3.5, "a", null, [1, null, 2]])).items(), ["true", "3.5", "a", "null", "1,,2"]);
        assert_eq!(text(json!({ "a": 1 })).items(), ["[object Object]"]);
        assert_eq!(text(json!(1e21)).items(), ["1e+21"]);
        assert_eq!(text(json!(0.0000001)).items(), ["1e-7"]);
        assert_eq!(text(json!(-0.5)).items(), ["-0.5"]);
        // As written, when written back.
        assert_eq!(serde_json::to_value(text(json!([1, "b"]))).unwrap(), json!([1, "b"]));
        // Present as null, a field is checked (for the text "null"); left out, it is not.
        let assertion: Assertion = serde_json::from_value(json!({ "type": "turn_start_injects_message", "contains": null })).unwrap();
        let Assertion::TurnStartInjectsMessage(fields) = assertion else { unreachable!() };
        assert_eq!(fields.contains.map(|contains| contains.items().join(",")), Some("null".to_owned()));
    }

    #[test]
    fn derived_deserialize_names_unknown_types() {
        let error = serde_json::from_value::<Assertion>(json!({ "type": "nope" })).unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown variant `nope`, expected one of `mod_loads`, `turn_start_injects_message`, \
             `tool_start_rewrites_args`, `tool_start_preserves_args`, `tool_start_blocks`, \
             `tool_end_rewrites_result`, `turn_start_cancels`, `turn_end_continues`, \
             `tool_registered`, `tool_run_returns`, `permission_decides`, `command_registered`, \
             `command_runs`, `disposes_cleanly`, `reload_idempotent`, `runs_under_profile`, \
             `deterministic`, `isolated_conversations`, `writes_file`, `runs_command`, `asks_approval`, \
             `no_pending_plugin`, `post_execute_decides`, `declares_what_it_uses`, `keeps_files`"
        );
    }

    #[test]
    fn type_and_tool_names_and_labels() {
        let assertion: Assertion = serde_json::from_value(json!({
            "type": "tool_start_preserves_args", "toolName": "Bash", "args": { "command": "ls" }
        }))
        .unwrap();
        assert_eq!(assertion.type_name(), "tool_start_preserves_args");
        assert_eq!(assertion.tool_name(), Some("Bash"));
        assert_eq!(assertion.label(2), "3. tool_start_preserves_args Bash");
        let loads = Assertion::ModLoads(ModLoads::default());
        assert_eq!(loads.tool_name(), None);
        assert_eq!(loads.label(0), "1. mod_loads");
        let command: Assertion = serde_json::from_value(json!({
            "type": "command_runs", "command": "notes", "args": "add 'a b'"
        }))
        .unwrap();
        assert_eq!(command.command(), Some("notes"));
        assert_eq!(command.label(0), "1. command_runs /notes");
    }

    #[test]
    fn new_assertion_fields_read_their_enums() {
        let assertion: Assertion = serde_json::from_value(json!({
            "type": "permission_decides", "toolName": "Bash", "args": { "command": "ls" },
            "decision": "alwaysAsk", "phase": "execution"
        }))
        .unwrap();
        let Assertion::PermissionDecides(permission) = &assertion else { panic!("{assertion:?}") };
        assert_eq!(permission.decision, ExpectedDecision::AlwaysAsk);
        assert_eq!(permission.phase, Some(PermissionPhase::Execution));
        let error = serde_json::from_value::<Assertion>(json!({
            "type": "tool_end_rewrites_result", "toolName": "Bash", "args": {},
            "status": "failed", "output": "x"
        }))
        .unwrap_err();
        assert!(error.to_string().contains("unknown variant `failed`"), "{error}");
        let registered: Assertion = serde_json::from_value(json!({
            "type": "tool_registered", "toolName": "read_notes", "approvalPolicy": "auto",
            "parameters": { "required": ["path"] }
        }))
        .unwrap();
        assert_eq!(serde_json::to_value(&registered).unwrap()["approvalPolicy"], "auto");
    }
}
