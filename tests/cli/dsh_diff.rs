//! Differential test against DeepSeek Harness itself: every curated DSH plugin is judged by the
//! real DSH runtime on Node (scripts/dsh-diff/judge.mjs: Cordis and DSH's tools, systemPrompt,
//! commands and agents services built from DSH's source) and by `modlearn eval --json`, and
//! every check both judge must agree. Skipped with a note when `DSH_RUNTIME_DIR` (built as
//! scripts/dsh-diff/README.md says) is not set: CI has no DSH.

use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::{TestContext, repo_root, run_bounded};

const PAIRS: &[(&str, &str)] = &[("specs/dsh-repo-gate.json", "candidates/dsh-repo-gate")];

fn run_dsh(runtime: &std::path::Path, spec: &str, candidate: &str) -> Result<Value, String> {
    let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
    let (stdout, stderr) = (dir.path().join("stdout.json"), dir.path().join("stderr.txt"));
    let mut command = Command::new("node");
    command
        .arg(repo_root().join("scripts/dsh-diff/judge.mjs"))
        .args([spec, candidate])
        .env("DSH_RUNTIME_DIR", runtime)
        .current_dir(repo_root());
    let status = run_bounded(&mut command, &stdout, &stderr, Duration::from_secs(120))?;
    if !status.success() {
        return Err(format!("judge.mjs {candidate}: {}", std::fs::read_to_string(&stderr).unwrap_or_default()));
    }
    serde_json::from_slice(&std::fs::read(&stdout).map_err(|error| error.to_string())?).map_err(|error| error.to_string())
}

#[test]
fn dsh_and_modlearn_give_the_same_verdict_on_every_check() {
    let Some(runtime) = std::env::var_os("DSH_RUNTIME_DIR").map(std::path::PathBuf::from) else {
        eprintln!("dsh_diff: skipped (set DSH_RUNTIME_DIR to a DSH runtime built by scripts/dsh-diff/build-runtime.mjs)");
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
            let dsh = run_dsh(&runtime, spec, candidate).unwrap_or_else(|why| panic!("{why}"));
            for (ours, theirs) in attempt["scenarios"].as_array().unwrap().iter().zip(dsh["scenarios"].as_array().unwrap()) {
                for (check, judged) in ours["checks"].as_array().unwrap().iter().zip(theirs["assertions"].as_array().unwrap()) {
                    let Some(dsh_passed) = judged["passed"].as_bool() else { continue };
                    compared += 1;
                    if check["passed"].as_bool() != Some(dsh_passed) {
                        let label = format!("{}: {}", ours["name"].as_str().unwrap(), check["label"].as_str().unwrap());
                        differences.push(format!(
                            "{candidate} {label}: modlearn {} ({}), DSH {dsh_passed} ({})",
                            check["passed"], check["message"], judged["message"]
                        ));
                    }
                }
            }
        }
    }
    eprintln!("dsh_diff: {compared} checks compared, {} differ", differences.len());
    assert!(compared > 50, "too few checks compared: {compared}");
    assert!(differences.is_empty(), "modlearn and DSH disagree:\n{}", differences.join("\n"));
}
