//! Differential test against DeepSeek Harness itself: every curated DSH plugin and dsh-diff fixture is judged by the
//! real DSH runtime on Node (scripts/dsh-diff/judge.mjs: Cordis and DSH's tools, systemPrompt,
//! commands and agents services built from DSH's source) and by modlearn, and every check both
//! judge must agree. Skipped with a note when `DSH_RUNTIME_DIR` (built as
//! scripts/dsh-diff/README.md says) is not set: CI has no DSH.

use crate::host_diff::{Driver, compare};

const PAIRS: &[(&str, &str)] = &[
    ("specs/dsh-repo-gate.json", "candidates/dsh-repo-gate"),
    ("specs/dsh-secret-guard.json", "candidates/dsh-secret-guard"),
    ("scripts/dsh-diff/fixtures/spec.json", "scripts/dsh-diff/fixtures"),
];

#[test]
fn dsh_and_modlearn_give_the_same_verdict_on_every_check() {
    let Some(install) = std::env::var_os("DSH_RUNTIME_DIR").map(std::path::PathBuf::from) else {
        eprintln!("dsh_diff: skipped (set DSH_RUNTIME_DIR to a DSH runtime built by scripts/dsh-diff/build-runtime.mjs)");
        return;
    };
    let driver = Driver { runtime: "node", script: "scripts/dsh-diff/judge.mjs", env: "DSH_RUNTIME_DIR" };
    let found = compare(&driver, &install, PAIRS, &[]);
    eprintln!("{}", found.summary("dsh_diff"));
    assert!(found.compared > 50, "too few checks compared: {}", found.compared);
    assert!(found.differences.is_empty(), "modlearn and DSH disagree:\n{}", found.differences.join("\n"));
}
