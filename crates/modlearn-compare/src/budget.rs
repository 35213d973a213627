//! The comparison-wide limits, as a proposer wrapper: one pool of request
//! permits and one budget shared by every job, so `--concurrency` and
//! `--max-usd` hold across the whole comparison, not per run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use modlearn_propose::{BoxFuture, Completion, CompletionRequest, ProposeError, Proposer};
use tokio::sync::Semaphore;

/// What every job shares.
#[derive(Clone)]
pub(crate) struct SharedLimits {
    requests: Arc<Semaphore>,
    spent: Arc<Mutex<f64>>,
    max_usd: Option<f64>,
}

impl SharedLimits {
    pub(crate) fn new(concurrency: usize, max_usd: Option<f64>) -> SharedLimits {
        SharedLimits { requests: Arc::new(Semaphore::new(concurrency.max(1))), spent: Arc::new(Mutex::new(0.0)), max_usd }
    }

    /// US dollars spent so far, all jobs together.
    pub(crate) fn spent(&self) -> f64 {
        *self.spent.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.max_usd.is_some_and(|max| self.spent() >= max)
    }
}

/// One job's view of a model: the shared limits in front of the real
/// proposer, remembering whether the budget turned a request away (such a
/// job is unfinished and runs again on the next `compare` with the same
/// `--out`).
pub(crate) struct LimitedProposer {
    inner: Arc<dyn Proposer>,
    limits: SharedLimits,
    refused: AtomicBool,
}

impl LimitedProposer {
    pub(crate) fn new(inner: Arc<dyn Proposer>, limits: SharedLimits) -> LimitedProposer {
        LimitedProposer { inner, limits, refused: AtomicBool::new(false) }
    }

    pub(crate) fn refused(&self) -> bool {
        self.refused.load(Ordering::SeqCst)
    }
}

impl Proposer for LimitedProposer {
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>> {
        Box::pin(async move {
            let _permit = self.limits.requests.acquire().await.expect("the request pool is never closed");
            if self.limits.exhausted() {
                self.refused.store(true, Ordering::SeqCst);
                return Err(ProposeError::Config("the comparison's budget (`--max-usd`) is spent".to_owned()));
            }
            let answer = self.inner.complete(request).await;
            if let Ok(completion) = &answer {
                *self.limits.spent.lock().unwrap_or_else(|poison| poison.into_inner()) += completion.cost_usd;
            }
            answer
        })
    }
}
