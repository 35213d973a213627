//! Provider settings (flags and environment) and the HTTP proposer.

use std::time::{Duration, Instant};

use reqwest::Url;
use reqwest::header::HeaderMap;
use serde_json::Value;

use crate::http::{self, snippet};
use crate::pricing::PriceTable;
use crate::redact::{REDACTED, redact};
use crate::retry::{Attempt, Failure, RetryPolicy, with_retries};
use crate::{BoxFuture, Completion, CompletionRequest, ModelRef, ProposeError, Proposer, ProviderKind, Usage, anthropic, openai};

/// How to reach an HTTP provider.
#[derive(Clone)]
pub struct ProviderSettings {
    /// The API base (`https://api.openai.com/v1`, `https://api.anthropic.com`,
    /// `http://localhost:8000/v1`); `None` for the provider's own.
    pub base_url: Option<String>,
    /// The API key (never printed: `Debug` shows `[REDACTED]`).
    pub api_key: Option<String>,
    /// Time limit of one HTTP attempt, body included.
    pub timeout: Duration,
    /// Retries.
    pub retry: RetryPolicy,
    /// Prices for [`Completion::cost_usd`].
    pub prices: PriceTable,
}

impl Default for ProviderSettings {
    fn default() -> ProviderSettings {
        ProviderSettings {
            base_url: None,
            api_key: None,
            timeout: Duration::from_secs(120),
            retry: RetryPolicy::default(),
            prices: PriceTable::builtin(),
        }
    }
}

impl std::fmt::Debug for ProviderSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderSettings")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| REDACTED))
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

/// The environment variables of a provider and its own base URL.
struct Env {
    key: &'static str,
    base: &'static str,
    default_base: &'static str,
    official_host: &'static str,
    compatible: &'static str,
}

fn env(provider: ProviderKind) -> Option<Env> {
    match provider {
        ProviderKind::Openai => Some(Env {
            key: "OPENAI_API_KEY",
            base: "OPENAI_BASE_URL",
            default_base: "https://api.openai.com/v1",
            official_host: "api.openai.com",
            compatible: "an OpenAI-compatible server (vLLM, llama.cpp, Ollama)",
        }),
        ProviderKind::Anthropic => Some(Env {
            key: "ANTHROPIC_API_KEY",
            base: "ANTHROPIC_BASE_URL",
            default_base: "https://api.anthropic.com",
            official_host: "api.anthropic.com",
            compatible: "an Anthropic-compatible server",
        }),
        ProviderKind::Local => None,
    }
}

impl ProviderSettings {
    /// Settings for `model` from the environment: the key from
    /// `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`; the base URL from the flag,
    /// else `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`, else the provider's
    /// own. The provider's own host needs a key; a custom base URL (a local
    /// server) may do without. `local:` models get the defaults.
    pub fn from_env(model: &ModelRef, base_url_flag: Option<&str>) -> Result<ProviderSettings, ProposeError> {
        ProviderSettings::from_vars(model, base_url_flag, |name| std::env::var(name).ok())
    }

