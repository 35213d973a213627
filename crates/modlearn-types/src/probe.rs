use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::lifecycle::{ConversationPlan, ConversationsReport, DisposeReport, ProfileReport, ReloadCycle, RepeatReport};
use crate::{CommandRun, Emission, PermissionCheck, RegistrySnapshot, ToolRun};

/// Something to do to a loaded candidate so that an assertion can be
/// judged: the judge asks for probes, the exercise stage runs them in a
/// real engine and hands back one [`Observation`] per probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "probe", rename_all = "snake_case")]
pub enum Probe {
    /// Read the registry (loaded mods, diagnostics, registrations).
    Snapshot,
    /// The registry as loading left it, before any other probe of the scenario ran (observed as
    /// a `Snapshot`): Letta's `mod_loads` reads the snapshot taken right after `engine.reload()`,
    /// so what later probes record does not count.
    LoadSnapshot,
    /// The registry and the machine after every other probe of the scenario ran (observed
    /// as a `Snapshot`), so `writes_file` and `runs_command` judge the scenario's end wherever
    /// they are listed. Inside a lifecycle probe's steps: the snapshot at that step.
    EndSnapshot,
    /// Emit an event with this payload.
    Emit {
        /// Event name.
        event: String,
        /// The event object passed to the handlers.
        payload: Value,
        /// A comparison to make on the live event after dispatch, in the engine.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compare: Option<LiveCompare>,
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
    /// Lifecycle: in an engine of its own, load, run `steps`, dispose, run
    /// the virtual clock for `settle_ms`, and report what remained.
    Dispose {
        /// Probes run before disposing.
        steps: Vec<Probe>,
        /// Virtual milliseconds to run the clock after dispose.
        settle_ms: u64,
    },
    /// Lifecycle: `cycles` load/steps/dispose cycles in one engine.
    Reload {
        /// How many cycles.
        cycles: u32,
        /// Probes run in every cycle.
        steps: Vec<Probe>,
    },
    /// Lifecycle: load and run `steps` under capability profile `profile`
    /// (and load under the full profile, for reference).
    UnderProfile {
        /// Profile name.
        profile: String,
        /// Probes run under the profile.
        steps: Vec<Probe>,
    },
    /// Lifecycle: run `probes` twice, varying what `vary` names; with no
    /// probes, the scenario's other (non-lifecycle) probes.
    Repeat {
        /// The probes.
        probes: Vec<Probe>,
        /// `seed`, `clock`, `reuse`.
        vary: Vec<String>,
    },
    /// Lifecycle: each conversation's steps alone, then all interleaved.
    Conversations {
        /// One plan per conversation.
        conversations: Vec<ConversationPlan>,
    },
}

impl Probe {
    /// Whether the probe runs the candidate in engines of its own (a
    /// lifecycle probe) rather than in the scenario's loaded candidate.
    pub fn is_lifecycle(&self) -> bool {
        matches!(
            self,
            Probe::Dispose { .. } | Probe::Reload { .. } | Probe::UnderProfile { .. } | Probe::Repeat { .. } | Probe::Conversations { .. }
        )
    }
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
        /// The shared event object after every handler ran, as JSON (which drops keys
        /// holding `undefined`: judge args and input with `compared`).
        after: Value,
        /// Letta's emission result.
        emission: Emission,
        /// The outcome of the probe's `compare`, made on the live event.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        compared: Option<Compared>,
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
    /// A `Dispose` probe's report.
    Disposed {
        /// The report.
        report: Box<DisposeReport>,
    },
    /// A `Reload` probe's cycles.
    Reloaded {
        /// One per cycle.
        cycles: Vec<ReloadCycle>,
    },
    /// An `UnderProfile` probe's report.
    ProfileRan {
        /// The report.
        report: Box<ProfileReport>,
    },
    /// A `Repeat` probe's two runs.
    Repeated {
        /// The report.
        report: Box<RepeatReport>,
    },
    /// A `Conversations` probe's runs.
    ConversationsRan {
        /// The report.
        report: Box<ConversationsReport>,
    },
    /// The engine could not run the probe (it was left unusable).
    EngineFailure {
        /// Why.
        message: String,
    },
}

/// A comparison of the live event after dispatch, made inside the engine the way Letta's
/// learning harness makes it: with its `stableJson` (keys sorted, and a key holding `undefined`
/// printed as `"key":undefined`, so it differs from a missing key). JSON cannot carry that
/// difference out of the engine, so the comparison is made where the live value is and only
/// its outcome ([`Compared`]) comes back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "compare", rename_all = "snake_case")]
pub enum LiveCompare {
    /// `stableJson(event.args) == stableJson(expected)` (`tool_start_preserves_args`).
    ArgsEqual {
        /// The args the event must still hold.
        expected: Value,
    },
    /// For every key of `expected`, `stableJson(event.args[key]) == stableJson(expected[key])`;
    /// other keys are not looked at (`tool_start_rewrites_args`, Letta's `objectContains`).
    ArgsContain {
        /// The keys and values the args must hold.
        expected: serde_json::Map<String, Value>,
    },
    /// `stableJson(event.input.slice(0, expected.length)) == stableJson(expected)`: the original
    /// input items are unchanged (`turn_start_injects_message`).
    InputPrefix {
        /// The input as sent.
        expected: Vec<Value>,
        /// The role appended messages are counted for: the engine reads, on the live items
        /// appended after `expected`, what Letta reads ([`AppendedMessages`]).
        role: String,
    },
}

/// The messages a turn_start emission appended, read on the live items as Letta's harness reads
/// them: `message.role` through getters, prototypes and proxies, and the text of those with the
/// role by its `stringifyMessageContent` (a part's `text`, else `JSON.stringify`, `toJSON` and
/// all). JSON out of the engine would show neither.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendedMessages {
    /// Items appended after the original input.
    pub count: usize,
    /// Those whose `role` is the role asked for.
    pub matching: usize,
    /// Their text, joined by line breaks.
    pub text: String,
    /// What threw while they were read, where Letta's harness would have failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a [`LiveCompare`] found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Compared {
    /// Whether the live value matched.
    pub matched: bool,
    /// Letta's `stableJson` of the live value compared (the args, or the input prefix), for
    /// messages: unlike JSON it shows keys holding `undefined`.
    pub actual: String,
    /// For `ArgsContain`, the expected keys whose values differ, in the expected order.
    #[serde(default)]
    pub mismatched: Vec<String>,
    /// For `InputPrefix`, what was appended after the original items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub appended: Option<Box<AppendedMessages>>,
}
