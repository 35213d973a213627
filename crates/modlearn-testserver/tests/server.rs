//! The server against a plain HTTP client.

use std::time::Duration;

use modlearn_testserver::{Api, NO_CODE_TEXT, Reply, TestServer};
use serde_json::{Value, json};

async fn post(url: &str, body: Value) -> (u16, Option<String>, String) {
    let response = reqwest::Client::new().post(url).header("authorization", "Bearer k-1").json(&body).send().await.unwrap();
    let status = response.status().as_u16();
    let retry_after = response.headers().get("retry-after").map(|value| value.to_str().unwrap().to_owned());
    (status, retry_after, response.text().await.unwrap())
}

fn chat(model: &str, prompt: &str) -> Value {
    json!({"model": model, "messages": [{"role": "user", "content": prompt}]})
}

#[tokio::test]
async fn script_is_consumed_in_order_and_repeats_its_last_reply() {
    let server = TestServer::start().await;
    server.script("m", vec![Reply::status(429).retry_after(3), Reply::text("hello").usage(7, 9)]);
    let url = format!("{}/chat/completions", server.base_url_openai());

    let (status, retry_after, body) = post(&url, chat("m", "hi")).await;
    assert_eq!((status, retry_after.as_deref()), (429, Some("3")));
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["error"]["type"], "rate_limit_error");
    for _ in 0..2 {
        let (status, _, body) = post(&url, chat("m", "hi")).await;
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(status, 200);
        assert_eq!(body["choices"][0]["message"]["content"], "hello");
        assert_eq!(body["usage"], json!({"prompt_tokens": 7, "completion_tokens": 9, "total_tokens": 16}));
    }
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(requests[0].api, Api::Openai);
    assert_eq!(requests[0].header("Authorization"), Some("Bearer k-1"));
    assert_eq!(requests[0].model(), Some("m"));
}

#[tokio::test]
async fn anthropic_shape_broken_json_no_code_and_unscripted_models() {
    let server = TestServer::start().await;
    server.script("c", vec![Reply::no_code(), Reply::broken_json()]);
    let url = format!("{}/v1/messages", server.base_url_anthropic());

    let (status, _, body) = post(&url, chat("c", "hi")).await;
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 200);
    assert_eq!(body["content"][0]["text"], NO_CODE_TEXT);
    assert!(body["usage"]["input_tokens"].as_u64().unwrap() >= 1);

    let (status, _, body) = post(&url, chat("c", "hi")).await;
    assert_eq!(status, 200);
    assert!(serde_json::from_str::<Value>(&body).is_err(), "{body}");

    let (status, _, body) = post(&url, chat("other", "hi")).await;
    assert_eq!(status, 404);
    assert!(body.contains("no script for model `other`"), "{body}");
}

#[tokio::test]
async fn responder_answers_by_prompt_for_any_model() {
    let server = TestServer::start().await;
    server.respond_with("*", |request| Reply::text(format!("you said: {}", request.prompt_text())));
    let (_, _, body) = post(&format!("{}/chat/completions", server.base_url_openai()), chat("any", "ping")).await;
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["choices"][0]["message"]["content"], "you said: ping");
}

#[tokio::test]
async fn counts_requests_in_flight() {
    let server = TestServer::start().await;
    server.script("slow", vec![Reply::text("ok").after(Duration::from_millis(300))]);
    let url = format!("{}/chat/completions", server.base_url_openai());
    let (a, b, c) = tokio::join!(post(&url, chat("slow", "1")), post(&url, chat("slow", "2")), post(&url, chat("slow", "3")));
    assert_eq!((a.0, b.0, c.0), (200, 200, 200));
    // The delays overlapped: all three were in flight at once.
    assert_eq!(server.max_in_flight(), 3);
    server.clear_requests();
    post(&url, chat("slow", "4")).await;
    assert_eq!((server.request_count(), server.max_in_flight()), (1, 1));
}

#[test]
fn blocking_server_stops_on_drop() {
    let server = TestServer::start_blocking();
    let addr = server.addr();
    assert!(std::net::TcpStream::connect(addr).is_ok());
    drop(server);
    assert!(std::net::TcpStream::connect(addr).is_err());
}

#[tokio::test]
async fn tool_call_replies_and_the_tool_protocol_on_both_apis() {
    let server = TestServer::start().await;
    server.session("m", vec![Reply::tool_call("list", json!({"path": "."})).with_text("looking"), Reply::text("done")]);
    let openai = format!("{}/chat/completions", server.base_url_openai());
    let tools = json!([{"type": "function", "function": {"name": "list", "parameters": {"type": "object"}}}]);

    let (status, _, body) = post(&openai, json!({"model": "m", "messages": [{"role": "user", "content": "go"}], "tools": tools})).await;
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(status, 200);
    assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
    assert_eq!(body["choices"][0]["message"]["content"], "looking");
    assert_eq!(
        body["choices"][0]["message"]["tool_calls"],
        json!([{"id": "call_1_1", "type": "function", "function": {"name": "list", "arguments": "{\"path\":\".\"}"}}])
    );
    let assistant = body["choices"][0]["message"].clone();

    // An unanswered call is refused, as the real API does.
    let (status, _, body) =
        post(&openai, json!({"model": "m", "messages": [{"role": "user", "content": "go"}, assistant, {"role": "user", "content": "?"}]}))
            .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("tool call `call_1_1` has no tool result right after it"), "{body}");

    let answered = json!({"model": "m", "tools": tools, "messages": [
        {"role": "user", "content": "go"}, assistant, {"role": "tool", "tool_call_id": "call_1_1", "content": "a.txt"}]});
    let (status, _, body) = post(&openai, answered).await;
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["choices"][0]["message"]["content"], "done");
    let last = server.requests().pop().unwrap();
    assert_eq!(last.turn(), 2);
    assert_eq!(last.tool_names(), ["list"]);
    assert_eq!(
        last.last_tool_results(),
        [modlearn_testserver::ToolResult { call_id: "call_1_1".into(), content: "a.txt".into(), is_error: false }]
    );

    // Anthropic: tool_use blocks out, tool_result blocks back in the next user message.
    let anthropic = format!("{}/v1/messages", server.base_url_anthropic());
    let (_, _, body) = post(&anthropic, json!({"model": "m", "messages": [{"role": "user", "content": "go"}]})).await;
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["stop_reason"], "tool_use");
    assert_eq!(body["content"][1], json!({"type": "tool_use", "id": "call_1_1", "name": "list", "input": {"path": "."}}));
    let stray =
        json!({"model": "m", "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "x", "content": "?"}]}]});
    assert_eq!(post(&anthropic, stray).await.0, 400);
    let answered = json!({"model": "m", "messages": [
        {"role": "user", "content": "go"}, {"role": "assistant", "content": body["content"]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1_1", "content": "nope", "is_error": true}]}]});
    assert_eq!(post(&anthropic, answered).await.0, 200);
    let last = server.requests().pop().unwrap();
    assert!(last.last_tool_results()[0].is_error);
}
