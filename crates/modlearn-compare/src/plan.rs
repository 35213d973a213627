//! What a comparison is: its specs, models and settings (the identity that
//! shards must share), its job list in a stable order, and how that list is
//! sliced into shards.

use modlearn_spec::{LoadedSpec, slugify, spec_slug};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::CompareError;

/// Seeds of repeat `r` start at `(r - 1) * SEED_STRIDE`, far above any
/// candidate number, so no two jobs of a comparison share a seed.
pub const SEED_STRIDE: u64 = 1_000_000;

/// A comparison's identity: everything that decides its results. Shards
/// merge only when theirs are equal. Base URL, budget and concurrency are
/// left out: they change how fast and where, not what is compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// The specs, in the order given.
    pub specs: Vec<SpecEntry>,
    /// The models (`PROVIDER:NAME`), in the order given.
    pub models: Vec<String>,
    /// Proposals per round.
    pub candidates: usize,
    /// Rounds at most.
    pub rounds: u32,
    /// Runs per (model, spec).
    pub repeat: usize,
    /// Output token cap per proposal.
    pub max_tokens: u32,
    /// Sampling temperature.
    pub temperature: f32,
    /// How each candidate is asked for (absent in comparisons from before
    /// `--proposer`: completion).
    #[serde(default)]
    pub proposer: ProposerChoice,
    /// Steps per agent session (`--proposer agent` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_steps: Option<u32>,
    /// The agent of prompt scenarios (`--eval-model`); without it their
    /// markers fail as not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval_model: Option<String>,
}

/// How a comparison's candidates are asked for, as `modlearn run --proposer`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProposerChoice {
    /// One completion per candidate.
    #[default]
    Completion,
    /// A tool-calling session over the job's run directory per candidate.
    Agent,
}

impl ProposerChoice {
    /// The flag value (`completion`, `agent`).
    pub fn as_str(self) -> &'static str {
        match self {
            ProposerChoice::Completion => "completion",
            ProposerChoice::Agent => "agent",
        }
    }
}

/// One spec of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecEntry {
    /// The spec file as given.
    pub path: String,
    /// The spec's name.
    pub name: String,
    /// Its slug (run directory names).
    pub slug: String,
    /// SHA-256 of the parsed spec, so an edited spec is a different comparison.
    pub sha256: String,
}

impl SpecEntry {
    /// Describes a loaded spec.
    pub fn new(loaded: &LoadedSpec) -> SpecEntry {
        let canonical = serde_json::to_string(&loaded.raw).expect("a JSON value serializes");
        let digest = Sha256::digest(canonical.as_bytes());
        SpecEntry {
            path: loaded.path.display().to_string(),
            name: loaded.spec.name.clone(),
            slug: spec_slug(&loaded.spec),
            sha256: digest.iter().map(|byte| format!("{byte:02x}")).collect(),
        }
    }
}

/// One run of the comparison: a model, a spec and a repeat (indices into
/// [`Comparison`]; `repeat` is 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Job {
    /// Index into `models`.
    pub model: usize,
    /// Index into `specs`.
    pub spec: usize,
    /// 1-based repeat.
    pub repeat: usize,
}

/// Shard `index` of `count` (1-based), from `--shard I/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based shard number.
    pub index: usize,
    /// Shards in all.
    pub count: usize,
}

