//! Verdicts: what the judge concluded about checks, scenarios and candidates.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The verdict on one assertion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// Letta's label: `"<n>. <type>[ <toolName>]"`.
    pub label: String,
    /// The assertion type.
    #[serde(rename = "type")]
    pub kind: String,
    /// Whether it passed.
    pub passed: bool,
    /// One line saying why.
    pub message: String,
    /// Expected and actual values, for reports.
    pub details: Value,
    /// Counted in the maximum score but never judged, as Letta's harness counts the markers of
    /// a scenario without a prompt: it neither passes nor fails the scenario.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unchecked: bool,
}

impl CheckResult {
    /// Judged, and not passed.
    pub fn failed(&self) -> bool {
        !self.passed && !self.unchecked
    }
}

/// The verdict on one scenario of one candidate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioVerdict {
    /// Scenario name.
    pub name: String,
    /// Run directory name (`001-name`).
    pub dir_name: String,
    /// Hidden from proposers (still scored).
    pub hidden: bool,
    /// Every check: assertions, then markers.
    pub checks: Vec<CheckResult>,
    /// Passed checks.
    pub score: usize,
    /// All checks.
    pub max_score: usize,
    /// No check failed (an unchecked one fails none).
    pub passed: bool,
    /// What the mod did to the scenario's machine (absent when nothing, or not run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub world: Option<crate::WorldSummary>,
}

impl ScenarioVerdict {
    /// Builds a verdict from its checks.
    pub fn new(name: String, dir_name: String, hidden: bool, checks: Vec<CheckResult>) -> ScenarioVerdict {
        let score = checks.iter().filter(|check| check.passed).count();
        let max_score = checks.len();
        let passed = !checks.iter().any(CheckResult::failed);
        ScenarioVerdict { name, dir_name, hidden, passed, checks, score, max_score, world: None }
    }

    /// Letta's result text: one `PASS|FAIL <label>: <message>` line per judged check.
    pub fn result_text(&self) -> String {
        self.checks
            .iter()
            .filter(|check| !check.unchecked)
            .map(|check| format!("{} {}: {}", if check.passed { "PASS" } else { "FAIL" }, check.label, check.message))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// The verdict on a candidate over the whole spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CandidateVerdict {
    /// Per scenario, in spec order.
    pub scenarios: Vec<ScenarioVerdict>,
    /// Passed checks over all scenarios.
    pub score: usize,
    /// All checks.
    pub max_score: usize,
    /// Every scenario passed (and the candidate file existed).
    pub passed: bool,
    /// Score over scenarios shown to proposers.
    pub visible_score: usize,
    /// Checks in scenarios shown to proposers.
    pub visible_max_score: usize,
    /// Score over hidden scenarios.
    pub hidden_score: usize,
    /// Checks in hidden scenarios.
    pub hidden_max_score: usize,
}

impl CandidateVerdict {
    /// Sums scenario verdicts.
    pub fn new(scenarios: Vec<ScenarioVerdict>) -> CandidateVerdict {
        let sum = |hidden: Option<bool>, f: fn(&ScenarioVerdict) -> usize| {
            scenarios.iter().filter(|s| hidden.is_none_or(|h| s.hidden == h)).map(f).sum::<usize>()
        };
        CandidateVerdict {
            score: sum(None, |s| s.score),
            max_score: sum(None, |s| s.max_score),
            visible_score: sum(Some(false), |s| s.score),
            visible_max_score: sum(Some(false), |s| s.max_score),
            hidden_score: sum(Some(true), |s| s.score),
            hidden_max_score: sum(Some(true), |s| s.max_score),
            passed: scenarios.iter().all(|s| s.passed),
            scenarios,
        }
    }

    /// Letta's early-stop condition: passed with the full score.
    pub fn is_perfect(&self) -> bool {
        self.passed && self.max_score > 0 && self.score >= self.max_score
    }
}
