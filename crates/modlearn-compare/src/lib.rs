//! `modlearn compare` and `modlearn merge`: run every (model, spec, repeat)
//! job the way `modlearn run` does, within one concurrency limit and one
//! budget, then rank the models.
//!
//! - [`plan`]: the comparison's identity, its job list and shards.
//! - [`execute`]: runs jobs (resumable: finished ones are read back).
//! - [`manifest`]: `shard.json`, and merging shard directories.
//! - [`leaderboard`]: the numbers, from stored run reports only, so a
//!   merged comparison equals an unsharded one.
//! - [`stats`]: pass@k, McNemar's exact test, the paired bootstrap.
//! - [`render`]: `leaderboard.md`, `.html` and `.junit.xml`.
#![deny(missing_docs)]

mod budget;
mod error;
pub mod execute;
pub mod leaderboard;
pub mod manifest;
pub mod plan;
pub mod render;
pub mod stats;

pub use error::CompareError;
pub use execute::{ExecuteOptions, JobOutcome, JobStatus, ModelAccess, PreparedSpec, execute};
pub use leaderboard::{Leaderboard, build_leaderboard};
pub use manifest::{ShardManifest, load_shards, write_shard_manifest};
pub use plan::{Comparison, Job, ProposerChoice, Shard, SpecEntry};
pub use render::write_leaderboard;
