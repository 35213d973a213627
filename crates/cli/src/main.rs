//! The `modlearn` command line: a thin layer over the pipeline crates.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "the binary is where output is printed")]

mod cli;
mod commands;
mod exit;
mod printer;

fn main() -> std::process::ExitCode {
    // First, before any thread exists: this process may be an engine zygote, or the helper
    // inside a candidate's machine.
    modlearn_engine::worker::serve_if_worker();
    modlearn_machine::serve_if_helper();
    commands::isolate_engines();
    commands::run(<cli::Cli as clap::Parser>::parse())
}
