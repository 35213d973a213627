//! Observations built by hand for the check modules' tests.

use modlearn_types::{Diagnostic, Emission, Fault, Observation, RegistrySnapshot, Severity};
use serde_json::{Value, json};

/// A diagnostic of `phase` with `message`.
pub(crate) fn diagnostic(phase: &str, message: &str) -> Diagnostic {
    Diagnostic {
        capability: None,
        error_name: "Error".to_owned(),
        hint: None,
        owner: None,
        message: message.to_owned(),
        phase: phase.to_owned(),
        severity: Severity::Error,
        stack: None,
        timestamp: "2026-01-01T00:00:00.000Z".to_owned(),
        fault: Fault::Exception,
    }
}

/// An emission of `name` to `handlers` handlers, ending with `after`.
pub(crate) fn emitted(name: &str, handlers: usize, before: Value, after: Value, diagnostics: Vec<Diagnostic>) -> Observation {
    Observation::Emitted {
        before,
        after,
        emission: Emission { diagnostics, handler_count: handlers, name: name.to_owned(), results: Vec::new() },
        compared: None,
    }
}

/// A registry snapshot with these tools and commands (as the engine writes them).
pub(crate) fn snapshot(tools: Value, commands: Value) -> Observation {
    let snapshot: RegistrySnapshot = serde_json::from_value(json!({
        "generation": 1, "loadedPaths": ["/c/m.js"], "diagnostics": [], "events": {},
        "tools": tools, "commands": commands, "permissions": [], "providers": [], "panels": [],
        "timers": 0, "notifications": [],
    }))
    .expect("a valid snapshot");
    Observation::Snapshot { snapshot }
}
