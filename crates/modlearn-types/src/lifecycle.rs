//! What the lifecycle probes observe: leaks after dispose, registries over
//! reload cycles, runs under a capability profile, repeated runs and
//! conversations run alone and interleaved.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Diagnostic, Observation, Probe};

/// What a registry holds, by kind, names sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Registrations {
    /// Handler count per event (events without handlers are left out).
    pub events: BTreeMap<String, usize>,
    /// Tool names.
    pub tools: Vec<String>,
    /// Command ids.
    pub commands: Vec<String>,
    /// Permission overlay ids.
    pub permissions: Vec<String>,
    /// Provider names.
    pub providers: Vec<String>,
    /// Panel ids.
    pub panels: Vec<String>,
}

impl Registrations {
    /// Whether nothing is registered.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
            && self.tools.is_empty()
            && self.commands.is_empty()
            && self.permissions.is_empty()
            && self.providers.is_empty()
            && self.panels.is_empty()
    }
}

/// A timer of a mod that is still scheduled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingTimer {
    /// `timeout` or `interval`.
    pub kind: String,
    /// The period of an interval.
    pub every_ms: Option<u64>,
    /// Virtual milliseconds until it fires next.
    pub due_in_ms: u64,
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
    /// The load generation that scheduled it.
    pub generation: u64,
}

/// A promise mod code constructed that is still unresolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingPromise {
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
    /// The load generation whose code made it.
    pub generation: u64,
    /// Virtual milliseconds since it was made.
    pub age_ms: u64,
}

/// A global the mod added to the engine's global object, with a size that
/// grows when state accumulates (array length, entry count, a number's value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GlobalState {
    /// Property name (`Symbol(desc)` for symbols).
    pub name: String,
    /// `array`, `map`, `set`, `object`, `number`, `string`, `function`, ...
    #[serde(rename = "type")]
    pub kind: String,
    /// The size.
    pub size: f64,
}

/// What remained of the mods' work: timers, pending promises, globals, bus subscriptions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Leftovers {
    /// Timers still scheduled.
    pub timers: Vec<PendingTimer>,
    /// Promises still unresolved.
    pub promises: Vec<PendingPromise>,
    /// Globals mods added.
    pub globals: Vec<GlobalState>,
    /// Subscriptions on a bus that outlives load generations (Pi's `pi.events`) whose
    /// subscriber is no longer loaded: Pi calls them on every later emit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subscriptions: Vec<Subscription>,
    /// Listeners mods added on `process` and its streams: the host process calls them when the
    /// event comes (a signal, stdin data, an uncaught error, its exit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listeners: Vec<ProcessListener>,
}

/// A listener on `process` or one of its streams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcessListener {
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
    /// The load generation that added it.
    pub generation: u64,
    /// `process`, `process.stdin`, `process.stdout` or `process.stderr`.
    pub target: String,
    /// The event it listens for (`SIGINT`, `data`, `uncaughtException`, `exit`).
    pub event: String,
}

/// A `pi.events.on(channel, handler)` subscription left behind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subscription {
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
    /// The load generation that subscribed.
    pub generation: u64,
    /// The channel.
    pub channel: String,
}

/// Whether the signal a mod was handed is aborted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SignalState {
    /// Owner id.
    #[serde(rename = "mod")]
    pub owner: String,
    /// Whether `letta.signal` is aborted.
    pub aborted: bool,
}

/// What a dispose did, checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckedDispose {
    /// How many disposers ran.
    pub disposed: usize,
    /// Owners whose disposer threw or was stopped.
    pub threw: Vec<String>,
    /// What the disposers left registered, before the host swept the registry.
    pub left: Registrations,
    /// The signals handed to the mods.
    pub signals: Vec<SignalState>,
    /// Diagnostics recorded while disposing.
    pub diagnostics: Vec<Diagnostic>,
}

/// What running the virtual clock after a dispose did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settled {
    /// Timer callbacks that ran.
    pub firings: usize,
    /// Diagnostics recorded meanwhile (stale handles, timer errors, ...).
    pub diagnostics: Vec<Diagnostic>,
}

/// The observation of a `disposes_cleanly` probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DisposeReport {
    /// Whether the candidate loaded.
    pub loaded: bool,
    /// Diagnostics recorded while loading.
    pub load_diagnostics: Vec<Diagnostic>,
    /// The observations of the steps run before disposing.
    pub steps: Vec<Observation>,
    /// The dispose.
    pub dispose: CheckedDispose,
    /// The clock run after it.
    pub settle: Settled,
    /// Virtual milliseconds the clock ran after dispose.
    pub settle_ms: u64,
    /// What remained right after the dispose.
    pub leftovers: Leftovers,
    /// What remained after the clock ran.
    pub after_settle: Leftovers,
}

/// One load/steps/dispose cycle of a `reload_idempotent` probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReloadCycle {
    /// Whether the candidate loaded.
    pub loaded: bool,
    /// The registry after loading and the steps.
    pub registrations: Registrations,
    /// Diagnostics of this generation, up to the dispose.
    pub diagnostics: Vec<Diagnostic>,
    /// Timers, pending promises and globals after the dispose.
    pub leftovers: Leftovers,
    /// The observations of the steps.
    pub steps: Vec<Observation>,
}

/// The capability profile an engine ran under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileCapabilities {
    /// Profile name.
    pub profile: String,
    /// Its capability flags (`tools`, `commands`, `events.*`, `ui.panels`, ...).
    pub capabilities: Value,
    /// The events it delivers.
    pub events: Vec<String>,
}

/// The observation of a `runs_under_profile` probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileReport {
    /// The profile checked.
    pub capabilities: ProfileCapabilities,
    /// Whether the candidate loaded under it.
    pub loaded: bool,
    /// What it registered under it.
    pub registrations: Registrations,
    /// What it registers under the full `engine` profile (the reference).
    pub full: Registrations,
    /// Whether it loaded under the full profile.
    pub full_loaded: bool,
    /// Diagnostics under the profile, loading and steps.
    pub diagnostics: Vec<Diagnostic>,
    /// The observations of the steps, under the profile.
    pub steps: Vec<Observation>,
}

/// The observation of a `deterministic` probe: the same probes run twice.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepeatReport {
    /// The probes run (the scenario's other probes when the assertion names none).
    pub probes: Vec<Probe>,
    /// What varied between the runs (`seed`, `clock`, `reuse`).
    pub varied: Vec<String>,
    /// The first run, in a fresh engine.
    pub first: Vec<Observation>,
    /// The second run.
    pub second: Vec<Observation>,
}

/// One conversation's steps and what they observed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationRun {
    /// The conversation id.
    pub conversation: String,
    /// One observation per step.
    pub observations: Vec<Observation>,
}

/// The observation of an `isolated_conversations` probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationsReport {
    /// Each conversation run alone, in a fresh engine.
    pub solo: Vec<ConversationRun>,
    /// The same steps interleaved in one engine (step 1 of each, step 2 of each, ...).
    pub interleaved: Vec<ConversationRun>,
}

/// One conversation's steps, for the `isolated_conversations` probe.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationPlan {
    /// The conversation id (events carry it; tool and command runs get it as ctx.sessionId).
    pub conversation: String,
    /// Its steps.
    pub steps: Vec<Probe>,
}
