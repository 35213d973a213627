//! What a run is set up with: the flags checked, stored as `run.json`, and
//! read back (flags given again replacing stored values) for `--resume`. The
//! one owner of both, so a resumed run is checked as a new one is.

use std::path::{Path, PathBuf};

use modlearn_record::{WriteError, write_atomic};
use modlearn_spec::{LoadedSpec, spec_slug};
use serde::{Deserialize, Serialize};

use crate::cli::{ProposerKind, RunArgs};
use crate::exit::CliError;

/// The model used when none is configured: small enough to ship, too small to be good.
const DEFAULT_MODEL: &str = "local:smollm2-135m";

/// Everything needed to run (or resume) a run, stored as `run.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct RunState {
    pub(super) kind: String,
    pub(super) version: u32,
    pub(super) spec_path: String,
    pub(super) model: String,
    pub(super) base_url: Option<String>,
    pub(super) candidates: usize,
    pub(super) rounds: u32,
    pub(super) concurrency: usize,
    pub(super) max_usd: Option<f64>,
    pub(super) promote: Option<PathBuf>,
    pub(super) cache_dir: PathBuf,
    pub(super) prices: Option<PathBuf>,
    pub(super) max_tokens: u32,
    pub(super) temperature: f32,
    pub(super) handler_timeout_ms: u64,
    pub(super) memory_limit_mib: u64,
    pub(super) jobs: Option<u64>,
    /// Absent in runs from before `--proposer` existed.
    #[serde(default = "completion")]
    pub(super) proposer: ProposerKind,
    #[serde(default = "default_agent_steps")]
    pub(super) agent_steps: u32,
    /// The agent of prompt scenarios (`--eval-model`), and its API's base when not `base_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) eval_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) eval_base_url: Option<String>,
    /// `--seed`: which set of samples (0, the default, is left out of the file).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(super) seed: u64,
    /// `--request-timeout`, in milliseconds; absent: the provider's own (120 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) request_timeout_ms: Option<u64>,
}

fn is_zero(seed: &u64) -> bool {
    *seed == 0
}

fn completion() -> ProposerKind {
    ProposerKind::Completion
}

fn default_agent_steps() -> u32 {
    modlearn_propose::AgentLimits::default().max_steps
}

impl RunState {
    /// Writes `run.json`: called once every setting is checked, before any other file.
    pub(super) fn write(&self, run_dir: &Path) -> Result<(), WriteError> {
        write_atomic(&run_dir.join("run.json"), format!("{}\n", serde_json::to_string_pretty(self).expect("state serializes")))
    }
}

/// A new run's settings from the flags, its directory, and its spec.
pub(super) fn new_state(args: &RunArgs) -> Result<(RunState, PathBuf, LoadedSpec), CliError> {
    let spec_path = args.spec.clone().expect("clap requires SPEC without --resume");
    let loaded = super::super::load_spec(&spec_path)?;
    let Some(candidates) = args.candidates else {
        return Err(CliError::usage("`--candidates N` is required for a new run").hint("for example `--candidates 8`"));
    };
    let run_dir = match args.run_dir.clone() {
        Some(dir) => dir,
        None => super::super::default_run_dir(&spec_slug(&loaded.spec))?,
    };
    if run_dir.join("run.json").exists() {
        return Err(CliError::usage(format!("run directory `{}` already holds a run", run_dir.display()))
            .hint(format!("continue it with `modlearn run --resume {}`, or pass another `--run-dir`", run_dir.display())));
    }
    let model = args
        .model
        .clone()
        .or_else(|| std::env::var("MODLEARN_MODEL").ok().filter(|m| !m.trim().is_empty()))
        .unwrap_or_else(|| DEFAULT_MODEL.to_owned());
    let local = model.starts_with("local:");
    let state = RunState {
        kind: "modlearn_run_state".to_owned(),
        version: 1,
        spec_path: spec_path.display().to_string(),
        model,
        base_url: args.base_url.clone(),
        candidates: candidates as usize,
        rounds: args.rounds.unwrap_or(1),
        concurrency: args.concurrency.map_or(candidates as usize, |c| c as usize),
        max_usd: args.max_usd,
        promote: args.promote.clone(),
        cache_dir: cache_dir(args, &run_dir),
        prices: args.prices.clone(),
        // A small local model rambles to the cap; a lower one keeps a demo run short.
        max_tokens: args.max_tokens.unwrap_or(if local { 768 } else { 4096 }),
        temperature: args.temperature,
        handler_timeout_ms: args.engine.handler_timeout.as_millis() as u64,
        memory_limit_mib: args.engine.memory_limit,
        jobs: args.engine.jobs,
        proposer: args.proposing.proposer.unwrap_or(ProposerKind::Completion),
        agent_steps: args.proposing.agent_steps.unwrap_or_else(default_agent_steps),
        eval_model: args.eval_model.eval_model.clone(),
        eval_base_url: args.eval_model.eval_base_url.clone(),
        seed: args.seed.unwrap_or(0),
        request_timeout_ms: args.request_timeout.map(|timeout| timeout.as_millis() as u64),
    };
    check_state(&state)?;
    Ok((state, run_dir, loaded))
}

