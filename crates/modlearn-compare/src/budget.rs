//! The comparison-wide limits, as client wrappers: one pool of request
//! permits and one budget shared by every job, so `--concurrency` and
//! `--max-usd` hold across the whole comparison, not per run. Proposals,
//! agent turns and the eval model's turns all go through them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use modlearn_propose::{AssistantTurn, BoxFuture, Completion, CompletionRequest, ProposeError, Proposer, ToolChat, TurnRequest};
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

    /// One job's view of the limits.
    pub(crate) fn for_job(&self) -> JobLimits {
        JobLimits { limits: self.clone(), refused: Arc::new(AtomicBool::new(false)) }
    }
}

/// One job's view of the limits, remembering whether the budget turned one
/// of its requests away (such a job is unfinished and runs again on the
/// next `compare` with the same `--out`).
#[derive(Clone)]
pub(crate) struct JobLimits {
    limits: SharedLimits,
    refused: Arc<AtomicBool>,
}

impl JobLimits {
    pub(crate) fn refused(&self) -> bool {
        self.refused.load(Ordering::SeqCst)
    }

    /// Runs `ask` with a request permit, unless the budget is spent; adds what it cost.
    async fn ask<T>(&self, ask: impl Future<Output = Result<T, ProposeError>>, cost: impl Fn(&T) -> f64) -> Result<T, ProposeError> {
        let _permit = self.limits.requests.acquire().await.expect("the request pool is never closed");
        if self.limits.exhausted() {
            self.refused.store(true, Ordering::SeqCst);
            return Err(ProposeError::Config("the comparison's budget (`--max-usd`) is spent".to_owned()));
        }
        let answer = ask.await;
        if let Ok(answer) = &answer {
            *self.limits.spent.lock().unwrap_or_else(|poison| poison.into_inner()) += cost(answer);
        }
        answer
    }
}

/// A client behind a job's limits.
pub(crate) struct Limited<T: ?Sized> {
    inner: Arc<T>,
    limits: JobLimits,
}

impl<T: ?Sized> Limited<T> {
    pub(crate) fn new(inner: Arc<T>, limits: &JobLimits) -> Limited<T> {
        Limited { inner, limits: limits.clone() }
    }
}

impl Proposer for Limited<dyn Proposer> {
    fn complete<'a>(&'a self, request: &'a CompletionRequest) -> BoxFuture<'a, Result<Completion, ProposeError>> {
        Box::pin(self.limits.ask(self.inner.complete(request), |completion| completion.cost_usd))
    }
}

impl ToolChat for Limited<dyn ToolChat> {
    fn turn<'a>(&'a self, request: &'a TurnRequest) -> BoxFuture<'a, Result<AssistantTurn, ProposeError>> {
        Box::pin(self.limits.ask(self.inner.turn(request), |turn| turn.cost_usd))
    }
}
