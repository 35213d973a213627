//! The comparison both host differentials make (pi_diff.rs, dsh_diff.rs): every curated
//! candidate is judged by the host's own runtime, through a driver script that prints
//! `{scenarios: [{name, assertions: [{type, passed, message}]}]}`, and by `modlearn eval --json`;
//! a check the driver compares (`passed` not null) must get the same verdict from both.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::{TestContext, repo_root, run_bounded};

/// A host's driver: `node <script> <spec> <candidate>`, with `env` naming the host's install.
pub struct Driver {
    pub script: &'static str,
    pub env: &'static str,
}

impl Driver {
    fn judge(&self, install: &Path, spec: &str, candidate: &str) -> Result<Value, String> {
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let (stdout, stderr) = (dir.path().join("stdout.json"), dir.path().join("stderr.txt"));
        let mut command = Command::new("node");
        command.arg(repo_root().join(self.script)).args([spec, candidate]).env(self.env, install).current_dir(repo_root());
        let status = run_bounded(&mut command, &stdout, &stderr, Duration::from_secs(120))?;
        if !status.success() {
            return Err(format!("{} {candidate}: {}", self.script, std::fs::read_to_string(&stderr).unwrap_or_default()));
        }
        serde_json::from_slice(&std::fs::read(&stdout).map_err(|error| error.to_string())?).map_err(|error| error.to_string())
    }
}

/// Checks compared and the differences, each `candidate label: modlearn ..., host ...`; `known`
/// lists `(candidate, "<scenario>: <label>")` pairs that may differ, each for a stated reason.
pub fn compare(driver: &Driver, install: &Path, pairs: &[(&str, &str)], known: &[(&str, &str)]) -> (usize, Vec<String>) {
    let context = TestContext::new();
    let (mut compared, mut differences) = (0, Vec::new());
    for (run, (spec, folder)) in pairs.iter().enumerate() {
        let run_dir = context.path(&format!("run-{run}"));
        let rendered = context.run(&["eval", spec, folder, "--run-dir", run_dir.to_str().unwrap(), "--jobs", "2", "--json"]);
        let report: Value = serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text));
        for attempt in report["attempts"].as_array().unwrap() {
            let candidate = attempt["candidatePath"].as_str().unwrap();
            let host = driver.judge(install, spec, candidate).unwrap_or_else(|why| panic!("{why}"));
            for (ours, theirs) in attempt["scenarios"].as_array().unwrap().iter().zip(host["scenarios"].as_array().unwrap()) {
                for (check, judged) in ours["checks"].as_array().unwrap().iter().zip(theirs["assertions"].as_array().unwrap()) {
                    let Some(host_passed) = judged["passed"].as_bool() else { continue };
                    let label = format!("{}: {}", ours["name"].as_str().unwrap(), check["label"].as_str().unwrap());
                    compared += 1;
                    if check["passed"].as_bool() != Some(host_passed) && !known.contains(&(candidate, label.as_str())) {
                        differences.push(format!(
                            "{candidate} {label}: modlearn {} ({}), host {host_passed} ({})",
                            check["passed"], check["message"], judged["message"]
                        ));
                    }
                }
            }
        }
    }
    (compared, differences)
}
