//! The record stage: everything modlearn writes about a run, in Letta Code's
//! run-directory layout and JSON field names, so tools that read Letta's
//! runs read modlearn's. Every file is written atomically (a temporary file
//! in the same directory, then a rename), so a killed run never leaves a
//! half-written artifact.
//!
//! Renderers are pure functions from report data to text; only [`RunWriter`]
//! touches the filesystem.
#![deny(missing_docs)]

mod atomic;
mod claim;
mod guide;
mod history;
pub mod html;
pub mod junit;
mod layout;
mod markdown;
mod report_html;
mod stored;
mod writer;

pub use atomic::{WriteError, copy_atomic, write_atomic};
pub use claim::{ClaimError, Continuing, LOCK_FILE, RunDirClaim, claim_run_dir};
pub use guide::render_proposer_guide;
pub use history::{history_json, render_history};
pub use layout::RunLayout;
pub use markdown::{render_candidate_report, render_run_report};
pub use report_html::render_run_html;
pub use stored::{StoredRunError, read_run_report, report_from_history, rerender_reports, rewrite_guide};
pub use writer::{CandidateArtifacts, RunWriter, SessionFiles};
