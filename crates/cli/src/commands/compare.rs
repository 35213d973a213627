//! `modlearn compare`: load the specs, check every model's configuration
//! (and the eval model's) before anything runs, run the (shard's) jobs
//! through modlearn-compare, write the leaderboard.

use std::path::Path;
use std::sync::Arc;

use modlearn_compare::{
    Comparison, ExecuteOptions, JobOutcome, JobStatus, ModelAccess, PreparedSpec, ProposerChoice, Shard, SpecEntry, build_leaderboard,
    execute, write_leaderboard, write_shard_manifest,
};
use modlearn_propose::{ModelRef, ProviderKind};

use super::run::proposer::config;
use crate::cli::{CompareArgs, ProposerKind};
use crate::exit::CliError;

pub fn run(args: CompareArgs) -> Result<u8, CliError> {
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(|error| CliError::usage(format!("`--shard {text}`: {error}")))?,
        None => Shard::WHOLE,
    };
    if let Some(max) = args.max_usd
        && !(max.is_finite() && max >= 0.0)
    {
        return Err(CliError::usage(format!("`--max-usd {max}` must be a non-negative number")));
    }
    let loaded = args.specs.iter().map(|path| super::load_spec(path)).collect::<Result<Vec<_>, _>>()?;
    let comparison = Comparison {
        specs: loaded.iter().map(SpecEntry::new).collect(),
        models: args.models.clone(),
        candidates: args.candidates as usize,
        rounds: args.rounds,
        repeat: args.repeat as usize,
        max_tokens: args.max_tokens,
        temperature: args.temperature,
        proposer: match args.proposing.proposer {
            Some(ProposerKind::Agent) => ProposerChoice::Agent,
            _ => ProposerChoice::Completion,
        },
        agent_steps: (args.proposing.proposer == Some(ProposerKind::Agent))
            .then(|| args.proposing.agent_steps.unwrap_or_else(|| modlearn_propose::AgentLimits::default().max_steps)),
        eval_model: args.eval_model.eval_model.clone(),
    };
    comparison.check()?;
    if args.proposing.agent_steps.is_some() && comparison.proposer != ProposerChoice::Agent {
        return Err(CliError::usage("`--agent-steps` needs `--proposer agent`"));
    }
    let prepared = loaded
        .into_iter()
        .map(|loaded| super::scenarios_with_envs(&loaded).map(|scenarios| PreparedSpec { loaded, scenarios: Arc::new(scenarios) }))
        .collect::<Result<Vec<_>, _>>()?;
    let models = ModelAccess {
        base_url: args.base_url.clone(),
        eval_base_url: args.eval_model.eval_base_url.clone(),
        prices: args.prices.clone(),
        cache_dir: args.cache_dir.clone().unwrap_or_else(|| super::modlearn_cache_dir().join("responses")),
    };
    for name in &args.models {
        check_model(name, &models, args.max_usd)?;
    }
    let out = match args.out.clone() {
        Some(out) => out,
        None => super::default_run_dir("compare")?,
    };
    check_out(&out, &comparison, shard)?;

    let jobs = comparison.shard_jobs(shard);
    let options = ExecuteOptions {
        out: out.clone(),
        concurrency: args.concurrency as usize,
        max_usd: args.max_usd,
        eval: super::engine_options(&args.engine),
        models,
    };
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| CliError::usage(format!("cannot start the async runtime: {error}")))?;
    if let Some(eval_model) = &comparison.eval_model {
        // Built once here only to refuse a bad name or a missing key before any job runs.
        let wanted = super::eval_model::EvalModelConfig {
            model: eval_model,
            base_url: options.models.eval_base_url.as_deref().or(options.models.base_url.as_deref()),
            cache_dir: &options.models.cache_dir,
            prices: options.models.prices.as_deref(),
            max_usd: None,
        };
        super::eval_model::build(&wanted, tokio.handle().clone())?;
        super::prices::check(&super::eval_model::check(eval_model)?, "--eval-model", &options.models.eval_endpoint(), args.max_usd)?;
    }
    let bar = crate::printer::Progress::bar(jobs.len(), "comparing");
    let progress = bar.clone();
    let on_done = Arc::new(move |_: &JobOutcome| progress.inc());
    let outcomes = tokio.block_on(execute(&comparison, prepared, &jobs, &options, on_done));
    bar.finish();
    let outcomes = outcomes?;
    write_shard_manifest(&out, &comparison, shard, &outcomes)?;
    let unfinished = outcomes.iter().filter(|outcome| outcome.status != JobStatus::Finished).count();
    if shard.count > 1 && args.json {
        print!(
            "{}",
            std::fs::read_to_string(out.join("shard.json"))
                .map_err(|error| CliError::usage(format!("cannot read back `shard.json`: {error}")))?
        );
    } else if shard.count > 1 {
        // One slice's numbers would rank models on part of the evidence: only merge writes a leaderboard.
        println!(
            "shard {shard}: {}/{} job(s) finished in `{}`\nmerge every shard's directory with `modlearn merge DIR...`",
            outcomes.len() - unfinished,
            outcomes.len(),
            out.display()
        );
    } else {
        let leaderboard = build_leaderboard(&comparison, &outcomes);
        write_leaderboard(&out, &leaderboard)?;
        super::merge::print(&leaderboard, &out, args.json);
    }
    Ok(super::merge::exit_code(&outcomes))
}

/// An output directory may hold only this comparison (resuming it) or nothing.
fn check_out(out: &Path, comparison: &Comparison, shard: Shard) -> Result<(), CliError> {
    let Ok(text) = std::fs::read_to_string(out.join("shard.json")) else {
        return Ok(());
    };
    let same = serde_json::from_str::<modlearn_compare::ShardManifest>(&text)
        .is_ok_and(|manifest| &manifest.comparison == comparison && manifest.shard == shard);
    if same {
        return Ok(());
    }
    Err(CliError::usage(format!("`--out {}` holds a different comparison (or another shard)", out.display()))
        .hint("rerun with the same specs, models, settings and --shard to resume it, or pass another `--out`"))
}

/// Refuses, before anything runs, a model that cannot be compared: a bad
/// name, the embedded demo model, a missing key or a bad price file.
fn check_model(name: &str, models: &ModelAccess, max_usd: Option<f64>) -> Result<(), CliError> {
    let model = ModelRef::parse(name).map_err(|error| CliError::usage(format!("`--model {name}`: {error}")))?;
    if model.provider == ProviderKind::Local {
        return Err(CliError::usage(format!("`--model {name}`: compare needs a model API (openai:NAME or anthropic:NAME)"))
            .hint("the embedded demo model is too small to compare; point --base-url at a local OpenAI-compatible server instead"));
    }
    models.endpoint().settings(&model).map_err(config)?;
    super::prices::check(&model, "--model", &models.endpoint(), max_usd)
}

impl From<modlearn_compare::CompareError> for CliError {
    fn from(error: modlearn_compare::CompareError) -> CliError {
        match error {
            modlearn_compare::CompareError::Usage { message, hints } => {
                CliError { message, details: Vec::new(), hints, code: crate::exit::USAGE }
            }
            modlearn_compare::CompareError::Write(error) => error.into(),
        }
    }
}
