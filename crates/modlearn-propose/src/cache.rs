//! A content-addressed cache of completions on disk, so re-running a
//! round asks no model twice for the same thing.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::{BoxFuture, Completion, CompletionRequest, ProposeError, Proposer};

/// The most a cache directory holds; past it, the entries used longest ago go first.
pub const CACHE_BYTES: u64 = 256 << 20;

/// Completions stored as `DIR/<sha256 of the request>.json`, at most [`CACHE_BYTES`] of them.
#[derive(Clone, Debug)]
pub struct ResponseCache {
    dir: PathBuf,
}

impl ResponseCache {
    /// A cache in `dir` (created on first store).
    pub fn new(dir: impl Into<PathBuf>) -> ResponseCache {
        ResponseCache { dir: dir.into() }
    }

    /// The cache's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The hex SHA-256 of the request's canonical JSON: provider, model,
    /// messages, max_tokens, temperature, seed, in a fixed order.
    pub fn key(request: &CompletionRequest) -> String {
        // `version` changes whenever this layout or the stored value does.
        let canonical = json!({
            "version": 1,
            "provider": request.model.provider,
            "model": request.model.name,
            "messages": request.messages,
            "maxTokens": request.max_tokens,
            "temperature": request.temperature,
            "seed": request.seed,
        });
        digest(&canonical)
    }

    /// Where the request's completion is (or would be) stored.
    pub fn path(&self, request: &CompletionRequest) -> PathBuf {
        self.dir.join(format!("{}.json", ResponseCache::key(request)))
    }

    /// The stored completion, if any. An unreadable or corrupt entry is a
    /// miss (the next store overwrites it).
    pub fn get(&self, request: &CompletionRequest) -> Option<Completion> {
        self.load(&ResponseCache::key(request))
    }

    /// Stores `completion` atomically (a temporary file in the same
    /// directory, then a rename), so readers never see half an entry.
    /// An answer longer than any candidate may be is not kept.
    pub fn put(&self, request: &CompletionRequest, completion: &Completion) -> std::io::Result<()> {
        if completion.is_longer_than_a_candidate() {
            return Ok(());
        }
        self.store(&ResponseCache::key(request), completion)
    }

    /// The value stored under `key`, if any; unreadable or corrupt is a miss.
    pub(crate) fn load<T: DeserializeOwned>(&self, key: &str) -> Option<T> {
        let path = self.dir.join(format!("{key}.json"));
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return None,
            Err(error) => {
                tracing::warn!("ignoring the cache entry `{}`: {error}", path.display());
                return None;
            }
        };
        // Earlier versions redacted the key out of answers before storing them, which with a short
        // dummy key corrupted the code; such an entry is a miss, so the answer is asked for again.
        if text.contains(crate::redact::REDACTED) {
            tracing::warn!("ignoring the cache entry `{}`: it holds a redacted answer", path.display());
            return None;
        }
        let value = serde_json::from_str(&text)
            .inspect_err(|error| tracing::warn!("ignoring the corrupt cache entry `{}`: {error}", path.display()))
            .ok();
        if value.is_some() {
            // Used now: the last to be evicted.
            let _ = std::fs::File::options().append(true).open(&path).and_then(|file| file.set_modified(std::time::SystemTime::now()));
        }
        value
    }

    /// Stores `value` under `key` atomically.
    pub(crate) fn store(&self, key: &str, value: &impl Serialize) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let mut file = tempfile::NamedTempFile::new_in(&self.dir)?;
        file.write_all(&serde_json::to_vec_pretty(value).map_err(std::io::Error::other)?)?;
        file.persist(self.dir.join(format!("{key}.json"))).map_err(|error| error.error)?;
        self.evict(CACHE_BYTES);
        Ok(())
    }

    /// Removes the entries used longest ago until the directory holds at most three quarters
    /// of `limit`, once it holds more than `limit`.
    pub(crate) fn evict(&self, limit: u64) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        let mut stored: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter(|entry| entry.path().extension().is_some_and(|extension| extension == "json"))
            .filter_map(|entry| {
                let metadata = entry.metadata().ok()?;
                Some((metadata.modified().ok()?, metadata.len(), entry.path()))
            })
            .collect();
        let mut total: u64 = stored.iter().map(|(_, size, _)| size).sum();
        if total <= limit {
            return;
        }
        stored.sort();
        for (_, size, path) in stored {
            if total <= limit / 4 * 3 {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total -= size;
            }
        }
    }
}

