//! Runs a comparison's jobs: each one is a `modlearn run` (the runner's
//! [`learn`] loop) in its own run directory, all of them within one pool of
//! request permits and one budget. A job whose directory already holds a
//! `report.json` is finished and is read back instead, which is what makes
//! a rerun with the same `--out` resume.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use modlearn_propose::{ModelRef, ProposeError, Proposer, ToolChat};
use modlearn_record::{WriteError, write_atomic};
use modlearn_runner::{
    EvalModel, EvalSettings, JobStop, KeyHolder, LearnSettings, LearningJob, ModelEndpoint, Proposing, agent_proposing, run_learning_job,
};
use modlearn_spec::{LoadedSpec, ResolvedScenario};
use modlearn_types::{RunReport, SpecSummary};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::budget::{JobLimits, Limited, SharedLimits};
use crate::{CompareError, Comparison, Job, ProposerChoice};

/// How to run (none of this is part of the comparison's identity).
#[derive(Clone, Debug)]
pub struct ExecuteOptions {
    /// The comparison's output directory; jobs go under `runs/`.
    pub out: PathBuf,
    /// Model requests in flight at most, and jobs running at once at most.
    pub concurrency: usize,
    /// Stop asking for proposals once this many US dollars are spent, all jobs together.
    pub max_usd: Option<f64>,
    /// Evaluation limits (the eval model is built per job from `models`).
    pub eval: EvalSettings,
    /// Where the models are reached.
    pub models: ModelAccess,
}

/// Where the models (the compared ones and the eval model) are reached and
/// how their answers are cached: the same for every job.
#[derive(Clone, Debug)]
pub struct ModelAccess {
    /// The compared models' API (`--base-url`).
    pub base_url: Option<String>,
    /// The eval model's API (`--eval-base-url`), else `base_url`.
    pub eval_base_url: Option<String>,
    /// A price file (`--prices`).
    pub prices: Option<PathBuf>,
    /// The response cache's root.
    pub cache_dir: PathBuf,
}

impl ModelAccess {
    /// The compared models' endpoint.
    pub fn endpoint(&self) -> ModelEndpoint<'_> {
        ModelEndpoint {
            base_url: self.base_url.as_deref(),
            prices: self.prices.as_deref(),
            cache_dir: &self.cache_dir,
            request_timeout: None,
        }
    }

    /// The eval model's endpoint.
    pub fn eval_endpoint(&self) -> ModelEndpoint<'_> {
        ModelEndpoint { base_url: self.eval_base_url.as_deref().or(self.base_url.as_deref()), ..self.endpoint() }
    }
}

/// A spec ready to run: as loaded, and its scenarios resolved (with their
/// environments attached, as `modlearn run` resolves them).
#[derive(Clone, Debug)]
pub struct PreparedSpec {
    /// The spec file.
    pub loaded: LoadedSpec,
    /// Its scenarios.
    pub scenarios: Arc<Vec<ResolvedScenario>>,
}

/// Whether a job has its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum JobStatus {
    /// Its `report.json` is written.
    Finished,
    /// The budget was spent before or while it ran; it runs on the next
    /// `compare` with the same `--out`.
    NotRun,
    /// Its proposals could not be obtained (the model's API unreachable or failing): no
    /// evidence about the model, so it is left out of the statistics, reported with the reason,
    /// and runs again on the next `compare` with the same `--out`.
    Failed,
}

/// One job's result.
#[derive(Clone, Debug)]
pub struct JobOutcome {
    /// Which job.
    pub job: Job,
    /// Finished or not.
    pub status: JobStatus,
    /// Its run report, when finished.
    pub report: Option<RunReport>,
    /// Why it failed, when it did.
    pub reason: Option<String>,
    /// Read back from an earlier `compare` rather than run now.
    pub resumed: bool,
}

struct Context {
    comparison: Comparison,
    specs: Vec<PreparedSpec>,
    options: ExecuteOptions,
    limits: SharedLimits,
    running: Semaphore,
    /// Set when a job hit a refused key: no other job may then report as finished.
    stopped: AtomicBool,
}

