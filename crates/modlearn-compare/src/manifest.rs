//! `shard.json`: what one `compare` ran (every compare writes one; an
//! unsharded comparison is shard 1/1), and `merge`'s checks that shard
//! directories belong to one comparison and cover it exactly once.
//!
//! Merging refuses (a usage error) shards of different comparisons, shard
//! counts that differ, the same shard twice, and missing shards: a
//! leaderboard silently built from part of a comparison would rank models
//! on different evidence. Jobs a shard could not run (budget) are carried
//! over as not run, as in an unsharded comparison.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use modlearn_record::write_atomic;
use serde::{Deserialize, Serialize};

use crate::execute::finished_report;
use crate::{CompareError, Comparison, JobOutcome, JobStatus, Shard};

/// `shard.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardManifest {
    /// Always `modlearn_compare_shard`.
    pub kind: String,
    /// Format version.
    pub version: u32,
    /// The whole comparison this shard is part of.
    pub comparison: Comparison,
    /// Which slice.
    pub shard: Shard,
    /// This shard's jobs, in job order.
    pub jobs: Vec<ShardJob>,
}

/// One job of a shard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardJob {
    /// `PROVIDER:NAME`.
    pub model: String,
    /// Spec slug.
    pub spec: String,
    /// 1-based repeat.
    pub repeat: usize,
    /// Run directory, relative to the shard's directory.
    pub dir: String,
    /// Finished, not run or failed.
    pub status: JobStatus,
    /// Why it failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Writes `<out>/shard.json` for `outcomes` of `shard`.
pub fn write_shard_manifest(out: &Path, comparison: &Comparison, shard: Shard, outcomes: &[JobOutcome]) -> Result<(), CompareError> {
    let manifest = ShardManifest {
        kind: "modlearn_compare_shard".to_owned(),
        version: 1,
        comparison: comparison.clone(),
        shard,
        jobs: outcomes
            .iter()
            .map(|outcome| ShardJob {
                model: comparison.models[outcome.job.model].clone(),
                spec: comparison.specs[outcome.job.spec].slug.clone(),
                repeat: outcome.job.repeat,
                dir: comparison.job_dir(outcome.job),
                status: outcome.status,
                reason: outcome.reason.clone(),
            })
            .collect(),
    };
    let text = format!("{}\n", serde_json::to_string_pretty(&manifest).expect("manifest serializes"));
    Ok(write_atomic(&out.join("shard.json"), text)?)
}

fn read_manifest(dir: &Path) -> Result<ShardManifest, CompareError> {
    let path = dir.join("shard.json");
    let text = std::fs::read_to_string(&path).map_err(|error| {
        CompareError::usage(format!("`{}` is not a compare output: cannot read `{}`: {error}", dir.display(), path.display()))
            .hint("pass the `--out` directories of `modlearn compare --shard I/N` runs")
    })?;
    let manifest: ShardManifest = serde_json::from_str(&text)
        .map_err(|error| CompareError::usage(format!("`{}` is not a modlearn shard manifest: {error}", path.display())))?;
    if manifest.kind != "modlearn_compare_shard" {
        return Err(CompareError::usage(format!("`{}` is not a modlearn shard manifest (kind `{}`)", path.display(), manifest.kind)));
    }
    Ok(manifest)
}

