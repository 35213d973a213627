//! Builds the proposer for a run: the provider's client, wrapped in the
//! response cache, so repeated and resumed runs never pay twice.

use std::sync::Arc;

use modlearn_propose::{CachedProposer, ModelRef, PriceTable, ProposeError, Proposer, ProviderKind, ProviderSettings, ResponseCache, http_proposer};

use super::RunState;
use crate::exit::CliError;

pub fn build(model: &ModelRef, state: &RunState) -> Result<Arc<dyn Proposer>, CliError> {
    let inner: Box<dyn Proposer> = match model.provider {
        ProviderKind::Local => local(model)?,
        ProviderKind::Openai | ProviderKind::Anthropic => {
            let mut settings = ProviderSettings::from_env(model, state.base_url.as_deref()).map_err(config)?;
            if let Some(path) = &state.prices {
                settings.prices = PriceTable::builtin().with_overrides_from_file(path).map_err(config)?;
            }
            http_proposer(model, settings).map_err(config)?
        }
    };
    Ok(Arc::new(CachedProposer::new(inner, ResponseCache::new(&state.cache_dir))))
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
