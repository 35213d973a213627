//! `modlearn run`: rounds of parallel proposals, each candidate evaluated
//! as soon as its proposal arrives, later rounds prompted with the earlier
//! rounds' evidence, an early stop on a perfect score, and a cost budget.
//!
//! Everything here is deterministic given the model's answers: prompts are
//! built from verdicts, verdicts come from deterministic engines, and the
//! response cache answers repeated prompts. That is what makes a killed
//! run resumable: running it again asks the cache, not the model.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use modlearn_judge::select;
use modlearn_propose::prompt::{DEFAULT_EVIDENCE_BUDGET, Evidence, Slot, generation_prompt};
use modlearn_propose::{Completion, CompletionRequest, ModelRef, Proposer, extract_code};
use modlearn_spec::{ModLearningSpec, ResolvedScenario};
use modlearn_types::{Attempt, Learning, Proposal, UsageTotals};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::{CandidateEvaluation, EvalSettings, attempt_from, evaluate_source, not_evaluated};

/// How to learn.
#[derive(Clone, Debug)]
pub struct LearnSettings {
    /// Proposals per round.
    pub candidates: usize,
    /// Rounds at most.
    pub rounds: u32,
    /// Requests in flight at most.
    pub concurrency: usize,
    /// Stop asking once this much has been spent (USD).
    pub max_usd: Option<f64>,
    /// Output token cap per proposal.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// Evaluation limits.
    pub eval: EvalSettings,
    /// Size budget of the evidence section of later prompts.
    pub evidence_budget: usize,
}

impl Default for LearnSettings {
    fn default() -> LearnSettings {
        LearnSettings {
            candidates: 4,
            rounds: 1,
            concurrency: 4,
            max_usd: None,
            max_tokens: 4096,
            temperature: 0.7,
            eval: EvalSettings::default(),
            evidence_budget: DEFAULT_EVIDENCE_BUDGET,
        }
    }
}

/// One candidate of a run: its prompt, what the model said, the verdict.
#[derive(Clone, Debug)]
pub struct LearnedCandidate {
    /// 1-based number across the run (`candidates/NNN`).
    pub number: usize,
    /// 1-based round.
    pub round: u32,
    /// The messages sent.
    pub request: CompletionRequest,
    /// The model's answer, when one arrived.
    pub completion: Option<Completion>,
    /// The evaluation (of the extracted code, or a failed one with the reason).
    pub evaluation: CandidateEvaluation,
    /// The report entry.
    pub attempt: Attempt,
}

/// Something that happened, for progress and for writing artifacts as the
/// run goes.
#[derive(Debug)]
pub enum LearnEvent<'a> {
    /// A round begins.
    RoundStarted {
        /// 1-based round.
        round: u32,
    },
    /// A candidate was proposed and judged.
    CandidateDone(&'a LearnedCandidate),
    /// A round is complete; `attempts` are all candidates so far.
    RoundDone {
        /// 1-based round.
        round: u32,
        /// Every candidate so far.
        attempts: &'a [Attempt],
    },
}

/// The result of a run.
#[derive(Debug)]
pub struct LearnOutcome {
    /// Every candidate, in number order.
    pub candidates: Vec<LearnedCandidate>,
    /// Rounds, stop reason, usage.
    pub learning: Learning,
    /// Index (into `candidates`) of the selected one.
    pub selected: Option<usize>,
}

/// Where one candidate lives.
#[derive(Clone, Debug)]
pub struct CandidatePlace {
    /// Its file, relative to the run directory (shown to proposers and in reports).
    pub file: String,
    /// Its artifact directory, relative to the run directory.
    pub artifacts_dir: String,
    /// The absolute path the engine loads it as.
    pub absolute: PathBuf,
}

/// Where candidate `number` lives.
pub type CandidatePathFn = dyn Fn(usize) -> CandidatePlace + Send + Sync;

