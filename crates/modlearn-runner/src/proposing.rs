//! How candidates are proposed: one completion each (the code extracted
//! from the answer), or an agent session each, in which the model looks
//! through the run directory with read-only tools and delivers the
//! candidate with `write_candidate`.

use std::path::PathBuf;
use std::sync::Arc;

use modlearn_propose::prompt::AgentBrief;
use modlearn_propose::{AgentProposer, AgentSession, Completion, CompletionRequest, ProposeError, Proposer, Workspace, extract_code};
use modlearn_spec::ResolvedScenario;
use modlearn_types::Proposal;

use crate::{CandidatePlace, LearnedCandidate, attempt_from, evaluate_source_with, not_evaluated};

/// How candidates are proposed.
#[derive(Clone)]
pub enum Proposing {
    /// One completion per candidate.
    Completion(Arc<dyn Proposer>),
    /// One bounded tool-calling session per candidate.
    Agent(AgentProposing),
}

impl From<Arc<dyn Proposer>> for Proposing {
    fn from(proposer: Arc<dyn Proposer>) -> Proposing {
        Proposing::Completion(proposer)
    }
}

impl From<AgentProposing> for Proposing {
    fn from(agent: AgentProposing) -> Proposing {
        Proposing::Agent(agent)
    }
}

/// The agent proposer and what of the run directory it may see. Only the
/// listed paths are open, so the caller (who knows which files hold hidden
/// scenarios or the spec) decides; candidates of the current round are never
/// open, so siblings in flight do not see each other.
#[derive(Clone)]
pub struct AgentProposing {
    /// Runs the sessions.
    pub agent: Arc<AgentProposer>,
    /// The run directory.
    pub run_dir: PathBuf,
    /// Run-level files open from round 2 on (`history.json` ...).
    pub run_files: Vec<String>,
    /// Per earlier candidate, paths open relative to its artifacts
    /// directory; `{scenario}` stands for each visible scenario's directory
    /// name. The candidate's source file is always open.
    pub candidate_files: Vec<String>,
}

impl AgentProposing {
    /// The window on the run directory for a round whose earlier candidates are `earlier`.
    pub(crate) fn workspace(&self, round: u32, earlier: &[LearnedCandidate]) -> std::io::Result<Workspace> {
        let mut allow: Vec<String> = if round > 1 { self.run_files.clone() } else { Vec::new() };
        for candidate in earlier {
            let dir = candidate.attempt.artifacts_dir.as_str();
            let join = |name: &str| if dir.is_empty() { name.to_owned() } else { format!("{dir}/{name}") };
            allow.push(candidate.attempt.candidate_path.clone());
            for file in &self.candidate_files {
                if file.contains("{scenario}") {
                    for scenario in candidate.attempt.scenarios.iter().filter(|scenario| !scenario.hidden) {
                        allow.push(join(&file.replace("{scenario}", &scenario.dir_name)));
                    }
                } else {
                    allow.push(join(file));
                }
            }
        }
        Workspace::new(&self.run_dir, allow)
    }

    /// What the prompt says about the run directory.
    pub(crate) fn brief(&self, round: u32, earlier: &[LearnedCandidate]) -> AgentBrief {
        AgentBrief {
            max_steps: self.agent.limits().max_steps,
            earlier_candidates: earlier
                .iter()
                .map(|candidate| candidate.attempt.artifacts_dir.clone())
                .filter(|dir| !dir.is_empty())
                .collect(),
            history: round > 1 && !self.run_files.is_empty(),
        }
    }
}

/// What one proposal gave.
pub(crate) enum Answer {
    /// A completion, or why there is none.
    Completion(Result<Completion, ProposeError>),
    /// A session, or why none could start.
    Agent(Result<AgentSession, String>),
}

/// Judges what a proposal gave: the code evaluated, or a failed candidate
/// with the reason; the report entry carries the proposal's usage and cost.
pub(crate) fn judge_proposal(
    number: usize,
    round: u32,
    request: CompletionRequest,
    answer: Answer,
    place: &CandidatePlace,
    scenarios: &[ResolvedScenario],
    eval: &crate::EvalSettings,
) -> LearnedCandidate {
    let path = place.absolute.as_path();
    let index = number - 1;
    let unanswered = match &answer {
        Answer::Completion(Err(failure)) => Some(format!("no answer from the model: {failure}")),
        Answer::Agent(Err(reason)) => Some(format!("no agent session: {reason}")),
        _ => None,
    };
    let (completion, agent, code, error, http_attempts) = match answer {
        Answer::Completion(Ok(mut completion)) => {
            let attempts = completion.attempts.len();
            let extracted = extract_code(&completion.text);
            // Its code, if small enough, is still written, as the candidate.
            if completion.is_longer_than_a_candidate() {
                completion.text = format!("(an answer of {} bytes, longer than a candidate may be, is not kept)", completion.text.len());
            }
            match extracted {
                Ok(code) => (Some(completion), None, Some(code), None, attempts),
                Err(reason) => (Some(completion), None, None, Some(format!("no usable code in the answer: {reason}")), attempts),
            }
        }
        Answer::Completion(Err(failure)) => {
            let attempts = match &failure {
                ProposeError::Failed { attempts, .. } | ProposeError::Auth { attempts, .. } => attempts.len(),
                ProposeError::Config(_) => 0,
            };
            (None, None, None, Some(format!("no answer from the model: {failure}")), attempts)
        }
        Answer::Agent(Ok(session)) => {
            let (code, error, attempts) = (session.source.clone(), session.end.failure(), session.http_attempts);
            (None, Some(session), code, error, attempts)
        }
        Answer::Agent(Err(reason)) => (None, None, None, Some(format!("no agent session: {reason}")), 0),
    };
    let evaluation = match (&code, &error) {
        (Some(code), _) => evaluate_source_with(index, path, code.clone(), scenarios, &eval.engine, eval.eval_model.as_ref()),
        (None, Some(reason)) => not_evaluated(index, path, scenarios, reason.clone(), eval.eval_model.is_some()),
        (None, None) => unreachable!("either code or a reason"),
    };
    let mut attempt = attempt_from(&evaluation, place.artifacts_dir.clone());
    attempt.candidate_path = place.file.clone();
    attempt.round = round;
    let (usage, cost_usd, latency_ms, cached) = match (&completion, &agent) {
        (Some(c), _) => (c.usage, c.cost_usd, c.latency_ms, c.cached),
        (None, Some(s)) => (s.usage, s.cost_usd, s.latency_ms, s.cached),
        (None, None) => (Default::default(), 0.0, 0, false),
    };
    attempt.proposal = Some(Proposal {
        model: request.model.to_string(),
        input_tokens: usage.input_tokens,
        output_tokens: usage.output_tokens,
        cost_usd,
        latency_ms,
        cached,
        http_attempts,
        error,
    });
    LearnedCandidate { number, round, request, completion, agent, evaluation, attempt, unanswered }
}
