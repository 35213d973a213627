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

use modlearn_propose::prompt::{DEFAULT_EVIDENCE_BUDGET, Evidence, Slot, agent_prompt, generation_prompt};
use modlearn_propose::{AgentSession, Completion, CompletionRequest, ModelRef, ProposeError};
use modlearn_spec::{ModLearningSpec, ResolvedScenario};
use modlearn_types::{Attempt, Learning, UsageTotals};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::{AbortHandle, JoinSet};

use crate::proposing::{Answer, Proposing, judge_proposal};
use crate::{CandidateEvaluation, EvalSettings};

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
    /// Added to each candidate's number to make its sampling seed, so
    /// repeated runs of one spec (`modlearn compare --repeat`) draw fresh
    /// answers instead of the cached ones.
    pub seed_offset: u64,
    /// Cancel a round's later-numbered proposals still in flight once one of
    /// its candidates scores perfectly (`modlearn run`, to save money). Off, the
    /// round draws all its candidates whatever their timing, so a
    /// comparison's pass@k has a fixed n; either way no later round starts.
    pub stop_at_perfect: bool,
    /// Stops the run from outside.
    pub interrupt: Interrupt,
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
            seed_offset: 0,
            stop_at_perfect: true,
            interrupt: Interrupt::new(),
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
    /// The model's answer, when one arrived (completion proposer).
    pub completion: Option<Completion>,
    /// The whole session, turns and tool calls included (agent proposer).
    pub agent: Option<AgentSession>,
    /// The evaluation (of the extracted code, or a failed one with the reason).
    pub evaluation: CandidateEvaluation,
    /// Why no proposal could be obtained (no answer from the model, no agent session), when so;
    /// an answer without code is the model's doing and is not counted here.
    pub unanswered: Option<String>,
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
    /// Why the run ended. After [`Stop::KeyRefused`] and [`Stop::Interrupted`]
    /// `candidates` are those finished before it, whose artifacts are whole;
    /// no round was completed after it, so nothing more should be written and
    /// the run can be resumed.
    pub stop: Stop,
}

/// Why a run ended: a fixed set the caller renders, never a string to parse.
#[derive(Debug)]
pub enum Stop {
    /// Every planned round ran.
    RoundsComplete,
    /// A candidate scored perfectly.
    PerfectScore,
    /// `--max-usd` is spent.
    BudgetSpent,
    /// Not one proposal of a round got an answer: the endpoint is unreachable or refuses every
    /// request (each candidate's error says how); later rounds would fail the same way.
    EndpointUnreachable,
    /// The API refused a key (HTTP 401/403): no later request can succeed.
    KeyRefused {
        /// What the server said, with the hint of what to fix.
        error: ProposeError,
        /// Whose key.
        holder: KeyHolder,
    },
    /// [`Interrupt::interrupt`] was called: requests in flight were dropped.
    Interrupted,
}

/// Whose key the API refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyHolder {
    /// The proposing model's (`--model`).
    Proposer,
    /// The eval model's (`--eval-model`).
    EvalModel,
}

impl Stop {
    /// The words `report.json` keeps in `learning.stopped`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Stop::RoundsComplete => "rounds complete",
            Stop::PerfectScore => "perfect score",
            Stop::BudgetSpent => "budget spent",
            Stop::EndpointUnreachable => NO_ANSWERS,
            Stop::KeyRefused { .. } => "the model API refused the key",
            Stop::Interrupted => "interrupted",
        }
    }

    /// Whether the run stopped before a report can be written (a refused key, an interrupt):
    /// it is resumable, and nothing but whole candidates is on disk.
    pub fn is_cut_short(&self) -> bool {
        matches!(self, Stop::KeyRefused { .. } | Stop::Interrupted)
    }
}

/// Stops a run from outside (Ctrl-C): nothing more is asked, requests in flight are dropped, the
/// round stays unfinished, and the run ends with [`Stop::Interrupted`].
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<tokio::sync::watch::Sender<bool>>);

impl Interrupt {
    /// A handle that has not been triggered.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Stops the run.
    pub fn interrupt(&self) {
        self.0.send_replace(true);
    }

