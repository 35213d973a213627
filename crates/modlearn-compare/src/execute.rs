//! Runs a comparison's jobs: each one is a `modlearn run` (the runner's
//! [`learn`] loop) in its own run directory, all of them within one pool of
//! request permits and one budget. A job whose directory already holds a
//! `report.json` is finished and is read back instead, which is what makes
//! a rerun with the same `--out` resume.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use modlearn_propose::{ModelRef, Proposer};
use modlearn_record::{RunLayout, RunWriter, WriteError, write_atomic};
use modlearn_runner::{CandidatePlace, EvalSettings, LearnEvent, LearnSettings, learn, report_from_attempts};
use modlearn_spec::{LoadedSpec, ResolvedScenario};
use modlearn_types::{RunReport, SpecSummary};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use crate::budget::{LimitedProposer, SharedLimits};
use crate::{CompareError, Comparison, Job};

/// How to run (none of this is part of the comparison's identity).
#[derive(Clone, Debug)]
pub struct ExecuteOptions {
    /// The comparison's output directory; jobs go under `runs/`.
    pub out: PathBuf,
    /// Model requests in flight at most, and jobs running at once at most.
    pub concurrency: usize,
    /// Stop asking for proposals once this many US dollars are spent, all jobs together.
    pub max_usd: Option<f64>,
    /// Evaluation limits.
    pub eval: EvalSettings,
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
    /// Read back from an earlier `compare` rather than run now.
    pub resumed: bool,
}

struct Context {
    comparison: Comparison,
    specs: Vec<PreparedSpec>,
    proposers: Vec<Arc<dyn Proposer>>,
    options: ExecuteOptions,
    limits: SharedLimits,
    running: Semaphore,
}

/// Runs `jobs` (a subset of `comparison.jobs()`), `proposers[i]` answering
/// for `comparison.models[i]` and `specs[i]` being `comparison.specs[i]`;
/// `on_done` sees each job as it ends. Outcomes come back in job order.
pub async fn execute(
    comparison: &Comparison,
    specs: Vec<PreparedSpec>,
    jobs: &[Job],
    proposers: Vec<Arc<dyn Proposer>>,
    options: &ExecuteOptions,
    on_done: Arc<dyn Fn(&JobOutcome) + Send + Sync>,
) -> Result<Vec<JobOutcome>, CompareError> {
    let context = Arc::new(Context {
        comparison: comparison.clone(),
        specs,
        proposers,
        limits: SharedLimits::new(options.concurrency, options.max_usd),
        running: Semaphore::new(options.concurrency.max(1)),
        options: options.clone(),
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
        outcomes.push(joined.expect("a comparison job panicked")?);
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
        return Ok(JobOutcome { job, status: JobStatus::Finished, report: Some(report), resumed: true });
    }
    let _running = context.running.acquire().await.expect("the job pool is never closed");
    let not_run = JobOutcome { job, status: JobStatus::NotRun, report: None, resumed: false };
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
    let proposer = Arc::new(LimitedProposer::new(Arc::clone(&context.proposers[job.model]), context.limits.clone()));
    let settings = LearnSettings {
        candidates: comparison.candidates,
        rounds: comparison.rounds,
        // The shared pool limits requests; a job alone does not.
        concurrency: comparison.candidates,
        max_usd: None,
        max_tokens: comparison.max_tokens,
        temperature: comparison.temperature,
        eval: context.options.eval.clone(),
        seed_offset: comparison.seed_offset(job),
        ..LearnSettings::default()
    };
    let layout = RunLayout::new(&dir, (comparison.candidates * comparison.rounds as usize).max(2));
    let writer = RunWriter::new(layout.clone(), loaded.raw.clone(), loaded.spec.name.clone());
    let job_file = serde_json::json!({
        "kind": "modlearn_compare_job",
        "version": 1,
        "model": model_name,
        "spec": comparison.specs[job.spec],
        "repeat": job.repeat,
        "candidates": comparison.candidates,
        "rounds": comparison.rounds,
        "seedOffset": settings.seed_offset,
    });
    write_atomic(&dir.join("job.json"), format!("{}\n", serde_json::to_string_pretty(&job_file).expect("job serializes")))?;

    let scenarios = Arc::clone(&context.specs[job.spec].scenarios);
    let spec_summary = SpecSummary {
        name: loaded.spec.name.clone(),
        slug: comparison.specs[job.spec].slug.clone(),
        path: comparison.specs[job.spec].path.clone(),
        scenarios: scenarios.len(),
    };
    let target = loaded.spec.target_mod_name.clone().unwrap_or_else(|| format!("{}.ts", spec_summary.slug));
    let root = dir.clone();
    let candidate_path = move |number: usize| {
        let artifacts_dir = layout.candidate_relative(number - 1);
        let file = format!("{artifacts_dir}/mods/{target}");
        let absolute = std::path::absolute(root.join(&file)).unwrap_or_else(|_| root.join(&file));
        CandidatePlace { file, artifacts_dir, absolute }
    };
    let write_errors: Mutex<Vec<WriteError>> = Mutex::new(Vec::new());
    let keep = |result: Result<(), WriteError>| {
        if let Err(error) = result {
            write_errors.lock().unwrap_or_else(|poison| poison.into_inner()).push(error);
        }
    };
    let on_event = |event: LearnEvent<'_>| match event {
        LearnEvent::RoundStarted { .. } => {}
        LearnEvent::CandidateDone(candidate) => keep(crate::artifacts::write_candidate(&writer, candidate)),
        LearnEvent::RoundDone { attempts, .. } => {
            let report = report_from_attempts(spec_summary.clone(), attempts.to_vec(), None, None);
            keep(writer.write_progress(&report));
        }
    };
    let proposer_dyn: Arc<dyn Proposer> = proposer.clone();
    let outcome = learn(&loaded.spec, scenarios, &model, proposer_dyn, &settings, &candidate_path, &on_event).await;
    if let Some(error) = write_errors.into_inner().unwrap_or_else(|poison| poison.into_inner()).into_iter().next() {
        return Err(error.into());
    }
    if let Some(error) = outcome.fatal {
        return Err(CompareError::usage(format!("`--model {model_name}`: {error}"))
            .hint(format!("fix the model's configuration and rerun with the same `--out`; `{}` is resumed", context.options.out.display())));
    }
    if proposer.refused() {
        return Ok(not_run);
    }
    let attempts = outcome.candidates.iter().map(|candidate| candidate.attempt.clone()).collect();
    let mut report = report_from_attempts(spec_summary, attempts, outcome.selected, None);
    report.learning = Some(outcome.learning);
    writer.write_run(&report)?;
    Ok(JobOutcome { job, status: JobStatus::Finished, report: Some(report), resumed: false })
}