/// Reads shard directories and checks they make one whole comparison;
/// returns it and every job's outcome (finished ones with their reports).
pub fn load_shards(dirs: &[PathBuf]) -> Result<(Comparison, Vec<JobOutcome>), CompareError> {
    let manifests: Vec<(PathBuf, ShardManifest)> =
        dirs.iter().map(|dir| read_manifest(dir).map(|manifest| (dir.clone(), manifest))).collect::<Result<_, _>>()?;
    let Some((first_dir, first)) = manifests.first() else {
        return Err(CompareError::usage("give at least one shard directory"));
    };
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    for (dir, manifest) in &manifests {
        if manifest.comparison != first.comparison {
            return Err(CompareError::usage(format!(
                "`{}` and `{}` are shards of different comparisons: {}",
                first_dir.display(),
                dir.display(),
                difference(&first.comparison, &manifest.comparison)
            ))
            .hint("merge only the outputs of one `modlearn compare` command run with different `--shard I/N`"));
        }
        if manifest.shard.count != first.shard.count {
            return Err(CompareError::usage(format!(
                "`{}` is shard {} but `{}` is shard {}: the shard counts differ",
                first_dir.display(),
                first.shard,
                dir.display(),
                manifest.shard
            )));
        }
        if let Some(other) = seen.insert(manifest.shard.index, dir) {
            return Err(CompareError::usage(format!(
                "`{}` and `{}` are both shard {}: the slices overlap",
                other.display(),
                dir.display(),
                manifest.shard
            ))
            .hint("pass each shard's directory once"));
        }
    }
    let count = first.shard.count;
    let missing: Vec<String> = (1..=count).filter(|index| !seen.contains_key(index)).map(|index| format!("{index}/{count}")).collect();
    if !missing.is_empty() {
        return Err(CompareError::usage(format!("shard(s) {} missing: the comparison is incomplete", missing.join(", ")))
            .hint("run `modlearn compare ... --shard I/N` for each missing slice and pass every shard's directory"));
    }
    let comparison = first.comparison.clone();
    let jobs = comparison.jobs();
    let mut outcomes = Vec::with_capacity(jobs.len());
    for (dir, manifest) in &manifests {
        let expected = comparison.shard_jobs(manifest.shard);
        let listed: Vec<&str> = manifest.jobs.iter().map(|job| job.dir.as_str()).collect();
        let expected_dirs: Vec<String> = expected.iter().map(|&job| comparison.job_dir(job)).collect();
        if listed != expected_dirs.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(CompareError::usage(format!(
                "`{}`: its jobs are not those of shard {} of this comparison",
                dir.join("shard.json").display(),
                manifest.shard
            )));
        }
        for (&job, listed) in expected.iter().zip(&manifest.jobs) {
            let report = match listed.status {
                JobStatus::Finished => Some(finished_report(&dir.join(&listed.dir))?.ok_or_else(|| {
                    CompareError::usage(format!("`{}` lists `{}` as finished but it has no report.json", dir.display(), listed.dir))
                })?),
                JobStatus::NotRun | JobStatus::Failed => None,
            };
            outcomes.push(JobOutcome { job, status: listed.status, report, reason: listed.reason.clone(), resumed: true });
        }
    }
    outcomes.sort_by_key(|outcome| outcome.job);
    Ok((comparison, outcomes))
}

/// The first setting two comparisons disagree on, in words.
fn difference(a: &Comparison, b: &Comparison) -> String {
    if a.models != b.models {
        return format!("models {:?} against {:?}", a.models, b.models);
    }
    let paths = |c: &Comparison| c.specs.iter().map(|s| s.path.clone()).collect::<Vec<_>>();
    if paths(a) != paths(b) {
        return format!("specs {:?} against {:?}", paths(a), paths(b));
    }
    if let Some((x, _)) = a.specs.iter().zip(&b.specs).find(|(x, y)| x.sha256 != y.sha256) {
        return format!("spec `{}` has different contents", x.path);
    }
    let settings = |c: &Comparison| {
        let mut text = format!(
            "--candidates {} --rounds {} --repeat {} --max-tokens {} --temperature {}",
            c.candidates, c.rounds, c.repeat, c.max_tokens, c.temperature
        );
        if c.proposer != crate::ProposerChoice::Completion {
            text.push_str(&format!(" --proposer {}", c.proposer.as_str()));
        }
        if let Some(steps) = c.agent_steps {
            text.push_str(&format!(" --agent-steps {steps}"));
        }
        if let Some(model) = &c.eval_model {
            text.push_str(&format!(" --eval-model {model}"));
        }
        text
    };
    format!("settings `{}` against `{}`", settings(a), settings(b))
}
