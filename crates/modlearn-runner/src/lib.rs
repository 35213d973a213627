//! The runner: ties the stages together. For `modlearn eval` it evaluates
//! candidate files in parallel (rayon, one engine per candidate); for
//! `modlearn run` it runs rounds of proposals (tokio) and evaluates each as
//! it arrives. It builds the run report and writes nothing (that is
//! `modlearn-record`).
#![deny(missing_docs)]

mod eval_model;
mod evaluate;
mod learn;
mod plan;
mod proposing;
mod report;
mod transcript;

pub use evaluate::{
    CandidateEvaluation, EvalSettings, ScenarioArtifacts, evaluate_candidate, evaluate_candidates, evaluate_source, evaluate_source_with,
    not_evaluated,
};
pub use eval_model::EvalModel;
pub use learn::{CandidatePathFn, CandidatePlace, LearnEvent, LearnOutcome, LearnSettings, LearnedCandidate, learn};
pub use proposing::{AgentProposing, Proposing};
pub use report::{attempt_from, build_report, report_from_attempts};
