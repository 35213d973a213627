//! Retries with exponential backoff and full jitter, honouring `Retry-After`.

use std::future::Future;
use std::time::{Duration, Instant};

use crate::redact::redact;
use crate::{HttpAttempt, ProposeError};

/// How often and how patiently to retry a failed request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (at least 1 is made).
    pub max_attempts: u32,
    /// The backoff before the second attempt; it doubles after each.
    pub base_delay: Duration,
    /// The longest wait, also for a server's `Retry-After`.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy { max_attempts: 5, base_delay: Duration::from_millis(500), max_delay: Duration::from_secs(30) }
    }
}

impl RetryPolicy {
    /// The wait after failed attempt `attempt` (0-based): the server's
    /// `Retry-After` if it gave one, else a uniform draw from zero to
    /// `base_delay * 2^attempt` ("full jitter", so many clients that failed
    /// together do not retry together); both capped at `max_delay`.
    pub fn delay(&self, attempt: u32, retry_after: Option<Duration>, rng: &mut fastrand::Rng) -> Duration {
        if let Some(wait) = retry_after {
            return wait.min(self.max_delay);
        }
        let ceiling = self.base_delay.saturating_mul(2u32.saturating_pow(attempt)).min(self.max_delay);
        let millis = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(rng.u64(0..=millis))
    }
}

/// The outcome of one attempt, as the retry loop needs it.
pub(crate) struct Attempt<T> {
    /// HTTP status, if a response arrived.
    pub status: Option<u16>,
    /// The server's `Retry-After`, if any.
    pub retry_after: Option<Duration>,
    /// The answer, or what went wrong and whether trying again may help.
    pub result: Result<T, Failure>,
}

/// Why an attempt failed.
pub(crate) struct Failure {
    pub message: String,
    pub retryable: bool,
}

impl Failure {
    pub fn retryable(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), retryable: true }
    }

    pub fn fatal(message: impl Into<String>) -> Failure {
        Failure { message: message.into(), retryable: false }
    }
}

/// Runs `attempt` until it succeeds, fails for good, or the policy runs
/// out; records every attempt, every message redacted of `secrets`.
pub(crate) async fn with_retries<T, F, Fut>(
    policy: &RetryPolicy,
    secrets: &[&str],
    mut attempt: F,
) -> Result<(T, Vec<HttpAttempt>), ProposeError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Attempt<T>>,
{
    let mut rng = fastrand::Rng::new();
    let mut attempts = Vec::new();
    let max_attempts = policy.max_attempts.max(1);
    for number in 0..max_attempts {
        let started = Instant::now();
        let outcome = attempt().await;
        let latency_ms = millis(started.elapsed());
        let failure = match outcome.result {
            Ok(value) => {
                attempts.push(HttpAttempt { status: outcome.status, error: None, latency_ms, retry_after_ms: None });
                return Ok((value, attempts));
            }
            Err(failure) => failure,
        };
        let message = redact(&failure.message, secrets);
        let last = number + 1 == max_attempts;
        let wait = (failure.retryable && !last).then(|| policy.delay(number, outcome.retry_after, &mut rng));
        attempts.push(HttpAttempt { status: outcome.status, error: Some(message.clone()), latency_ms, retry_after_ms: wait.map(millis) });
        let Some(wait) = wait else {
            let message = if failure.retryable { message } else { format!("{message} (not retried)") };
            return Err(ProposeError::Failed { message, attempts });
        };
        tracing::warn!(attempt = number + 1, wait_ms = millis(wait), "{message}; retrying");
        tokio::time::sleep(wait).await;
    }
    unreachable!("the last attempt returns")
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_within_full_jitter_and_caps() {
        let policy = RetryPolicy { max_attempts: 5, base_delay: Duration::from_millis(100), max_delay: Duration::from_millis(350) };
        let mut rng = fastrand::Rng::with_seed(7);
        for (attempt, ceiling) in [(0, 100), (1, 200), (2, 350), (10, 350), (40, 350)] {
            let draws: Vec<u64> = (0..200).map(|_| millis(policy.delay(attempt, None, &mut rng))).collect();
            assert!(draws.iter().all(|&draw| draw <= ceiling), "attempt {attempt}: {draws:?}");
            assert!(draws.iter().any(|&draw| draw > ceiling / 2), "attempt {attempt}: jitter never reached the upper half");
        }
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_cap() {
        let policy = RetryPolicy { max_delay: Duration::from_secs(5), ..RetryPolicy::default() };
        let mut rng = fastrand::Rng::with_seed(1);
        assert_eq!(policy.delay(0, Some(Duration::from_secs(2)), &mut rng), Duration::from_secs(2));
        assert_eq!(policy.delay(3, Some(Duration::from_secs(60)), &mut rng), Duration::from_secs(5));
    }

    #[tokio::test]
    async fn zero_attempts_still_tries_once() {
        let policy = RetryPolicy { max_attempts: 0, ..RetryPolicy::default() };
        let result =
            with_retries(&policy, &[], || async { Attempt { status: Some(200), retry_after: None, result: Ok::<_, Failure>(1) } }).await;
        assert_eq!(result.unwrap().1.len(), 1);
    }
}