/// Runs `jobs` (a subset of `comparison.jobs()`), `specs[i]` being
/// `comparison.specs[i]`; `on_done` sees each job as it ends. Outcomes come
/// back in job order. The first job stopped by a model error (a refused
/// key) ends the comparison with that error; jobs still running are
/// dropped unfinished, to be run by the next `compare` with the same `--out`.
pub async fn execute(
    comparison: &Comparison,
    specs: Vec<PreparedSpec>,
    jobs: &[Job],
    options: &ExecuteOptions,
    on_done: Arc<dyn Fn(&JobOutcome) + Send + Sync>,
) -> Result<Vec<JobOutcome>, CompareError> {
    let context = Arc::new(Context {
        comparison: comparison.clone(),
        specs,
        limits: SharedLimits::new(options.concurrency, options.max_usd),
        running: Semaphore::new(options.concurrency.max(1)),
        options: options.clone(),
        stopped: AtomicBool::new(false),
    });
    let mut tasks = JoinSet::new();
    for &job in jobs {
        let (context, on_done) = (Arc::clone(&context), Arc::clone(&on_done));
        tasks.spawn(async move {
            let outcome = run_job(&context, job).await;
            if let Ok(outcome) = &outcome {
                on_done(outcome);
            }
            outcome
        });
    }
    let mut outcomes = Vec::with_capacity(jobs.len());
    while let Some(joined) = tasks.join_next().await {
        match joined.expect("a comparison job panicked") {
            Ok(outcome) => outcomes.push(outcome),
            Err(error) => {
                // Stop the other jobs and wait until they have, so none of
                // them writes a report after the comparison has failed.
                context.stopped.store(true, Ordering::SeqCst);
                tasks.abort_all();
                while tasks.join_next().await.is_some() {}
                return Err(error);
            }
        }
    }
    outcomes.sort_by_key(|outcome| outcome.job);
    Ok(outcomes)
}

/// Reads a finished job's report; `None` when the job has not finished.
pub fn finished_report(dir: &Path) -> Result<Option<RunReport>, CompareError> {
    let path = dir.join("report.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(CompareError::usage(format!("cannot read `{}`: {error}", path.display()))),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|error| CompareError::usage(format!("`{}` is not a modlearn run report: {error}", path.display())))
}

async fn run_job(context: &Context, job: Job) -> Result<JobOutcome, CompareError> {
    let comparison = &context.comparison;
    let dir = context.options.out.join(comparison.job_dir(job));
    if let Some(report) = finished_report(&dir)? {
        return Ok(JobOutcome { job, status: JobStatus::Finished, report: Some(report), reason: None, resumed: true });
    }
    let _running = context.running.acquire().await.expect("the job pool is never closed");
    let not_run = JobOutcome { job, status: JobStatus::NotRun, report: None, reason: None, resumed: false };
    if context.limits.exhausted() {
        return Ok(not_run);
    }
    // An unfinished directory is from an interrupted compare: start it afresh
    // (answers already received come from the response cache).
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|error| WriteError { path: dir.clone(), source: error })?;
    }
    let loaded = &context.specs[job.spec].loaded;
    let model_name = &comparison.models[job.model];
    let model = ModelRef::parse(model_name).map_err(|error| CompareError::usage(format!("`--model {model_name}`: {error}")))?;
    let limits = context.limits.for_job();
    let proposing =
        proposing(context, &model, &limits, &dir).map_err(|error| CompareError::usage(format!("`--model {model_name}`: {error}")))?;
    let mut eval = context.options.eval.clone();
    if let Some(name) = &comparison.eval_model {
        eval.eval_model = Some(eval_model(context, name, &limits)?);
    }
    let settings = LearnSettings {
        candidates: comparison.candidates,
        rounds: comparison.rounds,
        // The shared pool limits requests; a job alone does not.
        concurrency: comparison.candidates,
        max_usd: None,
        max_tokens: comparison.max_tokens,
        temperature: comparison.temperature,
        eval,
        seed_offset: comparison.seed_offset(job),
        // Every candidate of a round is drawn whatever the timing: pass@k
        // needs a fixed n, and "first candidate" must be candidate 001.
        stop_at_perfect: false,
        ..LearnSettings::default()
    };
    let job_file = serde_json::json!({
        "kind": "modlearn_compare_job",
        "version": 1,
        "model": model_name,
        "spec": comparison.specs[job.spec],
        "repeat": job.repeat,
        "candidates": comparison.candidates,
        "rounds": comparison.rounds,
        "seedOffset": settings.seed_offset,
        "proposer": comparison.proposer.as_str(),
        "agentSteps": comparison.agent_steps,
        "evalModel": comparison.eval_model,
    });
    write_atomic(&dir.join("job.json"), format!("{}\n", serde_json::to_string_pretty(&job_file).expect("job serializes")))?;

    let scenarios = Arc::clone(&context.specs[job.spec].scenarios);
    let summary = SpecSummary {
        name: loaded.spec.name.clone(),
        slug: comparison.specs[job.spec].slug.clone(),
        path: comparison.specs[job.spec].path.clone(),
        scenarios: scenarios.len(),
        host: loaded.spec.dialect.host().to_owned(),
    };
    let learning = LearningJob { spec: loaded, scenarios, summary, model: &model, proposing, settings: &settings, dir: &dir };
    let learned = match run_learning_job(learning, &|_| {}).await {
        Ok(learned) => learned,
        Err(JobStop::Write(error)) => return Err(error.into()),
        Err(JobStop::KeyRefused { error, holder }) => {
            context.stopped.store(true, Ordering::SeqCst);
            let flag = match (&comparison.eval_model, holder) {
                (Some(eval_model), KeyHolder::EvalModel) => format!("--eval-model {eval_model}"),
                _ => format!("--model {model_name}"),
            };
            return Err(fatal(error, &flag, &context.options.out));
        }
        // Nothing interrupts a compare job on its own yet: it stays unfinished, as when a sibling stops.
        Err(JobStop::Interrupted { .. }) => return Ok(not_run),
    };
    // A sibling's refused key stops the comparison: this job's answers may be
    // cut short, so it stays unfinished and runs again next time.
    if limits.refused() || context.stopped.load(Ordering::SeqCst) {
        return Ok(not_run);
    }
    // A candidate whose proposal could not be obtained says nothing about the model: the job is
    // failed (no report.json, so the next compare with this `--out` runs it again), not ranked.
    if let Some((candidate, reason)) = learned.first_unanswered() {
        let reason = format!("candidate {:03}: {reason}", candidate.number);
        return Ok(JobOutcome { job, status: JobStatus::Failed, report: None, reason: Some(reason), resumed: false });
    }
    learned.write_report(&learned.report)?;
    Ok(JobOutcome { job, status: JobStatus::Finished, report: Some(learned.report), reason: None, resumed: false })
}

