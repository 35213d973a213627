//! The lifecycle assertions' fields (`disposes_cleanly`, `reload_idempotent`, `runs_under_profile`,
//! `deterministic`, `isolated_conversations`), the steps they run, and their semantic checks.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::assertion::Assertion;
use crate::path::JsonPath;
use crate::validate::Findings;

/// The ten events a mod can handle (Letta Code's names).
pub const EVENT_NAMES: &[&str] = &[
    "conversation_open",
    "conversation_close",
    "tool_start",
    "tool_end",
    "turn_start",
    "turn_end",
    "compact_start",
    "compact_end",
    "llm_start",
    "llm_end",
];

/// One thing a lifecycle assertion does to the loaded candidate. Exactly one of `emit`, `runTool`,
/// `runCommand` and `checkPermissions` is set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct LifecycleStep {
    /// Emit this event (one of the ten mod events) with `payload`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emit: Option<String>,
    /// The event object for `emit`; `agentId` and `conversationId` are filled in when absent, and
    /// a `turn_start` without `input` gets one user message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<Map<String, Value>>,
    /// Run this registered tool with `args` (an object) as `ctx.args`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_tool: Option<String>,
    /// Run this slash command (id without `/`) with `args` (a string) as the text after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_command: Option<String>,
    /// Ask the permission overlays about a call of this tool with `args` (an object).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_permissions: Option<String>,
    /// Arguments: an object for `runTool` and `checkPermissions`, a string for `runCommand`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
}

/// Fields of [`Assertion::DisposesCleanly`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct DisposesCleanly {
    /// Steps run after loading and before disposing, so that work a mod starts lazily (a timer
    /// started by a handler, a tool that waits) is running when it is disposed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<LifecycleStep>,
    /// Virtual milliseconds the clock runs after dispose, so that anything still scheduled fires
    /// and shows itself; 60000 when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settle_ms: Option<u64>,
    /// When true, registrations the mod's own disposer did not remove are leaks too (Cordis-style:
    /// every effect is undone by its owner). When false or unset they are not, because Letta's host
    /// removes every registration of a disposed mod itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub require_own_cleanup: Option<bool>,
}

/// Fields of [`Assertion::ReloadIdempotent`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct ReloadIdempotent {
    /// Load/steps/dispose cycles in one engine (as `/reload` does, with globals kept between
    /// them); 3 when unset, from 2 to 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles: Option<u32>,
    /// Steps run in every cycle; their observations must be the same in every cycle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<LifecycleStep>,
}

/// A capability profile: the surface a host offers mods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CapabilityProfile {
    /// Letta Code's terminal UI: everything.
    #[serde(rename = "tui")]
    Tui,
    /// Headless runs: no commands, no panels.
    #[serde(rename = "headless")]
    Headless,
    /// The websocket listener: tool and turn events only (no lifecycle, compact or llm events), no
    /// panels.
    #[serde(rename = "listener")]
    Listener,
    /// The listener hosting an agent: as `listener`, and no providers.
    #[serde(rename = "listener-agent")]
    ListenerAgent,
    /// Only providers.
    #[serde(rename = "providers-only")]
    ProvidersOnly,
}

impl CapabilityProfile {
    /// The profile's name, as the engine knows it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tui => "tui",
            Self::Headless => "headless",
            Self::Listener => "listener",
            Self::ListenerAgent => "listener-agent",
            Self::ProvidersOnly => "providers-only",
        }
    }
}

/// Fields of [`Assertion::RunsUnderProfile`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct RunsUnderProfile {
    /// The capability profile to load the candidate under.
    pub profile: CapabilityProfile,
    /// Steps run under the profile; none may record a diagnostic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<LifecycleStep>,
    /// Tools that must be registered under the profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_tools: Option<Vec<String>>,
    /// Slash commands (ids without `/`) that must be registered under the profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_commands: Option<Vec<String>>,
    /// Events that must have a handler under the profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect_events: Option<Vec<String>>,
}

/// Something that may differ between the two runs of a `deterministic` assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Variation {
    /// `Math.random` is seeded differently.
    Seed,
    /// The virtual clock (`Date`) is a day later.
    Clock,
    /// The second run is a later load generation in an engine that already ran the candidate
    /// (globals kept), as after a reload.
    Reuse,
}

impl Variation {
    /// The variation's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Seed => "seed",
            Self::Clock => "clock",
            Self::Reuse => "reuse",
        }
    }
}

/// Fields of [`Assertion::Deterministic`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct Deterministic {
    /// Steps whose observations must be the same in both runs; the scenario's other (non-lifecycle)
    /// assertions when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<LifecycleStep>>,
    /// What differs between the two runs; all of `seed`, `clock` and `reuse` when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vary: Option<Vec<Variation>>,
}

/// Fields of [`Assertion::IsolatedConversations`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline)]
pub struct IsolatedConversations {
    /// Steps each conversation runs, in order; each event carries the conversation's id as
    /// `conversationId`, and tool and command runs get it as `ctx.sessionId`.
    pub steps: Vec<LifecycleStep>,
    /// The conversation ids, at least two and distinct; `["conversation-a", "conversation-b"]`
    /// when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversations: Option<Vec<String>>,
}

