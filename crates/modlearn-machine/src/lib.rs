//! A real, disposable machine per candidate. What a mod does to files and programs happens
//! here, inside a bubblewrap sandbox, never on the host: the workspace is a real git
//! repository, commands run in a real `/bin/sh` with the machine's coreutils and git, and the
//! kernel resolves every path. The judge reads what really happened: every program that ran,
//! traced as the kernel started it, and every change to the tree, read from snapshots before
//! and after each scenario.
//!
//! A [`Machine`] starts on first use (a scenario that touches no file and runs no command costs
//! nothing), keeps its tree across the candidate's scenarios as a real machine would, and is
//! gone with the candidate. The binary that hosts machines calls [`serve_if_helper`] first thing
//! in `main` and names itself with [`set_helper_executable`].
#![deny(missing_docs)]

mod client;
mod helper;
mod plan;
pub mod protocol;
mod sandbox;
mod stubs;
#[doc(hidden)]
pub mod testing;
pub mod tree;
mod wire;

pub use client::{Machine, ScenarioRecord, set_helper_executable};
pub use helper::serve_if_helper;
pub use plan::{
    ArgsMatch, CommitPlan, DEFAULT_WORKSPACE, HOME, MODS_DIR, MachinePlan, ScriptedAnswer, ScriptedProgram, USER_ID, WorkspacePlan,
    check_machine_path, check_workspace_path,
};
pub use stubs::{SCRIPTED_DIR, valid_program_name};
