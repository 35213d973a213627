//! Builds the proposer for a run: the embedded demo model, or the API
//! clients the runner builds for `run` and `compare` alike (cached per
//! endpoint; with `--proposer agent`, agent sessions over the run directory).

use std::path::Path;
use std::sync::Arc;

use modlearn_propose::{CachedProposer, ModelRef, ProposeError, Proposer, ProviderKind, ResponseCache};
use modlearn_runner::{ModelEndpoint, Proposing, agent_proposing};

use super::RunState;
use crate::cli::ProposerKind;
use crate::exit::CliError;

pub(super) fn build(model: &ModelRef, state: &RunState, run_dir: &Path) -> Result<Proposing, CliError> {
    if model.provider == ProviderKind::Local {
        let inner = local(model)?;
        return Ok(Proposing::Completion(Arc::new(CachedProposer::new(inner, ResponseCache::new(state.cache_dir.join("local"))))));
    }
    let endpoint = ModelEndpoint {
        base_url: state.base_url.as_deref(),
        prices: state.prices.as_deref(),
        cache_dir: &state.cache_dir,
        request_timeout: state.request_timeout(),
    };
    if state.proposer == ProposerKind::Completion {
        return Ok(Proposing::Completion(endpoint.completion(model).map_err(config)?));
    }
    let (chat, cache) = endpoint.tool_chat(model).map_err(config)?;
    Ok(Proposing::Agent(agent_proposing(chat, cache, state.agent_steps, run_dir.to_path_buf())))
}

/// An error that stopped the run (the API refused the key): exit 2, with
/// what to fix and how to go on.
pub fn fatal(error: ProposeError, run_dir: &Path) -> CliError {
    let resume = format!(
        "then continue with `modlearn run --resume {}`: finished candidates are kept and answers already received are not asked for again",
        run_dir.display()
    );
    match error {
        ProposeError::Auth { message, hint, .. } => CliError::usage(message).hint(hint).hint(resume),
        other => CliError::usage(other.to_string()).hint(resume),
    }
}

pub(crate) use modlearn_runner::cache_scope;

#[cfg(feature = "local-model")]
fn local(model: &ModelRef) -> Result<Box<dyn Proposer>, CliError> {
    Ok(Box::new(modlearn_propose::LocalProposer::new(model).map_err(config)?))
}

#[cfg(not(feature = "local-model"))]
fn local(model: &ModelRef) -> Result<Box<dyn Proposer>, CliError> {
    Err(CliError::usage(format!("`{model}` needs modlearn built with the `local-model` feature")))
}

/// Configuration problems (missing key, bad price file) are bad input: exit 2.
pub(crate) fn config(error: ProposeError) -> CliError {
    let message = error.to_string();
    let mut lines = message.lines();
    let mut cli = CliError::usage(lines.next().unwrap_or("model configuration error").to_owned());
    cli.details = lines.map(str::to_owned).collect();
    cli
}
