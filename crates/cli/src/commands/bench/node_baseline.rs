//! The same-run baseline: the candidate files evaluated by a Letta-style
//! in-process harness under Node.js (a fresh module import and activation
//! per scenario, Letta's dispatch and checks), timed by the harness itself.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

trait SpawnOutput {
    fn spawn_output(&mut self) -> Result<Child, String>;
}

impl SpawnOutput for Command {
    fn spawn_output(&mut self) -> Result<Child, String> {
        self.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| format!("cannot run node: {e}"))
    }
}

use modlearn_engine::{SourceKind, transpile_file};

use modlearn_spec::ResolvedScenario;

const HARNESS: &str = include_str!("letta-style-harness.mjs");

/// Milliseconds per candidate, over `copies` evaluations of each file, with
/// `jobs` Node processes side by side (as modlearn's jobs).
pub fn measure(candidates: &[PathBuf], scenarios: &[ResolvedScenario], copies: usize, jobs: usize) -> Result<f64, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let harness = dir.path().join("harness.mjs");
    std::fs::write(&harness, HARNESS).map_err(|e| e.to_string())?;
    let mut modules = Vec::new();
    for (index, candidate) in candidates.iter().enumerate() {
        let source = std::fs::read_to_string(candidate).map_err(|e| e.to_string())?;
        // Node cannot run TypeScript: hand it the same transpiled JavaScript the engine runs.
        let kind = SourceKind::from_path(candidate).unwrap_or(SourceKind::JavaScript);
        let code = transpile_file(candidate, kind, &source)?;
        let path = dir.path().join(format!("candidate-{index}.mjs"));
        std::fs::write(&path, code).map_err(|e| e.to_string())?;
        modules.push(path.display().to_string());
    }
    let checks: Vec<_> = scenarios.iter().map(|scenario| &scenario.assertions).collect();
    let plan = serde_json::json!({ "modules": modules, "scenarios": checks, "copies": copies.div_ceil(jobs.max(1)) });
    let plan_path = dir.path().join("plan.json");
    std::fs::write(&plan_path, plan.to_string()).map_err(|e| e.to_string())?;
    // `jobs` processes side by side; each times its own evaluations, so
    // Node's start-up is not charged to the baseline.
    let children: Vec<_> = (0..jobs.max(1))
        // Trusted files, but still nothing of modlearn's environment (API keys) and no say over its directory.
        .map(|_| {
            let mut node = Command::new("node");
            node.arg(&harness).arg(&plan_path).env_clear().current_dir(dir.path());
            if let Some(path) = std::env::var_os("PATH") {
                node.env("PATH", path);
            }
            node.spawn_output()
        })
        .collect::<Result<_, _>>()?;
    let mut evaluations = 0usize;
    let mut slowest_ms = 0f64;
    for child in children {
        let output = child.wait_with_output().map_err(|e| format!("node failed: {e}"))?;
        if !output.status.success() {
            return Err(String::from_utf8_lossy(&output.stderr).into_owned());
        }
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
        evaluations += report["evaluations"].as_u64().unwrap_or(0) as usize;
        slowest_ms = slowest_ms.max(report["elapsedMs"].as_f64().unwrap_or(0.0));
    }
    if evaluations == 0 {
        return Err("the harness evaluated nothing".to_owned());
    }
    Ok(slowest_ms / evaluations as f64)
}
