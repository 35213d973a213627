//! Stops JavaScript that runs past its budget. The budget is CPU time of the
//! engine's thread, not wall time: a loaded machine must not turn a slow
//! but finite handler into a timeout, or verdicts would depend on load. A
//! thread per engine sleeps until the budget could be used up, checks the
//! thread's CPU clock, and terminates the isolate's execution once it is.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use deno_core::v8::IsolateHandle;

/// The CPU-time clock of one thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ThreadCpuClock(libc::clockid_t);

impl ThreadCpuClock {
    /// The calling thread's clock.
    pub(crate) fn current() -> ThreadCpuClock {
        let mut clock: libc::clockid_t = 0;
        // SAFETY: pthread_self is always valid for the calling thread; clock is a valid out pointer.
        let status = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
        if status != 0 {
            return ThreadCpuClock(libc::CLOCK_MONOTONIC);
        }
        ThreadCpuClock(clock)
    }

    /// CPU time the thread has used so far.
    pub(crate) fn now(self) -> Duration {
        let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: time is a valid out pointer; an invalid clock id only makes this fail.
        if unsafe { libc::clock_gettime(self.0, &mut time) } != 0 {
            return Duration::ZERO;
        }
        Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
    }
}

/// What the watchdog is waiting for: `budget` more CPU time on `clock` from `start`.
#[derive(Clone, Copy)]
struct Armed {
    clock: ThreadCpuClock,
    start: Duration,
    budget: Duration,
}

#[derive(Default)]
struct State {
    armed: Option<Armed>,
    shutdown: bool,
    /// When the watchdog thread will next look on its own; `None` while it waits to be armed.
    next_look: Option<Instant>,
    /// Wall time the armed step may still spend waiting for its machine's commands (they use
    /// no CPU time of this thread, so the CPU budget alone would let a step wait forever).
    machine_left: Duration,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    fired: AtomicBool,
    isolate: IsolateHandle,
}

/// A per-engine timer that terminates runaway JavaScript.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    pub(crate) fn new(isolate: IsolateHandle) -> Watchdog {
        let shared = Arc::new(Shared { state: Mutex::new(State::default()), wake: Condvar::new(), fired: AtomicBool::new(false), isolate });
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("modlearn-watchdog".into())
            .spawn(move || watch(&thread_shared))
            .expect("spawning the watchdog thread");
        Watchdog { shared, thread: Some(thread) }
    }

    /// Terminates execution once the calling thread has used `budget` more CPU time.
    pub(crate) fn arm(&self, budget: Duration) {
        self.shared.fired.store(false, Ordering::SeqCst);
        let clock = ThreadCpuClock::current();
        let mut state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
        state.armed = Some(Armed { clock, start: clock.now(), budget });
        state.machine_left = budget;
        // A thread that will look before this budget could run out re-reads the arming then, so
        // only an idle (or later) one is woken: a step costs no thread switch (host calls arm
        // dozens of times per scenario, each far below its budget).
        let earliest_end = Instant::now() + budget;
        if state.next_look.is_none_or(|look| look > earliest_end) {
            self.shared.wake.notify_one();
        }
    }

    /// Cancels the armed budget.
    pub(crate) fn disarm(&self) {
        let mut state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
        state.armed = None;
    }

    /// Records that the budget ran out without a termination (see the engine's step loop).
    pub(crate) fn mark_fired(&self) {
        self.shared.fired.store(true, Ordering::SeqCst);
    }

    /// Whether the last armed budget terminated execution.
    pub(crate) fn fired(&self) -> bool {
        self.shared.fired.load(Ordering::SeqCst)
    }

    /// The armed step's budget for waiting on its machine.
    pub(crate) fn machine_budget(&self) -> MachineBudget {
        MachineBudget { shared: Arc::clone(&self.shared) }
    }
}

/// The wall time a step may spend on its machine's commands: as much as its CPU budget, spent
/// as commands run; a command killed at its deadline ends the step as a timeout.
#[derive(Clone)]
pub(crate) struct MachineBudget {
    shared: Arc<Shared>,
}

impl MachineBudget {
    /// What the armed step has left (nothing when no step is armed).
    pub(crate) fn left(&self) -> Duration {
        let state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
        if state.armed.is_some() { state.machine_left } else { Duration::ZERO }
    }

    /// Takes `spent` off what the armed step has left.
    pub(crate) fn spend(&self, spent: Duration) {
        let mut state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
        state.machine_left = state.machine_left.saturating_sub(spent);
    }

    /// Ends the armed step as out of time, as the CPU budget's end does.
    pub(crate) fn expire(&self) {
        self.shared.fired.store(true, Ordering::SeqCst);
        self.shared.isolate.terminate_execution();
    }
}

fn watch(shared: &Shared) {
    let isolate = &shared.isolate;
    let mut state = shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
    loop {
        if state.shutdown {
            return;
        }
        let Some(armed) = state.armed else {
            state.next_look = None;
            state = shared.wake.wait(state).unwrap_or_else(|poison| poison.into_inner());
            continue;
        };
        let used = armed.clock.now().saturating_sub(armed.start);
        if used >= armed.budget {
            state.armed = None;
            shared.fired.store(true, Ordering::SeqCst);
            isolate.terminate_execution();
            continue;
        }
        // CPU time cannot pass faster than wall time: sleep at least the rest of the budget.
        let rest = (armed.budget - used).max(Duration::from_millis(1));
        let until = Instant::now() + rest;
        state.next_look = Some(until);
        state =
            shared.wake.wait_timeout(state, until.saturating_duration_since(Instant::now())).unwrap_or_else(|poison| poison.into_inner()).0;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        {
            let mut state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
            state.shutdown = true;
            self.shared.wake.notify_one();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
