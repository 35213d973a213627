use modlearn_judge::select;
use modlearn_types::{Attempt, RunReport, Selected, SpecSummary};

use crate::CandidateEvaluation;

/// Assembles the run report. `artifacts_dir(i)` names candidate `i`'s
/// artifact directory relative to the run directory.
pub fn build_report(
    spec: SpecSummary,
    evaluations: &[CandidateEvaluation],
    artifacts_dir: &dyn Fn(usize) -> String,
    promoted_to: Option<String>,
) -> RunReport {
    let attempts: Vec<Attempt> = evaluations.iter().map(|evaluation| attempt_from(evaluation, artifacts_dir(evaluation.index))).collect();
    let selected = select_judged(evaluations.iter());
    report_from_attempts(spec, attempts, selected, promoted_to)
}

/// Index of the selected candidate among `evaluations`, choosing only among those judged: one
/// that could not be (no answer, no code in it, an unreadable file) is never selected, so a run
/// where nothing was judged selects none instead of naming a file that was never written.
pub(crate) fn select_judged<'a>(evaluations: impl Iterator<Item = &'a CandidateEvaluation>) -> Option<usize> {
    let judged: Vec<(usize, &CandidateEvaluation)> = evaluations.enumerate().filter(|(_, evaluation)| evaluation.error.is_none()).collect();
    select(judged.iter().map(|(_, evaluation)| &evaluation.verdict)).map(|chosen| judged[chosen].0)
}

/// Assembles the run report from report entries and the selected index.
pub fn report_from_attempts(spec: SpecSummary, attempts: Vec<Attempt>, selected: Option<usize>, promoted_to: Option<String>) -> RunReport {
    let chosen = selected.map(|index| &attempts[index]);
    RunReport {
        kind: "modlearn_run_report".to_owned(),
        version: 1,
        passed: chosen.is_some_and(|attempt| attempt.passed),
        score: chosen.map_or(0, |attempt| attempt.score),
        // The spec's maximum even when nothing was selected.
        max_score: chosen.or(attempts.first()).map_or(0, |attempt| attempt.max_score),
        selected: chosen
            .map(|attempt| Selected { candidate_index: attempt.candidate_index, candidate_path: attempt.candidate_path.clone() }),
        promoted_to,
        attempts,
        spec,
        learning: None,
    }
}

/// The report entry of one evaluated candidate.
pub fn attempt_from(evaluation: &CandidateEvaluation, artifacts_dir: String) -> Attempt {
    let verdict = &evaluation.verdict;
    Attempt {
        candidate_index: evaluation.index + 1,
        candidate_path: evaluation.path.display().to_string(),
        round: 1,
        passed: verdict.passed,
        score: verdict.score,
        max_score: verdict.max_score,
        visible_score: verdict.visible_score,
        visible_max_score: verdict.visible_max_score,
        hidden_score: verdict.hidden_score,
        hidden_max_score: verdict.hidden_max_score,
        error: evaluation.error.clone(),
        diagnostics: evaluation.diagnostics.clone(),
        visible_diagnostics: evaluation.visible_diagnostics.clone(),
        scenarios: verdict.scenarios.clone(),
        artifacts_dir,
        duration_ms: evaluation.elapsed.as_millis() as u64,
        proposal: None,
        eval: evaluation.eval_usage.clone(),
    }
}
