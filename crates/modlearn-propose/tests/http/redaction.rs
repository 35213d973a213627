//! The API key never reaches an error, an attempt or a debug print, even
//! when a server echoes it back.

use modlearn_propose::{ProposeError, ProviderSettings};
use modlearn_testserver::{Reply, TestServer};

use super::{KEY, proposer, request, settings};

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
    server.script("gpt-a", vec![Reply::status(500).body(echo.clone()), Reply::status(200).body(format!("<html>proxy saw {KEY}</html>")), Reply::status(401).body(echo)]);
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
