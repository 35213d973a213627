//! The run report: what `report.json` holds. Field names follow Letta
//! Code's report (`passed`, `score`, `maxScore`, `attempts[]` with
//! `candidateIndex`, `candidatePath`, ...) so readers of Letta runs read
//! modlearn's.

use serde::{Deserialize, Serialize};

use crate::{Diagnostic, ScenarioVerdict};

/// A whole run: every candidate evaluated against one spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    /// Always `modlearn_run_report`.
    pub kind: String,
    /// Format version.
    pub version: u32,
    /// The spec judged against.
    pub spec: SpecSummary,
    /// Whether the selected candidate passed.
    pub passed: bool,
    /// The selected candidate's score.
    pub score: usize,
    /// The spec's maximum score.
    pub max_score: usize,
    /// The selected candidate, if any was evaluated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selected: Option<Selected>,
    /// Where the selected candidate was copied, when it passed and `--promote` was given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub promoted_to: Option<String>,
    /// One entry per candidate, in candidate order.
    pub attempts: Vec<Attempt>,
}

/// Which spec a run used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecSummary {
    /// Spec name.
    pub name: String,
    /// Spec slug.
    pub slug: String,
    /// The spec file as given.
    pub path: String,
    /// Scenario count.
    pub scenarios: usize,
}

/// The selected candidate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Selected {
    /// 1-based candidate number.
    pub candidate_index: usize,
    /// The candidate file as given.
    pub candidate_path: String,
}

/// One candidate's evaluation (Letta's `attempts[]` entry).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    /// 1-based candidate number.
    pub candidate_index: usize,
    /// The candidate file as given.
    pub candidate_path: String,
    /// The round that proposed it (1 for `modlearn eval`).
    pub round: u32,
    /// Every check passed (and the file could be read).
    pub passed: bool,
    /// Passed checks.
    pub score: usize,
    /// All checks.
    pub max_score: usize,
    /// Score over scenarios shown to proposers.
    pub visible_score: usize,
    /// Checks in scenarios shown to proposers.
    pub visible_max_score: usize,
    /// Score over hidden scenarios.
    pub hidden_score: usize,
    /// Checks in hidden scenarios.
    pub hidden_max_score: usize,
    /// Why the candidate could not be evaluated at all (unreadable file, no code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Distinct diagnostics over all scenarios, first occurrence first.
    pub diagnostics: Vec<Diagnostic>,
    /// Per scenario verdicts.
    pub scenarios: Vec<ScenarioVerdict>,
    /// Where this candidate's artifacts are, relative to the run directory.
    pub artifacts_dir: String,
    /// Wall time of the evaluation, in milliseconds.
    pub duration_ms: u64,
}
