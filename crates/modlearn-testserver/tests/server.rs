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
    let started = std::time::Instant::now();
    let (a, b, c) = tokio::join!(post(&url, chat("slow", "1")), post(&url, chat("slow", "2")), post(&url, chat("slow", "3")));
    assert_eq!((a.0, b.0, c.0), (200, 200, 200));
    assert!(started.elapsed() < Duration::from_millis(900), "the delays ran one after another");
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
