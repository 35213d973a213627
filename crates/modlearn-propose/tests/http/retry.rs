//! Retries: which failures are retried, how long between, what is recorded.

use std::time::Duration;

use modlearn_propose::{HttpAttempt, ProposeError, ProviderSettings, RetryPolicy};
use modlearn_testserver::{Reply, TestServer};

use super::{MOD, proposer, request, settings};

const MODEL: &str = "openai:gpt-test";

fn failed(result: Result<modlearn_propose::Completion, ProposeError>) -> (String, Vec<HttpAttempt>) {
    match result {
        Err(ProposeError::Failed { message, attempts }) => (message, attempts),
        other => panic!("expected Failed, got {other:?}"),
    }
}

fn statuses(attempts: &[HttpAttempt]) -> Vec<Option<u16>> {
    attempts.iter().map(|attempt| attempt.status).collect()
}

#[tokio::test]
async fn retry_after_is_honoured_then_the_answer_arrives() {
    let server = TestServer::start().await;
    server.script("gpt-test", vec![Reply::status(429).retry_after(1), Reply::text(MOD)]);
    let completion = proposer(MODEL, settings(server.base_url_openai())).complete(&request(MODEL)).await.unwrap();

    assert_eq!(statuses(&completion.attempts), [Some(429), Some(200)]);
    assert_eq!(completion.attempts[0].retry_after_ms, Some(1000));
    assert!(completion.attempts[0].error.as_deref().unwrap().starts_with("HTTP 429: "));
    let requests = server.requests();
    let waited = requests[1].received - requests[0].received;
    assert!(waited >= Duration::from_millis(900), "waited only {waited:?}");
    assert!(completion.latency_ms >= 900);
}

#[tokio::test]
async fn a_server_error_is_retried() {
    let server = TestServer::start().await;
    server.script("gpt-test", vec![Reply::status(500), Reply::status(502).body("<html>Bad gateway</html>"), Reply::text(MOD)]);
    let completion = proposer(MODEL, settings(server.base_url_openai())).complete(&request(MODEL)).await.unwrap();
    assert_eq!(statuses(&completion.attempts), [Some(500), Some(502), Some(200)]);
    assert_eq!(completion.attempts[1].error.as_deref(), Some("HTTP 502: <html>Bad gateway</html>"));
    assert!(completion.attempts[..2].iter().all(|attempt| attempt.retry_after_ms.is_some_and(|wait| wait <= 20)));
}

#[tokio::test]
async fn exhausted_retries_fail_with_every_attempt() {
    let server = TestServer::start().await;
    server.script("gpt-test", vec![Reply::status(503)]);
    let (message, attempts) = failed(proposer(MODEL, settings(server.base_url_openai())).complete(&request(MODEL)).await);
    assert_eq!(message, "HTTP 503: testserver: scripted HTTP 503");
    assert_eq!(statuses(&attempts), [Some(503); 3]);
    assert_eq!(attempts[2].retry_after_ms, None, "no wait after the last attempt");
    assert_eq!(server.request_count(), 3);
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    let server = TestServer::start().await;
    server.script("gpt-test", vec![Reply::status(400).body(r#"{"error": {"message": "max_tokens is too large"}}"#)]);
    let error = proposer(MODEL, settings(server.base_url_openai())).complete(&request(MODEL)).await.unwrap_err();
    assert_eq!(error.to_string(), "no completion after 1 attempt(s): HTTP 400: max_tokens is too large (not retried)");
    assert_eq!(server.request_count(), 1);
}

#[tokio::test]
async fn a_timeout_is_retried() {
    let server = TestServer::start().await;
    server.script("gpt-test", vec![Reply::text(MOD).after(Duration::from_secs(3)), Reply::text(MOD)]);
    let base_url = server.base_url_openai();
    let settings = ProviderSettings { timeout: Duration::from_millis(400), ..settings(base_url.clone()) };
    let completion = proposer(MODEL, settings).complete(&request(MODEL)).await.unwrap();
    assert_eq!(statuses(&completion.attempts), [None, Some(200)]);
    let origin = base_url.trim_end_matches("/v1");
    assert_eq!(completion.attempts[0].error.as_deref(), Some(format!("{origin} did not answer within 0.4 s").as_str()));
    assert!(completion.attempts[0].latency_ms >= 390);
}

#[tokio::test]
async fn broken_json_is_retried_then_fails() {
    let server = TestServer::start().await;
    server.script("gpt-test", vec![Reply::broken_json()]);
    let (message, attempts) = failed(proposer(MODEL, settings(server.base_url_openai())).complete(&request(MODEL)).await);
    assert!(message.starts_with("the response is not valid Chat Completions JSON: EOF while parsing"), "{message}");
    assert_eq!(statuses(&attempts), [Some(200); 3]);

    server.script("gpt-test", vec![Reply::broken_json(), Reply::text(MOD)]);
    let completion = proposer(MODEL, settings(server.base_url_openai())).complete(&request(MODEL)).await.unwrap();
    assert_eq!(statuses(&completion.attempts), [Some(200), Some(200)]);
    assert!(completion.attempts[0].error.is_some());
}

#[tokio::test]
async fn a_refused_connection_is_retried() {
    let base_url = {
        let server = TestServer::start().await;
        server.base_url_openai()
    }; // the server is gone: nothing listens on its port now
    let settings = ProviderSettings {
        retry: RetryPolicy { max_attempts: 2, base_delay: Duration::from_millis(1), max_delay: Duration::from_millis(5) },
        ..settings(base_url.clone())
    };
    let origin = base_url.trim_end_matches("/v1").to_owned();
    let (message, attempts) = failed(proposer(MODEL, settings).complete(&request(MODEL)).await);
    assert_eq!(statuses(&attempts), [None, None]);
    assert!(message.contains("Connection refused"), "{message}");
    // The server is named by its origin; a path or query (which could carry a key) is left out.
    assert!(message.contains(&format!("cannot connect to {origin}: ")), "{message}");
    assert!(!message.contains("/v1"), "{message}");
}
