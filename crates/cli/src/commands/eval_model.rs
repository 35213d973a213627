//! `--eval-model`: the model that acts as the agent of prompt scenarios, for `modlearn eval` and
//! `modlearn run`. Its turns go through the response cache (one directory per endpoint, as the
//! proposer's), so a re-evaluation asks nothing again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use modlearn_propose::{CachedToolChat, ModelRef, PriceTable, ProposeError, ProviderKind, ProviderSettings, ResponseCache, http_tool_chat};
use modlearn_runner::EvalModel;

use super::run::proposer::{cache_scope, config};
use crate::cli::EvalModelArgs;
use crate::exit::CliError;

/// Where and how to reach the eval model.
pub struct EvalModelConfig<'a> {
    /// `--eval-model`.
    pub model: &'a str,
    /// `--eval-base-url`, else the proposer's `--base-url` (run).
    pub base_url: Option<&'a str>,
    /// The response cache's root.
    pub cache_dir: &'a Path,
    /// `--prices`.
    pub prices: Option<&'a Path>,
    /// `--max-usd`.
    pub max_usd: Option<f64>,
}

/// Checks `--eval-model` before anything runs: a bad name, a `local:` model (it makes no tool
/// calls) and a missing key are usage errors (exit 2).
pub fn check(model: &str) -> Result<ModelRef, CliError> {
    let parsed = ModelRef::parse(model).map_err(|error| CliError::usage(format!("`--eval-model {model}`: {error}")))?;
    if parsed.provider == ProviderKind::Local {
        return Err(CliError::usage(format!(
            "`--eval-model {model}` cannot act as the agent of prompt scenarios: the embedded model makes no tool calls"
        ))
        .hint("pass `--eval-model openai:NAME` (any OpenAI-compatible server with tool calls, via `--eval-base-url`) or `--eval-model anthropic:NAME`"));
    }
    Ok(parsed)
}

/// The eval model, its requests run on `runtime`.
pub fn build(wanted: &EvalModelConfig<'_>, runtime: tokio::runtime::Handle) -> Result<Arc<EvalModel>, CliError> {
    let model = check(wanted.model)?;
    let mut settings = ProviderSettings::from_env(&model, wanted.base_url).map_err(eval_config)?;
    if let Some(path) = wanted.prices {
        settings.prices = PriceTable::builtin().with_overrides_from_file(path).map_err(config)?;
    }
    let cache = ResponseCache::new(wanted.cache_dir.join(cache_scope(settings.base_url.as_deref().unwrap_or("default"))));
    let chat = CachedToolChat::new(http_tool_chat(&model, settings).map_err(eval_config)?, cache);
    Ok(Arc::new(EvalModel::new(Arc::new(chat), model, runtime).with_budget(wanted.max_usd)))
}

/// A configuration error of the eval model, naming the flag (the proposer's errors name `--base-url`).
pub(super) fn eval_config(error: ProposeError) -> CliError {
    let cli = config(error);
    CliError { message: format!("eval model: {}", cli.message.replace("`--base-url`", "`--eval-base-url`")), ..cli }
}

/// The error that stopped an evaluation because the eval model's API refused the key.
pub fn fatal(error: ProposeError) -> CliError {
    match error {
        ProposeError::Auth { message, hint, .. } => {
            CliError::usage(format!("eval model: {message}")).hint(hint.replace("`--base-url`", "`--eval-base-url`"))
        }
        other => CliError::usage(format!("eval model: {other}")),
    }
}

/// A runtime for the eval model's requests (two workers: they only wait on the network).
pub fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| CliError::usage(format!("cannot start the async runtime: {error}")))
}

/// For `eval` and `validate --mutants`: the eval model of `args` (no prices or budget flags
/// there) with the runtime its requests run on, or `None` without `--eval-model`. The runtime
/// must outlive the evaluation.
pub fn for_evaluation(
    args: &EvalModelArgs,
    cache_dir: Option<&PathBuf>,
) -> Result<Option<(Arc<EvalModel>, tokio::runtime::Runtime)>, CliError> {
    let Some(model) = &args.eval_model else { return Ok(None) };
    let runtime = runtime()?;
    let cache_dir = cache_dir.cloned().unwrap_or_else(|| super::modlearn_cache_dir().join("responses"));
    let wanted = EvalModelConfig { model, base_url: args.eval_base_url.as_deref(), cache_dir: &cache_dir, prices: None, max_usd: None };
    let eval_model = build(&wanted, runtime.handle().clone())?;
    let endpoint = modlearn_runner::ModelEndpoint { base_url: wanted.base_url, prices: None, cache_dir: &cache_dir, request_timeout: None };
    super::prices::check(&check(model)?, "--eval-model", &endpoint, None)?;
    Ok(Some((eval_model, runtime)))
}
