//! The runner: ties the stages together. For `modlearn eval` it evaluates
//! candidate files in parallel (rayon, one engine per candidate); for
//! `modlearn run` it runs rounds of proposals (tokio) and evaluates each as
//! it arrives. It builds the run report; files are written by
//! `modlearn-record` (the runner hands it a learned candidate's artifacts).
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

pub use evaluate::{
    CandidateEvaluation, EvalSettings, ScenarioArtifacts, evaluate_candidate, evaluate_candidates, evaluate_source, evaluate_source_with,
    not_evaluated, runs_session,
};
pub use artifacts::{candidate_places, write_candidate};
pub use clients::{ModelEndpoint, agent_proposing, cache_scope};
pub use eval_model::EvalModel;
pub use learn::{
    CandidatePathFn, CandidatePlace, Interrupt, KeyHolder, LearnEvent, LearnOutcome, LearnSettings, LearnedCandidate, NO_ANSWERS, Stop, learn,
};
pub use job::{JobProgress, JobStop, LearnedJob, LearningJob, run_learning_job, target_file_name};
pub use proposing::{AgentProposing, Proposing};
pub use report::{attempt_from, build_report, report_from_attempts};
