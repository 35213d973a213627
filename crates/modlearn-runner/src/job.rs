//! One owner for "run a job into a directory": a learning job for `modlearn run` and every
//! `modlearn compare` job, an evaluation of given files for `modlearn eval`. Here are the
//! directory's layout and writer, each candidate's artifacts written as it is judged, the
//! history and guide after each round, and the typed [`Stop`] that ended it. A refused key and
//! an interrupt come back as a [`JobStop`] for the caller to render; they leave only whole
//! candidates behind. The run report is assembled here and written by
//! [`FinishedJob::write_report`] once the caller has added what is its own (a promotion).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use modlearn_propose::{ModelRef, ProposeError};
use modlearn_record::{RunLayout, RunWriter, WriteError, copy_atomic};
use modlearn_spec::{LoadedSpec, ResolvedScenario, spec_slug};
use modlearn_types::{Attempt, RunReport, SpecSummary};

use crate::artifacts::write_evaluation;
use crate::{
    CandidateEvaluation, EvalSettings, KeyHolder, LearnEvent, LearnSettings, LearnedCandidate, Proposing, Stop, attempt_from, build_report,
    candidate_places, evaluate_candidates, learn, report_from_attempts, write_candidate,
};

/// What to learn, into which directory.
pub struct LearningJob<'a> {
    /// The spec as loaded (its raw text goes into `env.snapshot.json`).
    pub spec: &'a LoadedSpec,
    /// Its scenarios, environments attached.
    pub scenarios: Arc<Vec<ResolvedScenario>>,
    /// How the report names the spec.
    pub summary: SpecSummary,
    /// The proposing model.
    pub model: &'a ModelRef,
    /// How candidates are proposed.
    pub proposing: Proposing,
    /// Rounds, candidates, limits.
    pub settings: &'a LearnSettings,
    /// The run directory.
    pub dir: &'a Path,
}

/// What the caller is told as the job goes (for progress; the files are this module's).
#[derive(Debug)]
pub enum JobProgress<'a> {
    /// A round begins.
    RoundStarted {
        /// 1-based round.
        round: u32,
    },
    /// A candidate was proposed, judged and written.
    CandidateDone(&'a LearnedCandidate),
    /// A round finished and the history was written.
    RoundDone {
        /// 1-based round.
        round: u32,
        /// Every candidate so far, this round's included.
        attempts: &'a [Attempt],
    },
}

/// Why a job ended without a report to write.
#[derive(Debug)]
pub enum JobStop {
    /// The API refused a key.
    KeyRefused {
        /// What the server said, with the hint of what to fix.
        error: ProposeError,
        /// Whose key.
        holder: KeyHolder,
    },
    /// The job was interrupted.
    Interrupted {
        /// Candidates finished (and written) before it.
        finished: usize,
    },
    /// A file could not be written.
    Write(WriteError),
}

/// A job that ran to a report.
pub struct FinishedJob<C> {
    /// Writes the run-level files.
    pub writer: RunWriter,
    /// Every candidate, in number order.
    pub candidates: Vec<C>,
    /// Index (into `candidates`) of the selected one.
    pub selected: Option<usize>,
    /// The run report, not yet written.
    pub report: RunReport,
}

/// A learning job that ran to a report.
pub type LearnedJob = FinishedJob<LearnedCandidate>;

/// An evaluation of files that ran to a report.
pub type EvaluatedJob = FinishedJob<CandidateEvaluation>;

impl LearnedJob {
    /// The first candidate whose proposal could not be obtained, with the reason.
    pub fn first_unanswered(&self) -> Option<(&LearnedCandidate, &str)> {
        self.candidates.iter().find_map(|candidate| candidate.unanswered.as_deref().map(|reason| (candidate, reason)))
    }
}

/// A judged candidate's file.
pub trait JudgedFile {
    /// Where the judged file is.
    fn file(&self) -> &Path;
}

impl JudgedFile for LearnedCandidate {
    fn file(&self) -> &Path {
        &self.evaluation.path
    }
}

impl JudgedFile for CandidateEvaluation {
    fn file(&self) -> &Path {
        &self.path
    }
}

impl<C: JudgedFile> FinishedJob<C> {
    /// `--promote`: copies the selected candidate to `target` when the run passed, and says so
    /// in `report`.
    pub fn promote(&self, report: &mut RunReport, target: Option<&Path>) -> Result<(), WriteError> {
        let (Some(target), Some(index), true) = (target, self.selected, report.passed) else {
            return Ok(());
        };
        copy_atomic(self.candidates[index].file(), target)?;
        report.promoted_to = Some(target.display().to_string());
        Ok(())
    }

    /// Writes `report.json`, `report.md`, `report.html`, history and guide: the run is finished.
    pub fn write_report(&self, report: &RunReport) -> Result<(), WriteError> {
        self.writer.write_run(report)
    }
}

/// The candidate's file name: the spec's `targetModName` (validated as a plain file name) or
/// `<slug>.ts`, as Letta names it.
pub fn target_file_name(spec: &LoadedSpec) -> String {
    spec.spec.target_mod_name.clone().unwrap_or_else(|| format!("{}.ts", spec_slug(&spec.spec)))
}

