//! The serialized shape of `leaderboard.json`.

use serde::{Deserialize, Serialize};

use crate::Comparison;

/// `leaderboard.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Leaderboard {
    /// Always `modlearn_leaderboard`.
    pub kind: String,
    /// Format version.
    pub version: u32,
    /// What was compared.
    pub comparison: Comparison,
    /// Jobs planned, finished and not run.
    pub jobs: JobCounts,
    /// The k of each `passAtK` entry.
    pub k: Vec<usize>,
    /// One row per model, best first.
    pub models: Vec<ModelRow>,
    /// One row per spec, cells in model rank order.
    pub specs: Vec<SpecRow>,
    /// Every pair of models, better-ranked one first.
    pub pairs: Vec<PairRow>,
    /// How the confidence intervals were made.
    pub bootstrap: BootstrapSettings,
    /// Latencies and evaluation times: the only part that changes between runs.
    pub timings: Timings,
}

/// How many jobs there are.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobCounts {
    /// Jobs in the comparison.
    pub planned: usize,
    /// Jobs with results.
    pub finished: usize,
    /// Run directories (relative) of jobs without results that did not fail (the budget).
    pub not_run: Vec<String>,
    /// Jobs whose proposals could not be obtained, with the reason; left out of every number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<FailedJob>,
}

/// A job whose proposals could not be obtained.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FailedJob {
    /// `PROVIDER:NAME`.
    pub model: String,
    /// Spec slug.
    pub spec: String,
    /// Its run directory, relative.
    pub dir: String,
    /// Why.
    pub reason: String,
}

/// One model's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelRow {
    /// 1-based rank.
    pub rank: usize,
    /// `PROVIDER:NAME`.
    pub model: String,
    /// Finished jobs.
    pub jobs: usize,
    /// Share of jobs whose first candidate passes (pass@1 over repeats).
    pub first_pass_rate: f64,
    /// Mean unbiased pass@k over jobs, one per entry of the leaderboard's `k`.
    pub pass_at_k: Vec<f64>,
    /// Share of jobs whose selected candidate passes.
    pub run_pass_rate: f64,
    /// Mean over jobs of the selected candidate's score / max score.
    pub mean_best_score: f64,
    /// Candidates drawn.
    pub candidates: usize,
    /// Of those, passing.
    pub passing_candidates: usize,
    /// Prompt tokens.
    pub input_tokens: u64,
    /// Completion tokens.
    pub output_tokens: u64,
    /// USD by the price table.
    pub cost_usd: f64,
    /// USD per passing candidate; none when nothing passed.
    pub cost_per_passing_mod: Option<f64>,
}

/// One spec's results per model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecRow {
    /// Spec slug.
    pub spec: String,
    /// Spec name.
    pub name: String,
    /// One cell per model, in rank order.
    pub cells: Vec<SpecCell>,
}

/// One model on one spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecCell {
    /// `PROVIDER:NAME`.
    pub model: String,
    /// Finished jobs.
    pub jobs: usize,
    /// Share of jobs whose first candidate passes.
    pub first_pass_rate: f64,
    /// Mean pass@k, per entry of `k`.
    pub pass_at_k: Vec<f64>,
    /// Share of jobs whose selected candidate passes.
    pub run_pass_rate: f64,
    /// Mean best score / max score.
    pub mean_best_score: f64,
}

/// Two models on the same (spec, repeat, check) items, judged by their
/// first candidates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PairRow {
    /// The better-ranked model.
    pub first: String,
    /// The other.
    pub second: String,
    /// Paired items (checks both models' first candidates were judged on).
    pub items: usize,
    /// Items both pass.
    pub both_pass: usize,
    /// Items only `first` passes.
    pub first_only: usize,
    /// Items only `second` passes.
    pub second_only: usize,
    /// Items neither passes.
    pub neither_pass: usize,
    /// Two-sided exact McNemar p-value.
    pub mcnemar_p: f64,
    /// Check pass rate of `first` minus `second` with its bootstrap interval;
    /// none with fewer than two (spec, repeat) clusters.
    pub difference: Option<Difference>,
    /// `mcnemarP < 0.05`.
    pub significant: bool,
    /// The conclusion in words.
    pub verdict: String,
}

/// A pass-rate difference and its confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    /// Observed difference.
    pub estimate: f64,
    /// Lower bound.
    pub low: f64,
    /// Upper bound.
    pub high: f64,
}

/// The bootstrap's parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BootstrapSettings {
    /// Resamples.
    pub resamples: usize,
    /// Confidence level.
    pub level: f64,
    /// RNG seed.
    pub seed: u64,
    /// What is resampled.
    pub unit: String,
}

/// Time measurements, per model.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timings {
    /// One entry per model, in rank order.
    pub models: Vec<ModelTiming>,
}

/// One model's times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelTiming {
    /// `PROVIDER:NAME`.
    pub model: String,
    /// Mean model latency per answered proposal, in milliseconds.
    pub mean_latency_ms: f64,
    /// Mean evaluation wall time per candidate, in milliseconds.
    pub mean_evaluation_ms: f64,
}
