//! The comparison both host differentials make (pi_diff.rs, dsh_diff.rs): every candidate is
//! judged by the host's own runtime, through a driver script that prints
//! `{scenarios: [{name, skipped?, assertions: [{type, passed, message, skipped?}]}]}`, and by
//! `modlearn eval --json`. Every check modlearn reports is accounted for: compared (the host
//! judged it, `passed` a boolean) or skipped with the reason the driver gives (a scenario the
//! host cannot run, an assertion it has no reading of).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::common::{TestContext, repo_root, run_bounded};

/// A host's driver: `<runtime> <script> <spec> <candidate>`, with `env` naming the host's install.
pub struct Driver {
    pub runtime: &'static str,
    pub script: &'static str,
    pub env: &'static str,
}

impl Driver {
    fn judge(&self, install: &Path, spec: &str, candidate: &str) -> Result<Value, String> {
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let (stdout, stderr) = (dir.path().join("stdout.json"), dir.path().join("stderr.txt"));
        let mut command = Command::new(self.runtime);
        command.arg(repo_root().join(self.script)).args([spec, candidate]).env(self.env, install).current_dir(repo_root());
        let status = run_bounded(&mut command, &stdout, &stderr, Duration::from_secs(300))?;
        if !status.success() {
            return Err(format!("{} {candidate}: {}", self.script, std::fs::read_to_string(&stderr).unwrap_or_default()));
        }
        serde_json::from_slice(&std::fs::read(&stdout).map_err(|error| error.to_string())?).map_err(|error| error.to_string())
    }
}

/// What a differential found: checks compared, checks skipped by reason, and each difference as
/// `candidate scenario: label: modlearn ..., host ...`.
#[derive(Default)]
pub struct Compared {
    pub compared: usize,
    pub agreed: usize,
    /// Differences listed as known, each for a stated reason.
    pub known: usize,
    pub skipped: BTreeMap<String, usize>,
    pub differences: Vec<String>,
}

impl Compared {
    pub fn skipped_total(&self) -> usize {
        self.skipped.values().sum()
    }

    /// One line of figures and one per reason a check was skipped.
    pub fn summary(&self, name: &str) -> String {
        let mut lines = vec![format!(
            "{name}: {} checks compared, {} agree, {} differ ({} of them known); {} skipped",
            self.compared,
            self.agreed,
            self.differences.len() + self.known,
            self.known,
            self.skipped_total()
        )];
        lines.extend(self.skipped.iter().map(|(why, n)| format!("  {n} skipped: {why}")));
        lines.join("\n")
    }

    fn skip(&mut self, why: &str, n: usize) {
        if n > 0 {
            *self.skipped.entry(why.to_owned()).or_default() += n;
        }
    }
}

/// Judges every candidate of every `(spec, candidate folder or file)` pair both ways; `known`
/// lists `(candidate, "<scenario>: <label>")` pairs that may differ, each for a stated reason.
pub fn compare(driver: &Driver, install: &Path, pairs: &[(&str, &str)], known: &[(&str, &str)]) -> Compared {
    let context = TestContext::new();
    let mut found = Compared::default();
    for (run, (spec, candidates)) in pairs.iter().enumerate() {
        let run_dir = context.path(&format!("run-{run}"));
        let rendered = context.run(&["eval", spec, candidates, "--run-dir", run_dir.to_str().unwrap(), "--jobs", "2", "--json"]);
        let report: Value = serde_json::from_str(&rendered.stdout).unwrap_or_else(|error| panic!("{error}: {}", rendered.text));
        for attempt in report["attempts"].as_array().unwrap() {
            let candidate = attempt["candidatePath"].as_str().unwrap();
            let host = driver.judge(install, spec, candidate).unwrap_or_else(|why| panic!("{why}"));
            let theirs = host["scenarios"].as_array().unwrap();
            for ours in attempt["scenarios"].as_array().unwrap() {
                let name = ours["name"].as_str().unwrap();
                let checks = ours["checks"].as_array().unwrap();
                let Some(scenario) = theirs.iter().find(|scenario| scenario["name"] == ours["name"]) else {
                    found.skip("the host's driver did not run the scenario", checks.len());
                    continue;
                };
                if let Some(why) = scenario["skipped"].as_str() {
                    found.skip(why, checks.len());
                    continue;
                }
                let judged = scenario["assertions"].as_array().unwrap();
                if judged.len() != checks.len() {
                    found.differences.push(format!(
                        "{candidate} {name}: modlearn reports {} checks, the host {}",
                        checks.len(),
                        judged.len()
                    ));
                    continue;
                }
                for (check, theirs) in checks.iter().zip(judged) {
                    let Some(host_passed) = theirs["passed"].as_bool() else {
                        found.skip(theirs["skipped"].as_str().unwrap_or("the host's driver gave no reason"), 1);
                        continue;
                    };
                    let label = format!("{name}: {}", check["label"].as_str().unwrap());
                    found.compared += 1;
                    if check["passed"].as_bool() == Some(host_passed) {
                        found.agreed += 1;
                    } else if known.contains(&(candidate, label.as_str())) {
                        found.known += 1;
                    } else {
                        found.differences.push(format!(
                            "{candidate} {label}: modlearn {} ({}), host {host_passed} ({})",
                            check["passed"], check["message"], theirs["message"]
                        ));
                    }
                }
            }
        }
    }
    found
}

/// Whether `program` runs here.
pub fn available(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|output| output.status.success())
}
