//! Builds the proposer for a run: the provider's client, wrapped in the
//! response cache, so repeated and resumed runs never pay twice.

use std::sync::Arc;

use modlearn_propose::{CachedProposer, ModelRef, PriceTable, ProposeError, Proposer, ProviderKind, ProviderSettings, ResponseCache, http_proposer};

use super::RunState;
use crate::exit::CliError;

pub fn build(model: &ModelRef, state: &RunState) -> Result<Arc<dyn Proposer>, CliError> {
    let (inner, scope): (Box<dyn Proposer>, String) = match model.provider {
        ProviderKind::Local => (local(model)?, "local".to_owned()),
        ProviderKind::Openai | ProviderKind::Anthropic => {
            let mut settings = ProviderSettings::from_env(model, state.base_url.as_deref()).map_err(config)?;
            if let Some(path) = &state.prices {
                settings.prices = PriceTable::builtin().with_overrides_from_file(path).map_err(config)?;
            }
            let scope = cache_scope(settings.base_url.as_deref().unwrap_or("default"));
            (http_proposer(model, settings).map_err(config)?, scope)
        }
    };
    // One cache directory per endpoint: the same model name on two servers
    // (two local servers, a proxy) must not share answers.
    Ok(Arc::new(CachedProposer::new(inner, ResponseCache::new(state.cache_dir.join(scope)))))
}

/// A directory name for an endpoint: `http://127.0.0.1:8080/v1` → `127.0.0.1_8080_v1`.
fn cache_scope(base_url: &str) -> String {
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
fn config(error: ProposeError) -> CliError {
    let message = error.to_string();
    let mut lines = message.lines();
    let mut cli = CliError::usage(lines.next().unwrap_or("model configuration error").to_owned());
    cli.details = lines.map(str::to_owned).collect();
    cli
}
