//! `modlearn run`: the main job. Ask a model for candidates in rounds,
//! judge each as it arrives, write everything as it happens, keep the best.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use modlearn_propose::{ModelRef, ProviderKind};
use modlearn_record::{copy_atomic, write_atomic};
use modlearn_runner::{JobProgress, JobStop, KeyHolder, LearnSettings, LearnedCandidate, LearningJob, ModelEndpoint, run_learning_job};
use modlearn_spec::{LoadedSpec, spec_slug};
use modlearn_types::{RunReport, SpecSummary};
use serde::{Deserialize, Serialize};

use crate::cli::{ProposerKind, RunArgs};
use crate::exit::CliError;
use crate::printer;

pub(super) mod proposer;

/// The model used when none is configured: small enough to ship, too small to be good.
const DEFAULT_MODEL: &str = "local:smollm2-135m";

/// Everything needed to run (or resume) a run, stored as `run.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunState {
    kind: String,
    version: u32,
    spec_path: String,
    model: String,
    base_url: Option<String>,
    candidates: usize,
    rounds: u32,
    concurrency: usize,
    max_usd: Option<f64>,
    promote: Option<PathBuf>,
    cache_dir: PathBuf,
    prices: Option<PathBuf>,
    max_tokens: u32,
    temperature: f32,
    handler_timeout_ms: u64,
    memory_limit_mib: u64,
    jobs: Option<u64>,
    /// Absent in runs from before `--proposer` existed.
    #[serde(default = "completion")]
    proposer: ProposerKind,
    #[serde(default = "default_agent_steps")]
    agent_steps: u32,
    /// The agent of prompt scenarios (`--eval-model`), and its API's base when not `base_url`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eval_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eval_base_url: Option<String>,
}

fn completion() -> ProposerKind {
    ProposerKind::Completion
}

fn default_agent_steps() -> u32 {
    modlearn_propose::AgentLimits::default().max_steps
}

pub fn run(args: RunArgs) -> Result<u8, CliError> {
    let (state, run_dir, loaded) = match &args.resume {
        Some(dir) => resume_state(dir, &args)?,
        None => new_state(&args)?,
    };
    let model = ModelRef::parse(&state.model).map_err(|error| CliError::usage(format!("`--model {}`: {error}", state.model)))?;
    if model.provider == ProviderKind::Local {
        eprintln!(
            "note: using `{model}`, a 135M-parameter demo model that runs offline and rarely writes a passing mod; \
             pass `--model openai:NAME` (OPENAI_API_KEY) or `--model anthropic:NAME` (ANTHROPIC_API_KEY), \
             or `--base-url` for an OpenAI-compatible server, for real results"
        );
    }
    let proposer = proposer::build(&model, &state, &run_dir)?;
    let endpoint = ModelEndpoint { base_url: state.base_url.as_deref(), prices: state.prices.as_deref(), cache_dir: &state.cache_dir };
    super::prices::check(&model, "--model", &endpoint, state.max_usd)?;
    let scenarios = Arc::new(super::scenarios_with_envs(&loaded)?);
    let slug = spec_slug(&loaded.spec);
    let planned = state.candidates * state.rounds as usize;
    let spec_summary = SpecSummary {
        name: loaded.spec.name.clone(),
        slug,
        path: state.spec_path.clone(),
        scenarios: scenarios.len(),
    };
    let mut defaults = super::engine_options(&crate::cli::EngineArgs {
        handler_timeout: Duration::from_millis(state.handler_timeout_ms),
        memory_limit: state.memory_limit_mib,
        jobs: state.jobs,
    });
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| CliError::usage(format!("cannot start the async runtime: {error}")))?;
    // The eval model's requests run on the run's runtime; evaluation threads wait for them.
    if let Some(eval_model) = &state.eval_model {
        let wanted = super::eval_model::EvalModelConfig {
            model: eval_model,
            base_url: state.eval_base_url.as_deref().or(state.base_url.as_deref()),
            cache_dir: &state.cache_dir,
            prices: state.prices.as_deref(),
            max_usd: state.max_usd,
        };
        defaults.eval_model = Some(super::eval_model::build(&wanted, tokio.handle().clone())?);
        let eval_endpoint = ModelEndpoint { base_url: wanted.base_url, ..endpoint };
        super::prices::check(&super::eval_model::check(eval_model)?, "--eval-model", &eval_endpoint, state.max_usd)?;
    }
    // Everything is checked: only now is anything written.
    write_atomic(&run_dir.join("run.json"), format!("{}\n", serde_json::to_string_pretty(&state).expect("state serializes")))?;
    let settings = LearnSettings {
        candidates: state.candidates,
        rounds: state.rounds,
        concurrency: state.concurrency,
        max_usd: state.max_usd,
        max_tokens: state.max_tokens,
        temperature: state.temperature,
        eval: defaults,
        ..LearnSettings::default()
    };

    let bar = printer::progress(planned, "proposing and evaluating");
    let on_progress = |progress: JobProgress<'_>| match progress {
        JobProgress::RoundStarted { round } => bar.set_message(format!("round {round}/{}", state.rounds)),
        JobProgress::CandidateDone(_) => bar.inc(1),
    };
    let job = LearningJob { spec: &loaded, scenarios: Arc::clone(&scenarios), summary: spec_summary, model: &model, proposing: proposer, settings: &settings, dir: &run_dir };
    let outcome = tokio.block_on(run_learning_job(job, &on_progress));
    bar.finish_and_clear();
    let learned = match outcome {
        Ok(learned) => learned,
        Err(stop) => return Err(stopped(stop, &run_dir)),
    };

    let mut report = learned.report.clone();
    promote(&mut report, &learned.candidates, learned.selected, state.promote.as_deref())?;
    learned.write_report(&report)?;
    let unrun = super::prompt_checks_not_run(&scenarios, settings.eval.eval_model.is_some());
    super::print_run(&report, &run_dir.join("report.md"), args.json, unrun)
}

