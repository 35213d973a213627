//! One candidate's files in a job's run directory, the same files
//! `modlearn run` writes (source, per-scenario results, manifest, the
//! generation prompt and the model's answer).

use modlearn_record::{CandidateArtifacts, RunWriter, WriteError};
use modlearn_runner::LearnedCandidate;

pub(crate) fn write_candidate(writer: &RunWriter, candidate: &LearnedCandidate) -> Result<(), WriteError> {
    let attempt = &candidate.attempt;
    let file_name = candidate
        .evaluation
        .path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "candidate.ts".to_owned());
    let prompt: String = candidate
        .request
        .messages
        .iter()
        .map(|message| format!("<!-- {:?} -->\n{}\n\n", message.role, message.content))
        .collect();
    let proposal = serde_json::json!({
        "model": candidate.request.model.to_string(),
        "proposer": if candidate.agent.is_some() { "agent" } else { "completion" },
        "seed": candidate.request.seed,
        "maxTokens": candidate.request.max_tokens,
        "temperature": candidate.request.temperature,
        "completion": candidate.completion,
        "error": attempt.proposal.as_ref().and_then(|p| p.error.clone()),
    });
    writer.write_candidate(&CandidateArtifacts {
        attempt,
        file_name: &file_name,
        source: candidate.evaluation.source.as_deref(),
        consoles: candidate.evaluation.scenarios.iter().map(|s| s.console.as_slice()).collect(),
        extra: vec![
            ("generation-prompt.md", prompt),
            ("proposal.json", format!("{}\n", serde_json::to_string_pretty(&proposal).expect("proposal serializes"))),
        ],
        sessions: candidate.evaluation.scenarios.iter().map(|s| s.session.as_ref().map(|o| modlearn_record::SessionFiles { trace: &o.trace, result: &o.result, files: &o.files })).collect(),
    })
}
