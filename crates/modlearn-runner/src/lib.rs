//! The runner: ties the stages together. For `modlearn eval` it evaluates
//! candidate files in parallel (rayon, one engine per candidate); for
//! `modlearn run` it runs rounds of proposals (tokio) and evaluates each as
//! it arrives. Either way one job (job.rs) owns the run directory, builds
//! the run report and ends with a typed stop; files are written by
//! `modlearn-record`.
#![deny(missing_docs)]

mod artifacts;
mod clients;
mod eval_model;
mod evaluate;
mod job;
mod learn;
mod plan;
mod proposing;
mod report;
mod transcript;

pub use artifacts::{candidate_places, write_candidate};
pub use clients::{ModelEndpoint, agent_proposing, cache_scope};
pub use eval_model::EvalModel;
pub use evaluate::{
    CandidateEvaluation, EvalSettings, ScenarioArtifacts, evaluate_candidate, evaluate_candidates, evaluate_source, evaluate_source_with,
    not_evaluated, runs_session,
};
pub use job::{
    EvaluatedJob, EvaluationJob, FinishedJob, JobProgress, JobStop, JudgedFile, LearnedJob, LearningJob, run_evaluation_job,
    run_learning_job, target_file_name,
};
pub use learn::{
    CandidatePathFn, CandidatePlace, Interrupt, KeyHolder, LearnEvent, LearnOutcome, LearnSettings, LearnedCandidate, NO_ANSWERS, Stop,
    learn,
};
pub use proposing::{AgentProposing, Proposing};
pub use report::{attempt_from, build_report, report_from_attempts};
