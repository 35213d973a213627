//! The spec data model, field for field Letta Code's `ModLearningSpec` (`learning-harness.ts`), plus
//! modlearn's `hidden` scenario flag.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use modlearn_types::{Dialect, DialogAnswer};

use crate::assertion::Assertion;
use crate::script::ScriptStep;

/// What to learn and how to judge candidates; Letta Code calls this file a mod-learning env.
///
/// Letta Code's `*.env.json` files load unchanged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModLearningSpec {
    /// Human-readable name of the mod to learn.
    pub name: String,
    /// Short kebab-case identifier for run directories and the candidate file; defaults to the
    /// slugified `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// File name the learned mod is meant to have, such as `uv-pip-install.ts`; a plain file name,
    /// never a path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_mod_name: Option<String>,
    /// Which host's plugin API candidates are written against: `letta` (mods, the default, so
    /// Letta Code's env files load unchanged) or `pi` (Pi extensions).
    #[serde(default, skip_serializing_if = "Dialect::is_letta")]
    pub dialect: Dialect,
    /// What the mod must achieve, in prose for the proposer.
    pub objective: String,
    /// Numbered requirements shown to the proposer; at least one.
    pub requirements: Vec<String>,
    /// Strategies to spread across candidates; candidate `i` gets hint `(i - 1) % len`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidate_diversity_hints: Vec<String>,
    /// Facts about the mod API that help the proposer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mod_api_hints: Vec<String>,
    /// Input and expected behaviour pairs shown to the proposer as demos.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// How candidates are judged: one scenario made of the evaluation itself, or the listed
    /// `scenarios` with the evaluation's settings as defaults.
    pub evaluation: Evaluation,
}

/// A demo for the proposer: an input and, optionally, what should happen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Example {
    /// The situation, for instance a tool call the mod sees.
    pub input: String,
    /// What the mod should make of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// Anything else the proposer should know about this example.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// Output format of a headless agent run, passed as `--output-format`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum OutputFormat {
    /// One JSON object whose `result` is the final answer.
    Json,
    /// One JSON event per line; the default.
    #[default]
    StreamJson,
}

impl OutputFormat {
    /// The value as written in specs and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Json => "json",
            Self::StreamJson => "stream-json",
        }
    }
}

/// Borrowed view of the fields `Evaluation` and `ScenarioSpec` share, so validation and
/// resolution treat both levels alike.
pub(crate) struct ScenarioBase<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) prompt: Option<&'a str>,
    pub(crate) timeout_ms: Option<u64>,
    pub(crate) max_turns: Option<u32>,
    pub(crate) memory_files: &'a IndexMap<String, String>,
    pub(crate) assertions: &'a [Assertion],
    pub(crate) required_result_markers: &'a [String],
    pub(crate) required_trace_markers: &'a [String],
    pub(crate) forbidden_result_markers: &'a [String],
    pub(crate) forbidden_trace_markers: &'a [String],
    pub(crate) script: Option<&'a [ScriptStep]>,
    pub(crate) env: Option<&'a str>,
    pub(crate) ui: Option<&'a [DialogAnswer]>,
}

