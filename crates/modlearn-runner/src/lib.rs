//! The runner: ties the stages together. For `modlearn eval` it evaluates
//! candidate files in parallel (rayon, one engine per candidate); for
//! `modlearn run` it runs rounds of proposals (tokio) and evaluates each as
//! it arrives. It builds the run report and writes nothing (that is
//! `modlearn-record`).
#![deny(missing_docs)]

mod evaluate;
mod learn;
mod report;

pub use evaluate::{
    CandidateEvaluation, EvalSettings, ScenarioArtifacts, evaluate_candidate, evaluate_candidates, evaluate_source, not_evaluated,
};
pub use learn::{CandidatePathFn, CandidatePlace, LearnEvent, LearnOutcome, LearnSettings, LearnedCandidate, learn};
pub use report::{attempt_from, build_report, report_from_attempts};