/// The hex SHA-256 of a canonical JSON value.
pub(crate) fn digest(canonical: &serde_json::Value) -> String {
    let digest = Sha256::digest(canonical.to_string().as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A proposer that answers from a [`ResponseCache`] when it can.
///
/// A hit makes no request and comes back with `cached: true`, no attempts
/// and zero latency; usage and cost are those of the original answer, so
/// reports can still compare what answers cost. Failures are not cached.
pub struct CachedProposer {
    inner: Box<dyn Proposer>,
    cache: ResponseCache,
}

impl CachedProposer {
    /// Wraps `inner` with `cache`.
    pub fn new(inner: Box<dyn Proposer>, cache: ResponseCache) -> CachedProposer {
        CachedProposer { inner, cache }
    }

    /// The cache.
    pub fn cache(&self) -> &ResponseCache {
        &self.cache
    }
}

impl Proposer for CachedProposer {
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>> {
        Box::pin(async move {
            if let Some(hit) = self.cache.get(request) {
                return Ok(Completion { cached: true, attempts: Vec::new(), latency_ms: 0, ..hit });
            }
            let completion = self.inner.complete(request).await?;
            if let Err(error) = self.cache.put(request, &completion) {
                // The answer is still good; only the next run pays again.
                tracing::warn!("cannot store a response in `{}`: {error}", self.cache.dir.display());
            }
            Ok(completion)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Message, ModelRef, Role};

    fn request(seed: u64) -> CompletionRequest {
        CompletionRequest {
            model: ModelRef::parse("openai:gpt-4.1").unwrap(),
            messages: vec![Message { role: Role::User, content: "hi".into() }],
            max_tokens: 10,
            temperature: 0.7,
            seed,
        }
    }

    #[test]
    fn the_key_is_stable_and_covers_every_field() {
        let key = ResponseCache::key(&request(1));
        // Pinned: a change here silently empties everyone's cache, so it
        // must be deliberate (bump `version` in the canonical JSON).
        assert_eq!(key, "03c51d49efbce9672c44b6ba02c89cf5105395ecb211d21f82a8ea2b10cec81d");
        let mut changed = vec![request(2), request(1), request(1), request(1), request(1)];
        changed[1].max_tokens = 11;
        changed[2].temperature = 0.8;
        changed[3].messages[0].role = Role::System;
        changed[4].model = ModelRef::parse("anthropic:gpt-4.1").unwrap();
        for other in changed {
            assert_ne!(key, ResponseCache::key(&other), "{other:?}");
        }
    }

    #[test]
    fn a_full_cache_forgets_what_was_used_longest_ago() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ResponseCache::new(dir.path());
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for key in ["a", "b", "c", "d"] {
            cache.store(key, &"x".repeat(1000)).unwrap();
            let file = std::fs::File::options().append(true).open(dir.path().join(format!("{key}.json"))).unwrap();
            file.set_modified(old + std::time::Duration::from_secs(key.as_bytes()[0] as u64)).unwrap();
        }
        // `a` is read, so it is the most recently used.
        assert_eq!(cache.load::<String>("a").as_deref(), Some("x".repeat(1000).as_str()));
        cache.evict(3000);
        let left: Vec<bool> = ["a", "b", "c", "d"].iter().map(|key| dir.path().join(format!("{key}.json")).exists()).collect();
        assert_eq!(left, [true, false, false, true]);
    }
}
