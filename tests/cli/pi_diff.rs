//! Differential test against Pi itself: every curated Pi extension is judged by the real
//! `@mariozechner/pi-coding-agent` runtime (scripts/pi-diff/judge.mjs drives a Pi session through
//! its own runner) and by modlearn, and every check both judge must agree. Skipped with a note
//! when `PI_CODING_AGENT_DIR` (an npm install of Pi 0.58.3, see scripts/pi-diff/README.md) is not
//! set: CI has no Pi.

use crate::host_diff::{Driver, compare};

const PAIRS: &[(&str, &str)] = &[
    ("specs/pi-protected-paths.json", "candidates/pi-protected-paths"),
    ("specs/pi-todo.json", "candidates/pi-todo"),
    ("specs/pi-permission-gate.json", "candidates/pi-permission-gate"),
];

/// Where modlearn's own lifecycle checks read more than Pi can show: global state that grows
/// across reloads (Pi's driver counts handlers, tools and listeners only).
const KNOWN: &[(&str, &str)] = &[("candidates/pi-todo/hostile-global-state.js", "reload-leaves-one-subscription: 1. reload_idempotent")];

#[test]
fn pi_and_modlearn_give_the_same_verdict_on_every_check() {
    let Some(install) = std::env::var_os("PI_CODING_AGENT_DIR").map(std::path::PathBuf::from) else {
        eprintln!("pi_diff: skipped (set PI_CODING_AGENT_DIR to an npm install of @mariozechner/pi-coding-agent@0.58.3)");
        return;
    };
    let driver = Driver { script: "scripts/pi-diff/judge.mjs", env: "PI_CODING_AGENT_DIR" };
    let (compared, differences) = compare(&driver, &install, PAIRS, KNOWN);
    eprintln!("pi_diff: {compared} checks compared, {} differ", differences.len());
    assert!(compared > 100, "too few checks compared: {compared}");
    assert!(differences.is_empty(), "modlearn and Pi disagree:\n{}", differences.join("\n"));
}
