//! Provider settings (flags and environment) and the HTTP proposer.

use std::time::{Duration, Instant};

use reqwest::Url;
use reqwest::header::HeaderMap;
use serde_json::Value;

use crate::http::{self, snippet};
use crate::pricing::PriceTable;
use crate::redact::{REDACTED, redact};
use crate::retry::{Attempt, Failure, RetryPolicy, with_retries};
use crate::toolchat::{self, AssistantTurn, ToolChat, TurnRequest};
use crate::{BoxFuture, Completion, CompletionRequest, HttpAttempt, ModelRef, ProposeError, Proposer, ProviderKind, anthropic, openai};

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
    Ok(Box::new(HttpModel::new(model, settings)?))
}

/// A tool-calling client for an `openai:` or `anthropic:` model (the local
/// model takes no tools and is refused with a configuration error).
pub fn http_tool_chat(model: &ModelRef, settings: ProviderSettings) -> Result<Box<dyn ToolChat>, ProposeError> {
    if model.provider == ProviderKind::Local {
        return Err(ProposeError::Config(format!("`{model}` runs in-process and does not support tool calls")));
    }
    Ok(Box::new(HttpModel::new(model, settings)?))
}

/// One HTTP model endpoint: completions and tool turns share its client,
/// retries, redaction and pricing.
pub(crate) struct HttpModel {
    model: ModelRef,
    url: String,
    headers: HeaderMap,
    client: reqwest::Client,
    settings: ProviderSettings,
}

impl HttpModel {
    fn new(model: &ModelRef, settings: ProviderSettings) -> Result<HttpModel, ProposeError> {
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
        Ok(HttpModel { model: model.clone(), url, headers: http::headers(&pairs)?, client: http::client(settings.timeout)?, settings })
    }

    /// Every secret to keep out of what comes back.
    pub(crate) fn secrets(&self) -> Vec<&str> {
        self.settings.api_key.as_deref().into_iter().filter(|key| !key.is_empty()).collect()
    }

    fn check_model(&self, model: &ModelRef) -> Result<(), ProposeError> {
        if model.provider != self.model.provider {
            return Err(ProposeError::Config(format!("a `{model}` request sent to the `{}` client", self.model)));
        }
        Ok(())
    }

    /// POSTs `body` with retries; `parse` reads a 2xx body. Returns the
    /// parsed answer, every attempt and the wall time in milliseconds.
    pub(crate) async fn send<T>(
        &self,
        body: &Value,
        parse: fn(&str) -> Result<T, String>,
    ) -> Result<(T, Vec<HttpAttempt>, u64), ProposeError> {
        let secrets = self.secrets();
        let started = Instant::now();
        match with_retries(&self.settings.retry, &secrets, || self.attempt(body, &secrets, parse)).await {
            Ok((value, attempts)) => Ok((value, attempts, u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX))),
            Err(ProposeError::Failed { message, attempts }) if attempts.last().is_some_and(|a| matches!(a.status, Some(401 | 403))) => {
                Err(self.auth_error(message, attempts))
            }
            Err(error) => Err(error),
        }
    }

    /// A refused key, with what to fix.
    fn auth_error(&self, message: String, attempts: Vec<HttpAttempt>) -> ProposeError {
        let message = format!("`{}` refused the request: {}", self.model, message.trim_end_matches(" (not retried)"));
        let hint = match env(self.model.provider) {
            Some(env) if self.secrets().is_empty() => {
                format!("set `{}`: the server needs an API key and none was sent", env.key)
            }
            Some(env) => format!(
                "check `{}`: the server refused it (a wrong key, or one without access to `{}`); `--base-url` or `{}` choose the server it is sent to",
                env.key, self.model.name, env.base
            ),
            None => "check the model's credentials".to_owned(),
        };
        ProposeError::Auth { message, hint, attempts }
    }

    async fn attempt<T>(&self, body: &Value, secrets: &[&str], parse: fn(&str) -> Result<T, String>) -> Attempt<T> {
        let response = match http::post_json(&self.client, &self.url, self.headers.clone(), body, self.settings.timeout).await {
            Ok(response) => response,
            Err(failure) => return Attempt { status: None, retry_after: None, result: Err(failure) },
        };
        let status = response.status;
        tracing::trace!(status, body = %redact(&response.body, secrets), "{} answered", self.model);
        let result = if (200..300).contains(&status) {
            // A 200 with a broken body is most often a flaky proxy: retry it.
            parse(&response.body).map_err(Failure::retryable)
        } else {
            let mut message = format!("HTTP {status}: {}", error_message(&response.body));
            if status == 404 {
                // Most often a base URL without its `/v1`, or a model name the server does not have.
                message.push_str(&format!(
                    " (check the base URL, {}, which should end where the API's paths begin, such as `/v1`, and that the server has the model `{}`)",
                    http::origin(&self.url),
                    self.model.name
                ));
            }
            Err(match status {
                429 | 500.. => Failure::retryable(message),
                _ => Failure::fatal(message),
            })
        };
        Attempt { status: Some(status), retry_after: response.retry_after, result }
    }
}

impl Proposer for HttpModel {
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>> {
        Box::pin(async move {
            self.check_model(&request.model)?;
            let ((text, usage), attempts, latency_ms) = match self.model.provider {
                ProviderKind::Openai => self.send(&openai::body(request), openai::parse).await?,
                _ => self.send(&anthropic::body(request), anthropic::parse).await?,
            };
            Ok(Completion {
                // The answer as received: it is judged and cached, so redacting it would corrupt
                // the mod (keys are kept out of errors, attempts and logs instead).
                text,
                usage,
                cost_usd: self.settings.prices.cost(&request.model.name, usage),
                latency_ms,
                attempts,
                cached: false,
            })
        })
    }
}

impl ToolChat for HttpModel {
    fn turn<'a>(&'a self, request: &'a TurnRequest) -> BoxFuture<'a, Result<AssistantTurn, ProposeError>> {
        Box::pin(async move {
            self.check_model(&request.model)?;
            let (parsed, attempts, latency_ms) = match self.model.provider {
                ProviderKind::Openai => self.send(&toolchat::openai::body(request), toolchat::openai::parse).await?,
                _ => self.send(&toolchat::anthropic::body(request), toolchat::anthropic::parse).await?,
            };
            // As received, as for completions.
            Ok(AssistantTurn {
                text: parsed.text,
                tool_calls: parsed.tool_calls,
                stop_reason: parsed.stop_reason,
                usage: parsed.usage,
                cost_usd: self.settings.prices.cost(&request.model.name, parsed.usage),
                latency_ms,
                attempts,
                cached: false,
            })
        })
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
