//! Differential test against Pi itself: every curated Pi extension is judged by the real
//! `@mariozechner/pi-coding-agent` runtime (scripts/pi-diff/judge.mjs drives a Pi session through
//! its own runner) and by `modlearn eval --json`, and every check both judge must agree.
//! Skipped with a note when `PI_CODING_AGENT_DIR` (an npm install of Pi 0.58.3, see
//! scripts/pi-diff/README.md) is not set or node is missing: CI has neither.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::{TestContext, repo_root, run_bounded};

/// Pi specs and the candidate folders judged against them.
const PAIRS: &[(&str, &str)] =
    &[("specs/pi-protected-paths.json", "candidates/pi-protected-paths"), ("specs/pi-todo.json", "candidates/pi-todo")];

/// Where modlearn's own lifecycle checks read more than Pi can show: global state that grows
/// across reloads (Pi's driver counts handlers, tools and listeners only).
const KNOWN: &[(&str, &str)] = &[("candidates/pi-todo/hostile-global-state.js", "reload-leaves-one-subscription: 1. reload_idempotent")];

fn run_pi(pi_dir: &Path, spec: &str, candidate: &str) -> Result<Value, String> {
    let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
    let (stdout, stderr) = (dir.path().join("stdout.json"), dir.path().join("stderr.txt"));
    let mut command = Command::new("node");
    command
        .arg(repo_root().join("scripts/pi-diff/judge.mjs"))
        .args([spec, candidate])
        .env("PI_CODING_AGENT_DIR", pi_dir)
        .current_dir(repo_root());
    let status = run_bounded(&mut command, &stdout, &stderr, Duration::from_secs(120))?;
    if !status.success() {
        return Err(format!("judge.mjs {candidate}: {}", std::fs::read_to_string(&stderr).unwrap_or_default()));
    }
    serde_json::from_slice(&std::fs::read(&stdout).map_err(|error| error.to_string())?).map_err(|error| error.to_string())
}

#[test]
fn pi_and_modlearn_give_the_same_verdict_on_every_check() {
    let Some(pi_dir) = std::env::var_os("PI_CODING_AGENT_DIR").map(std::path::PathBuf::from) else {
        eprintln!("pi_diff: skipped (set PI_CODING_AGENT_DIR to an npm install of @mariozechner/pi-coding-agent@0.58.3)");
        return;
    };
    let context = TestContext::new();
    let (mut compared, mut differences) = (0, Vec::new());
    for (run, (spec, folder)) in PAIRS.iter().enumerate() {
        let run_dir = context.path(&format!("run-{run}"));
        let rendered = context.run(&["eval", spec, folder, "--run-dir", run_dir.to_str().unwrap(), "--jobs", "2", "--json"]);
        let report: Value = serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text));
        for attempt in report["attempts"].as_array().unwrap() {
            let candidate = attempt["candidatePath"].as_str().unwrap();
            let pi = run_pi(&pi_dir, spec, candidate).unwrap_or_else(|why| panic!("{why}"));
            for (ours, theirs) in attempt["scenarios"].as_array().unwrap().iter().zip(pi["scenarios"].as_array().unwrap()) {
                for (check, judged) in ours["checks"].as_array().unwrap().iter().zip(theirs["assertions"].as_array().unwrap()) {
                    let Some(pi_passed) = judged["passed"].as_bool() else { continue };
                    let label = format!("{}: {}", ours["name"].as_str().unwrap(), check["label"].as_str().unwrap());
                    compared += 1;
                    if check["passed"].as_bool() != Some(pi_passed) && !KNOWN.contains(&(candidate, label.as_str())) {
                        differences.push(format!(
                            "{candidate} {label}: modlearn {} ({}), Pi {pi_passed} ({})",
                            check["passed"], check["message"], judged["message"]
                        ));
                    }
                }
            }
        }
    }
    eprintln!("pi_diff: {compared} checks compared, {} differ", differences.len());
    assert!(compared > 100, "too few checks compared: {compared}");
    assert!(differences.is_empty(), "modlearn and Pi disagree:\n{}", differences.join("\n"));
}
