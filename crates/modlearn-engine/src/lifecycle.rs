//! Host controls for lifecycle checks (`js/lifecycle.js`): a dispose that
//! reports what the mod's disposer left, running the virtual clock after
//! it, what remains (timers, pending promises, globals), and moving the
//! clock, reseeding or switching conversations between generations.

use serde::Deserialize;
use serde_json::{Value, json};

use modlearn_types::{CheckedDispose, Leftovers, ProfileCapabilities, Settled};

use crate::engine::{Engine, EngineError};

impl Engine {
    /// Disposes like [`Engine::dispose`], and reports what the disposers left
    /// registered before the host swept the registry, whether the mods'
    /// signals are aborted, and the diagnostics recorded meanwhile.
    pub fn dispose_checked(&mut self) -> Result<CheckedDispose, EngineError> {
        self.run_operation(json!({ "op": "checkedDispose" }))
    }

    /// Runs the virtual clock for `window_ms`, firing due timers one per step
    /// (each under the step budget), so that work a mod left running shows.
    pub fn settle(&mut self, window_ms: u64) -> Result<Settled, EngineError> {
        self.run_operation(json!({ "op": "settle", "windowMs": window_ms }))
    }

    /// Timers and pending promises of mods (any generation) and the globals
    /// mods added, as they stand.
    pub fn leftovers(&mut self) -> Result<Leftovers, EngineError> {
        self.run_operation(json!({ "op": "leaks" }))
    }

    /// Moves the virtual clock on by `advance_ms` without firing timers,
    /// reseeds `Math.random` and sets the conversation later tool and command
    /// runs belong to; each only when given.
    pub fn control(
        &mut self,
        advance_ms: Option<u64>,
        seed: Option<u32>,
        conversation_id: Option<&str>,
    ) -> Result<(), EngineError> {
        #[derive(Deserialize)]
        struct Controlled {}
        let mut args = serde_json::Map::new();
        args.insert("op".to_owned(), json!("control"));
        if let Some(ms) = advance_ms {
            args.insert("advanceMs".to_owned(), json!(ms));
        }
        if let Some(seed) = seed {
            args.insert("seed".to_owned(), json!(seed));
        }
        if let Some(id) = conversation_id {
            args.insert("conversationId".to_owned(), json!(id));
        }
        self.run_operation::<Controlled>(Value::Object(args)).map(|_| ())
    }

    /// The capability profile in force and the events it delivers.
    pub fn capabilities(&mut self) -> Result<ProfileCapabilities, EngineError> {
        self.run_operation(json!({ "op": "capabilities" }))
    }
}
