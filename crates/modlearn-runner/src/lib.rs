//! The runner: ties the stages together. For `modlearn eval` it evaluates
//! candidate files in parallel (rayon, one engine per candidate) and builds
//! the run report; it writes nothing (that is `modlearn-record`).
#![deny(missing_docs)]

mod evaluate;
mod report;

pub use evaluate::{CandidateEvaluation, EvalSettings, ScenarioArtifacts, evaluate_candidate, evaluate_candidates};
pub use report::{attempt_from, build_report};