/// Runs `job`: learns, writing every candidate as it is judged and the history after each round.
pub async fn run_learning_job(job: LearningJob<'_>, on_progress: &(dyn Fn(JobProgress<'_>) + Send + Sync)) -> Result<LearnedJob, JobStop> {
    let settings = job.settings;
    let planned = settings.candidates * settings.rounds as usize;
    let layout = RunLayout::new(job.dir, planned.max(2));
    let writer = RunWriter::new(layout.clone(), job.spec.raw.clone(), job.spec.spec.name.clone());
    let candidate_path = candidate_places(layout, target_file_name(job.spec));
    let write_error = FirstWriteError::default();
    let keep = |result| write_error.keep(result);
    let on_event = |event: LearnEvent<'_>| match event {
        LearnEvent::RoundStarted { round } => on_progress(JobProgress::RoundStarted { round }),
        LearnEvent::CandidateDone(candidate) => {
            keep(write_candidate(&writer, candidate));
            on_progress(JobProgress::CandidateDone(candidate));
        }
        LearnEvent::RoundDone { round, attempts } => {
            let report = report_from_attempts(job.summary.clone(), attempts.to_vec(), None, None);
            keep(writer.write_progress(&report));
            on_progress(JobProgress::RoundDone { round, attempts });
        }
    };
    let outcome = learn(&job.spec.spec, job.scenarios, job.model, job.proposing, settings, &candidate_path, &on_event).await;
    if let Some(error) = write_error.take() {
        return Err(JobStop::Write(error));
    }
    match outcome.stop {
        Stop::KeyRefused { error, holder } => return Err(JobStop::KeyRefused { error, holder }),
        Stop::Interrupted => return Err(JobStop::Interrupted { finished: outcome.candidates.len() }),
        _ => {}
    }
    let attempts = outcome.candidates.iter().map(|candidate| candidate.attempt.clone()).collect();
    let mut report = report_from_attempts(job.summary, attempts, outcome.selected, None);
    report.learning = Some(outcome.learning);
    Ok(LearnedJob { writer, candidates: outcome.candidates, selected: outcome.selected, report })
}

/// Candidate files to judge, into which directory.
pub struct EvaluationJob<'a> {
    /// The spec as loaded (its raw text goes into `env.snapshot.json`).
    pub spec: &'a LoadedSpec,
    /// Its scenarios, environments attached.
    pub scenarios: &'a [ResolvedScenario],
    /// How the report names the spec.
    pub summary: SpecSummary,
    /// The files, judged in this order.
    pub candidates: &'a [PathBuf],
    /// Engine limits and the eval model.
    pub settings: &'a EvalSettings,
    /// The run directory.
    pub dir: &'a Path,
}

/// Runs `job`: judges the files in parallel, writing each candidate's artifacts as it is judged
/// (none once the eval model's key is refused: those verdicts are incomplete).
pub fn run_evaluation_job(job: EvaluationJob<'_>, on_done: &(dyn Fn(&CandidateEvaluation) + Sync)) -> Result<EvaluatedJob, JobStop> {
    let layout = RunLayout::new(job.dir, job.candidates.len());
    let writer = RunWriter::new(layout.clone(), job.spec.raw.clone(), job.spec.spec.name.clone());
    let halted = || job.settings.eval_model.as_ref().is_some_and(|model| model.halted());
    let write_error = FirstWriteError::default();
    let on_judged = |evaluation: &CandidateEvaluation| {
        if !halted() {
            let attempt = attempt_from(evaluation, layout.candidate_relative(evaluation.index));
            write_error.keep(write_evaluation(&writer, &attempt, evaluation, Vec::new()));
        }
        on_done(evaluation);
    };
    let evaluations = evaluate_candidates(job.scenarios, job.candidates, job.settings, &on_judged);
    if let Some(error) = job.settings.eval_model.as_ref().and_then(|model| model.take_fatal()) {
        return Err(JobStop::KeyRefused { error, holder: KeyHolder::EvalModel });
    }
    if let Some(error) = write_error.take() {
        return Err(JobStop::Write(error));
    }
    let report = build_report(job.summary, &evaluations, &|index| layout.candidate_relative(index), None);
    let selected = report.selected.as_ref().map(|selected| selected.candidate_index - 1);
    Ok(EvaluatedJob { writer, candidates: evaluations, selected, report })
}

/// The first file a job could not write, from whichever thread wrote it: the job goes on
/// judging (the candidates in flight finish) and stops with it afterwards.
#[derive(Default)]
struct FirstWriteError(Mutex<Option<WriteError>>);

impl FirstWriteError {
    fn keep(&self, result: Result<(), WriteError>) {
        if let Err(error) = result {
            self.0.lock().unwrap_or_else(|poison| poison.into_inner()).get_or_insert(error);
        }
    }

    fn take(self) -> Option<WriteError> {
        self.0.into_inner().unwrap_or_else(|poison| poison.into_inner())
    }
}
