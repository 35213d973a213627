//! Loads one candidate mod into an isolated JavaScript engine and drives it.
//!
//! Each [`Engine`] is its own deno_core runtime (QuickJS backend) with the
//! host modules from `js/`: the sandbox (virtual clock, seeded randomness,
//! Bun's platform over the candidate's machine: its files and programs run
//! in a sandbox, a seeded environment, no network), the `letta` handle and
//! Letta Code's event dispatch. The Rust side only starts operations and
//! puts a time budget on every piece of mod code; the semantics live in the
//! JavaScript, where they can be read beside Letta's.
//!
//! What this crate does not do: decide what to emit (that is the exercise
//! stage) or whether the results are right (the judge).
#![deny(missing_docs)]

mod batch;
mod engine;
mod host_sources;
#[doc(hidden)]
pub mod js_tests;
mod lifecycle;
mod loader;
mod local;
mod machine_link;
pub mod protocol;
mod reply_budget;
mod transpile;
mod watchdog;
pub mod worker;
mod world;

pub use batch::{Batch, Replies, Ticket};
pub use engine::{CandidateFile, DisposeOutcome, EmitOutcome, Engine, EngineError, EngineOptions, LoadOutcome, StopFault};
pub use host_sources::HOST_MODULES;
pub use transpile::{SourceKind, transpile_file};
pub use world::WorldSeed;

/// Where the engine's virtual clock starts (2026-01-01T00:00:00Z), in ms since the epoch: also
/// the time a candidate's machine dates what it is built with (`js/platform.js` has the same).
pub const VIRTUAL_EPOCH_MS: f64 = 1_767_225_600_000.0;
