//! `modlearn compare`: load the specs, build one proposer per model, run
//! the (shard's) jobs through modlearn-compare, write the leaderboard.

use std::path::Path;
use std::sync::Arc;

use modlearn_compare::{Comparison, ExecuteOptions, JobOutcome, JobStatus, PreparedSpec, Shard, SpecEntry, build_leaderboard, execute, write_leaderboard, write_shard_manifest};
use modlearn_propose::{CachedProposer, ModelRef, PriceTable, ProposeError, Proposer, ProviderKind, ProviderSettings, ResponseCache, http_proposer};

use crate::cli::CompareArgs;
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
    };
    comparison.check()?;
    let prepared = loaded
        .into_iter()
        .map(|loaded| super::scenarios_with_envs(&loaded).map(|scenarios| PreparedSpec { loaded, scenarios: Arc::new(scenarios) }))
        .collect::<Result<Vec<_>, _>>()?;
    let cache_dir = args.cache_dir.clone().unwrap_or_else(|| super::modlearn_cache_dir().join("responses"));
    let proposers = args
        .models
        .iter()
        .map(|name| build_proposer(name, args.base_url.as_deref(), args.prices.as_deref(), &cache_dir))
        .collect::<Result<Vec<_>, _>>()?;
    let out = args.out.clone().unwrap_or_else(|| super::default_run_dir("compare"));
    check_out(&out, &comparison, shard)?;

    let jobs = comparison.shard_jobs(shard);
    let options = ExecuteOptions {
        out: out.clone(),
        concurrency: args.concurrency as usize,
        max_usd: args.max_usd,
        eval: super::engine_options(&args.engine),
    };
    let bar = crate::printer::progress(jobs.len(), "comparing");
    let progress = bar.clone();
    let on_done = Arc::new(move |_: &JobOutcome| progress.inc(1));
    let tokio = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| CliError::usage(format!("cannot start the async runtime: {error}")))?;
    let outcomes = tokio.block_on(execute(&comparison, prepared, &jobs, proposers, &options, on_done))?;
    bar.finish_and_clear();
    write_shard_manifest(&out, &comparison, shard, &outcomes)?;
    let unfinished = outcomes.iter().filter(|outcome| outcome.status == JobStatus::NotRun).count();
    if shard.count > 1 && args.json {
        print!("{}", std::fs::read_to_string(out.join("shard.json")).map_err(|error| CliError::usage(format!("cannot read back `shard.json`: {error}")))?);
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
    Ok(if unfinished == 0 { crate::exit::SUCCESS } else { crate::exit::FAILURE })
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

/// The model's client wrapped in the response cache, one cache directory
/// per endpoint, as `modlearn run` builds it.
fn build_proposer(name: &str, base_url: Option<&str>, prices: Option<&Path>, cache_dir: &Path) -> Result<Arc<dyn Proposer>, CliError> {
    let model = ModelRef::parse(name).map_err(|error| CliError::usage(format!("`--model {name}`: {error}")))?;
    if model.provider == ProviderKind::Local {
        return Err(CliError::usage(format!("`--model {name}`: compare needs a model API (openai:NAME or anthropic:NAME)"))
            .hint("the embedded demo model is too small to compare; point --base-url at a local OpenAI-compatible server instead"));
    }
    let mut settings = ProviderSettings::from_env(&model, base_url).map_err(config)?;
    if let Some(path) = prices {
        settings.prices = PriceTable::builtin().with_overrides_from_file(path).map_err(config)?;
    }
    let scope = cache_scope(settings.base_url.as_deref().unwrap_or("default"));
    let inner = http_proposer(&model, settings).map_err(config)?;
    Ok(Arc::new(CachedProposer::new(inner, ResponseCache::new(cache_dir.join(scope)))))
}

/// `http://127.0.0.1:8080/v1` → `127.0.0.1_8080_v1` (the directory `modlearn run` uses too).
fn cache_scope(base_url: &str) -> String {
    let trimmed = base_url.split("://").nth(1).unwrap_or(base_url).trim_end_matches('/');
    trimmed.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' }).collect()
}

fn config(error: ProposeError) -> CliError {
    let message = error.to_string();
    let mut lines = message.lines();
    let mut cli = CliError::usage(lines.next().unwrap_or("model configuration error").to_owned());
    cli.details = lines.map(str::to_owned).collect();
    cli
}

impl From<modlearn_compare::CompareError> for CliError {
    fn from(error: modlearn_compare::CompareError) -> CliError {
        match error {
            modlearn_compare::CompareError::Usage { message, hints } => CliError { message, details: Vec::new(), hints, code: crate::exit::USAGE },
            modlearn_compare::CompareError::Write(error) => error.into(),
        }
    }
}
