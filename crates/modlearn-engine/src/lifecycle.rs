//! Host controls for lifecycle checks (`js/lifecycle.js`): a dispose that
//! reports what the mod's disposer left, running the virtual clock after
//! it, what remains (timers, pending promises, globals), and moving the
//! clock, reseeding or switching conversations between generations.

use serde::Deserialize;

use modlearn_types::{CheckedDispose, Leftovers, ProfileCapabilities, Settled};

use crate::engine::{Engine, EngineError};
use crate::protocol::Operation;

impl Engine {
    /// Disposes like [`Engine::dispose`], and reports what the disposers left
    /// registered before the host swept the registry, whether the mods'
    /// signals are aborted, and the diagnostics recorded meanwhile.
    pub fn dispose_checked(&mut self) -> Result<CheckedDispose, EngineError> {
        self.run_operation(Operation::CheckedDispose)
    }

    /// Runs the virtual clock for `window_ms`, firing due timers one per step
    /// (each under the step budget), so that work a mod left running shows.
    pub fn settle(&mut self, window_ms: u64) -> Result<Settled, EngineError> {
        self.run_operation(Operation::Settle { window_ms })
    }

    /// Timers and pending promises of mods (any generation) and the globals
    /// mods added, as they stand.
    pub fn leftovers(&mut self) -> Result<Leftovers, EngineError> {
        self.run_operation(Operation::Leaks)
    }

    /// Moves the virtual clock on by `advance_ms` without firing timers,
    /// reseeds `Math.random` and sets the conversation later tool and command
    /// runs belong to; each only when given.
    pub fn control(&mut self, advance_ms: Option<u64>, seed: Option<u32>, conversation_id: Option<&str>) -> Result<(), EngineError> {
        #[derive(Deserialize)]
        struct Controlled {}
        let operation = Operation::Control { advance_ms, seed, conversation_id: conversation_id.map(str::to_owned) };
        self.run_operation::<Controlled>(operation).map(|_| ())
    }

    /// The capability profile in force and the events it delivers.
    pub fn capabilities(&mut self) -> Result<ProfileCapabilities, EngineError> {
        self.run_operation(Operation::Capabilities)
    }
}