/// Declares a struct with the scenario fields shared by `Evaluation` and `ScenarioSpec` followed by
/// its own fields. A macro rather than `#[serde(flatten)]`, which would ruin error messages.
macro_rules! with_scenario_fields {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$field_meta:meta])* pub $field:ident: $type:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            /// Scenario name for reports and the scenario's directory; blank or missing names
            /// become `scenario-<n>`. Unused on the evaluation, whose own scenario is `default`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub name: Option<String>,
            /// Prompt for a headless agent run with the candidate loaded. `$MEMORY_DIR` and
            /// `${MEMORY_DIR}` are replaced by the scenario's memory directory. A scenario's own
            /// prompt replaces the evaluation's.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub prompt: Option<String>,
            /// Output format of the prompt run; `stream-json` when unset.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub output_format: Option<OutputFormat>,
            /// Time limit of the prompt run in milliseconds; 15 minutes when unset.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub timeout_ms: Option<u64>,
            /// `--max-turns` of the prompt run; 8 when unset.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub max_turns: Option<u32>,
            /// Files written into the scenario's memory directory before it runs, by relative path.
            /// A scenario's entries override the evaluation's entries of the same path.
            #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
            pub memory_files: IndexMap<String, String>,
            /// Executable checks run against the loaded candidate, one point each; the
            /// evaluation's come before a scenario's own.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub assertions: Vec<Assertion>,
            /// Substrings the final answer of the prompt run must contain.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub required_result_markers: Vec<String>,
            /// Substrings stdout or stderr of the prompt run must contain.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub required_trace_markers: Vec<String>,
            /// Substrings the final answer of the prompt run must not contain.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub forbidden_result_markers: Vec<String>,
            /// Substrings stdout and stderr of the prompt run must not contain.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub forbidden_trace_markers: Vec<String>,
            /// Steps of a simulated headless agent session run with the candidate loaded, instead
            /// of a model (a modlearn extension). Markers are then checked against the session's
            /// trace and result. A scenario's own script replaces the evaluation's.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub script: Option<Vec<ScriptStep>>,
            /// The agent environment (`envs/<env>/env.json`: tools, capability profile, ctx
            /// values, the machine's repository and programs) of a scripted scenario, or of every check of the scenario when set;
            /// `coding-agent` for scripts when unset. A scenario's own env replaces the evaluation's.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub env: Option<String>,
            /// How the person at the keyboard answers the dialogs a Pi extension opens
            /// (`ctx.ui.confirm`, `select`, `input`, `editor`), first matching rule first. With it
            /// the session has a UI (`hasUI: true`, as in Pi's RPC mode) and a dialog no rule
            /// answers is dismissed; without it the session is headless (Pi's print mode). A
            /// scenario's own rules replace the evaluation's. Pi dialect only.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub ui: Option<Vec<DialogAnswer>>,
            $( $(#[$field_meta])* pub $field: $type, )*
        }

        impl $name {
            pub(crate) fn base(&self) -> ScenarioBase<'_> {
                ScenarioBase {
                    name: self.name.as_deref(),
                    prompt: self.prompt.as_deref(),
                    timeout_ms: self.timeout_ms,
                    max_turns: self.max_turns,
                    memory_files: &self.memory_files,
                    assertions: &self.assertions,
                    required_result_markers: &self.required_result_markers,
                    required_trace_markers: &self.required_trace_markers,
                    forbidden_result_markers: &self.forbidden_result_markers,
                    forbidden_trace_markers: &self.forbidden_trace_markers,
                    script: self.script.as_deref(),
                    env: self.env.as_deref(),
                    ui: self.ui.as_deref(),
                }
            }
        }
    };
}

with_scenario_fields! {
    /// How candidates are judged. Without `scenarios` the evaluation itself is the only scenario
    /// (named `default`); with them, its fields are defaults and shared checks for every scenario.
    pub struct Evaluation {
        /// Scenarios to run in order; when present there must be at least one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub scenarios: Option<Vec<ScenarioSpec>>,
    }
}

with_scenario_fields! {
    /// One scenario: assertions against the loaded candidate and/or a prompt run judged by markers.
    /// Unset fields fall back to the evaluation's; assertions and markers add to the evaluation's.
    pub struct ScenarioSpec {
        /// Keep this scenario out of everything shown to proposers (a modlearn extension: held-out
        /// checks against overfitting).
        #[serde(default, skip_serializing_if = "is_false")]
        pub hidden: bool,
        /// 1-based numbers of the requirements this scenario's own assertions check (a modlearn
        /// extension, read by `modlearn validate --mutants`; inferred from words when unset).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub covers: Option<Vec<u32>>,
    }
}

fn is_false(value: &bool) -> bool {
    !*value
}