/// What to tell the user when the run stopped before its report.
fn stopped(stop: JobStop, run_dir: &Path) -> CliError {
    let resume = |what: &str| format!("then continue with `modlearn run --resume {}` ({what})", run_dir.display());
    match stop {
        JobStop::KeyRefused { error, holder: KeyHolder::EvalModel } => super::eval_model::fatal(error)
            .hint(resume("it keeps the eval model; answers already received are not asked for again")),
        JobStop::KeyRefused { error, holder: KeyHolder::Proposer } => proposer::fatal(error, run_dir),
        JobStop::Interrupted => CliError { code: crate::exit::FAILURE, ..CliError::usage("interrupted") }
            .hint(resume("finished candidates are kept and answers already received are not asked for again")),
        JobStop::Write(error) => error.into(),
    }
}

fn promote(
    report: &mut RunReport,
    candidates: &[LearnedCandidate],
    selected: Option<usize>,
    target: Option<&Path>,
) -> Result<(), CliError> {
    let (Some(target), Some(index), true) = (target, selected, report.passed) else {
        return Ok(());
    };
    copy_atomic(&candidates[index].evaluation.path, target)?;
    report.promoted_to = Some(target.display().to_string());
    Ok(())
}

fn new_state(args: &RunArgs) -> Result<(RunState, PathBuf, LoadedSpec), CliError> {
    let spec_path = args.spec.clone().expect("clap requires SPEC without --resume");
    let loaded = super::load_spec(&spec_path)?;
    let Some(candidates) = args.candidates else {
        return Err(CliError::usage("`--candidates N` is required for a new run").hint("for example `--candidates 8`"));
    };
    let run_dir = args.run_dir.clone().unwrap_or_else(|| super::default_run_dir(&spec_slug(&loaded.spec)));
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
        cache_dir: args.cache_dir.clone().unwrap_or_else(|| super::modlearn_cache_dir().join("responses")),
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
    };
    check_state(&state)?;
    Ok((state, run_dir, loaded))
}

/// Reads `run.json`; flags given again replace the stored values.
fn resume_state(dir: &Path, args: &RunArgs) -> Result<(RunState, PathBuf, LoadedSpec), CliError> {
    let state_path = dir.join("run.json");
    let text = std::fs::read_to_string(&state_path).map_err(|error| {
        CliError::usage(format!("cannot resume `{}`: {error}", dir.display())).hint("`--resume` takes the run directory of an earlier `modlearn run`")
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
        Err(_) => super::load_spec(Path::new(&state.spec_path))?,
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
    if let Some(c) = args.concurrency {
        state.concurrency = c as usize;
    }
    if args.max_usd.is_some() {
        state.max_usd = args.max_usd;
    }
    if args.promote.is_some() {
        state.promote = args.promote.clone();
    }
    if let Some(dir) = &args.cache_dir {
        state.cache_dir = dir.clone();
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

fn check_state(state: &RunState) -> Result<(), CliError> {
    if state.proposer == ProposerKind::Agent && state.model.starts_with("local:") {
        return Err(CliError::usage(format!("`--proposer agent` needs a model that makes tool calls; `{}` does not", state.model))
            .hint("pass `--model openai:NAME` (any OpenAI-compatible server with tool calls) or `--model anthropic:NAME`, or leave out `--proposer agent`"));
    }
    if let Some(model) = &state.eval_model {
        super::eval_model::check(model)?;
    }
    if let Some(max) = state.max_usd
        && !(max.is_finite() && max >= 0.0)
    {
        return Err(CliError::usage(format!("`--max-usd {max}` must be a non-negative number")));
    }
    if let Some(target) = &state.promote
        && target.is_dir()
    {
        return Err(CliError::usage(format!("`--promote {}` is a directory", target.display()))
            .hint("give the file path the selected candidate should be copied to"));
    }
    Ok(())
}
