//! End-to-end tests of the `modlearn` binary, by area.
#![allow(clippy::print_stderr, reason = "tests report skipped parts on stderr")]

mod architecture;
mod common;
mod eval;
mod help;
mod run;
mod validate;
