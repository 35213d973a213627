//! End-to-end tests of the `modlearn` binary, by area.
#![allow(clippy::print_stderr, reason = "tests report skipped parts on stderr")]

mod architecture;
mod check;
mod common;
mod compare;
mod compare_settings;
mod eval;
mod help;
mod report;
mod mutants;
mod prompt;
mod run;
mod run_agent;
mod sealed;
mod scripted;
mod validate;
