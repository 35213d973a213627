//! The HTTP plumbing the providers share: one client, one JSON POST.

use std::time::{Duration, SystemTime};

use reqwest::header::{HeaderMap, HeaderName, HeaderValue};

use modlearn_types::bound::{ANSWER_BYTES, CANDIDATE_BYTES};

use crate::ProposeError;
use crate::retry::Failure;

/// A client with a whole-request timeout, over rustls.
pub(crate) fn client(timeout: Duration) -> Result<reqwest::Client, ProposeError> {
    reqwest::Client::builder()
        .timeout(timeout)
        .user_agent(concat!("modlearn/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|error| ProposeError::Config(format!("cannot build the HTTP client: {}", describe(error))))
}

/// What came back from a POST.
pub(crate) struct Response {
    pub status: u16,
    pub body: String,
    pub retry_after: Option<Duration>,
}

/// Headers for a request. An invalid value (a key with a newline pasted
/// in) is a configuration error, reported without the value.
pub(crate) fn headers(pairs: &[(&'static str, String)]) -> Result<HeaderMap, ProposeError> {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        let value = HeaderValue::from_str(value).map_err(|_| {
            ProposeError::Config(format!("the `{name}` header value has characters HTTP does not allow (check the API key)"))
        })?;
        map.insert(HeaderName::from_static(name), value);
    }
    Ok(map)
}

/// POSTs `body` as JSON. A transport failure (no connection, timeout,
/// body cut off) comes back as a retryable [`Failure`] naming the server by its origin only
/// (scheme, host and port: a path or query could carry a key).
pub(crate) async fn post_json(
    client: &reqwest::Client,
    url: &str,
    headers: HeaderMap,
    body: &serde_json::Value,
    timeout: Duration,
) -> Result<Response, Failure> {
    let server = origin(url);
    let transport = |error: reqwest::Error| {
        if error.is_timeout() {
            Failure::retryable(format!("{server} did not answer within {} s", timeout.as_secs_f64()))
        } else if error.is_builder() {
            Failure::fatal(format!("cannot build the request: {}", describe(error)))
        } else if error.is_connect() {
            Failure::retryable(format!("cannot connect to {server}: {}", describe(error)))
        } else {
            Failure::retryable(format!("{server}: {}", describe(error)))
        }
    };
    let response = client.post(url).headers(headers).json(body).send().await.map_err(transport)?;
    let status = response.status().as_u16();
    let retry_after = retry_after(response.headers(), SystemTime::now());
    let body = read_bounded(response, transport).await?;
    Ok(Response { status, body, retry_after })
}

/// The body, read up to [`ANSWER_BYTES`]: a larger answer is refused before it is held (asking
/// again would cost as much for the same), so no answer's size decides the run's memory.
async fn read_bounded(mut response: reqwest::Response, transport: impl Fn(reqwest::Error) -> Failure) -> Result<String, Failure> {
    let too_large = || {
        Failure::fatal(format!(
            "the answer is larger than {} MiB (a candidate is at most {} KiB), so modlearn did not read it; ask for one file of code",
            ANSWER_BYTES >> 20,
            CANDIDATE_BYTES >> 10
        ))
    };
    if response.content_length().is_some_and(|length| length > ANSWER_BYTES as u64) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(&transport)? {
        if body.len() + chunk.len() > ANSWER_BYTES {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// `scheme://host:port` of `url`, or `the server` when it does not parse.
pub(crate) fn origin(url: &str) -> String {
    reqwest::Url::parse(url).map_or_else(|_| "the server".to_owned(), |url| url.origin().ascii_serialization())
}

/// An error and its causes on one line, without the URL (which could carry
/// a key in a query string).
pub(crate) fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut parts: Vec<String> = Vec::new();
    let mut source: Option<&dyn std::error::Error> = Some(&error);
    while let Some(cause) = source {
        let text = cause.to_string();
        // Wrappers often repeat their cause's text; say it once.
        if !parts.last().is_some_and(|last| last.contains(&text)) {
            parts.push(text);
        }
        source = cause.source();
    }
    parts.join(": ")
}

/// `Retry-After` (seconds or an HTTP date) or OpenAI's `retry-after-ms`.
pub(crate) fn retry_after(headers: &HeaderMap, now: SystemTime) -> Option<Duration> {
    let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).map(str::trim);
    if let Some(millis) = text("retry-after-ms").and_then(|value| value.parse::<f64>().ok()) {
        return Duration::try_from_secs_f64(millis / 1000.0).ok();
    }
    let value = text("retry-after")?;
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let date = httpdate::parse_http_date(value).ok()?;
    Some(date.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The start of a body, for error messages.
pub(crate) fn snippet(body: &str) -> String {
    const LIMIT: usize = 300;
    let body = body.trim();
    match body.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}...", &body[..end]),
        None => body.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(name: &'static str, value: &str) -> HeaderMap {
        headers(&[(name, value.to_owned())]).unwrap()
    }

    #[test]
    fn a_server_is_named_by_its_origin_alone() {
        assert_eq!(origin("http://127.0.0.1:9/v1/chat/completions?key=secret"), "http://127.0.0.1:9");
        assert_eq!(origin("https://api.openai.com/v1"), "https://api.openai.com");
        assert_eq!(origin("not a url"), "the server");
    }

    #[test]
    fn retry_after_takes_seconds_dates_and_milliseconds() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(retry_after(&with("retry-after", "2"), now), Some(Duration::from_secs(2)));
        assert_eq!(retry_after(&with("retry-after", "0.5"), now), Some(Duration::from_millis(500)));
        assert_eq!(retry_after(&with("retry-after-ms", "250"), now), Some(Duration::from_millis(250)));
        let later = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(retry_after(&with("retry-after", &later), now), Some(Duration::from_secs(7)));
        let earlier = httpdate::fmt_http_date(now - Duration::from_secs(7));
        assert_eq!(retry_after(&with("retry-after", &earlier), now), Some(Duration::ZERO));
        assert_eq!(retry_after(&with("retry-after", "soon"), now), None);
        assert_eq!(retry_after(&with("retry-after", "-3"), now), None);
        assert_eq!(retry_after(&HeaderMap::new(), now), None);
    }

    #[test]
    fn snippet_cuts_long_bodies_on_a_char_boundary() {
        assert_eq!(snippet("  short  "), "short");
        let long = "é".repeat(400);
        assert_eq!(snippet(&long), format!("{}...", "é".repeat(300)));
    }

    #[test]
    fn a_bad_header_value_is_a_config_error_without_the_value() {
        let Err(ProposeError::Config(message)) = headers(&[("authorization", "Bearer sk-a\nb".to_owned())]) else { panic!("accepted") };
        assert!(!message.contains("sk-a"), "{message}");
    }
}