/// Reads `run.json`; flags given again replace the stored values.
pub(super) fn resume_state(dir: &Path, args: &RunArgs) -> Result<(RunState, PathBuf, LoadedSpec), CliError> {
    let state_path = dir.join("run.json");
    let text = std::fs::read_to_string(&state_path).map_err(|error| {
        CliError::usage(format!("cannot resume `{}`: {error}", dir.display()))
            .hint("`--resume` takes the run directory of an earlier `modlearn run`")
    })?;
    let mut state: RunState = serde_json::from_str(&text)
        .map_err(|error| CliError::usage(format!("`{}` is not a modlearn run state: {error}", state_path.display())))?;
    if dir.join("report.json").exists() {
        return Err(CliError::usage(format!("run `{}` is already complete", dir.display()))
            .hint(format!("its report is `{}`", dir.join("report.md").display())));
    }
    let snapshot = dir.join("env.snapshot.json");
    let loaded = match std::fs::read_to_string(&snapshot) {
        Ok(source) => modlearn_spec::parse_spec(&source, &snapshot)?,
        Err(_) => super::super::load_spec(Path::new(&state.spec_path))?,
    };
    if let Some(n) = args.candidates {
        state.candidates = n as usize;
    }
    if let Some(r) = args.rounds {
        state.rounds = r;
    }
    if let Some(model) = &args.model {
        state.model = model.clone();
    }
    if args.base_url.is_some() {
        state.base_url = args.base_url.clone();
    }
    if let Some(timeout) = args.request_timeout {
        state.request_timeout_ms = Some(timeout.as_millis() as u64);
    }
    if let Some(c) = args.concurrency {
        state.concurrency = c as usize;
    }
    if args.max_usd.is_some() {
        state.max_usd = args.max_usd;
    }
    if args.promote.is_some() {
        state.promote = args.promote.clone();
    }
    if args.cache_dir.is_some() || args.no_cache {
        state.cache_dir = cache_dir(args, dir);
    }
    if let Some(seed) = args.seed {
        state.seed = seed;
    }
    if let Some(max_tokens) = args.max_tokens {
        state.max_tokens = max_tokens;
    }
    if let Some(proposer) = args.proposing.proposer {
        state.proposer = proposer;
    }
    if let Some(steps) = args.proposing.agent_steps {
        state.agent_steps = steps;
    }
    if args.eval_model.eval_model.is_some() {
        state.eval_model = args.eval_model.eval_model.clone();
        state.eval_base_url = args.eval_model.eval_base_url.clone();
    }
    check_state(&state)?;
    Ok((state, dir.to_path_buf(), loaded))
}

/// `--cache-dir`, or with `--no-cache` the run's own (no earlier answer is in it), or the shared one.
fn cache_dir(args: &RunArgs, run_dir: &Path) -> PathBuf {
    match &args.cache_dir {
        Some(dir) => dir.clone(),
        None if args.no_cache => run_dir.join("responses"),
        None => super::super::modlearn_cache_dir().join("responses"),
    }
}

impl RunState {
    /// `--request-timeout`, when given.
    pub(super) fn request_timeout(&self) -> Option<std::time::Duration> {
        self.request_timeout_ms.map(std::time::Duration::from_millis)
    }
}

fn check_state(state: &RunState) -> Result<(), CliError> {
    // Checked before anything else: the embedded model would start (slowly) and the server the
    // user named would never be asked.
    if let Some(url) = state.base_url.as_deref().filter(|_| state.model.starts_with("local:")) {
        return Err(CliError::usage(format!(
            "`--base-url {url}` names a server, but the model is `{}`, which runs inside modlearn and asks no server",
            state.model
        ))
        .hint("pass `--model openai:NAME` (or `anthropic:NAME`) with the name of the model the server serves"));
    }
    if state.proposer == ProposerKind::Agent && state.model.starts_with("local:") {
        return Err(CliError::usage(format!("`--proposer agent` needs a model that makes tool calls; `{}` does not", state.model))
            .hint("pass `--model openai:NAME` (any OpenAI-compatible server with tool calls) or `--model anthropic:NAME`, or leave out `--proposer agent`"));
    }
    if let Some(model) = &state.eval_model {
        super::super::eval_model::check(model)?;
    }
    if state.request_timeout_ms == Some(0) {
        return Err(CliError::usage("`--request-timeout 0s` leaves no time for any answer").hint("give it a duration such as 30s or 5m"));
    }
    if let Some(max) = state.max_usd
        && !(max.is_finite() && max >= 0.0)
    {
        return Err(CliError::usage(format!("`--max-usd {max}` must be a non-negative number")));
    }
    if let Some(target) = &state.promote {
        super::super::check_promote_target(target)?;
    }
    Ok(())
}
