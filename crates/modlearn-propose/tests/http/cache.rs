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

#[tokio::test]
async fn answers_past_the_bounds_are_refused_unread_or_not_kept() {
    let server = TestServer::start().await;
    let huge = format!("```ts\n{MOD}\n```\n{}", "x".repeat(5 << 20));
    let long = format!("```ts\n{MOD}\n```\n{}", "y".repeat(2 << 20));
    server.script("gpt-4.1", vec![Reply::text(huge), Reply::text(long)]);
    let dir = tempfile::tempdir().unwrap();
    let proposer = cached(&server, dir.path());

    let refused = proposer.complete(&request(MODEL)).await.unwrap_err().to_string();
    assert!(refused.contains("the answer is larger than 4 MiB"), "{refused}");
    assert_eq!(server.request_count(), 1, "an answer too large is not asked for again");

    // Read, but longer than a candidate may be: not cached.
    let second = CompletionRequest { seed: 43, ..request(MODEL) };
    let kept = proposer.complete(&second).await.unwrap();
    assert!(kept.text.len() > 2 << 20);
    assert_eq!(std::fs::read_dir(dir.path()).map(|entries| entries.count()).unwrap_or(0), 0, "nothing was cached");
}
