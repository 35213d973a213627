//! End-to-end tests of the `modlearn` binary, by area.
#![allow(clippy::print_stderr, reason = "tests report skipped parts on stderr")]

mod architecture;
mod check;
mod common;
mod compare;
mod compare_settings;
mod dsh_diff;
mod eval;
mod help;
mod host_diff;
mod letta_diff;
mod machine;
mod mutants;
mod pi_diff;
mod prompt;
mod readme;
mod report;
mod run;
mod run_agent;
mod scripted;
mod sealed;
mod terminal;
mod usability;
mod validate;