/// Default conversation ids of `isolated_conversations`.
pub const DEFAULT_CONVERSATIONS: [&str; 2] = ["conversation-a", "conversation-b"];
/// Default number of `reload_idempotent` cycles.
pub const DEFAULT_CYCLES: u32 = 3;
/// Default virtual milliseconds `disposes_cleanly` runs the clock after dispose.
pub const DEFAULT_SETTLE_MS: u64 = 60_000;

impl Findings {
    fn lifecycle_problem(&mut self, path: JsonPath, message: impl Into<String>) {
        self.problems.push((path, message.into()));
    }

    /// The semantic checks of the lifecycle assertions; other assertion types are not touched.
    pub(crate) fn check_lifecycle(&mut self, assertion: &Assertion, path: &JsonPath) {
        match assertion {
            Assertion::DisposesCleanly(a) => self.check_steps(&a.steps, path),
            Assertion::ReloadIdempotent(a) => {
                if let Some(cycles) = a.cycles
                    && !(2..=20).contains(&cycles)
                {
                    self.lifecycle_problem(path.key("cycles"), "must be from 2 to 20");
                }
                self.check_steps(&a.steps, path);
            }
            Assertion::RunsUnderProfile(a) => {
                self.check_steps(&a.steps, path);
                for (field, names) in [("expectTools", &a.expect_tools), ("expectCommands", &a.expect_commands)] {
                    for (index, name) in names.iter().flatten().enumerate() {
                        if name.trim().is_empty() {
                            self.lifecycle_problem(path.key(field).index(index), "must not be empty");
                        }
                    }
                }
                for (index, name) in a.expect_events.iter().flatten().enumerate() {
                    self.check_event_name(name, path.key("expectEvents").index(index));
                }
            }
            Assertion::Deterministic(a) => {
                if let Some(steps) = &a.steps {
                    if steps.is_empty() {
                        self.lifecycle_problem(
                            path.key("steps"),
                            "must not be empty (leave it out to repeat the scenario's other assertions)",
                        );
                    }
                    self.check_steps(steps, path);
                }
                if a.vary.as_ref().is_some_and(Vec::is_empty) {
                    self.lifecycle_problem(path.key("vary"), "must not be empty: two identical runs prove nothing");
                }
            }
            Assertion::IsolatedConversations(a) => {
                if a.steps.is_empty() {
                    self.lifecycle_problem(path.key("steps"), "must not be empty");
                }
                self.check_steps(&a.steps, path);
                if let Some(conversations) = &a.conversations {
                    let field = path.key("conversations");
                    if conversations.len() < 2 {
                        self.lifecycle_problem(field.clone(), "needs at least two conversations");
                    }
                    for (index, id) in conversations.iter().enumerate() {
                        if id.trim().is_empty() {
                            self.lifecycle_problem(field.index(index), "must not be empty");
                        } else if conversations[..index].contains(id) {
                            self.lifecycle_problem(field.index(index), format!("`{id}` is listed twice"));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn check_event_name(&mut self, name: &str, path: JsonPath) {
        if !EVENT_NAMES.contains(&name) {
            self.lifecycle_problem(path, format!("`{name}` is not a mod event (expected one of {})", EVENT_NAMES.join(", ")));
        }
    }

    fn check_steps(&mut self, steps: &[LifecycleStep], path: &JsonPath) {
        for (index, step) in steps.iter().enumerate() {
            let path = path.key("steps").index(index);
            let kinds: Vec<&str> = [
                ("emit", step.emit.is_some()),
                ("runTool", step.run_tool.is_some()),
                ("runCommand", step.run_command.is_some()),
                ("checkPermissions", step.check_permissions.is_some()),
            ]
            .into_iter()
            .filter_map(|(name, set)| set.then_some(name))
            .collect();
            match kinds.as_slice() {
                [] => {
                    self.lifecycle_problem(path.clone(), "needs one of `emit`, `runTool`, `runCommand`, `checkPermissions`");
                    continue;
                }
                [_] => {}
                [first, second, ..] => {
                    self.lifecycle_problem(path.key(*second), format!("cannot be combined with `{first}`"));
                    continue;
                }
            }
            if let Some(event) = &step.emit {
                self.check_event_name(event, path.key("emit"));
                if step.args.is_some() {
                    self.lifecycle_problem(path.key("args"), "is not used by `emit` (use `payload`)");
                }
                if event == "turn_start"
                    && let Some(input) = step.payload.as_ref().and_then(|payload| payload.get("input"))
                    && !input.as_array().is_some_and(|items| items.iter().all(Value::is_object))
                {
                    self.lifecycle_problem(path.key("payload").key("input"), "must be an array of objects");
                }
                continue;
            }
            if step.payload.is_some() {
                self.lifecycle_problem(path.key("payload"), "is only used by `emit`");
            }
            let (field, name) = match (&step.run_tool, &step.run_command, &step.check_permissions) {
                (Some(name), _, _) => ("runTool", name),
                (_, Some(name), _) => ("runCommand", name),
                (_, _, Some(name)) => ("checkPermissions", name),
                _ => continue,
            };
            if name.trim().is_empty() {
                self.lifecycle_problem(path.key(field), "must not be empty");
            }
            let args_ok = match (field, &step.args) {
                (_, None) => true,
                ("runCommand", Some(args)) => args.is_string(),
                (_, Some(args)) => args.is_object(),
            };
            if !args_ok {
                let expected = if field == "runCommand" { "a string" } else { "an object" };
                self.lifecycle_problem(path.key("args"), format!("must be {expected} for `{field}`"));
            }
        }
    }
}
