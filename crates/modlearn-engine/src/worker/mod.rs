//! Engines in worker processes of their own, so that nothing a candidate
//! does (crash the process, block a thread, run a native loop that ignores
//! termination, exhaust memory) costs more than that candidate.
//!
//! A binary opts in with [`isolate_engines`] and calls [`serve_if_worker`]
//! first thing in `main`; from then on every [`crate::Engine`] is a process
//! forked from a zygote ([`zygote`]) that booted the runtime once. The
//! engine process seals itself ([`seal`]) and serves requests ([`child`]);
//! [`WorkerEngine`] is modlearn's side of it, and enforces a wall-clock
//! deadline on every step from outside.

mod channel;
mod child;
mod client;
mod messages;
mod process_stat;
mod seal;
mod zygote;

use std::os::fd::{FromRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::OnceLock;

pub(crate) use client::WorkerEngine;
pub use process_stat::ProcessStat;

/// The process ids of the engine zygotes running now (for memory figures).
pub fn zygote_process_ids() -> Vec<u32> {
    client::zygote_process_ids()
}

/// How long each engine process started since the last call took from being asked for to
/// being ready for a candidate (a spare forked ahead is usually waiting already).
pub fn take_ready_times() -> Vec<std::time::Duration> {
    client::take_ready_times()
}

/// The first argument that makes the binary a zygote.
const ZYGOTE_ARGUMENT: &str = "__modlearn-engine-zygote";

/// How engine processes are started: the executable that serves them.
#[derive(Clone, Debug)]
pub struct Isolation {
    executable: PathBuf,
}

static ISOLATION: OnceLock<Isolation> = OnceLock::new();

/// Makes every engine created from now on a worker process started from
/// `executable`, which must call [`serve_if_worker`] at the top of its `main`.
pub fn isolate_engines(executable: PathBuf) {
    let _ = ISOLATION.set(Isolation { executable });
}

pub(crate) fn isolation() -> Option<&'static Isolation> {
    ISOLATION.get()
}

/// When this process was started as a zygote, runs it and never returns;
/// otherwise returns at once. Call it before anything starts a thread.
pub fn serve_if_worker() {
    let mut arguments = std::env::args();
    if arguments.nth(1).as_deref() != Some(ZYGOTE_ARGUMENT) {
        return;
    }
    let memory_limit = arguments.next().and_then(|value| value.parse().ok()).unwrap_or(64 << 20);
    let dialect = arguments.next().and_then(|name| serde_json::from_value(serde_json::Value::String(name)).ok()).unwrap_or_default();
    // SAFETY: the parent hands the control socket over as stdin, and nothing else uses fd 0.
    let control = unsafe { OwnedFd::from_raw_fd(0) };
    zygote::run(control, memory_limit, dialect);
}