    /// Whether [`Interrupt::interrupt`] was called.
    pub fn is_interrupted(&self) -> bool {
        *self.0.borrow()
    }
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

/// Runs the learning loop. `proposer` is an `Arc<dyn Proposer>` (one
/// completion per candidate) or a [`Proposing`]; `candidate_path(number)`
/// gives each candidate's relative and absolute file path; `on_event` sees
/// every candidate as it is judged (it may write artifacts).
pub async fn learn(
    spec: &ModLearningSpec,
    scenarios: Arc<Vec<ResolvedScenario>>,
    model: &ModelRef,
    proposer: impl Into<Proposing>,
    settings: &LearnSettings,
    candidate_path: &CandidatePathFn,
    on_event: &(dyn Fn(LearnEvent<'_>) + Send + Sync),
) -> LearnOutcome {
    let mut candidates: Vec<LearnedCandidate> = Vec::new();
    let mut per_round: Vec<UsageTotals> = Vec::new();
    // One ledger for proposals and the eval model's turns, so `--max-usd` bounds both.
    let spent = settings.eval.eval_model.as_ref().map_or_else(|| Arc::new(Mutex::new(0f64)), |model| model.spent());
    let proposing: Proposing = proposer.into();
    let mut stop = Stop::RoundsComplete;
    let mut fatal: Option<(ProposeError, KeyHolder)> = None;
    let evaluations = Arc::new(Semaphore::new(settings.eval.jobs.max(1)));
    let requests = Arc::new(Semaphore::new(settings.concurrency.max(1)));
    // Set when the API refuses the key or the run is interrupted: nothing more
    // is asked, requests in flight are dropped, answers already in are still
    // judged and recorded.
    let halt = Arc::clone(&settings.interrupt.0);

    for round in 1..=settings.rounds {
        // Interrupted between rounds (or before the first): no round is started.
        if settings.interrupt.is_interrupted() {
            stop = Stop::Interrupted;
            break;
        }
        on_event(LearnEvent::RoundStarted { round });
        let attempts: Vec<Attempt> = candidates.iter().map(|c| c.attempt.clone()).collect();
        let sources: Vec<Option<String>> = candidates.iter().map(|c| c.evaluation.source.clone()).collect();
        let evidence = evidence_for(&attempts, &sources, settings.evidence_budget);
        let first_number = candidates.len() + 1;
        let (workspace, brief) = match &proposing {
            Proposing::Agent(agent) => {
                let workspace = agent.workspace(round, &candidates).map_err(|error| format!("cannot open the run directory: {error}"));
                (Some(Arc::new(workspace)), Some(agent.brief(round, &candidates)))
            }
            Proposing::Completion(_) => (None, None),
        };
        let mut tasks = JoinSet::new();
        let mut handles: Vec<(usize, AbortHandle)> = Vec::new();
        let mut permit_senders = Vec::new();
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
                messages: match &brief {
                    Some(brief) => agent_prompt(spec, &scenarios, &slot, evidence.as_ref(), brief),
                    None => generation_prompt(spec, &scenarios, &slot, evidence.as_ref()),
                },
                max_tokens: settings.max_tokens,
                temperature: settings.temperature,
                seed: settings.seed_offset + number as u64,
            };
            let (proposing, workspace) = (proposing.clone(), workspace.clone());
            // The dispatcher below hands out request permits in slot order,
            // so proposals go out in candidate order whatever the concurrency.
            let (permit_sender, permit_receiver) = tokio::sync::oneshot::channel::<OwnedSemaphorePermit>();
            permit_senders.push(permit_sender);
            let (evaluations, spent) = (Arc::clone(&evaluations), Arc::clone(&spent));
            let scenarios = Arc::clone(&scenarios);
            let eval = settings.eval.clone();
            let max_usd = settings.max_usd;
            let halt = Arc::clone(&halt);
            let handle = tasks.spawn(async move {
                let mut halted = halt.subscribe();
                let permit = tokio::select! {
                    permit = permit_receiver => permit.expect("the dispatcher outlives the round's tasks"),
                    _ = halted.wait_for(|&stop| stop) => return Task::Halted,
                };
                if max_usd.is_some_and(|max| *spent.lock().unwrap_or_else(|p| p.into_inner()) >= max) {
                    return Task::Skipped;
                }
                let spend = |cost: f64| {
                    let mut spent = spent.lock().unwrap_or_else(|p| p.into_inner());
                    *spent += cost;
                    max_usd.is_none_or(|max| *spent < max)
                };
                let asking = async {
                    Ok(match (&proposing, workspace.as_deref()) {
                        (Proposing::Agent(agent), Some(Ok(workspace))) => match agent.agent.propose(&request, workspace, &spend).await {
                            Err(error @ ProposeError::Auth { .. }) => return Err(error),
                            Err(error) => Answer::Agent(Err(error.to_string())),
                            Ok(session) => Answer::Agent(Ok(session)),
                        },
                        (Proposing::Agent(_), Some(Err(error))) => Answer::Agent(Err(error.clone())),
                        (Proposing::Agent(_), None) => unreachable!("agent rounds open a workspace"),
                        (Proposing::Completion(proposer), _) => match proposer.complete(&request).await {
                            Err(error @ ProposeError::Auth { .. }) => return Err(error),
                            answer => {
                                if let Ok(completion) = &answer {
                                    spend(completion.cost_usd);
                                }
                                Answer::Completion(answer)
                            }
                        },
                    })
                };
                let answer = tokio::select! {
                    answer = asking => answer,
                    _ = halted.wait_for(|&stop| stop) => return Task::Halted,
                };
                let answer = match answer {
                    Ok(answer) => answer,
                    Err(error) => {
                        halt.send_replace(true);
                        return Task::Fatal(error, KeyHolder::Proposer);
                    }
                };
                drop(permit);
                let _evaluating = evaluations.acquire_owned().await.expect("semaphore open");
                let eval_model = eval.eval_model.clone();
                let judged = tokio::task::spawn_blocking(move || judge_proposal(number, round, request, answer, &place, &scenarios, &eval))
                    .await
                    .expect("evaluation task panicked");
                // The eval model's key was refused: the verdict is incomplete, the run stops.
                if let Some(model) = eval_model.filter(|model| model.halted()) {
                    halt.send_replace(true);
                    return model.take_fatal().map_or(Task::Halted, |error| Task::Fatal(error, KeyHolder::EvalModel));
                }
                Task::Done(Box::new(judged))
            });
            handles.push((number, handle));
        }
        let requests = Arc::clone(&requests);
        let dispatcher = tokio::spawn(async move {
            for sender in permit_senders {
                let permit = Arc::clone(&requests).acquire_owned().await.expect("semaphore open");
                // A cancelled task has dropped its receiver; its permit goes back.
                let _ = sender.send(permit);
            }
        });
        let mut round_candidates = Vec::new();
        let mut perfect = false;
        let mut skipped = false;
        while let Some(joined) = tasks.join_next().await {
            let Ok(result) = joined else { continue };
            let candidate = match result {
                Task::Done(candidate) => *candidate,
                Task::Skipped => {
                    skipped = true;
                    continue;
                }
                Task::Fatal(error, holder) => {
                    // No later request can succeed: the round stays
                    // unfinished, so a resumed run asks again.
                    fatal.get_or_insert((error, holder));
                    continue;
                }
                Task::Halted => continue,
            };
            let perfect_number = candidate.evaluation.verdict.is_perfect().then_some(candidate.number);
            on_event(LearnEvent::CandidateDone(&candidate));
            round_candidates.push(candidate);
            if let Some(number) = perfect_number {
                perfect = true;
                if settings.stop_at_perfect {
                    // Later candidates can no longer be selected (the earliest
                    // passing one wins), so they are cancelled; earlier ones
                    // still in flight may pass and win, so they finish. The
                    // selection is then the same whatever the timing.
                    for (_, handle) in handles.iter().filter(|(other, _)| *other > number) {
                        handle.abort();
                    }
                }
            }
        }
        dispatcher.abort();
        round_candidates.sort_by_key(|c| c.number);
        per_round.push(totals(&round_candidates));
        let none_answered = !skipped && !round_candidates.is_empty() && round_candidates.iter().all(|c| c.unanswered.is_some());
        candidates.extend(round_candidates);
        if let Some((error, holder)) = fatal.take() {
            stop = Stop::KeyRefused { error, holder };
            break;
        }
        if settings.interrupt.is_interrupted() {
            stop = Stop::Interrupted;
            break;
        }
        let attempts: Vec<Attempt> = candidates.iter().map(|c| c.attempt.clone()).collect();
        on_event(LearnEvent::RoundDone { round, attempts: &attempts });
        // Not one answer in a whole round: the endpoint is down or refuses every request, and
        // later rounds would only fail the same way.
        if none_answered {
            stop = Stop::EndpointUnreachable;
            break;
        }
        if perfect {
            stop = Stop::PerfectScore;
            break;
        }
        if skipped || settings.max_usd.is_some_and(|max| *spent.lock().unwrap_or_else(|p| p.into_inner()) >= max) {
            stop = Stop::BudgetSpent;
            break;
        }
    }
    // Candidates must be numbered densely for the report, even after an early stop.
    let selected = crate::report::select_judged(candidates.iter().map(|c| &c.evaluation));
    let learning = Learning {
        model: model.to_string(),
        rounds_planned: settings.rounds,
        rounds_run: per_round.len() as u32,
        candidates_per_round: settings.candidates,
        stopped: stop.as_str().to_owned(),
        usage: sum_totals(&per_round),
        per_round,
    };
    LearnOutcome { candidates, learning, selected, stop }
}

/// `Learning::stopped` when a whole round got no answer.
pub const NO_ANSWERS: &str = "no answers from the model";

/// What one proposal task ended with.
enum Task {
    /// Not started: the budget was spent.
    Skipped,
    /// Proposed and judged.
    Done(Box<LearnedCandidate>),
    /// The run must stop: whose key was refused.
    Fatal(ProposeError, KeyHolder),
    /// Dropped because the run stops.
    Halted,
}

/// Evidence for the next round: the attempts, the best one's source and a
/// failing sibling's.
fn evidence_for<'a>(attempts: &'a [Attempt], sources: &'a [Option<String>], budget: usize) -> Option<Evidence<'a>> {
    if attempts.is_empty() {
        return None;
    }
    let best_index =
        attempts.iter().enumerate().max_by(|(ai, a), (bi, b)| a.visible_score.cmp(&b.visible_score).then(bi.cmp(ai))).map(|(i, _)| i);
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
        let spent = match (&candidate.completion, &candidate.agent) {
            (Some(completion), _) => Some((completion.usage, completion.cost_usd, completion.latency_ms)),
            (None, Some(session)) => Some((session.usage, session.cost_usd, session.latency_ms)),
            (None, None) => None,
        };
        if let Some((usage, cost_usd, latency_ms)) = spent {
            totals.proposals += 1;
            totals.input_tokens += usage.input_tokens;
            totals.output_tokens += usage.output_tokens;
            totals.cost_usd += cost_usd;
            totals.latency_ms += latency_ms;
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
