//! Reports and guides from a stored run directory, without running
//! anything: `report.json` is the source of every report; `history.json`
//! plus each candidate's `eval/*/assertions.result.json` the source of the
//! proposer guide and `history.md` (they exist from the first round on, so a
//! stopped run gets its guide back too).

use std::path::{Path, PathBuf};

use modlearn_types::{Attempt, CheckResult, Diagnostic, Fault, RunReport, ScenarioVerdict, Severity, SpecSummary};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::{WriteError, render_candidate_report, render_history, render_proposer_guide, render_run_html, render_run_report, write_atomic};

/// Why a stored run could not be read or rewritten.
#[derive(Debug, thiserror::Error)]
pub enum StoredRunError {
    /// The path is not a directory.
    #[error("`{}` is not a run directory: {reason}", path.display())]
    NotARunDir {
        /// The path given.
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// A file the run should hold is missing or unreadable.
    #[error("cannot read `{}`: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file is not what modlearn wrote.
    #[error("corrupt `{}` at `{at}`: {message}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// JSON path of the problem (`.` for the whole document).
        at: String,
        /// What is wrong.
        message: String,
    },
    /// Writing a report failed.
    #[error(transparent)]
    Write(#[from] WriteError),
}

fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, StoredRunError> {
    let text = std::fs::read_to_string(path).map_err(|source| StoredRunError::Unreadable { path: path.to_path_buf(), source })?;
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(&mut deserializer).map_err(|error| StoredRunError::Corrupt {
        path: path.to_path_buf(),
        at: error.path().to_string(),
        message: error.into_inner().to_string(),
    })
}

fn require_dir(run_dir: &Path, file: &str) -> Result<PathBuf, StoredRunError> {
    if !run_dir.is_dir() {
        let reason = if run_dir.exists() { "not a directory" } else { "it does not exist" };
        return Err(StoredRunError::NotARunDir { path: run_dir.to_path_buf(), reason: reason.to_owned() });
    }
    let path = run_dir.join(file);
    if !path.is_file() {
        return Err(StoredRunError::NotARunDir { path: run_dir.to_path_buf(), reason: format!("it has no {file}") });
    }
    Ok(path)
}

/// Reads a finished run's `report.json`.
pub fn read_run_report(run_dir: &Path) -> Result<RunReport, StoredRunError> {
    let path = require_dir(run_dir, "report.json")?;
    let report: RunReport = read_json(&path)?;
    if report.kind != "modlearn_run_report" {
        let message = format!("expected \"modlearn_run_report\", found {:?}", report.kind);
        return Err(StoredRunError::Corrupt { path, at: "kind".to_owned(), message });
    }
    Ok(report)
}

/// Re-renders every report of a finished run from its `report.json`: the
/// run's `report.md`, `report.html` and `report.json`, and each nested
/// candidate's `report.md` and `report.json`. Returns the files written,
/// relative to `run_dir`.
pub fn rerender_reports(run_dir: &Path) -> Result<Vec<String>, StoredRunError> {
    let report = read_run_report(run_dir)?;
    let mut written = Vec::new();
    for attempt in report.attempts.iter().filter(|a| !a.artifacts_dir.is_empty()) {
        let dir = run_dir.join(&attempt.artifacts_dir);
        write_atomic(&dir.join("report.json"), pretty(attempt))?;
        write_atomic(&dir.join("report.md"), render_candidate_report(&report.spec.name, attempt))?;
        written.push(format!("{}/report.json", attempt.artifacts_dir));
        written.push(format!("{}/report.md", attempt.artifacts_dir));
    }
    write_atomic(&run_dir.join("report.md"), render_run_report(&report))?;
    write_atomic(&run_dir.join("report.html"), render_run_html(&report))?;
    write_atomic(&run_dir.join("report.json"), pretty(&report))?;
    written.extend(["report.md".to_owned(), "report.html".to_owned(), "report.json".to_owned()]);
    Ok(written)
}

/// Rewrites `proposer-guide.md` and `history.md` from `history.json` and the
/// candidates' stored scenario results. Returns the files written.
pub fn rewrite_guide(run_dir: &Path) -> Result<Vec<String>, StoredRunError> {
    let report = report_from_history(run_dir)?;
    write_atomic(&run_dir.join("history.md"), render_history(&report))?;
    write_atomic(&run_dir.join("proposer-guide.md"), render_proposer_guide(&report))?;
    Ok(vec!["history.md".to_owned(), "proposer-guide.md".to_owned()])
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct History {
    kind: String,
    version: u32,
    spec: HistorySpec,
    attempts: Vec<HistoryAttempt>,
}

#[derive(Deserialize)]
struct HistorySpec {
    name: String,
    slug: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HistoryAttempt {
    candidate_index: usize,
    round: u32,
    candidate_path: String,
    artifacts_dir: String,
    score: usize,
    max_score: usize,
    error: Option<String>,
    diagnostics: Vec<HistoryDiagnostic>,
}

#[derive(Deserialize)]
struct HistoryDiagnostic {
    phase: String,
    fault: Fault,
    severity: Severity,
    message: String,
    hint: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredScenario {
    scenario: String,
    hidden: bool,
    checks: Vec<CheckResult>,
}

/// The run as far as `history.json` and the scenario results tell it: what
/// the guide and `history.md` are rendered from. Scores are the visible
/// ones (history holds nothing else); checks come from each candidate's
/// `eval/<NNN-scenario>/assertions.result.json`, in directory order, which
/// is spec order.
pub fn report_from_history(run_dir: &Path) -> Result<RunReport, StoredRunError> {
    let path = require_dir(run_dir, "history.json")?;
    let history: History = read_json(&path)?;
    if history.kind != "mod_learning_history_manifest" || history.version != 1 {
        return Err(StoredRunError::Corrupt {
            path,
            at: "kind".to_owned(),
            message: format!("expected mod_learning_history_manifest version 1, found {} version {}", history.kind, history.version),
        });
    }
    let mut attempts = Vec::new();
    for stored in history.attempts {
        let scenarios = read_scenarios(&run_dir.join(&stored.artifacts_dir).join("eval"))?;
        let visible_passed = stored.error.is_none() && scenarios.iter().filter(|s| !s.hidden).all(|s| s.passed);
        // history.json holds the visible scenarios' diagnostics only.
        let diagnostics: Vec<Diagnostic> = stored
            .diagnostics
            .into_iter()
            .map(|d| Diagnostic {
                capability: None,
                error_name: String::new(),
                hint: d.hint,
                owner: None,
                message: d.message,
                phase: d.phase,
                severity: d.severity,
                stack: None,
                timestamp: String::new(),
                fault: d.fault,
            })
            .collect();
        attempts.push(Attempt {
            candidate_index: stored.candidate_index,
            candidate_path: stored.candidate_path,
            round: stored.round,
            passed: visible_passed,
            score: stored.score,
            max_score: stored.max_score,
            visible_score: stored.score,
            visible_max_score: stored.max_score,
            hidden_score: 0,
            hidden_max_score: 0,
            error: stored.error,
            visible_diagnostics: diagnostics.clone(),
            diagnostics,
            scenarios,
            artifacts_dir: stored.artifacts_dir,
            duration_ms: 0,
            proposal: None,
            eval: None,
        });
    }
    let report = RunReport {
        kind: "modlearn_run_report".to_owned(),
        version: 1,
        spec: SpecSummary { name: history.spec.name, slug: history.spec.slug, path: String::new(), scenarios: 0, host: String::new() },
        passed: attempts.iter().any(|a| a.passed),
        score: attempts.iter().map(|a| a.score).max().unwrap_or(0),
        max_score: attempts.iter().map(|a| a.max_score).max().unwrap_or(0),
        selected: None,
        promoted_to: None,
        attempts,
        learning: None,
    };
    Ok(report)
}

fn read_scenarios(eval_dir: &Path) -> Result<Vec<ScenarioVerdict>, StoredRunError> {
    let Ok(entries) = std::fs::read_dir(eval_dir) else {
        // A candidate that was never evaluated has no eval directory.
        return Ok(Vec::new());
    };
    let mut dirs: Vec<(String, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    dirs.sort();
    let mut scenarios = Vec::new();
    for (dir_name, dir) in dirs {
        let file = dir.join("assertions.result.json");
        if !file.is_file() {
            continue;
        }
        let stored: StoredScenario = read_json(&file)?;
        scenarios.push(ScenarioVerdict::new(stored.scenario, dir_name, stored.hidden, stored.checks));
    }
    Ok(scenarios)
}

fn pretty(value: &impl serde::Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("report data serializes");
    text.push('\n');
    text
}
