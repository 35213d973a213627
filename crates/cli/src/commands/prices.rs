//! Unknown prices: a model missing from the price table costs $0 in every
//! report, so `--max-usd` could never stop it. Warn, and refuse a budget that
//! cannot hold.

use modlearn_propose::{ModelRef, ProviderKind};
use modlearn_runner::ModelEndpoint;

use super::run::proposer::config;
use crate::exit::CliError;

/// Checks that `model` (named by `flag`, e.g. `--model` or `--eval-model`) has a price when
/// `max_usd` is set (else exit 2, naming `--prices`), and warns on stderr when it has none.
/// The embedded model is free.
pub fn check(model: &ModelRef, flag: &str, endpoint: &ModelEndpoint<'_>, max_usd: Option<f64>) -> Result<(), CliError> {
    // The configuration was checked by whoever built the client; an error here names the flag.
    let priced = endpoint
        .is_priced(model)
        .map_err(|error| if flag == "--eval-model" { super::eval_model::eval_config(error) } else { config(error) });
    if model.provider == ProviderKind::Local || priced? {
        return Ok(());
    }
    let example = format!(r#"{{"{}": {{"input": USD per 1M tokens, "output": USD per 1M tokens}}}}"#, model.name);
    if let Some(max) = max_usd {
        return Err(CliError::usage(format!(
            "`--max-usd {max}` cannot bound the cost of `{flag} {model}`: no price is known for `{}`, so it would count as $0",
            model.name
        ))
        .hint(format!("give its price with `--prices FILE` ({example}), or leave out `--max-usd`")));
    }
    eprintln!("warning: no price is known for `{model}` (`{flag}`): its cost is reported as $0; `--prices FILE` ({example}) prices it");
    Ok(())
}
