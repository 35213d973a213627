//! OpenAI Chat Completions.

use modlearn_propose::{HttpAttempt, Usage, extract_code};
use modlearn_testserver::{Reply, TestServer};
use serde_json::json;

use super::{KEY, MOD, proposer, request, settings};

#[tokio::test]
async fn happy_path_sends_the_documented_request_and_prices_the_answer() {
    let server = TestServer::start().await;
    server.script("gpt-4.1", vec![Reply::text(MOD).usage(1000, 500)]);
    let completion = proposer("openai:gpt-4.1", settings(server.base_url_openai())).complete(&request("openai:gpt-4.1")).await.unwrap();

    assert_eq!(completion.text, MOD);
    assert_eq!(extract_code(&completion.text).unwrap(), "export function activate(letta) {}\n");
    assert_eq!(completion.usage, Usage { input_tokens: 1000, output_tokens: 500 });
    assert!((completion.cost_usd - 0.006).abs() < 1e-12, "{}", completion.cost_usd); // $2 + $8 per 1M
    assert!(!completion.cached);
    assert!(matches!(completion.attempts.as_slice(), [HttpAttempt { status: Some(200), error: None, retry_after_ms: None, .. }]));

    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(requests[0].header("authorization"), Some(format!("Bearer {KEY}").as_str()));
    assert_eq!(requests[0].header("content-type"), Some("application/json"));
    assert_eq!(
        requests[0].body,
        json!({
            "model": "gpt-4.1",
            "messages": [{"role": "system", "content": "You write mods."}, {"role": "user", "content": "Write a mod that counts turns."}],
            "max_tokens": 512,
            "temperature": 0.5,
            "seed": 42,
        })
    );
}

#[tokio::test]
async fn a_keyless_local_server_gets_no_authorization_and_an_unpriced_model_costs_nothing() {
    let server = TestServer::start().await;
    server.script("llama3", vec![Reply::text(MOD).usage(10, 10)]);
    let settings = modlearn_propose::ProviderSettings { api_key: None, ..settings(server.base_url_openai() + "/") };
    let completion = proposer("openai:llama3", settings).complete(&request("openai:llama3")).await.unwrap();
    assert_eq!(completion.cost_usd, 0.0);
    assert_eq!(server.requests()[0].header("authorization"), None);
}

#[tokio::test]
async fn an_answer_without_code_is_still_a_completion() {
    let server = TestServer::start().await;
    server.script("gpt-4o", vec![Reply::no_code()]);
    let completion = proposer("openai:gpt-4o", settings(server.base_url_openai())).complete(&request("openai:gpt-4o")).await.unwrap();
    assert_eq!(extract_code(&completion.text).unwrap_err(), "the answer has no code block and no export");
}

#[tokio::test]
async fn proposals_run_concurrently() {
    let server = TestServer::start().await;
    server.script("gpt-4.1-mini", vec![Reply::text(MOD).after(std::time::Duration::from_millis(300))]);
    let proposer = proposer("openai:gpt-4.1-mini", settings(server.base_url_openai()));
    let [a, b, c] = [1, 2, 3].map(|seed| modlearn_propose::CompletionRequest { seed, ..request("openai:gpt-4.1-mini") });
    let (a, b, c) = tokio::join!(proposer.complete(&a), proposer.complete(&b), proposer.complete(&c));
    assert!(a.is_ok() && b.is_ok() && c.is_ok());
    // All three at once, as the server saw them (a wall clock would stretch on a loaded machine).
    assert_eq!(server.max_in_flight(), 3);
}
