//! The `modlearn` command line: a thin layer over the pipeline crates.
#![allow(clippy::print_stdout, clippy::print_stderr, reason = "the binary is where output is printed")]

mod cli;
mod commands;
mod exit;
mod printer;

fn main() -> std::process::ExitCode {
    commands::place_bytecode_cache();
    commands::run(<cli::Cli as clap::Parser>::parse())
}
