//! The `ModLearningSpec` format: what mod to learn and how to judge candidates.
//!
//! This crate defines the spec types, loads spec files with every problem located by JSON path
//! and line, resolves the scenarios to run (as Letta Code does) and generates the JSON Schema.
//! Letta Code's own `*.env.json` files load unchanged. It runs nothing: proposing, loading
//! candidates and judging them live in other crates.
//!
//! ```
//! use modlearn_spec::{parse_spec, resolve_scenarios};
//! use std::path::Path;
//!
//! let source = r#"{
//!   "name": "Use uv", "objective": "Rewrite pip install", "requirements": ["Rewrite it"],
//!   "evaluation": { "assertions": [{ "type": "mod_loads" }] }
//! }"#;
//! let loaded = parse_spec(source, Path::new("uv.json")).unwrap();
//! let scenarios = resolve_scenarios(&loaded.spec);
//! assert_eq!(scenarios[0].name, "default");
//! assert_eq!(scenarios[0].max_score(), 1);
//!
//! let bad = r#"{ "name": 3, "objective": "o", "requirements": ["r"], "evaluation": {} }"#;
//! let error = parse_spec(bad, Path::new("bad.json")).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "invalid spec `bad.json`\n  \
//!      - name: invalid type: integer `3`, expected a string at line 1 column 3\n  \
//!      - evaluation: needs a prompt, a script or assertions at line 1 column 55"
//! );
//! ```
#![deny(missing_docs)]

mod assertion;
mod env;
mod env_lookup;
mod error;
mod lenient;
mod lifecycle;
mod load;
mod locate;
mod path;
mod resolve;
mod schema;
mod script;
mod types;
mod validate;

pub use assertion::{
    ApprovalPolicy, AsksApproval, Assertion, CommandRegistered, CommandResultType, CommandRuns, DeclaresWhatItUses, ExpectedDecision,
    KeepsFiles, ModLoads, NoPendingPlugin, PermissionDecides, PermissionPhase, PostExecuteDecides, PostExecuteDecision, RunsCommand,
    StringOrList, ToolEndRewritesResult, ToolRegistered, ToolRunReturns, ToolStartBlocks, ToolStartPreservesArgs, ToolStartRewritesArgs,
    ToolStatus, TurnEndContinues, TurnStartCancels, TurnStartInjectsMessage, WritesFile,
};
pub use env::{
    AskResolution, DEFAULT_ENV, Env, EnvCommand, EnvCommit, EnvError, EnvPermissions, EnvRepository, EnvTool, EnvToolKind, LoadedEnv,
    Profile, default_env_name, load_env, parse_env,
};
pub use env_lookup::{attach_envs, default_env, env_search_dirs};
pub use error::{SpecError, SpecProblem, SpecWarning};
pub use lifecycle::{
    CapabilityProfile, DEFAULT_CONVERSATIONS, DEFAULT_CYCLES, DEFAULT_SETTLE_MS, Deterministic, DisposesCleanly, EVENT_NAMES,
    IsolatedConversations, LifecycleStep, ReloadIdempotent, RunsUnderProfile, Variation,
};
pub use load::{LoadedSpec, SCAFFOLD_PLACEHOLDER, load_spec, parse_spec};
pub use modlearn_types::Dialect;
pub use resolve::{DEFAULT_MAX_TURNS, DEFAULT_TIMEOUT_MS, ResolvedScenario, resolve_scenarios, slugify, spec_slug};
pub use schema::{json_schema, json_schema_text};
pub use script::{
    AssistantStep, CloseReason, CompactStep, CompactTrigger, ConversationCloseStep, ConversationOpenStep, LlmStep, OpenReason, ScriptStep,
    ToolStep, UserStep,
};
pub use types::{Evaluation, Example, ModLearningSpec, OutputFormat, ScenarioSpec};
pub use validate::{Validation, validate_spec};
