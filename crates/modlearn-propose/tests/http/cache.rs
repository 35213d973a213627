//! The response cache in front of a real provider.

use modlearn_propose::{CachedProposer, CompletionRequest, Proposer, ResponseCache};
use modlearn_testserver::{Reply, TestServer};

use super::{MOD, proposer, request, settings};

const MODEL: &str = "openai:gpt-4.1";

fn cached(server: &TestServer, dir: &std::path::Path) -> CachedProposer {
    CachedProposer::new(proposer(MODEL, settings(server.base_url_openai())), ResponseCache::new(dir))
}

#[tokio::test]
async fn a_hit_makes_no_request_and_survives_a_new_proposer() {
    let server = TestServer::start().await;
    server.script("gpt-4.1", vec![Reply::text(MOD).usage(100, 50)]);
    let dir = tempfile::tempdir().unwrap();
    let request = request(MODEL);

    let first = cached(&server, dir.path()).complete(&request).await.unwrap();
    assert!(!first.cached);
    assert_eq!(server.request_count(), 1);

    let second = cached(&server, dir.path()).complete(&request).await.unwrap();
    assert_eq!(server.request_count(), 1, "a hit must not reach the server");
    assert!(second.cached);
    assert_eq!((second.text.as_str(), second.usage, second.cost_usd), (first.text.as_str(), first.usage, first.cost_usd));
    assert!(second.attempts.is_empty());

    let other_seed = CompletionRequest { seed: 43, ..request };
    assert!(!cached(&server, dir.path()).complete(&other_seed).await.unwrap().cached);
    assert_eq!(server.request_count(), 2);
}

#[tokio::test]
async fn a_corrupt_entry_is_a_miss_and_is_overwritten() {
    let server = TestServer::start().await;
    server.script("gpt-4.1", vec![Reply::text(MOD)]);
    let dir = tempfile::tempdir().unwrap();
    let request = request(MODEL);
    let cache = ResponseCache::new(dir.path());
    std::fs::write(cache.path(&request), "{\"text\": \"half").unwrap();

    let completion = cached(&server, dir.path()).complete(&request).await.unwrap();
    assert!(!completion.cached);
    assert_eq!(server.request_count(), 1);
    assert_eq!(cache.get(&request).map(|stored| stored.text), Some(MOD.to_owned()));
    let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(files.len(), 1, "no temporary files left behind: {files:?}");
}

#[tokio::test]
async fn failures_are_not_cached() {
    let server = TestServer::start().await;
    server.script("gpt-4.1", vec![Reply::status(400), Reply::text(MOD)]);
    let dir = tempfile::tempdir().unwrap();
    let request = request(MODEL);
    assert!(cached(&server, dir.path()).complete(&request).await.is_err());
    assert!(!cached(&server, dir.path()).complete(&request).await.unwrap().cached);
    assert_eq!(server.request_count(), 2);
}
