//! Stops JavaScript that runs past its budget. A thread per engine waits for
//! the armed deadline and terminates the isolate's execution when it passes;
//! the engine then learns from [`Watchdog::fired`] that it was a timeout.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use deno_core::v8::IsolateHandle;

#[derive(Default)]
struct State {
    deadline: Option<Instant>,
    shutdown: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    fired: AtomicBool,
}

/// A per-engine timer that terminates runaway JavaScript.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    pub(crate) fn new(isolate: IsolateHandle) -> Watchdog {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            fired: AtomicBool::new(false),
        });
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("modlearn-watchdog".into())
            .spawn(move || watch(&thread_shared, &isolate))
            .expect("spawning the watchdog thread");
        Watchdog { shared, thread: Some(thread) }
    }

    /// Terminates execution at `deadline` unless disarmed first.
    pub(crate) fn arm(&self, deadline: Instant) {
        self.shared.fired.store(false, Ordering::SeqCst);
        let mut state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
        state.deadline = Some(deadline);
        self.shared.wake.notify_one();
    }

    /// Cancels the armed deadline.
    pub(crate) fn disarm(&self) {
        let mut state = self.shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
        state.deadline = None;
    }

    /// Whether the last armed deadline terminated execution.
    pub(crate) fn fired(&self) -> bool {
        self.shared.fired.load(Ordering::SeqCst)
    }
}

fn watch(shared: &Shared, isolate: &IsolateHandle) {
    let mut state = shared.state.lock().unwrap_or_else(|poison| poison.into_inner());
    loop {
        if state.shutdown {
            return;
        }
        match state.deadline {
            None => {
                state = shared.wake.wait(state).unwrap_or_else(|poison| poison.into_inner());
            }
            Some(deadline) => {
                let now = Instant::now();
                if now >= deadline {
                    state.deadline = None;
                    shared.fired.store(true, Ordering::SeqCst);
                    isolate.terminate_execution();
                } else {
                    state = shared
                        .wake
                        .wait_timeout(state, deadline - now)
                        .unwrap_or_else(|poison| poison.into_inner())
                        .0;
                }
            }
        }
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
