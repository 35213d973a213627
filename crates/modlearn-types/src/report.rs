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
    /// Rounds run and why the run stopped (`modlearn run` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learning: Option<Learning>,
}

/// How a `modlearn run` went: rounds, stop reason, tokens and cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Learning {
    /// The proposing model (`PROVIDER:NAME`).
    pub model: String,
    /// Rounds planned.
    pub rounds_planned: u32,
    /// Rounds started.
    pub rounds_run: u32,
    /// Proposals asked for per round.
    pub candidates_per_round: usize,
    /// Why the run ended: `rounds complete`, `perfect score`, `budget spent`.
    pub stopped: String,
    /// Totals over the run.
    pub usage: UsageTotals,
    /// Totals per round.
    pub per_round: Vec<UsageTotals>,
}

/// Tokens, cost and time, summed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageTotals {
    /// Proposals that produced a response (cached ones included).
    pub proposals: usize,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// USD by the price table.
    pub cost_usd: f64,
    /// Summed model latency, in milliseconds.
    pub latency_ms: u64,
}

/// How one candidate was proposed (`modlearn run` only).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Proposal {
    /// The model asked.
    pub model: String,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// USD by the price table.
    pub cost_usd: f64,
    /// Model latency over all attempts, in milliseconds.
    pub latency_ms: u64,
    /// Served from the response cache (nothing was paid).
    pub cached: bool,
    /// HTTP attempts made (retries included).
    pub http_attempts: usize,
    /// Why no usable candidate came of it, if so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
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
    /// The host release the verdicts are judged against (`Dialect::host`); empty in reports
    /// written before it was recorded.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
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
    /// Those of [`diagnostics`](Self::diagnostics) that visible scenarios recorded: all a
    /// proposer is shown (a hidden scenario's diagnostic can quote its inputs). Not written to
    /// report.json, which holds them all already: `history.json` keeps these.
    #[serde(skip)]
    pub visible_diagnostics: Vec<Diagnostic>,
    /// Per scenario verdicts.
    pub scenarios: Vec<ScenarioVerdict>,
    /// Where this candidate's artifacts are, relative to the run directory.
    pub artifacts_dir: String,
    /// Wall time of the evaluation, in milliseconds.
    pub duration_ms: u64,
    /// How it was proposed (`modlearn run` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposal: Option<Proposal>,
    /// What the eval model spent acting as the agent of its prompt scenarios (`--eval-model`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<EvalUsage>,
}

impl Attempt {
    /// The one word every report shows for it: `ERROR` when it could not be
    /// judged (no answer, no code), else `PASS` or `FAIL`.
    pub fn result_word(&self) -> &'static str {
        if self.error.is_some() {
            "ERROR"
        } else if self.passed {
            "PASS"
        } else {
            "FAIL"
        }
    }
}

/// What the eval model (the agent of prompt scenarios) spent on one candidate; kept apart from
/// the proposal's cost.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EvalUsage {
    /// The eval model (`PROVIDER:NAME`).
    pub model: String,
    /// Prompt scenarios run.
    pub sessions: usize,
    /// Assistant turns asked for (cached ones included).
    pub turns: usize,
    /// Turns answered from the response cache (nothing was paid).
    pub cached_turns: usize,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// USD by the price table.
    pub cost_usd: f64,
}
