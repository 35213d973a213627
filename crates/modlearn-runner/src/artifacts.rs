//! One candidate's files in its run directory: the source, the per-scenario
//! results and the manifest; for a learned candidate also the generation
//! prompt, the model's answer and, for the agent proposer, the session
//! transcript. `modlearn run`, every `modlearn compare` job and `modlearn
//! eval` write them the same way.

use modlearn_propose::TRANSCRIPT_FILE;
use modlearn_record::{CandidateArtifacts, RunLayout, RunWriter, SessionFiles, WriteError};

use modlearn_types::Attempt;

use crate::{CandidateEvaluation, CandidatePlace, LearnedCandidate};

/// Where candidate `number` of a learning run lives: `<its directory>/mods/<target>`,
/// `target` being the mod's file name (the spec's `targetModName` or `<slug>.ts`).
pub fn candidate_places(layout: RunLayout, target: String) -> impl Fn(usize) -> CandidatePlace + Send + Sync {
    move |number: usize| {
        let artifacts_dir = layout.candidate_relative(number - 1);
        let file = format!("{artifacts_dir}/mods/{target}");
        let joined = layout.root().join(&file);
        let absolute = std::path::absolute(&joined).unwrap_or(joined);
        CandidatePlace { file, artifacts_dir, absolute }
    }
}

/// Writes `candidate`'s artifacts through `writer` (atomically, file by file).
pub fn write_candidate(writer: &RunWriter, candidate: &LearnedCandidate) -> Result<(), WriteError> {
    let attempt = &candidate.attempt;
    let prompt: String =
        candidate.request.messages.iter().map(|message| format!("<!-- {:?} -->\n{}\n\n", message.role, message.content)).collect();
    let mut proposal = serde_json::json!({
        "model": candidate.request.model.to_string(),
        "proposer": if candidate.agent.is_some() { "agent" } else { "completion" },
        "seed": candidate.request.seed,
        "maxTokens": candidate.request.max_tokens,
        "temperature": candidate.request.temperature,
        "completion": candidate.completion,
        "error": attempt.proposal.as_ref().and_then(|p| p.error.clone()),
    });
    let mut extra = vec![("generation-prompt.md", prompt)];
    if let Some(session) = &candidate.agent {
        proposal["agent"] = serde_json::json!({
            "steps": session.steps,
            "end": session.end,
            "usage": session.usage,
            "costUsd": session.cost_usd,
            "latencyMs": session.latency_ms,
            "httpAttempts": session.http_attempts,
            "cached": session.cached,
            "transcript": TRANSCRIPT_FILE,
        });
        extra.push((TRANSCRIPT_FILE, session.transcript_jsonl()));
    }
    extra.push(("proposal.json", format!("{}\n", serde_json::to_string_pretty(&proposal).expect("proposal serializes"))));
    write_evaluation(writer, attempt, &candidate.evaluation, extra)
}

/// Writes the files of a judged candidate, `extra` (name, text) beside them.
pub(crate) fn write_evaluation(
    writer: &RunWriter,
    attempt: &Attempt,
    evaluation: &CandidateEvaluation,
    extra: Vec<(&str, String)>,
) -> Result<(), WriteError> {
    let file_name = evaluation.path.file_name().map_or_else(|| "candidate.ts".to_owned(), |name| name.to_string_lossy().into_owned());
    let scenarios = &evaluation.scenarios;
    writer.write_candidate(&CandidateArtifacts {
        attempt,
        file_name: &file_name,
        source: evaluation.source.as_deref(),
        consoles: scenarios.iter().map(|s| s.console.as_slice()).collect(),
        extra,
        sessions: scenarios
            .iter()
            .map(|s| s.session.as_ref().map(|o| SessionFiles { trace: &o.trace, result: &o.result, files: &o.files }))
            .collect(),
    })
}
