//! `mod_loads`: no diagnostic of any severity, at least one mod loaded, and
//! the expected count when one is given (Letta's conditions), judged on the
//! registry as loading left it: like Letta's harness, which reads its snapshot
//! right after `reload()`, what later checks of the scenario record does not count.
//! An unhandled rejection is reported but not counted: Bun only prints it, and no host's
//! registry ever holds it.

use modlearn_spec::ModLoads;
use modlearn_types::{Fault, Observation, Probe};
use serde_json::json;

use crate::check::{Judged, unexpected};

pub(crate) fn probe() -> Probe {
    Probe::LoadSnapshot
}

pub(crate) fn judge(assertion: &ModLoads, observation: &Observation) -> Judged {
    let Observation::Snapshot { snapshot } = observation else {
        return unexpected(observation);
    };
    let loaded = snapshot.loaded_paths.len();
    let diagnostics: Vec<_> = snapshot.diagnostics.iter().filter(|diagnostic| diagnostic.fault != Fault::UnhandledRejection).collect();
    let mut details = json!({
        "loadedCount": loaded,
        "expectedLoadedCount": assertion.expected_loaded_count,
        "diagnostics": snapshot.diagnostics,
    });
    if !snapshot.pending.is_empty() {
        details["pending"] = json!(snapshot.pending);
    }
    let message = if !diagnostics.is_empty() {
        let first = diagnostics[0];
        format!("{} diagnostic(s); first: [{} {}] {}", diagnostics.len(), first.phase, first.fault.as_str(), first.message)
    } else if loaded == 0 && !snapshot.pending.is_empty() {
        let missing: Vec<&str> = snapshot
            .pending
            .iter()
            .flat_map(|plugin| plugin["missing"].as_array().into_iter().flatten())
            .filter_map(|name| name.as_str())
            .collect();
        format!("no mod loaded: the plugin is PENDING, waiting for {} (DSH reports no error)", missing.join(", "))
    } else if loaded == 0 {
        "no mod loaded".to_owned()
    } else if let Some(expected) = assertion.expected_loaded_count.filter(|&n| n as usize != loaded) {
        format!("expected {expected} loaded mod(s), got {loaded}")
    } else {
        return (true, format!("{loaded} mod(s) loaded with no diagnostics"), details);
    };
    (false, message, details)
}