/// Runs the learning loop. `candidate_path(number)` gives each candidate's
/// relative and absolute file path; `on_event` sees every candidate as it is
/// judged (it may write artifacts).
pub async fn learn(
    spec: &ModLearningSpec,
    scenarios: Arc<Vec<ResolvedScenario>>,
    model: &ModelRef,
    proposer: Arc<dyn Proposer>,
    settings: &LearnSettings,
    candidate_path: &CandidatePathFn,
    on_event: &(dyn Fn(LearnEvent<'_>) + Send + Sync),
) -> LearnOutcome {
    let mut candidates: Vec<LearnedCandidate> = Vec::new();
    let mut per_round: Vec<UsageTotals> = Vec::new();
    let spent = Arc::new(Mutex::new(0f64));
    let mut stopped = "rounds complete".to_owned();
    let evaluations = Arc::new(Semaphore::new(settings.eval.jobs.max(1)));
    let requests = Arc::new(Semaphore::new(settings.concurrency.max(1)));

    for round in 1..=settings.rounds {
        on_event(LearnEvent::RoundStarted { round });
        let attempts: Vec<Attempt> = candidates.iter().map(|c| c.attempt.clone()).collect();
        let sources: Vec<Option<String>> = candidates.iter().map(|c| c.evaluation.source.clone()).collect();
        let evidence = evidence_for(&attempts, &sources, settings.evidence_budget);
        let first_number = candidates.len() + 1;
        let mut tasks = JoinSet::new();
        for index in 1..=settings.candidates {
            let number = first_number + index - 1;
            let place = candidate_path(number);
            let slot = Slot {
                round,
                rounds: settings.rounds,
                index,
                per_round: settings.candidates,
                candidate_number: number,
                candidate_path: place.file.clone(),
                compact: model.provider == modlearn_propose::ProviderKind::Local,
            };
            let request = CompletionRequest {
                model: model.clone(),
                messages: generation_prompt(spec, &scenarios, &slot, evidence.as_ref()),
                max_tokens: settings.max_tokens,
                temperature: settings.temperature,
                seed: number as u64,
            };
            let proposer = Arc::clone(&proposer);
            // Taking the request permit here, in slot order, makes proposals go
            // out in candidate order whatever the concurrency.
            let permit = Arc::clone(&requests).acquire_owned().await.expect("semaphore open");
            let (evaluations, spent) = (Arc::clone(&evaluations), Arc::clone(&spent));
            let scenarios = Arc::clone(&scenarios);
            let eval = settings.eval.engine.clone();
            let max_usd = settings.max_usd;
            tasks.spawn(async move {
                if max_usd.is_some_and(|max| *spent.lock().unwrap_or_else(|p| p.into_inner()) >= max) {
                    return None;
                }
                let answer = proposer.complete(&request).await;
                drop(permit);
                if let Ok(completion) = &answer {
                    *spent.lock().unwrap_or_else(|p| p.into_inner()) += completion.cost_usd;
                }
                let _evaluating = evaluations.acquire_owned().await.expect("semaphore open");
                let judged = tokio::task::spawn_blocking(move || {
                    judge_proposal(number, round, request, answer, &place, &scenarios, &eval)
                })
                .await
                .expect("evaluation task panicked");
                Some(judged)
            });
        }
        let mut round_candidates = Vec::new();
        let mut perfect = false;
        let mut skipped = false;
        while let Some(joined) = tasks.join_next().await {
            let Ok(result) = joined else { continue };
            let Some(candidate) = result else {
                skipped = true;
                continue;
            };
            if candidate.evaluation.verdict.is_perfect() {
                perfect = true;
            }
            on_event(LearnEvent::CandidateDone(&candidate));
            round_candidates.push(candidate);
            if perfect {
                // Whatever is still in flight is no longer needed.
                tasks.abort_all();
            }
        }
        round_candidates.sort_by_key(|c| c.number);
        per_round.push(totals(&round_candidates));
        candidates.extend(round_candidates);
        let attempts: Vec<Attempt> = candidates.iter().map(|c| c.attempt.clone()).collect();
        on_event(LearnEvent::RoundDone { round, attempts: &attempts });
        if perfect {
            stopped = "perfect score".to_owned();
            break;
        }
        if skipped || settings.max_usd.is_some_and(|max| *spent.lock().unwrap_or_else(|p| p.into_inner()) >= max) {
            stopped = "budget spent".to_owned();
            break;
        }
    }
    // Candidates must be numbered densely for the report, even after an early stop.
    let selected = select(candidates.iter().map(|c| &c.evaluation.verdict));
    let learning = Learning {
        model: model.to_string(),
        rounds_planned: settings.rounds,
        rounds_run: per_round.len() as u32,
        candidates_per_round: settings.candidates,
        stopped,
        usage: sum_totals(&per_round),
        per_round,
    };
    LearnOutcome { candidates, learning, selected }
}

fn judge_proposal(
    number: usize,
    round: u32,
    request: CompletionRequest,
    answer: Result<Completion, modlearn_propose::ProposeError>,
    place: &CandidatePlace,
    scenarios: &[ResolvedScenario],
    engine: &modlearn_engine::EngineOptions,
) -> LearnedCandidate {
    let path = place.absolute.as_path();
    let index = number - 1;
    let (completion, code, error, http_attempts) = match answer {
        Ok(completion) => {
            let attempts = completion.attempts.len();
            match extract_code(&completion.text) {
                Ok(code) => (Some(completion), Some(code), None, attempts),
                Err(reason) => (Some(completion), None, Some(format!("no usable code in the answer: {reason}")), attempts),
            }
        }
        Err(failure) => {
            let attempts = match &failure {
                modlearn_propose::ProposeError::Failed { attempts, .. } => attempts.len(),
                modlearn_propose::ProposeError::Config(_) => 0,
            };
            (None, None, Some(format!("no answer from the model: {failure}")), attempts)
        }
    };
    let evaluation = match (&code, &error) {
        (Some(code), _) => evaluate_source(index, path, code.clone(), scenarios, engine),
        (None, Some(reason)) => not_evaluated(index, path, scenarios, reason.clone()),
        (None, None) => unreachable!("either code or a reason"),
    };
    let mut attempt = attempt_from(&evaluation, place.artifacts_dir.clone());
    attempt.candidate_path = place.file.clone();
    attempt.round = round;
    attempt.proposal = Some(Proposal {
        model: request.model.to_string(),
        input_tokens: completion.as_ref().map_or(0, |c| c.usage.input_tokens),
        output_tokens: completion.as_ref().map_or(0, |c| c.usage.output_tokens),
        cost_usd: completion.as_ref().map_or(0.0, |c| c.cost_usd),
        latency_ms: completion.as_ref().map_or(0, |c| c.latency_ms),
        cached: completion.as_ref().is_some_and(|c| c.cached),
        http_attempts,
        error,
    });
    LearnedCandidate { number, round, request, completion, evaluation, attempt }
}

/// Evidence for the next round: the attempts, the best one's source and a
/// failing sibling's.
fn evidence_for<'a>(attempts: &'a [Attempt], sources: &'a [Option<String>], budget: usize) -> Option<Evidence<'a>> {
    if attempts.is_empty() {
        return None;
    }
    let best_index = attempts
        .iter()
        .enumerate()
        .max_by(|(ai, a), (bi, b)| a.visible_score.cmp(&b.visible_score).then(bi.cmp(ai)))
        .map(|(i, _)| i);
    let with_source = |i: usize| sources[i].as_deref().map(|source| (&attempts[i], source));
    let best = best_index.and_then(with_source);
    let failing = attempts
        .iter()
        .enumerate()
        .rev()
        .find(|(i, a)| Some(*i) != best_index && !a.passed && sources[*i].is_some())
        .and_then(|(i, _)| with_source(i));
    Some(Evidence { attempts, best, failing_sibling: failing, budget })
}

fn totals(candidates: &[LearnedCandidate]) -> UsageTotals {
    let mut totals = UsageTotals::default();
    for candidate in candidates {
        if let Some(completion) = &candidate.completion {
            totals.proposals += 1;
            totals.input_tokens += completion.usage.input_tokens;
            totals.output_tokens += completion.usage.output_tokens;
            totals.cost_usd += completion.cost_usd;
            totals.latency_ms += completion.latency_ms;
        }
    }
    totals
}

fn sum_totals(rounds: &[UsageTotals]) -> UsageTotals {
    rounds.iter().fold(UsageTotals::default(), |mut sum, round| {
        sum.proposals += round.proposals;
        sum.input_tokens += round.input_tokens;
        sum.output_tokens += round.output_tokens;
        sum.cost_usd += round.cost_usd;
        sum.latency_ms += round.latency_ms;
        sum
    })
}
