//! Scores and selection, as Letta's harness computes them.

use std::cmp::Ordering;

use modlearn_types::{CandidateVerdict, CheckResult};

/// Letta's comparison: a passing candidate beats a failing one; among
/// passing ones the earlier wins; among failing ones the higher score wins
/// and a tie goes to the later one. `Greater` means `a` is better.
pub fn compare_candidates(a: (usize, &CandidateVerdict), b: (usize, &CandidateVerdict)) -> Ordering {
    let ((a_index, a), (b_index, b)) = (a, b);
    match (a.passed, b.passed) {
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (true, true) => b_index.cmp(&a_index),
        (false, false) => a.score.cmp(&b.score).then(a_index.cmp(&b_index)),
    }
}

/// The index of the selected candidate, if there is any.
pub fn select<'a>(verdicts: impl IntoIterator<Item = &'a CandidateVerdict>) -> Option<usize> {
    verdicts
        .into_iter()
        .enumerate()
        .max_by(|a, b| compare_candidates(*a, *b))
        .map(|(index, _)| index)
}

/// Marker checks for a prompt scenario run without an eval model: they
/// count toward `maxScore` (as in Letta) and fail, saying how to run them.
pub fn marker_checks_not_run(kind: &str, markers: &[String], first_index: usize) -> Vec<CheckResult> {
    markers
        .iter()
        .enumerate()
        .map(|(offset, marker)| CheckResult {
            label: format!("{}. {kind} {marker:?}", first_index + offset + 1),
            kind: kind.to_owned(),
            passed: false,
            message: "not run: a prompt scenario needs a model acting as the agent; pass `--eval-model PROVIDER:NAME` (a model that makes tool calls) to run it".to_owned(),
            details: serde_json::Value::Null,
        })
        .collect()
}
