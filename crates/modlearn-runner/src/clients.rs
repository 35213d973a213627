//! The model clients of a run, built the same way by `modlearn run` and
//! every `modlearn compare` job: the provider's HTTP client wrapped in the
//! response cache (one cache directory per endpoint), so repeated and
//! resumed runs never pay twice; for the agent proposer a tool-calling
//! client and sessions over the run directory.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use modlearn_propose::{
    AgentLimits, AgentProposer, CachedProposer, CachedToolChat, ModelRef, PriceTable, ProposeError, Proposer, ProviderSettings,
    ResponseCache, TRANSCRIPT_FILE, ToolChat, http_proposer, http_tool_chat,
};

use crate::AgentProposing;

/// Where a model is reached and how its answers are cached and priced.
#[derive(Clone, Copy, Debug)]
pub struct ModelEndpoint<'a> {
    /// The API's base URL (`--base-url`), else the provider's environment variable or default.
    pub base_url: Option<&'a str>,
    /// A price file overriding the built-in table (`--prices`).
    pub prices: Option<&'a Path>,
    /// The response cache's root; each endpoint gets a directory under it.
    pub cache_dir: &'a Path,
    /// The time limit of one request (`--request-timeout`), else the provider's own.
    pub request_timeout: Option<std::time::Duration>,
}

impl ModelEndpoint<'_> {
    /// The provider settings (API key from the environment, prices) and the
    /// endpoint's response cache. Fails on a missing key or a bad price file.
    pub fn settings(&self, model: &ModelRef) -> Result<(ProviderSettings, ResponseCache), ProposeError> {
        let mut settings = ProviderSettings::from_env(model, self.base_url)?;
        if let Some(timeout) = self.request_timeout {
            settings.timeout = timeout;
        }
        if let Some(path) = self.prices {
            settings.prices = PriceTable::builtin().with_overrides_from_file(path)?;
        }
        // The same model name on two servers (two local servers, a proxy) must not share answers.
        let cache = ResponseCache::new(self.cache_dir.join(cache_scope(settings.base_url.as_deref().unwrap_or("default"))));
        Ok((settings, cache))
    }

    /// Whether the price table (built-in, with `--prices` laid over it) knows `model`: an unknown
    /// model's cost counts as $0, so no budget can bound it.
    pub fn is_priced(&self, model: &ModelRef) -> Result<bool, ProposeError> {
        Ok(self.settings(model)?.0.prices.price(&model.name).is_some())
    }

    /// A cached completion client of `model` (an API model, not `local:`).
    pub fn completion(&self, model: &ModelRef) -> Result<Arc<dyn Proposer>, ProposeError> {
        let (settings, cache) = self.settings(model)?;
        Ok(Arc::new(CachedProposer::new(http_proposer(model, settings)?, cache)))
    }

    /// A cached tool-calling client of `model`, and its cache (agent sessions are cached whole too).
    pub fn tool_chat(&self, model: &ModelRef) -> Result<(Arc<dyn ToolChat>, ResponseCache), ProposeError> {
        let (settings, cache) = self.settings(model)?;
        Ok((Arc::new(CachedToolChat::new(http_tool_chat(model, settings)?, cache.clone())), cache))
    }
}

/// The agent proposer over `run_dir`: sessions of at most `max_steps` steps through `chat`.
pub fn agent_proposing(chat: Arc<dyn ToolChat>, cache: ResponseCache, max_steps: u32, run_dir: PathBuf) -> AgentProposing {
    let limits = AgentLimits { max_steps, ..AgentLimits::default() };
    AgentProposing {
        agent: Arc::new(AgentProposer::new(chat, limits).with_session_cache(cache)),
        run_dir,
        // What proposers may read: never the spec snapshot, candidate reports
        // or manifests (they name hidden scenarios), nor hidden scenarios' results.
        run_files: ["history.json", "history.md", "proposer-guide.md"].map(str::to_owned).to_vec(),
        candidate_files: ["generation-prompt.md", "proposal.json", TRANSCRIPT_FILE, "eval/{scenario}"].map(str::to_owned).to_vec(),
    }
}

/// A directory name for an endpoint: `http://127.0.0.1:8080/v1` → `127.0.0.1_8080_v1`.
pub fn cache_scope(base_url: &str) -> String {
    let trimmed = base_url.split("://").nth(1).unwrap_or(base_url).trim_end_matches('/');
    trimmed.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_scopes_name_the_endpoint() {
        assert_eq!(cache_scope("http://127.0.0.1:8080/v1"), "127.0.0.1_8080_v1");
        assert_eq!(cache_scope("https://api.openai.com/v1/"), "api.openai.com_v1");
        assert_eq!(cache_scope("default"), "default");
        assert_ne!(cache_scope("http://127.0.0.1:8080/v1"), cache_scope("http://127.0.0.1:8081/v1"));
    }
}
