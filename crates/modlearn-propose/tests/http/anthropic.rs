//! Anthropic Messages.

use modlearn_propose::Usage;
use modlearn_testserver::{Reply, TestServer};
use serde_json::json;

use super::{KEY, MOD, proposer, request, settings};

#[tokio::test]
async fn happy_path_sends_the_documented_request_and_prices_the_answer() {
    let server = TestServer::start().await;
    server.script("claude-sonnet-4-5", vec![Reply::text(MOD).usage(1000, 500)]);
    let model = "anthropic:claude-sonnet-4-5";
    let completion = proposer(model, settings(server.base_url_anthropic())).complete(&request(model)).await.unwrap();

    assert_eq!(completion.text, MOD);
    assert_eq!(completion.usage, Usage { input_tokens: 1000, output_tokens: 500 });
    assert!((completion.cost_usd - 0.0105).abs() < 1e-12, "{}", completion.cost_usd); // $3 + $15 per 1M
    assert_eq!(completion.attempts.len(), 1);

    let requests = server.requests();
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some(KEY));
    assert_eq!(requests[0].header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(requests[0].header("authorization"), None);
    assert_eq!(
        requests[0].body,
        json!({
            "model": "claude-sonnet-4-5",
            "max_tokens": 512,
            "temperature": 0.5,
            "messages": [{"role": "user", "content": "Write a mod that counts turns."}],
            "system": "You write mods.",
        })
    );
}

#[tokio::test]
async fn errors_are_read_from_the_anthropic_error_shape() {
    let server = TestServer::start().await;
    server.script("claude-opus-4-1", vec![Reply::status(400)]);
    let model = "anthropic:claude-opus-4-1";
    let error = proposer(model, settings(server.base_url_anthropic())).complete(&request(model)).await.unwrap_err();
    assert_eq!(error.to_string(), "no completion after 1 attempt(s): HTTP 400: testserver: scripted HTTP 400 (not retried)");
}
