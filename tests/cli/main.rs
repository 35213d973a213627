//! End-to-end tests of the `modlearn` binary, by area.

mod architecture;
mod common;
mod eval;
mod help;
mod run;
mod validate;
