//! Tool calling and the agent loop against the scripted server, on both APIs.

use std::sync::Arc;

use modlearn_propose::toolchat::{ChatMessage, ToolChat, TurnRequest};
use modlearn_propose::{
    AgentEnd, AgentLimits, AgentProposer, CachedToolChat, ModelRef, ProposeError, ResponseCache, TranscriptEntry, Workspace,
    agent::agent_tools, http_tool_chat,
};
use modlearn_testserver::{Reply, TestServer};
use serde_json::json;

use super::{KEY, request, settings};

fn chat(model: &str, server: &TestServer) -> Box<dyn ToolChat> {
    let base = if model.starts_with("openai") { server.base_url_openai() } else { server.base_url_anthropic() };
    http_tool_chat(&ModelRef::parse(model).unwrap(), settings(base)).unwrap()
}

fn run_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("proposer-guide.md"), "# Proposer guide\n\nLook first at `rewrite-pip`.\n").unwrap();
    std::fs::write(dir.path().join("secret.json"), "hidden scenario\n").unwrap();
    dir
}

const SOURCE: &str = "export function activate(letta) {}\n";

#[tokio::test]
async fn a_turn_round_trips_tool_calls_on_both_apis() {
    let server = TestServer::start().await;
    server.session("*", vec![Reply::tool_call("list", json!({})).usage(10, 2), Reply::text("all done").usage(20, 3)]);
    for model in ["openai:gpt-4.1", "anthropic:claude-sonnet-4-5"] {
        let chat = chat(model, &server);
        let mut request = TurnRequest {
            model: ModelRef::parse(model).unwrap(),
            messages: vec![ChatMessage::system("s"), ChatMessage::user("list it")],
            tools: agent_tools(),
            max_tokens: 100,
            temperature: 0.0,
            seed: 1,
        };
        let first = chat.turn(&request).await.unwrap();
        assert_eq!(first.tool_calls.len(), 1, "{model}");
        assert_eq!((first.tool_calls[0].name.as_str(), &first.tool_calls[0].arguments), ("list", &json!({})));
        assert_eq!(first.usage.input_tokens, 10);
        assert!(first.cost_usd > 0.0, "{model}: priced by the table");
        request.messages.push(first.to_message());
        request.messages.push(ChatMessage::tool_result(first.tool_calls[0].id.clone(), "a.txt", false));
        let second = chat.turn(&request).await.unwrap();
        assert_eq!(second.text, "all done");
        assert!(second.tool_calls.is_empty());
        let sent = server.requests().pop().unwrap();
        assert_eq!(sent.tool_names(), ["list", "read", "search", "write_candidate"]);
        assert_eq!(sent.last_tool_results()[0].content, "a.txt");
    }
}

