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
    verdicts.into_iter().enumerate().max_by(|a, b| compare_candidates(*a, *b)).map(|(index, _)| index)
}

/// Why the markers of a scenario without a session were not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotRun {
    /// A prompt scenario, evaluated without an eval model to act as the agent.
    NoEvalModel,
    /// A prompt scenario with an eval model, but the candidate could not be evaluated (no
    /// code, unreadable, or the engine failed), so no session started.
    NoCandidate,
    /// A scenario with markers but a blank prompt and no script: Letta Code skips blank
    /// prompts, so nothing produces a trace or a result.
    NoPrompt,
}

impl NotRun {
    /// The message every marker check of such a scenario carries.
    pub fn message(self) -> &'static str {
        match self {
            NotRun::NoEvalModel => {
                "not run: a prompt scenario needs a model acting as the agent; pass `--eval-model PROVIDER:NAME` (a model that makes tool calls) to run it"
            }
            NotRun::NoCandidate => "not run: the candidate could not be evaluated (see its error), so the eval model drove no session",
            NotRun::NoPrompt => {
                "not checked: the scenario has no script and a blank prompt, so no session ran; Letta counts the marker in the maximum score and never checks it"
            }
        }
    }
}

/// Marker checks of a scenario whose session did not run (`why`): they count toward
/// `maxScore` (as in Letta) and fail, saying why; without a prompt they are not checked at all,
/// as Letta never checks them.
pub fn marker_checks_not_run(kind: &str, markers: &[String], first_index: usize, why: NotRun) -> Vec<CheckResult> {
    markers
        .iter()
        .enumerate()
        .map(|(offset, marker)| CheckResult {
            label: format!("{}. {kind} {marker:?}", first_index + offset + 1),
            kind: kind.to_owned(),
            passed: false,
            message: why.message().to_owned(),
            details: serde_json::Value::Null,
            unchecked: why == NotRun::NoPrompt,
        })
        .collect()
}

/// Fails the checks of a scenario in which mod code stopped its engine (`stop`: a step past its
/// time or memory, or a crash). A host would hang or die there and give no verdict at all, so
/// no check of the scenario passes, however its probes fared before the stop, in whatever phase
/// (dispose included) it came, whether or not an assertion looks there. The count of checks
/// stays the spec's.
pub fn fail_stopped(checks: &mut [CheckResult], stop: &modlearn_types::Diagnostic) {
    for check in checks.iter_mut().filter(|check| check.passed) {
        check.passed = false;
        check.message = format!("the scenario did not run to its end ({}); before that: {}", stop.message, check.message);
    }
}

#[cfg(test)]
mod tests {
    use modlearn_types::{CheckResult, Diagnostic, Fault};
    use serde_json::Value;

    fn check(passed: bool, unchecked: bool) -> CheckResult {
        let kind = "mod_loads".to_owned();
        CheckResult { label: format!("1. {kind}"), kind, passed, message: "as written".to_owned(), details: Value::Null, unchecked }
    }

    #[test]
    fn a_stopped_scenario_passes_no_check_and_keeps_its_count() {
        let stop: Diagnostic = serde_json::from_value(serde_json::json!({
            "errorName": "TimeoutError", "message": "mod code in the dispose phase did not finish", "phase": "dispose",
            "severity": "error", "timestamp": "t", "fault": "timeout",
        }))
        .unwrap();
        assert_eq!(stop.fault, Fault::Timeout);
        let mut checks = vec![check(true, false), check(false, false), check(false, true)];
        super::fail_stopped(&mut checks, &stop);
        assert!(checks.iter().all(|check| !check.passed));
        assert_eq!(
            checks[0].message,
            "the scenario did not run to its end (mod code in the dispose phase did not finish); before that: as written"
        );
        assert_eq!((checks[1].message.as_str(), checks[2].unchecked), ("as written", true));
    }
}
