//! The API key never reaches an error, an attempt or a debug print, even
//! when a server echoes it back.

use modlearn_propose::{CachedProposer, ProposeError, Proposer, ProviderSettings, ResponseCache};
use modlearn_testserver::{Reply, TestServer};

use super::{KEY, MOD, proposer, request, settings};

fn assert_redacted(outputs: &[String]) {
    for output in outputs {
        assert!(!output.contains(KEY), "the key leaked: {output}");
    }
    assert!(outputs.iter().any(|output| output.contains("[REDACTED]")), "nothing was redacted: {outputs:#?}");
}

#[tokio::test]
async fn echoed_keys_are_redacted_everywhere() {
    let server = TestServer::start().await;
    let echo = format!(r#"{{"error": {{"message": "Incorrect API key provided: {KEY} (Authorization: Bearer {KEY})"}}}}"#);
    server.script(
        "gpt-a",
        vec![
            Reply::status(500).body(echo.clone()),
            Reply::status(200).body(format!("<html>proxy saw {KEY}</html>")),
            Reply::status(401).body(echo),
        ],
    );
    server.script("claude-a", vec![Reply::status(403).body(format!("forbidden for x-api-key {KEY}"))]);

    let mut outputs = Vec::new();
    for model in ["openai:gpt-a", "anthropic:claude-a"] {
        let base_url = if model.starts_with("openai") { server.base_url_openai() } else { server.base_url_anthropic() };
        let error = proposer(model, settings(base_url)).complete(&request(model)).await.unwrap_err();
        // 401 and 403 refuse the key: an `Auth` error that names what to fix.
        let ProposeError::Auth { attempts, hint, .. } = &error else { panic!("{error:?}") };
        outputs.extend([error.to_string(), format!("{error:?}"), serde_json::to_string(attempts).unwrap(), hint.clone()]);
    }
    assert_redacted(&outputs);
    assert!(outputs[0].starts_with("`openai:gpt-a` refused the request: HTTP 401: "), "{}", outputs[0]);
    assert!(outputs[3].starts_with("check `OPENAI_API_KEY`"), "{}", outputs[3]);
    assert!(outputs[7].starts_with("check `ANTHROPIC_API_KEY`"), "{}", outputs[7]);
    assert!(outputs[2].contains("proxy saw [REDACTED]"), "{}", outputs[2]);
}

#[test]
fn settings_debug_hides_the_key() {
    let settings = ProviderSettings { api_key: Some(KEY.to_owned()), ..ProviderSettings::default() };
    assert_redacted(&[format!("{settings:?}"), format!("{settings:#?}")]);
}

/// A dummy key for a local server (`OPENAI_API_KEY=x`) is no pattern: the
/// answer's every `x` stays, and the cache stores the answer as received.
#[tokio::test]
async fn a_short_key_leaves_answers_and_the_cache_as_received() {
    let server = TestServer::start().await;
    server.script("gpt-4.1", vec![Reply::text(MOD)]);
    let dir = tempfile::tempdir().unwrap();
    let settings = ProviderSettings { api_key: Some("x".to_owned()), ..settings(server.base_url_openai()) };
    let cache = ResponseCache::new(dir.path());
    let cached = CachedProposer::new(proposer("openai:gpt-4.1", settings), cache.clone());
    let request = request("openai:gpt-4.1");
    let completion = cached.complete(&request).await.unwrap();
    assert_eq!(server.requests()[0].header("authorization"), Some("Bearer x"));
    assert_eq!(completion.text, MOD);
    assert_eq!(cache.get(&request).map(|stored| stored.text), Some(MOD.to_owned()));
}

/// A model's answer is judged as code: even a real key in it is kept (it is
/// the model's text, not an echo of the request), while errors stay redacted.
#[tokio::test]
async fn answers_are_never_redacted_but_errors_are() {
    let server = TestServer::start().await;
    let answer = format!("```js\nexport const KEY = \"{KEY}\";\n```\n");
    server.script("gpt-4.1", vec![Reply::status(500).body(format!("echo {KEY}")), Reply::text(answer.clone())]);
    let completion = proposer("openai:gpt-4.1", settings(server.base_url_openai())).complete(&request("openai:gpt-4.1")).await.unwrap();
    assert_eq!(completion.text, answer);
    assert_eq!(completion.attempts[0].error.as_deref(), Some("HTTP 500: echo [REDACTED]"));
}

/// Entries stored by a version that redacted answers are misses: the rerun asks again.
#[tokio::test]
async fn a_redacted_cache_entry_is_asked_for_again() {
    let server = TestServer::start().await;
    server.script("gpt-4.1", vec![Reply::text(MOD), Reply::text(MOD)]);
    let dir = tempfile::tempdir().unwrap();
    let cache = ResponseCache::new(dir.path());
    let request = request("openai:gpt-4.1");
    let answer = proposer("openai:gpt-4.1", settings(server.base_url_openai())).complete(&request).await.unwrap();
    cache.put(&request, &modlearn_propose::Completion { text: MOD.replace('x', "[REDACTED]"), ..answer }).unwrap();
    let cached = CachedProposer::new(proposer("openai:gpt-4.1", settings(server.base_url_openai())), cache.clone());
    let completion = cached.complete(&request).await.unwrap();
    assert!(!completion.cached);
    assert_eq!(server.request_count(), 2);
    assert_eq!(cache.get(&request).map(|stored| stored.text), Some(MOD.to_owned()));
}
