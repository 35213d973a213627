//! One module per assertion type (the two tool_start args checks share one):
//! its probe and its pass conditions.

pub(crate) mod asks_approval;
pub(crate) mod command_registered;
pub(crate) mod command_runs;
pub(crate) mod declares_what_it_uses;
pub(crate) mod deterministic;
pub(crate) mod disposes_cleanly;
pub(crate) mod isolated_conversations;
pub(crate) mod keeps_files;
pub(crate) mod lifecycle_steps;
pub(crate) mod mod_loads;
pub(crate) mod no_pending_plugin;
pub(crate) mod permission_decides;
pub(crate) mod post_execute_decides;
pub(crate) mod reload_idempotent;
pub(crate) mod runs_command;
pub(crate) mod runs_under_profile;
pub(crate) mod tool_end_rewrites_result;
pub(crate) mod tool_registered;
pub(crate) mod tool_run_returns;
pub(crate) mod tool_start_args;
pub(crate) mod tool_start_blocks;
pub(crate) mod turn_end_continues;
pub(crate) mod turn_start_cancels;
pub(crate) mod turn_start_injects_message;
pub(crate) mod writes_file;

#[cfg(test)]
pub(crate) mod fixtures;