/// The job's proposer: the model's cached client behind the comparison's
/// limits; with `--proposer agent`, sessions over the job's directory.
fn proposing(context: &Context, model: &ModelRef, limits: &JobLimits, dir: &Path) -> Result<Proposing, ProposeError> {
    let endpoint = context.options.models.endpoint();
    Ok(match context.comparison.proposer {
        ProposerChoice::Completion => {
            let client: Arc<dyn Proposer> = Arc::new(Limited::new(endpoint.completion(model)?, limits));
            Proposing::Completion(client)
        }
        ProposerChoice::Agent => {
            let (chat, cache) = endpoint.tool_chat(model)?;
            let chat: Arc<dyn ToolChat> = Arc::new(Limited::new(chat, limits));
            let steps = context.comparison.agent_steps.unwrap_or_else(|| modlearn_propose::AgentLimits::default().max_steps);
            Proposing::Agent(agent_proposing(chat, cache, steps, dir.to_path_buf()))
        }
    })
}

/// The job's eval model, its turns behind the comparison's limits (so the
/// budget counts them) and its spending recorded in the job's candidates.
fn eval_model(context: &Context, name: &str, limits: &JobLimits) -> Result<Arc<EvalModel>, CompareError> {
    let flag_error = |error: String| CompareError::usage(format!("`--eval-model {name}`: {error}"));
    let model = ModelRef::parse(name).map_err(|error| flag_error(error.to_string()))?;
    let (chat, _) = context.options.models.eval_endpoint().tool_chat(&model).map_err(|error| flag_error(error.to_string()))?;
    let chat: Arc<dyn ToolChat> = Arc::new(Limited::new(chat, limits));
    Ok(Arc::new(EvalModel::new(chat, model, tokio::runtime::Handle::current())))
}

/// The error that stopped a job (the API refused the key): the comparison
/// stops, exit 2, nothing of that job counted.
fn fatal(error: ProposeError, flag: &str, out: &Path) -> CompareError {
    let resume = format!(
        "then rerun with the same `--out {}`: finished jobs are kept and answers already received are not asked for again",
        out.display()
    );
    match error {
        ProposeError::Auth { message, hint, .. } => {
            let hint = if flag.starts_with("--eval-model") { hint.replace("`--base-url`", "`--eval-base-url`") } else { hint };
            CompareError::usage(format!("`{flag}`: {message}")).hint(hint).hint(resume)
        }
        other => CompareError::usage(format!("`{flag}`: {other}")).hint(resume),
    }
}