    /// [`ProviderSettings::from_env`] with the variables from `var`, so
    /// tests need not change the process environment.
    pub fn from_vars(
        model: &ModelRef,
        base_url_flag: Option<&str>,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<ProviderSettings, ProposeError> {
        let Some(env) = env(model.provider) else { return Ok(ProviderSettings::default()) };
        let set = |value: Option<String>| value.map(|value| value.trim().to_owned()).filter(|value| !value.is_empty());
        let (base_url, origin) = match (set(base_url_flag.map(str::to_owned)), set(var(env.base))) {
            (Some(flag), _) => (flag, "`--base-url`".to_owned()),
            (None, Some(from_env)) => (from_env, format!("`{}`", env.base)),
            (None, None) => (env.default_base.to_owned(), "the default base URL".to_owned()),
        };
        let api_key = set(var(env.key));
        check(model, &env, &base_url, &origin, api_key.as_deref())?;
        Ok(ProviderSettings { base_url: Some(base_url), api_key, ..ProviderSettings::default() })
    }
}

/// The base URL parses, and the provider's own host gets a key; `origin`
/// says where the URL came from.
fn check(model: &ModelRef, env: &Env, base_url: &str, origin: &str, api_key: Option<&str>) -> Result<(), ProposeError> {
    let url = Url::parse(base_url)
        .ok()
        .filter(|url| matches!(url.scheme(), "http" | "https") && url.host_str().is_some())
        .ok_or_else(|| ProposeError::Config(format!("{origin} `{base_url}` is not an http(s) URL (e.g. `http://localhost:8000/v1`)")))?;
    if api_key.is_none() && url.host_str() == Some(env.official_host) {
        return Err(ProposeError::Config(format!(
            "`{model}` needs an API key: set `{}`, or pass `--base-url` for {} that needs none",
            env.key, env.compatible
        )));
    }
    Ok(())
}

/// A proposer for an `openai:` or `anthropic:` model. `local:` models are
/// not HTTP and are refused with a configuration error.
pub fn http_proposer(model: &ModelRef, settings: ProviderSettings) -> Result<Box<dyn Proposer>, ProposeError> {
    let Some(env) = env(model.provider) else {
        return Err(ProposeError::Config(format!("`{model}` runs in-process, not over HTTP")));
    };
    let base_url = settings.base_url.clone().unwrap_or_else(|| env.default_base.to_owned());
    // An empty key is no key: sending `Bearer ` would only confuse a server.
    let key = settings.api_key.as_deref().filter(|key| !key.is_empty());
    check(model, &env, &base_url, "the base URL", key)?;
    let (url, pairs) = match model.provider {
        ProviderKind::Openai => (openai::url(&base_url), openai::header_pairs(key)),
        _ => (anthropic::url(&base_url), anthropic::header_pairs(key)),
    };
    Ok(Box::new(HttpProposer {
        model: model.clone(),
        url,
        headers: http::headers(&pairs)?,
        client: http::client(settings.timeout)?,
        settings,
    }))
}

struct HttpProposer {
    model: ModelRef,
    url: String,
    headers: HeaderMap,
    client: reqwest::Client,
    settings: ProviderSettings,
}

impl Proposer for HttpProposer {
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>> {
        Box::pin(async move {
            if request.model.provider != self.model.provider {
                return Err(ProposeError::Config(format!("a `{}` request sent to the `{}` proposer", request.model, self.model)));
            }
            let body = match self.model.provider {
                ProviderKind::Openai => openai::body(request),
                _ => anthropic::body(request),
            };
            let secrets: Vec<&str> = self.settings.api_key.as_deref().into_iter().collect();
            let started = Instant::now();
            let ((text, usage), attempts) = with_retries(&self.settings.retry, &secrets, || self.attempt(&body, &secrets)).await?;
            Ok(Completion {
                text,
                usage,
                cost_usd: self.settings.prices.cost(&request.model.name, usage),
                latency_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                attempts,
                cached: false,
            })
        })
    }
}

impl HttpProposer {
    async fn attempt(&self, body: &Value, secrets: &[&str]) -> Attempt<(String, Usage)> {
        let response = match http::post_json(&self.client, &self.url, self.headers.clone(), body, self.settings.timeout).await {
            Ok(response) => response,
            Err(failure) => return Attempt { status: None, retry_after: None, result: Err(failure) },
        };
        let status = response.status;
        tracing::trace!(status, body = %redact(&response.body, secrets), "{} answered", self.model);
        let result = if (200..300).contains(&status) {
            let parsed = match self.model.provider {
                ProviderKind::Openai => openai::parse(&response.body),
                _ => anthropic::parse(&response.body),
            };
            // A 200 with a broken body is most often a flaky proxy: retry it.
            parsed.map_err(Failure::retryable)
        } else {
            let message = format!("HTTP {status}: {}", error_message(&response.body));
            Err(match status {
                429 | 500.. => Failure::retryable(message),
                401 | 403 => Failure::fatal(format!("{message} (hint: check the API key)")),
                _ => Failure::fatal(message),
            })
        };
        Attempt { status: Some(status), retry_after: response.retry_after, result }
    }
}

/// `error.message` of an error body (both APIs put it there), else its start.
fn error_message(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    match parsed.as_ref().and_then(|value| value.pointer("/error/message")).and_then(Value::as_str) {
        Some(message) => message.to_owned(),
        None if body.trim().is_empty() => "(empty body)".to_owned(),
        None => snippet(body),
    }
}
