//! The same-run baseline against Letta Code itself: its `runModLearning` (Bun, from a
//! letta-code checkout) judges the same candidate files one after another, as Letta's harness
//! does, timed by the script (`letta-harness-baseline.ts`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SCRIPT: &str = include_str!("letta-harness-baseline.ts");

/// Milliseconds per candidate for Letta's harness over `candidates` (each file `copies` times),
/// one figure per round.
pub fn measure(letta_dir: &Path, spec: &Path, candidates: &[PathBuf], copies: usize, rounds: u64) -> Result<Vec<f64>, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let script = dir.path().join("letta-harness-baseline.ts");
    std::fs::write(&script, SCRIPT).map_err(|e| e.to_string())?;
    let absolute = |path: &Path| std::path::absolute(path).map_err(|e| e.to_string());
    let files: Vec<String> = (0..copies)
        .flat_map(|_| candidates.iter())
        .map(|path| absolute(path).map(|path| path.display().to_string()))
        .collect::<Result<_, _>>()?;
    let plan = serde_json::json!({ "spec": absolute(spec)?.display().to_string(), "candidates": files, "rounds": rounds });
    let plan_path = dir.path().join("plan.json");
    std::fs::write(&plan_path, plan.to_string()).map_err(|e| e.to_string())?;
    let mut bun = Command::new("bun");
    bun.arg(&script).arg(&plan_path).env_clear().env("LETTA_CODE_DIR", absolute(letta_dir)?).current_dir(dir.path());
    for name in ["PATH", "HOME"] {
        if let Some(value) = std::env::var_os(name) {
            bun.env(name, value);
        }
    }
    let output = bun.stdout(Stdio::piped()).stderr(Stdio::piped()).output().map_err(|e| format!("cannot run bun: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or("bun failed").to_owned());
    }
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    let evaluations = report["evaluations"].as_u64().unwrap_or(0);
    if evaluations == 0 {
        return Err("Letta's harness evaluated nothing".to_owned());
    }
    let rounds: Vec<f64> = report["roundsMs"]
        .as_array()
        .map(|rounds| rounds.iter().filter_map(serde_json::Value::as_f64).map(|ms| ms / evaluations as f64).collect())
        .unwrap_or_default();
    if rounds.is_empty() {
        return Err("Letta's harness timed no round".to_owned());
    }
    Ok(rounds)
}
