//! Builds the proposer for a run: the provider's client, wrapped in the
//! response cache, so repeated and resumed runs never pay twice. With
//! `--proposer agent` the client is a tool-calling one, and each candidate
//! is an agent session over the run directory.

use std::path::Path;
use std::sync::Arc;

use modlearn_propose::{
    AgentLimits, AgentProposer, CachedProposer, CachedToolChat, ModelRef, PriceTable, ProposeError, Proposer, ProviderKind, ProviderSettings,
    ResponseCache, TRANSCRIPT_FILE, http_proposer, http_tool_chat,
};
use modlearn_runner::{AgentProposing, Proposing};

use super::RunState;
use crate::cli::ProposerKind;
use crate::exit::CliError;

pub(super) fn build(model: &ModelRef, state: &RunState, run_dir: &Path) -> Result<Proposing, CliError> {
    if model.provider == ProviderKind::Local {
        let inner = local(model)?;
        return Ok(Proposing::Completion(Arc::new(CachedProposer::new(inner, ResponseCache::new(state.cache_dir.join("local"))))));
    }
    let mut settings = ProviderSettings::from_env(model, state.base_url.as_deref()).map_err(config)?;
    if let Some(path) = &state.prices {
        settings.prices = PriceTable::builtin().with_overrides_from_file(path).map_err(config)?;
    }
    // One cache directory per endpoint: the same model name on two servers
    // (two local servers, a proxy) must not share answers.
    let cache = ResponseCache::new(state.cache_dir.join(cache_scope(settings.base_url.as_deref().unwrap_or("default"))));
    if state.proposer == ProposerKind::Completion {
        let proposer: Arc<dyn Proposer> = Arc::new(CachedProposer::new(http_proposer(model, settings).map_err(config)?, cache));
        return Ok(Proposing::Completion(proposer));
    }
    let chat = CachedToolChat::new(http_tool_chat(model, settings).map_err(config)?, cache.clone());
    let limits = AgentLimits { max_steps: state.agent_steps, ..AgentLimits::default() };
    Ok(Proposing::Agent(AgentProposing {
        agent: Arc::new(AgentProposer::new(Arc::new(chat), limits).with_session_cache(cache)),
        run_dir: run_dir.to_path_buf(),
        // What proposers may read: never the spec snapshot, candidate reports
        // or manifests (they name hidden scenarios), nor hidden scenarios' results.
        run_files: ["history.json", "history.md", "proposer-guide.md"].map(str::to_owned).to_vec(),
        candidate_files: ["generation-prompt.md", "proposal.json", TRANSCRIPT_FILE, "eval/{scenario}"].map(str::to_owned).to_vec(),
    }))
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

/// A directory name for an endpoint: `http://127.0.0.1:8080/v1` → `127.0.0.1_8080_v1`.
pub(crate) fn cache_scope(base_url: &str) -> String {
    let trimmed = base_url.split("://").nth(1).unwrap_or(base_url).trim_end_matches('/');
    trimmed.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' }).collect()
}

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
