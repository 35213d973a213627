//! `modlearn run`: the main job. Ask a model for candidates in rounds,
//! judge each as it arrives, write everything as it happens, keep the best.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use modlearn_propose::{ModelRef, ProviderKind};
use modlearn_runner::{JobProgress, JobStop, KeyHolder, LearnSettings, LearnedCandidate, LearningJob, ModelEndpoint, run_learning_job};
use modlearn_spec::spec_slug;
use modlearn_types::SpecSummary;

use crate::cli::RunArgs;
use crate::exit::CliError;
use crate::printer;

pub(super) mod proposer;
mod settings;

use settings::{RunState, new_state, resume_state};

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
             or `--model openai:NAME --base-url URL` for an OpenAI-compatible server, for real results"
        );
    }
    let proposer = proposer::build(&model, &state, &run_dir)?;
    let endpoint = ModelEndpoint {
        base_url: state.base_url.as_deref(),
        prices: state.prices.as_deref(),
        cache_dir: &state.cache_dir,
        request_timeout: state.request_timeout(),
    };
    super::prices::check(&model, "--model", &endpoint, state.max_usd)?;
    let continuing = if args.resume.is_some() { modlearn_record::Continuing::Run } else { modlearn_record::Continuing::Nothing };
    let _claim = super::claim_run_dir(&run_dir, continuing)?;
    let scenarios = Arc::new(super::scenarios_with_envs(&loaded)?);
    let slug = spec_slug(&loaded.spec);
    let planned = state.candidates * state.rounds as usize;
    let spec_summary = SpecSummary {
        name: loaded.spec.name.clone(),
        slug,
        path: state.spec_path.clone(),
        scenarios: scenarios.len(),
        host: loaded.spec.dialect.host().to_owned(),
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
    state.write(&run_dir)?;
    let interrupt = modlearn_runner::Interrupt::new();
    let settings = LearnSettings {
        candidates: state.candidates,
        rounds: state.rounds,
        concurrency: state.concurrency,
        max_usd: state.max_usd,
        max_tokens: state.max_tokens,
        temperature: state.temperature,
        eval: defaults,
        seed_offset: state.seed * SEED_STRIDE,
        interrupt: interrupt.clone(),
        ..LearnSettings::default()
    };

    let bar = printer::Progress::with_lines(planned, "proposing and evaluating");
    let rounds = state.rounds;
    // Ctrl-C: the first stops the run (candidates being judged finish), a second exits at once.
    // Installed now, not when a task first runs: a Ctrl-C right after start must not kill the run.
    let mut sigint = {
        let _runtime = tokio.enter();
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
            .map_err(|error| CliError::usage(format!("cannot listen for Ctrl-C: {error}")))?
    };
    let (stopping, said) = (interrupt.clone(), bar.clone());
    tokio.spawn(async move {
        sigint.recv().await;
        said.line("interrupted: stopping; candidates being judged are finished and kept (Ctrl-C again to exit at once)");
        stopping.interrupt();
        sigint.recv().await;
        said.finish();
        eprintln!("interrupted again: exiting without waiting");
        std::process::exit(i32::from(INTERRUPTED));
    });
    let on_progress = |progress: JobProgress<'_>| match progress {
        JobProgress::RoundStarted { round } => {
            bar.status(&format!("round {round}/{rounds}: asking `{model}` for {} candidate(s)", state.candidates));
        }
        JobProgress::CandidateDone(candidate) => bar.candidate(&candidate.attempt),
        JobProgress::RoundDone { round, attempts } => bar.round_done(round, rounds, attempts),
    };
    let job = LearningJob {
        spec: &loaded,
        scenarios: Arc::clone(&scenarios),
        summary: spec_summary,
        model: &model,
        proposing: proposer,
        settings: &settings,
        dir: &run_dir,
    };
    let outcome = tokio.block_on(run_learning_job(job, &on_progress));
    bar.finish();
    let learned = match outcome {
        Ok(learned) => learned,
        Err(stop) => {
            // A proposal still being generated (the embedded model) is not waited for.
            tokio.shutdown_background();
            return stopped(stop, &run_dir);
        }
    };
    replay_note(&learned.candidates);

    let mut report = learned.report.clone();
    learned.promote(&mut report, state.promote.as_deref())?;
    super::say_not_promoted(state.promote.as_deref(), &report);
    learned.write_report(&report)?;
    let unrun = super::prompt_checks_not_run(&scenarios, settings.eval.eval_model.is_some());
    let failures = (!args.quiet).then_some(crate::printer::Failures::OfSelected);
    super::print_run(&report, &run_dir, args.json, failures, unrun)
}

/// What to tell the user when the run stopped before its report: an interrupt is
/// the user's own doing (exit 130 and how to go on); the rest are errors.
fn stopped(stop: JobStop, run_dir: &Path) -> Result<u8, CliError> {
    let resume = |what: &str| format!("then continue with `modlearn run --resume {}` ({what})", run_dir.display());
    Err(match stop {
        JobStop::Interrupted { finished } => {
            eprintln!(
                "stopped after {finished} candidate(s); continue with `modlearn run --resume {}` (answers already received are not asked for again)",
                run_dir.display()
            );
            return Ok(INTERRUPTED);
        }
        JobStop::KeyRefused { error, holder: KeyHolder::EvalModel } => {
            super::eval_model::fatal(error).hint(resume("it keeps the eval model; answers already received are not asked for again"))
        }
        JobStop::KeyRefused { error, holder: KeyHolder::Proposer } => proposer::fatal(error, run_dir),
        JobStop::Write(error) => error.into(),
    })
}

/// Exit status of a run stopped by Ctrl-C (128 + SIGINT, as shells report it).
const INTERRUPTED: u8 = 130;

/// `--seed S` starts candidate seeds at S times this, as `compare --repeat` does.
const SEED_STRIDE: u64 = 1_000_000;

/// Says when answers came from the response cache: a rerun would otherwise
/// look like fresh samples.
fn replay_note(candidates: &[LearnedCandidate]) {
    let proposed = candidates.iter().filter(|candidate| candidate.attempt.proposal.is_some()).count();
    let cached = candidates.iter().filter(|candidate| candidate.attempt.proposal.as_ref().is_some_and(|p| p.cached)).count();
    if cached > 0 {
        eprintln!(
            "note: {cached} of {proposed} proposal(s) replayed from the response cache (same model, prompt and seed as before); \
             `--seed N` or `--no-cache` asks for fresh samples"
        );
    }
}