#[tokio::test]
async fn the_agent_reads_searches_and_writes_and_the_session_is_cached() {
    let server = TestServer::start().await;
    server.session(
        "*",
        vec![
            Reply::tool_call("list", json!({})),
            Reply::tool_calls(vec![
                ("read".into(), json!({"path": "proposer-guide.md"})),
                ("read".into(), json!({"path": "../etc/passwd"})),
            ]),
            Reply::tool_call("search", json!({"pattern": "rewrite-\\w+", "regex": true})),
            Reply::tool_call("write_candidate", json!({"source": SOURCE})),
        ],
    );
    let dir = run_dir();
    let cache = tempfile::tempdir().unwrap();
    for model in ["openai:gpt-4.1", "anthropic:claude-sonnet-4-5"] {
        server.clear_requests();
        let chat: Arc<dyn ToolChat> = Arc::new(CachedToolChat::new(chat(model, &server), ResponseCache::new(cache.path().join("turns"))));
        let agent = AgentProposer::new(chat, AgentLimits::default()).with_session_cache(ResponseCache::new(cache.path().join("sessions")));
        let workspace = Workspace::new(dir.path(), vec!["proposer-guide.md".into()]).unwrap();
        let spend = |_: f64| true;
        let session = agent.propose(&request(model), &workspace, &spend).await.unwrap();
        assert_eq!(session.end, AgentEnd::Written, "{model}");
        assert_eq!(session.source.as_deref(), Some(SOURCE));
        assert_eq!(session.steps, 4);
        assert_eq!(server.request_count(), 4);
        let results: Vec<(String, bool, String)> = session
            .transcript
            .iter()
            .filter_map(|entry| match entry {
                TranscriptEntry::Tool { name, ok, result, .. } => Some((name.clone(), *ok, result.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(results[0], ("list".into(), true, "./ (1 entries)\nproposer-guide.md (47 bytes)\n".into()));
        assert!(results[1].2.contains("Look first at `rewrite-pip`"), "{results:?}");
        assert_eq!(results[2], ("read".into(), false, "error: `../etc/passwd` leaves the run directory; `..` is not allowed".into()));
        assert_eq!(results[3].2, "proposer-guide.md:3: Look first at `rewrite-pip`.\n");
        assert_eq!(results[4], ("write_candidate".into(), true, "candidate written".into()));
        // The escape attempt came back to the model as an error result.
        let requests = server.requests();
        let error = requests[2].last_tool_results()[1].clone();
        assert!(error.content.starts_with("error: "), "{error:?}");
        assert_eq!(error.is_error, model.starts_with("anthropic"), "only Anthropic carries is_error");

        // The same session again: replayed whole from the cache, nothing asked.
        server.clear_requests();
        let again = agent.propose(&request(model), &workspace, &spend).await.unwrap();
        assert!(again.cached);
        assert_eq!((again.source, again.usage), (session.source, session.usage));
        assert_eq!(server.request_count(), 0);
    }
}

#[tokio::test]
async fn a_session_that_never_writes_ends_at_the_step_bound_and_a_bad_key_stops_it() {
    let server = TestServer::start().await;
    server.session("gpt-4.1", vec![Reply::tool_call("list", json!({})), Reply::text("I think I am done.")]);
    let dir = run_dir();
    let agent = AgentProposer::new(Arc::from(chat("openai:gpt-4.1", &server)), AgentLimits { max_steps: 3, ..AgentLimits::default() });
    let workspace = Workspace::new(dir.path(), vec![]).unwrap();
    let session = agent.propose(&request("openai:gpt-4.1"), &workspace, &|_| true).await.unwrap();
    assert_eq!(session.end, AgentEnd::StepBound { max_steps: 3 });
    assert_eq!(session.end.failure().unwrap(), "the agent did not call `write_candidate` within 3 steps");
    assert_eq!(session.source, None);
    let notes: Vec<&TranscriptEntry> = session.transcript.iter().filter(|entry| matches!(entry, TranscriptEntry::Note { .. })).collect();
    let reminder = "Call `write_candidate` with the complete source of the mod; 1 step(s) left.";
    assert_eq!(notes, [&TranscriptEntry::Note { step: 2, text: reminder.into() }], "a text-only turn gets a reminder");
    assert_eq!(server.requests()[2].prompt_text().lines().last(), Some(reminder));
    assert_eq!(server.request_count(), 3);
    let transcript = session.transcript_jsonl();
    assert!(
        transcript.lines().next().unwrap().contains("\"failure\":\"the agent did not call `write_candidate` within 3 steps\""),
        "{transcript}"
    );

    // The budget stops a session after the turn that spent it.
    server.clear_requests();
    let session = agent.propose(&request("openai:gpt-4.1"), &workspace, &|_| false).await.unwrap();
    assert_eq!((session.end, server.request_count()), (AgentEnd::Budget, 1));

    server.script("gpt-4.1", vec![Reply::status(401).body(format!("{{\"error\": {{\"message\": \"bad key {KEY}\"}}}}"))]);
    let error = agent.propose(&request("openai:gpt-4.1"), &workspace, &|_| true).await.unwrap_err();
    let ProposeError::Auth { message, hint, attempts } = &error else { panic!("{error:?}") };
    assert_eq!(message, "`openai:gpt-4.1` refused the request: HTTP 401: bad key [REDACTED]");
    assert!(hint.starts_with("check `OPENAI_API_KEY`"), "{hint}");
    assert_eq!(attempts.len(), 1, "a refused key is not retried");
}

#[test]
fn the_local_model_takes_no_tools() {
    let error = http_tool_chat(&ModelRef::parse("local:smollm2-135m").unwrap(), Default::default()).err().unwrap();
    assert_eq!(error.to_string(), "`local:smollm2-135m` runs in-process and does not support tool calls");
}