impl Shard {
    /// The whole comparison as one shard.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `I/N` with `1 <= I <= N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let malformed = || "not of the form I/N (e.g. 2/4)".to_owned();
        let (index, count) = text.split_once('/').ok_or_else(malformed)?;
        let parse = |part: &str| part.trim().parse::<usize>().map_err(|_| malformed());
        let (index, count) = (parse(index)?, parse(count)?);
        if count == 0 || index == 0 || index > count {
            return Err("the shard number must be between 1 and the shard count".to_owned());
        }
        Ok(Shard { index, count })
    }

    /// Whether job number `position` (0-based, in [`Comparison::jobs`] order)
    /// belongs to this shard. Round-robin, so every shard gets a similar mix
    /// of models and specs.
    pub fn holds(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Comparison {
    /// Checks the settings: at least one spec and model, no duplicates
    /// (their run directories would collide), at least one repeat.
    pub fn check(&self) -> Result<(), CompareError> {
        if self.models.is_empty() {
            return Err(CompareError::usage("give at least one `--model PROVIDER:NAME`")
                .hint("for example `--model openai:gpt-4.1-mini --model anthropic:claude-sonnet-4-5`"));
        }
        if self.repeat == 0 || self.candidates == 0 || self.rounds == 0 {
            return Err(CompareError::usage("`--candidates`, `--rounds` and `--repeat` must be at least 1"));
        }
        for (i, model) in self.models.iter().enumerate() {
            if let Some(other) = self.models[..i].iter().find(|m| slugify(m) == slugify(model)) {
                let message = if other == model {
                    format!("`--model {model}` is given twice")
                } else {
                    format!("`--model {other}` and `--model {model}` would share the run directory `runs/{}`", slugify(model))
                };
                return Err(CompareError::usage(message).hint("give each model once"));
            }
        }
        for (i, spec) in self.specs.iter().enumerate() {
            if let Some(other) = self.specs[..i].iter().find(|s| s.slug == spec.slug) {
                return Err(CompareError::usage(format!("specs `{}` and `{}` have the same slug `{}`", other.path, spec.path, spec.slug))
                    .hint("give each spec once, or set a distinct `slug` in one of them"));
            }
        }
        Ok(())
    }

    /// Every job, ordered by model, then spec, then repeat: the order shards
    /// are cut from and results are listed in.
    pub fn jobs(&self) -> Vec<Job> {
        let mut jobs = Vec::with_capacity(self.models.len() * self.specs.len() * self.repeat);
        for model in 0..self.models.len() {
            for spec in 0..self.specs.len() {
                for repeat in 1..=self.repeat {
                    jobs.push(Job { model, spec, repeat });
                }
            }
        }
        jobs
    }

    /// The jobs of one shard, in job order.
    pub fn shard_jobs(&self, shard: Shard) -> Vec<Job> {
        self.jobs().into_iter().enumerate().filter(|(position, _)| shard.holds(*position)).map(|(_, job)| job).collect()
    }

    /// A job's run directory, relative to the comparison's output:
    /// `runs/<model-slug>/<spec-slug>/r<k>`.
    pub fn job_dir(&self, job: Job) -> String {
        format!("runs/{}/{}/r{}", slugify(&self.models[job.model]), self.specs[job.spec].slug, job.repeat)
    }

    /// The sampling-seed offset of a job's candidates.
    pub fn seed_offset(&self, job: Job) -> u64 {
        (job.repeat as u64 - 1) * SEED_STRIDE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn comparison(models: &[&str], specs: &[&str], repeat: usize) -> Comparison {
        Comparison {
            specs: specs
                .iter()
                .map(|slug| SpecEntry {
                    path: format!("specs/{slug}.json"),
                    name: slug.to_string(),
                    slug: slug.to_string(),
                    sha256: String::new(),
                })
                .collect(),
            models: models.iter().map(|m| m.to_string()).collect(),
            candidates: 2,
            rounds: 1,
            repeat,
            max_tokens: 4096,
            temperature: 0.7,
            proposer: ProposerChoice::Completion,
            agent_steps: None,
            eval_model: None,
        }
    }

    #[test]
    fn jobs_are_ordered_by_model_spec_repeat() {
        let c = comparison(&["openai:a", "openai:b"], &["x", "y"], 2);
        let jobs = c.jobs();
        assert_eq!(jobs.len(), 8);
        assert_eq!(jobs[0], Job { model: 0, spec: 0, repeat: 1 });
        assert_eq!(jobs[1], Job { model: 0, spec: 0, repeat: 2 });
        assert_eq!(jobs[2], Job { model: 0, spec: 1, repeat: 1 });
        assert_eq!(jobs[4], Job { model: 1, spec: 0, repeat: 1 });
        assert_eq!(c.job_dir(jobs[3]), "runs/openai-a/y/r2");
    }

    #[test]
    fn shards_partition_the_jobs() {
        let c = comparison(&["openai:a", "openai:b", "openai:c"], &["x", "y"], 3);
        let mut all: Vec<Job> = (1..=4).flat_map(|i| c.shard_jobs(Shard { index: i, count: 4 })).collect();
        all.sort();
        let mut expected = c.jobs();
        expected.sort();
        assert_eq!(all, expected);
        assert_eq!(c.shard_jobs(Shard::WHOLE), c.jobs());
    }

    #[test]
    fn shard_parsing() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert!(Shard::parse("0/4").is_err());
        assert!(Shard::parse("5/4").is_err());
        assert!(Shard::parse("1").is_err());
        assert!(Shard::parse("a/b").is_err());
    }

    #[test]
    fn duplicates_are_refused() {
        assert!(comparison(&["openai:a", "openai:a"], &["x"], 1).check().is_err());
        assert!(comparison(&["openai:a"], &["x", "x"], 1).check().is_err());
        assert!(comparison(&[], &["x"], 1).check().is_err());
        assert!(comparison(&["openai:a", "openai:b"], &["x"], 1).check().is_ok());
    }

    #[test]
    fn repeats_get_distinct_seeds() {
        let c = comparison(&["openai:a"], &["x"], 3);
        assert_eq!(c.seed_offset(Job { model: 0, spec: 0, repeat: 1 }), 0);
        assert_eq!(c.seed_offset(Job { model: 0, spec: 0, repeat: 3 }), 2 * SEED_STRIDE);
    }
}
