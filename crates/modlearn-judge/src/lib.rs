//! The judge: what each assertion asks the engine to do ([`probe`]), and
//! whether what came back passes ([`judge`]). Pure functions over data; the
//! judge never sees an engine.
//!
//! Each assertion type lives in one module under `checks/`, holding both its
//! probe and its pass conditions (Letta Code's, exactly, for Letta's four).
#![deny(missing_docs)]

mod check;
mod checks;
mod markers;
mod score;
mod text;
mod unseen;
mod world;

pub use check::{judge, probe};
pub use markers::{SessionTexts, session_marker_checks};
pub use score::{NotRun, compare_candidates, fail_stopped, marker_checks_not_run, select};
pub use text::content_text;
pub use world::{resolve_spec_path, world_summary};

/// The agent id Letta's learning harness puts on events it emits.
pub const EVAL_AGENT_ID: &str = "mod-learning-eval-agent";
/// The conversation id Letta's learning harness puts on events it emits.
pub const EVAL_CONVERSATION_ID: &str = "mod-learning-eval-conversation";
/// The tool call id of `tool_start` events emitted by assertions.
pub const EVAL_TOOL_CALL_ID: &str = "mod-learning-assertion-tool-call";
